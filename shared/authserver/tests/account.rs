//! The account page (decision 059), in process with the local sign-in: `/account` leads
//! to a sign-in and a session; the page lists the person's books with a backup link
//! each; a deletion needs the session's CSRF token, our origin, a sign-in from the last
//! ten minutes and the typed word, and otherwise deletes nothing; after one the page is
//! signed out.

mod support;

use std::sync::{Arc, Mutex};

use dochiya_authserver::account::{AccountData, Book, Deletion};
use http::{Request, StatusCode};
use support::*;

/// A ledger stand-in that records what the page asked for.
#[derive(Default)]
struct Data {
    deleted: Mutex<Vec<String>>,
}

#[async_trait::async_trait]
impl AccountData for Data {
    async fn books(&self, sub: &str, _signed_in_at: i64) -> Result<Vec<Book>, String> {
        if self.deleted.lock().unwrap().iter().any(|d| d == sub) {
            return Ok(vec![]);
        }
        Ok(vec![Book {
            name: "우리집 가계부".into(),
            role: "owner".into(),
            members: 2,
            accounts: 7,
        }])
    }
    async fn export(&self, sub: &str, _signed_in_at: i64, vault: &str) -> Result<(String, Vec<u8>), String> {
        Ok((
            "dochiya-v1.jsonl".into(),
            format!("{{\"sub\":\"{sub}\",\"vault\":\"{vault}\"}}\n").into_bytes(),
        ))
    }
    async fn delete(&self, sub: &str) -> Result<Deletion, String> {
        self.deleted.lock().unwrap().push(sub.to_owned());
        Ok(Deletion {
            deleted: vec!["개인".into()],
            left: vec![("우리집 가계부".into(), Some("하은".into()))],
            grants: 1,
            consents: 2,
        })
    }
}

/// Signed in as `name` through `/account`: the browser holds the session cookie; the
/// page's HTML.
async fn sign_in(h: &Harness, browser: &mut Browser, name: &str) -> String {
    let r = browser.get(h, "/account").await;
    assert_eq!(r.status(), StatusCode::SEE_OTHER);
    assert_eq!(location(&r), format!("{ISSUER}/oauth/account"));
    let r = browser.get(h, "/oauth/account").await;
    assert_eq!(r.status(), StatusCode::FOUND, "{}", text(&r));
    let page = browser.get(h, &location(&r)).await;
    let html = text(&page);
    let r = browser
        .post(
            h,
            "/oauth/signin",
            &[
                ("request", &hidden(&html, "request")),
                ("csrf", &hidden(&html, "csrf")),
                ("name", name),
                ("code", &h.code()),
            ],
        )
        .await;
    assert_eq!(location(&r), format!("{ISSUER}/oauth/account"));
    let cookie = r.headers()["set-cookie"].to_str().unwrap().to_owned();
    assert!(
        cookie.ends_with("; Path=/oauth/account; HttpOnly; SameSite=Lax; Max-Age=900"),
        "{cookie}"
    );
    let page = browser.get(h, "/oauth/account").await;
    assert_eq!(page.status(), StatusCode::OK);
    assert_eq!(page.headers()["cache-control"], "no-store");
    text(&page)
}

fn harness() -> (Harness, Arc<Data>) {
    let data = Arc::new(Data::default());
    (Harness::new().with_account(data.clone()), data)
}

#[tokio::test]
async fn the_page_shows_the_books_and_downloads_a_backup() {
    let (h, _) = harness();
    let mut browser = Browser::default();
    let html = sign_in(&h, &mut browser, "kim").await;
    for expected in [
        "<h1>Your data</h1>",
        "Signed in as <strong>kim</strong>",
        "우리집 가계부: owner, 2 people, 7 accounts <a href=\"/oauth/account/export?vault=%EC%9A%B0%EB%A6%AC%EC%A7%91%20%EA%B0%80%EA%B3%84%EB%B6%80\">Download its backup</a>",
        "<input type=\"hidden\" name=\"action\" value=\"delete\">",
        "<footer><a href=\"/privacy\">Privacy</a></footer>",
    ] {
        assert!(html.contains(expected), "{expected}\n{html}");
    }
    let r = browser
        .get(
            &h,
            "/oauth/account/export?vault=%EC%9A%B0%EB%A6%AC%EC%A7%91%20%EA%B0%80%EA%B3%84%EB%B6%80",
        )
        .await;
    assert_eq!(r.status(), StatusCode::OK);
    assert_eq!(
        r.headers()["content-disposition"],
        "attachment; filename=\"dochiya-v1.jsonl\""
    );
    assert_eq!(text(&r), "{\"sub\":\"kim\",\"vault\":\"우리집 가계부\"}\n");
    // Without the session: back to the page (and its sign-in), nothing downloaded.
    let r = h
        .send(
            Request::get("/oauth/account/export?vault=x")
                .body(bytes::Bytes::new())
                .unwrap(),
        )
        .await;
    assert_eq!(r.status(), StatusCode::SEE_OTHER);
}

