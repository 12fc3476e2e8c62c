//! Vaults: list, create (idempotent for the same settings), rename.

use std::collections::BTreeMap;
use std::sync::atomic::Ordering;

use crate::api::{Entity, Field, Holder, OwnerAction, Reason};
use crate::ledger::guards::{
    MEMBER_PRESENT, NAME_HELD, VAULT_EXISTS, VAULT_NAME_UNCHANGED, VAULT_NEW, guard,
};
use crate::ledger::household;
use crate::ledger::members::{self, meta_founding};
use crate::ledger::resolve::{pick_vault, retrying};
use crate::ledger::roster;
use crate::ledger::roster::{MAX_VAULTS, require_owner};
use crate::ledger::*;
use crate::stored::account::account_count;
use crate::stored::member::{MemberRec, Membership, member_count};
use crate::stored::table::{name_attrs, name_key_attr, name_key_is};
use crate::stored::vault::points_at_vault;
use crate::stored::{member, vault};
use dochiya_domain::{Currency, Name, VaultId, VaultZone, random_uuid};
use dochiya_store::{Condition, Item, StoreError, WriteOp};

pub(in crate::ledger) async fn list_vaults(
    ledger: &Ledger,
    who: &PersonId,
) -> Result<VaultList, LedgerError> {
    // Always read afresh: this is where a person looks to see what they have.
    let roster = roster::fetch(ledger, who).await?;
    let all = &roster.members;
    if all.is_empty() {
        return Ok(VaultList { vaults: vec![] });
    }
    let metas = ledger
        .store
        .get_many(
            &all.iter()
                .map(|m| vault::vault_meta(m.vault_id))
                .collect::<Vec<_>>(),
        )
        .await?;
    let now = ledger.clock.now();
    let mut vaults = Vec::with_capacity(all.len());
    let mut founded = Vec::with_capacity(all.len());
    for (m, meta) in all.iter().zip(metas) {
        founded.push(meta_founding(meta.as_ref())?);
        let (count, members) = match meta {
            Some(item) => (account_count(&item.attrs)?, member_count(&item.attrs)?),
            None => (0, 1),
        };
        vaults.push(VaultInfo {
            vault_id: m.vault_id,
            name: m.name.clone(),
            currency: m.currency,
            time_zone: m.zone.name().to_string(),
            today: m.zone.date_at(now),
            account_count: u32::try_from(count.max(0)).unwrap_or(u32::MAX),
            role: m.role,
            member_count: u32::try_from(members.max(1)).unwrap_or(u32::MAX),
            members: Vec::new(),
        });
    }
    members::fill_members(ledger, who, all, &founded, &mut vaults).await?;
    Ok(VaultList { vaults })
}

pub(in crate::ledger) async fn create_vault(
    ledger: &Ledger,
    who: &PersonId,
    input: NewVault,
) -> Result<CreatedVault, LedgerError> {
    let name = Name::parse(&input.name).map_err(|e| LedgerError::from_parse(Field::Name, e))?;
    let currency = input.currency.unwrap_or(Currency::KRW);
    let zone = input.time_zone.unwrap_or_else(VaultZone::seoul);
    retrying(|| create_on_fresh_reads(ledger, who, &name, currency, zone.clone())).await
}

