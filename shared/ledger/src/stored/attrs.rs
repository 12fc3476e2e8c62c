//! Stored records and their item attributes: the only place that knows attribute names.
//!
//! Records are internal; results are built from them explicitly (types.rs), so
//! nothing stored leaves the server unless a result names it.

use std::collections::BTreeMap;

use crate::api::LedgerError;
use crate::api::{Role, Stuck, StuckReason, VaultRef};
use dochiya_domain::{
    AccountId, AccountKind, Billing, Currency, Every, Installments, LocalDate, NameKey, PersonId, Schedule,
    TransactionId, VaultId, VaultZone, YearMonth,
};
use dochiya_store::{Attrs, Condition, Guard, Item, Key, TTL_ATTRIBUTE, Value, WriteOp};

/// Read a string attribute.
pub fn s<'a>(attrs: &'a Attrs, name: &str) -> Result<&'a str, LedgerError> {
    match attrs.get(name) {
        Some(Value::S(v)) => Ok(v),
        _ => Err(corrupt(name)),
    }
}

/// Read an integer attribute.
pub fn n(attrs: &Attrs, name: &str) -> Result<i64, LedgerError> {
    match attrs.get(name) {
        Some(Value::N(v)) => Ok(*v),
        _ => Err(corrupt(name)),
    }
}

/// Read an integer attribute that may be absent (counts as 0).
pub fn n_or_zero(attrs: &Attrs, name: &str) -> Result<i64, LedgerError> {
    match attrs.get(name) {
        None => Ok(0),
        Some(Value::N(v)) => Ok(*v),
        _ => Err(corrupt(name)),
    }
}

/// Read a boolean attribute that may be absent (counts as false).
pub fn flag(attrs: &Attrs, name: &str) -> Result<bool, LedgerError> {
    match attrs.get(name) {
        None => Ok(false),
        Some(Value::Bool(v)) => Ok(*v),
        _ => Err(corrupt(name)),
    }
}

fn corrupt(name: &str) -> LedgerError {
    LedgerError::internal(format!(
        "stored item has a missing or mistyped attribute `{name}`"
    ))
}

fn parse_or_corrupt<T, E>(r: Result<T, E>, what: &str) -> Result<T, LedgerError> {
    r.map_err(|_| LedgerError::internal(format!("stored item has an unreadable {what}")))
}

/// Shorthand for a string value.
pub fn sv(v: impl Into<String>) -> Value {
    Value::S(v.into())
}

/// Attribute of an account that says it is archived (guards of writes that need a live one).
pub const ARCHIVED: &str = "archived";
/// Attribute of a person's roster version item holding the version number.
pub const ROSTER_VERSION: &str = "version";
/// Attribute of a vault's settings item counting its accounts (live and archived).
const ACCOUNT_COUNT: &str = "accountCount";

/// The name attributes of a renamed vault, membership or account.
pub fn name_attrs(display: &str, key: &NameKey) -> Attrs {
    BTreeMap::from([("name".into(), sv(display)), ("nameKey".into(), sv(key.as_str()))])
}

/// Only the name key (a member item follows its member's name for the vault).
pub fn name_key_attr(key: &NameKey) -> Attrs {
    BTreeMap::from([("nameKey".into(), sv(key.as_str()))])
}

/// The guard "the item's name key is still `key`".
pub fn name_key_is(key: &NameKey) -> Condition {
    Condition::AttrEquals("nameKey".into(), sv(key.as_str()))
}

/// A vault-name item's attributes: which vault holds the name.
pub fn vault_pointer(vault: VaultId) -> Attrs {
    BTreeMap::from([("vaultId".into(), sv(vault.to_string()))])
}

/// The guard "this vault-name item still points at `vault`".
pub fn points_at_vault(vault: VaultId) -> Condition {
    Condition::AttrEquals("vaultId".into(), sv(vault.to_string()))
}

/// An account-name item's attributes: which account holds the name.
pub fn account_pointer(account: AccountId) -> Attrs {
    BTreeMap::from([("accountId".into(), sv(account.to_string()))])
}

/// The guard "this account-name item still points at `account`".
pub fn points_at_account(account: AccountId) -> Condition {
    Condition::AttrEquals("accountId".into(), sv(account.to_string()))
}

/// The guard "this duplicate guard still points at `tx`".
pub fn guard_points_at(tx: TransactionId) -> Condition {
    Condition::AttrEquals("transactionId".into(), sv(tx.to_string()))
}

/// Attribute of an archived account: the day it was archived, in the vault's zone.
const ARCHIVED_ON: &str = "archivedOn";
/// Attribute of an archived account: when it was archived (Unix milliseconds).
const ARCHIVED_AT: &str = "archivedAt";

/// The attributes that mark an account archived on `on` (the vault's today) at `at_ms`.
pub fn archive_mark(on: LocalDate, at_ms: i64) -> Attrs {
    BTreeMap::from([
        (ARCHIVED.into(), Value::Bool(true)),
        (ARCHIVED_ON.into(), sv(on.to_string())),
        (ARCHIVED_AT.into(), Value::N(at_ms)),
    ])
}

/// When an archived account was archived: the day (absent for accounts archived before
/// it was kept) and the moment (0 when absent), which order same-day handles.
pub fn archived_when(attrs: &Attrs) -> Result<(Option<LocalDate>, i64), LedgerError> {
    let on = match attrs.get(ARCHIVED_ON) {
        None => None,
        Some(Value::S(d)) => Some(parse_or_corrupt(LocalDate::parse(d), "archive date")?),
        Some(_) => return Err(corrupt(ARCHIVED_ON)),
    };
    Ok((on, n_or_zero(attrs, ARCHIVED_AT)?))
}

/// Move a vault's account count by `delta`.
pub fn account_count_update(key: Key, delta: i64, guard: Option<Guard>) -> WriteOp {
    WriteOp::Update {
        key,
        set: BTreeMap::new(),
        add: BTreeMap::from([(ACCOUNT_COUNT.into(), delta)]),
        remove: vec![],
        guard,
    }
}

/// A vault's account count from its settings item.
pub fn account_count(a: &Attrs) -> Result<i64, LedgerError> {
    n_or_zero(a, ACCOUNT_COUNT)
}

/// The guard "this account exists and is live".
pub fn account_live() -> Condition {
    Condition::AttrEquals(ARCHIVED.into(), Value::Bool(false))
}

/// Whether an account item (as a failed write reported it) exists and is live.
pub fn account_item_live(current: Option<&Item>) -> bool {
    current.is_some_and(|i| i.attrs.get(ARCHIVED) == Some(&Value::Bool(false)))
}

/// The guard "this transaction is not voided".
pub fn still_live() -> Condition {
    Condition::AttrEquals("voided".into(), Value::Bool(false))
}

/// The attributes that mark a transaction voided.
pub fn void_mark(reason: &str, at: i64, by: &str) -> Attrs {
    BTreeMap::from([
        ("voided".into(), Value::Bool(true)),
        ("voidReason".into(), sv(reason)),
        ("voidedAt".into(), Value::N(at)),
        (VOIDED_BY.into(), sv(by)),
    ])
}

/// Attribute of a voided transaction naming who voided it.
const VOIDED_BY: &str = "voidedBy";
/// Attribute of a transaction holding its origin (see [`TxRec::origin`]).
const ORIGIN: &str = "origin";

/// Move an account's running balance by `net`.
pub fn balance_update(key: Key, net: i64, guard: Option<Guard>) -> WriteOp {
    WriteOp::Update {
        key,
        set: BTreeMap::new(),
        add: BTreeMap::from([("net".into(), net)]),
        remove: vec![],
        guard,
    }
}

