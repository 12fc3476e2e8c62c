//! Era routing and version negotiation, body first (docs/protocol.md §2, §3.5, §4.3).
//!
//! A `_meta` protocolVersion claim means 2026-07-28 and is validated in the checklist's
//! order: version (-32022) → required `_meta` keys (-32602) → `MCP-Protocol-Version`
//! (-32020) → `Mcp-Method` (-32020) → `Mcp-Name` (-32020). Without a claim, `initialize`
//! is the legacy handshake and anything else is legacy under the `MCP-Protocol-Version`
//! header (absent → 2025-03-26). Whether the method exists is decided by dispatch, after this.

use base64::Engine as _;
use dochiya_quote::{cut, quote};
use http::HeaderMap;
use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::{Map, Value};

use crate::error::RpcError;
use crate::version::{META_CLIENT_CAPABILITIES, META_PROTOCOL_VERSION, Version};

/// Header mirroring the protocol version.
pub const PROTOCOL_VERSION_HEADER: &str = "mcp-protocol-version";
/// Header mirroring `method` (modern).
pub const METHOD_HEADER: &str = "mcp-method";
/// Header mirroring `params.name` / `params.uri` (modern).
pub const NAME_HEADER: &str = "mcp-name";

/// The members of `params` the protocol layer reads; everything else stays with the tool.
#[derive(Debug, Default, Deserialize)]
pub(crate) struct ParamsHead {
    #[serde(rename = "_meta")]
    pub meta: Option<Value>,
    pub name: Option<Value>,
    pub uri: Option<Value>,
    #[serde(rename = "protocolVersion")]
    pub protocol_version: Option<Value>,
    pub cursor: Option<Value>,
    pub level: Option<Value>,
    /// A legacy `initialize`'s `ClientCapabilities`.
    pub capabilities: Option<Value>,
    #[serde(default, deserialize_with = "present")]
    pub arguments: Option<Box<RawValue>>,
}

fn present<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Box<RawValue>>, D::Error> {
    Box::<RawValue>::deserialize(d).map(Some)
}

impl ParamsHead {
    /// Read the head of `params` (absent params read as empty).
    pub fn parse(params: Option<&RawValue>) -> Result<Self, RpcError> {
        match params {
            None => Ok(ParamsHead::default()),
            Some(raw) => serde_json::from_str(raw.get())
                .map_err(|e| RpcError::invalid_params(format!("Invalid params: {e}"))),
        }
    }

    fn meta_object(&self) -> Option<&Map<String, Value>> {
        self.meta.as_ref().and_then(Value::as_object)
    }

    /// The client's capabilities as this request carries them: `_meta` on the modern leg,
    /// `params.capabilities` of a legacy `initialize`; no other legacy request has them.
    pub fn client_capabilities(&self, version: Version, method: &str) -> Option<&Value> {
        if version.is_modern() {
            self.meta_object().and_then(|m| m.get(META_CLIENT_CAPABILITIES))
        } else if method == "initialize" {
            self.capabilities.as_ref()
        } else {
            None
        }
    }

    /// The modern claim, if the body makes one.
    pub fn version_claim(&self) -> Option<&Value> {
        self.meta_object().and_then(|m| m.get(META_PROTOCOL_VERSION))
    }
}

/// Policy knobs negotiation needs.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Policy {
    pub strict_version_header: bool,
}

/// Decide the revision a request is served under, or refuse it.
pub(crate) fn negotiate(
    method: &str,
    head: &ParamsHead,
    headers: &HeaderMap,
    policy: Policy,
) -> Result<Version, RpcError> {
    match head.version_claim() {
        Some(claim) => modern(method, claim, head, headers, policy),
        None => legacy(method, head, headers),
    }
}

/// The revision a notification is filed under: no header rules apply to notification POSTs.
pub(crate) fn notification_version(head: &ParamsHead, headers: &HeaderMap) -> Version {
    if head.version_claim().is_some() {
        return Version::V2026_07_28;
    }
    header(headers, PROTOCOL_VERSION_HEADER)
        .ok()
        .flatten()
        .and_then(Version::parse)
        .unwrap_or(Version::V2025_03_26)
}

