//! A second oracle: hledger. At the end of a history the book is exported in hledger's
//! format (every page) and `hledger bal` must give each account the model's balance.
//!
//! hledger comes from tests/stages/25-ledger-tools.sh, which sets
//! `DOCHIYA_LEDGER_TOOLS=required`: there a missing hledger fails the run; elsewhere the
//! check says loudly that it did not run.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::Command;

use serde_json::{Value, json};

use crate::book::{Book, Kind};
use crate::live::Live;

/// hledger's command, if it is installed; a panic when it must be and is not.
fn hledger() -> Option<&'static str> {
    let found = Command::new("hledger")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    let required = std::env::var("DOCHIYA_LEDGER_TOOLS").is_ok_and(|v| v == "required");
    match (found, required) {
        (true, _) => Some("hledger"),
        (false, true) => panic!("hledger is not installed; tests/stages/25-ledger-tools.sh installs it"),
        (false, false) => {
            eprintln!("NOT CHECKED: hledger is not installed (run tests/run.sh, or install it)");
            None
        }
    }
}

/// The root hledger files an account of `kind` under.
fn root(kind: Kind) -> &'static str {
    match kind {
        Kind::Asset => "assets",
        Kind::Liability => "liabilities",
        Kind::Equity => "equity",
        Kind::Income => "income",
        Kind::Expense => "expenses",
    }
}

/// The whole export in hledger's format, every page joined.
fn journal(live: &mut Live, book: &Book) -> String {
    let mut text = String::new();
    let mut args = json!({"format": "hledger"});
    loop {
        let page = live
            .call(book, 0, "export_transactions", &args)
            .ok("export_transactions hledger");
        text.push_str(page["text"].as_str().unwrap_or_default());
        match page.get("nextCursor").and_then(Value::as_str) {
            Some(c) => args["cursor"] = json!(c),
            None => return text,
        }
    }
}

/// `hledger bal` of the exported book equals the model: each account (by its root and
/// its name, an archived one by its handle, `:` as `：`) holds its debit-positive net
/// over every live entry; accounts that net to nothing are not listed.
pub fn check_hledger(live: &mut Live, book: &Book) {
    let Some(tool) = hledger() else { return };
    let text = journal(live, book);
    let dir = std::env::temp_dir().join(format!("dochiya-model-hledger-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a folder for the journal");
    let file: PathBuf = dir.join(format!("{}.journal", book.now));
    std::fs::write(&file, &text).expect("write the journal");
    let out = Command::new(tool)
        .arg("-f")
        .arg(&file)
        .args(["bal", "--flat", "--no-total", "-O", "csv"])
        .output()
        .expect("run hledger");
    let _ = std::fs::remove_file(&file);
    assert!(
        out.status.success(),
        "hledger bal refused the export:\n{}\n{text}",
        String::from_utf8_lossy(&out.stderr)
    );
    let csv = String::from_utf8_lossy(&out.stdout).into_owned();
    let mut shown: BTreeMap<String, i64> = BTreeMap::new();
    for row in crate::csv::rows(&csv).skip(1).filter(|r| r.len() == 2) {
        let amount = row[1].replace(',', "");
        let number = amount
            .split_whitespace()
            .find(|w| w.starts_with(['-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9']));
        let x = number
            .and_then(|n| book.currency().parse(n))
            .unwrap_or_else(|| panic!("hledger amount {:?}", row[1]));
        // The account by its root and its own name (the last component), so a nested
        // export (expenses:식비:외식) reads the same.
        let leaf = row[0].rsplit(':').next().unwrap_or_default();
        let top = row[0].split(':').next().unwrap_or_default();
        *shown.entry(format!("{top}:{leaf}")).or_default() += x;
    }
    let mut expected: BTreeMap<String, i64> = BTreeMap::new();
    for (a, account) in book.accounts.iter().enumerate() {
        let debit = account.kind.natural(book.net(a, None, None));
        if debit != 0 {
            let name = account.reference().replace(':', "：");
            *expected
                .entry(format!("{}:{name}", root(account.kind)))
                .or_default() += debit;
        }
    }
    assert_eq!(
        shown, expected,
        "hledger's balances of the exported journal differ from the model\n{text}"
    );
}
