//! Ledger-level contract: operations, races, isolation and read budgets over any Store.
//!
//! A store crate instantiates every test in its own `tests/` with
//!
//! ```text
//! dochiya_ledger::ledger_contract_tests!(async { make_store().await });
//! ```
//!
//! The expression is evaluated once per test. Each test signs in as fresh
//! people (random `sub`s) and every vault gets a random id, so tests may share
//! one store (one DynamoDB table) and run in parallel with no wiping.
//!
//! [`LedgerError::Transient`] means "call again" by contract (DynamoDB reports
//! conflicting transactions that way), so calls here retry it like a client
//! would; every other outcome is asserted exactly.

use std::collections::BTreeMap;
use std::sync::Arc;

use crate::testing::{CountingStore, FailingStore, InjectedFailure, StoreCounts};
use dochiya_domain::{
    AccountKind, Currency, Decimal, LocalDate, ManualClock, PersonId, Reading, TransactionId, VaultZone,
    YearMonth,
};
use dochiya_ledger::api::*;
use dochiya_ledger::api::{AccountShape, EditShape, Entity, Field, LedgerError, Side};
use dochiya_ledger::ledger::*;
use dochiya_store::Store;

/// 2026-03-15T03:00:00Z: noon in Seoul.
const NOON_KST_2026_03_15: i64 = 1_773_543_600;

/// Retry a ledger call while it reports [`LedgerError::Transient`].
macro_rules! call {
    ($e:expr) => {{
        let mut tries = 0;
        loop {
            match $e.await {
                Err(LedgerError::Transient(_)) if tries < 50 => {
                    tries += 1;
                    tokio::time::sleep(std::time::Duration::from_millis(5 * tries)).await;
                }
                other => break other,
            }
        }
    }};
}

/// A ledger over `store` with a manual clock at noon KST on 2026-03-15.
pub fn ledger_over(store: Arc<dyn Store>) -> (Ledger, Arc<ManualClock>) {
    let clock = Arc::new(ManualClock::at_unix_seconds(NOON_KST_2026_03_15));
    (Ledger::new(store, clock.clone(), LedgerConfig::default()), clock)
}

/// A person no other test (or run) uses.
pub fn fresh_person(tag: &str) -> PersonId {
    PersonId::new(format!("suite-{tag}-{}", uuid::Uuid::new_v4())).expect("a valid subject")
}

fn d(text: &str) -> Decimal {
    Decimal::parse(text).expect("a test amount")
}

fn date(text: &str) -> LocalDate {
    LocalDate::parse(text).expect("a test date")
}

fn month(text: &str) -> YearMonth {
    YearMonth::parse(text).expect("a test month")
}

fn key() -> String {
    uuid::Uuid::new_v4().to_string()
}

async fn vault(l: &Ledger, who: &PersonId, name: &str) -> CreatedVault {
    call!(l.create_vault(
        who,
        NewVault {
            name: name.into(),
            currency: None,
            time_zone: None
        }
    ))
    .expect("create_vault")
}

async fn account(
    l: &Ledger,
    who: &PersonId,
    name: &str,
    kind: AccountKind,
    opening: Option<&str>,
) -> CreatedAccount {
    call!(l.create_account(
        who,
        NewAccount {
            vault: None,
            name: name.into(),
            kind,
            opening_balance: opening.map(d),
            opening_date: None,
            parent: None,
            billing: None,
            owner: None,
        }
    ))
    .expect("create_account")
}

fn tx(from: &str, to: &str, amount: &str, on: Option<&str>, memo: &str) -> NewTransaction {
    NewTransaction {
        vault: None,
        from: from.into(),
        to: to.into(),
        amount: d(amount),
        date: on.map(date),
        memo: Some(memo.into()),
        idempotency_key: key(),
        allow_duplicate: false,
        future_date: false,
        dry_run: false,
        external_ref: None,
        tags: vec![],
        for_whom: None,
    }
}

async fn record(l: &Ledger, who: &PersonId, t: NewTransaction) -> Recorded {
    call!(l.record_transaction(who, t.clone())).expect("record_transaction")
}

/// name -> balance string, from list_accounts.
async fn balances(l: &Ledger, who: &PersonId) -> BTreeMap<String, String> {
    call!(l.list_accounts(who, None, true))
        .expect("list_accounts")
        .accounts
        .into_iter()
        .map(|a| (a.name, a.balance.to_string()))
        .collect()
}

/// Every transaction of the caller's only vault, following cursors.
async fn all_transactions(l: &Ledger, who: &PersonId) -> Vec<Transaction> {
    let mut out = Vec::new();
    let mut cursor = None;
    loop {
        let page = call!(l.list_transactions(
            who,
            TransactionQuery {
                limit: Some(200),
                cursor: cursor.clone(),
                include_voided: true,
                ..Default::default()
            }
        ))
        .expect("list_transactions");
        out.extend(page.transactions);
        match page.next_cursor {
            Some(c) => cursor = Some(c),
            None => return out,
        }
    }
}

/// The household fixture: realistic sign conventions in one KRW vault.
async fn household(l: &Ledger, who: &PersonId) {
    vault(l, who, "가계부").await;
    account(l, who, "카카오뱅크", AccountKind::Asset, Some("1000000")).await;
    account(l, who, "현금", AccountKind::Asset, None).await;
    account(l, who, "신한카드", AccountKind::Liability, None).await;
    account(l, who, "월급", AccountKind::Income, None).await;
    account(l, who, "식비", AccountKind::Expense, None).await;
    account(l, who, "쇼핑", AccountKind::Expense, None).await;
    record(
        l,
        who,
        tx("월급", "카카오뱅크", "3000000", Some("2026-03-10"), "3월 월급"),
    )
    .await;
    record(
        l,
        who,
        tx("카카오뱅크", "식비", "12000", Some("2026-03-11"), "점심 김치찌개"),
    )
    .await;
    record(
        l,
        who,
        tx("신한카드", "쇼핑", "300000", Some("2026-03-12"), "운동화"),
    )
    .await;
    record(
        l,
        who,
        tx("카카오뱅크", "신한카드", "200000", Some("2026-03-13"), "카드대금"),
    )
    .await;
    record(
        l,
        who,
        tx("쇼핑", "신한카드", "50000", Some("2026-03-14"), "운동화 부분환불"),
    )
    .await;
    record(
        l,
        who,
        tx("카카오뱅크", "현금", "100000", Some("2026-03-14"), "ATM 출금"),
    )
    .await;
}

// ---------------------------------------------------------------- vaults and names

/// Vaults: idempotent create, settings conflicts, today in the vault's zone, rename, optional vault argument.
pub async fn vaults_create_list_rename<S: Store>(store: S) {
    let (l, _) = ledger_over(Arc::new(store));
    let me = fresh_person("vaults");
    let missing = call!(l.list_accounts(&me, None, false)).unwrap_err();
    assert!(
        matches!(&missing, LedgerError::NotFound { what: Entity::Vault, name, .. } if name.is_empty()),
        "{missing:?}"
    );

    let a = vault(&l, &me, "가계부").await;
    assert!(a.created);
    assert_eq!(
        (a.currency, a.time_zone.as_str(), a.today.to_string().as_str()),
        (Currency::KRW, "Asia/Seoul", "2026-03-15")
    );
    let again = vault(&l, &me, "가계부 ").await;
    assert_eq!(
        (again.vault_id, again.created),
        (a.vault_id, false),
        "same name and settings: returned, not duplicated"
    );
    let clash = call!(l.create_vault(
        &me,
        NewVault {
            name: "가계부".into(),
            currency: Some(Currency::USD),
            time_zone: None
        }
    ))
    .unwrap_err();
    assert!(
        matches!(
            clash,
            LedgerError::NameTaken {
                what: Entity::Vault,
                ..
            }
        ),
        "{clash:?}"
    );

    let ny = VaultZone::parse("America/New_York").expect("zone");
    let travel = call!(l.create_vault(
        &me,
        NewVault {
            name: "Travel".into(),
            currency: Some(Currency::USD),
            time_zone: Some(ny.clone())
        }
    ))
    .expect("create");
    assert_eq!(
        travel.today.to_string(),
        "2026-03-14",
        "still the 14th in New York at 03:00Z"
    );

    let list = call!(l.list_vaults(&me)).expect("list_vaults");
    let names: Vec<_> = list
        .vaults
        .iter()
        .map(|v| (v.name.as_str(), v.currency.code(), v.account_count))
        .collect();
    assert_eq!(names, vec![("Travel", "USD", 0), ("가계부", "KRW", 0)]);

    let amb = call!(l.list_accounts(&me, None, false)).unwrap_err();
    assert!(
        matches!(&amb, LedgerError::Ambiguous { what: Entity::Vault, name, matches }
            if name.is_empty()
                && matches.iter().map(|m| (m.name.as_str(), m.location.as_str()))
                    .eq([("Travel", "USD, America/New_York"), ("가계부", "KRW, Asia/Seoul")])),
        "{amb:?}"
    );
    let nf = call!(l.list_accounts(&me, Some("가게부"), false)).unwrap_err();
    assert!(
        matches!(&nf, LedgerError::NotFound { what: Entity::Vault, name, within: None, candidates }
            if name == "가게부" && candidates == &["가계부"]),
        "{nf:?}"
    );

    let renamed = call!(l.rename_vault(&me, "travel", "여행")).expect("rename");
    assert_eq!(
        (renamed.vault_id, renamed.name.as_str()),
        (travel.vault_id, "여행")
    );
    let taken = call!(l.rename_vault(&me, "여행", "가계부")).unwrap_err();
    assert!(matches!(taken, LedgerError::NameTaken { .. }), "{taken:?}");
    assert_eq!(
        call!(l.list_accounts(&me, Some("여행"), false))
            .expect("by new name")
            .vault
            .vault_id,
        travel.vault_id
    );
    assert!(
        matches!(
            call!(l.list_accounts(&me, Some("Travel"), false)),
            Err(LedgerError::NotFound { .. })
        ),
        "old name is free"
    );
    // The freed name can be used again.
    assert!(
        call!(l.create_vault(
            &me,
            NewVault {
                name: "TRAVEL".into(),
                currency: None,
                time_zone: None
            }
        ))
        .expect("reuse")
        .created
    );
}

/// Account names: NFD equals NFC, trailing spaces, case; closest names on a miss.
pub async fn account_names_resolve_normalized<S: Store>(store: S) {
    let (l, _) = ledger_over(Arc::new(store));
    let me = fresh_person("names");
    household(&l, &me).await;
    let nfd: String = unicode_normalization::UnicodeNormalization::nfd("카카오뱅크").collect();
    let r = record(&l, &me, tx(&nfd, "식비 ", "8000", Some("2026-03-15"), "커피")).await;
    assert_eq!(
        r.transaction
            .postings
            .iter()
            .map(|p| p.account.as_str())
            .collect::<Vec<_>>(),
        vec!["식비", "카카오뱅크"]
    );
    let err = call!(l.record_transaction(&me, tx("카카오뱅크", "식비2", "8000", None, "x"))).unwrap_err();
    assert!(
        matches!(&err, LedgerError::NotFound { what: Entity::Account, name, within, candidates }
            if name == "식비2" && within.as_deref() == Some("vault \"가계부\"") && candidates == &["식비"]),
        "{err:?}"
    );
    let dup = call!(l.create_account(
        &me,
        NewAccount {
            vault: None,
            name: "식비".into(),
            kind: AccountKind::Asset,
            opening_balance: None,
            opening_date: None,
            parent: None,
            billing: None,
            owner: None,
        }
    ))
    .unwrap_err();
    // An expense account shows no opening (it starts at zero); the asset one was asked without.
    assert!(
        matches!(&dup, LedgerError::AccountMismatch { name, vault, existing, requested }
            if name == "식비" && vault == "vault \"가계부\""
                && existing.kind == AccountKind::Expense && existing.opening.is_none_or(|o| o.is_zero())
                && **requested == AccountShape { kind: AccountKind::Asset, opening: None }),
        "{dup:?}"
    );
}

// ---------------------------------------------------------------- balances and signs

/// Natural signs for every kind over the household fixture.
pub async fn balance_signs_for_every_kind<S: Store>(store: S) {
    let (l, _) = ledger_over(Arc::new(store));
    let me = fresh_person("signs");
    household(&l, &me).await;
    let expected: BTreeMap<String, String> = [
        ("카카오뱅크", "3688000"),
        ("현금", "100000"),
        ("신한카드", "50000"),
        ("월급", "3000000"),
        ("식비", "12000"),
        ("쇼핑", "250000"),
        ("기초잔액", "1000000"),
    ]
    .into_iter()
    .map(|(a, b)| (a.to_string(), b.to_string()))
    .collect();
    assert_eq!(balances(&l, &me).await, expected);
    let b = call!(l.get_balances(&me, None, None)).expect("get_balances");
    assert_eq!(b.as_of.to_string(), "2026-03-15");
    assert_eq!(
        (
            b.totals.assets.to_string(),
            b.totals.liabilities.to_string(),
            b.totals.net_worth.to_string()
        ),
        ("3788000".into(), "50000".into(), "3738000".into())
    );
    let kinds: Vec<_> = b.accounts.iter().map(|a| (a.name.as_str(), a.kind)).collect();
    assert_eq!(kinds[0], ("카카오뱅크", AccountKind::Asset));
    // As of the 12th: salary, lunch and the card purchase only (the opening balance is dated the 15th).
    let mid = call!(l.get_balances(&me, None, Some(date("2026-03-12")))).expect("as of");
    let get = |n: &str| {
        mid.accounts
            .iter()
            .find(|a| a.name == n)
            .map(|a| a.balance.to_string())
    };
    assert_eq!(get("카카오뱅크").as_deref(), Some("2988000"));
    assert_eq!(get("신한카드").as_deref(), Some("300000"));
    assert_eq!(mid.totals.net_worth.to_string(), "2688000");
    let before = call!(l.get_balances(&me, None, Some(date("2026-02-28")))).expect("before");
    assert_eq!(before.totals.net_worth.to_string(), "0");
}

/// Opening balances post against the equity account, which is created once.
pub async fn opening_balances_post_against_equity<S: Store>(store: S) {
    let (l, _) = ledger_over(Arc::new(store));
    let me = fresh_person("opening");
    vault(&l, &me, "가계부").await;
    let bank = account(&l, &me, "국민은행", AccountKind::Asset, Some("500000")).await;
    assert_eq!((bank.balance.to_string(), bank.created), ("500000".into(), true));
    let card = account(&l, &me, "현대카드", AccountKind::Liability, Some("120000")).await;
    let opening = card.opening_transaction_id.expect("an opening transaction");
    let t = call!(l.get_transaction(&me, None, opening))
        .expect("get")
        .transaction;
    assert_eq!(t.date.to_string(), "2026-03-15");
    let postings: Vec<_> = t
        .postings
        .iter()
        .map(|p| (p.account.as_str(), p.amount.to_string()))
        .collect();
    assert_eq!(
        postings,
        vec![
            ("현대카드", "-120000".to_string()),
            ("기초잔액", "120000".to_string())
        ]
    );
    assert_eq!(
        balances(&l, &me).await.get("기초잔액").map(String::as_str),
        Some("380000")
    );
    let again = account(&l, &me, "국민은행", AccountKind::Asset, Some("500000")).await;
    assert_eq!(
        (again.account_id, again.created, again.opening_transaction_id),
        (bank.account_id, false, None)
    );
    let bad = call!(l.create_account(
        &me,
        NewAccount {
            vault: None,
            name: "월급".into(),
            kind: AccountKind::Income,
            opening_balance: Some(d("5")),
            opening_date: None,
            parent: None,
            billing: None,
            owner: None,
        }
    ))
    .unwrap_err();
    assert!(
        matches!(
            &bad,
            LedgerError::InvalidInput {
                field: Field::OpeningBalance,
                reason: Reason::OpeningOfFlow
            }
        ),
        "{bad:?}"
    );
    assert_eq!(
        call!(l.list_vaults(&me)).expect("list").vaults[0].account_count,
        3
    );
}

/// Rename keeps history; archive frees the name and refuses new transactions.
pub async fn rename_and_archive_accounts<S: Store>(store: S) {
    let (l, _) = ledger_over(Arc::new(store));
    let me = fresh_person("archive");
    household(&l, &me).await;
    let r = call!(l.rename_account(&me, None, "현금", "지갑")).expect("rename");
    assert_eq!(r.name, "지갑");
    let history = all_transactions(&l, &me).await;
    assert!(
        history
            .iter()
            .any(|t| t.postings.iter().any(|p| p.account == "지갑")),
        "history shows the new name"
    );
    let a = call!(l.archive_account(&me, None, "지갑", true)).expect("archive");
    assert_eq!(
        (a.account_id, a.balance.to_string()),
        (r.account_id, "100000".into())
    );
    let refused = call!(l.record_transaction(&me, tx("지갑", "식비", "1000", None, "x"))).unwrap_err();
    assert!(
        matches!(&refused, LedgerError::ArchivedAccount { name } if name == "지갑"),
        "{refused:?}"
    );
    let live = call!(l.list_accounts(&me, None, false)).expect("live");
    assert!(live.accounts.iter().all(|x| x.name != "지갑"));
    let fresh = account(&l, &me, "지갑", AccountKind::Asset, None).await;
    assert!(
        fresh.created && fresh.account_id != r.account_id,
        "the name was freed"
    );
    let filtered = call!(l.list_transactions(
        &me,
        TransactionQuery {
            account: Some("지갑".into()),
            ..Default::default()
        }
    ))
    .expect("filter");
    assert!(
        filtered.transactions.is_empty(),
        "the live 지갑 is the new, empty one"
    );
    assert_eq!(
        call!(l.list_vaults(&me)).expect("list").vaults[0].account_count,
        7
    );
}

