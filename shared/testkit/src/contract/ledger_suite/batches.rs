//! Contract tests of `record_transactions` (batches): each entry exactly once,
//! externalRef unique per vault, retries after failures, dry runs, on every store.

use super::*;
use dochiya_ledger::api::Field;

/// A batch entry as the tools hand it over: read, or why not.
type EntryInput = Result<BatchEntry, Unreadable>;

/// A batch entry from `from` to `to` on `on`, with an optional reference.
pub(super) fn entry(
    from: &str,
    to: &str,
    amount: &str,
    on: &str,
    memo: &str,
    external_ref: Option<&str>,
) -> EntryInput {
    Ok(BatchEntry {
        from: from.into(),
        to: to.into(),
        amount: d(amount),
        date: Some(date(on)),
        memo: Some(memo.into()),
        external_ref: external_ref.map(Into::into),
        lines: None,
        tags: vec![],
        installments: None,
        for_whom: None,
    })
}

/// `n` card purchases (approval numbers `{tag}-0`…), spread over March, 1,000 won apart.
fn statement(tag: &str, n: usize) -> Vec<EntryInput> {
    (0..n)
        .map(|i| {
            let to = if i % 3 == 0 { "쇼핑" } else { "식비" };
            let day = format!("2026-03-{:02}", 1 + i % 14);
            let amount = (1000 * (i + 1)).to_string();
            let r = format!("{tag}-{i}");
            entry("신한카드", to, &amount, &day, &format!("가맹점 {i}"), Some(&r))
        })
        .collect()
}

pub(super) fn batch(entries: Vec<EntryInput>, idempotency_key: &str) -> NewBatch {
    NewBatch {
        vault: None,
        entries,
        idempotency_key: idempotency_key.into(),
        allow_duplicate: false,
        dry_run: false,
    }
}

/// (recorded, replayed, duplicate, failed) of a batch's results.
pub(super) fn counts(r: &BatchRecorded) -> (usize, usize, usize, usize) {
    let mut c = (0, 0, 0, 0);
    for e in &r.results {
        match e {
            EntryResult::Recorded { replayed: false, .. } => c.0 += 1,
            EntryResult::Recorded { replayed: true, .. } => c.1 += 1,
            EntryResult::Duplicate(_) => c.2 += 1,
            EntryResult::Failed(_) => c.3 += 1,
        }
    }
    c
}

fn recorded_ids(r: &BatchRecorded) -> Vec<Option<TransactionId>> {
    r.results
        .iter()
        .map(|e| match e {
            EntryResult::Recorded { transaction_id, .. } => *transaction_id,
            _ => None,
        })
        .collect()
}

fn batch_balances(r: &BatchRecorded) -> BTreeMap<String, String> {
    r.balances
        .iter()
        .map(|b| (b.account.clone(), b.balance.to_string()))
        .collect()
}

fn sum_won(n: usize, pick: impl Fn(usize) -> bool) -> i64 {
    (0..n).filter(|i| pick(*i)).map(|i| 1000 * (i as i64 + 1)).sum()
}

