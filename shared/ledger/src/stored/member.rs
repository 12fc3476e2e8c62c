//! Who keeps a vault: a person's memberships, ended memberships and roster version
//! (`P#<sub>` / `M#…`, `MX#…`, `M`), the vault's member items (`MB#<sub>`), what it
//! keeps of former members (`FM#…`) and invites (`INV#<hash>`).

use std::collections::BTreeMap;

use super::account::ACCOUNT_COUNT;
use super::table::{corrupt, flag, n, n_or_zero, parse_or_corrupt, person_pk, s, sv, upper, vault_pk};
use super::vault::VAULT_META;
use crate::api::{LedgerError, Role, VaultRef};
use dochiya_domain::{Currency, LocalDate, NameKey, PersonId, VaultId, VaultZone};
use dochiya_store::{Attrs, Condition, Guard, Key, SkRange, TTL_ATTRIBUTE, Value, WriteOp};

/// Prefix of membership items in a person's partition.
pub const MEMBERSHIP_PREFIX: &str = "M#";
/// Sort key of a person's roster version: sorts just before every `M#…`, so
/// one query reads the version with the memberships.
pub const ROSTER_VERSION_SK: &str = "M";
/// Prefix of ended memberships in a person's partition (removed, or left): sorts
/// after every `M#…` and before `VN#`, so the roster query reads them too.
pub const ENDED_PREFIX: &str = "MX#";

/// Prefix of member items (who keeps a shared vault) in a vault.
pub const MEMBER_PREFIX: &str = "MB#";
/// Prefix of invite items; an invite is its own partition and its sort key repeats it.
pub const INVITE_PREFIX: &str = "INV#";

/// A person's membership of a vault (`P#<sub>` / `M#<vaultId>`).
pub fn membership(who: &PersonId, vault: VaultId) -> Key {
    Key::new(person_pk(who), format!("{MEMBERSHIP_PREFIX}{vault}"))
}

/// The record that a person's membership of a vault ended (`P#<sub>` / `MX#<vaultId>`).
pub fn ended_membership(who: &PersonId, vault: VaultId) -> Key {
    Key::new(person_pk(who), format!("{ENDED_PREFIX}{vault}"))
}

/// Whether a sort key (from [`roster`]) is an ended membership's.
pub fn is_ended_membership(sk: &str) -> bool {
    sk.starts_with(ENDED_PREFIX)
}

/// The version of a person's memberships (`P#<sub>` / `M`): moved on by every
/// write that changes a membership, checked by every write that relied on a cached one.
pub fn roster_version(who: &PersonId) -> Key {
    Key::new(person_pk(who), ROSTER_VERSION_SK)
}

/// A person's roster: the version item (`M`) and every membership (`M#…`) in one query.
pub fn roster() -> SkRange {
    SkRange::Between(ROSTER_VERSION_SK.into(), upper(ENDED_PREFIX))
}

/// Whether a sort key (from [`roster`]) is the roster version's.
pub fn is_roster_version(sk: &str) -> bool {
    sk == ROSTER_VERSION_SK
}

/// A person's member item in a shared vault (`V#<id>` / `MB#<sub>`).
pub fn member(vault: VaultId, who: &PersonId) -> Key {
    Key::new(vault_pk(vault), format!("{MEMBER_PREFIX}{}", who.as_str()))
}

/// Whether a sort key (from [`members_and_meta`]) is a member item's.
pub fn is_member(sk: &str) -> bool {
    sk.starts_with(MEMBER_PREFIX)
}

/// A vault's member items (`MB#…`) and its settings (`META`) in one query:
/// `MB#` < `META` in byte order, and nothing else in a vault starts with `M`.
pub fn members_and_meta() -> SkRange {
    SkRange::Between(MEMBER_PREFIX.into(), VAULT_META.into())
}

/// Prefix of a former member's item in a vault (`V#<id>` / `FM#<sub>`; decision 060).
pub const FORMER_MEMBER_PREFIX: &str = "FM#";

