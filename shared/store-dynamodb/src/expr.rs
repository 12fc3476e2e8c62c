//! Building DynamoDB expressions from the store's conditions, updates and queries.
//!
//! Every attribute name and value goes through `ExpressionAttributeNames` /
//! `ExpressionAttributeValues` placeholders, so no data is ever spliced into an
//! expression's text (and reserved words need no thought).

use std::collections::{BTreeMap, BTreeSet, HashMap};

use aws_sdk_dynamodb::types::AttributeValue;
use dochiya_store::{Attrs, Condition, Key, Query, SkRange, StoreError, Value, WriteOp, eval};

use crate::convert::{PK, SK, item_map, key_map, to_attr};

/// Attribute an otherwise empty `Update` removes: DynamoDB needs a non-empty
/// update expression, and removing an absent attribute still creates the item.
pub const NOOP_ATTRIBUTE: &str = "dochiya:noop";

/// `ExpressionAttributeNames`: placeholder to attribute name.
pub type Names = HashMap<String, String>;
/// `ExpressionAttributeValues`: placeholder to value.
pub type Values = HashMap<String, AttributeValue>;

/// Placeholders collected while building one request's expressions.
#[derive(Debug, Default)]
pub struct Placeholders {
    names: HashMap<String, String>,
    by_name: HashMap<String, String>,
    values: HashMap<String, AttributeValue>,
}

impl Placeholders {
    /// The `#nK` placeholder for an attribute name (one per distinct name).
    pub fn name(&mut self, name: &str) -> String {
        if let Some(p) = self.by_name.get(name) {
            return p.clone();
        }
        let p = format!("#n{}", self.by_name.len());
        self.by_name.insert(name.to_owned(), p.clone());
        self.names.insert(p.clone(), name.to_owned());
        p
    }

    /// A fresh `:vK` placeholder for a value.
    pub fn value(&mut self, value: AttributeValue) -> String {
        let p = format!(":v{}", self.values.len());
        self.values.insert(p.clone(), value);
        p
    }

    /// The name and value maps; `None` when empty (DynamoDB refuses empty maps).
    pub fn into_maps(self) -> (Option<Names>, Option<Values>) {
        let names = (!self.names.is_empty()).then_some(self.names);
        let values = (!self.values.is_empty()).then_some(self.values);
        (names, values)
    }
}

/// A condition as a DynamoDB condition expression.
pub fn condition_expression(p: &mut Placeholders, condition: &Condition) -> String {
    match condition {
        Condition::Exists => format!("attribute_exists({})", p.name(PK)),
        Condition::NotExists => format!("attribute_not_exists({})", p.name(PK)),
        Condition::AttrEquals(name, value) => format!("{} = {}", p.name(name), p.value(to_attr(value))),
        // A missing item or attribute differs from any value; say so explicitly
        // rather than rely on how `<>` treats a missing operand.
        Condition::AttrNotEquals(name, value) => {
            let n = p.name(name);
            format!("attribute_not_exists({n}) OR {n} <> {}", p.value(to_attr(value)))
        }
        Condition::AttrAbsent(name) => format!("attribute_not_exists({})", p.name(name)),
        // Each part in parentheses: AND binds tighter than the OR inside AttrNotEquals.
        Condition::All(all) => all
            .iter()
            .map(|c| format!("({})", condition_expression(p, c)))
            .collect::<Vec<_>>()
            .join(" AND "),
    }
}

/// An `Update`'s expression and the guards that keep every `add` inside `i64`.
#[derive(Debug, PartialEq, Eq)]
pub struct UpdateExpression {
    /// `SET … ADD … REMOVE …`.
    pub update: String,
    /// Conditions that fail when an `add` would leave the `i64` range (or hit a non-number).
    pub guards: Vec<String>,
}

