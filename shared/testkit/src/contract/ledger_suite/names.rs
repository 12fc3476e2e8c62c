//! Contract tests of naming accounts: archived accounts' handles accepted wherever an
//! account is named, ambiguous names listing them, read filters saying which they used.

use super::*;

/// Memos of the transactions a filter by `account` returns, newest first, and its choice note.
async fn filtered(l: &Ledger, who: &PersonId, account: &str) -> (Vec<String>, Option<AccountChoice>) {
    let page = call!(l.list_transactions(
        who,
        TransactionQuery {
            account: Some(account.into()),
            ..Default::default()
        }
    ))
    .expect("list_transactions");
    (
        page.transactions.into_iter().map(|t| t.memo).collect(),
        page.account_choice,
    )
}

/// Three cards named 국민카드: two archived the same day get distinct handles, every
/// account argument takes a handle, a plain name prefers the live one and says so.
pub async fn archived_accounts_have_handles<S: Store>(store: S) {
    let (l, clock) = ledger_over(Arc::new(store));
    let me = fresh_person("handles");
    vault(&l, &me, "가계부").await;
    account(&l, &me, "카카오뱅크", AccountKind::Asset, Some("1000000")).await;
    account(&l, &me, "식비", AccountKind::Expense, None).await;
    let first = account(&l, &me, "국민카드", AccountKind::Liability, None).await;
    clock.advance_seconds(1);
    record(
        &l,
        &me,
        tx("국민카드", "식비", "30000", Some("2026-03-10"), "첫 카드 점심"),
    )
    .await;
    clock.advance_seconds(1);
    record(
        &l,
        &me,
        tx(
            "카카오뱅크",
            "국민카드",
            "30000",
            Some("2026-03-11"),
            "첫 카드 대금",
        ),
    )
    .await;
    clock.advance_seconds(1);
    call!(l.archive_account(&me, None, "국민카드", false)).expect("archive the first");
    clock.advance_seconds(1);
    let second = account(&l, &me, "국민카드", AccountKind::Liability, None).await;
    clock.advance_seconds(1);
    record(
        &l,
        &me,
        tx("국민카드", "식비", "5000", Some("2026-03-12"), "둘째 카드 커피"),
    )
    .await;
    clock.advance_seconds(1);
    record(
        &l,
        &me,
        tx(
            "카카오뱅크",
            "국민카드",
            "5000",
            Some("2026-03-13"),
            "둘째 카드 대금",
        ),
    )
    .await;
    clock.advance_seconds(1);
    call!(l.archive_account(&me, None, "국민카드", false)).expect("archive the second");

    let h1 = "국민카드 (archived 2026-03-15)";
    let h2 = "국민카드 (archived 2026-03-15 #2)";
    // Two archived, none live: the plain name is ambiguous and the error lists both handles.
    let e = call!(l.list_transactions(
        &me,
        TransactionQuery {
            account: Some("국민카드".into()),
            ..Default::default()
        }
    ))
    .unwrap_err();
    let places = [
        format!("archived account {} in vault \"가계부\"", first.account_id),
        format!("archived account {} in vault \"가계부\"", second.account_id),
    ];
    assert!(
        matches!(&e, LedgerError::Ambiguous { what: Entity::Account, name, matches }
            if name == "국민카드"
                && matches.iter().map(|m| (m.name.as_str(), m.location.as_str()))
                    .eq([(h1, places[0].as_str()), (h2, places[1].as_str())])),
        "{e:?}"
    );

    clock.advance_seconds(1);
    let third = account(&l, &me, "국민카드", AccountKind::Liability, None).await;
    clock.advance_seconds(1);
    record(
        &l,
        &me,
        tx("국민카드", "식비", "7000", Some("2026-03-14"), "셋째 카드 저녁"),
    )
    .await;

    let listed = call!(l.list_accounts(&me, None, true)).expect("list_accounts");
    let cards: Vec<_> = listed
        .accounts
        .iter()
        .filter(|a| a.name == "국민카드")
        .map(|a| (a.account_id, a.archived, a.handle.clone(), a.balance.to_string()))
        .collect();
    assert_eq!(
        cards,
        vec![
            (third.account_id, false, None, "7000".to_string()),
            (first.account_id, true, Some(h1.to_string()), "0".to_string()),
            (second.account_id, true, Some(h2.to_string()), "0".to_string()),
        ]
    );

    // The plain name means the live card, and the result says which one and how to reach the others.
    let (memos, choice) = filtered(&l, &me, "국민카드").await;
    assert_eq!(memos, vec!["셋째 카드 저녁"]);
    assert_eq!(
        choice,
        Some(AccountChoice {
            account_id: third.account_id,
            name: "국민카드".into(),
            archived: vec![h1.into(), h2.into()],
        })
    );
    // A handle means one archived card, whatever its case and spacing.
    assert_eq!(
        filtered(&l, &me, h1).await,
        (vec!["첫 카드 대금".into(), "첫 카드 점심".into()], None)
    );
    assert_eq!(
        filtered(&l, &me, "  국민카드 (ARCHIVED 2026-03-15  #2) ").await,
        (vec!["둘째 카드 대금".into(), "둘째 카드 커피".into()], None)
    );

    // Writes name the archived card by its handle and are refused as archived, by that handle.
    let refused = call!(l.record_transaction(&me, tx(h1, "식비", "1000", None, "x"))).unwrap_err();
    assert!(
        matches!(&refused, LedgerError::ArchivedAccount { name } if name == h1),
        "{refused:?}"
    );
    let snap = call!(l.upsert_snapshot(
        &me,
        SnapshotInput {
            vault: None,
            account: h2.into(),
            date: date("2026-03-14"),
            balance: d("0"),
        }
    ))
    .unwrap_err();
    assert!(
        matches!(&snap, LedgerError::ArchivedAccount { name } if name == h2),
        "{snap:?}"
    );

    // Reconcile and the snapshot tools take the handle too (a snapshot saved while live).
    clock.advance_seconds(1);
    call!(l.upsert_snapshot(
        &me,
        SnapshotInput {
            vault: None,
            account: "국민카드".into(),
            date: date("2026-03-14"),
            balance: d("7000"),
        }
    ))
    .expect("snapshot of the live card");
    let r = call!(l.reconcile(&me, None, Some("국민카드"))).expect("reconcile");
    assert_eq!(
        (r.accounts.len(), r.account_choice.map(|c| c.archived)),
        (1, Some(vec![h1.to_string(), h2.to_string()]))
    );
    let r = call!(l.reconcile(&me, None, Some(h1))).expect("reconcile by handle");
    assert_eq!((r.accounts.len(), r.account_choice), (0, None));
    let gone = call!(l.delete_snapshot(&me, None, h1, date("2026-03-14"))).expect("delete by handle");
    assert_eq!((gone.account_id, gone.deleted), (first.account_id, false));

    // Renaming or archiving by handle is understood and refused as archived.
    let e = call!(l.rename_account(&me, None, h2, "옛 카드")).unwrap_err();
    assert!(
        matches!(&e, LedgerError::NotFound { what: Entity::Account, name, within, candidates }
            if name == h2
                && within.as_deref() == Some("vault \"가계부\" (an archived account has that name; archived accounts cannot be renamed or archived again)")
                && candidates.is_empty()),
        "{e:?}"
    );
}

