//! Contract tests of whose entry is whose, on every store: `list_transactions`'
//! `recordedBy` ("방금 거" for each person in a shared book), a recurring posting
//! nobody's own, an edit by another member leaving the entry its recorder's, an entry
//! from before recorders were kept found by its name, and an unknown member refused
//! with the members' names.

use super::*;

/// The memos of the caller's page: `recordedBy` as given, newest recorded first.
async fn recorded_by(
    l: &Ledger,
    who: &PersonId,
    by: Option<&str>,
    limit: u32,
) -> Result<Vec<String>, LedgerError> {
    call!(l.list_transactions(
        who,
        TransactionQuery {
            limit: Some(limit),
            order_recorded: true,
            recorded_by: by.map(Into::into),
            ..Default::default()
        }
    ))
    .map(|page| page.transactions.into_iter().map(|t| t.memo).collect())
}

/// 하은 and 지훈 keep one book: each "방금 거" is their own, a posting is nobody's.
pub async fn recorded_by_finds_each_persons_entries<S: Store>(store: S) {
    let store: Arc<dyn Store> = Arc::new(store);
    let (l, clock) = ledger_over(store.clone());
    let a = named_person("recorded-by-a", "하은");
    let b = named_person("recorded-by-b", "지훈");
    shared_household(&l, &a, &b, Role::Member).await;
    clock.advance_seconds(60);
    let lunch = record(&l, &a, tx("카카오뱅크", "식비", "9000", None, "점심")).await;
    clock.advance_seconds(60);
    record(&l, &b, tx("현금", "식비", "4500", None, "커피")).await;

    // Vault-wide, the newest is 지훈's; each person's own is theirs.
    assert_eq!(recorded_by(&l, &a, None, 1).await.unwrap(), ["커피"]);
    assert_eq!(recorded_by(&l, &a, Some("me"), 1).await.unwrap(), ["점심"]);
    assert_eq!(recorded_by(&l, &a, Some(" ME "), 1).await.unwrap(), ["점심"]);
    assert_eq!(recorded_by(&l, &b, Some("me"), 1).await.unwrap(), ["커피"]);
    assert_eq!(recorded_by(&l, &a, Some("지훈"), 5).await.unwrap(), ["커피"]);
    // 하은 made the book: its opening balance and first entries are hers.
    assert_eq!(
        recorded_by(&l, &b, Some("하은"), 5).await.unwrap(),
        recorded_by(&l, &a, Some("me"), 5).await.unwrap()
    );

    // A schedule's posting (due since 2026-03-01) is the newest entry, and nobody's own.
    call!(l.set_recurring(
        &a,
        RecurringInput {
            name: "구독".into(),
            from: Some("카카오뱅크".into()),
            to: Some("식비".into()),
            amount: Some(d("10000")),
            day: Some(1),
            start: Some(date("2026-03-01")),
            ..Default::default()
        }
    ))
    .expect("set_recurring");
    clock.advance_seconds(60);
    let newest = call!(l.list_transactions(
        &a,
        TransactionQuery {
            limit: Some(1),
            order_recorded: true,
            ..Default::default()
        }
    ))
    .expect("list");
    let posting = &newest.transactions[0];
    assert_eq!(
        (posting.recurring.as_deref(), posting.recorded_by.as_deref()),
        (Some("구독"), None)
    );
    assert_eq!(recorded_by(&l, &a, Some("me"), 1).await.unwrap(), ["점심"]);
    assert_eq!(recorded_by(&l, &b, Some("me"), 1).await.unwrap(), ["커피"]);

    // 지훈 fixes 하은's lunch: still hers.
    let id = lunch.transaction.transaction_id;
    call!(l.edit_transaction(
        &b,
        TransactionEdit {
            memo: Some("점심 (김밥)".into()),
            ..edit_of(id)
        }
    ))
    .expect("edit");
    assert_eq!(recorded_by(&l, &a, Some("me"), 1).await.unwrap(), ["점심 (김밥)"]);
    assert_eq!(recorded_by(&l, &b, Some("me"), 1).await.unwrap(), ["커피"]);

    // An entry from before recorders were kept: found by the name it carries.
    let vault_id = lunch.vault.vault_id;
    for key in [
        dochiya_ledger::stored::entry::transaction(vault_id, date_of(&l, &a, id).await, id),
        dochiya_ledger::stored::entry::transaction_by_id(vault_id, id),
    ] {
        let mut item = store.get(&key).await.expect("get").expect("stored");
        assert!(
            item.attrs.remove("recorder").is_some(),
            "{key:?} keeps its recorder"
        );
        store
            .write(vec![dochiya_store::WriteOp::Put { item, guard: None }])
            .await
            .expect("put as before");
    }
    assert_eq!(recorded_by(&l, &a, Some("me"), 1).await.unwrap(), ["점심 (김밥)"]);
    assert_eq!(
        recorded_by(&l, &b, Some("하은"), 1).await.unwrap(),
        ["점심 (김밥)"]
    );
    assert_eq!(recorded_by(&l, &b, Some("me"), 1).await.unwrap(), ["커피"]);

    // Nobody by that name: refused with the members' names.
    let e = recorded_by(&l, &a, Some("민수"), 1).await.unwrap_err();
    assert!(
        matches!(&e, LedgerError::NotFound { what: Entity::Member, name, candidates, .. }
            if name == "민수" && candidates == &["하은".to_string(), "지훈".to_string()]),
        "{e:?}"
    );
}

/// The date of entry `id`, as the caller reads it.
async fn date_of(l: &Ledger, who: &PersonId, id: TransactionId) -> LocalDate {
    call!(l.get_transaction(who, None, id))
        .expect("get_transaction")
        .transaction
        .date
}

/// The contract tests of this file, instantiated by [`crate::ledger_contract_tests!`]
/// for every store: a test is registered here, beside its code.
#[doc(hidden)]
#[macro_export]
macro_rules! __ledger_suite_recorded_by {
    ($factory:expr) => {
        $crate::__ledger_contract_tests!(
            $factory;
            recorded_by_finds_each_persons_entries,
        );
    };
}
