//! MCP Apps views (the `io.modelcontextprotocol/ui` extension, SEP-1865): `ui://` HTML
//! resources a host renders for a tool's result (docs/decisions/042-mcp-apps-views.md).
//!
//! Every client, in both eras, sees the three tools and their results link their view in
//! `_meta.ui.resourceUri`; a host without the extension ignores `_meta`, and the
//! model-facing text (names, descriptions, schemas) is the same for all. Only the
//! capabilities differ: `initialize` and `server/discover` declare the extension back to
//! a client that declared it (in `clientCapabilities` of the request's `_meta` on the
//! 2026-07-28 leg, in `initialize` on the legacy leg).

use serde_json::{Value, json};

/// The extension's identifier in `capabilities.extensions`.
pub const UI_EXTENSION: &str = "io.modelcontextprotocol/ui";
/// The media type of a view.
pub const VIEW_MIME_TYPE: &str = "text/html;profile=mcp-app";

/// One view: a self-contained HTML document served by `resources/read`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ViewSpec {
    /// `ui://…`, the address tools link and hosts read.
    pub uri: &'static str,
    /// A short name, for hosts that list resources.
    pub name: &'static str,
    /// The whole document (no external origins).
    pub html: &'static str,
}

/// Does `capabilities` (a `ClientCapabilities` object) declare the extension for HTML views?
/// `mimeTypes` is required by the extension; a declaration without it is read as HTML
/// (forgiving), one that lists other types only is not.
pub(crate) fn declares_ui(capabilities: Option<&Value>) -> bool {
    let Some(ui) = capabilities
        .and_then(|c| c.get("extensions"))
        .and_then(|e| e.get(UI_EXTENSION))
        .filter(|ui| ui.is_object())
    else {
        return false;
    };
    match ui.get("mimeTypes").and_then(Value::as_array) {
        Some(types) => types.iter().any(|t| t.as_str() == Some(VIEW_MIME_TYPE)),
        None => true,
    }
}

/// The server's own declaration, added to `capabilities.extensions`.
pub(crate) fn server_extension() -> Value {
    json!({ UI_EXTENSION: { "mimeTypes": [VIEW_MIME_TYPE] } })
}

/// `resources/read`'s `contents` for `view`.
pub(crate) fn contents(view: &ViewSpec) -> Value {
    json!([{
        "uri": view.uri,
        "mimeType": VIEW_MIME_TYPE,
        "text": view.html,
        // No outside origin at all, said explicitly: no fetch, no image, font or script
        // from elsewhere, no frame (the host's most restrictive CSP).
        "_meta": { "ui": {
            "csp": { "connectDomains": [], "resourceDomains": [], "frameDomains": [], "baseUriDomains": [] },
            "prefersBorder": true,
        } },
    }])
}

/// `_meta.ui` of a linked tool (in `tools/list`) and of its results.
pub(crate) fn link(uri: &str) -> Value {
    json!({ "resourceUri": uri })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_declaration_forgivingly_but_not_another_media_type() {
        let caps = |ui: Value| json!({ "extensions": { UI_EXTENSION: ui } });
        assert!(declares_ui(Some(&caps(json!({"mimeTypes": [VIEW_MIME_TYPE]})))));
        assert!(declares_ui(Some(&caps(json!({})))));
        assert!(!declares_ui(Some(&caps(json!({"mimeTypes": ["text/uri-list"]})))));
        assert!(!declares_ui(Some(&caps(json!(true)))));
        assert!(!declares_ui(Some(&json!({"extensions": {}}))));
        assert!(!declares_ui(Some(&json!({}))));
        assert!(!declares_ui(None));
    }
}
