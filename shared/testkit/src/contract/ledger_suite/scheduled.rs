//! Contract tests of the scheduled run over the due index (decision 036): as of the
//! scheduler's time and never after the clock, at most so many vaults a run, saying
//! whether due entries were left; a second run posts nothing. A vault that fails is
//! counted and backed off while the run goes on (decision 048); a restored vault is in
//! the index at once.

use super::*;
use crate::memory::MemoryStore;
use dochiya_domain::Clock as _;
use dochiya_ledger::stored::table;
use dochiya_store::{Item, Key, Value, WriteOp};

/// Seconds in a day.
const DAY: i64 = 24 * 3600;

/// A household with a rent of 300,000 on `day` (from the clock's today).
async fn household_with_rent(l: &Ledger, tag: &str, day: i64) -> PersonId {
    let who = fresh_person(tag);
    vault(l, &who, "가계부").await;
    account(l, &who, "카카오뱅크", AccountKind::Asset, Some("10000000")).await;
    account(l, &who, "주거비", AccountKind::Expense, None).await;
    call!(l.set_recurring(
        &who,
        RecurringInput {
            name: "월세".into(),
            from: Some("카카오뱅크".into()),
            to: Some("주거비".into()),
            amount: Some(d("300000")),
            day: Some(day),
            ..Default::default()
        }
    ))
    .expect("set_recurring");
    who
}

/// The dates of the entries the rent posted.
async fn rent_dates(l: &Ledger, who: &PersonId) -> Vec<String> {
    let mut out: Vec<String> = all_transactions(l, who)
        .await
        .into_iter()
        .filter(|t| t.recurring.as_deref() == Some("월세"))
        .map(|t| t.date.to_string())
        .collect();
    out.sort();
    out
}

fn run(posted: usize, vaults: usize, more: bool) -> DueRun {
    DueRun {
        posted,
        vaults,
        more,
        ..DueRun::default()
    }
}

pub async fn scheduled_run_is_capped_and_as_of_its_time<S: Store>(store: S) {
    let (l, clock) = ledger_over(Arc::new(store));
    clock.advance_seconds(-DAY); // 2026-03-14, noon in Seoul
    let a = household_with_rent(&l, "scheduled-a", 15).await;
    let b = household_with_rent(&l, "scheduled-b", 15).await;
    let c = household_with_rent(&l, "scheduled-c", 20).await;
    clock.advance_seconds(DAY); // 2026-03-15, noon in Seoul; nobody reads
    let now = clock.now();
    // Scheduled for 2026-03-14T12:00Z (21:00 in Seoul): the 15th is not due yet there.
    // Both entries of the 15th are looked at (UTC's tomorrow), nothing posts.
    let before = jiff::Timestamp::from_second(now.as_second() - 15 * 3600).expect("a time");
    assert_eq!(
        call!(l.post_due_everywhere(before, 100)).expect("run"),
        run(0, 2, false)
    );
    // A time after the clock counts as the clock's: the 20th stays unposted.
    let later = jiff::Timestamp::from_second(now.as_second() + 10 * DAY).expect("a time");
    assert_eq!(
        call!(l.post_due_everywhere(later, 1)).expect("run"),
        run(1, 1, true)
    );
    assert_eq!(
        call!(l.post_due_everywhere(later, 100)).expect("run"),
        run(1, 1, false)
    );
    assert_eq!(
        call!(l.post_due_everywhere(later, 100)).expect("run"),
        run(0, 0, false)
    );
    assert_eq!(rent_dates(&l, &a).await, ["2026-03-15"]);
    assert_eq!(rent_dates(&l, &b).await, ["2026-03-15"]);
    assert_eq!(rent_dates(&l, &c).await, Vec::<String>::new());
}

/// Two scheduled runs and ten reads at once on a vault three months behind: every
/// date posted once, whoever got there first; a run after them posts nothing.
pub async fn scheduled_runs_overlap_with_reads_and_each_other<S: Store>(store: S) {
    let (l, clock) = ledger_over(Arc::new(store));
    let who = household_with_rent(&l, "scheduled-overlap", 25).await;
    clock.advance_seconds(92 * DAY); // 2026-06-15: 03-25, 04-25 and 05-25 are due
    let now = clock.now();
    let mut tasks = Vec::new();
    for i in 0..12 {
        let (l, who) = (l.clone(), who.clone());
        tasks.push(tokio::spawn(async move {
            if i < 2 {
                call!(l.post_due_everywhere(now, 100)).expect("run").posted
            } else {
                call!(l.get_balances(&who, None, None)).expect("read");
                0
            }
        }));
    }
    let mut by_runs = 0;
    for t in tasks {
        by_runs += t.await.expect("task");
    }
    assert!(by_runs <= 3, "{by_runs}");
    assert_eq!(
        rent_dates(&l, &who).await,
        ["2026-03-25", "2026-04-25", "2026-05-25"]
    );
    assert_eq!(
        call!(l.post_due_everywhere(now, 100)).expect("run"),
        run(0, 0, false)
    );
}

