//! What a backup may restore (decision 048): the items of its own vault, and for each
//! person its member items name, only what that membership implies — the membership
//! itself, the one name claim it holds, and idempotency records whose stored result is
//! of this vault. A file is someone's word about other people's partitions, so the
//! restore trusts nothing else in it: not the header's list of persons, not a second
//! copy of a key.

use std::collections::{BTreeMap, BTreeSet};

use super::{Backup, BackupError};
use crate::api::Role;
use crate::stored::member::{MemberRec, Membership};
use crate::stored::{member, table, vault};
use dochiya_domain::PersonId;
use dochiya_store::{Item, Key, Value};

/// A member of the vault in a backup: a restore gives them a membership.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BackupMember {
    /// Their subject (`sub`).
    pub person: String,
    /// Their display name in the vault (none for the creator of a vault made before sharing).
    pub name: Option<String>,
    /// Their role (none for the creator of a vault made before sharing: its owner).
    pub role: Option<Role>,
}

impl Backup {
    /// Refuse a backup that holds anything but its vault and what the vault's own
    /// members imply, or the same key twice. Checked before anything is written.
    pub fn check_scope(&self) -> Result<(), BackupError> {
        let mut seen = BTreeSet::new();
        if let Some(twice) = self.items.iter().find(|i| !seen.insert(&i.key)) {
            return Err(BackupError::Twice {
                pk: twice.key.pk.clone(),
                sk: twice.key.sk.clone(),
            });
        }
        let members: BTreeMap<String, Option<Role>> =
            self.members()?.into_iter().map(|m| (m.person, m.role)).collect();
        if let Some(p) = self.persons.iter().find(|p| !members.contains_key(p.as_str())) {
            return Err(BackupError::NotAMember { person: p.clone() });
        }
        if let Some(p) = members.keys().find(|p| !self.persons.iter().any(|q| q == *p)) {
            return Err(BackupError::NotNamed { person: p.clone() });
        }
        let vault_pk = table::vault_pk(self.vault_id);
        let membership_sk = format!("{}{}", member::MEMBERSHIP_PREFIX, self.vault_id);
        let outside: Vec<&Item> = self.items.iter().filter(|i| i.key.pk != vault_pk).collect();
        // First the memberships: the claims are checked against them.
        let mut memberships = BTreeMap::new();
        for item in &outside {
            let person = person_of(&item.key, &members)?;
            if item.key.sk == membership_sk {
                let m = Membership::from_attrs(&item.attrs).map_err(|_| out(item, "not a membership"))?;
                if m.vault_id != self.vault_id {
                    return Err(out(item, "a membership of another vault"));
                }
                if members
                    .get(person)
                    .copied()
                    .flatten()
                    .is_some_and(|role| role != m.role)
                {
                    return Err(out(item, "a role other than the vault's member item gives"));
                }
                memberships.insert(person, m);
            }
        }
        for item in outside.iter().filter(|i| i.key.sk != membership_sk) {
            let person = person_of(&item.key, &members)?;
            self.check_person_item(item, person, memberships.get(person))?;
        }
        Ok(())
    }

    /// The vault's members as the file's vault partition names them (its member items,
    /// or the creator of a vault made before sharing): whom a restore gives access.
    pub fn members(&self) -> Result<Vec<BackupMember>, BackupError> {
        let vault_pk = table::vault_pk(self.vault_id);
        let mut members = Vec::new();
        for item in self
            .items
            .iter()
            .filter(|i| i.key.pk == vault_pk && i.key.sk.starts_with(member::MEMBER_PREFIX))
        {
            let rec = MemberRec::from_attrs(&item.attrs).map_err(|_| out(item, "not a member item"))?;
            if item.key.sk != format!("{}{}", member::MEMBER_PREFIX, rec.person) {
                return Err(out(item, "a member item under another person's key"));
            }
            members.push(BackupMember {
                person: rec.person,
                name: Some(rec.name),
                role: Some(rec.role),
            });
        }
        if members.is_empty() {
            let creator = self
                .items
                .iter()
                .find(|i| i.key.pk == vault_pk && i.key.sk == vault::VAULT_META)
                .and_then(|meta| match meta.attrs.get("createdBy") {
                    Some(Value::S(sub)) => Some(sub.clone()),
                    _ => None,
                })
                .ok_or_else(|| BackupError::NotABackup("its vault names no member and no creator".into()))?;
            members.push(BackupMember {
                person: creator,
                name: None,
                role: None,
            });
        }
        Ok(members)
    }

