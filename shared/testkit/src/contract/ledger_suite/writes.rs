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
    assert!(matches!(&e, LedgerError::BadCursor), "{e:?}");
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
        tags: vec![],
        installments: None,
        for_whom: None,
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
            lines: None,
            tags: vec![],
            installments: None,
            for_whom: None,
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
    // (replayed, the entry now as (voided, version, memo) when it changed since)
    type Shown = (bool, Option<(bool, u32, String)>);
    let shown: Vec<Shown> = call!(l.record_transactions(&me, b.clone()))
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
        tags: vec![],
        installments: None,
        for_whom: None,
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
                lines: None,
                tags: vec![],
                installments: None,
                for_whom: None,
            }),
            Ok(BatchEntry {
                from: "쇼핑".into(),
                to: "신한카드".into(),
                amount: d("4000"),
                date: Some(date("2026-03-14")),
                memo: Some("취소".into()),
                external_ref: None,
                lines: None,
                tags: vec![],
                installments: None,
                for_whom: None,
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

/// The duplicate guard goes by the entry: the same date, accounts and amount within
/// the window (ten minutes) is a probable duplicate whatever the memo (a fresh-key retry
/// with a reworded memo is refused, naming the entry); another date is another entry;
/// after the window, or with allowDuplicate, it records.
pub async fn duplicate_guard_goes_by_the_entry<S: Store>(store: S) {
    let (l, clock) = ledger_over(Arc::new(store));
    let me = fresh_person("dup-clock");
    household(&l, &me).await;
    clock.advance_seconds(1);
    let first = record(
        &l,
        &me,
        tx("카카오뱅크", "식비", "4500", None, "아이스 아메리카노"),
    )
    .await;
    let earlier = &first.transaction;
    clock.advance_seconds(90);
    // Reworded, with the date defaulted or given: still the same entry minutes later.
    for (on, memo) in [(None, "아아"), (Some("2026-03-15"), "커피")] {
        let e = call!(l.record_transaction(&me, tx("카카오뱅크", "식비", "4500", on, memo))).unwrap_err();
        match &e {
            LedgerError::ProbableDuplicate {
                earlier_id,
                earlier_date,
                earlier_memo,
                recorded_at,
                minutes_ago,
            } => assert_eq!(
                (
                    *earlier_id,
                    earlier_date.to_string(),
                    earlier_memo.as_str(),
                    recorded_at.as_second(),
                    *minutes_ago
                ),
                (
                    earlier.transaction_id,
                    "2026-03-15".to_string(),
                    "아이스 아메리카노",
                    NOON_KST_2026_03_15 + 1,
                    1
                )
            ),
            other => panic!("expected a probable duplicate, got {other:?}"),
        }
    }
    // Another amount, other accounts, or another date is another entry.
    record(&l, &me, tx("카카오뱅크", "식비", "4600", None, "아아")).await;
    record(&l, &me, tx("현금", "식비", "4500", None, "아아")).await;
    record(
        &l,
        &me,
        tx("카카오뱅크", "식비", "4500", Some("2026-03-14"), "어제 커피"),
    )
    .await;
    let meant = record(
        &l,
        &me,
        NewTransaction {
            allow_duplicate: true,
            ..tx("카카오뱅크", "식비", "4500", None, "아아")
        },
    )
    .await;
    assert_ne!(meant.transaction.transaction_id, earlier.transaction_id);
    clock.advance_seconds(10 * 60);
    record(&l, &me, tx("카카오뱅크", "식비", "4500", None, "또 커피")).await;
    assert_eq!(
        balances(&l, &me).await.get("식비").map(String::as_str),
        Some("39100"),
        "12000 + 4500 + 4600 + 4500 + 4500 + 4500 + 4500 (the two refused ones are not there)"
    );
}

/// A repeat just after local midnight in Los Angeles with the date defaulted lands on the
/// next day by the calendar, but minutes later by the clock: the vault's previous day
/// matches, so it is caught (and across a guard bucket's edge); an entry dated the day
/// before but recorded after midnight is not a repeat of a defaulted one.
pub async fn duplicate_guard_catches_a_repeat_after_local_midnight<S: Store>(store: S) {
    let (l, clock) = ledger_over(Arc::new(store));
    let me = fresh_person("dup-la");
    call!(l.create_vault(
        &me,
        NewVault {
            name: "LA".into(),
            currency: Some(Currency::parse("USD").expect("USD")),
            time_zone: Some(VaultZone::parse("America/Los_Angeles").expect("zone")),
        }
    ))
    .expect("vault");
    account(&l, &me, "Checking", AccountKind::Asset, Some("1000")).await;
    account(&l, &me, "Food", AccountKind::Expense, None).await;
    // 03:00Z is 20:00 in Los Angeles (PDT); 06:58Z is 23:58 on the 14th there.
    clock.advance_seconds(3 * 3600 + 58 * 60);
    let late = record(&l, &me, tx("Checking", "Food", "12.50", None, "tacos")).await;
    assert_eq!(late.transaction.date.to_string(), "2026-03-14");
    clock.advance_seconds(3 * 60);
    let e = call!(l.record_transaction(&me, tx("Checking", "Food", "12.50", None, "tacos"))).unwrap_err();
    assert!(
        matches!(&e, LedgerError::ProbableDuplicate { earlier_id, earlier_date, earlier_memo, minutes_ago: 3, .. }
            if *earlier_id == late.transaction.transaction_id
                && *earlier_date == date("2026-03-14") && earlier_memo == "tacos"),
        "{e:?}"
    );
    let meant = record(
        &l,
        &me,
        NewTransaction {
            allow_duplicate: true,
            ..tx("Checking", "Food", "12.50", None, "tacos")
        },
    )
    .await;
    assert_eq!(meant.transaction.date.to_string(), "2026-03-15");
    // Dated the 14th but recorded after midnight (a backfill), then one defaulted to
    // the 15th: different days, both recorded.
    clock.advance_seconds(11 * 60);
    let back = record(
        &l,
        &me,
        tx("Checking", "Food", "7.25", Some("2026-03-14"), "bagel"),
    )
    .await;
    let today = record(&l, &me, tx("Checking", "Food", "7.25", None, "bagel")).await;
    assert_eq!(
        (
            back.transaction.date.to_string(),
            today.transaction.date.to_string()
        ),
        ("2026-03-14".to_string(), "2026-03-15".to_string())
    );
}

/// A dry run's transaction is a preview: a new entry's id is a placeholder never
/// stored (get_transaction does not find it, and the real write gets its own);
/// an edit's preview keeps the entry's id and changes nothing.
pub async fn dry_runs_are_previews<S: Store>(store: S) {
    let (l, clock) = ledger_over(Arc::new(store));
    let me = fresh_person("preview");
    household(&l, &me).await;
    clock.advance_seconds(1);
    let t = NewTransaction {
        dry_run: true,
        ..tx("카카오뱅크", "식비", "7000", None, "저녁")
    };
    let dry = record(&l, &me, t.clone()).await;
    assert!(dry.dry_run && dry.transaction.preview);
    let placeholder = dry.transaction.transaction_id;
    let e = call!(l.get_transaction(&me, None, placeholder)).unwrap_err();
    assert!(matches!(e, LedgerError::NotFound { .. }), "{e:?}");
    clock.advance_seconds(1);
    let real = record(&l, &me, NewTransaction { dry_run: false, ..t }).await;
    assert!(!real.transaction.preview && !real.replayed);
    assert_ne!(real.transaction.transaction_id, placeholder);
    let id = real.transaction.transaction_id;
    let got = call!(l.get_transaction(&me, None, id)).expect("stored");
    assert_eq!(got.transaction.postings, real.transaction.postings);

    let fix = edit(
        &l,
        &me,
        TransactionEdit {
            amount: Some(d("7500")),
            dry_run: true,
            ..edit_of(id)
        },
    )
    .await
    .expect("edit preview");
    assert!(fix.dry_run && fix.transaction.preview);
    assert_eq!((fix.transaction.transaction_id, fix.transaction.version), (id, 2));
    let still = call!(l.get_transaction(&me, None, id)).expect("unchanged");
    assert_eq!((still.transaction.version, still.transaction.preview), (1, false));
    assert_eq!(still.transaction.postings[0].amount.to_string(), "7000");
}

/// The contract tests of this file, instantiated by [`crate::ledger_contract_tests!`]
/// for every store: a test is registered here, beside its code.
#[doc(hidden)]
#[macro_export]
macro_rules! __ledger_suite_writes {
    ($factory:expr) => {
        $crate::__ledger_contract_tests!(
            $factory;
            listings_leave_voided_entries_out_unless_asked,
            replays_show_the_entry_as_it_is_now,
            unusual_directions_are_recorded_with_a_note,
            duplicate_guard_goes_by_the_entry,
            duplicate_guard_catches_a_repeat_after_local_midnight,
            dry_runs_are_previews,
        );
    };
}
