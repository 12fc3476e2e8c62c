//! Random household histories: the set-up, and each next step drawn from what the book
//! holds now (its members, accounts, entries, operations, earlier writes), weighted
//! toward what households do most and toward where features meet.

use proptest::prelude::*;
use proptest::sample::select;
use proptest::strategy::{BoxedStrategy, Union};

use crate::book::setup::Starting;
use crate::book::{Billing, Book, Kind, Setup};
use crate::calendar;
use crate::money::Currency;
use crate::step::{
    AccountChange, DateArg, EditSpec, EntrySpec, For, Owner, PerformanceArg, RecurringAction, RecurringSpec,
    ShareArg, Step, Tick,
};

/// Cards' cycles households have (docs/tools.md, "Card bills"), and one odd one.
const CYCLES: [(u8, u8); 4] = [(31, 14), (18, 1), (11, 24), (30, 5)];

/// The household at the start: currency and zone, who keeps the vault, the accounts.
pub fn setup() -> BoxedStrategy<Setup> {
    let korean = prop::bool::weighted(0.8);
    let start = 1_767_225_600_i64..1_798_761_600_i64; // 2026-01-01 .. 2027-01-01 UTC
    (
        korean,
        start,
        1_usize..=3,
        any::<bool>(),
        prop::option::weighted(0.8, select(CYCLES.to_vec())),
        prop::option::weighted(0.5, select(CYCLES.to_vec())),
        // Whose the accounts are (by starting index and person): a bank, cash and a card
        // each, a salary, a category of one's own.
        prop_oneof![
            1 => Just(Vec::new()),
            2 => prop::sample::subsequence(vec![(0, 0), (1, 1), (2, 0), (3, 1), (4, 0), (7, 1), (8, 2)], 1..=4),
        ],
    )
        .prop_map(|(korean, start, members, second_owner, card1, card2, owners)| {
            let bill = |c: Option<(u8, u8)>| c.map(|(closing, payment)| Billing { closing, payment });
            let mut setup = starting_household(korean, start, bill(card1), bill(card2));
            setup.members = members;
            setup.second_owner = second_owner;
            setup.owners = owners;
            setup
        })
        .boxed()
}

/// The household every history starts from: KRW in Asia/Seoul (else USD in New York),
/// the clock at `start`, person 0 alone; a bank (3,000,000 at the start), cash, two cards
/// with these cycles (the first owing 200,000), a salary and five categories, 외식 under
/// 식비.
pub fn starting_household(korean: bool, start: i64, card1: Option<Billing>, card2: Option<Billing>) -> Setup {
    let (currency, zone, vault) = if korean {
        (Currency::KRW, "Asia/Seoul", "우리집")
    } else {
        (Currency::USD, "America/New_York", "Home")
    };
    let names = names(korean);
    let acct = |i: usize, kind, opening: Option<i64>, parent, billing| Starting {
        name: names[i],
        kind,
        opening,
        parent,
        billing,
    };
    Setup {
        currency,
        zone,
        vault,
        start,
        people: vec![("p0-haeun", "하은"), ("p1-jihun", "지훈"), ("p2-minseo", "민서")],
        members: 1,
        second_owner: false,
        accounts: vec![
            acct(0, Kind::Asset, Some(3_000_000), None, None),
            acct(1, Kind::Asset, None, None, None),
            acct(2, Kind::Liability, Some(200_000), None, card1),
            acct(3, Kind::Liability, None, None, card2),
            acct(4, Kind::Income, None, None, None),
            acct(5, Kind::Expense, None, None, None),
            acct(6, Kind::Expense, None, Some(5), None),
            acct(7, Kind::Expense, None, None, None),
            acct(8, Kind::Expense, None, None, None),
            acct(9, Kind::Expense, None, None, None),
        ],
        owners: Vec::new(),
    }
}

/// The starting accounts' names, then more for new accounts and renames.
fn names(korean: bool) -> Vec<&'static str> {
    if korean {
        vec![
            "카카오뱅크",
            "현금",
            "신한카드",
            "삼성카드",
            "월급",
            "식비",
            "외식",
            "교통비",
            "육아",
            "생활",
            "의료비",
            "통신비",
            "간식",
            "보험",
            "이자",
        ]
    } else {
        vec![
            "Checking",
            "Cash",
            "Visa",
            "Amex",
            "Salary",
            "Food",
            "Dining",
            "Transport",
            "Kids",
            "Home",
            "Health",
            "Phone",
            "Snacks",
            "Insurance",
            "Interest",
        ]
    }
}

/// An amount as households spend it.
fn amount(book: &Book) -> BoxedStrategy<i64> {
    if book.currency().decimals == 0 {
        (1_i64..3000).prop_map(|x| x * 100).boxed()
    } else {
        (100_i64..300_000).boxed()
    }
}

/// A date: mostly recent, sometimes left out, sometimes ahead (scheduled).
fn date() -> BoxedStrategy<DateArg> {
    prop_oneof![
        3 => Just(DateArg::Omit),
        6 => (-10_i64..=0).prop_map(DateArg::Offset),
        3 => (-45_i64..=-10).prop_map(DateArg::Offset),
        1 => (1_i64..=20).prop_map(DateArg::Offset),
    ]
    .boxed()
}

fn memo() -> BoxedStrategy<String> {
    select(vec![
        "점심",
        "마트 장보기",
        "커피",
        "택시",
        "병원",
        "coffee",
        "groceries",
        "",
    ])
    .prop_map(str::to_owned)
    .boxed()
}

fn tags() -> BoxedStrategy<Vec<String>> {
    prop_oneof![
        4 => Just(Vec::new()),
        2 => select(vec!["여행", "#명절", "아이"]).prop_map(|t| vec![t.to_owned()]),
        1 => Just(vec!["여행".to_owned(), "아이".to_owned()]),
    ]
    .boxed()
}

