//! What settle-up and the report by member count, read by month (decision 062).
//!
//! Both need each account's net of a period split by whom its entries were `for`.
//! A month inside the period is read from its rollups: the accounts' monthly nets and
//! the `for` rollups the writer keeps beside them, so a ten-year book costs one item
//! per account and month, not one per entry. Entries are read one by one only where
//! rollups cannot answer: the months the period cuts (its first and last), the months
//! a caller wants exact (after today), and the months holding an opening balance
//! (outside settle-up, and an opening entry is told from others only by its postings).

use std::collections::{BTreeMap, BTreeSet};

use super::resolve::{Catalogue, catalogue, join_all, join2, query_all};
use super::*;
use crate::stored::entry::TxRec;
use crate::stored::member::Membership;
use crate::stored::rollup::{ForRollup, Period, Rollup};
use crate::stored::{entry, rollup, table};
use dochiya_domain::{AccountId, AccountKind};
use dochiya_store::{Item, Query};

/// Entries read per page while looking for the first one settle-up counts.
const FIRST_PAGE: u32 = 64;

/// One account's net over a whole month, from rollups, for `for_whom` (`None`: its
/// entries said nothing).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct MonthFlow {
    pub month: YearMonth,
    pub account: AccountId,
    pub for_whom: Option<String>,
    pub net: i64,
}

/// A period's counted movements: whole months as rollups, the rest as entries.
#[derive(Debug)]
pub(super) struct Flows {
    pub cat: Catalogue,
    /// Live entries dated within the period, of the months read entry by entry
    /// (opening balances left out when asked).
    pub entries: Vec<TxRec>,
    /// Nets of the months read from rollups (none of them holds an opening balance
    /// when those are left out).
    pub months: Vec<MonthFlow>,
    /// The date of the first live entry other than an opening balance, through the
    /// period's end (asked for only when the period has no start).
    pub first: Option<LocalDate>,
}

impl Flows {
    /// Every subject an entry or a month of the period was `for`.
    pub fn fors(&self) -> impl Iterator<Item = &str> {
        self.entries
            .iter()
            .filter_map(|t| t.for_whom.as_deref())
            .chain(self.months.iter().filter_map(|f| f.for_whom.as_deref()))
    }
}

/// Whether an entry is an opening balance (it moves an equity account).
pub(super) fn is_opening(tx: &TxRec, cat: &Catalogue) -> bool {
    tx.postings
        .iter()
        .any(|p| kind_of(cat, p.account_id) == Some(AccountKind::Equity))
}

fn kind_of(cat: &Catalogue, id: AccountId) -> Option<AccountKind> {
    cat.accounts.iter().find(|a| a.account_id == id).map(|a| a.kind)
}

/// The months of a period read from rollups, and the windows read entry by entry.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Plan {
    /// Whole months from rollups: `(first, last)`; `first` `None` means from the
    /// book's beginning. Absent when no month qualifies.
    rolled: Option<(Option<YearMonth>, YearMonth)>,
    /// Date windows read entry by entry, both ends inclusive.
    windows: Vec<(LocalDate, LocalDate)>,
}

/// Which months of `from..=to` rollups answer: every whole month before the month of
/// `exact_from` (and before `to`'s), and after `from`'s unless `from` is its first day.
fn plan(from: Option<LocalDate>, to: LocalDate, exact_from: LocalDate) -> Plan {
    let tail = exact_from.min(to).month();
    let first_whole = from.map(|f| {
        if f == f.month().first_day() {
            f.month()
        } else {
            f.month().next()
        }
    });
    let mut windows = vec![(from.map_or(tail.first_day(), |f| f.max(tail.first_day())), to)];
    if let Some(f) = from
        && f.month() < tail
        && first_whole != Some(f.month())
    {
        windows.push((f, f.month().last_day()));
    }
    let rolled = (first_whole.is_none_or(|w| w < tail)).then_some((first_whole, tail.prev()));
    Plan { rolled, windows }
}