// ---------------------------------------------------------------- recording

/// Validation: zero, negative, excess decimals, unbalanced splits, same account twice.
pub async fn record_refuses_bad_input<S: Store>(store: S) {
    let (l, _) = ledger_over(Arc::new(store));
    let me = fresh_person("invalid");
    household(&l, &me).await;
    let e = call!(l.record_transaction(&me, tx("카카오뱅크", "식비", "0", None, "x"))).unwrap_err();
    // The first line checked is the `from` line; the tools spell the field their own way.
    let from_1 = Field::LineAmount {
        side: Side::From,
        index: 0,
    };
    assert!(
        matches!(&e, LedgerError::InvalidInput { field, reason: Reason::ZeroAmount } if *field == from_1),
        "{e:?}"
    );
    let e = call!(l.record_transaction(&me, tx("카카오뱅크", "식비", "-5", None, "x"))).unwrap_err();
    assert!(
        matches!(&e, LedgerError::InvalidInput { field, reason: Reason::NegativeAmount } if *field == from_1),
        "{e:?}"
    );
    let e = call!(l.record_transaction(&me, tx("카카오뱅크", "식비", "0.5", None, "x"))).unwrap_err();
    assert!(
        matches!(&e, LedgerError::InvalidInput { reason: Reason::Parse(p), .. } if p.message().contains("KRW has no minor unit")),
        "{e:?}"
    );
    let e = call!(l.record_transaction(&me, tx("카카오뱅크", "카카오뱅크", "5", None, "x"))).unwrap_err();
    assert!(
        matches!(
            &e,
            LedgerError::InvalidInput {
                field: Field::LineAccount {
                    side: Side::From,
                    index: 0
                },
                reason: Reason::BothSides { account, recurring: false },
            } if account == "카카오뱅크"
        ),
        "{e:?}"
    );
    let split = NewSplit {
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
                amount: d("9000"),
            },
        ],
        date: None,
        memo: None,
        idempotency_key: key(),
        allow_duplicate: false,
        future_date: false,
        dry_run: false,
        external_ref: None,
        tags: vec![],
        installments: None,
        for_whom: None,
    };
    let e = call!(l.record_split(&me, split.clone())).unwrap_err();
    assert!(
        matches!(&e, LedgerError::Unbalanced { debits, credits, difference }
            if (debits.to_string(), credits.to_string(), difference.to_string())
                == ("29000".into(), "30000".into(), "1000".into())),
        "{e:?}"
    );
    let ok = NewSplit {
        to: vec![
            split.to[0].clone(),
            SplitLine {
                account: "쇼핑".into(),
                amount: d("10000"),
            },
        ],
        ..split
    };
    let r = call!(l.record_split(&me, ok.clone())).expect("balanced split");
    let sum: i64 = r.transaction.postings.iter().map(|p| p.amount.minor()).sum();
    assert_eq!((r.transaction.postings.len(), sum), (3, 0));
}

/// Same key + same arguments replays; same key + other arguments is refused.
pub async fn idempotency_replays_and_refuses<S: Store>(store: S) {
    let (l, _) = ledger_over(Arc::new(store));
    let me = fresh_person("idem");
    household(&l, &me).await;
    let t = tx("카카오뱅크", "식비", "9000", None, "점심");
    let first = record(&l, &me, t.clone()).await;
    assert!(!first.replayed);
    // A retry may spell the amount differently and the names loosely: still the same entry.
    let retry = NewTransaction {
        amount: d("9000.0"),
        to: "식비 ".into(),
        ..t.clone()
    };
    let second = record(&l, &me, retry).await;
    assert!(second.replayed);
    assert_eq!(second.transaction, first.transaction);
    assert_eq!(second.balances, first.balances);
    let changed = call!(l.record_transaction(
        &me,
        NewTransaction {
            amount: d("9001"),
            ..t.clone()
        }
    ))
    .unwrap_err();
    assert!(
        matches!(&changed, LedgerError::IdempotencyKeyReused { key } if *key == t.idempotency_key),
        "{changed:?}"
    );
    assert_eq!(
        all_transactions(&l, &me).await.len(),
        8,
        "six fixture entries, the opening balance, one lunch"
    );
}

/// The duplicate guard: refused within the window, allowed with allowDuplicate, after the window, or after a void.
pub async fn duplicate_guard<S: Store>(store: S) {
    let (l, clock) = ledger_over(Arc::new(store));
    let me = fresh_person("dup");
    household(&l, &me).await;
    let first = record(
        &l,
        &me,
        tx("카카오뱅크", "식비", "4500", Some("2026-03-15"), "아메리카노"),
    )
    .await;
    clock.advance_seconds(120);
    let again = call!(l.record_transaction(
        &me,
        tx("카카오뱅크", "식비", "4500", Some("2026-03-15"), "아메리카노")
    ))
    .unwrap_err();
    match &again {
        LedgerError::ProbableDuplicate {
            earlier_id,
            minutes_ago,
            ..
        } => {
            assert_eq!((*earlier_id, *minutes_ago), (first.transaction.transaction_id, 2));
        }
        other => panic!("expected a probable duplicate, got {other:?}"),
    }
    let forced = record(
        &l,
        &me,
        NewTransaction {
            allow_duplicate: true,
            future_date: false,
            ..tx("카카오뱅크", "식비", "4500", Some("2026-03-15"), "아메리카노")
        },
    )
    .await;
    assert_ne!(
        forced.transaction.transaction_id,
        first.transaction.transaction_id
    );
    // Void the latest; the same entry again is then not a duplicate of a live one.
    call!(l.void_transaction(&me, None, forced.transaction.transaction_id, Some("중복"))).expect("void");
    let after_void = record(
        &l,
        &me,
        tx("카카오뱅크", "식비", "4500", Some("2026-03-15"), "아메리카노"),
    )
    .await;
    clock.advance_seconds(11 * 60);
    let later = record(
        &l,
        &me,
        tx("카카오뱅크", "식비", "4500", Some("2026-03-15"), "아메리카노"),
    )
    .await;
    assert_ne!(
        after_void.transaction.transaction_id,
        later.transaction.transaction_id
    );
    assert_eq!(
        balances(&l, &me).await.get("식비").map(String::as_str),
        Some("25500"),
        "12000 + 3 × 4500"
    );
}

/// Dry run shows the result and writes nothing.
pub async fn dry_run_writes_nothing<S: Store>(store: S) {
    let (l, _) = ledger_over(Arc::new(store));
    let me = fresh_person("dry");
    household(&l, &me).await;
    let before = balances(&l, &me).await;
    let t = NewTransaction {
        dry_run: true,
        ..tx("카카오뱅크", "식비", "7000", None, "저녁")
    };
    let r = record(&l, &me, t.clone()).await;
    assert!(r.dry_run && !r.replayed);
    let shown: Vec<_> = r
        .balances
        .iter()
        .map(|b| (b.account.as_str(), b.balance.to_string()))
        .collect();
    assert_eq!(
        shown,
        vec![
            ("식비", "19000".to_string()),
            ("카카오뱅크", "3681000".to_string())
        ]
    );
    assert_eq!(balances(&l, &me).await, before);
    assert_eq!(
        all_transactions(&l, &me).await.len(),
        7,
        "six entries and the opening balance"
    );
    // The key stays unused: the real call with it writes.
    let real = record(&l, &me, NewTransaction { dry_run: false, ..t }).await;
    assert!(!real.replayed && !real.dry_run);
}

/// Voiding reverses the effect once and keeps the record.
pub async fn void_once<S: Store>(store: S) {
    let (l, _) = ledger_over(Arc::new(store));
    let me = fresh_person("void");
    household(&l, &me).await;
    let before = balances(&l, &me).await;
    let t = record(
        &l,
        &me,
        tx("카카오뱅크", "식비", "15000", Some("2026-03-15"), "회식"),
    )
    .await;
    let id = t.transaction.transaction_id;
    let v = call!(l.void_transaction(&me, None, id, Some("잘못 입력"))).expect("void");
    assert!(v.transaction.voided && !v.already_voided);
    assert_eq!(balances(&l, &me).await, before);
    let again = call!(l.void_transaction(&me, None, id, None)).expect("void again");
    assert!(again.already_voided);
    assert_eq!(balances(&l, &me).await, before, "voiding twice reverses once");
    let got = call!(l.get_transaction(&me, None, id)).expect("kept");
    assert!(got.transaction.voided);
    let r = call!(l.spending_report(
        &me,
        ReportRequest {
            vault: None,
            from: date("2026-03-01"),
            to: date("2026-03-31"),
            by: ReportBy::Account,
            kind: FlowKind::Expense,
            tag: None
        }
    ))
    .expect("report");
    assert_eq!(r.total.to_string(), "262000", "the voided dinner is not spending");
    let missing = TransactionId::from_u64(id.get() + 1).expect("an id");
    let e = call!(l.void_transaction(&me, None, missing, None)).unwrap_err();
    assert!(
        matches!(&e, LedgerError::NotFound { what: Entity::Transaction, name, within, candidates }
            if *name == missing.to_string() && within.as_deref() == Some("vault \"가계부\"") && candidates.is_empty()),
        "{e:?}"
    );
}

/// The idempotency fingerprint is over the resolved request: leaving out the
/// default date on a retry (or sending today's date) replays.
pub async fn retry_with_or_without_the_default_date_replays<S: Store>(store: S) {
    let (l, _) = ledger_over(Arc::new(store));
    let me = fresh_person("retry-date");
    household(&l, &me).await;
    let first = tx("카카오뱅크", "식비", "4500", None, "커피");
    let r = record(&l, &me, first.clone()).await;
    let dated = NewTransaction {
        date: Some(date("2026-03-15")),
        ..first.clone()
    };
    let again = record(&l, &me, dated.clone()).await;
    assert_eq!(
        (again.replayed, again.transaction.transaction_id),
        (true, r.transaction.transaction_id)
    );
    let later = NewTransaction {
        date: None,
        idempotency_key: key(),
        allow_duplicate: true,
        future_date: false,
        ..dated
    };
    let second = record(
        &l,
        &me,
        NewTransaction {
            date: Some(date("2026-03-15")),
            ..later.clone()
        },
    )
    .await;
    let undated = record(&l, &me, later).await;
    assert_eq!(
        (undated.replayed, undated.transaction.transaction_id),
        (true, second.transaction.transaction_id)
    );
}

/// A date more than a year after today is refused unless meant; the error shows the date read.
pub async fn far_future_dates_need_saying<S: Store>(store: S) {
    let (l, _) = ledger_over(Arc::new(store));
    let me = fresh_person("far-future");
    household(&l, &me).await;
    let far = tx("카카오뱅크", "식비", "1000", Some("2099-01-01"), "오타");
    let e = call!(l.record_transaction(&me, far.clone())).unwrap_err();
    assert!(
        matches!(&e, LedgerError::FarFutureDate { date: read, today }
            if *read == date("2099-01-01") && *today == date("2026-03-15")),
        "{e:?}"
    );
    let within = record(
        &l,
        &me,
        tx("카카오뱅크", "식비", "1000", Some("2027-03-15"), "1년 뒤"),
    )
    .await;
    assert_eq!(within.transaction.date.to_string(), "2027-03-15");
    let meant = record(
        &l,
        &me,
        NewTransaction {
            future_date: true,
            // The same accounts and amount as `within`, a moment ago.
            allow_duplicate: true,
            ..far
        },
    )
    .await;
    assert_eq!(meant.transaction.date.to_string(), "2099-01-01");
    let moved = edit(
        &l,
        &me,
        TransactionEdit {
            date: Some(date("2099-01-02")),
            ..edit_of(within.transaction.transaction_id)
        },
    )
    .await;
    assert!(matches!(moved, Err(LedgerError::FarFutureDate { .. })));
}

/// `edit_transaction`, retried while transient like [`call!`].
async fn edit(l: &Ledger, who: &PersonId, e: TransactionEdit) -> Result<Edited, LedgerError> {
    call!(l.edit_transaction(who, e.clone()))
}

/// An edit in place for the `edit_transaction` calls below.
fn edit_of(id: TransactionId) -> TransactionEdit {
    TransactionEdit {
        vault: None,
        transaction_id: id,
        idempotency_key: key(),
        expected_version: None,
        amount: None,
        date: None,
        memo: None,
        from: None,
        to: None,
        lines: None,
        future_date: false,
        dry_run: false,
        tags: None,
        for_whom: None,
    }
}

