//! Contract tests of balances as write results show them, archiving with money
//! left, create_account repeats, and the system names a vault gets, on every store.

use super::*;
use dochiya_ledger::api::ErrorKind;

/// (account, balance, scheduled) of a write's balances, in result order.
fn shown(b: &[AccountBalance]) -> Vec<(String, String, Option<String>)> {
    b.iter()
        .map(|b| {
            (
                b.account.clone(),
                b.balance.to_string(),
                b.scheduled.map(|s| s.to_string()),
            )
        })
        .collect()
}

fn row(account: &str, balance: &str, scheduled: Option<&str>) -> (String, String, Option<String>) {
    (account.into(), balance.into(), scheduled.map(Into::into))
}

/// Every write's result shows balances as of today in the vault's zone, with
/// entries dated after today apart as `scheduled`, the same numbers list_accounts shows.
pub async fn write_results_show_balances_as_of_today<S: Store>(store: S) {
    let (l, clock) = ledger_over(Arc::new(store));
    let me = fresh_person("write-today");
    household(&l, &me).await;
    // Today is 2026-03-15: 카카오뱅크 3,688,000, 쇼핑 250,000, 식비 12,000, 현금 100,000.
    let rent = tx(
        "카카오뱅크",
        "쇼핑",
        "650000",
        Some("2026-04-01"),
        "4월 월세 (미리)",
    );
    let r = record(&l, &me, rent.clone()).await;
    assert_eq!(
        shown(&r.balances),
        [
            row("쇼핑", "250000", Some("650000")),
            row("카카오뱅크", "3688000", Some("-650000"))
        ]
    );
    let rent_id = r.transaction.transaction_id;

    clock.advance_seconds(60);
    let lunch = record(&l, &me, tx("카카오뱅크", "식비", "10000", None, "점심")).await;
    assert_eq!(
        shown(&lunch.balances),
        [
            row("식비", "22000", None),
            row("카카오뱅크", "3678000", Some("-650000"))
        ]
    );

    clock.advance_seconds(60);
    let split = call!(l.record_split(
        &me,
        NewSplit {
            vault: None,
            from: vec![SplitLine {
                account: "카카오뱅크".into(),
                amount: d("30000"),
            }],
            to: vec![
                SplitLine {
                    account: "식비".into(),
                    amount: d("20000"),
                },
                SplitLine {
                    account: "쇼핑".into(),
                    amount: d("10000"),
                },
            ],
            date: Some(date("2026-03-20")),
            memo: Some("장보기 예약".into()),
            idempotency_key: key(),
            allow_duplicate: false,
            future_date: false,
            dry_run: false,
            external_ref: None,
            tags: vec![],
            installments: None,
            for_whom: None,
        }
    ))
    .expect("split");
    assert_eq!(
        shown(&split.balances),
        [
            row("식비", "22000", Some("20000")),
            row("쇼핑", "250000", Some("660000")),
            row("카카오뱅크", "3678000", Some("-680000"))
        ]
    );

    clock.advance_seconds(60);
    let cheaper = call!(l.edit_transaction(
        &me,
        TransactionEdit {
            amount: Some(d("600000")),
            ..edit_of(rent_id)
        }
    ))
    .expect("edit amount");
    assert_eq!(
        shown(&cheaper.balances),
        [
            row("쇼핑", "250000", Some("610000")),
            row("카카오뱅크", "3678000", Some("-630000"))
        ]
    );
    clock.advance_seconds(60);
    let paid_today = call!(l.edit_transaction(
        &me,
        TransactionEdit {
            date: Some(date("2026-03-15")),
            ..edit_of(rent_id)
        }
    ))
    .expect("edit date");
    assert_eq!(
        shown(&paid_today.balances),
        [
            row("쇼핑", "850000", Some("10000")),
            row("카카오뱅크", "3078000", Some("-30000"))
        ]
    );

    clock.advance_seconds(60);
    let voided = call!(l.void_transaction(&me, None, lunch.transaction.transaction_id, None)).expect("void");
    assert_eq!(
        shown(&voided.balances),
        [
            row("식비", "12000", Some("20000")),
            row("카카오뱅크", "3088000", Some("-30000"))
        ]
    );
    // Voiding again writes nothing and shows the same balances.
    let again =
        call!(l.void_transaction(&me, None, lunch.transaction.transaction_id, None)).expect("void again");
    assert!(again.already_voided);
    assert_eq!(shown(&again.balances), shown(&voided.balances));

    clock.advance_seconds(60);
    let entry = |amount: &str, on: &str| {
        Ok(BatchEntry {
            from: "현금".into(),
            to: "식비".into(),
            amount: d(amount),
            date: Some(date(on)),
            memo: Some(format!("시장 {on}")),
            external_ref: None,
            lines: None,
            tags: vec![],
            installments: None,
            for_whom: None,
        })
    };
    let batch = call!(l.record_transactions(
        &me,
        NewBatch {
            vault: None,
            entries: vec![entry("5000", "2026-03-15"), entry("7000", "2026-03-31")],
            idempotency_key: key(),
            allow_duplicate: false,
            dry_run: false,
        }
    ))
    .expect("batch");
    assert_eq!(
        shown(&batch.balances),
        [
            row("식비", "17000", Some("27000")),
            row("현금", "95000", Some("-7000"))
        ]
    );

    clock.advance_seconds(60);
    let savings = NewAccount {
        vault: None,
        name: "적금".into(),
        kind: AccountKind::Asset,
        opening_balance: Some(d("500000")),
        opening_date: Some(date("2026-04-01")),
        parent: None,
        billing: None,
        owner: None,
    };
    let created = call!(l.create_account(&me, savings.clone())).expect("create");
    assert_eq!(
        (
            created.balance.to_string(),
            created.scheduled.map(|s| s.to_string())
        ),
        ("0".into(), Some("500000".into())),
        "an opening dated later is scheduled, not today's balance"
    );
    let repeat = call!(l.create_account(&me, savings.clone())).expect("repeat");
    assert!(!repeat.created);
    assert_eq!(
        (
            repeat.balance.to_string(),
            repeat.scheduled.map(|s| s.to_string())
        ),
        ("0".into(), Some("500000".into()))
    );

    // One meaning: list_accounts shows the numbers the writes showed.
    let listed = call!(l.list_accounts(&me, None, false)).expect("list");
    let of = |name: &str| {
        let a = listed.accounts.iter().find(|a| a.name == name).expect(name);
        (a.balance.to_string(), a.scheduled.map(|s| s.to_string()))
    };
    assert_eq!(of("카카오뱅크"), ("3088000".into(), Some("-30000".into())));
    assert_eq!(of("식비"), ("17000".into(), Some("27000".into())));
    assert_eq!(of("현금"), ("95000".into(), Some("-7000".into())));
    assert_eq!(of("쇼핑"), ("850000".into(), Some("10000".into())));
    assert_eq!(of("적금"), ("0".into(), Some("500000".into())));

    // A replay answers with the stored result: the balances as that write showed them.
    let replay = record(&l, &me, rent).await;
    assert!(replay.replayed);
    assert_eq!(
        shown(&replay.balances),
        [
            row("쇼핑", "250000", Some("650000")),
            row("카카오뱅크", "3688000", Some("-650000"))
        ]
    );
}