/// One pass of create_vault on fresh reads of the caller's vaults (a lost race re-runs it).
async fn create_on_fresh_reads(
    ledger: &Ledger,
    who: &PersonId,
    name: &Name,
    currency: Currency,
    zone: VaultZone,
) -> Result<CreatedVault, LedgerError> {
    // Decided on a fresh roster; the version bump below makes the decision atomic.
    let roster = roster::fetch(ledger, who).await?;
    let all = &roster.members;
    if let Some(existing) = all.iter().find(|m| &m.name_key == name.key()) {
        if existing.currency == currency && existing.zone.name() == zone.name() {
            return Ok(created(ledger, existing, false));
        }
        return Err(LedgerError::NameTaken {
            what: Entity::Vault,
            name: existing.name.clone(),
            existing: Holder::Vault {
                currency: existing.currency,
                zone: existing.zone.name().to_string(),
            },
        });
    }
    if all.len() >= MAX_VAULTS {
        return Err(LedgerError::invalid(
            Field::Name,
            Reason::TooManyVaults { max: MAX_VAULTS },
        ));
    }
    let m = Membership {
        vault_id: VaultId::from_uuid(random_uuid(ledger.entropy.as_ref())),
        name: name.display().to_string(),
        name_key: name.key().clone(),
        currency,
        zone,
        role: Role::Owner,
    };
    let now = ledger.clock.now().as_second();
    let founder = MemberRec {
        person: who.as_str().to_string(),
        name: who.display_name(),
        role: Role::Owner,
        joined_at: now,
        name_key: m.name_key.clone(),
    };
    let ops = vec![
        WriteOp::Put {
            item: Item {
                key: member::member(m.vault_id, who),
                attrs: founder.to_attrs(),
            },
            guard: guard(VAULT_NEW, Condition::NotExists),
        },
        vault::name_claim(who, name.key(), m.vault_id),
        WriteOp::Put {
            item: Item {
                key: member::membership(who, m.vault_id),
                attrs: m.to_attrs(),
            },
            guard: guard(VAULT_NEW, Condition::NotExists),
        },
        WriteOp::Put {
            item: Item {
                key: vault::vault_meta(m.vault_id),
                attrs: m.meta_attrs(who.as_str(), now),
            },
            guard: guard(VAULT_NEW, Condition::NotExists),
        },
        roster.bump(who),
    ];
    match ledger.store.write(ops).await {
        Ok(()) => {
            let mut members = all.clone();
            members.push(m.clone());
            ledger.rosters.put(who, Arc::new(roster.next(members)));
            Ok(created(ledger, &m, true))
        }
        // Someone (a concurrent retry of this very call) took the name first: re-read and decide.
        Err(StoreError::ConditionFailed { .. }) => Err(LedgerError::Conflict),
        Err(e) => Err(e.into()),
    }
}

fn created(ledger: &Ledger, m: &Membership, created: bool) -> CreatedVault {
    CreatedVault {
        vault_id: m.vault_id,
        name: m.name.clone(),
        currency: m.currency,
        time_zone: m.zone.name().to_string(),
        today: ledger.today_in(m),
        created,
    }
}

pub(in crate::ledger) async fn rename_vault(
    ledger: &Ledger,
    who: &PersonId,
    vault: Option<&str>,
    new_name: &str,
) -> Result<RenamedVault, LedgerError> {
    let new = Name::parse(new_name).map_err(|e| LedgerError::from_parse(Field::NewName, e))?;
    // A vault made before sharing existed has no member item to keep the new name key in:
    // the first attempt finds that out (its guard fails) and the rest leave it out.
    let with_member = std::sync::atomic::AtomicBool::new(true);
    retrying(|| async {
        match attempt_rename(ledger, who, vault, &new, with_member.load(Ordering::Relaxed)).await {
            Err(LedgerError::Internal { context, .. }) if context == NO_MEMBER_ITEM => {
                with_member.store(false, Ordering::Relaxed);
                Err(LedgerError::Conflict)
            }
            other => other,
        }
    })
    .await
}

/// Why a rename's member-item update failed: the vault has no member items (never shared).
const NO_MEMBER_ITEM: &str = "vault has no member item";

async fn attempt_rename(
    ledger: &Ledger,
    who: &PersonId,
    vault: Option<&str>,
    new: &Name,
    with_member: bool,
) -> Result<RenamedVault, LedgerError> {
    let roster = roster::fetch(ledger, who).await?;
    let all = &roster.members;
    let m = pick_vault(all, vault)?;
    require_owner(&m, OwnerAction::RenameVault)?;
    if m.name == new.display() {
        // Already so: nothing is written, and a retry answers the same.
        return Ok(RenamedVault {
            vault_id: m.vault_id,
            name: m.name.clone(),
            changed: false,
        });
    }
    if let Some(other) = all
        .iter()
        .find(|o| &o.name_key == new.key() && o.vault_id != m.vault_id)
    {
        return Err(LedgerError::NameTaken {
            what: Entity::Vault,
            name: other.name.clone(),
            existing: Holder::OtherVault {
                currency: other.currency,
            },
        });
    }
    let names = name_attrs(new.display(), new.key());
    let mut ops = vec![
        // The membership update doubles as the membership check.
        WriteOp::Update {
            key: member::membership(who, m.vault_id),
            set: names.clone(),
            add: BTreeMap::new(),
            remove: vec![],
            guard: guard(VAULT_NAME_UNCHANGED, name_key_is(&m.name_key)),
        },
        WriteOp::Update {
            key: vault::vault_meta(m.vault_id),
            set: names,
            add: BTreeMap::new(),
            remove: vec![],
            guard: guard(VAULT_EXISTS, Condition::Exists),
        },
        roster.bump(who),
    ];
    if with_member {
        // The member item keeps the caller's name key, so a removal finds their name item.
        ops.push(WriteOp::Update {
            key: member::member(m.vault_id, who),
            set: name_key_attr(new.key()),
            add: BTreeMap::new(),
            remove: vec![],
            guard: guard(MEMBER_PRESENT, Condition::Exists),
        });
    }
    if !new.key().same_stored(&m.name_key) {
        ops.push(WriteOp::Delete {
            key: vault::vault_name(who, &m.name_key),
            guard: guard(NAME_HELD, points_at_vault(m.vault_id)),
        });
        ops.push(vault::name_claim(who, new.key(), m.vault_id));
    }
    match ledger.store.write(ops).await {
        Ok(()) => {
            let members = all
                .iter()
                .map(|o| {
                    if o.vault_id == m.vault_id {
                        Membership {
                            name: new.display().to_string(),
                            name_key: new.key().clone(),
                            ..o.clone()
                        }
                    } else {
                        o.clone()
                    }
                })
                .collect();
            ledger.rosters.put(who, Arc::new(roster.next(members)));
            Ok(RenamedVault {
                vault_id: m.vault_id,
                name: new.display().to_string(),
                changed: true,
            })
        }
        Err(StoreError::ConditionFailed {
            guard: MEMBER_PRESENT,
            ..
        }) => Err(LedgerError::internal(NO_MEMBER_ITEM)),
        Err(StoreError::ConditionFailed { .. }) => Err(LedgerError::Conflict),
        Err(e) => Err(e.into()),
    }
}

