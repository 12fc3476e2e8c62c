//! Deleting a person ("delete my data", decision 059): everything the ledger keeps in
//! their name goes, and what they kept with others stays with the others.
//!
//! 1. Deletions an earlier call left unfinished are finished (decision 057).
//! 2. Each vault they are the only member of is deleted as `delete_vault` deletes it.
//! 3. Each shared vault is left: their membership, member item and name claim go in one
//!    write; their entries stay with the household under the name they had. When they
//!    were its last owner, the member who joined earliest becomes owner in the same write
//!    (a household book must keep someone who can manage it).
//! 4. Everything else in their partition goes: ended memberships, idempotency records.
//! 5. Their roster version stays, with `closedAt`: a token issued before it (an access
//!    token has up to an hour left) is refused from then on; a later sign-in starts an
//!    empty book. The item expires a day after (by then every such token has).
//!
//! Re-running is safe: each step finds what is left. The authorization server's own
//! records (refresh families, consents) are its business (`dochiya_authserver::forget`).

use crate::ledger::closing;
use crate::ledger::guards::{MEMBER_PRESENT, MEMBERS_UNCHANGED, MEMBERSHIP, NAME_HELD, guard};
use crate::ledger::members::read_members;
use crate::ledger::resolve::{query_all, retrying};
use crate::ledger::roster::{self, CLOSED_AT, Roster};
use crate::ledger::*;
use crate::stored::member::{MemberRec, Membership, ROSTER_VERSION as VERSION};
use crate::stored::member::{members_unchanged, members_update, owner_role};
use crate::stored::vault::points_at_vault;
use crate::stored::{member, table, vault};
use dochiya_store::{Condition, Key, SkRange, StoreError, TTL_ATTRIBUTE, Value, WriteOp};

/// How long the closing mark outlives the deletion: past every access token's life.
const CLOSED_MARK_SECS: i64 = 24 * 3600;

pub(in crate::ledger) async fn delete_person(
    ledger: &Ledger,
    who: &PersonId,
) -> Result<DeletedPerson, LedgerError> {
    // The deletion acts as a sign-in of now: a closing mark of an earlier deletion (the
    // person came back and kept a new book) does not stop this one.
    let now = ledger.clock.now().as_second();
    let who = &who.clone().with_issued_at(Some(now));
    let mut out = DeletedPerson::default();
    // An earlier vault deletion that a crash cut short, and anything cached.
    ledger.rosters.forget(who);
    for (m, _) in closing::finish_left_over(ledger, who).await? {
        out.deleted.push(m.name);
    }
    let roster = roster::fetch_unchecked(ledger, who).await?;
    // Bounded: a person keeps at most `MAX_VAULTS` vaults (create and join refuse more).
    for m in &roster.members {
        let members = read_members(ledger, m.vault_id).await?;
        let list = members.or_sole(who, m);
        if list.len() <= 1 {
            let gone = closing::delete_vault(ledger, who, &m.name, &m.name, false).await?;
            out.deleted.push(gone.vault.name);
            continue;
        }
        let heir = retrying(|| leave(ledger, who, m)).await?;
        out.left.push(LeftShared {
            vault: m.name.clone(),
            new_owner: heir,
        });
    }
    ledger.rosters.forget(who);
    out.records = clear_partition(ledger, who).await?;
    close(ledger, who).await?;
    ledger.rosters.forget(who);
    Ok(out)
}

