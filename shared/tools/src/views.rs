//! The MCP Apps views (docs/views.md): one static HTML file each under `shared/tools/views/`,
//! embedded in the binary, no build step and no outside origin. What every view shares
//! (`views/common.js`: money as text, the host conversation, drawing helpers) is written
//! once and put into each view's script where its `/* views/common.js */` line stands,
//! so each view is still served as one self-contained file. A tool links its view in
//! the one tool table (`tools/mod.rs`, `=> views::X`); the protocol layer serves them by
//! `resources/read` and links them only for clients that declare the extension.

use std::sync::LazyLock;

use dochiya_protocol::ViewSpec;

/// The line in a view's script that the shared script replaces.
const COMMON_MARK: &str = "/* views/common.js */\n";
/// The script every view shares.
const COMMON: &str = include_str!("../views/common.js");

/// A view's file with the shared script put in its place.
fn assembled(file: &str) -> String {
    file.replacen(COMMON_MARK, COMMON, 1)
}

static SPENDING_HTML: LazyLock<String> = LazyLock::new(|| assembled(include_str!("../views/spending.html")));
static BUDGET_HTML: LazyLock<String> = LazyLock::new(|| assembled(include_str!("../views/budget.html")));
static CARD_BILL_HTML: LazyLock<String> =
    LazyLock::new(|| assembled(include_str!("../views/card-bill.html")));

/// Spending by category (`spending_report`).
pub const SPENDING: &str = "ui://dochiya/spending.html";
/// Budget against spending (`budget_report`).
pub const BUDGET: &str = "ui://dochiya/budget.html";
/// The card bill (`card_bill`).
pub const CARD_BILL: &str = "ui://dochiya/card-bill.html";

/// Largest a view may be: a host loads it into every conversation that shows it.
pub const MAX_VIEW_BYTES: usize = 200 * 1024;

/// Every view the server serves.
pub fn all() -> Vec<ViewSpec> {
    vec![
        ViewSpec {
            uri: SPENDING,
            name: "spending",
            html: SPENDING_HTML.as_str(),
        },
        ViewSpec {
            uri: BUDGET,
            name: "budget",
            html: BUDGET_HTML.as_str(),
        },
        ViewSpec {
            uri: CARD_BILL,
            name: "card_bill",
            html: CARD_BILL_HTML.as_str(),
        },
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each view carries the shared script once, in its own script, with its own name.
    #[test]
    fn each_view_carries_the_shared_script_once() {
        for (view, app) in all()
            .iter()
            .zip(["dochiya-spending", "dochiya-budget", "dochiya-card-bill"])
        {
            assert_eq!(view.html.matches(COMMON).count(), 1, "{}", view.uri);
            assert!(!view.html.contains(COMMON_MARK), "{}", view.uri);
            assert!(
                view.html.contains(&format!("const APP_NAME = \"{app}\";\n")),
                "{}",
                view.uri
            );
            let script = view.html.find("<script>").unwrap_or(usize::MAX);
            let end = view.html.find("</script>").unwrap_or(0);
            let at = view.html.find(COMMON).unwrap_or(0);
            assert!(script < at && at < end, "{}", view.uri);
        }
    }

    #[test]
    fn views_are_small_self_contained_html_documents() {
        for view in all() {
            assert!(
                view.html.len() < MAX_VIEW_BYTES,
                "{}: {} bytes",
                view.uri,
                view.html.len()
            );
            assert!(view.html.starts_with("<!doctype html>"), "{}", view.uri);
            assert!(view.html.contains("<meta charset=\"utf-8\">"), "{}", view.uri);
            // No outside origin: the only URLs are this scheme's own and the SVG namespace.
            let outside: Vec<&str> = view
                .html
                .match_indices("://")
                .map(|(i, _)| &view.html[i.saturating_sub(12)..(i + 24).min(view.html.len())])
                .filter(|s| !s.contains("ui://") && !s.contains("http://www.w3.org/2000/svg"))
                .collect();
            assert_eq!(outside, Vec::<&str>::new(), "{}", view.uri);
            for banned in [
                "<link",
                "@import",
                "src=\"",
                "fetch(",
                "XMLHttpRequest",
                "WebSocket",
            ] {
                assert!(!view.html.contains(banned), "{} contains {banned}", view.uri);
            }
        }
    }

    #[test]
    fn every_linked_view_is_served_and_only_report_tools_link_one() {
        let uris: Vec<&str> = all().iter().map(|v| v.uri).collect();
        let linked: Vec<(&str, &str)> = crate::specs()
            .iter()
            .filter_map(|s| s.view.map(|v| (s.name, v)))
            .collect();
        assert_eq!(
            linked,
            vec![
                ("spending_report", SPENDING),
                ("budget_report", BUDGET),
                ("card_bill", CARD_BILL)
            ]
        );
        assert!(linked.iter().all(|(_, v)| uris.contains(v)));
    }
}
