//! Sharing a vault: invites, joining, the member list, removal and leaving.
//!
//! Who may reach a vault is still decided by membership items in each person's
//! own partition (`P#<sub>` / `M#<vaultId>`). A vault adds, in its own
//! partition, one member item per person (`MB#<sub>`: display name, role, when
//! they joined, their own name key for the vault) so an owner can list and
//! remove members, and a members version on `META` that every change of the
//! member list moves on (removals and the last-owner rule are decided on it).
//!
//! Removal takes effect at once on every instance because the remover's atomic
//! write also moves the REMOVED person's roster version (`P#<sub>` / `M`): every
//! instance checks a cached roster against that item in the same round as its
//! reads and in every write (roster.rs), so the removed person's next call runs
//! on a fresh roster, in which the vault no longer exists.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::api::{Field, OwnerAction, Reason};
use crate::ledger::guards::{
    INVITE_NEW, INVITE_UNUSED, MEMBER_NEW, MEMBER_PRESENT, MEMBERS_UNCHANGED, MEMBERSHIP, NAME_HELD,
    VAULT_EXISTS, guard,
};
use crate::ledger::household;
use crate::ledger::members::{Members, find_member, founder, infos, member_name, read_members};
use crate::ledger::resolve::{join2, retrying};
use crate::ledger::roster::MAX_VAULTS;
use crate::ledger::roster::require_owner;
use crate::ledger::roster::{self, Roster, in_vault};
use crate::ledger::*;
use crate::stored::member::{
    InviteMembers, InviteRec, MemberRec, Membership, is_owner, members_unchanged, members_update, owner_role,
};
use crate::stored::vault::points_at_vault;
use crate::stored::{member, vault};
use dochiya_domain::{InviteCode, Name};
use dochiya_store::{Condition, Guard, Item, Key, StoreError, WriteOp};

/// How long an invite code works.
pub const INVITE_LIFETIME_SECS: i64 = 7 * 24 * 3600;
/// How long an invite is kept after it stops working, so a late join still
/// hears "expired" rather than "unknown" (the TTL then removes it).
const INVITE_KEEP_SECS: i64 = 30 * 24 * 3600;
/// Most people one vault may have.
pub const MAX_MEMBERS: usize = 20;

/// The check an owner-only write carries: the caller is still a member, as owner.
fn owner_check(who: &PersonId, m: &Membership) -> WriteOp {
    WriteOp::Check {
        key: member::membership(who, m.vault_id),
        guard: Guard::new(MEMBERSHIP, is_owner()),
    }
}

pub(in crate::ledger) async fn share_vault(
    ledger: &Ledger,
    who: &PersonId,
    vault: Option<&str>,
    role: Role,
) -> Result<SharedInvite, LedgerError> {
    retrying(|| {
        in_vault(ledger, who, vault, |v| async move {
            require_owner(&v.membership, OwnerAction::Invite)?;
            let members = read_members(ledger, v.membership.vault_id).await?;
            if members.list.len() >= MAX_MEMBERS {
                return Err(LedgerError::invalid(
                    Field::Member,
                    Reason::TooManyMembers { max: MAX_MEMBERS },
                ));
            }
            let code = InviteCode::generate(ledger.entropy.as_ref());
            let now = ledger.clock.now().as_second();
            // The invite carries the members as this write leaves them (a vault
            // made before sharing gets its founder's item now, moving the version
            // on), so the join reads no second round unless they changed since.
            let founding = members.list.is_empty();
            let carried = InviteMembers {
                version: members.version + i64::from(founding),
                list: if founding {
                    vec![founder(who, &v.membership, members.created_at)]
                } else {
                    members.list.clone()
                },
            };
            let invite = InviteRec {
                vault_id: v.membership.vault_id,
                vault_name: v.membership.name.clone(),
                currency: v.membership.currency,
                zone: v.membership.zone.clone(),
                role,
                expires_at: now + INVITE_LIFETIME_SECS,
                used: false,
                members: Some(carried),
            };
            let mut ops = vec![
                WriteOp::Put {
                    item: Item {
                        key: member::invite(&code.hash()),
                        attrs: invite.to_attrs(invite.expires_at + INVITE_KEEP_SECS),
                    },
                    guard: guard(INVITE_NEW, Condition::NotExists),
                },
                owner_check(who, &v.membership),
            ];
            // A vault made before sharing existed gets its creator's member item and count now.
            if founding {
                ops.push(WriteOp::Put {
                    item: Item {
                        key: member::member(v.membership.vault_id, who),
                        attrs: founder(who, &v.membership, members.created_at).to_attrs(),
                    },
                    guard: guard(MEMBER_NEW, Condition::NotExists),
                });
                ops.push(members_update(
                    vault::vault_meta(v.membership.vault_id),
                    1,
                    // The member item's guard above makes this happen once.
                    guard(VAULT_EXISTS, Condition::Exists),
                ));
            }
            v.write(ledger, who, ops).await?;
            Ok(SharedInvite {
                vault: v.membership.vault_ref(),
                invite_code: code.display(),
                expires_at: jiff::Timestamp::from_second(invite.expires_at)
                    .map_err(|e| LedgerError::internal_from("invite expiry out of range", e))?,
                role,
            })
        })
    })
    .await
}

