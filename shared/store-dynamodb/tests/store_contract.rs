//! The store contract suite (dochiya_ledger::contract::store_suite) against
//! DynamoDB on the local moto server, each test on a table of its own.

mod common;

dochiya_ledger::store_contract_tests!(async { common::fresh_store("store").await.0 });
