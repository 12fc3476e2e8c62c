//! What can go wrong in a ledger operation, by meaning.
//!
//! Errors are typed by meaning ([`LedgerError::kind`]: invalid input, not found,
//! conflict, temporarily unavailable, internal) and name inputs by the ledger's
//! own [`Field`], never by a tool's argument names: the tools layer words each
//! error for a model with its own argument names, in one place. Each variant's
//! `Display` is one terse line for logs and developers (what it means, its key
//! fields); the English a model reads, with its advice, is the tools crate's
//! (`dochiya_tools::wording`), so rewording it rebuilds no ledger crate.

use std::fmt;

use dochiya_domain::{LocalDate, Money, ParseError, TransactionId};
use dochiya_store::StoreError;

use crate::api::{Reason, Total};

/// The kinds of things a name or id can refer to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Entity {
    /// A vault (금고).
    Vault,
    /// An account (계정).
    Account,
    /// A transaction.
    Transaction,
    /// A balance snapshot.
    Snapshot,
    /// A person keeping a shared vault.
    Member,
    /// A recurring schedule (set_recurring).
    Recurring,
    /// A savings goal (set_goal).
    Goal,
}

impl Entity {
    /// Lowercase noun.
    pub fn as_str(self) -> &'static str {
        match self {
            Entity::Vault => "vault",
            Entity::Account => "account",
            Entity::Transaction => "transaction",
            Entity::Snapshot => "snapshot",
            Entity::Member => "member",
            Entity::Recurring => "recurring entry",
            Entity::Goal => "goal",
        }
    }
}

impl fmt::Display for Entity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The side of a transaction a line is on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// Money leaves these accounts (credited).
    From,
    /// Money arrives at these accounts (debited).
    To,
}

impl Side {
    /// Lowercase word.
    pub fn as_str(self) -> &'static str {
        match self {
            Side::From => "from",
            Side::To => "to",
        }
    }
}

