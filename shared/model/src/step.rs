//! One step of a household's history: what a person does, or the clock moving.
//!
//! Steps name accounts, entries, operations and people by their index in the model's
//! book (in the order they were made), so a history reads without ids and replays on
//! any store. A step whose target no longer exists after shrinking fails its
//! precondition and is dropped.

use std::fmt;

use jiff::civil::Date;

use crate::terms::{Billing, Kind};

/// A date argument.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum DateArg {
    /// Left out: the vault's today.
    Omit,
    /// Today moved by this many days.
    Offset(i64),
    /// This date.
    At(Date),
}

/// A `for` as sent: whose spending an entry was.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum For {
    /// This person's name (refused unless they are a member).
    Person(usize),
    /// `"shared"`.
    Shared,
    /// `""`: by its categories again (on a new entry: as if left out).
    Clear,
    /// A name nobody in the vault has.
    Stranger,
}

/// An `owner` as sent to `create_account` or `update_account`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Owner {
    /// This person's name (refused unless they are a member).
    Person(usize),
    /// `""`: the household's.
    Nobody,
    /// A name nobody in the vault has.
    Stranger,
}

/// One weight of `update_vault`'s `shares`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct ShareArg {
    /// Whose name (None: a name nobody in the vault has).
    pub who: Option<usize>,
    /// The name with a trailing space (the same member, named again when both are sent).
    pub spaced: bool,
    /// The weight.
    pub weight: i64,
}

/// An entry as sent: simple or split, and its options.
#[derive(Clone, PartialEq)]
pub struct EntrySpec {
    /// `from` lines: account and amount (minor units).
    pub from: Vec<(usize, i64)>,
    /// `to` lines.
    pub to: Vec<(usize, i64)>,
    /// Sent as `lines` even with one line each side.
    pub split: bool,
    /// Its date.
    pub date: DateArg,
    /// Its memo.
    pub memo: String,
    /// Its tags.
    pub tags: Vec<String>,
    /// 할부 months.
    pub installments: Option<u8>,
    /// The statement line's own id.
    pub external_ref: Option<String>,
    /// `for`.
    pub for_whom: Option<For>,
    /// `to` left out: the memo's words choose the category (a simple entry; `to` is
    /// empty here).
    pub pick: bool,
}

/// Lines of an entry: `from` then `to`, each account and amount.
pub type Lines = (Vec<(usize, i64)>, Vec<(usize, i64)>);

/// What an edit sends (each `Some` field).
#[derive(Clone, PartialEq, Default)]
pub struct EditSpec {
    /// New amount (simple entry).
    pub amount: Option<i64>,
    /// New date, days from today.
    pub date: Option<i64>,
    /// New memo.
    pub memo: Option<String>,
    /// New `from` account (simple entry).
    pub from: Option<usize>,
    /// New `to` account (simple entry).
    pub to: Option<usize>,
    /// Every line anew.
    pub lines: Option<Lines>,
    /// Tags anew.
    pub tags: Option<Vec<String>>,
    /// `for` anew.
    pub for_whom: Option<For>,
}

/// A change to an account.
#[derive(Clone, PartialEq, Debug)]
pub enum AccountChange {
    /// `newName`.
    Rename(String),
    /// `archive: true`, with `force`.
    Archive(bool),
    /// `archive: false`, with a `newName` when sent.
    Unarchive(Option<String>),
    /// `parent` (None: `""`, top-level).
    Parent(Option<usize>),
    /// `billing` (None: `{}`, cleared).
    Billing(Option<Billing>),
    /// `owner`, in a call of its own.
    Owner(Owner),
    /// `match`, in a call of its own (`[]` clears the set words and what was learned).
    Match(Vec<String>),
    /// `billing` with `performance` (a cycle or none: refused without one).
    Performance(Option<Billing>, PerformanceArg),
}

/// A card's 실적 as `billing.performance` sends it.
#[derive(Clone, PartialEq, Debug)]
pub struct PerformanceArg {
    /// `threshold` (minor units; 0 or less is refused).
    pub threshold: i64,
    /// `exclude`: accounts by index (left out when empty; one that is no expense
    /// category is refused).
    pub exclude: Vec<usize>,
}

/// A recurring schedule's settings as sent.
#[derive(Clone, PartialEq, Debug)]
pub struct RecurringSpec {
    /// Paid from.
    pub from: usize,
    /// Paid to.
    pub to: usize,
    /// Each time.
    pub amount: i64,
    /// Day of the month (None: left out, the last day).
    pub day: Option<u8>,
    /// `every: "year"`.
    pub yearly: bool,
    /// Start, days from today (None: left out, today).
    pub start: Option<i64>,
    /// End, days from today.
    pub end: Option<i64>,
    /// Tags on each posting.
    pub tags: Vec<String>,
}

