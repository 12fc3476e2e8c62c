//! Every record the authorization server keeps, as items of the ledger's `Store`, in
//! partitions of its own: every key starts `AS#`, which no ledger key (`P#`, `V#`) can
//! (docs/keys.md). Secrets are stored only as hashes; every item carries a TTL.
//!
//! Each record type owns its key function; reads check expiry themselves because
//! DynamoDB deletes expired items lazily.

use std::collections::BTreeMap;

use dochiya_store::{Attrs, Condition, Guard, Item, Key, Store, StoreError, TTL_ATTRIBUTE, Value, WriteOp};

/// `AS#REQ#<id>` / `R`: an authorization request between `/authorize` and the code.
pub fn request_key(id: &str) -> Key {
    Key::new(format!("AS#REQ#{id}"), "R")
}
/// `AS#CODE#<hash(code)>` / `C`: an unused authorization code.
pub fn code_key(code_hash: &str) -> Key {
    Key::new(format!("AS#CODE#{code_hash}"), "C")
}
/// `AS#CODE#<hash(code)>` / `U`: the code was redeemed, and for which family (reuse revokes it).
pub fn used_code_key(code_hash: &str) -> Key {
    Key::new(format!("AS#CODE#{code_hash}"), "U")
}
/// `AS#FAM#<sid>` / `F`: a refresh-token family (one sign-in of one client).
pub fn family_key(sid: &str) -> Key {
    Key::new(format!("AS#FAM#{sid}"), "F")
}
/// `AS#CLIENT#<client_id>` / `R`: a dynamically registered client.
pub fn client_key(client_id: &str) -> Key {
    Key::new(format!("AS#CLIENT#{client_id}"), "R")
}
/// `AS#CONSENT#<hash(sub)>` / `<hash(client_id)>`: a remembered consent.
pub fn consent_key(sub: &str, client_id: &str) -> Key {
    Key::new(consent_partition(sub), crate::web::hash(client_id))
}
/// `AS#CONSENT#<hash(sub)>`: every consent a person gave.
pub fn consent_partition(sub: &str) -> String {
    format!("AS#CONSENT#{}", crate::web::hash(sub))
}
/// Sort-key prefix of a person's grant index items.
pub const GRANT_PREFIX: &str = "FAM#";
/// `AS#WHO#<hash(sub)>`: the index of a person's refresh families and account sessions
/// (`forget`).
pub fn person_grants_partition(sub: &str) -> String {
    format!("AS#WHO#{}", crate::web::hash(sub))
}
/// Sort-key prefix of a person's account-page sessions in their index.
pub const SESSION_PREFIX: &str = "SES#";
/// `AS#WHO#<hash(sub)>` / `SES#<hash(token)>`: one account-page session of a person.
pub fn person_session_key(sub: &str, token_hash: &str) -> Key {
    Key::new(
        person_grants_partition(sub),
        format!("{SESSION_PREFIX}{token_hash}"),
    )
}
/// `AS#WHO#<hash(sub)>` / `FAM#<sid>`: one refresh family of a person, expiring with it.
pub fn person_grant_key(sub: &str, sid: &str) -> Key {
    Key::new(person_grants_partition(sub), format!("{GRANT_PREFIX}{sid}"))
}
/// `AS#RATE` / `DCR#<hour>`: registrations counted in one clock hour.
pub fn registration_rate_key(hour: i64) -> Key {
    Key::new("AS#RATE", format!("DCR#{hour}"))
}

/// Text attribute.
pub fn s(attrs: &Attrs, name: &str) -> Option<String> {
    match attrs.get(name) {
        Some(Value::S(v)) => Some(v.clone()),
        _ => None,
    }
}
/// Integer attribute.
pub fn n(attrs: &Attrs, name: &str) -> Option<i64> {
    match attrs.get(name) {
        Some(Value::N(v)) => Some(*v),
        _ => None,
    }
}

/// Attributes from pairs; `None` values are left out.
pub fn attrs(pairs: &[(&str, Option<Value>)]) -> Attrs {
    pairs
        .iter()
        .filter_map(|(k, v)| v.clone().map(|v| ((*k).to_owned(), v)))
        .collect::<BTreeMap<_, _>>()
}

/// A text value.
pub fn text(v: &str) -> Option<Value> {
    Some(Value::S(v.to_owned()))
}

/// Where an authorization request stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    /// Waiting for the person to sign in (local page or upstream).
    SignIn,
    /// Signed in, waiting for Allow / Deny.
    Consent,
    /// A code was issued or the person said no: nothing more may happen.
    Done,
}