/// Archiving an account that still holds money (today, or in entries dated later)
/// is refused with the balance and what to do, unless forced; an archived account's
/// money is shown apart in get_balances and still counts in the totals.
pub async fn archive_refuses_money_left_unless_forced<S: Store>(store: S) {
    let (l, clock) = ledger_over(Arc::new(store));
    let me = fresh_person("archive-money");
    household(&l, &me).await;
    // 신한카드 owes 50,000 today.
    let e = call!(l.archive_account(&me, None, "신한카드", false)).unwrap_err();
    assert!(
        matches!(&e, LedgerError::ArchiveWithBalance { name, balance, scheduled: None }
            if name == "신한카드" && balance.to_string() == "50000"),
        "{e:?}"
    );
    assert_eq!(e.kind(), ErrorKind::Conflict);
    // A payment dated later is shown apart in the refusal.
    record(
        &l,
        &me,
        tx(
            "카카오뱅크",
            "신한카드",
            "50000",
            Some("2026-03-25"),
            "카드대금 예약",
        ),
    )
    .await;
    let e = call!(l.archive_account(&me, None, "신한카드", false)).unwrap_err();
    assert!(
        matches!(
            &e,
            LedgerError::ArchiveWithBalance { name, balance, scheduled }
                if name == "신한카드" && balance.to_string() == "50000"
                    && scheduled.map(|s| s.to_string()) == Some("-50000".into())
        ),
        "{e:?}"
    );
    // Nothing was written: the card is still live.
    let live = call!(l.list_accounts(&me, None, false)).expect("list");
    assert!(live.accounts.iter().any(|a| a.name == "신한카드" && !a.archived));

    // Emptied, an account archives without force.
    clock.advance_seconds(60);
    record(&l, &me, tx("현금", "카카오뱅크", "100000", None, "현금 입금")).await;
    let cash = call!(l.archive_account(&me, None, "현금", false)).expect("archive emptied");
    assert_eq!((cash.balance.to_string(), cash.scheduled), ("0".into(), None));

    // Forced, it archives with its balance, which still counts in the totals.
    clock.advance_seconds(60);
    account(&l, &me, "비상금", AccountKind::Asset, Some("30000")).await;
    let before = call!(l.get_balances(&me, None, None)).expect("before");
    let forced = call!(l.archive_account(&me, None, "비상금", true)).expect("forced");
    assert_eq!(
        (forced.balance.to_string(), forced.scheduled),
        ("30000".into(), None)
    );
    let after = call!(l.get_balances(&me, None, None)).expect("after");
    assert!(after.accounts.iter().all(|a| a.name != "비상금"));
    let apart: Vec<(String, String)> = after
        .archived
        .iter()
        .map(|a| (a.name.clone(), a.balance.to_string()))
        .collect();
    // 현금 was archived empty: not shown.
    assert_eq!(apart, [("비상금".to_string(), "30000".to_string())]);
    assert_eq!(after.totals, before.totals);
    assert_eq!(after.totals.assets.to_string(), "3818000");

    // A spending category with history archives without force: its balance is what
    // was spent, which stays in every report.
    let food = call!(l.archive_account(&me, None, "식비", false)).expect("archive an expense");
    assert_eq!(food.balance.to_string(), "12000");
    let pay = call!(l.archive_account(&me, None, "월급", false)).expect("archive an income");
    assert_eq!(pay.balance.to_string(), "3000000");
    let march = call!(l.spending_report(
        &me,
        ReportRequest {
            vault: None,
            from: date("2026-03-01"),
            to: date("2026-03-31"),
            by: ReportBy::Account,
            kind: FlowKind::Expense,
            tag: None,
        }
    ))
    .expect("report");
    let rows: Vec<(Option<String>, String)> = march
        .rows
        .iter()
        .map(|r| (r.account.clone(), r.amount.to_string()))
        .collect();
    assert_eq!(
        rows,
        [
            (Some("쇼핑".to_string()), "250000".to_string()),
            // By its handle, as every report row of an archived account (decision 027).
            (
                Some("식비 (archived 2026-03-15)".to_string()),
                "12000".to_string()
            )
        ]
    );
}