/// Move a rollup (monthly or daily) by `net`, creating it with `labels` if absent.
pub fn rollup_update(key: Key, labels: Attrs, net: i64) -> WriteOp {
    WriteOp::Update {
        key,
        set: labels,
        add: BTreeMap::from([("net".into(), net)]),
        remove: vec![],
        guard: None,
    }
}

/// The labels of an account's monthly rollup.
pub fn rollup_month_attrs(account: AccountId, month: YearMonth) -> Attrs {
    BTreeMap::from([
        ("accountId".into(), sv(account.to_string())),
        ("month".into(), sv(month.to_string())),
    ])
}

/// The labels of an account's daily rollup.
pub fn rollup_day_attrs(account: AccountId, date: LocalDate) -> Attrs {
    BTreeMap::from([
        ("accountId".into(), sv(account.to_string())),
        ("date".into(), sv(date.to_string())),
    ])
}

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

/// An account with its running balance (`net`: debits minus credits, minor units).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AccountRec {
    pub account_id: AccountId,
    pub name: String,
    pub name_key: NameKey,
    pub kind: AccountKind,
    pub archived: bool,
    pub net: i64,
    /// What the item knows of the account's snapshots (decision 030).
    pub snapshots: SnapshotHead,
    /// What the item knows of the account's budget settings (decision 030).
    pub budgets: BudgetHead,
    /// The opening balance it was created with (natural sign, 0 for none); `None`
    /// for accounts created before it was kept.
    pub opening: Option<i64>,
    /// Its parent (대분류) when it is a child category (decision 038).
    pub parent: Option<AccountId>,
    /// How many times a child was attached to it: a write that makes it a child
    /// checks this is unchanged, so no grandchild appears concurrently.
    pub child_seq: i64,
    /// A card's billing cycle (liabilities only; `None`: not set).
    pub billing: Option<Billing>,
    /// The member whose account it is, by subject (`None`: the household's; decision 060).
    pub owner: Option<String>,
    /// A savings goal kept in it (asset accounts only; decision 061).
    pub goal: Option<GoalRec>,
    /// A card's 실적 setting (cards with billing only; decision 061).
    pub performance: Option<PerformanceRec>,
    /// Words that put an entry whose memo holds one here when `to` is left out (expense
    /// accounts; decision 061), as written.
    pub match_words: Vec<String>,
}

/// Attribute of an account holding its set words.
pub const MATCH: &str = "match";

/// The first word of a memo as words are learned by: its first whitespace-separated
/// token with only its letters kept, two or more (`None`: no such word).
pub fn first_word(memo: &str) -> Option<String> {
    let word: String = memo
        .split_whitespace()
        .next()?
        .chars()
        .filter(|c| c.is_alphabetic())
        .collect();
    (word.chars().count() >= 2).then_some(word)
}

/// What a vault learned of one first word (`LW#<wordKey>`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WordRec {
    /// The word as last written.
    pub word: String,
    /// How many live entries with it moved money into each account.
    pub counts: BTreeMap<AccountId, i64>,
    /// The account an edit last moved an entry with it to (the latest correction).
    pub fix: Option<AccountId>,
}

/// Attribute of a word item naming the latest correction's account.
pub const WORD_FIX: &str = "fix";

impl WordRec {
    /// This record from an item's attributes.
    pub fn from_attrs(a: &Attrs) -> Result<Self, LedgerError> {
        let counts = per_account(a)?;
        Ok(WordRec {
            word: s(a, "word")?.to_string(),
            counts,
            fix: optional_s(a, WORD_FIX)?
                .map(|f| parse_or_corrupt(AccountId::parse(&f), WORD_FIX))
                .transpose()?,
        })
    }
}

/// A card's 실적: the spending per usage period that unlocks its benefits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PerformanceRec {
    /// The amount to reach, minor units.
    pub threshold: i64,
    /// Categories whose spending does not count.
    pub exclude: Vec<AccountId>,
}

/// Attributes of a card's item holding its 실적 setting.
pub const PERFORMANCE_ATTRS: [&str; 2] = ["perfThreshold", "perfExclude"];

impl PerformanceRec {
    /// The attributes that store it on the card's item.
    pub fn attrs(&self) -> Attrs {
        BTreeMap::from([
            (PERFORMANCE_ATTRS[0].into(), Value::N(self.threshold)),
            (
                PERFORMANCE_ATTRS[1].into(),
                Value::L(self.exclude.iter().map(|a| sv(a.to_string())).collect()),
            ),
        ])
    }

    fn from_attrs(a: &Attrs) -> Result<Option<PerformanceRec>, LedgerError> {
        let Some(threshold) = optional_n(a, PERFORMANCE_ATTRS[0])? else {
            return Ok(None);
        };
        let exclude = string_list(a, PERFORMANCE_ATTRS[1])?
            .iter()
            .map(|id| parse_or_corrupt(AccountId::parse(id), PERFORMANCE_ATTRS[1]))
            .collect::<Result<_, _>>()?;
        Ok(Some(PerformanceRec { threshold, exclude }))
    }
}

/// A savings goal on an asset account.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GoalRec {
    /// Its name as written.
    pub name: String,
    /// What to reach, minor units.
    pub target: i64,
    /// The day to reach it by.
    pub by: Option<LocalDate>,
    /// The day it was first set (where its straight line starts).
    pub since: LocalDate,
}

/// Attributes of an account item holding its goal.
pub const GOAL_ATTRS: [&str; 4] = ["goalName", "goalTarget", "goalBy", "goalSince"];

impl GoalRec {
    /// The attributes that store it on its account item.
    pub fn attrs(&self) -> Attrs {
        let mut a = BTreeMap::from([
            (GOAL_ATTRS[0].into(), sv(&self.name)),
            (GOAL_ATTRS[1].into(), Value::N(self.target)),
            (GOAL_ATTRS[3].into(), sv(self.since.to_string())),
        ]);
        if let Some(by) = self.by {
            a.insert(GOAL_ATTRS[2].into(), sv(by.to_string()));
        }
        a
    }

    fn from_attrs(a: &Attrs) -> Result<Option<GoalRec>, LedgerError> {
        let Some(name) = optional_s(a, GOAL_ATTRS[0])? else {
            return Ok(None);
        };
        let date = |k: &str| -> Result<Option<LocalDate>, LedgerError> {
            optional_s(a, k)?
                .map(|d| parse_or_corrupt(LocalDate::parse(&d), k))
                .transpose()
        };
        Ok(Some(GoalRec {
            name,
            target: n(a, GOAL_ATTRS[1])?,
            by: date(GOAL_ATTRS[2])?,
            since: date(GOAL_ATTRS[3])?.ok_or_else(|| corrupt(GOAL_ATTRS[3]))?,
        }))
    }
}

impl AccountRec {
    /// A new account's item (`createdAt` = `created_at`): its snapshot head starts known and empty.
    pub fn to_attrs(&self, created_at: i64) -> Attrs {
        let mut attrs = BTreeMap::from([
            ("accountId".into(), sv(self.account_id.to_string())),
            ("name".into(), sv(&self.name)),
            ("nameKey".into(), sv(self.name_key.as_str())),
            ("kind".into(), sv(self.kind.as_str())),
            ("archived".into(), Value::Bool(self.archived)),
            ("net".into(), Value::N(self.net)),
            ("createdAt".into(), Value::N(created_at)),
        ]);
        if let Some(o) = self.opening {
            attrs.insert("opening".into(), Value::N(o));
        }
        if let SnapshotHead::Known { seq, latest } = self.snapshots {
            attrs.extend(SnapshotHead::attrs(seq, latest));
        }
        if let BudgetHead::Known { seq, tail } = &self.budgets {
            attrs.extend(BudgetHead::attrs(*seq, tail));
        }
        if let Some(p) = self.parent {
            attrs.insert(PARENT.into(), sv(p.to_string()));
        }
        if let Some(b) = self.billing {
            attrs.extend(billing_attrs(b));
        }
        if let Some(o) = &self.owner {
            attrs.insert(OWNER.into(), sv(o));
        }
        if let Some(g) = &self.goal {
            attrs.extend(g.attrs());
        }
        if let Some(p) = &self.performance {
            attrs.extend(p.attrs());
        }
        if !self.match_words.is_empty() {
            attrs.insert(MATCH.into(), Value::L(self.match_words.iter().map(sv).collect()));
        }
        attrs
    }