/// Build the update expression with the store's semantics (`set`, then `add`,
/// then `remove`, as `eval::apply` does). DynamoDB refuses two actions on one
/// attribute, so overlaps are resolved here: an attribute both set and added
/// is set to the sum; a removed attribute is only removed.
pub fn update_expression(
    p: &mut Placeholders,
    key: &Key,
    set: &Attrs,
    add: &BTreeMap<String, i64>,
    remove: &[String],
) -> Result<UpdateExpression, StoreError> {
    let removed: BTreeSet<&str> = remove.iter().map(String::as_str).collect();
    let mut sets = Vec::new();
    for (name, value) in set {
        if removed.contains(name.as_str()) {
            continue;
        }
        let value = match (add.get(name), value) {
            (None, v) => v.clone(),
            (Some(delta), Value::N(n)) => {
                Value::N(n.checked_add(*delta).ok_or_else(|| StoreError::Overflow {
                    attribute: name.clone(),
                })?)
            }
            (Some(_), _) => {
                return Err(StoreError::Invalid(format!(
                    "cannot add to non-numeric attribute {name} of {} / {}",
                    key.pk, key.sk
                )));
            }
        };
        sets.push(format!("{} = {}", p.name(name), p.value(to_attr(&value))));
    }
    let mut adds = Vec::new();
    let mut guards = Vec::new();
    for (name, delta) in add {
        if set.contains_key(name) || removed.contains(name.as_str()) {
            continue;
        }
        let n = p.name(name);
        adds.push(format!("{n} {}", p.value(AttributeValue::N(delta.to_string()))));
        // The stored number must leave room for the delta: DynamoDB numbers have
        // 38 digits and would happily go past i64. A non-number fails the type
        // test (comparing across types is not an error everywhere); the caller
        // tells overflow, type and the user's own condition apart from the item
        // DynamoDB returns with the failure.
        let (op, limit) = match delta {
            0 => continue,
            d if *d > 0 => ("<=", i64::MAX - d),
            d => (">=", i64::MIN - d),
        };
        let number = p.value(AttributeValue::S("N".into()));
        let limit = p.value(AttributeValue::N(limit.to_string()));
        guards.push(format!(
            "attribute_not_exists({n}) OR (attribute_type({n}, {number}) AND {n} {op} {limit})"
        ));
    }
    let mut removes: Vec<String> = removed.iter().map(|name| p.name(name)).collect();
    if sets.is_empty() && adds.is_empty() && removes.is_empty() {
        removes.push(p.name(NOOP_ATTRIBUTE));
    }
    let mut clauses = Vec::new();
    if !sets.is_empty() {
        clauses.push(format!("SET {}", sets.join(", ")));
    }
    if !adds.is_empty() {
        clauses.push(format!("ADD {}", adds.join(", ")));
    }
    if !removes.is_empty() {
        clauses.push(format!("REMOVE {}", removes.join(", ")));
    }
    Ok(UpdateExpression {
        update: clauses.join(" "),
        guards,
    })
}

/// What one write operation sends to DynamoDB.
#[derive(Debug)]
pub enum OpRequest {
    /// `Put` with the whole item.
    Put {
        /// Key and attributes.
        item: HashMap<String, AttributeValue>,
        /// Shared parts.
        parts: Parts,
    },
    /// `Update` of the key.
    Update {
        /// The item's key.
        key: HashMap<String, AttributeValue>,
        /// The update expression.
        update: String,
        /// Shared parts.
        parts: Parts,
    },
    /// `Delete` of the key.
    Delete {
        /// The item's key.
        key: HashMap<String, AttributeValue>,
        /// Shared parts.
        parts: Parts,
    },
    /// `ConditionCheck` of the key.
    Check {
        /// The item's key.
        key: HashMap<String, AttributeValue>,
        /// Shared parts (the condition is always present).
        parts: Parts,
    },
}

/// The condition and placeholder maps every kind of operation carries.
#[derive(Debug, Default)]
pub struct Parts {
    /// Condition expression, if any.
    pub condition: Option<String>,
    /// `ExpressionAttributeNames`.
    pub names: Option<HashMap<String, String>>,
    /// `ExpressionAttributeValues`.
    pub values: Option<HashMap<String, AttributeValue>>,
}

