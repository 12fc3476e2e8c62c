//! Contract tests of card statements against a book that already holds their lines in
//! another shape (decision 047): a payment the book split over three categories, one
//! entered under another category, the 할부 parts the book derives from its
//! installment purchases; and a line that matches two entries. On every store.

use super::batches::{batch, counts, entry};
use super::cards::{bill, book, buy, card, cycle, item, items_of, purchase, sums};
use super::*;

/// Each entry's outcome as (status and how, the transaction, what else it matches).
fn outcomes(r: &BatchRecorded) -> Vec<(String, Option<TransactionId>, Option<TransactionId>)> {
    r.results
        .iter()
        .map(|e| match e {
            EntryResult::Recorded {
                transaction_id,
                replayed,
                ..
            } => (format!("recorded replayed={replayed}"), *transaction_id, None),
            EntryResult::Duplicate(d) => (
                format!("duplicate {:?}", d.matched_by),
                Some(d.transaction_id),
                d.also,
            ),
            EntryResult::Failed(e) => (format!("error {e}"), None, None),
        })
        .collect()
}

/// A card payment split over several categories.
fn split(card: &str, total: &str, to: &[(&str, &str)], on: &str, memo: &str) -> NewSplit {
    NewSplit {
        from: vec![SplitLine {
            account: card.into(),
            amount: d(total),
        }],
        to: to
            .iter()
            .map(|(account, amount)| SplitLine {
                account: (*account).into(),
                amount: d(amount),
            })
            .collect(),
        ..purchase(card, "식비", total, on, memo, None)
    }
}

/// The January statement of 신한카드 (period 2025-12-01 … 12-31, due 2026-01-14).
fn january_statement() -> Vec<Result<BatchEntry, Unreadable>> {
    vec![
        entry("신한카드", "식비", "112800", "2025-12-06", "이마트", None),
        // Posted a day late, under another category than the hand entry.
        entry("신한카드", "식비", "6500", "2025-12-11", "스타벅스", None),
        // A part listed under its purchase date, and one under the due date.
        entry(
            "신한카드",
            "가전",
            "300000",
            "2025-11-20",
            "삼성 TV 할부 2/3",
            None,
        ),
        entry(
            "신한카드",
            "가전",
            "100000",
            "2026-01-14",
            "노트북 3/12회차",
            None,
        ),
        entry("신한카드", "쇼핑", "8000", "2025-12-20", "다이소", None),
    ]
}

/// The book holds 이마트 112,800 split into 장보기 / 육아 / 생활, 스타벅스 as 카페, and
/// a TV in 3 and a laptop in 12 parts. The January statement lists each of them: the
/// dry run and the real call both report them duplicate (split, otherCategory,
/// installment ×2), only 다이소 is recorded, and the bill and the spending stay as
/// they were plus 다이소. The same statement again records nothing.
pub async fn statement_lines_match_splits_and_installment_parts<S: Store>(store: S) {
    let (l, _clock) = ledger_over(Arc::new(store));
    let me = fresh_person("statement-splits");
    book(&l, &me).await;
    for name in ["장보기", "육아", "생활", "카페"] {
        account(&l, &me, name, AccountKind::Expense, None).await;
    }
    card(&l, &me, "신한카드", Some(cycle(31, 14))).await;
    let laptop = buy(
        &l,
        &me,
        purchase("신한카드", "가전", "1200000", "2025-10-15", "노트북", Some(12)),
    )
    .await;
    let tv = buy(
        &l,
        &me,
        purchase("신한카드", "가전", "900000", "2025-11-20", "삼성 TV", Some(3)),
    )
    .await;
    let emart = buy(
        &l,
        &me,
        split(
            "신한카드",
            "112800",
            &[("장보기", "50000"), ("육아", "40000"), ("생활", "22800")],
            "2025-12-06",
            "이마트",
        ),
    )
    .await;
    let cafe = buy(
        &l,
        &me,
        purchase("신한카드", "카페", "6500", "2025-12-10", "스타벅스", None),
    )
    .await;
    let id = |r: &Recorded| Some(r.transaction.transaction_id);
    let before = balances(&l, &me).await;
    let january = bill(&l, &me, "신한카드", Some("2026-01")).await;
    // 100,000 (노트북 3/12) + 300,000 (TV 2/3) + 112,800 + 6,500.
    assert_eq!(sums(&january).0, "519300");
    let expected = |last: (String, Option<TransactionId>, Option<TransactionId>)| {
        vec![
            ("duplicate Split".to_string(), id(&emart), None),
            ("duplicate OtherCategory".to_string(), id(&cafe), None),
            ("duplicate Installment".to_string(), id(&tv), None),
            ("duplicate Installment".to_string(), id(&laptop), None),
            last,
        ]
    };
    let mut preview = batch(january_statement(), "jan-1");
    preview.dry_run = true;
    let dry = call!(l.record_transactions(&me, preview.clone())).expect("dry run");
    assert_eq!(
        outcomes(&dry),
        expected(("recorded replayed=false".into(), None, None))
    );
    let real = call!(l.record_transactions(&me, batch(january_statement(), "jan-1"))).expect("import");
    let daiso = outcomes(&real)[4].1;
    assert!(daiso.is_some());
    assert_eq!(
        outcomes(&real),
        expected(("recorded replayed=false".into(), daiso, None))
    );
    // Only 다이소 was recorded: the card owes 8,000 more, 가전 and 식비 are as they were.
    let after = balances(&l, &me).await;
    let moved = |name: &str| {
        let n = |b: &BTreeMap<String, String>| b[name].parse::<i64>().expect("a number");
        n(&after) - n(&before)
    };
    assert_eq!(
        ["신한카드", "가전", "식비", "쇼핑", "장보기", "카페"].map(moved),
        [8000, 0, 0, 8000, 0, 0]
    );
    let january = bill(&l, &me, "신한카드", Some("2026-01")).await;
    assert_eq!(
        items_of(&january),
        vec![
            item("2025-10-15", "노트북", "100000", Some((3, 12))),
            item("2025-11-20", "삼성 TV", "300000", Some((2, 3))),
            item("2025-12-06", "이마트", "112800", None),
            item("2025-12-10", "스타벅스", "6500", None),
            item("2025-12-20", "다이소", "8000", None),
        ]
    );
    assert_eq!(sums(&january).0, "527300");
    // The same statement again (a new key): every line is in the book now.
    let again = call!(l.record_transactions(&me, batch(january_statement(), "jan-2"))).expect("again");
    assert_eq!(
        outcomes(&again),
        expected(("duplicate SameDate".into(), daiso, None))
    );
    assert_eq!(balances(&l, &me).await, after);
}

