//! Contract tests of savings goals (decision 061): progress from the account's balance
//! today, the monthly amount and the straight line, a goal changed and stopped, and the
//! refusals, every figure worked out by hand beside it.

use super::*;

fn goal(name: &str, account: &str, target: Option<&str>, by: Option<&str>) -> GoalInput {
    GoalInput {
        vault: None,
        name: name.into(),
        account: account.into(),
        target: target.map(d),
        by: by.map(date),
        remove: false,
    }
}

/// (saved, left, monthlyNeeded, onTrack) as strings.
fn progress(g: &GoalView) -> (String, String, Option<String>, Option<bool>) {
    (
        g.saved.to_string(),
        g.left.to_string(),
        g.monthly_needed.map(|m| m.to_string()),
        g.on_track,
    )
}

/// 여행 자금: 3,000,000 by 2026-08-31 in 여행통장, which holds 500,000 on 2026-03-15.
/// Left 2,500,000 over March–August (6 months): 416,666.67 → 416,667 a month; on the
/// day it is set the straight line is at 0, so it is on track. On 2026-05-15, with
/// 300,000 more saved: 800,000 against the line 3,000,000 × 61/169 days = 1,082,840 —
/// behind; 2,200,000 left over May–August: 550,000 a month. Lowered to 2,000,000 (the
/// line starts on March 15 still): 2,000,000 × 61/169 = 721,893 — on track; 1,200,000
/// left: 300,000 a month.
pub async fn a_goal_shows_its_progress_from_the_balance_today<S: Store>(store: S) {
    let (l, clock) = ledger_over(Arc::new(store));
    let me = fresh_person("goal");
    household(&l, &me).await;
    account(&l, &me, "여행통장", AccountKind::Asset, Some("500000")).await;
    let set = call!(l.set_goal(
        &me,
        goal("여행 자금", "여행통장", Some("3000000"), Some("2026-08-31"))
    ))
    .expect("goal");
    assert!(set.created && !set.removed);
    assert_eq!(
        (
            set.goal.name.as_str(),
            set.goal.account.as_str(),
            set.goal.target.to_string(),
            set.goal.by
        ),
        (
            "여행 자금",
            "여행통장",
            "3000000".to_string(),
            Some(date("2026-08-31"))
        )
    );
    assert_eq!(
        progress(&set.goal),
        (
            "500000".into(),
            "2500000".into(),
            Some("416667".into()),
            Some(true)
        )
    );

    clock.advance_seconds(61 * 86_400);
    record(
        &l,
        &me,
        tx("카카오뱅크", "여행통장", "300000", Some("2026-04-10"), "적립"),
    )
    .await;
    // An entry dated after today is not saved yet.
    record(
        &l,
        &me,
        tx(
            "카카오뱅크",
            "여행통장",
            "100000",
            Some("2026-05-20"),
            "예약 이체",
        ),
    )
    .await;
    let report = call!(l.budget_report(&me, None, None)).expect("budget_report");
    assert_eq!(report.goals.len(), 1);
    assert_eq!(
        progress(&report.goals[0]),
        (
            "800000".into(),
            "2200000".into(),
            Some("550000".into()),
            Some(false)
        )
    );
    let listed = call!(l.list_accounts(&me, None, false)).expect("accounts");
    let travel = listed
        .accounts
        .iter()
        .find(|a| a.name == "여행통장")
        .expect("여행통장");
    assert_eq!(travel.goal.as_ref(), Some(&report.goals[0]));
    assert!(
        listed
            .accounts
            .iter()
            .filter(|a| a.name != "여행통장")
            .all(|a| a.goal.is_none())
    );

    // The same goal again writes nothing; a lower target keeps the goal's first day.
    let again = call!(l.set_goal(
        &me,
        goal("여행 자금", "여행통장", Some("3000000"), Some("2026-08-31"))
    ))
    .expect("again");
    assert!(!again.created);
    let lower = call!(l.set_goal(
        &me,
        goal("여행 자금", "여행통장", Some("2000000"), Some("2026-08-31"))
    ))
    .expect("lower");
    assert!(!lower.created);
    assert_eq!(
        progress(&lower.goal),
        (
            "800000".into(),
            "1200000".into(),
            Some("300000".into()),
            Some(true)
        )
    );
    // Without `by`: no monthly amount, no line.
    let open = call!(l.set_goal(&me, goal("여행 자금", "여행통장", Some("2000000"), None))).expect("open");
    assert_eq!(
        progress(&open.goal),
        ("800000".into(), "1200000".into(), None, None)
    );

    // Stopped: the goal as it was, then gone; a second removal finds none.
    let stop = GoalInput {
        remove: true,
        ..goal("여행 자금", "여행통장", None, None)
    };
    let removed = call!(l.set_goal(&me, stop.clone())).expect("remove");
    assert!(removed.removed && !removed.created);
    assert_eq!(removed.goal.name, "여행 자금");
    let e = call!(l.set_goal(&me, stop.clone())).unwrap_err();
    assert!(
        matches!(
            &e,
            LedgerError::NotFound {
                what: Entity::Goal,
                ..
            }
        ),
        "{e:?}"
    );
    assert!(
        call!(l.budget_report(&me, None, None))
            .expect("report")
            .goals
            .is_empty()
    );
    let balance = balances(&l, &me).await["여행통장"].clone();
    assert_eq!(balance, "800000");
}

