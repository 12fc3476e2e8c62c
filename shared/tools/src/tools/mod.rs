//! The tools of TOOLS.md, one module each, in the order `tools/list` shows them.

pub(crate) mod archive_account;
pub(crate) mod create_account;
pub(crate) mod create_vault;
pub(crate) mod delete_snapshot;
pub(crate) mod edit_transaction;
pub(crate) mod get_balances;
pub(crate) mod get_transaction;
pub(crate) mod list_accounts;
pub(crate) mod list_snapshots;
pub(crate) mod list_transactions;
pub(crate) mod list_vaults;
pub(crate) mod net_worth_history;
pub(crate) mod reconcile;
pub(crate) mod record_split_transaction;
pub(crate) mod record_transaction;
mod recorded;
pub(crate) mod rename_account;
pub(crate) mod rename_vault;
pub(crate) mod spending_report;
pub(crate) mod upsert_snapshot;
pub(crate) mod void_transaction;
