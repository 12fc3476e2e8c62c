//! The category tree (대분류 › 소분류, decision 038): an income or expense account
//! may have a parent of the same kind; two levels, so a parent has no parent and a
//! child has no children. The tree lives on the account items (`parent`), so every
//! report reads the current tree with the accounts it reads anyway.

use std::collections::BTreeMap;

use super::guards::PARENT_TOP;
use super::resolve::Catalogue;
use super::*;
use crate::api::{Field, Reason, Total};
use crate::stored::account;
use crate::stored::account::{AccountRec, CHILD_SEQ, PARENT, account_live};
use crate::stored::member::Membership;
use dochiya_domain::{AccountId, AccountKind};
use dochiya_store::{Condition, Guard, WriteOp};

/// The argument every tree rule is reported on.
pub(super) const PARENT_ARG: Field = Field::Category("parent");

/// The parent `parent_name` names for an account of `kind` named `child_name`
/// (`child`: the account when it exists already), refused with what to send
/// instead when the tree would break: another kind, a third level, a cycle.
pub(super) fn check_parent<'c>(
    cat: &'c Catalogue,
    child: Option<&AccountRec>,
    (child_name, kind): (&str, AccountKind),
    parent_name: &str,
    m: &Membership,
) -> Result<&'c AccountRec, LedgerError> {
    if !matches!(kind, AccountKind::Income | AccountKind::Expense) {
        return Err(LedgerError::invalid(
            PARENT_ARG,
            Reason::ParentOfNonCategory {
                account: child_name.to_string(),
                kind,
            },
        ));
    }
    let parent = cat.resolve(parent_name, false, m)?;
    if child.is_some_and(|c| c.account_id == parent.account_id) {
        return Err(LedgerError::invalid(
            PARENT_ARG,
            Reason::OwnParent {
                account: child_name.to_string(),
                kind,
            },
        ));
    }
    if parent.kind != kind {
        return Err(LedgerError::invalid(
            PARENT_ARG,
            Reason::ParentOfOtherKind {
                account: child_name.to_string(),
                kind,
                parent: parent.name.clone(),
                parent_kind: parent.kind,
            },
        ));
    }
    if let Some(grand) = parent.parent.and_then(|g| cat.by_id(g)) {
        let reason = if child.is_some_and(|c| c.account_id == grand.account_id) {
            Reason::ParentCycle {
                parent: parent.name.clone(),
                account: child_name.to_string(),
            }
        } else {
            Reason::ParentTooDeep {
                parent: parent.name.clone(),
                grand: grand.name.clone(),
            }
        };
        return Err(LedgerError::invalid(PARENT_ARG, reason));
    }
    if let Some(c) = child {
        let children = children_of(cat, c.account_id);
        if let Some(first) = children.first() {
            return Err(LedgerError::invalid(
                PARENT_ARG,
                Reason::ChildHasChildren {
                    account: child_name.to_string(),
                    first: first.name.clone(),
                    more: children.len() - 1,
                    parent: parent.name.clone(),
                },
            ));
        }
    }
    Ok(parent)
}

/// The accounts (live or archived) whose parent is `id`, by name.
pub(super) fn children_of(cat: &Catalogue, id: AccountId) -> Vec<&AccountRec> {
    let mut out: Vec<&AccountRec> = cat.accounts.iter().filter(|a| a.parent == Some(id)).collect();
    out.sort_by(|a, b| a.name_key.cmp(&b.name_key));
    out
}

/// The group an account counts in: its parent, or itself at the top.
pub(super) fn group_of(cat: &Catalogue, id: AccountId) -> AccountId {
    cat.by_id(id).and_then(|a| a.parent).unwrap_or(id)
}

/// The name a report or list shows for an account's parent (an archived parent by its handle).
pub(super) fn parent_name(cat: &Catalogue, a: &AccountRec) -> Option<String> {
    let p = cat.by_id(a.parent?)?;
    Some(cat.handle(p).unwrap_or(&p.name).to_string())
}

/// The op that makes `parent` a parent (once more): it must still be live and at
/// the top, and its child count moves on, so a concurrent write that would put
/// it under another account fails its own check.
pub(super) fn attach_op(m: &Membership, parent: &AccountRec) -> WriteOp {
    WriteOp::Update {
        key: account::account(m.vault_id, parent.account_id),
        set: BTreeMap::new(),
        add: BTreeMap::from([(CHILD_SEQ.into(), 1)]),
        remove: vec![],
        guard: Some(Guard::new(
            PARENT_TOP,
            Condition::All(vec![account_live(), Condition::AttrAbsent(PARENT.into())]),
        )),
    }
}

/// One row per group with a non-zero total (a child's amount in its parent's row),
/// largest first, then by name. The tree is today's: a child moved to another
/// parent takes its whole history with it.
pub(super) fn rows_by_group(
    cells: &BTreeMap<(AccountId, YearMonth), i64>,
    kind: AccountKind,
    cat: &Catalogue,
    m: &Membership,
) -> Result<Vec<ReportRow>, LedgerError> {
    let mut per: BTreeMap<AccountId, i64> = BTreeMap::new();
    for ((a, _), v) in cells {
        let slot = per.entry(group_of(cat, *a)).or_insert(0);
        *slot = slot
            .checked_add(*v)
            .ok_or_else(|| LedgerError::out_of_range(Total::GroupRow { group: *a }))?;
    }
    let mut rows = Vec::new();
    for (g, net) in per {
        let amount = super::nets::natural(kind, net)?;
        if amount == 0 {
            continue;
        }
        let name = cat.by_id(g).map(|x| cat.handle(x).unwrap_or(&x.name).to_string());
        rows.push(ReportRow {
            account_id: Some(g),
            account: name,
            month: None,
            amount: dochiya_domain::Money::from_minor(amount, m.currency),
            parent: None,
            tag: None,
            member: None,
        });
    }
    rows.sort_by(|x, y| {
        y.amount
            .minor()
            .cmp(&x.amount.minor())
            .then_with(|| x.account.cmp(&y.account))
    });
    Ok(rows)
}
