//! What every stored item shares: the partitions, the order of sort keys, and the
//! readers and writers of attribute values (docs/keys.md).
//!
//! Two kinds of partition:
//! - `P#<sub>`: a person's own items: vault memberships, vault-name items
//!   (uniqueness of vault names per person) and idempotency records.
//! - `V#<vaultId>`: everything of one vault. Reached only through a membership
//!   found in the caller's partition, never from an id a client sent.
//!
//! Sort keys sort as text: dates are `YYYY-MM-DD`, months `YYYY-MM`, and
//! transaction ids fixed-width, so ranges and newest-first queries are key ranges.
//! A range that spans several prefixes relies on their byte order (`A#` < `AN#` <
//! `B#` < `C#`, `M` < `M#`), said beside it; the tests below check that no range
//! reaches another entity's items.

use std::collections::BTreeMap;

use crate::api::LedgerError;
use dochiya_domain::{AccountId, NameKey, PersonId, VaultId};
use dochiya_store::{Attrs, Condition, Value};

/// A character above every character used after a prefix: closes inclusive ranges.
pub const HIGH: char = '\u{10FFFF}';

/// A person's partition.
pub fn person_pk(who: &PersonId) -> String {
    format!("P#{}", who.as_str())
}

/// A vault's partition.
pub fn vault_pk(vault: VaultId) -> String {
    format!("V#{vault}")
}

/// Sort key just after every item starting with `prefix` (inclusive upper bound).
pub fn upper(prefix: &str) -> String {
    format!("{prefix}{HIGH}")
}

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

/// The error for a missing or mistyped attribute `name`: corrupt data.
pub(super) fn corrupt(name: &str) -> LedgerError {
    LedgerError::internal(format!(
        "stored item has a missing or mistyped attribute `{name}`"
    ))
}

/// `r`'s value, or the error for an unreadable `what`: corrupt data.
pub(super) fn parse_or_corrupt<T, E>(r: Result<T, E>, what: &str) -> Result<T, LedgerError> {
    r.map_err(|_| LedgerError::internal(format!("stored item has an unreadable {what}")))
}

/// Shorthand for a string value.
pub fn sv(v: impl Into<String>) -> Value {
    Value::S(v.into())
}

/// An optional string attribute (mistyped: corrupt).
pub(super) fn optional_s(a: &Attrs, key: &str) -> Result<Option<String>, LedgerError> {
    match a.get(key) {
        None => Ok(None),
        Some(Value::S(v)) => Ok(Some(v.clone())),
        Some(_) => Err(corrupt(key)),
    }
}

/// Read an integer attribute that may be absent.
pub(super) fn optional_n(attrs: &Attrs, name: &str) -> Result<Option<i64>, LedgerError> {
    match attrs.get(name) {
        None => Ok(None),
        Some(Value::N(v)) => Ok(Some(*v)),
        _ => Err(corrupt(name)),
    }
}

