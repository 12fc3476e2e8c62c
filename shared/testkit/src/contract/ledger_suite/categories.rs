//! Contract tests of categories (decision 038): a two-level tree with spending on
//! parents and children, reports by group, account and tag equal to hand-computed
//! totals, a child moved to another parent, a void and an edit moving tag and group
//! totals, budgets on a parent, rollover over three months with one overspent, and
//! every refusal with what to send instead, nothing stored.

use super::*;

async fn under(l: &Ledger, who: &PersonId, name: &str, parent: &str) -> CreatedAccount {
    call!(l.create_account(
        who,
        NewAccount {
            vault: None,
            name: name.into(),
            kind: AccountKind::Expense,
            opening_balance: None,
            opening_date: None,
            parent: Some(parent.into()),
            billing: None,
            owner: None,
        }
    ))
    .expect("create_account with parent")
}

/// 카카오뱅크 → `to`, on `on`, with `tags`.
async fn spend(l: &Ledger, who: &PersonId, to: &str, amount: &str, on: &str, tags: &[&str]) -> TransactionId {
    let t = NewTransaction {
        tags: tags.iter().map(|t| t.to_string()).collect(),
        ..tx("카카오뱅크", to, amount, Some(on), "지출")
    };
    record(l, who, t).await.transaction.transaction_id
}

fn request(from: &str, to: &str, by: ReportBy, tag: Option<&str>) -> ReportRequest {
    ReportRequest {
        vault: None,
        from: date(from),
        to: date(to),
        by,
        kind: FlowKind::Expense,
        tag: tag.map(str::to_string),
    }
}

/// (name, parent, amount) of each row: an account's or a group's name, or a tag.
async fn rows(l: &Ledger, who: &PersonId, r: ReportRequest) -> Vec<(String, Option<String>, String)> {
    call!(l.spending_report(who, r.clone()))
        .expect("spending_report")
        .rows
        .into_iter()
        .map(|x| {
            let name = x
                .account
                .or(x.tag)
                .or(x.month.map(|m| m.to_string()))
                .unwrap_or_default();
            (name, x.parent, x.amount.to_string())
        })
        .collect()
}

fn row(name: &str, parent: Option<&str>, amount: &str) -> (String, Option<String>, String) {
    (name.into(), parent.map(str::to_string), amount.into())
}

/// 식비 › 외식, 배달; 교통비 and 장보기 at the top; a bank to spend from.
async fn tree(l: &Ledger, who: &PersonId) {
    vault(l, who, "가계부").await;
    account(l, who, "카카오뱅크", AccountKind::Asset, Some("10000000")).await;
    account(l, who, "식비", AccountKind::Expense, None).await;
    under(l, who, "외식", "식비").await;
    under(l, who, "배달", "식비").await;
    account(l, who, "교통비", AccountKind::Expense, None).await;
    account(l, who, "장보기", AccountKind::Expense, None).await;
}

