//! Vaults: how results name one, the list, creating and renaming.

use super::*;
use dochiya_domain::{Currency, LocalDate, VaultId, VaultZone};

/// A vault as results name it: `{ vaultId, name }`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VaultRef {
    /// Its id.
    pub vault_id: VaultId,
    /// Its display name.
    pub name: String,
}

/// One vault in `list_vaults`.
#[derive(Debug, Clone, PartialEq)]
pub struct VaultInfo {
    /// Its id.
    pub vault_id: VaultId,
    /// Its display name.
    pub name: String,
    /// Its currency.
    pub currency: Currency,
    /// Its IANA time zone.
    pub time_zone: String,
    /// Today's date in its time zone.
    pub today: LocalDate,
    /// Live (not archived) accounts.
    pub account_count: u32,
    /// The caller's role in it.
    pub role: Role,
    /// How many people keep it (1 until it is shared).
    pub member_count: u32,
    /// Who keeps it, oldest first, the caller marked.
    pub members: Vec<MemberInfo>,
}

/// Result of `list_vaults`.
#[derive(Debug, Clone, PartialEq)]
pub struct VaultList {
    /// The caller's vaults, by name.
    pub vaults: Vec<VaultInfo>,
}

/// Arguments of `create_vault`.
#[derive(Debug, Clone, PartialEq)]
pub struct NewVault {
    /// The name (unique among the caller's vaults).
    pub name: String,
    /// Default KRW.
    pub currency: Option<Currency>,
    /// Default Asia/Seoul.
    pub time_zone: Option<VaultZone>,
}

/// Result of `create_vault`.
#[derive(Debug, Clone, PartialEq)]
pub struct CreatedVault {
    /// Its id.
    pub vault_id: VaultId,
    /// Its display name.
    pub name: String,
    /// Its currency.
    pub currency: Currency,
    /// Its IANA time zone.
    pub time_zone: String,
    /// Today in its zone.
    pub today: LocalDate,
    /// `false` when a vault with that name and the same settings already existed.
    pub created: bool,
}

/// Result of `rename_vault`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RenamedVault {
    /// Its id.
    pub vault_id: VaultId,
    /// The new display name.
    pub name: String,
    /// False when it already had exactly that name (nothing written).
    pub changed: bool,
}
