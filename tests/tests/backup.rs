//! The full backup end to end: the two-month household (`book.rs`), kept by
//! two people, recorded on the embedded store on disk; `dochiya-mcp export` writes
//! its backup, `dochiya-mcp import` restores it into DynamoDB (moto); every read
//! tool then gives both people the same answers there as on the embedded store.
//! Importing the same file again changes nothing; `import --check` says whom a file
//! gives access and writes nothing; a truncated file, a file of another version, a
//! header naming someone who never kept the vault, and a vault name a person already
//! uses for another vault are refused with a message, the target store left as it was.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Arc;

use dochiya_store_dynamodb::DynamoStore;
use dochiya_store_embedded::EmbeddedStore;
use crate::harness::{Client, Harness};
use serde_json::{Value, json};

const OWNER: &str = "backup-owner";
const PARTNER: &str = "backup-partner";

/// `dochiya-mcp ARGS` with exactly `env` (nothing inherited) and `stdin`: (success, stdout, stderr).
fn dochiya(args: &[&str], env: &[(&str, String)], stdin: &[u8]) -> (bool, Vec<u8>, String) {
    let mut command = Command::new(crate::e2e::binary_path());
    for (key, _) in std::env::vars_os() {
        let key = key.to_string_lossy();
        if key.starts_with("DOCHIYA_") || key.starts_with("AWS_") {
            command.env_remove(&*key);
        }
    }
    let mut child = command
        .args(args)
        .env("DOCHIYA_LOG", "warn")
        .env("DOCHIYA_AUTH", "dev")
        .envs(env.iter().map(|(k, v)| (*k, v.as_str())))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn dochiya-mcp");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(stdin)
        .expect("write stdin");
    let out = child.wait_with_output().expect("wait");
    (
        out.status.success(),
        out.stdout,
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn dynamo_env(table: &str) -> Vec<(&'static str, String)> {
    let mut env = crate::e2e::dynamodb_env();
    env.push(("DOCHIYA_TABLE", table.to_owned()));
    env
}

fn unique(prefix: &str) -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    format!("{prefix}-{}-{nanos}", std::process::id())
}

async fn dynamo_harness(table: &str) -> Harness {
    let client = dochiya_store_dynamodb::load_client().await;
    Harness::over(Arc::new(DynamoStore::new(client, table))).await
}

fn new_table(table: &str) {
    let (ok, _, err) = dochiya(&["create-table"], &dynamo_env(table), b"");
    assert!(ok, "create-table: {err}");
}

/// What every read tool answers `p` about the vault.
async fn answers(p: &Client<'_>, ids: &[String]) -> Vec<(String, Value)> {
    let mut calls: Vec<(&str, Value)> = vec![
        ("list_vaults", json!({})),
        ("list_accounts", json!({"includeArchived": true})),
        ("list_transactions", json!({"includeVoided": true, "limit": 200})),
        (
            "list_transactions",
            json!({"account": "식비", "from": "2026-02-01"}),
        ),
        ("get_balances", json!({})),
        ("get_balances", json!({"asOf": "2026-01-31"})),
        (
            "spending_report",
            json!({"from": "2026-01-01", "to": "2026-02-28", "by": "month"}),
        ),
        (
            "spending_report",
            json!({"from": "2026-01-01", "to": "2026-02-28"}),
        ),
        ("net_worth_history", json!({"from": "2026-01", "to": "2026-03"})),
        ("reconcile", json!({})),
        ("list_snapshots", json!({})),
        ("budget_report", json!({"month": "2026-02"})),
        ("export_transactions", json!({"format": "beancount"})),
    ];
    for id in ids {
        calls.push(("get_transaction", json!({"transactionId": id})));
    }
    let mut out = Vec::new();
    for (tool, args) in calls {
        out.push((format!("{tool} {args}"), p.ok(tool, &args.to_string()).await));
    }
    out
}

/// The household on the embedded store in `dir`, kept by two people; the ids and both people's answers.
async fn household_on_disk(dir: &Path) -> (Vec<String>, Vec<(String, Value)>, Vec<(String, Value)>) {
    let h = Harness::over(Arc::new(EmbeddedStore::open_in_dir(dir).expect("embedded store"))).await;
    let owner = h.person(OWNER);
    let ids = crate::book::record(&owner).await;
    let invite = owner.ok("share_vault", "{}").await;
    let partner = h.person(PARTNER);
    partner
        .ok(
            "join_vault",
            &json!({"inviteCode": invite["inviteCode"]}).to_string(),
        )
        .await;
    let a = answers(&owner, &ids).await;
    let b = answers(&partner, &ids).await;
    (ids, a, b)
}

#[tokio::test]
async fn a_book_moves_from_the_embedded_store_to_dynamodb_with_every_answer_the_same() {
    let dir = std::env::temp_dir().join(unique("dochiya-backup"));
    let (ids, owner_before, partner_before) = household_on_disk(&dir).await;

    let data_dir: Vec<(&str, String)> = vec![("DOCHIYA_DATA_DIR", dir.to_string_lossy().into_owned())];
    let (ok, file, err) = dochiya(
        &["export", "--vault", crate::book::VAULT, "--sub", OWNER],
        &data_dir,
        b"",
    );
    assert!(ok, "export: {err}");
    assert!(err.contains("exported vault \"우리집\""), "{err}");
    let text = String::from_utf8(file.clone()).expect("UTF-8");
    let header: Value = serde_json::from_str(text.lines().next().expect("header")).expect("JSON");
    assert_eq!(header["format"], "dochiya-backup");
    assert_eq!(header["version"], 1);
    assert_eq!(header["persons"], json!([OWNER, PARTNER]));
    let trailer: Value = serde_json::from_str(text.lines().last().expect("trailer")).expect("JSON");
    assert_eq!(trailer["trailer"]["items"], text.lines().count() - 2);

    let table = unique("backup");
    new_table(&table);
    let env = dynamo_env(&table);
    // What an operator reads before importing a file: whom it gives access; nothing written.
    let (ok, _, err) = dochiya(&["import", "--check"], &env, &file);
    assert!(ok, "import --check: {err}");
    assert!(err.contains("importing it gives access to:"), "{err}");
    assert!(
        err.contains(&format!("  owner \"{OWNER}\", sub {OWNER}\n")),
        "{err}"
    );
    assert!(
        err.contains(&format!("  member \"{PARTNER}\", sub {PARTNER}\n")),
        "{err}"
    );
    assert!(err.ends_with("nothing was written (--check)\n"), "{err}");
    let h = dynamo_harness(&table).await;
    assert_eq!(
        h.person(OWNER).ok("list_vaults", "{}").await,
        json!({"vaults": []})
    );
    let (ok, _, err) = dochiya(&["import"], &env, &file);
    assert!(ok, "import: {err}");
    assert!(err.contains("imported vault \"우리집\""), "{err}");
    let (ok, _, err) = dochiya(&["import"], &env, &file);
    assert!(ok, "second import: {err}");
    assert!(err.contains("nothing changed"), "{err}");

    let owner_after = answers(&h.person(OWNER), &ids).await;
    let partner_after = answers(&h.person(PARTNER), &ids).await;
    for (before, after) in owner_before
        .iter()
        .zip(&owner_after)
        .chain(partner_before.iter().zip(&partner_after))
    {
        assert_eq!(before, after);
    }
    assert_eq!(owner_after.len(), 13 + ids.len());

    // The moved book keeps working: a replayed idempotency key is still a replay.
    let replay = h
        .person(OWNER)
        .ok(
            "record_transaction",
            r#"{"from": "월급", "to": "카카오뱅크", "amount": "3000000", "date": "2026-01-25", "memo": "1월 급여", "idempotencyKey": "b-5"}"#,
        )
        .await;
    assert_eq!(replay["replayed"], true);
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test]
async fn bad_backups_are_refused_and_leave_the_store_as_it_was() {
    let dir = std::env::temp_dir().join(unique("dochiya-backup-bad"));
    household_on_disk(&dir).await;
    let data_dir: Vec<(&str, String)> = vec![("DOCHIYA_DATA_DIR", dir.to_string_lossy().into_owned())];
    let (ok, file, err) = dochiya(
        &["export", "--sub", OWNER, "--vault", crate::book::VAULT],
        &data_dir,
        b"",
    );
    assert!(ok, "export: {err}");
    let text = String::from_utf8(file).expect("UTF-8");
    let lines: Vec<&str> = text.lines().collect();

    let table = unique("backup-bad");
    new_table(&table);
    let env = dynamo_env(&table);
    let refused = |input: String, expected: &str| {
        let (ok, _, err) = dochiya(&["import"], &env, input.as_bytes());
        assert!(!ok, "accepted: {expected}");
        assert!(err.contains(expected), "{err}");
    };
    let truncated = lines[..lines.len() - 5].join("\n") + "\n";
    refused(truncated, "the backup is truncated or altered: it ends after");
    let cut = text[..text.len() - 10].to_string();
    refused(cut, "is cut off");
    let other_version = text.replacen("\"version\":1", "\"version\":2", 1);
    refused(
        other_version,
        "backup format version 2 is not one this dochiya reads",
    );
    let altered = text.replacen("\"S\":\"카카오뱅크\"", "\"S\":\"카카오뱅크2\"", 1);
    refused(altered, "do not match the trailer's SHA-256");
    refused("{}\n".into(), "not a dochiya backup");
    // A header that names someone who never kept the vault (the header is not hashed).
    let stranger = text.replacen(
        &format!("\"persons\":[\"{OWNER}\",\"{PARTNER}\"]"),
        &format!("\"persons\":[\"{OWNER}\",\"{PARTNER}\",\"stranger\"]"),
        1,
    );
    refused(
        stranger,
        "the backup's header names stranger, who is not a member of the vault in it; nothing was written",
    );

    // The owner already keeps another vault named 우리집 in the target.
    // (Made through a ledger with the system's randomness: the harness's seeded ids
    // would give this vault the backed-up vault's id.)
    let client = dochiya_store_dynamodb::load_client().await;
    let ledger = dochiya_ledger::Ledger::new(
        Arc::new(DynamoStore::new(client, &table)),
        Arc::new(dochiya_domain::SystemClock),
        dochiya_ledger::LedgerConfig::default(),
    );
    let new_vault = dochiya_ledger::api::NewVault {
        name: "우리집".into(),
        currency: None,
        time_zone: None,
    };
    let owner_id = dochiya_domain::PersonId::new(OWNER).expect("subject");
    ledger
        .create_vault(&owner_id, new_vault)
        .await
        .expect("create_vault");
    let h = dynamo_harness(&table).await;
    let owner = h.person(OWNER);
    let before = owner.ok("list_vaults", "{}").await;
    refused(
        text.clone(),
        &format!("{OWNER} already has a different vault named \"우리집\""),
    );
    assert_eq!(owner.ok("list_vaults", "{}").await, before);
    assert_eq!(
        h.person(PARTNER).ok("list_vaults", "{}").await,
        json!({"vaults": []})
    );

    // Mapped to another subject, the same file goes in.
    let (ok, _, err) = dochiya(
        &["import", "--person", &format!("{OWNER}=moved-owner")],
        &env,
        text.as_bytes(),
    );
    assert!(ok, "mapped import: {err}");
    let moved = h.person("moved-owner").ok("list_vaults", "{}").await;
    assert_eq!(moved["vaults"][0]["name"], "우리집");
    let _ = std::fs::remove_dir_all(PathBuf::from(&dir));
}

/// `dochiya-mcp delete-person` (decision 059), as an operator runs it against the table:
/// the owner of a shared household is deleted; the partner keeps the book as its owner,
/// the owner's token from before reaches nothing, and the command refuses to run
/// without naming whom.
#[tokio::test]
async fn an_operator_deletes_a_person_with_the_command() {
    let table = unique("delete-person");
    new_table(&table);
    let h = dynamo_harness(&table).await;
    let owner_sub = unique("deleted-owner");
    let owner = h.person_named(&owner_sub, "지훈");
    crate::book::record(&owner).await;
    let invite = owner.ok("share_vault", "{}").await;
    let partner = h.person_named(&unique("partner"), "하은");
    partner
        .ok(
            "join_vault",
            &json!({"inviteCode": invite["inviteCode"]}).to_string(),
        )
        .await;
    // The tokens above are from an earlier second than the deletion (`iat` < `closedAt`).
    tokio::time::sleep(std::time::Duration::from_millis(1100)).await;

    let (ok, _, err) = dochiya(&["delete-person"], &dynamo_env(&table), b"");
    assert!(!ok);
    assert!(err.contains("delete-person needs --sub: whose data to delete"), "{err}");

    let (ok, out, err) = dochiya(&["delete-person", "--sub", &owner_sub], &dynamo_env(&table), b"");
    assert!(ok, "delete-person: {err}");
    let out = String::from_utf8_lossy(&out).trim().to_owned();
    let prefix = format!(
        "dochiya: deleted person {owner_sub:?}: vaults deleted []; shared vaults left [\"{}\" (now owned by 하은)]; ",
        crate::book::VAULT
    );
    let suffix = " other records; 0 grants ended, 0 consents removed";
    let records = out
        .strip_prefix(&prefix)
        .and_then(|rest| rest.strip_suffix(suffix))
        .and_then(|n| n.parse::<u64>().ok());
    assert!(records.is_some_and(|n| n > 0), "{out}");

    let vaults = partner.ok("list_vaults", "{}").await;
    assert_eq!(vaults["vaults"][0]["name"], crate::book::VAULT);
    assert_eq!(vaults["vaults"][0]["role"], "owner");
    assert_eq!(vaults["vaults"][0]["memberCount"], 1);
    let refused = owner.err("list_vaults", "{}").await;
    assert!(refused.starts_with("This person's data was deleted"), "{refused}");
}