/// Check one operation against DynamoDB's limits and the store's rules before
/// any call, so a request DynamoDB would refuse fails with a clear message.
pub fn validate_op(op: &WriteOp) -> Result<(), StoreError> {
    eval::validate_key(op.key())?;
    let names: Vec<&str> = match op {
        WriteOp::Put { item, .. } => item.attrs.keys().map(String::as_str).collect(),
        WriteOp::Update { set, add, remove, .. } => set
            .keys()
            .chain(add.keys())
            .chain(remove.iter())
            .map(String::as_str)
            .collect(),
        WriteOp::Delete { .. } | WriteOp::Check { .. } => Vec::new(),
    };
    let condition_names = eval::condition_of(op)
        .map(Condition::attribute_names)
        .unwrap_or_default();
    for name in names.into_iter().chain(condition_names) {
        validate_attribute_name(name)?;
    }
    // Put and Update outcomes that fail whatever is stored (an oversized item, a
    // set-then-add overflow) fail here, with the same message as the other stores.
    if matches!(op, WriteOp::Put { .. } | WriteOp::Update { .. }) {
        eval::apply(op, None)?;
    }
    Ok(())
}

fn validate_attribute_name(name: &str) -> Result<(), StoreError> {
    if name.is_empty() {
        return Err(StoreError::Invalid("attribute names must not be empty".into()));
    }
    if name == PK || name == SK || name == NOOP_ATTRIBUTE {
        return Err(StoreError::Invalid(format!(
            "attribute name {name} is reserved by the DynamoDB store"
        )));
    }
    Ok(())
}

/// Translate one (validated) operation into what DynamoDB is sent.
pub fn op_request(op: &WriteOp) -> Result<OpRequest, StoreError> {
    let mut p = Placeholders::default();
    let user_condition = eval::condition_of(op).map(|c| condition_expression(&mut p, c));
    Ok(match op {
        WriteOp::Put { item, .. } => {
            let parts = parts(p, user_condition, Vec::new());
            let item = item_map(&item.key, &item.attrs);
            OpRequest::Put { item, parts }
        }
        WriteOp::Update {
            key,
            set,
            add,
            remove,
            ..
        } => {
            let u = update_expression(&mut p, key, set, add, remove)?;
            OpRequest::Update {
                key: key_map(key),
                update: u.update,
                parts: parts(p, user_condition, u.guards),
            }
        }
        WriteOp::Delete { key, .. } => OpRequest::Delete {
            key: key_map(key),
            parts: parts(p, user_condition, Vec::new()),
        },
        WriteOp::Check { key, .. } => OpRequest::Check {
            key: key_map(key),
            parts: parts(p, user_condition, Vec::new()),
        },
    })
}

fn parts(p: Placeholders, user: Option<String>, guards: Vec<String>) -> Parts {
    let clauses: Vec<String> = user.into_iter().chain(guards).collect();
    let condition = match clauses.len() {
        0 => None,
        1 => clauses.into_iter().next(),
        // DynamoDB refuses redundant parentheses: wrap only what needs it.
        _ => Some(
            clauses
                .iter()
                .map(|c| {
                    if c.contains(" OR ") {
                        format!("({c})")
                    } else {
                        c.clone()
                    }
                })
                .collect::<Vec<_>>()
                .join(" AND "),
        ),
    };
    let (names, values) = p.into_maps();
    Parts {
        condition,
        names,
        values,
    }
}

/// How a query is sent, or that it cannot match anything.
#[derive(Debug, PartialEq)]
pub enum QueryPlan {
    /// Nothing can match (an empty range, or a cursor past its end): no call.
    Empty,
    /// Send a `Query`.
    Run {
        /// `KeyConditionExpression`.
        key_condition: String,
        /// `ExpressionAttributeNames`.
        names: HashMap<String, String>,
        /// `ExpressionAttributeValues`.
        values: HashMap<String, AttributeValue>,
        /// `ExclusiveStartKey`: always the query's own partition with the cursor's sort key.
        start: Option<HashMap<String, AttributeValue>>,
    },
}

