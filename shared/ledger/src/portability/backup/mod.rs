//! A vault's full-fidelity backup: what it holds and its file format (the ledger's
//! `backup` module reads one from a store and restores one into a store).
//!
//! A backup is an item-level copy: every item of the vault's partition (settings,
//! accounts and their heads, rollups, transactions with their versions, snapshots,
//! budgets, members, guards, and whatever later features keep there) and the
//! items in each member's own partition that belong to the vault (their
//! membership, their claim on its name, their idempotency records for it). Items
//! travel as they are stored, so ids, versions and history survive, and a feature
//! that adds items or attributes is carried without a change here. Invites are
//! left out: they live under the hash of a code nobody keeps, and expire in days.
//!
//! The file is JSON lines (`jsonl.rs`): a versioned header, one item per line,
//! and a trailer with the count and a SHA-256 of the item lines, so a truncated or
//! altered file is refused before anything is written. dochiya-ledger's `restore.rs`
//! says why a failed restore is invisible and resumable.

mod file;
mod scope;

use crate::api::LedgerError;
use crate::stored::{member, table};
use dochiya_domain::{PersonId, VaultId};
use dochiya_store::{Item, Value};

pub use file::{BACKUP_FORMAT, BACKUP_VERSION};
pub use scope::BackupMember;

/// A vault's backup in memory: what the file's header says, and every item.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Backup {
    /// The vault's id (its partition in every store).
    pub vault_id: VaultId,
    /// Its name when backed up.
    pub vault_name: String,
    /// The subjects (`sub`) of the people keeping it.
    pub persons: Vec<String>,
    /// When the backup was made, epoch milliseconds.
    pub exported_at_ms: i64,
    /// The vault partition's items in sort-key order, then each person's items.
    pub items: Vec<Item>,
}

/// Why a backup cannot be read or restored. Nothing was written in any case
/// except [`BackupError::Store`] during the writes (see `restore.rs`).
#[derive(Debug, thiserror::Error)]
pub enum BackupError {
    /// Not a dochiya backup at all.
    #[error("not a dochiya backup: {0}")]
    NotABackup(String),
    /// A backup of a format version this build does not read.
    #[error(
        "backup format version {found} is not one this dochiya reads (it reads version {BACKUP_VERSION}); use the dochiya that made it, or a newer one"
    )]
    Version {
        /// The version in the header.
        found: i64,
    },
    /// A line that is not an item of this vault's backup.
    #[error("line {line}: {message}")]
    BadLine {
        /// 1-based line number.
        line: usize,
        /// What is wrong with it.
        message: String,
    },
    /// The file ends before its trailer, or holds other items than the trailer counts.
    #[error("the backup is truncated or altered: {0}; nothing was written. Export it again")]
    Truncated(String),
    /// A person the backup restores already has another vault of that name here.
    #[error(
        "{person} already has a different vault named \"{name}\" in this store; rename that vault (rename_vault) and import again; nothing was written"
    )]
    NameTaken {
        /// The person's subject.
        person: String,
        /// The vault name.
        name: String,
    },
    /// The vault is already in this store and differs from the backup.
    #[error(
        "vault {vault} is already in this store and differs from the backup in {differing} items (it was changed after the import, or this is an older backup); nothing was written"
    )]
    VaultDiffers {
        /// The vault id.
        vault: VaultId,
        /// How many items differ or are missing.
        differing: usize,
    },
    /// The same item key twice: which copy is meant is anyone's guess.
    #[error("item {pk}/{sk} appears twice in the backup; nothing was written")]
    Twice {
        /// Its partition key.
        pk: String,
        /// Its sort key.
        sk: String,
    },
    /// An item that is not the vault's, nor implied by its members' memberships.
    #[error(
        "item {pk}/{sk} is not this vault's to restore ({why}); a backup restores its vault and, for each of its members, only their membership, its name claim and their idempotency records of this vault; nothing was written"
    )]
    OutOfScope {
        /// Its partition key.
        pk: String,
        /// Its sort key.
        sk: String,
        /// What it is instead.
        why: String,
    },
    /// The header names someone the vault in the file has no member item for.
    #[error(
        "the backup's header names {person}, who is not a member of the vault in it; nothing was written"
    )]
    NotAMember {
        /// The subject.
        person: String,
    },
    /// A member of the vault in the file is missing from the header.
    #[error("member {person} of the vault is missing from the backup's header; nothing was written")]
    NotNamed {
        /// The subject.
        person: String,
    },
    /// An item of a person is already in the store with other content: an import
    /// never overwrites a person's items.
    #[error(
        "item {pk}/{sk} is already in this store with other content, and an import never overwrites a person's items; nothing was written"
    )]
    WouldOverwrite {
        /// Its partition key.
        pk: String,
        /// Its sort key.
        sk: String,
    },
    /// A `--person` mapping that cannot apply.
    #[error("{0}")]
    Mapping(String),
    /// The store failed (reading, or during the writes: run the same import again).
    #[error("store")]
    Store(#[from] LedgerError),
}

