//! Account operations (temporary surface; behaviour follows in the next commit).
use super::*;
pub(super) async fn list_accounts(
    _l: &Ledger,
    _w: &PersonId,
    _v: Option<&str>,
    _a: bool,
) -> Result<AccountList, LedgerError> {
    Err(LedgerError::internal("not built yet"))
}
pub(super) async fn create_account(
    _l: &Ledger,
    _w: &PersonId,
    _i: NewAccount,
) -> Result<CreatedAccount, LedgerError> {
    Err(LedgerError::internal("not built yet"))
}
pub(super) async fn rename_account(
    _l: &Ledger,
    _w: &PersonId,
    _v: Option<&str>,
    _a: &str,
    _n: &str,
) -> Result<RenamedAccount, LedgerError> {
    Err(LedgerError::internal("not built yet"))
}
pub(super) async fn archive_account(
    _l: &Ledger,
    _w: &PersonId,
    _v: Option<&str>,
    _a: &str,
) -> Result<ArchivedAccount, LedgerError> {
    Err(LedgerError::internal("not built yet"))
}
