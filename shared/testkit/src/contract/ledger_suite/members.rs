//! Contract tests of member display names and the member cap: unique names after
//! folding, invisible characters refused, exactly one member per name in
//! `remove_member`, and the cap held under concurrent joins.

use super::*;

fn names(members: &[MemberInfo]) -> Vec<&str> {
    members.iter().map(|m| m.name.as_str()).collect()
}

/// `alice` beside the owner `Alice` joins as `alice (2)`; a name asked for that folds
/// like another member's is refused, as is one with an invisible character; every
/// member can be named exactly once, so removal always works.
pub async fn member_names_are_unique_and_each_removable<S: Store>(store: S) {
    let (l, clock) = ledger_over(Arc::new(store));
    let owner = named_person("names-owner", "Alice");
    household(&l, &owner).await;
    let share = || async {
        call!(l.share_vault(&owner, None, Role::Member))
            .expect("share")
            .invite_code
    };

    // A token name that is taken is numbered.
    let twin = named_person("names-twin", "alice");
    clock.advance_seconds(60);
    let joined = call!(l.join_vault(&twin, &share().await, None)).expect("join");
    assert_eq!(names(&joined.members), vec!["Alice", "alice (2)"]);
    clock.advance_seconds(60);

    // A name asked for is never numbered: refused when it folds like a member's (NFKC, case).
    let third = named_person("names-third", "Carol");
    let code = share().await;
    for asked in ["ＡＬＩＣＥ", "alice (2)", " Alice "] {
        let e = call!(l.join_vault_as(&third, &code, None, Some(asked))).unwrap_err();
        assert!(
            matches!(&e, LedgerError::MemberNameTaken { name } if name == asked.trim()),
            "{e:?}"
        );
    }
    // Invisible and text-direction characters are refused as in account names.
    let e = call!(l.join_vault_as(&third, &code, None, Some("Bob\u{200B}"))).unwrap_err();
    assert!(
        matches!(&e, LedgerError::InvalidInput { reason: Reason::Parse(p), .. } if p.message().contains("U+200B (zero width space)")),
        "{e:?}"
    );
    let e = call!(l.join_vault_as(&third, &code, None, Some("\u{202E}boB"))).unwrap_err();
    assert!(
        matches!(&e, LedgerError::InvalidInput { reason: Reason::Parse(p), .. } if p.message().contains("U+202E (a text direction control)")),
        "{e:?}"
    );
    // The code is still unused: the refusals changed nothing.
    let joined = call!(l.join_vault_as(&third, &code, None, Some("Bob"))).expect("join as Bob");
    assert_eq!(names(&joined.members), vec!["Alice", "alice (2)", "Bob"]);

    clock.advance_seconds(60);
    // A token name with an invisible character shows without it, and is numbered.
    let sneaky = named_person("names-sneaky", "Bob\u{200B}");
    let joined = call!(l.join_vault(&sneaky, &share().await, None)).expect("join");
    assert_eq!(
        names(&joined.members),
        vec!["Alice", "alice (2)", "Bob", "Bob (2)"]
    );

    // Each name means exactly one member.
    let removed = call!(l.remove_member(&owner, None, "ALICE (2)")).expect("remove the twin");
    assert_eq!(removed.member, "alice (2)");
    let removed = call!(l.remove_member(&owner, None, "bob (2)")).expect("remove the sneaky one");
    assert_eq!(removed.member, "Bob (2)");
    let left = call!(l.list_members(&owner, None)).expect("members");
    assert_eq!(names(&left.members), vec!["Alice", "Bob"]);
    let e = call!(l.remove_member(&owner, None, "alice")).unwrap_err();
    assert!(
        matches!(
            &e,
            LedgerError::InvalidInput {
                field: Field::Member,
                reason: Reason::RemovingYourself
            }
        ),
        "{e:?}"
    );
}

/// With 17 members, six people join at once with six invites: exactly three get in and
/// three hear the cap, so the vault ends with [`MAX_MEMBERS`] (21 and 22 were seen when
/// the write after a fresh read was guarded only on the vault existing).
pub async fn concurrent_joins_hold_the_member_cap<S: Store>(store: S) {
    let (l, _) = ledger_over(Arc::new(store));
    let owner = named_person("cap-owner", "민지");
    household(&l, &owner).await;
    for i in 0..16 {
        let code = call!(l.share_vault(&owner, None, Role::Member))
            .expect("share")
            .invite_code;
        let p = named_person(&format!("cap-early-{i}"), &format!("사람{i}"));
        call!(l.join_vault(&p, &code, None)).expect("join");
    }
    let mut codes = Vec::new();
    for _ in 0..6 {
        codes.push(
            call!(l.share_vault(&owner, None, Role::Member))
                .expect("share")
                .invite_code,
        );
    }
    let mut tasks = Vec::new();
    for (i, code) in codes.into_iter().enumerate() {
        let l = l.clone();
        let p = named_person(&format!("cap-race-{i}"), &format!("경쟁{i}"));
        tasks.push(tokio::spawn(async move { call!(l.join_vault(&p, &code, None)) }));
    }
    let mut outcomes = Vec::new();
    for t in tasks {
        outcomes.push(t.await.expect("task"));
    }
    let ok = outcomes.iter().filter(|o| o.is_ok()).count();
    let capped = outcomes
        .iter()
        .filter(|o| {
            matches!(
                o,
                Err(LedgerError::InvalidInput {
                    reason: Reason::VaultFull { max: 20 },
                    ..
                })
            )
        })
        .count();
    assert_eq!((ok, capped), (3, 3), "{outcomes:?}");
    let members = call!(l.list_members(&owner, None)).expect("members").members;
    assert_eq!(members.len(), MAX_MEMBERS);
}

/// The contract tests of this file, instantiated by [`crate::ledger_contract_tests!`]
/// for every store: a test is registered here, beside its code.
#[doc(hidden)]
#[macro_export]
macro_rules! __ledger_suite_members {
    ($factory:expr) => {
        $crate::__ledger_contract_tests!(
            $factory;
            member_names_are_unique_and_each_removable,
            concurrent_joins_hold_the_member_cap,
        );
    };
}
