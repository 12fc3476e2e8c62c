//! Closing and clearing a vault (decision 057), for `delete_vault` and for deleting a
//! person: everything of it leaves the store, its members lose access in the first write,
//! and a crash part-way is finished by the owner's next `delete_vault`.
//!
//! 1. **The closing write**, atomic: every member's membership, vault-name claim and
//!    member item go, each member's roster version moves (a cached roster is stale from
//!    here on) and each other member keeps that the vault was deleted (`MX#`, so their
//!    next call says so instead of "no such vault"); the settings item goes (an invite
//!    still out can no longer join), and so do the recurring head and its due-index
//!    entry (the scheduled run stops visiting); the owner's partition gets a marker that
//!    a deletion is under way.
//! 2. **The rest of the vault's partition**, page by page, up to 100 deletes a write.
//! 3. **The members' idempotency records** that name the vault (they would replay
//!    results of a vault that is gone).
//! 4. **The marker** goes last: while it is there, the next `delete_vault` call of the
//!    owner finishes steps 2–4 first, whatever vault it names.
//!
//! Invites live under the hash of their code alone, so they are not found here; they
//! expire on their own, and a join with one finds no vault (the settings item is gone).

use super::guards::{MEMBERS_UNCHANGED, MEMBERSHIP, NAME_HELD, guard};
use super::members::read_members;
use super::posting::head_ops;
use super::resolve::{query_all, retrying};
use super::roster::{self, Roster, in_vault, require_owner};
use super::*;
use crate::api::{Field, OwnerAction, Reason};
use crate::stored::member::members_unchanged;
use crate::stored::member::{EndedRec, MemberRec, Membership};
use crate::stored::table::sv;
use crate::stored::vault::points_at_vault;
use crate::stored::{account, budget, idempotency, member, schedule, snapshot, table, vault};
use dochiya_domain::{NameKey, VaultId};
use dochiya_store::{Condition, Item, Key, Query, SkRange, StoreError, Value, WriteOp};

/// Items deleted in one write: the store's limit.
const DELETES_PER_WRITE: usize = dochiya_store::MAX_WRITE_OPS;

pub(super) async fn delete_vault(
    ledger: &Ledger,
    who: &PersonId,
    vault: &str,
    confirm: &str,
    dry_run: bool,
) -> Result<DeletedVault, LedgerError> {
    // What an earlier call left unfinished goes first (a dry run changes nothing).
    let finished = if dry_run {
        Vec::new()
    } else {
        finish_left_over(ledger, who).await?
    };
    let outcome = retrying(|| async {
        // Resolved first, on its own: whatever was due is posted before the vault closes
        // (a posting that followed the closing write would find no recurring head).
        let v = in_vault(ledger, who, Some(vault), |v| async move { Ok(v) }).await?;
        require_owner(&v.membership, OwnerAction::DeleteVault)?;
        confirmed(&v.membership.name, confirm)?;
        let counted = count(ledger, v.membership.vault_id).await?;
        if dry_run {
            return Ok((v.membership.vault_ref(), counted, Vec::new()));
        }
        let members = close(ledger, who, &v, counted).await?;
        Ok((v.membership.vault_ref(), counted, members))
    })
    .await;
    let (vault_ref, counted, members) = match outcome {
        Ok(found) => found,
        // The vault this call names was the one an earlier call had closed: now finished.
        Err(e @ LedgerError::NotFound { .. }) => {
            let key = NameKey::of(vault);
            return match finished.into_iter().find(|(m, _)| m.name_key == key) {
                Some((m, counted)) => {
                    confirmed(&m.name, confirm)?;
                    Ok(DeletedVault {
                        vault: m.vault_ref(),
                        deleted: counted,
                        dry_run: false,
                    })
                }
                None => Err(e),
            };
        }
        Err(e) => return Err(e),
    };
    if !dry_run {
        finish(ledger, who, vault_ref.vault_id, &members).await?;
    }
    Ok(DeletedVault {
        vault: vault_ref,
        deleted: counted,
        dry_run,
    })
}

/// The vault's name typed again, compared as names are (normalized).
fn confirmed(name: &str, confirm: &str) -> Result<(), LedgerError> {
    if NameKey::of(confirm) == NameKey::of(name) {
        return Ok(());
    }
    Err(LedgerError::invalid(
        Field::Confirm,
        Reason::ConfirmMismatch {
            vault: name.to_string(),
        },
    ))
}

