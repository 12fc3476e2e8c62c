//! Contract tests of changing a budget, on every store: `set_budget` changes only what
//! it is sent (an omitted `rollover` or `repeat` stays as set), and a month's
//! `percentUsed` counts what was carried in, so it never disagrees with `over`.

use super::*;

/// (budget, carried, spent, remaining, percentUsed, over) of 식비's row in `on`.
type Row = (String, Option<String>, String, String, Option<i64>, bool);

async fn food_row(l: &Ledger, who: &PersonId, on: &str) -> Row {
    let r = call!(l.budget_report(who, None, Some(month(on)))).expect("budget_report");
    let x = r.rows.iter().find(|x| x.account == "식비").expect("식비 row");
    (
        x.budget.to_string(),
        x.carried.map(|c| c.to_string()),
        x.spent.to_string(),
        x.remaining.to_string(),
        x.percent_used,
        x.over,
    )
}

fn row(
    budget: &str,
    carried: Option<&str>,
    spent: &str,
    remaining: &str,
    percent: Option<i64>,
    over: bool,
) -> Row {
    (
        budget.into(),
        carried.map(Into::into),
        spent.into(),
        remaining.into(),
        percent,
        over,
    )
}

/// A setting of 식비 for `on` sending only the amount (and what `then` adds).
fn food(amount: &str, on: &str, then: impl FnOnce(BudgetInput) -> BudgetInput) -> BudgetInput {
    then(BudgetInput {
        repeat: None,
        rollover: None,
        ..budget("식비", amount, Some(on), true)
    })
}

/// Changing a budget's amount keeps its rollover and repeat; the percent counts the carry.
pub async fn budget_changes_keep_what_is_not_sent<S: Store>(store: S) {
    let (l, _) = ledger_over(Arc::new(store));
    let me = fresh_person("budget-kept");
    household(&l, &me).await;
    let set = |b: BudgetInput| {
        let (l, me) = (&l, &me);
        async move {
            let s = set_budget(l, me, b).await;
            (s.amount.to_string(), s.repeat, s.rollover)
        }
    };
    let on = |rollover: bool| {
        move |b: BudgetInput| BudgetInput {
            rollover: Some(rollover),
            ..b
        }
    };
    assert_eq!(
        set(food("100000", "2026-01", on(true))).await,
        ("100000".into(), true, true)
    );
    record(
        &l,
        &me,
        tx("카카오뱅크", "식비", "150000", Some("2026-01-10"), "1월 장보기"),
    )
    .await;
    assert_eq!(
        food_row(&l, &me, "2026-01").await,
        row("100000", None, "150000", "-50000", Some(150), true)
    );

    // A new amount from February, nothing else sent: it still rolls over and repeats.
    assert_eq!(
        set(food("90000", "2026-02", |b| b)).await,
        ("90000".into(), true, true)
    );
    record(
        &l,
        &me,
        tx("카카오뱅크", "식비", "68400", Some("2026-02-10"), "2월 장보기"),
    )
    .await;
    // 68,400 of 90,000 − 50,000 carried: 171 %, over (not the 76 % of the budget alone).
    let february = row("90000", Some("-50000"), "68400", "-28400", Some(171), true);
    assert_eq!(food_row(&l, &me, "2026-02").await, february);
    assert_eq!(
        set(food("90000", "2026-02", |b| b)).await,
        ("90000".into(), true, true)
    );
    assert_eq!(food_row(&l, &me, "2026-02").await, february);

    // Turned off for March, sent: off; the chain before March still carries in. The
    // carried overspending eats the whole budget: no percent, and over.
    assert_eq!(
        set(food("20000", "2026-03", on(false))).await,
        ("20000".into(), true, false)
    );
    assert_eq!(
        food_row(&l, &me, "2026-03").await,
        row("20000", Some("-28400"), "12000", "-20400", None, true)
    );
    let totals = call!(l.budget_report(&me, None, Some(month("2026-03"))))
        .expect("report")
        .totals;
    assert_eq!(
        (totals.remaining.to_string(), totals.percent_used, totals.over),
        ("-20400".into(), None, true)
    );
    // March's amount changed, rollover not sent: it stays off.
    assert_eq!(
        set(food("30000", "2026-03", |b| b)).await,
        ("30000".into(), true, false)
    );
    assert_eq!(
        food_row(&l, &me, "2026-03").await,
        row("30000", Some("-28400"), "12000", "-10400", Some(750), true)
    );

    // April alone, then its amount changed without `repeat`: still April alone, so May
    // has March's budget again.
    let april_only = |b: BudgetInput| BudgetInput {
        repeat: Some(false),
        ..b
    };
    assert_eq!(
        set(food("50000", "2026-04", april_only)).await,
        ("50000".into(), false, false)
    );
    assert_eq!(
        set(food("60000", "2026-04", |b| b)).await,
        ("60000".into(), false, false)
    );
    assert_eq!(food_row(&l, &me, "2026-04").await.0, "60000");
    assert_eq!(food_row(&l, &me, "2026-05").await.0, "30000");
}

/// The contract tests of this file, instantiated by [`crate::ledger_contract_tests!`]
/// for every store: a test is registered here, beside its code.
#[doc(hidden)]
#[macro_export]
macro_rules! __ledger_suite_budget_settings {
    ($factory:expr) => {
        $crate::__ledger_contract_tests!(
            $factory;
            budget_changes_keep_what_is_not_sent,
        );
    };
}