pub(in crate::ledger) async fn join_vault(
    ledger: &Ledger,
    who: &PersonId,
    code: &str,
    name: Option<&str>,
    member_name: Option<&str>,
) -> Result<Joined, LedgerError> {
    let code = InviteCode::parse(code).ok_or(LedgerError::InviteUnknown)?;
    let names = JoinNames {
        vault: match name {
            Some(n) => Some(Name::parse(n).map_err(|e| LedgerError::from_parse(Field::VaultName, e))?),
            None => None,
        },
        member: match member_name {
            Some(n) => Some(Name::parse(n).map_err(|e| LedgerError::from_parse(Field::MemberName, e))?),
            None => None,
        },
    };
    // Set when the members the invite carries turned out stale: read them then.
    let read_members_again = AtomicBool::new(false);
    retrying(|| attempt_join(ledger, who, &code, &names, &read_members_again)).await
}

/// The names a joiner asked for: theirs for the vault, and theirs as a member.
struct JoinNames {
    vault: Option<Name>,
    member: Option<Name>,
}

/// What a join decided on: the invite, the joiner's fresh roster and the vault's members.
struct JoinReads {
    key: Key,
    invite: InviteRec,
    roster: Arc<Roster>,
    members: Members,
    /// Whether `members` came from the invite (the write then checks their version).
    carried: bool,
    now: i64,
}

async fn join_reads(
    ledger: &Ledger,
    who: &PersonId,
    code: &InviteCode,
    read_again: bool,
) -> Result<JoinReads, LedgerError> {
    let key = member::invite(&code.hash());
    let (invite, roster) = join2(ledger.store.get(&key), roster::fetch(ledger, who)).await;
    let (invite, roster) = (invite?, roster?);
    let invite = InviteRec::from_attrs(&invite.ok_or(LedgerError::InviteUnknown)?.attrs)?;
    let now = ledger.clock.now().as_second();
    if invite.used {
        return Err(LedgerError::InviteUsed);
    }
    if now >= invite.expires_at {
        return Err(LedgerError::InviteExpired);
    }
    let (members, carried) = match &invite.members {
        // The members as of the share; the write checks their version (decision 030).
        Some(c) if !read_again => (
            Members {
                list: c.list.clone(),
                version: c.version,
                created_at: 0,
                exists: true,
            },
            true,
        ),
        // A second read round: the vault's partition is known only from the invite.
        _ => (read_members(ledger, invite.vault_id).await?, false),
    };
    if !members.exists {
        // The vault is gone; say no more about it than about any unknown code.
        return Err(LedgerError::InviteUnknown);
    }
    Ok(JoinReads {
        key,
        invite,
        roster,
        members,
        carried,
        now,
    })
}

async fn attempt_join(
    ledger: &Ledger,
    who: &PersonId,
    code: &InviteCode,
    names: &JoinNames,
    read_again: &AtomicBool,
) -> Result<Joined, LedgerError> {
    let r = join_reads(ledger, who, code, read_again.load(Ordering::Relaxed)).await?;
    let outcome = join_as(ledger, who, names, &r).await;
    if r.carried && matches!(outcome, Err(LedgerError::Conflict)) {
        // The members moved on since the share (or the roster did): read them this time.
        read_again.store(true, Ordering::Relaxed);
    }
    outcome
}