/// A 100-entry batch: every entry once, results in input order, balances exact;
/// the same call again replays all; the same key with other entries is refused.
pub async fn batch_of_a_hundred_each_once<S: Store>(store: S) {
    let counting = Arc::new(CountingStore::new(store));
    let (l, _) = ledger_over(counting.clone());
    let me = fresh_person("batch-100");
    household(&l, &me).await;
    let before = all_transactions(&l, &me).await.len();
    let b = batch(statement("승인", 100), "statement-2026-03");

    counting.reset();
    let first = call!(l.record_transactions(&me, b.clone())).expect("batch");
    let c = counting.take();
    assert_eq!(counts(&first), (100, 0, 0, 0));
    // One read round for every entry (the accounts, the entries dated after today
    // for the balances shown, the book's entries within a day of the batch's dates),
    // then one atomic write per entry.
    assert_eq!((c.read_rounds, c.queries, c.writes), (1, 3, 100));
    let ids = recorded_ids(&first);
    assert!(ids.iter().all(Option::is_some));
    let txs = all_transactions(&l, &me).await;
    assert_eq!(txs.len(), before + 100);
    for (i, id) in ids.iter().enumerate() {
        let t = txs
            .iter()
            .find(|t| Some(t.transaction_id) == *id)
            .expect("listed");
        assert_eq!(t.memo, format!("가맹점 {i}"), "entry {i} in input order");
    }
    // 신한카드 owed 300,000 − 200,000 − 50,000 = 50,000 before; 식비 12,000; 쇼핑 250,000.
    let card = 50_000 + sum_won(100, |_| true);
    let food = 12_000 + sum_won(100, |i| i % 3 != 0);
    let shop = 250_000 + sum_won(100, |i| i % 3 == 0);
    let expected = BTreeMap::from([
        ("신한카드".to_string(), card.to_string()),
        ("식비".to_string(), food.to_string()),
        ("쇼핑".to_string(), shop.to_string()),
    ]);
    assert_eq!(batch_balances(&first), expected);
    let listed = balances(&l, &me).await;
    for (name, bal) in &expected {
        assert_eq!(listed.get(name), Some(bal), "{name}");
    }

    let again = call!(l.record_transactions(&me, b.clone())).expect("retry");
    assert_eq!(counts(&again), (0, 100, 0, 0));
    assert_eq!(recorded_ids(&again), ids);
    assert_eq!(batch_balances(&again), expected);
    assert_eq!(all_transactions(&l, &me).await.len(), before + 100);

    let mut changed = b.clone();
    changed.entries[99] = entry("신한카드", "식비", "777", "2026-03-20", "다른 것", None);
    match call!(l.record_transactions(&me, changed.clone())) {
        Err(LedgerError::IdempotencyKeyReused { key }) => assert_eq!(key, "statement-2026-03"),
        other => panic!("expected IdempotencyKeyReused, got {other:?}"),
    }
    assert_eq!(all_transactions(&l, &me).await.len(), before + 100);
}

/// A failure at the Nth write stops the call; the retry records the rest, each
/// entry exactly once, whether the failed write was lost or landed.
pub async fn batch_retry_after_failure_records_each_once<S: Store>(store: S) {
    let failing = Arc::new(FailingStore::new(store));
    let (l, clock) = ledger_over(failing.clone());
    let me = fresh_person("batch-fail");
    household(&l, &me).await;
    let before = all_transactions(&l, &me).await.len();

    for (round, how) in [InjectedFailure::Transient, InjectedFailure::TransientAfterApply]
        .into_iter()
        .enumerate()
    {
        let b = batch(statement(&format!("r{round}"), 30), &format!("fail-{round}"));
        // Each call at its own millisecond, as in life: ids are the time and 20 random
        // bits, and on a stopped clock two calls' ids can collide (the store's guard
        // refuses the second, the batch is decided again, and the injected failure
        // lands on another write than the one this test counts on).
        clock.advance_seconds(1);
        failing.fail_nth_write(12, how);
        let e = l.record_transactions(&me, b.clone()).await.unwrap_err();
        assert!(matches!(e, LedgerError::Transient(_)), "{e:?}");
        let landed = if how == InjectedFailure::Transient { 11 } else { 12 };
        assert_eq!(
            all_transactions(&l, &me).await.len(),
            before + 30 * round + landed,
            "{how:?}"
        );
        clock.advance_seconds(1);
        let retried = call!(l.record_transactions(&me, b.clone())).expect("retry");
        assert_eq!(counts(&retried), (30 - landed, landed, 0, 0), "{how:?}");
        let txs = all_transactions(&l, &me).await;
        assert_eq!(txs.len(), before + 30 * (round + 1), "{how:?}");
        for i in 0..30 {
            let memo = format!("가맹점 {i}");
            let n = txs
                .iter()
                .filter(|t| t.memo == memo && t.date == date(&format!("2026-03-{:02}", 1 + i % 14)))
                .count();
            assert_eq!(n, round + 1, "entry {i} once per round ({how:?})");
        }
    }
    let card = 50_000 + 2 * sum_won(30, |_| true);
    assert_eq!(balances(&l, &me).await.get("신한카드"), Some(&card.to_string()));
}

