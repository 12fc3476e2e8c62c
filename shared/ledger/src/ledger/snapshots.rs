//! Snapshots (temporary surface; behaviour follows in the next commit).
use super::*;
pub(super) async fn reconcile(
    _l: &Ledger,
    _w: &PersonId,
    _v: Option<&str>,
    _a: Option<&str>,
) -> Result<Reconciliation, LedgerError> {
    Err(LedgerError::internal("not built yet"))
}
pub(super) async fn upsert_snapshot(
    _l: &Ledger,
    _w: &PersonId,
    _i: SnapshotInput,
) -> Result<SnapshotOutcome, LedgerError> {
    Err(LedgerError::internal("not built yet"))
}