async fn join_as(
    ledger: &Ledger,
    who: &PersonId,
    names: &JoinNames,
    r: &JoinReads,
) -> Result<Joined, LedgerError> {
    if let Some(mine) = r.roster.members.iter().find(|m| m.vault_id == r.invite.vault_id) {
        return promote(ledger, who, mine, r).await;
    }
    let name = match &names.vault {
        Some(n) => n.clone(),
        None => Name::parse(&r.invite.vault_name).map_err(|e| LedgerError::from_parse(Field::Name, e))?,
    };
    if let Some(other) = r.roster.members.iter().find(|m| &m.name_key == name.key()) {
        return Err(LedgerError::JoinNameTaken {
            name: other.name.clone(),
        });
    }
    if r.roster.members.len() >= MAX_VAULTS {
        return Err(LedgerError::invalid(
            Field::Name,
            Reason::TooManyVaults { max: MAX_VAULTS },
        ));
    }
    if r.members.list.len() >= MAX_MEMBERS {
        if r.carried {
            // Refuse only on a list read now: someone may have left since the share.
            return Err(LedgerError::Conflict);
        }
        return Err(LedgerError::invalid(
            Field::InviteCode,
            Reason::VaultFull { max: MAX_MEMBERS },
        ));
    }
    let m = Membership {
        vault_id: r.invite.vault_id,
        name: name.display().to_string(),
        name_key: name.key().clone(),
        currency: r.invite.currency,
        zone: r.invite.zone.clone(),
        role: r.invite.role,
    };
    let me = MemberRec {
        person: who.as_str().to_string(),
        name: member_name(names.member.as_ref(), who, &r.members.list)?,
        role: r.invite.role,
        joined_at: r.now,
        name_key: m.name_key.clone(),
    };
    let ops = vec![
        InviteRec::use_up(r.key.clone(), r.now, INVITE_UNUSED),
        vault::name_claim(who, name.key(), m.vault_id),
        WriteOp::Put {
            item: Item {
                key: member::membership(who, m.vault_id),
                attrs: m.to_attrs(),
            },
            guard: guard(MEMBER_NEW, Condition::NotExists),
        },
        WriteOp::Put {
            item: Item {
                key: member::member(m.vault_id, who),
                attrs: me.to_attrs(),
            },
            guard: guard(MEMBER_NEW, Condition::NotExists),
        },
        // Guarded on the member list as read, carried or not: the cap and the unique
        // names were decided on it, so two joins at once cannot both pass (one re-reads).
        members_update(
            vault::vault_meta(m.vault_id),
            1,
            guard(MEMBERS_UNCHANGED, members_unchanged(r.members.version)),
        ),
        r.roster.bump(who),
    ];
    match ledger.store.write(ops).await {
        Ok(()) => {
            let mut mine = r.roster.members.clone();
            mine.push(m.clone());
            ledger.rosters.put(who, Arc::new(r.roster.next(mine)));
            let mut list = r.members.list.clone();
            list.push(me);
            Ok(Joined {
                vault: m.vault_ref(),
                role: m.role,
                members: infos(&list, &m, who),
            })
        }
        Err(e) => Err(join_failed(e)),
    }
}

/// What a failed join write means.
fn join_failed(e: StoreError) -> LedgerError {
    match e {
        StoreError::ConditionFailed {
            guard: INVITE_UNUSED, ..
        } => LedgerError::InviteUsed,
        StoreError::ConditionFailed {
            guard: VAULT_EXISTS, ..
        } => LedgerError::InviteUnknown,
        // No settings item at all: the vault is gone (a changed version is a conflict).
        StoreError::ConditionFailed {
            guard: MEMBERS_UNCHANGED,
            current: None,
        } => LedgerError::InviteUnknown,
        // The joiner's own roster or names changed meanwhile: decide again on fresh reads.
        StoreError::ConditionFailed { .. } => LedgerError::Conflict,
        other => other.into(),
    }
}