/// Overlapping batches and single calls share one externalRef namespace per vault.
pub async fn batches_share_external_refs<S: Store>(store: S) {
    let (l, _) = ledger_over(Arc::new(store));
    let me = fresh_person("batch-refs");
    household(&l, &me).await;
    let first = call!(l.record_transactions(&me, batch(statement("x", 10), "first"))).expect("first");
    assert_eq!(counts(&first), (10, 0, 0, 0));
    let first_ids = recorded_ids(&first);

    // Entries 5–14 again, by approval number, in another batch (another key):
    // 5–9 are duplicates of the first batch's entries, 10–14 are new.
    let overlap: Vec<EntryInput> = statement("x", 15).into_iter().skip(5).collect();
    let second = call!(l.record_transactions(&me, batch(overlap.clone(), "second"))).expect("second");
    assert_eq!(counts(&second), (5, 0, 5, 0));
    for (i, r) in second.results.iter().take(5).enumerate() {
        match r {
            EntryResult::Duplicate(Duplicate {
                transaction_id,
                matched_by: MatchedBy::ExternalRef,
                also: None,
            }) => assert_eq!(Some(*transaction_id), first_ids[5 + i]),
            other => panic!("entry {i}: expected a duplicate by externalRef, got {other:?}"),
        }
    }

    // One reference twice in one batch: the second is its duplicate.
    let twice = vec![
        entry("현금", "식비", "4500", "2026-03-15", "커피", Some("y-1")),
        entry("현금", "식비", "4600", "2026-03-15", "커피 다시", Some("y-1")),
    ];
    let r = call!(l.record_transactions(&me, batch(twice.clone(), "twice"))).expect("twice");
    let id = recorded_ids(&r)[0].expect("first recorded");
    assert!(matches!(
        &r.results[1],
        EntryResult::Duplicate(Duplicate { transaction_id, matched_by: MatchedBy::ExternalRef, .. }) if *transaction_id == id
    ));
    // The same two lines in a later statement: the book holds the reference, so both
    // are its duplicates (the second used to fail the whole call on the claim).
    let again = call!(l.record_transactions(&me, batch(twice.clone(), "twice-again"))).expect("twice again");
    assert_eq!(counts(&again), (0, 0, 2, 0));
    for r in &again.results {
        assert!(matches!(
            r,
            EntryResult::Duplicate(Duplicate { transaction_id, matched_by: MatchedBy::ExternalRef, also: None }) if *transaction_id == id
        ));
    }

    // A single record_transaction with a reference a batch used is refused, naming the entry…
    let mut single = tx("신한카드", "식비", "1000", Some("2026-03-01"), "가맹점 0");
    single.external_ref = Some("x-0".into());
    match call!(l.record_transaction(&me, single.clone())) {
        Err(LedgerError::ExternalRefTaken {
            external_ref,
            transaction_id,
        }) => {
            assert_eq!(
                (external_ref.as_str(), Some(transaction_id)),
                ("x-0", first_ids[0])
            )
        }
        other => panic!("expected ExternalRefTaken, got {other:?}"),
    }
    // …and a batch entry repeating a single call's reference is its duplicate.
    let mut single = tx("현금", "쇼핑", "8000", Some("2026-03-15"), "문구");
    single.external_ref = Some("z-1".into());
    let s = record(&l, &me, single).await;
    let r = call!(l.record_transactions(
        &me,
        batch(
            vec![entry("현금", "쇼핑", "8000", "2026-03-15", "문구", Some("z-1"))],
            "after-single"
        )
    ))
    .expect("after single");
    assert!(matches!(
        &r.results[0],
        EntryResult::Duplicate(Duplicate { transaction_id, matched_by: MatchedBy::ExternalRef, .. })
            if *transaction_id == s.transaction.transaction_id
    ));
    // References are per vault: another vault of the same person takes "x-0".
    vault(&l, &me, "여행").await;
    call!(l.create_account(
        &me,
        NewAccount {
            vault: Some("여행".into()),
            name: "현금".into(),
            kind: AccountKind::Asset,
            opening_balance: None,
            opening_date: None,
            parent: None,
            billing: None,
            owner: None,
        }
    ))
    .expect("account");
    call!(l.create_account(
        &me,
        NewAccount {
            vault: Some("여행".into()),
            name: "식비".into(),
            kind: AccountKind::Expense,
            opening_balance: None,
            opening_date: None,
            parent: None,
            billing: None,
            owner: None,
        }
    ))
    .expect("account");
    let mut other = batch(
        vec![entry(
            "현금",
            "식비",
            "1000",
            "2026-03-01",
            "가맹점 0",
            Some("x-0"),
        )],
        "other-vault",
    );
    other.vault = Some("여행".into());
    let r = call!(l.record_transactions(&me, other.clone())).expect("other vault");
    assert_eq!(counts(&r), (1, 0, 0, 0));
}

