//! Contract test of the caps under concurrent creates (decision 048): the count a cap
//! is checked against is part of the creating write's condition, so creations racing
//! past the cap cannot all land. The caps are lowered (12 accounts, 6 schedules) so
//! the race is reached in a few writes on every store; the code path is the one the
//! defaults (500, 50) take.

use super::*;

/// Outcome of one racing create, after calling again on "call again" as a client would.
#[derive(Debug, PartialEq, Eq)]
enum Raced {
    Created,
    Capped,
}

/// Run `make` until it is not [`LedgerError::Conflict`]; anything but a cap refusal is a bug.
async fn settle<T, F, Fut>(cap: Reason, mut make: F) -> Raced
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Result<T, LedgerError>>,
{
    loop {
        match make().await {
            Ok(_) => return Raced::Created,
            Err(LedgerError::Conflict) | Err(LedgerError::Transient(_)) => {}
            Err(LedgerError::InvalidInput { reason, .. }) if reason == cap => {
                return Raced::Capped;
            }
            Err(e) => panic!("unexpected: {e:?}"),
        }
    }
}

/// 20 account creations race for the last 4 places and 20 schedule creations for the
/// last 3: exactly the cap is created, every other call is refused with the cap.
pub async fn caps_hold_under_concurrent_creates<S: Store>(store: S) {
    let clock = Arc::new(ManualClock::at_unix_seconds(NOON_KST_2026_03_15));
    let config = LedgerConfig {
        max_accounts: 12,
        max_schedules: 6,
        ..LedgerConfig::default()
    };
    let l = Ledger::new(Arc::new(store), clock, config);
    let me = fresh_person("caps");
    vault(&l, &me, "가계부").await;
    account(&l, &me, "카카오뱅크", AccountKind::Asset, None).await;
    for i in 0..7 {
        account(&l, &me, &format!("지출{i}"), AccountKind::Expense, None).await;
    }
    let mut tasks = Vec::new();
    for i in 0..20 {
        let (l, me) = (l.clone(), me.clone());
        tasks.push(tokio::spawn(async move {
            settle(Reason::TooManyAccounts { max: 12 }, || {
                l.create_account(
                    &me,
                    NewAccount {
                        vault: None,
                        name: format!("경쟁{i}"),
                        kind: AccountKind::Expense,
                        opening_balance: None,
                        opening_date: None,
                        parent: None,
                        billing: None,
                        owner: None,
                    },
                )
            })
            .await
        }));
    }
    let mut created = 0;
    for t in tasks {
        created += usize::from(t.await.expect("task") == Raced::Created);
    }
    assert_eq!(created, 4);
    let accounts = call!(l.list_accounts(&me, None, true)).expect("list_accounts");
    assert_eq!(accounts.accounts.len(), 12);

    for i in 0..3 {
        call!(l.set_recurring(&me, schedule(&format!("일정{i}")))).expect("set_recurring");
    }
    let mut tasks = Vec::new();
    for i in 0..20 {
        let (l, me) = (l.clone(), me.clone());
        tasks.push(tokio::spawn(async move {
            settle(Reason::TooManySchedules { max: 6 }, || {
                l.set_recurring(&me, schedule(&format!("경쟁{i}")))
            })
            .await
        }));
    }
    let mut created = 0;
    for t in tasks {
        created += usize::from(t.await.expect("task") == Raced::Created);
    }
    assert_eq!(created, 3);
    let listed = call!(l.list_recurring(&me, None, None)).expect("list_recurring");
    assert_eq!(listed.recurring.len(), 6);
    // A removal makes room again.
    let removed = RecurringInput {
        name: "일정0".into(),
        remove: true,
        ..Default::default()
    };
    call!(l.set_recurring(&me, removed.clone())).expect("remove");
    call!(l.set_recurring(&me, schedule("다시"))).expect("room again");
}

/// A monthly 1,000 on the 28th from 카카오뱅크 to 지출0 named `name`.
fn schedule(name: &str) -> RecurringInput {
    RecurringInput {
        name: name.into(),
        from: Some("카카오뱅크".into()),
        to: Some("지출0".into()),
        amount: Some(d("1000")),
        day: Some(28),
        ..Default::default()
    }
}

/// The contract tests of this file, instantiated by [`crate::ledger_contract_tests!`]
/// for every store: a test is registered here, beside its code.
#[doc(hidden)]
#[macro_export]
macro_rules! __ledger_suite_caps {
    ($factory:expr) => {
        $crate::__ledger_contract_tests!(
            $factory;
            caps_hold_under_concurrent_creates,
        );
    };
}
