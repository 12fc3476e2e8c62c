//! Our own HTML: the local sign-in page, the consent page, the error page and the privacy
//! page, in English and Korean by `Accept-Language`. No script at all (the CSP forbids it), a served style
//! sheet, one column that reads on a phone; every interpolated value is escaped.

use bytes::Bytes;
use http::header::{self, HeaderValue};
use http::{Request, Response, StatusCode};

use maud::{DOCTYPE, Markup, html};

use crate::web;

/// The page language.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lang {
    /// English.
    En,
    /// Korean.
    Ko,
}

impl Lang {
    /// The best of English and Korean for an `Accept-Language` header (English if neither).
    pub fn negotiate(req: &Request<Bytes>) -> Lang {
        let Some(header) = req
            .headers()
            .get(header::ACCEPT_LANGUAGE)
            .and_then(|v| v.to_str().ok())
        else {
            return Lang::En;
        };
        let mut best: Option<(u16, Lang)> = None;
        for part in header.split(',').take(20) {
            let mut pieces = part.split(';');
            let tag = pieces.next().unwrap_or("").trim().to_ascii_lowercase();
            // q in thousandths, so no floating point.
            let q = pieces
                .find_map(|p| p.trim().strip_prefix("q="))
                .map_or(1000, parse_q);
            let lang = match tag.split('-').next() {
                Some("ko") => Lang::Ko,
                Some("en") => Lang::En,
                _ => continue,
            };
            if q > 0 && best.is_none_or(|(bq, _)| q > bq) {
                best = Some((q, lang));
            }
        }
        best.map_or(Lang::En, |(_, l)| l)
    }

    fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Ko => "ko",
        }
    }
}

fn parse_q(q: &str) -> u16 {
    let q = q.trim();
    let (int, frac) = q.split_once('.').unwrap_or((q, ""));
    let int: u16 = match int {
        "1" => 1000,
        "0" | "" => 0,
        _ => return 0,
    };
    let mut digits: String = frac.chars().take(3).filter(char::is_ascii_digit).collect();
    while digits.len() < 3 {
        digits.push('0');
    }
    (int + digits.parse::<u16>().unwrap_or(0)).min(1000)
}

struct Words {
    signin_title: &'static str,
    signin_lead: &'static str,
    name_label: &'static str,
    code_label: &'static str,
    code_hint: &'static str,
    continue_button: &'static str,
    consent_title: &'static str,
    wants: &'static str,
    read: &'static str,
    write: &'static str,
    returns_to: &'static str,
    /// Around the host a client document names: before it, after it.
    published_at: (&'static str, &'static str),
    unverified: &'static str,
    signed_in_as: &'static str,
    remember: &'static str,
    allow: &'static str,
    deny: &'static str,
    error_title: &'static str,
    privacy: &'static str,
}

const EN: Words = Words {
    signin_title: "Sign in to dochiya",
    signin_lead: "This server runs on this computer. The name you type is who you are here: the same name opens the same ledgers.",
    name_label: "Your name",
    code_label: "Sign-in code",
    code_hint: "Printed where dochiya was started, and kept in the file signin-code in its data directory. It proves you are the person using this computer.",
    continue_button: "Continue",
    consent_title: "Allow access to your dochiya ledgers?",
    wants: "wants to:",
    read: "See your ledgers: vaults, accounts, transactions, balances and reports",
    write: "Change your ledgers: record and void transactions, create and rename vaults and accounts, save balance snapshots",
    returns_to: "After you choose, you go back to",
    published_at: ("published at ", ""),
    unverified: "unverified: the app gave itself this name when it registered",
    signed_in_as: "Signed in as",
    remember: "Remember my choice for this app",
    allow: "Allow",
    deny: "Deny",
    error_title: "This sign-in cannot continue",
    privacy: "Privacy",
};

