//! A vault's own items: its settings (`V#<id>` / `META`), the name each member holds
//! it by (`P#<sub>` / `VN#<nameKey>`) and a deletion under way (`P#<sub>` / `DV#<vaultId>`).

use std::collections::BTreeMap;

use super::table::{person_pk, sv, vault_pk};
use dochiya_domain::{NameKey, PersonId, VaultId};
use dochiya_store::{Attrs, Condition, Item, Key, SkRange, WriteOp};

/// Sort key of a vault's own settings item.
pub const VAULT_META: &str = "META";

/// A vault's settings (`V#<id>` / `META`).
pub fn vault_meta(vault: VaultId) -> Key {
    Key::new(vault_pk(vault), VAULT_META)
}

/// A vault name held by a person (`P#<sub>` / `VN#<nameKey>`): at most one per name.
pub fn vault_name(who: &PersonId, name: &NameKey) -> Key {
    Key::new(person_pk(who), format!("VN#{}", name.as_str()))
}

/// A vault deletion under way (`P#<sub>` / `DV#<vaultId>`), in the deleting owner's
/// partition from the write that ends every membership until the vault's last item is
/// gone: the owner's next `delete_vault` finishes what a crash left (decision 057).
pub fn deletion(who: &PersonId, vault: VaultId) -> Key {
    Key::new(person_pk(who), format!("{DELETION_PREFIX}{vault}"))
}

/// Sort-key prefix of the deletions under way in a person's partition.
pub const DELETION_PREFIX: &str = "DV#";

/// Every deletion under way in a person's partition.
pub fn deletions() -> SkRange {
    SkRange::Prefix(DELETION_PREFIX.into())
}

/// A vault-name item's attributes: which vault holds the name.
pub fn vault_pointer(vault: VaultId) -> Attrs {
    BTreeMap::from([("vaultId".into(), sv(vault.to_string()))])
}

/// The claim of a vault name in the person's partition: its item pointing at `vault`,
/// only if the name is free (create, join and rename hold names this way).
pub fn name_claim(who: &PersonId, name: &NameKey, vault: VaultId) -> WriteOp {
    WriteOp::Put {
        item: Item {
            key: vault_name(who, name),
            attrs: vault_pointer(vault),
        },
        guard: super::guards::guard(super::guards::NAME_FREE, Condition::NotExists),
    }
}

/// The guard "this vault-name item still points at `vault`".
pub fn points_at_vault(vault: VaultId) -> Condition {
    Condition::AttrEquals("vaultId".into(), sv(vault.to_string()))
}