/// Editing keeps the id, moves every total exactly (across months too), keeps
/// the previous version, replays per key, and refuses stale and voided edits.
pub async fn edit_in_place<S: Store>(store: S) {
    let (l, clock) = ledger_over(Arc::new(store));
    let me = fresh_person("edit");
    household(&l, &me).await;
    let before = balances(&l, &me).await;
    let t = record(
        &l,
        &me,
        tx("카카오뱅크", "식비", "15000", Some("2026-03-15"), "회식"),
    )
    .await;
    let id = t.transaction.transaction_id;
    assert_eq!(t.transaction.version, 1);
    clock.advance_seconds(60);
    let first = TransactionEdit {
        amount: Some(d("9000")),
        date: Some(date("2026-02-28")),
        memo: Some("회식 (수정)".into()),
        ..edit_of(id)
    };
    let e = edit(&l, &me, first.clone()).await.expect("edit");
    assert_eq!(e.transaction.transaction_id, id, "the id stays");
    assert_eq!((e.transaction.version, e.changed, e.replayed), (2, true, false));
    assert_eq!(e.transaction.date.to_string(), "2026-02-28");
    let shown: Vec<(String, String)> = e
        .balances
        .iter()
        .map(|b| (b.account.clone(), b.balance.to_string()))
        .collect();
    assert_eq!(
        shown,
        [
            ("식비".into(), "21000".into()),
            ("카카오뱅크".into(), "3679000".into())
        ]
    );
    let now = balances(&l, &me).await;
    assert_eq!(
        (now["식비"].as_str(), now["카카오뱅크"].as_str()),
        ("21000", "3679000")
    );
    let got = call!(l.get_transaction(&me, None, id)).expect("get");
    assert_eq!(got.transaction.version, 2);
    assert_eq!(got.transaction.memo, "회식 (수정)");
    let h = &got.transaction.history;
    assert_eq!(h.len(), 1);
    assert_eq!(
        (h[0].version, h[0].date.to_string(), h[0].memo.as_str()),
        (1, "2026-03-15".into(), "회식")
    );
    assert_eq!(h[0].postings[0].amount.to_string(), "15000");
    assert_eq!(h[0].replaced_at.as_second(), NOON_KST_2026_03_15 + 60);
    // The entry moved months: reports and listings follow it, and it is listed once.
    let report = |from: &str, to: &str| ReportRequest {
        vault: None,
        from: date(from),
        to: date(to),
        by: ReportBy::Account,
        kind: FlowKind::Expense,
        tag: None,
    };
    let march = call!(l.spending_report(&me, report("2026-03-01", "2026-03-31"))).expect("march");
    assert_eq!(march.total.to_string(), "262000");
    let feb = call!(l.spending_report(&me, report("2026-02-01", "2026-02-28"))).expect("feb");
    assert_eq!(feb.total.to_string(), "9000");
    let listed: Vec<_> = all_transactions(&l, &me)
        .await
        .into_iter()
        .filter(|x| x.transaction_id == id)
        .collect();
    assert_eq!(listed.len(), 1);
    assert_eq!(
        (listed[0].version, listed[0].date.to_string()),
        (2, "2026-02-28".into())
    );

    // The same key and request replays; the same key for another request is refused.
    let again = edit(&l, &me, first.clone()).await.expect("replay");
    assert_eq!(
        (again.replayed, again.transaction.version, again.current.is_none()),
        (true, 2, true)
    );
    assert_eq!(balances(&l, &me).await, now, "a replay writes nothing");
    let other = TransactionEdit {
        amount: Some(d("9100")),
        ..first.clone()
    };
    assert!(matches!(
        edit(&l, &me, other).await,
        Err(LedgerError::IdempotencyKeyReused { .. })
    ));
    // A stale expected version is refused, naming the current one.
    let stale = TransactionEdit {
        expected_version: Some(1),
        from: Some("현금".into()),
        ..edit_of(id)
    };
    assert!(matches!(
        edit(&l, &me, stale.clone()).await,
        Err(LedgerError::VersionMismatch {
            expected: 1,
            current: 2,
            ..
        })
    ));
    let second = edit(
        &l,
        &me,
        TransactionEdit {
            expected_version: Some(2),
            ..stale
        },
    )
    .await
    .expect("second edit");
    let shown: Vec<(String, String)> = second
        .balances
        .iter()
        .map(|b| (b.account.clone(), b.balance.to_string()))
        .collect();
    assert_eq!(
        shown,
        [
            ("식비".into(), "21000".into()),
            ("현금".into(), "91000".into()),
            ("카카오뱅크".into(), "3688000".into())
        ]
    );
    // Replaying the first edit now says what the entry is today.
    let late = edit(&l, &me, first).await.expect("late replay");
    assert!(late.replayed);
    assert_eq!(late.current.map(|c| c.version), Some(3));
    // A dry run shows the next version and writes nothing; asking for what is there writes nothing.
    let dry = edit(
        &l,
        &me,
        TransactionEdit {
            memo: Some("미리보기".into()),
            dry_run: true,
            ..edit_of(id)
        },
    )
    .await
    .expect("dry run");
    assert_eq!(
        (
            dry.transaction.version,
            dry.transaction.memo.as_str(),
            dry.dry_run
        ),
        (4, "미리보기", true)
    );
    let same = edit(
        &l,
        &me,
        TransactionEdit {
            memo: Some("회식 (수정)".into()),
            ..edit_of(id)
        },
    )
    .await
    .expect("no-op");
    assert_eq!((same.changed, same.transaction.version), (false, 3));
    assert_eq!(
        call!(l.get_transaction(&me, None, id))
            .expect("get")
            .transaction
            .history
            .len(),
        2
    );
    // Shape errors: nothing to change; amount of a split; lines and simple fields together.
    assert!(matches!(
        edit(&l, &me, edit_of(id)).await,
        Err(LedgerError::EditShape(EditShape::NothingToChange))
    ));
    let split = call!(l.record_split(
        &me,
        NewSplit {
            vault: None,
            from: vec![SplitLine {
                account: "신한카드".into(),
                amount: d("45000")
            }],
            to: vec![
                SplitLine {
                    account: "식비".into(),
                    amount: d("30000")
                },
                SplitLine {
                    account: "쇼핑".into(),
                    amount: d("15000")
                },
            ],
            date: Some(date("2026-03-15")),
            memo: None,
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
    let sid = split.transaction.transaction_id;
    assert!(matches!(
        edit(
            &l,
            &me,
            TransactionEdit {
                amount: Some(d("1")),
                ..edit_of(sid)
            }
        )
        .await,
        Err(LedgerError::EditShape(EditShape::SplitNeedsLines))
    ));
    let resplit = edit(
        &l,
        &me,
        TransactionEdit {
            lines: Some(EditLines {
                from: vec![SplitLine {
                    account: "신한카드".into(),
                    amount: d("45000"),
                }],
                to: vec![
                    SplitLine {
                        account: "식비".into(),
                        amount: d("40000"),
                    },
                    SplitLine {
                        account: "쇼핑".into(),
                        amount: d("5000"),
                    },
                ],
            }),
            ..edit_of(sid)
        },
    )
    .await
    .expect("lines");
    assert_eq!(resplit.transaction.postings[0].amount.to_string(), "40000");
    let after_split = balances(&l, &me).await;
    assert_eq!(
        (after_split["식비"].as_str(), after_split["쇼핑"].as_str()),
        ("61000", "255000")
    );
    // Voiding reverses the current version; a voided entry cannot be edited.
    call!(l.void_transaction(&me, None, id, Some("잘못 입력"))).expect("void");
    call!(l.void_transaction(&me, None, sid, None)).expect("void split");
    assert_eq!(balances(&l, &me).await, before);
    assert!(matches!(
        edit(
            &l,
            &me,
            TransactionEdit {
                memo: Some("x".into()),
                ..edit_of(id)
            }
        )
        .await,
        Err(LedgerError::EditOfVoided { .. })
    ));
}

/// One meaning of "balance": as of today in the vault's zone everywhere a date is
/// not given; entries dated after today are shown apart as `scheduled`.
pub async fn balances_are_as_of_today_with_later_entries_apart<S: Store>(store: S) {
    let (l, _) = ledger_over(Arc::new(store));
    let me = fresh_person("today");
    household(&l, &me).await;
    record(
        &l,
        &me,
        tx(
            "카카오뱅크",
            "쇼핑",
            "650000",
            Some("2026-04-01"),
            "4월 월세 (미리)",
        ),
    )
    .await;
    let listed = call!(l.list_accounts(&me, None, false)).expect("list");
    let bank = listed
        .accounts
        .iter()
        .find(|a| a.name == "카카오뱅크")
        .expect("bank");
    assert_eq!(
        bank.balance.to_string(),
        "3688000",
        "today, without April's entry"
    );
    assert_eq!(bank.scheduled.map(|m| m.to_string()), Some("-650000".into()));
    let shop = listed.accounts.iter().find(|a| a.name == "쇼핑").expect("shop");
    assert_eq!(
        (shop.balance.to_string(), shop.scheduled.map(|m| m.to_string())),
        ("250000".into(), Some("650000".into()))
    );
    let cash = listed.accounts.iter().find(|a| a.name == "현금").expect("cash");
    assert_eq!(cash.scheduled, None);
    let today = call!(l.get_balances(&me, None, None)).expect("balances");
    let row = today
        .accounts
        .iter()
        .find(|a| a.name == "카카오뱅크")
        .expect("bank row");
    assert_eq!(
        (row.balance.to_string(), row.scheduled.map(|m| m.to_string())),
        ("3688000".into(), Some("-650000".into()))
    );
    assert_eq!(today.as_of.to_string(), "2026-03-15");
    let april = call!(l.get_balances(&me, None, Some(date("2026-04-30")))).expect("april");
    let row = april
        .accounts
        .iter()
        .find(|a| a.name == "카카오뱅크")
        .expect("bank row");
    assert_eq!((row.balance.to_string(), row.scheduled), ("3038000".into(), None));
    let past = call!(l.get_balances(&me, None, Some(date("2026-03-12")))).expect("past");
    assert!(
        past.accounts.iter().all(|a| a.scheduled.is_none()),
        "a past date shows no scheduled entries"
    );
}

// ---------------------------------------------------------------- reading

/// Filters, newest-first order, and cursors that only work for their own listing.
pub async fn list_transactions_filters_and_pages<S: Store>(store: S) {
    let (l, _) = ledger_over(Arc::new(store));
    let me = fresh_person("list");
    household(&l, &me).await;
    let all = all_transactions(&l, &me).await;
    let dates: Vec<_> = all.iter().map(|t| t.date.to_string()).collect();
    let mut sorted = dates.clone();
    sorted.sort_by(|a, b| b.cmp(a));
    assert_eq!(dates, sorted, "newest first");
    assert_eq!(all.len(), 7, "six entries and the opening balance");

    let mut seen = Vec::new();
    let mut cursor = None;
    loop {
        let page = call!(l.list_transactions(
            &me,
            TransactionQuery {
                limit: Some(2),
                cursor: cursor.clone(),
                ..Default::default()
            }
        ))
        .expect("page");
        assert!(page.transactions.len() <= 2);
        seen.extend(page.transactions.into_iter().map(|t| t.transaction_id));
        match page.next_cursor {
            Some(c) => cursor = Some(c),
            None => break,
        }
    }
    assert_eq!(
        seen,
        all.iter().map(|t| t.transaction_id).collect::<Vec<_>>(),
        "pages cover everything once, in order"
    );

    let card = call!(l.list_transactions(
        &me,
        TransactionQuery {
            account: Some("신한카드".into()),
            ..Default::default()
        }
    ))
    .expect("card");
    assert_eq!(
        card.transactions
            .iter()
            .map(|t| t.memo.as_str())
            .collect::<Vec<_>>(),
        vec!["운동화 부분환불", "카드대금", "운동화"]
    );
    let text = call!(l.list_transactions(
        &me,
        TransactionQuery {
            text: Some("운동화".into()),
            ..Default::default()
        }
    ))
    .expect("text");
    assert_eq!(text.transactions.len(), 2);
    let ranged = call!(l.list_transactions(
        &me,
        TransactionQuery {
            from: Some(date("2026-03-11")),
            to: Some(date("2026-03-13")),
            limit: Some(1),
            ..Default::default()
        }
    ))
    .expect("range");
    assert_eq!(ranged.transactions[0].memo, "카드대금");
    let c = ranged.next_cursor.expect("more in range");
    let other_filter = call!(l.list_transactions(
        &me,
        TransactionQuery {
            cursor: Some(c.clone()),
            ..Default::default()
        }
    ))
    .unwrap_err();
    assert!(
        matches!(&other_filter, LedgerError::BadCursor),
        "{other_filter:?}"
    );
    let bad = call!(l.list_transactions(
        &me,
        TransactionQuery {
            from: Some(date("2026-03-12")),
            to: Some(date("2026-03-11")),
            ..Default::default()
        }
    ))
    .unwrap_err();
    assert!(
        matches!(&bad, LedgerError::BackwardsRange { from, to } if from == "2026-03-12" && to == "2026-03-11"),
        "{bad:?}"
    );
    let lim = call!(l.list_transactions(
        &me,
        TransactionQuery {
            limit: Some(201),
            ..Default::default()
        }
    ))
    .unwrap_err();
    assert!(
        matches!(
            &lim,
            LedgerError::InvalidInput {
                field: Field::Limit,
                reason: Reason::Limit { max: 200 }
            }
        ),
        "{lim:?}"
    );
}

/// Spending by account and by month, partial months, income, and net worth history.
pub async fn reports_by_account_month_and_net_worth<S: Store>(store: S) {
    let (l, _) = ledger_over(Arc::new(store));
    let me = fresh_person("reports");
    household(&l, &me).await;
    record(
        &l,
        &me,
        tx("카카오뱅크", "식비", "30000", Some("2026-01-20"), "1월 외식"),
    )
    .await;
    record(
        &l,
        &me,
        tx("카카오뱅크", "식비", "20000", Some("2026-02-03"), "2월 장보기"),
    )
    .await;
    record(
        &l,
        &me,
        tx("카카오뱅크", "쇼핑", "40000", Some("2026-02-27"), "2월 쇼핑"),
    )
    .await;
    let req = |from: &str, to: &str, by, kind| ReportRequest {
        vault: None,
        from: date(from),
        to: date(to),
        by,
        kind,
        tag: None,
    };

    let by_account = call!(l.spending_report(
        &me,
        req("2026-01-01", "2026-03-31", ReportBy::Account, FlowKind::Expense)
    ))
    .expect("report");
    let rows: Vec<_> = by_account
        .rows
        .iter()
        .map(|r| (r.account.clone().unwrap_or_default(), r.amount.to_string()))
        .collect();
    assert_eq!(
        rows,
        vec![
            ("쇼핑".to_string(), "290000".to_string()),
            ("식비".to_string(), "62000".to_string())
        ]
    );
    assert_eq!(by_account.total.to_string(), "352000");

    let by_month = call!(l.spending_report(
        &me,
        req("2026-01-01", "2026-03-31", ReportBy::Month, FlowKind::Expense)
    ))
    .expect("months");
    let rows: Vec<_> = by_month
        .rows
        .iter()
        .map(|r| {
            (
                r.month.map(|m| m.to_string()).unwrap_or_default(),
                r.amount.to_string(),
            )
        })
        .collect();
    assert_eq!(
        rows,
        vec![
            ("2026-01".into(), "30000".into()),
            ("2026-02".into(), "60000".into()),
            ("2026-03".into(), "262000".into())
        ]
    );

    // Partial months at both ends come from daily rollups.
    let partial = call!(l.spending_report(
        &me,
        req("2026-01-21", "2026-03-11", ReportBy::Account, FlowKind::Expense)
    ))
    .expect("partial");
    assert_eq!(partial.total.to_string(), "72000", "20000 + 40000 + 12000");
    let inside = call!(l.spending_report(
        &me,
        req("2026-02-04", "2026-02-26", ReportBy::Month, FlowKind::Expense)
    ))
    .expect("inside");
    assert_eq!(inside.total.to_string(), "0");

    let income = call!(l.spending_report(
        &me,
        req("2026-03-01", "2026-03-31", ReportBy::Account, FlowKind::Income)
    ))
    .expect("income");
    assert_eq!(income.total.to_string(), "3000000");

    let h = call!(l.net_worth_history(&me, None, month("2025-12"), month("2026-03"))).expect("history");
    let points: Vec<_> = h
        .points
        .iter()
        .map(|p| {
            (
                p.month.to_string(),
                p.net_worth.to_string(),
                p.liabilities.to_string(),
            )
        })
        .collect();
    assert_eq!(
        points,
        vec![
            ("2025-12".into(), "0".into(), "0".into()),
            ("2026-01".into(), "-30000".into(), "0".into()),
            ("2026-02".into(), "-90000".into(), "0".into()),
            ("2026-03".into(), "3648000".into(), "50000".into()),
        ]
    );
    let e = call!(l.net_worth_history(&me, None, month("2026-03"), month("2026-01"))).unwrap_err();
    assert!(
        matches!(&e, LedgerError::BackwardsRange { from, to } if from == "2026-03" && to == "2026-01"),
        "{e:?}"
    );
}

fn snap(account: &str, on: &str, balance: &str) -> SnapshotInput {
    SnapshotInput {
        vault: None,
        account: account.into(),
        date: date(on),
        balance: d(balance),
    }
}

/// Snapshots can be listed and deleted; a date after today or an account without
/// a balance to see is refused; a later-dated snapshot never takes over reconcile.
pub async fn snapshots_listed_deleted_and_bounded<S: Store>(store: S) {
    let store: Arc<dyn Store> = Arc::new(store);
    let (l, _) = ledger_over(store.clone());
    let me = fresh_person("snaps");
    household(&l, &me).await;
    call!(l.upsert_snapshot(&me, snap("카카오뱅크", "2026-03-14", "2688000"))).expect("snapshot");
    call!(l.upsert_snapshot(&me, snap("신한카드", "2026-03-12", "300000"))).expect("snapshot");
    assert!(matches!(
        call!(l.upsert_snapshot(&me, snap("카카오뱅크", "2027-11-30", "1"))),
        Err(LedgerError::SnapshotAfterToday { .. })
    ));
    let e = call!(l.upsert_snapshot(&me, snap("식비", "2026-03-14", "1"))).unwrap_err();
    assert!(
        matches!(&e, LedgerError::SnapshotOfFlowAccount { name, kind: AccountKind::Expense } if name == "식비"),
        "{e:?}"
    );
    // A snapshot dated after today (as an older version could store) is listed but not reconciled.
    let (later, clock) = ledger_over(store.clone());
    clock.advance_seconds(60 * 24 * 3600);
    call!(later.upsert_snapshot(&me, snap("카카오뱅크", "2026-05-10", "1"))).expect("a later today");
    let r = call!(l.reconcile(&me, None, Some("카카오뱅크"))).expect("reconcile");
    assert_eq!(
        (
            r.accounts[0].snapshot_date.to_string(),
            r.accounts[0].difference.to_string()
        ),
        ("2026-03-14".into(), "0".into())
    );
    let all = call!(l.list_snapshots(&me, SnapshotQuery::default())).expect("list");
    let shown: Vec<(String, String, String)> = all
        .snapshots
        .iter()
        .map(|s| (s.account.clone(), s.date.to_string(), s.balance.to_string()))
        .collect();
    assert_eq!(
        shown,
        [
            ("신한카드".into(), "2026-03-12".into(), "300000".into()),
            ("카카오뱅크".into(), "2026-03-14".into(), "2688000".into()),
            ("카카오뱅크".into(), "2026-05-10".into(), "1".into()),
        ]
    );
    let ranged = call!(l.list_snapshots(
        &me,
        SnapshotQuery {
            account: Some("카카오뱅크".into()),
            from: Some(date("2026-04-01")),
            ..SnapshotQuery::default()
        }
    ))
    .expect("ranged");
    assert_eq!(ranged.snapshots.len(), 1);
    let gone = call!(l.delete_snapshot(&me, None, "카카오뱅크", date("2026-05-10"))).expect("delete");
    assert!(gone.deleted);
    let again = call!(l.delete_snapshot(&me, None, "카카오뱅크", date("2026-05-10"))).expect("delete again");
    assert!(!again.deleted, "nothing left to delete; a retry is harmless");
    assert_eq!(
        call!(l.list_snapshots(&me, SnapshotQuery::default()))
            .expect("list")
            .snapshots
            .len(),
        2
    );
}

/// Snapshots upsert per account and date; reconcile compares the latest with the ledger on its date.
pub async fn snapshots_and_reconcile<S: Store>(store: S) {
    let (l, _) = ledger_over(Arc::new(store));
    let me = fresh_person("recon");
    household(&l, &me).await;
    let s = call!(l.upsert_snapshot(
        &me,
        SnapshotInput {
            vault: None,
            account: "카카오뱅크".into(),
            date: date("2026-03-12"),
            balance: d("2988000")
        }
    ))
    .expect("snapshot");
    assert_eq!(
        (s.ledger_balance.to_string(), s.difference.to_string()),
        ("2988000".into(), "0".into())
    );
    let s = call!(l.upsert_snapshot(
        &me,
        SnapshotInput {
            vault: None,
            account: "신한카드".into(),
            date: date("2026-03-14"),
            balance: d("60000")
        }
    ))
    .expect("snapshot");
    assert_eq!(s.difference.to_string(), "10000");
    // Writing the same account and date again replaces it.
    call!(l.upsert_snapshot(
        &me,
        SnapshotInput {
            vault: None,
            account: "신한카드".into(),
            date: date("2026-03-14"),
            balance: d("50000")
        }
    ))
    .expect("replace");
    call!(l.upsert_snapshot(
        &me,
        SnapshotInput {
            vault: None,
            account: "카카오뱅크".into(),
            date: date("2026-03-15"),
            balance: d("3680000")
        }
    ))
    .expect("later snapshot");
    let r = call!(l.reconcile(&me, None, None)).expect("reconcile");
    let rows: Vec<_> = r
        .accounts
        .iter()
        .map(|x| {
            (
                x.name.as_str(),
                x.snapshot_date.to_string(),
                x.ledger_balance.to_string(),
                x.difference.to_string(),
                x.status,
            )
        })
        .collect();
    assert_eq!(
        rows,
        vec![
            (
                "신한카드",
                "2026-03-14".into(),
                "50000".into(),
                "0".into(),
                ReconcileStatus::Matched
            ),
            (
                "카카오뱅크",
                "2026-03-15".into(),
                "3688000".into(),
                "-8000".into(),
                ReconcileStatus::Mismatch
            ),
        ]
    );
    let one = call!(l.reconcile(&me, None, Some("신한카드"))).expect("one account");
    assert_eq!(one.accounts.len(), 1);
}

// ---------------------------------------------------------------- races

/// 20 concurrent creates of one account name: exactly one account.
pub async fn race_twenty_creates_one_account<S: Store>(store: S) {
    let (l, _) = ledger_over(Arc::new(store));
    let me = fresh_person("race-acct");
    vault(&l, &me, "가계부").await;
    let mut tasks = Vec::new();
    for _ in 0..20 {
        let (l, me) = (l.clone(), me.clone());
        tasks.push(tokio::spawn(async move {
            account(&l, &me, "토스뱅크", AccountKind::Asset, Some("1000")).await
        }));
    }
    let mut ids = Vec::new();
    let mut created = 0;
    for t in tasks {
        let r = t.await.expect("task");
        ids.push(r.account_id);
        created += usize::from(r.created);
    }
    ids.dedup();
    assert_eq!((ids.len(), created), (1, 1), "one account, created once");
    let all = call!(l.list_accounts(&me, None, true)).expect("list");
    assert_eq!(all.accounts.iter().filter(|a| a.name == "토스뱅크").count(), 1);
    assert_eq!(
        balances(&l, &me).await.get("기초잔액").map(String::as_str),
        Some("1000"),
        "one opening balance"
    );
    assert_eq!(
        call!(l.list_vaults(&me)).expect("vaults").vaults[0].account_count,
        2
    );
}

/// 20 concurrent records with one idempotency key: one transaction, 19 replays of it.
pub async fn race_twenty_records_same_key<S: Store>(store: S) {
    let (l, _) = ledger_over(Arc::new(store));
    let me = fresh_person("race-idem");
    household(&l, &me).await;
    let t = tx("카카오뱅크", "식비", "6000", None, "동시 재시도");
    let mut tasks = Vec::new();
    for _ in 0..20 {
        let (l, me, t) = (l.clone(), me.clone(), t.clone());
        tasks.push(tokio::spawn(async move {
            call!(l.record_transaction(&me, t.clone())).expect("record")
        }));
    }
    let mut ids = Vec::new();
    let mut replays = 0;
    for task in tasks {
        let r = task.await.expect("task");
        ids.push(r.transaction.transaction_id);
        replays += usize::from(r.replayed);
    }
    ids.dedup();
    assert_eq!((ids.len(), replays), (1, 19));
    assert_eq!(
        all_transactions(&l, &me).await.len(),
        8,
        "seven fixture transactions and this one"
    );
    assert_eq!(
        balances(&l, &me).await.get("식비").map(String::as_str),
        Some("18000")
    );
}

/// 50 concurrent random transactions: postings sum to zero, and every balance equals its postings.
pub async fn race_fifty_random_transactions<S: Store>(store: S) {
    let (l, _) = ledger_over(Arc::new(store));
    let me = fresh_person("race-random");
    household(&l, &me).await;
    let names = ["카카오뱅크", "현금", "신한카드", "월급", "식비", "쇼핑"];
    let mut tasks = Vec::new();
    for i in 0..50u64 {
        let (l, me) = (l.clone(), me.clone());
        let seed = uuid::Uuid::new_v4().as_u64_pair().0;
        let from = names[(seed % 6) as usize];
        let to = names[((seed / 6) % 5 + 1 + seed % 6) as usize % 6];
        let amount = format!("{}", 100 + (seed >> 20) % 100_000);
        let day = format!("2026-03-{:02}", 1 + i % 15);
        tasks.push(tokio::spawn(async move {
            let t = NewTransaction {
                allow_duplicate: true,
                future_date: false,
                ..tx(from, to, &amount, Some(&day), &format!("random {i}"))
            };
            call!(l.record_transaction(&me, t.clone())).expect("record")
        }));
    }
    // A retried call may come back as a replay of its own earlier, committed attempt.
    let mut ids = Vec::new();
    for t in tasks {
        ids.push(t.await.expect("task").transaction.transaction_id);
    }
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), 50, "fifty distinct transactions");
    let all = all_transactions(&l, &me).await;
    assert_eq!(all.len(), 57);
    let mut per_account: BTreeMap<String, i64> = BTreeMap::new();
    for t in &all {
        assert_eq!(
            t.postings.iter().map(|p| p.amount.minor()).sum::<i64>(),
            0,
            "transaction {} balances",
            t.transaction_id
        );
        for p in &t.postings {
            *per_account.entry(p.account.clone()).or_default() += p.amount.minor();
        }
    }
    assert_eq!(
        per_account.values().sum::<i64>(),
        0,
        "the vault's postings sum to zero"
    );
    let listed = call!(l.list_accounts(&me, None, true)).expect("list");
    for a in &listed.accounts {
        let debit_net = per_account.get(&a.name).copied().unwrap_or(0);
        let natural = if a.kind.is_debit_normal() {
            debit_net
        } else {
            -debit_net
        };
        assert_eq!(
            a.balance.minor(),
            natural,
            "balance of {} equals its postings",
            a.name
        );
    }
    let b = call!(l.get_balances(&me, None, Some(date("2026-03-31")))).expect("balances");
    for row in &b.accounts {
        let listed_balance = listed
            .accounts
            .iter()
            .find(|a| a.account_id == row.account_id)
            .map(|a| a.balance);
        assert_eq!(
            Some(row.balance),
            listed_balance,
            "rollups agree with running balance for {}",
            row.name
        );
    }
}

// ---------------------------------------------------------------- failures

/// A failed atomic write leaves nothing behind; a lost reply is replayed, not doubled.
pub async fn injected_write_failure_leaves_nothing_partial<S: Store>(store: S) {
    let failing = Arc::new(FailingStore::new(store));
    let (l, _) = ledger_over(failing.clone());
    let me = fresh_person("fail");
    household(&l, &me).await;
    let before = balances(&l, &me).await;
    let count_before = all_transactions(&l, &me).await.len();
    let t = tx("카카오뱅크", "식비", "11000", None, "실패 주입");

    for how in [InjectedFailure::Transient, InjectedFailure::Backend] {
        failing.fail_nth_write(1, how);
        let e = l.record_transaction(&me, t.clone()).await.unwrap_err();
        match how {
            InjectedFailure::Transient => assert!(matches!(e, LedgerError::Transient(_)), "{e:?}"),
            _ => assert!(matches!(e, LedgerError::Internal { .. }), "{e:?}"),
        }
        assert_eq!(balances(&l, &me).await, before, "no balance moved ({how:?})");
        assert_eq!(
            all_transactions(&l, &me).await.len(),
            count_before,
            "no transaction ({how:?})"
        );
    }
    // The key was not consumed: the retry writes once.
    let ok = record(&l, &me, t.clone()).await;
    assert!(!ok.replayed);

    // A reply lost after the commit: the retry replays the same transaction.
    let t2 = tx("카카오뱅크", "쇼핑", "22000", None, "응답 유실");
    failing.fail_nth_write(1, InjectedFailure::TransientAfterApply);
    assert!(matches!(
        l.record_transaction(&me, t2.clone()).await,
        Err(LedgerError::Transient(_))
    ));
    let retried = record(&l, &me, t2).await;
    assert!(retried.replayed);
    assert_eq!(all_transactions(&l, &me).await.len(), count_before + 2);

    // Account creation and voiding are just as atomic.
    failing.fail_nth_write(1, InjectedFailure::Backend);
    assert!(
        l.create_account(
            &me,
            NewAccount {
                vault: None,
                name: "우리은행".into(),
                kind: AccountKind::Asset,
                opening_balance: Some(d("5000")),
                opening_date: None,
                parent: None,
                billing: None,
                owner: None,
            }
        )
        .await
        .is_err()
    );
    assert!(!balances(&l, &me).await.contains_key("우리은행"));
    assert_eq!(
        all_transactions(&l, &me).await.len(),
        count_before + 2,
        "no opening transaction either"
    );
    failing.fail_nth_write(1, InjectedFailure::Backend);
    assert!(
        l.void_transaction(&me, None, ok.transaction.transaction_id, None)
            .await
            .is_err()
    );
    assert!(
        !call!(l.get_transaction(&me, None, ok.transaction.transaction_id))
            .expect("get")
            .transaction
            .voided
    );
}

// ---------------------------------------------------------------- budgets

/// Transactions the report-budget test records unless the store crate asks for fewer.
pub const REPORT_TRANSACTIONS: u64 = 1000;

/// A 12-month report over 1,000 transactions reads items in proportion to accounts × months.
pub async fn report_reads_accounts_times_months<S: Store>(store: S) {
    report_reads_accounts_times_months_with(store, REPORT_TRANSACTIONS).await;
}

/// The same over `transactions` transactions (a store whose test double is slow
/// per write, like moto copying the table on every transaction, may pass fewer).
pub async fn report_reads_accounts_times_months_with<S: Store>(store: S, transactions: u64) {
    let counting = Arc::new(CountingStore::new(store));
    let (l, _) = ledger_over(counting.clone());
    let me = fresh_person("budget-report");
    vault(&l, &me, "가계부").await;
    let expenses = ["식비", "교통비", "쇼핑", "통신비", "의료비", "문화생활"];
    account(&l, &me, "카카오뱅크", AccountKind::Asset, Some("100000000")).await;
    for e in expenses {
        account(&l, &me, e, AccountKind::Expense, None).await;
    }
    let accounts = expenses.len() as u64 + 2; // bank + equity
    for i in 0..transactions {
        let t = NewTransaction {
            allow_duplicate: true,
            future_date: false,
            ..tx(
                "카카오뱅크",
                expenses[(i % 6) as usize],
                &format!("{}", 1000 + i),
                Some(&format!("2025-{:02}-{:02}", 1 + i % 12, 1 + i % 28)),
                "지출",
            )
        };
        record(&l, &me, t).await;
    }
    counting.reset();
    let report = call!(l.spending_report(
        &me,
        ReportRequest {
            vault: None,
            from: date("2025-01-01"),
            to: date("2025-12-31"),
            by: ReportBy::Month,
            kind: FlowKind::Expense,
            tag: None
        }
    ))
    .expect("report");
    let c = counting.take();
    assert_eq!(report.rows.len(), 12);
    let expected_total: u64 = (0..transactions).map(|i| 1000 + i).sum();
    assert_eq!(report.total.minor() as u64, expected_total);
    // The roster version and recurring head, the accounts, and one rollup per expense account and month.
    let bound = 1 + accounts + (expenses.len() as u64) * 12;
    assert!(
        c.items_read <= bound,
        "read {} items, bound {bound} (accounts × months), not 1000 postings",
        c.items_read
    );
    // Whole months: the accounts and the period's monthly rollups, two queries of one
    // round (the months before the period are never read).
    assert_eq!(
        (c.queries, c.gets, c.get_manys, c.writes, c.read_rounds),
        (2, 0, 1, 0, 1)
    );

    counting.reset();
    let history = call!(l.net_worth_history(&me, None, month("2025-01"), month("2025-12"))).expect("history");
    let c = counting.take();
    assert_eq!(history.points.len(), 12);
    // Accounts, their name items, and one rollup per account and month (the equity opening is in 2026-03).
    assert!(
        c.items_read <= 1 + 2 * accounts + accounts * 13,
        "read {} items",
        c.items_read
    );
}

/// Round trips per operation, counted through the store.
pub async fn round_trips_per_operation<S: Store>(store: S) {
    let counting = Arc::new(CountingStore::new(store));
    let (l, _) = ledger_over(counting.clone());
    let me = fresh_person("budget-ops");
    household(&l, &me).await;
    let t = record(&l, &me, tx("카카오뱅크", "식비", "5000", None, "budget")).await;
    let id = t.transaction.transaction_id;
    call!(l.upsert_snapshot(
        &me,
        SnapshotInput {
            vault: None,
            account: "현금".into(),
            date: date("2026-03-15"),
            balance: d("100000")
        }
    ))
    .expect("snap");

    async fn measure<T>(
        c: &CountingStore<impl Store>,
        f: impl std::future::Future<Output = Result<T, LedgerError>>,
    ) -> StoreCounts {
        c.reset();
        f.await.expect("operation");
        c.take()
    }
    // (queries, gets, get_manys, writes, read rounds) per operation, with this
    // instance's roster cache warm (every operation above went through it).
    // Each read tool is one read round (reconcile two: its second range depends
    // on the latest snapshots' dates); each write tool one read round and one write.
    // Writes that show balances also query the daily rollups after today in
    // their one round (balances as of today, later entries apart).
    // The one `get_many` beside each round is the roster version with the vault's
    // recurring head (see `roster.rs`).
    let shape = |c: StoreCounts| (c.queries, c.gets, c.get_manys, c.writes, c.read_rounds);
    assert_eq!(
        shape(measure(&counting, l.list_vaults(&me)).await),
        (1, 0, 1, 0, 2),
        "list_vaults"
    );
    assert_eq!(
        shape(measure(&counting, l.list_accounts(&me, None, false)).await),
        // The accounts carry their budget settings (decision 030); the learned words
        // are one more query in the same round (decision 061).
        (3, 0, 1, 0, 1),
        "list_accounts (accounts ∥ entries dated after today)"
    );
    assert_eq!(
        shape(measure(&counting, l.get_transaction(&me, None, id)).await),
        (2, 1, 1, 0, 1),
        "get_transaction (with its earlier versions, in the same round)"
    );
    assert_eq!(
        shape(measure(&counting, l.list_transactions(&me, TransactionQuery::default())).await),
        (2, 0, 1, 0, 1),
        "list_transactions"
    );
    assert_eq!(
        shape(measure(&counting, l.get_balances(&me, None, None)).await),
        (2, 0, 1, 0, 1),
        "get_balances"
    );
    let rr = ReportRequest {
        vault: None,
        from: date("2026-03-01"),
        to: date("2026-03-31"),
        by: ReportBy::Account,
        kind: FlowKind::Expense,
        tag: None,
    };
    // The accounts and the whole months' rollups in two queries; the month runs past
    // today, so the entries dated later (kept apart as scheduled) in one more; one round.
    assert_eq!(
        shape(measure(&counting, l.spending_report(&me, rr.clone())).await),
        (3, 0, 1, 0, 1),
        "spending_report"
    );
    // Partial months read daily rollups: one more query each, still in the same round;
    // two partial months with no whole month between are one range of days.
    let partial = ReportRequest {
        from: date("2026-01-10"),
        to: date("2026-03-15"),
        ..rr.clone()
    };
    assert_eq!(
        shape(measure(&counting, l.spending_report(&me, partial)).await),
        (4, 0, 1, 0, 1),
        "spending_report over two partial months and a whole one"
    );
    // Whole months and a partial one: accounts, months, days; no whole month: accounts
    // and one range of days.
    for (from, to, queries) in [("2026-01-01", "2026-03-15", 3), ("2026-02-10", "2026-03-15", 2)] {
        let r = ReportRequest {
            from: date(from),
            to: date(to),
            ..rr.clone()
        };
        assert_eq!(
            shape(measure(&counting, l.spending_report(&me, r)).await),
            (queries, 0, 1, 0, 1),
            "spending_report {from}..{to}"
        );
    }
    assert_eq!(
        shape(
            measure(
                &counting,
                l.net_worth_history(&me, None, month("2026-01"), month("2026-03"))
            )
            .await
        ),
        (2, 0, 1, 0, 1),
        "net_worth_history"
    );
    // Each account item names its latest snapshot (decision 030): the accounts with
    // their monthly rollups, then the daily rollups over the snapshots' span.
    assert_two_rounds(
        shape(measure(&counting, l.reconcile(&me, None, None)).await),
        (2, 0, 1, 0),
        "reconcile",
    );

    let b = BudgetInput {
        vault: None,
        account: "식비".into(),
        amount: d("600000"),
        month: None,
        repeat: Some(true),
        rollover: Some(false),
    };
    assert_eq!(
        shape(measure(&counting, l.set_budget(&me, b.clone())).await),
        (2, 0, 1, 1, 1),
        "set_budget"
    );
    // This month: its entries dated after today in one more query, same round.
    assert_eq!(
        shape(measure(&counting, l.budget_report(&me, None, None)).await),
        (3, 0, 1, 0, 1),
        "budget_report"
    );

    let nv = NewVault {
        name: "예비".into(),
        currency: None,
        time_zone: None,
    };
    assert_eq!(
        shape(measure(&counting, l.create_vault(&me, nv)).await),
        (1, 0, 0, 1, 1),
        "create_vault"
    );
    assert_eq!(
        shape(measure(&counting, l.rename_vault(&me, "예비", "예비2")).await),
        (1, 0, 0, 1, 1),
        "rename_vault"
    );
    let v = Some("가계부");
    let na = NewAccount {
        vault: Some("가계부".into()),
        name: "적금".into(),
        kind: AccountKind::Asset,
        opening_balance: Some(d("10")),
        opening_date: None,
        parent: None,
        billing: None,
        owner: None,
    };
    assert_eq!(
        shape(measure(&counting, l.create_account(&me, na)).await),
        (2, 0, 1, 1, 1),
        "create_account"
    );
    assert_eq!(
        shape(measure(&counting, l.rename_account(&me, v, "적금", "청약")).await),
        (1, 0, 1, 1, 1),
        "update_account"
    );
    assert_eq!(
        shape(measure(&counting, l.archive_account(&me, v, "청약", true)).await),
        (2, 0, 1, 1, 1),
        "archive_account"
    );
    let rec = NewTransaction {
        vault: Some("가계부".into()),
        ..tx("카카오뱅크", "식비", "5100", None, "budget 2")
    };
    assert_eq!(
        shape(measure(&counting, l.record_transaction(&me, rec.clone())).await),
        (2, 2, 2, 1, 1),
        "record_transaction (the replay's `TC#` item beside the record, and the two guard buckets in one get_many, and the daily rollups after today, in the same round)"
    );
    assert_eq!(
        shape(measure(&counting, l.record_transaction(&me, rec)).await),
        (2, 2, 2, 0, 1),
        "record_transaction replay"
    );
    let fix = TransactionEdit {
        vault: Some("가계부".into()),
        amount: Some(d("4900")),
        ..edit_of(id)
    };
    assert_eq!(
        shape(measure(&counting, l.edit_transaction(&me, fix.clone())).await),
        (3, 2, 1, 1, 1),
        "edit_transaction"
    );
    assert_eq!(
        shape(measure(&counting, l.edit_transaction(&me, fix)).await),
        (3, 2, 1, 0, 1),
        "edit_transaction replay"
    );
    assert_eq!(
        shape(measure(&counting, l.void_transaction(&me, v, id, None)).await),
        (2, 1, 1, 1, 1),
        "void_transaction"
    );
    assert_eq!(
        shape(
            measure(
                &counting,
                l.list_snapshots(
                    &me,
                    SnapshotQuery {
                        vault: Some("가계부".into()),
                        ..SnapshotQuery::default()
                    }
                )
            )
            .await
        ),
        (2, 0, 1, 0, 1),
        "list_snapshots"
    );
    // The accounts and the vault's snapshots (the next latest, should the latest go).
    assert_eq!(
        shape(measure(&counting, l.delete_snapshot(&me, v, "현금", date("2026-03-01"))).await),
        (2, 0, 1, 1, 1),
        "delete_snapshot"
    );
    let snap = SnapshotInput {
        vault: Some("가계부".into()),
        account: "현금".into(),
        date: date("2026-03-15"),
        balance: d("90000"),
    };
    assert_eq!(
        shape(measure(&counting, l.upsert_snapshot(&me, snap)).await),
        (2, 0, 1, 1, 1),
        "upsert_snapshot"
    );

    // A new instance (a cold Lambda) reads the roster first: one more round, once.
    let (cold, _) = ledger_over(counting.clone());
    assert_eq!(
        shape(measure(&counting, cold.get_balances(&me, v, None)).await),
        (3, 1, 0, 0, 2),
        "get_balances, cold"
    );
    assert_eq!(
        shape(measure(&counting, cold.get_balances(&me, v, None)).await),
        (2, 0, 1, 0, 1),
        "get_balances, warm again"
    );
    let rec = NewTransaction {
        vault: Some("가계부".into()),
        ..tx("카카오뱅크", "식비", "5200", None, "budget 3")
    };
    let (cold, _) = ledger_over(counting.clone());
    assert_eq!(
        shape(measure(&counting, cold.record_transaction(&me, rec)).await),
        (3, 3, 1, 1, 2),
        "record_transaction, cold"
    );
    // With the cache off every call reads the roster.
    let clock = Arc::new(ManualClock::at_unix_seconds(NOON_KST_2026_03_15));
    let uncached = Ledger::new(
        counting.clone(),
        clock,
        LedgerConfig {
            cache_rosters: false,
            ..LedgerConfig::default()
        },
    );
    let rr = ReportRequest {
        vault: Some("가계부".into()),
        ..rr
    };
    for _ in 0..2 {
        assert_eq!(
            shape(measure(&counting, uncached.spending_report(&me, rr.clone())).await),
            (4, 1, 0, 0, 2),
            "spending_report, no cache"
        );
    }
}

/// Two instances (two warm Lambdas) serve one person: whatever one changes in the
/// person's vaults, the other's cached roster never makes it answer from, or write
/// to, the wrong vault.
pub async fn stale_roster_never_decides<S: Store>(store: S) {
    let store: Arc<dyn Store> = Arc::new(store);
    let (a, _) = ledger_over(store.clone());
    let (b, _) = ledger_over(store.clone());
    let me = fresh_person("stale-roster");
    household(&a, &me).await;
    // B caches the roster: one vault, "가계부".
    let before = call!(b.list_accounts(&me, None, false)).expect("accounts");
    assert_eq!(before.vault.name, "가계부");

    // A creates a second vault: B's unnamed calls must now be ambiguous, not "the only vault".
    call!(a.create_vault(
        &me,
        NewVault {
            name: "여행".into(),
            currency: None,
            time_zone: None
        }
    ))
    .expect("second vault");
    let read = call!(b.list_accounts(&me, None, false)).unwrap_err();
    assert!(
        matches!(&read, LedgerError::Ambiguous { what: Entity::Vault, matches, .. } if matches.len() == 2),
        "a read from a stale roster: {read:?}"
    );
    let write =
        call!(b.record_transaction(&me, tx("카카오뱅크", "식비", "1000", None, "stale-1"))).unwrap_err();
    assert!(
        matches!(
            &write,
            LedgerError::Ambiguous {
                what: Entity::Vault,
                ..
            }
        ),
        "a write from a stale roster: {write:?}"
    );

    // A renames "가계부": B must not keep resolving the old name, for reads or writes.
    call!(a.rename_vault(&me, "가계부", "우리집")).expect("rename");
    let old = call!(b.get_balances(&me, Some("가계부"), None)).unwrap_err();
    assert!(
        matches!(&old, LedgerError::NotFound { what: Entity::Vault, name, .. } if name == "가계부"),
        "old name after a rename elsewhere: {old:?}"
    );
    // Make B's cache stale again (it refreshed above), then write under the old name.
    let _ = call!(b.list_accounts(&me, Some("우리집"), false)).expect("new name");
    call!(a.rename_vault(&me, "우리집", "본가")).expect("rename again");
    let stale_write = NewTransaction {
        vault: Some("우리집".into()),
        ..tx("카카오뱅크", "식비", "1000", None, "stale-2")
    };
    let refused = call!(b.record_transaction(&me, stale_write.clone())).unwrap_err();
    assert!(
        matches!(&refused, LedgerError::NotFound { what: Entity::Vault, name, .. } if name == "우리집"),
        "write under a name renamed elsewhere: {refused:?}"
    );
    // Nothing was written by the refused calls; the new name works on B at once.
    let ok = NewTransaction {
        vault: Some("본가".into()),
        ..tx("카카오뱅크", "식비", "1000", None, "stale-3")
    };
    let r = call!(b.record_transaction(&me, ok.clone())).expect("record under the new name");
    assert_eq!((r.vault.name.as_str(), r.replayed), ("본가", false));
    let page = call!(a.list_transactions(
        &me,
        TransactionQuery {
            vault: Some("본가".into()),
            text: Some("stale".into()),
            ..Default::default()
        }
    ))
    .expect("list");
    let memos: Vec<&str> = page.transactions.iter().map(|t| t.memo.as_str()).collect();
    assert_eq!(memos, vec!["stale-3"]);
}

// ---------------------------------------------------------------- isolation

/// A second person who knows the first person's names, ids and cursors reads and writes nothing of theirs.
pub async fn isolation_between_people<S: Store>(store: S) {
    let (l, _) = ledger_over(Arc::new(store));
    let alice = fresh_person("alice");
    let bob = fresh_person("bob");
    household(&l, &alice).await;
    let alice_vault = call!(l.list_vaults(&alice)).expect("vaults").vaults[0].clone();
    let alice_tx = all_transactions(&l, &alice).await;
    let alice_id = alice_tx[0].transaction_id;
    let alice_page = call!(l.list_transactions(
        &alice,
        TransactionQuery {
            limit: Some(1),
            ..Default::default()
        }
    ))
    .expect("page");
    let alice_cursor = alice_page.next_cursor.expect("a cursor");
    let alice_before = balances(&l, &alice).await;

    // Without a vault of his own, every vault operation says he has none.
    let none = call!(l.get_transaction(&bob, None, alice_id)).unwrap_err();
    assert!(
        matches!(
            none,
            LedgerError::NotFound {
                what: Entity::Vault,
                ..
            }
        ),
        "{none:?}"
    );
    // Alice's vault name means nothing to Bob, not even as a candidate.
    let by_name = call!(l.list_accounts(&bob, Some("가계부"), true)).unwrap_err();
    assert!(
        matches!(&by_name, LedgerError::NotFound { what: Entity::Vault, name, within: None, candidates }
            if name == "가계부" && candidates.is_empty()),
        "{by_name:?}"
    );
    // Bob's own vault with the same names.
    household(&l, &bob).await;
    let bob_vault = call!(l.list_vaults(&bob)).expect("vaults").vaults[0].clone();
    assert_ne!(bob_vault.vault_id, alice_vault.vault_id);
    let e = call!(l.get_transaction(&bob, None, alice_id)).unwrap_err();
    assert!(
        matches!(&e, LedgerError::NotFound { what: Entity::Transaction, name, within, candidates }
            if *name == alice_id.to_string() && within.as_deref() == Some("vault \"가계부\"") && candidates.is_empty()),
        "{e:?}"
    );
    let e = call!(l.void_transaction(&bob, None, alice_id, None)).unwrap_err();
    assert!(
        matches!(
            e,
            LedgerError::NotFound {
                what: Entity::Transaction,
                ..
            }
        ),
        "{e:?}"
    );
    let e = call!(l.list_transactions(
        &bob,
        TransactionQuery {
            limit: Some(1),
            cursor: Some(alice_cursor.clone()),
            ..Default::default()
        }
    ))
    .unwrap_err();
    assert!(matches!(e, LedgerError::BadCursor), "{e:?}");
    // Alice's vault id as a name resolves nothing either: it is refused as an id, and
    // no vault of Bob's has it, so nothing is named but Bob's own vault names.
    let e = call!(l.list_accounts(&bob, Some(&alice_vault.vault_id.to_string()), true)).unwrap_err();
    assert!(
        matches!(
            &e,
            LedgerError::IdForName {
                what: Entity::Vault,
                meant: None,
                candidates,
                ..
            } if candidates == &vec!["가계부".to_string()]
        ),
        "{e:?}"
    );
    // Every write Bob makes lands in his own vault.
    record(&l, &bob, tx("카카오뱅크", "식비", "1", None, "bob")).await;
    call!(l.rename_account(&bob, None, "식비", "밥값")).expect("rename");
    call!(l.archive_account(&bob, None, "현금", true)).expect("archive");
    call!(l.create_account(
        &bob,
        NewAccount {
            vault: None,
            name: "비상금".into(),
            kind: AccountKind::Asset,
            opening_balance: Some(d("7")),
            opening_date: None,
            parent: None,
            billing: None,
            owner: None,
        }
    ))
    .expect("create");
    call!(l.upsert_snapshot(
        &bob,
        SnapshotInput {
            vault: None,
            account: "카카오뱅크".into(),
            date: date("2026-03-15"),
            balance: d("1")
        }
    ))
    .expect("snap");
    call!(l.rename_vault(&bob, "가계부", "밥의 가계부")).expect("rename vault");
    for t in all_transactions(&l, &bob).await.into_iter().take(3) {
        call!(l.void_transaction(&bob, None, t.transaction_id, None)).expect("void own");
    }
    let rr = ReportRequest {
        vault: None,
        from: date("2026-03-01"),
        to: date("2026-03-31"),
        by: ReportBy::Account,
        kind: FlowKind::Expense,
        tag: None,
    };
    let bob_report = call!(l.spending_report(&bob, rr.clone())).expect("bob report");
    let alice_ids: Vec<_> = call!(l.list_accounts(&alice, None, true))
        .expect("alice")
        .accounts
        .iter()
        .map(|a| a.account_id)
        .collect();
    assert_eq!(bob_report.rows.len(), 2);
    assert!(
        bob_report
            .rows
            .iter()
            .all(|r| r.account_id.is_some_and(|id| !alice_ids.contains(&id))),
        "only Bob's accounts"
    );

    // Alice sees exactly what she had.
    assert_eq!(balances(&l, &alice).await, alice_before);
    assert_eq!(all_transactions(&l, &alice).await, alice_tx);
    assert_eq!(
        call!(l.list_vaults(&alice)).expect("vaults").vaults,
        vec![alice_vault.clone()]
    );
    assert!(
        call!(l.reconcile(&alice, None, None))
            .expect("reconcile")
            .accounts
            .is_empty()
    );
    assert_eq!(
        call!(l.spending_report(&alice, rr.clone()))
            .expect("report")
            .total
            .to_string(),
        "262000"
    );
    assert_eq!(
        call!(l.get_balances(&alice, None, None))
            .expect("balances")
            .totals
            .net_worth
            .to_string(),
        "3738000"
    );
    assert_eq!(
        call!(l.net_worth_history(&alice, None, month("2026-03"), month("2026-03")))
            .expect("h")
            .points[0]
            .net_worth
            .to_string(),
        "3738000"
    );
}

// ---------------------------------------------------------------- budgets

fn budget(account: &str, amount: &str, on: Option<&str>, repeat: bool) -> BudgetInput {
    BudgetInput {
        vault: None,
        account: account.into(),
        amount: d(amount),
        month: on.map(month),
        repeat: Some(repeat),
        rollover: Some(false),
    }
}

async fn set_budget(l: &Ledger, who: &PersonId, b: BudgetInput) -> BudgetSet {
    call!(l.set_budget(who, b.clone())).expect("set_budget")
}

/// account -> budget of that month, from budget_report.
async fn budgets_in(l: &Ledger, who: &PersonId, on: &str) -> Vec<(String, String)> {
    call!(l.budget_report(who, None, Some(month(on))))
        .expect("budget_report")
        .rows
        .into_iter()
        .map(|r| (r.account, r.budget.to_string()))
        .collect()
}

fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter()
        .map(|(a, b)| ((*a).to_owned(), (*b).to_owned()))
        .collect()
}