const KO: Words = Words {
    signin_title: "dochiya 로그인",
    signin_lead: "이 서버는 이 컴퓨터에서 실행됩니다. 입력한 이름이 여기서의 당신입니다. 같은 이름이면 같은 가계부가 열립니다.",
    name_label: "이름",
    code_label: "로그인 코드",
    code_hint: "dochiya를 실행한 터미널에 표시되고, 데이터 폴더의 signin-code 파일에도 있습니다. 이 컴퓨터를 쓰는 본인임을 확인합니다.",
    continue_button: "계속",
    consent_title: "dochiya 가계부에 대한 접근을 허용할까요?",
    wants: "앱이 다음을 요청합니다:",
    read: "가계부 보기: 금고, 계정, 거래, 잔액과 보고서",
    write: "가계부 바꾸기: 거래 기록과 취소, 금고와 계정 만들기와 이름 바꾸기, 잔액 스냅샷 저장",
    returns_to: "선택하면 다음 주소로 돌아갑니다:",
    published_at: ("", "에 게시된 앱"),
    unverified: "확인되지 않음: 앱이 등록할 때 스스로 붙인 이름입니다",
    signed_in_as: "로그인한 사람:",
    remember: "이 앱에 대한 선택 기억하기",
    allow: "허용",
    deny: "거부",
    error_title: "이 로그인은 계속할 수 없습니다",
    privacy: "개인정보 처리",
};

fn words(lang: Lang) -> &'static Words {
    match lang {
        Lang::En => &EN,
        Lang::Ko => &KO,
    }
}

/// A whole page: `body` under `title`, the style sheet, the privacy link.
pub(crate) fn page(lang: Lang, title: &str, body: Markup) -> String {
    html! {
        (DOCTYPE)
        html lang=(lang.code()) {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                meta name="referrer" content="same-origin";
                title { (title) }
                link rel="stylesheet" href=(crate::STYLE_PATH);
            }
            body {
                main {
                    (body)
                    footer { a href=(crate::PRIVACY_PATH) { (words(lang).privacy) } }
                }
            }
        }
    }
    .into_string()
        + "\n"
}

/// The local sign-in page.
pub fn signin(lang: Lang, request_id: &str, csrf: &str) -> String {
    let w = words(lang);
    let body = html! {
        h1 { (w.signin_title) }
        p { (w.signin_lead) }
        form method="post" action=(crate::SIGNIN_PATH) {
            input type="hidden" name="request" value=(request_id);
            input type="hidden" name="csrf" value=(csrf);
            label for="name" { (w.name_label) }
            input id="name" name="name" required maxlength="64" autocomplete="username" autofocus;
            label for="code" { (w.code_label) }
            input id="code" name="code" required maxlength="20" autocomplete="one-time-code"
                spellcheck="false" placeholder="XXXX-XXXX-XXXX" aria-describedby="code-hint";
            p id="code-hint" class="hint" { (w.code_hint) }
            button type="submit" { (w.continue_button) }
        }
    };
    page(lang, w.signin_title, body)
}

/// Where a client's name comes from, as the consent page says it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClientOrigin<'a> {
    /// A Client ID Metadata Document: the host its `client_id` URL names (the CIMD draft:
    /// the server SHOULD show it), the one part of its identity the client cannot choose.
    Document {
        /// The `client_id` URL's host (and port, when it names one).
        host: &'a str,
    },
    /// Dynamically registered: the name is whatever the registration said, unverified.
    Registered,
}

/// What the consent page shows.
#[derive(Debug)]
pub struct ConsentView<'a> {
    /// The client's name.
    pub client_name: &'a str,
    /// Where that name comes from.
    pub origin: ClientOrigin<'a>,
    /// Where the answer goes (host of the redirect URI).
    pub redirect_host: &'a str,
    /// Granted scopes.
    pub scopes: &'a [&'a str],
    /// Who is signed in.
    pub person: &'a str,
    /// The request id.
    pub request_id: &'a str,
    /// The anti-CSRF token.
    pub csrf: &'a str,
}

