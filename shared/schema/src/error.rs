//! What can go wrong in a ledger operation, by meaning.
//!
//! Errors are typed by meaning ([`LedgerError::kind`]: invalid input, not found,
//! conflict, temporarily unavailable, internal) and name inputs by the ledger's
//! own [`Field`], never by a tool's argument names: the tools layer words each
//! error for a model with its own argument names, in one place. Messages here
//! say what was wrong in the ledger's terms.

use std::fmt;

use crate::domain::{LocalDate, Money, ParseError, TransactionId};
use crate::store::StoreError;

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
        }
    }

    /// The tool that lists this entity.
    fn lister(self) -> &'static str {
        match self {
            Entity::Vault => "list_vaults",
            Entity::Account => "list_accounts",
            Entity::Transaction | Entity::Snapshot => "list_transactions",
            Entity::Member => "list_vaults",
            Entity::Recurring => "list_recurring",
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
    /// An argument of a recurring schedule, by its argument name (`day`, `end`, `start`…).
    Recurring(&'static str),
    /// An argument of the category tree, tags or rollover, by its argument name
    /// (`parent`, `tags`, `tag`, `rollover`).
    Category(&'static str),
    /// An argument of a card's billing, its installments or its bill, by its argument
    /// name (`billing`, `installments`, `account`, `month`).
    Card(&'static str),
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
            Field::Recurring(arg) => f.write_str(arg),
            Field::Category(arg) => f.write_str(arg),
            Field::Card(arg) => f.write_str(arg),
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
}

impl fmt::Display for OwnerAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            OwnerAction::RenameAccounts => "rename accounts",
            OwnerAction::ArchiveAccounts => "archive accounts",
            OwnerAction::RenameVault => "rename the vault",
            OwnerAction::Invite => "invite people",
            OwnerAction::RemoveMembers => "remove members",
            OwnerAction::ArrangeCategories => "change an account's parent",
        })
    }
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

