//! Contract tests of restoring a backup into every store (decisions 035 and 048): a
//! backup restores its own vault and, for its members, only what their memberships
//! imply; a file that names anyone else, claims a name or a record their membership
//! does not imply, holds a key twice, or would replace a person's item already in the
//! store is refused with nothing written. A restored vault is in the due index at once.

use super::*;
use crate::memory::MemoryStore;
use dochiya_domain::{NameKey, VaultId};
use dochiya_ledger::portability::backup::Backup;
use dochiya_ledger::stored::{member, table, vault};
use dochiya_store::{Item, Query, SkRange, Value};

/// Every item of a partition, in key order.
async fn partition(store: &dyn Store, pk: String) -> Vec<Item> {
    let page = store
        .query(&Query {
            pk,
            range: SkRange::All,
            forward: true,
            limit: 1000,
            after: None,
        })
        .await
        .expect("query");
    page.items
}

/// 공격 kept by `alice` on a store of its own, with an entry recorded under `key`; its backup.
async fn backup_elsewhere(alice: &PersonId, idempotency_key: &str) -> Backup {
    let (src, _) = ledger_over(Arc::new(MemoryStore::new()));
    vault(&src, alice, "공격").await;
    account(&src, alice, "카카오뱅크", AccountKind::Asset, Some("100000")).await;
    account(&src, alice, "식비", AccountKind::Expense, None).await;
    record(
        &src,
        alice,
        NewTransaction {
            idempotency_key: idempotency_key.into(),
            ..tx("카카오뱅크", "식비", "5000", Some("2026-03-15"), "점심")
        },
    )
    .await;
    call!(src.backup(alice, None)).expect("backup")
}

/// `from`'s items of `b` copied into `to`'s partition (and their member item, when `member`).
fn copied_to(b: &Backup, from: &PersonId, to: &PersonId, member: bool) -> Vec<Item> {
    let (from_pk, to_pk) = (table::person_pk(from), table::person_pk(to));
    let mut out: Vec<Item> = b
        .items
        .iter()
        .filter(|i| i.key.pk == from_pk)
        .map(|i| Item {
            key: dochiya_store::Key::new(to_pk.clone(), i.key.sk.clone()),
            attrs: i.attrs.clone(),
        })
        .collect();
    let member_sk = format!("{}{}", member::MEMBER_PREFIX, from.as_str());
    if member && let Some(m) = b.items.iter().find(|i| i.key.sk == member_sk) {
        let mut attrs = m.attrs.clone();
        attrs.insert("person".into(), Value::S(to.as_str().into()));
        out.push(Item {
            key: dochiya_store::Key::new(
                m.key.pk.clone(),
                format!("{}{}", member::MEMBER_PREFIX, to.as_str()),
            ),
            attrs,
        });
    }
    out
}

fn with(b: &Backup, persons: &[&PersonId], extra: Vec<Item>) -> Backup {
    let mut out = b.clone();
    out.persons = persons.iter().map(|p| p.as_str().to_string()).collect();
    out.items.extend(extra);
    out
}

