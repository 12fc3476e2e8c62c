//! Contract tests of recurring entries (decision 036): each occurrence posted exactly
//! once on its own date, however many read at once; day 31; a change and a removal;
//! a voided occurrence; the duplicate guard; Los Angeles at its midnight; refusals.

use super::*;

/// One setting that differs, as a refusal lists it.
fn differ(what: &'static str, was: &str, sent: &str) -> Difference {
    Difference {
        what,
        was: was.into(),
        sent: sent.into(),
    }
}

/// Seconds in a day.
const DAY: i64 = 24 * 3600;

/// A rent of 500,000 from 카카오뱅크 to 주거비 on `day`, from `start`.
fn rent(day: Option<i64>, start: Option<&str>) -> RecurringInput {
    RecurringInput {
        name: "월세".into(),
        from: Some("카카오뱅크".into()),
        to: Some("주거비".into()),
        amount: Some(d("500000")),
        day,
        start: start.map(date),
        ..Default::default()
    }
}

async fn set(l: &Ledger, who: &PersonId, input: RecurringInput) -> RecurringSet {
    call!(l.set_recurring(who, input.clone())).expect("set_recurring")
}

/// (date, amount to 주거비, voided) of every entry the schedule `name` posted, by date.
async fn posted(l: &Ledger, who: &PersonId, name: &str) -> Vec<(String, String, bool)> {
    let mut out: Vec<_> = all_transactions(l, who)
        .await
        .into_iter()
        .filter(|t| t.recurring.as_deref() == Some(name))
        .map(|t| {
            let amount = t
                .postings
                .iter()
                .find(|p| p.account == "주거비")
                .map(|p| p.amount.to_string())
                .unwrap_or_default();
            (t.date.to_string(), amount, t.voided)
        })
        .collect();
    out.sort();
    out
}

fn row(date: &str, amount: &str) -> (String, String, bool) {
    (date.into(), amount.into(), false)
}

async fn rent_household(l: &Ledger, who: &PersonId) {
    vault(l, who, "가계부").await;
    account(l, who, "카카오뱅크", AccountKind::Asset, Some("10000000")).await;
    account(l, who, "주거비", AccountKind::Expense, None).await;
}

/// Started three months ago (in clock time: nobody used the book since): the first
/// reads post all three, each on its own date, exactly once under 20 concurrent reads
/// on two instances and a concurrent scheduler run.
pub async fn recurring_posts_missed_months_once_under_races<S: Store>(store: S) {
    let store: Arc<dyn Store> = Arc::new(store);
    let (l, clock) = ledger_over(store.clone());
    let other = Ledger::new(store, clock.clone(), LedgerConfig::default());
    let me = fresh_person("recurring-race");
    rent_household(&l, &me).await;
    let vault_id = call!(l.list_vaults(&me)).expect("list_vaults").vaults[0].vault_id;
    let made = set(&l, &me, rent(Some(25), None)).await;
    assert_eq!(
        (made.created, made.recurring.next.map(|d| d.to_string())),
        (true, Some("2026-03-25".into()))
    );
    assert_eq!(posted(&l, &me, "월세").await, vec![]);
    // 2026-03-15 → 2026-06-15: 03-25, 04-25 and 05-25 are due.
    clock.advance_seconds(92 * DAY);
    let mut tasks = Vec::new();
    for i in 0..20 {
        let (l, me) = (if i % 2 == 0 { l.clone() } else { other.clone() }, me.clone());
        tasks.push(tokio::spawn(async move {
            call!(l.get_balances(&me, None, None)).expect("read").accounts
        }));
    }
    let scheduler = {
        let l = other.clone();
        tokio::spawn(async move { call!(l.post_due_vault(vault_id)).expect("scheduler run") })
    };
    let mut runs = Vec::new();
    for t in tasks {
        runs.push(t.await.expect("task"));
    }
    let run = scheduler.await.expect("scheduler");
    // Every read, even one that lost the race, shows all three.
    for accounts in runs {
        let rent = accounts.iter().find(|a| a.name == "주거비").expect("주거비");
        assert_eq!(rent.balance.to_string(), "1500000");
    }
    assert!(run.posted <= 3, "{run:?}");
    assert_eq!(
        posted(&l, &me, "월세").await,
        vec![
            row("2026-03-25", "500000"),
            row("2026-04-25", "500000"),
            row("2026-05-25", "500000")
        ]
    );
    let b = balances(&l, &me).await;
    assert_eq!(b["카카오뱅크"], "8500000");
    // Nothing more is due: another scheduler run writes nothing.
    assert_eq!(
        call!(l.post_due_vault(vault_id)).expect("run"),
        PostingRun::default()
    );
    let list = call!(l.list_recurring(&me, None, None)).expect("list_recurring");
    let r = &list.recurring[0];
    assert_eq!(
        (
            r.last_posted.map(|d| d.to_string()),
            r.next.map(|d| d.to_string())
        ),
        (Some("2026-05-25".into()), Some("2026-06-25".into()))
    );
    assert_eq!(
        (
            list.month.to_string(),
            list.upcoming.len(),
            list.upcoming_total.to_string()
        ),
        ("2026-06".into(), 1, "500000".into())
    );
}