/// Which input of a ledger operation an error is about, in the ledger's terms.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Field {
    /// The caller's idempotency key of an entry.
    IdempotencyKey,
    /// The one amount of a simple (one line each side) entry.
    Amount,
    /// A transaction's memo.
    Memo,
    /// Why a transaction is voided.
    VoidReason,
    /// The lines of one side, as a whole (missing, too many).
    Lines(Side),
    /// The amount of one line (`index` from 0 within its side).
    LineAmount {
        /// Its side.
        side: Side,
        /// Its position within the side.
        index: usize,
    },
    /// The account of one line (`index` from 0 within its side).
    LineAccount {
        /// Its side.
        side: Side,
        /// Its position within the side.
        index: usize,
    },
    /// A total of amounts or a resulting balance.
    Total,
    /// The name of a new vault or account.
    Name,
    /// A joiner's own name for the vault they join.
    VaultName,
    /// A joiner's display name among the vault's members.
    MemberName,
    /// The new name of a renamed vault or account.
    NewName,
    /// An account's opening balance.
    OpeningBalance,
    /// The date of an account's opening balance.
    OpeningDate,
    /// A snapshot's balance.
    Balance,
    /// How many items a page may hold.
    Limit,
    /// The end of a date or month range.
    RangeEnd,
    /// A vault's currency.
    Currency,
    /// A vault's time zone.
    TimeZone,
    /// The account a budget is set for.
    BudgetAccount,
    /// A budget's amount.
    BudgetAmount,
    /// The month a budget is set for.
    BudgetMonth,
    /// A transaction's date.
    Date,
    /// A statement line's own id (`externalRef`).
    ExternalRef,
    /// The entries of a batch, as a whole (how many).
    Entries,
    /// An invite code.
    InviteCode,
    /// A member of a shared vault, by name.
    Member,
    /// The vault's name typed again to confirm a deletion.
    Confirm,
    /// An argument of a recurring schedule, by its argument name (`day`, `end`, `start`…).
    Recurring(&'static str),
    /// An argument of the category tree, tags or rollover, by its argument name
    /// (`parent`, `tags`, `tag`, `rollover`).
    Category(&'static str),
    /// An argument of a card's billing, its installments or its bill, by its argument
    /// name (`billing`, `installments`, `account`, `month`).
    Card(&'static str),
    /// An argument of the household's arrangement, by its argument name (`for`,
    /// `owner`, `shares`).
    Household(&'static str),
}

impl fmt::Display for Field {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Field::IdempotencyKey => f.write_str("idempotency key"),
            Field::Amount => f.write_str("amount"),
            Field::Memo => f.write_str("memo"),
            Field::VoidReason => f.write_str("void reason"),
            Field::Lines(side) => write!(f, "{} lines", side.as_str()),
            Field::LineAmount { side, index } => write!(f, "amount of {} line {}", side.as_str(), index + 1),
            Field::LineAccount { side, index } => {
                write!(f, "account of {} line {}", side.as_str(), index + 1)
            }
            Field::Total => f.write_str("total"),
            Field::Name => f.write_str("name"),
            Field::NewName => f.write_str("new name"),
            Field::VaultName => f.write_str("name for the vault"),
            Field::MemberName => f.write_str("display name"),
            Field::OpeningBalance => f.write_str("opening balance"),
            Field::OpeningDate => f.write_str("opening date"),
            Field::Balance => f.write_str("balance"),
            Field::Limit => f.write_str("limit"),
            Field::RangeEnd => f.write_str("range end"),
            Field::Currency => f.write_str("currency"),
            Field::TimeZone => f.write_str("time zone"),
            Field::BudgetAccount => f.write_str("budget account"),
            Field::BudgetAmount => f.write_str("budget amount"),
            Field::BudgetMonth => f.write_str("budget month"),
            Field::Date => f.write_str("date"),
            Field::ExternalRef => f.write_str("external reference"),
            Field::Entries => f.write_str("entries"),
            Field::InviteCode => f.write_str("invite code"),
            Field::Member => f.write_str("member"),
            Field::Confirm => f.write_str("confirmation"),
            Field::Recurring(arg) => f.write_str(arg),
            Field::Category(arg) => f.write_str(arg),
            Field::Card(arg) => f.write_str(arg),
            Field::Household(arg) => f.write_str(arg),
        }
    }
}

/// What only an owner of a shared vault may do (named when a member is refused).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OwnerAction {
    /// rename_account.
    RenameAccounts,
    /// archive_account.
    ArchiveAccounts,
    /// rename_vault.
    RenameVault,
    /// share_vault.
    Invite,
    /// remove_member.
    RemoveMembers,
    /// update_account with parent.
    ArrangeCategories,
    /// delete_vault.
    DeleteVault,
    /// update_vault with shares.
    SetShares,
    /// update_account with owner.
    AssignOwners,
}

/// How an edit's request can be malformed (worded with argument names by the tools).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EditShape {
    /// Both every line anew and the simple fields (amount, from, to).
    LinesAndSimple,
    /// Nothing to change was given.
    NothingToChange,
    /// The simple fields on a transaction with more than one line on a side.
    SplitNeedsLines,
}

/// Why a recurring entry's occurrence could not be posted (other than a lost race,
/// which replays): it would fail the same way again, so the schedule stops there
/// until a change (`set_recurring` with `change`) or its removal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StuckReason {
    /// A stored total of one of its accounts would pass 64 bits.
    Overflow,
    /// One of its accounts is archived (or gone).
    ArchivedAccount,
    /// The store refused the write for another reason (an item too large).
    Refused,
}

impl StuckReason {
    /// As stored, and as results spell it.
    pub fn as_str(self) -> &'static str {
        match self {
            StuckReason::Overflow => "overflow",
            StuckReason::ArchivedAccount => "archivedAccount",
            StuckReason::Refused => "refused",
        }
    }

    /// From its stored spelling.
    pub fn parse(text: &str) -> Option<StuckReason> {
        [
            StuckReason::Overflow,
            StuckReason::ArchivedAccount,
            StuckReason::Refused,
        ]
        .into_iter()
        .find(|r| r.as_str() == text)
    }
}

