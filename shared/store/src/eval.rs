//! Condition and update semantics shared by the stores that evaluate writes
//! themselves (embedded, memory). DynamoDB evaluates the same rules server-side.

use std::collections::HashSet;

use super::{Attrs, Condition, Guard, Item, Key, MAX_ITEM_BYTES, MAX_WRITE_OPS, StoreError, Value, WriteOp};

/// Refuse a write that no store may accept: empty, too many operations, or two on one key.
pub fn validate(ops: &[WriteOp]) -> Result<(), StoreError> {
    if ops.is_empty() {
        return Err(StoreError::Invalid("a write needs at least one operation".into()));
    }
    if ops.len() > MAX_WRITE_OPS {
        return Err(StoreError::Invalid(format!(
            "a write may carry at most {MAX_WRITE_OPS} operations, got {}",
            ops.len()
        )));
    }
    let mut seen = HashSet::with_capacity(ops.len());
    for op in ops {
        validate_key(op.key())?;
        validate_attribute_names(op)?;
        if !seen.insert(op.key()) {
            let k = op.key();
            return Err(StoreError::Invalid(format!(
                "two operations on one item ({} / {})",
                k.pk, k.sk
            )));
        }
    }
    Ok(())
}

/// The longest partition key DynamoDB accepts, in bytes.
pub const MAX_PK_BYTES: usize = 2048;

/// The longest sort key DynamoDB accepts, in bytes.
pub const MAX_SK_BYTES: usize = 1024;

/// Attribute names a store may not be given: DynamoDB keeps the key in them.
pub const RESERVED_ATTRIBUTES: [&str; 2] = ["PK", "SK"];

/// Refuse a key DynamoDB would refuse: an empty part, or a part over its size limit.
/// Every store applies it to reads and writes, so no store accepts a key another refuses.
pub fn validate_key(key: &Key) -> Result<(), StoreError> {
    if key.pk.is_empty() || key.sk.is_empty() {
        return Err(StoreError::Invalid(format!(
            "key parts must not be empty ({:?} / {:?})",
            key.pk, key.sk
        )));
    }
    if key.pk.len() > MAX_PK_BYTES {
        return Err(StoreError::Invalid(format!(
            "partition key is {} bytes, over the {MAX_PK_BYTES}-byte limit",
            key.pk.len()
        )));
    }
    if key.sk.len() > MAX_SK_BYTES {
        return Err(StoreError::Invalid(format!(
            "sort key is {} bytes, over the {MAX_SK_BYTES}-byte limit",
            key.sk.len()
        )));
    }
    Ok(())
}

/// Refuse empty or reserved top-level attribute names in what an operation writes or tests.
fn validate_attribute_names(op: &WriteOp) -> Result<(), StoreError> {
    let condition_names = condition_of(op)
        .map(Condition::attribute_names)
        .unwrap_or_default();
    if let Some(Condition::All(all)) = condition_of(op)
        && (all.is_empty() || all.iter().any(|c| matches!(c, Condition::All(_))))
    {
        return Err(StoreError::Invalid(
            "a combined condition needs at least one condition and none nested".into(),
        ));
    }
    let names: Box<dyn Iterator<Item = &str>> = match op {
        WriteOp::Put { item, .. } => Box::new(item.attrs.keys().map(String::as_str)),
        WriteOp::Update { set, add, remove, .. } => Box::new(
            set.keys()
                .map(String::as_str)
                .chain(add.keys().map(String::as_str))
                .chain(remove.iter().map(String::as_str)),
        ),
        WriteOp::Delete { .. } | WriteOp::Check { .. } => Box::new(std::iter::empty()),
    };
    for name in names.chain(condition_names) {
        if name.is_empty() {
            return Err(StoreError::Invalid("attribute names must not be empty".into()));
        }
        if RESERVED_ATTRIBUTES.contains(&name) {
            return Err(StoreError::Invalid(format!(
                "attribute name {name} is reserved for the key"
            )));
        }
    }
    Ok(())
}

