//! Contract tests of what the third round's tool surface needs from the ledger, on
//! every store: bringing an archived account back, and members in `list_vaults`.

use super::*;

/// The first vault's live account count, as list_vaults shows it.
async fn live_accounts(l: &Ledger, me: &PersonId) -> u32 {
    call!(l.list_vaults(me)).expect("list_vaults").vaults[0].account_count
}

/// An archived account comes back under its name or a new one, live again with its
/// history; a live name in the way is refused; bringing back a live one writes nothing.
pub async fn archived_accounts_come_back<S: Store>(store: S) {
    let (l, _clock) = ledger_over(Arc::new(store));
    let me = fresh_person("restore");
    household(&l, &me).await;
    let before = live_accounts(&l, &me).await;
    call!(l.archive_account(&me, None, "식비", true)).expect("archive");
    assert_eq!(live_accounts(&l, &me).await, before - 1);
    let back = call!(l.restore_account(&me, None, "식비 (archived 2026-03-15)", None)).expect("restore");
    assert_eq!(
        (back.name.as_str(), back.kind, back.restored),
        ("식비", AccountKind::Expense, true)
    );
    assert_eq!(live_accounts(&l, &me).await, before);
    // Live again with its history: its balance is what it was, and new entries may use it.
    let listed = call!(l.list_accounts(&me, None, false)).expect("list_accounts");
    let food = listed
        .accounts
        .iter()
        .find(|a| a.name == "식비")
        .expect("식비 listed");
    assert_eq!(
        (food.balance.to_string(), food.archived),
        ("12000".to_owned(), false)
    );
    record(&l, &me, tx("현금", "식비", "3000", Some("2026-03-15"), "간식")).await;
    // A repeat writes nothing.
    let again = call!(l.restore_account(&me, None, "식비", None)).expect("restore again");
    assert!(!again.restored);

    // A live account took the name meanwhile: refused, then back under another name.
    call!(l.archive_account(&me, None, "쇼핑", true)).expect("archive 쇼핑");
    account(&l, &me, "쇼핑", AccountKind::Expense, None).await;
    let e = call!(l.restore_account(&me, None, "쇼핑 (archived 2026-03-15)", None)).unwrap_err();
    assert!(
        matches!(&e, LedgerError::NameTaken { what: Entity::Account, name, .. } if name == "쇼핑"),
        "{e:?}"
    );
    let renamed = call!(l.restore_account(&me, None, "쇼핑 (archived 2026-03-15)", Some("옛 쇼핑")))
        .expect("restore as");
    assert_eq!((renamed.name.as_str(), renamed.restored), ("옛 쇼핑", true));
    let listed = call!(l.list_accounts(&me, None, false)).expect("list_accounts");
    let old = listed
        .accounts
        .iter()
        .find(|a| a.name == "옛 쇼핑")
        .expect("옛 쇼핑 listed");
    assert_eq!(old.balance.to_string(), "250000");
    // Its old name and a handle-shaped new one are refused.
    let e = call!(l.restore_account(&me, None, "옛 쇼핑", Some("x (archived 2026-01-01)"))).unwrap_err();
    assert!(
        matches!(
            e,
            LedgerError::InvalidInput {
                field: Field::NewName,
                ..
            }
        ),
        "{e:?}"
    );
}

/// `list_vaults` shows each vault's members: the founder alone before sharing (no
/// read for it), everyone after, oldest first, the caller marked.
pub async fn list_vaults_shows_members<S: Store>(store: S) {
    let (l, _clock) = ledger_over(Arc::new(store));
    let a = named_person("members-a", "민지");
    let b = named_person("members-b", "준호");
    household(&l, &a).await;
    let shown = |list: &VaultList| -> Vec<(String, Role, bool)> {
        list.vaults[0]
            .members
            .iter()
            .map(|m| (m.name.clone(), m.role, m.you))
            .collect()
    };
    let alone = call!(l.list_vaults(&a)).expect("list_vaults");
    assert_eq!(shown(&alone), vec![("민지".to_owned(), Role::Owner, true)]);
    let invite = call!(l.share_vault(&a, None, Role::Member)).expect("share_vault");
    call!(l.join_vault(&b, &invite.invite_code, None)).expect("join_vault");
    let shared = call!(l.list_vaults(&b)).expect("list_vaults");
    assert_eq!(
        shown(&shared),
        vec![
            ("민지".to_owned(), Role::Owner, false),
            ("준호".to_owned(), Role::Member, true)
        ]
    );
    assert_eq!(shared.vaults[0].member_count, 2);
}

/// The contract tests of this file, instantiated by [`crate::ledger_contract_tests!`]
/// for every store: a test is registered here, beside its code.
#[doc(hidden)]
#[macro_export]
macro_rules! __ledger_suite_surface {
    ($factory:expr) => {
        $crate::__ledger_contract_tests!(
            $factory;
            archived_accounts_come_back,
            list_vaults_shows_members,
        );
    };
}
