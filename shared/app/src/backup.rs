//! `dochiya-mcp export` and `import`: a vault's full backup as JSON lines on
//! stdout, and its restore from stdin, against whichever store is configured.
//! The format and the restore's guarantees are the ledger's (`Backup`, `Ledger::restore`).

use std::fmt;
use std::sync::Arc;

use dochiya_domain::{PersonId, SystemClock};
use dochiya_ledger::api::LedgerError;
use dochiya_ledger::portability::backup::{Backup, BackupError};
use dochiya_ledger::{Ledger, LedgerConfig};

use crate::{AppConfig, StartupError, assemble, logging};

fn failed(e: impl std::error::Error + Send + Sync + 'static) -> StartupError {
    StartupError::Backup(Box::new(e))
}

/// A ledger failure as the person at the terminal reads it: the tools' wording (the
/// ledger's own `Display` is a terse log line), its causes kept.
#[derive(Debug)]
struct Worded(LedgerError);

impl fmt::Display for Worded {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&dochiya_tools::wording::describe(&self.0))
    }
}

impl std::error::Error for Worded {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        std::error::Error::source(&self.0)
    }
}

/// A restore's failure as printed: a ledger cause [`Worded`], the rest as the backup says.
#[derive(Debug, thiserror::Error)]
enum Restore {
    /// The store failed (as `BackupError::Store` reads).
    #[error("store")]
    Store(#[source] Worded),
    /// Anything else about the backup.
    #[error(transparent)]
    Other(BackupError),
}

fn ledger_failed(e: LedgerError) -> StartupError {
    failed(Worded(e))
}

fn restore_failed(e: BackupError) -> StartupError {
    match e {
        BackupError::Store(e) => failed(Restore::Store(Worded(e))),
        other => failed(Restore::Other(other)),
    }
}

async fn ledger(app: &AppConfig) -> Result<Ledger, StartupError> {
    logging::init(&app.log_filter, false);
    let store = assemble::open_store(app).await?;
    let config = LedgerConfig::default();
    Ok(Ledger::new(store, Arc::new(SystemClock), config))
}

/// Write the backup of `sub`'s vault `vault` to stdout; a summary goes to stderr.
pub async fn export(app: &AppConfig, vault: Option<&str>, sub: &str) -> Result<(), StartupError> {
    let who = PersonId::new(sub).map_err(|e| StartupError::Backup(format!("--sub {sub:?}: {e}").into()))?;
    let ledger = ledger(app).await?;
    let backup = ledger.backup(&who, vault).await.map_err(ledger_failed)?;
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    backup.write_jsonl(&mut out).map_err(failed)?;
    eprintln!(
        "dochiya: exported vault \"{}\" ({}): {} items, {} persons",
        backup.vault_name,
        backup.vault_id,
        backup.items.len(),
        backup.persons.len()
    );
    Ok(())
}

/// Restore the backup on stdin, under the `persons` mapping; a summary goes to stderr.
/// With `check`, only read and check it and say whom it would give access: the store
/// is not opened.
pub async fn import(app: &AppConfig, persons: &[(String, String)], check: bool) -> Result<(), StartupError> {
    let mut backup = Backup::read_jsonl(std::io::stdin().lock()).map_err(failed)?;
    for (old, new) in persons {
        backup.rename_person(old, new).map_err(failed)?;
    }
    if check {
        backup.check_scope().map_err(failed)?;
        eprintln!("{}", access_summary(&backup).map_err(failed)?);
        return Ok(());
    }
    let ledger = ledger(app).await?;
    let restored = ledger.restore(&backup).await.map_err(restore_failed)?;
    if restored.already_there {
        eprintln!(
            "dochiya: vault \"{}\" ({}) is already here exactly as in the backup; nothing changed",
            backup.vault_name, backup.vault_id
        );
    } else {
        eprintln!(
            "dochiya: imported vault \"{}\" ({}): {} items written, {} left over from an earlier attempt deleted",
            backup.vault_name, backup.vault_id, restored.written, restored.deleted
        );
    }
    Ok(())
}

/// What `import --check` prints: the vault, its size, and each person the import gives
/// a membership (what an operator confirms before importing a file they were given).
fn access_summary(backup: &Backup) -> Result<String, BackupError> {
    let mut out = format!(
        "dochiya: vault \"{}\" ({}), {} items; importing it gives access to:",
        backup.vault_name,
        backup.vault_id,
        backup.items.len()
    );
    for m in backup.members()? {
        let role = m.role.map_or("owner", |r| r.as_str());
        let name = m.name.unwrap_or_else(|| "(its creator)".to_owned());
        out.push_str(&format!("\n  {role} {name:?}, sub {}", m.person));
    }
    out.push_str("\nnothing was written (--check)");
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use dochiya_ledger::api::Entity;
    use dochiya_store::StoreError;

    #[test]
    fn ledger_failures_print_as_the_tools_word_them_with_their_causes() {
        let missing = ledger_failed(LedgerError::NotFound {
            what: Entity::Vault,
            name: "x".into(),
            within: None,
            candidates: vec![],
        });
        assert_eq!(
            dochiya_protocol::cause_chain(&missing),
            "backup: No vault named \"x\". Call list_vaults to see what exists or create_vault to make it."
        );
        let down = restore_failed(BackupError::Store(LedgerError::Transient(StoreError::Transient(
            "throttled".into(),
        ))));
        assert_eq!(
            dochiya_protocol::cause_chain(&down),
            "backup: store: The ledger store is temporarily unavailable; call again in a moment with the same arguments.: transient store failure: throttled"
        );
        let other = restore_failed(BackupError::NotABackup("empty".into()));
        assert_eq!(
            dochiya_protocol::cause_chain(&other),
            "backup: not a dochiya backup: empty"
        );
    }
}
