//! Contract tests of what writes tell a model: voided entries in listings,
//! replays that show the entry as it is now, notes on unusual directions, the
//! duplicate guard by the clock, dry-run previews; on every store.

use super::*;

/// Listings leave voided entries out unless asked; shown, they carry why, when and who.
pub async fn listings_leave_voided_entries_out_unless_asked<S: Store>(store: S) {
    let (l, clock) = ledger_over(Arc::new(store));
    let me = named_person("list-voided", "지은");
    household(&l, &me).await;
    clock.advance_seconds(1);
    let wrong = record(
        &l,
        &me,
        tx("카카오뱅크", "식비", "15000", Some("2026-03-15"), "회식"),
    )
    .await;
    let id = wrong.transaction.transaction_id;
    clock.advance_seconds(60);
    call!(l.void_transaction(&me, None, id, Some("잘못 입력"))).expect("void");
    let list = |include_voided, limit| {
        l.list_transactions(
            &me,
            TransactionQuery {
                include_voided,
                limit,
                ..Default::default()
            },
        )
    };
    let default = call!(list(false, None)).expect("list");
    assert_eq!(
        default.transactions.len(),
        7,
        "six entries and the opening balance"
    );
    assert!(default.transactions.iter().all(|t| t.transaction_id != id));
    // A page of one that would have been the voided entry skips it and still pages on.
    let first = call!(list(false, Some(1))).expect("page");
    assert_eq!(first.transactions, default.transactions[..1]);
    assert!(first.next_cursor.is_some());
    let all = call!(list(true, None)).expect("with voided");
    assert_eq!(all.transactions.len(), 8);
    let shown = &all.transactions[0];
    assert_eq!(shown.transaction_id, id);
    assert!(shown.voided);
    assert_eq!(
        (
            shown.void_reason.as_deref(),
            shown.voided_at.map(|t| t.as_second()),
            shown.voided_by.as_deref()
        ),
        (Some("잘못 입력"), Some(NOON_KST_2026_03_15 + 61), Some("지은"))
    );
    let got = call!(l.get_transaction(&me, None, id)).expect("get");
    assert_eq!(
        &got.transaction, shown,
        "the listing shows what get_transaction shows"
    );
    // A cursor belongs to its own listing: one with voided entries is another listing.
    let c = call!(list(true, Some(1)))
        .expect("page")
        .next_cursor
        .expect("more");
    let e = call!(l.list_transactions(
        &me,
        TransactionQuery {
            cursor: Some(c.clone()),
            limit: Some(1),
            ..Default::default()
        }
    ))
    .unwrap_err();
    assert!(
        e.to_string()
            .starts_with("The cursor was not made by this listing"),
        "{e}"
    );
}