/// What a vault keeps of one time someone was in it, once they left or were removed:
/// their name and that time (one item per time in, keyed by when it began), so a
/// settle-up over a period they were in still shows them.
pub fn former_member(vault: VaultId, sub: &str, joined_at: i64) -> Key {
    Key::new(
        vault_pk(vault),
        format!("{FORMER_MEMBER_PREFIX}{sub}#{joined_at:012}"),
    )
}

/// Every former member item of a vault.
pub fn former_members() -> SkRange {
    SkRange::Prefix(FORMER_MEMBER_PREFIX.into())
}

/// An invite, found by the hash of its code alone (`INV#<hash>` / `INV#`): the
/// joiner knows nothing else, so the invite cannot live in the vault's partition.
pub fn invite(code_hash: &str) -> Key {
    Key::new(format!("{INVITE_PREFIX}{code_hash}"), INVITE_PREFIX)
}

/// Attribute of a person's roster version item holding the version number.
pub const ROSTER_VERSION: &str = "version";

/// A person's membership of a vault, carrying the vault's settings so that one
/// query of the person's partition resolves any vault by name.
#[derive(Debug, Clone, PartialEq)]
pub struct Membership {
    pub vault_id: VaultId,
    pub name: String,
    pub name_key: NameKey,
    pub currency: Currency,
    pub zone: VaultZone,
    /// The person's role in the vault.
    pub role: Role,
}

impl Membership {
    /// `{ vaultId, name }` for results.
    pub fn vault_ref(&self) -> VaultRef {
        VaultRef {
            vault_id: self.vault_id,
            name: self.name.clone(),
        }
    }

    /// How errors name the vault.
    pub fn described(&self) -> String {
        format!("vault \"{}\"", self.name)
    }
}

impl Membership {
    /// This record as item attributes.
    pub fn to_attrs(&self) -> Attrs {
        BTreeMap::from([
            ("vaultId".into(), sv(self.vault_id.to_string())),
            ("name".into(), sv(&self.name)),
            ("nameKey".into(), sv(self.name_key.as_str())),
            ("currency".into(), sv(self.currency.code())),
            ("timeZone".into(), sv(self.zone.name())),
            (ROLE.into(), sv(self.role.as_str())),
        ])
    }

    /// This record from an item's attributes (a missing or mistyped one is corrupt data).
    pub fn from_attrs(a: &Attrs) -> Result<Self, LedgerError> {
        Ok(Membership {
            role: role(a)?,
            vault_id: parse_or_corrupt(VaultId::parse(s(a, "vaultId")?), "vault id")?,
            name: s(a, "name")?.to_string(),
            name_key: NameKey::from_stored(s(a, "nameKey")?.to_string()),
            currency: parse_or_corrupt(Currency::parse(s(a, "currency")?), "currency")?,
            zone: parse_or_corrupt(VaultZone::parse(s(a, "timeZone")?), "time zone")?,
        })
    }

    /// The vault's own settings item (`META`).
    pub fn meta_attrs(&self, created_by: &str, created_at: i64) -> Attrs {
        let mut a = self.to_attrs();
        a.remove("role");
        a.insert(ACCOUNT_COUNT.into(), Value::N(0));
        // The creator is the first member (their member item is written beside).
        a.insert(MEMBER_COUNT.into(), Value::N(1));
        a.insert(MEMBERS_VERSION.into(), Value::N(0));
        a.insert("createdBy".into(), sv(created_by));
        a.insert("createdAt".into(), Value::N(created_at));
        a
    }
}

/// Attribute of a membership and a member item holding the role.
pub const ROLE: &str = "role";
/// Attribute of a vault's settings item counting its members (absent: 1, the creator).
pub const MEMBER_COUNT: &str = "memberCount";
/// Attribute of a vault's settings item moved on by every change of its member list.
pub const MEMBERS_VERSION: &str = "membersVersion";

/// A role from a stored item; memberships written before sharing existed say `owner`.
fn role(a: &Attrs) -> Result<Role, LedgerError> {
    match a.get(ROLE) {
        None => Ok(Role::Owner),
        Some(Value::S(r)) => Role::parse(r).ok_or_else(|| corrupt(ROLE)),
        Some(_) => Err(corrupt(ROLE)),
    }
}