/// Accounts of these kinds (archived ones too, now and then: they must be refused).
fn of_kind(book: &Book, kinds: &[Kind], archived: bool) -> Vec<usize> {
    (0..book.accounts.len())
        .filter(|&a| {
            kinds.contains(&book.accounts[a].kind) && (archived || book.accounts[a].handle.is_none())
        })
        .filter(|&a| Some(a) != book.equity)
        .collect()
}

/// Who acts: a member mostly, anyone now and then.
fn who(book: &Book) -> BoxedStrategy<usize> {
    let members: Vec<usize> = (0..book.people.len()).filter(|&p| book.is_member(p)).collect();
    prop_oneof![9 => select(members), 1 => 0..book.people.len()].boxed()
}

/// Each next step, weighted.
pub fn step(book: &Book) -> BoxedStrategy<Step> {
    let mut arms: Vec<(u32, BoxedStrategy<Step>)> = vec![(10, clock(book)), (24, record(book))];
    let mut add = |w: u32, s: Option<BoxedStrategy<Step>>| {
        if let Some(s) = s {
            arms.push((w, s));
        }
    };
    add(6, split(book));
    add(3, installment(book));
    add(4, repeat_entry(book));
    add(5, card_payment(book));
    add(7, statement(book));
    add(8, edit(book));
    add(5, void(book));
    add(6, undo(book));
    add(6, retry(book));
    add(2, create_account(book));
    add(4, update_account(book));
    add(4, budget(book));
    add(4, recurring(book));
    add(3, sharing(book));
    add(4, household(book));
    // Issue 54: entries left to the memo's words, habits that teach them, words set,
    // savings goals, a card's 실적.
    let knows_words = book.accounts.iter().any(|a| !a.words.is_empty()) || !book.learned_words().is_empty();
    add(if knows_words { 5 } else { 1 }, by_words(book));
    add(4, habit(book));
    add(4, words(book));
    let keeps_goal = book.accounts.iter().any(|a| a.goal.is_some());
    add(if keeps_goal { 4 } else { 2 }, goal(book));
    add(2, performance(book));
    Union::new_weighted(arms).boxed()
}

/// Words categories are set (`match`): some overlap (a word another category has is
/// refused), some hold others (`스벅` in `점심 스벅`, `택시` in `카카오택시`).
const SET_WORDS: [&str; 7] = ["스타벅스", "스벅", "이마트", "택시", "커피", "starbucks", "uber"];

/// Memos of entries sent without `to`: set words in other cases and places, first words
/// that habits teach, first words nothing teaches, one of a single letter, none.
const PICK_MEMOS: [&str; 17] = [
    "스타벅스 라떼",
    "STARBUCKS latte",
    "점심 스벅",
    "이마트 장보기",
    "카카오택시",
    "Uber ride",
    "coffee beans",
    "Coffee",
    "편의점 간식",
    "다이소 생활용품",
    "배민 저녁",
    "쿠팡 주문",
    "점심",
    "커피",
    "a cup",
    "7eleven 간식",
    "",
];

/// Memos a household writes the same way each time, to the same category mostly.
const HABIT_MEMOS: [&str; 7] = [
    "편의점 간식",
    "다이소 생활용품",
    "배민 저녁",
    "쿠팡 주문",
    "Uber ride",
    "coffee beans",
    "7eleven 간식",
];

/// A memo for an entry sent without `to`: one holding a word the book's categories are
/// set (in another case, inside a word), one starting with a word the book learned, or
/// one of the fixed memos.
fn pick_memo(book: &Book) -> BoxedStrategy<String> {
    let set: Vec<String> = book
        .accounts
        .iter()
        .filter(|a| a.handle.is_none())
        .flat_map(|a| a.words.iter().cloned())
        .collect();
    let learned: Vec<String> = book.learned_words().into_keys().collect();
    let pool = select(PICK_MEMOS.to_vec()).prop_map(str::to_owned).boxed();
    let mut arms: Vec<(u32, BoxedStrategy<String>)> = vec![(2, pool)];
    // Two categories' words in one memo (refused).
    let pairs: Vec<String> = book
        .accounts
        .iter()
        .enumerate()
        .filter(|(_, a)| a.handle.is_none())
        .flat_map(|(i, a)| {
            let others: Vec<&String> = book
                .accounts
                .iter()
                .enumerate()
                .filter(|(j, b)| *j > i && b.handle.is_none())
                .flat_map(|(_, b)| b.words.iter())
                .collect();
            a.words
                .iter()
                .flat_map(move |w| others.clone().into_iter().map(move |v| format!("{w} {v}")))
        })
        .collect();
    if !pairs.is_empty() {
        arms.push((2, select(pairs).boxed()));
    }
    if !set.is_empty() {
        let holding = (select(set), 0_u8..3).prop_map(|(w, how)| match how {
            0 => format!("{w} 결제"),
            1 => format!("점심 {}", w.to_uppercase()),
            _ => format!("카카오{w}"),
        });
        arms.push((3, holding.boxed()));
    }
    if !learned.is_empty() {
        let first = (select(learned), any::<bool>())
            .prop_map(|(w, upper)| format!("{} 또", if upper { w.to_uppercase() } else { w }));
        arms.push((3, first.boxed()));
    }
    Union::new_weighted(arms).boxed()
}

/// An entry sent without `to`: the memo's words choose its category (or it is refused).
fn by_words(book: &Book) -> Option<BoxedStrategy<Step>> {
    let paying = of_kind(book, &[Kind::Asset, Kind::Liability], false);
    if paying.is_empty() {
        return None;
    }
    Some(
        (
            who(book),
            select(paying),
            amount(book),
            date(),
            pick_memo(book),
            prop::bool::weighted(0.1),
        )
            .prop_map(|(who, from, x, date, memo, dry)| {
                let mut entry = simple(from, from, x, date, memo, Vec::new());
                entry.to.clear();
                entry.pick = true;
                record_step(who, entry, false, dry)
            })
            .boxed(),
    )
}

