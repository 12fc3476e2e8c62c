//! Contract tests of `delete_vault` (decision 057): refusals change nothing, a dry run
//! counts, a deletion leaves no item of the vault in any partition the store holds, its
//! members hear that it was deleted, the name is free at once, and a deletion a failure
//! cut short is finished by the owner's next call.

use super::*;
use crate::testing::{FailingStore, InjectedFailure};
use dochiya_domain::VaultId;
use dochiya_ledger::stored::{member, schedule, table};
use dochiya_store::{Query, SkRange, Value};

/// Every item of a partition.
pub(super) async fn partition(store: &dyn Store, pk: String) -> Vec<dochiya_store::Item> {
    let mut out = Vec::new();
    let mut after = None;
    loop {
        let page = store
            .query(&Query {
                pk: pk.clone(),
                range: SkRange::All,
                forward: true,
                limit: 500,
                after,
            })
            .await
            .expect("query");
        out.extend(page.items);
        match page.last_sk {
            Some(sk) => after = Some(sk),
            None => return out,
        }
    }
}

/// The sort keys of every item anywhere that names `vault`: its own partition, the
/// people's partitions (memberships, name claims, idempotency records, markers; an
/// ended-membership record is kept on purpose and left out), and its due-index shard.
async fn traces(store: &dyn Store, vault: VaultId, people: &[&PersonId]) -> Vec<String> {
    let id = vault.to_string();
    let mut found: Vec<String> = partition(store, table::vault_pk(vault))
        .await
        .into_iter()
        .map(|i| format!("V#/{}", i.key.sk))
        .collect();
    for person in people {
        for item in partition(store, table::person_pk(person)).await {
            let names_it = item.key.sk.contains(&id)
                || matches!(item.attrs.get("vaultId"), Some(Value::S(v)) if *v == id);
            if names_it && !member::is_ended_membership(&item.key.sk) {
                found.push(format!("P#/{}", item.key.sk));
            }
        }
    }
    for item in partition(store, schedule::due_pk(schedule::due_shard(vault))).await {
        if item.key.sk.ends_with(&id) {
            found.push(format!("DUE#/{}", item.key.sk));
        }
    }
    found
}

/// A shared household with a schedule, a budget, a snapshot and an entry by each member:
/// the owner, the member, the vault, and what a deletion must count.
async fn full_household(l: &Ledger) -> (PersonId, PersonId, VaultId, DeletedCounts) {
    let a = named_person("delete-a", "지훈");
    let b = named_person("delete-b", "하은");
    shared_household(l, &a, &b, Role::Member).await;
    set_budget(l, &a, budget("식비", "400000", Some("2026-03"), true)).await;
    call!(l.upsert_snapshot(&a, snap("카카오뱅크", "2026-03-14", "2688000"))).expect("snapshot");
    call!(l.set_recurring(
        &a,
        RecurringInput {
            name: "월세".into(),
            from: Some("카카오뱅크".into()),
            to: Some("식비".into()),
            amount: Some(d("500000")),
            day: Some(28),
            ..Default::default()
        }
    ))
    .expect("set_recurring");
    record(l, &b, tx("현금", "식비", "8000", Some("2026-03-15"), "떡볶이")).await;
    let vault = call!(l.list_vaults(&a)).expect("list_vaults").vaults[0].vault_id;
    // Counted by the ledger's own reads, not by the deletion's pass over the items.
    let accounts = call!(l.list_accounts(&a, None, true))
        .expect("list_accounts")
        .accounts
        .len();
    let entries = all_transactions(l, &a).await.len();
    let counts = DeletedCounts {
        entries: u64::try_from(entries).unwrap(),
        accounts: u64::try_from(accounts).unwrap(),
        members: 2,
        schedules: 1,
        budgets: 1,
        snapshots: 1,
    };
    (a, b, vault, counts)
}

