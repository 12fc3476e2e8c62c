//! Contract tests of recurring charges detected (issue 54): `list_recurring`'s
//! `detected`, charges seen three or more months in a row that no schedule covers.
//! Today is 2026-03-15, so the window read is 2025-03-01 through 2026-03-15 and a
//! charge is listed only when its latest month is 2026-03 or 2026-02.

use super::*;

/// (memo, from, to, amount, day, months) of one detected charge.
type Charge = (String, String, String, String, u8, u32);

fn charge(memo: &str, from: &str, to: &str, amount: &str, day: u8, months: u32) -> Charge {
    (memo.into(), from.into(), to.into(), amount.into(), day, months)
}

/// The detected charges of the caller's only vault, in the order listed.
async fn detected(l: &Ledger, who: &PersonId) -> Vec<Charge> {
    call!(l.list_recurring(who, None, None))
        .expect("list_recurring")
        .detected
        .into_iter()
        .map(|c| (c.memo, c.from, c.to, c.amount.to_string(), c.day, c.months))
        .collect()
}

/// Record `memo` for `amount` from `from` to `to` on each date.
async fn charges(l: &Ledger, who: &PersonId, (from, to, amount): (&str, &str, &str), on: &[(&str, &str)]) {
    for (date, memo) in on {
        record(l, who, tx(from, to, amount, Some(date), memo)).await;
    }
}

/// 가계부 with 카카오뱅크 (asset), 신한카드 (card) and three expense accounts.
async fn subscriptions(l: &Ledger, who: &PersonId) {
    vault(l, who, "가계부").await;
    account(l, who, "카카오뱅크", AccountKind::Asset, Some("5000000")).await;
    account(l, who, "신한카드", AccountKind::Liability, None).await;
    account(l, who, "구독", AccountKind::Expense, None).await;
    account(l, who, "통신비", AccountKind::Expense, None).await;
    account(l, who, "공과금", AccountKind::Expense, None).await;
}

fn schedule(name: &str, from: &str, to: &str, amount: &str, day: i64) -> RecurringInput {
    RecurringInput {
        name: name.into(),
        from: Some(from.into()),
        to: Some(to.into()),
        amount: Some(d(amount)),
        day: Some(day),
        ..Default::default()
    }
}

async fn set(l: &Ledger, who: &PersonId, input: RecurringInput) -> RecurringSet {
    call!(l.set_recurring(who, input.clone())).expect("set_recurring")
}

fn removal(name: &str) -> RecurringInput {
    RecurringInput {
        name: name.into(),
        remove: true,
        ..Default::default()
    }
}

/// 넷플릭스 on the 5th of January, February and March is detected (3 months, day 5,
/// the latest memo as written); 유튜브 in February and March alone is not, until its
/// January comes. The first word is compared like a name (Spotify, SPOTIFY!, spotify);
/// a one-letter word counts nowhere. SKT on the 20th of every month from 2025-02
/// through 2026-02: its latest month is the one before today's, and 2025-02 is before
/// the window, so 12 months. By category name, then memo; an archived category by its
/// handle.
pub async fn detected_after_three_months_in_a_row_not_two<S: Store>(store: S) {
    let (l, _clock) = ledger_over(Arc::new(store));
    let me = fresh_person("detected-three");
    subscriptions(&l, &me).await;
    let netflix = ("신한카드", "구독", "17000");
    let on = [
        ("2026-01-05", "넷플릭스 1월"),
        ("2026-02-05", "넷플릭스 2월"),
        ("2026-03-05", "넷플릭스 3월"),
    ];
    charges(&l, &me, netflix, &on[..2]).await;
    assert_eq!(detected(&l, &me).await, vec![]);
    charges(&l, &me, netflix, &on[2..]).await;
    let youtube = ("카카오뱅크", "구독", "14900");
    charges(
        &l,
        &me,
        youtube,
        &[
            ("2026-02-10", "유튜브 프리미엄"),
            ("2026-03-10", "유튜브 프리미엄"),
        ],
    )
    .await;
    let spotify = [
        ("2026-01-15", "Spotify"),
        ("2026-02-15", "SPOTIFY!"),
        ("2026-03-14", "spotify 3월"),
    ];
    charges(&l, &me, ("카카오뱅크", "구독", "10900"), &spotify).await;
    let a = [
        ("2026-01-03", "a 구독"),
        ("2026-02-03", "a 구독"),
        ("2026-03-03", "a 구독"),
    ];
    charges(&l, &me, ("카카오뱅크", "구독", "5000"), &a).await;
    let skt: Vec<String> = (0..13)
        .map(|i| {
            let m = month("2025-02");
            let m = (0..i).fold(m, |m, _| m.next());
            format!("{m}-20")
        })
        .collect();
    let skt: Vec<(&str, &str)> = skt.iter().map(|d| (d.as_str(), "SKT 통신비")).collect();
    charges(&l, &me, ("카카오뱅크", "통신비", "55000"), &skt).await;
    // "spotify 3월" sorts before "넷플릭스 3월" (ASCII first); 구독 before 통신비.
    assert_eq!(
        detected(&l, &me).await,
        vec![
            charge("spotify 3월", "카카오뱅크", "구독", "10900", 14, 3),
            charge("넷플릭스 3월", "신한카드", "구독", "17000", 5, 3),
            charge("SKT 통신비", "카카오뱅크", "통신비", "55000", 20, 12),
        ]
    );

    // 유튜브's January makes three.
    charges(&l, &me, youtube, &[("2026-01-10", "유튜브")]).await;
    let archived = "구독 (archived 2026-03-15)";
    let expected = |to: &str| {
        vec![
            charge("spotify 3월", "카카오뱅크", to, "10900", 14, 3),
            charge("넷플릭스 3월", "신한카드", to, "17000", 5, 3),
            charge("유튜브 프리미엄", "카카오뱅크", to, "14900", 10, 3),
            charge("SKT 통신비", "카카오뱅크", "통신비", "55000", 20, 12),
        ]
    };
    assert_eq!(detected(&l, &me).await, expected("구독"));
    call!(l.archive_account(&me, None, "구독", true)).expect("archive");
    assert_eq!(detected(&l, &me).await, expected(archived));
}

