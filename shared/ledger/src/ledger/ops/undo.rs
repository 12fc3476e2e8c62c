//! `undo`: take back one operation whole, or refuse and change nothing.
//!
//! Reads: the operation and its entries (one query; the caller's latest-operation
//! pointer first when no id is given), with the accounts; then every pending entry
//! as it is now (and, for an edit, the version before it) in one `get_many`.
//! Every entry is then its own atomic write, like a batch's (decision 025): the
//! entry's change back, its stored totals, and its operation item marked undone,
//! each only if the entry still shows this operation's change and was not undone
//! yet. A retry after a failure in the middle skips what is marked and does the
//! rest; two racing undos cannot both take back one entry.

use std::collections::BTreeMap;
use std::sync::Mutex;

use crate::api::OperationId;
use crate::api::{Blocker, LedgerError, Total, UndoBlock};
use crate::ledger::guards::TRANSACTION_LIVE;
use crate::ledger::idempotency::{changed_op, ttl_s};
use crate::ledger::operations::{
    ENTRY_NOT_UNDONE, EntryAction, OPERATION_CURRENT, OpEntryRec, OpRec, tx_item_keys, undone_op,
};
use crate::ledger::resolve::{Catalogue, join2, query_all, retrying};
use crate::ledger::roster::membership_check;
use crate::ledger::roster::{InVault, in_vault};
use crate::ledger::today::{Later, accounts_of, catalogue_today, shown};
use crate::ledger::writer::{TxChange, transaction_ops};
use crate::ledger::{Ledger, Role, UndoAction, UndoRequest, Undone, UndoneEntry};
use crate::stored::entry::{TxRec, VersionRec};
use crate::stored::idempotency::StoredBalance;
use crate::stored::member::Membership;
use crate::stored::operation::OPERATION_ID;
use crate::stored::table::sv;
use crate::stored::{entry, operation, table};
use dochiya_domain::{AccountId, PersonId, TransactionId};
use dochiya_store::{Condition, Guard, Value, WriteOp};

pub(in crate::ledger) async fn undo(
    ledger: &Ledger,
    who: &PersonId,
    input: UndoRequest,
) -> Result<Undone, LedgerError> {
    // Entries this call took back, kept across re-runs after a lost race: a re-run
    // finds them marked, but they were still undone by this call.
    let written: Mutex<Vec<TransactionId>> = Mutex::new(Vec::new());
    let (input, written) = (&input, &written);
    retrying(|| {
        in_vault(ledger, who, input.vault.as_deref(), |v| {
            attempt(ledger, who, input, written, v)
        })
    })
    .await
}

/// The operation as read: its item and its entries, in transaction-id order.
struct Read {
    head: OpRec,
    entries: Vec<OpEntryRec>,
}

/// One pending entry's way back.
struct Plan {
    entry: OpEntryRec,
    now: TxRec,
    /// The entry after the undo.
    after: TxRec,
}

impl Plan {
    fn change(&self, at_ms: i64, reason: &str, by: &str) -> ChangeOwned {
        ChangeOwned {
            kind: self.entry.action,
            at_ms,
            at_s: at_ms.div_euclid(1000),
            reason: reason.to_string(),
            by: by.to_string(),
        }
    }
}

/// What an undo does to an entry, as a [`TxChange`] over the plan's records.
struct ChangeOwned {
    kind: EntryAction,
    at_ms: i64,
    at_s: i64,
    reason: String,
    by: String,
}

impl ChangeOwned {
    fn tx_change<'a>(&'a self, now: &'a TxRec, after: &'a TxRec) -> TxChange<'a> {
        match self.kind {
            EntryAction::Recorded => TxChange::Reverse {
                tx: now,
                reason: &self.reason,
                at: self.at_s,
                by: &self.by,
            },
            EntryAction::Edited => TxChange::Edit {
                old: now,
                new: after,
                at_ms: self.at_ms,
            },
            // Counting again is what recording does to totals; the items are updated in place.
            EntryAction::Voided => TxChange::Create(after),
        }
    }
}

