//! The person's own page (decision 059): `/account` → `/oauth/account`. Signed in with the
//! same sign-in as an app's (the local page or the upstream provider), a person sees
//! what is stored about them, downloads each book's backup, and deletes everything of
//! theirs.
//!
//! - Sign-in runs as an authorization request marked [`ACCOUNT_CLIENT`] (no client can
//!   have that id: registered ids are random, document ids are `https:` URLs); when it
//!   completes, an account session starts instead of a code being issued.
//! - The session is a random cookie (`HttpOnly`, `SameSite=Lax`, path `/oauth/account`,
//!   15 minutes); only its hash is stored, indexed under the person so deleting them
//!   ends it too.
//! - Deletion is a form post with the session's CSRF token, from our own origin, within
//!   [`FRESH_SECS`] of the sign-in, with the confirmation word typed: otherwise nothing
//!   is deleted.

use bytes::Bytes;
use dochiya_store::{Condition, Guard, Item, Key, TTL_ATTRIBUTE, Value, WriteOp};
use http::header::{self, HeaderValue};
use http::{Request, Response, StatusCode};

use crate::AuthServer;
use maud::html;

use crate::pages::{self, Lang};
use crate::state::{self, PendingRequest, Stage, attrs, n, s, text};
use crate::web;

/// The `client_id` of an authorization request the account page started.
pub const ACCOUNT_CLIENT: &str = "dochiya:account";
/// The account page.
pub const ACCOUNT_PATH: &str = "/oauth/account";
/// A book's backup download.
pub const EXPORT_PATH: &str = "/oauth/account/export";
/// The short address people are given (redirects to [`ACCOUNT_PATH`]).
pub const SHORT_PATH: &str = "/account";
const SESSION_COOKIE: &str = "dochiya_account";
/// How long an account session lasts.
pub const SESSION_SECS: i64 = 15 * 60;
/// How recent the sign-in must be for a deletion.
pub const FRESH_SECS: i64 = 10 * 60;
/// The longest vault name the export takes (names are at most 64 characters).
const MAX_VAULT_PARAM_BYTES: usize = 400;

/// What the ledger tells and does for the account page; the ledger's business, so the
/// crate stays apart from it (as with [`crate::TokenHints`]).
#[async_trait::async_trait]
pub trait AccountData: Send + Sync {
    /// The person's books. `signed_in_at` is when this session's sign-in happened.
    async fn books(&self, sub: &str, signed_in_at: i64) -> Result<Vec<Book>, String>;
    /// One book's backup as JSON lines, with a file name for it.
    async fn export(&self, sub: &str, signed_in_at: i64, vault: &str) -> Result<(String, Vec<u8>), String>;
    /// Delete everything of the person (grants included); what happened.
    async fn delete(&self, sub: &str) -> Result<Deletion, String>;
}

/// What a deletion did, for the page to say in its language.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Deletion {
    /// Books deleted (kept by the person alone).
    pub deleted: Vec<String>,
    /// Shared books left to the household, with the member who became owner, if one did.
    pub left: Vec<(String, Option<String>)>,
    /// Sign-ins to apps ended.
    pub grants: u64,
    /// Remembered consents removed.
    pub consents: u64,
}

/// One of the person's books as the page lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Book {
    /// Its name.
    pub name: String,
    /// `owner` or `member`.
    pub role: String,
    /// How many people keep it.
    pub members: u32,
    /// Its live accounts.
    pub accounts: u32,
}

/// A signed-in account session.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Session {
    token_hash: String,
    sub: String,
    name: String,
    csrf: String,
    signed_in_at: i64,
    expires_at: i64,
}

/// `AS#ACCT#<hash(token)>` / `S`: an account-page session.
pub(crate) fn session_key(token_hash: &str) -> Key {
    Key::new(format!("AS#ACCT#{token_hash}"), "S")
}

impl Session {
    fn item(&self) -> Item {
        Item {
            key: session_key(&self.token_hash),
            attrs: attrs(&[
                ("sub", text(&self.sub)),
                ("name", text(&self.name)),
                ("csrf", text(&self.csrf)),
                ("signedInAt", Some(Value::N(self.signed_in_at))),
                (TTL_ATTRIBUTE, Some(Value::N(self.expires_at))),
            ]),
        }
    }

