//! Deleting a vault (decision 057): the `delete_vault` tool's operation; the closing write
//! and what follows it are in `closing`.

use crate::ledger::closing;
use crate::ledger::*;

impl Ledger {
    /// Delete a vault and everything of it (owner only, `confirm` its name typed
    /// again); `dry_run` counts what would go. Finishes a deletion an earlier call left.
    pub async fn delete_vault(
        &self,
        who: &PersonId,
        vault: &str,
        confirm: &str,
        dry_run: bool,
    ) -> Result<DeletedVault, LedgerError> {
        closing::delete_vault(self, who, vault, confirm, dry_run).await
    }
}