/// What `set_recurring` is asked.
#[derive(Clone, PartialEq, Debug)]
pub enum RecurringAction {
    /// Create (or repeat the same settings).
    Set(RecurringSpec),
    /// `change: true` with these settings.
    Change(RecurringSpec),
    /// `remove: true`.
    Remove,
}

/// How the clock moves.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Tick {
    /// By this many seconds.
    Seconds(i64),
    /// To the vault's next midnight, then this many seconds (may be negative: just before).
    Midnight(i64),
    /// To the first midnight of next month, then this many seconds.
    MonthEnd(i64),
    /// To a card's next due date's midnight (card index), then this many seconds.
    DueDate(usize, i64),
}

/// One step.
#[derive(Clone, PartialEq)]
pub enum Step {
    /// The clock moves.
    Clock(Tick),
    /// `record_transaction`.
    Record {
        /// Who.
        who: usize,
        /// The entry.
        entry: EntrySpec,
        /// `allowDuplicate`.
        allow_duplicate: bool,
        /// `dryRun`.
        dry_run: bool,
        /// Reuse the key of this earlier write (with these other arguments).
        reuse_key: Option<usize>,
    },
    /// `record_transactions` (a statement).
    Batch {
        /// Who.
        who: usize,
        /// Its lines.
        lines: Vec<EntrySpec>,
        /// `allowDuplicate`.
        allow_duplicate: bool,
        /// `dryRun`.
        dry_run: bool,
    },
    /// `edit_transaction`.
    Edit {
        /// Who.
        who: usize,
        /// Which entry.
        entry: usize,
        /// What changes.
        edit: EditSpec,
        /// `expectedVersion`: the entry's version moved by this (0: current).
        expected_version: Option<i8>,
        /// `dryRun`.
        dry_run: bool,
    },
    /// `void_transaction`.
    Void {
        /// Who.
        who: usize,
        /// Which entry.
        entry: usize,
    },
    /// `undo`.
    Undo {
        /// Who.
        who: usize,
        /// Which operation (None: the caller's latest).
        operation: Option<usize>,
        /// `dryRun`.
        dry_run: bool,
    },
    /// An earlier idempotent write sent again, unchanged.
    Retry {
        /// Which (index of the book's writes).
        write: usize,
    },
    /// `create_account`.
    CreateAccount {
        /// Who.
        who: usize,
        /// Name.
        name: String,
        /// Kind.
        kind: Kind,
        /// `openingBalance` and its date (days from today).
        opening: Option<(i64, i64)>,
        /// `parent`.
        parent: Option<usize>,
        /// `billing`.
        billing: Option<Billing>,
        /// `owner`.
        owner: Option<Owner>,
    },
    /// `update_account`.
    UpdateAccount {
        /// Who.
        who: usize,
        /// Which account.
        account: usize,
        /// What changes.
        change: AccountChange,
    },
    /// `set_budget`.
    SetBudget {
        /// Who.
        who: usize,
        /// Which account.
        account: usize,
        /// Amount (0 clears).
        amount: i64,
        /// Month, from this month.
        month: i32,
        /// `repeat`.
        repeat: Option<bool>,
        /// `rollover`.
        rollover: Option<bool>,
    },
    /// `set_recurring`.
    SetRecurring {
        /// Who.
        who: usize,
        /// Its name.
        name: String,
        /// What.
        action: RecurringAction,
    },
    /// `update_vault`: a rename, shares, both (or neither: refused).
    UpdateVault {
        /// Who.
        who: usize,
        /// `newName`.
        new_name: Option<String>,
        /// `shares`, in the order sent.
        shares: Option<Vec<ShareArg>>,
    },
    /// `share_vault`.
    Share {
        /// Who.
        who: usize,
        /// An owner's code.
        owner: bool,
    },
    /// `join_vault`.
    Join {
        /// Who.
        who: usize,
        /// Which invite.
        invite: usize,
    },
    /// `remove_member`.
    Remove {
        /// Who.
        who: usize,
        /// Whom.
        member: usize,
    },
    /// `leave_vault`.
    Leave {
        /// Who.
        who: usize,
    },
    /// `set_goal`.
    SetGoal {
        /// Who.
        who: usize,
        /// The goal's name.
        name: String,
        /// The account it is kept in.
        account: usize,
        /// `target` (None: left out).
        target: Option<i64>,
        /// `by`, days from today.
        by: Option<i64>,
        /// `remove: true`.
        remove: bool,
    },
    /// `delete_vault`; a deletion that goes through starts the book again (person 0
    /// makes the vault anew with the set-up's accounts, alone).
    DeleteVault {
        /// Who.
        who: usize,
        /// The vault's name typed again (else a misspelling).
        confirm: bool,
        /// Count only.
        dry_run: bool,
    },
}

