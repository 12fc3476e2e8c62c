//! Tag reports (decision 038): what entries carrying a tag moved, read from the tag
//! rollups (one item per tag and month, one per tag and day for partial months),
//! never from the entries themselves.

use std::collections::BTreeMap;

use super::nets::DatedLater;
use super::resolve::{Catalogue, join2, query_all};
use super::*;
use crate::api::{Field, Total};
use crate::stored::member::Membership;
use crate::stored::rollup::TagRollup;
use crate::stored::{rollup, table};
use dochiya_domain::{AccountId, AccountKind, Money, NameKey, Tag};
use dochiya_store::Item;

/// What one tag moved: (account, month) -> debit-positive net, and its display.
#[derive(Debug, Default)]
pub(super) struct TagCells {
    /// The tag as last written.
    pub tag: String,
    /// Per account and month.
    pub cells: BTreeMap<(AccountId, YearMonth), i64>,
}

/// The key of a report's `tag` filter, refused with what to send instead.
pub(super) fn filter_key(tag: Option<&str>) -> Result<Option<NameKey>, LedgerError> {
    tag.map(|t| {
        Tag::parse(t)
            .map(|t| t.key().clone())
            .map_err(|e| LedgerError::from_parse(Field::Category("tag"), e))
    })
    .transpose()
}

/// The tag rollups of a report's whole months (`first..=last`, none when first > last)
/// and of its partial months' days: up to three queries, all in one round.
pub(super) async fn read(
    ledger: &Ledger,
    m: &Membership,
    (first, last): (YearMonth, YearMonth),
    day_ranges: &[(LocalDate, LocalDate)],
) -> Result<Vec<Item>, LedgerError> {
    let store = ledger.store.as_ref();
    let pk = table::vault_pk(m.vault_id);
    let months = async {
        if first > last {
            return Ok(vec![]);
        }
        query_all(store, pk.clone(), rollup::tag_months_between(first, last), true).await
    };
    let day =
        |(a, b): (LocalDate, LocalDate)| query_all(store, pk.clone(), rollup::tag_days_between(a, b), true);
    let days = async {
        match day_ranges {
            [] => Ok(vec![]),
            [one] => day(*one).await,
            [a, b, ..] => {
                let (x, y) = join2(day(*a), day(*b)).await;
                let mut x = x?;
                x.extend(y?);
                Ok(x)
            }
        }
    };
    let (months, days) = join2(months, days).await;
    let mut items = months?;
    items.extend(days?);
    Ok(items)
}

/// Per tag, the nets of accounts of `kind` (only `only` when given).
pub(super) fn cells(
    items: &[Item],
    kinds: &BTreeMap<AccountId, AccountKind>,
    kind: AccountKind,
    only: Option<&NameKey>,
) -> Result<BTreeMap<NameKey, TagCells>, LedgerError> {
    let mut out: BTreeMap<NameKey, TagCells> = BTreeMap::new();
    for item in items.iter().filter(|i| rollup::is_tag_rollup(&i.key.sk)) {
        let r = TagRollup::from_attrs(&item.attrs)?;
        if only.is_some_and(|k| *k != r.key) {
            continue;
        }
        let month = r.period.month();
        let slot = out.entry(r.key.clone()).or_default();
        slot.tag.clone_from(&r.tag);
        for (a, net) in r.nets.into_iter().filter(|(a, _)| kinds.get(a) == Some(&kind)) {
            let cell = slot.cells.entry((a, month)).or_insert(0);
            *cell = cell.checked_add(net).ok_or_else(|| {
                LedgerError::out_of_range(Total::Tag {
                    tag: r.tag.clone(),
                    month: Some(month),
                })
            })?;
        }
    }
    Ok(out)
}

impl DatedLater {
    /// Only the later entries carrying the tag `key` (every tagged one when `None`).
    pub(super) fn tagged(&self, key: Option<&NameKey>) -> DatedLater {
        DatedLater(
            self.0
                .iter()
                .filter(|tx| match key {
                    Some(k) => tx.tags.iter().any(|t| NameKey::of(t) == *k),
                    None => !tx.tags.is_empty(),
                })
                .cloned()
                .collect(),
        )
    }
}

/// One row per tag with a non-zero total, largest first (then by tag); each tag's
/// later entries taken out of its own cells.
pub(super) fn rows_by_tag(
    per_tag: &mut BTreeMap<NameKey, TagCells>,
    later: &DatedLater,
    kinds: &BTreeMap<AccountId, AccountKind>,
    kind: AccountKind,
    m: &Membership,
) -> Result<Vec<ReportRow>, LedgerError> {
    let mut rows = Vec::new();
    for (key, t) in per_tag.iter_mut() {
        later.tagged(Some(key)).take_from(&mut t.cells, kinds, kind, m)?;
        let net = t
            .cells
            .values()
            .try_fold(0i64, |acc, v| acc.checked_add(*v))
            .ok_or_else(|| {
                LedgerError::out_of_range(Total::Tag {
                    tag: t.tag.clone(),
                    month: None,
                })
            })?;
        let amount = kind.natural(net).ok_or_else(|| {
            LedgerError::out_of_range(Total::Tag {
                tag: t.tag.clone(),
                month: None,
            })
        })?;
        if amount == 0 {
            continue;
        }
        rows.push(ReportRow {
            account_id: None,
            account: None,
            month: None,
            amount: Money::from_minor(amount, m.currency),
            parent: None,
            tag: Some(t.tag.clone()),
            member: None,
        });
    }
    rows.sort_by(|x, y| {
        y.amount
            .minor()
            .cmp(&x.amount.minor())
            .then_with(|| x.tag.cmp(&y.tag))
    });
    Ok(rows)
}

/// The catalogue's kinds by account.
pub(super) fn kinds_of(cat: &Catalogue) -> BTreeMap<AccountId, AccountKind> {
    cat.accounts.iter().map(|a| (a.account_id, a.kind)).collect()
}