/// Leave the shared vault `m` in one write; the name of the member made owner, if one was.
async fn leave(ledger: &Ledger, who: &PersonId, m: &Membership) -> Result<Option<String>, LedgerError> {
    let members = read_members(ledger, m.vault_id).await?;
    let list = members.list;
    let Some(me) = list.iter().find(|r| r.person == who.as_str()) else {
        // No member item: a vault never shared (the caller decides that case).
        return Err(LedgerError::internal(
            "a shared vault without the leaver's member item",
        ));
    };
    let vault = m.vault_id;
    let mut ops = vec![
        WriteOp::Delete {
            key: member::member(vault, who),
            guard: guard(MEMBER_PRESENT, Condition::Exists),
        },
        WriteOp::Delete {
            key: member::membership(who, vault),
            guard: guard(MEMBERSHIP, Condition::Exists),
        },
        WriteOp::Delete {
            key: vault::vault_name(who, &me.name_key),
            guard: guard(NAME_HELD, points_at_vault(vault)),
        },
        members_update(
            vault::vault_meta(vault),
            -1,
            guard(MEMBERS_UNCHANGED, members_unchanged(members.version)),
        ),
        Roster::moved_on(who),
    ];
    let heir = heir(&list, who.as_str());
    if let Some(heir) = heir {
        let them = PersonId::new(heir.person.clone())
            .map_err(|e| LedgerError::internal_from("stored member has an unusable subject", e))?;
        for key in [member::membership(&them, vault), member::member(vault, &them)] {
            ops.push(WriteOp::Update {
                key,
                set: owner_role(),
                add: Default::default(),
                remove: vec![],
                guard: guard(MEMBER_PRESENT, Condition::Exists),
            });
        }
        ops.push(Roster::moved_on(&them));
    }
    match ledger.store.write(ops).await {
        Ok(()) => Ok(heir.map(|h| h.name.clone())),
        Err(StoreError::ConditionFailed { .. }) => Err(LedgerError::Conflict),
        Err(e) => Err(e.into()),
    }
}

/// Who becomes owner when `leaver` goes: nobody while another owner stays; else the
/// member who joined earliest (`list` is in joining order).
fn heir<'a>(list: &'a [MemberRec], leaver: &str) -> Option<&'a MemberRec> {
    let me = list.iter().find(|r| r.person == leaver)?;
    let others_own = list.iter().any(|r| r.person != leaver && r.role == Role::Owner);
    if me.role != Role::Owner || others_own {
        return None;
    }
    list.iter().find(|r| r.person != leaver)
}

/// Delete every item of the person's partition but the roster version; how many went.
async fn clear_partition(ledger: &Ledger, who: &PersonId) -> Result<u64, LedgerError> {
    let items = query_all(ledger.store.as_ref(), table::person_pk(who), SkRange::All, true).await?;
    let keys: Vec<Key> = items
        .into_iter()
        .map(|i| i.key)
        .filter(|k| !member::is_roster_version(&k.sk))
        .collect();
    let n = keys.len() as u64;
    closing::delete_all(ledger, keys).await?;
    Ok(n)
}

/// Mark the roster version closed as of now (moving it on, so every cached roster is
/// stale), to expire a day later.
async fn close(ledger: &Ledger, who: &PersonId) -> Result<(), LedgerError> {
    let now = ledger.clock.now().as_second();
    ledger
        .store
        .write(vec![WriteOp::Update {
            key: member::roster_version(who),
            set: [
                (CLOSED_AT.to_string(), Value::N(now)),
                (TTL_ATTRIBUTE.to_string(), Value::N(now + CLOSED_MARK_SECS)),
            ]
            .into(),
            add: [(VERSION.to_string(), 1)].into(),
            remove: vec![],
            guard: None,
        }])
        .await?;
    Ok(())
}

impl Ledger {
    /// Delete everything the ledger keeps of `who` (decision 059): vaults they alone keep
    /// go; shared vaults are left (the earliest member inherits a last owner's role); a
    /// token issued before is refused from then on. Safe to run again.
    pub async fn delete_person(&self, who: &PersonId) -> Result<DeletedPerson, LedgerError> {
        delete_person(self, who).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use dochiya_domain::NameKey;

    fn rec(person: &str, role: Role, joined_at: i64) -> MemberRec {
        MemberRec {
            person: person.to_owned(),
            name: person.to_uppercase(),
            role,
            joined_at,
            name_key: NameKey::of("가계부"),
        }
    }

    #[test]
    fn the_earliest_member_inherits_only_from_the_last_owner() {
        let list = [
            rec("a", Role::Owner, 1),
            rec("b", Role::Member, 2),
            rec("c", Role::Member, 3),
        ];
        assert_eq!(heir(&list, "a").map(|r| r.person.as_str()), Some("b"));
        // A member leaving hands nothing over.
        assert_eq!(heir(&list, "b"), None);
        let two_owners = [
            rec("a", Role::Owner, 1),
            rec("b", Role::Member, 2),
            rec("c", Role::Owner, 3),
        ];
        assert_eq!(heir(&two_owners, "a"), None);
    }
}