impl Backup {
    /// Move a person's items to another subject (`old` → `new`): the keys of their
    /// partition and member item, and the attributes naming them. For a book moving
    /// to a deployment whose sign-in gives the same person another `sub`.
    pub fn rename_person(&mut self, old: &str, new: &str) -> Result<(), BackupError> {
        if !self.persons.iter().any(|p| p == old) {
            return Err(BackupError::Mapping(format!(
                "--person {old}=…: the backup has no person \"{old}\" (it has {})",
                self.persons.join(", ")
            )));
        }
        let new_id =
            PersonId::new(new).map_err(|e| BackupError::Mapping(format!("--person …={new}: {e}")))?;
        if self.persons.iter().any(|p| p == new_id.as_str()) {
            return Err(BackupError::Mapping(format!(
                "--person …={new}: the backup already has that person"
            )));
        }
        let old_id =
            PersonId::new(old).map_err(|e| BackupError::Mapping(format!("--person {old}=…: {e}")))?;
        let (old_pk, new_pk) = (table::person_pk(&old_id), table::person_pk(&new_id));
        let old_member = format!("{}{old}", member::MEMBER_PREFIX);
        for item in &mut self.items {
            if item.key.pk == old_pk {
                item.key.pk = new_pk.clone();
            }
            if item.key.sk == old_member {
                item.key.sk = format!("{}{new}", member::MEMBER_PREFIX);
            }
            for attr in ["person", "createdBy", crate::stored::entry::RECORDER] {
                if let Some(Value::S(v)) = item.attrs.get_mut(attr)
                    && v == old
                {
                    *v = new.to_string();
                }
            }
        }
        for p in &mut self.persons {
            if p == old {
                *p = new.to_string();
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use dochiya_store::Key;
    use std::collections::BTreeMap;

    /// A person moved to another subject keeps their entries: the recorder moves too.
    #[test]
    fn a_renamed_person_keeps_their_entries() {
        let vault = VaultId::from_uuid(uuid::Uuid::nil());
        let entry = |sub: &str| Item {
            key: Key::new(table::vault_pk(vault), format!("TI#{sub}")),
            attrs: BTreeMap::from([(crate::stored::entry::RECORDER.to_string(), Value::S(sub.into()))]),
        };
        let mut backup = Backup {
            vault_id: vault,
            vault_name: "가계부".into(),
            persons: vec!["old".into(), "other".into()],
            exported_at_ms: 0,
            items: vec![entry("old"), entry("other")],
        };
        backup.rename_person("old", "new").expect("rename");
        let recorders: Vec<&Value> = backup
            .items
            .iter()
            .map(|i| &i.attrs[crate::stored::entry::RECORDER])
            .collect();
        assert_eq!(recorders, [&Value::S("new".into()), &Value::S("other".into())]);
        assert_eq!(backup.persons, ["new", "other"]);
    }
}
