//! The JSON-RPC 2.0 envelope: reading messages without losing a byte of `id` or `params`,
//! and writing responses.
//!
//! `id` and `params` stay [`RawValue`]s: the id is echoed exactly as sent (`1`, `1.0` and
//! `"1"` are different ids) and tool arguments reach tools as the client's own text, so
//! money is never read through `f64`.

use std::fmt;

use serde::de::{SeqAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::value::RawValue;

use crate::error::RpcError;

/// The most messages one batch may hold. Checked while the array is read, before any
/// member is looked at: a 1 MB body of `[1,1,…]` is half a million members, each of
/// which would otherwise get its own span, work and answer (docs/protocol.md §2).
pub const MAX_BATCH_MESSAGES: usize = 100;

/// The body's top level: one message or a (2025-03-26) batch.
#[derive(Debug)]
pub(crate) enum Body<'a> {
    Single(&'a RawValue),
    Batch(Vec<&'a RawValue>),
}

/// Parse the body as JSON; anything that is not JSON is -32700, a batch of more than
/// [`MAX_BATCH_MESSAGES`] is one -32600.
pub(crate) fn parse_body(text: &str) -> Result<Body<'_>, RpcError> {
    let raw: &RawValue = serde_json::from_str(text).map_err(RpcError::parse_error)?;
    if raw.get().starts_with('[') {
        let mut de = serde_json::Deserializer::from_str(raw.get());
        match de.deserialize_seq(Members) {
            Ok(items) => Ok(Body::Batch(items)),
            Err(e) if e.to_string().starts_with(TOO_MANY) => Err(RpcError::invalid_request(format!(
                "a batch may hold at most {MAX_BATCH_MESSAGES} messages; send the rest in further requests"
            ))),
            Err(e) => Err(RpcError::parse_error(e)),
        }
    } else {
        Ok(Body::Single(raw))
    }
}

/// Reads a batch's members as raw text, stopping at the first one past the limit.
struct Members;

impl<'de> Visitor<'de> for Members {
    type Value = Vec<&'de RawValue>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "an array of at most {MAX_BATCH_MESSAGES} messages")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element::<&'de RawValue>()? {
            if items.len() == MAX_BATCH_MESSAGES {
                return Err(serde::de::Error::custom(TOO_MANY));
            }
            items.push(item);
        }
        Ok(items)
    }
}

// The marker of the limit's error (serde_json adds the position after it).
const TOO_MANY: &str = "too many batch members";

/// One valid incoming message.
#[derive(Debug)]
pub(crate) enum Message {
    /// Has an `id`: must be answered.
    Request {
        id: Box<RawValue>,
        method: String,
        params: Option<Box<RawValue>>,
    },
    /// No `id`: answered with 202 and no body.
    Notification {
        method: String,
        params: Option<Box<RawValue>>,
    },
    /// A response the client posted (to a server request we never send): accepted and dropped.
    Response,
}

impl Message {
    /// The method name, when the message has one.
    pub fn method(&self) -> Option<&str> {
        match self {
            Message::Request { method, .. } | Message::Notification { method, .. } => Some(method),
            Message::Response => None,
        }
    }

    /// The raw params, when present.
    pub fn params(&self) -> Option<&RawValue> {
        match self {
            Message::Request { params, .. } | Message::Notification { params, .. } => params.as_deref(),
            Message::Response => None,
        }
    }
}

/// A message that failed envelope validation, with the id when it could be read.
#[derive(Debug)]
pub(crate) struct InvalidMessage {
    pub id: Option<Box<RawValue>>,
    pub error: RpcError,
}

// Every member is kept raw, and `present` tells an absent key from an explicit `null`.
#[derive(Deserialize)]
struct Envelope {
    #[serde(default, deserialize_with = "present")]
    jsonrpc: Option<Box<RawValue>>,
    #[serde(default, deserialize_with = "present")]
    id: Option<Box<RawValue>>,
    #[serde(default, deserialize_with = "present")]
    method: Option<Box<RawValue>>,
    #[serde(default, deserialize_with = "present")]
    params: Option<Box<RawValue>>,
    #[serde(default, deserialize_with = "present")]
    result: Option<Box<RawValue>>,
    #[serde(default, deserialize_with = "present")]
    error: Option<Box<RawValue>>,
}

fn present<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Box<RawValue>>, D::Error> {
    Box::<RawValue>::deserialize(d).map(Some)
}

