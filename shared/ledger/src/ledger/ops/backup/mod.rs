//! A vault's full-fidelity backup, and restoring one into any store.
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
//! The file is JSON lines ([`crate::portability::backup`]): a versioned header,
//! one item per line, and a trailer with the count and a SHA-256 of the item lines,
//! so a truncated or altered file is refused before anything is written.
//! `restore.rs` says why a failed restore is invisible and resumable.

pub(in crate::ledger) mod restore;

use crate::ledger::resolve::query_all;
use crate::ledger::roster::in_vault;
use crate::ledger::*;
use crate::stored::member::{MemberRec, Membership};
use crate::stored::{member, table, vault};
use dochiya_store::{Item, SkRange, Value};

use crate::portability::backup::{Backup, BackupError};
pub use restore::Restored;

/// Read everything of the caller's vault `vault` (or their only one) that a backup keeps.
pub(in crate::ledger) async fn backup(
    ledger: &Ledger,
    who: &PersonId,
    vault: Option<&str>,
) -> Result<Backup, LedgerError> {
    let m = in_vault(ledger, who, vault, |v| async move { Ok(v.membership) }).await?;
    let store = ledger.store.as_ref();
    let mut items = query_all(store, table::vault_pk(m.vault_id), SkRange::All, true).await?;
    let persons = persons_of(&items)?;
    for person in &persons {
        items.extend(person_items(ledger, &m, person).await?);
    }
    Ok(Backup {
        vault_id: m.vault_id,
        vault_name: m.name.clone(),
        persons,
        exported_at_ms: ledger.clock.now().as_millisecond(),
        items,
    })
}

/// The people keeping the vault: its member items, or the creator of a vault made
/// before sharing (it has none).
fn persons_of(items: &[Item]) -> Result<Vec<String>, LedgerError> {
    let mut persons = Vec::new();
    for item in items {
        if item.key.sk.starts_with(member::MEMBER_PREFIX) {
            persons.push(MemberRec::from_attrs(&item.attrs)?.person);
        }
    }
    if persons.is_empty() {
        let meta = items
            .iter()
            .find(|i| i.key.sk == vault::VAULT_META)
            .ok_or_else(|| LedgerError::internal("the vault has no settings item"))?;
        match meta.attrs.get("createdBy") {
            Some(Value::S(sub)) => persons.push(sub.clone()),
            _ => return Err(LedgerError::internal("the vault's settings name no creator")),
        }
    }
    Ok(persons)
}

/// A person's items that belong to the vault: membership, name claim, idempotency records.
async fn person_items(ledger: &Ledger, m: &Membership, person: &str) -> Result<Vec<Item>, LedgerError> {
    let who = PersonId::new(person).map_err(|_| LedgerError::internal("a member's subject is unusable"))?;
    let store = ledger.store.as_ref();
    let mut out = Vec::new();
    let Some(membership) = store.get(&member::membership(&who, m.vault_id)).await? else {
        // A member item without a membership (a removal half seen): nothing of theirs to keep.
        return Ok(out);
    };
    let theirs = Membership::from_attrs(&membership.attrs)?;
    out.push(membership);
    if let Some(claim) = store.get(&vault::vault_name(&who, &theirs.name_key)).await?
        && claim.attrs.get("vaultId") == Some(&Value::S(m.vault_id.to_string()))
    {
        out.push(claim);
    }
    let records = query_all(store, table::person_pk(&who), SkRange::Prefix("IK#".into()), true).await?;
    out.extend(
        records
            .into_iter()
            .filter(|i| i.attrs.get("vaultId") == Some(&Value::S(m.vault_id.to_string()))),
    );
    Ok(out)
}

impl Ledger {
    /// A full-fidelity backup of one of the caller's vaults (see `backup/mod.rs`).
    pub async fn backup(&self, who: &PersonId, vault: Option<&str>) -> Result<Backup, LedgerError> {
        backup(self, who, vault).await
    }

    /// Restore a backup into this ledger's store: invisible until complete,
    /// resumable, and a no-op when the vault is already there as backed up.
    pub async fn restore(&self, backup: &Backup) -> Result<Restored, BackupError> {
        restore::restore(self, backup).await
    }
}
