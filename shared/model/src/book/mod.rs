//! The reference model of one household's book, written from the tool contract
//! (docs/tools.md) and nothing else: no ledger code is called or copied. Every read is
//! computed from first principles, as sums over the entries' postings, as plainly as
//! possible: a model as clever as the ledger would test nothing.
//!
//! The book answers each step with the call a client would make ([`Call`]: who, which
//! tool, the JSON arguments) and what that call must answer ([`Expect`]); the reads it
//! expects after every step are in [`views`]. Each area of the contract is one file:
//! a later feature (settle-up, goals, learned categories) adds its file and its steps.

mod accounts;
mod apply;
mod batch;
mod cards;
mod entries;
mod goals;
mod household;
mod members;
mod recurring;
pub mod setup;
mod undo;
pub mod views;
mod words;

mod budgets;

use jiff::civil::Date;
use serde_json::Value;

use crate::calendar::{self, Month};
use crate::money::Currency;

pub use crate::terms::{Billing, Kind};
pub use cards::{item_order, part};
pub use household::{transfers, transfers_check};
pub use setup::Setup;
pub use words::Categorized;

/// Seconds an idempotency record is kept (7 days).
pub const IDEMPOTENCY_TTL: i64 = 7 * 24 * 3600;
/// Seconds of the duplicate guard's window (10 minutes).
pub const DUPLICATE_WINDOW: i64 = 600;
/// Seconds a recurring posting guards its date against a hand entry (45 days).
pub const POSTED_GUARD: i64 = 45 * 24 * 3600;

/// One account.
#[derive(Debug, Clone, PartialEq)]
pub struct Account {
    /// Its name now (the name it was archived under, when archived).
    pub name: String,
    /// Its kind.
    pub kind: Kind,
    /// Its parent category (대분류).
    pub parent: Option<usize>,
    /// A card's billing cycle.
    pub billing: Option<Billing>,
    /// When archived: its handle.
    pub handle: Option<String>,
    /// The opening balance it was made with.
    pub opening: Option<i64>,
    /// The member whose own it is (`None`: the household's).
    pub owner: Option<usize>,
    /// The savings goal it keeps (an asset account; `set_goal`).
    pub goal: Option<Goal>,
    /// Its set words (an expense category; `update_account` `match`), as sent, in order.
    pub words: Vec<String>,
    /// A card's 실적 setting (`billing.performance`), kept beside its cycle.
    pub performance: Option<Performance>,
}

/// A savings goal (docs/tools.md, "set_goal"; decision 061).
#[derive(Debug, Clone, PartialEq)]
pub struct Goal {
    /// Its name (unique in the vault, compared like names).
    pub name: String,
    /// What to reach (minor units, above 0).
    pub target: i64,
    /// The day to reach it by.
    pub by: Option<Date>,
    /// The day it was first set (kept when it is changed).
    pub since: Date,
}

/// A card's 실적: the spending per usage period that unlocks its benefits.
#[derive(Debug, Clone, PartialEq)]
pub struct Performance {
    /// The amount to reach (minor units, above 0).
    pub threshold: i64,
    /// Expense categories that do not count, in the order sent.
    pub exclude: Vec<usize>,
}

impl Account {
    /// The name an argument uses for it: the handle when archived.
    pub fn reference(&self) -> &str {
        self.handle.as_deref().unwrap_or(&self.name)
    }
}

/// One posting: an account and a debit-positive amount.
pub type Line = (usize, i64);

/// Whose spending an entry says it was (`for`), over its categories' owners.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Whose {
    /// One member's (by person).
    Member(usize),
    /// Everyone's (`"shared"`).
    Shared,
}

/// What an entry says (its versions differ in this).
#[derive(Debug, Clone, PartialEq)]
pub struct Content {
    /// The date.
    pub date: Date,
    /// The memo.
    pub memo: String,
    /// `from` lines (credits, amounts positive here), in order.
    pub from: Vec<(usize, i64)>,
    /// `to` lines (debits), in order.
    pub to: Vec<(usize, i64)>,
    /// Tags, folded, in order, each once.
    pub tags: Vec<String>,
    /// Whose spending it was, when it says (`for`).
    pub for_whom: Option<Whose>,
}