/// An entry with `to`, from a memo the household writes the same way: mostly to the
/// category that memo's first word goes to, so two of them teach it.
fn habit(book: &Book) -> Option<BoxedStrategy<Step>> {
    let paying = of_kind(book, &[Kind::Asset, Kind::Liability], false);
    let spending = of_kind(book, &[Kind::Expense], false);
    if paying.is_empty() || spending.is_empty() {
        return None;
    }
    let usual = spending.clone();
    Some(
        (
            who(book),
            select(paying),
            prop::option::weighted(0.15, select(spending)),
            amount(book),
            date(),
            select(HABIT_MEMOS.to_vec()),
        )
            .prop_map(move |(who, from, other, x, date, memo)| {
                let word = memo.split_whitespace().next().unwrap_or_default();
                let usual = usual[word.bytes().map(usize::from).sum::<usize>() % usual.len()];
                let entry = simple(from, other.unwrap_or(usual), x, date, memo.to_owned(), Vec::new());
                record_step(who, entry, false, false)
            })
            .boxed(),
    )
}

/// `match` on a category: set words, `[]` (clears what was learned too), and refusals
/// (another kind of account, 11 words, a word of 31 characters, a word another has).
fn words(book: &Book) -> Option<BoxedStrategy<Step>> {
    let expense = of_kind(book, &[Kind::Expense], false);
    let all: Vec<usize> = (0..book.accounts.len()).collect();
    if expense.is_empty() {
        return None;
    }
    // Words no category has yet mostly (so two categories come to have words), any of
    // them now and then (another's: refused).
    let taken: Vec<String> = book
        .accounts
        .iter()
        .flat_map(|a| a.words.iter().cloned())
        .collect();
    let free: Vec<&str> = SET_WORDS
        .into_iter()
        .filter(|w| !taken.iter().any(|t| t == w))
        .collect();
    let any_words = prop::sample::subsequence(SET_WORDS.to_vec(), 1..=3)
        .prop_map(|w| w.into_iter().map(str::to_owned).collect::<Vec<_>>())
        .boxed();
    let some_words = if free.is_empty() {
        any_words.clone()
    } else {
        let most = free.len().min(2);
        prop::sample::subsequence(free, 1..=most)
            .prop_map(|w| w.into_iter().map(str::to_owned).collect::<Vec<_>>())
            .boxed()
    };
    let words = prop_oneof![
        6 => some_words,
        2 => any_words,
        3 => Just(Vec::new()),
        1 => Just((1..=11).map(|i| format!("단어{i}")).collect()),
        1 => Just(vec!["가".repeat(31)]),
    ];
    // Categories without words first.
    let bare: Vec<usize> = expense
        .iter()
        .copied()
        .filter(|&a| book.accounts[a].words.is_empty())
        .collect();
    let bare = if bare.is_empty() { expense.clone() } else { bare };
    let account = prop_oneof![5 => select(bare), 4 => select(expense), 1 => select(all)];
    Some(
        (who(book), account, words)
            .prop_map(|(who, account, w)| Step::UpdateAccount {
                who,
                account,
                change: AccountChange::Match(w),
            })
            .boxed(),
    )
}

/// `set_goal`: new goals (refusals too: another kind of account, no target or 0, a
/// `by` past), and the goals the book keeps changed or removed.
fn goal(book: &Book) -> Option<BoxedStrategy<Step>> {
    let assets = of_kind(book, &[Kind::Asset], false);
    let all: Vec<usize> = (0..book.accounts.len()).collect();
    if assets.is_empty() {
        return None;
    }
    let names = if book.setup.korean() {
        vec!["여행 자금", "비상금", "전세 자금"]
    } else {
        vec!["Trip", "Rainy day", "House"]
    };
    // A target: none or 0 (refused), an amount, or about what the account holds now
    // (half, as much, half as much again: reached, just, not yet).
    let today = book.today();
    let held: Vec<i64> = (0..book.accounts.len())
        .map(|a| book.balance(a, today).0)
        .collect();
    let target = prop_oneof![
        1 => Just(None),
        1 => Just(Some(0)),
        7 => amount(book).prop_map(|x| Some(x * 20)),
        7 => select(vec![1_i64, 2, 3]).prop_map(|k| Some(-k)),
    ];
    let target_of = {
        let held = held.clone();
        move |account: usize, t: Option<i64>| match t {
            Some(k) if k < 0 => Some((held[account] * -k / 2).max(100)),
            t => t,
        }
    };
    // Past (refused), today, soon (the clock passes it), later.
    let by = prop::option::weighted(
        0.7,
        prop_oneof![2 => -5_i64..=-1, 2 => Just(0_i64), 2 => 1_i64..=3, 3 => 4_i64..=40, 4 => 41_i64..=400],
    );
    let target_again = target_of.clone();
    // Mostly an asset that holds money (a goal on an overdrawn account says little).
    let holding: Vec<usize> = assets.iter().copied().filter(|&a| held[a] > 0).collect();
    let holding = if holding.is_empty() {
        assets.clone()
    } else {
        holding
    };
    let fresh = (
        who(book),
        select(names),
        prop_oneof![6 => select(holding), 2 => select(assets), 1 => select(all)],
        target.clone(),
        by,
        prop::bool::weighted(0.1),
    )
        .prop_map(move |(who, name, account, target, by, remove)| Step::SetGoal {
            who,
            name: name.to_owned(),
            account,
            target: target_of(account, target),
            by,
            remove,
        });
    let kept: Vec<(usize, String)> = (0..book.accounts.len())
        .filter_map(|a| Some((a, book.accounts[a].goal.as_ref()?.name.clone())))
        .collect();
    if kept.is_empty() {
        return Some(fresh.boxed());
    }
    // A goal changed soon before its (new) `by`: where its first day, kept, tells.
    let by_again = prop::option::weighted(
        0.8,
        prop_oneof![1 => Just(0_i64), 4 => 1_i64..=10, 2 => 11_i64..=60, 1 => 61_i64..=400],
    );
    let again = (
        who(book),
        select(kept),
        target.prop_filter("a target", |t| t.is_some_and(|t| t != 0)),
        by_again,
        prop::bool::weighted(0.25),
    )
        .prop_map(move |(who, (account, name), target, by, remove)| Step::SetGoal {
            who,
            name,
            account,
            target: target_again(account, target).filter(|_| !remove),
            by: by.filter(|_| !remove),
            remove,
        });
    Some(prop_oneof![1 => fresh, 2 => again].boxed())
}

