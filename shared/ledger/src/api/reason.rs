//! Why an input was refused, typed: the ledger says which rule and with what values,
//! never a sentence. The English a model reads for each reason is written once, in
//! the tools crate (`dochiya_tools::reasons`), and tested there; the contract suites
//! assert these variants.

use dochiya_domain::{AccountId, AccountKind, Currency, LocalDate, Money, ParseError, YearMonth};

/// One setting of a recurring entry that differs from what was sent (values as shown).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Difference {
    /// The argument (`from`, `amount`, `day`, …).
    pub what: &'static str,
    /// What the entry has.
    pub was: String,
    /// What was sent.
    pub sent: String,
}

/// Why an input was refused ([`crate::api::LedgerError::InvalidInput`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reason {
    /// A value that does not parse (an amount, a name, a date, a tag): the domain's own words.
    Parse(ParseError),
    /// Refused by the caller's layer in its own words (a batch entry it could not
    /// read, a combination of its arguments), passed through.
    Caller(String),
    /// An amount written in another currency than the vault's (`sent` as written).
    OtherCurrency {
        /// The amount text as sent.
        sent: String,
        /// The vault's currency.
        vault: Currency,
    },

    // Entries.
    /// A transaction with no line on one side.
    NoLineOnASide,
    /// More lines than a transaction may have.
    TooManyLines {
        /// The most allowed.
        max: usize,
        /// How many were sent.
        got: usize,
    },
    /// An amount of zero.
    ZeroAmount,
    /// A negative amount (the direction is `from` and `to`).
    NegativeAmount,
    /// A memo or reason with control characters or line breaks.
    TextControl,
    /// A memo or reason too long.
    TextTooLong {
        /// The most characters.
        max: usize,
        /// How many it has.
        got: usize,
    },
    /// An external reference with control characters or line breaks.
    ReferenceControl,
    /// An external reference too long.
    ReferenceTooLong {
        /// The most characters.
        max: usize,
        /// How many it has.
        got: usize,
    },
    /// One account on both sides.
    BothSides {
        /// The account.
        account: String,
        /// Of a recurring entry (else of a transaction).
        recurring: bool,
    },
    /// Amounts whose sums pass 64-bit minor units.
    AmountsOutOfRange,
    /// Amounts whose per-account nets pass 64-bit minor units.
    NetsOutOfRange,
    /// The entry would put an account's balance past 64 bits (`None`: one of its accounts).
    BalanceWouldOverflow {
        /// The account, when known.
        account: Option<String>,
    },
    /// The entry would put a stored monthly or daily total past 64 bits.
    RollupWouldOverflow,
    /// An edit changing more items than one atomic write holds.
    EditTooLarge {
        /// Items it would change.
        items: usize,
        /// The most one write holds.
        max: usize,
    },
    /// An idempotency key empty or too long.
    KeyLength {
        /// The most characters.
        max: usize,
    },
    /// A batch with no entries or too many.
    BatchSize {
        /// The most entries.
        max: usize,
        /// How many were sent.
        got: usize,
    },

    // Balances, reports, pages.
    /// A snapshot's balance past 64 bits.
    BalanceOutOfRange,
    /// An opening balance past 64 bits.
    OpeningOutOfRange,
    /// A report over too many months.
    ReportTooLong {
        /// The most months.
        max: usize,
    },
    /// A history over too many months.
    HistoryTooLong {
        /// The most months.
        max: usize,
    },
    /// A page limit out of bounds.
    Limit {
        /// The most items.
        max: u32,
    },
    /// A tag with a report by member.
    TagByMember,

    // Budgets.
    /// A budget for an archived account.
    BudgetOfArchived {
        /// The account.
        account: String,
    },
    /// A budget for an account that is no expense.
    BudgetNotExpense {
        /// The account.
        account: String,
        /// Its kind.
        kind: AccountKind,
    },
    /// More budget settings than a vault keeps.
    TooManyBudgets {
        /// The most.
        max: usize,
    },
    /// A negative budget.
    NegativeBudget,

    // Cards.
    /// Billing on an account that is no liability.
    BillingNotLiability {
        /// The account.
        account: String,
        /// Its kind.
        kind: AccountKind,
    },
    /// Installments on money back onto a card.
    RefundInInstallments {
        /// The card.
        card: String,
    },
    /// Installments not paid by one billed card.
    InstallmentsNotByCard,
    /// Installments on a card without a billing cycle.
    InstallmentsWithoutBilling {
        /// The card.
        card: String,
    },
    /// More parts than minor units.
    TooManyParts {
        /// The purchase.
        total: Money,
        /// The parts asked.
        count: u8,
        /// The least part.
        least: Money,
    },
    /// 실적 without the card's cycle.
    PerformanceWithoutCycle,
    /// A 실적 threshold of zero or less.
    ThresholdNotPositive {
        /// As sent.
        got: Money,
    },
    /// Too many categories left out of 실적.
    TooManyExcluded {
        /// The most.
        max: usize,
        /// How many were sent.
        got: usize,
    },
    /// A category left out of 실적 that is no expense.
    ExcludeNotExpense {
        /// The account.
        account: String,
        /// Its kind.
        kind: AccountKind,
    },
    /// A bill of a card without a billing cycle.
    NoBillingCycle {
        /// The card.
        card: String,
    },
    /// create_account of an existing card with another cycle.
    OtherBillingCycle {
        /// The card.
        card: String,
    },

    // Vaults, accounts, members.
    /// A new name in the form of an archived account's handle.
    HandleForm {
        /// The name.
        name: String,
    },
    /// A restored vault's name in the form of a handle.
    RestoredHandleForm {
        /// The name.
        name: String,
    },
    /// More vaults than a person may have.
    TooManyVaults {
        /// The most.
        max: usize,
    },
    /// update_vault with nothing to change.
    NothingToChange,
    /// More weights than a vault has members.
    TooManyWeights {
        /// The most members.
        max: usize,
        /// How many weights were sent.
        got: usize,
    },
    /// An opening balance on an income or expense account.
    OpeningOfFlow,
    /// An opening date without an opening balance.
    OpeningDateAlone,
    /// An opening balance of the account opening balances post against.
    OpeningOfEquity {
        /// That account.
        account: String,
    },
    /// More accounts than a vault may have.
    TooManyAccounts {
        /// The most.
        max: usize,
    },
    /// The opening-balance account's name taken by another kind.
    EquityNameTaken {
        /// The name.
        account: String,
        /// The kind that has it.
        kind: AccountKind,
    },
    /// An invite when the vault has the most members.
    TooManyMembers {
        /// The most.
        max: usize,
    },
    /// A join when the vault has the most members.
    VaultFull {
        /// The most.
        max: usize,
    },
    /// remove_member naming the caller.
    RemovingYourself,
    /// delete_vault's confirmation not the vault's name.
    ConfirmMismatch {
        /// The vault's name.
        vault: String,
    },

    // Recurring entries.
    /// A day of the month outside 1–31.
    ScheduleDay {
        /// As sent.
        got: i64,
    },
    /// An end before the start.
    ScheduleEnd {
        /// The start.
        start: LocalDate,
        /// The end.
        end: LocalDate,
    },
    /// A recurring entry of this name with other settings, without `change`.
    ScheduleExists {
        /// Its name.
        name: String,
        /// What differs.
        differences: Vec<Difference>,
    },
    /// A new recurring entry missing what creating needs.
    NoScheduleYet {
        /// The name.
        name: String,
        /// The arguments missing.
        missing: Vec<&'static str>,
    },
    /// More recurring entries than a vault keeps.
    TooManySchedules {
        /// The most.
        max: usize,
    },
    /// A start more than a year ago.
    StartTooEarly {
        /// As sent.
        start: LocalDate,
        /// Today in the vault.
        today: LocalDate,
    },

    // The household.
    /// `for` on an entry with no expense account.
    ForWithoutExpense,
    /// An owner for the opening-balance account.
    OwnerOfEquity {
        /// That account.
        account: String,
    },
    /// shares naming nobody.
    NoShares,
    /// A member named twice in shares.
    MemberTwice {
        /// The member.
        member: String,
    },
    /// A weight outside 0..=max.
    WeightOutOfRange {
        /// The member.
        member: String,
        /// The most.
        max: i64,
        /// As sent.
        got: i64,
    },
    /// Every weight 0.
    AllWeightsZero,
    /// More changes of shares than a vault keeps.
    TooManyShareChanges {
        /// The most.
        max: usize,
    },

    // Category groups.
    /// A parent for an account that is no category.
    ParentOfNonCategory {
        /// The account.
        account: String,
        /// Its kind.
        kind: AccountKind,
    },
    /// An account as its own parent.
    OwnParent {
        /// The account.
        account: String,
        /// Its kind.
        kind: AccountKind,
    },
    /// A parent of another kind.
    ParentOfOtherKind {
        /// The child.
        account: String,
        /// Its kind.
        kind: AccountKind,
        /// The parent asked.
        parent: String,
        /// Its kind.
        parent_kind: AccountKind,
    },
    /// A parent under the child: a cycle.
    ParentCycle {
        /// The parent asked.
        parent: String,
        /// The child.
        account: String,
    },
    /// A parent that has a parent itself.
    ParentTooDeep {
        /// The parent asked.
        parent: String,
        /// Its own parent.
        grand: String,
    },
    /// A child that has children itself.
    ChildHasChildren {
        /// The child.
        account: String,
        /// Its first child by name.
        first: String,
        /// How many more children it has.
        more: usize,
        /// The parent asked.
        parent: String,
    },

    // Goals.
    /// A goal on an account that is no asset.
    GoalNotInAsset {
        /// The account.
        account: String,
        /// Its kind.
        kind: AccountKind,
    },
    /// A goal name another account's goal has.
    GoalNameTaken {
        /// The goal.
        goal: String,
        /// The account that keeps it.
        account: String,
    },
    /// An account that keeps another goal.
    AccountHasGoal {
        /// The account.
        account: String,
        /// Its goal.
        goal: String,
    },
    /// A new goal without a target.
    GoalWithoutTarget,
    /// A target of zero or less.
    TargetNotPositive {
        /// As sent.
        got: Money,
    },
    /// A goal date already passed.
    GoalDatePassed {
        /// As sent.
        by: LocalDate,
        /// Today in the vault.
        today: LocalDate,
    },

    // Learned words.
    /// A memo matching the words of two categories.
    WordsOfTwo {
        /// The memo.
        memo: String,
        /// The first word and its category (boxed: keeps every result's error small).
        first: Box<(String, String)>,
        /// The second word and its category.
        second: Box<(String, String)>,
    },
    /// A memo no category's words match.
    NoWordMatches {
        /// The memo.
        memo: String,
        /// The vault's name.
        vault: String,
        /// The live expense categories, by name.
        categories: Vec<String>,
    },
    /// Words for an account that is no expense.
    WordsNotExpense {
        /// The account.
        account: String,
        /// Its kind.
        kind: AccountKind,
    },
    /// More words than an account keeps.
    TooManyWords {
        /// The most.
        max: usize,
        /// How many were sent.
        got: usize,
    },
    /// A word empty, too long or with a line break.
    BadWord {
        /// The word.
        word: String,
        /// The most characters.
        max: usize,
    },
    /// A word another category has.
    WordTaken {
        /// The word.
        word: String,
        /// The category that has it.
        account: String,
    },
    /// More words than a vault keeps.
    TooManyVaultWords {
        /// The most.
        max: usize,
        /// How many other accounts have.
        elsewhere: usize,
    },
}

