//! The ledger tools of docs/tools.md, each declared once: schemas, annotations, scope, handler.
//!
//! [`all`] builds every tool over one [`Ledger`] for the protocol layer to
//! register; [`INSTRUCTIONS`] is the server's advice to a model on using them.

mod args;
mod errors;
mod lines;
mod operation;
mod output_check;
mod prompts;
pub mod reasons;
#[cfg(test)]
mod samples;
pub mod schema;
mod text;
mod tools;
pub mod views;
mod wire;
pub mod wording;

use std::sync::Arc;

use dochiya_ledger::Ledger;
use dochiya_protocol::{Tool, ToolSpec};

pub use prompts::prompts;

/// Server instructions (sent in `initialize` and `server/discover`): how to use the tools well.
pub const INSTRUCTIONS: &str = "dochiya is a household ledger (가계부). Start with list_vaults: each vault's name, currency, members and `today` in its time zone (you do not otherwise know the date). Name vaults and accounts by their NAMES (\"카카오뱅크\", \"식비\"), never ids; leave `vault` out when there is one. Amounts are decimal strings in the vault currency's major unit (\"12500\" won, \"12.50\" dollars), no separators. Money moves from `from` to `to`: lunch paid from the bank is from \"카카오뱅크\" to \"식비\"; a salary from \"월급\" to \"카카오뱅크\". A write with an idempotencyKey: make one up per new entry and reuse it unchanged when you retry that entry, so it is recorded once. A statement or many entries: record_transactions (dryRun first). A wrong entry: edit_transaction fixes it in place (do not void and re-record). Two people in one vault: their own cards and accounts have an `owner` (create_account/update_account); \"하은이가 자기 카드로 장 봤어\" is from 하은's card to the shared category; spending for one person only takes `for`; \"정산해줘\" is settle_up. A category the memo names (\"스타벅스\" → 카페) may be left out as `to`: its words (update_account match, or learned from earlier entries) choose it, and categorizedBy says how; show the person. Transaction ids are strings: pass them back exactly. Errors say what to send instead: read them.";

/// Every tool over `ledger`, in the order of the one table (`tools/mod.rs`): reads first, then writes.
pub fn all(ledger: Arc<Ledger>) -> Vec<Arc<dyn Tool>> {
    tools::all(&ledger)
}

/// The declarations of every tool, in the order of [`all`], without a ledger (docs, tests).
pub fn specs() -> Vec<ToolSpec> {
    tools::specs()
}

/// Most tools `tools/list` may carry: a model chooses worse among more (34 from the
/// fourth round, which adds settle-up, goals and deletion within the same 32 KB).
pub const MAX_TOOLS: usize = 34;

/// Most bytes of model-facing text (name + description + compact input schema, summed
/// over every tool) every conversation pays for; the aim is 28 KB.
pub const MAX_MODEL_FACING_BYTES: usize = 32 * 1024;

