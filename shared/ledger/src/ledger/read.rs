//! Transaction reads (temporary surface; behaviour follows in the next commit).
use super::*;
pub(super) async fn get_transaction(
    _l: &Ledger,
    _w: &PersonId,
    _v: Option<&str>,
    _id: TransactionId,
) -> Result<TransactionView, LedgerError> {
    Err(LedgerError::internal("not built yet"))
}
pub(super) async fn list_transactions(
    _l: &Ledger,
    _w: &PersonId,
    _q: TransactionQuery,
) -> Result<TransactionPage, LedgerError> {
    Err(LedgerError::internal("not built yet"))
}
