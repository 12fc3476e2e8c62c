//! A transaction (an entry): by date (`T#…`) and by id (`TI#…`), its earlier versions
//! (`TV#…`), what it is now for replays (`TC#…`), its duplicate guards (`DG#…`,
//! `DR#…`), its externalRef claim (`XR#…`) and an installment purchase's item (`IP#…`).

use std::collections::BTreeMap;

use super::operation::{OPERATION_ID, operation_of};
use super::table::{
    corrupt, flag, n, n_or_zero, optional_n, optional_s, parse_or_corrupt, s, string_list, sv, upper,
    vault_pk,
};
use crate::api::LedgerError;
use dochiya_domain::{AccountId, Installments, LocalDate, PersonId, TransactionId, VaultId, YearMonth};
use dochiya_store::{Attrs, Condition, Item, Key, SkRange, TTL_ATTRIBUTE, Value};

/// Prefix of transactions by date in a vault.
pub const TX_PREFIX: &str = "T#";
/// Prefix of transactions' earlier versions in a vault. `TV#` sorts after every
/// `T#…` key (`V` > `#`), so no transaction range reads a version.
pub const TX_VERSION_PREFIX: &str = "TV#";
/// Prefix of the items that tell a replay what its entry is now (`TC#<hash of
/// the idempotency record's key>`). `TC#` sorts after every `T#…` key and
/// before `TI#`, so no transaction range reads one.
pub const TX_CHANGED_PREFIX: &str = "TC#";

/// Prefix of installment purchases' items (`IP#<bound>#<accountId>#<id20>`, decision
/// 040). `I` sorts after `DR#` and before `M`, inside no other range.
pub const INSTALLMENT_PREFIX: &str = "IP#";

/// A transaction by date (`V#<id>` / `T#<YYYY-MM-DD>#<id20>`).
pub fn transaction(vault: VaultId, date: LocalDate, id: TransactionId) -> Key {
    Key::new(vault_pk(vault), transaction_sk(date, id))
}

/// The sort key of a transaction by date.
pub fn transaction_sk(date: LocalDate, id: TransactionId) -> String {
    format!("{TX_PREFIX}{date}#{}", id.to_key_string())
}

/// First sort key of transactions on `date`.
pub fn tx_from(date: LocalDate) -> String {
    format!("{TX_PREFIX}{date}")
}

/// Last sort key of transactions on `date`.
pub fn tx_through(date: LocalDate) -> String {
    upper(&format!("{TX_PREFIX}{date}#"))
}

/// Transactions dated `from..=to`; an open end reads to the first or last one.
pub fn transactions_between(from: Option<LocalDate>, to: Option<LocalDate>) -> SkRange {
    SkRange::Between(
        from.map(tx_from).unwrap_or_else(|| TX_PREFIX.to_string()),
        to.map(tx_through).unwrap_or_else(|| upper(TX_PREFIX)),
    )
}

/// Whether a sort key is a transaction's by date (a page cursor must resume at one).
pub fn is_transaction(sk: &str) -> bool {
    sk.starts_with(TX_PREFIX)
}

/// A transaction by id (`V#<id>` / `TI#<id20>`): a copy for lookups by id.
pub fn transaction_by_id(vault: VaultId, id: TransactionId) -> Key {
    Key::new(vault_pk(vault), format!("TI#{}", id.to_key_string()))
}

/// Transactions by id (`TI#…`), which is the order they were recorded in: ids are
/// time-ordered at recording (`list_transactions` with `order: "recorded"`).
pub fn transactions_by_id() -> SkRange {
    SkRange::Prefix("TI#".into())
}

/// Whether a sort key (from [`transactions_by_id`]) is a transaction's by-id item.
pub fn is_transaction_by_id(sk: &str) -> bool {
    sk.starts_with("TI#")
}

/// An earlier version of an edited transaction (`V#<id>` / `TV#<id20>#<version>`):
/// the content version `version` had until an edit replaced it.
pub fn transaction_version(vault: VaultId, id: TransactionId, version: u32) -> Key {
    Key::new(
        vault_pk(vault),
        format!("{}{version:05}", transaction_versions_prefix(id)),
    )
}

