//! Contract tests of card bills (decision 040), on every store: the three common
//! cycles across month and year ends, installment parts (3 and 12), a refund, a
//! partial payment, an edited and a voided installment purchase, a bill with no
//! charges, the read budget of a bill, and the refusals.

use super::*;
use dochiya_domain::{Billing, Installments};

/// A cycle for the tests (valid by construction).
pub(super) fn cycle(closing: i64, payment: i64) -> Billing {
    Billing::new(closing, payment).expect("a test cycle")
}

/// A card (liability) with `billing`.
pub(super) async fn card(l: &Ledger, who: &PersonId, name: &str, billing: Option<Billing>) {
    call!(l.create_account(
        who,
        NewAccount {
            vault: None,
            name: name.into(),
            kind: AccountKind::Liability,
            opening_balance: None,
            opening_date: None,
            parent: None,
            billing,
            owner: None,
        }
    ))
    .expect("create card");
}

/// 가계부 with 카카오뱅크 (asset), 식비, 쇼핑, 가전 (expenses).
pub(super) async fn book(l: &Ledger, who: &PersonId) {
    vault(l, who, "가계부").await;
    account(l, who, "카카오뱅크", AccountKind::Asset, Some("10000000")).await;
    for e in ["식비", "쇼핑", "가전"] {
        account(l, who, e, AccountKind::Expense, None).await;
    }
}

/// A purchase of `amount` on `card` for `to`, in `parts` installments when given.
pub(super) fn purchase(
    card: &str,
    to: &str,
    amount: &str,
    on: &str,
    memo: &str,
    parts: Option<i64>,
) -> NewSplit {
    NewSplit {
        vault: None,
        from: vec![SplitLine {
            account: card.into(),
            amount: d(amount),
        }],
        to: vec![SplitLine {
            account: to.into(),
            amount: d(amount),
        }],
        date: Some(date(on)),
        memo: Some(memo.into()),
        idempotency_key: key(),
        allow_duplicate: false,
        future_date: false,
        dry_run: false,
        external_ref: None,
        tags: vec![],
        installments: parts.map(|n| Installments::new(n).expect("a test count")),
        for_whom: None,
    }
}

pub(super) async fn buy(l: &Ledger, who: &PersonId, p: NewSplit) -> Recorded {
    call!(l.record_split(who, p.clone())).expect("record")
}

pub(super) async fn bill(l: &Ledger, who: &PersonId, card: &str, paid_in: Option<&str>) -> CardBill {
    call!(l.card_bill(who, None, card, paid_in.map(month))).expect("card_bill")
}

/// (period from, to, due date).
fn dates_of(b: &CardBill) -> (String, String, String) {
    (
        b.period.0.to_string(),
        b.period.1.to_string(),
        b.due_date.to_string(),
    )
}

fn dates3(from: &str, to: &str, due: &str) -> (String, String, String) {
    (from.into(), to.into(), due.into())
}

/// (date, memo, amount, part) of one bill item.
pub(super) type ItemRow = (String, String, String, Option<(u8, u8)>);

/// Each item of a bill as an [`ItemRow`].
pub(super) fn items_of(b: &CardBill) -> Vec<ItemRow> {
    b.items
        .iter()
        .map(|i| (i.date.to_string(), i.memo.clone(), i.amount.to_string(), i.part))
        .collect()
}

pub(super) fn item(
    on: &str,
    memo: &str,
    amount: &str,
    part: Option<(u8, u8)>,
) -> (String, String, String, Option<(u8, u8)>) {
    (on.into(), memo.into(), amount.into(), part)
}

/// (total, paid, remaining).
pub(super) fn sums(b: &CardBill) -> (String, String, String) {
    (b.total.to_string(), b.paid.to_string(), b.remaining.to_string())
}

/// One account as list_accounts shows it.
async fn listed_card(l: &Ledger, who: &PersonId, name: &str) -> AccountInfo {
    call!(l.list_accounts(who, None, false))
        .expect("list_accounts")
        .accounts
        .into_iter()
        .find(|a| a.name == name)
        .expect("the card")
}