impl EditShape {
    /// In the ledger's terms.
    pub fn message(self) -> &'static str {
        match self {
            EditShape::LinesAndSimple => {
                "An edit gives either every line anew or the simple fields, not both."
            }
            EditShape::NothingToChange => "The edit changes nothing: give at least one field to change.",
            EditShape::SplitNeedsLines => {
                "The transaction has several lines on a side; its amounts and accounts change by giving every line anew."
            }
        }
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
    #[error("{}", not_found_message(*what, name, within.as_deref(), candidates))]
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
    #[error("{}", id_for_name_message(*what, given, id_kind, within.as_deref(), meant.as_deref(), candidates))]
    IdForName {
        /// What was looked up.
        what: Entity,
        /// The id as given.
        given: String,
        /// What it looks like (`an id (a UUID)`, `a transaction id`).
        id_kind: &'static str,
        /// Where it was looked up (`vault "가계부"`), if inside a vault.
        within: Option<String>,
        /// The name of the thing that has this id, when one does.
        meant: Option<String>,
        /// Names to pass instead (a few, by name).
        candidates: Vec<String>,
    },
    /// The name matches several things; nothing was picked.
    #[error("{}", ambiguous_message(*what, name, matches))]
    Ambiguous {
        /// What was looked up.
        what: Entity,
        /// The name as given (empty when the argument was omitted).
        name: String,
        /// Every match with where it lives.
        matches: Vec<Match>,
    },
    /// An input is malformed or not allowed.
    #[error("Invalid {field}: {message}")]
    InvalidInput {
        /// Which input.
        field: Field,
        /// What is wrong and how to write it instead.
        message: String,
    },
    /// The name is already used by something with different settings.
    #[error("{}", name_taken_message(*what, name, existing))]
    NameTaken {
        /// Vault or account.
        what: Entity,
        /// The requested name.
        name: String,
        /// What already has it (e.g. `an expense account`).
        existing: String,
    },
    /// A split's sides do not sum to the same amount.
    #[error(
        "The split does not balance: the `from` lines sum to {credits} and the `to` lines sum to {debits}, so the `{}` side is {difference} more. Make both sides add up to the same total.",
        if debits.minor() > credits.minor() { "to" } else { "from" }
    )]
    Unbalanced {
        /// Sum of the `to` lines (debits).
        debits: Money,
        /// Sum of the `from` lines (credits).
        credits: Money,
        /// How much the larger side exceeds the other (never negative).
        difference: Money,
    },
    /// The caller was a member of the vault they mean until `on`: removed, or they left.
    #[error(
        "Your access to vault \"{vault}\" ended on {on} ({}). Its entries are not yours to read or record any more. Do not create a new vault to carry on this book: ask one of its owners for a new invite and call join_vault with it.",
        if *removed { "an owner removed you" } else { "you left it" }
    )]
    AccessEnded {
        /// The vault's name.
        vault: String,
        /// The day it ended, in the vault's zone.
        on: LocalDate,
        /// Removed by an owner (else the caller left).
        removed: bool,
    },
    /// A range whose start is after its end (dates or months).
    #[error("The range runs backwards: it starts at {from} and ends at {to}.")]
    BackwardsRange {
        /// The start as given.
        from: String,
        /// The end as given.
        to: String,
    },
    /// A page cursor that this listing (vault and filters) did not make.
    #[error("The cursor was not made by this listing (same vault and filters).")]
    BadCursor,
    /// The idempotency key was used before with different arguments.
    #[error("Idempotency key \"{key}\" was already used for a different entry.")]
    IdempotencyKeyReused {
        /// The key.
        key: String,
    },
    /// An identical transaction was recorded moments ago.
    #[error(
        "An entry with the same date, accounts and amount was recorded {minutes_ago} minute(s) ago as transaction {earlier_id} (dated {earlier_date}, memo \"{earlier_memo}\"); it is probably a duplicate."
    )]
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
    #[error(
        "External reference \"{external_ref}\" was already recorded in this vault as transaction {transaction_id}; nothing was recorded."
    )]
    ExternalRefTaken {
        /// The reference as given.
        external_ref: String,
        /// The transaction that holds it.
        transaction_id: TransactionId,
    },
    /// A new transaction names an archived account.
    #[error(
        "Account \"{name}\" is archived, so new transactions cannot use it. Use another account (list_accounts shows the live ones), or create a new account."
    )]
    ArchivedAccount {
        /// The account's name.
        name: String,
    },
    /// Archiving an account that still holds money, without `force`.
    #[error("{}", archive_with_balance_message(name, balance, scheduled.as_ref()))]
    ArchiveWithBalance {
        /// The account.
        name: String,
        /// Its balance as of today, natural sign.
        balance: Money,
        /// Net of its entries dated after today, natural sign, when there are any.
        scheduled: Option<Money>,
    },
    /// The name of an existing account was given with another kind or opening balance.
    #[error("{}", account_mismatch_message(name, vault, existing, requested))]
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
    #[error(
        "The {total} is out of range: it passes 9223372036854775807 minor units, the most this ledger can add up, so it cannot be shown. Find the transaction with the oversized amount (list_transactions) and void it to bring the total back in range."
    )]
    OutOfRange {
        /// Which total, e.g. `net worth of vault "우리집"`.
        total: String,
    },
    /// The caller's role in a shared vault does not allow the action.
    #[error(
        "Only an owner of vault \"{vault}\" can {action}; you are a member there. Ask an owner to do it, or to make you an owner (share_vault with role \"owner\", then join_vault with that code)."
    )]
    NeedsOwner {
        /// What was refused.
        action: OwnerAction,
        /// The vault, by the caller's name for it.
        vault: String,
    },
    /// No invite has this code (or the text cannot be one).
    #[error(
        "That invite code is not valid. Check it was copied exactly (28 letters and digits in groups of four), or ask for a new code made with share_vault."
    )]
    InviteUnknown,
    /// The invite was already used by someone.
    #[error(
        "That invite code has already been used; each code works once. Ask for a new code made with share_vault."
    )]
    InviteUsed,
    /// The invite is past its 7 days.
    #[error(
        "That invite code has expired (codes work for 7 days). Ask for a new code made with share_vault."
    )]
    InviteExpired,
    /// The joined vault's name is already one of the joiner's vault names.
    #[error(
        "You already have a vault named \"{name}\". Call join_vault again with the same inviteCode and `name`: your own name for the vault you are joining (e.g. \"{name} (shared)\")."
    )]
    JoinNameTaken {
        /// The colliding name.
        name: String,
    },
    /// The display name a joiner asked for is another member's.
    #[error(
        "Another member of this vault is already called \"{name}\". Call join_vault again with the same inviteCode and another `displayName` (the name the others see you by), or without `displayName` to be numbered."
    )]
    MemberNameTaken {
        /// The name asked for.
        name: String,
    },
    /// The joiner is already a member of the vault.
    #[error("You are already in this vault, as \"{vault}\" ({role}); the code was not used.")]
    AlreadyMember {
        /// The caller's name for it.
        vault: String,
        /// Their role.
        role: &'static str,
    },
    /// The last owner may not leave while others remain.
    #[error(
        "You are the last owner of vault \"{vault}\" and others remain, so you cannot leave yet. Hand over first: call share_vault with role \"owner\" and have another member join_vault with that code (it makes them an owner); then leave_vault."
    )]
    LastOwner {
        /// The vault.
        vault: String,
    },
    /// The only member may not leave (the vault would be reachable by nobody).
    #[error(
        "You are the only member of vault \"{vault}\", so leaving would leave it with nobody. Nothing was changed; rename it with rename_vault if you no longer want it under this name."
    )]
    OnlyMember {
        /// The vault.
        vault: String,
    },
    /// A snapshot dated after the vault's today.
    #[error(
        "The snapshot date {date} is after today ({today}) in the vault's time zone; a snapshot records a balance already seen."
    )]
    SnapshotAfterToday {
        /// The date given.
        date: LocalDate,
        /// Today in the vault.
        today: LocalDate,
    },
    /// A snapshot of an account that has no balance to see (income, expense, equity).
    #[error(
        "\"{name}\" is an {kind} account; snapshots are balances seen for asset or liability accounts (a bank account, a card)."
    )]
    SnapshotOfFlowAccount {
        /// The account.
        name: String,
        /// Its kind.
        kind: crate::domain::AccountKind,
    },
    /// A transaction date more than a year after today, not said to be meant.
    #[error("The date read is {date}, more than a year after today ({today}) in the vault's time zone.")]
    FarFutureDate {
        /// The date given.
        date: LocalDate,
        /// Today in the vault.
        today: LocalDate,
    },
    /// An edit of a voided transaction.
    #[error("Transaction {id} is voided, so it cannot be edited; record a new entry instead.")]
    EditOfVoided {
        /// The transaction.
        id: TransactionId,
    },
    /// An edit that expected another version than the stored one.
    #[error("Transaction {id} changed since it was read: it is at version {current}, not {expected}.")]
    VersionMismatch {
        /// The transaction.
        id: TransactionId,
        /// The version the caller expected.
        expected: u32,
        /// The version stored now.
        current: u32,
    },
    /// A transaction edited as often as its history may hold.
    #[error(
        "Transaction {id} has been edited {most} times, the most one entry keeps; void it and record a new entry."
    )]
    TooManyEdits {
        /// The transaction.
        id: TransactionId,
        /// The limit.
        most: u32,
    },
    /// An edit whose request does not fit the transaction or itself.
    #[error("{}", .0.message())]
    EditShape(EditShape),
    /// No operation with this id in the vault (`entry_operation`: the id is a
    /// transaction's, whose entry shows that operation; empty when it shows none).
    #[error("{}", unknown_operation_message(id, vault, entry_operation.as_deref()))]
    UnknownOperation {
        /// The id as given.
        id: String,
        /// The vault, by the caller's name for it.
        vault: String,
        /// When the id is a transaction's in this vault: the operation its entry shows.
        entry_operation: Option<String>,
    },
    /// `undo` without an id, by someone who made no operation in the vault.
    #[error(
        "You have made no change in vault \"{vault}\" that undo can take back, so nothing was changed. To take back another change (an owner may undo anyone's, and anyone a recurring posting), pass its operationId: list_transactions with order \"recorded\" shows each entry's."
    )]
    NoOperation {
        /// The vault.
        vault: String,
    },
    /// A member undoing another person's operation.
    #[error(
        "Operation {id} was made by {by}, and only an owner of vault \"{vault}\" may undo another member's changes; nothing was changed. Ask {by} or an owner to undo it, or leave operationId out to undo your own latest change."
    )]
    UndoNotYours {
        /// The operation.
        id: String,
        /// Its maker's display name.
        by: String,
        /// The vault.
        vault: String,
    },
    /// An undo refused whole: entries of the operation changed since.
    #[error("{}", undo_blocked_message(id, changes))]
    UndoBlocked {
        /// The operation.
        id: String,
        /// Each entry in the way and what changed.
        changes: Vec<UndoBlock>,
    },
    /// A concurrent change won; nothing was written. Safe to retry.
    #[error(
        "Another change to the same data happened at the same moment and nothing was written; call again."
    )]
    Conflict,
    /// Storage is temporarily unavailable; nothing is known to be written. Safe to retry with the same arguments.
    #[error("The ledger store is temporarily unavailable; call again in a moment with the same arguments.")]
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
    pub fn out_of_range(total: impl Into<String>) -> LedgerError {
        LedgerError::OutOfRange { total: total.into() }
    }

    /// An invalid input.
    pub fn invalid(field: Field, message: impl Into<String>) -> LedgerError {
        LedgerError::InvalidInput {
            field,
            message: message.into(),
        }
    }

    /// An invalid input from a parse error.
    pub fn from_parse(field: Field, err: ParseError) -> LedgerError {
        LedgerError::invalid(field, err.message())
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
            LedgerError::NotFound { .. } | LedgerError::InviteUnknown | LedgerError::AccessEnded { .. } => {
                ErrorKind::NotFound
            }
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
    /// What changed since (e.g. `it was edited since by operation 4818…`).
    pub what: String,
}