/// The live entries dated `from..=to`.
async fn entries_between(
    ledger: &Ledger,
    m: &Membership,
    (from, to): (LocalDate, LocalDate),
) -> Result<Vec<TxRec>, LedgerError> {
    if from > to {
        return Ok(vec![]);
    }
    let items = query_all(
        ledger.store.as_ref(),
        table::vault_pk(m.vault_id),
        entry::transactions_between(Some(from), Some(to)),
        true,
    )
    .await?;
    live(&items)
}

fn live(items: &[Item]) -> Result<Vec<TxRec>, LedgerError> {
    items
        .iter()
        .filter(|i| entry::is_transaction(&i.key.sk))
        .map(TxRec::from_item)
        .filter(|t| t.as_ref().map_or(true, |t| !t.voided))
        .collect()
}

/// One page of the book's entries through `to`, from its first (or after `after`).
async fn entries_page(
    ledger: &Ledger,
    m: &Membership,
    to: LocalDate,
    after: Option<String>,
) -> Result<dochiya_store::Page, LedgerError> {
    Ok(ledger
        .store
        .query(&Query {
            pk: table::vault_pk(m.vault_id),
            range: entry::transactions_between(None, Some(to)),
            forward: true,
            limit: FIRST_PAGE,
            after,
        })
        .await?)
}

/// The date of the first live entry through `to` that is not an opening balance,
/// judging `page` (the book's first) and paging on only if it holds none (opening
/// balances and voided entries come first in a book, and are few).
async fn first_counted(
    ledger: &Ledger,
    m: &Membership,
    to: LocalDate,
    cat: &Catalogue,
    mut page: dochiya_store::Page,
) -> Result<Option<LocalDate>, LedgerError> {
    loop {
        if let Some(t) = live(&page.items)?.into_iter().find(|t| !is_opening(t, cat)) {
            return Ok(Some(t.date));
        }
        match page.last_sk {
            Some(sk) => page = entries_page(ledger, m, to, Some(sk)).await?,
            None => return Ok(None),
        }
    }
}