/// A card's 실적 with its cycle (refusals too: no cycle, a threshold of 0, an account
/// excluded that is no expense category).
fn performance(book: &Book) -> Option<BoxedStrategy<Step>> {
    let cards = of_kind(book, &[Kind::Liability], false);
    let expense = of_kind(book, &[Kind::Expense], false);
    let other: Vec<usize> = of_kind(book, &[Kind::Asset, Kind::Income], false);
    if cards.is_empty() || expense.is_empty() || other.is_empty() {
        return None;
    }
    let most = expense.len().min(2);
    let cycle = prop::option::weighted(0.92, select(CYCLES.to_vec()))
        .prop_map(|c| c.map(|(closing, payment)| Billing { closing, payment }));
    let threshold = prop_oneof![1 => Just(0_i64), 9 => amount(book).prop_map(|x| x * 10)];
    let exclude = (
        prop::sample::subsequence(expense, 0..=most),
        prop::option::weighted(0.1, select(other)),
    )
        .prop_map(|(mut e, o)| {
            e.extend(o);
            e
        });
    Some(
        (who(book), select(cards), cycle, threshold, exclude)
            .prop_map(|(who, account, b, threshold, exclude)| Step::UpdateAccount {
                who,
                account,
                change: AccountChange::Performance(b, PerformanceArg { threshold, exclude }),
            })
            .boxed(),
    )
}

fn clock(book: &Book) -> BoxedStrategy<Step> {
    let cards: Vec<usize> = (0..book.accounts.len())
        .filter(|&c| book.accounts[c].billing.is_some())
        .collect();
    let mut arms: Vec<(u32, BoxedStrategy<Tick>)> = vec![
        (4, (30_i64..900).prop_map(Tick::Seconds).boxed()),
        (2, (3600_i64..30_000).prop_map(Tick::Seconds).boxed()),
        (3, (1_i64..20).prop_map(|d| Tick::Seconds(d * 86_400)).boxed()),
        (3, (-30_i64..=600).prop_map(Tick::Midnight).boxed()),
        (2, (-30_i64..=3600).prop_map(Tick::MonthEnd).boxed()),
    ];
    if !cards.is_empty() {
        arms.push((
            2,
            (select(cards), -3600_i64..=7200)
                .prop_map(|(c, s)| Tick::DueDate(c, s))
                .boxed(),
        ));
    }
    Union::new_weighted(arms).prop_map(Step::Clock).boxed()
}

fn simple(from: usize, to: usize, x: i64, date: DateArg, memo: String, tags: Vec<String>) -> EntrySpec {
    EntrySpec {
        from: vec![(from, x)],
        to: vec![(to, x)],
        split: false,
        date,
        memo,
        tags,
        installments: None,
        external_ref: None,
        for_whom: None,
        pick: false,
    }
}

/// A person named in an argument: a member mostly, anyone now and then (refused unless
/// a member).
fn person(book: &Book) -> BoxedStrategy<usize> {
    let members: Vec<usize> = (0..book.people.len()).filter(|&p| book.is_member(p)).collect();
    prop_oneof![6 => select(members), 1 => 0..book.people.len()].boxed()
}

/// A `for`: a person (a member mostly; anyone: refused unless a member), everyone,
/// `""`, a stranger (refused).
fn for_whom(book: &Book) -> BoxedStrategy<For> {
    prop_oneof![
        5 => person(book).prop_map(For::Person),
        3 => Just(For::Shared),
        1 => Just(For::Clear),
        1 => Just(For::Stranger),
    ]
    .boxed()
}

fn record_step(who: usize, entry: EntrySpec, allow_duplicate: bool, dry_run: bool) -> Step {
    Step::Record {
        who,
        entry,
        allow_duplicate,
        dry_run,
        reuse_key: None,
    }
}

/// A simple entry: spending, income, a transfer or a refund.
fn record(book: &Book) -> BoxedStrategy<Step> {
    let paying = of_kind(book, &[Kind::Asset, Kind::Liability], true);
    let spending = of_kind(book, &[Kind::Expense], true);
    let income = of_kind(book, &[Kind::Income], false);
    let assets = of_kind(book, &[Kind::Asset], false);
    let mut flows: Vec<(u32, BoxedStrategy<(usize, usize)>)> = Vec::new();
    for (w, from, to) in [
        (8, &paying, &spending),
        (2, &income, &assets),
        (1, &assets, &assets),
        (1, &spending, &paying),
    ] {
        if !from.is_empty() && !to.is_empty() {
            flows.push((w, (select(from.clone()), select(to.clone())).boxed()));
        }
    }
    if flows.is_empty() {
        return clock(book);
    }
    (
        who(book),
        Union::new_weighted(flows),
        amount(book),
        date(),
        memo(),
        tags(),
        prop::bool::weighted(0.1),
        prop::bool::weighted(0.05),
        prop::option::weighted(0.15, for_whom(book)),
    )
        .prop_filter("two accounts", |(_, (f, t), ..)| f != t)
        .prop_map(|(who, (from, to), x, date, memo, tags, dup, dry, whose)| {
            let mut entry = simple(from, to, x, date, memo, tags);
            entry.for_whom = whose;
            record_step(who, entry, dup, dry)
        })
        .boxed()
}