impl Content {
    /// Every posting, debit-positive.
    pub fn lines(&self) -> Vec<Line> {
        let mut lines: Vec<Line> = self.from.iter().map(|&(a, x)| (a, -x)).collect();
        lines.extend(self.to.iter().copied());
        lines
    }

    /// The postings sorted, for comparing two entries' data.
    pub fn data(&self) -> Vec<Line> {
        let mut lines = self.lines();
        lines.sort_unstable();
        lines
    }

    /// One line each side.
    pub fn is_simple(&self) -> bool {
        self.from.len() == 1 && self.to.len() == 1
    }

    /// The total moved.
    pub fn amount(&self) -> i64 {
        self.to.iter().map(|l| l.1).sum()
    }
}

/// Who or what recorded an entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// By hand (`record_transaction`), by person.
    Hand(usize),
    /// A statement line (`record_transactions`), by person.
    Batch(usize),
    /// A create_account opening balance, by person.
    Opening(usize),
    /// A recurring posting of schedule.
    Posting(usize),
}

/// One transaction.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    /// What it says now.
    pub content: Content,
    /// Earlier versions, oldest first.
    pub history: Vec<Content>,
    /// Voided (no longer counts).
    pub voided: bool,
    /// When recorded (Unix seconds).
    pub recorded_at: i64,
    /// Who or what recorded it.
    pub origin: Origin,
    /// Its statement reference, while claimed (an undo frees it).
    pub external_ref: Option<String>,
    /// The reference it was recorded with (kept after an undo frees the claim).
    pub recorded_ref: Option<String>,
    /// 할부 months.
    pub installments: Option<u8>,
    /// The operation whose change it shows now.
    pub operation: Option<usize>,
    /// Its postings by the accounts' names when recorded: what the duplicate guard keeps.
    pub guard: Vec<(String, i64)>,
}

impl Entry {
    /// Version number (1 when recorded).
    pub fn version(&self) -> usize {
        self.history.len() + 1
    }
}

/// What one operation did to one entry.
#[derive(Debug, Clone, PartialEq)]
pub enum Change {
    /// Recorded it.
    Recorded,
    /// Edited it from this content.
    Edited(Content),
    /// Voided it.
    Voided,
}

/// One operation (a write that changes transactions).
#[derive(Debug, Clone, PartialEq)]
pub struct Operation {
    /// Its maker; `None` for a recurring posting (nobody's).
    pub by: Option<usize>,
    /// Each entry it changed, what it did, and the operation the entry showed before.
    pub changes: Vec<(usize, Change, Option<usize>)>,
    /// Taken back.
    pub undone: bool,
}

/// A member's role.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// May invite, remove, archive, rename.
    Owner,
    /// Records, voids, reads.
    Member,
}

/// One of the people of the household (not all of them keep the vault).
#[derive(Debug, Clone, PartialEq)]
pub struct Person {
    /// The token's subject.
    pub sub: String,
    /// The token's display name.
    pub name: String,
    /// Their role while they keep the vault.
    pub role: Option<Role>,
    /// Their latest operation in the vault (what `undo` without an id takes).
    pub latest: Option<usize>,
    /// When they joined (Unix seconds), for the members' order.
    pub joined_at: i64,
    /// Each time they kept the vault: the month they joined (the founder: `Month::MIN`)
    /// and the month they left, if they did. Settle-up weighs them in these months only.
    pub stints: Vec<(Month, Option<Month>)>,
    /// Their own name for the vault (a rename is the renamer's; a joiner takes the
    /// name the sharer had for it).
    pub vault_name: String,
}

/// An invite code.
#[derive(Debug, Clone, PartialEq)]
pub struct Invite {
    /// The role it gives.
    pub role: Role,
    /// When made (Unix seconds).
    pub made_at: i64,
    /// Used already.
    pub used: bool,
    /// The vault's name as the sharer had it: the joiner's name for it.
    pub vault_name: String,
}

