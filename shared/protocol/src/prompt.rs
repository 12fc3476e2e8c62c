//! Prompts (`prompts/list`, `prompts/get`): named, server-written scripts a person can
//! pick in their client, declared once like tools and rendered here per request.
//!
//! `prompts/list` is answered without a token (like `tools/list`: it says what the
//! server offers, the same for everyone); `prompts/get` needs a token with the
//! prompt's scope (docs/protocol.md §3.9).

use std::collections::BTreeMap;

use dochiya_quote::quote;
use serde_json::{Map, Value, json};

/// One argument a prompt takes (always a string, as MCP defines them).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PromptArgument {
    /// The argument's name.
    pub name: &'static str,
    /// What to put in it.
    pub description: &'static str,
    /// Whether `prompts/get` refuses a call without it.
    pub required: bool,
}

/// The arguments of one `prompts/get`, every name one the prompt declares.
pub type PromptArguments = BTreeMap<String, String>;

/// Everything published about a prompt, and how it renders.
#[derive(Debug, Clone, Copy)]
pub struct PromptSpec {
    /// Its name, fixed.
    pub name: &'static str,
    /// Display name.
    pub title: &'static str,
    /// What it is for, for the person choosing it.
    pub description: &'static str,
    /// The arguments it takes.
    pub arguments: &'static [PromptArgument],
    /// The OAuth scope `prompts/get` needs.
    pub scope: &'static str,
    /// The text of its one user message for checked arguments, or why an argument's
    /// value is refused (sent as -32602).
    pub render: fn(&PromptArguments) -> Result<String, String>,
}

impl PromptSpec {
    /// The `Prompt` object of `prompts/list`; 2025-03-26 has no `title`.
    pub(crate) fn describe(&self, with_title: bool) -> Value {
        let mut p = Map::new();
        p.insert("name".into(), json!(self.name));
        if with_title {
            p.insert("title".into(), json!(self.title));
        }
        p.insert("description".into(), json!(self.description));
        let arguments: Vec<Value> = self
            .arguments
            .iter()
            .map(|a| json!({"name": a.name, "description": a.description, "required": a.required}))
            .collect();
        p.insert("arguments".into(), Value::Array(arguments));
        Value::Object(p)
    }

    /// Reads `prompts/get`'s `arguments` (absent or `null`: none): an object of strings,
    /// each name declared, every required one present. An argument sent as `null` is
    /// absent, as a tool's optional argument is (docs/tools.md).
    pub(crate) fn arguments_from(&self, raw: Option<&str>) -> Result<PromptArguments, String> {
        let given: Map<String, Value> = match raw.map(str::trim) {
            None | Some("null") => Map::new(),
            Some(text) => match serde_json::from_str(text) {
                Ok(Value::Object(map)) => map,
                _ => return Err("arguments must be an object of strings".to_owned()),
            },
        };
        let mut out = PromptArguments::new();
        for (name, value) in given {
            let Some(declared) = self.arguments.iter().find(|a| a.name == name) else {
                let known: Vec<&str> = self.arguments.iter().map(|a| a.name).collect();
                return Err(format!(
                    "prompt {} has no argument {}; it takes {known:?}",
                    self.name,
                    quote(&name)
                ));
            };
            match value {
                Value::String(s) => {
                    out.insert(declared.name.to_owned(), s);
                }
                Value::Null => {}
                _ => return Err(format!("argument {} must be a string", quote(&name))),
            }
        }
        if let Some(missing) = self
            .arguments
            .iter()
            .find(|a| a.required && !out.contains_key(a.name))
        {
            return Err(format!("missing required argument {:?}", missing.name));
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn echo(args: &PromptArguments) -> Result<String, String> {
        match args.get("lang").map(String::as_str) {
            Some("xx") => Err("lang must be ko or en".into()),
            other => Ok(format!("hello {}", other.unwrap_or("ko"))),
        }
    }

    const SPEC: PromptSpec = PromptSpec {
        name: "p",
        title: "P",
        description: "d",
        arguments: &[
            PromptArgument {
                name: "lang",
                description: "ko or en",
                required: false,
            },
            PromptArgument {
                name: "month",
                description: "YYYY-MM",
                required: true,
            },
        ],
        scope: "s",
        render: echo,
    };

    #[test]
    fn arguments_are_checked_against_the_declaration() {
        let ok = SPEC.arguments_from(Some(r#"{"month": "2026-03"}"#));
        assert_eq!(
            ok,
            Ok(PromptArguments::from([(
                "month".to_owned(),
                "2026-03".to_owned()
            )]))
        );
        assert_eq!(
            SPEC.arguments_from(None),
            Err("missing required argument \"month\"".to_owned())
        );
        assert_eq!(
            SPEC.arguments_from(Some(r#"{"month": "x", "tone": "y"}"#)),
            Err("prompt p has no argument \"tone\"; it takes [\"lang\", \"month\"]".to_owned())
        );
        assert_eq!(
            SPEC.arguments_from(Some(r#"{"month": 3}"#)),
            Err("argument \"month\" must be a string".to_owned())
        );
        // null is absent, as for a tool's optional argument.
        assert_eq!(
            SPEC.arguments_from(Some(r#"{"month": "2026-03", "lang": null}"#)),
            SPEC.arguments_from(Some(r#"{"month": "2026-03"}"#))
        );
        assert_eq!(
            SPEC.arguments_from(Some(r#"{"month": null}"#)),
            Err("missing required argument \"month\"".to_owned())
        );
        let long = "x".repeat(100_000);
        assert_eq!(
            SPEC.arguments_from(Some(&format!(r#"{{"month": "x", "{long}": "y"}}"#))),
            Err(format!(
                "prompt p has no argument \"{}…\" (100000 characters); it takes [\"lang\", \"month\"]",
                "x".repeat(64)
            ))
        );
        assert_eq!(
            SPEC.arguments_from(Some("[1]")),
            Err("arguments must be an object of strings".to_owned())
        );
    }

    #[test]
    fn described_per_era() {
        assert_eq!(
            SPEC.describe(true),
            json!({"name": "p", "title": "P", "description": "d", "arguments": [
                {"name": "lang", "description": "ko or en", "required": false},
                {"name": "month", "description": "YYYY-MM", "required": true}]})
        );
        assert_eq!(SPEC.describe(false).get("title"), None);
    }
}
