//! Recurring schedules (`V#<id>` / `RC#<nameKey>`), their postings' claims (`RP#…`), the
//! vault's recurring head (`RN`) and schedule count (`RV`), and the due index (`DUE#<nn>`).

use std::collections::BTreeMap;

use super::entry::TAGS;
use super::operation::OPERATION_ID;
use super::table::{corrupt, n, parse_or_corrupt, s, string_list, sv, upper, vault_pk};
use crate::api::{LedgerError, Stuck, StuckReason};
use dochiya_domain::{AccountId, Every, LocalDate, NameKey, Schedule, TransactionId, VaultId};
use dochiya_store::{Attrs, Condition, Item, Key, SkRange, Value};

/// Prefix of recurring schedules in a vault (`RC#<name key>`). `R` sorts after every
/// `M…` and before `S#`, inside no other range.
pub const RECURRING_PREFIX: &str = "RC#";
/// Prefix of recurring postings' claims (`RP#<scheduleId>#<date>`): one per schedule and date, ever.
pub const RECURRING_POSTED_PREFIX: &str = "RP#";
/// Sort key of a vault's recurring head: the earliest date any schedule may next fall due.
pub const RECURRING_HEAD: &str = "RN";

/// A recurring schedule (`V#<id>` / `RC#<name key>`): one per name in a vault.
pub fn recurring(vault: VaultId, name: &NameKey) -> Key {
    Key::new(vault_pk(vault), format!("{RECURRING_PREFIX}{}", name.as_str()))
}

/// Every recurring schedule of a vault.
pub fn recurrings() -> SkRange {
    SkRange::Prefix(RECURRING_PREFIX.into())
}

/// The claim of one schedule's posting on one date (`V#<id>` / `RP#<scheduleId>#<date>`):
/// whoever writes it first posts that occurrence; it is never deleted, so a voided
/// occurrence is not posted again.
pub fn recurring_posted(vault: VaultId, schedule_id: &str, date: LocalDate) -> Key {
    Key::new(
        vault_pk(vault),
        format!("{RECURRING_POSTED_PREFIX}{schedule_id}#{date}"),
    )
}

/// The vault's recurring head (`V#<id>` / `RN`), read beside every call into the vault.
pub fn recurring_head(vault: VaultId) -> Key {
    Key::new(vault_pk(vault), RECURRING_HEAD)
}

/// The vault's schedule counter (`V#<id>` / `RV`): how many schedules it keeps, set
/// by every creation and removal only if it is as read, so creations racing past the
/// cap cannot all land. `RV` sorts after `RP#` and before `S#`, inside no range.
pub fn recurring_count(vault: VaultId) -> Key {
    Key::new(vault_pk(vault), "RV")
}

/// How many partitions the due index is spread over: a million vaults put about
/// 16,000 items in each, and the scheduled run reads each shard with one query.
pub const DUE_SHARDS: u32 = 64;

/// The due-index shard of a vault (from its random id, so vaults spread evenly).
pub fn due_shard(vault: VaultId) -> u32 {
    u32::try_from(vault.as_uuid().as_u128() % u128::from(DUE_SHARDS)).unwrap_or(0)
}

/// A due-index shard's partition (`DUE#<nn>`): no person's or vault's data.
pub fn due_pk(shard: u32) -> String {
    format!("DUE#{shard:02}")
}

/// A vault's entry in the due index (`DUE#<nn>` / `<YYYY-MM-DD>#<vaultId>`): its
/// recurring head's date, so the scheduled run reads only what is due.
pub fn due(vault: VaultId, date: LocalDate) -> Key {
    Key::new(due_pk(due_shard(vault)), format!("{date}#{vault}"))
}

/// A shard's entries due on or before `through`.
pub fn due_through(through: LocalDate) -> SkRange {
    SkRange::Between("1900".into(), upper(&format!("{through}#")))
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