/// create_account with an existing name: the same account again is harmless; another
/// kind or another opening balance is refused with both shown, and nothing changes.
pub async fn create_account_repeat_must_match<S: Store>(store: S) {
    let (l, _) = ledger_over(Arc::new(store));
    let me = fresh_person("create-repeat");
    household(&l, &me).await;
    let bank = |kind, opening: Option<&str>| NewAccount {
        vault: None,
        name: "카카오뱅크".into(),
        kind,
        opening_balance: opening.map(d),
        opening_date: None,
        parent: None,
        billing: None,
        owner: None,
    };
    for (kind, opening) in [(AccountKind::Asset, Some("1000000")), (AccountKind::Asset, None)] {
        let again = call!(l.create_account(&me, bank(kind, opening))).expect("repeat");
        assert_eq!(
            (again.created, again.balance.to_string()),
            (false, "3688000".into()),
            "{opening:?}"
        );
    }
    let other = call!(l.create_account(&me, bank(AccountKind::Asset, Some("2000000")))).unwrap_err();
    let shape = |s: &AccountShape| (s.kind, s.opening.map(|o| o.to_string()));
    assert!(
        matches!(&other, LedgerError::AccountMismatch { name, vault, existing, requested }
            if name == "카카오뱅크" && vault == "vault \"가계부\""
                && shape(existing) == (AccountKind::Asset, Some("1000000".into()))
                && shape(requested) == (AccountKind::Asset, Some("2000000".into()))),
        "{other:?}"
    );
    assert_eq!(other.kind(), ErrorKind::Conflict);
    let kind = call!(l.create_account(&me, bank(AccountKind::Liability, None))).unwrap_err();
    assert!(
        matches!(&kind, LedgerError::AccountMismatch { name, vault, existing, requested }
            if name == "카카오뱅크" && vault == "vault \"가계부\""
                && shape(existing) == (AccountKind::Asset, Some("1000000".into()))
                && shape(requested) == (AccountKind::Liability, None)),
        "{kind:?}"
    );
    // An account made without an opening balance opened at zero.
    let cash = |opening: &str| NewAccount {
        vault: None,
        name: "현금".into(),
        kind: AccountKind::Asset,
        opening_balance: Some(d(opening)),
        opening_date: None,
        parent: None,
        billing: None,
        owner: None,
    };
    assert!(
        !call!(l.create_account(&me, cash("0")))
            .expect("zero again")
            .created
    );
    assert!(matches!(
        call!(l.create_account(&me, cash("5000"))).unwrap_err(),
        LedgerError::AccountMismatch { existing, requested, .. }
            if existing.opening.map(|o| o.to_string()) == Some("0".into())
                && requested.opening.map(|o| o.to_string()) == Some("5000".into())
    ));
    // Nothing changed.
    let b = balances(&l, &me).await;
    assert_eq!(
        (b["카카오뱅크"].as_str(), b["현금"].as_str()),
        ("3688000", "100000")
    );
    assert_eq!(all_transactions(&l, &me).await.len(), 7);
}

