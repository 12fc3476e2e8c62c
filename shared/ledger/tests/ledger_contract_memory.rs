//! The ledger contract suite against the in-process [`MemoryStore`] stand-in
//! (store crates run the same suite against their own stores), and the tests of the
//! input rules, which run here only (they do not depend on the store).

use dochiya_testkit::memory::MemoryStore;

dochiya_testkit::ledger_contract_tests!(async { MemoryStore::new() });
dochiya_testkit::ledger_rule_tests!(async { MemoryStore::new() });
