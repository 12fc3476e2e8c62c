//! Every ledger error in the English a model reads: what went wrong and what to call
//! instead. The ledger's own `Display` is a terse line for logs; this is the one
//! place its errors are worded for a reader (issue 28), so a change of advice is a
//! change to the tools only.
//!
//! [`describe`] words an error in the ledger's terms; `errors.rs` rewords the errors
//! about an argument with each tool's argument names and falls back to it.

use dochiya_domain::{AccountKind, Money};
use dochiya_ledger::api::{AccountShape, EditShape, Entity, LedgerError, Match, OwnerAction};
use dochiya_ledger::api::{Holder, UndoBlock};
use dochiya_ledger::api::{Stuck, StuckReason};
use dochiya_quote::quote;

/// A ledger error as a model or a person reads it, with the next step to take.
pub fn describe(error: &LedgerError) -> String {
    use LedgerError as E;
    match error {
        E::NotFound {
            what,
            name,
            within,
            candidates,
        } => not_found(*what, name, within.as_deref(), candidates),
        E::IdForName {
            what,
            given,
            id_kind,
            within,
            meant,
            candidates,
        } => id_for_name(
            *what,
            given,
            id_kind,
            within.as_deref(),
            meant.as_deref(),
            candidates,
        ),
        E::Ambiguous { what, name, matches } => ambiguous(*what, name, matches),
        E::NameTaken { what, name, existing } => name_taken(*what, name, existing),
        E::InvalidInput { field, reason } => format!("Invalid {field}: {}", crate::reasons::reason(reason)),
        E::AccessEnded { .. }
        | E::VaultDeleted { .. }
        | E::PersonDeleted
        | E::NeedsOwner { .. }
        | E::InviteUnknown
        | E::InviteUsed
        | E::InviteExpired
        | E::JoinNameTaken { .. }
        | E::MemberNameTaken { .. }
        | E::AlreadyMember { .. }
        | E::LastOwner { .. }
        | E::OnlyMember { .. } => sharing(error),
        E::Unbalanced { .. }
        | E::BackwardsRange { .. }
        | E::BadCursor
        | E::IdempotencyKeyReused { .. }
        | E::ProbableDuplicate { .. }
        | E::ExternalRefTaken { .. }
        | E::SnapshotAfterToday { .. }
        | E::SnapshotOfFlowAccount { .. }
        | E::FarFutureDate { .. }
        | E::OutOfRange { .. } => entries(error),
        E::ScheduleCannotPost { name, date, reason } => format!(
            "The recurring entry \"{name}\" cannot post its occurrence of {date}: {}. Nothing was recorded; send {}.",
            stuck_reason(*reason),
            stuck_fix(*reason)
        ),
        E::ArchivedAccount { .. } | E::ArchiveWithBalance { .. } | E::AccountMismatch { .. } => {
            accounts(error)
        }
        E::EditOfVoided { .. } | E::VersionMismatch { .. } | E::TooManyEdits { .. } | E::EditShape(_) => {
            edits(error)
        }
        E::UnknownOperation { .. }
        | E::NoOperation { .. }
        | E::UndoNotYours { .. }
        | E::UndoBlocked { .. } => undo(error),
        E::Conflict => {
            "Another change to the same data happened at the same moment and nothing was written; call again."
                .into()
        }
        E::Transient(_) => {
            "The ledger store is temporarily unavailable; call again in a moment with the same arguments."
                .into()
        }
        // Never shown to a model (it becomes a logged internal error): the ledger's line.
        E::Internal { .. } => error.to_string(),
    }
}

/// What a stuck recurring entry says in `list_recurring`: why it stopped and the way out.
pub fn stuck_note(stuck: Stuck) -> String {
    let since = stuck.since;
    format!(
        "It stopped posting at its occurrence of {since}: {}. Nothing from that date on posts until it is changed. To fix it, call set_recurring with its name, change: true and {}; the occurrences from {since} on are then posted. To stop it, call set_recurring with its name and remove: true.",
        stuck_reason(stuck.reason),
        stuck_fix(stuck.reason)
    )
}

/// Why a recurring entry cannot post, as a clause.
fn stuck_reason(reason: StuckReason) -> &'static str {
    match reason {
        StuckReason::Overflow => {
            "it would put a stored total of one of its accounts out of range (past 9223372036854775807 minor units)"
        }
        StuckReason::ArchivedAccount => "one of its accounts is archived",
        StuckReason::Refused => "the store refused its entry (an item would be too large)",
    }
}

