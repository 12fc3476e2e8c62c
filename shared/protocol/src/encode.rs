//! Response encoding: per-era result shaping (in this one place) and the HTTP answers.
//!
//! Modern (2026-07-28) results get `resultType`, `_meta` serverInfo and, on cacheable
//! results, `ttlMs`/`cacheScope`; legacy results get none of those. Tool results are
//! text-only for 2025-03-26, carry an object `structuredContent` for 2025-06-18/-11-25,
//! and never carry `structuredContent` when `isError` is true.
//!
//! A tool's output arrives serialized once (its response type straight to JSON text);
//! that text is sent as it is as `structuredContent` and JSON-escaped as the text
//! block, so no `Value` tree is built per call. Bodies are written into a buffer sized
//! up front from the pre-rendered parts.

use bytes::Bytes;
use http::{HeaderValue, Response, StatusCode, header};
use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::value::RawValue;
use serde_json::{Value, json};

use crate::error::RpcError;
use crate::jsonrpc::{ErrorResponse, ResultResponse};
use crate::version::Version;

/// One member of a result object: a value, or pre-rendered JSON text.
#[derive(Debug)]
pub(crate) enum Field<'a> {
    Value(Value),
    Raw(&'a RawValue),
    /// Pre-rendered JSON owned by the result (a tool's output).
    Owned(Box<RawValue>),
    /// A string known at compile time (`resultType`).
    Str(&'static str),
    /// A `content` array of one text block: `[{"type":"text","text":…}]`.
    Text(String),
}

impl Field<'_> {
    /// Bytes this member will likely take, to size the body buffer once.
    fn size_hint(&self) -> usize {
        match self {
            Field::Value(_) => 16,
            Field::Raw(r) => r.get().len(),
            Field::Owned(r) => r.get().len(),
            Field::Str(s) => s.len() + 2,
            // Escaping adds a backslash per quote; JSON text is full of them.
            Field::Text(t) => t.len() + t.len() / 4 + 32,
        }
    }
}

/// One text content block, members in the schema's order.
struct TextBlock<'t>(&'t str);

impl Serialize for TextBlock<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(2))?;
        map.serialize_entry("type", "text")?;
        map.serialize_entry("text", self.0)?;
        map.end()
    }
}

/// A result object whose members keep their insertion order.
#[derive(Debug, Default)]
pub(crate) struct ResultObject<'a> {
    entries: Vec<(&'static str, Field<'a>)>,
}

impl<'a> ResultObject<'a> {
    pub fn new() -> Self {
        ResultObject { entries: Vec::new() }
    }

    pub fn value(mut self, key: &'static str, value: Value) -> Self {
        self.entries.push((key, Field::Value(value)));
        self
    }

    pub fn raw(mut self, key: &'static str, raw: &'a RawValue) -> Self {
        self.entries.push((key, Field::Raw(raw)));
        self
    }

    fn field(mut self, key: &'static str, field: Field<'a>) -> Self {
        self.entries.push((key, field));
        self
    }

    /// Bytes the serialized object will likely take.
    fn size_hint(&self) -> usize {
        self.entries
            .iter()
            .map(|(key, field)| key.len() + 4 + field.size_hint())
            .sum::<usize>()
            + 2
    }
}

impl Serialize for ResultObject<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.entries.len()))?;
        for (key, field) in &self.entries {
            match field {
                Field::Value(v) => map.serialize_entry(key, v)?,
                Field::Raw(r) => map.serialize_entry(key, r)?,
                Field::Owned(r) => map.serialize_entry(key, r)?,
                Field::Str(v) => map.serialize_entry(key, v)?,
                Field::Text(t) => map.serialize_entry(key, std::slice::from_ref(&TextBlock(t)))?,
            }
        }
        map.end()
    }
}

/// What kind of result is being shaped (decides the modern extras).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ResultKind {
    /// `server/discover`, `tools/list`: cacheable, so `ttlMs` and `cacheScope` on modern.
    Cacheable,
    /// Everything else.
    Plain,
}

/// Shared, start-up-built parts of every shaped result.
#[derive(Debug)]
pub(crate) struct Shaper {
    server_meta: Box<RawValue>,
    /// The full `Implementation` (with icons), sent once per discovery, not on every result.
    discover_meta: Box<RawValue>,
    ttl_ms: u64,
}

impl Shaper {
    #[cfg(test)]
    pub fn new(server_name: &str, server_version: &str, ttl_ms: u64) -> Self {
        Self::with_info(server_name, server_version, ttl_ms, &Value::Null)
    }

    /// With `icons` (a JSON array, or null for none) in the discovery's serverInfo.
    pub fn with_info(server_name: &str, server_version: &str, ttl_ms: u64, icons: &Value) -> Self {
        let raw = |meta: Value| {
            serde_json::value::to_raw_value(&meta)
                .unwrap_or_else(|_| RawValue::from_string("{}".to_owned()).unwrap_or_default())
        };
        let mut info = json!({ "name": server_name, "version": server_version });
        let server_meta = raw(json!({ crate::version::META_SERVER_INFO: info.clone() }));
        if icons.as_array().is_some_and(|a| !a.is_empty()) {
            info["icons"] = icons.clone();
        }
        let discover_meta = raw(json!({ crate::version::META_SERVER_INFO: info }));
        Shaper {
            server_meta,
            discover_meta,
            ttl_ms,
        }
    }

