//! Balance snapshots (`V#<id>` / `S#<accountId>#<date>`) and the head an account item
//! keeps of them (decision 030).

use std::collections::BTreeMap;

use super::budget::{BUDGET_SEQ, BUDGET_TAIL};
use super::entry::RECORDED_BY;
use super::table::{n, n_or_zero, optional_n, parse_or_corrupt, s, sv, vault_pk};
use crate::api::LedgerError;
use dochiya_domain::{AccountId, LocalDate, VaultId};
use dochiya_store::{Attrs, Condition, Guard, Key, SkRange, Value, WriteOp};

/// Prefix of snapshots in a vault.
pub const SNAPSHOT_PREFIX: &str = "S#";

/// A snapshot (`V#<id>` / `S#<accountId>#<YYYY-MM-DD>`): one per account and date.
pub fn snapshot(vault: VaultId, account: AccountId, date: LocalDate) -> Key {
    Key::new(vault_pk(vault), format!("{SNAPSHOT_PREFIX}{account}#{date}"))
}

/// Sort-key prefix of one account's snapshots.
pub fn snapshot_prefix(account: AccountId) -> String {
    format!("{SNAPSHOT_PREFIX}{account}#")
}

/// Every snapshot of a vault.
pub fn snapshots() -> SkRange {
    SkRange::Prefix(SNAPSHOT_PREFIX.into())
}

/// Every snapshot of one account, oldest first.
pub fn account_snapshots(account: AccountId) -> SkRange {
    SkRange::Prefix(snapshot_prefix(account))
}

/// A snapshot: the balance a person saw (natural sign) for an account on a date.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SnapshotRec {
    pub account_id: AccountId,
    pub date: LocalDate,
    pub balance: i64,
    /// The account's snapshot-write count this write moved it to (0: written
    /// before decision 030); tells a reader whether a list it read is as new as a head.
    pub seq: i64,
}

impl SnapshotRec {
    /// Attributes; `recorded_by` is the display name of who wrote it (last writer wins, like the balance).
    pub fn to_attrs(&self, updated_at: i64, recorded_by: &str) -> Attrs {
        BTreeMap::from([
            ("accountId".into(), sv(self.account_id.to_string())),
            ("date".into(), sv(self.date.to_string())),
            ("balance".into(), Value::N(self.balance)),
            ("updatedAt".into(), Value::N(updated_at)),
            (RECORDED_BY.into(), sv(recorded_by)),
            (SNAPSHOT_SEQ.into(), Value::N(self.seq)),
        ])
    }

    /// This record from an item's attributes (a missing or mistyped one is corrupt data).
    pub fn from_attrs(a: &Attrs) -> Result<Self, LedgerError> {
        Ok(SnapshotRec {
            account_id: parse_or_corrupt(AccountId::parse(s(a, "accountId")?), "account id")?,
            date: parse_or_corrupt(LocalDate::parse(s(a, "date")?), "date")?,
            balance: n(a, "balance")?,
            seq: n_or_zero(a, SNAPSHOT_SEQ)?,
        })
    }

    /// The snapshot as an account head's latest.
    pub fn latest(&self) -> LatestSnapshot {
        LatestSnapshot {
            date: self.date,
            balance: self.balance,
        }
    }
}

/// A snapshot item's write count attribute (`seq`).
const SNAPSHOT_SEQ: &str = "seq";
/// An account item's count of snapshot writes; its presence makes the head exact.
const HEAD_SEQ: &str = "snapSeq";
/// The date of an account's latest snapshot (absent: no snapshot).
const HEAD_DATE: &str = "snapDate";
/// The balance of an account's latest snapshot.
const HEAD_BALANCE: &str = "snapBalance";

/// Makes an account or snapshot item's attributes as they were before decision 030
/// (no heads, no write count): the contract suite's stand-in for older data.
pub fn without_heads(attrs: &mut Attrs) {
    for name in [
        HEAD_SEQ,
        HEAD_DATE,
        HEAD_BALANCE,
        SNAPSHOT_SEQ,
        BUDGET_SEQ,
        BUDGET_TAIL,
    ] {
        attrs.remove(name);
    }
}

/// An account's latest snapshot by date, as its account item keeps it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LatestSnapshot {
    pub date: LocalDate,
    pub balance: i64,
}

/// What an account item knows of the account's snapshots (decision 030): every
/// snapshot write moves it on in the same atomic write as the snapshot item.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SnapshotHead {
    /// An item written before the head existed: only the snapshot items tell.
    Unknown,
    /// Exact: `seq` snapshot writes so far, and the latest snapshot by date (any date).
    Known {
        seq: i64,
        latest: Option<LatestSnapshot>,
    },
}

impl SnapshotHead {
    /// A new account's head: known, no snapshot.
    pub const NEW: SnapshotHead = SnapshotHead::Known { seq: 0, latest: None };

    /// The attributes of a head after `seq` writes, with `latest`.
    pub(super) fn attrs(seq: i64, latest: Option<LatestSnapshot>) -> Attrs {
        let mut a = BTreeMap::from([(HEAD_SEQ.to_string(), Value::N(seq))]);
        if let Some(l) = latest {
            a.insert(HEAD_DATE.into(), sv(l.date.to_string()));
            a.insert(HEAD_BALANCE.into(), Value::N(l.balance));
        }
        a
    }

    /// The head an account item's attributes hold.
    pub(super) fn from_attrs(a: &Attrs) -> Result<Self, LedgerError> {
        let Some(seq) = optional_n(a, HEAD_SEQ)? else {
            return Ok(SnapshotHead::Unknown);
        };
        let latest = match a.get(HEAD_DATE) {
            None => None,
            Some(_) => Some(LatestSnapshot {
                date: parse_or_corrupt(LocalDate::parse(s(a, HEAD_DATE)?), "snapshot date")?,
                balance: n(a, HEAD_BALANCE)?,
            }),
        };
        Ok(SnapshotHead::Known { seq, latest })
    }

    /// The write count a snapshot write moves the head to.
    pub fn next_seq(&self) -> i64 {
        match self {
            SnapshotHead::Unknown => 1,
            SnapshotHead::Known { seq, .. } => seq.saturating_add(1),
        }
    }

    /// The condition "the head is still the one read" (no snapshot write since).
    pub fn unchanged(&self) -> Condition {
        match self {
            SnapshotHead::Unknown => Condition::AttrAbsent(HEAD_SEQ.into()),
            SnapshotHead::Known { seq, .. } => Condition::AttrEquals(HEAD_SEQ.into(), Value::N(*seq)),
        }
    }

    /// The update moving the head of account item `key` on by one write, to `latest`.
    pub fn moved_on(&self, key: Key, latest: Option<LatestSnapshot>, guard: Guard) -> WriteOp {
        WriteOp::Update {
            key,
            set: SnapshotHead::attrs(self.next_seq(), latest),
            add: BTreeMap::new(),
            remove: if latest.is_none() {
                vec![HEAD_DATE.into(), HEAD_BALANCE.into()]
            } else {
                vec![]
            },
            guard: Some(guard),
        }
    }
}
