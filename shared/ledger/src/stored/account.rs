//! An account (`V#<id>` / `A#<accountId>`): its running balance and settings (archive
//! mark, parent, card billing and 실적, goal, words), its name claim (`AN#<nameKey>`),
//! its number claim (`N#<nnnn>`) and the vault's account count: what the account cap checks.

use std::collections::BTreeMap;

use super::budget::BudgetHead;
use super::rollup::{MONTH_PREFIX, month_through};
use super::snapshot::SnapshotHead;
use super::table::{
    corrupt, flag, n, n_or_zero, optional_n, optional_s, parse_or_corrupt, s, string_list, sv, upper,
    vault_pk,
};
use crate::api::LedgerError;
use dochiya_domain::{AccountId, AccountKind, Billing, LocalDate, NameKey, VaultId, YearMonth};
use dochiya_store::{Attrs, Condition, Guard, Item, Key, SkRange, Value, WriteOp};

/// Prefix of account items (balance included) in a vault.
pub const ACCOUNT_PREFIX: &str = "A#";

/// An account with its running balance (`V#<id>` / `A#<accountId>`).
pub fn account(vault: VaultId, account: AccountId) -> Key {
    Key::new(vault_pk(vault), format!("{ACCOUNT_PREFIX}{account}"))
}

/// A live account name in a vault (`V#<id>` / `AN#<nameKey>`): at most one per name.
pub fn account_name(vault: VaultId, name: &NameKey) -> Key {
    Key::new(vault_pk(vault), format!("AN#{}", name.as_str()))
}

/// Every account of a vault.
pub fn accounts() -> SkRange {
    SkRange::Prefix(ACCOUNT_PREFIX.into())
}

/// Accounts and the monthly rollups of every month through `through` (every
/// month when `None`), in one query: the head of a balance or history.
/// The range also holds the account-name items (`AN#`), which readers skip.
pub fn accounts_and_months_through(through: Option<YearMonth>) -> SkRange {
    let end = match through {
        Some(month) => month_through(month),
        None => upper(MONTH_PREFIX),
    };
    SkRange::Between(ACCOUNT_PREFIX.into(), end)
}

/// Whether a sort key (from a range above) is an account's.
pub fn is_account(sk: &str) -> bool {
    sk.starts_with(ACCOUNT_PREFIX)
}

/// Prefix of the account-number claims (`V#<id>` / `N#<nnn>`): the n-th account of
/// a vault claims number n, only if absent, so creations racing past the cap cannot
/// all land. `N` sorts after `MB#`/`META` and before `OL#`/`OP#`, inside no range.
pub const ACCOUNT_NUMBER_PREFIX: &str = "N#";

/// The claim of the vault's `n`-th account (1-based; accounts are never deleted, so
/// the count only grows).
pub fn account_number(vault: VaultId, n: usize) -> Key {
    Key::new(vault_pk(vault), format!("{ACCOUNT_NUMBER_PREFIX}{n:04}"))
}

/// Attribute of an account that says it is archived (guards of writes that need a live one).
pub const ARCHIVED: &str = "archived";

/// Attribute of a vault's settings item counting its accounts (live and archived).
pub(super) const ACCOUNT_COUNT: &str = "accountCount";

/// An account-name item's attributes: which account holds the name.
pub fn account_pointer(account: AccountId) -> Attrs {
    BTreeMap::from([("accountId".into(), sv(account.to_string()))])
}

/// The guard "this account-name item still points at `account`".
pub fn points_at_account(account: AccountId) -> Condition {
    Condition::AttrEquals("accountId".into(), sv(account.to_string()))
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

/// A change to a live account's item: `set` and `remove` its attributes, guarded on it
/// still being live (archived or gone meanwhile: the write fails, decide again).
pub fn live_account_update(vault: VaultId, id: AccountId, set: Attrs, remove: Vec<String>) -> WriteOp {
    WriteOp::Update {
        key: account(vault, id),
        set,
        add: BTreeMap::new(),
        remove,
        guard: super::guards::guard(super::guards::ACCOUNT_LIVE, account_live()),
    }
}

/// Whether an account item (as a failed write reported it) exists and is live.
pub fn account_item_live(current: Option<&Item>) -> bool {
    current.is_some_and(|i| i.attrs.get(ARCHIVED) == Some(&Value::Bool(false)))
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