/// A receipt over several categories, paid by card or bank (or partly by each).
fn split(book: &Book) -> Option<BoxedStrategy<Step>> {
    let paying = of_kind(book, &[Kind::Asset, Kind::Liability], false);
    let spending = of_kind(book, &[Kind::Expense], false);
    if paying.is_empty() || spending.len() < 2 {
        return None;
    }
    // At most as many lines as there are categories (proptest panics on more).
    let most = spending.len().min(3);
    let lines = prop::sample::subsequence(spending, 2..=most);
    Some(
        (
            who(book),
            select(paying.clone()),
            lines,
            prop::collection::vec(amount(book), 3),
            date(),
            memo(),
            tags(),
            prop::option::weighted(0.15, for_whom(book)),
            // A third of it paid from a second account now and then (part by card,
            // part in cash).
            prop::option::weighted(0.25, select(paying.clone())),
        )
            .prop_map(|(who, from, to, xs, date, memo, tags, whose, second)| {
                let to: Vec<(usize, i64)> = to.into_iter().zip(xs).collect();
                let total: i64 = to.iter().map(|l| l.1).sum();
                let from = match second.filter(|&s| s != from) {
                    Some(s) => vec![(from, total - total / 3), (s, total / 3)],
                    None => vec![(from, total)],
                };
                let entry = EntrySpec {
                    from,
                    to,
                    split: true,
                    date,
                    memo,
                    tags,
                    installments: None,
                    external_ref: None,
                    for_whom: whose,
                    pick: false,
                };
                record_step(who, entry, false, false)
            })
            .boxed(),
    )
}

/// A 할부 purchase on a card (or, now and then, on one that cannot take it).
fn installment(book: &Book) -> Option<BoxedStrategy<Step>> {
    let cards = of_kind(book, &[Kind::Liability], false);
    let spending = of_kind(book, &[Kind::Expense], false);
    if cards.is_empty() || spending.is_empty() {
        return None;
    }
    Some(
        (
            who(book),
            select(cards),
            select(spending),
            amount(book),
            2_u8..=12,
            date(),
            memo(),
        )
            .prop_map(|(who, card, to, x, n, date, memo)| {
                let mut entry = simple(card, to, x * 3, date, memo, Vec::new());
                entry.installments = Some(n);
                record_step(who, entry, false, false)
            })
            .boxed(),
    )
}

/// The same entry again under a new key: the duplicate guard's case.
fn repeat_entry(book: &Book) -> Option<BoxedStrategy<Step>> {
    let live: Vec<usize> = book.live().map(|(n, _)| n).collect();
    let recent: Vec<usize> = live.into_iter().rev().take(6).collect();
    if recent.is_empty() {
        return None;
    }
    let specs: Vec<EntrySpec> = recent
        .iter()
        .map(|&n| {
            let c = &book.entries[n].content;
            let date = if calendar::date_at(book.now, book.setup.zone) == c.date && n % 2 == 0 {
                DateArg::Omit
            } else {
                DateArg::At(c.date)
            };
            EntrySpec {
                from: c.from.clone(),
                to: c.to.clone(),
                split: !c.is_simple(),
                date,
                memo: format!("{} (again)", c.memo),
                tags: Vec::new(),
                installments: None,
                external_ref: None,
                for_whom: None,
                pick: false,
            }
        })
        .collect();
    Some(
        (who(book), select(specs), prop::bool::weighted(0.3))
            .prop_map(|(who, entry, dup)| record_step(who, entry, dup, false))
            .boxed(),
    )
}

/// Paying a card: the next bill in full, in part or more, on time, early or late.
fn card_payment(book: &Book) -> Option<BoxedStrategy<Step>> {
    let assets = of_kind(book, &[Kind::Asset], false);
    let bills: Vec<(usize, i64, jiff::civil::Date)> = (0..book.accounts.len())
        .filter_map(|c| {
            let b = book.accounts[c]
                .billing
                .filter(|_| book.accounts[c].handle.is_none())?;
            let m = b.next_bill(book.today());
            let view = book.card_bill_view(c, Some(m));
            Some((c, view["total"].as_i64().unwrap_or(0).max(100), b.due(m)))
        })
        .collect();
    if assets.is_empty() || bills.is_empty() {
        return None;
    }
    Some(
        (
            who(book),
            select(assets),
            select(bills),
            select(vec![1_i64, 1, 1, 2, 3]),
            -3_i64..=4,
        )
            .prop_map(|(who, bank, (card, total, due), share, late)| {
                let date = DateArg::At(calendar::add_days(due, late));
                let memo = "카드대금".to_owned();
                record_step(
                    who,
                    simple(bank, card, (total / share).max(1), date, memo, Vec::new()),
                    false,
                    false,
                )
            })
            .boxed(),
    )
}