/// Sort-key prefix of one transaction's earlier versions.
fn transaction_versions_prefix(id: TransactionId) -> String {
    format!("{TX_VERSION_PREFIX}{}#", id.to_key_string())
}

/// The earlier versions of one transaction, oldest first.
pub fn transaction_versions(id: TransactionId) -> SkRange {
    SkRange::Prefix(transaction_versions_prefix(id))
}

/// What an entry is now, for replays of the key that recorded it (`V#<id>` /
/// `TC#<origin>`): written by every void and edit of an entry that has an origin.
pub fn transaction_changed(vault: VaultId, origin: &str) -> Key {
    Key::new(vault_pk(vault), format!("{TX_CHANGED_PREFIX}{origin}"))
}

/// The duplicate guard for one transaction content (`V#<id>` / `DG#<hash>`).
pub fn duplicate_guard(vault: VaultId, content_hash: &str) -> Key {
    Key::new(vault_pk(vault), format!("DG#{content_hash}"))
}

/// The guard that makes a hand entry of a posted occurrence a probable duplicate
/// (`V#<id>` / `DR#<hash of date and lines>`), whenever it was posted.
pub fn recurring_guard(vault: VaultId, content_hash: &str) -> Key {
    Key::new(vault_pk(vault), format!("DR#{content_hash}"))
}

/// An externalRef claim (`V#<id>` / `XR#<externalRef>`): at most one transaction per
/// statement-line id in a vault. `XR#` sorts after `T#`, `TI#` and `S#` and inside
/// no range query (`A#`…`C#`, `C#…`, `S#…`, `T#…` are each bounded by their prefix).
pub fn external_ref(vault: VaultId, external_ref: &str) -> Key {
    Key::new(vault_pk(vault), format!("XR#{external_ref}"))
}

/// An installment purchase on a card (`V#<id>` / `IP#<bound>#<accountId>#<id20>`): `bound`
/// is the latest month its last part can be billed in whatever the card's cycle, so
/// the bills of a month read only the purchases still open then.
pub fn installment(vault: VaultId, bound: YearMonth, card: AccountId, id: TransactionId) -> Key {
    Key::new(
        vault_pk(vault),
        format!("{INSTALLMENT_PREFIX}{bound}#{card}#{}", id.to_key_string()),
    )
}

/// The installment purchases of every card that may still have a part on a bill paid
/// in `month` or later: bounds from `month` on.
pub fn installments_open_in(month: YearMonth) -> SkRange {
    SkRange::Between(format!("{INSTALLMENT_PREFIX}{month}"), upper(INSTALLMENT_PREFIX))
}

/// The guard "this transaction is not voided".
pub fn still_live() -> Condition {
    Condition::AttrEquals("voided".into(), Value::Bool(false))
}

/// The attributes that mark a transaction voided.
pub fn void_mark(reason: &str, at: i64, by: &str) -> Attrs {
    BTreeMap::from([
        ("voided".into(), Value::Bool(true)),
        ("voidReason".into(), sv(reason)),
        ("voidedAt".into(), Value::N(at)),
        (VOIDED_BY.into(), sv(by)),
    ])
}

/// Attribute of a voided transaction naming who voided it.
const VOIDED_BY: &str = "voidedBy";
/// Attribute of a transaction holding its origin (see [`TxRec::origin`]).
const ORIGIN: &str = "origin";

/// The guard "this duplicate guard still points at `tx`".
pub fn guard_points_at(tx: TransactionId) -> Condition {
    Condition::AttrEquals("transactionId".into(), sv(tx.to_string()))
}

/// One stored posting (the account's name at recording time is kept for replays).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PostingRec {
    pub account_id: AccountId,
    pub name: String,
    pub amount: i64,
}

/// Attribute of a transaction or snapshot naming who wrote it.
pub const RECORDED_BY: &str = "recordedBy";

/// Attribute of a transaction holding its recorder's subject (never shown).
pub const RECORDER: &str = "recorder";