/// What kind of failure an error is: how a caller should react.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorKind {
    /// The input is wrong; fix it and call again.
    InvalidInput,
    /// The named thing does not exist among the caller's own.
    NotFound,
    /// The input conflicts with what is stored (a name taken, a key reused, a likely duplicate).
    Conflict,
    /// Nothing was written and calling again unchanged may succeed.
    TemporarilyUnavailable,
    /// A bug or a broken store.
    Internal,
}

/// One of several things a name could mean, and where it lives.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Match {
    /// Its name.
    pub name: String,
    /// Where it lives (e.g. `vault "가계부"`), or its id.
    pub location: String,
}

/// A ledger operation's failure.
#[derive(Debug, thiserror::Error)]
pub enum LedgerError {
    /// No such vault, account or transaction among the caller's own.
    #[error("not found: {what} \"{name}\"{}", place(within.as_deref()))]
    NotFound {
        /// What was looked up.
        what: Entity,
        /// The name or id as given.
        name: String,
        /// Where it was looked up (`vault "가계부"`), if inside a vault.
        within: Option<String>,
        /// The closest existing names, best first.
        candidates: Vec<String>,
    },
    /// An id where a name belongs: tools take names (DESIGN §4).
    #[error("id for a name: {what} \"{given}\" is {id_kind:?}{}", place(within.as_deref()))]
    IdForName {
        /// What was looked up.
        what: Entity,
        /// The id as given.
        given: String,
        /// What it looks like.
        id_kind: dochiya_domain::IdShape,
        /// Where it was looked up (`vault "가계부"`), if inside a vault.
        within: Option<String>,
        /// The name of the thing that has this id, when one does.
        meant: Option<String>,
        /// Names to pass instead (a few, by name).
        candidates: Vec<String>,
    },
    /// The name matches several things; nothing was picked.
    #[error("ambiguous: {what} \"{name}\" matches {}", matches.len())]
    Ambiguous {
        /// What was looked up.
        what: Entity,
        /// The name as given (empty when the argument was omitted).
        name: String,
        /// Every match with where it lives.
        matches: Vec<Match>,
    },
    /// An input is malformed or not allowed.
    #[error("invalid {field}: {reason:?}")]
    InvalidInput {
        /// Which input.
        field: Field,
        /// Which rule refused it, with its values (the tools word it).
        reason: Reason,
    },
    /// The name is already used by something with different settings.
    #[error("name taken: {what} \"{name}\" exists as {existing:?}")]
    NameTaken {
        /// Vault or account.
        what: Entity,
        /// The requested name.
        name: String,
        /// What already has it.
        existing: Holder,
    },
    /// A split's sides do not sum to the same amount.
    #[error("unbalanced: debits {debits}, credits {credits}")]
    Unbalanced {
        /// Sum of the `to` lines (debits).
        debits: Money,
        /// Sum of the `from` lines (credits).
        credits: Money,
        /// How much the larger side exceeds the other (never negative).
        difference: Money,
    },
    /// The caller was a member of the vault they mean until `on`: removed, or they left.
    #[error("access ended: vault \"{vault}\" on {on} (removed: {removed})")]
    AccessEnded {
        /// The vault's name.
        vault: String,
        /// The day it ended, in the vault's zone.
        on: LocalDate,
        /// Removed by an owner (else the caller left).
        removed: bool,
    },
    /// The vault the caller means was deleted by an owner on `on`.
    #[error("vault deleted: \"{vault}\" on {on}")]
    VaultDeleted {
        /// The vault's name.
        vault: String,
        /// The day it was deleted, in the vault's zone.
        on: LocalDate,
    },
    /// The person deleted their data after this token was issued: it reaches nothing.
    #[error("person deleted")]
    PersonDeleted,
    /// A range whose start is after its end (dates or months).
    #[error("backwards range: {from} to {to}")]
    BackwardsRange {
        /// The start as given.
        from: String,
        /// The end as given.
        to: String,
    },
    /// A page cursor that this listing (vault and filters) did not make.
    #[error("bad cursor")]
    BadCursor,
    /// The idempotency key was used before with different arguments.
    #[error("idempotency key \"{key}\" reused")]
    IdempotencyKeyReused {
        /// The key.
        key: String,
    },
    /// An identical transaction was recorded moments ago.
    #[error("duplicate of {earlier_id}")]
    ProbableDuplicate {
        /// The earlier transaction.
        earlier_id: TransactionId,
        /// Its date.
        earlier_date: LocalDate,
        /// Its memo.
        earlier_memo: String,
        /// When it was recorded.
        recorded_at: jiff::Timestamp,
        /// How long ago it was recorded, in whole minutes.
        minutes_ago: i64,
    },
    /// The externalRef was recorded before in this vault: the entry is already in the ledger.
    #[error("external ref \"{external_ref}\" taken by {transaction_id}")]
    ExternalRefTaken {
        /// The reference as given.
        external_ref: String,
        /// The transaction that holds it.
        transaction_id: TransactionId,
    },
    /// A new transaction names an archived account.
    #[error("archived account \"{name}\"")]
    ArchivedAccount {
        /// The account's name.
        name: String,
    },
    /// Archiving an account that still holds money, without `force`.
    #[error("archive with balance: account \"{name}\" holds {balance}{}", later(scheduled.as_ref()))]
    ArchiveWithBalance {
        /// The account.
        name: String,
        /// Its balance as of today, natural sign.
        balance: Money,
        /// Net of its entries dated after today, natural sign, when there are any.
        scheduled: Option<Money>,
    },
    /// The name of an existing account was given with another kind or opening balance.
    #[error("account mismatch: \"{name}\" in {vault} is {existing}, asked {requested}")]
    AccountMismatch {
        /// The account's name.
        name: String,
        /// Its vault, described (`vault "가계부"`).
        vault: String,
        /// What it is: kind and opening balance (boxed: keeps every result's error small).
        existing: Box<AccountShape>,
        /// What the call asked for.
        requested: Box<AccountShape>,
    },
    /// A stored total cannot be shown: it passes what 64-bit minor units hold (a read
    /// never fails with an internal error on ledger state; it says which total).
    #[error("out of range: {total:?}")]
    OutOfRange {
        /// Which total.
        total: Total,
    },
    /// A recurring entry whose due occurrence cannot be posted as it is: nothing was stored.
    #[error("recurring entry \"{name}\" cannot post {date}: {}", reason.as_str())]
    ScheduleCannotPost {
        /// The schedule's name.
        name: String,
        /// The occurrence that could not post.
        date: LocalDate,
        /// Why.
        reason: StuckReason,
    },
    /// The caller's role in a shared vault does not allow the action.
    #[error("needs an owner: {action:?} in vault \"{vault}\"")]
    NeedsOwner {
        /// What was refused.
        action: OwnerAction,
        /// The vault, by the caller's name for it.
        vault: String,
    },
    /// No invite has this code (or the text cannot be one).
    #[error("unknown invite")]
    InviteUnknown,
    /// The invite was already used by someone.
    #[error("invite used")]
    InviteUsed,
    /// The invite is past its 7 days.
    #[error("invite expired")]
    InviteExpired,
    /// The joined vault's name is already one of the joiner's vault names.
    #[error("join name taken: \"{name}\"")]
    JoinNameTaken {
        /// The colliding name.
        name: String,
    },
    /// The display name a joiner asked for is another member's.
    #[error("member name taken: \"{name}\"")]
    MemberNameTaken {
        /// The name asked for.
        name: String,
    },
    /// The joiner is already a member of the vault.
    #[error("already a member: vault \"{vault}\" ({role})")]
    AlreadyMember {
        /// The caller's name for it.
        vault: String,
        /// Their role.
        role: &'static str,
    },
    /// The last owner may not leave while others remain.
    #[error("last owner of vault \"{vault}\"")]
    LastOwner {
        /// The vault.
        vault: String,
    },
    /// The only member may not leave (the vault would be reachable by nobody).
    #[error("only member of vault \"{vault}\"")]
    OnlyMember {
        /// The vault.
        vault: String,
    },
    /// A snapshot dated after the vault's today.
    #[error("snapshot after today: {date} (today {today})")]
    SnapshotAfterToday {
        /// The date given.
        date: LocalDate,
        /// Today in the vault.
        today: LocalDate,
    },
    /// A snapshot of an account that has no balance to see (income, expense, equity).
    #[error("snapshot of a flow account: \"{name}\" ({kind})")]
    SnapshotOfFlowAccount {
        /// The account.
        name: String,
        /// Its kind.
        kind: dochiya_domain::AccountKind,
    },
    /// A transaction date more than a year after today, not said to be meant.
    #[error("far future date: {date} (today {today})")]
    FarFutureDate {
        /// The date given.
        date: LocalDate,
        /// Today in the vault.
        today: LocalDate,
    },
    /// An edit of a voided transaction.
    #[error("edit of voided transaction {id}")]
    EditOfVoided {
        /// The transaction.
        id: TransactionId,
    },
    /// An edit that expected another version than the stored one.
    #[error("version mismatch: transaction {id} at {current}, expected {expected}")]
    VersionMismatch {
        /// The transaction.
        id: TransactionId,
        /// The version the caller expected.
        expected: u32,
        /// The version stored now.
        current: u32,
    },
    /// A transaction edited as often as its history may hold.
    #[error("too many edits: transaction {id} (most {most})")]
    TooManyEdits {
        /// The transaction.
        id: TransactionId,
        /// The limit.
        most: u32,
    },
    /// An edit whose request does not fit the transaction or itself.
    #[error("edit shape: {0:?}")]
    EditShape(EditShape),
    /// No operation with this id in the vault (`entry_operation`: the id is a
    /// transaction's, whose entry shows that operation; empty when it shows none).
    #[error("unknown operation {id} in vault \"{vault}\"")]
    UnknownOperation {
        /// The id as given.
        id: String,
        /// The vault, by the caller's name for it.
        vault: String,
        /// When the id is a transaction's in this vault: the operation its entry shows.
        entry_operation: Option<String>,
    },
    /// `undo` without an id, by someone who made no operation in the vault.
    #[error("no operation to undo in vault \"{vault}\"")]
    NoOperation {
        /// The vault.
        vault: String,
    },
    /// A member undoing another person's operation.
    #[error("undo not yours: operation {id} by {by} in vault \"{vault}\"")]
    UndoNotYours {
        /// The operation.
        id: String,
        /// Its maker's display name.
        by: String,
        /// The vault.
        vault: String,
    },
    /// An undo refused whole: entries of the operation changed since.
    #[error("undo blocked: operation {id} ({} entries changed)", changes.len())]
    UndoBlocked {
        /// The operation.
        id: String,
        /// Each entry in the way and what changed.
        changes: Vec<UndoBlock>,
    },
    /// A concurrent change won; nothing was written. Safe to retry.
    #[error("conflict: a concurrent change won")]
    Conflict,
    /// Storage is temporarily unavailable; nothing is known to be written. Safe to retry with the same arguments.
    #[error("store temporarily unavailable")]
    Transient(#[source] StoreError),
    /// An unexpected failure (a bug or a broken store).
    #[error("internal ledger error: {context}")]
    Internal {
        /// What was being done.
        context: String,
        /// The cause, if any.
        #[source]
        source: Option<Box<dyn std::error::Error + Send + Sync>>,
    },
}

impl LedgerError {
    /// A total out of range ([`LedgerError::OutOfRange`]).
    pub fn out_of_range(total: Total) -> LedgerError {
        LedgerError::OutOfRange { total }
    }