/// One vault among six fails (a schedule item nobody can read: corrupt data, not a
/// schedule's problem): every other due vault is posted, the failure is counted with
/// the vault's id, and the run answers. The failing vault is then left alone for 2
/// hours, tried again, and left for 4: not visited at full cost by every hourly run.
pub async fn scheduled_run_isolates_a_failing_vault<S: Store>(store: S) {
    let store: Arc<dyn Store> = Arc::new(store);
    let (l, clock) = ledger_over(store.clone());
    clock.advance_seconds(-DAY); // 2026-03-14, noon in Seoul
    let mut good = Vec::new();
    for i in 0..5 {
        good.push(household_with_rent(&l, &format!("isolated-{i}"), 15).await);
    }
    let bad = household_with_rent(&l, "isolated-bad", 15).await;
    let bad_vault = call!(l.list_vaults(&bad)).expect("list_vaults").vaults[0].vault_id;
    let unreadable = Item {
        key: Key::new(table::vault_pk(bad_vault), "RC#깨짐"),
        attrs: [("name".to_string(), Value::S("깨짐".into()))].into(),
    };
    store
        .write(vec![WriteOp::Put {
            item: unreadable,
            guard: None,
        }])
        .await
        .expect("put");
    clock.advance_seconds(DAY); // 2026-03-15: every rent is due; nobody reads
    let first = call!(l.post_due_everywhere(clock.now(), 100)).expect("the run runs");
    assert_eq!(
        (
            first.posted,
            first.vaults,
            first.failed,
            first.deferred,
            first.more
        ),
        (5, 6, 1, 0, false)
    );
    let failure = &first.failures[..];
    assert_eq!(failure.len(), 1);
    assert_eq!(
        (failure[0].vault.as_str(), failure[0].kind),
        (
            bad_vault.to_string().as_str(),
            dochiya_ledger::api::ErrorKind::Internal
        )
    );
    for who in &good {
        assert_eq!(rent_dates(&l, who).await, ["2026-03-15"]);
    }
    let seen = |r: &DueRun| (r.vaults, r.failed, r.deferred);
    clock.advance_seconds(3600); // an hour later: backed off (2 hours)
    assert_eq!(
        seen(&call!(l.post_due_everywhere(clock.now(), 100)).expect("run")),
        (0, 0, 1)
    );
    clock.advance_seconds(3600); // two hours after: tried, failed again, backed off for 4
    assert_eq!(
        seen(&call!(l.post_due_everywhere(clock.now(), 100)).expect("run")),
        (1, 1, 0)
    );
    clock.advance_seconds(3 * 3600);
    assert_eq!(
        seen(&call!(l.post_due_everywhere(clock.now(), 100)).expect("run")),
        (0, 0, 1)
    );
    clock.advance_seconds(3600);
    assert_eq!(
        seen(&call!(l.post_due_everywhere(clock.now(), 100)).expect("run")),
        (1, 1, 0)
    );
    assert_eq!(
        (
            backoff_secs(1),
            backoff_secs(2),
            backoff_secs(5),
            backoff_secs(40)
        ),
        (7200, 14_400, 86_400, 86_400)
    );
}

/// A restored vault is in the due index at once: the next scheduled run posts its rent
/// though nobody opened the vault; restoring the same file again writes nothing.
pub async fn a_restored_vault_is_posted_by_the_next_run<S: Store>(store: S) {
    let (src, clock) = ledger_over(Arc::new(MemoryStore::new()));
    let who = household_with_rent(&src, "restored", 20).await;
    let backup = call!(src.backup(&who, None)).expect("backup");
    let l = Ledger::new(Arc::new(store), clock.clone(), LedgerConfig::default());
    let restored = l.restore(&backup).await.expect("restore");
    assert!(!restored.already_there);
    let again = l.restore(&backup).await.expect("restore again");
    assert_eq!((again.already_there, again.written), (true, 0));
    clock.advance_seconds(6 * DAY); // 2026-03-21
    assert_eq!(
        call!(l.post_due_everywhere(clock.now(), 100)).expect("run"),
        run(1, 1, false)
    );
    assert_eq!(rent_dates(&l, &who).await, ["2026-03-20"]);
}

/// The contract tests of this file, instantiated by [`crate::ledger_contract_tests!`]
/// for every store: a test is registered here, beside its code.
#[doc(hidden)]
#[macro_export]
macro_rules! __ledger_suite_scheduled {
    ($factory:expr) => {
        $crate::__ledger_contract_tests!(
            $factory;
            scheduled_run_is_capped_and_as_of_its_time,
            scheduled_runs_overlap_with_reads_and_each_other,
            scheduled_run_isolates_a_failing_vault,
            a_restored_vault_is_posted_by_the_next_run,
        );
    };
}