/// Which stored total passed 64-bit minor units ([`crate::api::LedgerError::OutOfRange`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Total {
    /// A card's 실적 for its period.
    Performance,
    /// A card's bill.
    CardBill,
    /// An account's balance, by name.
    Balance {
        /// The account.
        account: String,
    },
    /// An account's balance, by id (where only the rollup is at hand).
    BalanceOf {
        /// The account.
        account: AccountId,
    },
    /// One kind's balance of an account.
    KindBalance {
        /// The kind.
        kind: AccountKind,
    },
    /// A balance at the end of a month, in a history.
    BalanceAtEnd {
        /// The account.
        account: AccountId,
        /// The month.
        month: YearMonth,
    },
    /// Reconcile's difference between a snapshot and the ledger.
    SnapshotDifference {
        /// The account.
        account: String,
    },
    /// A balance after an undo.
    AfterUndo,
    /// The vault's balance of one account kind (list_accounts).
    VaultBalance {
        /// The vault.
        vault: String,
    },
    /// The vault's asset or liability total.
    KindTotal {
        /// Asset or liability.
        kind: AccountKind,
        /// The vault.
        vault: String,
    },
    /// The vault's net worth.
    NetWorth {
        /// The vault.
        vault: String,
    },
    /// A spending report's total (`month`: one month's column).
    ReportTotal {
        /// The vault.
        vault: String,
        /// The month, when the total is one month's.
        month: Option<YearMonth>,
    },
    /// An account's row in a report.
    ReportRow {
        /// The account.
        account: AccountId,
    },
    /// A group's row in a report.
    GroupRow {
        /// The parent account.
        group: AccountId,
    },
    /// An account's total in one month.
    AccountMonth {
        /// The account.
        account: AccountId,
        /// The month.
        month: YearMonth,
    },
    /// An account's change in one month (a history).
    MonthChange {
        /// The account.
        account: AccountId,
    },
    /// A tag's total (`month`: in one month).
    Tag {
        /// The tag.
        tag: String,
        /// The month, when the total is one month's.
        month: Option<YearMonth>,
    },
    /// The vault's entries dated after today.
    Scheduled {
        /// The vault.
        vault: String,
    },
    /// A settle-up.
    SettleUp {
        /// The vault.
        vault: String,
    },
    /// A report by member.
    MemberReport {
        /// The vault.
        vault: String,
    },
}