/// Closing 31 / paying 14, closing 18 / paying 1, closing 11 / paying 24: each charge
/// on the bill whose period holds it, across month and year ends.
pub async fn card_bills_follow_each_cycle<S: Store>(store: S) {
    let (l, _clock) = ledger_over(Arc::new(store));
    let me = fresh_person("card-cycles");
    book(&l, &me).await;
    card(&l, &me, "신한카드", Some(cycle(31, 14))).await;
    card(&l, &me, "삼성카드", Some(cycle(18, 1))).await;
    card(&l, &me, "삼성카드2", Some(cycle(11, 24))).await;
    for (card, on, amount) in [
        ("신한카드", "2025-10-31", "31000"),
        ("신한카드", "2025-11-01", "1100"),
        ("신한카드", "2025-12-31", "12310"),
        ("삼성카드", "2025-10-18", "1018"),
        ("삼성카드", "2025-10-19", "1019"),
        ("삼성카드", "2025-12-25", "1225"),
        ("삼성카드2", "2025-11-11", "1111"),
        ("삼성카드2", "2025-11-12", "1112"),
        ("삼성카드2", "2025-12-31", "1231"),
    ] {
        buy(&l, &me, purchase(card, "식비", amount, on, on, None)).await;
    }
    let cases = [
        (
            "신한카드",
            "2025-11",
            dates3("2025-10-01", "2025-10-31", "2025-11-14"),
            "2025-10-31",
            "31000",
        ),
        (
            "신한카드",
            "2025-12",
            dates3("2025-11-01", "2025-11-30", "2025-12-14"),
            "2025-11-01",
            "1100",
        ),
        (
            "신한카드",
            "2026-01",
            dates3("2025-12-01", "2025-12-31", "2026-01-14"),
            "2025-12-31",
            "12310",
        ),
        (
            "삼성카드",
            "2025-11",
            dates3("2025-09-19", "2025-10-18", "2025-11-01"),
            "2025-10-18",
            "1018",
        ),
        (
            "삼성카드",
            "2025-12",
            dates3("2025-10-19", "2025-11-18", "2025-12-01"),
            "2025-10-19",
            "1019",
        ),
        (
            "삼성카드",
            "2026-02",
            dates3("2025-12-19", "2026-01-18", "2026-02-01"),
            "2025-12-25",
            "1225",
        ),
        (
            "삼성카드2",
            "2025-11",
            dates3("2025-10-12", "2025-11-11", "2025-11-24"),
            "2025-11-11",
            "1111",
        ),
        (
            "삼성카드2",
            "2025-12",
            dates3("2025-11-12", "2025-12-11", "2025-12-24"),
            "2025-11-12",
            "1112",
        ),
        (
            "삼성카드2",
            "2026-01",
            dates3("2025-12-12", "2026-01-11", "2026-01-24"),
            "2025-12-31",
            "1231",
        ),
    ];
    for (card, paid_in, dates, on, amount) in cases {
        let b = bill(&l, &me, card, Some(paid_in)).await;
        assert_eq!(dates_of(&b), dates, "{card} {paid_in}");
        assert_eq!(items_of(&b), vec![item(on, on, amount, None)], "{card} {paid_in}");
        assert_eq!(
            sums(&b),
            (amount.into(), "0".into(), amount.into()),
            "{card} {paid_in}"
        );
        assert_eq!((b.account.as_str(), b.currency.code()), (card, "KRW"));
    }
    // A bill with no charges: its dates, nothing on it.
    let empty = bill(&l, &me, "삼성카드", Some("2026-01")).await;
    assert_eq!(dates_of(&empty), dates3("2025-11-19", "2025-12-18", "2026-01-01"));
    assert_eq!(
        (items_of(&empty), sums(&empty)),
        (vec![], ("0".into(), "0".into(), "0".into()))
    );
}

