//! Results derived from what a tool's serializer can write (`schema::serializer_schema`,
//! schemars' reading of the output type's serde attributes): the least (every field left
//! out when empty absent, every field written as `null` when empty `null`, every list
//! holding one such item) and the most (every field present with a value, every list
//! holding one such item). `tests::every_result_fits_its_published_schema` checks both against every
//! tool's published output schema (decision 049).

use serde_json::{Map, Value, json};

/// Which end of what a serializer can write.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Fill {
    /// Every optional field absent, every nullable one `null`, lists of one.
    Least,
    /// Every field present with a value, lists of one.
    Most,
}

/// Strings that fit the patterns and formats of our results, tried in order.
const STRINGS: [&str; 6] = [
    "1",
    "2026-04-01",
    "2026-04",
    "9007199254740993",
    "0195b9c6-4a5e-7c3a-9f1e-2d3c4b5a6978",
    "x",
];

/// A result `schema` (a serializer's) allows, filled as `fill` says.
pub(crate) fn sample(schema: &Value, fill: Fill) -> Value {
    let s = non_null(schema);
    if let Some(c) = s.get("const") {
        return c.clone();
    }
    if let Some(Value::Array(values)) = s.get("enum") {
        return values
            .iter()
            .find(|v| !v.is_null())
            .cloned()
            .unwrap_or(Value::Null);
    }
    match type_of(s).as_str() {
        "object" => object(s, fill),
        "array" => {
            // One item even at the least, so the fields of items are judged too.
            let n = s.get("minItems").and_then(Value::as_u64).unwrap_or(0).max(1);
            let item = s.get("items").map_or(Value::Null, |i| sample(i, fill));
            Value::Array((0..n).map(|_| item.clone()).collect())
        }
        "string" => string(s),
        "integer" | "number" => s.get("minimum").cloned().unwrap_or(json!(0)),
        "boolean" => Value::Bool(fill == Fill::Most),
        "null" => Value::Null,
        other => panic!("no sample for type {other:?} in {s:?}"),
    }
}

fn object(s: &Map<String, Value>, fill: Fill) -> Value {
    let required: Vec<&str> = s
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let mut out = Map::new();
    if let Some(Value::Object(properties)) = s.get("properties") {
        for (name, property) in properties {
            let value = match fill {
                Fill::Least if !required.contains(&name.as_str()) => continue,
                Fill::Least if nullable(property) => Value::Null,
                _ => sample(property, fill),
            };
            out.insert(name.clone(), value);
        }
    }
    if fill == Fill::Most
        && let Some(extra @ Value::Object(_)) = s.get("additionalProperties")
    {
        out.insert("key".into(), sample(extra, fill));
    }
    Value::Object(out)
}

fn string(s: &Map<String, Value>) -> Value {
    let mut rule = Map::new();
    for key in ["type", "pattern", "format", "minLength", "maxLength"] {
        if let Some(v) = s.get(key) {
            rule.insert(key.into(), v.clone());
        }
    }
    let rule = Value::Object(rule);
    let fits = jsonschema::options()
        .should_validate_formats(true)
        .build(&rule)
        .unwrap_or_else(|e| panic!("{rule}: {e}"));
    STRINGS
        .iter()
        .map(|t| Value::from(*t))
        .find(|v| fits.is_valid(v))
        .unwrap_or_else(|| panic!("no sample string fits {rule}: add one to STRINGS"))
}

/// The schema itself, or its one alternative that is not `null`.
fn non_null(schema: &Value) -> &Map<String, Value> {
    let empty = || -> &Map<String, Value> {
        static EMPTY: std::sync::OnceLock<Map<String, Value>> = std::sync::OnceLock::new();
        EMPTY.get_or_init(Map::new)
    };
    let Value::Object(map) = schema else {
        return empty();
    };
    for keyword in ["anyOf", "oneOf"] {
        if let Some(Value::Array(alternatives)) = map.get(keyword)
            && let Some(Value::Object(alt)) = alternatives.iter().find(|a| type_of_value(a) != "null")
        {
            return alt;
        }
    }
    map
}

/// Whether a serializer of this schema may write `null` here.
fn nullable(schema: &Value) -> bool {
    let in_type = match schema.get("type") {
        Some(Value::String(t)) => t == "null",
        Some(Value::Array(types)) => types.iter().any(|t| t == "null"),
        _ => false,
    };
    let in_alternatives = ["anyOf", "oneOf"].iter().any(|k| {
        schema
            .get(*k)
            .and_then(Value::as_array)
            .is_some_and(|alts| alts.iter().any(|a| type_of_value(a) == "null"))
    });
    let in_enum = schema
        .get("enum")
        .and_then(Value::as_array)
        .is_some_and(|v| v.iter().any(Value::is_null));
    in_type || in_alternatives || in_enum
}

/// The first type a schema names that is not `null` (`null` when it names only that).
fn type_of(s: &Map<String, Value>) -> String {
    match s.get("type") {
        Some(Value::String(t)) => t.clone(),
        Some(Value::Array(types)) => types
            .iter()
            .filter_map(Value::as_str)
            .find(|t| *t != "null")
            .unwrap_or("null")
            .to_owned(),
        _ if s.contains_key("properties") => "object".into(),
        _ => String::new(),
    }
}

fn type_of_value(schema: &Value) -> String {
    schema.as_object().map(type_of).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(schemars::JsonSchema, serde::Serialize)]
    #[serde(rename_all = "camelCase")]
    #[allow(dead_code)]
    struct Out {
        /// Always written.
        amount: crate::wire::AmountOut,
        /// Written as null when empty.
        by: Option<String>,
        /// Left out when empty.
        #[serde(skip_serializing_if = "Option::is_none")]
        date: Option<crate::wire::DateOut>,
        /// Left out when empty.
        #[serde(skip_serializing_if = "Vec::is_empty")]
        rows: Vec<Row>,
        /// Always written.
        lines: Vec<Row>,
    }

    #[derive(schemars::JsonSchema, serde::Serialize)]
    #[allow(dead_code)]
    struct Row {
        /// Left out when false.
        #[serde(skip_serializing_if = "std::ops::Not::not")]
        over: bool,
        /// How many.
        count: u32,
    }

    #[test]
    fn the_least_and_the_most_a_serializer_can_write() {
        let schema = crate::schema::serializer_schema::<Out>();
        assert_eq!(
            sample(&schema, Fill::Least),
            json!({"amount": "1", "by": null, "lines": [{"count": 0}]})
        );
        assert_eq!(
            sample(&schema, Fill::Most),
            json!({"amount": "1", "by": "1", "date": "2026-04-01", "rows": [{"over": true, "count": 0}], "lines": [{"over": true, "count": 0}]})
        );
    }
}
