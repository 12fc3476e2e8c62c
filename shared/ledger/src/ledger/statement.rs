//! Statement lines matched with the book by data (`record_transactions`, decisions 032
//! and 047): which live entry, or which installment part the book already derives,
//! a line repeats. Pure: the batch reads the book (the entries dated within a day of
//! its lines, and the open installment purchases when a line names a part) in its one
//! read round and hands them here.

use std::collections::BTreeSet;

use super::installments::OpenPurchase;
use super::resolve::Catalogue;
use crate::api::{Duplicate, MatchedBy};
use crate::stored::entry::{PostingRec, TxRec};
use dochiya_domain::{AccountId, AccountKind, LocalDate, TransactionId, YearMonth, installment_part};

/// Each account's net (debit-positive) in a set of postings, by account id.
fn nets_of<'a>(postings: impl Iterator<Item = (AccountId, i64)> + 'a) -> Vec<(AccountId, i64)> {
    let mut nets: Vec<(AccountId, i64)> = Vec::new();
    for (id, amount) in postings {
        match nets.iter_mut().find(|(a, _)| *a == id) {
            Some((_, n)) => *n = n.saturating_add(amount),
            None => nets.push((id, amount)),
        }
    }
    nets.retain(|(_, n)| *n != 0);
    nets.sort();
    nets
}

/// The one net on an asset or liability account among `nets` (the card or bank a
/// statement is of); `None` for a transfer between two of them, or none.
fn money_side(nets: &[(AccountId, i64)], cat: &Catalogue) -> Option<(AccountId, i64)> {
    let mut money = nets.iter().copied().filter(|(a, _)| {
        cat.by_id(*a)
            .is_some_and(|a| matches!(a.kind, AccountKind::Asset | AccountKind::Liability))
    });
    match (money.next(), money.next()) {
        (Some(one), None) => Some(one),
        _ => None,
    }
}

/// A live entry of the book, as a statement line may repeat it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct BookEntry {
    id: TransactionId,
    date: LocalDate,
    /// Each account's net, by account id.
    nets: Vec<(AccountId, i64)>,
    /// Its card side, as a line's (see [`LineKey`]).
    side: Option<(AccountId, i64)>,
    external_ref: Option<String>,
}

impl BookEntry {
    /// Its transaction (ids are in recording order).
    pub(super) fn id(&self) -> TransactionId {
        self.id
    }

    /// `tx` as a line could repeat it (`None` when voided).
    pub(super) fn of(tx: TxRec, cat: &Catalogue) -> Option<BookEntry> {
        if tx.voided {
            return None;
        }
        let nets = nets_of(tx.postings.iter().map(|p| (p.account_id, p.amount)));
        Some(BookEntry {
            id: tx.id,
            date: tx.date,
            side: money_side(&nets, cat),
            nets,
            external_ref: tx.external_ref,
        })
    }
}

/// A line as it is matched against the book.
pub(super) struct LineKey<'a> {
    /// Each account's net, by account id.
    nets: Vec<(AccountId, i64)>,
    /// Its card side: its one net on an asset or liability account (the card or bank
    /// the statement is of), the rest being categories; `None` for a transfer.
    side: Option<(AccountId, i64)>,
    date: LocalDate,
    external_ref: Option<&'a str>,
    /// The installment part its memo names (`할부 2/3`).
    part: Option<(u8, u8)>,
}

impl<'a> LineKey<'a> {
    /// The key of a line with these resolved postings.
    pub(super) fn new(
        postings: &[PostingRec],
        cat: &Catalogue,
        date: LocalDate,
        memo: &str,
        external_ref: Option<&'a str>,
    ) -> LineKey<'a> {
        let nets = nets_of(postings.iter().map(|p| (p.account_id, p.amount)));
        LineKey {
            side: money_side(&nets, cat),
            nets,
            date,
            external_ref,
            part: installment_part(memo),
        }
    }
}

/// The earliest month whose open installment purchases a batch's lines may repeat
/// a part of (`None`: no line names a part, so nothing more is read).
pub(super) fn parts_from<'a>(lines: impl Iterator<Item = (LocalDate, &'a str)>) -> Option<YearMonth> {
    lines
        .filter(|(_, memo)| installment_part(memo).is_some())
        .map(|(d, _)| d.prev_day().month())
        .min()
}

/// The days a batch's entries may repeat: each entry's date and the day either side,
/// merged into ranges (one query each, all in the first round).
pub(super) fn book_ranges(dates: impl Iterator<Item = LocalDate>) -> Vec<(LocalDate, LocalDate)> {
    let mut days: Vec<LocalDate> = dates.collect();
    days.sort();
    days.dedup();
    let mut ranges: Vec<(LocalDate, LocalDate)> = Vec::new();
    for d in days {
        let (lo, hi) = (d.prev_day(), d.next_day());
        match ranges.last_mut() {
            Some((_, end)) if lo <= end.next_day() => *end = hi.max(*end),
            _ => ranges.push((lo, hi)),
        }
    }
    ranges
}