impl Stage {
    fn as_str(self) -> &'static str {
        match self {
            Stage::SignIn => "signin",
            Stage::Consent => "consent",
            Stage::Done => "done",
        }
    }
    fn parse(s: &str) -> Option<Self> {
        match s {
            "signin" => Some(Stage::SignIn),
            "consent" => Some(Stage::Consent),
            "done" => Some(Stage::Done),
            _ => None,
        }
    }
}

/// A validated authorization request, waiting for sign-in and consent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PendingRequest {
    /// Random id (the browser carries it in the URL).
    pub id: String,
    /// The client.
    pub client_id: String,
    /// The client's display name (self-asserted).
    pub client_name: String,
    /// The exact redirect URI of the request.
    pub redirect_uri: String,
    /// The client's `state`, passed back.
    pub state: Option<String>,
    /// PKCE S256 challenge.
    pub challenge: String,
    /// The resource (the MCP URL).
    pub resource: String,
    /// Granted scopes, space-separated, in advertised order.
    pub scope: String,
    /// Hash of the browser-binding cookie that started it.
    pub binding: String,
    /// Anti-CSRF token the pages' forms must echo.
    pub csrf: String,
    /// Where it stands.
    pub stage: Stage,
    /// The person, once signed in.
    pub sub: Option<String>,
    /// Their display name.
    pub name: Option<String>,
    /// Upstream `state` (hash), nonce and PKCE verifier, while signing in upstream.
    pub upstream_state: Option<String>,
    /// Upstream nonce.
    pub nonce: Option<String>,
    /// Upstream PKCE verifier.
    pub upstream_verifier: Option<String>,
    /// Epoch seconds.
    pub expires_at: i64,
}

impl PendingRequest {
    /// As a store item.
    pub fn item(&self) -> Item {
        Item {
            key: request_key(&self.id),
            attrs: attrs(&[
                ("clientId", text(&self.client_id)),
                ("clientName", text(&self.client_name)),
                ("redirectUri", text(&self.redirect_uri)),
                ("state", self.state.as_deref().and_then(text)),
                ("challenge", text(&self.challenge)),
                ("resource", text(&self.resource)),
                ("scope", text(&self.scope)),
                ("binding", text(&self.binding)),
                ("csrf", text(&self.csrf)),
                ("stage", text(self.stage.as_str())),
                ("sub", self.sub.as_deref().and_then(text)),
                ("name", self.name.as_deref().and_then(text)),
                ("upstreamState", self.upstream_state.as_deref().and_then(text)),
                ("nonce", self.nonce.as_deref().and_then(text)),
                (
                    "upstreamVerifier",
                    self.upstream_verifier.as_deref().and_then(text),
                ),
                (TTL_ATTRIBUTE, Some(Value::N(self.expires_at))),
            ]),
        }
    }

    /// From a store item (None if malformed).
    pub fn from_item(id: &str, a: &Attrs) -> Option<Self> {
        Some(PendingRequest {
            id: id.to_owned(),
            client_id: s(a, "clientId")?,
            client_name: s(a, "clientName")?,
            redirect_uri: s(a, "redirectUri")?,
            state: s(a, "state"),
            challenge: s(a, "challenge")?,
            resource: s(a, "resource")?,
            scope: s(a, "scope")?,
            binding: s(a, "binding")?,
            csrf: s(a, "csrf")?,
            stage: Stage::parse(&s(a, "stage")?)?,
            sub: s(a, "sub"),
            name: s(a, "name"),
            upstream_state: s(a, "upstreamState"),
            nonce: s(a, "nonce"),
            upstream_verifier: s(a, "upstreamVerifier"),
            expires_at: n(a, TTL_ATTRIBUTE)?,
        })
    }

    /// Read a live request.
    pub async fn load(store: &dyn Store, id: &str, now: i64) -> Result<Option<Self>, StoreError> {
        if !crate::web::looks_like_token(id) {
            return Ok(None);
        }
        let Some(item) = store.get(&request_key(id)).await? else {
            return Ok(None);
        };
        Ok(Self::from_item(id, &item.attrs).filter(|r| r.expires_at > now))
    }

    /// Store it as the next stage, only if it is still at `from` (one step at a time:
    /// a replayed sign-in callback or a second consent post finds it moved on).
    pub async fn advance(&self, store: &dyn Store, from: Stage) -> Result<bool, StoreError> {
        let op = WriteOp::Put {
            item: self.item(),
            guard: Some(Guard::new(
                "request-stage",
                Condition::AttrEquals("stage".into(), Value::S(from.as_str().into())),
            )),
        };
        match store.write(vec![op]).await {
            Ok(()) => Ok(true),
            Err(StoreError::ConditionFailed { .. }) => Ok(false),
            Err(e) => Err(e),
        }
    }
}

