//! The tool registry: checked once at start-up, with `tools/list` bodies pre-rendered per era.

use std::collections::HashMap;
use std::sync::Arc;

use serde_json::value::RawValue;
use serde_json::{Map, Value, json};

use crate::tool::{Tool, ToolSpec};
use crate::version::Version;

/// A tool declaration that clients would reject or silently drop.
#[derive(Debug, thiserror::Error)]
pub enum RegistryError {
    /// Names must be 1–64 characters of `[A-Za-z0-9_.-]` (the conformance suite's limit).
    #[error("tool name {0:?} must be 1-64 characters of [A-Za-z0-9_.-]")]
    BadName(String),
    /// Names are unique per server.
    #[error("tool name {0:?} is registered twice")]
    Duplicate(String),
    /// Every tool needs a description (conformance fails tools without one).
    #[error("tool {0:?} has no description")]
    NoDescription(String),
    /// Schemas must be objects with `type: "object"` at the root.
    #[error("tool {tool:?}: {which} must have type \"object\" at the root")]
    SchemaNotObject {
        /// The tool.
        tool: String,
        /// `inputSchema` or `outputSchema`.
        which: &'static str,
    },
    /// `$ref`/`$defs` make some clients drop the tool.
    #[error("tool {tool:?}: {which} must be flat (no $ref/$defs)")]
    SchemaNotFlat {
        /// The tool.
        tool: String,
        /// `inputSchema` or `outputSchema`.
        which: &'static str,
    },
    /// Rendering the list failed (cannot happen for valid JSON values).
    #[error("rendering tools/list failed")]
    Render(#[source] serde_json::Error),
}

/// Registered tools, looked up by name, listed in registration order.
pub(crate) struct Registry {
    tools: Vec<Arc<dyn Tool>>,
    by_name: HashMap<&'static str, usize>,
    list_2025_03_26: Box<RawValue>,
    list_structured: Box<RawValue>,
    /// The structured list with each linked tool's `_meta.ui` (whenever views are served).
    list_linked: Box<RawValue>,
}

impl Registry {
    pub fn new(tools: Vec<Arc<dyn Tool>>) -> Result<Self, RegistryError> {
        let mut by_name = HashMap::with_capacity(tools.len());
        for (i, tool) in tools.iter().enumerate() {
            let spec = tool.spec();
            validate(spec)?;
            if by_name.insert(spec.name, i).is_some() {
                return Err(RegistryError::Duplicate(spec.name.to_owned()));
            }
        }
        let render = |structured: bool, linked: bool| -> Result<Box<RawValue>, RegistryError> {
            let list: Vec<Value> = tools
                .iter()
                .map(|t| describe(t.spec(), structured, linked))
                .collect();
            serde_json::value::to_raw_value(&list).map_err(RegistryError::Render)
        };
        Ok(Registry {
            list_2025_03_26: render(false, false)?,
            list_structured: render(true, false)?,
            list_linked: render(true, true)?,
            tools,
            by_name,
        })
    }

    /// Every tool's declaration, in registration order.
    pub fn specs(&self) -> impl Iterator<Item = &ToolSpec> {
        self.tools.iter().map(|t| t.spec())
    }

    /// The tool called `name`.
    pub fn get(&self, name: &str) -> Option<&Arc<dyn Tool>> {
        self.by_name.get(name).map(|&i| &self.tools[i])
    }