/// 100,000 in 3 → 33,334 + 33,333 + 33,333 on three bills, the first after the
/// purchase; a 12-part purchase beside it; the whole amount spent on the purchase date.
pub async fn installment_parts_land_on_consecutive_bills<S: Store>(store: S) {
    let (l, _clock) = ledger_over(Arc::new(store));
    let me = fresh_person("card-installments");
    book(&l, &me).await;
    card(&l, &me, "신한카드", Some(cycle(31, 14))).await;
    let tv = buy(
        &l,
        &me,
        purchase("신한카드", "가전", "100000", "2025-11-20", "TV", Some(3)),
    )
    .await;
    assert_eq!(tv.transaction.installments, Some(3));
    let fridge = purchase("신한카드", "가전", "1200000", "2025-12-05", "냉장고", Some(12));
    buy(&l, &me, fridge).await;
    buy(
        &l,
        &me,
        purchase("신한카드", "식비", "8000", "2025-12-06", "점심", None),
    )
    .await;
    let parts = |b: &CardBill| items_of(b);
    assert_eq!(parts(&bill(&l, &me, "신한카드", Some("2025-11")).await), vec![]);
    assert_eq!(
        parts(&bill(&l, &me, "신한카드", Some("2025-12")).await),
        vec![item("2025-11-20", "TV", "33334", Some((1, 3)))]
    );
    let january = bill(&l, &me, "신한카드", Some("2026-01")).await;
    assert_eq!(
        parts(&january),
        vec![
            item("2025-11-20", "TV", "33333", Some((2, 3))),
            item("2025-12-05", "냉장고", "100000", Some((1, 12))),
            item("2025-12-06", "점심", "8000", None),
        ]
    );
    assert_eq!(sums(&january).0, "141333");
    assert_eq!(
        parts(&bill(&l, &me, "신한카드", Some("2026-02")).await),
        vec![
            item("2025-11-20", "TV", "33333", Some((3, 3))),
            item("2025-12-05", "냉장고", "100000", Some((2, 12)))
        ]
    );
    assert_eq!(
        parts(&bill(&l, &me, "신한카드", Some("2026-12")).await),
        vec![item("2025-12-05", "냉장고", "100000", Some((12, 12)))]
    );
    assert_eq!(parts(&bill(&l, &me, "신한카드", Some("2027-01")).await), vec![]);
    // What 할부 still owes after each bill: every later part of every purchase.
    for (paid_in, amount, count) in [
        ("2025-11", "1300000", 2),
        ("2026-01", "1133333", 2),
        ("2026-02", "1000000", 1),
        ("2026-12", "0", 0),
    ] {
        let b = bill(&l, &me, "신한카드", Some(paid_in)).await;
        assert_eq!(
            (b.installments_left.amount.to_string(), b.installments_left.count),
            (amount.to_string(), count),
            "{paid_in}"
        );
    }
    // list_accounts: after the next bill (April 2026: the fridge's 4th part), in one call.
    let card = listed_card(&l, &me, "신한카드").await;
    assert_eq!(
        card.next_bill.as_ref().map(|n| (
            n.amount.to_string(),
            n.installments_left.amount.to_string(),
            n.installments_left.count
        )),
        Some(("100000".into(), "800000".into(), 1))
    );
    // Balances and reports see the whole amount on the purchase date.
    let b = balances(&l, &me).await;
    assert_eq!(
        (b["신한카드"].as_str(), b["가전"].as_str()),
        ("1308000", "1300000")
    );
    let got = call!(l.get_transaction(&me, None, tv.transaction.transaction_id)).expect("get");
    assert_eq!(got.transaction.installments, Some(3));
}