/// A vault's member count from its settings item (a vault never shared has its creator only).
pub fn member_count(a: &Attrs) -> Result<i64, LedgerError> {
    match a.get(MEMBER_COUNT) {
        None => Ok(1),
        Some(Value::N(v)) => Ok(*v),
        Some(_) => Err(corrupt(MEMBER_COUNT)),
    }
}

/// A vault's members version from its settings item (0 when never shared).
pub fn members_version(a: &Attrs) -> Result<i64, LedgerError> {
    n_or_zero(a, MEMBERS_VERSION)
}

/// The op that changes a vault's member count by `delta` and moves its members
/// version on, under `guard` (who joins, leaves or is removed).
pub fn members_update(key: Key, delta: i64, guard: Option<Guard>) -> WriteOp {
    WriteOp::Update {
        key,
        set: BTreeMap::new(),
        add: BTreeMap::from([(MEMBER_COUNT.into(), delta), (MEMBERS_VERSION.into(), 1)]),
        remove: vec![],
        guard,
    }
}

/// The guard "the vault's member list is still the version read".
pub fn members_unchanged(version: i64) -> Condition {
    Condition::AttrEquals(MEMBERS_VERSION.into(), Value::N(version))
}

/// The guard "this membership is an owner's".
pub fn is_owner() -> Condition {
    Condition::AttrEquals(ROLE.into(), sv(Role::Owner.as_str()))
}

/// The attributes that make a membership or member item an owner's.
pub fn owner_role() -> Attrs {
    BTreeMap::from([(ROLE.into(), sv(Role::Owner.as_str()))])
}

/// One person keeping a shared vault (`V#<id>` / `MB#<sub>`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MemberRec {
    /// The member's subject (never shown: it keys their own items).
    pub person: String,
    /// Their display name when they joined.
    pub name: String,
    pub role: Role,
    /// Epoch seconds.
    pub joined_at: i64,
    /// The member's own name key for the vault (their `VN#` item, deleted on removal).
    pub name_key: NameKey,
}

/// A membership that ended: which vault, the person's name for it, when, and how.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EndedRec {
    pub vault_id: VaultId,
    /// The vault's name as the remover knew it.
    pub name: String,
    /// The person's own name key for it (what they would call it).
    pub name_key: NameKey,
    /// The day it ended, in the vault's zone.
    pub on: LocalDate,
    /// Removed by an owner (else they left).
    pub removed: bool,
    /// The vault itself was deleted by an owner (absent: false).
    pub deleted: bool,
}

impl EndedRec {
    /// This record as item attributes.
    pub fn to_attrs(&self) -> Attrs {
        BTreeMap::from([
            ("vaultId".into(), sv(self.vault_id.to_string())),
            ("name".into(), sv(&self.name)),
            ("nameKey".into(), sv(self.name_key.as_str())),
            ("endedOn".into(), sv(self.on.to_string())),
            ("removed".into(), Value::Bool(self.removed)),
            ("deleted".into(), Value::Bool(self.deleted)),
        ])
    }

    /// This record from an item's attributes (a missing or mistyped one is corrupt data).
    pub fn from_attrs(a: &Attrs) -> Result<Self, LedgerError> {
        Ok(EndedRec {
            vault_id: parse_or_corrupt(VaultId::parse(s(a, "vaultId")?), "vault id")?,
            name: s(a, "name")?.to_string(),
            name_key: NameKey::from_stored(s(a, "nameKey")?.to_string()),
            on: parse_or_corrupt(LocalDate::parse(s(a, "endedOn")?), "date")?,
            removed: flag(a, "removed")?,
            deleted: flag(a, "deleted")?,
        })
    }
}

impl MemberRec {
    /// This record as item attributes.
    pub fn to_attrs(&self) -> Attrs {
        BTreeMap::from([
            ("person".into(), sv(&self.person)),
            ("name".into(), sv(&self.name)),
            (ROLE.into(), sv(self.role.as_str())),
            ("joinedAt".into(), Value::N(self.joined_at)),
            ("nameKey".into(), sv(self.name_key.as_str())),
        ])
    }