/// Day 31 falls on February's 28th and April's 30th; a start in the past posts at once.
pub async fn recurring_day_31_uses_the_last_day<S: Store>(store: S) {
    let (l, clock) = ledger_over(Arc::new(store));
    let me = fresh_person("recurring-31");
    rent_household(&l, &me).await;
    let made = set(&l, &me, rent(Some(31), Some("2026-01-01"))).await;
    assert_eq!(
        made.recurring.last_posted.map(|d| d.to_string()),
        Some("2026-02-28".into())
    );
    clock.advance_seconds(47 * DAY); // 2026-05-01
    call!(l.list_accounts(&me, None, false)).expect("read");
    assert_eq!(
        posted(&l, &me, "월세").await,
        vec![
            row("2026-01-31", "500000"),
            row("2026-02-28", "500000"),
            row("2026-03-31", "500000"),
            row("2026-04-30", "500000")
        ]
    );
}

/// A change applies from the next date on; removal keeps what was posted; a name in use
/// with other settings is refused naming each difference.
pub async fn recurring_change_and_removal<S: Store>(store: S) {
    let (l, clock) = ledger_over(Arc::new(store));
    let me = fresh_person("recurring-change");
    rent_household(&l, &me).await;
    set(&l, &me, rent(Some(25), None)).await;
    // The same call again is harmless.
    assert!(!set(&l, &me, rent(Some(25), None)).await.created);
    clock.advance_seconds(42 * DAY); // 2026-04-26
    let refused = call!(l.set_recurring(
        &me,
        RecurringInput {
            amount: Some(d("550000")),
            day: Some(5),
            ..rent(None, None)
        }
    ))
    .unwrap_err();
    assert!(
        matches!(&refused, LedgerError::InvalidInput { field: Field::Recurring("name"), reason: Reason::ScheduleExists { name, differences } }
            if name == "월세" && *differences == [differ("amount", "500000", "550000"), differ("day", "25", "5")]),
        "{refused:?}"
    );
    let changed = set(
        &l,
        &me,
        RecurringInput {
            name: "월세".into(),
            amount: Some(d("550000")),
            day: Some(5),
            change: true,
            ..Default::default()
        },
    )
    .await;
    assert_eq!(
        (changed.changed, changed.recurring.next.map(|d| d.to_string())),
        (true, Some("2026-05-05".into()))
    );
    // The same change again changes nothing, and says so.
    let again = set(
        &l,
        &me,
        RecurringInput {
            name: "월세".into(),
            amount: Some(d("550000")),
            day: Some(5),
            change: true,
            ..Default::default()
        },
    )
    .await;
    assert_eq!((again.created, again.changed), (false, false));
    clock.advance_seconds(10 * DAY); // 2026-05-06
    let removed = set(
        &l,
        &me,
        RecurringInput {
            name: "월세".into(),
            remove: true,
            ..Default::default()
        },
    )
    .await;
    assert!(removed.removed);
    clock.advance_seconds(40 * DAY); // 2026-06-15
    assert_eq!(
        posted(&l, &me, "월세").await,
        vec![
            row("2026-03-25", "500000"),
            row("2026-04-25", "500000"),
            row("2026-05-05", "550000")
        ]
    );
    assert_eq!(
        call!(l.list_recurring(&me, None, None)).expect("list").recurring,
        vec![]
    );
    let gone = call!(l.set_recurring(
        &me,
        RecurringInput {
            name: "월세2".into(),
            remove: true,
            ..Default::default()
        }
    ))
    .unwrap_err();
    assert!(
        matches!(&gone, LedgerError::NotFound { what: Entity::Recurring, name, within, candidates }
            if name == "월세2" && within.as_deref() == Some("vault \"가계부\"") && candidates.is_empty()),
        "{gone:?}"
    );
}

