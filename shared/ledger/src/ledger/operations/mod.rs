//! Operations: every write that changes transactions (a recorded entry, a batch, an
//! edit, a void, a recurring posting) is one operation with its own id, so `undo`
//! can take it back whole (docs/decisions/041-operations-and-undo.md).
//!
//! Each change of an entry writes, in the entry's own atomic write: the operation's
//! item (`OP#<op20>`: kind, who, when), one item per entry it changed
//! (`OP#<op20>#<id20>`: what it did, the entry's version after it, the operation the
//! entry showed before it), and the maker's latest-operation pointer (`OL#<sub>`).
//! The entry itself carries the id of the operation whose change it shows now
//! (`operationId`), so an undo tells an entry changed since from one left as it was.

use std::collections::BTreeMap;

use crate::api::LedgerError;
use crate::api::OperationId;
use crate::stored::entry::TxRec;
use crate::stored::operation::{OPERATION_ID, operation_of};
use crate::stored::table::sv;
use crate::stored::{entry, idempotency, operation};
use dochiya_domain::{PersonId, TransactionId, VaultId};
use dochiya_store::{Attrs, Condition, Guard, Item, Key, TTL_ATTRIBUTE, Value, WriteOp};

/// The batch's operation claim is absent (first entry written) or holds this operation.
pub(super) const OPERATION_CLAIM: &str = "operation-claim";
/// The entry still shows the change of the operation being undone.
pub(super) const OPERATION_CURRENT: &str = "operation-current";
/// The operation's entry has not been undone yet.
pub(super) const ENTRY_NOT_UNDONE: &str = "entry-not-undone";

/// What kind of write an operation was.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum OpKind {
    /// `record_transaction`.
    Record,
    /// `record_transactions`.
    Batch,
    /// `edit_transaction`.
    Edit,
    /// `void_transaction`.
    Void,
    /// A recurring schedule's posting of one occurrence.
    Posting,
}

impl OpKind {
    fn as_str(self) -> &'static str {
        match self {
            OpKind::Record => "record",
            OpKind::Batch => "batch",
            OpKind::Edit => "edit",
            OpKind::Void => "void",
            OpKind::Posting => "posting",
        }
    }

    fn parse(s: &str) -> Option<OpKind> {
        Some(match s {
            "record" => OpKind::Record,
            "batch" => OpKind::Batch,
            "edit" => OpKind::Edit,
            "void" => OpKind::Void,
            "posting" => OpKind::Posting,
            _ => return None,
        })
    }
}

/// What an operation did to one entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum EntryAction {
    /// Recorded it (an undo voids it).
    Recorded,
    /// Edited it (an undo restores the version before).
    Edited,
    /// Voided it (an undo brings it back).
    Voided,
}

impl EntryAction {
    fn as_str(self) -> &'static str {
        match self {
            EntryAction::Recorded => "recorded",
            EntryAction::Edited => "edited",
            EntryAction::Voided => "voided",
        }
    }

    fn parse(s: &str) -> Option<EntryAction> {
        Some(match s {
            "recorded" => EntryAction::Recorded,
            "edited" => EntryAction::Edited,
            "voided" => EntryAction::Voided,
            _ => return None,
        })
    }
}

/// The operation a write is part of: its id, kind, maker and time.
#[derive(Debug, Clone)]
pub(super) struct OpStamp {
    pub id: OperationId,
    pub kind: OpKind,
    /// Who made it (`None`: a recurring posting, nobody's own).
    pub by: Option<PersonId>,
    /// When, epoch milliseconds.
    pub at_ms: i64,
}

impl OpStamp {
    /// A new operation made by `who` now.
    pub fn new(ledger: &super::Ledger, kind: OpKind, by: Option<&PersonId>, at_ms: i64) -> OpStamp {
        OpStamp {
            id: OperationId::generate(at_ms, ledger.entropy.next_u64()),
            kind,
            by: by.cloned(),
            at_ms,
        }
    }