/// One line, two entries it matches (the book holds the purchase twice: as a split
/// and as a simple entry): reported against the earlier recorded, naming the other,
/// nothing recorded. Two such lines take one entry each and name nothing else.
pub async fn a_line_matching_two_entries_names_both<S: Store>(store: S) {
    let (l, _clock) = ledger_over(Arc::new(store));
    let me = fresh_person("statement-twice");
    book(&l, &me).await;
    card(&l, &me, "신한카드", None).await;
    let first = buy(
        &l,
        &me,
        split(
            "신한카드",
            "45000",
            &[("식비", "30000"), ("쇼핑", "15000")],
            "2026-03-02",
            "마트",
        ),
    )
    .await;
    let second = buy(
        &l,
        &me,
        purchase("신한카드", "쇼핑", "45000", "2026-03-02", "마트", None),
    )
    .await;
    let (first, second) = (
        first.transaction.transaction_id,
        second.transaction.transaction_id,
    );
    let before = balances(&l, &me).await;
    let line = || entry("신한카드", "식비", "45000", "2026-03-02", "마트", None);
    let one = call!(l.record_transactions(&me, batch(vec![line()], "twice-1"))).expect("one line");
    assert_eq!(
        outcomes(&one),
        vec![("duplicate Split".to_string(), Some(first), Some(second))]
    );
    let two = call!(l.record_transactions(&me, batch(vec![line(), line()], "twice-2"))).expect("two lines");
    assert_eq!(
        outcomes(&two),
        vec![
            ("duplicate Split".to_string(), Some(first), None),
            ("duplicate OtherCategory".to_string(), Some(second), None),
        ]
    );
    assert_eq!(counts(&two), (0, 0, 2, 0));
    assert_eq!(balances(&l, &me).await, before);
}

/// What matching reads: a statement without 할부 lines reads what it read before; a
/// line naming a part adds one query (the open installment purchases) to the same
/// single read round.
pub async fn statement_reads_open_installments_only_for_a_part<S: Store>(store: S) {
    let store: Arc<dyn Store> = Arc::new(store);
    let counting = Arc::new(CountingStore::from_arc(store));
    let (l, _clock) = ledger_over(counting.clone());
    let me = fresh_person("statement-reads");
    book(&l, &me).await;
    card(&l, &me, "신한카드", Some(cycle(31, 14))).await;
    let tv = buy(
        &l,
        &me,
        purchase("신한카드", "가전", "900000", "2025-11-20", "삼성 TV", Some(3)),
    )
    .await;
    let preview = |memo: &str, key: &str| NewBatch {
        dry_run: true,
        ..batch(
            vec![entry("신한카드", "가전", "300000", "2026-01-14", memo, None)],
            key,
        )
    };
    let (plain, without) = shape_of(
        &counting,
        l.record_transactions(&me, preview("삼성 TV", "reads-1")),
    )
    .await;
    let (part, with) = shape_of(
        &counting,
        l.record_transactions(&me, preview("삼성 TV 할부 2/3", "reads-2")),
    )
    .await;
    assert_eq!(
        (outcomes(&without), outcomes(&with)),
        (
            vec![("recorded replayed=false".to_string(), None, None)],
            vec![(
                "duplicate Installment".to_string(),
                Some(tv.transaction.transaction_id),
                None
            )]
        )
    );
    // (queries, gets, get_manys, writes, read rounds): the accounts, the later
    // entries and the book's one date range, the records and guards with the roster
    // version; then the same and the open purchases.
    assert_eq!((plain, part), ((3, 0, 2, 0, 1), (4, 0, 2, 0, 1)));
}

/// The contract tests of this file, instantiated by [`crate::ledger_contract_tests!`]
/// for every store: a test is registered here, beside its code.
#[doc(hidden)]
#[macro_export]
macro_rules! __ledger_suite_card_statements {
    ($factory:expr) => {
        $crate::__ledger_contract_tests!(
            $factory;
            statement_lines_match_splits_and_installment_parts,
            a_line_matching_two_entries_names_both,
            statement_reads_open_installments_only_for_a_part,
        );
    };
}
