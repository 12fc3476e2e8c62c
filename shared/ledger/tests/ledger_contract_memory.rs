//! The ledger contract suite against the in-process [`MemoryStore`] stand-in
//! (store crates run the same suite against their own stores).
#![cfg(feature = "contract")]

use dochiya_ledger::store::memory::MemoryStore;

dochiya_ledger::ledger_contract_tests!(async { MemoryStore::new() });
