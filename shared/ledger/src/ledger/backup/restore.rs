//! Restoring a backup into the configured store (a move from the embedded store
//! to DynamoDB, or a restore in place).
//!
//! A vault is reached only through its members' memberships, so the restore writes
//! every other item first, in batches, and the vault's settings with every
//! member's membership, name claim and roster version in one last atomic write.
//! Until that write nothing of the vault can be seen; if the restore fails before
//! it, the store answers every read as before, and running the same restore again
//! finishes it (items already written as the backup has them are skipped, items
//! in the vault's partition that the backup lacks, left by an earlier failed
//! restore of another backup, are deleted). A restore of a vault that is already
//! there, exactly as in the backup, writes nothing; one that is there and differs
//! is refused.

use std::collections::BTreeMap;

use super::{Backup, BackupError};
use crate::domain::PersonId;
use crate::keys;
use crate::ledger::Ledger;
use crate::ledger::codec::Membership;
use crate::ledger::resolve::query_all;
use crate::ledger::roster::Roster;
use crate::store::{Condition, Guard, Item, Key, SkRange, StoreError, Value, WriteOp};

/// Most operations in one of the restore's batch writes.
const BATCH_OPS: usize = 50;
/// A batch write stops growing at about this many bytes of items.
const BATCH_BYTES: usize = 1024 * 1024;
/// Guard of the last write: the vault's settings item is not there yet.
const VAULT_ABSENT: &str = "restore-vault-absent";
/// Guard of the last write: a person's claim on the vault's name is still as read.
const NAME_CLAIM: &str = "restore-name-claim";

/// What a restore did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Restored {
    /// Items written (0 when the vault was already there as in the backup).
    pub written: usize,
    /// Items deleted: left in the vault's partition by an earlier failed restore.
    pub deleted: usize,
    /// Whether the vault was already there exactly as in the backup.
    pub already_there: bool,
}

pub(in crate::ledger) async fn restore(ledger: &Ledger, backup: &Backup) -> Result<Restored, BackupError> {
    let store = ledger.store.as_ref();
    let vault_pk = keys::vault_pk(backup.vault_id);
    let present = query_all(store, vault_pk.clone(), SkRange::All, true).await?;
    let present: BTreeMap<String, Item> = present.into_iter().map(|i| (i.key.sk.clone(), i)).collect();
    let (vault_items, person_items): (Vec<&Item>, Vec<&Item>) =
        backup.items.iter().partition(|i| i.key.pk == vault_pk);
    let person_keys: Vec<Key> = person_items.iter().map(|i| i.key.clone()).collect();
    let person_present = store
        .get_many(&person_keys)
        .await
        .map_err(crate::LedgerError::from)?;
    let same = |item: &Item, found: Option<&Item>| found.is_some_and(|f| f.attrs == item.attrs);

    if present.contains_key(keys::VAULT_META) {
        let differing = vault_items
            .iter()
            .filter(|i| !same(i, present.get(&i.key.sk)))
            .count()
            + present.len().saturating_sub(vault_items.len())
            + person_items
                .iter()
                .zip(&person_present)
                .filter(|(i, f)| !same(i, f.as_ref()))
                .count();
        return match differing {
            0 => Ok(Restored {
                written: 0,
                deleted: 0,
                already_there: true,
            }),
            differing => Err(BackupError::VaultDiffers {
                vault: backup.vault_id,
                differing,
            }),
        };
    }
    let claims = check_name_claims(ledger, backup).await?;

    // Everything but the last write: items not yet as in the backup, leftovers deleted.
    let mut ops = Vec::new();
    let wanted: std::collections::BTreeSet<&str> = vault_items.iter().map(|i| i.key.sk.as_str()).collect();
    let deleted = present.keys().filter(|sk| !wanted.contains(sk.as_str())).count();
    for sk in present.keys().filter(|sk| !wanted.contains(sk.as_str())) {
        ops.push(WriteOp::Delete {
            key: Key::new(vault_pk.clone(), sk.clone()),
            guard: None,
        });
    }
    let last_keys: Vec<Key> = last_write_keys(backup, &claims);
    let pending = vault_items
        .iter()
        .map(|i| (*i, present.get(&i.key.sk)))
        .chain(
            person_items
                .iter()
                .zip(&person_present)
                .map(|(i, f)| (*i, f.as_ref())),
        )
        .filter(|(i, found)| !same(i, *found) && !last_keys.contains(&i.key));
    let mut written = 0;
    for (item, _) in pending {
        ops.push(WriteOp::Put {
            item: item.clone(),
            guard: None,
        });
        written += 1;
    }
    write_batches(ledger, ops).await?;
    written += last_write(ledger, backup, &claims).await?;
    Ok(Restored {
        written,
        deleted,
        already_there: false,
    })
}

