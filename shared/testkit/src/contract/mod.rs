//! Contract suites every [`dochiya_store::Store`] must pass, generic over the store.
//!
//! Store crates instantiate them from their own tests with the macros defined
//! here, so the embedded and DynamoDB stores are held to the same rules.

pub mod ledger_suite;
pub mod store_suite;
