//! Mapping between the store's [`Value`]s and DynamoDB `AttributeValue`s.
//!
//! Numbers travel as DynamoDB `N`: the exact decimal text of an `i64`, written
//! with `i64::to_string` and read back with `str::parse::<i64>` — never through
//! `f64`. Anything the ledger never writes (sets, binary, NULL, fractions) is
//! reported as corrupt data instead of being guessed at.

use std::collections::{BTreeMap, HashMap};

use aws_sdk_dynamodb::types::AttributeValue;
use dochiya_store::{Attrs, Item, Key, Value};

/// Name of the partition-key attribute.
pub const PK: &str = "PK";
/// Name of the sort-key attribute.
pub const SK: &str = "SK";

/// A stored item that does not decode into the store's types.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum DecodeError {
    /// An `N` that is not a 64-bit integer (fraction, exponent, out of range).
    #[error("attribute {attribute}: number {text:?} is not a 64-bit integer")]
    NotInteger {
        /// Top-level attribute holding the number.
        attribute: String,
        /// The number's text as DynamoDB returned it.
        text: String,
    },
    /// A DynamoDB type the store never writes.
    #[error("attribute {attribute}: unsupported DynamoDB type {kind}")]
    Unsupported {
        /// Top-level attribute holding the value.
        attribute: String,
        /// The DynamoDB type name.
        kind: &'static str,
    },
    /// `PK` or `SK` missing or not a string.
    #[error("item has no string {0} attribute")]
    MissingKey(&'static str),
}

/// A [`Value`] as a DynamoDB attribute value.
pub fn to_attr(value: &Value) -> AttributeValue {
    match value {
        Value::S(s) => AttributeValue::S(s.clone()),
        Value::N(n) => AttributeValue::N(n.to_string()),
        Value::Bool(b) => AttributeValue::Bool(*b),
        Value::L(items) => AttributeValue::L(items.iter().map(to_attr).collect()),
        Value::M(map) => AttributeValue::M(map.iter().map(|(k, v)| (k.clone(), to_attr(v))).collect()),
    }
}

/// A DynamoDB attribute value as a [`Value`]; `attribute` names it in errors.
pub fn from_attr(attribute: &str, value: &AttributeValue) -> Result<Value, DecodeError> {
    Ok(match value {
        AttributeValue::S(s) => Value::S(s.clone()),
        AttributeValue::N(text) => Value::N(parse_integer(text).ok_or_else(|| DecodeError::NotInteger {
            attribute: attribute.to_owned(),
            text: text.clone(),
        })?),
        AttributeValue::Bool(b) => Value::Bool(*b),
        AttributeValue::L(items) => Value::L(
            items
                .iter()
                .map(|v| from_attr(attribute, v))
                .collect::<Result<_, _>>()?,
        ),
        AttributeValue::M(map) => Value::M(
            map.iter()
                .map(|(k, v)| Ok((k.clone(), from_attr(attribute, v)?)))
                .collect::<Result<BTreeMap<_, _>, DecodeError>>()?,
        ),
        other => {
            return Err(DecodeError::Unsupported {
                attribute: attribute.to_owned(),
                kind: kind_of(other),
            });
        }
    })
}

/// An integer from DynamoDB's number text. DynamoDB returns numbers in plain
/// decimal; a fraction or exponent means someone else wrote the item.
fn parse_integer(text: &str) -> Option<i64> {
    let digits = text.strip_prefix('-').unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

fn kind_of(value: &AttributeValue) -> &'static str {
    match value {
        AttributeValue::B(_) => "B",
        AttributeValue::Bs(_) => "BS",
        AttributeValue::Ns(_) => "NS",
        AttributeValue::Ss(_) => "SS",
        AttributeValue::Null(_) => "NULL",
        AttributeValue::S(_) => "S",
        AttributeValue::N(_) => "N",
        AttributeValue::Bool(_) => "BOOL",
        AttributeValue::L(_) => "L",
        AttributeValue::M(_) => "M",
        _ => "unknown",
    }
}

/// The `PK`/`SK` attribute map of a key.
pub fn key_map(key: &Key) -> HashMap<String, AttributeValue> {
    HashMap::from([
        (PK.to_owned(), AttributeValue::S(key.pk.clone())),
        (SK.to_owned(), AttributeValue::S(key.sk.clone())),
    ])
}

