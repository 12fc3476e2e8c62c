//! The household ledger (docs/design.md §4–§7): vaults, accounts, balanced
//! transactions and snapshots, written once over the item-level [`store::Store`].
//!
//! Entry point: [`Ledger`] (one method per tool of docs/tools.md), its inputs and
//! results in [`ledger::types`], failures in [`LedgerError`], values in [`domain`].

// The values and the storage contract are crates of their own (dochiya-domain,
// dochiya-store); re-exported under their old names so `crate::domain::…` and
// `dochiya_ledger::store::…` paths read as before.
pub use dochiya_domain as domain;
pub use dochiya_store as store;

// The vocabulary and the stored shape are a crate of their own (dochiya-schema),
// re-exported under the old paths.
pub use dochiya_schema::{error, keys};
pub mod ledger;

pub use error::{AccountShape, EditShape, Entity, ErrorKind, Field, LedgerError, Match, OwnerAction, Side};
pub use ledger::{ConfigError, Ledger, LedgerConfig};