    /// This record from an item's attributes (a missing or mistyped one is corrupt data).
    pub fn from_attrs(a: &Attrs) -> Result<Self, LedgerError> {
        Ok(AccountRec {
            account_id: parse_or_corrupt(AccountId::parse(s(a, "accountId")?), "account id")?,
            name: s(a, "name")?.to_string(),
            name_key: NameKey::from_stored(s(a, "nameKey")?.to_string()),
            kind: parse_or_corrupt(AccountKind::parse(s(a, "kind")?), "account kind")?,
            archived: flag(a, "archived")?,
            net: n_or_zero(a, "net")?,
            snapshots: SnapshotHead::from_attrs(a)?,
            budgets: BudgetHead::from_attrs(a)?,
            opening: match a.get("opening") {
                None => None,
                Some(Value::N(o)) => Some(*o),
                Some(_) => return Err(corrupt("opening")),
            },
            parent: match a.get(PARENT) {
                None => None,
                Some(Value::S(p)) => Some(parse_or_corrupt(AccountId::parse(p), "parent")?),
                Some(_) => return Err(corrupt(PARENT)),
            },
            child_seq: n_or_zero(a, CHILD_SEQ)?,
            billing: billing_of(a)?,
            owner: optional_s(a, OWNER)?,
            goal: GoalRec::from_attrs(a)?,
            performance: PerformanceRec::from_attrs(a)?,
            match_words: string_list(a, MATCH)?,
        })
    }
}

/// Attribute of an account naming its owner's subject (absent: shared).
pub const OWNER: &str = "owner";
/// Attribute of a transaction saying whose spending it was (a subject, or [`FOR_SHARED`]).
pub const FOR: &str = "for";
/// Attribute of a transaction holding the name its `for` showed by.
pub const FOR_NAME: &str = "forName";
/// The stored `for` of spending for everyone.
pub const FOR_SHARED: &str = "*";

/// An optional string attribute (mistyped: corrupt).
fn optional_s(a: &Attrs, key: &str) -> Result<Option<String>, LedgerError> {
    match a.get(key) {
        None => Ok(None),
        Some(Value::S(v)) => Ok(Some(v.clone())),
        Some(_) => Err(corrupt(key)),
    }
}

/// Attribute of a child account naming its parent's id.
pub const PARENT: &str = "parent";
/// Attribute of an account counting the children ever attached to it.
pub const CHILD_SEQ: &str = "childSeq";
/// Attributes of an account item holding its card's billing cycle.
pub const BILLING_ATTRS: [&str; 2] = ["closingDay", "paymentDay"];

/// The attributes that store a card's billing cycle on its account item.
pub fn billing_attrs(b: Billing) -> Attrs {
    BTreeMap::from([
        (BILLING_ATTRS[0].into(), Value::N(b.closing_day())),
        (BILLING_ATTRS[1].into(), Value::N(b.payment_day())),
    ])
}

fn billing_of(a: &Attrs) -> Result<Option<Billing>, LedgerError> {
    match (optional_n(a, BILLING_ATTRS[0])?, optional_n(a, BILLING_ATTRS[1])?) {
        (None, None) => Ok(None),
        (Some(c), Some(p)) => Billing::new(c, p).map(Some).map_err(|_| corrupt("closingDay")),
        _ => Err(corrupt("paymentDay")),
    }
}

/// A rollup item: an account's net change over a month or a day.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rollup {
    pub account_id: AccountId,
    pub period: Period,
    pub net: i64,
}

/// The period a rollup covers, from its own attributes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Period {
    /// A monthly rollup.
    Month(YearMonth),
    /// A daily rollup.
    Day(LocalDate),
}

impl Period {
    /// The month the period falls in.
    pub fn month(self) -> YearMonth {
        match self {
            Period::Month(m) => m,
            Period::Day(d) => d.month(),
        }
    }
}

impl Rollup {
    /// This record from an item's attributes (a missing or mistyped one is corrupt data).
    pub fn from_attrs(a: &Attrs) -> Result<Self, LedgerError> {
        let period = match (a.get("month"), a.get("date")) {
            (Some(_), _) => Period::Month(parse_or_corrupt(YearMonth::parse(s(a, "month")?), "month")?),
            (None, Some(_)) => Period::Day(parse_or_corrupt(LocalDate::parse(s(a, "date")?), "date")?),
            (None, None) => return Err(corrupt("month")),
        };
        Ok(Rollup {
            account_id: parse_or_corrupt(AccountId::parse(s(a, "accountId")?), "account id")?,
            period,
            net: n_or_zero(a, "net")?,
        })
    }
}

/// One stored posting (the account's name at recording time is kept for replays).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PostingRec {
    pub account_id: AccountId,
    pub name: String,
    pub amount: i64,
}

/// Attribute of a transaction or snapshot naming who wrote it.
pub const RECORDED_BY: &str = "recordedBy";

/// Attribute of a transaction holding its recorder's subject (never shown).
pub const RECORDER: &str = "recorder";

/// A stored transaction.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TxRec {
    pub id: TransactionId,
    pub date: LocalDate,
    pub memo: String,
    pub voided: bool,
    pub recorded_at_ms: i64,
    /// The recorder's display name at the time (absent on entries from before sharing).
    pub recorded_by: Option<String>,
    /// The recorder's subject (absent on a recurring posting, nobody's own, and on
    /// entries from before it was kept): whose entry `list_transactions`' `recordedBy` finds.
    pub recorder: Option<String>,
    pub postings: Vec<PostingRec>,
    /// 1 when recorded, one more with each edit (absent on items older than edits: 1).
    pub version: u32,
    /// When the last edit was made, epoch milliseconds.
    pub edited_at_ms: Option<i64>,
    /// Why it was voided, as given (set by the void's update, read back here).
    pub void_reason: Option<String>,
    /// When it was voided, epoch seconds.
    pub voided_at: Option<i64>,
    /// Who voided it (display name then; absent on voids from before it was kept).
    pub voided_by: Option<String>,
    /// A hash of the idempotency record's key that recorded it (absent on entries
    /// recorded without one, or before it was kept): where its voids and edits
    /// leave what it is now, for replays of that key (`keys::transaction_changed`).
    pub origin: Option<String>,
    /// The statement line's own id it was recorded with (absent without one, or on
    /// entries from before it was kept): a line with another reference is another
    /// purchase, never its duplicate.
    pub external_ref: Option<String>,
    /// The name of the recurring schedule that posted it (absent on every other entry).
    pub recurring: Option<String>,
    /// Its tags as written, validated by `domain::parse_tags` (absent: none; decision 038).
    pub tags: Vec<String>,
    /// The operation whose change it shows now (absent on entries from before operations).
    pub operation_id: Option<crate::api::OperationId>,
    /// An installment purchase: how many parts, on which card (absent: one-time).
    pub installments: Option<InstallmentPlan>,
    /// Whose spending it was when not its categories' (a subject or [`FOR_SHARED`]; decision 060).
    pub for_whom: Option<String>,
    /// The name `for_whom` showed by when written (`"shared"` for [`FOR_SHARED`]).
    pub for_name: Option<String>,
}