/// A voided occurrence is not posted again; posting ignores the duplicate guard, and the
/// household's own entry of the same rent on the same day is its probable duplicate.
pub async fn recurring_voids_and_duplicates<S: Store>(store: S) {
    let (l, clock) = ledger_over(Arc::new(store));
    let me = fresh_person("recurring-void");
    rent_household(&l, &me).await;
    // Entered by hand ahead of the date, then the schedule: the posting still happens.
    let ahead = record(
        &l,
        &me,
        tx("카카오뱅크", "주거비", "500000", Some("2026-03-25"), "월세"),
    )
    .await;
    set(&l, &me, rent(Some(25), Some("2026-02-01"))).await;
    let first = all_transactions(&l, &me)
        .await
        .into_iter()
        .find(|t| t.recurring.is_some())
        .expect("posted 02-25");
    call!(l.void_transaction(&me, None, first.transaction_id, Some("이미 냄"))).expect("void");
    clock.advance_seconds(10 * DAY + 3600); // 2026-03-25 13:00 KST
    call!(l.list_accounts(&me, None, false)).expect("read");
    assert_eq!(
        posted(&l, &me, "월세").await,
        vec![
            ("2026-02-25".into(), "500000".into(), true),
            row("2026-03-25", "500000")
        ]
    );
    let posted_id = all_transactions(&l, &me)
        .await
        .into_iter()
        .find(|t| t.recurring.is_some() && !t.voided)
        .expect("03-25")
        .transaction_id;
    assert_ne!(posted_id, ahead.transaction.transaction_id);
    // Hours after the posting, the household enters the same rent on the same day.
    clock.advance_seconds(5 * 3600);
    match call!(l.record_transaction(
        &me,
        tx("카카오뱅크", "주거비", "500000", Some("2026-03-25"), "3월 월세")
    )) {
        Err(LedgerError::ProbableDuplicate { earlier_id, .. }) => assert_eq!(earlier_id, posted_id),
        other => panic!("{other:?}"),
    }
    // The posting's guard holds for 45 days from the posting (decision 036), whether or
    // not the store has deleted its expired record yet: on day 44 still refused, on
    // day 46 the same rent is a new entry. Found by the model's soak (issue 51).
    clock.advance_seconds(44 * DAY - 5 * 3600);
    match call!(l.record_transaction(
        &me,
        tx("카카오뱅크", "주거비", "500000", Some("2026-03-25"), "3월 월세")
    )) {
        Err(LedgerError::ProbableDuplicate { earlier_id, .. }) => assert_eq!(earlier_id, posted_id),
        other => panic!("{other:?}"),
    }
    clock.advance_seconds(2 * DAY);
    let late = record(
        &l,
        &me,
        tx("카카오뱅크", "주거비", "500000", Some("2026-03-25"), "3월 월세"),
    )
    .await;
    assert_ne!(late.transaction.transaction_id, posted_id);
    assert_eq!(late.transaction.date.to_string(), "2026-03-25");
}