/// A statement: fresh lines, lines already in the book (by reference, by data, a split
/// receipt's card side), and the same line twice.
fn statement(book: &Book) -> Option<BoxedStrategy<Step>> {
    let paying = of_kind(book, &[Kind::Liability, Kind::Asset], false);
    let spending = of_kind(book, &[Kind::Expense], false);
    if paying.is_empty() || spending.is_empty() {
        return None;
    }
    let mut known: Vec<EntrySpec> = Vec::new();
    for (_, e) in book.live().collect::<Vec<_>>().into_iter().rev().take(12) {
        let c = &e.content;
        let card = c.from.first().filter(|_| c.from.len() == 1).copied();
        if let Some((card, total)) = card.filter(|l| book.accounts[l.0].handle.is_none()) {
            // The same purchase a day apart or not, and (the third) under another category.
            for shift in [0, 1, 2] {
                let to = c.to.first().map_or(spending[0], |l| l.0);
                let to = if shift < 2 {
                    to
                } else {
                    spending.iter().copied().find(|&s| s != to).unwrap_or(to)
                };
                let shift = shift % 2;
                let mut line = simple(
                    card,
                    to,
                    total,
                    DateArg::At(calendar::add_days(c.date, shift)),
                    c.memo.clone(),
                    vec![],
                );
                line.external_ref = e.recorded_ref.clone();
                known.push(line);
            }
        }
        known.extend(part_lines(book, e));
    }
    let paying_lines = paying.clone();
    let fresh = (
        select(paying),
        select(spending),
        amount(book),
        -10_i64..=0,
        memo(),
        prop::option::weighted(0.5, 0_u32..1_000_000),
        prop::option::weighted(0.1, for_whom(book)),
    )
        .prop_map(|(from, to, x, d, memo, r, whose)| {
            let mut line = simple(from, to, x, DateArg::Offset(d), memo, Vec::new());
            line.external_ref = r.map(|r| format!("A{r:06}"));
            line.for_whom = whose;
            line
        })
        .boxed();
    let picked = (select(paying_lines), amount(book), -10_i64..=0, pick_memo(book))
        .prop_map(|(from, x, d, memo)| {
            let mut line = simple(from, from, x, DateArg::Offset(d), memo, Vec::new());
            line.to.clear();
            line.pick = true;
            line
        })
        .boxed();
    let line = if known.is_empty() {
        prop_oneof![5 => fresh, 1 => picked].boxed()
    } else {
        prop_oneof![5 => fresh, 1 => picked, 3 => select(known)].boxed()
    };
    Some(
        (
            who(book),
            prop::collection::vec(line, 1..=6),
            prop::bool::weighted(0.2),
            prop::bool::weighted(0.1),
            any::<bool>(),
        )
            .prop_map(|(who, mut lines, dry, dup, twice)| {
                if twice && let Some(l) = lines.first().cloned() {
                    lines.push(l);
                }
                Step::Batch {
                    who,
                    lines,
                    allow_duplicate: dup,
                    dry_run: dry,
                }
            })
            .boxed(),
    )
}

/// Lines a card statement lists for a 할부 purchase: a part named `할부 k/n` or
/// `k/n회차`, dated on the purchase, in its bill's period or around its due date (a
/// day past the window too, which must not match).
fn part_lines(book: &Book, e: &crate::book::Entry) -> Vec<EntrySpec> {
    let c = &e.content;
    let (Some(n), Some(&(card, amount))) = (e.installments, c.from.first()) else {
        return Vec::new();
    };
    let Some(b) = book.accounts[card]
        .billing
        .filter(|_| book.accounts[card].handle.is_none())
    else {
        return Vec::new();
    };
    let to = c.to.first().map_or(card, |l| l.0);
    let first = b.bill_of(c.date);
    (1..=n)
        .flat_map(|k| {
            let m = first + i32::from(k) - 1;
            let x = crate::book::part(amount, n, k);
            let memo = if k % 2 == 0 {
                format!("{} 할부 {k}/{n}", c.memo)
            } else {
                format!("{k}/{n}회차 {}", c.memo)
            };
            let due = b.due(m);
            [
                c.date,
                b.period(m).0,
                calendar::add_days(due, 1),
                calendar::add_days(due, 2),
            ]
            .map(|d| simple(card, to, x, DateArg::At(d), memo.clone(), vec![]))
        })
        .collect()
}

/// An edit of any entry: its amount, date (across months), memo, accounts, lines or tags.
fn edit(book: &Book) -> Option<BoxedStrategy<Step>> {
    if book.entries.is_empty() {
        return None;
    }
    let spending = of_kind(book, &[Kind::Expense], false);
    let paying = of_kind(book, &[Kind::Asset, Kind::Liability], false);
    // A book can be down to one live category, or none (the rest archived): an arm that
    // would pick from an empty list, or two from one, is left out (proptest panics on
    // either while generating, before any case runs).
    let mut arms: Vec<(u32, BoxedStrategy<EditSpec>)> = vec![
        (
            3,
            amount(book)
                .prop_map(|x| EditSpec {
                    amount: Some(x),
                    ..EditSpec::default()
                })
                .boxed(),
        ),
        (
            3,
            (-40_i64..=3)
                .prop_map(|d| EditSpec {
                    date: Some(d),
                    ..EditSpec::default()
                })
                .boxed(),
        ),
        (
            1,
            memo()
                .prop_map(|m| EditSpec {
                    memo: Some(m),
                    ..EditSpec::default()
                })
                .boxed(),
        ),
        (
            1,
            tags()
                .prop_map(|t| EditSpec {
                    tags: Some(t),
                    ..EditSpec::default()
                })
                .boxed(),
        ),
        (
            2,
            for_whom(book)
                .prop_map(|f| EditSpec {
                    for_whom: Some(f),
                    ..EditSpec::default()
                })
                .boxed(),
        ),
    ];
    if !spending.is_empty() {
        arms.push((
            2,
            select(spending.clone())
                .prop_map(|a| EditSpec {
                    to: Some(a),
                    ..EditSpec::default()
                })
                .boxed(),
        ));
    }
    if !paying.is_empty() {
        arms.push((
            1,
            select(paying.clone())
                .prop_map(|a| EditSpec {
                    from: Some(a),
                    ..EditSpec::default()
                })
                .boxed(),
        ));
    }
    if !paying.is_empty() && !spending.is_empty() {
        let most = spending.len().min(2);
        arms.push((
            1,
            (
                select(paying),
                prop::sample::subsequence(spending, 1..=most),
                amount(book),
            )
                .prop_map(|(f, to, x)| {
                    let to: Vec<(usize, i64)> = to.into_iter().map(|a| (a, x)).collect();
                    let total = to.iter().map(|l| l.1).sum();
                    EditSpec {
                        lines: Some((vec![(f, total)], to)),
                        ..EditSpec::default()
                    }
                })
                .boxed(),
        ));
    }
    let kinds = Union::new_weighted(arms);
    let entries = book.entries.len();
    let recent = entries.saturating_sub(8)..entries;
    Some(
        (
            who(book),
            prop_oneof![3 => recent, 1 => 0..entries],
            kinds,
            prop::option::weighted(0.15, -1_i8..=0),
            prop::bool::weighted(0.1),
        )
            .prop_map(|(who, entry, edit, expected_version, dry_run)| Step::Edit {
                who,
                entry,
                edit,
                expected_version,
                dry_run,
            })
            .boxed(),
    )
}

