//! Contract tests of words that categorize (decision 061): set words, a learned first
//! word, a correction, an ambiguous memo, clearing, the bounds, and a statement
//! categorized line by line in its dry run.

use super::*;

/// An entry from 카카오뱅크 with `to` left out.
fn uncategorized(amount: &str, memo: &str) -> NewTransaction {
    NewTransaction {
        to: String::new(),
        ..tx("카카오뱅크", "x", amount, Some("2026-03-14"), memo)
    }
}

fn chosen(r: &Recorded) -> Option<(String, String, bool)> {
    r.categorized_by
        .as_ref()
        .map(|c| (c.word.clone(), c.account.clone(), c.learned))
}

async fn words(l: &Ledger, who: &PersonId, account: &str, list: &[&str]) -> WordsSet {
    let list: Vec<String> = list.iter().map(|s| s.to_string()).collect();
    call!(l.set_account_words(who, None, account, &list)).expect("words")
}

fn refused(e: &LedgerError) -> &Reason {
    match e {
        LedgerError::InvalidInput { reason, .. } => reason,
        other => panic!("{other:?}"),
    }
}

/// The memo a "no category's words match" refusal names.
fn unmatched(e: &LedgerError) -> Option<&str> {
    match refused(e) {
        Reason::NoWordMatches { memo, .. } => Some(memo),
        _ => None,
    }
}

/// Set words choose at once and win; a first word is learned after two entries to one
/// category, moved at once by a correction, listed marked, and cleared with `[]`.
pub async fn words_set_and_learned_choose_the_category<S: Store>(store: S) {
    let (l, _clock) = ledger_over(Arc::new(store));
    let me = fresh_person("words");
    household(&l, &me).await;
    account(&l, &me, "카페", AccountKind::Expense, None).await;
    account(&l, &me, "외식", AccountKind::Expense, None).await;
    let set = words(&l, &me, "카페", &["스타벅스", "스벅"]).await;
    assert!(set.changed);

    // A set word the memo holds (case and width folded like names).
    let r = call!(l.record_transaction(&me, uncategorized("5600", "스타벅스 라떼"))).expect("record");
    assert_eq!(chosen(&r), Some(("스타벅스".into(), "카페".into(), false)));
    assert!(
        r.transaction
            .postings
            .iter()
            .any(|p| p.account == "카페" && p.amount.to_string() == "5600")
    );

    // One entry teaches nothing yet; two to the same category do.
    record(
        &l,
        &me,
        tx("카카오뱅크", "식비", "8000", Some("2026-03-10"), "김밥천국 점심"),
    )
    .await;
    let e = call!(l.record_transaction(&me, uncategorized("8000", "김밥천국 저녁"))).unwrap_err();
    assert!(unmatched(&e) == Some("김밥천국 저녁"), "{e:?}");
    let second = record(
        &l,
        &me,
        tx("카카오뱅크", "식비", "7000", Some("2026-03-11"), "김밥천국! 라면"),
    )
    .await;
    let r = call!(l.record_transaction(&me, uncategorized("9000", "김밥천국 저녁"))).expect("learned");
    assert_eq!(chosen(&r), Some(("김밥천국".into(), "식비".into(), true)));

    // A correction moves the word at once (the latest correction wins).
    call!(l.edit_transaction(
        &me,
        TransactionEdit {
            vault: None,
            transaction_id: second.transaction.transaction_id,
            idempotency_key: key(),
            expected_version: None,
            amount: None,
            date: None,
            memo: None,
            from: None,
            to: Some("외식".into()),
            lines: None,
            future_date: false,
            dry_run: false,
            tags: None,
            for_whom: None,
        }
    ))
    .expect("correct");
    let r = call!(l.record_transaction(&me, uncategorized("9500", "김밥천국 야식"))).expect("corrected");
    assert_eq!(chosen(&r), Some(("김밥천국".into(), "외식".into(), true)));

    // list_accounts: set words first, learned ones marked.
    let listed = call!(l.list_accounts(&me, None, false)).expect("accounts");
    let of = |name: &str| -> Vec<(String, bool)> {
        listed
            .accounts
            .iter()
            .find(|a| a.name == name)
            .expect("account")
            .match_words
            .iter()
            .map(|w| (w.word.clone(), w.learned))
            .collect()
    };
    assert_eq!(
        of("카페"),
        vec![("스타벅스".into(), false), ("스벅".into(), false)]
    );
    assert_eq!(of("외식"), vec![("김밥천국".into(), true)]);
    assert_eq!(of("식비"), vec![]);

    // `[]` clears what was learned for 외식 (its count and the correction): 김밥천국's two
    // live entries in 식비 (the first, and the one the learned word put there) make it
    // learned for 식비 again.
    let cleared = words(&l, &me, "외식", &[]).await;
    assert!(cleared.changed && cleared.words.is_empty());
    let r = call!(l.record_transaction(&me, uncategorized("6000", "김밥천국 아침"))).expect("back to 식비");
    assert_eq!(chosen(&r), Some(("김밥천국".into(), "식비".into(), true)));
}

