//! Recurring charges detected (issue 54): what `list_recurring` shows as `detected`, a
//! charge seen in three or more months in a row that no schedule covers.
//!
//! The live entries of this month and the twelve before it are read page by page in
//! `list_recurring`'s read round (before its catalogue is known). Each page is folded
//! into one slot per (first word of the memo, category, paying account) and month, then
//! dropped: what is kept is bounded by those keys (13 slots and one memo each), never by
//! the entries. The accounts' kinds, the schedules and the run are checked at the end.

use std::collections::HashMap;

use dochiya_domain::{AccountId, AccountKind, Currency, LocalDate, Money, NameKey, TransactionId, YearMonth};
use dochiya_store::Query;

use crate::api::{DetectedCharge, LedgerError};
use crate::ledger::Ledger;
use crate::ledger::resolve::Catalogue;
use crate::stored::entry::TxRec;
use crate::stored::member::Membership;
use crate::stored::schedule::ScheduleRec;
use crate::stored::{entry, table};

/// Months read: this month and the twelve before it.
const MONTHS: usize = 13;
/// The fewest months in a row that make a charge recurring.
const MIN_RUN: u32 = 3;
/// How many days an earlier month's entry may be from the latest's day.
const DAY_SLACK: i8 = 5;
/// Entries per query page (each page is folded, then dropped).
const PAGE: u32 = 1000;

/// One month's latest entry of a charge.
#[derive(Debug, Clone, Copy)]
struct Slot {
    date: LocalDate,
    id: TransactionId,
    /// What reached the category, in minor units (positive).
    amount: i64,
    /// The account it was paid from.
    from: AccountId,
}

impl Slot {
    /// Later entries sort last: by date, then recording order (ids are time-ordered).
    fn order(&self) -> (LocalDate, TransactionId) {
        (self.date, self.id)
    }

    /// Whether `self` is later than `other` (or there is no other).
    fn after(&self, other: Option<&Slot>) -> bool {
        other.is_none_or(|o| o.order() < self.order())
    }
}

/// One key's months (index 0: the first month read) and its latest entry's memo.
#[derive(Debug)]
struct Track {
    months: [Option<Slot>; MONTHS],
    latest: Option<Slot>,
    memo: String,
}

/// (first word of the memo, category, paying account).
type Key = (NameKey, AccountId, AccountId);

/// What the window's entries showed, folded by [`Key`] and month.
#[derive(Debug)]
pub(super) struct Seen {
    /// The first month read (12 months before today's).
    first: YearMonth,
    tracks: HashMap<Key, Track>,
}

/// Read the live entries dated from the first day of the month 12 months before
/// today's month through today, one page at a time, into [`Seen`].
pub(super) async fn seen(ledger: &Ledger, m: &Membership, today: LocalDate) -> Result<Seen, LedgerError> {
    let mut first = today.month();
    for _ in 1..MONTHS {
        first = first.prev();
    }
    let mut seen = Seen {
        first,
        tracks: HashMap::new(),
    };
    let mut after = None;
    loop {
        let page = ledger
            .store
            .query(&Query {
                pk: table::vault_pk(m.vault_id),
                range: entry::transactions_between(Some(first.first_day()), Some(today)),
                forward: true,
                limit: PAGE,
                after,
            })
            .await?;
        for item in page.items.iter().filter(|i| entry::is_transaction(&i.key.sk)) {
            seen.take(&TxRec::from_item(item)?);
        }
        match page.last_sk {
            Some(sk) => after = Some(sk),
            None => return Ok(seen),
        }
    }
}

/// The memo's first whitespace-separated token with everything but letters and digits
/// removed, as a name key; `None` when fewer than two characters remain.
fn first_word(memo: &str) -> Option<NameKey> {
    let token = memo.split_whitespace().next()?;
    let kept = || token.chars().filter(|c| c.is_alphanumeric());
    kept().nth(1)?;
    Some(NameKey::of(&kept().collect::<String>()))
}

