//! The names of the guards the ledger's writes carry. A failed write reports
//! the name of the guard that failed, so each operation decides what a failure
//! means by name, wherever the guarded op sits in its list.

use dochiya_store::{Condition, Guard};

/// The idempotency record is unclaimed (absent, or still the expired one read).
pub const IDEMPOTENCY_CLAIM: &str = "idempotency-claim";
/// The caller is still a member of the vault.
pub const MEMBERSHIP: &str = "membership";
/// The caller's roster is still the version the vault was resolved from.
pub const ROSTER_VERSION: &str = "roster-version";
/// The duplicate guard is still the one read (or absent).
pub const DUPLICATE_GUARD: &str = "duplicate-guard";
/// No transaction holds the externalRef yet.
pub const EXTERNAL_REF_FREE: &str = "external-ref-free";
/// A new transaction's id is not taken.
pub const TRANSACTION_NEW: &str = "transaction-new";
/// The transaction is not voided.
pub const TRANSACTION_LIVE: &str = "transaction-live";
/// No edit replaced the version of the transaction that was read.
pub const TRANSACTION_UNCHANGED: &str = "transaction-unchanged";
/// The account exists and is not archived.
pub const ACCOUNT_LIVE: &str = "account-live";
/// The account exists (archived or not).
pub const ACCOUNT_EXISTS: &str = "account-exists";
/// A new account's id is not taken.
pub const ACCOUNT_NEW: &str = "account-new";
/// A name (of an account or a vault) is free.
pub const NAME_FREE: &str = "name-free";
/// A name item still points at the thing being renamed or archived.
pub const NAME_HELD: &str = "name-held";
/// The snapshot being deleted exists.
pub const SNAPSHOT_EXISTS: &str = "snapshot-exists";
/// The account's budget head is the one read and the account is live.
pub const BUDGET_HEAD: &str = "budget-head";
/// The account's snapshot head is the one read (and, for a new snapshot, the account is live).
pub const SNAPSHOT_HEAD: &str = "snapshot-head";
/// A new vault's id is not taken.
pub const VAULT_NEW: &str = "vault-new";
/// The vault's settings item exists.
pub const VAULT_EXISTS: &str = "vault-exists";
/// The membership still has the name the rename started from.
pub const VAULT_NAME_UNCHANGED: &str = "vault-name-unchanged";
/// A new invite's code hash is not taken.
pub const INVITE_NEW: &str = "invite-new";
/// The invite has not been used.
pub const INVITE_UNUSED: &str = "invite-unused";
/// The person is not yet a member (membership or member item absent).
pub const MEMBER_NEW: &str = "member-new";
/// The member item is still there.
pub const MEMBER_PRESENT: &str = "member-present";
/// The vault's member list is still the version read.
pub const MEMBERS_UNCHANGED: &str = "members-unchanged";
/// No one has posted this schedule's occurrence on this date yet.
pub const RECURRING_CLAIM: &str = "recurring-claim";
/// The recurring schedule is still the version read.
pub const SCHEDULE_UNCHANGED: &str = "schedule-unchanged";
/// No schedule has this name yet.
pub const SCHEDULE_NEW: &str = "schedule-new";
/// The vault's recurring head is still the date read (or still absent).
pub const RECURRING_HEAD: &str = "recurring-head";
/// The vault's schedule counter is still the count read (or still absent).
pub const SCHEDULES_COUNTED: &str = "schedules-counted";
/// No other account holds the number a new account claims (the vault's count as read).
pub const ACCOUNT_NUMBER_FREE: &str = "account-number-free";

/// The account becoming a parent is live and has no parent itself (decision 038).
pub const PARENT_TOP: &str = "parent-top";
/// The account getting a parent is live, with the parent and children as read.
pub const CHILD_UNCHANGED: &str = "child-unchanged";

/// `Some` guard named `name` requiring `condition`.
pub fn guard(name: &'static str, condition: Condition) -> Option<Guard> {
    Some(Guard::new(name, condition))
}