/// A batch entry and a concurrent single record_transaction with the same
/// externalRef: exactly one transaction, whichever wins.
pub async fn concurrent_single_and_batch_one_entry_per_ref<S: Store>(store: S) {
    let (l, _) = ledger_over(Arc::new(store));
    let me = fresh_person("batch-race");
    household(&l, &me).await;
    for round in 0..5 {
        let r = format!("race-{round}");
        let memo = format!("경합 {round}");
        let mut entries = statement(&format!("other-{round}"), 4);
        entries.push(entry("신한카드", "식비", "9900", "2026-03-15", &memo, Some(&r)));
        let mut single = tx("신한카드", "식비", "9900", Some("2026-03-15"), &memo);
        single.external_ref = Some(r.clone());
        let (b, s) = tokio::join!(
            async { call!(l.record_transactions(&me, batch(entries.clone(), &format!("race-{round}")))) },
            async { call!(l.record_transaction(&me, single.clone())) }
        );
        let b = b.expect("batch");
        let won_single = match s {
            Ok(rec) => Some(rec.transaction.transaction_id),
            Err(LedgerError::ExternalRefTaken { .. }) => None,
            Err(other) => panic!("single: {other:?}"),
        };
        match (&b.results[4], won_single) {
            (EntryResult::Recorded { replayed: false, .. }, None) => {}
            (
                EntryResult::Duplicate(Duplicate {
                    transaction_id,
                    matched_by: MatchedBy::ExternalRef,
                    also: None,
                }),
                Some(id),
            ) => {
                assert_eq!(*transaction_id, id)
            }
            (other, single) => panic!("round {round}: batch {other:?}, single {single:?}"),
        }
        let n = all_transactions(&l, &me)
            .await
            .iter()
            .filter(|t| t.memo == memo)
            .count();
        assert_eq!(n, 1, "round {round}: one entry for {r}");
    }
}