/// A vault in Los Angeles posts at its own midnight, not Seoul's or UTC's.
pub async fn recurring_turns_at_los_angeles_midnight<S: Store>(store: S) {
    let (l, clock) = ledger_over(Arc::new(store));
    let me = fresh_person("recurring-la");
    call!(l.create_vault(
        &me,
        NewVault {
            name: "LA".into(),
            currency: Some(Currency::parse("USD").expect("USD")),
            time_zone: Some(VaultZone::parse("America/Los_Angeles").expect("LA")),
        }
    ))
    .expect("vault");
    account(&l, &me, "카카오뱅크", AccountKind::Asset, Some("5000")).await;
    account(&l, &me, "주거비", AccountKind::Expense, None).await;
    // 03:00Z is 20:00 on 03-14 in LA (PDT): today there is the 14th.
    set(
        &l,
        &me,
        RecurringInput {
            amount: Some(d("1250.50")),
            ..rent(Some(15), None)
        },
    )
    .await;
    clock.advance_seconds(4 * 3600 - 1); // 23:59:59 on 03-14 in LA
    call!(l.list_accounts(&me, None, false)).expect("read");
    assert_eq!(posted(&l, &me, "월세").await, vec![]);
    clock.advance_seconds(1); // 00:00:00 on 03-15 in LA
    call!(l.list_accounts(&me, None, false)).expect("read");
    assert_eq!(posted(&l, &me, "월세").await, vec![row("2026-03-15", "1250.50")]);
}

/// Bad input is refused with what to send instead, and nothing is stored.
pub async fn recurring_refuses_bad_input<S: Store>(store: S) {
    let (l, _) = ledger_over(Arc::new(store));
    let me = fresh_person("recurring-bad");
    rent_household(&l, &me).await;
    let refusal = |input: RecurringInput| {
        let l = l.clone();
        let me = me.clone();
        async move { call!(l.set_recurring(&me, input.clone())).unwrap_err() }
    };
    let invalid = |e: LedgerError| match e {
        LedgerError::InvalidInput { field, reason } => (field, reason),
        other => panic!("expected InvalidInput, got {other:?}"),
    };
    let unknown = refusal(RecurringInput {
        to: Some("주거".into()),
        ..rent(Some(25), None)
    })
    .await;
    assert!(
        matches!(&unknown, LedgerError::NotFound { what: Entity::Account, name, within, candidates }
            if name == "주거" && within.as_deref() == Some("vault \"가계부\"") && candidates == &["주거비"]),
        "{unknown:?}"
    );
    for day in [0, 32] {
        assert_eq!(
            invalid(refusal(rent(Some(day), None)).await),
            (Field::Recurring("day"), Reason::ScheduleDay { got: day })
        );
    }
    assert_eq!(
        invalid(
            refusal(RecurringInput {
                end: Some(date("2026-03-01")),
                ..rent(Some(25), None)
            })
            .await
        ),
        (
            Field::Recurring("end"),
            Reason::ScheduleEnd {
                start: date("2026-03-15"),
                end: date("2026-03-01"),
            }
        )
    );
    let (field, cents) = invalid(
        refusal(RecurringInput {
            amount: Some(d("12.50")),
            ..rent(Some(25), None)
        })
        .await,
    );
    assert_eq!(field, Field::Amount);
    assert!(
        matches!(&cents, Reason::Parse(p) if p.message().contains("KRW")),
        "{cents:?}"
    );
    assert_eq!(
        invalid(
            refusal(RecurringInput {
                from: None,
                ..rent(Some(25), None)
            })
            .await
        ),
        (
            Field::Recurring("from"),
            Reason::NoScheduleYet {
                name: "월세".into(),
                missing: vec!["from"],
            }
        )
    );
    assert_eq!(
        invalid(refusal(rent(Some(25), Some("2025-03-14"))).await),
        (
            Field::Recurring("start"),
            Reason::StartTooEarly {
                start: date("2025-03-14"),
                today: date("2026-03-15"),
            }
        )
    );
    let list = call!(l.list_recurring(&me, None, None)).expect("list");
    assert_eq!((list.recurring.len(), list.upcoming.len()), (0, 0));
    assert_eq!(posted(&l, &me, "월세").await, vec![]);
}