    /// An invalid input.
    pub fn invalid(field: Field, reason: Reason) -> LedgerError {
        LedgerError::InvalidInput { field, reason }
    }

    /// An invalid input from a parse error.
    pub fn from_parse(field: Field, err: ParseError) -> LedgerError {
        LedgerError::invalid(field, Reason::Parse(err))
    }

    /// Refuse a range whose start is after its end (the one place this rule lives).
    pub fn check_range<T: PartialOrd + fmt::Display>(from: &T, to: &T) -> Result<(), LedgerError> {
        if from > to {
            return Err(LedgerError::BackwardsRange {
                from: from.to_string(),
                to: to.to_string(),
            });
        }
        Ok(())
    }

    /// What kind of failure this is.
    pub fn kind(&self) -> ErrorKind {
        match self {
            LedgerError::NotFound { .. }
            | LedgerError::InviteUnknown
            | LedgerError::AccessEnded { .. }
            | LedgerError::VaultDeleted { .. }
            | LedgerError::PersonDeleted => ErrorKind::NotFound,
            LedgerError::InviteUsed
            | LedgerError::JoinNameTaken { .. }
            | LedgerError::MemberNameTaken { .. }
            | LedgerError::AlreadyMember { .. }
            | LedgerError::LastOwner { .. } => ErrorKind::Conflict,
            LedgerError::NeedsOwner { .. } | LedgerError::InviteExpired | LedgerError::OnlyMember { .. } => {
                ErrorKind::InvalidInput
            }
            LedgerError::NameTaken { .. }
            | LedgerError::IdempotencyKeyReused { .. }
            | LedgerError::ProbableDuplicate { .. }
            | LedgerError::ExternalRefTaken { .. }
            | LedgerError::VersionMismatch { .. }
            | LedgerError::ArchiveWithBalance { .. }
            | LedgerError::UndoBlocked { .. }
            | LedgerError::AccountMismatch { .. } => ErrorKind::Conflict,
            LedgerError::UnknownOperation { .. } | LedgerError::NoOperation { .. } => ErrorKind::NotFound,
            LedgerError::UndoNotYours { .. } => ErrorKind::InvalidInput,
            LedgerError::Conflict | LedgerError::Transient(_) => ErrorKind::TemporarilyUnavailable,
            LedgerError::Internal { .. } => ErrorKind::Internal,
            LedgerError::Ambiguous { .. }
            | LedgerError::IdForName { .. }
            | LedgerError::InvalidInput { .. }
            | LedgerError::Unbalanced { .. }
            | LedgerError::BackwardsRange { .. }
            | LedgerError::BadCursor
            | LedgerError::EditOfVoided { .. }
            | LedgerError::SnapshotAfterToday { .. }
            | LedgerError::FarFutureDate { .. }
            | LedgerError::SnapshotOfFlowAccount { .. }
            | LedgerError::TooManyEdits { .. }
            | LedgerError::EditShape(_)
            | LedgerError::ArchivedAccount { .. }
            | LedgerError::ScheduleCannotPost { .. }
            // A stored total past 64 bits: the model can fix it by voiding an entry.
            | LedgerError::OutOfRange { .. } => ErrorKind::InvalidInput,
        }
    }

