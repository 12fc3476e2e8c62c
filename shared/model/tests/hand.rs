//! Histories written by hand for what random histories seldom reach (decision 054), run
//! as a random one runs (`dochiya_model::runner::replay`): every answer and every read
//! after each step compared with the model. Issue 54: a goal changed days after it was
//! set, on its `by` and past it; words learned, corrected by an edit and by its undo,
//! cleared; a card's 실적 with a split paid partly in cash, a 할부 and a refund.
//!
//! Accounts by index (`generate::starting_household`): a0 카카오뱅크 (3,000,000), a1
//! 기초잔액, a2 현금, a3 신한카드 (owing 200,000), a4 삼성카드, a5 월급, a6 식비, a7 외식
//! (under 식비), a8 교통비, a9 육아, a10 생활; t0 and t1 the two opening balances.

use dochiya_model::book::{Billing, Setup};
use dochiya_model::generate::starting_household;
use dochiya_model::machine::OnMemory;
use dochiya_model::runner::replay;
use dochiya_model::step::{AccountChange, DateArg, EditSpec, EntrySpec, PerformanceArg, Step, Tick};

/// 2026-01-01 09:00 in Seoul.
const START: i64 = 1_767_225_600;
const DAY: i64 = 86_400;
const CARD: Billing = Billing {
    closing: 31,
    payment: 14,
};

fn seoul() -> Setup {
    starting_household(true, START, Some(CARD), None)
}

fn entry(from: Vec<(usize, i64)>, to: Vec<(usize, i64)>, days: i64, memo: &str) -> EntrySpec {
    EntrySpec {
        split: from.len() > 1 || to.len() > 1,
        from,
        to,
        date: DateArg::Offset(days),
        memo: memo.to_owned(),
        tags: Vec::new(),
        installments: None,
        external_ref: None,
        for_whom: None,
        pick: false,
    }
}

fn record(entry: EntrySpec) -> Step {
    Step::Record {
        who: 0,
        entry,
        allow_duplicate: false,
        dry_run: false,
        reuse_key: None,
    }
}

/// `from` pays `x` on `memo` with `to` left out: the memo's words choose.
fn by_words(from: usize, x: i64, memo: &str) -> EntrySpec {
    let mut e = entry(vec![(from, x)], Vec::new(), 0, memo);
    e.pick = true;
    e
}

fn goal(name: &str, account: usize, target: i64, by: Option<i64>) -> Step {
    Step::SetGoal {
        who: 0,
        name: name.to_owned(),
        account,
        target: Some(target),
        by,
        remove: false,
    }
}

fn update(account: usize, change: AccountChange) -> Step {
    Step::UpdateAccount {
        who: 0,
        account,
        change,
    }
}

fn words(account: usize, words: &[&str]) -> Step {
    update(
        account,
        AccountChange::Match(words.iter().map(|w| (*w).to_owned()).collect()),
    )
}

fn days(n: i64) -> Step {
    Step::Clock(Tick::Seconds(n * DAY))
}

#[test]
fn a_goal_keeps_its_first_day_and_its_line_stops_at_the_target() {
    replay::<OnMemory>(
        "a_goal_keeps_its_first_day_and_its_line_stops_at_the_target",
        seoul(),
        vec![
            // 3,000,000 of 4,000,000 with 60 days to go: ahead of the line.
            goal("여행 자금", 0, 4_000_000, Some(60)),
            // Refused: the name another account's goal has, another name on a0, a by
            // past, a target of 0, an account that is no asset, removing a goal a2 does
            // not keep.
            goal("여행 자금", 2, 100_000, None),
            goal("비상금", 0, 100_000, None),
            goal("여행 자금", 0, 4_000_000, Some(-1)),
            goal("여행 자금", 0, 0, None),
            goal("비상금", 3, 100_000, None),
            Step::SetGoal {
                who: 0,
                name: "여행 자금".to_owned(),
                account: 2,
                target: None,
                by: None,
                remove: true,
            },
            days(30),
            // Changed 30 days on, by in 5 days: the line runs from the first day (35
            // days, 30 gone: 5,000,000 × 30 > 3,000,000 × 35), so behind.
            goal("여행 자금", 0, 5_000_000, Some(5)),
            // The same again writes nothing (created: false).
            goal("여행 자금", 0, 5_000_000, Some(5)),
            // Past its by: the whole target is due (2,000,000 left, all this month).
            days(10),
            // A goal set on its by: on track only once it is reached (현금 holds 0).
            goal("비상금", 2, 100_000, Some(0)),
            record(entry(vec![(0, 100_000)], vec![(2, 100_000)], 0, "비상금 이체")),
            // Sent again now, its by has passed: refused. Without by it has no date;
            // then it stops.
            goal("여행 자금", 0, 5_000_000, Some(-5)),
            goal("여행 자금", 0, 2_000_000, None),
            Step::SetGoal {
                who: 0,
                name: "여행 자금".to_owned(),
                account: 0,
                target: None,
                by: None,
                remove: true,
            },
        ],
    );
}