fn unknown_operation_message(id: &str, vault: &str, entry_operation: Option<&str>) -> String {
    let hint = match entry_operation {
        Some("") => format!(" {id} is a transaction id, and that entry was recorded before operations were kept, so undo cannot take it back; use void_transaction or edit_transaction."),
        Some(op) => format!(" {id} is a transaction id; that entry's latest change is operation {op}: pass operationId \"{op}\" to take it back."),
        None => " Pass operationId exactly as a write returned it or list_transactions shows it, or leave it out to undo your own latest change.".into(),
    };
    format!("There is no operation {id} in vault \"{vault}\"; nothing was changed.{hint}")
}

fn undo_blocked_message(id: &str, changes: &[UndoBlock]) -> String {
    let list: Vec<String> = changes
        .iter()
        .map(|c| format!("transaction {}: {}", c.transaction_id, c.what))
        .collect();
    format!(
        "Operation {id} cannot be undone because its entries changed since ({}); nothing was changed. Undo those later changes first (undo with their operationId), or correct the entries with edit_transaction or void_transaction.",
        list.join("; ")
    )
}

/// An account's kind and opening balance, as a create_account mismatch shows them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AccountShape {
    /// Its kind.
    pub kind: crate::domain::AccountKind,
    /// Its opening balance (natural sign); `None`: not given, or not known (an account from before it was kept).
    pub opening: Option<Money>,
}