    /// This record from an item's attributes (a missing or mistyped one is corrupt data).
    pub fn from_attrs(a: &Attrs) -> Result<Self, LedgerError> {
        Ok(MemberRec {
            person: s(a, "person")?.to_string(),
            name: s(a, "name")?.to_string(),
            role: role(a)?,
            joined_at: n(a, "joinedAt")?,
            name_key: NameKey::from_stored(s(a, "nameKey")?.to_string()),
        })
    }
}

/// An invite (`INV#<hash>` / `INV#`): the vault it opens, with the settings a
/// joiner's membership carries, the role it grants, and whether it was used.
#[derive(Debug, Clone, PartialEq)]
pub struct InviteRec {
    pub vault_id: VaultId,
    pub vault_name: String,
    pub currency: Currency,
    pub zone: VaultZone,
    pub role: Role,
    /// Epoch seconds after which the code no longer works.
    pub expires_at: i64,
    pub used: bool,
    /// The vault's members when the invite was made, so a join need not read
    /// them (decision 030); `None` on invites made before.
    pub members: Option<InviteMembers>,
}

/// The member list an invite carries, and the members version it was read at.
#[derive(Debug, Clone, PartialEq)]
pub struct InviteMembers {
    /// Oldest first.
    pub list: Vec<MemberRec>,
    /// `META`'s members version after the invite's own write.
    pub version: i64,
}

/// Attribute of an invite holding the members at sharing.
const INVITE_MEMBERS: &str = "members";

/// Attribute of an invite saying it was used.
const USED: &str = "used";

impl InviteRec {
    /// Attributes; `purge_at` (the TTL) is later than `expires_at`, so a late
    /// join still learns the code expired rather than that it never existed.
    pub fn to_attrs(&self, purge_at: i64) -> Attrs {
        let mut attrs = BTreeMap::from([
            ("vaultId".into(), sv(self.vault_id.to_string())),
            ("vaultName".into(), sv(&self.vault_name)),
            ("currency".into(), sv(self.currency.code())),
            ("timeZone".into(), sv(self.zone.name())),
            (ROLE.into(), sv(self.role.as_str())),
            ("validUntil".into(), Value::N(self.expires_at)),
            (USED.into(), Value::Bool(self.used)),
            (TTL_ATTRIBUTE.into(), Value::N(purge_at)),
        ]);
        if let Some(m) = &self.members {
            let list = m.list.iter().map(|r| Value::M(r.to_attrs())).collect();
            attrs.insert(INVITE_MEMBERS.into(), Value::L(list));
            attrs.insert(MEMBERS_VERSION.into(), Value::N(m.version));
        }
        attrs
    }

    /// This record from an item's attributes (a missing or mistyped one is corrupt data).
    pub fn from_attrs(a: &Attrs) -> Result<Self, LedgerError> {
        Ok(InviteRec {
            vault_id: parse_or_corrupt(VaultId::parse(s(a, "vaultId")?), "vault id")?,
            vault_name: s(a, "vaultName")?.to_string(),
            currency: parse_or_corrupt(Currency::parse(s(a, "currency")?), "currency")?,
            zone: parse_or_corrupt(VaultZone::parse(s(a, "timeZone")?), "time zone")?,
            role: role(a)?,
            expires_at: n(a, "validUntil")?,
            used: flag(a, USED)?,
            members: match a.get(INVITE_MEMBERS) {
                None => None,
                Some(Value::L(list)) => Some(InviteMembers {
                    list: list
                        .iter()
                        .map(|v| match v {
                            Value::M(m) => MemberRec::from_attrs(m),
                            _ => Err(corrupt(INVITE_MEMBERS)),
                        })
                        .collect::<Result<_, _>>()?,
                    version: n(a, MEMBERS_VERSION)?,
                }),
                Some(_) => return Err(corrupt(INVITE_MEMBERS)),
            },
        })
    }

    /// The op that marks the invite used, only if it still is not: one join per code.
    pub fn use_up(key: Key, at: i64, guard_name: &'static str) -> WriteOp {
        WriteOp::Update {
            key,
            set: BTreeMap::from([(USED.into(), Value::Bool(true)), ("usedAt".into(), Value::N(at))]),
            add: BTreeMap::new(),
            remove: vec![],
            guard: Some(Guard::new(
                guard_name,
                Condition::AttrEquals(USED.into(), Value::Bool(false)),
            )),
        }
    }
}