fn void(book: &Book) -> Option<BoxedStrategy<Step>> {
    let n = book.entries.len();
    (n > 0).then(|| {
        (who(book), prop_oneof![3 => n.saturating_sub(6)..n, 1 => 0..n])
            .prop_map(|(who, entry)| Step::Void { who, entry })
            .boxed()
    })
}

fn undo(book: &Book) -> Option<BoxedStrategy<Step>> {
    let n = book.operations.len();
    (n > 0).then(|| {
        let op = prop_oneof![2 => Just(None), 3 => (n.saturating_sub(5)..n).prop_map(Some), 1 => (0..n).prop_map(Some)];
        (who(book), op, prop::bool::weighted(0.15))
            .prop_map(|(who, operation, dry_run)| Step::Undo { who, operation, dry_run })
            .boxed()
    })
}

fn retry(book: &Book) -> Option<BoxedStrategy<Step>> {
    let n = book.writes.len();
    (n > 0).then(|| {
        prop_oneof![3 => n.saturating_sub(4)..n, 1 => 0..n]
            .prop_map(|write| Step::Retry { write })
            .boxed()
    })
}

fn create_account(book: &Book) -> Option<BoxedStrategy<Step>> {
    let names = names(book.setup.korean());
    let tops = of_kind(book, &[Kind::Expense], false)
        .into_iter()
        .filter(|&a| book.accounts[a].parent.is_none())
        .collect::<Vec<_>>();
    let kinds = select(vec![
        Kind::Expense,
        Kind::Expense,
        Kind::Asset,
        Kind::Liability,
        Kind::Income,
    ]);
    Some(
        (
            who(book),
            select(names),
            kinds,
            prop::option::weighted(0.3, (amount(book), -20_i64..=3)),
            prop::option::weighted(0.3, select(tops)),
            prop::option::weighted(0.5, select(CYCLES.to_vec())),
            prop::option::weighted(0.3, owner(book)),
        )
            .prop_map(|(who, name, kind, opening, parent, cycle, owner)| {
                let opening = opening.filter(|_| matches!(kind, Kind::Asset | Kind::Liability));
                let parent = parent.filter(|_| kind == Kind::Expense);
                let billing = cycle
                    .filter(|_| kind == Kind::Liability)
                    .map(|(closing, payment)| Billing { closing, payment });
                Step::CreateAccount {
                    who,
                    name: name.to_owned(),
                    kind,
                    opening,
                    parent,
                    billing,
                    owner,
                }
            })
            .boxed(),
    )
}

/// An `owner`: a person (refused unless a member), `""`, a stranger (refused).
fn owner(book: &Book) -> BoxedStrategy<Owner> {
    prop_oneof![
        6 => person(book).prop_map(Owner::Person),
        2 => Just(Owner::Nobody),
        1 => Just(Owner::Stranger),
    ]
    .boxed()
}

/// Issue 53's settings: the members' shares (refusals too), the vault renamed (the
/// caller's name for it), an account made someone's own or the household's again.
fn household(book: &Book) -> Option<BoxedStrategy<Step>> {
    let weight = prop_oneof![
        14 => select(vec![0_i64, 1, 1, 2, 3, 4, 6]),
        1 => Just(-1_i64),
    ];
    let share = (
        prop_oneof![16 => person(book).prop_map(Some), 1 => Just(None)],
        prop::bool::weighted(0.03),
        weight,
    )
        .prop_map(|(who, spaced, weight)| ShareArg { who, spaced, weight });
    let shares = prop_oneof![
        16 => prop::collection::vec(share, 1..=2).prop_map(Some),
        1 => Just(Some(Vec::new())),
    ];
    let vault_names = if book.setup.korean() {
        vec!["우리집", "우리 가족", "하은네 가계부"]
    } else {
        vec!["Home", "home", "Our Home"]
    };
    let rename = (
        select(vault_names).prop_map(|n| Some(n.to_owned())),
        prop_oneof![6 => Just(None), 1 => shares.clone()],
    );
    let accounts: Vec<usize> = (0..book.accounts.len())
        .filter(|&a| Some(a) != book.equity)
        .collect();
    let set_shares = (who(book), shares).prop_map(|(who, shares)| Step::UpdateVault {
        who,
        new_name: None,
        shares,
    });
    let renamed = (who(book), rename).prop_map(|(who, (new_name, shares))| Step::UpdateVault {
        who,
        new_name,
        shares,
    });
    let nothing = who(book).prop_map(|who| Step::UpdateVault {
        who,
        new_name: None,
        shares: None,
    });
    let owned =
        (who(book), select(accounts), owner(book)).prop_map(|(who, account, o)| Step::UpdateAccount {
            who,
            account,
            change: AccountChange::Owner(o),
        });
    Some(prop_oneof![4 => set_shares, 2 => renamed, 1 => nothing, 4 => owned].boxed())
}

