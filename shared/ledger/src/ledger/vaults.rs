//! Vault operations (temporary surface; behaviour follows in the next commit).
use super::*;
use crate::domain::PersonId;
pub(super) async fn list_vaults(_l: &Ledger, _w: &PersonId) -> Result<VaultList, LedgerError> {
    Err(LedgerError::internal("list_vaults is not built yet"))
}
pub(super) async fn create_vault(
    _l: &Ledger,
    _w: &PersonId,
    _i: NewVault,
) -> Result<CreatedVault, LedgerError> {
    Err(LedgerError::internal("not built yet"))
}
pub(super) async fn rename_vault(
    _l: &Ledger,
    _w: &PersonId,
    _v: &str,
    _n: &str,
) -> Result<RenamedVault, LedgerError> {
    Err(LedgerError::internal("not built yet"))
}
