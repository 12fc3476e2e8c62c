//! Contract tests of a household's month (decision 032): backfills recorded, a
//! retry with the same key replaying across midnight, statement lines matched with
//! the book by data, an overflow that is one entry's error, an ended membership
//! named as such; on every store.

use std::collections::BTreeSet;

use dochiya_ledger::api::ErrorKind;

use super::batches::{batch, counts, entry};
use super::*;

/// A balance from [`balances`] as a number.
fn won(b: &BTreeMap<String, String>, name: &str) -> i64 {
    b.get(name)
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("no balance for {name}: {b:?}"))
}

/// Twelve months of rent and salary backfilled one call at a time within a minute,
/// each with its own key: all 24 recorded (entries on other dates never repeat).
pub async fn monthly_backfill_is_all_recorded<S: Store>(store: S) {
    let (l, clock) = ledger_over(Arc::new(store));
    let me = fresh_person("backfill");
    household(&l, &me).await;
    account(&l, &me, "월세", AccountKind::Expense, None).await;
    let before = balances(&l, &me).await;
    let mut ids = BTreeSet::new();
    // 2025-03 … 2026-02: every date before today (2026-03-15), so all count in balances.
    for i in 0..12 {
        let (y, m) = if i < 10 { (2025, 3 + i) } else { (2026, i - 9) };
        clock.advance_seconds(2);
        let rent = record(
            &l,
            &me,
            tx(
                "카카오뱅크",
                "월세",
                "650000",
                Some(&format!("{y}-{m:02}-05")),
                "월세",
            ),
        )
        .await;
        clock.advance_seconds(2);
        let pay = record(
            &l,
            &me,
            tx(
                "월급",
                "카카오뱅크",
                "3200000",
                Some(&format!("{y}-{m:02}-25")),
                "월급",
            ),
        )
        .await;
        assert!(!rent.replayed && !pay.replayed);
        ids.insert(rent.transaction.transaction_id);
        ids.insert(pay.transaction.transaction_id);
    }
    assert_eq!(ids.len(), 24);
    let after = balances(&l, &me).await;
    assert_eq!(won(&after, "월세"), 12 * 650_000);
    assert_eq!(
        won(&after, "카카오뱅크") - won(&before, "카카오뱅크"),
        12 * (3_200_000 - 650_000)
    );
    assert_eq!(won(&after, "월급") - won(&before, "월급"), 12 * 3_200_000);
}

/// The same key and arguments, the date left out, at 23:57 and again at 00:00 in the
/// vault: the retry replays the entry as recorded (dated the day before); a fresh key
/// then is a probable duplicate (the vault's previous day matches a defaulted date).
pub async fn retry_across_midnight_replays<S: Store>(store: S) {
    let (l, clock) = ledger_over(Arc::new(store));
    let me = fresh_person("midnight");
    household(&l, &me).await;
    // Noon KST + 11:57 is 23:57 on the 15th in Seoul.
    clock.advance_seconds(11 * 3600 + 57 * 60);
    let call = tx("카카오뱅크", "식비", "8000", None, "야식");
    let first = record(&l, &me, call.clone()).await;
    assert_eq!(first.transaction.date.to_string(), "2026-03-15");
    clock.advance_seconds(3 * 60);
    let again = record(&l, &me, call.clone()).await;
    assert_eq!(
        (
            again.replayed,
            again.transaction.transaction_id,
            again.transaction.date.to_string()
        ),
        (true, first.transaction.transaction_id, "2026-03-15".to_string())
    );
    let fresh = NewTransaction {
        idempotency_key: key(),
        memo: Some("야식 (다시)".into()),
        ..call
    };
    let e = call!(l.record_transaction(&me, fresh.clone())).unwrap_err();
    assert!(
        matches!(&e, LedgerError::ProbableDuplicate { earlier_id, earlier_date, earlier_memo, minutes_ago: 3, .. }
            if *earlier_id == first.transaction.transaction_id
                && *earlier_date == date("2026-03-15") && earlier_memo == "야식"),
        "{e:?}"
    );
}

/// Three purchases entered by hand.
async fn hand_entries(l: &Ledger, clock: &ManualClock, me: &PersonId) -> Vec<TransactionId> {
    let mut ids = Vec::new();
    for (to, amount, on, memo) in [
        ("식비", "6500", "2026-03-02", "커피"),
        ("쇼핑", "43700", "2026-03-04", "옷"),
        ("식비", "12000", "2026-03-06", "점심"),
    ] {
        clock.advance_seconds(5);
        ids.push(
            record(l, me, tx("신한카드", to, amount, Some(on), memo))
                .await
                .transaction
                .transaction_id,
        );
    }
    ids
}