/// Plan a query. DynamoDB refuses empty key values, `BETWEEN` with bounds out
/// of order, and a start key outside the key condition; the store's other
/// implementations answer those with an empty page or by ignoring a cursor that
/// is before the range, so the same answers are given here without a call.
pub fn query_plan(q: &Query) -> Result<QueryPlan, StoreError> {
    if q.limit == 0 {
        return Err(StoreError::Invalid("query limit must be at least 1".into()));
    }
    if q.pk.is_empty() {
        return Err(StoreError::Invalid(
            "query partition key must not be empty".into(),
        ));
    }
    let mut p = Placeholders::default();
    let pk = p.name(PK);
    let pk_value = p.value(AttributeValue::S(q.pk.clone()));
    let mut key_condition = format!("{pk} = {pk_value}");
    // Where the cursor sits relative to the range decides whether it is sent.
    let position = match (&q.range, &q.after) {
        (_, None) => CursorPosition::None,
        // Every sort key is non-empty, so sorts after an empty cursor.
        (_, Some(c)) if c.is_empty() => CursorPosition::Before,
        (SkRange::All, Some(_)) => CursorPosition::Inside,
        (SkRange::Prefix(prefix), Some(c)) => {
            if c.starts_with(prefix.as_str()) {
                CursorPosition::Inside
            } else if c.as_str() < prefix.as_str() {
                CursorPosition::Before
            } else {
                CursorPosition::After
            }
        }
        (SkRange::Between(lo, hi), Some(c)) => {
            if c.as_str() < lo.as_str() {
                CursorPosition::Before
            } else if c.as_str() > hi.as_str() {
                CursorPosition::After
            } else {
                CursorPosition::Inside
            }
        }
    };
    match &q.range {
        SkRange::All => {}
        SkRange::Prefix(prefix) if prefix.is_empty() => {}
        SkRange::Prefix(prefix) => {
            let sk = p.name(SK);
            key_condition.push_str(&format!(
                " AND begins_with({sk}, {})",
                p.value(AttributeValue::S(prefix.clone()))
            ));
        }
        SkRange::Between(lo, hi) => {
            if lo > hi || hi.is_empty() {
                return Ok(QueryPlan::Empty);
            }
            let sk = p.name(SK);
            if lo.is_empty() {
                key_condition.push_str(&format!(
                    " AND {sk} <= {}",
                    p.value(AttributeValue::S(hi.clone()))
                ));
            } else {
                let lo = p.value(AttributeValue::S(lo.clone()));
                let hi = p.value(AttributeValue::S(hi.clone()));
                key_condition.push_str(&format!(" AND {sk} BETWEEN {lo} AND {hi}"));
            }
        }
    }
    let start = match (position, q.forward) {
        (CursorPosition::None, _) => None,
        (CursorPosition::Inside, _) => {
            let cursor = q.after.clone().unwrap_or_default();
            Some(key_map(&Key::new(q.pk.clone(), cursor)))
        }
        // Every item of the range is after the cursor: read from the start.
        (CursorPosition::Before, true) | (CursorPosition::After, false) => None,
        // No item of the range is after the cursor.
        (CursorPosition::Before, false) | (CursorPosition::After, true) => return Ok(QueryPlan::Empty),
    };
    let (names, values) = p.into_maps();
    Ok(QueryPlan::Run {
        key_condition,
        names: names.unwrap_or_default(),
        values: values.unwrap_or_default(),
        start,
    })
}

#[derive(Debug, Clone, Copy)]
enum CursorPosition {
    None,
    Before,
    Inside,
    After,
}

#[cfg(test)]
mod tests {
    use dochiya_store::{Guard, Item, MAX_ITEM_BYTES};

    use super::*;

    fn s(v: &str) -> AttributeValue {
        AttributeValue::S(v.into())
    }
    fn n(v: &str) -> AttributeValue {
        AttributeValue::N(v.into())
    }