    /// A person's name claim or idempotency record: only as their membership implies.
    fn check_person_item(
        &self,
        item: &Item,
        person: &str,
        m: Option<&Membership>,
    ) -> Result<(), BackupError> {
        let of_this_vault = item.attrs.get("vaultId") == Some(&Value::S(self.vault_id.to_string()));
        if item.key.sk.starts_with("VN#") {
            let who = PersonId::new(person).map_err(|_| out(item, "not a person's partition"))?;
            let implied = m.map(|m| vault::vault_name(&who, &m.name_key));
            if implied.as_ref() != Some(&item.key) {
                return Err(out(item, "a name claim the person's membership does not hold"));
            }
            if !of_this_vault {
                return Err(out(item, "a name claim of another vault"));
            }
            return Ok(());
        }
        if item.key.sk.starts_with("IK#") {
            if !of_this_vault {
                return Err(out(
                    item,
                    "an idempotency record whose result is not of this vault",
                ));
            }
            return Ok(());
        }
        Err(out(
            item,
            "not a membership, name claim or idempotency record of this vault",
        ))
    }
}

/// The member whose partition `key` is in; any other partition is refused.
fn person_of<'a>(key: &'a Key, members: &BTreeMap<String, Option<Role>>) -> Result<&'a str, BackupError> {
    key.pk
        .strip_prefix("P#")
        .filter(|p| members.contains_key(*p))
        .ok_or_else(|| BackupError::OutOfScope {
            pk: key.pk.clone(),
            sk: key.sk.clone(),
            why: "in the partition of someone who is not a member of the vault".into(),
        })
}