    /// The ops that file one entry's change under this operation (in the entry's own
    /// write): the operation's item, the entry's item and the maker's pointer.
    /// `before` is the operation the entry showed before this change.
    pub fn ops(
        &self,
        vault: VaultId,
        tx: &TxRec,
        action: EntryAction,
        before: Option<OperationId>,
    ) -> Vec<WriteOp> {
        let op20 = self.id.to_key_string();
        let mut head: Attrs = BTreeMap::from([
            (OPERATION_ID.into(), sv(self.id.to_string())),
            ("kind".into(), sv(self.kind.as_str())),
            ("at".into(), Value::N(self.at_ms)),
        ]);
        if let Some(by) = &self.by {
            head.insert("by".into(), sv(by.as_str()));
            head.insert("byName".into(), sv(by.display_name()));
        }
        let mut entry: Attrs = BTreeMap::from([
            ("transactionId".into(), sv(tx.id.to_string())),
            ("action".into(), sv(action.as_str())),
            ("version".into(), Value::N(i64::from(tx.version))),
        ]);
        if let Some(b) = before {
            entry.insert("before".into(), sv(b.to_string()));
        }
        let put = |key: Key, attrs: Attrs| WriteOp::Put {
            item: Item { key, attrs },
            guard: None,
        };
        let mut ops = vec![
            put(operation::operation(vault, &op20), head),
            put(operation::operation_entry(vault, &op20, tx.id), entry),
        ];
        if let Some(by) = &self.by {
            ops.push(put(
                operation::latest_operation(vault, by),
                BTreeMap::from([(OPERATION_ID.into(), sv(self.id.to_string()))]),
            ));
        }
        ops
    }
}

/// Set `operationId` on the updates of `tx`'s two items among `ops` (a void's marks).
pub(super) fn stamp_updates(ops: &mut [WriteOp], vault: VaultId, tx: &TxRec, op: OperationId) {
    let items = tx_item_keys(vault, tx);
    for o in ops.iter_mut() {
        if let WriteOp::Update { key, set, .. } = o
            && items.contains(key)
        {
            set.insert(OPERATION_ID.into(), sv(op.to_string()));
        }
    }
}

/// The keys of a transaction's two items (by date, by id).
pub(super) fn tx_item_keys(vault: VaultId, tx: &TxRec) -> [Key; 2] {
    [
        entry::transaction(vault, tx.date, tx.id),
        entry::transaction_by_id(vault, tx.id),
    ]
}

/// An operation as stored (`OP#<op20>`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct OpRec {
    pub id: OperationId,
    pub kind: OpKind,
    /// The maker's `sub` (`None`: a recurring posting).
    pub by: Option<String>,
    /// The maker's display name then.
    pub by_name: Option<String>,
    pub at_ms: i64,
}

/// One entry of an operation as stored (`OP#<op20>#<id20>`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct OpEntryRec {
    pub transaction_id: TransactionId,
    pub action: EntryAction,
    /// The entry's version right after the operation.
    pub version: u32,
    /// The operation the entry showed before this one.
    pub before: Option<OperationId>,
    /// Whether an undo already took this change back.
    pub undone: bool,
}

fn text<'a>(a: &'a Attrs, name: &str) -> Result<&'a str, LedgerError> {
    match a.get(name) {
        Some(Value::S(s)) => Ok(s),
        _ => Err(LedgerError::internal(format!(
            "stored operation item has a missing or mistyped attribute `{name}`"
        ))),
    }
}

fn optional_text(a: &Attrs, name: &str) -> Option<String> {
    match a.get(name) {
        Some(Value::S(s)) => Some(s.clone()),
        _ => None,
    }
}

impl OpRec {
    pub fn from_attrs(a: &Attrs) -> Result<OpRec, LedgerError> {
        let bad = |what: &str| LedgerError::internal(format!("stored operation has an unreadable {what}"));
        Ok(OpRec {
            id: OperationId::parse(text(a, OPERATION_ID)?).map_err(|_| bad("id"))?,
            kind: OpKind::parse(text(a, "kind")?).ok_or_else(|| bad("kind"))?,
            by: optional_text(a, "by"),
            by_name: optional_text(a, "byName"),
            at_ms: match a.get("at") {
                Some(Value::N(n)) => *n,
                _ => return Err(bad("time")),
            },
        })
    }
}

impl OpEntryRec {
    pub fn from_attrs(a: &Attrs) -> Result<OpEntryRec, LedgerError> {
        let bad =
            |what: &str| LedgerError::internal(format!("stored operation entry has an unreadable {what}"));
        Ok(OpEntryRec {
            transaction_id: TransactionId::parse(text(a, "transactionId")?).map_err(|_| bad("id"))?,
            action: EntryAction::parse(text(a, "action")?).ok_or_else(|| bad("action"))?,
            version: match a.get("version") {
                Some(Value::N(n)) => u32::try_from(*n).map_err(|_| bad("version"))?,
                _ => return Err(bad("version")),
            },
            before: optional_text(a, "before")
                .map(|b| OperationId::parse(&b).map_err(|_| bad("earlier operation")))
                .transpose()?,
            undone: matches!(a.get("undone"), Some(Value::Bool(true))),
        })
    }
}