impl fmt::Debug for DateArg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DateArg::Omit => write!(f, "today (left out)"),
            DateArg::Offset(0) => write!(f, "today"),
            DateArg::Offset(d) => write!(f, "today{d:+}d"),
            DateArg::At(d) => write!(f, "{d}"),
        }
    }
}

fn sides(f: &mut fmt::Formatter<'_>, from: &[(usize, i64)], to: &[(usize, i64)]) -> fmt::Result {
    let side = |lines: &[(usize, i64)]| {
        lines
            .iter()
            .map(|(a, x)| format!("a{a}:{x}"))
            .collect::<Vec<_>>()
            .join("+")
    };
    write!(f, "{} -> {}", side(from), side(to))
}

impl fmt::Debug for EntrySpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        sides(f, &self.from, &self.to)?;
        if self.pick {
            write!(f, "(to left out: by words)")?;
        }
        write!(f, " on {:?} {:?}", self.date, self.memo)?;
        if self.split {
            write!(f, " as lines")?;
        }
        if !self.tags.is_empty() {
            write!(f, " tags {:?}", self.tags)?;
        }
        if let Some(n) = self.installments {
            write!(f, " in {n} parts")?;
        }
        if let Some(r) = &self.external_ref {
            write!(f, " ref {r}")?;
        }
        if let Some(w) = self.for_whom {
            write!(f, " for {w:?}")?;
        }
        Ok(())
    }
}

impl fmt::Debug for EditSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts = Vec::new();
        if let Some(x) = self.amount {
            parts.push(format!("amount {x}"));
        }
        if let Some(d) = self.date {
            parts.push(format!("date today{d:+}d"));
        }
        if let Some(m) = &self.memo {
            parts.push(format!("memo {m:?}"));
        }
        if let Some(a) = self.from {
            parts.push(format!("from a{a}"));
        }
        if let Some(a) = self.to {
            parts.push(format!("to a{a}"));
        }
        if let Some((from, to)) = &self.lines {
            parts.push(format!("lines {from:?} -> {to:?}"));
        }
        if let Some(t) = &self.tags {
            parts.push(format!("tags {t:?}"));
        }
        if let Some(w) = self.for_whom {
            parts.push(format!("for {w:?}"));
        }
        write!(f, "{}", parts.join(", "))
    }
}

impl fmt::Debug for Tick {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Tick::Seconds(s) => write!(f, "+{s}s"),
            Tick::Midnight(s) => write!(f, "to midnight {s:+}s"),
            Tick::MonthEnd(s) => write!(f, "to the month's end {s:+}s"),
            Tick::DueDate(c, s) => write!(f, "to a{c}'s due date {s:+}s"),
        }
    }
}

impl fmt::Debug for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Step::Clock(t) => write!(f, "clock {t:?}"),
            Step::Record {
                who,
                entry,
                allow_duplicate,
                dry_run,
                reuse_key,
            } => {
                write!(f, "p{who} record {entry:?}")?;
                flags(f, &[(*allow_duplicate, "allowDuplicate"), (*dry_run, "dryRun")])?;
                match reuse_key {
                    Some(w) => write!(f, " reusing the key of write {w}"),
                    None => Ok(()),
                }
            }
            Step::Batch {
                who,
                lines,
                allow_duplicate,
                dry_run,
            } => {
                write!(f, "p{who} statement of {} lines {lines:?}", lines.len())?;
                flags(f, &[(*allow_duplicate, "allowDuplicate"), (*dry_run, "dryRun")])
            }
            Step::Edit {
                who,
                entry,
                edit,
                expected_version,
                dry_run,
            } => {
                write!(f, "p{who} edit t{entry}: {edit:?}")?;
                if let Some(v) = expected_version {
                    write!(f, " expecting version {v:+}")?;
                }
                flags(f, &[(*dry_run, "dryRun")])
            }
            Step::Void { who, entry } => write!(f, "p{who} void t{entry}"),
            Step::Undo {
                who,
                operation,
                dry_run,
            } => {
                match operation {
                    Some(o) => write!(f, "p{who} undo op{o}")?,
                    None => write!(f, "p{who} undo their latest")?,
                }
                flags(f, &[(*dry_run, "dryRun")])
            }
            Step::Retry { write } => write!(f, "retry write {write}"),
            _ => self.fmt_settings(f),
        }
    }
}