/// A refund in the period lowers the bill; the last bill's payment inside this
/// period is not an item and pays that last bill; the payments after it pay this
/// one, the one a day after the due date as `paidLate`; `nextBill` in list_accounts
/// is the next payment on or after today, with what remains of it.
pub async fn card_bill_refunds_and_payments<S: Store>(store: S) {
    let (l, _clock) = ledger_over(Arc::new(store));
    let me = fresh_person("card-payments");
    book(&l, &me).await;
    card(&l, &me, "신한카드", Some(cycle(31, 14))).await;
    buy(
        &l,
        &me,
        purchase("신한카드", "쇼핑", "70000", "2026-01-20", "가방", None),
    )
    .await;
    buy(
        &l,
        &me,
        purchase("신한카드", "쇼핑", "50000", "2026-02-03", "운동화", None),
    )
    .await;
    buy(
        &l,
        &me,
        purchase("신한카드", "쇼핑", "20000", "2026-02-10", "셔츠", None),
    )
    .await;
    // The shirt went back: money onto the card from the expense.
    record(
        &l,
        &me,
        tx("쇼핑", "신한카드", "20000", Some("2026-02-15"), "셔츠 환불"),
    )
    .await;
    // January's bill paid inside February's period: not on this bill.
    record(
        &l,
        &me,
        tx(
            "카카오뱅크",
            "신한카드",
            "70000",
            Some("2026-02-14"),
            "1월 카드값",
        ),
    )
    .await;
    // After the close: part of this bill, then on the due date, then a day late.
    record(
        &l,
        &me,
        tx("카카오뱅크", "신한카드", "30000", Some("2026-03-05"), "선결제"),
    )
    .await;
    record(
        &l,
        &me,
        tx("카카오뱅크", "신한카드", "5000", Some("2026-03-14"), "카드값"),
    )
    .await;
    record(
        &l,
        &me,
        tx("카카오뱅크", "신한카드", "1000", Some("2026-03-15"), "늦게"),
    )
    .await;
    buy(
        &l,
        &me,
        purchase("신한카드", "식비", "10000", "2026-03-10", "점심", None),
    )
    .await;
    let march = bill(&l, &me, "신한카드", Some("2026-03")).await;
    assert_eq!(dates_of(&march), dates3("2026-02-01", "2026-02-28", "2026-03-14"));
    assert_eq!(
        items_of(&march),
        vec![
            item("2026-02-03", "운동화", "50000", None),
            item("2026-02-10", "셔츠", "20000", None),
            item("2026-02-15", "셔츠 환불", "-20000", None),
        ]
    );
    // 70,000 paid February's bill; 30,000 + 5,000 by the due date and 1,000 a day late.
    assert_eq!(sums(&march), ("50000".into(), "36000".into(), "14000".into()));
    assert_eq!(march.paid_late.map(|m| m.to_string()), Some("1000".into()));
    let february = bill(&l, &me, "신한카드", Some("2026-02")).await;
    assert_eq!(sums(&february), ("70000".into(), "70000".into(), "0".into()));
    assert_eq!(february.paid_late, None);
    // Today is 2026-03-15: the next payment is April's.
    let next = bill(&l, &me, "신한카드", None).await;
    assert_eq!(dates_of(&next), dates3("2026-03-01", "2026-03-31", "2026-04-14"));
    assert_eq!(items_of(&next), vec![item("2026-03-10", "점심", "10000", None)]);
    assert_eq!(sums(&next), ("10000".into(), "0".into(), "10000".into()));
    let shown = listed_card(&l, &me, "신한카드").await;
    assert_eq!(
        (
            shown.billing,
            shown.next_bill.as_ref().map(|n| (
                n.due_date.to_string(),
                n.amount.to_string(),
                n.remaining.to_string()
            )),
        ),
        (
            Some(cycle(31, 14)),
            Some(("2026-04-14".into(), "10000".into(), "10000".into()))
        )
    );
    // The card's balance is not its bill: 150,000 − 20,000 − 106,000 owed as of today
    // (March's 14,000 left and April's 10,000).
    assert_eq!(shown.balance.to_string(), "24000");
    // Accounts without billing show none.
    let bank = listed_card(&l, &me, "카카오뱅크").await;
    assert_eq!((bank.billing, bank.next_bill), (None, None));
}

