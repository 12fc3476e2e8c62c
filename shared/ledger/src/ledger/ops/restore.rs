//! Bringing an archived account back (`update_account` with `archive: false`).
//!
//! The reverse of archiving, in one atomic write: the account is live again, it
//! claims its name (or a new one) among the live accounts, and the vault's live
//! account count moves back up. Its history never left, so nothing else changes.

use std::collections::BTreeMap;

use crate::api::{Entity, Field, Holder, OwnerAction, Reason};
use crate::ledger::guards::{ACCOUNT_EXISTS, NAME_FREE, VAULT_EXISTS, guard};
use crate::ledger::resolve::{catalogue, retrying};
use crate::ledger::roster::in_vault;
use crate::ledger::roster::require_owner;
use crate::ledger::*;
use crate::stored::account::{ARCHIVED, account_count_update, account_pointer};
use crate::stored::table::name_attrs;
use crate::stored::{account, vault};
use dochiya_domain::Name;
use dochiya_store::{Condition, Item, Value, WriteOp};

/// The attributes an archive mark adds, removed when the account comes back.
const ARCHIVE_MARK: [&str; 2] = ["archivedOn", "archivedAt"];

pub(in crate::ledger) async fn restore_account(
    ledger: &Ledger,
    who: &PersonId,
    vault: Option<&str>,
    account: &str,
    new_name: Option<&str>,
) -> Result<RestoredAccount, LedgerError> {
    let new = new_name
        .map(|n| Name::parse(n).map_err(|e| LedgerError::from_parse(Field::NewName, e)))
        .transpose()?;
    if let Some(n) = &new
        && dochiya_domain::is_archived_handle(n.display())
    {
        return Err(LedgerError::invalid(
            Field::NewName,
            Reason::RestoredHandleForm {
                name: n.display().to_string(),
            },
        ));
    }
    let new = &new;
    retrying(|| {
        in_vault(ledger, who, vault, |v| async move {
            let m = v.membership.clone();
            require_owner(&m, OwnerAction::ArchiveAccounts)?;
            let cat = catalogue(ledger, &m).await?;
            let a = cat.resolve(account, true, &m)?.clone();
            if !a.archived {
                // Already live: nothing to bring back (a repeat of this call lands here).
                return Ok(RestoredAccount {
                    vault: m.vault_ref(),
                    account_id: a.account_id,
                    name: a.name.clone(),
                    kind: a.kind,
                    restored: false,
                });
            }
            let (display, key) = match new {
                Some(n) => (n.display().to_string(), n.key().clone()),
                None => (a.name.clone(), a.name_key.clone()),
            };
            if let Some(other) = cat.live(&key) {
                return Err(LedgerError::NameTaken {
                    what: Entity::Account,
                    name: other.name.clone(),
                    existing: Holder::LiveAccount {
                        kind: other.kind,
                        vault: m.name.clone(),
                    },
                });
            }
            let mut set = name_attrs(&display, &key);
            set.insert(ARCHIVED.into(), Value::Bool(false));
            let ops = vec![
                WriteOp::Update {
                    key: account::account(m.vault_id, a.account_id),
                    set,
                    add: BTreeMap::new(),
                    remove: ARCHIVE_MARK.iter().map(|s| (*s).to_string()).collect(),
                    guard: guard(
                        ACCOUNT_EXISTS,
                        Condition::AttrEquals(ARCHIVED.into(), Value::Bool(true)),
                    ),
                },
                WriteOp::Put {
                    item: Item {
                        key: account::account_name(m.vault_id, &key),
                        attrs: account_pointer(a.account_id),
                    },
                    guard: guard(NAME_FREE, Condition::NotExists),
                },
                account_count_update(
                    vault::vault_meta(m.vault_id),
                    1,
                    guard(VAULT_EXISTS, Condition::Exists),
                ),
            ];
            v.write(ledger, who, ops).await?;
            Ok(RestoredAccount {
                vault: m.vault_ref(),
                account_id: a.account_id,
                name: display,
                kind: a.kind,
                restored: true,
            })
        })
    })
    .await
}

impl Ledger {
    /// Bring an archived account back under its name or `new_name`; a live one is
    /// returned with `restored: false`.
    pub async fn restore_account(
        &self,
        who: &PersonId,
        vault: Option<&str>,
        account: &str,
        new_name: Option<&str>,
    ) -> Result<RestoredAccount, LedgerError> {
        restore_account(self, who, vault, account, new_name).await
    }
}