/// A replay says so and, when the entry was voided or edited since, also shows it as it
/// is now: for record_transaction, record_split_transaction and each batch entry.
pub async fn replays_show_the_entry_as_it_is_now<S: Store>(store: S) {
    let (l, clock) = ledger_over(Arc::new(store));
    let me = named_person("replay-now", "민수");
    household(&l, &me).await;
    clock.advance_seconds(1);
    let lunch = tx("카카오뱅크", "식비", "9000", None, "점심");
    let first = record(&l, &me, lunch.clone()).await;
    let id = first.transaction.transaction_id;
    let same = record(&l, &me, lunch.clone()).await;
    assert_eq!(
        (same.replayed, &same.current),
        (true, &None),
        "unchanged: no current"
    );
    assert_eq!(same.transaction, first.transaction);

    clock.advance_seconds(1);
    let fixed = edit(
        &l,
        &me,
        TransactionEdit {
            amount: Some(d("9500")),
            ..edit_of(id)
        },
    )
    .await
    .expect("edit");
    let after_edit = record(&l, &me, lunch.clone()).await;
    assert!(after_edit.replayed);
    assert_eq!(
        after_edit.transaction, first.transaction,
        "the stored result as it was"
    );
    let now = after_edit.current.expect("changed since");
    assert_eq!((now.version, now.voided), (2, false));
    assert_eq!(now.postings[0].amount.to_string(), "9500");
    assert_eq!(now.postings, fixed.transaction.postings);

    clock.advance_seconds(1);
    call!(l.void_transaction(&me, None, id, Some("취소"))).expect("void");
    let after_void = record(&l, &me, lunch.clone()).await;
    let now = after_void.current.expect("voided since");
    assert_eq!(
        (
            now.voided,
            now.version,
            now.void_reason.as_deref(),
            now.voided_by.as_deref()
        ),
        (true, 2, Some("취소"), Some("민수"))
    );
    // A dry run of the same key answers the same, and so does a split.
    let dry = record(
        &l,
        &me,
        NewTransaction {
            dry_run: true,
            ..lunch.clone()
        },
    )
    .await;
    assert_eq!(dry.current.map(|t| t.voided), Some(true));
    clock.advance_seconds(1);
    let split = NewSplit {
        vault: None,
        from: vec![SplitLine {
            account: "카카오뱅크".into(),
            amount: d("30000"),
        }],
        to: vec![
            SplitLine {
                account: "식비".into(),
                amount: d("20000"),
            },
            SplitLine {
                account: "쇼핑".into(),
                amount: d("10000"),
            },
        ],
        date: None,
        memo: Some("마트".into()),
        idempotency_key: key(),
        allow_duplicate: false,
        future_date: false,
        dry_run: false,
        external_ref: None,
    };
    let s = call!(l.record_split(&me, split.clone())).expect("split");
    call!(l.void_transaction(&me, None, s.transaction.transaction_id, None)).expect("void split");
    let again = call!(l.record_split(&me, split.clone())).expect("split replay");
    assert_eq!(
        (again.replayed, again.current.map(|t| t.voided)),
        (true, Some(true))
    );

    // A batch: each replayed entry voided or edited since carries what it is now.
    clock.advance_seconds(1);
    let entry = |amount: &str, memo: &str| {
        Ok(BatchEntry {
            from: "신한카드".into(),
            to: "식비".into(),
            amount: d(amount),
            date: Some(date("2026-03-14")),
            memo: Some(memo.into()),
            external_ref: None,
        })
    };
    let b = NewBatch {
        vault: None,
        entries: vec![entry("1000", "a"), entry("2000", "b"), entry("3000", "c")],
        idempotency_key: key(),
        allow_duplicate: false,
        dry_run: false,
    };
    let ids: Vec<TransactionId> = call!(l.record_transactions(&me, b.clone()))
        .expect("batch")
        .results
        .iter()
        .map(|r| match r {
            EntryResult::Recorded {
                transaction_id: Some(id),
                replayed: false,
                current: None,
                ..
            } => *id,
            other => panic!("{other:?}"),
        })
        .collect();
    clock.advance_seconds(1);
    call!(l.void_transaction(&me, None, ids[0], None)).expect("void entry");
    edit(
        &l,
        &me,
        TransactionEdit {
            memo: Some("b 수정".into()),
            ..edit_of(ids[1])
        },
    )
    .await
    .expect("edit entry");
    let shown: Vec<(bool, Option<(bool, u32, String)>)> = call!(l.record_transactions(&me, b.clone()))
        .expect("batch replay")
        .results
        .into_iter()
        .map(|r| match r {
            EntryResult::Recorded {
                replayed, current, ..
            } => (replayed, current.map(|t| (t.voided, t.version, t.memo))),
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(
        shown,
        vec![
            (true, Some((true, 1, "a".to_string()))),
            (true, Some((false, 2, "b 수정".to_string()))),
            (true, None),
        ]
    );
}

/// Unusual directions are recorded, and the result says how the entry reads: for
/// single entries, splits (the first such pair of lines), replays and batch entries.
pub async fn unusual_directions_are_recorded_with_a_note<S: Store>(store: S) {
    let (l, clock) = ledger_over(Arc::new(store));
    let me = fresh_person("direction");
    household(&l, &me).await;
    let note = |r: &Recorded| r.note.as_ref().map(|n| (n.reading, n.from.clone(), n.to.clone()));
    let reading = |reading, from: &str, to: &str| Some((reading, from.to_string(), to.to_string()));
    clock.advance_seconds(1);
    let lunch = record(&l, &me, tx("카카오뱅크", "식비", "9000", None, "점심")).await;
    assert_eq!(note(&lunch), None, "spending reads as spending");
    clock.advance_seconds(1);
    let refund = record(&l, &me, tx("식비", "카카오뱅크", "3000", None, "환불")).await;
    assert_eq!(note(&refund), reading(Reading::Refund, "식비", "카카오뱅크"));
    clock.advance_seconds(1);
    let salary = tx("카카오뱅크", "월급", "3000000", None, "월급 거꾸로");
    let backwards = record(&l, &me, salary.clone()).await;
    assert_eq!(
        note(&backwards),
        reading(Reading::IncomeReturned, "카카오뱅크", "월급")
    );
    // Recorded all the same: 월급 earned 3,000,000 and gave it back.
    assert_eq!(balances(&l, &me).await.get("월급").map(String::as_str), Some("0"));
    let replay = record(&l, &me, salary).await;
    assert!(replay.replayed);
    assert_eq!(note(&replay), note(&backwards), "a replay reads the same");
    clock.advance_seconds(1);
    let split = NewSplit {
        vault: None,
        from: vec![
            SplitLine {
                account: "신한카드".into(),
                amount: d("5000"),
            },
            SplitLine {
                account: "쇼핑".into(),
                amount: d("2000"),
            },
        ],
        to: vec![SplitLine {
            account: "식비".into(),
            amount: d("7000"),
        }],
        date: None,
        memo: Some("반품 후 장보기".into()),
        idempotency_key: key(),
        allow_duplicate: false,
        future_date: false,
        dry_run: true,
        external_ref: None,
    };
    let s = call!(l.record_split(&me, split.clone())).expect("split");
    assert_eq!(note(&s), reading(Reading::SpendingMoved, "쇼핑", "식비"));
    clock.advance_seconds(1);
    let b = NewBatch {
        vault: None,
        entries: vec![
            Ok(BatchEntry {
                from: "신한카드".into(),
                to: "식비".into(),
                amount: d("8000"),
                date: Some(date("2026-03-14")),
                memo: Some("가맹점".into()),
                external_ref: None,
            }),
            Ok(BatchEntry {
                from: "쇼핑".into(),
                to: "신한카드".into(),
                amount: d("4000"),
                date: Some(date("2026-03-14")),
                memo: Some("취소".into()),
                external_ref: None,
            }),
        ],
        idempotency_key: key(),
        allow_duplicate: false,
        dry_run: false,
    };
    let notes: Vec<Option<(Reading, String, String)>> = call!(l.record_transactions(&me, b.clone()))
        .expect("batch")
        .results
        .into_iter()
        .map(|r| match r {
            EntryResult::Recorded { note, .. } => note.map(|n| (n.reading, n.from, n.to)),
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(notes, vec![None, reading(Reading::Refund, "쇼핑", "신한카드")]);
}