/// A whole item (key and attributes) as a DynamoDB attribute map.
pub fn item_map(key: &Key, attrs: &Attrs) -> HashMap<String, AttributeValue> {
    let mut map = key_map(key);
    map.extend(attrs.iter().map(|(k, v)| (k.clone(), to_attr(v))));
    map
}

/// A DynamoDB attribute map as an [`Item`]; `PK`/`SK` become its key.
pub fn item_from_map(map: &HashMap<String, AttributeValue>) -> Result<Item, DecodeError> {
    let key_part = |name: &'static str| match map.get(name) {
        Some(AttributeValue::S(s)) => Ok(s.clone()),
        _ => Err(DecodeError::MissingKey(name)),
    };
    let key = Key::new(key_part(PK)?, key_part(SK)?);
    let attrs = map
        .iter()
        .filter(|(name, _)| name.as_str() != PK && name.as_str() != SK)
        .map(|(name, value)| Ok((name.clone(), from_attr(name, value)?)))
        .collect::<Result<Attrs, DecodeError>>()?;
    Ok(Item { key, attrs })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Attrs {
        Attrs::from([
            ("name".to_owned(), Value::S("카카오뱅크".into())),
            ("balance".to_owned(), Value::N(i64::MIN)),
            ("max".to_owned(), Value::N(i64::MAX)),
            ("id".to_owned(), Value::N(9_007_199_254_740_993)),
            ("archived".to_owned(), Value::Bool(false)),
            ("empty".to_owned(), Value::S(String::new())),
            (
                "postings".to_owned(),
                Value::L(vec![Value::M(BTreeMap::from([
                    ("account".to_owned(), Value::S("a1".into())),
                    ("amount".to_owned(), Value::N(-12_500)),
                ]))]),
            ),
        ])
    }

    #[test]
    fn numbers_are_exact_decimal_text() {
        assert_eq!(
            to_attr(&Value::N(9_007_199_254_740_993)),
            AttributeValue::N("9007199254740993".into())
        );
        assert_eq!(
            to_attr(&Value::N(i64::MIN)),
            AttributeValue::N("-9223372036854775808".into())
        );
        assert_eq!(to_attr(&Value::N(0)), AttributeValue::N("0".into()));
    }

    #[test]
    fn items_round_trip_exactly() {
        let key = Key::new("V#1", "ACCT#2");
        let map = item_map(&key, &sample());
        assert_eq!(map.get(PK), Some(&AttributeValue::S("V#1".into())));
        assert_eq!(
            map.get("max"),
            Some(&AttributeValue::N("9223372036854775807".into()))
        );
        let back = item_from_map(&map).unwrap();
        assert_eq!(back, Item { key, attrs: sample() });
    }

    #[test]
    fn non_integers_are_corrupt_data() {
        for text in ["1.5", "1E+2", "", "-", "9223372036854775808", "+5", " 5"] {
            assert_eq!(
                from_attr("amount", &AttributeValue::N(text.into())),
                Err(DecodeError::NotInteger {
                    attribute: "amount".into(),
                    text: text.into()
                }),
                "{text:?}"
            );
        }
        assert_eq!(
            from_attr("n", &AttributeValue::N("-42".into())),
            Ok(Value::N(-42))
        );
    }

    #[test]
    fn foreign_types_are_refused_with_their_name() {
        assert_eq!(
            from_attr("tags", &AttributeValue::Ss(vec!["a".into()])),
            Err(DecodeError::Unsupported {
                attribute: "tags".into(),
                kind: "SS"
            })
        );
        assert_eq!(
            from_attr("x", &AttributeValue::L(vec![AttributeValue::Null(true)])),
            Err(DecodeError::Unsupported {
                attribute: "x".into(),
                kind: "NULL"
            })
        );
    }

    #[test]
    fn an_item_needs_string_keys() {
        let mut map = key_map(&Key::new("p", "s"));
        map.insert(SK.into(), AttributeValue::N("1".into()));
        assert_eq!(item_from_map(&map), Err(DecodeError::MissingKey("SK")));
        map.remove(PK);
        assert_eq!(item_from_map(&map), Err(DecodeError::MissingKey("PK")));
    }
}