    async fn load(server: &AuthServer, req: &Request<Bytes>) -> Option<Session> {
        let token = web::cookie(req, SESSION_COOKIE).filter(|c| web::looks_like_token(c))?;
        let token_hash = web::hash(token);
        let item = server.store.get(&session_key(&token_hash)).await.ok()??;
        let a = &item.attrs;
        let session = Session {
            token_hash,
            sub: s(a, "sub")?,
            name: s(a, "name")?,
            csrf: s(a, "csrf")?,
            signed_in_at: n(a, "signedInAt")?,
            expires_at: n(a, TTL_ATTRIBUTE)?,
        };
        (session.expires_at > server.now()).then_some(session)
    }
}

fn session_cookie(response: &mut Response<Bytes>, value: &str, max_age: i64, secure: bool) {
    let cookie = format!(
        "{SESSION_COOKIE}={value}; Path={ACCOUNT_PATH}; HttpOnly; SameSite=Lax; Max-Age={max_age}{}",
        if secure { "; Secure" } else { "" }
    );
    if let Ok(v) = HeaderValue::from_str(&cookie) {
        response.headers_mut().append(header::SET_COOKIE, v);
    }
}

fn secure(server: &AuthServer) -> bool {
    server.issuer().starts_with("https://")
}

/// `GET /account`: to the page.
pub fn short(server: &AuthServer) -> Response<Bytes> {
    web::redirect(&format!("{}{ACCOUNT_PATH}", server.issuer()))
}

/// `GET /oauth/account`: the page when signed in, else the sign-in.
pub async fn page(server: &AuthServer, req: &Request<Bytes>) -> Response<Bytes> {
    let lang = Lang::negotiate(req);
    let Some(data) = &server.account else {
        return web::not_found();
    };
    let Some(session) = Session::load(server, req).await else {
        return start_sign_in(server, req).await;
    };
    match data.books(&session.sub, session.signed_in_at).await {
        Ok(books) => {
            let fresh = server.now() - session.signed_in_at <= FRESH_SECS;
            no_store(web::html(
                StatusCode::OK,
                account_page(lang, &session.name, &books, &session.csrf, fresh),
                None,
            ))
        }
        Err(e) => pages::error(lang, StatusCode::SERVICE_UNAVAILABLE, &e),
    }
}

/// A new authorization request for the account page, and the way to its sign-in.
async fn start_sign_in(server: &AuthServer, req: &Request<Bytes>) -> Response<Bytes> {
    let lang = Lang::negotiate(req);
    let unavailable = || pages::error(lang, StatusCode::SERVICE_UNAVAILABLE, "no randomness");
    let Ok(binding_value) = crate::sign_in::binding_value(req) else {
        return unavailable();
    };
    let (Ok(id), Ok(csrf)) = (web::random_token(16), web::random_token(32)) else {
        return unavailable();
    };
    let pending = PendingRequest {
        id,
        client_id: ACCOUNT_CLIENT.into(),
        client_name: "dochiya".into(),
        redirect_uri: format!("{}{ACCOUNT_PATH}", server.issuer()),
        state: None,
        challenge: String::new(),
        resource: server.config.resource_url.clone(),
        scope: String::new(),
        binding: web::hash(&binding_value),
        csrf,
        stage: Stage::SignIn,
        sub: None,
        name: None,
        upstream_state: None,
        nonce: None,
        upstream_verifier: None,
        expires_at: server.now() + server.config.lifetimes.request,
    };
    match crate::sign_in::start(server, pending, &binding_value).await {
        Ok(response) => no_store(response),
        Err(crate::sign_in::NotStarted::Target(_, description)) => {
            pages::error(lang, StatusCode::SERVICE_UNAVAILABLE, description)
        }
        Err(crate::sign_in::NotStarted::Store(e)) => crate::clients::store_failure(&e),
    }
}

