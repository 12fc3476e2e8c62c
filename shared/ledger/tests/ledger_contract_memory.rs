//! The ledger contract suite against the in-process [`MemoryStore`] stand-in
//! (store crates run the same suite against their own stores).

use dochiya_testkit::store::memory::MemoryStore;

dochiya_testkit::ledger_contract_tests!(async { MemoryStore::new() });