/// What a line may take: a book entry, or one part of an installment purchase.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Target {
    Entry(TransactionId),
    Part(TransactionId, u8),
}

impl Target {
    fn transaction(self) -> TransactionId {
        match self {
            Target::Entry(id) | Target::Part(id, _) => id,
        }
    }
}

/// The ways a line repeats the book, in the order they are tried: for every line the
/// same entry on the same day, then a day apart, then the part of an installment
/// purchase, then an entry on the line's card with the line's amount (a split, or
/// another category) the same day, then a day apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Pass {
    SameDay,
    DayApart,
    Installment,
    CardSameDay,
    CardDayApart,
}

const PASSES: [Pass; 5] = [
    Pass::SameDay,
    Pass::DayApart,
    Pass::Installment,
    Pass::CardSameDay,
    Pass::CardDayApart,
];

/// The book a batch's lines are matched with.
pub(super) struct Book<'b> {
    /// Live entries dated within a day of a line, the earliest recorded first.
    pub entries: &'b [BookEntry],
    /// Installment purchases still open from the earliest month a line may name.
    pub open: &'b [OpenPurchase],
    pub cat: &'b Catalogue,
}

impl Book<'_> {
    /// Every target `line` repeats in `pass`, in the order they are taken, with how.
    fn candidates(&self, line: &LineKey<'_>, pass: Pass) -> Vec<(Target, MatchedBy)> {
        let near = |d: LocalDate, same: bool| {
            if same {
                d == line.date
            } else {
                d == line.date.prev_day() || d == line.date.next_day()
            }
        };
        // A line with an externalRef never takes an entry recorded with another one.
        let refs_agree = |b: &BookEntry| line.external_ref.is_none() || b.external_ref.is_none();
        let entries = self.entries.iter().filter(|b| refs_agree(b));
        match pass {
            Pass::SameDay | Pass::DayApart => {
                let (same, how) = match pass {
                    Pass::SameDay => (true, MatchedBy::SameDate),
                    _ => (false, MatchedBy::DayApart),
                };
                entries
                    .filter(|b| b.nets == line.nets && near(b.date, same))
                    .map(|b| (Target::Entry(b.id), how))
                    .collect()
            }
            Pass::CardSameDay | Pass::CardDayApart => {
                if line.side.is_none() {
                    return Vec::new();
                }
                let same = pass == Pass::CardSameDay;
                // The same card posting, the other side categories (not a transfer).
                entries
                    .filter(|b| b.nets != line.nets && b.side == line.side && near(b.date, same))
                    .map(|b| {
                        let how = if b.nets.len() > 2 || line.nets.len() > 2 {
                            MatchedBy::Split
                        } else {
                            MatchedBy::OtherCategory
                        };
                        (Target::Entry(b.id), how)
                    })
                    .collect()
            }
            Pass::Installment => self.parts(line),
        }
    }

    /// The installment parts `line` repeats: it names part n of m, it charges a card
    /// with billing, and a purchase in m parts on that card has part n of the line's
    /// amount, dated within a day of the line (statements list a part under its
    /// purchase date) or billed on the bill whose period through due date holds it
    /// (give or take a day).
    fn parts(&self, line: &LineKey<'_>) -> Vec<(Target, MatchedBy)> {
        let (Some((n, m)), Some((card, amount))) = (line.part, line.side) else {
            return Vec::new();
        };
        let Some(billing) = self.cat.by_id(card).and_then(|a| a.billing) else {
            return Vec::new();
        };
        let mut found: Vec<(Target, MatchedBy)> = self
            .open
            .iter()
            .filter(|p| p.card == card && p.count.count() == m)
            .filter(|p| {
                p.count
                    .split(p.amount)
                    .and_then(|parts| parts.get(usize::from(n) - 1).copied())
                    .and_then(i64::checked_neg)
                    == Some(amount)
            })
            .filter(|p| {
                let mut month = billing.bill_of(p.date);
                for _ in 1..n {
                    month = month.next();
                }
                let bill = billing.bill(month);
                let d = line.date;
                (d >= p.date.prev_day() && d <= p.date.next_day())
                    || (d >= bill.from.prev_day() && d <= bill.due.next_day())
            })
            .map(|p| (Target::Part(p.transaction_id, n), MatchedBy::Installment))
            .collect();
        // The earliest recorded purchase first, as for entries.
        found.sort_by_key(|(t, _)| *t);
        found
    }
}

