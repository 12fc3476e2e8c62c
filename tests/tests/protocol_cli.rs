//! The binary's subcommands and its DynamoDB wiring, end to end: `token` mints what the
//! running server accepts, bad arguments get the usage, `create-table` needs a table name.
//! (`create-table` against a real table is in dynamo.rs, with the other moto tests.)

use crate::e2e::{Server, run};
use serde_json::json;

fn list_vaults(s: &Server, bearer: &str) -> (u16, serde_json::Value) {
    let r = s.post_json(
        &[("mcp-protocol-version", "2025-11-25"), ("authorization", bearer)],
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"list_vaults","arguments":{}}}"#,
    );
    let body = if r.body.is_empty() {
        serde_json::Value::Null
    } else {
        r.json()
    };
    (r.status, body)
}

#[test]
fn token_subcommand_mints_for_the_running_server_only() {
    let s = Server::start();
    let data_dir = s.data_dir().to_string_lossy().into_owned();
    let port = s.port.to_string();
    let env = [("DOCHIYA_DATA_DIR", data_dir.as_str()), ("DOCHIYA_AUTH", "dev")];
    let out = run(
        &[
            "token",
            "--sub",
            "alice",
            "--scopes",
            "ledger:read",
            "--port",
            &port,
        ],
        &env,
    );
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let token = String::from_utf8_lossy(&out.stdout).trim().to_owned();
    let (status, body) = list_vaults(&s, &format!("Bearer {token}"));
    assert_eq!(status, 200);
    assert_eq!(body["result"]["structuredContent"], json!({"vaults": []}));
    // A write needs ledger:write, which this token lacks.
    let r = s.post_json(
        &[("mcp-protocol-version", "2025-11-25"), ("authorization", &format!("Bearer {token}"))],
        r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"create_vault","arguments":{"name":"x"}}}"#,
    );
    assert_eq!(r.status, 403);
    assert!(
        r.header("www-authenticate")
            .is_some_and(|c| c.contains("insufficient_scope"))
    );
    // Minted for another port (another audience): refused.
    let other = run(&["token", "--port", "1"], &env);
    let other = String::from_utf8_lossy(&other.stdout).trim().to_owned();
    assert_eq!(list_vaults(&s, &format!("Bearer {other}")).0, 401);
}

#[test]
fn bad_arguments_exit_2_with_usage() {
    let out = run(&["--bogus"], &[]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.starts_with("dochiya-mcp: unknown argument \"--bogus\"\nusage: dochiya-mcp"),
        "{stderr}"
    );
}

#[test]
fn create_table_without_a_table_name_fails_with_a_reason() {
    let out = run(&["create-table"], &[]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("DOCHIYA_TABLE is not set"));
}