/// A stored transaction.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TxRec {
    pub id: TransactionId,
    pub date: LocalDate,
    pub memo: String,
    pub voided: bool,
    pub recorded_at_ms: i64,
    /// The recorder's display name at the time (absent on entries from before sharing).
    pub recorded_by: Option<String>,
    /// The recorder's subject (absent on a recurring posting, nobody's own, and on
    /// entries from before it was kept): whose entry `list_transactions`' `recordedBy` finds.
    pub recorder: Option<String>,
    pub postings: Vec<PostingRec>,
    /// 1 when recorded, one more with each edit (absent on items older than edits: 1).
    pub version: u32,
    /// When the last edit was made, epoch milliseconds.
    pub edited_at_ms: Option<i64>,
    /// Why it was voided, as given (set by the void's update, read back here).
    pub void_reason: Option<String>,
    /// When it was voided, epoch seconds.
    pub voided_at: Option<i64>,
    /// Who voided it (display name then; absent on voids from before it was kept).
    pub voided_by: Option<String>,
    /// A hash of the idempotency record's key that recorded it (absent on entries
    /// recorded without one, or before it was kept): where its voids and edits
    /// leave what it is now, for replays of that key ([`transaction_changed`]).
    pub origin: Option<String>,
    /// The statement line's own id it was recorded with (absent without one, or on
    /// entries from before it was kept): a line with another reference is another
    /// purchase, never its duplicate.
    pub external_ref: Option<String>,
    /// The name of the recurring schedule that posted it (absent on every other entry).
    pub recurring: Option<String>,
    /// Its tags as written, validated by `domain::parse_tags` (absent: none; decision 038).
    pub tags: Vec<String>,
    /// The operation whose change it shows now (absent on entries from before operations).
    pub operation_id: Option<crate::api::OperationId>,
    /// An installment purchase: how many parts, on which card (absent: one-time).
    pub installments: Option<InstallmentPlan>,
    /// Whose spending it was when not its categories' (a subject or [`FOR_SHARED`]; decision 060).
    pub for_whom: Option<String>,
    /// The name `for_whom` showed by when written (`"shared"` for [`FOR_SHARED`]).
    pub for_name: Option<String>,
}

/// How a card purchase is paid: in `count` monthly parts on the bills of `card`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InstallmentPlan {
    pub count: Installments,
    pub card: AccountId,
}

impl TxRec {
    /// A new, live, unedited transaction recorded by `by` (`None`: a recurring posting).
    pub fn new(
        id: TransactionId,
        date: LocalDate,
        memo: String,
        recorded_at_ms: i64,
        by: Option<&PersonId>,
        postings: Vec<PostingRec>,
    ) -> Self {
        TxRec {
            id,
            date,
            memo,
            voided: false,
            recorded_at_ms,
            recorded_by: by.map(PersonId::display_name),
            recorder: by.map(|p| p.as_str().to_owned()),
            postings,
            version: 1,
            edited_at_ms: None,
            void_reason: None,
            voided_at: None,
            voided_by: None,
            origin: None,
            external_ref: None,
            recurring: None,
            tags: Vec::new(),
            operation_id: None,
            installments: None,
            for_whom: None,
            for_name: None,
        }
    }

