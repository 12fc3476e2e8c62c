//! What a tool sends the ledger, what it gets back, and why a call was refused: plain
//! data, no store and no operation. Each item has one public path, `dochiya_ledger::api::…`,
//! and lives in the file of its entity (`vaults.rs`, `accounts.rs`, `transactions.rs`, …).
//!
//! Inputs carry NAMES (vault, accounts) as the caller wrote them; the ledger resolves
//! them. Results carry ids and `Money`; the tools layer renders them.

mod accounts;
mod budgets;
mod cards;
mod error;
mod household;
mod names;
mod plans;
mod reason;
mod recurring;
mod reports;
mod sharing;
mod snapshots;
mod transactions;
mod undo;
mod vaults;

pub use accounts::*;
pub use budgets::*;
pub use cards::*;
pub use error::*;
pub use household::*;
pub use names::*;
pub use plans::*;
pub use reason::*;
pub use recurring::*;
pub use reports::*;
pub use sharing::*;
pub use snapshots::*;
pub use transactions::*;
pub use undo::*;
pub use vaults::*;