/// What `from..=to` counted (`from` `None`: from the book's first entry, whose date
/// [`Flows::first`] then gives); entries dated in `exact_from`'s month or later are
/// read one by one. `without_openings`: leave opening balances out (settle-up).
pub(super) async fn flows(
    ledger: &Ledger,
    m: &Membership,
    from: Option<LocalDate>,
    to: LocalDate,
    exact_from: LocalDate,
    without_openings: bool,
) -> Result<Flows, LedgerError> {
    let plan = plan(from, to, exact_from);
    let store = ledger.store.as_ref();
    let pk = table::vault_pk(m.vault_id);
    let rollups = async {
        let Some((lo, hi)) = plan.rolled else {
            return Ok((vec![], vec![]));
        };
        let (months, fors) = join2(
            query_all(store, pk.clone(), rollup::month_rollups(lo, hi), true),
            query_all(store, pk.clone(), rollup::for_months_between(lo, hi), true),
        )
        .await;
        Ok::<_, LedgerError>((months?, fors?))
    };
    let windows = join_all(
        plan.windows
            .iter()
            .map(|w| entries_between(ledger, m, *w))
            .collect(),
    );
    // Without a start, the book's first page comes in the same round.
    let first_page = async {
        match from {
            None => entries_page(ledger, m, to, None).await.map(Some),
            Some(_) => Ok(None),
        }
    };
    let ((cat, rollups), (windows, first_page)) =
        join2(join2(catalogue(ledger, m), rollups), join2(windows, first_page)).await;
    let (cat, (month_items, for_items), first_page) = (cat?, rollups?, first_page?);
    let mut entries = Vec::new();
    for w in windows {
        entries.extend(w?);
    }
    // Months of rollups where an equity account moved hold an opening balance: read
    // them entry by entry instead (a second round, usually the book's first month).
    let mut nets: BTreeMap<(YearMonth, AccountId), i64> = BTreeMap::new();
    let mut opening_months = BTreeSet::new();
    for item in &month_items {
        let r = Rollup::from_attrs(&item.attrs)?;
        let Period::Month(month) = r.period else {
            continue;
        };
        if without_openings && kind_of(&cat, r.account_id) == Some(AccountKind::Equity) {
            opening_months.insert(month);
        }
        nets.insert((month, r.account_id), r.net);
    }
    let first = async {
        match first_page {
            Some(page) => first_counted(ledger, m, to, &cat, page).await,
            None => Ok(None),
        }
    };
    let reread = join_all(
        opening_months
            .iter()
            .map(|mo| entries_between(ledger, m, (mo.first_day(), mo.last_day())))
            .collect(),
    );
    let (first, reread) = join2(first, reread).await;
    for w in reread {
        entries.extend(w?);
    }
    if without_openings {
        entries.retain(|t| !is_opening(t, &cat));
    }
    let mut months = Vec::new();
    for item in &for_items {
        let r = ForRollup::from_attrs(&item.attrs)?;
        if opening_months.contains(&r.month) {
            continue;
        }
        for (account, net) in r.nets {
            // What the entries saying `for` moved is not the account's unlabelled net.
            *nets.entry((r.month, account)).or_insert(0) -= net;
            months.push(MonthFlow {
                month: r.month,
                account,
                for_whom: Some(r.for_whom.clone()),
                net,
            });
        }
    }
    for ((month, account), net) in nets {
        if net != 0 && !opening_months.contains(&month) {
            months.push(MonthFlow {
                month,
                account,
                for_whom: None,
                net,
            });
        }
    }
    months.retain(|f| f.net != 0);
    Ok(Flows {
        cat,
        entries,
        months,
        first: first?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(s: &str) -> LocalDate {
        LocalDate::parse(s).unwrap()
    }
    fn ym(s: &str) -> YearMonth {
        YearMonth::parse(s).unwrap()
    }

    #[test]
    fn a_period_from_the_beginning_rolls_every_month_before_the_last() {
        let p = plan(None, d("2026-03-15"), d("2026-03-15"));
        assert_eq!(p.rolled, Some((None, ym("2026-02"))));
        assert_eq!(p.windows, vec![(d("2026-03-01"), d("2026-03-15"))]);
    }

    #[test]
    fn a_period_cut_at_both_ends_reads_both_edge_months_entry_by_entry() {
        let p = plan(Some(d("2025-11-10")), d("2026-03-15"), d("2026-03-15"));
        assert_eq!(p.rolled, Some((Some(ym("2025-12")), ym("2026-02"))));
        assert_eq!(
            p.windows,
            vec![
                (d("2026-03-01"), d("2026-03-15")),
                (d("2025-11-10"), d("2025-11-30"))
            ]
        );
    }

    #[test]
    fn a_period_starting_on_a_first_rolls_its_first_month() {
        let p = plan(Some(d("2025-11-01")), d("2026-03-31"), d("2026-03-31"));
        assert_eq!(p.rolled, Some((Some(ym("2025-11")), ym("2026-02"))));
        assert_eq!(p.windows, vec![(d("2026-03-01"), d("2026-03-31"))]);
    }

    #[test]
    fn a_period_within_one_month_is_read_entry_by_entry() {
        let p = plan(Some(d("2026-03-01")), d("2026-03-31"), d("2026-03-31"));
        assert_eq!(p.rolled, None);
        assert_eq!(p.windows, vec![(d("2026-03-01"), d("2026-03-31"))]);
        let p = plan(Some(d("2026-03-05")), d("2026-03-20"), d("2026-03-20"));
        assert_eq!(p.rolled, None);
        assert_eq!(p.windows, vec![(d("2026-03-05"), d("2026-03-20"))]);
    }

    #[test]
    fn months_from_today_on_are_read_entry_by_entry() {
        let p = plan(Some(d("2026-01-01")), d("2026-12-31"), d("2026-03-15"));
        assert_eq!(p.rolled, Some((Some(ym("2026-01")), ym("2026-02"))));
        assert_eq!(p.windows, vec![(d("2026-03-01"), d("2026-12-31"))]);
        let p = plan(Some(d("2026-03-20")), d("2026-12-31"), d("2026-03-15"));
        assert_eq!(p.rolled, None);
        assert_eq!(p.windows, vec![(d("2026-03-20"), d("2026-12-31"))]);
    }
}