    /// `server/discover`'s result: cacheable, with the full serverInfo.
    pub fn shape_discover<'a>(&'a self, result: ResultObject<'a>) -> ResultObject<'a> {
        let result = result
            .field("resultType", Field::Str("complete"))
            .value("ttlMs", json!(self.ttl_ms))
            .field("cacheScope", Field::Str("public"));
        result.raw("_meta", &self.discover_meta)
    }

    /// Add the era's required members to a result.
    pub fn shape<'a>(
        &'a self,
        version: Version,
        kind: ResultKind,
        result: ResultObject<'a>,
    ) -> ResultObject<'a> {
        if !version.is_modern() {
            return result;
        }
        let mut result = result.field("resultType", Field::Str("complete"));
        if kind == ResultKind::Cacheable {
            // The tool list and discovery are the same for every caller: public.
            result = result
                .value("ttlMs", json!(self.ttl_ms))
                .field("cacheScope", Field::Str("public"));
        }
        result.raw("_meta", &self.server_meta)
    }

    /// A successful tool call: the JSON as text, plus `structuredContent` where the era allows.
    /// `output` is the tool's result already serialized (compact JSON); `view`, the tool's
    /// MCP Apps view, goes in `_meta.ui`.
    pub fn tool_success<'a>(
        &'a self,
        version: Version,
        tool: &str,
        output: Box<RawValue>,
        view: Option<&str>,
    ) -> ResultObject<'a> {
        let mut result = ResultObject::new().field("content", Field::Text(output.get().to_owned()));
        if version.has_structured_content() {
            if version.is_modern() || output.get().starts_with('{') {
                result = result.field("structuredContent", Field::Owned(output));
            } else {
                tracing::warn!(
                    tool,
                    "tool output is not an object: sent as text only on this revision"
                );
            }
        }
        result = result.value("isError", json!(false));
        match view {
            None => self.shape(version, ResultKind::Plain, result),
            Some(uri) => self.with_link(version, result, uri),
        }
    }

    /// The era's members, with `_meta.ui.resourceUri` beside the modern serverInfo.
    fn with_link<'a>(&'a self, version: Version, result: ResultObject<'a>, uri: &str) -> ResultObject<'a> {
        if !version.is_modern() {
            return result.value("_meta", json!({ "ui": crate::view::link(uri) }));
        }
        let mut meta = serde_json::from_str::<Value>(self.server_meta.get()).unwrap_or_else(|_| json!({}));
        meta["ui"] = crate::view::link(uri);
        result
            .field("resultType", Field::Str("complete"))
            .value("_meta", meta)
    }

    /// A tool error the model can act on: text only, `isError: true`, never `structuredContent`.
    pub fn tool_error<'a>(&'a self, version: Version, message: &str) -> ResultObject<'a> {
        let result = ResultObject::new()
            .field("content", Field::Text(message.to_owned()))
            .value("isError", json!(true));
        self.shape(version, ResultKind::Plain, result)
    }
}

/// One answer to one JSON-RPC message, before it becomes HTTP.
#[derive(Debug)]
pub(crate) enum Reply<'a> {
    Result {
        id: Box<RawValue>,
        result: ResultObject<'a>,
    },
    Error {
        id: Option<Box<RawValue>>,
        error: RpcError,
    },
    /// A notification or posted response: 202, no body.
    Accepted,
}

impl Reply<'_> {
    /// The serialized JSON-RPC response, `None` for [`Reply::Accepted`].
    pub fn to_json(&self) -> Option<Vec<u8>> {
        let rendered = match self {
            Reply::Result { id, result } => {
                // One allocation of about the right size instead of doubling up to it.
                let mut body = Vec::with_capacity(result.size_hint() + id.get().len() + 40);
                serde_json::to_writer(&mut body, &ResultResponse::new(id, result)).map(|()| body)
            }
            Reply::Error { id, error } => serde_json::to_vec(&ErrorResponse::new(id.as_deref(), error)),
            Reply::Accepted => return None,
        };
        Some(rendered.unwrap_or_else(|e| fallback_body(&e)))
    }

    /// The HTTP status when this reply is the whole answer.
    pub fn status(&self) -> StatusCode {
        match self {
            Reply::Result { .. } => StatusCode::OK,
            Reply::Error { error, .. } => error.status,
            Reply::Accepted => StatusCode::ACCEPTED,
        }
    }

    /// The whole HTTP answer for a single message.
    pub fn into_response(self) -> Response<Bytes> {
        match self.to_json() {
            Some(body) => json_response(self.status(), body),
            None => empty_response(StatusCode::ACCEPTED),
        }
    }
}

// Serializing values we built cannot fail; if it ever did, still answer JSON-RPC.
fn fallback_body(e: &serde_json::Error) -> Vec<u8> {
    let error = RpcError::unexpected("serializing a response", e);
    serde_json::to_vec(&ErrorResponse::new(None, &error)).unwrap_or_default()
}