/// Validate one message's envelope (-32600 on any violation).
pub(crate) fn parse_message(raw: &RawValue) -> Result<Message, InvalidMessage> {
    let invalid = |id: Option<Box<RawValue>>, detail: &str| InvalidMessage {
        id,
        error: RpcError::invalid_request(detail),
    };
    if !raw.get().starts_with('{') {
        return Err(invalid(None, "a message must be a JSON object"));
    }
    let env: Envelope =
        serde_json::from_str(raw.get()).map_err(|e| invalid(None, &format!("malformed message: {e}")))?;

    // The id is read first so that every later error can echo it.
    let id = match env.id {
        None => None,
        Some(id) if is_valid_id(&id) => Some(id),
        Some(_) => return Err(invalid(None, "id must be a string or a number")),
    };
    match env.jsonrpc.as_deref().map(RawValue::get) {
        Some("\"2.0\"") => {}
        _ => return Err(invalid(id, "jsonrpc must be \"2.0\"")),
    }
    let Some(method) = env.method else {
        if id.is_some() && (env.result.is_some() || env.error.is_some()) {
            return Ok(Message::Response);
        }
        return Err(invalid(id, "method is required"));
    };
    let Ok(method) = serde_json::from_str::<String>(method.get()) else {
        return Err(invalid(id, "method must be a string"));
    };
    let params = match env.params {
        Some(p) if p.get() == "null" => None,
        Some(p) if !p.get().starts_with('{') => return Err(invalid(id, "params must be an object")),
        other => other,
    };
    Ok(match id {
        Some(id) => Message::Request { id, method, params },
        None => Message::Notification { method, params },
    })
}

/// The id of a single request in `body`, if it has a readable one (for answers the gate
/// gives before the envelope is read: 403, 415, 400).
pub(crate) fn peek_id(body: &[u8]) -> Option<Box<RawValue>> {
    let text = std::str::from_utf8(body).ok()?;
    let raw: &RawValue = serde_json::from_str(text).ok()?;
    match parse_message(raw) {
        Ok(Message::Request { id, .. }) => Some(id),
        Ok(_) => None,
        Err(invalid) => invalid.id,
    }
}

// MCP ids are strings or numbers; JSON-RPC's `null` id is not allowed for requests.
fn is_valid_id(id: &RawValue) -> bool {
    matches!(id.get().as_bytes().first(), Some(b'"' | b'-' | b'0'..=b'9'))
}

#[derive(Serialize)]
struct ErrorObject<'a> {
    code: i32,
    message: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    data: Option<&'a serde_json::Value>,
}

/// A JSON-RPC error response; `id` is omitted (not `null`) when it could not be read (schema.json).
#[derive(Serialize)]
pub(crate) struct ErrorResponse<'a> {
    jsonrpc: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    id: Option<&'a RawValue>,
    error: ErrorObject<'a>,
}

impl<'a> ErrorResponse<'a> {
    pub fn new(id: Option<&'a RawValue>, error: &'a RpcError) -> Self {
        ErrorResponse {
            jsonrpc: "2.0",
            id,
            error: ErrorObject {
                code: error.code,
                message: &error.message,
                data: error.data.as_ref(),
            },
        }
    }
}

/// A JSON-RPC success response around an already shaped result.
#[derive(Serialize)]
pub(crate) struct ResultResponse<'a, R: Serialize> {
    jsonrpc: &'static str,
    id: &'a RawValue,
    result: &'a R,
}