/// The sign-in of an account request completed: the session starts (the request is
/// done, in the same write), and the browser goes to the page.
pub async fn signed_in(server: &AuthServer, mut pending: PendingRequest, from: Stage) -> Response<Bytes> {
    let (Some(sub), Ok(token), Ok(csrf)) =
        (pending.sub.clone(), web::random_token(32), web::random_token(32))
    else {
        return pages::error(Lang::En, StatusCode::SERVICE_UNAVAILABLE, "no randomness");
    };
    let now = server.now();
    let session = Session {
        token_hash: web::hash(&token),
        name: pending.name.clone().unwrap_or_else(|| sub.clone()),
        sub,
        csrf,
        signed_in_at: now,
        expires_at: now + SESSION_SECS,
    };
    pending.stage = Stage::Done;
    let ops = vec![
        WriteOp::Put {
            item: pending.item(),
            guard: Some(Guard::new(
                "request-stage",
                Condition::AttrEquals("stage".into(), Value::S(stage_text(from).into())),
            )),
        },
        WriteOp::Put {
            item: session.item(),
            guard: Some(Guard::new("session-new", Condition::NotExists)),
        },
        // Found again when the person is deleted (`forget`), like their grants.
        WriteOp::Put {
            item: Item {
                key: state::person_session_key(&session.sub, &session.token_hash),
                attrs: attrs(&[(TTL_ATTRIBUTE, Some(Value::N(session.expires_at)))]),
            },
            guard: None,
        },
    ];
    if let Err(e) = server.store.write(ops).await {
        return match e {
            dochiya_store::StoreError::ConditionFailed { .. } => pages::error(
                Lang::En,
                StatusCode::BAD_REQUEST,
                "this step of the sign-in was already done",
            ),
            e => crate::clients::store_failure(&e),
        };
    }
    let mut response = web::redirect(&format!("{}{ACCOUNT_PATH}", server.issuer()));
    session_cookie(&mut response, &token, SESSION_SECS, secure(server));
    response
}

fn stage_text(stage: Stage) -> &'static str {
    match stage {
        Stage::SignIn => "signin",
        Stage::Consent => "consent",
        Stage::Done => "done",
    }
}

/// `GET /oauth/account/export?vault=…`: a book's backup, as a download.
pub async fn export(server: &AuthServer, req: &Request<Bytes>) -> Response<Bytes> {
    let lang = Lang::negotiate(req);
    let Some(data) = &server.account else {
        return web::not_found();
    };
    let Some(session) = Session::load(server, req).await else {
        return short(server);
    };
    let params = match web::query(req) {
        Ok(p) => p,
        Err(e) => return pages::error(lang, StatusCode::BAD_REQUEST, &e.to_string()),
    };
    let Some(vault) = params
        .get("vault")
        .filter(|v| !v.is_empty() && v.len() <= MAX_VAULT_PARAM_BYTES)
    else {
        return pages::error(lang, StatusCode::BAD_REQUEST, "which book to download is missing");
    };
    match data.export(&session.sub, session.signed_in_at, vault).await {
        Ok((file, bytes)) => {
            let mut response = Response::new(Bytes::from(bytes));
            let h = response.headers_mut();
            h.insert(
                header::CONTENT_TYPE,
                HeaderValue::from_static("application/x-ndjson; charset=utf-8"),
            );
            if let Ok(v) = HeaderValue::from_str(&format!("attachment; filename=\"{file}\"")) {
                h.insert(header::CONTENT_DISPOSITION, v);
            }
            h.insert("x-content-type-options", HeaderValue::from_static("nosniff"));
            no_store(response)
        }
        Err(e) => pages::error(lang, StatusCode::BAD_REQUEST, &e),
    }
}

/// `POST /oauth/account`: `action=delete` (with `confirm`) or `action=signout`.
pub async fn submit(server: &AuthServer, req: &Request<Bytes>) -> Response<Bytes> {
    let lang = Lang::negotiate(req);
    let Some(data) = &server.account else {
        return web::not_found();
    };
    let Some(session) = Session::load(server, req).await else {
        return pages::error(
            lang,
            StatusCode::FORBIDDEN,
            "you are not signed in here (or the sign-in ended); nothing was changed",
        );
    };
    let params = match web::form(req) {
        Ok(p) => p,
        Err(e) => return pages::error(lang, StatusCode::BAD_REQUEST, &e.to_string()),
    };
    let origin = req.headers().get(header::ORIGIN).and_then(|v| v.to_str().ok());
    let csrf_ok = params
        .get("csrf")
        .is_some_and(|c| web::same_secret(c, &session.csrf));
    if origin.is_some_and(|o| o != server.issuer()) || !csrf_ok {
        return pages::error(
            lang,
            StatusCode::FORBIDDEN,
            "the form was not sent from this page; nothing was changed",
        );
    }
    match params.get("action") {
        Some("signout") => {
            end_session(server, &session).await;
            let mut response = no_store(web::html(StatusCode::OK, signed_out_page(lang), None));
            session_cookie(&mut response, "", 0, secure(server));
            response
        }
        Some("delete") => {
            if server.now() - session.signed_in_at > FRESH_SECS {
                return pages::error(
                    lang,
                    StatusCode::FORBIDDEN,
                    "deleting needs a sign-in from the last 10 minutes: sign out, sign in again, then delete; nothing was deleted",
                );
            }
            let typed = params.get("confirm").map(str::trim).unwrap_or("");
            if !is_confirmation(typed) {
                return pages::error(
                    lang,
                    StatusCode::BAD_REQUEST,
                    "type the word delete (or 삭제) to confirm; nothing was deleted",
                );
            }
            match data.delete(&session.sub).await {
                Ok(lines) => {
                    end_session(server, &session).await;
                    let mut response = no_store(web::html(StatusCode::OK, deleted_page(lang, &lines), None));
                    session_cookie(&mut response, "", 0, secure(server));
                    response
                }
                Err(e) => pages::error(lang, StatusCode::SERVICE_UNAVAILABLE, &e),
            }
        }
        _ => pages::error(lang, StatusCode::BAD_REQUEST, "choose delete or sign out"),
    }
}