    /// An internal failure without a cause.
    pub fn internal(context: impl Into<String>) -> LedgerError {
        LedgerError::Internal {
            context: context.into(),
            source: None,
        }
    }

    /// An internal failure with a cause.
    pub fn internal_from(
        context: impl Into<String>,
        source: impl std::error::Error + Send + Sync + 'static,
    ) -> LedgerError {
        LedgerError::Internal {
            context: context.into(),
            source: Some(Box::new(source)),
        }
    }

    /// Whether the model can act on the message (everything but [`LedgerError::Internal`]).
    pub fn is_user_facing(&self) -> bool {
        !matches!(self, LedgerError::Internal { .. })
    }

    /// Whether calling again unchanged may succeed.
    pub fn is_retryable(&self) -> bool {
        self.kind() == ErrorKind::TemporarilyUnavailable
    }
}

impl From<StoreError> for LedgerError {
    fn from(e: StoreError) -> Self {
        match e {
            StoreError::Transient(_) => LedgerError::Transient(e),
            other => LedgerError::internal_from("store request failed", other),
        }
    }
}

/// An entry that keeps an operation from being undone, and what changed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UndoBlock {
    /// The entry.
    pub transaction_id: TransactionId,
    /// What changed since.
    pub what: Blocker,
}

/// What happened to an entry since the operation being undone (`by`: the operation
/// that did it, when the entry shows one).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Blocker {
    /// It was voided since.
    Voided {
        /// By which operation.
        by: Option<crate::api::OperationId>,
    },
    /// It was edited since, to `version`.
    Edited {
        /// By which operation.
        by: Option<crate::api::OperationId>,
        /// Its version now.
        version: u32,
    },
    /// It changed in another way.
    Changed {
        /// By which operation.
        by: Option<crate::api::OperationId>,
    },
    /// Counting it again would move an account archived since.
    ArchivedAccount {
        /// The account.
        account: String,
    },
}