/// A budget set with repeat applies to later months until a later setting; one
/// set without repeat holds for its month only; list_accounts shows this month's.
pub async fn budgets_repeat_across_months<S: Store>(store: S) {
    let (l, _) = ledger_over(Arc::new(store));
    let me = fresh_person("budget-repeat");
    household(&l, &me).await;
    let set = set_budget(&l, &me, budget("식비", "600000", Some("2026-01"), true)).await;
    assert_eq!(
        (set.account, set.month, set.amount.to_string(), set.repeat),
        ("식비".to_owned(), month("2026-01"), "600000".to_owned(), true)
    );
    for m in ["2026-01", "2026-02", "2026-03", "2027-12"] {
        assert_eq!(budgets_in(&l, &me, m).await, pairs(&[("식비", "600000")]), "{m}");
    }
    assert_eq!(budgets_in(&l, &me, "2025-12").await, pairs(&[]));
    // A later repeating setting takes over from its month on.
    set_budget(&l, &me, budget("식비", "500000", Some("2026-04"), true)).await;
    // One month only: February gets 900,000, March is back to the January setting.
    set_budget(&l, &me, budget("식비", "900000", Some("2026-02"), false)).await;
    // Default month is this month in the vault's zone (2026-03).
    let shopping = set_budget(&l, &me, budget("쇼핑", "200000", None, false)).await;
    assert_eq!(shopping.month, month("2026-03"));
    assert_eq!(budgets_in(&l, &me, "2026-01").await, pairs(&[("식비", "600000")]));
    assert_eq!(budgets_in(&l, &me, "2026-02").await, pairs(&[("식비", "900000")]));
    assert_eq!(
        budgets_in(&l, &me, "2026-03").await,
        pairs(&[("쇼핑", "200000"), ("식비", "600000")])
    );
    assert_eq!(budgets_in(&l, &me, "2026-04").await, pairs(&[("식비", "500000")]));
    assert_eq!(budgets_in(&l, &me, "2026-09").await, pairs(&[("식비", "500000")]));
    // Setting the same again changes nothing (naturally idempotent).
    set_budget(&l, &me, budget("식비", "500000", Some("2026-04"), true)).await;
    assert_eq!(budgets_in(&l, &me, "2026-05").await, pairs(&[("식비", "500000")]));
    // list_accounts shows this month's budget on expense accounts only.
    let listed: Vec<(String, Option<String>)> = call!(l.list_accounts(&me, None, false))
        .expect("list_accounts")
        .accounts
        .into_iter()
        .map(|a| (a.name, a.budget.map(|b| b.to_string())))
        .collect();
    assert_eq!(
        listed,
        vec![
            ("카카오뱅크".to_owned(), None),
            ("현금".to_owned(), None),
            ("신한카드".to_owned(), None),
            ("월급".to_owned(), None),
            ("쇼핑".to_owned(), Some("200000".to_owned())),
            ("식비".to_owned(), Some("600000".to_owned())),
            ("기초잔액".to_owned(), None),
        ]
    );
}