/// Spending on a parent and its children, with tags across them: every report
/// equals the sums by hand; moving a child moves its history; a void and an edit
/// move the tag and group totals.
pub async fn categories_roll_up_by_group_account_and_tag<S: Store>(store: S) {
    let (l, _) = ledger_over(Arc::new(store));
    let me = fresh_person("categories");
    tree(&l, &me).await;
    spend(&l, &me, "외식", "7000", "2026-02-10", &["여행"]).await;
    spend(&l, &me, "식비", "10000", "2026-03-02", &[]).await;
    let dinner = spend(&l, &me, "외식", "30000", "2026-03-03", &["여행"]).await;
    spend(&l, &me, "배달", "20000", "2026-03-04", &["#여행", "야식"]).await;
    let bus = spend(&l, &me, "교통비", "5000", "2026-03-05", &["여행"]).await;
    spend(&l, &me, "장보기", "40000", "2026-03-06", &[]).await;
    let march = |by, tag| request("2026-03-01", "2026-03-31", by, tag);

    let parents: BTreeMap<String, Option<String>> = call!(l.list_accounts(&me, None, false))
        .expect("list_accounts")
        .accounts
        .into_iter()
        .map(|a| (a.name, a.parent))
        .collect();
    assert_eq!(parents["외식"].as_deref(), Some("식비"));
    assert_eq!(parents["식비"], None);
    // 식비 = 10,000 of its own + 외식 30,000 + 배달 20,000.
    assert_eq!(
        rows(&l, &me, march(ReportBy::Group, None)).await,
        [
            row("식비", None, "60000"),
            row("장보기", None, "40000"),
            row("교통비", None, "5000")
        ]
    );
    assert_eq!(
        rows(&l, &me, march(ReportBy::Account, None)).await,
        [
            row("장보기", None, "40000"),
            row("외식", Some("식비"), "30000"),
            row("배달", Some("식비"), "20000"),
            row("식비", None, "10000"),
            row("교통비", None, "5000"),
        ]
    );
    // 여행 = 30,000 + 20,000 + 5,000 (a leading # is the same tag); 야식 = 20,000.
    assert_eq!(
        rows(&l, &me, march(ReportBy::Tag, None)).await,
        [row("여행", None, "55000"), row("야식", None, "20000")]
    );
    assert_eq!(
        rows(&l, &me, request("2026-02-01", "2026-03-31", ReportBy::Tag, None)).await,
        [row("여행", None, "62000"), row("야식", None, "20000")]
    );
    assert_eq!(
        rows(
            &l,
            &me,
            request("2026-02-01", "2026-03-31", ReportBy::Month, Some("#여행"))
        )
        .await,
        [row("2026-02", None, "7000"), row("2026-03", None, "55000")]
    );
    assert_eq!(
        rows(&l, &me, march(ReportBy::Group, Some("여행"))).await,
        [row("식비", None, "50000"), row("교통비", None, "5000")]
    );
    // Partial months read the daily tag rollups.
    assert_eq!(
        rows(&l, &me, request("2026-03-03", "2026-03-04", ReportBy::Tag, None)).await,
        [row("여행", None, "50000"), row("야식", None, "20000")]
    );
    let tagged = call!(l.list_transactions(
        &me,
        TransactionQuery {
            tag: Some("여행".into()),
            ..Default::default()
        }
    ))
    .expect("list_transactions by tag");
    let seen: Vec<(String, Vec<String>)> = tagged
        .transactions
        .iter()
        .map(|t| (t.date.to_string(), t.tags.clone()))
        .collect();
    let tags = |t: &[&str]| t.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    assert_eq!(
        seen,
        [
            ("2026-03-05".to_string(), tags(&["여행"])),
            ("2026-03-04".to_string(), tags(&["여행", "야식"])),
            ("2026-03-03".to_string(), tags(&["여행"])),
            ("2026-02-10".to_string(), tags(&["여행"])),
        ]
    );

    // A statement line with tags counts like a hand entry; one with too many is that
    // entry's own error and nothing of it is stored.
    let line = |to: &str, tags: Vec<String>| {
        Ok(BatchEntry {
            from: "카카오뱅크".into(),
            to: to.into(),
            amount: d("2000"),
            date: Some(date("2026-03-07")),
            memo: Some("간식".into()),
            external_ref: None,
            lines: None,
            tags,
            installments: None,
            for_whom: None,
        })
    };
    let many: Vec<String> = (0..6).map(|i| format!("t{i}")).collect();
    let batch = call!(l.record_transactions(
        &me,
        NewBatch {
            vault: None,
            entries: vec![line("배달", vec!["야식".into()]), line("외식", many.clone())],
            idempotency_key: key(),
            allow_duplicate: true,
            dry_run: false,
        }
    ))
    .expect("record_transactions");
    assert!(matches!(
        batch.results[0],
        EntryResult::Recorded { replayed: false, .. }
    ));
    match &batch.results[1] {
        EntryResult::Failed(LedgerError::InvalidInput { field, .. }) => assert_eq!(field.to_string(), "tags"),
        other => panic!("expected the tags refusal, got {other:?}"),
    }
    assert_eq!(
        rows(&l, &me, march(ReportBy::Tag, None)).await,
        [row("여행", None, "55000"), row("야식", None, "22000")]
    );

    // 장보기 moves under 식비, 배달 to the top: the whole history moves with them.
    let moved = call!(l.set_account_parent(&me, None, "장보기", "식비")).expect("move 장보기");
    assert_eq!((moved.parent.as_deref(), moved.changed), (Some("식비"), true));
    let again = call!(l.set_account_parent(&me, None, "장보기", "식비")).expect("same parent");
    assert!(!again.changed);
    call!(l.set_account_parent(&me, None, "배달", "")).expect("배달 to the top");
    assert_eq!(
        rows(&l, &me, march(ReportBy::Group, None)).await,
        [
            row("식비", None, "80000"),
            row("배달", None, "22000"),
            row("교통비", None, "5000")
        ]
    );

    // A void takes 교통비's 5,000 out of 여행; an edit moves 외식's entry from 여행
    // to 야식 at 35,000.
    call!(l.void_transaction(&me, None, bus, None)).expect("void");
    let edit = TransactionEdit {
        amount: Some(d("35000")),
        tags: Some(vec!["야식".into()]),
        ..edit_of(dinner)
    };
    let edited = call!(l.edit_transaction(&me, edit.clone())).expect("edit");
    assert_eq!(edited.transaction.tags, ["야식"]);
    assert_eq!(
        rows(&l, &me, march(ReportBy::Tag, None)).await,
        [row("야식", None, "57000"), row("여행", None, "20000")]
    );
    assert_eq!(
        rows(&l, &me, march(ReportBy::Group, None)).await,
        [row("식비", None, "85000"), row("배달", None, "22000")]
    );
    assert_eq!(
        rows(&l, &me, march(ReportBy::Group, Some("야식"))).await,
        [row("식비", None, "35000"), row("배달", None, "22000")]
    );

    // An archived account's row names it by its handle, by account as by group (its
    // plain name may be a live account's again).
    call!(l.archive_account(&me, None, "배달", false)).expect("archive 배달");
    let by_account = rows(&l, &me, march(ReportBy::Account, None)).await;
    let by_group = rows(&l, &me, march(ReportBy::Group, None)).await;
    let handle = by_group[1].0.clone();
    assert!(handle.starts_with("배달 (archived "), "{by_group:?}");
    assert!(
        by_account.contains(&row(&handle, None, "22000")),
        "{by_account:?}"
    );
}