/// A member who joins again with an owner's code becomes an owner: how the last
/// owner hands over. Any other code for a vault the joiner is in is refused unused.
async fn promote(
    ledger: &Ledger,
    who: &PersonId,
    mine: &Membership,
    r: &JoinReads,
) -> Result<Joined, LedgerError> {
    if r.invite.role != Role::Owner || mine.role == Role::Owner {
        return Err(LedgerError::AlreadyMember {
            vault: mine.name.clone(),
            role: mine.role.as_str(),
        });
    }
    let ops = vec![
        InviteRec::use_up(r.key.clone(), r.now, INVITE_UNUSED),
        WriteOp::Update {
            key: member::membership(who, mine.vault_id),
            set: owner_role(),
            add: BTreeMap::new(),
            remove: vec![],
            guard: guard(MEMBERSHIP, Condition::Exists),
        },
        WriteOp::Update {
            key: member::member(mine.vault_id, who),
            set: owner_role(),
            add: BTreeMap::new(),
            remove: vec![],
            guard: guard(MEMBER_PRESENT, Condition::Exists),
        },
        members_update(
            vault::vault_meta(mine.vault_id),
            0,
            guard(MEMBERS_UNCHANGED, members_unchanged(r.members.version)),
        ),
        r.roster.bump(who),
    ];
    ledger.store.write(ops).await.map_err(join_failed)?;
    let owner = Membership {
        role: Role::Owner,
        ..mine.clone()
    };
    let all = r
        .roster
        .members
        .iter()
        .map(|o| {
            if o.vault_id == owner.vault_id {
                owner.clone()
            } else {
                o.clone()
            }
        })
        .collect();
    ledger.rosters.put(who, Arc::new(r.roster.next(all)));
    let list: Vec<MemberRec> = r
        .members
        .list
        .iter()
        .map(|x| MemberRec {
            role: if x.person == who.as_str() {
                Role::Owner
            } else {
                x.role
            },
            ..x.clone()
        })
        .collect();
    Ok(Joined {
        vault: owner.vault_ref(),
        role: Role::Owner,
        members: infos(&list, &owner, who),
    })
}

pub(in crate::ledger) async fn list_members(
    ledger: &Ledger,
    who: &PersonId,
    vault: Option<&str>,
) -> Result<MemberList, LedgerError> {
    in_vault(ledger, who, vault, |v| async move {
        let members = read_members(ledger, v.membership.vault_id).await?;
        let list = members.or_sole(who, &v.membership);
        Ok(MemberList {
            vault: v.membership.vault_ref(),
            members: infos(&list, &v.membership, who),
        })
    })
    .await
}

/// The ops that take `member` out of `vault`: their member item, their
/// membership and vault-name items, and a move of THEIR roster version, so a
/// roster any instance cached for them is stale from this write on.
/// Their partition keeps that it ended (`MX#`), so their next call hears "your access
/// ended on …", not "no such vault".
fn removal(
    ledger: &Ledger,
    m: &Membership,
    member: &MemberRec,
    removed: bool,
) -> Result<Vec<WriteOp>, LedgerError> {
    let vault = m.vault_id;
    let them = PersonId::new(member.person.clone())
        .map_err(|e| LedgerError::internal_from("stored member has an unusable subject", e))?;
    let ended = member::EndedRec {
        vault_id: vault,
        name: m.name.clone(),
        name_key: member.name_key.clone(),
        on: ledger.today_in(m),
        removed,
        deleted: false,
    };
    // The vault keeps who they were, so a settle-up over their time still shows them.
    let former = household::FormerRec {
        person: member.person.clone(),
        name: dochiya_domain::without_invisible(&member.name).into_owned(),
        joined_at: member.joined_at,
        left_at: ledger.clock.now().as_second(),
    };
    Ok(vec![
        WriteOp::Put {
            item: Item {
                key: member::ended_membership(&them, vault),
                attrs: ended.to_attrs(),
            },
            guard: None,
        },
        WriteOp::Put {
            item: former.item(vault),
            guard: None,
        },
        WriteOp::Delete {
            key: member::member(vault, &them),
            guard: guard(MEMBER_PRESENT, Condition::Exists),
        },
        WriteOp::Delete {
            key: member::membership(&them, vault),
            guard: None,
        },
        WriteOp::Delete {
            key: vault::vault_name(&them, &member.name_key),
            guard: guard(NAME_HELD, points_at_vault(vault)),
        },
        Roster::moved_on(&them),
    ])
}