/// Which lines repeat the book: every line is tried in each [`Pass`] in turn, each
/// target taken by one line at most (two identical coffees on the statement with
/// one in the book are one duplicate and one new entry). `taken` starts with the
/// entries already accounted for (this call's own, and those matched by
/// externalRef). A matched line also names another target it matches that no line
/// took (`also`): reported against the first, nothing recorded twice.
pub(super) fn match_book(
    lines: &[Option<LineKey<'_>>],
    book: &Book<'_>,
    taken: &BTreeSet<TransactionId>,
) -> Vec<Option<Duplicate>> {
    let mut used: BTreeSet<Target> = taken.iter().map(|id| Target::Entry(*id)).collect();
    let mut out: Vec<Option<(Target, MatchedBy)>> = lines.iter().map(|_| None).collect();
    for pass in PASSES {
        for (line, slot) in lines.iter().zip(out.iter_mut()) {
            let Some(l) = line.as_ref().filter(|_| slot.is_none()) else {
                continue;
            };
            if let Some(found) = book
                .candidates(l, pass)
                .into_iter()
                .find(|(t, _)| !used.contains(t))
            {
                used.insert(found.0);
                *slot = Some(found);
            }
        }
    }
    lines
        .iter()
        .zip(out)
        .map(|(line, found)| {
            let (target, matched_by) = found?;
            let also = line.as_ref().and_then(|l| {
                PASSES.iter().find_map(|pass| {
                    book.candidates(l, *pass)
                        .into_iter()
                        .map(|(t, _)| t)
                        .find(|t| !used.contains(t) && t.transaction() != target.transaction())
                        .map(Target::transaction)
                })
            });
            Some(Duplicate {
                transaction_id: target.transaction(),
                matched_by,
                also,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stored::account;
    use crate::stored::account::AccountRec;
    use crate::stored::budget::BudgetHead;
    use crate::stored::snapshot::SnapshotHead;
    use dochiya_domain::{Billing, Installments, NameKey, VaultId};
    use dochiya_store::Item;

    const CARD: u128 = 1;
    const BANK: u128 = 2;
    const FOOD: u128 = 3;
    const SHOP: u128 = 4;

    fn id(n: u128) -> AccountId {
        AccountId::from_uuid(uuid::Uuid::from_u128(n))
    }

    /// Test ids: `n` above 2^53 (ids are), in the same order.
    fn tx_id(n: u64) -> TransactionId {
        TransactionId::from_u64(dochiya_domain::TWO_POW_53 + n).expect("a test id")
    }

    fn day(text: &str) -> LocalDate {
        LocalDate::parse(text).expect("a test date")
    }

    /// 신한카드 (a card closing on the 31st, paid on the 14th), 카카오뱅크, 식비, 쇼핑.
    fn catalogue() -> Catalogue {
        let vault = VaultId::from_uuid(uuid::Uuid::from_u128(9));
        let items: Vec<Item> = [
            (CARD, "신한카드", AccountKind::Liability),
            (BANK, "카카오뱅크", AccountKind::Asset),
            (FOOD, "식비", AccountKind::Expense),
            (SHOP, "쇼핑", AccountKind::Expense),
        ]
        .into_iter()
        .map(|(n, name, kind)| Item {
            key: account::account(vault, id(n)),
            attrs: AccountRec {
                account_id: id(n),
                name: name.into(),
                name_key: NameKey::of(name),
                kind,
                archived: false,
                net: 0,
                opening: None,
                billing: (n == CARD).then(|| Billing::new(31, 14).expect("a cycle")),
                snapshots: SnapshotHead::NEW,
                budgets: BudgetHead::for_new_account(),
                parent: None,
                child_seq: 0,
                owner: None,
                goal: None,
                performance: None,
                match_words: Vec::new(),
            }
            .to_attrs(0),
        })
        .collect();
        Catalogue::from_items(&items).expect("catalogue")
    }

    fn postings(lines: &[(u128, i64)]) -> Vec<PostingRec> {
        lines
            .iter()
            .map(|(a, amount)| PostingRec {
                account_id: id(*a),
                name: String::new(),
                amount: *amount,
            })
            .collect()
    }

    fn entry(n: u64, on: &str, lines: &[(u128, i64)], cat: &Catalogue) -> BookEntry {
        let tx = TxRec::new(tx_id(n), day(on), String::new(), 0, None, postings(lines));
        BookEntry::of(tx, cat).expect("live")
    }

    /// 노트북: 1,200,000 in 12 on the card, bought 2025-10-15 (first part on 2025-11's bill).
    fn laptop() -> OpenPurchase {
        OpenPurchase {
            transaction_id: tx_id(50),
            date: day("2025-10-15"),
            memo: "노트북".into(),
            card: id(CARD),
            amount: 1_200_000,
            count: Installments::new(12).expect("a count"),
        }
    }

    /// How each line (card → 식비, `amount` on `on`, memo) came out: (how, which).
    fn matched(
        lines: &[(&str, i64, &str)],
        entries: &[BookEntry],
        open: &[OpenPurchase],
    ) -> Vec<Option<(MatchedBy, u64, Option<u64>)>> {
        let cat = catalogue();
        let keys: Vec<Option<LineKey<'_>>> = lines
            .iter()
            .map(|(on, amount, memo)| {
                Some(LineKey::new(
                    &postings(&[(FOOD, *amount), (CARD, -*amount)]),
                    &cat,
                    day(on),
                    memo,
                    None,
                ))
            })
            .collect();
        let book = Book {
            entries,
            open,
            cat: &cat,
        };
        let n = |t: TransactionId| t.get() - dochiya_domain::TWO_POW_53;
        match_book(&keys, &book, &BTreeSet::new())
            .into_iter()
            .map(|d| d.map(|d| (d.matched_by, n(d.transaction_id), d.also.map(n))))
            .collect()
    }

    /// A part matches on its amount, count and bill: 3/12 of 100,000 on the 2026-01
    /// bill (period 2025-12-01 … 12-31, due 2026-01-14, give or take a day), or dated
    /// within a day of the purchase. Anything else is a new charge.
    #[test]
    fn an_installment_line_matches_the_part_of_its_bill() {
        let open = [laptop()];
        let part = |on: &str, amount: i64, memo: &str| matched(&[(on, amount, memo)], &[], &open)[0];
        let hit = Some((MatchedBy::Installment, 50, None));
        assert_eq!(part("2026-01-14", 100_000, "노트북 3/12회차"), hit);
        assert_eq!(part("2025-11-30", 100_000, "노트북 할부 3/12"), hit);
        assert_eq!(part("2026-01-15", 100_000, "노트북 할부 3/12"), hit);
        assert_eq!(part("2025-10-16", 100_000, "노트북 할부 3/12"), hit);
        for (on, amount, memo) in [
            // Outside the bill's dates and not the purchase date.
            ("2026-01-16", 100_000, "노트북 할부 3/12"),
            ("2025-11-29", 100_000, "노트북 할부 3/12"),
            // Another amount, another count, no part named.
            ("2026-01-14", 90_000, "노트북 할부 3/12"),
            ("2026-01-14", 100_000, "노트북 할부 3/10"),
            ("2026-01-14", 100_000, "노트북"),
        ] {
            assert_eq!(part(on, amount, memo), None, "{on} {amount} {memo}");
        }
        // The same part twice on one statement: the second line is a new charge.
        assert_eq!(
            matched(
                &[
                    ("2026-01-14", 100_000, "할부 3/12"),
                    ("2026-01-14", 100_000, "할부 3/12")
                ],
                &[],
                &open
            ),
            vec![hit, None]
        );
    }

    /// The same postings first (even a day apart), then an entry on the same card with
    /// the amount; a transfer (paying the card from the bank) is never a purchase.
    #[test]
    fn exact_entries_come_before_card_matches_and_transfers_never_match() {
        let cat = catalogue();
        let split = entry(
            10,
            "2026-03-02",
            &[(CARD, -45_000), (FOOD, 30_000), (SHOP, 15_000)],
            &cat,
        );
        let exact = entry(11, "2026-03-03", &[(CARD, -45_000), (FOOD, 45_000)], &cat);
        let paid = entry(12, "2026-03-02", &[(BANK, -45_000), (CARD, 45_000)], &cat);
        assert_eq!(
            matched(
                &[("2026-03-02", 45_000, "마트")],
                &[split.clone(), exact.clone()],
                &[]
            ),
            vec![Some((MatchedBy::DayApart, 11, Some(10)))]
        );
        assert_eq!(
            matched(
                &[("2026-03-02", 45_000, "마트"), ("2026-03-02", 45_000, "마트")],
                &[split, exact],
                &[]
            ),
            vec![
                Some((MatchedBy::DayApart, 11, None)),
                Some((MatchedBy::Split, 10, None))
            ]
        );
        // A bank line "카카오뱅크 → 식비" is not the card payment of the same amount.
        let keys = [Some(LineKey::new(
            &postings(&[(FOOD, 45_000), (BANK, -45_000)]),
            &cat,
            day("2026-03-02"),
            "",
            None,
        ))];
        let book = Book {
            entries: &[paid],
            open: &[],
            cat: &cat,
        };
        assert_eq!(match_book(&keys, &book, &BTreeSet::new()), vec![None]);
    }
}