    /// The pre-rendered `tools` array for `version`; `linked` when the server serves MCP
    /// Apps views (never on 2025-03-26, which has no structured results for a view).
    pub fn list(&self, version: Version, linked: bool) -> &RawValue {
        if linked && version.has_structured_content() {
            &self.list_linked
        } else if version.has_structured_content() {
            &self.list_structured
        } else {
            &self.list_2025_03_26
        }
    }
}

fn validate(spec: &ToolSpec) -> Result<(), RegistryError> {
    let name = spec.name;
    let good_name = (1..=64).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-'));
    if !good_name {
        return Err(RegistryError::BadName(name.to_owned()));
    }
    if spec.description.trim().is_empty() {
        return Err(RegistryError::NoDescription(name.to_owned()));
    }
    for (which, schema) in [
        ("inputSchema", &spec.input_schema),
        ("outputSchema", &spec.output_schema),
    ] {
        if schema.get("type").and_then(Value::as_str) != Some("object") {
            return Err(RegistryError::SchemaNotObject {
                tool: name.to_owned(),
                which,
            });
        }
        if has_reference(schema) {
            return Err(RegistryError::SchemaNotFlat {
                tool: name.to_owned(),
                which,
            });
        }
    }
    Ok(())
}

fn has_reference(schema: &Value) -> bool {
    match schema {
        Value::Object(map) => {
            map.contains_key("$ref")
                || map.contains_key("$defs")
                || map.contains_key("definitions")
                || map.values().any(has_reference)
        }
        Value::Array(items) => items.iter().any(has_reference),
        _ => false,
    }
}

/// One `Tool` object as published; 2025-03-26 has no `title` and no `outputSchema`;
/// `linked` adds the tool's view as `_meta.ui` (whenever the server serves views).
fn describe(spec: &ToolSpec, structured: bool, linked: bool) -> Value {
    let a = spec.annotations;
    let mut tool = Map::new();
    tool.insert("name".into(), json!(spec.name));
    if structured {
        tool.insert("title".into(), json!(spec.title));
    }
    tool.insert("description".into(), json!(spec.description));
    tool.insert("inputSchema".into(), spec.input_schema.clone());
    if structured {
        tool.insert("outputSchema".into(), spec.output_schema.clone());
    }
    tool.insert(
        "annotations".into(),
        json!({
            "title": spec.title,
            "readOnlyHint": a.read_only,
            "destructiveHint": a.destructive,
            "idempotentHint": a.idempotent,
            "openWorldHint": a.open_world,
        }),
    );
    if let Some(uri) = spec.view.filter(|_| linked) {
        tool.insert("_meta".into(), json!({ "ui": crate::view::link(uri) }));
    }
    Value::Object(tool)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{TestTool, spec};

    fn tool(spec: ToolSpec) -> Arc<dyn Tool> {
        Arc::new(TestTool::echo(spec))
    }

    fn refusal(tools: Vec<Arc<dyn Tool>>) -> String {
        Registry::new(tools)
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default()
    }

    #[test]
    fn rejects_bad_names_duplicates_and_missing_descriptions() {
        let long = Box::leak("a".repeat(65).into_boxed_str());
        for bad in ["", "has space", "slash/no", &*long] {
            let msg = refusal(vec![tool(ToolSpec {
                name: bad,
                ..spec("x")
            })]);
            assert_eq!(
                msg,
                format!("tool name {bad:?} must be 1-64 characters of [A-Za-z0-9_.-]")
            );
        }
        assert_eq!(
            refusal(vec![tool(spec("same")), tool(spec("same"))]),
            "tool name \"same\" is registered twice"
        );
        let msg = refusal(vec![tool(ToolSpec {
            description: " ",
            ..spec("d")
        })]);
        assert_eq!(msg, "tool \"d\" has no description");
    }

    #[test]
    fn rejects_non_object_and_non_flat_schemas() {
        let msg = refusal(vec![tool(ToolSpec {
            input_schema: json!({"type": "string"}),
            ..spec("s")
        })]);
        assert_eq!(
            msg,
            "tool \"s\": inputSchema must have type \"object\" at the root"
        );
        let nested = json!({"type": "object", "properties": {"a": {"$ref": "#/$defs/A"}}});
        let msg = refusal(vec![tool(ToolSpec {
            output_schema: nested,
            ..spec("r")
        })]);
        assert_eq!(msg, "tool \"r\": outputSchema must be flat (no $ref/$defs)");
    }

    #[test]
    fn lists_in_registration_order_with_era_specific_fields() {
        let reg = Registry::new(vec![tool(spec("b_tool")), tool(spec("a_tool"))]).unwrap();
        let old: Value = serde_json::from_str(reg.list(Version::V2025_03_26, false).get()).unwrap();
        let new: Value = serde_json::from_str(reg.list(Version::V2025_06_18, false).get()).unwrap();
        assert_eq!(old[0]["name"], "b_tool");
        assert_eq!(old[1]["name"], "a_tool");
        assert_eq!(old[0].get("title"), None);
        assert_eq!(old[0].get("outputSchema"), None);
        assert_eq!(new[0]["title"], "b_tool title");
        assert_eq!(new[0]["outputSchema"], json!({"type": "object"}));
        assert_eq!(
            new[0]["annotations"],
            json!({"title": "b_tool title", "readOnlyHint": true, "destructiveHint": false,
                   "idempotentHint": true, "openWorldHint": false})
        );
        assert!(reg.get("a_tool").is_some());
        assert!(reg.get("c_tool").is_none());
    }
}