/// Editing an installment purchase moves every part (amount, date); voiding it takes
/// every part off; an edit that takes the card away is refused and changes nothing.
pub async fn installment_purchase_edited_and_voided<S: Store>(store: S) {
    let (l, _clock) = ledger_over(Arc::new(store));
    let me = fresh_person("card-edit");
    book(&l, &me).await;
    card(&l, &me, "신한카드", Some(cycle(31, 14))).await;
    card(&l, &me, "국민카드", None).await;
    let made = buy(
        &l,
        &me,
        purchase("신한카드", "가전", "90000", "2025-11-20", "TV", Some(3)),
    )
    .await;
    let id = made.transaction.transaction_id;
    let parts_in = |b: CardBill| items_of(&b).into_iter().map(|i| (i.2, i.3)).collect::<Vec<_>>();
    assert_eq!(
        parts_in(bill(&l, &me, "신한카드", Some("2025-12")).await),
        vec![("30000".into(), Some((1, 3)))]
    );
    let bigger = edit(
        &l,
        &me,
        TransactionEdit {
            amount: Some(d("120001")),
            ..edit_of(id)
        },
    )
    .await
    .expect("edit amount");
    assert_eq!(bigger.transaction.installments, Some(3));
    assert_eq!(
        parts_in(bill(&l, &me, "신한카드", Some("2025-12")).await),
        vec![("40001".into(), Some((1, 3)))]
    );
    // A later date: the parts move a bill on.
    edit(
        &l,
        &me,
        TransactionEdit {
            date: Some(date("2025-12-02")),
            ..edit_of(id)
        },
    )
    .await
    .expect("edit date");
    assert_eq!(parts_in(bill(&l, &me, "신한카드", Some("2025-12")).await), vec![]);
    assert_eq!(
        parts_in(bill(&l, &me, "신한카드", Some("2026-03")).await),
        vec![("40000".into(), Some((3, 3)))]
    );
    // Onto a card without billing, or paid from the bank: refused, nothing changes.
    for (from, why) in [
        (
            "국민카드",
            Reason::InstallmentsWithoutBilling {
                card: "국민카드".into(),
            },
        ),
        ("카카오뱅크", Reason::InstallmentsNotByCard),
    ] {
        let e = edit(
            &l,
            &me,
            TransactionEdit {
                from: Some(from.into()),
                ..edit_of(id)
            },
        )
        .await
        .unwrap_err();
        assert!(
            matches!(&e, LedgerError::InvalidInput { reason, .. } if *reason == why),
            "{e:?}"
        );
    }
    let now = call!(l.get_transaction(&me, None, id)).expect("get");
    assert_eq!(
        (now.transaction.version, now.transaction.installments),
        (3, Some(3))
    );
    // Voided: no part on any bill.
    call!(l.void_transaction(&me, None, id, Some("취소"))).expect("void");
    for m in ["2026-01", "2026-02", "2026-03"] {
        assert_eq!(parts_in(bill(&l, &me, "신한카드", Some(m)).await), vec![], "{m}");
    }
}

