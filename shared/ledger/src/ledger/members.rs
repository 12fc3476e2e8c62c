//! Who keeps a vault: its member list as stored, the labels members are shown by, and the
//! member a name means (shared by the sharing operations, deletion and the reads).

use super::resolve::query_all;
use super::*;
use crate::api::Entity;
use crate::stored::member::{MemberRec, Membership, members_version};
use crate::stored::table::n_or_zero;
use crate::stored::{member, table, vault};
use dochiya_domain::{Name, NameKey, VaultId};
use dochiya_store::Item;
use std::collections::HashSet;

/// A vault's member items and settings, read in one query.
pub(super) struct Members {
    /// Oldest first; empty for a vault never shared (made before sharing existed).
    pub(super) list: Vec<MemberRec>,
    /// The members version on `META`.
    pub(super) version: i64,
    /// When the vault was made (epoch seconds).
    pub(super) created_at: i64,
    /// Whether `META` exists at all.
    pub(super) exists: bool,
}

impl Members {
    /// The member list, with the caller as sole owner for a vault never shared.
    pub(super) fn or_sole(self, who: &PersonId, m: &Membership) -> Vec<MemberRec> {
        if !self.list.is_empty() {
            return self.list;
        }
        vec![founder(who, m, self.created_at)]
    }
}

pub(super) async fn read_members(ledger: &Ledger, vault: VaultId) -> Result<Members, LedgerError> {
    let items = query_all(
        ledger.store.as_ref(),
        table::vault_pk(vault),
        member::members_and_meta(),
        true,
    )
    .await?;
    let mut out = Members {
        list: Vec::new(),
        version: 0,
        created_at: 0,
        exists: false,
    };
    for item in &items {
        if member::is_member(&item.key.sk) {
            out.list.push(MemberRec::from_attrs(&item.attrs)?);
        } else if item.key.sk == vault::VAULT_META {
            out.exists = true;
            out.version = members_version(&item.attrs)?;
            out.created_at = n_or_zero(&item.attrs, "createdAt")?;
        }
    }
    out.list.sort_by_key(|r| r.joined_at);
    Ok(out)
}

/// The member item of a vault's first owner.
pub(super) fn founder(who: &PersonId, m: &Membership, joined_at: i64) -> MemberRec {
    MemberRec {
        person: who.as_str().to_string(),
        name: who.display_name(),
        role: Role::Owner,
        joined_at,
        name_key: m.name_key.clone(),
    }
}

/// The date, in the vault's zone, of an instant in epoch seconds.
pub(super) fn joined_on(m: &Membership, at: i64) -> dochiya_domain::LocalDate {
    m.zone
        .date_at(jiff::Timestamp::from_second(at).unwrap_or(jiff::Timestamp::UNIX_EPOCH))
}

/// The names members are shown and named by, in list order: each display name with
/// invisible characters removed, and `name (2)`, `name (3)`… for a later member whose
/// name folds like an earlier one's (joined before names were unique, or differing only
/// by an invisible character). Their keys are unique, so `remove_member` can always
/// name exactly one member.
pub(super) fn labels(list: &[MemberRec]) -> Vec<String> {
    let visible: Vec<String> = list
        .iter()
        .map(|r| dochiya_domain::without_invisible(&r.name).into_owned())
        .collect();
    let names: HashSet<NameKey> = visible.iter().map(|v| NameKey::of(v)).collect();
    let mut used: HashSet<NameKey> = HashSet::new();
    visible
        .into_iter()
        .map(|v| {
            if used.insert(NameKey::of(&v)) {
                return v;
            }
            let label = numbered(&v, |k| !used.contains(k) && !names.contains(k));
            used.insert(NameKey::of(&label));
            label
        })
        .collect()
}

/// `base (2)`, `base (3)`…: the first whose key `free` accepts (there is one: the sets are finite).
pub(super) fn numbered(base: &str, free: impl Fn(&NameKey) -> bool) -> String {
    (2u32..)
        .map(|n| format!("{base} ({n})"))
        .find(|label| free(&NameKey::of(label)))
        .unwrap_or_else(|| base.to_owned())
}

/// The display name a joiner gets: the one they asked for (refused when another member
/// already shows by it), else their token's name, numbered if it is taken.
pub(super) fn member_name(
    asked: Option<&Name>,
    who: &PersonId,
    list: &[MemberRec],
) -> Result<String, LedgerError> {
    let taken: HashSet<NameKey> = labels(list).iter().map(|l| NameKey::of(l)).collect();
    match asked {
        Some(name) if taken.contains(name.key()) => Err(LedgerError::MemberNameTaken {
            name: name.display().to_owned(),
        }),
        Some(name) => Ok(name.display().to_owned()),
        None => {
            let base = who.display_name();
            if taken.contains(&NameKey::of(&base)) {
                Ok(numbered(&base, |k| !taken.contains(k)))
            } else {
                Ok(base)
            }
        }
    }
}