/// Where `month` falls in the window starting at `first` (`None`: outside it).
fn month_index(first: YearMonth, month: YearMonth) -> Option<usize> {
    let n = |m: YearMonth| i32::from(m.year()) * 12 + i32::from(m.month());
    usize::try_from(n(month) - n(first)).ok().filter(|i| *i < MONTHS)
}

impl Seen {
    /// Fold one entry in: a live, hand-recorded entry of exactly two postings, money
    /// leaving one account and reaching another, with a first word in its memo.
    fn take(&mut self, tx: &TxRec) {
        if tx.voided || tx.recurring.is_some() {
            return;
        }
        let [a, b] = tx.postings.as_slice() else {
            return;
        };
        let (to, from) = match (a.amount > 0, b.amount > 0) {
            (true, false) if b.amount < 0 => (a, b),
            (false, true) if a.amount < 0 => (b, a),
            _ => return,
        };
        let Some(index) = month_index(self.first, tx.date.month()) else {
            return;
        };
        let Some(word) = first_word(&tx.memo) else {
            return;
        };
        let slot = Slot {
            date: tx.date,
            id: tx.id,
            amount: to.amount,
            from: from.account_id,
        };
        let track = self
            .tracks
            .entry((word, to.account_id, from.account_id))
            .or_insert_with(|| Track {
                months: [None; MONTHS],
                latest: None,
                memo: String::new(),
            });
        if slot.after(track.months[index].as_ref()) {
            track.months[index] = Some(slot);
        }
        if slot.after(track.latest.as_ref()) {
            track.latest = Some(slot);
            track.memo.clear();
            track.memo.push_str(&tx.memo);
        }
    }

    /// The charges detected, by category name then memo: per (first word, category),
    /// over the entries paid from an asset or liability account into an expense account.
    pub(super) fn detected(
        &self,
        cat: &Catalogue,
        schedules: &[ScheduleRec],
        currency: Currency,
    ) -> Vec<DetectedCharge> {
        let mut charges: HashMap<(&NameKey, AccountId), Charge<'_>> = HashMap::new();
        for ((word, to, from), track) in &self.tracks {
            if pays_for(cat, *to, *from) {
                charges.entry((word, *to)).or_default().merge(track);
            }
        }
        let mut out: Vec<DetectedCharge> = charges
            .iter()
            .filter_map(|((_, to), c)| c.detected(self.first, *to, (cat, schedules), currency))
            .collect();
        out.sort_by(|a, b| (&a.to, &a.memo, &a.from).cmp(&(&b.to, &b.memo, &b.from)));
        out
    }
}

/// Whether money from `from` into `to` is spending: an asset or liability paying an
/// expense account (a refund, the other way, is not).
fn pays_for(cat: &Catalogue, to: AccountId, from: AccountId) -> bool {
    cat.by_id(to).is_some_and(|a| a.kind == AccountKind::Expense)
        && cat
            .by_id(from)
            .is_some_and(|a| matches!(a.kind, AccountKind::Asset | AccountKind::Liability))
}

/// One (first word, category)'s months over every account that paid it.
#[derive(Debug, Default)]
struct Charge<'a> {
    months: [Option<Slot>; MONTHS],
    latest: Option<Slot>,
    memo: &'a str,
}

impl<'a> Charge<'a> {
    fn merge(&mut self, track: &'a Track) {
        for (mine, theirs) in self.months.iter_mut().zip(&track.months) {
            if let Some(s) = theirs
                && s.after(mine.as_ref())
            {
                *mine = Some(*s);
            }
        }
        if let Some(s) = &track.latest
            && s.after(self.latest.as_ref())
        {
            self.latest = Some(*s);
            self.memo = &track.memo;
        }
    }