/// Each refusal of the issue, with what to send instead; nothing stored.
pub async fn card_billing_refuses_bad_input<S: Store>(store: S) {
    let (l, _clock) = ledger_over(Arc::new(store));
    let me = fresh_person("card-refusals");
    book(&l, &me).await;
    card(&l, &me, "국민카드", None).await;
    // Billing on an asset, income or expense account.
    for (name, kind) in [
        ("적금", AccountKind::Asset),
        ("보너스", AccountKind::Income),
        ("외식", AccountKind::Expense),
    ] {
        let e = call!(l.create_account(
            &me,
            NewAccount {
                vault: None,
                name: name.into(),
                kind,
                opening_balance: None,
                opening_date: None,
                parent: None,
                billing: Some(cycle(31, 14)),
                owner: None,
            }
        ))
        .unwrap_err();
        assert!(
            matches!(
                &e,
                LedgerError::InvalidInput {
                    field: Field::Card("billing"),
                    reason: Reason::BillingNotLiability { account, kind: k },
                } if account == name && *k == kind
            ),
            "{e:?}"
        );
    }
    let e = call!(l.set_billing(&me, None, "카카오뱅크", Some(cycle(31, 14)))).unwrap_err();
    assert!(
        matches!(&e, LedgerError::InvalidInput { field: Field::Card("billing"), reason: Reason::BillingNotLiability { account, kind: AccountKind::Asset } }
            if account == "카카오뱅크"),
        "{e:?}"
    );
    // card_bill without billing says how to set it; then it answers.
    let e = call!(l.card_bill(&me, None, "국민카드", None)).unwrap_err();
    assert!(
        matches!(&e, LedgerError::InvalidInput { field: Field::Card("account"), reason: Reason::NoBillingCycle { card } }
            if card == "국민카드"),
        "{e:?}"
    );
    // Installments: from the bank, on a refund, from a card without billing.
    let refund = NewSplit {
        from: vec![SplitLine {
            account: "쇼핑".into(),
            amount: d("10000"),
        }],
        to: vec![SplitLine {
            account: "국민카드".into(),
            amount: d("10000"),
        }],
        ..purchase("국민카드", "쇼핑", "10000", "2026-03-01", "환불", Some(3))
    };
    for (p, why) in [
        (
            purchase("카카오뱅크", "가전", "90000", "2026-03-01", "TV", Some(3)),
            Reason::InstallmentsNotByCard,
        ),
        (
            refund,
            Reason::RefundInInstallments {
                card: "국민카드".into(),
            },
        ),
        (
            purchase("국민카드", "가전", "90000", "2026-03-01", "TV", Some(3)),
            Reason::InstallmentsWithoutBilling {
                card: "국민카드".into(),
            },
        ),
    ] {
        let e = call!(l.record_split(&me, p.clone())).unwrap_err();
        assert!(
            matches!(&e, LedgerError::InvalidInput { reason, .. } if *reason == why),
            "{e:?}"
        );
    }
    // Too small for a won per part.
    call!(l.set_billing(&me, None, "국민카드", Some(cycle(31, 14)))).expect("set billing");
    let e = call!(l.record_split(&me, purchase("국민카드", "가전", "2", "2026-03-01", "x", Some(3))))
        .unwrap_err();
    assert!(
        matches!(&e, LedgerError::InvalidInput { field: Field::Card("installments"), reason: Reason::TooManyParts { total, count: 3, least } }
            if total.to_string() == "2" && least.to_string() == "1"),
        "{e:?}"
    );
    // Nothing was stored by any of them.
    assert_eq!(
        all_transactions(&l, &me).await.len(),
        1,
        "only the bank's opening balance"
    );
    // The same billing again writes nothing; {} clears it.
    let again = call!(l.set_billing(&me, None, "국민카드", Some(cycle(31, 14)))).expect("again");
    assert!(!again.changed);
    let cleared = call!(l.set_billing(&me, None, "국민카드", None)).expect("clear");
    assert_eq!((cleared.changed, cleared.billing), (true, None));
    let shown = listed_card(&l, &me, "국민카드").await;
    assert_eq!((shown.billing, shown.next_bill.clone()), (None, None));
}

/// 412,300 due on 02-14, paid 300,000 that day and 112,300 two days late: February's
/// bill is paid, 112,300 of it late; the late payment does not count again for March.
/// March is overpaid by 30,000, which April's bill counts; a 할부 part on every bill.
pub async fn payments_settle_bills_in_order<S: Store>(store: S) {
    let (l, _clock) = ledger_over(Arc::new(store));
    let me = fresh_person("card-settle");
    book(&l, &me).await;
    card(&l, &me, "신한카드", Some(cycle(31, 14))).await;
    for (to, amount, on, memo, parts) in [
        ("식비", "282300", "2026-01-05", "마트", None),
        ("가전", "90000", "2026-01-10", "TV", Some(3)),
        ("식비", "100000", "2026-01-20", "식당", None),
        ("쇼핑", "50000", "2026-02-05", "신발", None),
        ("식비", "20000", "2026-02-20", "점심", None),
        ("식비", "10000", "2026-03-10", "커피", None),
    ] {
        buy(&l, &me, purchase("신한카드", to, amount, on, memo, parts)).await;
    }
    for (amount, on) in [
        ("300000", "2026-02-14"),
        ("112300", "2026-02-16"),
        ("130000", "2026-03-10"),
    ] {
        record(&l, &me, tx("카카오뱅크", "신한카드", amount, Some(on), "카드값")).await;
    }
    let settled = |b: &CardBill| {
        (
            sums(b),
            b.paid_late.map(|m| m.to_string()),
            b.installments_left.amount.to_string(),
        )
    };
    let s3 = |t: &str, p: &str, r: &str| (t.to_string(), p.to_string(), r.to_string());
    let cases = [
        // 282,300 + 100,000 + TV 1/3 30,000.
        (
            "2026-02",
            (s3("412300", "412300", "0"), Some("112300".into()), "60000".into()),
        ),
        // 50,000 + 20,000 + TV 2/3: the 02-16 payment went to February.
        ("2026-03", (s3("100000", "100000", "0"), None, "30000".into())),
        // 10,000 + TV 3/3, 30,000 of it paid by March's overpayment.
        ("2026-04", (s3("40000", "30000", "10000"), None, "0".into())),
    ];
    for (paid_in, expected) in cases {
        let b = bill(&l, &me, "신한카드", Some(paid_in)).await;
        assert_eq!(settled(&b), expected, "{paid_in}");
    }
    let card = listed_card(&l, &me, "신한카드").await;
    assert_eq!(
        (
            card.balance.to_string(),
            card.next_bill
                .as_ref()
                .map(|n| (n.amount.to_string(), n.remaining.to_string()))
        ),
        ("10000".into(), Some(("40000".into(), "10000".into())))
    );
}