/// "0" clears: from its month on with repeat, for that month only without.
/// Bad settings are refused and change nothing.
pub async fn budgets_clear_and_refuse<S: Store>(store: S) {
    let (l, _) = ledger_over(Arc::new(store));
    let me = fresh_person("budget-clear");
    household(&l, &me).await;
    set_budget(&l, &me, budget("식비", "600000", Some("2026-01"), true)).await;
    let cleared = set_budget(&l, &me, budget("식비", "0", Some("2026-03"), true)).await;
    assert_eq!(cleared.amount.to_string(), "0");
    assert_eq!(budgets_in(&l, &me, "2026-02").await, pairs(&[("식비", "600000")]));
    assert_eq!(budgets_in(&l, &me, "2026-03").await, pairs(&[]));
    assert_eq!(budgets_in(&l, &me, "2026-08").await, pairs(&[]));
    set_budget(&l, &me, budget("식비", "0", Some("2026-01"), false)).await;
    assert_eq!(budgets_in(&l, &me, "2026-01").await, pairs(&[]));
    assert_eq!(budgets_in(&l, &me, "2026-02").await, pairs(&[]));
    set_budget(&l, &me, budget("식비", "300000", Some("2026-05"), true)).await;
    assert_eq!(budgets_in(&l, &me, "2026-04").await, pairs(&[]));
    assert_eq!(budgets_in(&l, &me, "2026-06").await, pairs(&[("식비", "300000")]));

    let refused = |e: Result<BudgetSet, LedgerError>| match e {
        Err(LedgerError::InvalidInput { field, reason }) => (field, reason),
        other => panic!("expected InvalidInput, got {other:?}"),
    };
    assert_eq!(
        refused(call!(l.set_budget(&me, budget("카카오뱅크", "1000", None, true)))),
        (
            Field::BudgetAccount,
            Reason::BudgetNotExpense {
                account: "카카오뱅크".into(),
                kind: AccountKind::Asset
            }
        )
    );
    assert_eq!(
        refused(call!(l.set_budget(&me, budget("식비", "-1", None, true)))),
        (Field::BudgetAmount, Reason::NegativeBudget)
    );
    assert_eq!(
        refused(call!(l.set_budget(&me, budget("식비", "0.5", None, true)))).0,
        Field::BudgetAmount
    );
    match call!(l.set_budget(&me, budget("외식", "1000", None, true))) {
        Err(LedgerError::NotFound { what, name, .. }) => {
            assert_eq!((what, name.as_str()), (Entity::Account, "외식"));
        }
        other => panic!("expected NotFound, got {other:?}"),
    }
    call!(l.archive_account(&me, None, "쇼핑", true)).expect("archive");
    match call!(l.set_budget(&me, budget("쇼핑", "1000", None, true))) {
        Err(LedgerError::InvalidInput { field, reason }) => assert_eq!(
            (field, reason),
            (
                Field::BudgetAccount,
                Reason::BudgetOfArchived {
                    account: "쇼핑".into()
                }
            )
        ),
        other => panic!("expected InvalidInput, got {other:?}"),
    }
    assert_eq!(budgets_in(&l, &me, "2026-03").await, pairs(&[]));
}