/// The card statement: the three hand entries (one posted a day later), a second
/// coffee on the next day, a second identical lunch and a new purchase.
fn card_statement(with_refs: bool) -> Vec<Result<BatchEntry, Unreadable>> {
    [
        ("식비", "6500", "2026-03-02", "스타벅스", "A1"),
        ("식비", "6500", "2026-03-03", "스타벅스", "A2"),
        ("쇼핑", "43700", "2026-03-05", "유니클로", "A3"),
        ("식비", "12000", "2026-03-06", "김밥천국", "A4"),
        ("식비", "12000", "2026-03-06", "김밥천국", "A5"),
        ("쇼핑", "8000", "2026-03-07", "다이소", "A6"),
    ]
    .into_iter()
    .map(|(to, amount, on, memo, r)| entry("신한카드", to, amount, on, memo, with_refs.then_some(r)))
    .collect()
}

/// Each entry's outcome as (status, matched transaction, how).
fn outcomes(r: &BatchRecorded) -> Vec<(String, Option<TransactionId>)> {
    r.results
        .iter()
        .map(|e| match e {
            EntryResult::Recorded {
                transaction_id,
                replayed,
                ..
            } => (format!("recorded replayed={replayed}"), *transaction_id),
            EntryResult::Duplicate(d) => (format!("duplicate {:?}", d.matched_by), Some(d.transaction_id)),
            EntryResult::Failed(e) => (format!("error {e}"), None),
        })
        .collect()
}

fn recorded_at(r: &BatchRecorded, i: usize) -> TransactionId {
    match &r.results[i] {
        EntryResult::Recorded {
            transaction_id: Some(id),
            ..
        } => *id,
        other => panic!("entry {i}: {other:?}"),
    }
}

/// Hand entries, then the card statement with approval numbers: each hand entry is
/// matched once (the same day, or a day apart), the new lines are recorded, the card
/// is exact. The same statement an hour later, with or without refs, records nothing.
pub async fn statement_with_refs_matches_hand_entries<S: Store>(store: S) {
    let (l, clock) = ledger_over(Arc::new(store));
    let me = fresh_person("statement-refs");
    household(&l, &me).await;
    let before = won(&balances(&l, &me).await, "신한카드");
    let hand = hand_entries(&l, &clock, &me).await;
    clock.advance_seconds(60);
    let first = call!(l.record_transactions(&me, batch(card_statement(true), "card-1"))).expect("import");
    let rec = || "recorded replayed=false".to_string();
    let got: Vec<(String, Option<TransactionId>)> = outcomes(&first);
    let new = [1, 4, 5].map(|i| recorded_at(&first, i));
    assert_eq!(
        got,
        vec![
            ("duplicate SameDate".into(), Some(hand[0])),
            (rec(), Some(new[0])),
            ("duplicate DayApart".into(), Some(hand[1])),
            ("duplicate SameDate".into(), Some(hand[2])),
            (rec(), Some(new[1])),
            (rec(), Some(new[2])),
        ]
    );
    // Hand 6,500 + 43,700 + 12,000, then 6,500 + 12,000 + 8,000 from the statement.
    let card = won(&balances(&l, &me).await, "신한카드");
    assert_eq!(card - before, 88_700);
    // An hour later, the same statement again (a new key): nothing recorded.
    clock.advance_seconds(3600);
    let again = call!(l.record_transactions(&me, batch(card_statement(true), "card-2"))).expect("again");
    assert_eq!(
        outcomes(&again),
        vec![
            ("duplicate SameDate".into(), Some(hand[0])),
            ("duplicate ExternalRef".into(), Some(new[0])),
            ("duplicate DayApart".into(), Some(hand[1])),
            ("duplicate SameDate".into(), Some(hand[2])),
            ("duplicate ExternalRef".into(), Some(new[1])),
            ("duplicate ExternalRef".into(), Some(new[2])),
        ]
    );
    let plain = call!(l.record_transactions(&me, batch(card_statement(false), "card-3"))).expect("plain");
    assert_eq!(counts(&plain), (0, 0, 6, 0));
    assert_eq!(won(&balances(&l, &me).await, "신한카드") - before, 88_700);
}

