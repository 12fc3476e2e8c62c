//! Every build that runs tests checks each `structuredContent` a tool returns against
//! the output schema it publishes, so every test at every level is also a schema test
//! (decision 049): a result the schema forbids is an internal error naming the tool,
//! where in the result and which schema keyword, never a result a client refuses.
//!
//! On in every debug build (tests, examples, `cargo run`); the release build compiles the
//! no-op below and links no validator.

use dochiya_protocol::ToolError;
use serde_json::Value;
use serde_json::value::RawValue;

/// A result its tool's published output schema forbids.
#[cfg(debug_assertions)]
#[derive(Debug, thiserror::Error)]
#[error("{tool}: structuredContent does not match its published outputSchema: {}", problems.join("; "))]
pub(crate) struct OutputAgainstSchema {
    /// The tool's name.
    pub(crate) tool: &'static str,
    /// Each problem: where in the result, what, and the schema path that refused it.
    pub(crate) problems: Vec<String>,
}

/// The published output schema of one tool, compiled on first use.
#[cfg(debug_assertions)]
#[derive(Debug)]
pub(crate) struct OutputCheck(std::sync::OnceLock<Result<jsonschema::Validator, String>>);

#[cfg(debug_assertions)]
impl OutputCheck {
    /// A check whose schema is compiled on its first result.
    pub(crate) fn new() -> Self {
        Self(std::sync::OnceLock::new())
    }

    /// Checks `output` against `schema`, the tool's published output schema.
    pub(crate) fn check(
        &self,
        tool: &'static str,
        schema: &Value,
        output: &RawValue,
    ) -> Result<(), ToolError> {
        let validator = self.0.get_or_init(|| {
            jsonschema::options()
                .should_validate_formats(true)
                .build(schema)
                .map_err(|e| format!("the schema does not compile: {e}"))
        });
        let value: Value =
            serde_json::from_str(output.get()).map_err(|e| ToolError::Internal(Box::new(e)))?;
        let problems: Vec<String> = match validator {
            Ok(v) => v
                .iter_errors(&value)
                .map(|e| {
                    format!(
                        "at {:?}: {e} (schema {})",
                        e.instance_path().as_str(),
                        e.schema_path()
                    )
                })
                .collect(),
            Err(e) => vec![e.clone()],
        };
        if problems.is_empty() {
            return Ok(());
        }
        let error = OutputAgainstSchema { tool, problems };
        // Loud in every test's output, whatever the log level.
        eprintln!("{error}");
        Err(ToolError::Internal(Box::new(error)))
    }
}

/// Nothing to check in a release build.
#[cfg(not(debug_assertions))]
#[derive(Debug)]
pub(crate) struct OutputCheck;

#[cfg(not(debug_assertions))]
impl OutputCheck {
    /// No check.
    pub(crate) const fn new() -> Self {
        Self
    }

    /// Accepts every output.
    #[inline]
    pub(crate) fn check(
        &self,
        _tool: &'static str,
        _schema: &Value,
        _output: &RawValue,
    ) -> Result<(), ToolError> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_result_its_schema_forbids_is_an_internal_error_naming_tool_and_place() {
        let schema = json!({
            "type": "object",
            "properties": { "transaction": { "type": "object", "properties": { "recordedBy": { "type": "string" } } } }
        });
        let check = OutputCheck::new();
        let good = RawValue::from_string(r#"{"transaction": {"recordedBy": "하은"}}"#.into()).unwrap();
        assert!(check.check("get_transaction", &schema, &good).is_ok());
        let bad = RawValue::from_string(r#"{"transaction": {"recordedBy": null}}"#.into()).unwrap();
        let Err(ToolError::Internal(e)) = check.check("get_transaction", &schema, &bad) else {
            panic!("a null recordedBy passed");
        };
        assert_eq!(
            e.to_string(),
            "get_transaction: structuredContent does not match its published outputSchema: at \"/transaction/recordedBy\": null is not of type \"string\" (schema /properties/transaction/properties/recordedBy/type)"
        );
    }
}