/// A schedule between the same accounts covers a charge: 멜론's schedule (카카오뱅크 →
/// 구독) does not cover 넷플릭스 (신한카드 → 구독), 넷플릭스's does, and once removed the
/// charge is listed again. Entries a schedule posted never count, even after it is
/// removed: SKT posted 2025-12-20, 2026-01-20 and 2026-02-20 and is not listed.
pub async fn detected_unless_a_schedule_pays_the_same_accounts<S: Store>(store: S) {
    let (l, _clock) = ledger_over(Arc::new(store));
    let me = fresh_person("detected-covered");
    subscriptions(&l, &me).await;
    let on = [
        ("2026-01-05", "넷플릭스"),
        ("2026-02-05", "넷플릭스"),
        ("2026-03-05", "넷플릭스"),
    ];
    charges(&l, &me, ("신한카드", "구독", "17000"), &on).await;
    let listed = vec![charge("넷플릭스", "신한카드", "구독", "17000", 5, 3)];
    assert_eq!(detected(&l, &me).await, listed);

    set(&l, &me, schedule("멜론", "카카오뱅크", "구독", "10900", 5)).await;
    assert_eq!(detected(&l, &me).await, listed);
    set(&l, &me, schedule("넷플릭스", "신한카드", "구독", "17000", 5)).await;
    let list = call!(l.list_recurring(&me, None, None)).expect("list_recurring");
    assert_eq!(list.recurring.len(), 2);
    assert_eq!(list.detected, vec![]);
    set(&l, &me, removal("넷플릭스")).await;
    assert_eq!(detected(&l, &me).await, listed);

    let skt = RecurringInput {
        start: Some(date("2025-12-20")),
        ..schedule("SKT", "카카오뱅크", "통신비", "55000", 20)
    };
    set(&l, &me, skt).await;
    set(&l, &me, removal("SKT")).await;
    let posted: Vec<String> = all_transactions(&l, &me)
        .await
        .into_iter()
        .filter(|t| t.recurring.as_deref() == Some("SKT") && !t.voided)
        .map(|t| t.date.to_string())
        .collect();
    assert_eq!(posted.len(), 3, "{posted:?}");
    assert_eq!(detected(&l, &me).await, listed);
}