fn update_account(book: &Book) -> Option<BoxedStrategy<Step>> {
    let names = names(book.setup.korean());
    let all: Vec<usize> = (0..book.accounts.len())
        .filter(|&a| Some(a) != book.equity)
        .collect();
    let expense = of_kind(book, &[Kind::Expense], false);
    let cards = of_kind(book, &[Kind::Liability], true);
    let archived: Vec<usize> = all
        .iter()
        .copied()
        .filter(|&a| book.accounts[a].handle.is_some())
        .collect();
    if expense.is_empty() {
        return None;
    }
    let mut arms: Vec<(u32, BoxedStrategy<(usize, AccountChange)>)> = vec![
        (
            2,
            (select(all.clone()), select(names.clone()))
                .prop_map(|(a, n)| (a, AccountChange::Rename(n.to_owned())))
                .boxed(),
        ),
        (
            2,
            (select(all), any::<bool>())
                .prop_map(|(a, f)| (a, AccountChange::Archive(f)))
                .boxed(),
        ),
        (
            2,
            (select(expense.clone()), prop::option::of(select(expense)))
                .prop_map(|(a, p)| (a, AccountChange::Parent(p)))
                .boxed(),
        ),
    ];
    if !cards.is_empty() {
        let cycle = prop::option::weighted(0.8, select(CYCLES.to_vec()))
            .prop_map(|c| c.map(|(closing, payment)| Billing { closing, payment }));
        arms.push((
            2,
            (select(cards), cycle)
                .prop_map(|(a, b)| (a, AccountChange::Billing(b)))
                .boxed(),
        ));
    }
    if !archived.is_empty() {
        let name = prop::option::weighted(0.3, select(names).prop_map(str::to_owned));
        arms.push((
            2,
            (select(archived), name)
                .prop_map(|(a, n)| (a, AccountChange::Unarchive(n)))
                .boxed(),
        ));
    }
    Some(
        (who(book), Union::new_weighted(arms))
            .prop_map(|(who, (account, change))| Step::UpdateAccount { who, account, change })
            .boxed(),
    )
}

fn budget(book: &Book) -> Option<BoxedStrategy<Step>> {
    let expense = of_kind(book, &[Kind::Expense], false);
    if expense.is_empty() {
        return None;
    }
    let amounts = prop_oneof![1 => Just(0_i64), 6 => amount(book).prop_map(|x| x * 20)];
    Some(
        (
            who(book),
            select(expense),
            amounts,
            -2_i32..=1,
            prop::option::of(any::<bool>()),
            prop::option::of(any::<bool>()),
        )
            .prop_map(
                |(who, account, amount, month, repeat, rollover)| Step::SetBudget {
                    who,
                    account,
                    amount,
                    month,
                    repeat,
                    rollover,
                },
            )
            .boxed(),
    )
}

fn recurring(book: &Book) -> Option<BoxedStrategy<Step>> {
    let paying = of_kind(book, &[Kind::Asset, Kind::Liability], false);
    let spending = of_kind(book, &[Kind::Expense], false);
    if paying.is_empty() || spending.is_empty() {
        return None;
    }
    let spec = (
        select(paying),
        select(spending),
        amount(book),
        prop::option::weighted(0.8, 1_u8..=31),
        prop::bool::weighted(0.1),
        prop::option::weighted(0.5, -60_i64..=10),
        prop::option::weighted(0.2, 20_i64..=120),
        tags(),
    )
        .prop_map(
            |(from, to, amount, day, yearly, start, end, tags)| RecurringSpec {
                from,
                to,
                amount,
                day,
                yearly,
                start,
                end,
                tags,
            },
        );
    let action = prop_oneof![
        4 => spec.clone().prop_map(RecurringAction::Set),
        2 => spec.prop_map(RecurringAction::Change),
        1 => Just(RecurringAction::Remove),
    ];
    let names = select(vec!["월세", "관리비", "보험료", "넷플릭스"]);
    Some(
        (who(book), names, action)
            .prop_map(|(who, name, action)| Step::SetRecurring {
                who,
                name: name.to_owned(),
                action,
            })
            .boxed(),
    )
}

fn sharing(book: &Book) -> Option<BoxedStrategy<Step>> {
    let people = book.people.len();
    let owners: Vec<usize> = (0..people).filter(|&p| book.is_owner(p)).collect();
    let others: Vec<usize> = (1..people).filter(|&p| book.is_member(p)).collect();
    let outsiders: Vec<usize> = (1..people).filter(|&p| !book.is_member(p)).collect();
    let mut arms: Vec<(u32, BoxedStrategy<Step>)> = vec![
        (
            2,
            (who(book), any::<bool>())
                .prop_map(|(who, owner)| Step::Share { who, owner })
                .boxed(),
        ),
        (
            1,
            (0..people, 1..people)
                .prop_map(|(who, member)| Step::Remove { who, member })
                .boxed(),
        ),
        (1, (1..people).prop_map(|who| Step::Leave { who }).boxed()),
        // Deleting the vault: refusals and dry runs by anyone, and a real one by person 0
        // (the book then starts again).
        (
            2,
            (0..people, any::<bool>(), any::<bool>())
                .prop_map(|(who, confirm, dry_run)| Step::DeleteVault {
                    who,
                    confirm,
                    dry_run: dry_run || (who != 0 && confirm),
                })
                .boxed(),
        ),
        (
            1,
            Just(Step::DeleteVault {
                who: 0,
                confirm: true,
                dry_run: false,
            })
            .boxed(),
        ),
    ];
    if !others.is_empty() {
        arms.push((
            2,
            (select(owners), select(others.clone()))
                .prop_map(|(who, member)| Step::Remove { who, member })
                .boxed(),
        ));
        arms.push((1, select(others).prop_map(|who| Step::Leave { who }).boxed()));
    }
    if !book.invites.is_empty() {
        let latest = book.invites.len() - 1;
        let joiner = if outsiders.is_empty() {
            (0..people).boxed()
        } else {
            prop_oneof![3 => select(outsiders), 1 => 0..people].boxed()
        };
        arms.push((
            3,
            (joiner, prop_oneof![3 => Just(latest), 1 => 0..=latest])
                .prop_map(|(who, invite)| Step::Join { who, invite })
                .boxed(),
        ));
    }
    Some(Union::new_weighted(arms).boxed())
}