/// What already has a name another vault or account asked for ([`LedgerError::NameTaken`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Holder {
    /// One of the caller's vaults, with other settings than asked.
    Vault {
        /// Its currency.
        currency: dochiya_domain::Currency,
        /// Its time zone's name.
        zone: String,
    },
    /// Another of the caller's vaults (a rename).
    OtherVault {
        /// Its currency.
        currency: dochiya_domain::Currency,
    },
    /// Another account of the vault (a rename).
    OtherAccount {
        /// Its kind.
        kind: dochiya_domain::AccountKind,
        /// The vault's name.
        vault: String,
    },
    /// A live account of the vault (bringing an archived one back).
    LiveAccount {
        /// Its kind.
        kind: dochiya_domain::AccountKind,
        /// The vault's name.
        vault: String,
    },
}

/// An account's kind and opening balance, as a create_account mismatch shows them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AccountShape {
    /// Its kind.
    pub kind: dochiya_domain::AccountKind,
    /// Its opening balance (natural sign); `None`: not given, or not known (an account from before it was kept).
    pub opening: Option<Money>,
}

impl fmt::Display for AccountShape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.opening {
            Some(o) => write!(f, "{} (opening {o})", self.kind),
            None => write!(f, "{} (opening unknown)", self.kind),
        }
    }
}