/// Irregular amounts or days break the run: 도시가스 10,000, 30,000, 10,000
/// (|30,000 − 10,000| × 10 = 200,000 > 10,000) and 헬스장 on the 5th, 20th, 5th
/// (15 days off) are not listed. Within the bounds it still counts: 넷플릭스 17,000,
/// 18,000, 17,500 (|17,000 − 17,500| × 10 = |18,000 − 17,500| × 10 = 5,000 ≤ 17,500);
/// 멜론 10,000, 11,000, 10,000 (|11,000 − 10,000| × 10 = 10,000 ≤ 10,000, exactly); on
/// 2026-03-31, 왓챠 on 01-31, 02-23 and 03-31 (in February the 31st counts as the 28th,
/// 5 days from the 23rd).
pub async fn detected_runs_break_on_irregular_amounts_or_days<S: Store>(store: S) {
    let (l, clock) = ledger_over(Arc::new(store));
    let me = fresh_person("detected-irregular");
    subscriptions(&l, &me).await;
    let months = |day: &str| -> Vec<String> {
        ["2026-01", "2026-02", "2026-03"]
            .iter()
            .map(|m| format!("{m}-{day}"))
            .collect()
    };
    for (date, amount) in months("12").iter().zip(["10000", "30000", "10000"]) {
        record(
            &l,
            &me,
            tx("카카오뱅크", "공과금", amount, Some(date), "도시가스"),
        )
        .await;
    }
    for date in ["2026-01-05", "2026-02-20", "2026-03-05"] {
        record(&l, &me, tx("카카오뱅크", "구독", "50000", Some(date), "헬스장")).await;
    }
    assert_eq!(detected(&l, &me).await, vec![]);

    for (date, amount) in months("05").iter().zip(["17000", "18000", "17500"]) {
        record(&l, &me, tx("신한카드", "구독", amount, Some(date), "넷플릭스")).await;
    }
    for (date, amount) in months("07").iter().zip(["10000", "11000", "10000"]) {
        record(&l, &me, tx("카카오뱅크", "구독", amount, Some(date), "멜론")).await;
    }
    let within = vec![
        charge("넷플릭스", "신한카드", "구독", "17500", 5, 3),
        charge("멜론", "카카오뱅크", "구독", "10000", 7, 3),
    ];
    assert_eq!(detected(&l, &me).await, within);

    // 16 days on: 2026-03-31. 왓챠 on the last day of each month.
    clock.advance_seconds(16 * 24 * 3600);
    for on in ["2026-01-31", "2026-02-23", "2026-03-31"] {
        record(&l, &me, tx("신한카드", "구독", "7900", Some(on), "왓챠")).await;
    }
    let watcha = charge("왓챠", "신한카드", "구독", "7900", 31, 3);
    assert_eq!(detected(&l, &me).await, [within, vec![watcha]].concat());
}

/// A charge that stopped is not listed: 디즈니 from 2025-11 through 2026-01 (its
/// latest month two before March). A voided entry does not count: 넷플릭스 with its
/// February voided is one month; recorded again on 02-08 (3 days from the 5th) it is
/// three. A refund is no charge. Today moving to 2026-04-15 keeps 넷플릭스 (March is
/// the month before); at 2026-05-15 it is gone.
pub async fn detected_leaves_out_stopped_charges_and_voided_entries<S: Store>(store: S) {
    let (l, clock) = ledger_over(Arc::new(store));
    let me = fresh_person("detected-stopped");
    subscriptions(&l, &me).await;
    let disney = [
        ("2025-11-05", "디즈니"),
        ("2025-12-05", "디즈니"),
        ("2026-01-05", "디즈니"),
    ];
    charges(&l, &me, ("신한카드", "구독", "9900"), &disney).await;
    let netflix = tx("신한카드", "구독", "17000", None, "넷플릭스");
    let mut ids = Vec::new();
    for (on, memo) in [
        ("2026-01-05", "넷플릭스 1월"),
        ("2026-02-05", "넷플릭스 2월"),
        ("2026-03-05", "넷플릭스 3월"),
    ] {
        let t = NewTransaction {
            date: Some(date(on)),
            memo: Some(memo.into()),
            idempotency_key: key(),
            ..netflix.clone()
        };
        ids.push(record(&l, &me, t).await.transaction.transaction_id);
    }
    let listed = vec![charge("넷플릭스 3월", "신한카드", "구독", "17000", 5, 3)];
    assert_eq!(detected(&l, &me).await, listed);

    call!(l.void_transaction(&me, None, ids[1], None)).expect("void");
    assert_eq!(detected(&l, &me).await, vec![]);
    record(
        &l,
        &me,
        tx("신한카드", "구독", "17000", Some("2026-02-08"), "넷플릭스 2월"),
    )
    .await;
    assert_eq!(detected(&l, &me).await, listed);
    // A refund (money back from the category) is no charge and not the latest entry.
    record(
        &l,
        &me,
        tx("구독", "신한카드", "17000", Some("2026-03-10"), "넷플릭스 환불"),
    )
    .await;
    assert_eq!(detected(&l, &me).await, listed);

    // 31 days on: 2026-04-15.
    clock.advance_seconds(31 * 24 * 3600);
    assert_eq!(detected(&l, &me).await, listed);
    // 30 more: 2026-05-15.
    clock.advance_seconds(30 * 24 * 3600);
    assert_eq!(detected(&l, &me).await, vec![]);
}

#[doc(hidden)]
#[macro_export]
macro_rules! __ledger_suite_detected {
    ($factory:expr) => {
        $crate::__ledger_contract_tests!(
            $factory;
            detected_after_three_months_in_a_row_not_two,
            detected_unless_a_schedule_pays_the_same_accounts,
            detected_runs_break_on_irregular_amounts_or_days,
            detected_leaves_out_stopped_charges_and_voided_entries,
        );
    };
}