    /// The charge as listed, when its latest month is this month or the one before,
    /// its run is at least [`MIN_RUN`] months and no schedule pays the same accounts.
    fn detected(
        &self,
        first: YearMonth,
        to: AccountId,
        (cat, schedules): (&Catalogue, &[ScheduleRec]),
        currency: Currency,
    ) -> Option<DetectedCharge> {
        let latest = self.latest?;
        let top = month_index(first, latest.date.month())?;
        if top + 2 < MONTHS {
            return None;
        }
        let months = run(&self.months[..=top], latest);
        if months < MIN_RUN
            || schedules
                .iter()
                .any(|s| s.from_id == latest.from && s.to_id == to)
        {
            return None;
        }
        let (from, to) = (cat.by_id(latest.from)?, cat.by_id(to)?);
        Some(DetectedCharge {
            memo: self.memo.to_string(),
            from: cat.shown_name(from).to_string(),
            to: cat.shown_name(to).to_string(),
            amount: Money::from_minor(latest.amount, currency),
            day: u8::try_from(latest.date.day()).unwrap_or_default(),
            months,
        })
    }
}

/// How many months in a row, going back from the last of `months` (the latest's),
/// hold an entry like `latest`.
fn run(months: &[Option<Slot>], latest: Slot) -> u32 {
    let mut month = latest.date.month();
    let mut count = 0;
    for slot in months.iter().rev() {
        match slot {
            Some(s) if alike(s, &latest, month) => count += 1,
            _ => break,
        }
        month = month.prev();
    }
    count
}

/// Whether `s`, the entry of `month`, is like `latest`: its amount within 10% of the
/// latest amount (|a − latest| × 10 ≤ latest, in minor units) and its day within
/// [`DAY_SLACK`] days of the latest's day (both capped at the month's last day).
fn alike(s: &Slot, latest: &Slot, month: YearMonth) -> bool {
    let (a, l) = (i128::from(s.amount), i128::from(latest.amount));
    let last = month.last_day().day();
    let (day, want) = (s.date.day().min(last), latest.date.day().min(last));
    (a - l).abs() * 10 <= l && (day - want).abs() <= DAY_SLACK
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_word_keeps_letters_and_digits_of_two_or_more() {
        let key = |m: &str| first_word(m).map(|k| k.as_str().to_string());
        assert_eq!(
            key("넷플릭스 3월"),
            Some(NameKey::of("넷플릭스").as_str().to_string())
        );
        assert_eq!(key("  Netflix.com 결제"), key("NETFLIXCOM"));
        assert_eq!(key("(주)쿠팡"), key("주쿠팡"));
        assert_eq!(key("a 구독"), None);
        assert_eq!(key("- 월세"), None);
        assert_eq!(key(""), None);
    }

    #[test]
    fn months_are_placed_in_the_window() {
        let ym = |t: &str| YearMonth::parse(t).expect("month");
        assert_eq!(month_index(ym("2025-03"), ym("2025-03")), Some(0));
        assert_eq!(month_index(ym("2025-03"), ym("2026-03")), Some(12));
        assert_eq!(month_index(ym("2025-03"), ym("2026-04")), None);
        assert_eq!(month_index(ym("2025-03"), ym("2025-02")), None);
    }

    #[test]
    fn alike_allows_ten_percent_and_five_days_capped_at_the_month_end() {
        let slot = |date: &str, amount: i64| Slot {
            date: LocalDate::parse(date).expect("date"),
            id: TransactionId::generate(1, 1),
            amount,
            from: AccountId::from_uuid(uuid::Uuid::nil()),
        };
        let latest = slot("2026-03-31", 10_000);
        let feb = YearMonth::parse("2026-02").expect("month");
        // 31 capped to 28 in February: the 28th is the same day, the 23rd five before.
        assert!(alike(&slot("2026-02-28", 11_000), &latest, feb));
        assert!(alike(&slot("2026-02-23", 9_000), &latest, feb));
        assert!(!alike(&slot("2026-02-22", 10_000), &latest, feb));
        // |11,001 − 10,000| × 10 = 10,010 > 10,000.
        assert!(!alike(&slot("2026-02-28", 11_001), &latest, feb));
    }
}