/// The consent page.
pub fn consent(lang: Lang, view: &ConsentView<'_>) -> String {
    let w = words(lang);
    let scopes = view.scopes.iter().filter_map(|scope| match *scope {
        dochiya_domain::scopes::SCOPE_READ => Some(w.read),
        dochiya_domain::scopes::SCOPE_WRITE => Some(w.write),
        _ => None,
    });
    let body = html! {
        h1 { (w.consent_title) }
        p class="who" { (w.signed_in_as) " " strong { (view.person) } }
        p {
            strong class="client" { (view.client_name) }
            // Beside the name, what vouches for it: the host of its document, or nothing.
            @match view.origin {
                ClientOrigin::Document { host } => {
                    " " span class="origin" { "(" (w.published_at.0) strong class="host" { (host) } (w.published_at.1) ")" }
                }
                ClientOrigin::Registered => { " " span class="unverified" { "(" (w.unverified) ")" } }
            }
            " " (w.wants)
        }
        ul { @for text in scopes { li { (text) } } }
        p { (w.returns_to) " " strong class="host" { (view.redirect_host) } }
        form method="post" action=(crate::CONSENT_PATH) {
            input type="hidden" name="request" value=(view.request_id);
            input type="hidden" name="csrf" value=(view.csrf);
            label class="check" { input type="checkbox" name="remember" value="yes"; " " (w.remember) }
            div class="buttons" {
                button type="submit" name="decision" value="allow" { (w.allow) }
                button type="submit" name="decision" value="deny" class="secondary" { (w.deny) }
            }
        }
    };
    page(lang, w.consent_title, body)
}

/// An error page: shown instead of redirecting when the redirect target itself is not
/// trusted (unknown client, unregistered redirect URI), so we are never an open redirect.
pub fn error(lang: Lang, status: StatusCode, detail: &str) -> Response<Bytes> {
    let w = words(lang);
    let body = html! {
        h1 { (w.error_title) }
        p class="error" { (detail) }
    };
    web::html(status, page(lang, w.error_title, body), None)
}