/// The scheduled run (a scheduler-shaped invocation: no caller, every shard of the
/// due index) posts what is due in vaults nobody opened, and only that.
pub async fn recurring_scheduled_run_posts_only_what_is_due<S: Store>(store: S) {
    let (l, clock) = ledger_over(Arc::new(store));
    // A day before the suite's clock (the other tests' schedules all fall due later).
    clock.advance_seconds(-DAY);
    let (due, later) = (fresh_person("recurring-run-a"), fresh_person("recurring-run-b"));
    rent_household(&l, &due).await;
    rent_household(&l, &later).await;
    set(&l, &due, rent(Some(15), None)).await;
    set(&l, &later, rent(Some(20), None)).await;
    clock.advance_seconds(DAY); // 2026-03-15, noon in Seoul; nobody reads
    let run = call!(l.post_due_everywhere(dochiya_domain::Clock::now(clock.as_ref()), 1_000))
        .expect("scheduled run");
    assert!(run.posted >= 1, "{run:?}");
    // Before any read of the vault: the run left nothing due there.
    let vault_id = call!(l.list_vaults(&due)).expect("list_vaults").vaults[0].vault_id;
    assert_eq!(
        call!(l.post_due_vault(vault_id)).expect("run"),
        PostingRun::default()
    );
    assert_eq!(posted(&l, &due, "월세").await, vec![row("2026-03-15", "500000")]);
    assert_eq!(posted(&l, &later, "월세").await, vec![]);
    let list = call!(l.list_recurring(&later, None, None)).expect("list");
    assert_eq!(
        list.recurring[0].next.map(|d| d.to_string()),
        Some("2026-03-20".into())
    );
}

