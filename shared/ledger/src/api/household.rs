//! Two people, one book (decision 060): the vault's shares, an account's owner, and
//! settle-up, as the ledger takes and returns them.

use dochiya_domain::{AccountId, AccountKind, Currency, LocalDate, Money, VaultId};

use super::VaultRef;

/// Arguments of `update_vault`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VaultUpdate {
    /// Vault name (optional when the caller has exactly one).
    pub vault: Option<String>,
    /// Its new name.
    pub new_name: Option<String>,
    /// Members' weights as given (`member name`, weight); members not named keep theirs.
    pub shares: Option<Vec<(String, i64)>>,
}

/// One member's weight.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShareOf {
    /// The member's name.
    pub member: String,
    /// Their weight (the household's spending divides by these).
    pub weight: u64,
}

/// Result of `update_vault`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VaultUpdated {
    /// Its id.
    pub vault_id: VaultId,
    /// Its name now.
    pub name: String,
    /// Every member's weight now, oldest member first.
    pub shares: Vec<ShareOf>,
    /// False when it already was so (nothing written).
    pub changed: bool,
}

/// Result of `update_account` with `owner`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OwnerSet {
    /// The vault.
    pub vault: VaultRef,
    /// The account's id.
    pub account_id: AccountId,
    /// Its name.
    pub name: String,
    /// Its kind.
    pub kind: AccountKind,
    /// Whose it is now (`None`: the household's).
    pub owner: Option<String>,
    /// False when it already was so (nothing written).
    pub changed: bool,
}

/// Arguments of `settle_up`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SettleRequest {
    /// Vault name (optional when the caller has exactly one).
    pub vault: Option<String>,
    /// First day (default: the first entry's date).
    pub from: Option<LocalDate>,
    /// Last day (default: today).
    pub to: Option<LocalDate>,
}

/// One person's line of a settle-up.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SettleLine {
    /// Their name (a former member's as they were known).
    pub name: String,
    /// What they put into the household.
    pub put_in: Money,
    /// Their share of what the household used.
    pub share: Money,
    /// `put_in − share`: positive is owed to them.
    pub net: Money,
}

/// One payment that settles.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SettleTransfer {
    /// Who pays.
    pub from: String,
    /// Who is paid.
    pub to: String,
    /// How much.
    pub amount: Money,
}

/// Result of `settle_up`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Settlement {
    /// The vault.
    pub vault: VaultRef,
    /// Its currency.
    pub currency: Currency,
    /// First day counted.
    pub from: LocalDate,
    /// Last day counted.
    pub to: LocalDate,
    /// Every member (and former member with a part in the period), oldest first.
    pub members: Vec<SettleLine>,
    /// The fewest payments that bring every net to zero, largest first.
    pub transfers: Vec<SettleTransfer>,
}