/// What to send to fix it, as a clause.
fn stuck_fix(reason: StuckReason) -> &'static str {
    match reason {
        StuckReason::Overflow => "a smaller amount (check it for extra digits)",
        StuckReason::ArchivedAccount => "live accounts as from and to (see list_accounts)",
        StuckReason::Refused => "a shorter memo or fewer tags",
    }
}

/// Shared vaults: invites, joining, leaving, the owner's actions.
fn sharing(error: &LedgerError) -> String {
    use LedgerError as E;
    match error {
        E::AccessEnded { vault, on, removed } => format!(
            "Your access to vault \"{vault}\" ended on {on} ({}). Its entries are not yours to read or record any more. Do not create a new vault to carry on this book: ask one of its owners for a new invite and call join_vault with it.",
            if *removed { "an owner removed you" } else { "you left it" }
        ),
        E::VaultDeleted { vault, on } => format!(
            "Vault \"{vault}\" was deleted on {on} by an owner, with every entry; nothing of it is left to read. If the household keeps a book elsewhere, ask an owner which vault and for an invite (join_vault); otherwise create_vault starts a new one."
        ),
        E::PersonDeleted => "This person's data was deleted (their account page, or the operator) after this sign-in: nothing is left to read, and this sign-in can record nothing. Sign in again to start a new, empty book.".into(),
        E::NeedsOwner { action, vault } => format!(
            "Only an owner of vault \"{vault}\" can {}; you are a member there. Ask an owner to do it, or to make you an owner (share_vault with role \"owner\", then join_vault with that code).",
            owner_action(*action)
        ),
        E::InviteUnknown => "That invite code is not valid. Check it was copied exactly (28 letters and digits in groups of four), or ask for a new code made with share_vault.".into(),
        E::InviteUsed => "That invite code has already been used; each code works once. Ask for a new code made with share_vault.".into(),
        E::InviteExpired => "That invite code has expired (codes work for 7 days). Ask for a new code made with share_vault.".into(),
        E::JoinNameTaken { name } => format!(
            "You already have a vault named \"{name}\". Call join_vault again with the same inviteCode and `name`: your own name for the vault you are joining (e.g. \"{name} (shared)\")."
        ),
        E::MemberNameTaken { name } => format!(
            "Another member of this vault is already called \"{name}\". Call join_vault again with the same inviteCode and another `displayName` (the name the others see you by), or without `displayName` to be numbered."
        ),
        E::AlreadyMember { vault, role } => {
            format!("You are already in this vault, as \"{vault}\" ({role}); the code was not used.")
        }
        E::LastOwner { vault } => format!(
            "You are the last owner of vault \"{vault}\" and others remain, so you cannot leave yet. Hand over first: call share_vault with role \"owner\" and have another member join_vault with that code (it makes them an owner); then leave_vault."
        ),
        E::OnlyMember { vault } => format!(
            "You are the only member of vault \"{vault}\", so leaving would leave it with nobody. Nothing was changed; rename it with update_vault if you no longer want it under this name."
        ),
        // `describe` sends only the variants above here.
        other => other.to_string(),
    }
}

/// What only an owner may do, as the refusal names it.
fn owner_action(action: OwnerAction) -> &'static str {
    match action {
        OwnerAction::RenameAccounts => "rename accounts",
        OwnerAction::ArchiveAccounts => "archive accounts",
        OwnerAction::RenameVault => "rename the vault",
        OwnerAction::Invite => "invite people",
        OwnerAction::RemoveMembers => "remove members",
        OwnerAction::ArrangeCategories => "change an account's parent",
        OwnerAction::DeleteVault => "delete the vault",
        OwnerAction::SetShares => "set the members' shares",
        OwnerAction::AssignOwners => "set whose an account is",
    }
}