/// How a card purchase is paid: in `count` monthly parts on the bills of `card`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InstallmentPlan {
    pub count: Installments,
    pub card: AccountId,
}

impl TxRec {
    /// A new, live, unedited transaction recorded by `by` (`None`: a recurring posting).
    pub fn new(
        id: TransactionId,
        date: LocalDate,
        memo: String,
        recorded_at_ms: i64,
        by: Option<&PersonId>,
        postings: Vec<PostingRec>,
    ) -> Self {
        TxRec {
            id,
            date,
            memo,
            voided: false,
            recorded_at_ms,
            recorded_by: by.map(PersonId::display_name),
            recorder: by.map(|p| p.as_str().to_owned()),
            postings,
            version: 1,
            edited_at_ms: None,
            void_reason: None,
            voided_at: None,
            voided_by: None,
            origin: None,
            external_ref: None,
            recurring: None,
            tags: Vec::new(),
            operation_id: None,
            installments: None,
            for_whom: None,
            for_name: None,
        }
    }

    /// This record as item attributes.
    pub fn to_attrs(&self) -> Attrs {
        let postings = self
            .postings
            .iter()
            .map(|p| {
                Value::M(BTreeMap::from([
                    ("accountId".into(), sv(p.account_id.to_string())),
                    ("name".into(), sv(&p.name)),
                    ("amount".into(), Value::N(p.amount)),
                ]))
            })
            .collect();
        let mut attrs = BTreeMap::from([
            ("transactionId".into(), sv(self.id.to_string())),
            ("date".into(), sv(self.date.to_string())),
            ("memo".into(), sv(&self.memo)),
            ("voided".into(), Value::Bool(self.voided)),
            ("recordedAt".into(), Value::N(self.recorded_at_ms)),
            ("postings".into(), Value::L(postings)),
            (VERSION.into(), Value::N(i64::from(self.version))),
        ]);
        if let Some(at) = self.edited_at_ms {
            attrs.insert("editedAt".into(), Value::N(at));
        }
        if let Some(reason) = &self.void_reason {
            attrs.insert("voidReason".into(), sv(reason));
        }
        if let Some(at) = self.voided_at {
            attrs.insert("voidedAt".into(), Value::N(at));
        }
        if let Some(by) = &self.voided_by {
            attrs.insert(VOIDED_BY.into(), sv(by));
        }
        if let Some(origin) = &self.origin {
            attrs.insert(ORIGIN.into(), sv(origin));
        }
        if let Some(r) = &self.external_ref {
            attrs.insert(EXTERNAL_REF.into(), sv(r));
        }
        if let Some(r) = &self.recurring {
            attrs.insert(RECURRING.into(), sv(r));
        }
        if let Some(plan) = &self.installments {
            attrs.insert(INSTALLMENTS.into(), Value::N(i64::from(plan.count.count())));
            attrs.insert(INSTALLMENT_CARD.into(), sv(plan.card.to_string()));
        }
        if let Some(by) = &self.recorded_by {
            attrs.insert(RECORDED_BY.into(), sv(by));
        }
        if let Some(sub) = &self.recorder {
            attrs.insert(RECORDER.into(), sv(sub));
        }
        if !self.tags.is_empty() {
            attrs.insert(TAGS.into(), Value::L(self.tags.iter().map(sv).collect()));
        }
        if let Some(op) = self.operation_id {
            attrs.insert(OPERATION_ID.into(), sv(op.to_string()));
        }
        if let Some(f) = &self.for_whom {
            attrs.insert(FOR.into(), sv(f));
        }
        if let Some(f) = &self.for_name {
            attrs.insert(FOR_NAME.into(), sv(f));
        }
        attrs
    }

    /// This record from an item's attributes (a missing or mistyped one is corrupt data).
    pub fn from_attrs(a: &Attrs) -> Result<Self, LedgerError> {
        let id = TransactionId::parse(s(a, "transactionId")?).map_err(|_| corrupt("transactionId"))?;
        let postings = match a.get("postings") {
            Some(Value::L(list)) => list
                .iter()
                .map(|v| match v {
                    Value::M(m) => Ok(PostingRec {
                        account_id: parse_or_corrupt(AccountId::parse(s(m, "accountId")?), "account id")?,
                        name: s(m, "name")?.to_string(),
                        amount: n(m, "amount")?,
                    }),
                    _ => Err(corrupt("postings")),
                })
                .collect::<Result<Vec<_>, _>>()?,
            _ => return Err(corrupt("postings")),
        };
        Ok(TxRec {
            id,
            date: parse_or_corrupt(LocalDate::parse(s(a, "date")?), "date")?,
            memo: s(a, "memo")?.to_string(),
            voided: flag(a, "voided")?,
            recorded_at_ms: n_or_zero(a, "recordedAt")?,
            recorded_by: match a.get(RECORDED_BY) {
                None => None,
                Some(Value::S(by)) => Some(by.clone()),
                Some(_) => return Err(corrupt(RECORDED_BY)),
            },
            recorder: match a.get(RECORDER) {
                None => None,
                Some(Value::S(sub)) => Some(sub.clone()),
                Some(_) => return Err(corrupt(RECORDER)),
            },
            postings,
            version: match a.get(VERSION) {
                None => 1,
                Some(Value::N(v)) => u32::try_from(*v).map_err(|_| corrupt(VERSION))?,
                Some(_) => return Err(corrupt(VERSION)),
            },
            edited_at_ms: optional_n(a, "editedAt")?,
            void_reason: match a.get("voidReason") {
                None => None,
                Some(Value::S(r)) => Some(r.clone()),
                Some(_) => return Err(corrupt("voidReason")),
            },
            voided_at: optional_n(a, "voidedAt")?,
            voided_by: match a.get(VOIDED_BY) {
                None => None,
                Some(Value::S(by)) => Some(by.clone()),
                Some(_) => return Err(corrupt(VOIDED_BY)),
            },
            origin: match a.get(ORIGIN) {
                None => None,
                Some(Value::S(o)) => Some(o.clone()),
                Some(_) => return Err(corrupt(ORIGIN)),
            },
            external_ref: match a.get(EXTERNAL_REF) {
                None => None,
                Some(Value::S(r)) => Some(r.clone()),
                Some(_) => return Err(corrupt(EXTERNAL_REF)),
            },
            recurring: match a.get(RECURRING) {
                None => None,
                Some(Value::S(r)) => Some(r.clone()),
                Some(_) => return Err(corrupt(RECURRING)),
            },
            tags: string_list(a, TAGS)?,
            operation_id: operation_of(a)?,
            installments: match optional_n(a, INSTALLMENTS)? {
                None => None,
                Some(count) => Some(InstallmentPlan {
                    count: parse_or_corrupt(Installments::new(count), "installment count")?,
                    card: parse_or_corrupt(AccountId::parse(s(a, INSTALLMENT_CARD)?), "installment card")?,
                }),
            },
            for_whom: optional_s(a, FOR)?,
            for_name: optional_s(a, FOR_NAME)?,
        })
    }

    /// This record from a stored item.
    pub fn from_item(item: &Item) -> Result<Self, LedgerError> {
        Self::from_attrs(&item.attrs)
    }

    /// Whether `other` says the same: date, memo, postings and tags (what an edit changes).
    /// Postings compare in any order: an opening balance on a card is stored credit first,
    /// and an edit that rebuilds it debit first changes nothing.
    pub fn same_content(&self, other: &TxRec) -> bool {
        let sorted = |t: &TxRec| {
            let mut p: Vec<(AccountId, i64)> = t.postings.iter().map(|p| (p.account_id, p.amount)).collect();
            p.sort_unstable();
            p
        };
        (&self.date, &self.memo, &self.tags, &self.for_whom)
            == (&other.date, &other.memo, &other.tags, &other.for_whom)
            && sorted(self) == sorted(other)
    }
}

