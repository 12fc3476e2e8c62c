//! Operations and undo.

use super::*;
use dochiya_domain::{Currency, ParseError, TransactionId};

/// An operation's id: a 64-bit, time-ordered integer above 2^53, made like a
/// transaction id; it travels as a decimal string.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct OperationId(TransactionId);

impl OperationId {
    /// A new id from the current time (Unix ms) and randomness.
    pub fn generate(unix_ms: i64, random: u64) -> OperationId {
        OperationId(TransactionId::generate(unix_ms, random))
    }

    /// Parse the decimal text of an id (the content of a JSON string).
    pub fn parse(text: &str) -> Result<OperationId, ParseError> {
        TransactionId::parse(text).map(OperationId).map_err(|_| {
            ParseError::new(format!(
                "{} is not an operation id; ids are decimal strings of digits as a write returned them (operationId), e.g. \"4818349038087529260\"",
                dochiya_quote::quote(text.trim())
            ))
        })
    }

    /// Fixed-width (20-digit) form, for keys.
    pub fn to_key_string(self) -> String {
        self.0.to_key_string()
    }
}

impl std::fmt::Display for OperationId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

/// Arguments of `undo`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct UndoRequest {
    /// Vault name (optional when the caller has exactly one).
    pub vault: Option<String>,
    /// The operation to take back; `None`: the caller's own latest in the vault.
    pub operation_id: Option<OperationId>,
    /// Check and show what would be undone, write nothing.
    pub dry_run: bool,
}

/// What an undo did (or would do) to one entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UndoAction {
    /// A recorded entry, voided.
    Voided,
    /// An edited entry, back to the version before the edit (as a new version).
    Restored,
    /// A voided entry, counting again.
    Unvoided,
}

impl UndoAction {
    /// As results spell it.
    pub fn as_str(self) -> &'static str {
        match self {
            UndoAction::Voided => "voided",
            UndoAction::Restored => "restored",
            UndoAction::Unvoided => "unvoided",
        }
    }
}

/// One entry an undo took back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UndoneEntry {
    /// The entry.
    pub transaction_id: TransactionId,
    /// What was done to it.
    pub action: UndoAction,
}

/// Result of `undo`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Undone {
    /// The vault.
    pub vault: VaultRef,
    /// The vault's currency.
    pub currency: Currency,
    /// The operation taken back.
    pub operation_id: OperationId,
    /// Every entry of the operation and what the undo did to it.
    pub undone: Vec<UndoneEntry>,
    /// Balances of the accounts those entries touch, after the undo.
    pub balances: Vec<AccountBalance>,
    /// `true` when the operation had been undone already (nothing written now).
    pub already_undone: bool,
    /// `true` when nothing was written because `dry_run` was asked.
    pub dry_run: bool,
}
