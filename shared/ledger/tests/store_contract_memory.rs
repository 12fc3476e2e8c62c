//! The store contract suite against the in-process [`MemoryStore`] stand-in,
//! so the stand-in the ledger's own tests use keeps the same rules as real stores.
#![cfg(feature = "contract")]

use dochiya_ledger::store::memory::MemoryStore;

dochiya_ledger::store_contract_tests!(async { MemoryStore::new() });
