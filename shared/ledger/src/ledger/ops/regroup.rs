//! Moving a category under a parent (대분류 › 소분류) or back to the top: `update_account` with
//! `parent`; the tree itself is read in `groups`.

use crate::api::{Entity, OwnerAction};
use crate::ledger::groups::{attach_op, check_parent};
use crate::ledger::guards::CHILD_UNCHANGED;
use crate::ledger::resolve::{catalogue, retrying};
use crate::ledger::roster::in_vault;
use crate::ledger::roster::require_owner;
use crate::ledger::*;
use crate::stored::account;
use crate::stored::account::{AccountRec, CHILD_SEQ, PARENT, account_live};
use crate::stored::table::sv;
use dochiya_store::{Condition, Guard, Value, WriteOp};
use std::collections::BTreeMap;

/// `update_account` with `parent`: attach the account to a parent, move it to
/// another, or (`""`) make it top-level. Reports follow at once: they read the tree.
pub(in crate::ledger) async fn set_parent(
    ledger: &Ledger,
    who: &PersonId,
    vault: Option<&str>,
    account: &str,
    parent: &str,
) -> Result<ParentSet, LedgerError> {
    retrying(|| {
        in_vault(ledger, who, vault, |v| async move {
            let m = v.membership.clone();
            require_owner(&m, OwnerAction::ArrangeCategories)?;
            let cat = catalogue(ledger, &m).await?;
            let a = cat.resolve(account, false, &m).map_err(|e| match e {
                LedgerError::ArchivedAccount { name } => LedgerError::NotFound {
                    what: Entity::Account,
                    name,
                    within: Some(format!(
                        "{} (an archived account has that name; bring it back first with archive: false)",
                        m.described()
                    )),
                    candidates: vec![],
                },
                other => other,
            })?;
            let new_parent = match parent.trim() {
                "" => None,
                name => Some(check_parent(&cat, Some(a), (&a.name, a.kind), name, &m)?),
            };
            let done = |changed| ParentSet {
                vault: m.vault_ref(),
                account_id: a.account_id,
                name: a.name.clone(),
                kind: a.kind,
                parent: new_parent.map(|p| p.name.clone()),
                changed,
            };
            if a.parent == new_parent.map(|p| p.account_id) {
                return Ok(done(false));
            }
            let (set, remove) = match new_parent {
                Some(p) => (
                    BTreeMap::from([(PARENT.into(), sv(p.account_id.to_string()))]),
                    vec![],
                ),
                None => (BTreeMap::new(), vec![PARENT.to_string()]),
            };
            let mut ops = vec![WriteOp::Update {
                key: account::account(m.vault_id, a.account_id),
                set,
                add: BTreeMap::new(),
                remove,
                guard: Some(Guard::new(CHILD_UNCHANGED, unchanged(a))),
            }];
            ops.extend(new_parent.map(|p| attach_op(&m, p)));
            // The tree moved meanwhile: read it again and decide again.
            v.write(ledger, who, ops).await?;
            Ok(done(true))
        })
    })
    .await
}

/// The condition that an account is live with the parent and child count read.
pub(in crate::ledger) fn unchanged(a: &AccountRec) -> Condition {
    let parent = match a.parent {
        Some(p) => Condition::AttrEquals(PARENT.into(), sv(p.to_string())),
        None => Condition::AttrAbsent(PARENT.into()),
    };
    let seq = match a.child_seq {
        0 => Condition::AttrAbsent(CHILD_SEQ.into()),
        n => Condition::AttrEquals(CHILD_SEQ.into(), Value::N(n)),
    };
    Condition::All(vec![account_live(), parent, seq])
}

impl Ledger {
    /// Put a live income or expense account under `parent` (same kind, two levels),
    /// move it to another, or (`""`) make it top-level (decision 038).
    pub async fn set_account_parent(
        &self,
        who: &PersonId,
        vault: Option<&str>,
        account: &str,
        parent: &str,
    ) -> Result<ParentSet, LedgerError> {
        set_parent(self, who, vault, account, parent).await
    }
}