fn action_of(a: EntryAction) -> UndoAction {
    match a {
        EntryAction::Recorded => UndoAction::Voided,
        EntryAction::Edited => UndoAction::Restored,
        EntryAction::Voided => UndoAction::Unvoided,
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    // A list of ids behind a poisoned lock is still a valid list.
    m.lock().unwrap_or_else(|e| e.into_inner())
}

async fn attempt(
    ledger: &Ledger,
    who: &PersonId,
    input: &UndoRequest,
    written: &Mutex<Vec<TransactionId>>,
    v: InVault,
) -> Result<Undone, LedgerError> {
    let m = v.membership.clone();
    let (read, (cat, later)) = read_operation(ledger, who, input.operation_id, &m).await?;
    let op = read.head.id;
    if let Some(by) = read.head.by.as_deref()
        && by != who.as_str()
        && m.role != Role::Owner
    {
        return Err(LedgerError::UndoNotYours {
            id: op.to_string(),
            by: read
                .head
                .by_name
                .clone()
                .unwrap_or_else(|| "another member".into()),
            vault: m.name.clone(),
        });
    }
    let plans = plan(ledger, &m, &read, &cat).await?;
    let at_ms = ledger.clock.now().as_millisecond();
    let reason = format!("undo of operation {op}");
    let by = who.display_name();
    let mut moved = Moved::default();
    for p in &plans {
        let c = p.change(at_ms, &reason, &by);
        moved.apply(&c.tx_change(&p.now, &p.after), later.today)?;
    }
    let touched = touched(&plans);
    let balances = touched
        .iter()
        .filter(|id| cat.by_id(**id).is_some())
        .map(|id| moved.balance(&cat, &later, *id))
        .collect::<Result<Vec<_>, _>>()?;
    let mut result = Undone {
        vault: m.vault_ref(),
        currency: m.currency,
        operation_id: op,
        undone: read
            .entries
            .iter()
            .map(|e| UndoneEntry {
                transaction_id: e.transaction_id,
                action: action_of(e.action),
            })
            .collect(),
        balances: shown(&balances, m.currency),
        already_undone: plans.is_empty() && lock(written).is_empty(),
        dry_run: input.dry_run,
    };
    if input.dry_run || plans.is_empty() {
        return Ok(result);
    }
    for p in &plans {
        let c = p.change(at_ms, &reason, &by);
        let ops = entry_ops(ledger, who, &m, op, p, &c)?;
        // A racing undo took this entry back first: it is done; go on with the next.
        // Changed meanwhile (an error): decide again on fresh reads (what is done stays marked).
        if v.write_unless(ledger, who, ops, ENTRY_NOT_UNDONE)
            .await?
            .is_none()
        {
            lock(written).push(p.entry.transaction_id);
        }
    }
    result.already_undone = lock(written).is_empty();
    Ok(result)
}

/// The operation (by id, or the caller's latest) and the accounts, in one round
/// (two when the id comes from the caller's pointer).
async fn read_operation(
    ledger: &Ledger,
    who: &PersonId,
    wanted: Option<OperationId>,
    m: &Membership,
) -> Result<(Read, (Catalogue, Later)), LedgerError> {
    let store = ledger.store.as_ref();
    let (op, cat) = match wanted {
        Some(op) => (op, None),
        None => {
            let (pointer, cat) = join2(
                store.get(&operation::latest_operation(m.vault_id, who)),
                catalogue_today(ledger, m),
            )
            .await;
            let op = match pointer? {
                Some(item) => operation::operation_of(&item.attrs)?,
                None => None,
            };
            let op = op.ok_or_else(|| LedgerError::NoOperation {
                vault: m.name.clone(),
            })?;
            (op, Some(cat?))
        }
    };
    let items = query_all(
        store,
        table::vault_pk(m.vault_id),
        operation::operation_and_entries(&op.to_key_string()),
        true,
    );
    let (items, cat) = match cat {
        Some(cat) => (items.await?, cat),
        None => {
            let (items, cat) = join2(items, catalogue_today(ledger, m)).await;
            (items?, cat?)
        }
    };
    let head_sk = operation::operation(m.vault_id, &op.to_key_string()).sk;
    let mut head = None;
    let mut entries = Vec::new();
    for item in &items {
        if item.key.sk == head_sk {
            head = Some(OpRec::from_attrs(&item.attrs)?);
        } else {
            entries.push(OpEntryRec::from_attrs(&item.attrs)?);
        }
    }
    match head {
        Some(head) if !entries.is_empty() => Ok((Read { head, entries }, cat)),
        _ => Err(unknown(ledger, m, op).await),
    }
}

/// "No such operation", saying so when the id is a transaction's (a likely mix-up).
async fn unknown(ledger: &Ledger, m: &Membership, op: OperationId) -> LedgerError {
    let as_tx = TransactionId::parse(&op.to_string())
        .ok()
        .map(|id| entry::transaction_by_id(m.vault_id, id));
    let mut entry_operation = None;
    if let Some(key) = as_tx
        && let Ok(Some(item)) = ledger.store.get(&key).await
    {
        entry_operation = Some(
            operation::operation_of(&item.attrs)
                .ok()
                .flatten()
                .map(|o| o.to_string())
                .unwrap_or_default(),
        );
    }
    LedgerError::UnknownOperation {
        id: op.to_string(),
        vault: m.name.clone(),
        entry_operation,
    }
}

/// Each entry not yet undone, as it is now and as the undo leaves it; refused whole
/// when any changed since (another operation's change shows) or needs an archived account.
async fn plan(
    ledger: &Ledger,
    m: &Membership,
    read: &Read,
    cat: &Catalogue,
) -> Result<Vec<Plan>, LedgerError> {
    let pending: Vec<&OpEntryRec> = read.entries.iter().filter(|e| !e.undone).collect();
    if pending.is_empty() {
        return Ok(vec![]);
    }
    let mut wanted = Vec::with_capacity(pending.len() * 2);
    for e in &pending {
        wanted.push(entry::transaction_by_id(m.vault_id, e.transaction_id));
        if e.action == EntryAction::Edited {
            wanted.push(entry::transaction_version(
                m.vault_id,
                e.transaction_id,
                e.version.saturating_sub(1),
            ));
        }
    }
    let got = ledger.store.get_many(&wanted).await?;
    let found: BTreeMap<_, _> = wanted.into_iter().zip(got).collect();
    let item = |k| found.get(&k).and_then(Option::as_ref);
    let op = read.head.id;
    let mut plans = Vec::with_capacity(pending.len());
    let mut blocks = Vec::new();
    for e in pending {
        let Some(now) = item(entry::transaction_by_id(m.vault_id, e.transaction_id)) else {
            return Err(LedgerError::internal("an operation's entry is missing"));
        };
        let now = TxRec::from_item(now)?;
        if now.operation_id != Some(op) {
            blocks.push(changed_since(&now, e));
            continue;
        }
        let after = match e.action {
            EntryAction::Recorded => TxRec {
                voided: true,
                ..now.clone()
            },
            EntryAction::Voided => TxRec {
                voided: false,
                void_reason: None,
                voided_at: None,
                voided_by: None,
                operation_id: e.before,
                ..now.clone()
            },
            EntryAction::Edited => {
                let key =
                    entry::transaction_version(m.vault_id, e.transaction_id, e.version.saturating_sub(1));
                let Some(v) = item(key) else {
                    return Err(LedgerError::internal(
                        "an edited entry's earlier version is missing",
                    ));
                };
                let before = VersionRec::from_attrs(&v.attrs)?.tx;
                TxRec {
                    date: before.date,
                    memo: before.memo,
                    postings: before.postings,
                    tags: before.tags,
                    for_whom: before.for_whom,
                    for_name: before.for_name,
                    operation_id: before.operation_id,
                    version: now.version.saturating_add(1),
                    edited_at_ms: Some(ledger.clock.now().as_millisecond()),
                    ..now.clone()
                }
            }
        };
        // What counts again must go to live accounts (archived ones keep only their history).
        if e.action != EntryAction::Recorded
            && let Some(a) = after
                .postings
                .iter()
                .filter_map(|p| cat.by_id(p.account_id))
                .find(|a| a.archived)
        {
            blocks.push(UndoBlock {
                transaction_id: now.id,
                what: Blocker::ArchivedAccount {
                    account: a.name.clone(),
                },
            });
            continue;
        }
        plans.push(Plan {
            entry: e.clone(),
            now,
            after,
        });
    }
    if !blocks.is_empty() {
        return Err(LedgerError::UndoBlocked {
            id: op.to_string(),
            changes: blocks,
        });
    }
    Ok(plans)
}

/// How an entry changed since the operation: what shows now and by which operation.
fn changed_since(now: &TxRec, e: &OpEntryRec) -> UndoBlock {
    let by = now.operation_id;
    let what = if now.voided {
        Blocker::Voided { by }
    } else if now.version > e.version {
        Blocker::Edited {
            by,
            version: now.version,
        }
    } else {
        Blocker::Changed { by }
    };
    UndoBlock {
        transaction_id: now.id,
        what,
    }
}

/// The atomic write that takes one entry back.
fn entry_ops(
    ledger: &Ledger,
    who: &PersonId,
    m: &Membership,
    op: OperationId,
    p: &Plan,
    c: &ChangeOwned,
) -> Result<Vec<WriteOp>, LedgerError> {
    let vault = m.vault_id;
    // First, so a racing undo that took the entry back is what a failure reports.
    let mut ops = vec![undone_op(vault, op, p.entry.transaction_id, c.at_ms)];
    ops.extend(transaction_ops(vault, c.tx_change(&p.now, &p.after), &[])?);
    let items = tx_item_keys(vault, &p.now);
    let shows_op = Condition::AttrEquals(OPERATION_ID.into(), sv(op.to_string()));
    if p.entry.action == EntryAction::Voided {
        // Brought back in place: the void's marks removed, the operation before it shown again.
        ops.retain(|o| !items.contains(o.key()));
        for key in items {
            let mut set = BTreeMap::from([("voided".to_string(), Value::Bool(false))]);
            let mut remove: Vec<String> = vec!["voidReason".into(), "voidedAt".into(), "voidedBy".into()];
            match p.after.operation_id {
                Some(before) => {
                    set.insert(OPERATION_ID.into(), sv(before.to_string()));
                }
                None => remove.push(OPERATION_ID.into()),
            }
            ops.push(WriteOp::Update {
                key,
                set,
                add: BTreeMap::new(),
                remove,
                guard: Some(Guard::new(
                    OPERATION_CURRENT,
                    Condition::All(vec![
                        Condition::AttrEquals("voided".into(), Value::Bool(true)),
                        shows_op.clone(),
                    ]),
                )),
            });
        }
    } else {
        // Only if still live and still showing this operation's change.
        for o in ops.iter_mut().filter(|o| items.contains(o.key())) {
            let g = match o {
                WriteOp::Put { guard, .. }
                | WriteOp::Update { guard, .. }
                | WriteOp::Delete { guard, .. } => guard,
                WriteOp::Check { .. } => continue,
            };
            if let Some(old) = g.as_ref().filter(|g| g.name == TRANSACTION_LIVE) {
                *g = Some(Guard::new(
                    OPERATION_CURRENT,
                    Condition::All(vec![old.condition.clone(), shows_op.clone()]),
                ));
            }
        }
    }
    // A statement line taken back can be imported again: its reference is freed.
    if p.entry.action == EntryAction::Recorded
        && let Some(r) = &p.now.external_ref
    {
        ops.push(WriteOp::Delete {
            key: entry::external_ref(vault, r),
            guard: None,
        });
    }
    let after = match p.entry.action {
        EntryAction::Recorded => TxRec {
            void_reason: Some(c.reason.clone()),
            voided_at: Some(c.at_s),
            voided_by: Some(c.by.clone()),
            ..p.after.clone()
        },
        _ => p.after.clone(),
    };
    ops.extend(changed_op(vault, &after, c.at_s, ttl_s(ledger)));
    ops.push(membership_check(who, m));
    Ok(ops)
}

/// Every account the operation's entries touch, in entry order.
fn touched(plans: &[Plan]) -> Vec<AccountId> {
    let mut ids = Vec::new();
    for p in plans {
        for id in accounts_of(p.now.postings.iter().chain(&p.after.postings)) {
            if !ids.contains(&id) {
                ids.push(id);
            }
        }
    }
    ids
}

/// Net changes (debit-positive) the planned writes make: all of them, and those dated after today.
#[derive(Default)]
struct Moved {
    nets: BTreeMap<AccountId, i64>,
    later: BTreeMap<AccountId, i64>,
}

impl Moved {
    fn apply(&mut self, change: &TxChange<'_>, today: dochiya_domain::LocalDate) -> Result<(), LedgerError> {
        for (into, from) in [
            (&mut self.nets, change.nets()?),
            (&mut self.later, change.nets_after(today)?),
        ] {
            for (id, net) in from {
                let slot = into.entry(id).or_insert(0);
                *slot = slot
                    .checked_add(net)
                    .ok_or_else(|| LedgerError::out_of_range(Total::AfterUndo))?;
            }
        }
        Ok(())
    }

    fn balance(&self, cat: &Catalogue, later: &Later, id: AccountId) -> Result<StoredBalance, LedgerError> {
        let a = cat
            .by_id(id)
            .ok_or_else(|| LedgerError::internal("an entry's account is missing"))?;
        let of = |x: &BTreeMap<AccountId, i64>| x.get(&id).copied().unwrap_or(0);
        later.named(cat, a, of(&self.nets), of(&self.later))
    }
}

impl Ledger {
    /// Take back one operation (default: the caller's own latest in the vault): recorded
    /// entries voided, an edit restored, a void brought back; once, all or nothing refused.
    pub async fn undo(&self, who: &PersonId, input: UndoRequest) -> Result<Undone, LedgerError> {
        undo(self, who, input).await
    }
}