/// Whether `condition` holds for the item's current attributes (`None`: absent).
pub fn holds(condition: &Condition, current: Option<&Attrs>) -> bool {
    match condition {
        Condition::Exists => current.is_some(),
        Condition::NotExists => current.is_none(),
        Condition::AttrEquals(name, value) => current.and_then(|a| a.get(name)) == Some(value),
        Condition::AttrNotEquals(name, value) => current.and_then(|a| a.get(name)) != Some(value),
        Condition::AttrAbsent(name) => current.and_then(|a| a.get(name)).is_none(),
        Condition::All(all) => all.iter().all(|c| holds(c, current)),
    }
}

/// The guard an operation carries, if any.
pub fn guard_of(op: &WriteOp) -> Option<&Guard> {
    match op {
        WriteOp::Put { guard, .. } | WriteOp::Update { guard, .. } | WriteOp::Delete { guard, .. } => {
            guard.as_ref()
        }
        WriteOp::Check { guard, .. } => Some(guard),
    }
}

/// The condition an operation carries, if any.
pub fn condition_of(op: &WriteOp) -> Option<&Condition> {
    guard_of(op).map(|g| &g.condition)
}

/// The failure of `op`'s guard, with the item as it was (`None`: absent).
pub fn guard_failed(op: &WriteOp, current: Option<Item>) -> StoreError {
    StoreError::ConditionFailed {
        guard: guard_of(op).map_or(UNGUARDED, |g| g.name),
        current,
    }
}

/// The name reported when a store refuses an operation that carries no guard
/// (DynamoDB's own checks; no store of ours fails an unguarded op).
pub const UNGUARDED: &str = "unguarded";

/// What an operation leaves behind: `Some(attrs)` to store, `None` to delete,
/// or `Err` when it cannot apply (overflow, oversize item).
pub fn apply(op: &WriteOp, current: Option<&Attrs>) -> Result<Option<Option<Attrs>>, StoreError> {
    let next = match op {
        WriteOp::Put { item, .. } => Some(Some(item.attrs.clone())),
        WriteOp::Delete { .. } => Some(None),
        WriteOp::Check { .. } => None,
        WriteOp::Update {
            key,
            set,
            add,
            remove,
            ..
        } => {
            let mut attrs = current.cloned().unwrap_or_default();
            for (name, value) in set {
                attrs.insert(name.clone(), value.clone());
            }
            for (name, delta) in add {
                let base = match attrs.get(name) {
                    None => 0,
                    Some(Value::N(n)) => *n,
                    Some(_) => {
                        return Err(StoreError::Invalid(format!(
                            "cannot add to non-numeric attribute {name} of {} / {}",
                            key.pk, key.sk
                        )));
                    }
                };
                let sum = base.checked_add(*delta).ok_or_else(|| StoreError::Overflow {
                    attribute: name.clone(),
                })?;
                attrs.insert(name.clone(), Value::N(sum));
            }
            for name in remove {
                attrs.remove(name);
            }
            Some(Some(attrs))
        }
    };
    if let Some(Some(attrs)) = &next {
        let size = item_size(op.key(), attrs);
        if size > MAX_ITEM_BYTES {
            return Err(StoreError::Invalid(format!(
                "item {} / {} would be {size} bytes, over the {MAX_ITEM_BYTES}-byte limit",
                op.key().pk,
                op.key().sk
            )));
        }
    }
    Ok(next)
}

/// Approximate DynamoDB item size: attribute names plus value sizes.
pub fn item_size(key: &Key, attrs: &Attrs) -> usize {
    fn value_size(v: &Value) -> usize {
        match v {
            Value::S(s) => s.len(),
            Value::N(n) => n.to_string().len().div_ceil(2) + 1,
            Value::Bool(_) => 1,
            Value::L(items) => 3 + items.iter().map(|i| 1 + value_size(i)).sum::<usize>(),
            Value::M(map) => {
                3 + map
                    .iter()
                    .map(|(k, v)| 1 + k.len() + value_size(v))
                    .sum::<usize>()
            }
        }
    }
    2 + key.pk.len() + 2 + key.sk.len() + attrs.iter().map(|(k, v)| k.len() + value_size(v)).sum::<usize>()
}

/// Build an [`Item`] from a key and attributes.
pub fn item(key: &Key, attrs: &Attrs) -> Item {
    Item {
        key: key.clone(),
        attrs: attrs.clone(),
    }
}