/// An unused authorization code and everything it is bound to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CodeRecord {
    /// The client it was issued to.
    pub client_id: String,
    /// The redirect URI of the request.
    pub redirect_uri: String,
    /// PKCE S256 challenge.
    pub challenge: String,
    /// The resource.
    pub resource: String,
    /// Granted scopes.
    pub scope: String,
    /// The person.
    pub sub: String,
    /// Display name.
    pub name: Option<String>,
    /// The refresh family this code will start (known now, so a reuse can revoke it):
    /// the hash of `family_secret`.
    pub sid: String,
    /// The family secret the refresh tokens will carry (kept only until redemption).
    pub family_secret: String,
    /// Epoch seconds.
    pub expires_at: i64,
}

impl CodeRecord {
    /// As attributes.
    pub fn attrs(&self) -> Attrs {
        attrs(&[
            ("clientId", text(&self.client_id)),
            ("redirectUri", text(&self.redirect_uri)),
            ("challenge", text(&self.challenge)),
            ("resource", text(&self.resource)),
            ("scope", text(&self.scope)),
            ("sub", text(&self.sub)),
            ("name", self.name.as_deref().and_then(text)),
            ("sid", text(&self.sid)),
            ("familySecret", text(&self.family_secret)),
            (TTL_ATTRIBUTE, Some(Value::N(self.expires_at))),
        ])
    }

    /// From attributes.
    pub fn from_attrs(a: &Attrs) -> Option<Self> {
        Some(CodeRecord {
            client_id: s(a, "clientId")?,
            redirect_uri: s(a, "redirectUri")?,
            challenge: s(a, "challenge")?,
            resource: s(a, "resource")?,
            scope: s(a, "scope")?,
            sub: s(a, "sub")?,
            name: s(a, "name"),
            sid: s(a, "sid")?,
            family_secret: s(a, "familySecret")?,
            expires_at: n(a, TTL_ATTRIBUTE)?,
        })
    }
}

/// A refresh-token family: one grant to one client, rotated on every use.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Family {
    /// Family id as stored (hash of the secret family id inside the refresh tokens).
    pub sid: String,
    /// The client.
    pub client_id: String,
    /// The person.
    pub sub: String,
    /// Display name.
    pub name: Option<String>,
    /// Granted scopes (a refresh may narrow, never widen).
    pub scope: String,
    /// The resource.
    pub resource: String,
    /// Hash of the one refresh token that is current.
    pub current: String,
    /// Epoch seconds (sliding).
    pub expires_at: i64,
    /// When the sign-in that started it happened (epoch seconds; 0 for a family stored
    /// before this was kept): a person who deleted their data since ends it.
    pub since: i64,
}

impl Family {
    /// As a store item.
    pub fn item(&self) -> Item {
        Item {
            key: family_key(&self.sid),
            attrs: attrs(&[
                ("clientId", text(&self.client_id)),
                ("sub", text(&self.sub)),
                ("name", self.name.as_deref().and_then(text)),
                ("scope", text(&self.scope)),
                ("resource", text(&self.resource)),
                ("current", text(&self.current)),
                ("since", Some(Value::N(self.since))),
                (TTL_ATTRIBUTE, Some(Value::N(self.expires_at))),
            ]),
        }
    }

    /// From a store item.
    pub fn from_item(sid: &str, a: &Attrs) -> Option<Self> {
        Some(Family {
            sid: sid.to_owned(),
            client_id: s(a, "clientId")?,
            sub: s(a, "sub")?,
            name: s(a, "name"),
            scope: s(a, "scope")?,
            resource: s(a, "resource")?,
            current: s(a, "current")?,
            expires_at: n(a, TTL_ATTRIBUTE)?,
            since: n(a, "since").unwrap_or(0),
        })
    }

    /// The family's entry in its person's grant index, with the family's expiry.
    pub fn index_item(&self) -> Item {
        Item {
            key: person_grant_key(&self.sub, &self.sid),
            attrs: attrs(&[(TTL_ATTRIBUTE, Some(Value::N(self.expires_at)))]),
        }
    }

    /// Revoke the whole family (every refresh token of it stops working).
    pub async fn revoke(store: &dyn Store, sid: &str) -> Result<(), StoreError> {
        store
            .write(vec![WriteOp::Delete {
                key: family_key(sid),
                guard: None,
            }])
            .await
    }
}