#[tokio::test]
async fn a_deletion_needs_the_token_our_origin_a_fresh_sign_in_and_the_word() {
    let (h, data) = harness();
    let mut browser = Browser::default();
    let html = sign_in(&h, &mut browser, "kim").await;
    let csrf = hidden(&html, "csrf");
    let cookie = browser.cookie.clone().unwrap();
    let post = |cookie: Option<&str>, origin: &str, pairs: &[(&str, &str)]| {
        let mut b = Request::post("/oauth/account")
            .header("content-type", "application/x-www-form-urlencoded")
            .header("origin", origin);
        if let Some(c) = cookie {
            b = b.header("cookie", c);
        }
        b.body(form(pairs)).unwrap()
    };
    let delete = [
        ("csrf", csrf.as_str()),
        ("action", "delete"),
        ("confirm", "delete"),
    ];
    // Another site's form, with the person's cookie: refused.
    let r = h.send(post(Some(&cookie), "https://evil.example", &delete)).await;
    assert_eq!(r.status(), StatusCode::FORBIDDEN);
    assert!(text(&r).contains("the form was not sent from this page; nothing was changed"));
    // No CSRF token: refused.
    let r = h
        .send(post(
            Some(&cookie),
            ISSUER,
            &[("action", "delete"), ("confirm", "delete")],
        ))
        .await;
    assert_eq!(r.status(), StatusCode::FORBIDDEN);
    // No session: refused.
    let r = h.send(post(None, ISSUER, &delete)).await;
    assert_eq!(r.status(), StatusCode::FORBIDDEN);
    assert!(text(&r).contains("you are not signed in here"));
    // The word not typed: refused.
    let r = h
        .send(post(
            Some(&cookie),
            ISSUER,
            &[("csrf", &csrf), ("action", "delete"), ("confirm", "yes")],
        ))
        .await;
    assert_eq!(r.status(), StatusCode::BAD_REQUEST);
    assert!(text(&r).contains("type the word delete (or 삭제) to confirm; nothing was deleted"));
    // Eleven minutes after the sign-in: refused, and the page says how to go on.
    h.clock.advance(11 * 60);
    let r = h.send(post(Some(&cookie), ISSUER, &delete)).await;
    assert_eq!(r.status(), StatusCode::FORBIDDEN);
    assert!(text(&r).contains("deleting needs a sign-in from the last 10 minutes"));
    let page = text(&browser.get(&h, "/oauth/account").await);
    assert!(!page.contains("value=\"delete\""), "{page}");
    assert!(
        page.contains("Deleting needs a sign-in from the last 10 minutes: sign out, then sign in again.")
    );
    assert!(data.deleted.lock().unwrap().is_empty());

    // A fresh sign-in, the word in Korean: deleted, and signed out.
    let mut browser = Browser::default();
    let html = sign_in(&h, &mut browser, "kim").await;
    let r = browser
        .post(
            &h,
            "/oauth/account",
            &[
                ("csrf", &hidden(&html, "csrf")),
                ("action", "delete"),
                ("confirm", "삭제"),
            ],
        )
        .await;
    assert_eq!(r.status(), StatusCode::OK);
    let done = text(&r);
    assert!(done.contains("<h1>Your data was deleted</h1>"), "{done}");
    assert!(
        done.contains(
            "<ul><li>“개인”: deleted with every entry</li>\
             <li>“우리집 가계부”: left to the household; 하은 owns it now</li>\
             <li>1 sign-in to an app ended, 2 remembered consents removed</li></ul>"
        ),
        "{done}"
    );
    assert_eq!(*data.deleted.lock().unwrap(), ["kim"]);
    assert!(r.headers()["set-cookie"].to_str().unwrap().contains("Max-Age=0"));
    // The old session is gone even if a browser kept the cookie.
    let r = browser.get(&h, "/oauth/account").await;
    assert_eq!(r.status(), StatusCode::FOUND, "signed out: the sign-in again");
}

#[tokio::test]
async fn signing_out_ends_the_session() {
    let (h, _) = harness();
    let mut browser = Browser::default();
    let html = sign_in(&h, &mut browser, "lee").await;
    let cookie = browser.cookie.clone().unwrap();
    let r = browser
        .post(
            &h,
            "/oauth/account",
            &[("csrf", &hidden(&html, "csrf")), ("action", "signout")],
        )
        .await;
    assert_eq!(r.status(), StatusCode::OK);
    assert!(text(&r).contains("You are signed out of this page."));
    let r = h
        .send(
            Request::get("/oauth/account")
                .header("cookie", &cookie)
                .body(bytes::Bytes::new())
                .unwrap(),
        )
        .await;
    assert_eq!(r.status(), StatusCode::FOUND, "the old cookie starts a sign-in");
}

/// Without account data (an authorization server with no ledger behind it) there is no
/// page; and no client can be the account page's marker.
#[tokio::test]
async fn no_data_no_page_and_the_marker_is_no_client() {
    let h = Harness::new();
    let r = h
        .send(Request::get("/oauth/account").body(bytes::Bytes::new()).unwrap())
        .await;
    assert_eq!(r.status(), StatusCode::NOT_FOUND);
    let (_, challenge) = pkce();
    let mut browser = Browser::default();
    let ask = Ask {
        client_id: dochiya_authserver::account::ACCOUNT_CLIENT,
        redirect: "http://127.0.0.1:8080/oauth/account",
        challenge: &challenge,
        scope: None,
        resource: None,
        state: "s",
    };
    let r = browser.get(&h, &ask.url()).await;
    assert_eq!(r.status(), StatusCode::BAD_REQUEST);
}