/// A name shaped like a handle cannot be given to an account, so a handle means one archived account.
pub async fn handle_shaped_names_are_refused<S: Store>(store: S) {
    let (l, _) = ledger_over(Arc::new(store));
    let me = fresh_person("handle-shape");
    vault(&l, &me, "가계부").await;
    account(&l, &me, "국민카드", AccountKind::Liability, None).await;
    let refused = |e: &LedgerError, field: Field, name: &str| {
        let why = Reason::HandleForm { name: name.into() };
        matches!(e, LedgerError::InvalidInput { field: f, reason } if *f == field && *reason == why)
    };
    let e = call!(l.create_account(
        &me,
        NewAccount {
            vault: None,
            name: "국민카드 (archived 2026-03-15)".into(),
            kind: AccountKind::Liability,
            opening_balance: None,
            opening_date: None,
            parent: None,
            billing: None,
            owner: None,
        }
    ))
    .unwrap_err();
    assert!(
        refused(&e, Field::Name, "국민카드 (archived 2026-03-15)"),
        "{e:?}"
    );
    let e = call!(l.rename_account(&me, None, "국민카드", "국민카드 (Archived #3)")).unwrap_err();
    assert!(refused(&e, Field::NewName, "국민카드 (Archived #3)"), "{e:?}");
    // A name that only mentions the word is fine.
    let ok = call!(l.rename_account(&me, None, "국민카드", "국민카드 (archived soon)")).expect("rename");
    assert_eq!((ok.name.as_str(), ok.changed), ("국민카드 (archived soon)", true));
    // The name it already has: nothing changes, and the answer says so.
    let same = call!(l.rename_account(&me, None, "국민카드 (archived soon)", "국민카드 (archived soon)"))
        .expect("same");
    assert_eq!(
        (same.name.as_str(), same.changed),
        ("국민카드 (archived soon)", false)
    );
}

