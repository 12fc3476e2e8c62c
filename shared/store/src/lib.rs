//! The narrow storage contract, at the level of DynamoDB items (docs/design.md §7).
//!
//! Every store (embedded, DynamoDB) implements [`Store`] with identical
//! semantics, proven by one contract suite. The ledger never sees a backend.
//!
//! Semantics every implementation must honour:
//! - all reads are strongly consistent;
//! - [`Store::write`] applies all operations or none; each operation's
//!   [`Guard`] is evaluated against the state before the write; the first
//!   failed guard (in operation order) is reported by its name, with the item
//!   as it was when the write was attempted (DynamoDB reports a position, which
//!   its store maps back to the operation's guard name);
//! - at most one operation per key in one write ([`StoreError::Invalid`] otherwise);
//! - an `Update` creates the item if it does not exist (DynamoDB semantics);
//!   `add` on a missing attribute starts from 0; overflow is [`StoreError::Overflow`];
//! - queries return items of one partition in sort-key order (byte order),
//!   resuming strictly after the cursor's sort key;
//! - the TTL attribute ([`TTL_ATTRIBUTE`]) is data only: expired items may still be
//!   returned, so the ledger checks expiry itself (DynamoDB deletes lazily).

pub mod eval;

use std::collections::BTreeMap;

use async_trait::async_trait;

/// Attribute holding an item's expiry (epoch seconds); the DynamoDB table's TTL attribute.
pub const TTL_ATTRIBUTE: &str = "expiresAt";

/// The most operations one atomic write may carry (DynamoDB's `TransactWriteItems` limit).
pub const MAX_WRITE_OPS: usize = 100;

/// The largest item a store accepts, in bytes of names and values (DynamoDB's limit).
pub const MAX_ITEM_BYTES: usize = 400 * 1024;

/// An item's primary key: partition key and sort key.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Key {
    /// Partition key (`PK`).
    pub pk: String,
    /// Sort key (`SK`).
    pub sk: String,
}

impl Key {
    /// A key from its two parts.
    pub fn new(pk: impl Into<String>, sk: impl Into<String>) -> Self {
        Self {
            pk: pk.into(),
            sk: sk.into(),
        }
    }
}

/// An attribute value. Numbers are integers (money in minor units, counts,
/// epoch seconds): nothing in the ledger is fractional, so nothing is `f64`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Value {
    /// A string.
    S(String),
    /// An integer.
    N(i64),
    /// A boolean.
    Bool(bool),
    /// A list.
    L(Vec<Value>),
    /// A map.
    M(BTreeMap<String, Value>),
}

/// An item's attributes, without its key.
pub type Attrs = BTreeMap<String, Value>;

/// A stored item: its key and its attributes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Item {
    /// Primary key.
    pub key: Key,
    /// Everything else.
    pub attrs: Attrs,
}

/// A condition on the item an operation touches, checked atomically with the write.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Condition {
    /// The item exists.
    Exists,
    /// The item does not exist.
    NotExists,
    /// The item exists and the attribute equals the value.
    AttrEquals(String, Value),
    /// The item does not exist, or the attribute is absent or differs from the value.
    AttrNotEquals(String, Value),
    /// The item does not exist, or it lacks the attribute.
    AttrAbsent(String),
    /// Every one of the conditions holds (none nested: a flat list, at least one).
    All(Vec<Condition>),
}

impl Condition {
    /// The attribute names the condition tests (for validation), in order.
    pub fn attribute_names(&self) -> Vec<&str> {
        match self {
            Condition::Exists | Condition::NotExists => vec![],
            Condition::AttrEquals(name, _)
            | Condition::AttrNotEquals(name, _)
            | Condition::AttrAbsent(name) => {
                vec![name.as_str()]
            }
            Condition::All(all) => all.iter().flat_map(Condition::attribute_names).collect(),
        }
    }
}

/// A named condition: what must hold for an operation to apply, and the name
/// a failure reports ([`StoreError::ConditionFailed`]), so a caller tells which
/// guard of its write failed without knowing where the operation sits in the list.
/// Names need not be unique in a write: ops with one meaning may share one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Guard {
    /// The name a failure reports (e.g. `"membership"`).
    pub name: &'static str,
    /// What must hold.
    pub condition: Condition,
}

