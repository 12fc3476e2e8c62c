//! The ledger contract suite (dochiya_ledger::contract::ledger_suite) over the
//! DynamoDB store on the local moto server, each test on a table of its own.

mod common;

dochiya_ledger::ledger_contract_tests!(async { common::fresh_store("ledger").await.0 });