/// Attribute of a transaction holding its version.
const VERSION: &str = "version";

/// Attribute of a transaction holding the externalRef it was recorded with.
const EXTERNAL_REF: &str = "externalRef";

/// Attribute of a transaction naming the recurring schedule that posted it.
const RECURRING: &str = "recurring";

/// Attribute of a transaction (and of a schedule) listing its tags.
const TAGS: &str = "tags";

/// A list of strings (absent: empty).
fn string_list(a: &Attrs, name: &str) -> Result<Vec<String>, LedgerError> {
    match a.get(name) {
        None => Ok(Vec::new()),
        Some(Value::L(list)) => list
            .iter()
            .map(|v| match v {
                Value::S(t) => Ok(t.clone()),
                _ => Err(corrupt(name)),
            })
            .collect(),
        Some(_) => Err(corrupt(name)),
    }
}

/// The per-account numbers of a tag rollup, a `for` rollup or a word item (`n#<accountId>`).
fn per_account(a: &Attrs) -> Result<BTreeMap<AccountId, i64>, LedgerError> {
    let mut out = BTreeMap::new();
    for (name, value) in a.iter().filter(|(n, _)| n.starts_with(TAG_NET_PREFIX)) {
        let id = parse_or_corrupt(AccountId::parse(&name[TAG_NET_PREFIX.len()..]), "account id")?;
        match value {
            Value::N(v) => out.insert(id, *v),
            _ => return Err(corrupt(name)),
        };
    }
    Ok(out)
}

/// Prefix of a tag rollup's per-account attributes (`n#<accountId>`).
const TAG_NET_PREFIX: &str = "n#";

/// The attribute of a tag rollup holding one account's net.
pub fn tag_net_attr(account: AccountId) -> String {
    format!("{TAG_NET_PREFIX}{account}")
}

/// The labels of a tag rollup (monthly or daily): the tag as last written, its key, the period.
pub fn tag_rollup_labels(tag: &str, key: &NameKey, period: Period) -> Attrs {
    let mut attrs = BTreeMap::from([("tag".into(), sv(tag)), ("tagKey".into(), sv(key.as_str()))]);
    match period {
        Period::Month(m) => attrs.insert("month".into(), sv(m.to_string())),
        Period::Day(d) => attrs.insert("date".into(), sv(d.to_string())),
    };
    attrs
}

/// A tag rollup: what entries carrying one tag moved on each account over a month
/// or a day, one item per tag and period (decision 038).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TagRollup {
    /// The tag as last written.
    pub tag: String,
    /// Its key.
    pub key: NameKey,
    pub period: Period,
    /// Debit-positive net per account.
    pub nets: BTreeMap<AccountId, i64>,
}

impl TagRollup {
    /// This record from an item's attributes (a missing or mistyped one is corrupt data).
    pub fn from_attrs(a: &Attrs) -> Result<Self, LedgerError> {
        let period = match (a.get("month"), a.get("date")) {
            (Some(_), _) => Period::Month(parse_or_corrupt(YearMonth::parse(s(a, "month")?), "month")?),
            (None, Some(_)) => Period::Day(parse_or_corrupt(LocalDate::parse(s(a, "date")?), "date")?),
            (None, None) => return Err(corrupt("month")),
        };
        let nets = per_account(a)?;
        Ok(TagRollup {
            tag: s(a, "tag")?.to_string(),
            key: NameKey::from_stored(s(a, "tagKey")?.to_string()),
            period,
            nets,
        })
    }
}
/// The labels of a `for` rollup: whom its entries were for (a subject or
/// [`FOR_SHARED`]) and the month.
pub fn for_rollup_labels(for_whom: &str, month: YearMonth) -> Attrs {
    BTreeMap::from([
        (FOR.into(), sv(for_whom)),
        ("month".into(), sv(month.to_string())),
    ])
}

/// A `for` rollup: what the live entries of one month saying one `for` moved on each
/// account (decision 062). With the accounts' monthly rollups it splits a month's
/// nets by whom they were for, which is all settle-up needs of a month.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ForRollup {
    /// A member's subject, or [`FOR_SHARED`].
    pub for_whom: String,
    pub month: YearMonth,
    /// Debit-positive net per account.
    pub nets: BTreeMap<AccountId, i64>,
}

impl ForRollup {
    /// This record from an item's attributes (a missing or mistyped one is corrupt data).
    pub fn from_attrs(a: &Attrs) -> Result<Self, LedgerError> {
        let nets = per_account(a)?;
        Ok(ForRollup {
            for_whom: s(a, FOR)?.to_string(),
            month: parse_or_corrupt(YearMonth::parse(s(a, "month")?), "month")?,
            nets,
        })
    }
}

/// Attributes of an installment purchase: its count of parts and the card's account id.
const INSTALLMENTS: &str = "installments";
const INSTALLMENT_CARD: &str = "installmentCard";

/// Read an integer attribute that may be absent.
fn optional_n(attrs: &Attrs, name: &str) -> Result<Option<i64>, LedgerError> {
    match attrs.get(name) {
        None => Ok(None),
        Some(Value::N(v)) => Ok(Some(*v)),
        _ => Err(corrupt(name)),
    }
}

/// An earlier version of an edited transaction, kept when the edit replaced it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VersionRec {
    /// The transaction as it was (its `version` is this version's number).
    pub tx: TxRec,
    /// When the edit replaced it, epoch milliseconds.
    pub replaced_at_ms: i64,
}

impl VersionRec {
    /// This record as item attributes.
    pub fn to_attrs(&self) -> Attrs {
        let mut attrs = self.tx.to_attrs();
        attrs.insert("replacedAt".into(), Value::N(self.replaced_at_ms));
        attrs
    }

    /// This record from an item's attributes (a missing or mistyped one is corrupt data).
    pub fn from_attrs(a: &Attrs) -> Result<Self, LedgerError> {
        Ok(VersionRec {
            tx: TxRec::from_attrs(a)?,
            replaced_at_ms: n(a, "replacedAt")?,
        })
    }
}

/// An idempotency record: the call's fingerprint and its stored result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IdemRec {
    pub fingerprint: String,
    pub vault_id: VaultId,
    pub tx: TxRec,
    /// Each touched account's balance after the write (see [`StoredBalance`]).
    pub balances: Vec<StoredBalance>,
    pub expires_at: i64,
    /// How the memo's words chose its category, when `to` was left out (absent on
    /// records from before it was kept): a replay says what the first call said.
    pub categorized_by: Option<crate::api::CategorizedBy>,
}

/// An account's balance in a write's result, natural sign: as of the vault's today
/// when the write happened, and the net of entries dated after it (`scheduled`, 0:
/// none; records from before it was stored read as 0).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredBalance {
    pub account_id: AccountId,
    pub name: String,
    pub balance: i64,
    pub scheduled: i64,
}