    #[test]
    fn conditions_are_parameterised() {
        let mut p = Placeholders::default();
        assert_eq!(
            condition_expression(&mut p, &Condition::NotExists),
            "attribute_not_exists(#n0)"
        );
        assert_eq!(
            condition_expression(&mut p, &Condition::Exists),
            "attribute_exists(#n0)"
        );
        assert_eq!(
            condition_expression(&mut p, &Condition::AttrEquals("version".into(), Value::N(3))),
            "#n1 = :v0"
        );
        assert_eq!(
            condition_expression(
                &mut p,
                &Condition::AttrNotEquals("status; DROP".into(), Value::S("void".into()))
            ),
            "attribute_not_exists(#n2) OR #n2 <> :v1"
        );
        let (names, values) = p.into_maps();
        let names = names.unwrap();
        assert_eq!(names["#n0"], "PK");
        assert_eq!(names["#n2"], "status; DROP");
        let values = values.unwrap();
        assert_eq!(values[":v0"], n("3"));
        assert_eq!(values[":v1"], s("void"));
    }

    #[test]
    fn combined_conditions_keep_each_part_whole() {
        let mut p = Placeholders::default();
        let all = Condition::All(vec![
            Condition::AttrEquals("archived".into(), Value::Bool(false)),
            Condition::AttrNotEquals("seq".into(), Value::N(2)),
            Condition::AttrAbsent("snap".into()),
        ]);
        assert_eq!(
            condition_expression(&mut p, &all),
            "(#n0 = :v0) AND (attribute_not_exists(#n1) OR #n1 <> :v1) AND (attribute_not_exists(#n2))"
        );
    }

    #[test]
    fn update_has_set_add_remove_and_overflow_guards() {
        let mut p = Placeholders::default();
        let key = Key::new("p", "s");
        let set = Attrs::from([("name".to_owned(), Value::S("a".into()))]);
        let add = BTreeMap::from([
            ("balance".to_owned(), 500_i64),
            ("debit".to_owned(), -7),
            ("zero".to_owned(), 0),
        ]);
        let u = update_expression(&mut p, &key, &set, &add, &["old".to_owned()]).unwrap();
        assert_eq!(u.update, "SET #n0 = :v0 ADD #n1 :v1, #n2 :v4, #n3 :v7 REMOVE #n4");
        assert_eq!(
            u.guards,
            vec![
                "attribute_not_exists(#n1) OR (attribute_type(#n1, :v2) AND #n1 <= :v3)",
                "attribute_not_exists(#n2) OR (attribute_type(#n2, :v5) AND #n2 >= :v6)"
            ]
        );
        let (names, values) = p.into_maps();
        let names = names.unwrap();
        assert_eq!(
            [
                &names["#n0"],
                &names["#n1"],
                &names["#n2"],
                &names["#n3"],
                &names["#n4"]
            ],
            ["name", "balance", "debit", "zero", "old"]
        );
        let values = values.unwrap();
        assert_eq!(values[":v2"], s("N"));
        assert_eq!(values[":v3"], n("9223372036854775307"));
        assert_eq!(values[":v6"], n("-9223372036854775801"));
    }

    #[test]
    fn extreme_deltas_keep_their_guards_in_range() {
        let mut p = Placeholders::default();
        let key = Key::new("p", "s");
        let add = BTreeMap::from([("a".to_owned(), i64::MAX), ("b".to_owned(), i64::MIN)]);
        update_expression(&mut p, &key, &Attrs::new(), &add, &[]).unwrap();
        let (_, values) = p.into_maps();
        let values = values.unwrap();
        assert_eq!(values[":v2"], n("0"));
        assert_eq!(values[":v5"], n("0"));
    }

