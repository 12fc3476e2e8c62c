//! The household ledger (docs/design.md §4–§7): vaults, accounts, balanced
//! transactions and snapshots, written once over the item-level [`dochiya_store::Store`].
//!
//! Entry point: [`Ledger`] (one method per tool of docs/tools.md); what a tool sends
//! and gets back, and why a call was refused, in [`api`]; the stored items in
//! [`stored`]; the backup file and the export formats in [`portability`]. Values are
//! `dochiya_domain`'s, the storage contract `dochiya_store`'s.

pub mod api;
mod core;
pub mod ledger;
pub mod portability;
pub mod stored;

// The entry point at the crate's root: the service and its configuration.
pub use ledger::{ConfigError, Ledger, LedgerConfig};
