//! Recording and voiding (temporary surface; behaviour follows in the next commit).
use super::*;
pub(super) async fn record(_l: &Ledger, _w: &PersonId, _i: NewSplit) -> Result<Recorded, LedgerError> {
    Err(LedgerError::internal("not built yet"))
}
pub(super) async fn void(
    _l: &Ledger,
    _w: &PersonId,
    _v: Option<&str>,
    _id: TransactionId,
    _r: Option<&str>,
) -> Result<Voided, LedgerError> {
    Err(LedgerError::internal("not built yet"))
}