    #[test]
    fn overlapping_actions_follow_store_order() {
        let key = Key::new("p", "s");
        let set = Attrs::from([("x".to_owned(), Value::N(10)), ("gone".to_owned(), Value::N(1))]);
        let add = BTreeMap::from([("x".to_owned(), 5_i64), ("gone".to_owned(), 2)]);
        let mut p = Placeholders::default();
        let u = update_expression(&mut p, &key, &set, &add, &["gone".to_owned()]).unwrap();
        assert_eq!(u.update, "SET #n0 = :v0 REMOVE #n1");
        assert!(u.guards.is_empty());
        let (names, values) = p.into_maps();
        assert_eq!(names.unwrap()["#n0"], "x");
        assert_eq!(values.unwrap()[":v0"], n("15"));

        let set = Attrs::from([("x".to_owned(), Value::N(i64::MAX))]);
        let add = BTreeMap::from([("x".to_owned(), 1_i64)]);
        let err = update_expression(&mut Placeholders::default(), &key, &set, &add, &[]).unwrap_err();
        assert_eq!(
            err.to_string(),
            "invalid store request: numeric overflow adding to x"
        );

        let set = Attrs::from([("x".to_owned(), Value::S("t".into()))]);
        let err = update_expression(&mut Placeholders::default(), &key, &set, &add, &[]).unwrap_err();
        assert_eq!(
            err.to_string(),
            "invalid store request: cannot add to non-numeric attribute x of p / s"
        );
    }

    #[test]
    fn an_empty_update_still_creates_the_item() {
        let mut p = Placeholders::default();
        let u = update_expression(&mut p, &Key::new("p", "s"), &Attrs::new(), &BTreeMap::new(), &[]).unwrap();
        assert_eq!(u.update, "REMOVE #n0");
        assert_eq!(p.into_maps().0.unwrap()["#n0"], NOOP_ATTRIBUTE);
    }

    #[test]
    fn update_request_joins_user_condition_and_guards() {
        let op = WriteOp::Update {
            key: Key::new("p", "s"),
            set: Attrs::new(),
            add: BTreeMap::from([("balance".to_owned(), 1_i64)]),
            remove: vec![],
            guard: Some(Guard::new("exists", Condition::Exists)),
        };
        let OpRequest::Update { key, update, parts } = op_request(&op).unwrap() else {
            panic!("not an update")
        };
        assert_eq!(key, key_map(&Key::new("p", "s")));
        assert_eq!(update, "ADD #n1 :v0");
        assert_eq!(
            parts.condition.as_deref(),
            Some(
                "attribute_exists(#n0) AND (attribute_not_exists(#n1) OR (attribute_type(#n1, :v1) AND #n1 <= :v2))"
            )
        );
    }

    #[test]
    fn put_without_condition_sends_no_expression_maps() {
        let op = WriteOp::Put {
            item: Item {
                key: Key::new("p", "s"),
                attrs: Attrs::from([("a".to_owned(), Value::N(1))]),
            },
            guard: None,
        };
        let OpRequest::Put { item, parts } = op_request(&op).unwrap() else {
            panic!("not a put")
        };
        assert_eq!(item["a"], n("1"));
        assert_eq!(item["PK"], s("p"));
        assert_eq!((parts.condition, parts.names, parts.values), (None, None, None));
    }

    #[test]
    fn limits_fail_before_any_call() {
        let big = Value::S("x".repeat(MAX_ITEM_BYTES));
        let op = WriteOp::Put {
            item: Item {
                key: Key::new("p", "s"),
                attrs: Attrs::from([("a".to_owned(), big.clone())]),
            },
            guard: None,
        };
        let msg = validate_op(&op).unwrap_err().to_string();
        assert!(msg.contains("over the 409600-byte limit"), "{msg}");
        let op = WriteOp::Update {
            key: Key::new("p", "s"),
            set: Attrs::from([("a".to_owned(), big)]),
            add: BTreeMap::new(),
            remove: vec![],
            guard: None,
        };
        assert!(
            validate_op(&op)
                .unwrap_err()
                .to_string()
                .contains("409600-byte limit")
        );
        let op = WriteOp::Delete {
            key: Key::new("p", "s".repeat(1025)),
            guard: None,
        };
        assert_eq!(
            validate_op(&op).unwrap_err().to_string(),
            "invalid store request: sort key is 1025 bytes, over the 1024-byte limit"
        );
        let op = WriteOp::Delete {
            key: Key::new("", "s"),
            guard: None,
        };
        assert_eq!(
            validate_op(&op).unwrap_err().to_string(),
            "invalid store request: key parts must not be empty (\"\" / \"s\")"
        );
        let op = WriteOp::Check {
            key: Key::new("p", "s"),
            guard: Guard::new("sk", Condition::AttrEquals("SK".into(), Value::N(1))),
        };
        assert_eq!(
            validate_op(&op).unwrap_err().to_string(),
            "invalid store request: attribute name SK is reserved by the DynamoDB store"
        );
    }

