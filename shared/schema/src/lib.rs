//! The ledger's vocabulary and stored shape, apart from its operations
//! (docs/architecture.md): what a tool asks and gets back ([`types`]), how it fails
//! ([`error`]), where things live in the one table ([`keys`]) and what a stored item
//! holds ([`codec`]).
//!
//! These change far less often than the operations in dochiya-ledger, so an edit to
//! an operation does not rebuild them, and they stay small enough to read whole.

pub mod backup;
pub mod codec;
pub mod cursor;
pub mod error;
pub mod export;
pub mod guards;
pub mod hint;
pub mod keys;
pub mod minted;
pub mod types;

#[cfg(test)]
mod properties_tests;

pub use error::{AccountShape, EditShape, Entity, ErrorKind, Field, LedgerError, Match, OwnerAction, Side};