/// The op that marks an operation's entry undone, only once.
pub(super) fn undone_op(vault: VaultId, op: OperationId, tx: TransactionId, at_ms: i64) -> WriteOp {
    WriteOp::Update {
        key: operation::operation_entry(vault, &op.to_key_string(), tx),
        set: BTreeMap::from([
            ("undone".into(), Value::Bool(true)),
            ("undoneAt".into(), Value::N(at_ms)),
        ]),
        add: BTreeMap::new(),
        remove: vec![],
        guard: Some(Guard::new(
            ENTRY_NOT_UNDONE,
            Condition::All(vec![Condition::Exists, Condition::AttrAbsent("undone".into())]),
        )),
    }
}

// ------------------------------------------------------------ a batch's one operation

/// The claim that keeps every entry of one batch in one operation, across retries
/// and racing calls with the same key (`P#<sub>` / `IK#<batch key>\u{1f}op`).
#[derive(Debug, Clone)]
pub(super) struct BatchOp {
    pub stamp: OpStamp,
    /// What the next write checks: the claim absent (or still the expired one read),
    /// or holding this operation.
    expect: Condition,
    key: Key,
    expires_at: i64,
}

impl BatchOp {
    /// The claim's key for a batch's idempotency key.
    pub fn key(batch_key: &super::idempotency::IdempotencyKey, who: &PersonId) -> Key {
        idempotency::idempotency(who, &format!("{}\u{1f}op", batch_key.as_str()))
    }

    /// From the claim as read: its operation when live, else a new one.
    pub fn from_read(
        ledger: &super::Ledger,
        who: &PersonId,
        key: Key,
        found: Option<&Item>,
        now_ms: i64,
        expires_at: i64,
    ) -> Result<BatchOp, LedgerError> {
        let now_s = now_ms.div_euclid(1000);
        let fresh = |expect| BatchOp {
            stamp: OpStamp::new(ledger, OpKind::Batch, Some(who), now_ms),
            expect,
            key: key.clone(),
            expires_at,
        };
        let Some(item) = found else {
            return Ok(fresh(Condition::NotExists));
        };
        let until = match item.attrs.get(TTL_ATTRIBUTE) {
            Some(Value::N(n)) => *n,
            _ => 0,
        };
        if until <= now_s {
            return Ok(fresh(Condition::AttrEquals(
                TTL_ATTRIBUTE.into(),
                Value::N(until),
            )));
        }
        let id = operation_of(&item.attrs)?
            .ok_or_else(|| LedgerError::internal("a batch's operation claim has no id"))?;
        Ok(BatchOp {
            stamp: OpStamp {
                id,
                kind: OpKind::Batch,
                by: Some(who.clone()),
                at_ms: now_ms,
            },
            expect: Condition::AttrEquals(OPERATION_ID.into(), sv(id.to_string())),
            key,
            expires_at,
        })
    }

    /// The claim's op for the next entry's write.
    pub fn claim_op(&self) -> WriteOp {
        WriteOp::Put {
            item: Item {
                key: self.key.clone(),
                attrs: BTreeMap::from([
                    (OPERATION_ID.into(), sv(self.stamp.id.to_string())),
                    (TTL_ATTRIBUTE.into(), Value::N(self.expires_at)),
                ]),
            },
            guard: Some(Guard::new(OPERATION_CLAIM, self.expect.clone())),
        }
    }

    /// After a write that carried the claim: later writes find it holding this operation.
    pub fn claimed(&mut self) {
        self.expect = Condition::AttrEquals(OPERATION_ID.into(), sv(self.stamp.id.to_string()));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn operation_ids_parse_like_transaction_ids_and_say_what_they_are() {
        let id = OperationId::generate(1_790_000_000_000, 5);
        assert_eq!(OperationId::parse(&id.to_string()).unwrap(), id);
        assert_eq!(id.to_key_string().len(), 20);
        assert_eq!(
            OperationId::parse("12").unwrap_err().message(),
            "\"12\" is not an operation id; ids are decimal strings of digits as a write returned them (operationId), e.g. \"4818349038087529260\""
        );
    }

    #[test]
    fn kinds_and_actions_read_back() {
        for k in [
            OpKind::Record,
            OpKind::Batch,
            OpKind::Edit,
            OpKind::Void,
            OpKind::Posting,
        ] {
            assert_eq!(OpKind::parse(k.as_str()), Some(k));
        }
        for a in [EntryAction::Recorded, EntryAction::Edited, EntryAction::Voided] {
            assert_eq!(EntryAction::parse(a.as_str()), Some(a));
        }
        assert_eq!(OpKind::parse("undo"), None);
    }
}