pub(in crate::ledger) async fn update_vault(
    ledger: &Ledger,
    who: &PersonId,
    input: VaultUpdate,
) -> Result<VaultUpdated, LedgerError> {
    if input.new_name.is_none() && input.shares.is_none() {
        return Err(LedgerError::invalid(Field::Entries, Reason::NothingToChange));
    }
    if let Some(s) = &input.shares
        && s.len() > crate::ledger::MAX_MEMBERS
    {
        return Err(LedgerError::invalid(
            Field::Household("shares"),
            Reason::TooManyWeights {
                max: crate::ledger::MAX_MEMBERS,
                got: s.len(),
            },
        ));
    }
    let mut changed = false;
    let mut shares_now = None;
    if let Some(asked) = &input.shares {
        let (c, s) = household::set_shares(ledger, who, input.vault.as_deref(), asked).await?;
        changed |= c;
        shares_now = Some(s);
    }
    let (vault_id, name) = match &input.new_name {
        Some(new_name) => {
            let r = rename_vault(ledger, who, input.vault.as_deref(), new_name).await?;
            changed |= r.changed;
            (r.vault_id, r.name)
        }
        None => {
            let m = roster::in_vault(ledger, who, input.vault.as_deref(), |v| async move {
                Ok(v.membership)
            })
            .await?;
            (m.vault_id, m.name)
        }
    };
    let shares = match shares_now {
        Some(s) => s,
        None => {
            roster::in_vault(ledger, who, Some(&name), |v| async move {
                let h = household::read_household(ledger, who, &v.membership).await?;
                Ok(h.current_shares(ledger.today_in(&v.membership).month()))
            })
            .await?
        }
    };
    Ok(VaultUpdated {
        vault_id,
        name,
        shares,
        changed,
    })
}

impl Ledger {
    /// The caller's vaults with currency, time zone, today's date there, and live account count.
    pub async fn list_vaults(&self, who: &PersonId) -> Result<VaultList, LedgerError> {
        list_vaults(self, who).await
    }

    /// Create a vault; when the caller already has one with that name and the
    /// same settings, return it with `created: false` (a retry is harmless).
    /// Same name with different settings is [`LedgerError::NameTaken`].
    pub async fn create_vault(&self, who: &PersonId, input: NewVault) -> Result<CreatedVault, LedgerError> {
        create_vault(self, who, input).await
    }

    /// Rename one of the caller's vaults (found by its current name).
    pub async fn rename_vault(
        &self,
        who: &PersonId,
        vault: &str,
        new_name: &str,
    ) -> Result<RenamedVault, LedgerError> {
        rename_vault(self, who, Some(vault), new_name).await
    }

    /// Rename a vault, set its members' shares, or both (shares: owner only).
    pub async fn update_vault(
        &self,
        who: &PersonId,
        input: VaultUpdate,
    ) -> Result<VaultUpdated, LedgerError> {
        update_vault(self, who, input).await
    }
}
