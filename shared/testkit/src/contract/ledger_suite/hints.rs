//! Contract tests of the roster hint an access token carries (decision 044), on every
//! store: a new instance given it answers in the warm shape (no roster query), and a
//! hint gone stale (a vault made since, a removal since) never decides what a call sees
//! or where it writes.

use super::*;

/// A new instance given the caller's hint makes each call's warm shape, the roster query
/// spared; a second hint is not taken over the roster it holds; an unreadable one is
/// ignored and the call reads the roster as without one.
pub async fn a_token_hint_spares_the_roster_query<S: Store>(store: S) {
    let counting = Arc::new(CountingStore::new(store));
    let (l, _) = ledger_over(counting.clone());
    let me = fresh_person("hint-rounds");
    household(&l, &me).await;
    let hint = call!(l.roster_hint(&me))
        .expect("roster_hint")
        .expect("one vault fits");
    assert_eq!(hint["m"][0][1], "가계부");

    let (cold, _) = ledger_over(counting.clone());
    assert!(cold.take_roster_hint(&me, &hint));
    let (shape, balances) = shape_of(&counting, cold.get_balances(&me, None, None)).await;
    assert_eq!(
        (shape, balances.vault.name.as_str()),
        ((2, 0, 1, 0, 1), "가계부"),
        "get_balances on a new instance with a hint"
    );
    assert!(!cold.take_roster_hint(&me, &hint), "taken over a roster it holds");

    let (cold, _) = ledger_over(counting.clone());
    assert!(cold.take_roster_hint(&me, &hint));
    let (shape, recorded) = shape_of(
        &counting,
        cold.record_transaction(&me, tx("카카오뱅크", "식비", "4500", None, "hinted")),
    )
    .await;
    assert_eq!(
        (shape, recorded.replayed),
        ((2, 2, 2, 1, 1), false),
        "record_transaction on a new instance with a hint"
    );

    let (cold, _) = ledger_over(counting.clone());
    let mut unreadable = hint.clone();
    unreadable["m"][0][0] = serde_json::json!("not-a-vault-id");
    assert!(!cold.take_roster_hint(&me, &unreadable));
    let (shape, _) = shape_of(&counting, cold.get_balances(&me, None, None)).await;
    assert_eq!(shape, (3, 1, 0, 0, 2), "get_balances with an unreadable hint");
}

/// A hint minted before the caller made a second vault, or before an owner removed
/// them, is taken by a new instance and still never decides: unnamed calls are
/// ambiguous between the two vaults, the removed member is told their access ended,
/// and nothing is written from the stale hint.
pub async fn stale_token_hint_never_decides<S: Store>(store: S) {
    let store: Arc<dyn Store> = Arc::new(store);
    let (l, _) = ledger_over(store.clone());
    let me = fresh_person("hint-stale");
    household(&l, &me).await;
    let one_vault = call!(l.roster_hint(&me)).expect("roster_hint").expect("fits");
    vault(&l, &me, "여행").await;
    let (cold, _) = ledger_over(store.clone());
    assert!(cold.take_roster_hint(&me, &one_vault));
    let read = call!(cold.list_accounts(&me, None, false)).unwrap_err();
    assert!(
        matches!(&read, LedgerError::Ambiguous { what: Entity::Vault, matches, .. } if matches.len() == 2),
        "a read from a stale hint: {read:?}"
    );
    let (cold, _) = ledger_over(store.clone());
    assert!(cold.take_roster_hint(&me, &one_vault));
    let write = call!(cold.record_transaction(&me, tx("카카오뱅크", "식비", "1000", None, "stale-hint")))
        .unwrap_err();
    assert!(
        matches!(
            &write,
            LedgerError::Ambiguous {
                what: Entity::Vault,
                ..
            }
        ),
        "a write from a stale hint: {write:?}"
    );

    let a = named_person("hint-owner", "민지");
    let b = named_person("hint-member", "준호");
    shared_household(&l, &a, &b, Role::Member).await;
    let member_hint = call!(l.roster_hint(&b)).expect("roster_hint").expect("fits");
    call!(l.remove_member(&a, None, "준호")).expect("remove_member");
    let (cold, _) = ledger_over(store.clone());
    assert!(cold.take_roster_hint(&b, &member_hint));
    let read = call!(cold.list_accounts(&b, None, false)).unwrap_err();
    assert!(
        matches!(read, LedgerError::AccessEnded { removed: true, .. }),
        "a read after removal, from a hint minted before: {read:?}"
    );
    let (cold, _) = ledger_over(store.clone());
    assert!(cold.take_roster_hint(&b, &member_hint));
    let write = call!(cold.record_transaction(&b, tx("카카오뱅크", "식비", "1000", None, "after removal")))
        .unwrap_err();
    assert!(
        matches!(write, LedgerError::AccessEnded { removed: true, .. }),
        "a write after removal, from a hint minted before: {write:?}"
    );
    let page = call!(l.list_transactions(
        &a,
        TransactionQuery {
            text: Some("after removal".into()),
            ..Default::default()
        }
    ))
    .expect("list");
    assert_eq!(page.transactions.len(), 0);
    let page = call!(l.list_transactions(
        &me,
        TransactionQuery {
            vault: Some("가계부".into()),
            text: Some("stale-hint".into()),
            ..Default::default()
        }
    ))
    .expect("list");
    assert_eq!(page.transactions.len(), 0);
}

/// The contract tests of this file, instantiated by [`crate::ledger_contract_tests!`]
/// for every store: a test is registered here, beside its code.
#[doc(hidden)]
#[macro_export]
macro_rules! __ledger_suite_hints {
    ($factory:expr) => {
        $crate::__ledger_contract_tests!(
            $factory;
            a_token_hint_spares_the_roster_query,
            stale_token_hint_never_decides,
        );
    };
}
