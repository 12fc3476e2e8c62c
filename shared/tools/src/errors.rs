//! Ledger failures as a model reads them: the one place ledger errors are worded
//! with the tools' own argument names, and their kind kept for the protocol layer.
//! The rest read as [`describe`] words them.
//!
//! The ledger names inputs by [`Field`]; each tool may spell a field its own way
//! ([`crate::operation::Operation::argument`]: `record_transaction` has one
//! `amount`, `record_split_transaction` has `from[0].amount`).

use std::borrow::Cow;

use dochiya_ledger::api::{EditShape, Entity, ErrorKind, Field, LedgerError, Side};
use dochiya_protocol::ToolError;
use dochiya_quote::quote;

use crate::wording::describe;

/// How a tool spells a ledger field as its argument.
pub(crate) type Spelling = fn(Field) -> Cow<'static, str>;

/// The argument names most tools use for a ledger field.
pub(crate) fn argument(field: Field) -> Cow<'static, str> {
    Cow::Borrowed(match field {
        Field::IdempotencyKey => "idempotencyKey",
        Field::Amount => "amount",
        Field::Memo => "memo",
        Field::VoidReason => "reason",
        Field::Lines(side) => side.as_str(),
        Field::LineAmount { side, index } => return Cow::Owned(format!("{}[{index}].amount", side.as_str())),
        Field::LineAccount { side, .. } => side.as_str(),
        Field::Total => "amount",
        Field::Name => "name",
        Field::NewName => "newName",
        Field::VaultName => "name",
        Field::MemberName => "displayName",
        Field::OpeningBalance => "openingBalance",
        Field::OpeningDate => "openingDate",
        Field::Balance => "balance",
        Field::Limit => "limit",
        Field::RangeEnd => "to",
        Field::Currency => "currency",
        Field::TimeZone => "timeZone",
        Field::BudgetAccount => "account",
        Field::BudgetAmount => "amount",
        Field::BudgetMonth => "month",
        Field::Date => "date",
        Field::ExternalRef => "externalRef",
        Field::Entries => "entries",
        Field::InviteCode => "inviteCode",
        Field::Member => "member",
        Field::Confirm => "confirm",
        Field::Recurring(arg) => arg,
        Field::Category(arg) => arg,
        Field::Card(arg) => arg,
        Field::Household(arg) => arg,
    })
}

/// The spelling of `record_transaction`: one `amount` for both sides, and an
/// account on both sides is reported on `to`.
pub(crate) fn simple_argument(field: Field) -> Cow<'static, str> {
    match field {
        Field::LineAmount { .. } => Cow::Borrowed("amount"),
        Field::LineAccount { .. } => Cow::Borrowed(Side::To.as_str()),
        other => argument(other),
    }
}

/// A ledger failure as a tool error: the kind kept, the message worded for the model.
pub(crate) fn tool_error(error: LedgerError, spell: Spelling) -> ToolError {
    let kind = error.kind();
    if kind == ErrorKind::Internal {
        return ToolError::Internal(Box::new(error));
    }
    let mut message = message(&error, spell);
    // Some ledger messages end without a full stop; the model reads whole sentences.
    if !message.ends_with(['.', '!', '?']) {
        message.push('.');
    }
    match kind {
        ErrorKind::NotFound => ToolError::NotFound(message),
        ErrorKind::Conflict => ToolError::Conflict(message),
        _ if error.is_retryable() => ToolError::Unavailable(message),
        _ => ToolError::Invalid(message),
    }
}

/// A refusal the tools make themselves (a combination of arguments), in their words.
pub(crate) fn refused(field: Field, message: impl Into<String>) -> LedgerError {
    LedgerError::invalid(field, dochiya_ledger::api::Reason::Caller(message.into()))
}

