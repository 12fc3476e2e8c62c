//! The store contract suite against the in-process [`MemoryStore`] stand-in,
//! so the stand-in the ledger's own tests use keeps the same rules as real stores.

use dochiya_testkit::memory::MemoryStore;

dochiya_testkit::store_contract_tests!(async { MemoryStore::new() });
