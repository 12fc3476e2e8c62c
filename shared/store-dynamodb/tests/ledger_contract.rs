//! The ledger contract suite (dochiya_testkit::contract::ledger_suite) over the
//! DynamoDB store on the local moto server, each test on a table of its own.

mod common;

// moto takes ~0.2 s per transaction write, so the report test records 240
// transactions here (480 postings against a bound of 81 items read) instead of
// 1,000; the embedded store runs the full 1,000. The ledger issues the same
// queries on every store, so the bound is proven either way.
dochiya_testkit::ledger_contract_tests!(
    async { common::fresh_store("ledger").await.0 },
    report_transactions = 240
);
