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
//!
//! What it may write at all is checked first (`Backup::check_scope`, decision 048):
//! the vault and, for its members in the file, what their memberships imply. A
//! person's item already in the store with other content is never replaced: the
//! restore is refused, naming it, before anything is written, and the items it puts
//! into a person's partition are put only if still absent. The last write also puts
//! the vault's due-index entry, so the scheduled run sees a restored vault at once.

use std::collections::BTreeMap;

use super::{Backup, BackupError};
use crate::ledger::Ledger;
use crate::ledger::resolve::query_all;
use crate::ledger::roster::Roster;
use crate::stored::member::Membership;
use crate::stored::schedule::head_next;
use crate::stored::{member, schedule, table, vault};
use dochiya_domain::PersonId;
use dochiya_store::{Condition, Guard, Item, Key, SkRange, StoreError, Value, WriteOp};

/// Most operations in one of the restore's batch writes.
const BATCH_OPS: usize = 50;
/// A batch write stops growing at about this many bytes of items.
const BATCH_BYTES: usize = 1024 * 1024;
/// Guard of the last write: the vault's settings item is not there yet.
const VAULT_ABSENT: &str = "restore-vault-absent";
/// Guard of the last write: a person's claim on the vault's name is still as read.
const NAME_CLAIM: &str = "restore-name-claim";
/// Guard of a person's item the restore writes: nothing is there yet.
const PERSON_ITEM_ABSENT: &str = "restore-person-item-absent";

/// What a restore did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Restored {
    /// Items written (0 when the vault was already there as in the backup, 1 when only
    /// its due-index entry was missing: restored before the index was restored with it).
    pub written: usize,
    /// Items deleted: left in the vault's partition by an earlier failed restore.
    pub deleted: usize,
    /// Whether the vault was already there exactly as in the backup.
    pub already_there: bool,
}

pub(in crate::ledger) async fn restore(ledger: &Ledger, backup: &Backup) -> Result<Restored, BackupError> {
    // What the file may restore at all (after any `--person` mapping): its vault, and
    // what its members' memberships imply (decision 048).
    backup.check_scope()?;
    let store = ledger.store.as_ref();
    let vault_pk = table::vault_pk(backup.vault_id);
    let present = query_all(store, vault_pk.clone(), SkRange::All, true).await?;
    let present: BTreeMap<String, Item> = present.into_iter().map(|i| (i.key.sk.clone(), i)).collect();
    let (vault_items, person_items): (Vec<&Item>, Vec<&Item>) =
        backup.items.iter().partition(|i| i.key.pk == vault_pk);
    let person_keys: Vec<Key> = person_items.iter().map(|i| i.key.clone()).collect();
    let person_present = store
        .get_many(&person_keys)
        .await
        .map_err(crate::api::LedgerError::from)?;
    let same = |item: &Item, found: Option<&Item>| found.is_some_and(|f| f.attrs == item.attrs);

    if present.contains_key(vault::VAULT_META) {
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
            0 => {
                // A vault restored before its due entry was restored with it: index it now.
                let indexed = index_if_missing(ledger, backup).await?;
                Ok(Restored {
                    written: usize::from(indexed),
                    deleted: 0,
                    already_there: true,
                })
            }
            differing => Err(BackupError::VaultDiffers {
                vault: backup.vault_id,
                differing,
            }),
        };
    }
    let claims = check_name_claims(ledger, backup).await?;
    // A person's items are theirs: one already there with other content is never replaced.
    let last_keys: Vec<Key> = last_write_keys(backup, &claims);
    for (item, found) in person_items.iter().zip(&person_present) {
        if found.is_some() && !same(item, found.as_ref()) && !claims.iter().any(|(k, _)| *k == item.key) {
            return Err(BackupError::WouldOverwrite {
                pk: item.key.pk.clone(),
                sk: item.key.sk.clone(),
            });
        }
    }

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
    for (item, found) in vault_items.iter().map(|i| (*i, present.get(&i.key.sk))) {
        if !same(item, found) && !last_keys.contains(&item.key) {
            ops.push(WriteOp::Put {
                item: item.clone(),
                guard: None,
            });
        }
    }
    // A person's items only where nothing is yet (checked above, guarded here).
    let absent: Vec<&Item> = person_items
        .iter()
        .zip(&person_present)
        .filter(|(i, found)| found.is_none() && !last_keys.contains(&i.key))
        .map(|(i, _)| *i)
        .collect();
    ops.extend(absent.iter().map(|item| WriteOp::Put {
        item: (*item).clone(),
        guard: Some(Guard::new(PERSON_ITEM_ABSENT, Condition::NotExists)),
    }));
    let written = ops.iter().filter(|op| matches!(op, WriteOp::Put { .. })).count();
    write_batches(ledger, ops).await?;
    let last = last_write(ledger, backup, &claims, &person_keys, &person_present).await?;
    Ok(Restored {
        written: written + last,
        deleted,
        already_there: false,
    })
}

