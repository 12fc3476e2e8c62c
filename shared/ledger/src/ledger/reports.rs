//! Reports (temporary surface; behaviour follows in the next commit).
use super::*;
pub(super) async fn get_balances(
    _l: &Ledger,
    _w: &PersonId,
    _v: Option<&str>,
    _a: Option<LocalDate>,
) -> Result<Balances, LedgerError> {
    Err(LedgerError::internal("not built yet"))
}
pub(super) async fn spending_report(
    _l: &Ledger,
    _w: &PersonId,
    _r: ReportRequest,
) -> Result<SpendingReport, LedgerError> {
    Err(LedgerError::internal("not built yet"))
}
pub(super) async fn net_worth_history(
    _l: &Ledger,
    _w: &PersonId,
    _v: Option<&str>,
    _f: YearMonth,
    _t: YearMonth,
) -> Result<NetWorthHistory, LedgerError> {
    Err(LedgerError::internal("not built yet"))
}
