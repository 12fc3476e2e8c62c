//! Contract tests of a card's 실적 (decision 061): what counts over a bill's usage
//! period (charges, refunds, a 할부 purchase in full, a split's card part), what an
//! excluded category takes, and the refusals.

use super::cards::{book, buy, card, cycle, purchase};
use super::*;

fn setting(threshold: &str, exclude: &[&str]) -> PerformanceInput {
    PerformanceInput {
        threshold: d(threshold),
        exclude: exclude.iter().map(|s| s.to_string()).collect(),
    }
}

fn figures(p: &PerformanceView) -> (String, String, String, String) {
    (
        p.counted.to_string(),
        p.threshold.to_string(),
        p.left.to_string(),
        p.excluded.to_string(),
    )
}

/// 신한카드, cycle 전월 1일–말일 paid on the 14th, 실적 500,000 without 관리비. March:
/// 관리비 150,000 (excluded); 식비 40,000; a 식비 refund of 10,000; 가전 120,000 in 3
/// parts (counted in full now); one receipt of 50,000 on the card split 30,000 식비 and
/// 20,000 관리비 (30,000 counted, 20,000 excluded); a payment of 100,000 (never counted).
/// Counted 40,000 − 10,000 + 120,000 + 30,000 = 180,000, excluded 170,000, left 320,000.
/// February's bill (January's period) counts nothing.
pub async fn a_cards_performance_counts_its_period<S: Store>(store: S) {
    let (l, _clock) = ledger_over(Arc::new(store));
    let me = fresh_person("perf");
    book(&l, &me).await;
    account(&l, &me, "관리비", AccountKind::Expense, None).await;
    card(&l, &me, "신한카드", None).await;
    let set = call!(l.set_billing_with(
        &me,
        None,
        "신한카드",
        Some(cycle(31, 14)),
        Some(&setting("500000", &["관리비"]))
    ))
    .expect("billing with 실적");
    assert!(set.changed);
    buy(
        &l,
        &me,
        purchase("신한카드", "관리비", "150000", "2026-03-05", "3월 관리비", None),
    )
    .await;
    buy(
        &l,
        &me,
        purchase("신한카드", "식비", "40000", "2026-03-06", "마트", None),
    )
    .await;
    record(
        &l,
        &me,
        tx("식비", "신한카드", "10000", Some("2026-03-07"), "마트 환불"),
    )
    .await;
    buy(
        &l,
        &me,
        purchase("신한카드", "가전", "120000", "2026-03-08", "청소기", Some(3)),
    )
    .await;
    let split = NewSplit {
        to: vec![
            SplitLine {
                account: "식비".into(),
                amount: d("30000"),
            },
            SplitLine {
                account: "관리비".into(),
                amount: d("20000"),
            },
        ],
        ..purchase("신한카드", "식비", "50000", "2026-03-09", "생활", None)
    };
    buy(&l, &me, split).await;
    record(
        &l,
        &me,
        tx("카카오뱅크", "신한카드", "100000", Some("2026-03-10"), "선결제"),
    )
    .await;

    let b = call!(l.card_bill(&me, None, "신한카드", None)).expect("bill");
    assert_eq!((b.period.0, b.period.1), (date("2026-03-01"), date("2026-03-31")));
    assert_eq!(
        b.performance.as_ref().map(figures),
        Some(("180000".into(), "500000".into(), "320000".into(), "170000".into()))
    );
    let feb = call!(l.card_bill(&me, None, "신한카드", Some(month("2026-02")))).expect("february");
    assert_eq!(
        feb.performance.as_ref().map(figures),
        Some(("0".into(), "500000".into(), "500000".into(), "0".into()))
    );
    // The cycle sent again without 실적 keeps it; the same again changes nothing.
    let again = call!(l.set_billing(&me, None, "신한카드", Some(cycle(31, 14)))).expect("again");
    assert!(!again.changed);
    let b = call!(l.card_bill(&me, None, "신한카드", None)).expect("bill");
    assert_eq!(
        b.performance.as_ref().map(|p| p.counted.to_string()),
        Some("180000".into())
    );
    // A lower threshold is reached: left 0.
    call!(l.set_billing_with(
        &me,
        None,
        "신한카드",
        Some(cycle(31, 14)),
        Some(&setting("150000", &[]))
    ))
    .expect("lower");
    let b = call!(l.card_bill(&me, None, "신한카드", None)).expect("bill");
    // Nothing excluded now: 180,000 + 170,000 counted.
    assert_eq!(
        b.performance.as_ref().map(figures),
        Some(("350000".into(), "150000".into(), "0".into(), "0".into()))
    );
    // Clearing the cycle clears 실적.
    call!(l.set_billing(&me, None, "신한카드", None)).expect("clear");
    call!(l.set_billing(&me, None, "신한카드", Some(cycle(31, 14)))).expect("cycle only");
    let b = call!(l.card_bill(&me, None, "신한카드", None)).expect("bill");
    assert_eq!(b.performance, None);
}

/// Refused, nothing stored: a threshold of zero, an excluded name that is no account or
/// no expense category, 실적 without the cycle.
pub async fn bad_performance_settings_are_refused<S: Store>(store: S) {
    let (l, _clock) = ledger_over(Arc::new(store));
    let me = fresh_person("perf-bad");
    book(&l, &me).await;
    card(&l, &me, "신한카드", Some(cycle(31, 14))).await;
    let refused = |p: PerformanceInput, billing: Option<dochiya_domain::Billing>| {
        let l = &l;
        let me = &me;
        async move { call!(l.set_billing_with(me, None, "신한카드", billing, Some(&p))).unwrap_err() }
    };
    let e = refused(setting("0", &[]), Some(cycle(31, 14))).await;
    assert!(
        matches!(&e, LedgerError::InvalidInput { field: Field::Card("performance"), reason: Reason::ThresholdNotPositive { got } } if got.minor() == 0),
        "{e:?}"
    );
    let e = refused(setting("1000", &["카카오뱅크"]), Some(cycle(31, 14))).await;
    assert!(
        matches!(&e, LedgerError::InvalidInput { field: Field::Card("performance"), reason: Reason::ExcludeNotExpense { account, kind: AccountKind::Asset } }
            if account == "카카오뱅크"),
        "{e:?}"
    );
    let e = refused(setting("1000", &["없는것"]), Some(cycle(31, 14))).await;
    assert!(
        matches!(
            &e,
            LedgerError::NotFound {
                what: Entity::Account,
                ..
            }
        ),
        "{e:?}"
    );
    let e = refused(setting("1000", &[]), None).await;
    assert!(
        matches!(
            &e,
            LedgerError::InvalidInput {
                field: Field::Card("billing"),
                reason: Reason::PerformanceWithoutCycle
            }
        ),
        "{e:?}"
    );
    let b = call!(l.card_bill(&me, None, "신한카드", None)).expect("bill");
    assert_eq!(b.performance, None);
}

/// The contract tests of this file, instantiated by [`crate::ledger_contract_tests!`]
/// for every store: a test is registered here, beside its code.
#[doc(hidden)]
#[macro_export]
macro_rules! __ledger_suite_performance {
    ($factory:expr) => {
        $crate::__ledger_contract_tests!(
            $factory;
            a_cards_performance_counts_its_period,
            bad_performance_settings_are_refused,
        );
    };
}