/// Refused, nothing stored: a memo holding two categories' words, words on an account
/// that is no expense category, a word another category has, too many words, a word
/// too long.
pub async fn bad_words_and_ambiguous_memos_are_refused<S: Store>(store: S) {
    let (l, _clock) = ledger_over(Arc::new(store));
    let me = fresh_person("words-bad");
    household(&l, &me).await;
    account(&l, &me, "카페", AccountKind::Expense, None).await;
    words(&l, &me, "카페", &["커피"]).await;
    words(&l, &me, "식비", &["라떼"]).await;
    let e = call!(l.record_transaction(&me, uncategorized("5000", "커피 라떼"))).unwrap_err();
    assert_eq!(
        refused(&e),
        &Reason::WordsOfTwo {
            memo: "커피 라떼".into(),
            first: Box::new(("라떼".into(), "식비".into())),
            second: Box::new(("커피".into(), "카페".into())),
        }
    );
    let all = |list: Vec<String>, account: &'static str| {
        let l = &l;
        let me = &me;
        async move { call!(l.set_account_words(me, None, account, &list)).unwrap_err() }
    };
    let e = all(vec!["월급날".into()], "카카오뱅크").await;
    assert_eq!(
        refused(&e),
        &Reason::WordsNotExpense {
            account: "카카오뱅크".into(),
            kind: AccountKind::Asset,
        }
    );
    let e = all(vec!["커피".into()], "쇼핑").await;
    assert_eq!(
        refused(&e),
        &Reason::WordTaken {
            word: "커피".into(),
            account: "카페".into(),
        }
    );
    let e = all((0..11).map(|i| format!("w{i}")).collect(), "쇼핑").await;
    assert_eq!(refused(&e), &Reason::TooManyWords { max: 10, got: 11 });
    let e = all(vec!["가".repeat(31)], "쇼핑").await;
    assert!(matches!(refused(&e), Reason::BadWord { max: 30, .. }), "{e:?}");
    // Nothing stored by the refusals.
    let listed = call!(l.list_accounts(&me, None, false)).expect("accounts");
    let shopping = listed.accounts.iter().find(|a| a.name == "쇼핑").expect("쇼핑");
    assert!(shopping.match_words.is_empty());
}

/// A statement without categories: its dry run shows each line's category and the word
/// that chose it; a line no word names is that line's error; recording it teaches.
pub async fn a_statement_without_categories_is_categorized_in_its_dry_run<S: Store>(store: S) {
    let (l, _clock) = ledger_over(Arc::new(store));
    let me = fresh_person("words-batch");
    household(&l, &me).await;
    account(&l, &me, "카페", AccountKind::Expense, None).await;
    words(&l, &me, "카페", &["스타벅스"]).await;
    for (day, amount) in [("2026-03-01", "12000"), ("2026-03-02", "13000")] {
        record(
            &l,
            &me,
            tx("신한카드", "식비", amount, Some(day), "이마트 장보기"),
        )
        .await;
    }
    let line = |memo: &str, amount: &str| BatchEntry {
        from: "신한카드".into(),
        to: String::new(),
        amount: d(amount),
        date: Some(date("2026-03-14")),
        memo: Some(memo.into()),
        external_ref: None,
        lines: None,
        tags: vec![],
        installments: None,
        for_whom: None,
    };
    let batch = |dry_run: bool| NewBatch {
        vault: None,
        entries: vec![
            Ok(line("스타벅스 강남점", "6100")),
            Ok(line("이마트 성수", "54000")),
            Ok(line("다이소", "3000")),
        ],
        idempotency_key: "words-batch-1".into(),
        allow_duplicate: false,
        dry_run,
    };
    let dry = call!(l.record_transactions(&me, batch(true))).expect("dry run");
    let by: Vec<Option<(String, String, bool)>> = dry
        .categorized
        .iter()
        .map(|c| c.as_ref().map(|c| (c.word.clone(), c.account.clone(), c.learned)))
        .collect();
    assert_eq!(
        by,
        vec![
            Some(("스타벅스".into(), "카페".into(), false)),
            Some(("이마트".into(), "식비".into(), true)),
            None,
        ]
    );
    assert!(matches!(&dry.results[2], EntryResult::Failed(e) if unmatched(e) == Some("다이소")));
    assert!(matches!(
        &dry.results[0],
        EntryResult::Recorded {
            transaction_id: None,
            ..
        }
    ));
    let done = call!(l.record_transactions(&me, batch(false))).expect("record");
    assert!(matches!(
        &done.results[1],
        EntryResult::Recorded {
            transaction_id: Some(_),
            ..
        }
    ));
    let listed = call!(l.list_accounts(&me, None, false)).expect("accounts");
    let food = listed.accounts.iter().find(|a| a.name == "식비").expect("식비");
    assert_eq!(
        food.match_words
            .iter()
            .map(|w| (w.word.as_str(), w.learned))
            .collect::<Vec<_>>(),
        vec![("이마트", true)]
    );
}