impl fmt::Display for AccountShape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} account", self.kind)?;
        // Income and expense accounts always start at zero: no opening to show.
        let flows = matches!(
            self.kind,
            crate::domain::AccountKind::Income | crate::domain::AccountKind::Expense
        );
        match self.opening {
            Some(o) if !(flows && o.is_zero()) => write!(f, " with opening balance {o}"),
            _ => Ok(()),
        }
    }
}

fn archive_with_balance_message(name: &str, balance: &Money, scheduled: Option<&Money>) -> String {
    let later = scheduled
        .map(|s| format!(" and {s} in entries dated after today"))
        .unwrap_or_default();
    format!(
        "Account \"{name}\" still holds {balance} as of today{later}, so it was not archived. \
         Bring it to zero first with record_transaction (move the money to another account, or pay off what it owes), \
         or call update_account again with archive: true and force: true to archive it anyway (its balance keeps counting in get_balances)."
    )
}

fn account_mismatch_message(
    name: &str,
    vault: &str,
    existing: &AccountShape,
    requested: &AccountShape,
) -> String {
    format!(
        "Account \"{name}\" already exists in {vault} as {} {existing}; this call asked for {} {requested}, so nothing was changed. \
         To use the existing account, call again with its kind and without openingBalance; to change its balance, record a transaction; \
         for a separate account, choose another name.",
        article(existing.kind),
        article(requested.kind),
    )
}

fn article(kind: crate::domain::AccountKind) -> &'static str {
    match kind {
        crate::domain::AccountKind::Liability => "a",
        _ => "an",
    }
}

fn quoted_list(items: &[String]) -> String {
    items
        .iter()
        .map(|c| format!("\"{c}\""))
        .collect::<Vec<_>>()
        .join(", ")
}