impl<'a, R: Serialize> ResultResponse<'a, R> {
    pub fn new(id: &'a RawValue, result: &'a R) -> Self {
        ResultResponse {
            jsonrpc: "2.0",
            id,
            result,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn msg(text: &str) -> Result<Message, InvalidMessage> {
        let raw: &RawValue = serde_json::from_str(text).map_err(|_| InvalidMessage {
            id: None,
            error: RpcError::parse_error("test"),
        })?;
        parse_message(raw)
    }

    fn invalid(text: &str) -> (Option<String>, String) {
        match msg(text) {
            Err(e) => {
                assert_eq!(e.error.code, -32600);
                (e.id.map(|i| i.get().to_owned()), e.error.message.into_owned())
            }
            Ok(m) => panic!("expected invalid, got {m:?}"),
        }
    }

    #[test]
    fn a_batch_over_the_limit_is_one_short_error_before_any_member_is_read() {
        let at_limit = format!("[{}]", vec!["1"; MAX_BATCH_MESSAGES].join(","));
        match parse_body(&at_limit) {
            Ok(Body::Batch(items)) => assert_eq!(items.len(), MAX_BATCH_MESSAGES),
            other => panic!("{other:?}"),
        }
        // Half a million members: reading stops at the 101st.
        let huge = format!("[{}]", vec!["1"; 500_000].join(","));
        for body in [format!("[{}]", vec!["1"; MAX_BATCH_MESSAGES + 1].join(",")), huge] {
            let error = parse_body(&body).unwrap_err();
            assert_eq!(error.code, -32600);
            assert_eq!(
                error.message,
                "Invalid request: a batch may hold at most 100 messages; send the rest in further requests"
            );
        }
        // Not JSON at all is still a parse error.
        assert_eq!(parse_body("[1,").unwrap_err().code, -32700);
    }

    #[test]
    fn request_keeps_id_and_params_as_exact_text() {
        let m = msg(
            r#"{"jsonrpc":"2.0","id":1.50,"method":"tools/call","params":{"a":12345678901234567890.10}}"#,
        );
        match m {
            Ok(Message::Request { id, method, params }) => {
                assert_eq!(id.get(), "1.50");
                assert_eq!(method, "tools/call");
                assert_eq!(
                    params.map(|p| p.get().to_owned()).as_deref(),
                    Some(r#"{"a":12345678901234567890.10}"#)
                );
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn notification_has_no_id_and_null_params_are_absent() {
        match msg(r#"{"jsonrpc":"2.0","method":"notifications/initialized","params":null}"#) {
            Ok(Message::Notification { method, params }) => {
                assert_eq!(method, "notifications/initialized");
                assert!(params.is_none());
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn peek_id_reads_a_request_id_or_nothing() {
        assert_eq!(
            peek_id(br#"{"jsonrpc":"2.0","id":"a","method":"ping"}"#).map(|i| i.get().to_owned()),
            Some("\"a\"".into())
        );
        assert!(peek_id(br#"{"jsonrpc":"2.0","method":"ping"}"#).is_none());
        assert!(peek_id(b"not json").is_none());
        assert!(peek_id(b"[1]").is_none());
    }

    #[test]
    fn posted_response_is_recognised() {
        assert!(matches!(
            msg(r#"{"jsonrpc":"2.0","id":"s1","result":{}}"#),
            Ok(Message::Response)
        ));
    }

    #[test]
    fn envelope_violations_are_32600_with_id_when_readable() {
        assert_eq!(invalid(r#"{"jsonrpc":"2.0","id":null,"method":"ping"}"#).0, None);
        assert_eq!(invalid(r#"{"jsonrpc":"2.0","id":true,"method":"ping"}"#).0, None);
        assert_eq!(
            invalid(r#"{"jsonrpc":"1.0","id":7,"method":"ping"}"#),
            (
                Some("7".into()),
                "Invalid request: jsonrpc must be \"2.0\"".into()
            )
        );
        assert_eq!(
            invalid(r#"{"jsonrpc":"2.0","id":"a"}"#),
            (Some("\"a\"".into()), "Invalid request: method is required".into())
        );
        assert_eq!(
            invalid(r#"{"jsonrpc":"2.0","id":2,"method":5}"#),
            (
                Some("2".into()),
                "Invalid request: method must be a string".into()
            )
        );
        assert_eq!(
            invalid(r#"{"jsonrpc":"2.0","id":3,"method":"ping","params":[1]}"#),
            (
                Some("3".into()),
                "Invalid request: params must be an object".into()
            )
        );
        assert_eq!(
            invalid("42").1,
            "Invalid request: a message must be a JSON object"
        );
    }

    #[test]
    fn body_is_single_or_batch_and_garbage_is_32700() {
        assert!(matches!(parse_body(r#" {"a":1} "#), Ok(Body::Single(_))));
        match parse_body(r#"[{"a":1}, 2]"#) {
            Ok(Body::Batch(items)) => assert_eq!(items.len(), 2),
            other => panic!("{other:?}"),
        }
        let err = parse_body("{").err().map(|e| (e.code, e.status.as_u16()));
        assert_eq!(err, Some((-32700, 400)));
    }

    #[test]
    fn error_response_omits_unknown_id() {
        let e = RpcError::parse_error("x");
        let text = serde_json::to_string(&ErrorResponse::new(None, &e)).unwrap_or_default();
        assert_eq!(
            text,
            r#"{"jsonrpc":"2.0","error":{"code":-32700,"message":"Parse error: x"}}"#
        );
    }
}
