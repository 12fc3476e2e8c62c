//! What the tests of every crate share and nothing ships: the in-process stores
//! (memory, counting, failing) and the two contract suites every store must pass.
//! A dev-dependency only (`publish = false`).
//!
//! Every path names the crate where its item lives (`dochiya_store::…`,
//! `dochiya_domain::…`, `dochiya_ledger::…`); this crate re-exports none of them.

pub mod contract;
pub mod memory;
pub mod testing;

/// Keeps the items inside only when this crate's `moto` feature is on: the tests that
/// need the moto server, inside a test target that also runs without it.
#[cfg(feature = "moto")]
#[macro_export]
macro_rules! moto_only {
    ($($item:item)*) => { $($item)* };
}

/// Keeps the items inside only when this crate's `moto` feature is on (it is off).
#[cfg(not(feature = "moto"))]
#[macro_export]
macro_rules! moto_only {
    ($($item:item)*) => {};
}
