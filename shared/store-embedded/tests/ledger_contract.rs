//! The ledger contract suite (operations, races, isolation, read budgets) over
//! the embedded store, on a file and in memory.

mod common;

mod memory {
    use dochiya_store_embedded::EmbeddedStore;

    dochiya_testkit::ledger_contract_tests!(async { EmbeddedStore::in_memory().expect("in-memory store") });
}

mod file {
    use super::common::FileStore;

    dochiya_testkit::ledger_contract_tests!(async { FileStore::new() });
}