fn not_found_message(what: Entity, name: &str, within: Option<&str>, candidates: &[String]) -> String {
    if what == Entity::Vault && name.is_empty() {
        return "You have no vault yet. Call create_vault to make one (for example name \"가계부\", currency KRW).".into();
    }
    let place = within.map(|w| format!(" in {w}")).unwrap_or_default();
    let (subject, create) = match what {
        Entity::Transaction => (format!("No transaction with id \"{name}\"{place}."), ""),
        Entity::Snapshot => (format!("No snapshot for \"{name}\"{place}."), ""),
        Entity::Member => (format!("No member named \"{name}\"{place}."), ""),
        Entity::Recurring => (format!("No recurring entry named \"{name}\"{place}."), ""),
        Entity::Vault => (
            format!("No vault named \"{name}\"."),
            " or create_vault to make it",
        ),
        Entity::Account => (
            format!("No account named \"{name}\"{place}."),
            " or create_account to add it",
        ),
    };
    if candidates.is_empty() {
        format!("{subject} Call {} to see what exists{create}.", what.lister())
    } else {
        format!(
            "{subject} Closest names: {}. Use one of them exactly, call {} to see every name{create}.",
            quoted_list(candidates),
            what.lister()
        )
    }
}

fn id_for_name_message(
    what: Entity,
    given: &str,
    id_kind: &str,
    within: Option<&str>,
    meant: Option<&str>,
    candidates: &[String],
) -> String {
    let mut m = format!("\"{given}\" is {id_kind}, but names are expected, not ids: pass the {what}'s name.");
    if let Some(name) = meant {
        m.push_str(&format!(" That id is {what} \"{name}\"."));
    }
    if !candidates.is_empty() {
        let place = within.map(|w| format!(" in {w}")).unwrap_or_default();
        m.push_str(&format!(" Names{place}: {}.", quoted_list(candidates)));
    }
    m.push_str(&format!(" Call {} to see every name.", what.lister()));
    m
}

fn ambiguous_message(what: Entity, name: &str, matches: &[Match]) -> String {
    let listed = matches
        .iter()
        .map(|m| format!("\"{}\" ({})", m.name, m.location))
        .collect::<Vec<_>>()
        .join(", ");
    if name.is_empty() {
        format!("No {what} was named and there are several: {listed}.")
    } else {
        format!("\"{name}\" matches several {what}s: {listed}.")
    }
}

fn name_taken_message(what: Entity, name: &str, existing: &str) -> String {
    let (article, renamer) = match what {
        Entity::Account => ("An", "update_account with newName"),
        _ => ("A", "rename_vault"),
    };
    format!(
        "{article} {what} named \"{name}\" already exists as {existing}. Use that {what} as it is, or choose a different name ({renamer} renames)."
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::Currency;

    #[test]
    fn not_found_lists_candidates_and_next_step() {
        let e = LedgerError::NotFound {
            what: Entity::Account,
            name: "식비2".into(),
            within: Some("vault \"가계부\"".into()),
            candidates: vec!["식비".into(), "외식비".into()],
        };
        assert_eq!(
            e.to_string(),
            "No account named \"식비2\" in vault \"가계부\". Closest names: \"식비\", \"외식비\". Use one of them exactly, call list_accounts to see every name or create_account to add it."
        );
        let none = LedgerError::NotFound {
            what: Entity::Vault,
            name: "x".into(),
            within: None,
            candidates: vec![],
        };
        assert_eq!(
            none.to_string(),
            "No vault named \"x\". Call list_vaults to see what exists or create_vault to make it."
        );
    }

    #[test]
    fn ambiguous_and_unbalanced_read_well() {
        let e = LedgerError::Ambiguous {
            what: Entity::Vault,
            name: String::new(),
            matches: vec![
                Match {
                    name: "가계부".into(),
                    location: "KRW, Asia/Seoul".into(),
                },
                Match {
                    name: "Travel".into(),
                    location: "USD, America/New_York".into(),
                },
            ],
        };
        assert_eq!(
            e.to_string(),
            "No vault was named and there are several: \"가계부\" (KRW, Asia/Seoul), \"Travel\" (USD, America/New_York)."
        );
        let m = |n| Money::from_minor(n, Currency::USD);
        let u = LedgerError::Unbalanced {
            debits: m(1250),
            credits: m(1200),
            difference: m(50),
        };
        assert!(u.to_string().starts_with("The split does not balance: the `from` lines sum to 12.00 and the `to` lines sum to 12.50, so the `to` side is 0.50 more."));
    }
}