/// A KRW vault in Asia/Seoul gets Korean system names (기초잔액, "신한카드 기초잔액");
/// other vaults English ones; a vault that already has the equity account under
/// either name keeps using it, and its language for memos.
pub async fn system_names_follow_the_vault<S: Store>(store: S) {
    let (l, clock) = ledger_over(Arc::new(store));
    let me = fresh_person("system-names");
    let open = |vault: &str, name: &str, kind, opening: Option<&str>| NewAccount {
        vault: Some(vault.into()),
        name: name.into(),
        kind,
        opening_balance: opening.map(d),
        opening_date: None,
        parent: None,
        billing: None,
        owner: None,
    };
    // The opening entry's memo and the names of its accounts.
    async fn opening_of(l: &Ledger, me: &PersonId, vault: &str, a: &CreatedAccount) -> (String, Vec<String>) {
        let id = a.opening_transaction_id.expect("an opening entry");
        let t = call!(l.get_transaction(me, Some(vault), id))
            .expect("opening")
            .transaction;
        (t.memo, t.postings.into_iter().map(|p| p.account).collect())
    }

    vault(&l, &me, "가계부").await;
    let card = call!(l.create_account(
        &me,
        open("가계부", "신한카드", AccountKind::Liability, Some("300000"))
    ))
    .expect("card");
    assert_eq!(
        opening_of(&l, &me, "가계부", &card).await,
        (
            "신한카드 기초잔액".to_string(),
            vec!["신한카드".to_string(), "기초잔액".to_string()]
        )
    );
    // Either language's name is the system's: neither may have an opening balance.
    for name in ["Opening Balances", "기초잔액"] {
        let e =
            call!(l.create_account(&me, open("가계부", name, AccountKind::Equity, Some("5")))).unwrap_err();
        let why = Reason::OpeningOfEquity {
            account: name.to_string(),
        };
        assert!(
            matches!(&e, LedgerError::InvalidInput { field: Field::OpeningBalance, reason } if *reason == why),
            "{e:?}"
        );
    }

    let ny = VaultZone::parse("America/New_York").expect("zone");
    call!(l.create_vault(
        &me,
        NewVault {
            name: "Home".into(),
            currency: Some(Currency::USD),
            time_zone: Some(ny.clone())
        }
    ))
    .expect("Home");
    clock.advance_seconds(60);
    let checking = call!(l.create_account(&me, open("Home", "Checking", AccountKind::Asset, Some("100.50"))))
        .expect("checking");
    assert_eq!(
        opening_of(&l, &me, "Home", &checking).await,
        (
            "Opening balance of Checking".to_string(),
            vec!["Checking".to_string(), "Opening Balances".to_string()]
        )
    );

    // A Korean vault that already has "Opening Balances" (as vaults made before
    // Korean names do) keeps posting against it, with English memos.
    vault(&l, &me, "옛집").await;
    call!(l.create_account(&me, open("옛집", "Opening Balances", AccountKind::Equity, None)))
        .expect("equity");
    clock.advance_seconds(60);
    let cash =
        call!(l.create_account(&me, open("옛집", "현금", AccountKind::Asset, Some("1000")))).expect("cash");
    assert_eq!(
        opening_of(&l, &me, "옛집", &cash).await,
        (
            "Opening balance of 현금".to_string(),
            vec!["현금".to_string(), "Opening Balances".to_string()]
        )
    );
    let names: Vec<String> = call!(l.list_accounts(&me, Some("옛집"), true))
        .expect("list")
        .accounts
        .into_iter()
        .map(|a| a.name)
        .collect();
    assert_eq!(names, ["현금", "Opening Balances"], "no second equity account");

    // A Korean household's yen account: named in Hangul, so Korean names whatever
    // its currency and zone (decision 032).
    call!(l.create_vault(
        &me,
        NewVault {
            name: "엔화 지갑".into(),
            currency: Some(Currency::parse("JPY").expect("JPY")),
            time_zone: Some(VaultZone::parse("Asia/Tokyo").expect("zone")),
        }
    ))
    .expect("엔화 지갑");
    clock.advance_seconds(60);
    let yen = call!(l.create_account(&me, open("엔화 지갑", "현금", AccountKind::Asset, Some("5000"))))
        .expect("yen");
    assert_eq!(
        opening_of(&l, &me, "엔화 지갑", &yen).await,
        (
            "현금 기초잔액".to_string(),
            vec!["현금".to_string(), "기초잔액".to_string()]
        )
    );
}