/// A new entry, a range, a page or a total the ledger refused.
fn entries(error: &LedgerError) -> String {
    use LedgerError as E;
    match error {
        E::Unbalanced {
            debits,
            credits,
            difference,
        } => format!(
            "The split does not balance: the `from` lines sum to {credits} and the `to` lines sum to {debits}, so the `{}` side is {difference} more. Make both sides add up to the same total.",
            if debits.minor() > credits.minor() {
                "to"
            } else {
                "from"
            }
        ),
        E::BackwardsRange { from, to } => {
            format!("The range runs backwards: it starts at {from} and ends at {to}.")
        }
        E::BadCursor => "The cursor was not made by this listing (same vault and filters).".into(),
        E::IdempotencyKeyReused { key } => {
            format!("Idempotency key \"{key}\" was already used for a different entry.")
        }
        E::ProbableDuplicate {
            earlier_id,
            earlier_date,
            earlier_memo,
            minutes_ago,
            ..
        } => format!(
            "An entry with the same date, accounts and amount was recorded {minutes_ago} minute(s) ago as transaction {earlier_id} (dated {earlier_date}, memo \"{earlier_memo}\"); it is probably a duplicate."
        ),
        E::ExternalRefTaken {
            external_ref,
            transaction_id,
        } => format!(
            "External reference \"{external_ref}\" was already recorded in this vault as transaction {transaction_id}; nothing was recorded."
        ),
        E::SnapshotAfterToday { date, today } => format!(
            "The snapshot date {date} is after today ({today}) in the vault's time zone; a snapshot records a balance already seen."
        ),
        E::SnapshotOfFlowAccount { name, kind } => format!(
            "\"{name}\" is an {kind} account; snapshots are balances seen for asset or liability accounts (a bank account, a card)."
        ),
        E::FarFutureDate { date, today } => {
            format!(
                "The date read is {date}, more than a year after today ({today}) in the vault's time zone."
            )
        }
        E::OutOfRange { total } => format!(
            "The {} is out of range: it passes 9223372036854775807 minor units, the most this ledger can add up, so it cannot be shown. Find the transaction with the oversized amount (list_transactions) and void it to bring the total back in range.",
            crate::reasons::total(total)
        ),
        // `describe` sends only the variants above here.
        other => other.to_string(),
    }
}

/// An account that cannot be used, archived or created as asked.
fn accounts(error: &LedgerError) -> String {
    match error {
        LedgerError::ArchivedAccount { name } => format!(
            "Account \"{name}\" is archived, so new transactions cannot use it. Use another account (list_accounts shows the live ones), or create a new account."
        ),
        LedgerError::ArchiveWithBalance {
            name,
            balance,
            scheduled,
        } => archive_with_balance(name, balance, scheduled.as_ref()),
        LedgerError::AccountMismatch {
            name,
            vault,
            existing,
            requested,
        } => account_mismatch(name, vault, existing, requested),
        // `describe` sends only the variants above here.
        other => other.to_string(),
    }
}

/// An edit the stored transaction or the request itself does not allow.
fn edits(error: &LedgerError) -> String {
    use LedgerError as E;
    match error {
        E::EditOfVoided { id } => {
            format!("Transaction {id} is voided, so it cannot be edited; record a new entry instead.")
        }
        E::VersionMismatch {
            id,
            expected,
            current,
        } => {
            format!("Transaction {id} changed since it was read: it is at version {current}, not {expected}.")
        }
        E::TooManyEdits { id, most } => format!(
            "Transaction {id} has been edited {most} times, the most one entry keeps; void it and record a new entry."
        ),
        E::EditShape(shape) => edit_shape(*shape).into(),
        // `describe` sends only the variants above here.
        other => other.to_string(),
    }
}

/// A malformed edit, in the ledger's terms (`errors.rs` words it with argument names).
fn edit_shape(shape: EditShape) -> &'static str {
    match shape {
        EditShape::LinesAndSimple => "An edit gives either every line anew or the simple fields, not both.",
        EditShape::NothingToChange => "The edit changes nothing: give at least one field to change.",
        EditShape::SplitNeedsLines => {
            "The transaction has several lines on a side; its amounts and accounts change by giving every line anew."
        }
    }
}

/// An undo that found nothing to take back, or was refused.
fn undo(error: &LedgerError) -> String {
    use LedgerError as E;
    match error {
        E::UnknownOperation {
            id,
            vault,
            entry_operation,
        } => unknown_operation(id, vault, entry_operation.as_deref()),
        E::NoOperation { vault } => format!(
            "You have made no change in vault \"{vault}\" that undo can take back, so nothing was changed. To take back another change (an owner may undo anyone's, and anyone a recurring posting), pass its operationId: list_transactions with order \"recorded\" shows each entry's."
        ),
        E::UndoNotYours { id, by, vault } => format!(
            "Operation {id} was made by {by}, and only an owner of vault \"{vault}\" may undo another member's changes; nothing was changed. Ask {by} or an owner to undo it, or leave operationId out to undo your own latest change."
        ),
        E::UndoBlocked { id, changes } => undo_blocked(id, changes),
        // `describe` sends only the variants above here.
        other => other.to_string(),
    }
}