pub(in crate::ledger) async fn remove_member(
    ledger: &Ledger,
    who: &PersonId,
    vault: Option<&str>,
    member: &str,
) -> Result<RemovedMember, LedgerError> {
    retrying(|| {
        in_vault(ledger, who, vault, |v| async move {
            require_owner(&v.membership, OwnerAction::RemoveMembers)?;
            let members = read_members(ledger, v.membership.vault_id).await?;
            let version = members.version;
            let list = members.or_sole(who, &v.membership);
            let (target, label) = find_member(&list, member, &v.membership)?;
            if target.person == who.as_str() {
                return Err(LedgerError::invalid(Field::Member, Reason::RemovingYourself));
            }
            let mut ops = removal(ledger, &v.membership, target, true)?;
            ops.push(members_update(
                vault::vault_meta(v.membership.vault_id),
                -1,
                guard(MEMBERS_UNCHANGED, members_unchanged(version)),
            ));
            ops.push(owner_check(who, &v.membership));
            v.write(ledger, who, ops).await?;
            Ok(RemovedMember {
                vault: v.membership.vault_ref(),
                member: label.clone(),
                removed: true,
            })
        })
    })
    .await
}

pub(in crate::ledger) async fn leave_vault(
    ledger: &Ledger,
    who: &PersonId,
    vault: Option<&str>,
) -> Result<LeftVault, LedgerError> {
    retrying(|| {
        in_vault(ledger, who, vault, |v| async move {
            let members = read_members(ledger, v.membership.vault_id).await?;
            let me = match members.list.iter().find(|r| r.person == who.as_str()) {
                Some(me) if members.list.len() > 1 => me,
                _ => {
                    return Err(LedgerError::OnlyMember {
                        vault: v.membership.name.clone(),
                    });
                }
            };
            let other_owners = members
                .list
                .iter()
                .filter(|r| r.role == Role::Owner && r.person != who.as_str())
                .count();
            if me.role == Role::Owner && other_owners == 0 {
                return Err(LedgerError::LastOwner {
                    vault: v.membership.name.clone(),
                });
            }
            let mut ops = removal(ledger, &v.membership, me, false)?;
            // The caller's own version moves with the commit, under the roster guard.
            ops.pop();
            ops.push(members_update(
                vault::vault_meta(v.membership.vault_id),
                -1,
                guard(MEMBERS_UNCHANGED, members_unchanged(members.version)),
            ));
            match v.commit_moving_roster(ledger, who, ops).await {
                Ok(()) => Ok(LeftVault {
                    vault: v.membership.vault_ref(),
                    left: true,
                }),
                Err(StoreError::ConditionFailed { .. }) => Err(LedgerError::Conflict),
                Err(e) => Err(e.into()),
            }
        })
    })
    .await
}

impl Ledger {
    /// An invite code for the vault (owners only): single-use, 7 days, granting `role`.
    pub async fn share_vault(
        &self,
        who: &PersonId,
        vault: Option<&str>,
        role: Role,
    ) -> Result<SharedInvite, LedgerError> {
        share_vault(self, who, vault, role).await
    }

    /// Join the vault an invite code opens, under the vault's name or `name`
    /// (the joiner's own name for it). Exactly one join succeeds per code.
    pub async fn join_vault(
        &self,
        who: &PersonId,
        code: &str,
        name: Option<&str>,
    ) -> Result<Joined, LedgerError> {
        join_vault(self, who, code, name, None).await
    }

    /// [`Ledger::join_vault`], also choosing the display name the others see
    /// (`member_name`; else the token's name, numbered when another member has it).
    pub async fn join_vault_as(
        &self,
        who: &PersonId,
        code: &str,
        name: Option<&str>,
        member_name: Option<&str>,
    ) -> Result<Joined, LedgerError> {
        join_vault(self, who, code, name, member_name).await
    }

    /// The people keeping a vault, oldest first.
    pub async fn list_members(&self, who: &PersonId, vault: Option<&str>) -> Result<MemberList, LedgerError> {
        list_members(self, who, vault).await
    }

    /// Take a member out of a vault (owners only); takes effect on every instance at once.
    pub async fn remove_member(
        &self,
        who: &PersonId,
        vault: Option<&str>,
        member: &str,
    ) -> Result<RemovedMember, LedgerError> {
        remove_member(self, who, vault, member).await
    }

    /// Leave a shared vault (not as its last owner while others remain, nor as its only member).
    pub async fn leave_vault(&self, who: &PersonId, vault: Option<&str>) -> Result<LeftVault, LedgerError> {
        leave_vault(self, who, vault).await
    }
}