/// dryRun checks every entry and reports every problem, writing nothing; two identical
/// lines without references are two purchases.
pub async fn batch_dry_run_reports_every_problem<S: Store>(store: S) {
    let (l, _) = ledger_over(Arc::new(store));
    let me = fresh_person("batch-dry");
    household(&l, &me).await;
    let before_tx = all_transactions(&l, &me).await.len();
    let before = balances(&l, &me).await;
    let entries = vec![
        entry("신한카드", "식비", "8000", "2026-03-15", "점심", Some("d-1")),
        entry("신한카드", "외식", "8000", "2026-03-15", "저녁", Some("d-2")),
        entry("신한카드", "식비", "0", "2026-03-15", "영", None),
        entry("신한카드", "식비", "12.5", "2026-03-15", "소수", None),
        Err(Unreadable {
            field: Field::Date,
            message: "\"2026-02-30\" is not a real date".into(),
            sent: None,
        }),
        entry("신한카드", "식비", "3000", "2026-03-15", "중복 참조", Some("d-1")),
        entry("현금", "쇼핑", "5000", "2026-03-15", "같은 내용", None),
        entry("현금", "쇼핑", "5000", "2026-03-15", "같은 내용", None),
        entry("신한카드", "신한카드", "5000", "2026-03-15", "같은 계정", None),
    ];
    let mut b = batch(entries, "dry");
    b.dry_run = true;
    let r = call!(l.record_transactions(&me, b.clone())).expect("dry run");
    assert!(r.dry_run);
    let messages: Vec<String> = r
        .results
        .iter()
        .map(|e| match e {
            EntryResult::Recorded {
                transaction_id: None,
                replayed: false,
                current: None,
                ..
            } => "ok".to_string(),
            EntryResult::Duplicate(d) => format!("duplicate {:?}", d.matched_by),
            EntryResult::Failed(LedgerError::InvalidInput { field, reason }) => {
                format!("{field:?}: {reason:?}")
            }
            EntryResult::Failed(LedgerError::NotFound {
                what,
                name,
                within,
                candidates,
            }) => format!("{what:?} {name:?} not found in {within:?}, candidates {candidates:?}"),
            other => panic!("a dry run records nothing: {other:?}"),
        })
        .collect();
    assert_eq!(
        messages,
        vec![
            "ok".to_string(),
            r#"Account "외식" not found in Some("vault \"가계부\""), candidates []"#.into(),
            "LineAmount { side: From, index: 0 }: ZeroAmount".into(),
            r#"LineAmount { side: To, index: 0 }: Parse(ParseError { message: "12.5 has more decimals than the currency allows: KRW has no minor unit, so amounts are whole numbers; amounts are never rounded, so send the exact amount" })"#.into(),
            r#"Date: Caller("\"2026-02-30\" is not a real date")"#.into(),
            "duplicate ExternalRef".into(),
            "ok".into(),
            "ok".into(),
            r#"LineAccount { side: From, index: 0 }: BothSides { account: "신한카드", recurring: false }"#.into(),
        ]
    );
    // What the three good entries would do: 신한카드 50,000 + 8,000; 식비 12,000 + 8,000; 현금 100,000 − 2 × 5,000.
    assert_eq!(
        batch_balances(&r),
        BTreeMap::from([
            ("신한카드".to_string(), "58000".to_string()),
            ("식비".to_string(), "20000".to_string()),
            ("현금".to_string(), "90000".to_string()),
            ("쇼핑".to_string(), "260000".to_string()),
        ])
    );
    assert_eq!(all_transactions(&l, &me).await.len(), before_tx);
    assert_eq!(balances(&l, &me).await, before);

    // For real, the same decisions; entries repeating the book pass with allowDuplicate.
    b.dry_run = false;
    let real = call!(l.record_transactions(&me, b.clone())).expect("real");
    assert_eq!(counts(&real), (3, 0, 1, 5));
    assert_eq!(all_transactions(&l, &me).await.len(), before_tx + 3);
    let mut allowed = batch(
        vec![
            entry("현금", "쇼핑", "5000", "2026-03-15", "같은 내용", None),
            entry("현금", "쇼핑", "5000", "2026-03-15", "같은 내용", None),
        ],
        "allowed",
    );
    allowed.allow_duplicate = true;
    let r = call!(l.record_transactions(&me, allowed.clone())).expect("allowed");
    assert_eq!(counts(&r), (2, 0, 0, 0));
    // Bounds before any work: no entries, too many entries.
    for n in [0, 101] {
        let e = call!(l.record_transactions(&me, batch(statement("n", n), "bounds"))).unwrap_err();
        let why = Reason::BatchSize { max: 100, got: n };
        assert!(
            matches!(&e, LedgerError::InvalidInput { field: Field::Entries, reason } if *reason == why),
            "{e:?}"
        );
    }
}

/// The contract tests of this file, instantiated by [`crate::ledger_contract_tests!`]
/// for every store: a test is registered here, beside its code.
#[doc(hidden)]
#[macro_export]
macro_rules! __ledger_suite_batches {
    ($factory:expr) => {
        $crate::__ledger_contract_tests!(
            $factory;
            batch_of_a_hundred_each_once,
            batch_retry_after_failure_records_each_once,
            batches_share_external_refs,
            concurrent_single_and_batch_one_entry_per_ref,
            batch_dry_run_reports_every_problem,
        );
    };
}