/// The tool that lists an entity: where a model sees what exists.
fn lister(what: Entity) -> &'static str {
    match what {
        Entity::Vault => "list_vaults",
        Entity::Account => "list_accounts",
        Entity::Transaction | Entity::Snapshot => "list_transactions",
        Entity::Member => "list_vaults",
        Entity::Recurring => "list_recurring",
        Entity::Goal => "budget_report",
    }
}

fn unknown_operation(id: &str, vault: &str, entry_operation: Option<&str>) -> String {
    let hint = match entry_operation {
        Some("") => format!(" {id} is a transaction id, and that entry was recorded before operations were kept, so undo cannot take it back; use void_transaction or edit_transaction."),
        Some(op) => format!(" {id} is a transaction id; that entry's latest change is operation {op}: pass operationId \"{op}\" to take it back."),
        None => " Pass operationId exactly as a write returned it or list_transactions shows it, or leave it out to undo your own latest change.".into(),
    };
    format!("There is no operation {id} in vault \"{vault}\"; nothing was changed.{hint}")
}

fn undo_blocked(id: &str, changes: &[UndoBlock]) -> String {
    let list: Vec<String> = changes
        .iter()
        .map(|c| {
            format!(
                "transaction {}: {}",
                c.transaction_id,
                crate::reasons::blocker(&c.what)
            )
        })
        .collect();
    format!(
        "Operation {id} cannot be undone because its entries changed since ({}); nothing was changed. Undo those later changes first (undo with their operationId), or correct the entries with edit_transaction or void_transaction.",
        list.join("; ")
    )
}

/// An account's kind and opening balance, as a create_account mismatch shows them.
fn account_shape(shape: &AccountShape) -> String {
    let mut out = format!("{} account", shape.kind);
    // Income and expense accounts always start at zero: no opening to show.
    let flows = matches!(shape.kind, AccountKind::Income | AccountKind::Expense);
    match shape.opening {
        Some(o) if !(flows && o.is_zero()) => out.push_str(&format!(" with opening balance {o}")),
        _ => {}
    }
    out
}

fn archive_with_balance(name: &str, balance: &Money, scheduled: Option<&Money>) -> String {
    let later = scheduled
        .map(|s| format!(" and {s} in entries dated after today"))
        .unwrap_or_default();
    format!(
        "Account \"{name}\" still holds {balance} as of today{later}, so it was not archived. \
         Bring it to zero first with record_transaction (move the money to another account, or pay off what it owes), \
         or call update_account again with archive: true and force: true to archive it anyway (its balance keeps counting in get_balances)."
    )
}

fn account_mismatch(name: &str, vault: &str, existing: &AccountShape, requested: &AccountShape) -> String {
    format!(
        "Account \"{name}\" already exists in {vault} as {} {}; this call asked for {} {}, so nothing was changed. \
         To use the existing account, call again with its kind and without openingBalance; to change its balance, record a transaction; \
         for a separate account, choose another name.",
        article(existing.kind),
        account_shape(existing),
        article(requested.kind),
        account_shape(requested),
    )
}