fn modern(
    method: &str,
    claim: &Value,
    head: &ParamsHead,
    headers: &HeaderMap,
    policy: Policy,
) -> Result<Version, RpcError> {
    let Some(requested) = claim.as_str() else {
        return Err(RpcError::invalid_meta(format!(
            "{META_PROTOCOL_VERSION} must be a string"
        )));
    };
    let version_header = header(headers, PROTOCOL_VERSION_HEADER)
        .map_err(|()| RpcError::header_mismatch("MCP-Protocol-Version is not visible ASCII"))?;
    if let Some(h) = version_header {
        // An unsupported header takes precedence over a mismatch (conformance PR #293).
        if Version::parse(h).is_none() {
            return Err(RpcError::unsupported_version(h));
        }
        // A supported header that disagrees with the body is the spec's -32020. The one
        // tolerance (below) needs a body claim we serve: with `v999` in `_meta` there is
        // nothing to let win, so the mismatch is reported before the unsupported claim.
        let tolerable =
            !policy.strict_version_header && Version::parse(requested) == Some(Version::V2026_07_28);
        if h != requested && !tolerable {
            return Err(mismatch(h, requested));
        }
    }
    if Version::parse(requested) != Some(Version::V2026_07_28) {
        return Err(RpcError::unsupported_version(requested));
    }
    match head.meta_object().and_then(|m| m.get(META_CLIENT_CAPABILITIES)) {
        Some(Value::Object(_)) => {}
        Some(_) => {
            return Err(RpcError::invalid_meta(format!(
                "{META_CLIENT_CAPABILITIES} must be an object"
            )));
        }
        None => {
            return Err(RpcError::invalid_meta(format!(
                "missing required key {META_CLIENT_CAPABILITIES}"
            )));
        }
    }
    match version_header {
        None => {
            return Err(RpcError::header_mismatch(
                "MCP-Protocol-Version header is required",
            ));
        }
        Some(h) if h == requested => {}
        Some(h) => {
            // docs/design.md §2: a widely used client sends exactly this; the body wins.
            tracing::debug!(
                header = h,
                body = requested,
                "tolerated MCP-Protocol-Version naming another supported version"
            );
        }
    }
    match header(headers, METHOD_HEADER) {
        Ok(Some(h)) if h == method => {}
        Ok(Some(h)) => {
            return Err(RpcError::header_mismatch(format!(
                "Mcp-Method {} does not match method {}",
                quote(h),
                quote(method)
            )));
        }
        Ok(None) => return Err(RpcError::header_mismatch("Mcp-Method header is required")),
        Err(()) => return Err(RpcError::header_mismatch("Mcp-Method is not visible ASCII")),
    }
    let named = match method {
        "tools/call" | "prompts/get" => head.name.as_ref(),
        "resources/read" => head.uri.as_ref(),
        _ => None,
    };
    // A missing or non-string name is the body's fault: dispatch answers -32602 for it.
    if let Some(Value::String(body_name)) = named {
        let sent = header(headers, NAME_HEADER)
            .map_err(|()| RpcError::header_mismatch("Mcp-Name is not visible ASCII"))?
            .ok_or_else(|| RpcError::header_mismatch("Mcp-Name header is required"))?;
        let decoded = decode_header_value(sent)
            .ok_or_else(|| RpcError::header_mismatch("Mcp-Name has an invalid =?base64?…?= value"))?;
        if decoded != *body_name {
            return Err(RpcError::header_mismatch(format!(
                "Mcp-Name does not match the body's {}",
                quote(body_name)
            )));
        }
    }
    Ok(Version::V2026_07_28)
}

fn mismatch(header: &str, body: &str) -> RpcError {
    RpcError::header_mismatch(format!(
        "MCP-Protocol-Version {} does not match _meta protocolVersion {}",
        cut(header),
        cut(body)
    ))
}

fn legacy(method: &str, head: &ParamsHead, headers: &HeaderMap) -> Result<Version, RpcError> {
    if method == "initialize" {
        // The handshake never fails on versions: the body's request is answered by a counter-offer.
        return Ok(offer(head));
    }
    let value = header(headers, PROTOCOL_VERSION_HEADER)
        .map_err(|()| RpcError::unsupported_legacy_header("<not visible ASCII>"))?;
    match value {
        None => Ok(Version::V2025_03_26),
        Some(v) => match Version::parse(v) {
            Some(Version::V2026_07_28) => Err(RpcError::invalid_meta(format!(
                "MCP-Protocol-Version is 2026-07-28 but params._meta has no {META_PROTOCOL_VERSION}"
            ))),
            Some(version) => Ok(version),
            None => Err(RpcError::unsupported_legacy_header(v)),
        },
    }
}