/// A recurring schedule.
#[derive(Debug, Clone, PartialEq)]
pub struct Schedule {
    /// Its name (unique among live schedules).
    pub name: String,
    /// Paid from.
    pub from: usize,
    /// Paid to.
    pub to: usize,
    /// The accounts' names (from, to) when it was set or last changed: what the
    /// duplicate guard of its postings keeps (a rename since does not reach it).
    pub names: (String, String),
    /// Each time.
    pub amount: i64,
    /// Day of the month.
    pub day: u8,
    /// Yearly (in the start's month) instead of monthly.
    pub yearly: bool,
    /// First possible date.
    pub start: Date,
    /// Last possible date.
    pub end: Option<Date>,
    /// Memo of each posting.
    pub memo: String,
    /// Tags of each posting.
    pub tags: Vec<String>,
    /// Every occurrence through this date is decided.
    pub posted_through: Option<Date>,
    /// Stopped.
    pub removed: bool,
}

/// A budget setting.
#[derive(Debug, Clone, PartialEq)]
pub struct Budget {
    /// The expense account.
    pub account: usize,
    /// From this month (or only this month).
    pub month: Month,
    /// The amount (0 clears).
    pub amount: i64,
    /// Kept for later months.
    pub repeat: bool,
    /// Leftover carries into the next month.
    pub rollover: bool,
}

/// An idempotent write a retry may send again.
#[derive(Debug, Clone, PartialEq)]
pub struct Write {
    /// Who sent it.
    pub who: usize,
    /// The tool.
    pub tool: &'static str,
    /// The exact arguments.
    pub args: Value,
    /// When it first succeeded (the key's record), if it did.
    pub claimed_at: Option<i64>,
    /// What it did: the entries recorded (per batch position) or edited.
    pub entries: Vec<Option<usize>>,
    /// The operation it made.
    pub operation: Option<usize>,
    /// The date a left-out date resolved to.
    pub resolved_date: Option<Date>,
    /// A batch's entries as resolved (for re-deciding what was not recorded).
    pub pending: Vec<entries::Draft>,
    /// The step that made it (a retry of a refused write runs it again).
    pub step: Option<crate::step::Step>,
    /// The entry's version and void as the first call left it.
    pub snapshot: Option<(usize, bool)>,
}

/// What a call must answer.
#[derive(Debug, Clone, PartialEq)]
pub enum Expect {
    /// A tool error (`isError`), nothing changed.
    Refused,
    /// Success, whose canonical view (see `crate::compare`) must equal this.
    Ok(Value),
    /// The same result as the first call of `write`, marked replayed, with `current`
    /// (the entry as it is now) when it changed since.
    Replay {
        /// Which write.
        write: usize,
        /// The entry now, when it changed since the first call.
        current: Option<Value>,
    },
}

/// What the SUT learns from an answer: the real id behind a model label.
#[derive(Debug, Clone, PartialEq)]
pub enum Learn {
    /// Entry `n`'s id is at this JSON pointer.
    Entry(usize, String),
    /// Operation `n`'s id is at this JSON pointer.
    Operation(usize, String),
    /// Invite `n`'s code is at this JSON pointer.
    Invite(usize, String),
}

/// One call a step makes.
#[derive(Debug, Clone, PartialEq)]
pub struct Call {
    /// The person calling.
    pub who: usize,
    /// The tool.
    pub tool: &'static str,
    /// The arguments, with `$tx:n`, `$op:n`, `$invite:n` for ids the SUT knows.
    pub args: Value,
    /// What it must answer.
    pub expect: Expect,
    /// Ids to pick up from the answer.
    pub learn: Vec<Learn>,
    /// A write to remember for retries (its index in `Book::writes`).
    pub write: Option<usize>,
    /// The clock when it is made (Unix seconds).
    pub at: i64,
}