/// What the vault holds, counted from one pass over its partition.
async fn count(ledger: &Ledger, vault: VaultId) -> Result<DeletedCounts, LedgerError> {
    let mut counted = DeletedCounts::default();
    let mut shared = false;
    for_each_page(ledger, table::vault_pk(vault), |items| {
        for item in items {
            let sk = item.key.sk.as_str();
            let n = if sk.starts_with("TI#") {
                &mut counted.entries
            } else if sk.starts_with(account::ACCOUNT_PREFIX) && !sk.starts_with("AN#") {
                &mut counted.accounts
            } else if member::is_member(sk) {
                shared = true;
                &mut counted.members
            } else if sk.starts_with(schedule::RECURRING_PREFIX) {
                &mut counted.schedules
            } else if budget::is_budget(sk) {
                &mut counted.budgets
            } else if sk.starts_with(snapshot::SNAPSHOT_PREFIX) {
                &mut counted.snapshots
            } else {
                continue;
            };
            *n += 1;
        }
    })
    .await?;
    // A vault never shared has no member items: its one member is its maker.
    if !shared {
        counted.members = 1;
    }
    Ok(counted)
}

/// `visit` every page of a partition (keys and attributes), first to last.
async fn for_each_page(
    ledger: &Ledger,
    pk: String,
    mut visit: impl FnMut(&[Item]),
) -> Result<(), LedgerError> {
    let mut after = None;
    loop {
        let page = ledger
            .store
            .query(&Query {
                pk: pk.clone(),
                range: SkRange::All,
                forward: true,
                limit: 1000,
                after,
            })
            .await?;
        visit(&page.items);
        match page.last_sk {
            Some(sk) => after = Some(sk),
            None => return Ok(()),
        }
    }
}

/// The closing write (step 1); the members it ended, for step 3.
async fn close(
    ledger: &Ledger,
    who: &PersonId,
    v: &roster::InVault,
    counted: DeletedCounts,
) -> Result<Vec<PersonId>, LedgerError> {
    let vault = v.membership.vault_id;
    let members = read_members(ledger, vault).await?;
    let version = members.version;
    let list = members.or_sole(who, &v.membership);
    let head = schedule::head_next(ledger.store.get(&schedule::recurring_head(vault)).await?.as_ref())?;
    let today = ledger.today_in(&v.membership);
    let mut ops = Vec::new();
    let mut people = Vec::with_capacity(list.len());
    for member in &list {
        let them = PersonId::new(member.person.clone())
            .map_err(|e| LedgerError::internal_from("stored member has an unusable subject", e))?;
        ops.extend(ending(
            &v.membership,
            member,
            &them,
            today,
            them.as_str() != who.as_str(),
        ));
        people.push(them);
    }
    ops.push(WriteOp::Delete {
        key: vault::vault_meta(vault),
        guard: guard(MEMBERS_UNCHANGED, members_unchanged(version)),
    });
    ops.extend(head_ops(&v.membership, head, None));
    ops.push(WriteOp::Put {
        item: Item {
            key: vault::deletion(who, vault),
            attrs: marker_attrs(&v.membership, &people, counted),
        },
        guard: None,
    });
    match v.commit_moving_roster(ledger, who, ops).await {
        Ok(()) => Ok(people),
        Err(StoreError::ConditionFailed { .. }) => Err(LedgerError::Conflict),
        Err(e) => Err(e.into()),
    }
}

/// The ops that end `member`'s keeping of the vault. Another member's roster version
/// moves here and they keep that it was deleted; the caller's moves with the commit.
fn ending(m: &Membership, member: &MemberRec, them: &PersonId, on: LocalDate, other: bool) -> Vec<WriteOp> {
    let vault = m.vault_id;
    let mut ops = vec![
        WriteOp::Delete {
            key: member::member(vault, them),
            guard: None,
        },
        WriteOp::Delete {
            key: member::membership(them, vault),
            // The caller's is the check every vault write carries: still a member.
            guard: if other {
                None
            } else {
                guard(MEMBERSHIP, Condition::Exists)
            },
        },
        WriteOp::Delete {
            key: vault::vault_name(them, &member.name_key),
            guard: guard(NAME_HELD, points_at_vault(vault)),
        },
    ];
    if other {
        let ended = EndedRec {
            vault_id: vault,
            name: m.name.clone(),
            name_key: member.name_key.clone(),
            on,
            removed: true,
            deleted: true,
        };
        ops.push(WriteOp::Put {
            item: Item {
                key: member::ended_membership(them, vault),
                attrs: ended.to_attrs(),
            },
            guard: None,
        });
        ops.push(Roster::moved_on(them));
    }
    ops
}

/// The marker's attributes: the vault, its name as the owner knew it and what it held
/// (for the answer when a later call finishes it), and whose idempotency records to
/// look through.
fn marker_attrs(m: &Membership, people: &[PersonId], counted: DeletedCounts) -> dochiya_store::Attrs {
    let mut attrs = m.to_attrs();
    attrs.insert(
        "members".into(),
        Value::L(people.iter().map(|p| sv(p.as_str())).collect()),
    );
    for (name, n) in counts_named(counted) {
        attrs.insert(name.into(), Value::N(i64::try_from(n).unwrap_or(i64::MAX)));
    }
    attrs
}