/// A retry replays what the words chose the first time, even when they choose nothing
/// by then (found by the reference model): "이마트" is learned for 식비, an entry and a
/// one-line statement are categorized by it, then one "이마트" entry goes to 외식 and
/// the word chooses nothing; both keys replay with 식비 and the same ids, and a new key
/// is refused.
pub async fn a_retry_replays_what_the_words_chose_first<S: Store>(store: S) {
    let (l, _clock) = ledger_over(Arc::new(store));
    let me = fresh_person("words-retry");
    household(&l, &me).await;
    account(&l, &me, "외식", AccountKind::Expense, None).await;
    for (day, amount) in [("2026-03-01", "12000"), ("2026-03-02", "13000")] {
        record(
            &l,
            &me,
            tx("카카오뱅크", "식비", amount, Some(day), "이마트 장보기"),
        )
        .await;
    }
    let single = NewTransaction {
        idempotency_key: "words-retry-one".into(),
        ..uncategorized("9000", "이마트 성수")
    };
    let first = call!(l.record_transaction(&me, single.clone())).expect("record");
    let learned = Some(("이마트".to_string(), "식비".to_string(), true));
    assert_eq!(chosen(&first), learned);
    let line = BatchEntry {
        from: "신한카드".into(),
        to: String::new(),
        amount: d("7000"),
        date: Some(date("2026-03-13")),
        memo: Some("이마트 역삼".into()),
        external_ref: None,
        lines: None,
        tags: vec![],
        installments: None,
        for_whom: None,
    };
    let batch = NewBatch {
        vault: None,
        entries: vec![Ok(line)],
        idempotency_key: "words-retry-batch".into(),
        allow_duplicate: false,
        dry_run: false,
    };
    let first_batch = call!(l.record_transactions(&me, batch.clone())).expect("batch");
    let EntryResult::Recorded {
        transaction_id: Some(line_id),
        replayed: false,
        ..
    } = first_batch.results[0]
    else {
        panic!("{:?}", first_batch.results[0]);
    };
    record(
        &l,
        &me,
        tx(
            "카카오뱅크",
            "외식",
            "30000",
            Some("2026-03-12"),
            "이마트 푸드코트",
        ),
    )
    .await;

    let again = call!(l.record_transaction(&me, single.clone())).expect("retry");
    assert!(again.replayed);
    assert_eq!(again.transaction.transaction_id, first.transaction.transaction_id);
    assert_eq!(chosen(&again), learned);
    let again = call!(l.record_transactions(&me, batch.clone())).expect("batch retry");
    assert!(
        matches!(again.results[0], EntryResult::Recorded { transaction_id: Some(id), replayed: true, .. } if id == line_id),
        "{:?}",
        again.results[0]
    );
    let by = again.categorized[0]
        .as_ref()
        .map(|c| (c.word.clone(), c.account.clone(), c.learned));
    assert_eq!(by, learned);
    let other = NewTransaction {
        idempotency_key: "words-retry-two".into(),
        ..single
    };
    let e = call!(l.record_transaction(&me, other.clone())).expect_err("nothing chosen");
    assert!(unmatched(&e) == Some("이마트 성수"), "{e:?}");
}

/// The contract tests of this file, instantiated by [`crate::ledger_contract_tests!`]
/// for every store: a test is registered here, beside its code.
#[doc(hidden)]
#[macro_export]
macro_rules! __ledger_suite_words {
    ($factory:expr) => {
        $crate::__ledger_contract_tests!(
            $factory;
            words_set_and_learned_choose_the_category,
            bad_words_and_ambiguous_memos_are_refused,
            a_statement_without_categories_is_categorized_in_its_dry_run,
            a_retry_replays_what_the_words_chose_first,
        );
    };
}