    /// This record as item attributes.
    pub fn to_attrs(&self) -> Attrs {
        let postings = self
            .postings
            .iter()
            .map(|p| {
                Value::M(BTreeMap::from([
                    ("accountId".into(), sv(p.account_id.to_string())),
                    ("name".into(), sv(&p.name)),
                    ("amount".into(), Value::N(p.amount)),
                ]))
            })
            .collect();
        let mut attrs = BTreeMap::from([
            ("transactionId".into(), sv(self.id.to_string())),
            ("date".into(), sv(self.date.to_string())),
            ("memo".into(), sv(&self.memo)),
            ("voided".into(), Value::Bool(self.voided)),
            ("recordedAt".into(), Value::N(self.recorded_at_ms)),
            ("postings".into(), Value::L(postings)),
            (VERSION.into(), Value::N(i64::from(self.version))),
        ]);
        if let Some(at) = self.edited_at_ms {
            attrs.insert("editedAt".into(), Value::N(at));
        }
        if let Some(reason) = &self.void_reason {
            attrs.insert("voidReason".into(), sv(reason));
        }
        if let Some(at) = self.voided_at {
            attrs.insert("voidedAt".into(), Value::N(at));
        }
        if let Some(by) = &self.voided_by {
            attrs.insert(VOIDED_BY.into(), sv(by));
        }
        if let Some(origin) = &self.origin {
            attrs.insert(ORIGIN.into(), sv(origin));
        }
        if let Some(r) = &self.external_ref {
            attrs.insert(EXTERNAL_REF.into(), sv(r));
        }
        if let Some(r) = &self.recurring {
            attrs.insert(RECURRING.into(), sv(r));
        }
        if let Some(plan) = &self.installments {
            attrs.insert(INSTALLMENTS.into(), Value::N(i64::from(plan.count.count())));
            attrs.insert(INSTALLMENT_CARD.into(), sv(plan.card.to_string()));
        }
        if let Some(by) = &self.recorded_by {
            attrs.insert(RECORDED_BY.into(), sv(by));
        }
        if let Some(sub) = &self.recorder {
            attrs.insert(RECORDER.into(), sv(sub));
        }
        if !self.tags.is_empty() {
            attrs.insert(TAGS.into(), Value::L(self.tags.iter().map(sv).collect()));
        }
        if let Some(op) = self.operation_id {
            attrs.insert(OPERATION_ID.into(), sv(op.to_string()));
        }
        if let Some(f) = &self.for_whom {
            attrs.insert(FOR.into(), sv(f));
        }
        if let Some(f) = &self.for_name {
            attrs.insert(FOR_NAME.into(), sv(f));
        }
        attrs
    }

    /// This record from an item's attributes (a missing or mistyped one is corrupt data).
    pub fn from_attrs(a: &Attrs) -> Result<Self, LedgerError> {
        let id = TransactionId::parse(s(a, "transactionId")?).map_err(|_| corrupt("transactionId"))?;
        let postings = match a.get("postings") {
            Some(Value::L(list)) => list
                .iter()
                .map(|v| match v {
                    Value::M(m) => Ok(PostingRec {
                        account_id: parse_or_corrupt(AccountId::parse(s(m, "accountId")?), "account id")?,
                        name: s(m, "name")?.to_string(),
                        amount: n(m, "amount")?,
                    }),
                    _ => Err(corrupt("postings")),
                })
                .collect::<Result<Vec<_>, _>>()?,
            _ => return Err(corrupt("postings")),
        };
        Ok(TxRec {
            id,
            date: parse_or_corrupt(LocalDate::parse(s(a, "date")?), "date")?,
            memo: s(a, "memo")?.to_string(),
            voided: flag(a, "voided")?,
            recorded_at_ms: n_or_zero(a, "recordedAt")?,
            recorded_by: match a.get(RECORDED_BY) {
                None => None,
                Some(Value::S(by)) => Some(by.clone()),
                Some(_) => return Err(corrupt(RECORDED_BY)),
            },
            recorder: match a.get(RECORDER) {
                None => None,
                Some(Value::S(sub)) => Some(sub.clone()),
                Some(_) => return Err(corrupt(RECORDER)),
            },
            postings,
            version: match a.get(VERSION) {
                None => 1,
                Some(Value::N(v)) => u32::try_from(*v).map_err(|_| corrupt(VERSION))?,
                Some(_) => return Err(corrupt(VERSION)),
            },
            edited_at_ms: optional_n(a, "editedAt")?,
            void_reason: match a.get("voidReason") {
                None => None,
                Some(Value::S(r)) => Some(r.clone()),
                Some(_) => return Err(corrupt("voidReason")),
            },
            voided_at: optional_n(a, "voidedAt")?,
            voided_by: match a.get(VOIDED_BY) {
                None => None,
                Some(Value::S(by)) => Some(by.clone()),
                Some(_) => return Err(corrupt(VOIDED_BY)),
            },
            origin: match a.get(ORIGIN) {
                None => None,
                Some(Value::S(o)) => Some(o.clone()),
                Some(_) => return Err(corrupt(ORIGIN)),
            },
            external_ref: match a.get(EXTERNAL_REF) {
                None => None,
                Some(Value::S(r)) => Some(r.clone()),
                Some(_) => return Err(corrupt(EXTERNAL_REF)),
            },
            recurring: match a.get(RECURRING) {
                None => None,
                Some(Value::S(r)) => Some(r.clone()),
                Some(_) => return Err(corrupt(RECURRING)),
            },
            tags: string_list(a, TAGS)?,
            operation_id: operation_of(a)?,
            installments: match optional_n(a, INSTALLMENTS)? {
                None => None,
                Some(count) => Some(InstallmentPlan {
                    count: parse_or_corrupt(Installments::new(count), "installment count")?,
                    card: parse_or_corrupt(AccountId::parse(s(a, INSTALLMENT_CARD)?), "installment card")?,
                }),
            },
            for_whom: optional_s(a, FOR)?,
            for_name: optional_s(a, FOR_NAME)?,
        })
    }