/// Refused (a member, a wrong confirmation, a vault nobody has) with nothing changed; a
/// dry run counts; the deletion leaves no trace of the vault; its member hears it was
/// deleted; the name is free again; a second call finds no such vault.
pub async fn delete_vault_takes_everything_and_frees_the_name<S: Store>(store: S) {
    let store: Arc<dyn Store> = Arc::new(store);
    let (l, _) = ledger_over(store.clone());
    let (a, b, vault, counts) = full_household(&l).await;
    // 8 entries (the opening balance, six of the household's, the member's) and 7
    // accounts (기초잔액 beside the six): the reads agree with the hand count.
    assert_eq!((counts.entries, counts.accounts), (8, 7));
    let before = balances(&l, &a).await;

    let refused = call!(l.delete_vault(&b, "가계부", "가계부", false)).unwrap_err();
    assert!(
        matches!(refused, LedgerError::NeedsOwner { action: OwnerAction::DeleteVault, ref vault } if vault == "가계부"),
        "{refused:?}"
    );
    let refused = call!(l.delete_vault(&a, "가계부", "가계 부", false)).unwrap_err();
    let LedgerError::InvalidInput { field, reason } = refused else {
        panic!("a wrong confirmation: {refused:?}");
    };
    assert_eq!(field, Field::Confirm);
    assert_eq!(
        reason,
        Reason::ConfirmMismatch {
            vault: "가계부".into()
        }
    );
    let refused = call!(l.delete_vault(&a, "없는 가계부", "없는 가계부", false)).unwrap_err();
    assert_eq!(refused.kind(), dochiya_ledger::api::ErrorKind::NotFound);

    let dry = call!(l.delete_vault(&a, "가계부", "가계부", true)).expect("dry run");
    assert_eq!(
        (dry.deleted, dry.dry_run, dry.vault.vault_id),
        (counts, true, vault)
    );
    assert_eq!(
        balances(&l, &a).await,
        before,
        "refusals and a dry run change nothing"
    );
    assert_eq!(balances(&l, &b).await, before);

    // Confirmed as names compare: spacing and case do not matter.
    let done = call!(l.delete_vault(&a, " 가계부 ", " 가계부", false)).expect("delete_vault");
    assert_eq!((done.deleted, done.dry_run), (counts, false));
    assert_eq!(done.vault.name, "가계부");
    assert_eq!(
        traces(store.as_ref(), vault, &[&a, &b]).await,
        Vec::<String>::new()
    );

    assert_eq!(call!(l.list_vaults(&a)).expect("list").vaults, vec![]);
    assert_eq!(call!(l.list_vaults(&b)).expect("list").vaults, vec![]);
    let gone = call!(l.list_accounts(&b, Some("가계부"), false)).unwrap_err();
    assert!(
        matches!(gone, LedgerError::VaultDeleted { ref vault, on } if vault == "가계부" && on == date("2026-03-15")),
        "{gone:?}"
    );
    let again = call!(l.delete_vault(&a, "가계부", "가계부", false)).unwrap_err();
    assert_eq!(again.kind(), dochiya_ledger::api::ErrorKind::NotFound);

    // The name is free at once: a new, empty vault under it.
    let fresh = vault_named(&l, &a, "가계부").await;
    assert_ne!(fresh.vault_id, vault);
    assert_eq!(
        call!(l.list_accounts(&a, None, true)).expect("accounts").accounts,
        vec![]
    );
}

async fn vault_named(l: &Ledger, who: &PersonId, name: &str) -> CreatedVault {
    vault(l, who, name).await
}

/// The store fails right after the closing write: the members have lost the vault but
/// its items are still there; the owner's next `delete_vault` finishes it and answers
/// with what the vault held.
pub async fn a_deletion_cut_short_is_finished_by_the_next_call<S: Store>(store: S) {
    let failing = Arc::new(FailingStore::new(store));
    let (l, _) = ledger_over(failing.clone());
    let (a, b, vault, counts) = full_household(&l).await;
    // The write after the closing one (the first page of the partition) fails.
    failing.fail_nth_write(2, InjectedFailure::Backend);
    assert!(call!(l.delete_vault(&a, "가계부", "가계부", false)).is_err());
    let left = traces(failing.inner().as_ref(), vault, &[&a, &b]).await;
    assert!(left.iter().any(|k| k.starts_with("V#/TI#")), "{left:?}");
    assert!(left.contains(&format!("P#/DV#{vault}")), "{left:?}");
    // The members have lost it already.
    assert_eq!(call!(l.list_vaults(&a)).expect("list").vaults, vec![]);
    assert!(matches!(
        call!(l.list_accounts(&b, Some("가계부"), false)).unwrap_err(),
        LedgerError::VaultDeleted { .. }
    ));
    // The next call finishes it and answers for it.
    let done = call!(l.delete_vault(&a, "가계부", "가계부", false)).expect("finished");
    assert_eq!(
        (done.vault.vault_id, done.deleted, done.dry_run),
        (vault, counts, false)
    );
    assert_eq!(
        traces(failing.inner().as_ref(), vault, &[&a, &b]).await,
        Vec::<String>::new()
    );
}

/// The contract tests of this file, instantiated by [`crate::ledger_contract_tests!`]
/// for every store: a test is registered here, beside its code.
#[doc(hidden)]
#[macro_export]
macro_rules! __ledger_suite_deletion {
    ($factory:expr) => {
        $crate::__ledger_contract_tests!(
            $factory;
            delete_vault_takes_everything_and_frees_the_name,
            a_deletion_cut_short_is_finished_by_the_next_call,
        );
    };
}