impl IdemRec {
    /// This record as item attributes.
    pub fn to_attrs(&self) -> Attrs {
        let balances = self
            .balances
            .iter()
            .map(|b| {
                let mut m = BTreeMap::from([
                    ("accountId".into(), sv(b.account_id.to_string())),
                    ("name".into(), sv(&b.name)),
                    ("balance".into(), Value::N(b.balance)),
                ]);
                if b.scheduled != 0 {
                    m.insert("scheduled".into(), Value::N(b.scheduled));
                }
                Value::M(m)
            })
            .collect();
        let mut attrs = BTreeMap::from([
            ("fingerprint".into(), sv(&self.fingerprint)),
            ("vaultId".into(), sv(self.vault_id.to_string())),
            ("tx".into(), Value::M(self.tx.to_attrs())),
            ("balances".into(), Value::L(balances)),
            (TTL_ATTRIBUTE.into(), Value::N(self.expires_at)),
        ]);
        if let Some(c) = &self.categorized_by {
            attrs.insert(
                CATEGORIZED_BY.into(),
                Value::M(BTreeMap::from([
                    ("word".into(), sv(&c.word)),
                    ("account".into(), sv(&c.account)),
                    ("learned".into(), Value::Bool(c.learned)),
                ])),
            );
        }
        attrs
    }

    /// This record from an item's attributes (a missing or mistyped one is corrupt data).
    pub fn from_attrs(a: &Attrs) -> Result<Self, LedgerError> {
        let tx = match a.get("tx") {
            Some(Value::M(m)) => TxRec::from_attrs(m)?,
            _ => return Err(corrupt("tx")),
        };
        let balances = match a.get("balances") {
            Some(Value::L(list)) => list
                .iter()
                .map(|v| match v {
                    Value::M(m) => Ok(StoredBalance {
                        account_id: parse_or_corrupt(AccountId::parse(s(m, "accountId")?), "account id")?,
                        name: s(m, "name")?.to_string(),
                        balance: n(m, "balance")?,
                        scheduled: n_or_zero(m, "scheduled")?,
                    }),
                    _ => Err(corrupt("balances")),
                })
                .collect::<Result<Vec<_>, _>>()?,
            _ => return Err(corrupt("balances")),
        };
        Ok(IdemRec {
            fingerprint: s(a, "fingerprint")?.to_string(),
            vault_id: parse_or_corrupt(VaultId::parse(s(a, "vaultId")?), "vault id")?,
            tx,
            balances,
            expires_at: n(a, TTL_ATTRIBUTE)?,
            categorized_by: match a.get(CATEGORIZED_BY) {
                None => None,
                Some(Value::M(m)) => Some(crate::api::CategorizedBy {
                    word: s(m, "word")?.to_string(),
                    account: s(m, "account")?.to_string(),
                    learned: matches!(m.get("learned"), Some(Value::Bool(true))),
                }),
                Some(_) => return Err(corrupt(CATEGORIZED_BY)),
            },
        })
    }
}

/// Attribute of an idempotency record holding how its entry was categorized.
const CATEGORIZED_BY: &str = "categorizedBy";

/// The duplicate guard: the latest transaction with one content hash.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GuardRec {
    pub transaction_id: TransactionId,
    pub date: LocalDate,
    pub recorded_at_ms: i64,
    /// Left by a recurring posting: a hand entry of the same date and lines repeats it
    /// however long ago it was posted (not only within the window).
    pub posted: bool,
}

impl GuardRec {
    /// This record as item attributes.
    pub fn to_attrs(&self, expires_at: i64) -> Attrs {
        let mut a = BTreeMap::from([
            ("transactionId".into(), sv(self.transaction_id.to_string())),
            ("date".into(), sv(self.date.to_string())),
            ("recordedAt".into(), Value::N(self.recorded_at_ms)),
            (TTL_ATTRIBUTE.into(), Value::N(expires_at)),
        ]);
        if self.posted {
            a.insert(RECURRING.into(), Value::Bool(true));
        }
        a
    }

    /// This record from an item's attributes (a missing or mistyped one is corrupt data).
    pub fn from_attrs(a: &Attrs) -> Result<Self, LedgerError> {
        Ok(GuardRec {
            transaction_id: TransactionId::parse(s(a, "transactionId")?)
                .map_err(|_| corrupt("transactionId"))?,
            date: parse_or_corrupt(LocalDate::parse(s(a, "date")?), "date")?,
            recorded_at_ms: n(a, "recordedAt")?,
            posted: flag(a, RECURRING)?,
        })
    }
}

/// A recurring schedule (`RC#<name key>`): what it posts and when, and how far it got.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScheduleRec {
    /// Its own id: claims are keyed by it, so a schedule made again under a removed
    /// one's name starts afresh.
    pub schedule_id: String,
    pub name: String,
    pub name_key: NameKey,
    pub from_id: AccountId,
    pub from_name: String,
    pub to_id: AccountId,
    pub to_name: String,
    /// Minor units, positive.
    pub amount: i64,
    pub memo: String,
    /// The tags each posting carries (as written; decision 038).
    pub tags: Vec<String>,
    pub dates: Schedule,
    /// Every occurrence through this date is decided (posted, or passed by a change).
    pub posted_through: Option<LocalDate>,
    /// The latest occurrence it posted.
    pub last_posted: Option<LocalDate>,
    /// One more with each write of the schedule (posting or change): the guard of both.
    pub version: i64,
    /// Set when an occurrence could not post: nothing posts until a change clears it.
    pub stuck: Option<Stuck>,
}

/// Attribute of a schedule holding its version.
pub const SCHEDULE_VERSION: &str = "version";
/// Attribute of the recurring head holding the earliest next due date.
pub const HEAD_NEXT: &str = "next";
/// Attribute of a stuck schedule: why it stopped posting ([`StuckReason::as_str`]).
const STUCK_REASON: &str = "stuckReason";
/// Attribute of a stuck schedule: the occurrence it stopped at.
const STUCK_SINCE: &str = "stuckSince";

impl ScheduleRec {
    /// This record as item attributes.
    pub fn to_attrs(&self) -> Attrs {
        let mut a = BTreeMap::from([
            ("scheduleId".into(), sv(&self.schedule_id)),
            ("name".into(), sv(&self.name)),
            ("nameKey".into(), sv(self.name_key.as_str())),
            ("fromId".into(), sv(self.from_id.to_string())),
            ("fromName".into(), sv(&self.from_name)),
            ("toId".into(), sv(self.to_id.to_string())),
            ("toName".into(), sv(&self.to_name)),
            ("amount".into(), Value::N(self.amount)),
            ("memo".into(), sv(&self.memo)),
            ("day".into(), Value::N(i64::from(self.dates.day()))),
            ("every".into(), sv(self.dates.every().as_str())),
            ("start".into(), sv(self.dates.start().to_string())),
            (SCHEDULE_VERSION.into(), Value::N(self.version)),
        ]);
        let mut date = |name: &str, d: Option<LocalDate>| {
            if let Some(d) = d {
                a.insert(name.into(), sv(d.to_string()));
            }
        };
        date("end", self.dates.end());
        date("postedThrough", self.posted_through);
        date("lastPosted", self.last_posted);
        if !self.tags.is_empty() {
            a.insert(TAGS.into(), Value::L(self.tags.iter().map(sv).collect()));
        }
        if let Some(stuck) = self.stuck {
            a.insert(STUCK_REASON.into(), sv(stuck.reason.as_str()));
            a.insert(STUCK_SINCE.into(), sv(stuck.since.to_string()));
        }
        a
    }