/// Members as results show them: oldest first, by unique label, the caller marked.
pub(super) fn infos(list: &[MemberRec], m: &Membership, who: &PersonId) -> Vec<MemberInfo> {
    list.iter()
        .zip(labels(list))
        .map(|(r, label)| MemberInfo {
            name: label,
            role: r.role,
            joined_on: joined_on(m, r.joined_at),
            you: r.person == who.as_str(),
        })
        .collect()
}

/// What `list_vaults` needs from a vault's settings item to show its members: when it
/// was made and whether its member list was ever written (`None` when the item is absent).
pub(super) fn meta_founding(meta: Option<&Item>) -> Result<Option<(i64, bool)>, LedgerError> {
    meta.map(|item| {
        Ok((
            n_or_zero(&item.attrs, "createdAt")?,
            members_version(&item.attrs)? > 0,
        ))
    })
    .transpose()
}

/// Each vault's members for `list_vaults`: a vault never shared is its founder, the
/// caller, with no read; a shared one costs one query of its member items.
pub(super) async fn fill_members(
    ledger: &Ledger,
    who: &PersonId,
    memberships: &[Membership],
    founded: &[Option<(i64, bool)>],
    vaults: &mut [VaultInfo],
) -> Result<(), LedgerError> {
    for ((m, founding), v) in memberships.iter().zip(founded).zip(vaults.iter_mut()) {
        let list = match founding {
            Some((_, true)) => read_members(ledger, m.vault_id).await?.or_sole(who, m),
            Some((created_at, false)) => vec![founder(who, m, *created_at)],
            None => vec![founder(who, m, 0)],
        };
        v.members = infos(&list, m, who);
    }
    Ok(())
}

/// Whose entries a `recordedBy` filter means: `"me"` (any case) is the caller, with no
/// read; another name is a member's, as `find_member` finds it (refused with the
/// members' names when none has it).
pub(super) async fn recorder_named(
    ledger: &Ledger,
    who: &PersonId,
    m: &Membership,
    name: &str,
) -> Result<Recorder, LedgerError> {
    if name.trim().eq_ignore_ascii_case("me") {
        return Ok(Recorder {
            person: who.as_str().to_owned(),
            name: who.display_name(),
        });
    }
    let members = read_members(ledger, m.vault_id).await?;
    let list = members.or_sole(who, m);
    let (member, _) = find_member(&list, name, m)?;
    Ok(Recorder {
        person: member.person.clone(),
        name: member.name.clone(),
    })
}

/// A member as the recorder of entries.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Recorder {
    /// Their subject, as entries keep it.
    pub person: String,
    /// Their display name, for entries from before the subject was kept.
    pub name: String,
}

impl Recorder {
    /// Whether `tx` is this member's entry: by subject, or by the name an entry from
    /// before subjects were kept carries (never a recurring posting, nobody's own).
    pub(super) fn recorded(&self, tx: &crate::stored::entry::TxRec) -> bool {
        match &tx.recorder {
            Some(sub) => *sub == self.person,
            None => tx.recurring.is_none() && tx.recorded_by.as_deref() == Some(self.name.as_str()),
        }
    }
}

/// The member a name means: labels (see [`labels`]) compared like any name, normalized;
/// they are unique, so a name means one member or none.
pub(super) fn find_member<'a>(
    list: &'a [MemberRec],
    wanted: &str,
    m: &Membership,
) -> Result<(&'a MemberRec, String), LedgerError> {
    let key = NameKey::of(wanted);
    let shown = labels(list);
    match list
        .iter()
        .zip(&shown)
        .find(|(_, label)| NameKey::of(label) == key)
    {
        Some((one, label)) => Ok((one, label.clone())),
        None => Err(LedgerError::NotFound {
            what: Entity::Member,
            name: wanted.to_string(),
            within: Some(m.described()),
            candidates: shown,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use dochiya_domain::Name;
    use std::collections::HashSet;

    fn rec(person: &str, name: &str) -> MemberRec {
        MemberRec {
            person: person.to_owned(),
            name: name.to_owned(),
            role: Role::Member,
            joined_at: 0,
            name_key: NameKey::of("가계부"),
        }
    }

    #[test]
    fn labels_are_unique_even_for_members_stored_before_names_were() {
        // Joined before display names were unique or checked for invisible characters.
        let list = [
            rec("a", "Alice"),
            rec("b", "alice"),
            rec("c", "Bob\u{200B}"),
            rec("d", "Bob"),
            rec("e", "alice (2)"),
        ];
        let shown = labels(&list);
        assert_eq!(shown, vec!["Alice", "alice (3)", "Bob", "Bob (2)", "alice (2)"]);
        let keys: HashSet<NameKey> = shown.iter().map(|l| NameKey::of(l)).collect();
        assert_eq!(keys.len(), list.len());
    }

    #[test]
    fn a_joiner_without_a_name_asked_is_numbered_past_every_label() {
        let list = [rec("a", "Alice"), rec("b", "alice (2)")];
        let who = PersonId::new("z").unwrap().with_name(Some("ALICE".into()));
        assert_eq!(member_name(None, &who, &list).unwrap(), "ALICE (3)");
        let asked = Name::parse("Alicia").unwrap();
        assert_eq!(member_name(Some(&asked), &who, &list).unwrap(), "Alicia");
    }
}