impl Step {
    fn fmt_settings(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Step::CreateAccount {
                who,
                name,
                kind,
                opening,
                parent,
                billing,
                owner,
            } => {
                write!(f, "p{who} create {} {name:?}", kind.name())?;
                if let Some(o) = owner {
                    write!(f, " owner {o:?}")?;
                }
                if let Some((x, d)) = opening {
                    write!(f, " opening {x} on today{d:+}d")?;
                }
                if let Some(p) = parent {
                    write!(f, " under a{p}")?;
                }
                if let Some(b) = billing {
                    write!(f, " billing {}/{}", b.closing, b.payment)?;
                }
                Ok(())
            }
            Step::UpdateAccount { who, account, change } => {
                write!(f, "p{who} update a{account}: ")?;
                match change {
                    AccountChange::Rename(n) => write!(f, "rename to {n:?}"),
                    AccountChange::Archive(force) => write!(f, "archive (force {force})"),
                    AccountChange::Unarchive(n) => write!(f, "bring back as {n:?}"),
                    AccountChange::Parent(p) => write!(f, "parent {p:?}"),
                    AccountChange::Billing(b) => write!(f, "billing {:?}", b.map(|b| (b.closing, b.payment))),
                    AccountChange::Owner(o) => write!(f, "owner {o:?}"),
                    AccountChange::Match(w) => write!(f, "match {w:?}"),
                    AccountChange::Performance(b, p) => write!(
                        f,
                        "billing {:?} performance threshold {} exclude {:?}",
                        b.map(|b| (b.closing, b.payment)),
                        p.threshold,
                        p.exclude.iter().map(|a| format!("a{a}")).collect::<Vec<_>>()
                    ),
                }
            }
            Step::SetBudget {
                who,
                account,
                amount,
                month,
                repeat,
                rollover,
            } => write!(
                f,
                "p{who} budget a{account} {amount} from this month{month:+} repeat {repeat:?} rollover {rollover:?}"
            ),
            Step::SetRecurring { who, name, action } => {
                write!(f, "p{who} recurring {name:?} ")?;
                match action {
                    RecurringAction::Set(s) => write!(f, "set {}", recurring(s)),
                    RecurringAction::Change(s) => write!(f, "change {}", recurring(s)),
                    RecurringAction::Remove => write!(f, "remove"),
                }
            }
            Step::UpdateVault {
                who,
                new_name,
                shares,
            } => {
                write!(f, "p{who} updates the vault:")?;
                if let Some(n) = new_name {
                    write!(f, " rename to {n:?}")?;
                }
                if let Some(s) = shares {
                    let s: Vec<String> = s
                        .iter()
                        .map(|x| {
                            let name = x.who.map_or("stranger".to_owned(), |p| format!("p{p}"));
                            let space = if x.spaced { " (spaced)" } else { "" };
                            format!("{name}{space}={}", x.weight)
                        })
                        .collect();
                    write!(f, " shares {{{}}}", s.join(", "))?;
                }
                Ok(())
            }
            Step::SetGoal {
                who,
                name,
                account,
                target,
                by,
                remove,
            } => {
                write!(f, "p{who} goal {name:?} in a{account}")?;
                if let Some(t) = target {
                    write!(f, " target {t}")?;
                }
                if let Some(d) = by {
                    write!(f, " by today{d:+}d")?;
                }
                flags(f, &[(*remove, "remove")])
            }
            Step::Share { who, owner } => write!(f, "p{who} shares (owner code {owner})"),
            Step::Join { who, invite } => write!(f, "p{who} joins with invite {invite}"),
            Step::Remove { who, member } => write!(f, "p{who} removes p{member}"),
            Step::Leave { who } => write!(f, "p{who} leaves"),
            Step::DeleteVault {
                who,
                confirm,
                dry_run,
            } => write!(
                f,
                "p{who} deletes the vault (confirmed {confirm}, dry run {dry_run})"
            ),
            _ => Ok(()),
        }
    }
}

fn recurring(s: &RecurringSpec) -> String {
    format!(
        "a{} -> a{} {} day {:?} {} start {:?} end {:?} tags {:?}",
        s.from,
        s.to,
        s.amount,
        s.day,
        if s.yearly { "yearly" } else { "monthly" },
        s.start,
        s.end,
        s.tags
    )
}

fn flags(f: &mut fmt::Formatter<'_>, flags: &[(bool, &str)]) -> fmt::Result {
    for (on, name) in flags {
        if *on {
            write!(f, " {name}")?;
        }
    }
    Ok(())
}