impl Guard {
    /// A guard named `name` requiring `condition`.
    pub fn new(name: &'static str, condition: Condition) -> Self {
        Self { name, condition }
    }
}

/// One operation of an atomic write.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WriteOp {
    /// Put (create or replace) an item.
    Put {
        /// The whole new item.
        item: Item,
        /// Optional guard.
        guard: Option<Guard>,
    },
    /// Update attributes in place, creating the item if absent.
    Update {
        /// Which item.
        key: Key,
        /// Attributes to set.
        set: Attrs,
        /// Integers to add (missing attribute counts as 0).
        add: BTreeMap<String, i64>,
        /// Attributes to remove.
        remove: Vec<String>,
        /// Optional guard.
        guard: Option<Guard>,
    },
    /// Delete an item (deleting a missing item is not an error unless a condition says so).
    Delete {
        /// Which item.
        key: Key,
        /// Optional guard.
        guard: Option<Guard>,
    },
    /// Only check a condition on an item (DynamoDB `ConditionCheck`).
    Check {
        /// Which item.
        key: Key,
        /// The guard.
        guard: Guard,
    },
}

impl WriteOp {
    /// The key this operation touches.
    pub fn key(&self) -> &Key {
        match self {
            WriteOp::Put { item, .. } => &item.key,
            WriteOp::Update { key, .. } | WriteOp::Delete { key, .. } | WriteOp::Check { key, .. } => key,
        }
    }
}

/// Which sort keys of a partition a query returns.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SkRange {
    /// Every item of the partition.
    All,
    /// Sort keys starting with the prefix.
    Prefix(String),
    /// Sort keys between the two bounds, both inclusive.
    Between(String, String),
}

/// A query over one partition.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Query {
    /// The partition; always derived by the ledger from a resolved membership, never from client input.
    pub pk: String,
    /// Which sort keys.
    pub range: SkRange,
    /// Ascending (`true`) or descending sort-key order.
    pub forward: bool,
    /// At most this many items (≥ 1).
    pub limit: u32,
    /// Resume strictly after this sort key (the previous page's last one).
    pub after: Option<String>,
}

/// One page of a query.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Page {
    /// Items in the requested order.
    pub items: Vec<Item>,
    /// Sort key to resume after, when more items may follow.
    pub last_sk: Option<String>,
}

/// Why a store operation failed.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// A guard of the atomic write failed; nothing was written.
    #[error("guard `{guard}` failed")]
    ConditionFailed {
        /// The name of the first failed operation's guard.
        guard: &'static str,
        /// That item as it was (None when it did not exist).
        current: Option<Item>,
    },
    /// The request itself is unacceptable (too many operations, item too large, duplicate key).
    #[error("invalid store request: {0}")]
    Invalid(String),
    /// An `add` would take a number past 64 bits; nothing was written (its own variant:
    /// the ledger tells it as an amount out of range, and must not read it from a message).
    #[error("invalid store request: numeric overflow adding to {attribute}")]
    Overflow {
        /// The attribute added to.
        attribute: String,
    },
    /// A failure that may pass on retry (throttling, a conflicting transaction, a timeout).
    #[error("transient store failure")]
    Transient(#[source] Box<dyn std::error::Error + Send + Sync>),
    /// Anything else (missing table, permissions, corrupt data).
    #[error("store failure")]
    Backend(#[source] Box<dyn std::error::Error + Send + Sync>),
}

/// Item-level storage with atomic conditional multi-item writes.
#[async_trait]
pub trait Store: Send + Sync + 'static {
    /// Read one item.
    async fn get(&self, key: &Key) -> Result<Option<Item>, StoreError>;

    /// Read several items in one round (order of the result follows `keys`).
    async fn get_many(&self, keys: &[Key]) -> Result<Vec<Option<Item>>, StoreError>;

    /// Query one partition.
    async fn query(&self, query: &Query) -> Result<Page, StoreError>;

    /// Apply all operations atomically, or none.
    async fn write(&self, ops: Vec<WriteOp>) -> Result<(), StoreError>;
}