/// Every field of the report, hand-computed: spent is net of refunds, a voided
/// entry leaves it, spending without a budget is unbudgetedSpent, and only the
/// current month has daysLeft and dailyAllowance.
pub async fn budget_report_spent_remaining_and_allowance<S: Store>(store: S) {
    let (l, _) = ledger_over(Arc::new(store));
    let me = fresh_person("budget-report");
    // household: 식비 12,000 on 03-11; 쇼핑 300,000 on 03-12 and a 50,000 refund on 03-14.
    household(&l, &me).await;
    account(&l, &me, "교통비", AccountKind::Expense, None).await;
    record(&l, &me, tx("현금", "교통비", "1500", Some("2026-03-14"), "버스")).await;
    let feb = record(
        &l,
        &me,
        tx("카카오뱅크", "식비", "8000", Some("2026-02-20"), "2월 점심"),
    )
    .await;
    let dinner = record(
        &l,
        &me,
        tx("카카오뱅크", "식비", "20000", Some("2026-03-13"), "저녁"),
    )
    .await;
    set_budget(&l, &me, budget("식비", "600000", Some("2026-02"), true)).await;
    set_budget(&l, &me, budget("쇼핑", "200000", Some("2026-03"), true)).await;

    let r = call!(l.budget_report(&me, None, None)).expect("budget_report");
    assert_eq!(r.month, month("2026-03"));
    let rows: Vec<_> = r
        .rows
        .iter()
        .map(|x| {
            (
                x.account.as_str(),
                x.budget.to_string(),
                x.spent.to_string(),
                x.remaining.to_string(),
                x.percent_used,
                x.over,
            )
        })
        .collect();
    // 쇼핑: 300,000 − 50,000 = 250,000 of 200,000: 125 %, over.
    // 식비: 12,000 + 20,000 = 32,000 of 600,000: 5.33… % → 5.
    assert_eq!(
        rows,
        vec![
            (
                "쇼핑",
                "200000".into(),
                "250000".into(),
                "-50000".into(),
                Some(125),
                true
            ),
            (
                "식비",
                "600000".into(),
                "32000".into(),
                "568000".into(),
                Some(5),
                false
            ),
        ]
    );
    let t = &r.totals;
    assert_eq!(
        (
            t.budget.to_string(),
            t.spent.to_string(),
            t.remaining.to_string(),
            t.percent_used,
            t.over
        ),
        ("800000".into(), "282000".into(), "518000".into(), Some(35), false)
    );
    assert_eq!(r.unbudgeted_spent.to_string(), "1500");
    // 2026-03-15 in Seoul: 17 days left counting today; 518,000 ÷ 17 = 30,470.58… → 30,470.
    assert_eq!(r.days_left, Some(17));
    assert_eq!(r.daily_allowance.map(|m| m.to_string()), Some("30470".into()));

    // Voiding the dinner moves the report; so does a refund.
    call!(l.void_transaction(&me, None, dinner.transaction.transaction_id, None)).expect("void");
    record(
        &l,
        &me,
        tx("쇼핑", "신한카드", "60000", Some("2026-03-15"), "환불 2"),
    )
    .await;
    let r = call!(l.budget_report(&me, None, Some(month("2026-03")))).expect("budget_report");
    let rows: Vec<_> = r
        .rows
        .iter()
        .map(|x| {
            (
                x.account.as_str(),
                x.spent.to_string(),
                x.remaining.to_string(),
                x.percent_used,
                x.over,
            )
        })
        .collect();
    assert_eq!(
        rows,
        vec![
            ("쇼핑", "190000".into(), "10000".into(), Some(95), false),
            ("식비", "12000".into(), "588000".into(), Some(2), false),
        ]
    );
    // 800,000 − 202,000 = 598,000; ÷ 17 = 35,176.47… → 35,176.
    assert_eq!(r.daily_allowance.map(|m| m.to_string()), Some("35176".into()));

    // A past month: no daysLeft, no allowance; 쇼핑's budget starts in March.
    let past = call!(l.budget_report(&me, None, Some(month("2026-02")))).expect("february");
    assert_eq!(
        past.rows
            .iter()
            .map(|x| (x.account.as_str(), x.spent.to_string()))
            .collect::<Vec<_>>(),
        vec![("식비", "8000".to_owned())]
    );
    assert_eq!((past.days_left, past.daily_allowance), (None, None));
    assert_eq!(past.unbudgeted_spent.to_string(), "0");
    call!(l.void_transaction(&me, None, feb.transaction.transaction_id, None)).expect("void feb");
    let past = call!(l.budget_report(&me, None, Some(month("2026-02")))).expect("february");
    assert_eq!(past.rows[0].spent.to_string(), "0");
    // A future month: budgets carried, nothing spent, no allowance.
    let future = call!(l.budget_report(&me, None, Some(month("2026-06")))).expect("june");
    assert_eq!(
        (
            future.totals.budget.to_string(),
            future.totals.spent.to_string(),
            future.days_left
        ),
        ("800000".into(), "0".into(), None)
    );

    // An edit moves the report too: a 5,000 lunch corrected to 25,000, then moved to April.
    let food_spent = |r: &BudgetReport| {
        r.rows
            .iter()
            .find(|x| x.account == "식비")
            .map(|x| x.spent.to_string())
    };
    let lunch = record(
        &l,
        &me,
        tx("카카오뱅크", "식비", "5000", Some("2026-03-15"), "점심"),
    )
    .await;
    let march = || l.budget_report(&me, None, Some(month("2026-03")));
    assert_eq!(food_spent(&call!(march()).expect("march")), Some("17000".into()));
    let mut bigger = edit_of(lunch.transaction.transaction_id);
    bigger.amount = Some(d("25000"));
    edit(&l, &me, bigger).await.expect("edit the amount");
    assert_eq!(food_spent(&call!(march()).expect("march")), Some("37000".into()));
    let mut later = edit_of(lunch.transaction.transaction_id);
    later.date = Some(date("2026-04-02"));
    edit(&l, &me, later).await.expect("edit the date");
    assert_eq!(food_spent(&call!(march()).expect("march")), Some("12000".into()));
    // April is ahead of today: the moved lunch is scheduled there, not spent yet.
    let april = call!(l.budget_report(&me, None, Some(month("2026-04")))).expect("april");
    assert_eq!(food_spent(&april), Some("0".into()));
    assert_eq!(
        april.scheduled.map(|s| (s.amount.to_string(), s.count)),
        Some(("25000".to_string(), 1))
    );
}

/// The month is the vault's: an entry at 23:59 local on the last day counts in
/// that month, and a minute later "this month" is the next one.
pub async fn budget_month_follows_the_vault_zone<S: Store>(store: S) {
    let (l, clock) = ledger_over(Arc::new(store));
    let me = fresh_person("budget-zone");
    household(&l, &me).await;
    set_budget(&l, &me, budget("식비", "600000", Some("2026-03"), true)).await;
    // 2026-03-31T14:59:00Z is 23:59 on 2026-03-31 in Seoul.
    clock.advance_seconds(1_425_540);
    let late = record(&l, &me, tx("카카오뱅크", "식비", "30000", None, "야식")).await;
    assert_eq!(late.transaction.date, date("2026-03-31"));
    let r = call!(l.budget_report(&me, None, None)).expect("budget_report");
    assert_eq!(
        (
            r.month,
            r.rows[0].spent.to_string(),
            r.days_left,
            r.daily_allowance.map(|m| m.to_string())
        ),
        (month("2026-03"), "42000".into(), Some(1), Some("558000".into()))
    );
    clock.advance_seconds(60);
    let r = call!(l.budget_report(&me, None, None)).expect("budget_report");
    assert_eq!(
        (
            r.month,
            r.rows[0].spent.to_string(),
            r.days_left,
            r.daily_allowance.map(|m| m.to_string())
        ),
        (month("2026-04"), "0".into(), Some(30), Some("20000".into()))
    );
}

/// The report reads the same calls and items whatever the number of entries in the month.
pub async fn budget_report_reads_do_not_grow_with_entries<S: Store>(store: S) {
    let counting = Arc::new(CountingStore::new(store));
    let (l, _) = ledger_over(counting.clone());
    let me = fresh_person("budget-reads");
    household(&l, &me).await;
    set_budget(&l, &me, budget("식비", "600000", Some("2026-01"), true)).await;
    set_budget(&l, &me, budget("쇼핑", "200000", Some("2026-03"), true)).await;
    let measure = async |l: &Ledger| {
        counting.reset();
        call!(l.budget_report(&me, None, None)).expect("budget_report");
        let c = counting.take();
        (c.queries, c.gets, c.get_manys, c.read_rounds, c.items_read)
    };
    let mut seen = Vec::new();
    let mut n = 0u32;
    for target in [10u32, 200] {
        while n < target {
            // Dated through today: what is dated later is read as scheduled entries.
            let day = format!("2026-03-{:02}", n % 15 + 1);
            let (to, amount) = if n.is_multiple_of(2) {
                ("식비", "1000")
            } else {
                ("쇼핑", "2000")
            };
            // Same accounts and amount every other entry, minutes apart: meant.
            record(
                &l,
                &me,
                NewTransaction {
                    allow_duplicate: true,
                    ..tx("카카오뱅크", to, amount, Some(&day), &format!("entry {n}"))
                },
            )
            .await;
            n += 1;
        }
        seen.push(measure(&l).await);
    }
    assert_eq!(seen[0], seen[1]);
    // Three queries (the third, of entries dated after today, finds none) and the
    // roster version and recurring head (one get_many), in one round. Items: 7 accounts, 7 March rollups (every
    // account moved in March), 2 settings, the version.
    assert_eq!(seen[0], (3, 0, 1, 1, 17));
}
// ---------------------------------------------------------------- batches (record_transactions)

mod batches;
pub use batches::*;
mod statements;
pub use statements::*;
mod card_statements;
pub use card_statements::*;
mod names;
pub use names::*;

// ---------------------------------------------------------------- what writes tell a model

mod writes;
pub use writes::*;

// ---------------------------------------------------------------- balances in write results, archiving, system names

mod balances;
pub use balances::*;
mod members;
pub use members::*;
mod surface;
pub use surface::*;

// ---------------------------------------------------------------- recurring entries

mod recurring;
pub use recurring::*;

// ---------------------------------------------------------------- categories, tags, rollover

mod categories;
pub use categories::*;
mod undo;
pub use undo::*;
mod recorded_by;
pub use recorded_by::*;
mod budget_settings;
pub use budget_settings::*;
mod hints;
pub use hints::*;
mod scheduled;
pub use scheduled::*;
// ---------------------------------------------------------------- hardening, round four (decision 048)

mod caps;
pub use caps::*;
mod restore;
pub use restore::*;
mod stuck;
pub use stuck::*;
// ---------------------------------------------------------------- deleting a vault (decision 057)

mod deletion;
pub use deletion::*;
// ---------------------------------------------------------------- deleting a person (decision 059)

mod forget;
pub use forget::*;
// ---------------------------------------------------------------- card bills (decision 040)

mod cards;
pub use cards::*;
// ---------------------------------------------------------------- two people, one book (decision 060)

mod settle;
pub use settle::*;
// ---------------------------------------------------------------- savings goals (decision 061)

mod goals;
pub use goals::*;
mod performance;
pub use performance::*;
mod words;
pub use words::*;
// ---------------------------------------------------------------- recurring charges detected (issue 54)

mod detected;
pub use detected::*;
// ---------------------------------------------------------------- sharing

/// A fresh person whose token carries a display name.
fn named_person(tag: &str, name: &str) -> PersonId {
    fresh_person(tag).with_name(Some(name.to_owned()))
}

/// Owner `a` makes 가계부 with 카카오뱅크 and 식비 and invites `b` as `role`; `b` joins.
async fn shared_household(l: &Ledger, a: &PersonId, b: &PersonId, role: Role) -> Joined {
    household(l, a).await;
    let invite = call!(l.share_vault(a, None, role)).expect("share_vault");
    call!(l.join_vault(b, &invite.invite_code, None)).expect("join_vault")
}