/// The due-index entry of the vault's recurring head, as the backup holds the head
/// (the index lives outside the vault's partition, so a backup does not carry it).
fn due_entry(backup: &Backup) -> Result<Option<Item>, BackupError> {
    let head = backup
        .items
        .iter()
        .find(|i| i.key == schedule::recurring_head(backup.vault_id));
    Ok(head_next(head)?.map(|next| Item {
        key: schedule::due(backup.vault_id, next),
        attrs: [("vaultId".to_string(), Value::S(backup.vault_id.to_string()))].into(),
    }))
}

/// Put the vault's due-index entry when it is missing; whether it was.
async fn index_if_missing(ledger: &Ledger, backup: &Backup) -> Result<bool, BackupError> {
    let Some(entry) = due_entry(backup)? else {
        return Ok(false);
    };
    let store = ledger.store.as_ref();
    if store
        .get(&entry.key)
        .await
        .map_err(crate::api::LedgerError::from)?
        .is_some()
    {
        return Ok(false);
    }
    store
        .write(vec![WriteOp::Put {
            item: entry,
            guard: None,
        }])
        .await
        .map_err(crate::api::LedgerError::from)?;
    Ok(true)
}

/// Each person's claim on the vault's name as it is in the target: absent, or
/// already this vault's (an earlier failed restore). Another vault's is refused.
async fn check_name_claims(ledger: &Ledger, backup: &Backup) -> Result<Vec<(Key, bool)>, BackupError> {
    let mut claims = Vec::new();
    for item in &backup.items {
        if !item.key.sk.starts_with(member::MEMBERSHIP_PREFIX) || !item.key.pk.starts_with("P#") {
            continue;
        }
        let m = Membership::from_attrs(&item.attrs)?;
        let person = item.key.pk.trim_start_matches("P#");
        let who = PersonId::new(person).map_err(|e| BackupError::Mapping(e.to_string()))?;
        let key = vault::vault_name(&who, &m.name_key);
        let found = ledger
            .store
            .get(&key)
            .await
            .map_err(crate::api::LedgerError::from)?;
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
    let mut out = vec![vault::vault_meta(backup.vault_id)];
    out.extend(
        backup
            .items
            .iter()
            .filter(|i| i.key.pk.starts_with("P#") && i.key.sk.starts_with(member::MEMBERSHIP_PREFIX))
            .map(|i| i.key.clone()),
    );
    out.extend(claims.iter().map(|(k, _)| k.clone()));
    out
}

/// The write that makes the vault visible, atomically: its settings (only if
/// still absent), every membership (only if still absent, unless already as in the
/// file), every name claim (only if as checked), the vault's due-index entry, and
/// every person's roster version moved on, so a roster cached anywhere is re-read.
async fn last_write(
    ledger: &Ledger,
    backup: &Backup,
    claims: &[(Key, bool)],
    person_keys: &[Key],
    person_present: &[Option<Item>],
) -> Result<usize, BackupError> {
    let last_keys = last_write_keys(backup, claims);
    let mut ops = Vec::new();
    for item in backup.items.iter().filter(|i| last_keys.contains(&i.key)) {
        let found = person_keys
            .iter()
            .position(|k| *k == item.key)
            .and_then(|at| person_present.get(at))
            .and_then(Option::as_ref);
        let guard = if item.key.sk == vault::VAULT_META {
            Some(Guard::new(VAULT_ABSENT, Condition::NotExists))
        } else if let Some((_, ours)) = claims.iter().find(|(k, _)| *k == item.key) {
            Some(match ours {
                true => Guard::new(
                    NAME_CLAIM,
                    Condition::AttrEquals("vaultId".into(), Value::S(backup.vault_id.to_string())),
                ),
                false => Guard::new(NAME_CLAIM, Condition::NotExists),
            })
        } else if found.is_some_and(|f| f.attrs == item.attrs) {
            // A membership already as in the file: nothing to write, nothing replaced.
            continue;
        } else {
            Some(Guard::new(PERSON_ITEM_ABSENT, Condition::NotExists))
        };
        ops.push(WriteOp::Put {
            item: item.clone(),
            guard,
        });
    }
    ops.extend(due_entry(backup)?.map(|item| WriteOp::Put { item, guard: None }));
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
            write_batch(ledger, std::mem::take(&mut batch)).await?;
            bytes = 0;
        }
        bytes += size;
        batch.push(op);
    }
    if !batch.is_empty() {
        write_batch(ledger, batch).await?;
    }
    Ok(())
}

/// One of the restore's batches: a person's item that appeared since it was read
/// fails it, and the restore stops (nothing of the vault is visible yet).
async fn write_batch(ledger: &Ledger, ops: Vec<WriteOp>) -> Result<(), BackupError> {
    match ledger.store.write(ops).await {
        Ok(()) => Ok(()),
        Err(StoreError::ConditionFailed { guard, current }) => Err(match current {
            Some(item) => BackupError::WouldOverwrite {
                pk: item.key.pk,
                sk: item.key.sk,
            },
            None => BackupError::Mapping(format!(
                "the store changed while restoring (guard {guard}): run the same import again; nothing of the vault is visible yet"
            )),
        }),
        Err(e) => Err(BackupError::Store(e.into())),
    }
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
