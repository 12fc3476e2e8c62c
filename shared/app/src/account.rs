//! Deleting a person's data (decision 059): the one sequence that the operator's
//! `dochiya-mcp delete-person` and the account page run. The authorization server forgets them first (no
//! refresh can mint a token after), then the ledger deletes their data and marks them
//! closed (a token issued before is refused).

use dochiya_authserver::forget::{Forgotten, forget};
use dochiya_domain::PersonId;
use dochiya_ledger::Ledger;
use dochiya_ledger::api::{DeletedPerson, LedgerError};
use dochiya_store::{Store, StoreError};

/// What deleting a person removed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PersonDeletion {
    /// The authorization server's part.
    pub grants: Forgotten,
    /// The ledger's part.
    pub ledger: DeletedPerson,
}

/// Why a deletion stopped part-way (running it again finishes it).
#[derive(Debug, thiserror::Error)]
pub enum DeletionError {
    /// The subject cannot name a person.
    #[error("not a usable subject")]
    Subject,
    /// Ending their grants failed.
    #[error("ending the person's grants")]
    Grants(#[source] StoreError),
    /// The ledger's part failed.
    #[error("deleting the person's ledger data")]
    Ledger(#[source] LedgerError),
}

/// Delete everything of `sub`: grants and consents, then ledger data.
pub async fn delete_person(
    ledger: &Ledger,
    store: &dyn Store,
    sub: &str,
) -> Result<PersonDeletion, DeletionError> {
    let who = PersonId::new(sub).map_err(|_| DeletionError::Subject)?;
    let grants = forget(store, sub).await.map_err(DeletionError::Grants)?;
    let ledger = ledger.delete_person(&who).await.map_err(DeletionError::Ledger)?;
    Ok(PersonDeletion { grants, ledger })
}

/// The summary the command prints.
pub fn summary(sub: &str, d: &PersonDeletion) -> String {
    let left: Vec<String> = d
        .ledger
        .left
        .iter()
        .map(|l| match &l.new_owner {
            Some(owner) => format!("\"{}\" (now owned by {owner})", l.vault),
            None => format!("\"{}\"", l.vault),
        })
        .collect();
    let deleted: Vec<String> = d.ledger.deleted.iter().map(|v| format!("\"{v}\"")).collect();
    format!(
        "dochiya: deleted person {sub:?}: vaults deleted [{}]; shared vaults left [{}]; {} other records; {} grants ended, {} consents removed",
        deleted.join(", "),
        left.join(", "),
        d.ledger.records,
        d.grants.grants,
        d.grants.consents
    )
}