    /// This record from a stored item.
    pub fn from_item(item: &Item) -> Result<Self, LedgerError> {
        Self::from_attrs(&item.attrs)
    }

    /// Whether `other` says the same: date, memo, postings and tags (what an edit changes).
    /// Postings compare in any order: an opening balance on a card is stored credit first,
    /// and an edit that rebuilds it debit first changes nothing.
    pub fn same_content(&self, other: &TxRec) -> bool {
        let sorted = |t: &TxRec| {
            let mut p: Vec<(AccountId, i64)> = t.postings.iter().map(|p| (p.account_id, p.amount)).collect();
            p.sort_unstable();
            p
        };
        (&self.date, &self.memo, &self.tags, &self.for_whom)
            == (&other.date, &other.memo, &other.tags, &other.for_whom)
            && sorted(self) == sorted(other)
    }
}

/// Attribute of a transaction holding its version.
const VERSION: &str = "version";

/// Attribute of a transaction holding the externalRef it was recorded with.
const EXTERNAL_REF: &str = "externalRef";

/// Attribute of a transaction naming the recurring schedule that posted it.
const RECURRING: &str = "recurring";

/// Attribute of a transaction (and of a schedule) listing its tags.
pub(super) const TAGS: &str = "tags";

/// Attribute of a transaction saying whose spending it was (a subject, or [`FOR_SHARED`]).
pub const FOR: &str = "for";
/// Attribute of a transaction holding the name its `for` showed by.
pub const FOR_NAME: &str = "forName";
/// The stored `for` of spending for everyone.
pub const FOR_SHARED: &str = "*";

/// Attributes of an installment purchase: its count of parts and the card's account id.
const INSTALLMENTS: &str = "installments";
const INSTALLMENT_CARD: &str = "installmentCard";

/// An earlier version of an edited transaction, kept when the edit replaced it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VersionRec {
    /// The transaction as it was (its `version` is this version's number).
    pub tx: TxRec,
    /// When the edit replaced it, epoch milliseconds.
    pub replaced_at_ms: i64,
}

impl VersionRec {
    /// This record as item attributes.
    pub fn to_attrs(&self) -> Attrs {
        let mut attrs = self.tx.to_attrs();
        attrs.insert("replacedAt".into(), Value::N(self.replaced_at_ms));
        attrs
    }

    /// This record from an item's attributes (a missing or mistyped one is corrupt data).
    pub fn from_attrs(a: &Attrs) -> Result<Self, LedgerError> {
        Ok(VersionRec {
            tx: TxRec::from_attrs(a)?,
            replaced_at_ms: n(a, "replacedAt")?,
        })
    }
}

/// The duplicate guard: the latest transaction with one content hash.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GuardRec {
    pub transaction_id: TransactionId,
    pub date: LocalDate,
    pub recorded_at_ms: i64,
    /// Left by a recurring posting: a hand entry of the same date and lines repeats it
    /// however long ago it was posted (not only within the window).
    pub posted: bool,
}

impl GuardRec {
    /// This record as item attributes.
    pub fn to_attrs(&self, expires_at: i64) -> Attrs {
        let mut a = BTreeMap::from([
            ("transactionId".into(), sv(self.transaction_id.to_string())),
            ("date".into(), sv(self.date.to_string())),
            ("recordedAt".into(), Value::N(self.recorded_at_ms)),
            (TTL_ATTRIBUTE.into(), Value::N(expires_at)),
        ]);
        if self.posted {
            a.insert(RECURRING.into(), Value::Bool(true));
        }
        a
    }

