//! The operations: one module per family of tools, each with its own `impl Ledger`
//! block of public methods (what the tools call). An operation never imports another
//! (`tests/lint/import_circles.py`); what several need lives beside this directory, in
//! the ledger's helper modules (the roster, resolution, the writer, the shared reads).

pub(super) mod accounts;
pub(super) mod backup;
pub(super) mod batch;
pub(super) mod budgets;
pub(super) mod cards;
pub(super) mod deletion;
pub(super) mod edit;
pub(super) mod export;
pub(super) mod forget;
pub(super) mod goal_setting;
pub(super) mod read;
pub(super) mod record;
pub(super) mod recurring;
pub(super) mod regroup;
pub(super) mod reports;
pub(super) mod restore;
pub(super) mod sharing;
pub(super) mod snapshots;
pub(super) mod undo;
pub(super) mod vaults;
pub(super) mod word_setting;