/// The word that confirms a deletion, in either language.
fn is_confirmation(typed: &str) -> bool {
    typed.eq_ignore_ascii_case("delete") || typed == "삭제"
}

async fn end_session(server: &AuthServer, session: &Session) {
    let _ = server
        .store
        .write(vec![
            WriteOp::Delete {
                key: session_key(&session.token_hash),
                guard: None,
            },
            WriteOp::Delete {
                key: state::person_session_key(&session.sub, &session.token_hash),
                guard: None,
            },
        ])
        .await;
}

fn no_store(mut response: Response<Bytes>) -> Response<Bytes> {
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

/// What a deletion did, a line each, in the page's language.
pub(crate) fn deletion_lines(lang: Lang, d: &Deletion) -> Vec<String> {
    let n = |count: u64, one: &str, many: &str| format!("{count} {}", if count == 1 { one } else { many });
    let mut out = Vec::new();
    for v in &d.deleted {
        out.push(match lang {
            Lang::En => format!("“{v}”: deleted with every entry"),
            Lang::Ko => format!("‘{v}’: 모든 기록과 함께 삭제됨"),
        });
    }
    for (v, owner) in &d.left {
        out.push(match (lang, owner) {
            (Lang::En, Some(o)) => format!("“{v}”: left to the household; {o} owns it now"),
            (Lang::En, None) => format!("“{v}”: left to the household"),
            (Lang::Ko, Some(o)) => format!("‘{v}’: 가족에게 남김, 이제 {o} 님이 소유자"),
            (Lang::Ko, None) => format!("‘{v}’: 가족에게 남김"),
        });
    }
    out.push(match lang {
        Lang::En => format!(
            "{} ended, {} removed",
            n(d.grants, "sign-in to an app", "sign-ins to apps"),
            n(d.consents, "remembered consent", "remembered consents")
        ),
        Lang::Ko => format!("앱 로그인 {}개 종료, 기억된 동의 {}개 삭제", d.grants, d.consents),
    });
    out
}

/// The page's text for a book's line (plain text: the page escapes it).
pub(crate) fn book_line(lang: Lang, b: &Book) -> String {
    let role = match (lang, b.role.as_str()) {
        (Lang::Ko, "owner") => "소유자",
        (Lang::Ko, _) => "구성원",
        (Lang::En, "owner") => "owner",
        (Lang::En, _) => "member",
    };
    match lang {
        Lang::En => format!(
            "{}: {role}, {} {}, {} account{}",
            b.name,
            b.members,
            if b.members == 1 { "person" } else { "people" },
            b.accounts,
            if b.accounts == 1 { "" } else { "s" }
        ),
        Lang::Ko => format!("{}: {role}, {}명, 계정 {}개", b.name, b.members, b.accounts),
    }
}

/// The account page: who is signed in, their books with a backup link each, deletion
/// (a form while the sign-in is fresh, else the way to a fresh one) and signing out.
pub(crate) fn account_page(lang: Lang, name: &str, books: &[Book], csrf: &str, fresh: bool) -> String {
    let ko = lang == Lang::Ko;
    let t = |en: &'static str, ko_text: &'static str| if ko { ko_text } else { en };
    let title = t("Your data", "내 데이터");
    let body = html! {
        h1 { (title) }
        p { (t("Signed in as", "로그인:")) " " strong { (name) } }
        h2 { (t("Your books", "내 가계부")) }
        @if books.is_empty() {
            p { (t("No book is kept for you.", "보관된 가계부가 없습니다.")) }
        } @else {
            ul class="books" {
                @for b in books {
                    li {
                        (book_line(lang, b)) " "
                        a href={ (EXPORT_PATH) "?vault=" (percent(&b.name)) } { (t("Download its backup", "백업 내려받기")) }
                    }
                }
            }
        }
        h2 { (t("Delete everything of mine", "내 데이터 모두 삭제")) }
        p { (t(
            "Books only you keep are deleted with every entry. Books you share stay with the household: you leave them, your entries stay under your name, and if you were the last owner the member who joined first becomes owner. Every app you connected is signed out. This cannot be undone; download backups first.",
            "나만 쓰는 가계부는 모든 기록과 함께 삭제됩니다. 함께 쓰는 가계부는 가족에게 남습니다: 나는 빠지고, 내가 남긴 기록은 내 이름으로 남으며, 내가 마지막 소유자였다면 가장 먼저 참여한 구성원이 소유자가 됩니다. 연결한 모든 앱에서 로그아웃됩니다. 되돌릴 수 없으니 먼저 백업을 내려받으세요.",
        )) }
        @if fresh {
            form method="post" action=(ACCOUNT_PATH) {
                input type="hidden" name="csrf" value=(csrf);
                input type="hidden" name="action" value="delete";
                label for="confirm" { (t("Type “delete” to confirm", "확인하려면 ‘삭제’라고 입력하세요")) }
                input id="confirm" name="confirm" required maxlength="20" autocomplete="off";
                button type="submit" class="danger" { (t("Delete everything", "모두 삭제")) }
            }
        } @else {
            p { (t(
                "Deleting needs a sign-in from the last 10 minutes: sign out, then sign in again.",
                "삭제하려면 10분 안에 로그인한 상태여야 합니다. 로그아웃한 뒤 다시 로그인하세요.",
            )) }
        }
        form method="post" action=(ACCOUNT_PATH) {
            input type="hidden" name="csrf" value=(csrf);
            input type="hidden" name="action" value="signout";
            button type="submit" class="secondary" { (t("Sign out", "로그아웃")) }
        }
    };
    pages::page(lang, title, body)
}

/// After signing out of the account page.
pub(crate) fn signed_out_page(lang: Lang) -> String {
    let (title, text) = match lang {
        Lang::En => ("Signed out", "You are signed out of this page."),
        Lang::Ko => ("로그아웃됨", "이 페이지에서 로그아웃했습니다."),
    };
    pages::page(lang, title, html! { h1 { (title) } p { (text) } })
}

/// After a deletion: what happened, one line each.
pub(crate) fn deleted_page(lang: Lang, done: &Deletion) -> String {
    let (title, lead) = match lang {
        Lang::En => (
            "Your data was deleted",
            "Everything of yours is gone from this server, and every app you connected is signed out.",
        ),
        Lang::Ko => (
            "데이터를 삭제했습니다",
            "이 서버에서 내 데이터가 모두 지워졌고, 연결한 모든 앱에서 로그아웃되었습니다.",
        ),
    };
    let body = html! {
        h1 { (title) }
        p { (lead) }
        ul { @for line in deletion_lines(lang, done) { li { (line) } } }
    };
    pages::page(lang, title, body)
}

/// A query value percent-encoded (every byte but unreserved ones).
fn percent(text: &str) -> String {
    form_urlencoded::byte_serialize(text.as_bytes())
        .collect::<String>()
        .replace('+', "%20")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_deletion_is_told_in_the_pages_language() {
        let done = Deletion {
            deleted: vec!["개인".into()],
            left: vec![("우리집".into(), None)],
            grants: 1,
            consents: 1,
        };
        assert_eq!(
            deletion_lines(Lang::Ko, &done),
            [
                "‘개인’: 모든 기록과 함께 삭제됨",
                "‘우리집’: 가족에게 남김",
                "앱 로그인 1개 종료, 기억된 동의 1개 삭제"
            ]
        );
        assert_eq!(
            deletion_lines(Lang::En, &done)[2],
            "1 sign-in to an app ended, 1 remembered consent removed"
        );
    }

    #[test]
    fn the_confirmation_is_the_word_in_either_language() {
        assert!(is_confirmation("delete"));
        assert!(is_confirmation("DELETE"));
        assert!(is_confirmation("삭제"));
        assert!(!is_confirmation(""));
        assert!(!is_confirmation("del"));
        assert!(!is_confirmation("yes"));
    }
}