/// A tag report reads the tag rollups of its months, not the entries: two queries
/// for whole months (the accounts, the months' tag items), in one round.
pub async fn tag_reports_read_rollups_not_entries<S: Store>(store: S) {
    let counting = Arc::new(CountingStore::new(store));
    let (l, _) = ledger_over(counting.clone());
    let me = fresh_person("tag-reads");
    tree(&l, &me).await;
    for i in 0..24u32 {
        let on = format!("2026-{:02}-{:02}", 1 + i % 2, 1 + i % 28);
        spend(&l, &me, "외식", &format!("{}", 1000 + i), &on, &["여행"]).await;
    }
    counting.reset();
    let report = call!(l.spending_report(&me, request("2026-01-01", "2026-02-28", ReportBy::Tag, None)))
        .expect("report");
    let c = counting.take();
    let expected: u32 = (0..24).map(|i| 1000 + i).sum();
    assert_eq!(report.total.to_string(), expected.to_string());
    assert_eq!(
        (c.queries, c.gets, c.get_manys, c.writes, c.read_rounds),
        (2, 0, 1, 0, 1)
    );
    // The roster version and head, 7 accounts with their 7 name items, one tag item per month.
    assert!(
        c.items_read <= 2 + 14 + 2,
        "read {} items, not 24 entries",
        c.items_read
    );
}

