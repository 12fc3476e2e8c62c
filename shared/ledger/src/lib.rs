//! The household ledger (DESIGN.md §4–§7): vaults, accounts, balanced
//! transactions and snapshots, written once over the item-level [`store::Store`].

pub mod store;

#[cfg(feature = "contract")]
pub mod contract;