/// The contract tests of this file, instantiated by [`crate::ledger_contract_tests!`]
/// for every store: a test is registered here, beside its code.
/// Balances of past dates count back from the running balance (decision 062): 월급 puts
/// 1,000,000 into 카카오뱅크 on Dec 5; 식비 takes 10,000 on Jan 10, 20,000 on Jan 20,
/// 40,000 on Feb 5, 80,000 on Mar 10 (today is Mar 15) and 160,000 on Apr 2 (dated
/// later). At the end of Jan 15: 990,000; Jan 31: 970,000; Feb: 930,000; today 850,000
/// with −160,000 scheduled; April's end 690,000. A snapshot of Jan 15 reconciles.
pub async fn past_balances_count_back_from_the_running_balance<S: Store>(store: S) {
    let (l, _) = ledger_over(Arc::new(store));
    let me = fresh_person("count-back");
    vault(&l, &me, "가계부").await;
    account(&l, &me, "카카오뱅크", AccountKind::Asset, None).await;
    account(&l, &me, "월급", AccountKind::Income, None).await;
    account(&l, &me, "식비", AccountKind::Expense, None).await;
    record(
        &l,
        &me,
        tx("월급", "카카오뱅크", "1000000", Some("2025-12-05"), "월급"),
    )
    .await;
    for (amount, on) in [
        ("10000", "2026-01-10"),
        ("20000", "2026-01-20"),
        ("40000", "2026-02-05"),
        ("80000", "2026-03-10"),
    ] {
        record(&l, &me, tx("카카오뱅크", "식비", amount, Some(on), "장보기")).await;
    }
    record(
        &l,
        &me,
        NewTransaction {
            future_date: true,
            ..tx("카카오뱅크", "식비", "160000", Some("2026-04-02"), "예약")
        },
    )
    .await;
    let bank = |b: &Balances| {
        b.accounts
            .iter()
            .find(|r| r.name == "카카오뱅크")
            .map(|r| (r.balance.to_string(), r.scheduled.map(|s| s.to_string())))
    };
    for (on, balance) in [
        ("2026-01-15", "990000"),
        ("2026-01-31", "970000"),
        ("2026-02-28", "930000"),
        ("2025-12-04", "0"),
    ] {
        let b = call!(l.get_balances(&me, None, Some(date(on)))).expect("balances");
        assert_eq!(bank(&b), Some((balance.to_string(), None)), "as of {on}");
    }
    let b = call!(l.get_balances(&me, None, None)).expect("balances today");
    assert_eq!(
        bank(&b),
        Some(("850000".to_string(), Some("-160000".to_string())))
    );
    let h = call!(l.net_worth_history(&me, None, month("2025-11"), month("2026-04"))).expect("history");
    let points: Vec<(String, String)> = h
        .points
        .iter()
        .map(|p| (p.month.to_string(), p.assets.to_string()))
        .collect();
    assert_eq!(
        points,
        [
            ("2025-11", "0"),
            ("2025-12", "1000000"),
            ("2026-01", "970000"),
            ("2026-02", "930000"),
            ("2026-03", "850000"),
            ("2026-04", "690000")
        ]
        .map(|(m, a)| (m.to_string(), a.to_string()))
    );
    call!(l.upsert_snapshot(
        &me,
        SnapshotInput {
            vault: None,
            account: "카카오뱅크".into(),
            date: date("2026-01-15"),
            balance: d("990000"),
        }
    ))
    .expect("snapshot");
    let r = call!(l.reconcile(&me, None, None)).expect("reconcile");
    let rows: Vec<(String, String, String)> = r
        .accounts
        .iter()
        .map(|x| {
            (
                x.name.clone(),
                x.snapshot_date.to_string(),
                x.ledger_balance.to_string(),
            )
        })
        .collect();
    assert_eq!(
        rows,
        vec![(
            "카카오뱅크".to_string(),
            "2026-01-15".to_string(),
            "990000".to_string()
        )]
    );
}