/// ` in {within}`, when a lookup was inside a vault (terse lines only).
fn place(within: Option<&str>) -> String {
    within.map(|w| format!(" in {w}")).unwrap_or_default()
}

/// `, {s} later`, when an account has entries dated after today (terse lines only).
fn later(scheduled: Option<&Money>) -> String {
    scheduled.map(|s| format!(", {s} later")).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use dochiya_domain::{AccountKind, Currency};

    #[test]
    fn display_is_one_terse_line_with_the_key_fields() {
        let e = LedgerError::NotFound {
            what: Entity::Account,
            name: "식비".into(),
            within: Some("vault \"가계부\"".into()),
            candidates: vec!["외식비".into()],
        };
        assert_eq!(e.to_string(), "not found: account \"식비\" in vault \"가계부\"");
        let e = LedgerError::ArchivedAccount { name: "x".into() };
        assert_eq!(e.to_string(), "archived account \"x\"");
        let won = |n| Money::from_minor(n, Currency::KRW);
        let e = LedgerError::AccountMismatch {
            name: "현금".into(),
            vault: "vault \"가계부\"".into(),
            existing: Box::new(AccountShape {
                kind: AccountKind::Asset,
                opening: Some(won(0)),
            }),
            requested: Box::new(AccountShape {
                kind: AccountKind::Asset,
                opening: None,
            }),
        };
        assert_eq!(
            e.to_string(),
            "account mismatch: \"현금\" in vault \"가계부\" is asset (opening 0), asked asset (opening unknown)"
        );
        assert_eq!(
            LedgerError::internal("broken index").to_string(),
            "internal ledger error: broken index"
        );
    }
}