/// One batch entry's failure as its result's `message` (worded as `record_transaction`
/// words it); an internal failure is not an entry's result but the call's error.
pub(crate) fn entry_message(error: LedgerError, spell: Spelling) -> Result<String, LedgerError> {
    if error.kind() == ErrorKind::Internal {
        return Err(error);
    }
    let mut message = message(&error, spell);
    if !message.ends_with(['.', '!', '?']) {
        message.push('.');
    }
    Ok(message)
}

fn message(error: &LedgerError, spell: Spelling) -> String {
    match error {
        LedgerError::InvalidInput { field, reason } => {
            format!("Invalid {}: {}", spell(*field), crate::reasons::reason(reason))
        }
        LedgerError::BackwardsRange { from, to } => format!(
            "Invalid from: `from` ({from}) is later than `to` ({to}); `from` is the first day of the range and `to` the last, so swap them."
        ),
        LedgerError::BadCursor => "Invalid cursor: the cursor is not one this listing made; pass nextCursor exactly as returned, with the same vault and filters, or omit it to start from the newest.".into(),
        LedgerError::IdempotencyKeyReused { key } => format!(
            "idempotencyKey {} was already used for a different entry. If this is a retry of that entry, resend exactly the same arguments; if it is a new entry, make up a new idempotencyKey.",
            quote(key)
        ),
        LedgerError::ProbableDuplicate {
            earlier_id,
            earlier_date,
            earlier_memo,
            recorded_at,
            minutes_ago,
        } => format!(
            "An entry with the same date, accounts and amount was recorded {minutes_ago} minute(s) ago as transactionId \"{earlier_id}\" (dated {earlier_date}, {}, recorded at {recorded_at}). It is probably a duplicate of that one, even with another memo: check it with get_transaction. If this really is a second, separate transaction, call again with allowDuplicate: true.",
            if earlier_memo.is_empty() {
                "no memo".to_string()
            } else {
                format!("memo \"{earlier_memo}\"")
            }
        ),
        LedgerError::ExternalRefTaken {
            external_ref,
            transaction_id,
        } => format!(
            "externalRef {} was already recorded in this vault as transactionId \"{transaction_id}\", so nothing was recorded: this statement line is in the ledger. Check it with get_transaction; leave externalRef out only if this really is another entry.",
            quote(external_ref)
        ),
        // The argument naming a vault or an account is called after what it names.
        LedgerError::Ambiguous { what, name, .. } if name.is_empty() => {
            format!("{} Pass `{what}` with one of these names.", describe(error))
        }
        // Each match is listed by a name that means it alone (an archived account's handle).
        LedgerError::Ambiguous {
            what: Entity::Account,
            ..
        } => format!(
            "{} Pass one of the quoted names exactly as the account to say which one.",
            describe(error)
        ),
        LedgerError::Ambiguous { what, .. } => {
            format!("{} Pass the {what} argument to say which one.", describe(error))
        }
        LedgerError::VersionMismatch { current, .. } => format!(
            "{} Call get_transaction to see it, then edit again with expectedVersion {current} if the correction still applies.",
            describe(error)
        ),
        LedgerError::EditShape(EditShape::LinesAndSimple) => "Invalid lines: send either `lines` (every line anew) or `amount`/`from`/`to`, not both.".into(),
        LedgerError::EditShape(EditShape::NothingToChange) => "Nothing to change: give at least one of amount, date, memo, from, to or lines.".into(),
        LedgerError::EditShape(EditShape::SplitNeedsLines) => "Invalid amount: this transaction has several lines on a side, so `amount`, `from` and `to` do not say which line; send `lines` with every from and to line as it should be (get_transaction shows the current ones).".into(),
        LedgerError::FarFutureDate { .. } => format!(
            "Invalid date: {} If that date is really meant, call again with futureDate: true; otherwise correct the date (or leave it out for today).",
            describe(error)
        ),
        LedgerError::Conflict => "Another change to the same data happened at the same moment and nothing was written; call again (a recorded entry with the same idempotencyKey).".into(),
        LedgerError::Transient(_) => "The ledger store is temporarily unavailable and nothing was written; call again in a moment with the same arguments (a recorded entry with the same idempotencyKey, so it is recorded once).".into(),
        other => describe(other),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use dochiya_ledger::api::Reason;
    use dochiya_store::StoreError;

    fn invalid(e: ToolError) -> String {
        match e {
            ToolError::Invalid(m) => m,
            other => panic!("expected Invalid, got {other:?}"),
        }
    }

    #[test]
    fn invalid_input_is_worded_with_each_tools_argument_names() {
        let zero = || {
            LedgerError::invalid(
                Field::LineAmount {
                    side: Side::From,
                    index: 1,
                },
                Reason::ZeroAmount,
            )
        };
        assert_eq!(
            invalid(tool_error(zero(), argument)),
            "Invalid from[1].amount: the amount is zero; record only amounts that moved."
        );
        assert_eq!(
            invalid(tool_error(zero(), simple_argument)),
            "Invalid amount: the amount is zero; record only amounts that moved."
        );
        let both = || {
            LedgerError::invalid(
                Field::LineAccount {
                    side: Side::From,
                    index: 0,
                },
                Reason::Caller("x".into()),
            )
        };
        assert_eq!(invalid(tool_error(both(), argument)), "Invalid from: x.");
        assert_eq!(invalid(tool_error(both(), simple_argument)), "Invalid to: x.");
        let key = LedgerError::invalid(Field::IdempotencyKey, Reason::KeyLength { max: 200 });
        assert_eq!(
            invalid(tool_error(key, argument)),
            "Invalid idempotencyKey: make up a key of 1–200 characters for this entry (for example a UUID) and reuse it unchanged if you retry this same entry."
        );
    }

    #[test]
    fn the_backwards_range_has_one_message() {
        let e = LedgerError::check_range(&"2026-03-05", &"2026-03-01").unwrap_err();
        assert_eq!(
            invalid(tool_error(e, argument)),
            "Invalid from: `from` (2026-03-05) is later than `to` (2026-03-01); `from` is the first day of the range and `to` the last, so swap them."
        );
        assert!(LedgerError::check_range(&1, &1).is_ok());
    }

    #[test]
    fn kinds_reach_the_edge() {
        let nf = tool_error(
            LedgerError::NotFound {
                what: Entity::Vault,
                name: "x".into(),
                within: None,
                candidates: vec![],
            },
            argument,
        );
        assert!(
            matches!(&nf, ToolError::NotFound(m) if m == "No vault named \"x\". Call list_vaults to see what exists or create_vault to make it."),
            "{nf:?}"
        );
        let amb = tool_error(
            LedgerError::Ambiguous {
                what: Entity::Account,
                name: "카드".into(),
                matches: vec![],
            },
            argument,
        );
        assert_eq!(
            invalid(amb),
            "\"카드\" matches several accounts: . Pass one of the quoted names exactly as the account to say which one."
        );
        let reused = tool_error(LedgerError::IdempotencyKeyReused { key: "k".into() }, argument);
        assert!(
            matches!(&reused, ToolError::Conflict(m) if m.starts_with("idempotencyKey \"k\" was already used")),
            "{reused:?}"
        );
        let down = tool_error(
            LedgerError::Transient(StoreError::Transient("throttled".into())),
            argument,
        );
        assert!(
            matches!(&down, ToolError::Unavailable(m) if m.contains("temporarily unavailable") && m.contains("same idempotencyKey")),
            "{down:?}"
        );
        assert!(matches!(
            tool_error(LedgerError::Conflict, argument),
            ToolError::Unavailable(_)
        ));
        match tool_error(LedgerError::internal("broken index"), argument) {
            ToolError::Internal(source) => {
                assert_eq!(source.to_string(), "internal ledger error: broken index")
            }
            other => panic!("expected Internal, got {other:?}"),
        }
    }
}