/// Invite, join, both record, both see both entries with who recorded them; roles and counts.
pub async fn share_join_and_record_together<S: Store>(store: S) {
    let (l, clock) = ledger_over(Arc::new(store));
    let a = named_person("share-a", "민지");
    let b = named_person("share-b", "준호");
    household(&l, &a).await;
    let invite = call!(l.share_vault(&a, None, Role::Member)).expect("share_vault");
    assert_eq!(invite.role, Role::Member);
    assert_eq!(invite.expires_at.as_second(), NOON_KST_2026_03_15 + 7 * 24 * 3600);
    let code = &invite.invite_code;
    assert_eq!(code.len(), 34, "{code}");
    assert_eq!(code.split('-').count(), 7, "{code}");

    let joined = call!(l.join_vault(&b, &code.to_lowercase(), None)).expect("join_vault");
    assert_eq!(
        (joined.vault.name.as_str(), joined.role),
        ("가계부", Role::Member)
    );
    let names: Vec<(&str, Role, bool)> = joined
        .members
        .iter()
        .map(|m| (m.name.as_str(), m.role, m.you))
        .collect();
    assert_eq!(
        names,
        vec![("민지", Role::Owner, false), ("준호", Role::Member, true)]
    );

    // Both record; each sees both entries, with the recorder's name.
    record(
        &l,
        &a,
        tx("카카오뱅크", "식비", "9000", Some("2026-03-14"), "점심"),
    )
    .await;
    record(
        &l,
        &b,
        NewTransaction {
            // The fixture's lunch had the same accounts and amount moments ago.
            allow_duplicate: true,
            ..tx("카카오뱅크", "식비", "12000", Some("2026-03-15"), "저녁")
        },
    )
    .await;
    for who in [&a, &b] {
        let seen: Vec<(String, Option<String>)> = all_transactions(&l, who)
            .await
            .into_iter()
            .filter(|t| t.memo == "점심" || t.memo == "저녁")
            .map(|t| (t.memo, t.recorded_by))
            .collect();
        assert_eq!(
            seen,
            vec![
                ("저녁".into(), Some("준호".into())),
                ("점심".into(), Some("민지".into()))
            ]
        );
    }
    let vaults = call!(l.list_vaults(&b)).expect("list_vaults");
    let v = &vaults.vaults[0];
    assert_eq!(
        (v.name.as_str(), v.role, v.member_count),
        ("가계부", Role::Member, 2)
    );
    let vaults = call!(l.list_vaults(&a)).expect("list_vaults");
    assert_eq!(
        (vaults.vaults[0].role, vaults.vaults[0].member_count),
        (Role::Owner, 2)
    );

    // The code is single-use; an unknown code and an expired one each say so.
    let again = call!(l.join_vault(&fresh_person("share-c"), code, None)).unwrap_err();
    assert!(matches!(again, LedgerError::InviteUsed), "{again:?}");
    let unknown = call!(l.join_vault(&b, "0000-0000-0000-0000-0000-0000-0000", None)).unwrap_err();
    assert!(matches!(unknown, LedgerError::InviteUnknown), "{unknown:?}");
    let garbage = call!(l.join_vault(&b, "let me in", None)).unwrap_err();
    assert!(matches!(garbage, LedgerError::InviteUnknown), "{garbage:?}");
    let late = call!(l.share_vault(&a, None, Role::Member)).expect("share_vault");
    clock.advance_seconds(7 * 24 * 3600);
    let expired = call!(l.join_vault(&fresh_person("share-d"), &late.invite_code, None)).unwrap_err();
    assert!(matches!(expired, LedgerError::InviteExpired), "{expired:?}");
    let members = call!(l.list_members(&a, None)).expect("list_members");
    assert_eq!(members.members.len(), 2);
}

/// Members record but may not do what owners do; each refusal names the role.
pub async fn roles_limit_what_members_do<S: Store>(store: S) {
    let (l, _) = ledger_over(Arc::new(store));
    let a = named_person("roles-a", "민지");
    let b = named_person("roles-b", "준호");
    shared_household(&l, &a, &b, Role::Member).await;
    let refusals = [
        call!(l.rename_account(&b, None, "식비", "외식")).map(|_| ()),
        call!(l.archive_account(&b, None, "식비", false)).map(|_| ()),
        call!(l.rename_vault(&b, "가계부", "우리집")).map(|_| ()),
        call!(l.share_vault(&b, None, Role::Member)).map(|_| ()),
        call!(l.remove_member(&b, None, "민지")).map(|_| ()),
    ];
    let actions: Vec<String> = refusals
        .into_iter()
        .map(|r| match r {
            Err(LedgerError::NeedsOwner { action, vault }) => format!("{action:?}/{vault}"),
            other => format!("unexpected {other:?}"),
        })
        .collect();
    assert_eq!(
        actions,
        vec![
            "RenameAccounts/가계부",
            "ArchiveAccounts/가계부",
            "RenameVault/가계부",
            "Invite/가계부",
            "RemoveMembers/가계부",
        ]
    );
    // What members may do.
    call!(l.create_account(
        &b,
        NewAccount {
            vault: None,
            name: "교통비".into(),
            kind: AccountKind::Expense,
            opening_balance: None,
            opening_date: None,
            parent: None,
            billing: None,
            owner: None,
        }
    ))
    .expect("member creates an account");
    let r = record(&l, &b, tx("카카오뱅크", "교통비", "1500", None, "버스")).await;
    call!(l.void_transaction(&b, None, r.transaction.transaction_id, None)).expect("member voids");
    call!(l.upsert_snapshot(
        &b,
        SnapshotInput {
            vault: None,
            account: "카카오뱅크".into(),
            date: date("2026-03-15"),
            balance: d("0")
        }
    ))
    .expect("member snapshots");
}

/// Joining under a name the joiner already uses asks for `name`; with it, the join works.
pub async fn join_asks_for_a_name_on_collision<S: Store>(store: S) {
    let (l, _) = ledger_over(Arc::new(store));
    let a = named_person("collide-a", "민지");
    let b = named_person("collide-b", "준호");
    household(&l, &a).await;
    vault(&l, &b, "가계부").await;
    let invite = call!(l.share_vault(&a, None, Role::Member)).expect("share_vault");
    let clash = call!(l.join_vault(&b, &invite.invite_code, None)).unwrap_err();
    assert!(
        matches!(&clash, LedgerError::JoinNameTaken { name } if name == "가계부"),
        "{clash:?}"
    );
    let joined =
        call!(l.join_vault(&b, &invite.invite_code, Some("민지네"))).expect("join under another name");
    assert_eq!(joined.vault.name, "민지네");
    // The joiner reaches it by their name; the owner still by theirs.
    assert_eq!(
        call!(l.list_accounts(&b, Some("민지네"), false))
            .expect("accounts")
            .accounts
            .len(),
        7
    );
    assert_eq!(
        call!(l.list_accounts(&a, Some("가계부"), false))
            .expect("accounts")
            .accounts
            .len(),
        7
    );
    let again = call!(
        l.join_vault(
            &b,
            &call!(l.share_vault(&a, None, Role::Member))
                .expect("share")
                .invite_code,
            None
        )
    )
    .unwrap_err();
    assert!(
        matches!(&again, LedgerError::AlreadyMember { vault, role: "member" } if vault == "민지네"),
        "{again:?}"
    );
}

/// A removed member is refused on the very next call on every instance, warm caches included.
pub async fn removal_takes_effect_on_every_instance<S: Store>(store: S) {
    let store: Arc<dyn Store> = Arc::new(store);
    let (one, _) = ledger_over(store.clone());
    let (two, _) = ledger_over(store.clone());
    let a = named_person("remove-a", "민지");
    let b = named_person("remove-b", "준호");
    shared_household(&one, &a, &b, Role::Member).await;
    // Warm B's roster on both instances.
    for l in [&one, &two] {
        assert_eq!(
            call!(l.list_accounts(&b, None, false))
                .expect("accounts")
                .vault
                .name,
            "가계부"
        );
    }
    let removed = call!(one.remove_member(&a, None, "준호")).expect("remove_member");
    assert_eq!((removed.member.as_str(), removed.removed), ("준호", true));
    for l in [&two, &one] {
        let read = call!(l.list_accounts(&b, None, false)).unwrap_err();
        assert!(
            matches!(read, LedgerError::AccessEnded { removed: true, .. }),
            "read after removal: {read:?}"
        );
        let write =
            call!(l.record_transaction(&b, tx("카카오뱅크", "식비", "1000", None, "after"))).unwrap_err();
        assert!(
            matches!(write, LedgerError::AccessEnded { removed: true, .. }),
            "write after removal: {write:?}"
        );
    }
    // Also when B names the vault.
    let named = call!(two.get_balances(&b, Some("가계부"), None)).unwrap_err();
    assert!(
        matches!(&named, LedgerError::AccessEnded { removed: true, .. }),
        "{named:?}"
    );
    let members = call!(two.list_members(&a, None)).expect("list_members");
    assert_eq!(
        members
            .members
            .iter()
            .map(|m| m.name.as_str())
            .collect::<Vec<_>>(),
        vec!["민지"]
    );
    assert_eq!(
        call!(two.list_vaults(&a)).expect("vaults").vaults[0].member_count,
        1
    );
    // B may use the name again for a vault of their own.
    vault(&one, &b, "가계부").await;
}

/// The last owner cannot leave while others remain; an owner's code hands over.
pub async fn last_owner_hands_over_before_leaving<S: Store>(store: S) {
    let (l, _) = ledger_over(Arc::new(store));
    let a = named_person("owner-a", "민지");
    let b = named_person("owner-b", "준호");
    shared_household(&l, &a, &b, Role::Member).await;
    let refused = call!(l.leave_vault(&a, None)).unwrap_err();
    assert!(
        matches!(&refused, LedgerError::LastOwner { vault } if vault == "가계부"),
        "{refused:?}"
    );
    let handover = call!(l.share_vault(&a, None, Role::Owner)).expect("owner invite");
    let up = call!(l.join_vault(&b, &handover.invite_code, None)).expect("upgrade");
    assert_eq!(up.role, Role::Owner);
    let left = call!(l.leave_vault(&a, None)).expect("leave");
    assert!(left.left);
    let alone = call!(l.leave_vault(&b, None)).unwrap_err();
    assert!(
        matches!(&alone, LedgerError::OnlyMember { vault } if vault == "가계부"),
        "{alone:?}"
    );
    let members = call!(l.list_members(&b, None)).expect("members");
    let rows: Vec<(&str, Role)> = members
        .members
        .iter()
        .map(|m| (m.name.as_str(), m.role))
        .collect();
    assert_eq!(rows, vec![("준호", Role::Owner)]);
    let gone = call!(l.list_accounts(&a, None, false)).unwrap_err();
    assert!(
        matches!(gone, LedgerError::AccessEnded { removed: false, .. }),
        "{gone:?}"
    );
}

/// Fifty people join with one code at once: exactly one gets in.
pub async fn race_fifty_joins_one_code<S: Store>(store: S) {
    let (l, _) = ledger_over(Arc::new(store));
    let a = named_person("race-join", "민지");
    household(&l, &a).await;
    let invite = call!(l.share_vault(&a, None, Role::Member)).expect("share_vault");
    let people: Vec<PersonId> = (0..50).map(|i| fresh_person(&format!("race-join-{i}"))).collect();
    let mut tasks = Vec::new();
    for p in people {
        let (l, code) = (l.clone(), invite.invite_code.clone());
        tasks.push(tokio::spawn(async move { call!(l.join_vault(&p, &code, None)) }));
    }
    let mut outcomes = Vec::new();
    for t in tasks {
        outcomes.push(t.await.expect("task"));
    }
    let ok = outcomes.iter().filter(|o| o.is_ok()).count();
    let used = outcomes
        .iter()
        .filter(|o| matches!(o, Err(LedgerError::InviteUsed)))
        .count();
    assert_eq!((ok, used), (1, 49), "{outcomes:?}");
    assert_eq!(call!(l.list_members(&a, None)).expect("members").members.len(), 2);
}

/// Two members sending the same idempotencyKey string each get their own entry.
pub async fn idempotency_keys_are_per_person<S: Store>(store: S) {
    let (l, _) = ledger_over(Arc::new(store));
    let a = named_person("idem-a", "민지");
    let b = named_person("idem-b", "준호");
    shared_household(&l, &a, &b, Role::Member).await;
    let same = NewTransaction {
        idempotency_key: "lunch-1".into(),
        ..tx("카카오뱅크", "식비", "8000", None, "김밥")
    };
    let first = record(&l, &a, same.clone()).await;
    let second = record(
        &l,
        &b,
        NewTransaction {
            memo: Some("라면".into()),
            // The same purchase by both within minutes would be a probable duplicate.
            allow_duplicate: true,
            ..same.clone()
        },
    )
    .await;
    assert_ne!(
        first.transaction.transaction_id,
        second.transaction.transaction_id
    );
    assert_eq!((first.replayed, second.replayed), (false, false));
    let replay = record(&l, &a, same).await;
    assert_eq!(
        (replay.transaction.transaction_id, replay.replayed),
        (first.transaction.transaction_id, true)
    );
}

// ------------------------------------------------ snapshot heads (decision 030)

/// Counts of one call: (queries, gets, get_manys, writes, read rounds).
async fn shape_of<T>(
    c: &CountingStore<impl Store + ?Sized>,
    f: impl std::future::Future<Output = Result<T, LedgerError>>,
) -> ((u64, u64, u64, u64, u64), T) {
    c.reset();
    let out = f.await.expect("operation");
    let k = c.take();
    ((k.queries, k.gets, k.get_manys, k.writes, k.read_rounds), out)
}

/// A shape with a second read round that follows the first: that round can start
/// while the roster-version get of the first is still in flight, and the counter
/// then sees one round. Everything but the rounds must match exactly.
#[track_caller]
fn assert_two_rounds(shape: (u64, u64, u64, u64, u64), expected: (u64, u64, u64, u64), what: &str) {
    let (q, g, gm, w, rounds) = shape;
    assert_eq!((q, g, gm, w), expected, "{what}");
    assert!((1..=2).contains(&rounds), "{what}: {rounds} read rounds");
}

/// What reconcile shows: (account, snapshot date, snapshot balance, difference).
fn reconciled(r: &Reconciliation) -> Vec<(String, String, String, String)> {
    r.accounts
        .iter()
        .map(|x| {
            (
                x.name.clone(),
                x.snapshot_date.to_string(),
                x.snapshot_balance.to_string(),
                x.difference.to_string(),
            )
        })
        .collect()
}

/// Each account item names its latest snapshot: an earlier date leaves it, a
/// later one takes over, deleting the latest hands over to the next one (from the
/// list read beside the accounts, or read again after a delete), and reconcile
/// reads two queries whatever happened.
pub async fn snapshot_heads_follow_every_write<S: Store>(store: S) {
    let counting = Arc::new(CountingStore::new(store));
    let (l, clock) = ledger_over(counting.clone());
    let me = fresh_person("heads");
    household(&l, &me).await;
    let recon = |l: &Ledger| {
        let me = me.clone();
        let l = l.clone();
        async move { l.reconcile(&me, None, Some("카카오뱅크")).await }
    };
    // 카카오뱅크 holds 3,000,000 at the end of 03-10, 2,988,000 of 03-12, 2,688,000 of 03-14.
    for (on, balance) in [
        ("2026-03-10", "3000000"),
        ("2026-03-14", "2688000"),
        ("2026-03-12", "2982000"),
    ] {
        clock.advance_seconds(1);
        let (shape, _) = shape_of(&counting, l.upsert_snapshot(&me, snap("카카오뱅크", on, balance))).await;
        assert_eq!(shape, (2, 0, 1, 1, 1), "upsert_snapshot {on}");
    }
    let (shape, r) = shape_of(&counting, recon(&l)).await;
    assert_two_rounds(shape, (2, 0, 1, 0), "reconcile");
    assert_eq!(
        reconciled(&r),
        [(
            "카카오뱅크".into(),
            "2026-03-14".into(),
            "2688000".into(),
            "0".into()
        )],
        "an earlier date left the latest alone"
    );
    // The latest goes; the last write was an upsert, so the list read beside is current.
    clock.advance_seconds(1);
    let (shape, gone) = shape_of(
        &counting,
        l.delete_snapshot(&me, None, "카카오뱅크", date("2026-03-14")),
    )
    .await;
    assert!(gone.deleted);
    assert_eq!(
        shape,
        (2, 0, 1, 1, 1),
        "delete_snapshot of the latest after an upsert"
    );
    let (shape, r) = shape_of(&counting, recon(&l)).await;
    assert_two_rounds(shape, (2, 0, 1, 0), "reconcile after a delete");
    assert_eq!(
        reconciled(&r),
        [(
            "카카오뱅크".into(),
            "2026-03-12".into(),
            "2982000".into(),
            "-6000".into()
        )]
    );
    // The latest goes again, right after a delete: the list is read again, after the head.
    clock.advance_seconds(1);
    let (shape, _) = shape_of(
        &counting,
        l.delete_snapshot(&me, None, "카카오뱅크", date("2026-03-12")),
    )
    .await;
    assert_two_rounds(
        shape,
        (3, 0, 1, 1),
        "delete_snapshot of the latest after a delete",
    );
    let (_, r) = shape_of(&counting, recon(&l)).await;
    assert_eq!(
        reconciled(&r),
        [(
            "카카오뱅크".into(),
            "2026-03-10".into(),
            "3000000".into(),
            "0".into()
        )]
    );
    // A date that is not the latest goes: the head stays.
    clock.advance_seconds(1);
    call!(l.upsert_snapshot(&me, snap("카카오뱅크", "2026-03-11", "1"))).expect("snapshot");
    clock.advance_seconds(1);
    call!(l.delete_snapshot(&me, None, "카카오뱅크", date("2026-03-10"))).expect("delete");
    let (_, r) = shape_of(&counting, recon(&l)).await;
    assert_eq!(
        reconciled(&r),
        [(
            "카카오뱅크".into(),
            "2026-03-11".into(),
            "1".into(),
            "-2987999".into()
        )]
    );
    // The last one goes: nothing to reconcile, one query.
    clock.advance_seconds(1);
    call!(l.delete_snapshot(&me, None, "카카오뱅크", date("2026-03-11"))).expect("delete");
    let (shape, r) = shape_of(&counting, recon(&l)).await;
    assert_eq!(
        (shape, r.accounts.len()),
        ((1, 0, 1, 0, 1), 0),
        "reconcile, no snapshot"
    );
    // An archived account's head still refuses a new snapshot with the archive's words.
    call!(l.archive_account(&me, None, "현금", true)).expect("archive");
    let e = call!(l.upsert_snapshot(&me, snap("현금", "2026-03-15", "0"))).unwrap_err();
    assert!(
        matches!(e, LedgerError::ArchivedAccount { ref name } if name == "현금"),
        "{e:?}"
    );
}

