//! What the tests of every crate share and nothing ships: the in-process stores
//! (memory, counting, failing) and the two contract suites every store must pass.
//! A dev-dependency only (`publish = false`).
//!
//! The modules keep the paths they had inside the ledger crate (`crate::store::…`,
//! `crate::domain::…`, `crate::ledger::…`, `crate::error::…`, `crate::keys::…`), so a
//! suite file reads the same here as it did there.

pub use dochiya_domain as domain;
pub use dochiya_ledger::{error, keys, ledger};

/// The storage contract, with the test doubles beside it.
pub mod store {
    pub use dochiya_store::*;

    pub mod memory;
    pub mod testing;
}

pub mod contract;