/// The model-facing bytes of one tool: its name, description and input schema as compact JSON.
pub fn model_facing_bytes(spec: &ToolSpec) -> usize {
    spec.name.len() + spec.description.len() + spec.input_schema.to_string().len()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    #[test]
    fn names_are_short_snake_case() {
        for spec in specs() {
            assert!(spec.name.len() <= 64, "{}", spec.name);
            assert!(
                spec.name.bytes().all(|b| b.is_ascii_lowercase() || b == b'_'),
                "{}",
                spec.name
            );
            assert!(
                !spec.title.is_empty() && !spec.description.is_empty(),
                "{}",
                spec.name
            );
        }
    }

    #[test]
    fn schemas_are_flat_described_objects() {
        for spec in specs() {
            assert_eq!(
                schema::check_published(&spec.input_schema),
                Ok(()),
                "{} input",
                spec.name
            );
            assert_eq!(
                schema::check_published(&spec.output_schema),
                Ok(()),
                "{} output",
                spec.name
            );
            // A misspelled argument must be an error the model sees.
            assert_eq!(
                spec.input_schema["additionalProperties"],
                Value::Bool(false),
                "{}",
                spec.name
            );
        }
    }

    /// No schema uses `anyOf`, `oneOf` or `$ref` (one client drops a whole connector on
    /// an `anyOf`): the alternatives a tool takes are optional fields, checked by the tool.
    #[test]
    fn no_schema_has_any_of_one_of_or_ref() {
        fn keywords(v: &Value, at: &str, found: &mut Vec<String>) {
            match v {
                Value::Object(map) => {
                    for (k, inner) in map {
                        if ["anyOf", "oneOf", "allOf", "$ref", "$defs"].contains(&k.as_str()) {
                            found.push(format!("{at}/{k}"));
                        }
                        keywords(inner, &format!("{at}/{k}"), found);
                    }
                }
                Value::Array(items) => {
                    for (i, inner) in items.iter().enumerate() {
                        keywords(inner, &format!("{at}/{i}"), found);
                    }
                }
                _ => {}
            }
        }
        let mut found = Vec::new();
        for spec in specs() {
            keywords(&spec.input_schema, &format!("{} input", spec.name), &mut found);
            keywords(&spec.output_schema, &format!("{} output", spec.name), &mut found);
        }
        assert_eq!(found, Vec::<String>::new());
        // The check itself finds them.
        let mut seen = Vec::new();
        keywords(
            &serde_json::json!({"properties": {"a": {"anyOf": [{"$ref": "#/x"}]}}}),
            "t",
            &mut seen,
        );
        assert_eq!(seen, ["t/properties/a/anyOf", "t/properties/a/anyOf/0/$ref"]);
    }

    /// The house style on top of the generator's rule (decision 049): an empty result
    /// field is absent, never `null`, so no published output schema allows `null`.
    #[test]
    fn no_output_schema_allows_null() {
        let found: Vec<String> = specs()
            .iter()
            .flat_map(|spec| {
                schema::null_places(&spec.output_schema)
                    .into_iter()
                    .map(move |at| format!("{}{at}", spec.name))
            })
            .collect();
        assert_eq!(found, Vec::<String>::new());
    }

    /// The schema rule for every tool (decision 049): its result with every optional
    /// field absent (and every nullable one null) and with every one present, as its
    /// serializer can write them, fits the output schema it publishes.
    #[test]
    fn every_result_fits_its_published_schema() {
        use samples::{Fill, sample};
        let mut problems = Vec::new();
        let mut tools_checked = 0;
        for (name, written, published) in tools::output_schemas() {
            let writer = jsonschema::validator_for(&written).unwrap_or_else(|e| panic!("{name}: {e}"));
            let reader = jsonschema::options()
                .should_validate_formats(true)
                .build(&published)
                .unwrap_or_else(|e| panic!("{name}: {e}"));
            for fill in [Fill::Least, Fill::Most] {
                let result = sample(&written, fill);
                // The sample is something the serializer writes, so a refusal below is real.
                assert!(writer.is_valid(&result), "{name} {fill:?}: {result}");
                problems.extend(
                    reader
                        .iter_errors(&result)
                        .map(|e| format!("{name} {fill:?} at {}: {e}", e.instance_path())),
                );
            }
            tools_checked += 1;
        }
        assert_eq!(problems, Vec::<String>::new());
        assert_eq!(tools_checked, specs().len());
    }

    /// The budget every conversation pays: at most 34 tools and 32 KB of name +
    /// description + input schema (docs/benchmarks.md keeps the figure).
    #[test]
    fn model_facing_text_fits_the_budget() {
        let specs = specs();
        let total: usize = specs.iter().map(model_facing_bytes).sum();
        for spec in &specs {
            println!("{:<22} {:>6}", spec.name, model_facing_bytes(spec));
        }
        println!(
            "model-facing text: {} tools, {total} bytes (budget {MAX_MODEL_FACING_BYTES}, aim 28672)",
            specs.len()
        );
        assert!(specs.len() <= MAX_TOOLS, "{} tools", specs.len());
        assert!(total <= MAX_MODEL_FACING_BYTES, "{total} bytes");
    }

    /// Where the server's instructions name a tool, it exists.
    #[test]
    fn instructions_name_only_tools_that_exist() {
        let names: Vec<&str> = specs().iter().map(|s| s.name).collect();
        for word in INSTRUCTIONS.split(|c: char| !(c.is_ascii_lowercase() || c == '_')) {
            if word.contains('_') && !word.starts_with('_') {
                assert!(names.contains(&word), "{word}");
            }
        }
    }

    /// Every `transactionId` a result can carry has the decimal-string pattern.
    #[test]
    fn transaction_ids_are_patterned_strings() {
        fn visit(v: &Value, found: &mut usize) {
            if let Value::Object(map) = v {
                if let Some(Value::Object(props)) = map.get("properties") {
                    for (name, prop) in props {
                        if name == "transactionId" || name == "openingTransactionId" || name == "operationId"
                        {
                            assert_eq!(prop["type"], "string");
                            assert_eq!(prop["pattern"], "^(0|[1-9][0-9]*)$");
                            *found += 1;
                        }
                    }
                }
                map.values().for_each(|x| visit(x, found));
            } else if let Value::Array(items) = v {
                items.iter().for_each(|x| visit(x, found));
            }
        }
        // Every tool that takes or answers an entry or an operation carries its id so (the
        // rule is checked on each id the visitor finds; these are the tools that must
        // have one, whatever else grows).
        let mut with_ids = Vec::new();
        for spec in specs() {
            let mut found = 0;
            visit(&spec.output_schema, &mut found);
            visit(&spec.input_schema, &mut found);
            if found > 0 {
                with_ids.push(spec.name);
            }
        }
        for name in [
            "list_transactions",
            "get_transaction",
            "record_transaction",
            "record_transactions",
            "void_transaction",
            "edit_transaction",
            "create_account",
            "card_bill",
            "undo",
        ] {
            assert!(with_ids.contains(&name), "{name} carries no id: {with_ids:?}");
        }
    }

    /// The published input schema and the deserializer agree on every tool's examples.
    #[test]
    fn input_schemas_agree_with_the_argument_parser() {
        tools::check_every_example();
    }

    /// Where a description states a constraint a machine can check, the schema
    /// agrees: an argument described as positive has a pattern that refuses a minus.
    #[test]
    fn descriptions_and_schemas_agree() {
        fn visit(v: &Value, tool: &str, checked: &mut usize) {
            let Value::Object(map) = v else { return };
            if let Some(Value::Object(props)) = map.get("properties") {
                for (name, prop) in props {
                    let d = prop["description"].as_str().unwrap_or("");
                    if let Some(pattern) = prop["pattern"].as_str().filter(|_| d.contains("ositive")) {
                        let v = jsonschema::validator_for(
                            &serde_json::json!({"type": "string", "pattern": pattern}),
                        )
                        .unwrap_or_else(|e| panic!("{tool}.{name}: {e}"));
                        assert!(!v.is_valid(&Value::from("-1")), "{tool}.{name} allows a minus");
                        assert!(v.is_valid(&Value::from("9000")), "{tool}.{name} refuses 9000");
                        *checked += 1;
                    }
                    visit(prop, tool, checked);
                }
            }
            for key in ["items"] {
                if let Some(inner) = map.get(key) {
                    visit(inner, tool, checked);
                }
            }
        }
        let mut checked = 0;
        for spec in specs() {
            visit(&spec.input_schema, spec.name, &mut checked);
        }
        // Every amount that moved: record_transaction's amount and two line amounts,
        // edit's amount and two line amounts, record_transactions' entry amount and two line amounts.
        assert_eq!(checked, 9);
    }

    #[test]
    fn idempotency_key_says_reuse_unchanged() {
        let keyed: Vec<ToolSpec> = specs()
            .into_iter()
            .filter(|s| s.input_schema["properties"].get("idempotencyKey").is_some())
            .collect();
        let names: Vec<&str> = keyed.iter().map(|s| s.name).collect();
        assert_eq!(
            names,
            ["record_transaction", "record_transactions", "edit_transaction"]
        );
        for spec in &keyed {
            let d = spec.input_schema["properties"]["idempotencyKey"]["description"]
                .as_str()
                .unwrap_or("");
            assert!(d.contains("reuse it unchanged"), "{}: {d}", spec.name);
            assert!(!d.contains("unique per request"), "{}", spec.name);
            assert!(spec.annotations.idempotent, "{}", spec.name);
            assert_eq!(
                spec.input_schema["required"]
                    .as_array()
                    .map(|r| r.contains(&"idempotencyKey".into())),
                Some(true)
            );
        }
    }
}