/// Items stored before decision 030 (no head on the account, no count on its
/// snapshots) keep working: reconcile reads the snapshot items instead (three
/// queries), and the first snapshot write on such an account reads that account's
/// snapshots after its head (one more round, once) and sets the head exactly.
pub async fn snapshot_heads_fall_back_for_older_items<S: Store>(store: S) {
    let store: Arc<dyn Store> = Arc::new(store);
    let counting = Arc::new(CountingStore::from_arc(store.clone()));
    let (l, clock) = ledger_over(counting.clone());
    let me = fresh_person("heads-old");
    household(&l, &me).await;
    let first = call!(l.upsert_snapshot(&me, snap("신한카드", "2026-03-13", "100000"))).expect("snapshot");
    clock.advance_seconds(1);
    call!(l.upsert_snapshot(&me, snap("신한카드", "2026-03-12", "300000"))).expect("snapshot");
    // Make both snapshots and the account item as an earlier version stored them.
    let v = first.vault.vault_id;
    let a = first.account_id;
    for key in [
        dochiya_ledger::stored::account::account(v, a),
        dochiya_ledger::stored::snapshot::snapshot(v, a, date("2026-03-13")),
        dochiya_ledger::stored::snapshot::snapshot(v, a, date("2026-03-12")),
    ] {
        let mut item = store.get(&key).await.expect("get").expect("stored");
        dochiya_ledger::stored::snapshot::without_heads(&mut item.attrs);
        store
            .write(vec![dochiya_store::WriteOp::Put { item, guard: None }])
            .await
            .expect("put as before");
    }
    let (shape, r) = shape_of(&counting, l.reconcile(&me, None, None)).await;
    // Accounts, then the snapshot items, then the daily rollups (the first two may merge).
    let (q, g, gm, w, rounds) = shape;
    assert_eq!(
        (q, g, gm, w),
        (3, 0, 1, 0),
        "reconcile over an account item from before heads"
    );
    assert!((2..=3).contains(&rounds), "{rounds} read rounds");
    assert_eq!(
        reconciled(&r),
        [(
            "신한카드".into(),
            "2026-03-13".into(),
            "100000".into(),
            "0".into()
        )]
    );
    // An earlier date on the old item: its own snapshots are read after the head.
    clock.advance_seconds(1);
    let (shape, _) = shape_of(
        &counting,
        l.upsert_snapshot(&me, snap("신한카드", "2026-03-11", "0")),
    )
    .await;
    assert_two_rounds(
        shape,
        (3, 0, 1, 1),
        "the first snapshot write on an old account item",
    );
    let (shape, r) = shape_of(&counting, l.reconcile(&me, None, None)).await;
    assert_two_rounds(shape, (2, 0, 1, 0), "reconcile once the head is set");
    assert_eq!(
        reconciled(&r),
        [(
            "신한카드".into(),
            "2026-03-13".into(),
            "100000".into(),
            "0".into()
        )],
        "the head took the latest from the old items"
    );
    // Deleting the latest (written before heads): the head's own last write is in
    // the list read beside it, so that list names the next one.
    clock.advance_seconds(1);
    let (shape, _) = shape_of(
        &counting,
        l.delete_snapshot(&me, None, "신한카드", date("2026-03-13")),
    )
    .await;
    assert_eq!(shape, (2, 0, 1, 1, 1), "delete of a latest written before heads");
    let (_, r) = shape_of(&counting, l.reconcile(&me, None, None)).await;
    assert_eq!(
        reconciled(&r),
        [(
            "신한카드".into(),
            "2026-03-12".into(),
            "300000".into(),
            "0".into()
        )]
    );
}

/// list_accounts takes each expense account's budget settings from its account
/// item (one round of three queries, decision 030 and 061); an account item from before that makes it
/// read the settings (one more query) until a set_budget on it rebuilds the item's copy.
pub async fn budget_heads_keep_list_accounts_at_one_round<S: Store>(store: S) {
    let store: Arc<dyn Store> = Arc::new(store);
    let counting = Arc::new(CountingStore::from_arc(store.clone()));
    let (l, clock) = ledger_over(counting.clone());
    let me = fresh_person("budget-heads");
    household(&l, &me).await;
    let set = |account: &str, on: &str, amount: &str, repeat: bool| BudgetInput {
        vault: None,
        account: account.into(),
        amount: d(amount),
        month: Some(month(on)),
        repeat: Some(repeat),
        rollover: Some(false),
    };
    for b in [
        set("식비", "2026-02", "600000", true),
        set("식비", "2026-03", "700000", false),
        set("쇼핑", "2026-04", "100000", true),
    ] {
        clock.advance_seconds(1);
        call!(l.set_budget(&me, b.clone())).expect("set_budget");
    }
    let budgets = |list: &AccountList| -> Vec<(String, Option<String>)> {
        list.accounts
            .iter()
            .filter(|a| a.kind == AccountKind::Expense)
            .map(|a| (a.name.clone(), a.budget.map(|b| b.to_string())))
            .collect()
    };
    let (shape, list) = shape_of(&counting, l.list_accounts(&me, None, false)).await;
    // Accounts, the days after today and the vault's learned words (decision 061), one round.
    assert_eq!(shape, (3, 0, 1, 0, 1), "list_accounts");
    assert_eq!(
        budgets(&list),
        [("쇼핑".into(), None), ("식비".into(), Some("700000".into()))]
    );
    // 식비's account item as an earlier version stored it.
    let key = dochiya_ledger::stored::account::account(
        list.vault.vault_id,
        list.accounts
            .iter()
            .find(|a| a.name == "식비")
            .expect("식비")
            .account_id,
    );
    let mut item = store.get(&key).await.expect("get").expect("stored");
    dochiya_ledger::stored::snapshot::without_heads(&mut item.attrs);
    store
        .write(vec![dochiya_store::WriteOp::Put { item, guard: None }])
        .await
        .expect("put as before");
    let (shape, list) = shape_of(&counting, l.list_accounts(&me, None, false)).await;
    assert_two_rounds(
        shape,
        (4, 0, 1, 0),
        "list_accounts over an item from before budget heads",
    );
    assert_eq!(
        budgets(&list),
        [("쇼핑".into(), None), ("식비".into(), Some("700000".into()))]
    );
    // A setting on it rebuilds the copy from every setting: three queries again.
    clock.advance_seconds(1);
    call!(l.set_budget(&me, set("식비", "2026-05", "0", true))).expect("clear from May");
    let (shape, list) = shape_of(&counting, l.list_accounts(&me, None, false)).await;
    assert_eq!(shape, (3, 0, 1, 0, 1), "list_accounts once rebuilt");
    assert_eq!(
        budgets(&list),
        [("쇼핑".into(), None), ("식비".into(), Some("700000".into()))]
    );
    // In April the February setting carries over and 쇼핑's begins; in May 식비's is cleared.
    clock.advance_seconds(31 * 24 * 3600);
    let list = call!(l.list_accounts(&me, None, false)).expect("april");
    assert_eq!(
        budgets(&list),
        [
            ("쇼핑".into(), Some("100000".into())),
            ("식비".into(), Some("600000".into()))
        ]
    );
    clock.advance_seconds(30 * 24 * 3600);
    let list = call!(l.list_accounts(&me, None, false)).expect("may");
    assert_eq!(
        budgets(&list),
        [("쇼핑".into(), Some("100000".into())), ("식비".into(), None)]
    );
}

/// The sharing tools, the split and the batch, warm: each write one read round and
/// one atomic write (a batch one per entry), each read one round.
pub async fn round_trips_of_sharing_and_batches<S: Store>(store: S) {
    let counting = Arc::new(CountingStore::new(store));
    let (l, clock) = ledger_over(counting.clone());
    let (a, b, c) = (fresh_person("rt-a"), fresh_person("rt-b"), fresh_person("rt-c"));
    household(&l, &a).await;
    vault(&l, &b, "내 가계부").await;
    vault(&l, &c, "다른 가계부").await;
    let (shape, invite) = shape_of(&counting, l.share_vault(&a, None, Role::Member)).await;
    assert_eq!(shape, (1, 0, 1, 1, 1), "share_vault");
    let (shape, _) = shape_of(&counting, l.join_vault(&b, &invite.invite_code, None)).await;
    assert_eq!(shape, (1, 1, 0, 1, 1), "join_vault (the members from the invite)");
    let (shape, _) = shape_of(&counting, l.list_members(&a, Some("가계부"))).await;
    assert_eq!(shape, (1, 0, 1, 0, 1), "list_members");
    clock.advance_seconds(1);
    let split = NewSplit {
        vault: Some("가계부".into()),
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
        date: None,
        memo: Some("장보기".into()),
        idempotency_key: "rt-split".into(),
        allow_duplicate: false,
        future_date: false,
        dry_run: false,
        external_ref: None,
        tags: vec![],
        installments: None,
        for_whom: None,
    };
    let (shape, _) = shape_of(&counting, l.record_split(&b, split)).await;
    assert_eq!(shape, (2, 2, 2, 1, 1), "record_split_transaction (a member)");
    clock.advance_seconds(1);
    let entry = |n: &str| {
        Ok(BatchEntry {
            from: "신한카드".into(),
            to: "식비".into(),
            amount: d(n),
            date: None,
            memo: Some("카드".into()),
            external_ref: Some(format!("rt-ref-{n}")),
            lines: None,
            tags: vec![],
            installments: None,
            for_whom: None,
        })
    };
    let batch = NewBatch {
        vault: Some("가계부".into()),
        entries: vec![entry("1100"), entry("1200")],
        idempotency_key: "rt-batch".into(),
        allow_duplicate: false,
        dry_run: false,
    };
    let (shape, _) = shape_of(&counting, l.record_transactions(&a, batch)).await;
    // The book's entries within a day of the batch's dates: one more query, same round.
    assert_eq!(
        shape,
        (3, 0, 2, 2, 1),
        "record_transactions (2 entries: one write each)"
    );
    let invite = call!(l.share_vault(&a, Some("가계부"), Role::Member)).expect("share");
    call!(l.join_vault(&c, &invite.invite_code, Some("같이"))).expect("join");
    call!(l.list_accounts(&c, Some("같이"), false)).expect("warm");
    let (shape, _) = shape_of(&counting, l.leave_vault(&c, Some("같이"))).await;
    assert_eq!(shape, (1, 0, 1, 1, 1), "leave_vault");
    let members = call!(l.list_members(&a, Some("가계부"))).expect("members");
    let partner = members.members[1].name.clone();
    let (shape, _) = shape_of(&counting, l.remove_member(&a, Some("가계부"), &partner)).await;
    assert_eq!(shape, (1, 0, 1, 1, 1), "remove_member");
}

/// The contract tests of this file, instantiated by [`crate::ledger_contract_tests!`]
/// for every store: a test is registered here, beside its code.
#[doc(hidden)]
#[macro_export]
macro_rules! __ledger_suite_main {
    ($factory:expr) => {
        $crate::__ledger_contract_tests!(
            $factory;
            vaults_create_list_rename,
            account_names_resolve_normalized,
            balance_signs_for_every_kind,
            opening_balances_post_against_equity,
            rename_and_archive_accounts,
            record_refuses_bad_input,
            idempotency_replays_and_refuses,
            duplicate_guard,
            dry_run_writes_nothing,
            void_once,
            edit_in_place,
            retry_with_or_without_the_default_date_replays,
            balances_are_as_of_today_with_later_entries_apart,
            list_transactions_filters_and_pages,
            reports_by_account_month_and_net_worth,
            snapshots_and_reconcile,
            snapshots_listed_deleted_and_bounded,
            race_twenty_creates_one_account,
            race_twenty_records_same_key,
            race_fifty_random_transactions,
            injected_write_failure_leaves_nothing_partial,
            round_trips_per_operation,
            snapshot_heads_follow_every_write,
            snapshot_heads_fall_back_for_older_items,
            budget_heads_keep_list_accounts_at_one_round,
            round_trips_of_sharing_and_batches,
            stale_roster_never_decides,
            isolation_between_people,
            budgets_repeat_across_months,
            budgets_clear_and_refuse,
            budget_report_spent_remaining_and_allowance,
            budget_month_follows_the_vault_zone,
            budget_report_reads_do_not_grow_with_entries,
            share_join_and_record_together,
            roles_limit_what_members_do,
            join_asks_for_a_name_on_collision,
            removal_takes_effect_on_every_instance,
            last_owner_hands_over_before_leaving,
            race_fifty_joins_one_code,
            idempotency_keys_are_per_person,
        );
    };
}

/// Instantiate the tests of the ledger's input rules: refusals decided from the
/// arguments and the vault's names before anything is written, whatever the store.
///
/// They read the store only to resolve names, so they run once, on the memory store
/// (`shared/ledger/tests/ledger_contract_memory.rs`); every store keeps one case of
/// them in [`ledger_contract_tests!`] (`record_refuses_bad_input`, which ends with
/// the corrected entry recorded).
#[macro_export]
macro_rules! ledger_rule_tests {
    ($factory:expr) => {
        $crate::__ledger_contract_tests!(
            $factory;
            far_future_dates_need_saying,
            handle_shaped_names_are_refused,
            ids_where_names_belong,
            recurring_refuses_bad_input,
            categories_refuse_bad_input,
            card_billing_refuses_bad_input,
        );
    };
}

/// Instantiate every ledger contract test against a store factory expression.
///
/// `ledger_contract_tests!(factory)` records [`REPORT_TRANSACTIONS`] (1,000)
/// transactions in the report-budget test; `ledger_contract_tests!(factory,
/// report_transactions = N)` records N instead, for stores whose test double
/// is slow per write.
#[macro_export]
macro_rules! ledger_contract_tests {
    ($factory:expr) => {
        $crate::ledger_contract_tests!(
            $factory,
            report_transactions = $crate::contract::ledger_suite::REPORT_TRANSACTIONS
        );
    };
    ($factory:expr, report_transactions = $n:expr) => {
        #[test]
        fn report_reads_accounts_times_months() {
            $crate::contract::store_suite::block_on(async {
                let store = ($factory).await;
                $crate::contract::ledger_suite::report_reads_accounts_times_months_with(store, $n).await;
            });
        }
        $crate::__ledger_suite_main!($factory);
        $crate::__ledger_suite_batches!($factory);
        $crate::__ledger_suite_hints!($factory);
        $crate::__ledger_suite_members!($factory);
        $crate::__ledger_suite_names!($factory);
        $crate::__ledger_suite_writes!($factory);
        $crate::__ledger_suite_balances!($factory);
        $crate::__ledger_suite_statements!($factory);
        $crate::__ledger_suite_surface!($factory);
        $crate::__ledger_suite_recurring!($factory);
        $crate::__ledger_suite_categories!($factory);
        $crate::__ledger_suite_undo!($factory);
        $crate::__ledger_suite_scheduled!($factory);
        $crate::__ledger_suite_stuck!($factory);
        $crate::__ledger_suite_caps!($factory);
        $crate::__ledger_suite_restore!($factory);
        $crate::__ledger_suite_deletion!($factory);
        $crate::__ledger_suite_forget!($factory);
        $crate::__ledger_suite_recorded_by!($factory);
        $crate::__ledger_suite_budget_settings!($factory);
        $crate::__ledger_suite_cards!($factory);
        $crate::__ledger_suite_card_statements!($factory);
        $crate::__ledger_suite_settle!($factory);
        $crate::__ledger_suite_goals!($factory);
        $crate::__ledger_suite_performance!($factory);
        $crate::__ledger_suite_words!($factory);
        $crate::__ledger_suite_detected!($factory);
    };
}

#[doc(hidden)]
#[macro_export]
macro_rules! __ledger_contract_tests {
    ($factory:expr; $($name:ident),* $(,)?) => {
        $(
            #[test]
            fn $name() {
                $crate::contract::store_suite::block_on(async {
                    let store = ($factory).await;
                    $crate::contract::ledger_suite::$name(store).await;
                });
            }
        )*
    };
}