/// A hostile file naming bob — bob already keeps 우리집 here and recorded under the same
/// key — is refused whatever it tries, naming what it tried, and nothing is written:
/// bob's partition is as it was, his retry still replays, his rename still works, and
/// nothing of the vault is in the store. The honest file then restores.
pub async fn a_restore_that_names_other_people_writes_nothing<S: Store>(store: S) {
    let store: Arc<dyn Store> = Arc::new(store);
    let (l, _) = ledger_over(store.clone());
    let (alice, bob) = (fresh_person("restore-alice"), fresh_person("restore-bob"));
    let shared_key = key();
    let honest = backup_elsewhere(&alice, &shared_key).await;
    vault(&l, &bob, "우리집").await;
    account(&l, &bob, "현금", AccountKind::Asset, Some("10000")).await;
    account(&l, &bob, "교통비", AccountKind::Expense, None).await;
    let bobs = NewTransaction {
        idempotency_key: shared_key.clone(),
        ..tx("현금", "교통비", "1250", Some("2026-03-15"), "버스")
    };
    let first = record(&l, &bob, bobs.clone()).await;
    let bob_pk = table::person_pk(&bob);
    let before = partition(store.as_ref(), bob_pk.clone()).await;
    let vault_pk = table::vault_pk(honest.vault_id);
    let bob_vault = call!(l.list_vaults(&bob)).expect("list_vaults").vaults[0].vault_id;

    let claim_of = |vault: VaultId, name: &str| Item {
        key: vault::vault_name(&bob, &NameKey::of(name)),
        attrs: [("vaultId".to_string(), Value::S(vault.to_string()))].into(),
    };
    let mut foreign_record = copied_to(&honest, &alice, &bob, false)
        .into_iter()
        .find(|i| i.key.sk.starts_with("IK#"))
        .expect("alice's record");
    foreign_record.key.sk = format!("IK#{}", key());
    foreign_record
        .attrs
        .insert("vaultId".into(), Value::S(bob_vault.to_string()));
    let mut twice = honest.clone();
    twice.items.push(twice.items[3].clone());
    let attempts: Vec<(Backup, String)> = vec![
        // bob named in the header, his items copied from alice's: he is no member in it.
        (
            with(&honest, &[&alice, &bob], copied_to(&honest, &alice, &bob, false)),
            format!(
                "the backup's header names {}, who is not a member of the vault in it",
                bob.as_str()
            ),
        ),
        // bob made a member in the file: his record under the shared key is his already.
        (
            with(&honest, &[&alice, &bob], copied_to(&honest, &alice, &bob, true)),
            format!("item {bob_pk}/IK#{shared_key} is already in this store with other content"),
        ),
        // A claim on bob's own vault's name, which his membership of 공격 does not hold.
        (
            with(
                &honest,
                &[&alice, &bob],
                [
                    copied_to(&honest, &alice, &bob, true),
                    vec![claim_of(honest.vault_id, "우리집")],
                ]
                .concat(),
            ),
            format!(
                "item {bob_pk}/VN#우리집 is not this vault's to restore (a name claim the person's membership does not hold)"
            ),
        ),
        // A record whose result is of another vault.
        (
            with(
                &honest,
                &[&alice],
                vec![Item {
                    key: dochiya_store::Key::new(table::person_pk(&alice), foreign_record.key.sk.clone()),
                    attrs: foreign_record.attrs.clone(),
                }],
            ),
            "is not this vault's to restore (an idempotency record whose result is not of this vault)"
                .to_string(),
        ),
        (
            twice.clone(),
            format!(
                "item {}/{} appears twice in the backup",
                twice.items[3].key.pk, twice.items[3].key.sk
            ),
        ),
    ];
    for (file, expected) in attempts {
        let e = l.restore(&file).await.unwrap_err().to_string();
        assert!(e.contains(&expected), "{e}\nexpected: {expected}");
        assert!(e.ends_with("nothing was written"), "{e}");
        assert_eq!(partition(store.as_ref(), bob_pk.clone()).await, before);
        assert_eq!(partition(store.as_ref(), vault_pk.clone()).await, vec![]);
    }
    // bob's book is as it was.
    let again = record(&l, &bob, bobs).await;
    assert_eq!(
        (again.replayed, again.transaction.transaction_id),
        (true, first.transaction.transaction_id)
    );
    let names: Vec<String> = call!(l.list_vaults(&bob))
        .expect("list_vaults")
        .vaults
        .into_iter()
        .map(|v| v.name)
        .collect();
    assert_eq!(names, ["우리집"]);
    call!(l.rename_vault(&bob, "우리집", "새집")).expect("rename");
    // The honest file restores: alice's vault, her entry, and nothing of bob's.
    let restored = l.restore(&honest).await.expect("restore");
    assert!(!restored.already_there);
    let hers = call!(l.list_vaults(&alice)).expect("list_vaults").vaults;
    assert_eq!(hers.iter().map(|v| v.name.as_str()).collect::<Vec<_>>(), ["공격"]);
    assert_eq!(all_transactions(&l, &alice).await.len(), 2);
    let bob_after = partition(store.as_ref(), bob_pk).await;
    assert!(
        bob_after
            .iter()
            .all(|i| !i.key.sk.contains(&honest.vault_id.to_string()))
    );
}

/// The contract tests of this file, instantiated by [`crate::ledger_contract_tests!`]
/// for every store: a test is registered here, beside its code.
#[doc(hidden)]
#[macro_export]
macro_rules! __ledger_suite_restore {
    ($factory:expr) => {
        $crate::__ledger_contract_tests!(
            $factory;
            a_restore_that_names_other_people_writes_nothing,
        );
    };
}