#[test]
fn words_are_learned_corrected_taken_back_and_cleared() {
    replay::<OnMemory>(
        "words_are_learned_corrected_taken_back_and_cleared",
        seoul(),
        vec![
            // Nothing learned yet: refused.
            record(by_words(0, 2_000, "편의점 라면")),
            // Two entries with 편의점 to 식비 teach it (t2, t3).
            record(entry(vec![(0, 5_000)], vec![(6, 5_000)], 0, "편의점 간식")),
            record(entry(vec![(0, 3_000)], vec![(6, 3_000)], -1, "편의점! 음료")),
            record(by_words(0, 2_000, "편의점 라면")), // t4, learned: 식비
            // A set word inside a word, in another case; set words win over learned ones.
            words(8, &["택시", "uber"]),
            record(by_words(3, 12_000, "카카오택시 출근")), // t5
            record(by_words(3, 15_000, "출근 UBER")),       // t6, 교통비 by uber
            // A word another category has is refused; so are 11 words and a long one.
            words(9, &["택시"]),
            words(
                9,
                &["a1", "a2", "a3", "a4", "a5", "a6", "a7", "a8", "a9", "a10", "a11"],
            ),
            words(
                9,
                &["가나다라마바사아자차카타파하가나다라마바사아자차카타파하가나다"],
            ),
            words(0, &["월급"]),
            // An edit moving an entry with 편의점 to 생활 corrects it at once; its undo
            // moves it back, and the word with it.
            Step::Edit {
                who: 0,
                entry: 4,
                edit: EditSpec {
                    to: Some(10),
                    ..EditSpec::default()
                },
                expected_version: None,
                dry_run: false,
            },
            record(by_words(0, 1_000, "편의점 커피")), // t7, 생활
            // op5: the edit (op0 to op4 recorded t2 to t6; opening balances have none).
            Step::Undo {
                who: 0,
                operation: Some(5),
                dry_run: false,
            },
            record(by_words(0, 1_100, "편의점 커피")), // t8, 식비 again
            // A void takes its count away; two categories' set words are refused.
            Step::Void { who: 0, entry: 8 },
            words(6, &["스타벅스"]),
            record(by_words(0, 6_000, "스타벅스 택시")),
            // A statement: lines left to the words, one categorized, one refused.
            Step::Batch {
                who: 0,
                lines: vec![
                    by_words(3, 4_500, "스타벅스 라떼"),
                    by_words(3, 4_600, "다이소 생활용품"),
                ],
                allow_duplicate: false,
                dry_run: true,
            },
            Step::Batch {
                who: 0,
                lines: vec![
                    by_words(3, 4_500, "스타벅스 라떼"),
                    by_words(3, 4_600, "다이소 생활용품"),
                ],
                allow_duplicate: false,
                dry_run: false,
            },
            // Lines of one statement do not teach each other: each line's category is
            // chosen before any is recorded, as its dry run shows them.
            Step::Batch {
                who: 0,
                lines: vec![
                    entry(vec![(0, 30_000)], vec![(9, 30_000)], 0, "쿠팡 기저귀"),
                    entry(vec![(0, 12_000)], vec![(9, 12_000)], 0, "쿠팡 물티슈"),
                    by_words(0, 8_000, "쿠팡 분유"),
                ],
                allow_duplicate: false,
                dry_run: false,
            },
            record(by_words(0, 8_000, "쿠팡 분유")),
            // [] clears 식비's set words and what it learned (its three 편의점 entries
            // count no more; 생활's one, t7, is voided first): 편의점 is refused again.
            Step::Void { who: 0, entry: 7 },
            words(6, &[]),
            record(by_words(0, 2_500, "편의점 라면")),
        ],
    );
}

#[test]
fn a_cards_performance_counts_its_part_of_each_purchase() {
    let perf = |threshold: i64, exclude: Vec<usize>| PerformanceArg { threshold, exclude };
    let mut installment = entry(vec![(3, 300_000)], vec![(6, 300_000)], -4, "TV");
    installment.installments = Some(3);
    replay::<OnMemory>(
        "a_cards_performance_counts_its_part_of_each_purchase",
        seoul(),
        vec![
            // Refused: no cycle, a threshold of 0, an excluded account that spends nothing.
            update(3, AccountChange::Performance(None, perf(300_000, vec![]))),
            update(3, AccountChange::Performance(Some(CARD), perf(0, vec![]))),
            update(3, AccountChange::Performance(Some(CARD), perf(300_000, vec![0]))),
            update(3, AccountChange::Performance(Some(CARD), perf(300_000, vec![10]))),
            // December (paid January 14): 관리비 in 생활 paid partly in cash, all of it
            // excluded but only the card's part counts there; a 할부 in full; a refund.
            record(entry(
                vec![(3, 60_000), (2, 30_000)],
                vec![(10, 80_000), (6, 10_000)],
                -5,
                "관리비 장보기",
            )),
            record(installment),
            record(entry(vec![(6, 20_000)], vec![(3, 20_000)], -3, "환불")),
            // Payments and cash taken off the card never count.
            record(entry(vec![(0, 50_000)], vec![(3, 50_000)], -2, "카드대금")),
            record(entry(vec![(3, 10_000)], vec![(2, 10_000)], -2, "현금서비스")),
            // The cycle again keeps the setting; the same setting is no change; {} clears.
            update(3, AccountChange::Billing(Some(CARD))),
            update(3, AccountChange::Performance(Some(CARD), perf(300_000, vec![10]))),
            update(3, AccountChange::Billing(None)),
            update(3, AccountChange::Billing(Some(CARD))),
        ],
    );
}
