//! Sharing a vault: roles, invites, members, leaving and deleting.

use super::*;
use dochiya_domain::LocalDate;

/// A person's role in a vault: members record, edit, void, snapshot and read;
/// owners also rename and archive accounts, rename the vault, invite and remove.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// Everything a member does, and managing the vault and its people.
    Owner,
    /// Keeps the book: records, edits, voids, snapshots, reads.
    Member,
}

impl Role {
    /// Lowercase word, as stored and as tools spell it.
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Owner => "owner",
            Role::Member => "member",
        }
    }

    /// The role a word names.
    pub fn parse(text: &str) -> Option<Role> {
        match text {
            "owner" => Some(Role::Owner),
            "member" => Some(Role::Member),
            _ => None,
        }
    }
}

/// Result of `share_vault`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SharedInvite {
    /// The vault shared.
    pub vault: VaultRef,
    /// The code in its written form (seven groups of four); shown once, stored only hashed.
    pub invite_code: String,
    /// When it stops working.
    pub expires_at: jiff::Timestamp,
    /// The role it grants.
    pub role: Role,
}

/// One person keeping a vault, as results show them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MemberInfo {
    /// Their display name.
    pub name: String,
    /// Their role.
    pub role: Role,
    /// The date they joined, in the vault's zone.
    pub joined_on: LocalDate,
    /// Whether this is the caller.
    pub you: bool,
}

/// Result of `join_vault`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Joined {
    /// The vault, under the joiner's name for it.
    pub vault: VaultRef,
    /// The joiner's role.
    pub role: Role,
    /// Everyone keeping it now, oldest first.
    pub members: Vec<MemberInfo>,
}

/// Result of `list_members`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MemberList {
    /// The vault.
    pub vault: VaultRef,
    /// Everyone keeping it, oldest first.
    pub members: Vec<MemberInfo>,
}

/// Result of `remove_member`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RemovedMember {
    /// The vault.
    pub vault: VaultRef,
    /// The removed member's display name.
    pub member: String,
    /// Always true (a refusal is an error).
    pub removed: bool,
}

/// Result of `leave_vault`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LeftVault {
    /// The vault left.
    pub vault: VaultRef,
    /// Always true (a refusal is an error).
    pub left: bool,
}

/// What a vault's deletion removed (or, in a dry run, would remove).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct DeletedCounts {
    /// Transactions, live and voided.
    pub entries: u64,
    /// Accounts, live and archived.
    pub accounts: u64,
    /// Members who kept the vault (the caller included).
    pub members: u64,
    /// Recurring schedules.
    pub schedules: u64,
    /// Budget settings (one per account and month set).
    pub budgets: u64,
    /// Balance snapshots.
    pub snapshots: u64,
}

/// Result of `delete_vault`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeletedVault {
    /// The vault deleted.
    pub vault: VaultRef,
    /// What went with it.
    pub deleted: DeletedCounts,
    /// True: nothing was deleted, `deleted` is what would go.
    pub dry_run: bool,
}

/// Result of deleting a person (`Ledger::delete_person`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DeletedPerson {
    /// The vaults deleted (they kept them alone), by their name.
    pub deleted: Vec<String>,
    /// The shared vaults left to the household.
    pub left: Vec<LeftShared>,
    /// Other items of theirs removed (ended memberships, idempotency records).
    pub records: u64,
}

/// A shared vault a deleted person left.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LeftShared {
    /// Its name, as they knew it.
    pub vault: String,
    /// The member who became owner because they were its last one.
    pub new_owner: Option<String>,
}
