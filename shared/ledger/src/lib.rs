//! The household ledger (docs/design.md §4–§7): vaults, accounts, balanced
//! transactions and snapshots, written once over the item-level [`store::Store`].
//!
//! Entry point: [`Ledger`] (one method per tool of docs/tools.md), its inputs and
//! results in [`ledger::types`], failures in [`LedgerError`], values in [`domain`].

pub mod domain;
pub mod error;
pub mod keys;
pub mod ledger;
pub mod store;

#[cfg(feature = "contract")]
pub mod contract;

pub use error::{AccountShape, EditShape, Entity, ErrorKind, Field, LedgerError, Match, OwnerAction, Side};
pub use ledger::{ConfigError, Ledger, LedgerConfig};