fn out(item: &Item, why: &str) -> BackupError {
    BackupError::OutOfScope {
        pk: item.key.pk.clone(),
        sk: item.key.sk.clone(),
        why: why.into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use dochiya_domain::{Currency, NameKey, VaultId, VaultZone};
    use dochiya_store::Attrs;

    fn vault() -> VaultId {
        VaultId::from_uuid(uuid::Uuid::from_u128(7))
    }

    fn item(pk: &str, sk: &str, attrs: Attrs) -> Item {
        Item {
            key: Key::new(pk, sk),
            attrs,
        }
    }

    fn member(person: &str, role: Role) -> Item {
        let rec = MemberRec {
            person: person.into(),
            name: person.into(),
            role,
            joined_at: 1,
            name_key: NameKey::of("우리집"),
        };
        item(&table::vault_pk(vault()), &format!("MB#{person}"), rec.to_attrs())
    }

    fn membership(person: &str, vault_id: VaultId, role: Role) -> Item {
        let m = Membership {
            vault_id,
            name: "우리집".into(),
            name_key: NameKey::of("우리집"),
            currency: Currency::parse("KRW").expect("KRW"),
            zone: VaultZone::parse("Asia/Seoul").expect("a zone"),
            role,
        };
        item(&format!("P#{person}"), &format!("M#{}", vault()), m.to_attrs())
    }

    fn of_vault(id: VaultId) -> Attrs {
        [("vaultId".to_string(), Value::S(id.to_string()))].into()
    }

    /// 우리집 kept by alice (owner) and bob (member), each with a membership, a claim
    /// and a record.
    fn shared() -> Backup {
        let v = vault();
        let mut items = vec![
            item(
                &table::vault_pk(v),
                "META",
                [("createdBy".to_string(), Value::S("alice".into()))].into(),
            ),
            member("alice", Role::Owner),
            member("bob", Role::Member),
        ];
        for (p, role) in [("alice", Role::Owner), ("bob", Role::Member)] {
            items.push(membership(p, v, role));
            items.push(item(&format!("P#{p}"), "VN#우리집", of_vault(v)));
            items.push(item(&format!("P#{p}"), "IK#k1", of_vault(v)));
        }
        Backup {
            vault_id: v,
            vault_name: "우리집".into(),
            persons: vec!["alice".into(), "bob".into()],
            exported_at_ms: 1,
            items,
        }
    }

    fn refused(b: &Backup) -> String {
        b.check_scope().map_err(|e| e.to_string()).expect_err("refused")
    }

    #[test]
    fn a_backup_restores_its_vault_and_what_its_members_memberships_imply() {
        assert!(shared().check_scope().is_ok());
        // A vault made before sharing: its creator, by the settings item.
        let mut alone = shared();
        alone
            .items
            .retain(|i| !i.key.sk.starts_with("MB#") && !i.key.pk.starts_with("P#bob"));
        alone.persons = vec!["alice".into()];
        assert!(alone.check_scope().is_ok());
    }

    #[test]
    fn other_people_and_what_their_memberships_do_not_imply_are_refused() {
        let tail = "; a backup restores its vault and, for each of its members, only their membership, its name claim and their idempotency records of this vault; nothing was written";
        let mut named = shared();
        named.persons.push("mallory".into());
        assert_eq!(
            refused(&named),
            "the backup's header names mallory, who is not a member of the vault in it; nothing was written"
        );
        let mut unnamed = shared();
        unnamed.persons.pop();
        assert_eq!(
            refused(&unnamed),
            "member bob of the vault is missing from the backup's header; nothing was written"
        );
        let mut stranger = shared();
        stranger.items.push(item("P#mallory", "IK#k1", of_vault(vault())));
        assert_eq!(
            refused(&stranger),
            format!(
                "item P#mallory/IK#k1 is not this vault's to restore (in the partition of someone who is not a member of the vault){tail}"
            )
        );
        let other = VaultId::from_uuid(uuid::Uuid::from_u128(8));
        let cases: Vec<(Item, &str)> = vec![
            (
                item("P#bob", "VN#새집", of_vault(vault())),
                "a name claim the person's membership does not hold",
            ),
            (
                item("P#bob", "IK#k2", of_vault(other)),
                "an idempotency record whose result is not of this vault",
            ),
            (
                item("P#bob", &format!("MX#{}", vault()), of_vault(vault())),
                "not a membership, name claim or idempotency record of this vault",
            ),
            (
                item("P#bob", "M", [("version".to_string(), Value::N(9))].into()),
                "not a membership, name claim or idempotency record of this vault",
            ),
        ];
        for (extra, why) in cases {
            let mut b = shared();
            let key = format!("{}/{}", extra.key.pk, extra.key.sk);
            b.items.push(extra);
            assert_eq!(
                refused(&b),
                format!("item {key} is not this vault's to restore ({why}){tail}")
            );
        }
        // bob's membership made an owner's, or of another vault.
        let mut promoted = shared();
        promoted
            .items
            .retain(|i| !(i.key.pk == "P#bob" && i.key.sk.starts_with("M#")));
        promoted.items.push(membership("bob", vault(), Role::Owner));
        assert_eq!(
            refused(&promoted),
            format!(
                "item P#bob/M#{} is not this vault's to restore (a role other than the vault's member item gives){tail}",
                vault()
            )
        );
        let mut elsewhere = shared();
        elsewhere
            .items
            .retain(|i| !(i.key.pk == "P#bob" && i.key.sk.starts_with("M#")));
        elsewhere.items.push(membership("bob", other, Role::Member));
        assert_eq!(
            refused(&elsewhere),
            format!(
                "item P#bob/M#{} is not this vault's to restore (a membership of another vault){tail}",
                vault()
            )
        );
        let mut twice = shared();
        twice.items.push(item("P#bob", "IK#k1", of_vault(vault())));
        assert_eq!(
            refused(&twice),
            "item P#bob/IK#k1 appears twice in the backup; nothing was written"
        );
    }
}