/// Each bad input is refused with what to send instead, and nothing is stored.
pub async fn categories_refuse_bad_input<S: Store>(store: S) {
    let (l, _) = ledger_over(Arc::new(store));
    let me = fresh_person("category-refusals");
    tree(&l, &me).await;
    account(&l, &me, "월급", AccountKind::Income, None).await;
    let invalid = |e: LedgerError| match e {
        LedgerError::InvalidInput { field, reason } => (field.to_string(), reason),
        other => panic!("expected InvalidInput, got {other:?}"),
    };
    let create = |name: &str, kind, parent: &str| NewAccount {
        vault: None,
        name: name.into(),
        kind,
        opening_balance: None,
        opening_date: None,
        parent: Some(parent.into()),
        billing: None,
        owner: None,
    };
    let e = call!(l.create_account(&me, create("상여", AccountKind::Income, "식비"))).unwrap_err();
    assert_eq!(
        invalid(e),
        (
            "parent".into(),
            Reason::ParentOfOtherKind {
                account: "상여".into(),
                kind: AccountKind::Income,
                parent: "식비".into(),
                parent_kind: AccountKind::Expense,
            }
        )
    );
    let e = call!(l.create_account(&me, create("점심", AccountKind::Expense, "외식"))).unwrap_err();
    assert_eq!(
        invalid(e).1,
        Reason::ParentTooDeep {
            parent: "외식".into(),
            grand: "식비".into(),
        }
    );
    let e = call!(l.create_account(&me, create("적금", AccountKind::Asset, "식비"))).unwrap_err();
    assert_eq!(
        invalid(e).1,
        Reason::ParentOfNonCategory {
            account: "적금".into(),
            kind: AccountKind::Asset,
        }
    );
    let e = call!(l.create_account(&me, create("간식", AccountKind::Expense, "없는계정"))).unwrap_err();
    assert!(
        matches!(e, LedgerError::NotFound { what: Entity::Account, ref name, .. } if name == "없는계정"),
        "{e:?}"
    );
    let e = call!(l.set_account_parent(&me, None, "식비", "외식")).unwrap_err();
    assert_eq!(
        invalid(e).1,
        Reason::ParentCycle {
            parent: "외식".into(),
            account: "식비".into(),
        }
    );
    let e = call!(l.set_account_parent(&me, None, "식비", "식비")).unwrap_err();
    assert_eq!(
        invalid(e).1,
        Reason::OwnParent {
            account: "식비".into(),
            kind: AccountKind::Expense,
        }
    );
    let e = call!(l.set_account_parent(&me, None, "식비", "교통비")).unwrap_err();
    assert_eq!(
        invalid(e).1,
        Reason::ChildHasChildren {
            account: "식비".into(),
            first: "배달".into(),
            more: 1,
            parent: "교통비".into(),
        }
    );
    let before = call!(l.list_accounts(&me, None, true)).expect("list").accounts;
    assert!(
        !before
            .iter()
            .any(|a| ["상여", "점심", "적금", "간식"].contains(&a.name.as_str()))
    );
    assert_eq!(
        before
            .iter()
            .find(|a| a.name == "식비")
            .and_then(|a| a.parent.clone()),
        None
    );

    let tagged = |tags: Vec<String>| NewTransaction {
        tags,
        ..tx("카카오뱅크", "외식", "1000", Some("2026-03-02"), "점심")
    };
    let six: Vec<String> = ["a", "b", "c", "d", "e", "f"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let e = call!(l.record_transaction(&me, tagged(six.clone()))).unwrap_err();
    assert_eq!(
        invalid(e),
        (
            "tags".into(),
            Reason::Parse(dochiya_domain::ParseError::new(
                "an entry may have at most 5 tags; it has 6: keep the 5 that matter, e.g. [\"여행\", \"제주\"]"
            ))
        )
    );
    let e = call!(l.record_transaction(&me, tagged(vec!["가".repeat(33)]))).unwrap_err();
    assert_eq!(
        invalid(e).1,
        Reason::Parse(dochiya_domain::ParseError::new(format!(
            "a tag may have at most 32 characters; \"{}…\" has 33: send a shorter tag",
            "가".repeat(32)
        )))
    );
    let e = call!(l.record_transaction(&me, tagged(vec!["여\u{200b}행".into()]))).unwrap_err();
    assert_eq!(
        invalid(e).1,
        Reason::Parse(dochiya_domain::ParseError::new(
            "tag \"여\u{200b}행\": a tag may not contain U+200B (zero width space): it is invisible, so the tag would look like another one; remove it"
        ))
    );
    let e = call!(l.spending_report(
        &me,
        request("2026-03-01", "2026-03-31", ReportBy::Tag, Some("여\u{200b}행"))
    ))
    .unwrap_err();
    assert_eq!(invalid(e).0, "tag");
    assert!(all_transactions(&l, &me).await.iter().all(|t| t.memo != "점심"));
}

fn rolling(account: &str, amount: &str, on: &str, rollover: bool) -> BudgetInput {
    BudgetInput {
        rollover: Some(rollover),
        ..budget(account, amount, Some(on), true)
    }
}

/// (account, budget, carried, spent, remaining, over) of each row.
type BudgetLine = (String, String, Option<String>, String, String, bool);

async fn budget_rows(l: &Ledger, who: &PersonId, on: &str) -> (Vec<BudgetLine>, String, String) {
    let r = call!(l.budget_report(who, None, Some(month(on)))).expect("budget_report");
    let rows = r
        .rows
        .into_iter()
        .map(|x| {
            (
                x.account,
                x.budget.to_string(),
                x.carried.map(|c| c.to_string()),
                x.spent.to_string(),
                x.remaining.to_string(),
                x.over,
            )
        })
        .collect();
    (
        rows,
        r.totals.remaining.to_string(),
        r.unbudgeted_spent.to_string(),
    )
}

fn line(
    a: &str,
    budget: &str,
    carried: Option<&str>,
    spent: &str,
    remaining: &str,
    over: bool,
) -> BudgetLine {
    (
        a.into(),
        budget.into(),
        carried.map(str::to_string),
        spent.into(),
        remaining.into(),
        over,
    )
}

/// A budget on 식비 covers 외식 and 배달; with rollover, January's leftover carries
/// into February, February's overspending into March.
pub async fn budgets_cover_children_and_roll_over<S: Store>(store: S) {
    let (l, _) = ledger_over(Arc::new(store));
    let me = fresh_person("rollover");
    tree(&l, &me).await;
    let set = call!(l.set_budget(&me, rolling("식비", "100000", "2026-01", true))).expect("set_budget");
    assert!(set.rollover);
    call!(l.set_budget(&me, rolling("교통비", "50000", "2026-03", false))).expect("set_budget");
    // January: 20,000 on 식비 itself + 30,000 on 외식 = 50,000 of 100,000.
    spend(&l, &me, "식비", "20000", "2026-01-05", &[]).await;
    spend(&l, &me, "외식", "30000", "2026-01-20", &[]).await;
    // February: 170,000 on 배달, against 100,000 + 50,000 carried: 20,000 over.
    spend(&l, &me, "배달", "170000", "2026-02-14", &[]).await;
    // March: 10,000 on 외식, 5,000 on 교통비, 8,000 on 장보기 (no budget).
    spend(&l, &me, "외식", "10000", "2026-03-03", &[]).await;
    spend(&l, &me, "교통비", "5000", "2026-03-04", &[]).await;
    spend(&l, &me, "장보기", "8000", "2026-03-05", &[]).await;

    assert_eq!(
        budget_rows(&l, &me, "2026-01").await,
        (
            vec![line("식비", "100000", None, "50000", "50000", false)],
            "50000".into(),
            "0".into()
        )
    );
    assert_eq!(
        budget_rows(&l, &me, "2026-02").await,
        (
            vec![line("식비", "100000", Some("50000"), "170000", "-20000", true)],
            "-20000".into(),
            "0".into()
        )
    );
    // March: 100,000 − 20,000 carried − 10,000 = 70,000; 교통비 rolls nothing in.
    assert_eq!(
        budget_rows(&l, &me, "2026-03").await,
        (
            vec![
                line("교통비", "50000", None, "5000", "45000", false),
                line("식비", "100000", Some("-20000"), "10000", "70000", false),
            ],
            "115000".into(),
            "8000".into()
        )
    );
    // Turning rollover off from March keeps February's carry into March (February
    // still rolls over) but carries nothing out of March.
    call!(l.set_budget(&me, rolling("식비", "100000", "2026-03", false))).expect("set_budget");
    call!(l.set_budget(&me, rolling("식비", "100000", "2026-04", false))).expect("set_budget");
    assert_eq!(
        budget_rows(&l, &me, "2026-04").await.0,
        vec![
            line("교통비", "50000", None, "0", "50000", false),
            line("식비", "100000", None, "0", "100000", false),
        ]
    );
}

/// The contract tests of this file, instantiated by [`crate::ledger_contract_tests!`]
/// for every store: a test is registered here, beside its code.
#[doc(hidden)]
#[macro_export]
macro_rules! __ledger_suite_categories {
    ($factory:expr) => {
        $crate::__ledger_contract_tests!(
            $factory;
            categories_roll_up_by_group_account_and_tag,
            tag_reports_read_rollups_not_entries,
            budgets_cover_children_and_roll_over,
        );
    };
}