/// Refused, nothing stored: a goal on an account that is not an asset, a target of zero
/// or none, a date already past, a name another account's goal has, another name on
/// an account that keeps a goal.
pub async fn bad_goals_are_refused_and_change_nothing<S: Store>(store: S) {
    let (l, _clock) = ledger_over(Arc::new(store));
    let me = fresh_person("goal-bad");
    household(&l, &me).await;
    account(&l, &me, "적금", AccountKind::Asset, None).await;
    call!(l.set_goal(&me, goal("비상금", "적금", Some("1000000"), None))).expect("goal");
    let refused = |g: GoalInput, why: Reason| {
        let l = &l;
        let me = &me;
        async move {
            let e = call!(l.set_goal(me, g.clone())).unwrap_err();
            assert!(
                matches!(&e, LedgerError::InvalidInput { field: Field::Category("goal"), reason } if *reason == why),
                "{e:?}"
            );
        }
    };
    refused(
        goal("식비 아끼기", "식비", Some("100000"), None),
        Reason::GoalNotInAsset {
            account: "식비".into(),
            kind: AccountKind::Expense,
        },
    )
    .await;
    refused(
        goal("카드", "신한카드", Some("100000"), None),
        Reason::GoalNotInAsset {
            account: "신한카드".into(),
            kind: AccountKind::Liability,
        },
    )
    .await;
    refused(
        goal("차", "현금", Some("0"), None),
        Reason::TargetNotPositive {
            got: dochiya_domain::Money::from_minor(0, Currency::KRW),
        },
    )
    .await;
    refused(goal("차", "현금", None, None), Reason::GoalWithoutTarget).await;
    refused(
        goal("차", "현금", Some("1000"), Some("2026-03-14")),
        Reason::GoalDatePassed {
            by: date("2026-03-14"),
            today: date("2026-03-15"),
        },
    )
    .await;
    refused(
        goal("비상금", "현금", Some("1000"), None),
        Reason::GoalNameTaken {
            goal: "비상금".into(),
            account: "적금".into(),
        },
    )
    .await;
    refused(
        goal("여행", "적금", Some("1000"), None),
        Reason::AccountHasGoal {
            account: "적금".into(),
            goal: "비상금".into(),
        },
    )
    .await;
    let report = call!(l.budget_report(&me, None, None)).expect("report");
    let names: Vec<(&str, &str, String)> = report
        .goals
        .iter()
        .map(|g| (g.name.as_str(), g.account.as_str(), g.target.to_string()))
        .collect();
    assert_eq!(names, vec![("비상금", "적금", "1000000".to_string())]);
}

/// The contract tests of this file, instantiated by [`crate::ledger_contract_tests!`]
/// for every store: a test is registered here, beside its code.
#[doc(hidden)]
#[macro_export]
macro_rules! __ledger_suite_goals {
    ($factory:expr) => {
        $crate::__ledger_contract_tests!(
            $factory;
            a_goal_shows_its_progress_from_the_balance_today,
            bad_goals_are_refused_and_change_nothing,
        );
    };
}