    fn q(range: SkRange, forward: bool, after: Option<&str>) -> Query {
        Query {
            pk: "V#1".into(),
            range,
            forward,
            limit: 10,
            after: after.map(str::to_owned),
        }
    }

    #[test]
    fn key_conditions_per_range() {
        let QueryPlan::Run {
            key_condition,
            values,
            start,
            ..
        } = query_plan(&q(SkRange::All, true, None)).unwrap()
        else {
            panic!("empty")
        };
        assert_eq!((key_condition.as_str(), start), ("#n0 = :v0", None));
        assert_eq!(values[":v0"], s("V#1"));

        let QueryPlan::Run {
            key_condition,
            values,
            ..
        } = query_plan(&q(SkRange::Prefix("TX#".into()), true, None)).unwrap()
        else {
            panic!("empty")
        };
        assert_eq!(key_condition, "#n0 = :v0 AND begins_with(#n1, :v1)");
        assert_eq!(values[":v1"], s("TX#"));

        let QueryPlan::Run { key_condition, .. } =
            query_plan(&q(SkRange::Between("A".into(), "B".into()), true, None)).unwrap()
        else {
            panic!("empty")
        };
        assert_eq!(key_condition, "#n0 = :v0 AND #n1 BETWEEN :v1 AND :v2");
        assert_eq!(
            query_plan(&q(SkRange::Between("B".into(), "A".into()), true, None)).unwrap(),
            QueryPlan::Empty
        );
    }

    #[test]
    fn the_cursor_only_carries_a_sort_key() {
        let QueryPlan::Run { start, .. } =
            query_plan(&q(SkRange::Prefix("TX#".into()), true, Some("TX#5"))).unwrap()
        else {
            panic!("empty")
        };
        assert_eq!(start, Some(key_map(&Key::new("V#1", "TX#5"))));
        // A cursor outside the range is never sent (DynamoDB refuses it).
        let plan = |range: SkRange, forward, after| match query_plan(&q(range, forward, Some(after))).unwrap()
        {
            QueryPlan::Empty => "empty",
            QueryPlan::Run { start: None, .. } => "from start",
            QueryPlan::Run { start: Some(_), .. } => "resume",
        };
        assert_eq!(plan(SkRange::Prefix("TX#".into()), true, "A"), "from start");
        assert_eq!(plan(SkRange::Prefix("TX#".into()), false, "A"), "empty");
        assert_eq!(plan(SkRange::Prefix("TX#".into()), true, "Z"), "empty");
        assert_eq!(plan(SkRange::Prefix("TX#".into()), false, "Z"), "from start");
        assert_eq!(
            plan(SkRange::Between("b".into(), "d".into()), true, "a"),
            "from start"
        );
        assert_eq!(
            plan(SkRange::Between("b".into(), "d".into()), true, "d"),
            "resume"
        );
        assert_eq!(
            plan(SkRange::Between("b".into(), "d".into()), false, "e"),
            "from start"
        );
        assert_eq!(
            plan(SkRange::Between("b".into(), "d".into()), false, "a"),
            "empty"
        );
        assert_eq!(plan(SkRange::All, true, ""), "from start");
        assert_eq!(plan(SkRange::All, false, ""), "empty");
    }

    #[test]
    fn zero_limit_is_invalid() {
        let mut query = q(SkRange::All, true, None);
        query.limit = 0;
        assert_eq!(
            query_plan(&query).unwrap_err().to_string(),
            "invalid store request: query limit must be at least 1"
        );
    }
}
