//! What the tests of every crate share and nothing ships: the in-process stores
//! (memory, counting, failing) and the two contract suites every store must pass.
//! A dev-dependency only (`publish = false`).
//!
//! Every path names the crate where its item lives (`dochiya_store::…`,
//! `dochiya_domain::…`, `dochiya_ledger::…`); this crate re-exports none of them.

pub mod contract;
pub mod memory;
pub mod testing;