    /// This record from an item's attributes (a missing or mistyped one is corrupt data).
    pub fn from_attrs(a: &Attrs) -> Result<Self, LedgerError> {
        let date = |name: &str| parse_or_corrupt(LocalDate::parse(s(a, name)?), name);
        let stuck = match a.get(STUCK_REASON) {
            None => None,
            Some(_) => Some(Stuck {
                reason: StuckReason::parse(s(a, STUCK_REASON)?).ok_or_else(|| corrupt(STUCK_REASON))?,
                since: date(STUCK_SINCE)?,
            }),
        };
        let opt_date = |name: &str| match a.get(name) {
            None => Ok(None),
            Some(_) => date(name).map(Some),
        };
        let every = parse_or_corrupt(Every::parse(s(a, "every")?), "period")?;
        let dates = Schedule::new(Some(n(a, "day")?), every, date("start")?, opt_date("end")?)
            .map_err(|_| corrupt("day"))?;
        Ok(ScheduleRec {
            schedule_id: s(a, "scheduleId")?.to_string(),
            name: s(a, "name")?.to_string(),
            name_key: NameKey::from_stored(s(a, "nameKey")?.to_string()),
            from_id: parse_or_corrupt(AccountId::parse(s(a, "fromId")?), "account id")?,
            from_name: s(a, "fromName")?.to_string(),
            to_id: parse_or_corrupt(AccountId::parse(s(a, "toId")?), "account id")?,
            to_name: s(a, "toName")?.to_string(),
            amount: n(a, "amount")?,
            memo: s(a, "memo")?.to_string(),
            tags: string_list(a, TAGS)?,
            dates,
            posted_through: opt_date("postedThrough")?,
            last_posted: opt_date("lastPosted")?,
            version: n(a, SCHEDULE_VERSION)?,
            stuck,
        })
    }

    /// The condition "this schedule is still the version read".
    pub fn unchanged(&self) -> Condition {
        Condition::AttrEquals(SCHEDULE_VERSION.into(), Value::N(self.version))
    }
}

/// A posting claim (`RP#…`): the transaction that posted the occurrence.
pub fn posted_attrs(tx: TransactionId, op: crate::api::OperationId) -> Attrs {
    BTreeMap::from([
        ("transactionId".into(), sv(tx.to_string())),
        (OPERATION_ID.into(), sv(op.to_string())),
    ])
}

/// The recurring head's earliest next due date (`None`: no item, or nothing due ever).
pub fn head_next(item: Option<&Item>) -> Result<Option<LocalDate>, LedgerError> {
    match item.and_then(|i| i.attrs.get(HEAD_NEXT)) {
        None => Ok(None),
        Some(Value::S(d)) => Ok(Some(parse_or_corrupt(LocalDate::parse(d), "date")?)),
        Some(_) => Err(corrupt(HEAD_NEXT)),
    }
}

/// A snapshot: the balance a person saw (natural sign) for an account on a date.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SnapshotRec {
    pub account_id: AccountId,
    pub date: LocalDate,
    pub balance: i64,
    /// The account's snapshot-write count this write moved it to (0: written
    /// before decision 030); tells a reader whether a list it read is as new as a head.
    pub seq: i64,
}

impl SnapshotRec {
    /// Attributes; `recorded_by` is the display name of who wrote it (last writer wins, like the balance).
    pub fn to_attrs(&self, updated_at: i64, recorded_by: &str) -> Attrs {
        BTreeMap::from([
            ("accountId".into(), sv(self.account_id.to_string())),
            ("date".into(), sv(self.date.to_string())),
            ("balance".into(), Value::N(self.balance)),
            ("updatedAt".into(), Value::N(updated_at)),
            (RECORDED_BY.into(), sv(recorded_by)),
            (SNAPSHOT_SEQ.into(), Value::N(self.seq)),
        ])
    }

    /// This record from an item's attributes (a missing or mistyped one is corrupt data).
    pub fn from_attrs(a: &Attrs) -> Result<Self, LedgerError> {
        Ok(SnapshotRec {
            account_id: parse_or_corrupt(AccountId::parse(s(a, "accountId")?), "account id")?,
            date: parse_or_corrupt(LocalDate::parse(s(a, "date")?), "date")?,
            balance: n(a, "balance")?,
            seq: n_or_zero(a, SNAPSHOT_SEQ)?,
        })
    }

    /// The snapshot as an account head's latest.
    pub fn latest(&self) -> LatestSnapshot {
        LatestSnapshot {
            date: self.date,
            balance: self.balance,
        }
    }
}

/// A snapshot item's write count attribute (`seq`).
const SNAPSHOT_SEQ: &str = "seq";
/// An account item's count of snapshot writes; its presence makes the head exact.
const HEAD_SEQ: &str = "snapSeq";
/// The date of an account's latest snapshot (absent: no snapshot).
const HEAD_DATE: &str = "snapDate";
/// The balance of an account's latest snapshot.
const HEAD_BALANCE: &str = "snapBalance";

/// Makes an account or snapshot item's attributes as they were before decision 030
/// (no heads, no write count): the contract suite's stand-in for older data.
pub fn without_heads(attrs: &mut Attrs) {
    for name in [
        HEAD_SEQ,
        HEAD_DATE,
        HEAD_BALANCE,
        SNAPSHOT_SEQ,
        BUDGET_SEQ,
        BUDGET_TAIL,
    ] {
        attrs.remove(name);
    }
}

/// An account's latest snapshot by date, as its account item keeps it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LatestSnapshot {
    pub date: LocalDate,
    pub balance: i64,
}

/// What an account item knows of the account's snapshots (decision 030): every
/// snapshot write moves it on in the same atomic write as the snapshot item.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SnapshotHead {
    /// An item written before the head existed: only the snapshot items tell.
    Unknown,
    /// Exact: `seq` snapshot writes so far, and the latest snapshot by date (any date).
    Known {
        seq: i64,
        latest: Option<LatestSnapshot>,
    },
}

impl SnapshotHead {
    /// A new account's head: known, no snapshot.
    pub const NEW: SnapshotHead = SnapshotHead::Known { seq: 0, latest: None };

    fn attrs(seq: i64, latest: Option<LatestSnapshot>) -> Attrs {
        let mut a = BTreeMap::from([(HEAD_SEQ.to_string(), Value::N(seq))]);
        if let Some(l) = latest {
            a.insert(HEAD_DATE.into(), sv(l.date.to_string()));
            a.insert(HEAD_BALANCE.into(), Value::N(l.balance));
        }
        a
    }

    fn from_attrs(a: &Attrs) -> Result<Self, LedgerError> {
        let Some(seq) = optional_n(a, HEAD_SEQ)? else {
            return Ok(SnapshotHead::Unknown);
        };
        let latest = match a.get(HEAD_DATE) {
            None => None,
            Some(_) => Some(LatestSnapshot {
                date: parse_or_corrupt(LocalDate::parse(s(a, HEAD_DATE)?), "snapshot date")?,
                balance: n(a, HEAD_BALANCE)?,
            }),
        };
        Ok(SnapshotHead::Known { seq, latest })
    }

    /// The write count a snapshot write moves the head to.
    pub fn next_seq(&self) -> i64 {
        match self {
            SnapshotHead::Unknown => 1,
            SnapshotHead::Known { seq, .. } => seq.saturating_add(1),
        }
    }

    /// The condition "the head is still the one read" (no snapshot write since).
    pub fn unchanged(&self) -> Condition {
        match self {
            SnapshotHead::Unknown => Condition::AttrAbsent(HEAD_SEQ.into()),
            SnapshotHead::Known { seq, .. } => Condition::AttrEquals(HEAD_SEQ.into(), Value::N(*seq)),
        }
    }

    /// The update moving the head of account item `key` on by one write, to `latest`.
    pub fn moved_on(&self, key: Key, latest: Option<LatestSnapshot>, guard: Guard) -> WriteOp {
        WriteOp::Update {
            key,
            set: SnapshotHead::attrs(self.next_seq(), latest),
            add: BTreeMap::new(),
            remove: if latest.is_none() {
                vec![HEAD_DATE.into(), HEAD_BALANCE.into()]
            } else {
                vec![]
            },
            guard: Some(guard),
        }
    }
}