/// A write's balances name an archived account by its handle, as every result does
/// (found by the reference model): 카카오뱅크 pays 8,000 of 김밥, is archived with its
/// money (force), and 식비 takes its name; voiding the 김밥 answers 식비, now named
/// 카카오뱅크, at 12,000 (the household's 점심), and the old bank by its handle at
/// 3,688,000 (1,000,000 opening + 3,000,000 월급 − 12,000 점심 − 200,000 카드대금 − 100,000 ATM) —
/// never two balances by one name.
pub async fn write_results_name_an_archived_account_by_its_handle<S: Store>(store: S) {
    let (l, _) = ledger_over(Arc::new(store));
    let me = fresh_person("handle-balances");
    household(&l, &me).await;
    let lunch = record(
        &l,
        &me,
        tx("카카오뱅크", "식비", "8000", Some("2026-03-14"), "김밥"),
    )
    .await;
    call!(l.archive_account(&me, None, "카카오뱅크", true)).expect("archive");
    call!(l.rename_account(&me, None, "식비", "카카오뱅크")).expect("rename");
    let voided = call!(l.void_transaction(&me, None, lunch.transaction.transaction_id, None)).expect("void");
    let mut rows = shown(&voided.balances);
    rows.sort();
    assert_eq!(
        rows,
        vec![
            row("카카오뱅크", "12000", None),
            row("카카오뱅크 (archived 2026-03-15)", "3688000", None),
        ]
    );
}

#[doc(hidden)]
#[macro_export]
macro_rules! __ledger_suite_balances {
    ($factory:expr) => {
        $crate::__ledger_contract_tests!(
            $factory;
            write_results_show_balances_as_of_today,
            archive_refuses_money_left_unless_forced,
            create_account_repeat_must_match,
            system_names_follow_the_vault,
            past_balances_count_back_from_the_running_balance,
            write_results_name_an_archived_account_by_its_handle,
        );
    };
}