/// A list of strings (absent: empty).
pub(super) fn string_list(a: &Attrs, name: &str) -> Result<Vec<String>, LedgerError> {
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
pub(super) fn per_account(a: &Attrs) -> Result<BTreeMap<AccountId, i64>, LedgerError> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stored::account::{
        account, account_number, accounts, accounts_and_months_through, is_account,
    };
    use crate::stored::budget::{
        budget, budgets, budgets_through, month_and_budgets_through, months_and_budgets_through,
    };
    use crate::stored::entry::{
        installments_open_in, transaction_versions, transactions_between, transactions_by_id,
    };
    use crate::stored::member::{former_members, members_and_meta, membership, roster, roster_version};
    use crate::stored::rollup::{
        day_rollup, days_between, for_month_rollup, for_months_between, is_day_rollup, is_month_rollup,
        is_tag_rollup, month_rollup, month_rollups, months_between, months_from, tag_day_rollup,
        tag_days_between, tag_month_rollup, tag_months_between,
    };
    use crate::stored::schedule::{recurring_count, recurrings};
    use crate::stored::snapshot::snapshots;
    use crate::stored::vault::vault_name;
    use crate::stored::word::words;
    use dochiya_domain::{LocalDate, TransactionId, YearMonth};
    use dochiya_store::SkRange;

    /// Whether sort key `sk` falls in range `r`.
    fn within(r: &SkRange, sk: &str) -> bool {
        match r {
            SkRange::Between(lo, hi) => lo.as_str() <= sk && sk <= hi.as_str(),
            SkRange::Prefix(p) => sk.starts_with(p.as_str()),
            SkRange::All => true,
        }
    }

    /// The first and last dates and months any range is asked for.
    fn extremes() -> ((LocalDate, LocalDate), (YearMonth, YearMonth)) {
        (
            (
                LocalDate::parse("1900-01-01").unwrap(),
                LocalDate::parse("2999-12-31").unwrap(),
            ),
            (
                YearMonth::parse("1900-01").unwrap(),
                YearMonth::parse("2999-12").unwrap(),
            ),
        )
    }

    #[test]
    fn the_head_range_holds_accounts_and_months_through_its_month_only() {
        let v = VaultId::from_uuid(uuid::Uuid::nil());
        let a = AccountId::from_uuid(uuid::Uuid::max());
        let m = YearMonth::parse("2026-03").unwrap();
        let d = LocalDate::parse("2026-03-01").unwrap();
        let within = |r: &SkRange, sk: &str| match r {
            SkRange::Between(lo, hi) => lo.as_str() <= sk && sk <= hi.as_str(),
            other => panic!("{other:?}"),
        };
        let head = accounts_and_months_through(Some(m));
        assert!(within(&head, &account(v, a).sk));
        assert!(within(&head, &month_rollup(v, m, a).sk));
        assert!(!within(&head, &month_rollup(v, m.next(), a).sk));
        assert!(!within(&head, &day_rollup(v, d, a).sk));
        let all = accounts_and_months_through(None);
        assert!(within(
            &all,
            &month_rollup(v, YearMonth::parse("2199-12").unwrap(), a).sk
        ));
        assert!(!within(&all, &day_rollup(v, d, a).sk));
        let roster = roster();
        let who = PersonId::new("sub".to_string()).unwrap();
        assert!(within(&roster, &roster_version(&who).sk));
        assert!(within(&roster, &membership(&who, v).sk));
        assert!(!within(&roster, &vault_name(&who, &NameKey::of("x")).sk));
    }

    #[test]
    fn tag_rollups_sit_outside_every_other_range_and_inside_their_own() {
        let v = VaultId::from_uuid(uuid::Uuid::nil());
        let tag = NameKey::of("여행");
        let m = YearMonth::parse("2026-03").unwrap();
        let d = LocalDate::parse("2026-03-05").unwrap();
        let (month, day) = (tag_month_rollup(v, m, &tag).sk, tag_day_rollup(v, d, &tag).sk);
        let ((first, last), _) = extremes();
        for other in [
            accounts_and_months_through(None),
            days_between(first, last),
            transactions_between(None, None),
            budgets(),
            snapshots(),
            members_and_meta(),
            recurrings(),
        ] {
            assert!(!within(&other, &month) && !within(&other, &day), "{other:?}");
        }
        assert!(within(&tag_months_between(m, m), &month));
        assert!(!within(&tag_months_between(m.next(), m.next()), &month));
        assert!(!within(&tag_months_between(m, m), &day));
        assert!(within(&tag_days_between(d, d), &day));
        assert!(!within(&tag_days_between(d.next_day(), last), &day));
        assert!(is_tag_rollup(&month) && is_tag_rollup(&day) && !is_month_rollup(&month));
    }

    #[test]
    fn for_rollups_sit_outside_every_other_range_and_inside_their_own() {
        let v = VaultId::from_uuid(uuid::Uuid::nil());
        let m = YearMonth::parse("2026-03").unwrap();
        let ((first, last), (m0, m1)) = extremes();
        let sk = for_month_rollup(v, m, "google|1").sk;
        for other in [
            accounts_and_months_through(None),
            months_and_budgets_through(m0, m1),
            days_between(first, last),
            transactions_between(None, None),
            budgets(),
            snapshots(),
            members_and_meta(),
            former_members(),
            words(),
            recurrings(),
            tag_months_between(m0, m1),
            tag_days_between(first, last),
        ] {
            assert!(!within(&other, &sk), "{other:?}");
        }
        assert!(within(&for_months_between(Some(m), m), &sk));
        assert!(within(
            &for_months_between(None, m),
            &for_month_rollup(v, m, "*").sk
        ));
        assert!(!within(&for_months_between(Some(m.next()), m1), &sk));
        assert!(!within(&for_months_between(None, m.prev()), &sk));
        let a = AccountId::from_uuid(uuid::Uuid::max());
        assert!(within(&month_rollups(None, m), &month_rollup(v, m, a).sk));
        assert!(!within(&month_rollups(None, m.prev()), &month_rollup(v, m, a).sk));
        assert!(!within(&month_rollups(Some(m), m1), &account(v, a).sk));
        assert!(!within(&month_rollups(None, m1), &day_rollup(v, first, a).sk));
        assert!(within(&months_from(m), &month_rollup(v, m1, a).sk));
        assert!(within(&months_from(m), &month_rollup(v, m, a).sk));
        assert!(!within(&months_from(m), &month_rollup(v, m.prev(), a).sk));
        assert!(!within(&months_from(m0), &day_rollup(v, first, a).sk));
        assert!(!within(&months_from(m0), &budget(v, m, a).sk));
    }

    #[test]
    fn cap_counters_sit_outside_every_vault_range() {
        let v = VaultId::from_uuid(uuid::Uuid::nil());
        let ((first, last), (m0, m1)) = extremes();
        let id = TransactionId::from_u64(u64::MAX).unwrap();
        let ranges = [
            accounts(),
            accounts_and_months_through(None),
            months_and_budgets_through(m0, m1),
            days_between(first, last),
            transactions_between(None, None),
            transaction_versions(id),
            snapshots(),
            budgets(),
            members_and_meta(),
            installments_open_in(m0),
            recurrings(),
            tag_months_between(m0, m1),
            tag_days_between(first, last),
            transactions_by_id(),
        ];
        for sk in [
            account_number(v, 1).sk,
            account_number(v, 9999).sk,
            recurring_count(v).sk,
        ] {
            for r in &ranges {
                assert!(!within(r, &sk), "{sk} in {r:?}");
            }
        }
        assert!(account_number(v, 9).sk < account_number(v, 10).sk);
    }

    #[test]
    fn budget_settings_sit_outside_every_other_range() {
        let v = VaultId::from_uuid(uuid::Uuid::nil());
        let a = AccountId::from_uuid(uuid::Uuid::max());
        let m = YearMonth::parse("2026-03").unwrap();
        let set = budget(v, m, a).sk;
        let latest = budget(v, YearMonth::parse("2999-12").unwrap(), a).sk;
        // No range of the other access patterns reaches a setting.
        assert!(!within(&accounts_and_months_through(None), &set));
        assert!(!within(&accounts_and_months_through(None), &latest));
        assert!(!within(
            &months_between(m, YearMonth::parse("2999-12").unwrap()),
            &latest
        ));
        let d = LocalDate::parse("1900-01-01").unwrap();
        assert!(!within(
            &days_between(d, LocalDate::parse("2999-12-31").unwrap()),
            &set
        ));
        assert!(!is_month_rollup(&set) && !is_account(&set) && !is_day_rollup(&set));
        // The settings through a month: its own and earlier ones, not later ones.
        assert!(within(&budgets_through(m), &set));
        assert!(within(&budgets_through(m), &budget(v, m.prev(), a).sk));
        assert!(!within(&budgets_through(m), &budget(v, m.next(), a).sk));
        // The report's span: the month's rollups and settings through it; no
        // earlier rollups, no later settings, no daily rollups.
        let span = month_and_budgets_through(m);
        assert!(within(&span, &month_rollup(v, m, a).sk));
        assert!(!within(&span, &month_rollup(v, m.prev(), a).sk));
        assert!(within(&span, &set));
        assert!(within(
            &span,
            &budget(v, YearMonth::parse("1900-01").unwrap(), a).sk
        ));
        assert!(!within(&span, &budget(v, m.next(), a).sk));
        assert!(!within(&span, &day_rollup(v, m.first_day(), a).sk));
        assert!(!within(&span, &account(v, a).sk));
    }
}
