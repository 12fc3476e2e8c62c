//! Contract tests of deleting a person (decision 059): the vault they kept alone goes,
//! the shared one stays with the household (its other member inheriting ownership),
//! nothing of theirs is left in their partition but the closing mark, a token issued
//! before is refused, a new sign-in starts empty, and running it again is harmless.

use super::deletion::partition;
use super::*;
use dochiya_ledger::stored::{member, table};
use dochiya_store::Value;

pub async fn deleting_a_person_leaves_the_household_its_book<S: Store>(store: S) {
    let store: Arc<dyn Store> = Arc::new(store);
    let (l, clock) = ledger_over(store.clone());
    let a = named_person("forget-a", "지훈");
    let b = named_person("forget-b", "하은");
    shared_household(&l, &a, &b, Role::Member).await;
    record(&l, &a, tx("현금", "식비", "12000", Some("2026-03-15"), "김밥")).await;
    record(&l, &b, tx("현금", "식비", "8000", Some("2026-03-15"), "떡볶이")).await;
    let solo = vault(&l, &a, "개인").await.vault_id;
    call!(l.create_account(
        &a,
        NewAccount {
            vault: Some("개인".into()),
            name: "비상금".into(),
            kind: AccountKind::Asset,
            opening_balance: Some(d("50000")),
            opening_date: None,
            parent: None,
            billing: None,
            owner: None,
        }
    ))
    .expect("create_account");
    let shared = call!(l.list_vaults(&b)).expect("list_vaults").vaults[0].vault_id;
    // What the deletion must remove beyond the vaults: a's idempotency records of the
    // shared vault (those of 개인 go with it), counted from the store.
    let shared_id = shared.to_string();
    let records = partition(store.as_ref(), table::person_pk(&a))
        .await
        .iter()
        .filter(|i| i.key.sk.starts_with("IK#"))
        .filter(|i| matches!(i.attrs.get("vaultId"), Some(Value::S(v)) if *v == shared_id))
        .count();
    assert!(records >= 2, "a recorded in the shared vault: {records}");

    let done = call!(l.delete_person(&a)).expect("delete_person");
    assert_eq!(
        done,
        DeletedPerson {
            deleted: vec!["개인".into()],
            left: vec![LeftShared {
                vault: "가계부".into(),
                new_owner: Some("하은".into()),
            }],
            records: records as u64,
        }
    );

    // The household keeps its book, every entry, under the names they had; 하은 owns it.
    let hers = call!(l.list_vaults(&b)).expect("list_vaults").vaults;
    assert_eq!(
        hers.iter()
            .map(|v| (v.name.as_str(), v.role, v.member_count))
            .collect::<Vec<_>>(),
        [("가계부", Role::Owner, 1)]
    );
    let by: Vec<(String, Option<String>)> = all_transactions(&l, &b)
        .await
        .into_iter()
        .filter(|t| t.date == date("2026-03-15"))
        .map(|t| (t.memo.clone(), t.recorded_by.clone()))
        .collect();
    assert!(by.contains(&("김밥".into(), Some("지훈".into()))), "{by:?}");
    assert!(by.contains(&("떡볶이".into(), Some("하은".into()))), "{by:?}");

    // The store: nothing of 개인, no member item of a's, and a's partition holds only the
    // closing mark (the roster version, closed now).
    assert_eq!(partition(store.as_ref(), table::vault_pk(solo)).await, vec![]);
    assert!(
        partition(store.as_ref(), table::vault_pk(shared))
            .await
            .iter()
            .all(|i| i.key.sk != member::member(shared, &a).sk)
    );
    let left = partition(store.as_ref(), table::person_pk(&a)).await;
    let now = NOON_KST_2026_03_15;
    assert_eq!(
        left.iter()
            .map(|i| (i.key.sk.as_str(), i.attrs.get("closedAt")))
            .collect::<Vec<_>>(),
        [("M", Some(&Value::N(now)))]
    );

    // The mark the authorization server reads to end older grants.
    assert_eq!(call!(l.closed_at(&a)).expect("closed_at"), Some(now));
    assert_eq!(call!(l.closed_at(&b)).expect("closed_at"), None);
    // A token from before is refused, for reads and for a new vault alike.
    let old = a.clone().with_issued_at(Some(now - 60));
    let refused = call!(l.list_vaults(&old)).unwrap_err();
    assert!(matches!(refused, LedgerError::PersonDeleted), "{refused:?}");
    let again = NewVault {
        name: "새 가계부".into(),
        currency: None,
        time_zone: None,
    };
    let refused = call!(l.create_vault(&old, again.clone())).unwrap_err();
    assert!(matches!(refused, LedgerError::PersonDeleted), "{refused:?}");
    // Running it again finds nothing more to delete.
    assert_eq!(
        call!(l.delete_person(&a)).expect("again"),
        DeletedPerson::default()
    );

    // Signing in again (a token issued after) starts an empty book.
    clock.advance_seconds(5);
    let anew = a.clone().with_issued_at(Some(NOON_KST_2026_03_15 + 5));
    assert_eq!(call!(l.list_vaults(&anew)).expect("list_vaults").vaults, vec![]);
    call!(l.create_vault(&anew, again.clone())).expect("a new book");
    assert_eq!(call!(l.list_vaults(&anew)).expect("list_vaults").vaults.len(), 1);
    // And deleting them again later (the earlier mark stops nothing) takes the new book,
    // and the token of that sign-in is from before this deletion.
    clock.advance_seconds(5);
    let again = call!(l.delete_person(&a)).expect("a second deletion");
    assert_eq!(again.deleted, ["새 가계부"]);
    assert_eq!(
        call!(l.list_vaults(&anew)).unwrap_err().to_string(),
        "person deleted"
    );
}

/// The contract tests of this file, instantiated by [`crate::ledger_contract_tests!`]
/// for every store: a test is registered here, beside its code.
#[doc(hidden)]
#[macro_export]
macro_rules! __ledger_suite_forget {
    ($factory:expr) => {
        $crate::__ledger_contract_tests!(
            $factory;
            deleting_a_person_leaves_the_household_its_book,
        );
    };
}