/// The whole book, and the household around it.
#[derive(Clone)]
pub struct Book {
    /// The vault's settings.
    pub setup: Setup,
    /// The clock (Unix seconds).
    pub now: i64,
    /// The household: person 0 made the vault and keeps it.
    pub people: Vec<Person>,
    /// Every account ever made.
    pub accounts: Vec<Account>,
    /// The opening-balance account, once made.
    pub equity: Option<usize>,
    /// Every transaction ever recorded.
    pub entries: Vec<Entry>,
    /// Every operation.
    pub operations: Vec<Operation>,
    /// Every schedule ever made.
    pub schedules: Vec<Schedule>,
    /// Budget settings, in the order set.
    pub budgets: Vec<Budget>,
    /// Invite codes made.
    pub invites: Vec<Invite>,
    /// Shares set with `update_vault`: from which month, each member's weight (every
    /// member then), by month, one setting a month.
    pub shares: Vec<(Month, std::collections::BTreeMap<usize, u64>)>,
    /// Words that categorize: where a (memo's first word, account) count stood, counted
    /// from the live entries, when `match: []` cleared what the account had learned (the
    /// count starts again from 0 then).
    pub word_base: std::collections::BTreeMap<(String, usize), i64>,
    /// Each word's latest correction: the account an `edit_transaction` moved an entry
    /// with that first word to (or an undo of one moved it back to).
    pub fixes: std::collections::BTreeMap<String, usize>,
    /// Idempotent writes made, for retries.
    pub writes: Vec<Write>,
    /// The calls of the last step (set-up calls for the initial book).
    pub calls: Vec<Call>,
    /// Keys used so far (a key is never made up twice).
    pub next_key: u32,
}

impl Book {
    /// The vault's today.
    pub fn today(&self) -> Date {
        calendar::date_at(self.now, self.setup.zone)
    }

    /// This month.
    pub fn this_month(&self) -> Month {
        calendar::month_of(self.today())
    }

    /// The currency.
    pub fn currency(&self) -> Currency {
        self.setup.currency
    }

    /// `minor` as an argument string.
    pub fn amount(&self, minor: i64) -> String {
        self.currency().format(minor)
    }

    /// Live (not voided) entries.
    pub fn live(&self) -> impl Iterator<Item = (usize, &Entry)> {
        self.entries.iter().enumerate().filter(|(_, e)| !e.voided)
    }

    /// Account `a`'s balance (natural sign) over live entries dated in `from..=to`.
    pub fn net(&self, a: usize, from: Option<Date>, to: Option<Date>) -> i64 {
        let kind = self.accounts[a].kind;
        self.live()
            .filter(|(_, e)| {
                from.is_none_or(|f| e.content.date >= f) && to.is_none_or(|t| e.content.date <= t)
            })
            .flat_map(|(_, e)| e.content.lines())
            .filter(|l| l.0 == a)
            .map(|l| kind.natural(l.1))
            .sum()
    }

    /// Account `a` as of the end of `date`, and what is dated later (`None` when that
    /// nets to nothing).
    pub fn balance(&self, a: usize, date: Date) -> (i64, Option<i64>) {
        let later = self.net(a, Some(calendar::add_days(date, 1)), None);
        (self.net(a, None, Some(date)), (later != 0).then_some(later))
    }

    /// The live account named `name` (folded), if any.
    pub fn live_named(&self, name: &str) -> Option<usize> {
        let key = fold(name);
        self.accounts
            .iter()
            .position(|a| a.handle.is_none() && fold(&a.name) == key)
    }

    /// Person `p` keeps the vault.
    pub fn is_member(&self, p: usize) -> bool {
        self.people[p].role.is_some()
    }

    /// Person `p` is an owner.
    pub fn is_owner(&self, p: usize) -> bool {
        self.people[p].role == Some(Role::Owner)
    }

    /// A fresh idempotency key.
    pub fn key(&mut self, label: &str) -> String {
        self.next_key += 1;
        format!("{label}-{}", self.next_key)
    }

    /// Adds a call of the step.
    pub fn call(&mut self, who: usize, tool: &'static str, args: Value, expect: Expect) -> &mut Call {
        self.calls.push(Call {
            who,
            tool,
            args,
            expect,
            learn: Vec::new(),
            write: None,
            at: self.now,
        });
        self.calls.last_mut().expect("just pushed")
    }

    /// The children of account `a` (today's tree).
    pub fn children(&self, a: usize) -> Vec<usize> {
        (0..self.accounts.len())
            .filter(|&c| self.accounts[c].parent == Some(a))
            .collect()
    }
}

/// A name as names are compared: trimmed, inner space collapsed, lower case. (The
/// contract's full folding is NFKC too; the model's names never need it.)
pub fn fold(name: &str) -> String {
    name.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

impl std::fmt::Debug for Book {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Book of {} ({} entries)", self.setup.vault, self.entries.len())
    }
}