/// The legacy `initialize` answer: the requested revision if it is a legacy one we serve,
/// otherwise 2025-11-25 (never 2026-07-28, never an error).
pub(crate) fn offer(head: &ParamsHead) -> Version {
    let requested = head.protocol_version.as_ref().and_then(Value::as_str);
    match requested.and_then(Version::parse) {
        Some(v) if !v.is_modern() => v,
        _ => {
            tracing::debug!(requested = ?requested, "initialize: counter-offering the latest legacy revision");
            Version::LATEST_LEGACY
        }
    }
}

/// A header's value with optional whitespace trimmed; `Err` when it is not visible ASCII.
fn header<'h>(headers: &'h HeaderMap, name: &str) -> Result<Option<&'h str>, ()> {
    match headers.get(name) {
        None => Ok(None),
        Some(v) => v.to_str().map(|s| Some(s.trim())).map_err(|_| ()),
    }
}

/// Undo the SEP-2243 `=?base64?<base64 of UTF-8>?=` encoding; plain values pass through.
fn decode_header_value(value: &str) -> Option<String> {
    match value.strip_prefix("=?base64?").and_then(|v| v.strip_suffix("?=")) {
        None => Some(value.to_owned()),
        Some(encoded) => {
            let bytes = base64::engine::general_purpose::STANDARD.decode(encoded).ok()?;
            String::from_utf8(bytes).ok()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use http::HeaderValue;
    use serde_json::json;

    const LENIENT: Policy = Policy {
        strict_version_header: false,
    };
    const STRICT: Policy = Policy {
        strict_version_header: true,
    };

    fn head(params: Value) -> ParamsHead {
        let raw = serde_json::value::to_raw_value(&params).unwrap();
        ParamsHead::parse(Some(&raw)).unwrap()
    }

    fn modern_params(extra: Value) -> ParamsHead {
        let mut p = json!({"_meta": {META_PROTOCOL_VERSION: "2026-07-28", META_CLIENT_CAPABILITIES: {}}});
        if let (Some(p), Value::Object(extra)) = (p.as_object_mut(), extra) {
            p.extend(extra);
        }
        head(p)
    }

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.append(*k, HeaderValue::from_str(v).unwrap());
        }
        h
    }

    fn err(r: Result<Version, RpcError>) -> (u16, i32, String, Option<Value>) {
        match r {
            Err(e) => (e.status.as_u16(), e.code, e.message.into_owned(), e.data),
            Ok(v) => panic!("expected an error, got {v:?}"),
        }
    }

    const GOOD: [(&str, &str); 2] = [
        ("MCP-Protocol-Version", "2026-07-28"),
        ("Mcp-Method", "tools/list"),
    ];

    #[test]
    fn a_well_formed_modern_request_is_2026() {
        assert_eq!(
            negotiate("tools/list", &modern_params(json!({})), &headers(&GOOD), LENIENT).ok(),
            Some(Version::V2026_07_28)
        );
    }

    #[test]
    fn unsupported_meta_version_is_32022_with_supported_and_requested() {
        // The header agrees with the body (or is absent): the claim itself is refused.
        let p = head(json!({"_meta": {META_PROTOCOL_VERSION: "2099-01-01", META_CLIENT_CAPABILITIES: {}}}));
        let h = headers(&[("mcp-method", "tools/list")]);
        let (status, code, _, data) = err(negotiate("tools/list", &p, &h, LENIENT));
        assert_eq!((status, code), (400, -32022));
        assert_eq!(
            data,
            Some(json!({"supported": ["2026-07-28"], "requested": "2099-01-01"}))
        );
        // A legacy revision claimed in _meta (and in the header) is not a modern version either.
        let p = head(json!({"_meta": {META_PROTOCOL_VERSION: "2025-11-25", META_CLIENT_CAPABILITIES: {}}}));
        let h = headers(&[
            ("mcp-protocol-version", "2025-11-25"),
            ("mcp-method", "tools/list"),
        ]);
        let (_, code, _, data) = err(negotiate("tools/list", &p, &h, LENIENT));
        assert_eq!(code, -32022);
        assert_eq!(data.map(|d| d["requested"].clone()), Some(json!("2025-11-25")));
    }

    #[test]
    fn unsupported_header_takes_precedence_over_mismatch() {
        let h = headers(&[
            ("mcp-protocol-version", "1999-01-01"),
            ("mcp-method", "tools/list"),
        ]);
        let (status, code, _, data) = err(negotiate("tools/list", &modern_params(json!({})), &h, STRICT));
        assert_eq!((status, code), (400, -32022));
        assert_eq!(
            data,
            Some(json!({"supported": ["2026-07-28"], "requested": "1999-01-01"}))
        );
    }

    #[test]
    fn a_mismatch_beats_an_unsupported_body_version_in_both_modes() {
        // conformance sep-2575-http-server-header-mismatch-400: body v999.0.0, header 2026-07-28.
        let p = head(json!({"_meta": {META_PROTOCOL_VERSION: "v999.0.0", META_CLIENT_CAPABILITIES: {}}}));
        let h = headers(&[
            ("mcp-protocol-version", "2026-07-28"),
            ("mcp-method", "server/discover"),
        ]);
        for policy in [STRICT, LENIENT] {
            let (status, code, msg, _) = err(negotiate("server/discover", &p, &h, policy));
            assert_eq!((status, code), (400, -32020));
            assert_eq!(
                msg,
                "Header mismatch: MCP-Protocol-Version 2026-07-28 does not match _meta protocolVersion v999.0.0"
            );
        }
        // Same versions in both: unsupported in either mode.
        let h = headers(&[
            ("mcp-protocol-version", "2025-11-25"),
            ("mcp-method", "server/discover"),
        ]);
        let p = head(json!({"_meta": {META_PROTOCOL_VERSION: "2025-11-25", META_CLIENT_CAPABILITIES: {}}}));
        assert_eq!(err(negotiate("server/discover", &p, &h, STRICT)).1, -32022);
    }

    #[test]
    fn missing_client_capabilities_is_400_32602() {
        let p = head(json!({"_meta": {META_PROTOCOL_VERSION: "2026-07-28"}}));
        let (status, code, msg, _) = err(negotiate("tools/list", &p, &headers(&GOOD), LENIENT));
        assert_eq!((status, code), (400, -32602));
        assert_eq!(
            msg,
            "Invalid _meta: missing required key io.modelcontextprotocol/clientCapabilities"
        );
        let p = head(json!({"_meta": {META_PROTOCOL_VERSION: 20260728, META_CLIENT_CAPABILITIES: {}}}));
        assert_eq!(
            err(negotiate("tools/list", &p, &headers(&GOOD), LENIENT)).1,
            -32602
        );
        let p = head(json!({"_meta": {META_PROTOCOL_VERSION: "2026-07-28", META_CLIENT_CAPABILITIES: []}}));
        assert_eq!(
            err(negotiate("tools/list", &p, &headers(&GOOD), LENIENT)).1,
            -32602
        );
    }

    #[test]
    fn client_info_is_optional() {
        assert!(negotiate("tools/list", &modern_params(json!({})), &headers(&GOOD), STRICT).is_ok());
    }

    #[test]
    fn missing_version_header_is_32020() {
        let h = headers(&[("mcp-method", "tools/list")]);
        let (status, code, msg, _) = err(negotiate("tools/list", &modern_params(json!({})), &h, LENIENT));
        assert_eq!(
            (status, code, msg.as_str()),
            (
                400,
                -32020,
                "Header mismatch: MCP-Protocol-Version header is required"
            )
        );
    }

    #[test]
    fn different_supported_header_is_tolerated_unless_strict() {
        let h = headers(&[
            ("mcp-protocol-version", "2025-11-25"),
            ("mcp-method", "tools/list"),
        ]);
        assert_eq!(
            negotiate("tools/list", &modern_params(json!({})), &h, LENIENT).ok(),
            Some(Version::V2026_07_28)
        );
        let (status, code, msg, _) = err(negotiate("tools/list", &modern_params(json!({})), &h, STRICT));
        assert_eq!((status, code), (400, -32020));
        assert_eq!(
            msg,
            "Header mismatch: MCP-Protocol-Version 2025-11-25 does not match _meta protocolVersion 2026-07-28"
        );
    }

    #[test]
    fn method_header_names_are_case_insensitive_values_are_not() {
        let p = modern_params(json!({}));
        for name in ["mcp-method", "MCP-METHOD", "Mcp-Method"] {
            let h = headers(&[("mcp-protocol-version", "2026-07-28"), (name, "  tools/list ")]);
            assert!(negotiate("tools/list", &p, &h, STRICT).is_ok(), "{name}");
        }
        let h = headers(&[
            ("mcp-protocol-version", "2026-07-28"),
            ("mcp-method", "TOOLS/LIST"),
        ]);
        assert_eq!(err(negotiate("tools/list", &p, &h, STRICT)).1, -32020);
        let h = headers(&[("mcp-protocol-version", "2026-07-28")]);
        assert_eq!(
            err(negotiate("tools/list", &p, &h, STRICT)).2,
            "Header mismatch: Mcp-Method header is required"
        );
    }

    #[test]
    fn name_header_for_tools_call_plain_trimmed_and_base64() {
        let p = modern_params(json!({"name": "record_transaction"}));
        let base = [
            ("mcp-protocol-version", "2026-07-28"),
            ("mcp-method", "tools/call"),
        ];
        let ok = |name: &str| {
            let mut h = headers(&base);
            h.insert(NAME_HEADER, HeaderValue::from_str(name).unwrap());
            negotiate("tools/call", &p, &h, STRICT)
        };
        assert!(ok("record_transaction").is_ok());
        assert!(ok("  record_transaction  ").is_ok());
        assert!(ok("=?base64?cmVjb3JkX3RyYW5zYWN0aW9u?=").is_ok());
        assert_eq!(err(ok("other_tool")).1, -32020);
        assert_eq!(
            err(ok("=?base64?!!!?=")).2,
            "Header mismatch: Mcp-Name has an invalid =?base64?…?= value"
        );
        assert_eq!(
            err(negotiate("tools/call", &p, &headers(&base), STRICT)).2,
            "Header mismatch: Mcp-Name header is required"
        );
    }

    #[test]
    fn non_ascii_name_travels_base64() {
        let p = modern_params(json!({"name": "식비"}));
        let encoded = format!(
            "=?base64?{}?=",
            base64::engine::general_purpose::STANDARD.encode("식비")
        );
        let h = headers(&[
            ("mcp-protocol-version", "2026-07-28"),
            ("mcp-method", "tools/call"),
            ("mcp-name", &encoded),
        ]);
        assert!(negotiate("tools/call", &p, &h, STRICT).is_ok());
    }

    #[test]
    fn legacy_uses_the_header_defaulting_to_2025_03_26() {
        let p = head(json!({}));
        assert_eq!(
            negotiate("tools/list", &p, &HeaderMap::new(), LENIENT).ok(),
            Some(Version::V2025_03_26)
        );
        let h = headers(&[("mcp-protocol-version", "2025-06-18")]);
        assert_eq!(
            negotiate("tools/list", &p, &h, LENIENT).ok(),
            Some(Version::V2025_06_18)
        );
        let h = headers(&[("mcp-protocol-version", "2024-11-05")]);
        let (status, code, _, data) = err(negotiate("tools/list", &p, &h, LENIENT));
        assert_eq!((status, code), (400, -32600));
        assert_eq!(data.map(|d| d["requested"].clone()), Some(json!("2024-11-05")));
    }

    #[test]
    fn modern_header_without_a_claim_is_400_32602() {
        let h = headers(&[("mcp-protocol-version", "2026-07-28")]);
        let (status, code, msg, _) = err(negotiate("tools/list", &head(json!({})), &h, LENIENT));
        assert_eq!((status, code), (400, -32602));
        assert_eq!(
            msg,
            "Invalid _meta: MCP-Protocol-Version is 2026-07-28 but params._meta has no io.modelcontextprotocol/protocolVersion"
        );
    }

    #[test]
    fn initialize_counter_offers_and_ignores_the_header() {
        let h = headers(&[("mcp-protocol-version", "2026-07-28")]);
        for (asked, offered) in [
            (json!("2025-06-18"), Version::V2025_06_18),
            (json!("2025-03-26"), Version::V2025_03_26),
            (json!("2026-07-28"), Version::V2025_11_25),
            (json!("2024-11-05"), Version::V2025_11_25),
            (json!(7), Version::V2025_11_25),
        ] {
            let p = head(json!({"protocolVersion": asked}));
            assert_eq!(
                negotiate("initialize", &p, &h, STRICT).ok(),
                Some(offered),
                "{asked}"
            );
        }
        assert_eq!(
            negotiate("initialize", &ParamsHead::default(), &h, STRICT).ok(),
            Some(Version::V2025_11_25)
        );
    }

    #[test]
    fn modern_claim_on_initialize_stays_modern() {
        let h = headers(&[
            ("mcp-protocol-version", "2026-07-28"),
            ("mcp-method", "initialize"),
        ]);
        assert_eq!(
            negotiate("initialize", &modern_params(json!({})), &h, STRICT).ok(),
            Some(Version::V2026_07_28)
        );
    }
}