/// Hand entries, then the statement without references: the same matching by data;
/// ten minutes later the same statement (a new key) records nothing; a voided hand
/// entry is no longer matched; allowDuplicate records anyway.
pub async fn statement_without_refs_matches_hand_entries<S: Store>(store: S) {
    let (l, clock) = ledger_over(Arc::new(store));
    let me = fresh_person("statement-plain");
    household(&l, &me).await;
    let before = won(&balances(&l, &me).await, "신한카드");
    let hand = hand_entries(&l, &clock, &me).await;
    clock.advance_seconds(60);
    let first = call!(l.record_transactions(&me, batch(card_statement(false), "plain-1"))).expect("import");
    let statuses: Vec<String> = outcomes(&first).into_iter().map(|(s, _)| s).collect();
    assert_eq!(
        statuses,
        vec![
            "duplicate SameDate",
            "recorded replayed=false",
            "duplicate DayApart",
            "duplicate SameDate",
            "recorded replayed=false",
            "recorded replayed=false",
        ]
    );
    assert_eq!(won(&balances(&l, &me).await, "신한카드") - before, 88_700);
    clock.advance_seconds(600);
    let again = call!(l.record_transactions(&me, batch(card_statement(false), "plain-2"))).expect("again");
    assert_eq!(counts(&again), (0, 0, 6, 0));
    // The same call again with its key replays: nothing new, nothing doubled.
    let replay = call!(l.record_transactions(&me, batch(card_statement(false), "plain-1"))).expect("replay");
    assert_eq!(counts(&replay), (0, 3, 3, 0));
    call!(l.void_transaction(&me, None, hand[1], Some("잘못 입력"))).expect("void");
    let after_void =
        call!(l.record_transactions(&me, batch(card_statement(false)[2..3].to_vec(), "plain-3")))
            .expect("after void");
    assert_eq!(
        counts(&after_void),
        (1, 0, 0, 0),
        "the voided entry absorbs nothing"
    );
    let mut allowed = batch(card_statement(false)[..1].to_vec(), "plain-4");
    allowed.allow_duplicate = true;
    let allowed = call!(l.record_transactions(&me, allowed.clone())).expect("allowed");
    assert_eq!(counts(&allowed), (1, 0, 0, 0));
    // 88,700 − 43,700 voided + 43,700 again + 6,500 allowed.
    assert_eq!(won(&balances(&l, &me).await, "신한카드") - before, 95_200);
}

/// Nine splits of 100 lines of the largest amount from 수입 to 자산, on February 1–9:
/// 9e18 − 900 in 자산 (a ledger allowing 200 lines a transaction).
pub(super) async fn nine_full_splits(l: &Ledger, who: &PersonId) {
    for i in 0..9 {
        let lines = |account: &str| {
            (0..100)
                .map(|_| SplitLine {
                    account: account.into(),
                    amount: d("9999999999999999"),
                })
                .collect::<Vec<_>>()
        };
        call!(l.record_split(
            who,
            NewSplit {
                vault: None,
                from: lines("수입"),
                to: lines("자산"),
                date: Some(date(&format!("2026-02-{:02}", i + 1))),
                memo: Some(format!("채우기 {i}")),
                idempotency_key: key(),
                allow_duplicate: true,
                future_date: false,
                dry_run: false,
                external_ref: None,
                tags: vec![],
                installments: None,
                for_whom: None,
            }
        ))
        .expect("fill");
    }
}

/// An entry that would put a balance past 64 bits is that entry's error; the entries
/// before it are reported as written (and are), the ones after it still decided.
pub async fn overflow_in_the_middle_of_a_batch<S: Store>(store: S) {
    let clock = Arc::new(ManualClock::at_unix_seconds(NOON_KST_2026_03_15));
    let config = LedgerConfig {
        max_postings: 200,
        ..LedgerConfig::default()
    };
    let l = Ledger::new(Arc::new(store), clock.clone(), config);
    let me = fresh_person("batch-overflow");
    vault(&l, &me, "큰돈").await;
    account(&l, &me, "자산", AccountKind::Asset, None).await;
    account(&l, &me, "수입", AccountKind::Income, None).await;
    let max = "9999999999999999";
    nine_full_splits(&l, &me).await;
    // 22 more fit (headroom 2.2337e17), the 23rd does not; a small one after it does.
    let mut entries: Vec<_> = (0..23)
        .map(|i| entry("수입", "자산", max, "2026-03-10", &format!("큰 {i}"), None))
        .collect();
    entries.push(entry("수입", "자산", "1000", "2026-03-10", "작은", None));
    let r = call!(l.record_transactions(&me, batch(entries.clone(), "overflow"))).expect("batch");
    assert_eq!(counts(&r), (23, 0, 0, 1));
    match &r.results[22] {
        EntryResult::Failed(e) => assert!(
            matches!(e, LedgerError::InvalidInput { field: Field::Total, reason: Reason::BalanceWouldOverflow { account: Some(a) } }
                if a == "자산"),
            "{e:?}"
        ),
        other => panic!("entry 22: {other:?}"),
    }
    let expected = 9 * 100 * 9_999_999_999_999_999i64 + 22 * 9_999_999_999_999_999 + 1000;
    assert_eq!(won(&balances(&l, &me).await, "자산"), expected);
    assert_eq!(
        r.balances
            .iter()
            .map(|b| (b.account.clone(), b.balance.to_string()))
            .collect::<Vec<_>>(),
        vec![
            ("자산".to_string(), expected.to_string()),
            ("수입".to_string(), expected.to_string()),
        ]
    );
}

