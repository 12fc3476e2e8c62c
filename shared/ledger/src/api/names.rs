//! Names that meant an archived account.

use dochiya_domain::AccountId;

/// Which account a read filter used when its name is a live account's that archived
/// accounts also had: the live one; the archived ones are reached by their handles.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AccountChoice {
    /// The live account used.
    pub account_id: AccountId,
    /// Its name.
    pub name: String,
    /// The handles of the archived accounts with that name (pass one to mean it).
    pub archived: Vec<String>,
}