/// An id where a name belongs says names are expected, which account has that id, and names to pass.
pub async fn ids_where_names_belong<S: Store>(store: S) {
    let (l, clock) = ledger_over(Arc::new(store));
    let me = fresh_person("ids");
    let v = vault(&l, &me, "가계부").await;
    let bank = account(&l, &me, "카카오뱅크", AccountKind::Asset, None).await;
    account(&l, &me, "식비", AccountKind::Expense, None).await;
    clock.advance_seconds(1);
    let lunch = record(
        &l,
        &me,
        tx("카카오뱅크", "식비", "9000", Some("2026-03-14"), "점심"),
    )
    .await;
    let by_id = bank.account_id.to_string();
    let e = call!(l.record_transaction(&me, tx(&by_id, "식비", "1000", None, "x"))).unwrap_err();
    assert!(
        matches!(&e, LedgerError::IdForName { what: Entity::Account, given, id_kind: dochiya_domain::IdShape::Uuid, within, meant, candidates }
            if *given == by_id && within.as_deref() == Some("vault \"가계부\"")
                && meant.as_deref() == Some("카카오뱅크") && candidates == &["식비", "카카오뱅크"]),
        "{e:?}"
    );
    assert_eq!(e.kind(), dochiya_ledger::api::ErrorKind::InvalidInput);
    let tx_id = lunch.transaction.transaction_id.to_string();
    let e = call!(l.list_transactions(
        &me,
        TransactionQuery {
            account: Some(tx_id.clone()),
            ..Default::default()
        }
    ))
    .unwrap_err();
    assert!(
        matches!(&e, LedgerError::IdForName { what: Entity::Account, given, id_kind: dochiya_domain::IdShape::Transaction, within, meant: None, candidates }
            if *given == tx_id && within.as_deref() == Some("vault \"가계부\"") && candidates == &["식비", "카카오뱅크"]),
        "{e:?}"
    );
    let vault_id = v.vault_id.to_string();
    let e = call!(l.list_accounts(&me, Some(&vault_id), false)).unwrap_err();
    assert!(
        matches!(&e, LedgerError::IdForName { what: Entity::Vault, given, id_kind: dochiya_domain::IdShape::Uuid, within: None, meant, candidates }
            if *given == vault_id && meant.as_deref() == Some("가계부") && candidates == &["가계부"]),
        "{e:?}"
    );
}

/// The contract tests of this file, instantiated by [`crate::ledger_contract_tests!`]
/// for every store: a test is registered here, beside its code.
#[doc(hidden)]
#[macro_export]
macro_rules! __ledger_suite_names {
    ($factory:expr) => {
        $crate::__ledger_contract_tests!(
            $factory;
            archived_accounts_have_handles,
        );
    };
}