/// Each person's claim on the vault's name as it is in the target: absent, or
/// already this vault's (an earlier failed restore). Another vault's is refused.
async fn check_name_claims(ledger: &Ledger, backup: &Backup) -> Result<Vec<(Key, bool)>, BackupError> {
    let mut claims = Vec::new();
    for item in &backup.items {
        if !item.key.sk.starts_with(keys::MEMBERSHIP_PREFIX) || !item.key.pk.starts_with("P#") {
            continue;
        }
        let m = Membership::from_attrs(&item.attrs)?;
        let person = item.key.pk.trim_start_matches("P#");
        let who = PersonId::new(person).map_err(|e| BackupError::Mapping(e.to_string()))?;
        let key = keys::vault_name(&who, &m.name_key);
        let found = ledger.store.get(&key).await.map_err(crate::LedgerError::from)?;
        match found {
            None => claims.push((key, false)),
            Some(f) if f.attrs.get("vaultId") == Some(&Value::S(backup.vault_id.to_string())) => {
                claims.push((key, true))
            }
            Some(_) => {
                return Err(BackupError::NameTaken {
                    person: person.to_string(),
                    name: m.name,
                });
            }
        }
    }
    Ok(claims)
}

/// The keys the last write puts: the settings, and each person's membership and name claim.
fn last_write_keys(backup: &Backup, claims: &[(Key, bool)]) -> Vec<Key> {
    let mut out = vec![keys::vault_meta(backup.vault_id)];
    out.extend(
        backup
            .items
            .iter()
            .filter(|i| i.key.pk.starts_with("P#") && i.key.sk.starts_with(keys::MEMBERSHIP_PREFIX))
            .map(|i| i.key.clone()),
    );
    out.extend(claims.iter().map(|(k, _)| k.clone()));
    out
}

/// The write that makes the vault visible, atomically: its settings (only if
/// still absent), every membership, every name claim (only if as checked), and
/// every person's roster version moved on, so a roster cached anywhere is re-read.
async fn last_write(ledger: &Ledger, backup: &Backup, claims: &[(Key, bool)]) -> Result<usize, BackupError> {
    let last_keys = last_write_keys(backup, claims);
    let mut ops = Vec::new();
    for item in backup.items.iter().filter(|i| last_keys.contains(&i.key)) {
        let guard = if item.key.sk == keys::VAULT_META {
            Some(Guard::new(VAULT_ABSENT, Condition::NotExists))
        } else {
            claims
                .iter()
                .find(|(k, _)| *k == item.key)
                .map(|(_, ours)| match ours {
                    true => Guard::new(
                        NAME_CLAIM,
                        Condition::AttrEquals("vaultId".into(), Value::S(backup.vault_id.to_string())),
                    ),
                    false => Guard::new(NAME_CLAIM, Condition::NotExists),
                })
        };
        ops.push(WriteOp::Put {
            item: item.clone(),
            guard,
        });
    }
    let written = ops.len();
    for person in &backup.persons {
        let who = PersonId::new(person.as_str()).map_err(|e| BackupError::Mapping(e.to_string()))?;
        ops.push(Roster::moved_on(&who));
    }
    match ledger.store.write(ops).await {
        Ok(()) => Ok(written),
        Err(StoreError::ConditionFailed { guard, .. }) => Err(BackupError::Mapping(format!(
            "the store changed while restoring (guard {guard}): run the same import again; nothing of the vault is visible yet"
        ))),
        Err(e) => Err(BackupError::Store(e.into())),
    }
}

/// Apply `ops` in atomic batches of a bounded count and size.
async fn write_batches(ledger: &Ledger, ops: Vec<WriteOp>) -> Result<(), BackupError> {
    let mut batch = Vec::new();
    let mut bytes = 0;
    for op in ops {
        let size = match &op {
            WriteOp::Put { item, .. } => approximate_size(item),
            _ => 64,
        };
        if !batch.is_empty() && (batch.len() >= BATCH_OPS || bytes + size > BATCH_BYTES) {
            ledger
                .store
                .write(std::mem::take(&mut batch))
                .await
                .map_err(crate::LedgerError::from)?;
            bytes = 0;
        }
        bytes += size;
        batch.push(op);
    }
    if !batch.is_empty() {
        ledger
            .store
            .write(batch)
            .await
            .map_err(crate::LedgerError::from)?;
    }
    Ok(())
}

/// An item's size in bytes of names and values, roughly as a store counts it.
fn approximate_size(item: &Item) -> usize {
    fn value(v: &Value) -> usize {
        match v {
            Value::S(s) => s.len(),
            Value::N(_) => 21,
            Value::Bool(_) => 1,
            Value::L(l) => 3 + l.iter().map(value).sum::<usize>(),
            Value::M(m) => 3 + m.iter().map(|(k, v)| k.len() + value(v)).sum::<usize>(),
        }
    }
    item.key.pk.len() + item.key.sk.len() + item.attrs.iter().map(|(k, v)| k.len() + value(v)).sum::<usize>()
}