/// A schedule's tags ride on every posting, so the tag report counts them from the tag
/// rollups; a change of tags applies from the next posting on; the same name with other
/// tags is refused naming them; six tags are refused with nothing stored.
pub async fn recurring_tags_ride_on_postings<S: Store>(store: S) {
    let (l, clock) = ledger_over(Arc::new(store));
    let me = fresh_person("recurring-tags");
    rent_household(&l, &me).await;
    let tagged = |tags: &[&str]| RecurringInput {
        tags: Some(tags.iter().map(|t| t.to_string()).collect()),
        ..rent(Some(25), None)
    };
    let e = call!(l.set_recurring(&me, tagged(&["a", "b", "c", "d", "e", "f"]))).unwrap_err();
    match &e {
        LedgerError::InvalidInput { field, .. } => assert_eq!(field.to_string(), "tags"),
        other => panic!("expected the tags refusal, got {other:?}"),
    }
    assert!(
        call!(l.list_recurring(&me, None, None))
            .expect("list")
            .recurring
            .is_empty()
    );
    let made = set(&l, &me, tagged(&["#고정비"])).await;
    assert_eq!(made.recurring.tags, vec!["고정비".to_string()]);
    // Sent again as it is (the same tag however spelled): nothing to change.
    assert!(!set(&l, &me, tagged(&["고정비"])).await.changed);
    let e = call!(l.set_recurring(&me, tagged(&["집"]))).unwrap_err();
    match &e {
        LedgerError::InvalidInput { reason, .. } => assert_eq!(
            *reason,
            Reason::ScheduleExists {
                name: "월세".into(),
                differences: vec![differ("tags", r#"["고정비"]"#, r#"["집"]"#)],
            }
        ),
        other => panic!("expected the settings refusal, got {other:?}"),
    }
    // 2026-03-15 → 2026-04-26: 03-25 and 04-25 posted with the tag.
    clock.advance_seconds(42 * DAY);
    let march_april = ReportRequest {
        vault: None,
        from: date("2026-03-01"),
        to: date("2026-04-30"),
        by: ReportBy::Tag,
        kind: FlowKind::Expense,
        tag: None,
    };
    let by_tag = |r: SpendingReport| -> Vec<(Option<String>, String)> {
        r.rows
            .into_iter()
            .map(|x| (x.tag, x.amount.to_string()))
            .collect()
    };
    let report = call!(l.spending_report(&me, march_april.clone())).expect("spending_report");
    assert_eq!(by_tag(report), vec![(Some("고정비".into()), "1000000".into())]);
    // From the next date on: May's posting carries the new tags, the posted ones stay.
    let changed = set(
        &l,
        &me,
        RecurringInput {
            change: true,
            ..tagged(&["집", "고정비"])
        },
    )
    .await;
    assert_eq!(
        changed.recurring.tags,
        vec!["집".to_string(), "고정비".to_string()]
    );
    clock.advance_seconds(30 * DAY);
    let mut seen: Vec<(String, Vec<String>)> = all_transactions(&l, &me)
        .await
        .into_iter()
        .filter(|t| t.recurring.as_deref() == Some("월세"))
        .map(|t| (t.date.to_string(), t.tags))
        .collect();
    seen.sort();
    let tags = |t: &[&str]| t.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    assert_eq!(
        seen,
        vec![
            ("2026-03-25".to_string(), tags(&["고정비"])),
            ("2026-04-25".to_string(), tags(&["고정비"])),
            ("2026-05-25".to_string(), tags(&["집", "고정비"])),
        ]
    );
}

/// A schedule whose first date is after today costs one read round and one write
/// (docs/design.md §10): nothing is due, so nothing is read again after the write.
pub async fn set_recurring_is_one_read_round<S: Store>(store: S) {
    let counting = Arc::new(CountingStore::new(store));
    let (l, _) = ledger_over(counting.clone());
    let me = fresh_person("recurring-rounds");
    rent_household(&l, &me).await;
    // Today is 2026-03-15: day 25 is next due on 2026-03-25.
    counting.reset();
    let made = set(&l, &me, rent(Some(25), None)).await;
    let k = counting.take();
    assert_eq!(
        (made.created, made.recurring.next.map(|d| d.to_string())),
        (true, Some("2026-03-25".into()))
    );
    // The accounts and the schedules (2 queries), the head with the creation counter
    // (1 get_many, decision 048), the roster version with the head (1 get_many), all
    // in one round; then the one write.
    assert_eq!(
        (k.queries, k.gets, k.get_manys, k.writes, k.read_rounds),
        (2, 0, 2, 1, 1)
    );
    // The same call again changes nothing and writes nothing.
    counting.reset();
    let again = set(&l, &me, rent(Some(25), None)).await;
    let k = counting.take();
    assert_eq!(
        (again.created, again.changed, k.writes, k.read_rounds),
        (false, false, 0, 1)
    );
}

/// The contract tests of this file, instantiated by [`crate::ledger_contract_tests!`]
/// for every store: a test is registered here, beside its code.
#[doc(hidden)]
#[macro_export]
macro_rules! __ledger_suite_recurring {
    ($factory:expr) => {
        $crate::__ledger_contract_tests!(
            $factory;
            recurring_posts_missed_months_once_under_races,
            recurring_day_31_uses_the_last_day,
            recurring_change_and_removal,
            recurring_voids_and_duplicates,
            recurring_turns_at_los_angeles_midnight,
            recurring_scheduled_run_posts_only_what_is_due,
            recurring_tags_ride_on_postings,
            set_recurring_is_one_read_round,
        );
    };
}