/// `application/json` response with `body`.
pub(crate) fn json_response(status: StatusCode, body: Vec<u8>) -> Response<Bytes> {
    let mut response = Response::new(Bytes::from(body));
    *response.status_mut() = status;
    response
        .headers_mut()
        .insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
    response
}

/// A bodiless response (202 for notifications).
pub(crate) fn empty_response(status: StatusCode) -> Response<Bytes> {
    let mut response = Response::new(Bytes::new());
    *response.status_mut() = status;
    response
}

/// A JSON-RPC error as the whole HTTP answer.
pub(crate) fn error_response(id: Option<&RawValue>, error: &RpcError) -> Response<Bytes> {
    let body = serde_json::to_vec(&ErrorResponse::new(id, error)).unwrap_or_else(|e| fallback_body(&e));
    json_response(error.status, body)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn render(r: &ResultObject<'_>) -> Value {
        serde_json::to_value(r).unwrap_or_default()
    }

    fn raw(v: &Value) -> Box<RawValue> {
        serde_json::value::to_raw_value(v).unwrap_or_default()
    }

    /// The exact bytes of a modern tool result: the output as it was serialized, and the
    /// same text JSON-escaped in a text block that names its type first.
    #[test]
    fn tool_success_sends_the_serialized_output_as_is_and_escaped() {
        let s = shaper();
        let out = RawValue::from_string(r#"{"b":"점심","a":[1,"x\"y"]}"#.to_owned()).unwrap_or_default();
        let reply = Reply::Result {
            id: RawValue::from_string("7".to_owned()).unwrap_or_default(),
            result: s.tool_success(Version::V2026_07_28, "t", out, None),
        };
        let body = String::from_utf8(reply.to_json().unwrap_or_default()).unwrap_or_default();
        assert_eq!(
            body,
            concat!(
                r#"{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"{\"b\":\"점심\",\"a\":[1,\"x\\\"y\"]}"}],"#,
                r#""structuredContent":{"b":"점심","a":[1,"x\"y"]},"isError":false,"resultType":"complete","#,
                r#""_meta":{"io.modelcontextprotocol/serverInfo":{"name":"dochiya","version":"9.9.9"}}}}"#
            )
        );
    }

    fn shaper() -> Shaper {
        Shaper::new("dochiya", "9.9.9", 1000)
    }

    #[test]
    fn modern_results_get_result_type_meta_and_cache_hints_only_when_cacheable() {
        let s = shaper();
        let plain = render(&s.shape(Version::V2026_07_28, ResultKind::Plain, ResultObject::new()));
        assert_eq!(
            plain,
            json!({"resultType": "complete",
                   "_meta": {"io.modelcontextprotocol/serverInfo": {"name": "dochiya", "version": "9.9.9"}}})
        );
        let cached = render(&s.shape(Version::V2026_07_28, ResultKind::Cacheable, ResultObject::new()));
        assert_eq!(cached["ttlMs"], 1000);
        assert_eq!(cached["cacheScope"], "public");
    }

    #[test]
    fn legacy_results_get_nothing_added() {
        let s = shaper();
        for v in [Version::V2025_03_26, Version::V2025_06_18, Version::V2025_11_25] {
            let r = render(&s.shape(v, ResultKind::Cacheable, ResultObject::new().value("a", json!(1))));
            assert_eq!(r, json!({"a": 1}));
        }
    }

    #[test]
    fn tool_success_per_era() {
        let s = shaper();
        let out = json!({"total": "12000"});
        let old = render(&s.tool_success(Version::V2025_03_26, "t", raw(&out), None));
        assert_eq!(
            old,
            json!({"content": [{"type": "text", "text": "{\"total\":\"12000\"}"}], "isError": false})
        );
        let mid = render(&s.tool_success(Version::V2025_11_25, "t", raw(&out), None));
        assert_eq!(mid["structuredContent"], out);
        assert_eq!(mid.get("resultType"), None);
        let new = render(&s.tool_success(Version::V2026_07_28, "t", raw(&out), None));
        assert_eq!(new["structuredContent"], out);
        assert_eq!(new["resultType"], "complete");
    }

    #[test]
    fn non_object_output_is_text_only_on_legacy_structured_revisions() {
        let s = shaper();
        let mid = render(&s.tool_success(Version::V2025_06_18, "t", raw(&json!("12000")), None));
        assert_eq!(mid.get("structuredContent"), None);
        let new = render(&s.tool_success(Version::V2026_07_28, "t", raw(&json!("12000")), None));
        assert_eq!(new["structuredContent"], "12000");
    }

    #[test]
    fn tool_error_never_has_structured_content() {
        let s = shaper();
        for v in Version::ALL {
            let r = render(&s.tool_error(v, "bad amount"));
            assert_eq!(r["isError"], true);
            assert_eq!(r["content"], json!([{"type": "text", "text": "bad amount"}]));
            assert_eq!(r.get("structuredContent"), None);
        }
    }
}