/// A bill is three queries in two rounds (the accounts, then the entries from the
/// period on and the open installments), however long the card's history before the
/// period (decision 047: the card's balance stands for it); list_accounts with a
/// billed card adds the same two queries in a second round.
pub async fn card_bill_reads_do_not_grow_with_history<S: Store>(store: S) {
    let store: Arc<dyn Store> = Arc::new(store);
    let counting = Arc::new(CountingStore::from_arc(store));
    let (l, _clock) = ledger_over(counting.clone());
    let me = fresh_person("card-budget");
    book(&l, &me).await;
    card(&l, &me, "신한카드", Some(cycle(31, 14))).await;
    buy(
        &l,
        &me,
        purchase("신한카드", "가전", "300000", "2026-01-20", "TV", Some(3)),
    )
    .await;
    buy(
        &l,
        &me,
        purchase("신한카드", "식비", "9000", "2026-02-20", "점심", None),
    )
    .await;
    counting.reset();
    let first = l
        .card_bill(&me, None, "신한카드", Some(month("2026-03")))
        .await
        .expect("bill");
    let before = counting.take();
    // A long history: two years of older entries and finished installment plans.
    for i in 0..24 {
        let on = format!("{}-{:02}-10", 2023 + i / 12, 1 + i % 12);
        buy(&l, &me, purchase("신한카드", "식비", "1000", &on, "옛날", None)).await;
        buy(
            &l,
            &me,
            purchase("신한카드", "가전", "2000", &on, "옛 할부", Some(2)),
        )
        .await;
    }
    let (shape, again) = shape_of(
        &counting,
        l.card_bill(&me, None, "신한카드", Some(month("2026-03"))),
    )
    .await;
    assert_eq!(items_of(&again), items_of(&first));
    assert_eq!(sums(&again), ("109000".into(), "0".into(), "109000".into()));
    assert_two_rounds(shape, (3, 0, 1, 0), "card_bill");
    assert_eq!(before.queries, 3, "card_bill before the history");
    counting.reset();
    l.card_bill(&me, None, "신한카드", Some(month("2026-03")))
        .await
        .expect("bill");
    assert_eq!(
        counting.take().items_read,
        before.items_read,
        "items read do not grow"
    );
    let (shape, _) = shape_of(&counting, l.list_accounts(&me, None, false)).await;
    assert_two_rounds(shape, (5, 0, 1, 0), "list_accounts with a billed card");
}

/// The contract tests of this file, instantiated by [`crate::ledger_contract_tests!`]
/// for every store: a test is registered here, beside its code.
#[doc(hidden)]
#[macro_export]
macro_rules! __ledger_suite_cards {
    ($factory:expr) => {
        $crate::__ledger_contract_tests!(
            $factory;
            card_bills_follow_each_cycle,
            installment_parts_land_on_consecutive_bills,
            card_bill_refunds_and_payments,
            installment_purchase_edited_and_voided,
            card_bill_reads_do_not_grow_with_history,
            payments_settle_bills_in_order,
        );
    };
}