fn article(kind: AccountKind) -> &'static str {
    match kind {
        AccountKind::Liability => "a",
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

fn not_found(what: Entity, name: &str, within: Option<&str>, candidates: &[String]) -> String {
    if what == Entity::Vault && name.is_empty() {
        return "You have no vault yet. Call create_vault to make one (for example name \"가계부\", currency KRW).".into();
    }
    let place = within.map(|w| format!(" in {w}")).unwrap_or_default();
    let (subject, create) = match what {
        Entity::Transaction => (format!("No transaction with id {}{place}.", quote(name)), ""),
        Entity::Snapshot => (format!("No snapshot for {}{place}.", quote(name)), ""),
        Entity::Member => (format!("No member named {}{place}.", quote(name)), ""),
        Entity::Recurring => (format!("No recurring entry named {}{place}.", quote(name)), ""),
        Entity::Goal => (format!("No goal named {}{place}.", quote(name)), ""),
        Entity::Vault => (
            format!("No vault named {}.", quote(name)),
            " or create_vault to make it",
        ),
        Entity::Account => (
            format!("No account named {}{place}.", quote(name)),
            " or create_account to add it",
        ),
    };
    if candidates.is_empty() {
        format!("{subject} Call {} to see what exists{create}.", lister(what))
    } else {
        format!(
            "{subject} Closest names: {}. Use one of them exactly, call {} to see every name{create}.",
            quoted_list(candidates),
            lister(what)
        )
    }
}

fn id_for_name(
    what: Entity,
    given: &str,
    id_kind: &dochiya_domain::IdShape,
    within: Option<&str>,
    meant: Option<&str>,
    candidates: &[String],
) -> String {
    let mut m = format!(
        "{} is {}, but names are expected, not ids: pass the {what}'s name.",
        quote(given),
        crate::reasons::id_kind(*id_kind)
    );
    if let Some(name) = meant {
        m.push_str(&format!(" That id is {what} \"{name}\"."));
    }
    if !candidates.is_empty() {
        let place = within.map(|w| format!(" in {w}")).unwrap_or_default();
        m.push_str(&format!(" Names{place}: {}.", quoted_list(candidates)));
    }
    m.push_str(&format!(" Call {} to see every name.", lister(what)));
    m
}

fn ambiguous(what: Entity, name: &str, matches: &[Match]) -> String {
    let listed = matches
        .iter()
        .map(|m| format!("\"{}\" ({})", m.name, m.location))
        .collect::<Vec<_>>()
        .join(", ");
    if name.is_empty() {
        format!("No {what} was named and there are several: {listed}.")
    } else {
        format!("{} matches several {what}s: {listed}.", quote(name))
    }
}

fn name_taken(what: Entity, name: &str, existing: &Holder) -> String {
    let existing = crate::reasons::holder(existing);
    let (article, renamer) = match what {
        Entity::Account => ("An", "update_account with newName"),
        _ => ("A", "update_vault with newName"),
    };
    format!(
        "{article} {what} named \"{name}\" already exists as {existing}. Use that {what} as it is, or choose a different name ({renamer} renames)."
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use dochiya_domain::{Clock, Currency, LocalDate, ManualClock, TransactionId};
    use dochiya_ledger::api::{Blocker, OperationId};

    // The exact sentences below were the ledger contract suite's until issue 28; the
    // suite now asserts each error's variant and fields, and the wording is tested here.

    fn date(text: &str) -> LocalDate {
        LocalDate::parse(text).expect("a test date")
    }

    fn won(minor: i64) -> Money {
        Money::from_minor(minor, Currency::KRW)
    }

    /// An id in the ledger's range (every id is above 2^53).
    fn tid(n: u64) -> TransactionId {
        TransactionId::from_u64((1 << 53) + n).expect("an id")
    }

    /// An operation id in the ledger's range.
    fn op(n: u64) -> OperationId {
        OperationId::parse(&tid(n).to_string()).expect("an operation id")
    }

    fn not_found(what: Entity, name: &str, within: Option<&str>, candidates: &[&str]) -> LedgerError {
        LedgerError::NotFound {
            what,
            name: name.into(),
            within: within.map(Into::into),
            candidates: candidates.iter().map(|c| c.to_string()).collect(),
        }
    }

    #[test]
    fn lookups_say_what_exists_and_where() {
        let vault = Some("vault \"가계부\"");
        assert_eq!(
            describe(&not_found(Entity::Vault, "", None, &[])),
            "You have no vault yet. Call create_vault to make one (for example name \"가계부\", currency KRW)."
        );
        assert_eq!(
            describe(&not_found(Entity::Vault, "가게부", None, &["가계부"])),
            "No vault named \"가게부\". Closest names: \"가계부\". Use one of them exactly, call list_vaults to see every name or create_vault to make it."
        );
        assert_eq!(
            describe(&not_found(Entity::Transaction, "42", vault, &[])),
            "No transaction with id \"42\" in vault \"가계부\". Call list_transactions to see what exists."
        );
        assert_eq!(
            describe(&not_found(Entity::Recurring, "월세2", vault, &[])),
            "No recurring entry named \"월세2\" in vault \"가계부\". Call list_recurring to see what exists."
        );
        let handles = LedgerError::Ambiguous {
            what: Entity::Account,
            name: "국민카드".into(),
            matches: vec![
                Match {
                    name: "국민카드 (archived 2026-03-15)".into(),
                    location: "archived account a1 in vault \"가계부\"".into(),
                },
                Match {
                    name: "국민카드 (archived 2026-03-15 #2)".into(),
                    location: "archived account a2 in vault \"가계부\"".into(),
                },
            ],
        };
        assert_eq!(
            describe(&handles),
            "\"국민카드\" matches several accounts: \"국민카드 (archived 2026-03-15)\" (archived account a1 in vault \"가계부\"), \"국민카드 (archived 2026-03-15 #2)\" (archived account a2 in vault \"가계부\")."
        );
    }

    #[test]
    fn an_id_for_a_name_names_what_to_pass() {
        let names = vec!["식비".to_string(), "카카오뱅크".to_string()];
        let by_id = LedgerError::IdForName {
            what: Entity::Account,
            given: "u-1".into(),
            id_kind: dochiya_domain::IdShape::Uuid,
            within: Some("vault \"가계부\"".into()),
            meant: Some("카카오뱅크".into()),
            candidates: names.clone(),
        };
        assert_eq!(
            describe(&by_id),
            "\"u-1\" is an id (a UUID), but names are expected, not ids: pass the account's name. That id is account \"카카오뱅크\". Names in vault \"가계부\": \"식비\", \"카카오뱅크\". Call list_accounts to see every name."
        );
        let tx = LedgerError::IdForName {
            what: Entity::Account,
            given: "42".into(),
            id_kind: dochiya_domain::IdShape::Transaction,
            within: Some("vault \"가계부\"".into()),
            meant: None,
            candidates: names,
        };
        assert_eq!(
            describe(&tx),
            "\"42\" is a transaction id, but names are expected, not ids: pass the account's name. Names in vault \"가계부\": \"식비\", \"카카오뱅크\". Call list_accounts to see every name."
        );
        let vault = LedgerError::IdForName {
            what: Entity::Vault,
            given: "u-2".into(),
            id_kind: dochiya_domain::IdShape::Uuid,
            within: None,
            meant: Some("가계부".into()),
            candidates: vec!["가계부".into()],
        };
        assert_eq!(
            describe(&vault),
            "\"u-2\" is an id (a UUID), but names are expected, not ids: pass the vault's name. That id is vault \"가계부\". Names: \"가계부\". Call list_vaults to see every name."
        );
    }

    #[test]
    fn accounts_say_why_they_were_refused() {
        let shape = |kind, opening| Box::new(AccountShape { kind, opening });
        let mismatch = |existing, requested| LedgerError::AccountMismatch {
            name: "카카오뱅크".into(),
            vault: "vault \"가계부\"".into(),
            existing,
            requested,
        };
        let tail = "so nothing was changed. To use the existing account, call again with its kind and without openingBalance; to change its balance, record a transaction; for a separate account, choose another name.";
        assert_eq!(
            describe(&mismatch(
                shape(AccountKind::Expense, Some(won(0))),
                shape(AccountKind::Asset, None)
            )),
            format!(
                "Account \"카카오뱅크\" already exists in vault \"가계부\" as an expense account; this call asked for an asset account, {tail}"
            )
        );
        assert_eq!(
            describe(&mismatch(
                shape(AccountKind::Asset, Some(won(1_000_000))),
                shape(AccountKind::Asset, Some(won(2_000_000)))
            )),
            format!(
                "Account \"카카오뱅크\" already exists in vault \"가계부\" as an asset account with opening balance 1000000; this call asked for an asset account with opening balance 2000000, {tail}"
            )
        );
        assert_eq!(
            describe(&mismatch(
                shape(AccountKind::Asset, Some(won(1_000_000))),
                shape(AccountKind::Liability, None)
            )),
            format!(
                "Account \"카카오뱅크\" already exists in vault \"가계부\" as an asset account with opening balance 1000000; this call asked for a liability account, {tail}"
            )
        );
        let holds = |scheduled| LedgerError::ArchiveWithBalance {
            name: "신한카드".into(),
            balance: won(50_000),
            scheduled,
        };
        assert_eq!(
            describe(&holds(None)),
            "Account \"신한카드\" still holds 50000 as of today, so it was not archived. Bring it to zero first with record_transaction (move the money to another account, or pay off what it owes), or call update_account again with archive: true and force: true to archive it anyway (its balance keeps counting in get_balances)."
        );
        assert!(describe(&holds(Some(won(-50_000)))).starts_with(
            "Account \"신한카드\" still holds 50000 as of today and -50000 in entries dated after today, so it was not archived."
        ));
        assert_eq!(
            describe(&LedgerError::ArchivedAccount {
                name: "지갑".into()
            }),
            "Account \"지갑\" is archived, so new transactions cannot use it. Use another account (list_accounts shows the live ones), or create a new account."
        );
        let flow = LedgerError::SnapshotOfFlowAccount {
            name: "식비".into(),
            kind: AccountKind::Expense,
        };
        assert_eq!(
            describe(&flow),
            "\"식비\" is an expense account; snapshots are balances seen for asset or liability accounts (a bank account, a card)."
        );
    }

    #[test]
    fn entries_and_ranges_read_in_the_ledgers_terms() {
        let far = LedgerError::FarFutureDate {
            date: date("2099-01-01"),
            today: date("2026-03-15"),
        };
        assert_eq!(
            describe(&far),
            "The date read is 2099-01-01, more than a year after today (2026-03-15) in the vault's time zone."
        );
        let backwards = LedgerError::BackwardsRange {
            from: "2026-03".into(),
            to: "2026-01".into(),
        };
        assert_eq!(
            describe(&backwards),
            "The range runs backwards: it starts at 2026-03 and ends at 2026-01."
        );
        assert!(describe(&LedgerError::BadCursor).starts_with("The cursor was not made by this listing"));
        let unbalanced = LedgerError::Unbalanced {
            debits: won(29_000),
            credits: won(30_000),
            difference: won(1_000),
        };
        assert_eq!(
            describe(&unbalanced),
            "The split does not balance: the `from` lines sum to 30000 and the `to` lines sum to 29000, so the `from` side is 1000 more. Make both sides add up to the same total."
        );
        let duplicate = LedgerError::ProbableDuplicate {
            earlier_id: tid(7),
            earlier_date: date("2026-03-14"),
            earlier_memo: "tacos".into(),
            // Not in the sentence: any time will do.
            recorded_at: Clock::now(&ManualClock::at_unix_seconds(0)),
            minutes_ago: 3,
        };
        assert_eq!(
            describe(&duplicate),
            format!(
                "An entry with the same date, accounts and amount was recorded 3 minute(s) ago as transaction {} (dated 2026-03-14, memo \"tacos\"); it is probably a duplicate.",
                tid(7)
            )
        );
        let invalid = LedgerError::invalid(
            dochiya_ledger::api::Field::Limit,
            dochiya_ledger::api::Reason::Limit { max: 200 },
        );
        assert_eq!(
            describe(&invalid),
            "Invalid limit: limit must be between 1 and 200"
        );
    }

    #[test]
    fn sharing_refusals_name_the_next_step() {
        let actions = [
            OwnerAction::RenameAccounts,
            OwnerAction::ArchiveAccounts,
            OwnerAction::RenameVault,
            OwnerAction::Invite,
            OwnerAction::RemoveMembers,
        ]
        .map(owner_action);
        assert_eq!(
            actions,
            [
                "rename accounts",
                "archive accounts",
                "rename the vault",
                "invite people",
                "remove members"
            ]
        );
        let needs = LedgerError::NeedsOwner {
            action: OwnerAction::RenameVault,
            vault: "가계부".into(),
        };
        assert_eq!(
            describe(&needs),
            "Only an owner of vault \"가계부\" can rename the vault; you are a member there. Ask an owner to do it, or to make you an owner (share_vault with role \"owner\", then join_vault with that code)."
        );
        assert_eq!(
            describe(&LedgerError::MemberNameTaken {
                name: "alice (2)".into()
            }),
            "Another member of this vault is already called \"alice (2)\". Call join_vault again with the same inviteCode and another `displayName` (the name the others see you by), or without `displayName` to be numbered."
        );
        let ended = |removed| LedgerError::AccessEnded {
            vault: "가계부".into(),
            on: date("2026-03-15"),
            removed,
        };
        assert_eq!(
            describe(&ended(true)),
            "Your access to vault \"가계부\" ended on 2026-03-15 (an owner removed you). Its entries are not yours to read or record any more. Do not create a new vault to carry on this book: ask one of its owners for a new invite and call join_vault with it."
        );
        assert!(
            describe(&ended(false))
                .starts_with("Your access to vault \"가계부\" ended on 2026-03-15 (you left it).")
        );
        assert_eq!(
            describe(&LedgerError::VaultDeleted {
                vault: "가계부".into(),
                on: date("2026-03-15"),
            }),
            "Vault \"가계부\" was deleted on 2026-03-15 by an owner, with every entry; nothing of it is left to read. If the household keeps a book elsewhere, ask an owner which vault and for an invite (join_vault); otherwise create_vault starts a new one."
        );
        assert!(
            describe(&LedgerError::NeedsOwner {
                action: OwnerAction::DeleteVault,
                vault: "가계부".into(),
            })
            .starts_with("Only an owner of vault \"가계부\" can delete the vault; you are a member there.")
        );
    }

    #[test]
    fn undo_refusals_say_what_to_send() {
        assert_eq!(
            describe(&LedgerError::NoOperation {
                vault: "가계부".into()
            }),
            "You have made no change in vault \"가계부\" that undo can take back, so nothing was changed. To take back another change (an owner may undo anyone's, and anyone a recurring posting), pass its operationId: list_transactions with order \"recorded\" shows each entry's."
        );
        let theirs = LedgerError::UndoNotYours {
            id: "99".into(),
            by: "지은".into(),
            vault: "가계부".into(),
        };
        assert_eq!(
            describe(&theirs),
            "Operation 99 was made by 지은, and only an owner of vault \"가계부\" may undo another member's changes; nothing was changed. Ask 지은 or an owner to undo it, or leave operationId out to undo your own latest change."
        );
        let unknown = |id: &str, entry_operation: Option<&str>| LedgerError::UnknownOperation {
            id: id.into(),
            vault: "가계부".into(),
            entry_operation: entry_operation.map(Into::into),
        };
        assert_eq!(
            describe(&unknown("4818349038087529260", None)),
            "There is no operation 4818349038087529260 in vault \"가계부\"; nothing was changed. Pass operationId exactly as a write returned it or list_transactions shows it, or leave it out to undo your own latest change."
        );
        assert_eq!(
            describe(&unknown("42", Some("99"))),
            "There is no operation 42 in vault \"가계부\"; nothing was changed. 42 is a transaction id; that entry's latest change is operation 99: pass operationId \"99\" to take it back."
        );
        let blocked = LedgerError::UndoBlocked {
            id: "98".into(),
            changes: vec![
                UndoBlock {
                    transaction_id: tid(2),
                    what: Blocker::Edited {
                        by: Some(op(99)),
                        version: 2,
                    },
                },
                UndoBlock {
                    transaction_id: tid(3),
                    what: Blocker::Voided { by: Some(op(100)) },
                },
            ],
        };
        assert_eq!(
            describe(&blocked),
            format!(
                "Operation 98 cannot be undone because its entries changed since (transaction {}: it was edited since by operation {} (now version 2); transaction {}: it was voided since by operation {}); nothing was changed. Undo those later changes first (undo with their operationId), or correct the entries with edit_transaction or void_transaction.",
                tid(2),
                op(99),
                tid(3),
                op(100)
            )
        );
    }

    #[test]
    fn not_found_lists_candidates_and_next_step() {
        let e = LedgerError::NotFound {
            what: Entity::Account,
            name: "식비2".into(),
            within: Some("vault \"가계부\"".into()),
            candidates: vec!["식비".into(), "외식비".into()],
        };
        assert_eq!(
            describe(&e),
            "No account named \"식비2\" in vault \"가계부\". Closest names: \"식비\", \"외식비\". Use one of them exactly, call list_accounts to see every name or create_account to add it."
        );
        let none = LedgerError::NotFound {
            what: Entity::Vault,
            name: "x".into(),
            within: None,
            candidates: vec![],
        };
        assert_eq!(
            describe(&none),
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
            describe(&e),
            "No vault was named and there are several: \"가계부\" (KRW, Asia/Seoul), \"Travel\" (USD, America/New_York)."
        );
        let m = |n| Money::from_minor(n, Currency::USD);
        let u = LedgerError::Unbalanced {
            debits: m(1250),
            credits: m(1200),
            difference: m(50),
        };
        assert!(describe(&u).starts_with("The split does not balance: the `from` lines sum to 12.00 and the `to` lines sum to 12.50, so the `to` side is 0.50 more."));
    }

    #[test]
    fn a_schedule_that_cannot_post_says_why_and_the_way_out() {
        let on = dochiya_domain::LocalDate::parse("2026-03-20").expect("a date");
        let refused = LedgerError::ScheduleCannotPost {
            name: "급여".into(),
            date: on,
            reason: StuckReason::Overflow,
        };
        assert_eq!(
            describe(&refused),
            "The recurring entry \"급여\" cannot post its occurrence of 2026-03-20: it would put a stored total of one of its accounts out of range (past 9223372036854775807 minor units). Nothing was recorded; send a smaller amount (check it for extra digits)."
        );
        let stuck = Stuck {
            reason: StuckReason::ArchivedAccount,
            since: on,
        };
        assert_eq!(
            stuck_note(stuck),
            "It stopped posting at its occurrence of 2026-03-20: one of its accounts is archived. Nothing from that date on posts until it is changed. To fix it, call set_recurring with its name, change: true and live accounts as from and to (see list_accounts); the occurrences from 2026-03-20 on are then posted. To stop it, call set_recurring with its name and remove: true."
        );
    }
}