/// The counts by the attribute names the marker keeps them under.
fn counts_named(c: DeletedCounts) -> [(&'static str, u64); 6] {
    [
        ("entries", c.entries),
        ("accounts", c.accounts),
        ("memberCount", c.members),
        ("schedules", c.schedules),
        ("budgets", c.budgets),
        ("snapshots", c.snapshots),
    ]
}

/// The counts a marker keeps (a missing one reads 0).
fn marker_counts(attrs: &dochiya_store::Attrs) -> DeletedCounts {
    let n = |name: &str| match attrs.get(name) {
        Some(Value::N(v)) => u64::try_from(*v).unwrap_or(0),
        _ => 0,
    };
    DeletedCounts {
        entries: n("entries"),
        accounts: n("accounts"),
        members: n("memberCount"),
        schedules: n("schedules"),
        budgets: n("budgets"),
        snapshots: n("snapshots"),
    }
}

/// Steps 2–4 for the vault `vault` closed by `who`.
async fn finish(
    ledger: &Ledger,
    who: &PersonId,
    vault: VaultId,
    members: &[PersonId],
) -> Result<(), LedgerError> {
    delete_partition(ledger, vault).await?;
    for person in members {
        delete_records(ledger, person, vault).await?;
    }
    ledger
        .store
        .write(vec![WriteOp::Delete {
            key: vault::deletion(who, vault),
            guard: None,
        }])
        .await?;
    Ok(())
}

/// Every item left in the vault's partition, a page of keys at a time.
async fn delete_partition(ledger: &Ledger, vault: VaultId) -> Result<(), LedgerError> {
    loop {
        let page = ledger
            .store
            .query(&Query {
                pk: table::vault_pk(vault),
                range: SkRange::All,
                forward: true,
                limit: 1000,
                after: None,
            })
            .await?;
        if page.items.is_empty() {
            return Ok(());
        }
        let keys: Vec<Key> = page.items.into_iter().map(|i| i.key).collect();
        delete_all(ledger, keys).await?;
    }
}

/// `person`'s idempotency records naming `vault` (a batch's operation claim names no
/// vault: it expires with the records, within days).
async fn delete_records(ledger: &Ledger, person: &PersonId, vault: VaultId) -> Result<(), LedgerError> {
    let items = query_all(
        ledger.store.as_ref(),
        table::person_pk(person),
        idempotency::idempotency_records(),
        true,
    )
    .await?;
    let id = vault.to_string();
    let keys: Vec<Key> = items
        .into_iter()
        .filter(|i| matches!(i.attrs.get("vaultId"), Some(Value::S(v)) if *v == id))
        .map(|i| i.key)
        .collect();
    delete_all(ledger, keys).await
}

/// Delete `keys`, unconditionally, in writes of at most [`DELETES_PER_WRITE`].
pub(super) async fn delete_all(ledger: &Ledger, keys: Vec<Key>) -> Result<(), LedgerError> {
    for chunk in keys.chunks(DELETES_PER_WRITE) {
        let ops = chunk
            .iter()
            .map(|key| WriteOp::Delete {
                key: key.clone(),
                guard: None,
            })
            .collect();
        ledger.store.write(ops).await?;
    }
    Ok(())
}

/// Finish every deletion of `who`'s that an earlier call closed but did not end; what
/// each removed, by the vault it was.
pub(super) async fn finish_left_over(
    ledger: &Ledger,
    who: &PersonId,
) -> Result<Vec<(Membership, DeletedCounts)>, LedgerError> {
    let markers = query_all(
        ledger.store.as_ref(),
        table::person_pk(who),
        vault::deletions(),
        true,
    )
    .await?;
    let mut done = Vec::with_capacity(markers.len());
    for marker in markers {
        let m = Membership::from_attrs(&marker.attrs)?;
        let members = match marker.attrs.get("members") {
            Some(Value::L(list)) => list
                .iter()
                .filter_map(|p| match p {
                    Value::S(s) => PersonId::new(s.clone()).ok(),
                    _ => None,
                })
                .collect(),
            _ => vec![who.clone()],
        };
        let counted = marker_counts(&marker.attrs);
        finish(ledger, who, m.vault_id, &members).await?;
        done.push((m, counted));
    }
    Ok(done)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_confirmation_is_the_name_as_names_compare() {
        assert!(confirmed("우리집 가계부", " 우리집  가계부 ").is_ok());
        assert!(confirmed("Home", "home").is_ok());
        let Err(LedgerError::InvalidInput { field, .. }) = confirmed("Home", "Hom") else {
            panic!("a wrong confirmation passed");
        };
        assert_eq!(field, Field::Confirm);
    }
}
