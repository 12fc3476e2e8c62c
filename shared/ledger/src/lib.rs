//! The household ledger (docs/design.md §4–§7): vaults, accounts, balanced
//! transactions and snapshots, written once over the item-level [`dochiya_store::Store`].
//!
//! Entry point: [`Ledger`] (one method per tool of docs/tools.md), its inputs and
//! results in [`ledger::types`], failures in [`LedgerError`], values in [`dochiya_domain`].
//! The values and the storage contract are named by their own crates (`dochiya_domain`,
//! `dochiya_store`); this crate does not pass them on.

// The vocabulary and the stored shape are a crate of their own (dochiya-schema),
// re-exported under the old paths until the two crates are one.
pub use dochiya_schema::{error, keys};
pub mod ledger;

pub use error::{AccountShape, EditShape, Entity, ErrorKind, Field, LedgerError, Match, OwnerAction, Side};
pub use ledger::{ConfigError, Ledger, LedgerConfig};