/// A budget setting: an expense account's amount (minor units; 0 clears) for a
/// month, and whether later months keep it (`repeat`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BudgetRec {
    pub account_id: AccountId,
    pub month: YearMonth,
    pub amount: i64,
    pub repeat: bool,
    /// What is left of the month (or overspent) carries into the next (decision 038).
    pub rollover: bool,
}

impl BudgetRec {
    /// This record as item attributes.
    pub fn to_attrs(&self, updated_at: i64) -> Attrs {
        let mut attrs = BTreeMap::from([
            ("accountId".into(), sv(self.account_id.to_string())),
            ("month".into(), sv(self.month.to_string())),
            ("amount".into(), Value::N(self.amount)),
            ("repeat".into(), Value::Bool(self.repeat)),
            ("updatedAt".into(), Value::N(updated_at)),
        ]);
        // Only when on, so settings without it stay as they were stored.
        if self.rollover {
            attrs.insert(ROLLOVER.into(), Value::Bool(true));
        }
        attrs
    }

    /// This record from an item's attributes (a missing or mistyped one is corrupt data).
    pub fn from_attrs(a: &Attrs) -> Result<Self, LedgerError> {
        Ok(BudgetRec {
            account_id: parse_or_corrupt(AccountId::parse(s(a, "accountId")?), "account id")?,
            month: parse_or_corrupt(YearMonth::parse(s(a, "month")?), "month")?,
            amount: n(a, "amount")?,
            repeat: flag(a, "repeat")?,
            rollover: flag(a, ROLLOVER)?,
        })
    }
}

/// Attribute of a budget setting (and its copy on the account item) turning rollover on.
const ROLLOVER: &str = "rollover";

/// An account item's count of budget-setting writes; its presence makes the tail exact.
const BUDGET_SEQ: &str = "budgetSeq";
/// An account item's budget settings that decide its budget from the month of
/// the last setting write on (decision 030).
const BUDGET_TAIL: &str = "budgets";

/// What an account item knows of its budget settings (decision 030): every
/// `set_budget` moves it on in the same atomic write as the setting item.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BudgetHead {
    /// An item written before the head existed: only the setting items tell.
    Unknown,
    /// Exact: `seq` setting writes so far; `tail` every setting (ascending months)
    /// that can decide the budget of the month it was written in or any later one.
    Known { seq: i64, tail: Vec<BudgetRec> },
}

impl BudgetHead {
    /// A new account's head: known, no setting.
    pub fn for_new_account() -> Self {
        BudgetHead::Known { seq: 0, tail: vec![] }
    }

    fn attrs(seq: i64, tail: &[BudgetRec]) -> Attrs {
        let list = tail
            .iter()
            .map(|b| {
                let mut m = BTreeMap::from([
                    ("accountId".into(), sv(b.account_id.to_string())),
                    ("month".into(), sv(b.month.to_string())),
                    ("amount".into(), Value::N(b.amount)),
                    ("repeat".into(), Value::Bool(b.repeat)),
                ]);
                if b.rollover {
                    m.insert(ROLLOVER.into(), Value::Bool(true));
                }
                Value::M(m)
            })
            .collect();
        BTreeMap::from([
            (BUDGET_SEQ.to_string(), Value::N(seq)),
            (BUDGET_TAIL.to_string(), Value::L(list)),
        ])
    }

    fn from_attrs(a: &Attrs) -> Result<Self, LedgerError> {
        let Some(seq) = optional_n(a, BUDGET_SEQ)? else {
            return Ok(BudgetHead::Unknown);
        };
        let tail = match a.get(BUDGET_TAIL) {
            Some(Value::L(list)) => list
                .iter()
                .map(|v| match v {
                    Value::M(m) => BudgetRec::from_attrs(m),
                    _ => Err(corrupt(BUDGET_TAIL)),
                })
                .collect::<Result<_, _>>()?,
            _ => return Err(corrupt(BUDGET_TAIL)),
        };
        Ok(BudgetHead::Known { seq, tail })
    }

    /// The condition "the head is still the one read" (no setting write since).
    pub fn unchanged(&self) -> Condition {
        match self {
            BudgetHead::Unknown => Condition::AttrAbsent(BUDGET_SEQ.into()),
            BudgetHead::Known { seq, .. } => Condition::AttrEquals(BUDGET_SEQ.into(), Value::N(*seq)),
        }
    }

    /// The update moving the head of account item `key` on by one write, to `tail`.
    pub fn moved_on(&self, key: Key, tail: &[BudgetRec], guard: Guard) -> WriteOp {
        let seq = match self {
            BudgetHead::Unknown => 1,
            BudgetHead::Known { seq, .. } => seq.saturating_add(1),
        };
        WriteOp::Update {
            key,
            set: BudgetHead::attrs(seq, tail),
            add: BTreeMap::new(),
            remove: vec![],
            guard: Some(guard),
        }
    }
}

/// An externalRef claim: the transaction that holds the reference.
pub fn external_ref_attrs(tx: TransactionId) -> Attrs {
    BTreeMap::from([("transactionId".into(), sv(tx.to_string()))])
}

/// The transaction an externalRef claim names.
pub fn external_ref_tx(item: &Item) -> Result<TransactionId, LedgerError> {
    TransactionId::parse(s(&item.attrs, "transactionId")?).map_err(|_| corrupt("transactionId"))
}

/// A stable 128-bit content hash (FNV-1a), hex: keys of duplicate guards and cursor filters.
/// Not a security boundary: it only separates a person's own data from itself.
pub fn content_hash(parts: &[&str]) -> String {
    let mut h: u128 = 0x6c62_272e_07bb_0142_62b8_2175_6295_c58d;
    for part in parts {
        for b in part.bytes().chain(std::iter::once(0xff)) {
            h ^= u128::from(b);
            h = h.wrapping_mul(0x0000_0000_0100_0000_0000_0000_0000_013b);
        }
    }
    format!("{h:032x}")
}

/// Attribute of a transaction naming the operation whose change it shows now.
pub const OPERATION_ID: &str = "operationId";

/// Read a transaction's `operationId` attribute (absent: recorded before operations).
pub fn operation_of(attrs: &Attrs) -> Result<Option<crate::api::OperationId>, LedgerError> {
    match attrs.get(OPERATION_ID) {
        None => Ok(None),
        Some(Value::S(s)) => crate::api::OperationId::parse(s)
            .map(Some)
            .map_err(|_| LedgerError::internal("stored item has an unreadable operation id")),
        Some(_) => Err(LedgerError::internal(
            "stored item has a mistyped attribute `operationId`",
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn posting(account: &str, amount: i64) -> PostingRec {
        PostingRec {
            account_id: AccountId::parse(account).expect("an account id"),
            name: account[..4].to_owned(),
            amount,
        }
    }

    #[test]
    fn the_same_postings_in_another_order_are_the_same_content() {
        let (card, equity) = (
            "6d0b7b8e-0a63-4d2b-9c39-4c1a4b9f0a01",
            "6d0b7b8e-0a63-4d2b-9c39-4c1a4b9f0a02",
        );
        let date = LocalDate::parse("2026-03-01").expect("a date");
        let id = TransactionId::parse("9007199254740993").expect("an id");
        let stored = TxRec::new(
            id,
            date,
            "opening".into(),
            0,
            None,
            vec![posting(card, -300), posting(equity, 300)],
        );
        let rebuilt = TxRec::new(
            id,
            date,
            "opening".into(),
            5,
            None,
            vec![posting(equity, 300), posting(card, -300)],
        );
        assert!(stored.same_content(&rebuilt));
        let moved = TxRec::new(
            id,
            date,
            "opening".into(),
            5,
            None,
            vec![posting(equity, 200), posting(card, -200)],
        );
        assert!(!stored.same_content(&moved));
    }
}
