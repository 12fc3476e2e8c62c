//! Contract tests of a recurring entry that cannot post (decision 048): `set_recurring`
//! refuses one it cannot post and stores nothing; one that stops posting later is
//! marked stuck with its reason, `list_recurring` says so, and nothing else in the
//! vault waits for it (every read and write, removing the member, removing it); a
//! change un-sticks it and posts the occurrences it stopped at.

use super::batches::{batch, entry};
use super::statements::nine_full_splits;
use super::*;

/// Seconds in a day.
const DAY: i64 = 24 * 3600;
/// The largest amount an entry may carry, in won.
const MAX: &str = "9999999999999999";
/// 자산 after [`fill`]: 900 + 22 entries of [`MAX`], 3.37e15 short of what a total holds.
const FULL: i64 = 922 * 9_999_999_999_999_999;
/// An amount that no longer fits once 자산 is full.
const TOO_BIG: &str = "5000000000000000";

/// A ledger allowing splits of 200 lines (to fill an account in few writes).
fn roomy_ledger(store: Arc<dyn Store>) -> (Ledger, Arc<ManualClock>) {
    let clock = Arc::new(ManualClock::at_unix_seconds(NOON_KST_2026_03_15));
    let config = LedgerConfig {
        max_postings: 200,
        ..LedgerConfig::default()
    };
    (Ledger::new(store, clock.clone(), config), clock)
}

/// 우리집 with 자산 (asset), 수입 (income), 주거비 and 관리비 (expenses).
async fn big_household(l: &Ledger, who: &PersonId) {
    vault(l, who, "우리집").await;
    account(l, who, "자산", AccountKind::Asset, None).await;
    account(l, who, "수입", AccountKind::Income, None).await;
    account(l, who, "주거비", AccountKind::Expense, None).await;
    account(l, who, "관리비", AccountKind::Expense, None).await;
}

/// 자산 filled to [`FULL`] from 수입 in February: nine splits of 100 lines, one batch of 22.
async fn fill(l: &Ledger, who: &PersonId) {
    nine_full_splits(l, who).await;
    let entries: Vec<_> = (0..22)
        .map(|i| entry("수입", "자산", MAX, "2026-02-20", &format!("큰 {i}"), None))
        .collect();
    let filled = call!(l.record_transactions(
        who,
        NewBatch {
            allow_duplicate: true,
            ..batch(entries.clone(), &key())
        }
    ))
    .expect("batch");
    assert_eq!(filled.results.len(), 22);
}

fn salary(amount: &str, day: i64, start: Option<&str>) -> RecurringInput {
    RecurringInput {
        name: "급여".into(),
        from: Some("수입".into()),
        to: Some("자산".into()),
        amount: Some(d(amount)),
        day: Some(day),
        start: start.map(date),
        ..Default::default()
    }
}

/// (name, stuck) of every schedule, by name.
async fn stuck_of(l: &Ledger, who: &PersonId) -> Vec<(String, Option<Stuck>)> {
    call!(l.list_recurring(who, None, None))
        .expect("list_recurring")
        .recurring
        .into_iter()
        .map(|r| (r.name, r.stuck))
        .collect()
}

/// `set_recurring` rehearses what a new schedule posts at once: one whose first
/// occurrence would put 자산 past 64 bits is refused, and nothing is stored.
pub async fn a_schedule_that_cannot_post_is_refused_and_stores_nothing<S: Store>(store: S) {
    let (l, _) = roomy_ledger(Arc::new(store));
    let me = fresh_person("stuck-refused");
    big_household(&l, &me).await;
    fill(&l, &me).await;
    let e = call!(l.set_recurring(&me, salary(TOO_BIG, 10, Some("2026-03-10")))).unwrap_err();
    assert!(
        matches!(&e, LedgerError::ScheduleCannotPost { name, date: on, reason: StuckReason::Overflow }
            if name == "급여" && *on == date("2026-03-10")),
        "{e:?}"
    );
    let list = call!(l.list_recurring(&me, None, None)).expect("list_recurring");
    assert!(list.recurring.is_empty(), "{list:?}");
    assert_eq!(balances(&l, &me).await["자산"], FULL.to_string());
    // What fits is stored and posted at once.
    let fits = call!(l.set_recurring(&me, salary("1000000", 10, Some("2026-03-10")))).expect("fits");
    assert_eq!(
        (fits.created, fits.recurring.last_posted, fits.recurring.stuck),
        (true, Some(date("2026-03-10")), None)
    );
    assert_eq!(balances(&l, &me).await["자산"], (FULL + 1_000_000).to_string());
}

