//! What entries moved, summed per period: an account's net per month (`B#…`) and per
//! day (`C#…`), a tag's (`GM#…`, `GD#…`; decision 038) and a `for`'s per month
//! (`FR#…`; decision 062), with the updates that move them and an account's balance.

use std::collections::BTreeMap;

use super::entry::FOR;
use super::table::{corrupt, n_or_zero, parse_or_corrupt, per_account, s, sv, upper, vault_pk};
use crate::api::LedgerError;
use dochiya_domain::{AccountId, LocalDate, NameKey, VaultId, YearMonth};
use dochiya_store::{Attrs, Guard, Key, SkRange, WriteOp};

/// Prefix of monthly rollups in a vault.
pub const MONTH_PREFIX: &str = "B#";
/// Prefix of daily rollups in a vault.
pub const DAY_PREFIX: &str = "C#";

/// Prefix of monthly tag rollups (`GM#<YYYY-MM>#<tagKey>`, decision 038).
pub const TAG_MONTH_PREFIX: &str = "GM#";
/// Prefix of daily tag rollups (`GD#<YYYY-MM-DD>#<tagKey>`).
pub const TAG_DAY_PREFIX: &str = "GD#";

/// Prefix of a vault's `for` rollups (`FR#<YYYY-MM>#<for>`; decision 062).
pub const FOR_MONTH_PREFIX: &str = "FR#";

/// An account's net change in a month (`V#<id>` / `B#<YYYY-MM>#<accountId>`).
pub fn month_rollup(vault: VaultId, month: YearMonth, account: AccountId) -> Key {
    Key::new(vault_pk(vault), format!("{MONTH_PREFIX}{month}#{account}"))
}

/// An account's net change on a day (`V#<id>` / `C#<YYYY-MM-DD>#<accountId>`).
pub fn day_rollup(vault: VaultId, date: LocalDate, account: AccountId) -> Key {
    Key::new(vault_pk(vault), format!("{DAY_PREFIX}{date}#{account}"))
}

/// First sort key of monthly rollups of `month`.
pub fn month_from(month: YearMonth) -> String {
    format!("{MONTH_PREFIX}{month}")
}

/// Last sort key of monthly rollups of `month`.
pub fn month_through(month: YearMonth) -> String {
    upper(&format!("{MONTH_PREFIX}{month}#"))
}

/// First sort key of daily rollups of `date`.
pub fn day_from(date: LocalDate) -> String {
    format!("{DAY_PREFIX}{date}")
}

/// Last sort key of daily rollups of `date`.
pub fn day_through(date: LocalDate) -> String {
    upper(&format!("{DAY_PREFIX}{date}#"))
}

/// Every account's monthly rollups from the month `from` on (future months included).
pub fn months_from(from: YearMonth) -> SkRange {
    SkRange::Between(month_from(from), upper(MONTH_PREFIX))
}

/// Every account's monthly rollups of the months `from..=to` (from the first when
/// `from` is `None`).
pub fn month_rollups(from: Option<YearMonth>, to: YearMonth) -> SkRange {
    SkRange::Between(
        from.map_or_else(|| MONTH_PREFIX.to_string(), month_from),
        month_through(to),
    )
}

/// Monthly rollups of the months `from..=to`.
pub fn months_between(from: YearMonth, to: YearMonth) -> SkRange {
    SkRange::Between(month_from(from), month_through(to))
}

/// Daily rollups of the dates `from..=to`.
pub fn days_between(from: LocalDate, to: LocalDate) -> SkRange {
    SkRange::Between(day_from(from), day_through(to))
}

/// Daily rollups from `from` on, to the last dated one (entries after today included).
pub fn days_from(from: LocalDate) -> SkRange {
    SkRange::Between(day_from(from), upper(DAY_PREFIX))
}

/// Whether a sort key (from a range above) is a monthly rollup's.
pub fn is_month_rollup(sk: &str) -> bool {
    sk.starts_with(MONTH_PREFIX)
}

/// Whether a sort key (from a range above) is a daily rollup's.
pub fn is_day_rollup(sk: &str) -> bool {
    sk.starts_with(DAY_PREFIX)
}

/// A tag's monthly rollup (`V#<id>` / `GM#<YYYY-MM>#<tagKey>`): month first, so one
/// range reads every tag of a span of months. `GD#` < `GM#`, both after `DR#` and
/// before `INV#`/`MB#`, inside no other range.
pub fn tag_month_rollup(vault: VaultId, month: YearMonth, tag: &NameKey) -> Key {
    Key::new(
        vault_pk(vault),
        format!("{TAG_MONTH_PREFIX}{month}#{}", tag.as_str()),
    )
}

/// A tag's daily rollup (`V#<id>` / `GD#<YYYY-MM-DD>#<tagKey>`).
pub fn tag_day_rollup(vault: VaultId, date: LocalDate, tag: &NameKey) -> Key {
    Key::new(
        vault_pk(vault),
        format!("{TAG_DAY_PREFIX}{date}#{}", tag.as_str()),
    )
}

/// Every tag's monthly rollups of the months `from..=to`.
pub fn tag_months_between(from: YearMonth, to: YearMonth) -> SkRange {
    SkRange::Between(
        format!("{TAG_MONTH_PREFIX}{from}"),
        upper(&format!("{TAG_MONTH_PREFIX}{to}#")),
    )
}

/// Every tag's daily rollups of the dates `from..=to`.
pub fn tag_days_between(from: LocalDate, to: LocalDate) -> SkRange {
    SkRange::Between(
        format!("{TAG_DAY_PREFIX}{from}"),
        upper(&format!("{TAG_DAY_PREFIX}{to}#")),
    )
}

/// Whether a sort key (from a range above) is a tag rollup's (monthly or daily).
pub fn is_tag_rollup(sk: &str) -> bool {
    sk.starts_with(TAG_MONTH_PREFIX) || sk.starts_with(TAG_DAY_PREFIX)
}

/// What entries saying `for` (a member's subject, or `*`) moved on each account in a
/// month: month first, so one range reads every `for` of a span of months. `FR#` sorts
/// after `FM#` and before `GD#`, inside no other range.
pub fn for_month_rollup(vault: VaultId, month: YearMonth, for_whom: &str) -> Key {
    Key::new(vault_pk(vault), format!("{FOR_MONTH_PREFIX}{month}#{for_whom}"))
}

/// Every `for` rollup of the months `from..=to` (from the first when `from` is `None`).
pub fn for_months_between(from: Option<YearMonth>, to: YearMonth) -> SkRange {
    SkRange::Between(
        format!(
            "{FOR_MONTH_PREFIX}{}",
            from.map(|m| m.to_string()).unwrap_or_default()
        ),
        upper(&format!("{FOR_MONTH_PREFIX}{to}#")),
    )
}

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
/// [`FOR_SHARED`](super::entry::FOR_SHARED)) and the month.
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
    /// A member's subject, or [`FOR_SHARED`](super::entry::FOR_SHARED).
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn month_and_day_ranges_cover_exactly_their_period() {
        let v = VaultId::from_uuid(uuid::Uuid::nil());
        let a = AccountId::from_uuid(uuid::Uuid::max());
        let m = YearMonth::parse("2026-03").unwrap();
        let k = month_rollup(v, m, a).sk;
        assert!(month_from(m) <= k && k <= month_through(m));
        assert!(month_rollup(v, m.next(), a).sk > month_through(m));
        let d = LocalDate::parse("2026-03-31").unwrap();
        assert!(day_rollup(v, d, a).sk <= day_through(d));
    }
}