/// A removed member, and one who left, hear "your access to vault X ended on D" on
/// every call that means the vault (named, or the only one they had), never "create a
/// vault"; list_vaults no longer lists it; with a vault of their own, unnamed calls go
/// there and a call naming the old one still hears that it ended.
pub async fn ended_access_is_named_not_hidden<S: Store>(store: S) {
    let (l, _) = ledger_over(Arc::new(store));
    let a = named_person("ended-a", "민지");
    let b = named_person("ended-b", "준호");
    shared_household(&l, &a, &b, Role::Member).await;
    call!(l.remove_member(&a, None, "준호")).expect("remove_member");
    let removed = |e: &LedgerError| {
        matches!(e, LedgerError::AccessEnded { vault, on, removed: true }
            if vault == "가계부" && *on == date("2026-03-15"))
    };
    let listing = |vault: Option<&str>| TransactionQuery {
        vault: vault.map(Into::into),
        account: None,
        from: None,
        to: None,
        text: None,
        limit: None,
        cursor: None,
        include_voided: false,
        tag: None,
        order_recorded: false,
        recorded_by: None,
    };
    let e = call!(l.list_transactions(&b, listing(None))).unwrap_err();
    assert!(removed(&e) && e.kind() == ErrorKind::NotFound, "{e:?}");
    let e = call!(l.record_transaction(&b, tx("카카오뱅크", "식비", "1000", None, "몰래"))).unwrap_err();
    assert!(removed(&e), "{e:?}");
    let e = call!(l.get_balances(&b, Some("가계부"), None)).unwrap_err();
    assert!(removed(&e), "{e:?}");
    assert!(call!(l.list_vaults(&b)).expect("list_vaults").vaults.is_empty());
    // With a book of their own, unnamed calls go there; the old name still says it ended.
    vault(&l, &b, "내 가계부").await;
    call!(l.list_transactions(&b, listing(None))).expect("own vault");
    let e = call!(l.list_transactions(&b, listing(Some("가계부")))).unwrap_err();
    assert!(removed(&e), "{e:?}");

    // One who leaves hears that they left.
    let c = named_person("ended-c", "서연");
    let invite = call!(l.share_vault(&a, None, Role::Member)).expect("share");
    call!(l.join_vault(&c, &invite.invite_code, None)).expect("join");
    call!(l.leave_vault(&c, None)).expect("leave");
    let e = call!(l.get_balances(&c, None, None)).unwrap_err();
    assert!(
        matches!(&e, LedgerError::AccessEnded { vault, on, removed: false }
            if vault == "가계부" && *on == date("2026-03-15")),
        "{e:?}"
    );
    // Invited again, the vault is theirs again.
    let again = call!(l.share_vault(&a, None, Role::Member)).expect("share again");
    call!(l.join_vault(&c, &again.invite_code, None)).expect("rejoin");
    call!(l.get_balances(&c, None, None)).expect("rejoined");
}

/// The contract tests of this file, instantiated by [`crate::ledger_contract_tests!`]
/// for every store: a test is registered here, beside its code.
#[doc(hidden)]
#[macro_export]
macro_rules! __ledger_suite_statements {
    ($factory:expr) => {
        $crate::__ledger_contract_tests!(
            $factory;
            monthly_backfill_is_all_recorded,
            retry_across_midnight_replays,
            statement_with_refs_matches_hand_entries,
            statement_without_refs_matches_hand_entries,
            overflow_in_the_middle_of_a_batch,
            ended_access_is_named_not_hidden,
        );
    };
}
