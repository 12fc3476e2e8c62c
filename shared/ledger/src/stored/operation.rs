//! Operations (`V#<id>` / `OP#<op20>`), the entries each changed (`OP#<op20>#<id20>`) and
//! each member's latest (`OL#<sub>`): what `undo` takes back (decision 041).

use super::table::vault_pk;
use crate::api::LedgerError;
use dochiya_domain::{PersonId, TransactionId, VaultId};
use dochiya_store::{Attrs, Key, SkRange, Value};

/// Prefix of operation items in a vault (`OP#<op20>`: the operation; `OP#<op20>#<id20>`:
/// one entry it changed). `O` sorts after `MB#`/`META` and before `RC#`, inside no other range.
pub const OPERATION_PREFIX: &str = "OP#";
/// Prefix of each member's latest-operation pointer in a vault (`OL#<sub>`).
pub const LATEST_OPERATION_PREFIX: &str = "OL#";

/// An operation (`V#<id>` / `OP#<op20>`): who made it, what kind, when; `op20` is the
/// operation id zero-padded to 20 digits.
pub fn operation(vault: VaultId, op20: &str) -> Key {
    Key::new(vault_pk(vault), format!("{OPERATION_PREFIX}{op20}"))
}

/// One entry an operation changed (`V#<id>` / `OP#<op20>#<id20>`): what it did to it.
pub fn operation_entry(vault: VaultId, op20: &str, id: TransactionId) -> Key {
    Key::new(
        vault_pk(vault),
        format!("{OPERATION_PREFIX}{op20}#{}", id.to_key_string()),
    )
}

/// An operation and every entry it changed, in one query (the entries sort after it).
pub fn operation_and_entries(op20: &str) -> SkRange {
    SkRange::Prefix(format!("{OPERATION_PREFIX}{op20}"))
}

/// A person's latest operation in a vault (`V#<id>` / `OL#<sub>`): what `undo` takes by default.
pub fn latest_operation(vault: VaultId, who: &PersonId) -> Key {
    Key::new(
        vault_pk(vault),
        format!("{LATEST_OPERATION_PREFIX}{}", who.as_str()),
    )
}

/// Attribute of a transaction naming the operation whose change it shows now.
pub const OPERATION_ID: &str = "operationId";

/// Read a transaction's `operationId` attribute (absent: recorded before operations).
pub fn operation_of(attrs: &Attrs) -> Result<Option<crate::api::OperationId>, LedgerError> {
    match attrs.get(OPERATION_ID) {
        None => Ok(None),
        Some(Value::S(s)) => crate::api::OperationId::parse(s)
            .map(Some)
            .map_err(|_| LedgerError::internal("stored item has an unreadable operation id")),
        Some(_) => Err(LedgerError::internal(
            "stored item has a mistyped attribute `operationId`",
        )),
    }
}
