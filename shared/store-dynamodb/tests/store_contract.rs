//! The store contract suite (dochiya_testkit::contract::store_suite) against
//! DynamoDB on the local moto server, each test on a table of its own.

mod common;

dochiya_testkit::store_contract_tests!(async { common::fresh_store("store").await.0 });