/// A schedule that stops posting later (자산 filled after it was made; an account
/// archived) is marked stuck on the first call after its date: that call and every
/// other one works for both members, `list_recurring` says why and since when, a
/// change that still cannot post is refused with nothing stored, a change that can
/// posts the occurrence it stopped at, and the member and the schedule can be removed.
pub async fn a_stuck_schedule_blocks_nothing_and_says_why<S: Store>(store: S) {
    let (l, clock) = roomy_ledger(Arc::new(store));
    let owner = named_person("stuck-owner", "민지");
    let partner = named_person("stuck-partner", "준호");
    big_household(&l, &owner).await;
    let invite = call!(l.share_vault(&owner, None, Role::Member)).expect("share_vault");
    call!(l.join_vault(&partner, &invite.invite_code, None)).expect("join_vault");
    // Made while everything fits; due on the 20th and the 25th.
    call!(l.set_recurring(&owner, salary(TOO_BIG, 20, None))).expect("급여");
    let rent = RecurringInput {
        name: "월세".into(),
        from: Some("자산".into()),
        to: Some("주거비".into()),
        amount: Some(d("500000")),
        day: Some(20),
        ..Default::default()
    };
    call!(l.set_recurring(&partner, rent.clone())).expect("월세");
    let fee = RecurringInput {
        name: "관리비".into(),
        from: Some("자산".into()),
        to: Some("관리비".into()),
        amount: Some(d("100000")),
        day: Some(25),
        ..Default::default()
    };
    call!(l.set_recurring(&owner, fee.clone())).expect("관리비");
    fill(&l, &owner).await;
    call!(l.archive_account(&owner, None, "관리비", false)).expect("archive 관리비");
    clock.advance_seconds(11 * DAY); // 2026-03-26: every schedule is due once

    // The first call posts what can be posted and marks the rest stuck; it answers.
    let after_rent = FULL - 500_000;
    assert_eq!(balances(&l, &owner).await["자산"], after_rent.to_string());
    let since = |d: &str, reason| {
        Some(Stuck {
            reason,
            since: date(d),
        })
    };
    assert_eq!(
        stuck_of(&l, &partner).await,
        vec![
            (
                "관리비".to_string(),
                since("2026-03-25", StuckReason::ArchivedAccount)
            ),
            ("급여".to_string(), since("2026-03-20", StuckReason::Overflow)),
            ("월세".to_string(), None),
        ]
    );
    let april = call!(l.list_recurring(&owner, None, Some(month("2026-04")))).expect("april");
    let upcoming: Vec<(&str, String)> = april
        .upcoming
        .iter()
        .map(|u| (u.name.as_str(), u.date.to_string()))
        .collect();
    assert_eq!(upcoming, vec![("월세", "2026-04-20".to_string())]);
    // Nothing else waits for them.
    call!(l.get_balances(&owner, None, None)).expect("get_balances");
    call!(l.list_transactions(&partner, TransactionQuery::default())).expect("list_transactions");
    record(
        &l,
        &partner,
        tx("자산", "주거비", "1000", Some("2026-03-26"), "수리"),
    )
    .await;
    assert_eq!(
        call!(l.post_due_vault(call!(l.list_vaults(&owner)).expect("vaults").vaults[0].vault_id))
            .expect("run"),
        PostingRun::default()
    );

    // A change that still cannot post is refused; the schedule stays as it was.
    let unchanged = RecurringInput {
        name: "급여".into(),
        change: true,
        ..Default::default()
    };
    let e = call!(l.set_recurring(&owner, unchanged.clone())).unwrap_err();
    assert!(
        matches!(&e, LedgerError::ScheduleCannotPost { date: on, reason: StuckReason::Overflow, .. }
            if *on == date("2026-03-20")),
        "{e:?}"
    );
    assert_eq!(
        stuck_of(&l, &owner).await[1].1,
        since("2026-03-20", StuckReason::Overflow)
    );
    // One that can post un-sticks it and posts the 20th with the new amount.
    let smaller = RecurringInput {
        name: "급여".into(),
        amount: Some(d("1000000")),
        change: true,
        ..Default::default()
    };
    let changed = call!(l.set_recurring(&owner, smaller.clone())).expect("change");
    assert_eq!(
        (
            changed.changed,
            changed.recurring.last_posted,
            changed.recurring.stuck
        ),
        (true, Some(date("2026-03-20")), None)
    );
    assert_eq!(
        balances(&l, &owner).await["자산"],
        (after_rent - 1000 + 1_000_000).to_string()
    );
    // The member and the schedules can be removed.
    let removed = call!(l.remove_member(&owner, None, "준호")).expect("remove_member");
    assert!(removed.removed);
    let gone = call!(l.set_recurring(
        &owner,
        RecurringInput {
            name: "관리비".into(),
            remove: true,
            ..Default::default()
        }
    ))
    .expect("remove 관리비");
    assert!(gone.removed);
    assert_eq!(
        stuck_of(&l, &owner).await,
        vec![("급여".to_string(), None), ("월세".to_string(), None)]
    );
}

/// The contract tests of this file, instantiated by [`crate::ledger_contract_tests!`]
/// for every store: a test is registered here, beside its code.
#[doc(hidden)]
#[macro_export]
macro_rules! __ledger_suite_stuck {
    ($factory:expr) => {
        $crate::__ledger_contract_tests!(
            $factory;
            a_schedule_that_cannot_post_is_refused_and_stores_nothing,
            a_stuck_schedule_blocks_nothing_and_says_why,
        );
    };
}