    /// This record from an item's attributes (a missing or mistyped one is corrupt data).
    pub fn from_attrs(a: &Attrs) -> Result<Self, LedgerError> {
        Ok(GuardRec {
            transaction_id: TransactionId::parse(s(a, "transactionId")?)
                .map_err(|_| corrupt("transactionId"))?,
            date: parse_or_corrupt(LocalDate::parse(s(a, "date")?), "date")?,
            recorded_at_ms: n(a, "recordedAt")?,
            posted: flag(a, RECURRING)?,
        })
    }
}

/// An externalRef claim: the transaction that holds the reference.
pub fn external_ref_attrs(tx: TransactionId) -> Attrs {
    BTreeMap::from([("transactionId".into(), sv(tx.to_string()))])
}

/// The transaction an externalRef claim names.
pub fn external_ref_tx(item: &Item) -> Result<TransactionId, LedgerError> {
    TransactionId::parse(s(&item.attrs, "transactionId")?).map_err(|_| corrupt("transactionId"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn posting(account: &str, amount: i64) -> PostingRec {
        PostingRec {
            account_id: AccountId::parse(account).expect("an account id"),
            name: account[..4].to_owned(),
            amount,
        }
    }

    #[test]
    fn the_same_postings_in_another_order_are_the_same_content() {
        let (card, equity) = (
            "6d0b7b8e-0a63-4d2b-9c39-4c1a4b9f0a01",
            "6d0b7b8e-0a63-4d2b-9c39-4c1a4b9f0a02",
        );
        let date = LocalDate::parse("2026-03-01").expect("a date");
        let id = TransactionId::parse("9007199254740993").expect("an id");
        let stored = TxRec::new(
            id,
            date,
            "opening".into(),
            0,
            None,
            vec![posting(card, -300), posting(equity, 300)],
        );
        let rebuilt = TxRec::new(
            id,
            date,
            "opening".into(),
            5,
            None,
            vec![posting(equity, 300), posting(card, -300)],
        );
        assert!(stored.same_content(&rebuilt));
        let moved = TxRec::new(
            id,
            date,
            "opening".into(),
            5,
            None,
            vec![posting(equity, 200), posting(card, -200)],
        );
        assert!(!stored.same_content(&moved));
    }

    #[test]
    fn versions_sort_by_number_and_stay_out_of_transaction_ranges() {
        let v = VaultId::from_uuid(uuid::Uuid::nil());
        let id = TransactionId::from_u64(u64::MAX).unwrap();
        let (v2, v10) = (
            transaction_version(v, id, 2).sk,
            transaction_version(v, id, 10).sk,
        );
        assert!(v2 < v10);
        let SkRange::Between(lo, hi) = transactions_between(None, None) else {
            panic!("a transaction range is a Between");
        };
        assert!(!(lo.as_str() <= v2.as_str() && v2.as_str() <= hi.as_str()));
        let SkRange::Prefix(p) = transaction_versions(id) else {
            panic!("versions are a prefix");
        };
        assert!(v10.starts_with(&p) && !transaction_by_id(v, id).sk.starts_with(&p));
    }

    #[test]
    fn transaction_keys_sort_by_date_then_id() {
        let v = VaultId::from_uuid(uuid::Uuid::nil());
        let d1 = LocalDate::parse("2026-03-09").unwrap();
        let d2 = LocalDate::parse("2026-03-10").unwrap();
        let small = TransactionId::from_u64((1 << 53) + 1).unwrap();
        let big = TransactionId::from_u64(u64::MAX).unwrap();
        assert!(transaction(v, d1, big).sk < transaction(v, d2, small).sk);
        assert!(transaction(v, d2, small).sk < transaction(v, d2, big).sk);
        assert!(transaction(v, d2, big).sk <= tx_through(d2));
        assert!(tx_from(d2) <= transaction(v, d2, small).sk);
    }
}