/// What the privacy page says, section by section: (heading, paragraphs).
type Sections = [(&'static str, &'static [&'static str]); 6];

const PRIVACY_EN: Sections = [
    (
        "What is stored",
        &[
            "Your ledgers: vaults, accounts, transactions with their memos and tags, earlier versions of edited transactions, budgets, recurring entries and balance snapshots. Who recorded each entry, and the members of each shared vault with the names they joined under.",
            "For signing in: the name the sign-in gave you (your account's subject), the apps you allowed and whether to remember that, and the tokens' records. No password is stored here.",
        ],
    ),
    (
        "Where",
        &[
            "In one database of the server's operator: a DynamoDB table in their AWS account when the server runs on AWS, or a file in its data directory when it runs on a computer. Nothing is sent anywhere else.",
        ],
    ),
    (
        "For how long",
        &[
            "Your ledgers, until you delete them. A record that lets a repeated write happen once: 7 days. A sign-in request: 10 minutes; an authorization code: 1 minute; an access token: 1 hour; a refresh token: 30 days from its last use; a remembered choice: 90 days. On AWS, the operator's request logs are kept as long as the operator sets (30 days unless changed), and the table's point-in-time backups 35 days.",
        ],
    ),
    (
        "Who sees it",
        &[
            "You, through the apps you allowed. The other members of a vault you share see that vault's entries, and who recorded them. The server's operator can read the database.",
        ],
    ),
    (
        "Export and delete",
        &[
            "Ask your assistant to export a vault (export_transactions: CSV, hledger or Beancount). An owner of a vault can delete it with everything in it (delete_vault); every member loses it at once. You can leave a shared vault (leave_vault); its entries stay with the household. To see what is kept about you, download your books' backups and delete everything of yours, sign in at /account (on a server that signs you in itself); or write to the contact below.",
        ],
    ),
    ("Contact", &[]),
];

const PRIVACY_KO: Sections = [
    (
        "저장하는 것",
        &[
            "가계부: 금고, 계정, 메모와 태그가 붙은 거래, 수정된 거래의 이전 내용, 예산, 반복 거래, 잔액 스냅샷. 거래마다 누가 기록했는지, 함께 쓰는 금고의 구성원과 그들이 참여할 때 쓴 이름.",
            "로그인: 로그인이 정해 준 이름(계정 식별자), 허용한 앱과 그 선택을 기억할지, 토큰 기록. 비밀번호는 여기에 저장하지 않습니다.",
        ],
    ),
    (
        "저장 위치",
        &[
            "서버 운영자의 데이터베이스 한 곳: AWS에서 실행되면 운영자의 AWS 계정에 있는 DynamoDB 테이블, 컴퓨터에서 실행되면 데이터 폴더의 파일. 다른 곳으로 보내지 않습니다.",
        ],
    ),
    (
        "보관 기간",
        &[
            "가계부는 직접 삭제할 때까지. 같은 기록이 두 번 쓰이지 않게 하는 기록: 7일. 로그인 요청: 10분, 인가 코드: 1분, 액세스 토큰: 1시간, 리프레시 토큰: 마지막 사용부터 30일, 기억한 선택: 90일. AWS에서는 운영자의 요청 로그를 운영자가 정한 기간(바꾸지 않으면 30일), 테이블의 시점 복구 백업을 35일 보관합니다.",
        ],
    ),
    (
        "볼 수 있는 사람",
        &[
            "허용한 앱을 통해 본인. 함께 쓰는 금고의 다른 구성원은 그 금고의 거래와 누가 기록했는지를 봅니다. 서버 운영자는 데이터베이스를 읽을 수 있습니다.",
        ],
    ),
    (
        "내보내기와 삭제",
        &[
            "어시스턴트에게 금고 내보내기를 요청하세요(export_transactions: CSV, hledger, Beancount). 금고의 소유자는 금고와 그 안의 모든 것을 삭제할 수 있고(delete_vault), 모든 구성원이 즉시 접근을 잃습니다. 함께 쓰는 금고에서 나갈 수 있고(leave_vault), 거래는 가구에 남습니다. 내게 저장된 것을 보고, 가계부 백업을 내려받고, 내 데이터를 모두 지우려면 /account 에서 로그인하세요(이 서버가 직접 로그인을 받는 경우). 또는 아래 연락처로 요청하세요.",
        ],
    ),
    ("연락처", &[]),
];

/// `GET /privacy`: what is stored, where, for how long, who sees it, how to export and
/// delete, and whom to write to (`contact`, the operator's setting; said when unset).
pub fn privacy(lang: Lang, contact: Option<&str>) -> Response<Bytes> {
    let (title, sections, no_contact) = match lang {
        Lang::En => (
            "Privacy at this dochiya server",
            &PRIVACY_EN,
            "This server's operator has not set a contact; ask whoever gave you its address.",
        ),
        Lang::Ko => (
            "이 dochiya 서버의 개인정보 처리",
            &PRIVACY_KO,
            "이 서버의 운영자가 연락처를 정하지 않았습니다. 서버 주소를 알려 준 사람에게 문의하세요.",
        ),
    };
    let body = html! {
        h1 { (title) }
        @for (heading, paragraphs) in sections {
            h2 { (heading) }
            @for p in *paragraphs { p { (p) } }
        }
        @match contact {
            Some(c) => p class="contact" { (c) },
            None => p { (no_contact) },
        }
    };
    let mut response = web::html(StatusCode::OK, page(lang, title, body), None);
    response.headers_mut().insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static("public, max-age=3600"),
    );
    response
        .headers_mut()
        .insert(header::VARY, HeaderValue::from_static("accept-language"));
    response
}

const STYLE: &str = "\
*{box-sizing:border-box}\
body{margin:0;font:17px/1.5 system-ui,-apple-system,'Noto Sans KR','Noto Sans CJK KR',sans-serif;background:#f6f5f2;color:#1d1d1b}\
main{max-width:30rem;margin:0 auto;padding:1.5rem 1rem}\
h1{font-size:1.35rem;line-height:1.3}\
ul{padding-left:1.2rem}li{margin:.4rem 0}\
label{display:block;margin:.8rem 0 .3rem}\
label.check{display:flex;gap:.5rem;align-items:center}\
input[name=name],input[name=code],input[name=confirm]{width:100%;font:inherit;padding:.6rem;border:1px solid #999;border-radius:.4rem}\
input[name=code]{font-family:ui-monospace,monospace;letter-spacing:.08em}\
.hint{font-size:.9rem;color:#55534e;margin:.3rem 0 0}\
button{font:inherit;padding:.7rem 1.2rem;border:0;border-radius:.4rem;background:#1f5f4a;color:#fff;margin-top:1rem;min-width:7rem}\
button.secondary{background:#e4e2dc;color:#1d1d1b}\
button.danger{background:#8a1c1c}\
.books a{color:#1f5f4a;white-space:nowrap}\
.buttons{display:flex;gap:.8rem;flex-wrap:wrap}\
.host,.client{word-break:break-all}\
.error{color:#8a1c1c}\
.origin,.unverified{font-size:.9rem}.unverified{color:#7a4b00}\
h2{font-size:1.05rem;margin-top:1.4rem}\
footer{margin-top:2rem;font-size:.9rem}footer a{color:#1f5f4a}\
";

/// `GET /oauth/style.css`.
pub fn style_response() -> Response<Bytes> {
    let mut response = Response::new(Bytes::from_static(STYLE.as_bytes()));
    let h = response.headers_mut();
    h.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/css; charset=utf-8"),
    );
    h.insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static("public, max-age=3600"),
    );
    h.insert("x-content-type-options", HeaderValue::from_static("nosniff"));
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with_lang(value: &str) -> Request<Bytes> {
        Request::builder()
            .header(header::ACCEPT_LANGUAGE, value)
            .body(Bytes::new())
            .unwrap()
    }

    #[test]
    fn the_language_follows_accept_language_quality() {
        assert_eq!(Lang::negotiate(&with_lang("ko-KR,ko;q=0.9,en;q=0.8")), Lang::Ko);
        assert_eq!(Lang::negotiate(&with_lang("en-US,en;q=0.9,ko;q=0.8")), Lang::En);
        assert_eq!(
            Lang::negotiate(&with_lang("fr;q=1, ko;q=0.5, en;q=0.4")),
            Lang::Ko
        );
        assert_eq!(Lang::negotiate(&with_lang("de")), Lang::En);
        assert_eq!(Lang::negotiate(&with_lang("ko;q=0, en;q=0.1")), Lang::En);
        assert_eq!(Lang::negotiate(&Request::new(Bytes::new())), Lang::En);
    }

    fn text(response: &Response<Bytes>) -> String {
        String::from_utf8(response.body().to_vec()).unwrap()
    }

    #[test]
    fn the_privacy_page_says_what_is_kept_how_long_and_whom_to_write_to() {
        let en = privacy(Lang::En, Some("help@ledger.example <admin>"));
        assert_eq!(en.status(), StatusCode::OK);
        assert_eq!(en.headers()[header::VARY], "accept-language");
        assert!(en.headers().contains_key(header::CONTENT_SECURITY_POLICY));
        let html = text(&en);
        assert!(
            html.contains("<title>Privacy at this dochiya server</title>"),
            "{html}"
        );
        let headings: Vec<&str> = html
            .split("<h2>")
            .skip(1)
            .map(|h| h.split('<').next().unwrap_or(""))
            .collect();
        assert_eq!(
            headings,
            [
                "What is stored",
                "Where",
                "For how long",
                "Who sees it",
                "Export and delete",
                "Contact"
            ]
        );
        assert!(html.contains("an access token: 1 hour; a refresh token: 30 days from its last use"));
        assert!(html.contains("(delete_vault)"));
        assert!(html.contains("sign in at /account"));
        assert!(html.contains("<p class=\"contact\">help@ledger.example &lt;admin&gt;</p>"));
        let ko = text(&privacy(Lang::Ko, None));
        assert!(ko.contains("<html lang=\"ko\">"));
        assert!(ko.contains("<h2>보관 기간</h2>"));
        assert!(ko.contains("이 서버의 운영자가 연락처를 정하지 않았습니다."));
        assert!(!ko.contains("class=\"contact\""));
    }

    #[test]
    fn every_page_links_the_privacy_page_in_its_language() {
        let link = |words: &str| format!("<footer><a href=\"/privacy\">{words}</a></footer>");
        assert!(signin(Lang::En, "r", "c").contains(&link("Privacy")));
        assert!(signin(Lang::Ko, "r", "c").contains(&link("개인정보 처리")));
        assert!(text(&error(Lang::En, StatusCode::BAD_REQUEST, "x")).contains(&link("Privacy")));
        assert!(text(&privacy(Lang::Ko, None)).contains(&link("개인정보 처리")));
    }

    #[test]
    fn interpolated_values_cannot_inject_markup() {
        let html = consent(
            Lang::En,
            &ConsentView {
                client_name: "<script>alert(1)</script>",
                origin: ClientOrigin::Document {
                    host: "<b>app.example",
                },
                redirect_host: "a\"b.example",
                scopes: &["ledger:read"],
                person: "x&y",
                request_id: "r",
                csrf: "c",
            },
        );
        assert!(!html.contains("<script>"));
        assert!(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
        assert!(html.contains("a&quot;b.example"));
        assert!(html.contains("x&amp;y"));
        assert!(html.contains("&lt;b&gt;app.example"));
        assert!(!html.contains("Change your ledgers"));
    }

    #[test]
    fn korean_pages_say_the_scopes_in_korean() {
        let html = consent(
            Lang::Ko,
            &ConsentView {
                client_name: "Claude",
                origin: ClientOrigin::Registered,
                redirect_host: "claude.ai",
                scopes: &["ledger:read", "ledger:write"],
                person: "도치",
                request_id: "r",
                csrf: "c",
            },
        );
        assert!(html.contains("<html lang=\"ko\">"));
        assert!(html.contains("가계부 보기"));
        assert!(html.contains("가계부 바꾸기"));
        assert!(html.contains(">허용<"));
        assert!(html.contains("(확인되지 않음: 앱이 등록할 때 스스로 붙인 이름입니다)"));
    }

    /// A document client is shown with the host its metadata lives at and no mark; a
    /// registered one's self-chosen name is marked unverified, and no host is claimed.
    #[test]
    fn the_consent_page_says_where_a_clients_name_comes_from() {
        let view = |origin| ConsentView {
            client_name: "Claude",
            origin,
            redirect_host: "claude.ai",
            scopes: &["ledger:read"],
            person: "도치",
            request_id: "r",
            csrf: "c",
        };
        let document = consent(Lang::En, &view(ClientOrigin::Document { host: "claude.ai" }));
        assert!(
            document.contains(
                "<strong class=\"client\">Claude</strong> <span class=\"origin\">(published at <strong class=\"host\">claude.ai</strong>)</span> wants to:"
            ),
            "{document}"
        );
        assert!(!document.contains("unverified"));
        let korean = consent(Lang::Ko, &view(ClientOrigin::Document { host: "claude.ai" }));
        assert!(
            korean.contains("(<strong class=\"host\">claude.ai</strong>에 게시된 앱)"),
            "{korean}"
        );
        let registered = consent(Lang::En, &view(ClientOrigin::Registered));
        assert!(
            registered.contains(
                "<strong class=\"client\">Claude</strong> <span class=\"unverified\">(unverified: the app gave itself this name when it registered)</span> wants to:"
            ),
            "{registered}"
        );
        assert!(!registered.contains("published at"));
    }
}
