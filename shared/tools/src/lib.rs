//! The ledger tools of docs/tools.md, each declared once: schemas, annotations, scope, handler.
//!
//! [`all`] builds every tool over one [`Ledger`] for the protocol layer to
//! register; [`INSTRUCTIONS`] is the server's advice to a model on using them.

mod args;
mod errors;
mod operation;
pub mod schema;
mod text;
mod tools;
mod wire;

use std::sync::Arc;

use dochiya_ledger::Ledger;
use dochiya_protocol::{Tool, ToolSpec};

use operation::{LedgerTool, Operation, spec};
use tools::*;

/// Server instructions (sent in `initialize` and `server/discover`): how to use the tools well.
pub const INSTRUCTIONS: &str = "dochiya is a household ledger (가계부). Start with list_vaults: it gives each vault's name, currency and `today` in the vault's time zone (use it for default dates and for \"this month\"; you do not otherwise know the date). Refer to vaults and accounts by their NAMES (e.g. \"카카오뱅크\", \"식비\"), never by ids; `vault` can be left out when there is only one. Amounts are decimal strings in the vault currency's major unit (\"12500\" won, \"12.50\" dollars), never with thousands separators. Money moves from `from` to `to`: lunch paid from the bank is from \"카카오뱅크\" to \"식비\"; a salary is from \"월급\" to \"카카오뱅크\". For record_transaction and record_split_transaction, make up an idempotencyKey once for each new entry and reuse it unchanged when you retry that same entry, so it is recorded once. To enter a statement or many entries at once, use record_transactions (dryRun first; each line's own id as externalRef). Use dryRun: true to preview a write. Transaction ids are decimal strings: pass them back exactly as strings, never as numbers. When a tool returns an error, read it: it names the closest account names, the unbalanced difference, or the earlier duplicate, and says what to do next.";

/// Every tool over `ledger`, in a fixed order: reads first, then writes, as in docs/tools.md.
pub fn all(ledger: Arc<Ledger>) -> Vec<Arc<dyn Tool>> {
    fn tool<O: Operation>(ledger: &Arc<Ledger>) -> Arc<dyn Tool> {
        Arc::new(LedgerTool::<O>::new(Arc::clone(ledger)))
    }
    vec![
        tool::<list_vaults::ListVaults>(&ledger),
        tool::<list_accounts::ListAccounts>(&ledger),
        tool::<list_transactions::ListTransactions>(&ledger),
        tool::<get_transaction::GetTransaction>(&ledger),
        tool::<get_balances::GetBalances>(&ledger),
        tool::<spending_report::SpendingReport>(&ledger),
        tool::<net_worth_history::NetWorthHistory>(&ledger),
        tool::<reconcile::Reconcile>(&ledger),
        tool::<create_vault::CreateVault>(&ledger),
        tool::<rename_vault::RenameVault>(&ledger),
        tool::<create_account::CreateAccount>(&ledger),
        tool::<rename_account::RenameAccount>(&ledger),
        tool::<archive_account::ArchiveAccount>(&ledger),
        tool::<record_transaction::RecordTransaction>(&ledger),
        tool::<record_split_transaction::RecordSplitTransaction>(&ledger),
        tool::<void_transaction::VoidTransaction>(&ledger),
        tool::<upsert_snapshot::UpsertSnapshot>(&ledger),
        tool::<edit_transaction::EditTransaction>(&ledger),
        tool::<list_snapshots::ListSnapshots>(&ledger),
        tool::<delete_snapshot::DeleteSnapshot>(&ledger),
        tool::<share_vault::ShareVault>(&ledger),
        tool::<join_vault::JoinVault>(&ledger),
        tool::<list_members::ListMembers>(&ledger),
        tool::<remove_member::RemoveMember>(&ledger),
        tool::<leave_vault::LeaveVault>(&ledger),
        tool::<set_budget::SetBudget>(&ledger),
        tool::<budget_report::BudgetReport>(&ledger),
        tool::<record_transactions::RecordTransactions>(&ledger),
        tool::<set_recurring::SetRecurring>(&ledger),
        tool::<list_recurring::ListRecurring>(&ledger),
    ]
}

/// The declarations of every tool, in the order of [`all`], without a ledger (docs, tests).
pub fn specs() -> Vec<ToolSpec> {
    vec![
        spec::<list_vaults::ListVaults>(),
        spec::<list_accounts::ListAccounts>(),
        spec::<list_transactions::ListTransactions>(),
        spec::<get_transaction::GetTransaction>(),
        spec::<get_balances::GetBalances>(),
        spec::<spending_report::SpendingReport>(),
        spec::<net_worth_history::NetWorthHistory>(),
        spec::<reconcile::Reconcile>(),
        spec::<create_vault::CreateVault>(),
        spec::<rename_vault::RenameVault>(),
        spec::<create_account::CreateAccount>(),
        spec::<rename_account::RenameAccount>(),
        spec::<archive_account::ArchiveAccount>(),
        spec::<record_transaction::RecordTransaction>(),
        spec::<record_split_transaction::RecordSplitTransaction>(),
        spec::<void_transaction::VoidTransaction>(),
        spec::<upsert_snapshot::UpsertSnapshot>(),
        spec::<edit_transaction::EditTransaction>(),
        spec::<list_snapshots::ListSnapshots>(),
        spec::<delete_snapshot::DeleteSnapshot>(),
        spec::<share_vault::ShareVault>(),
        spec::<join_vault::JoinVault>(),
        spec::<list_members::ListMembers>(),
        spec::<remove_member::RemoveMember>(),
        spec::<leave_vault::LeaveVault>(),
        spec::<set_budget::SetBudget>(),
        spec::<budget_report::BudgetReport>(),
        spec::<record_transactions::RecordTransactions>(),
        spec::<set_recurring::SetRecurring>(),
        spec::<list_recurring::ListRecurring>(),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    /// The tool contract's argument names (docs/tools.md), per tool in `tools/list`
    /// order: every argument, then the required ones.
    const CONTRACT: &[(&str, &[&str], &[&str])] = &[
        ("list_vaults", &[], &[]),
        ("list_accounts", &["vault", "includeArchived"], &[]),
        (
            "list_transactions",
            &[
                "vault",
                "account",
                "from",
                "to",
                "text",
                "limit",
                "cursor",
                "includeVoided",
            ],
            &[],
        ),
        ("get_transaction", &["vault", "transactionId"], &["transactionId"]),
        ("get_balances", &["vault", "asOf"], &[]),
        (
            "spending_report",
            &["vault", "from", "to", "by", "kind"],
            &["from", "to"],
        ),
        ("net_worth_history", &["vault", "from", "to"], &["from", "to"]),
        ("reconcile", &["vault", "account"], &[]),
        ("create_vault", &["name", "currency", "timeZone"], &["name"]),
        ("rename_vault", &["vault", "newName"], &["vault", "newName"]),
        (
            "create_account",
            &["vault", "name", "kind", "openingBalance", "openingDate"],
            &["name", "kind"],
        ),
        (
            "rename_account",
            &["vault", "account", "newName"],
            &["account", "newName"],
        ),
        ("archive_account", &["vault", "account", "force"], &["account"]),
        (
            "record_transaction",
            &[
                "vault",
                "from",
                "to",
                "amount",
                "date",
                "memo",
                "idempotencyKey",
                "allowDuplicate",
                "futureDate",
                "dryRun",
                "externalRef",
            ],
            &["from", "to", "amount", "idempotencyKey"],
        ),
        (
            "record_split_transaction",
            &[
                "vault",
                "from",
                "to",
                "date",
                "memo",
                "idempotencyKey",
                "allowDuplicate",
                "futureDate",
                "dryRun",
            ],
            &["from", "to", "idempotencyKey"],
        ),
        (
            "void_transaction",
            &["vault", "transactionId", "reason"],
            &["transactionId"],
        ),
        (
            "upsert_snapshot",
            &["vault", "account", "date", "balance"],
            &["account", "date", "balance"],
        ),
        (
            "edit_transaction",
            &[
                "vault",
                "transactionId",
                "idempotencyKey",
                "dryRun",
                "expectedVersion",
                "amount",
                "date",
                "memo",
                "from",
                "to",
                "lines",
                "futureDate",
            ],
            &["transactionId", "idempotencyKey"],
        ),
        ("list_snapshots", &["vault", "account", "from", "to"], &[]),
        (
            "delete_snapshot",
            &["vault", "account", "date"],
            &["account", "date"],
        ),
        ("share_vault", &["vault", "role"], &[]),
        ("join_vault", &["inviteCode", "name"], &["inviteCode"]),
        ("list_members", &["vault"], &[]),
        ("remove_member", &["vault", "member"], &["member"]),
        ("leave_vault", &["vault"], &[]),
        (
            "set_budget",
            &["vault", "account", "amount", "month", "repeat"],
            &["account", "amount"],
        ),
        ("budget_report", &["vault", "month"], &[]),
        (
            "record_transactions",
            &["vault", "entries", "idempotencyKey", "dryRun", "allowDuplicate"],
            &["entries", "idempotencyKey"],
        ),
        (
            "set_recurring",
            &[
                "vault", "name", "from", "to", "amount", "day", "every", "start", "end", "memo", "change",
                "remove",
            ],
            &["name"],
        ),
        ("list_recurring", &["vault", "month"], &[]),
    ];

    #[test]
    fn every_tool_of_the_contract_in_order() {
        let names: Vec<&str> = specs().iter().map(|s| s.name).collect();
        let contract: Vec<&str> = CONTRACT.iter().map(|(name, _, _)| *name).collect();
        assert_eq!(names, contract);
    }

    #[test]
    fn names_are_short_snake_case() {
        for spec in specs() {
            assert!(spec.name.len() <= 64, "{}", spec.name);
            assert!(
                spec.name.bytes().all(|b| b.is_ascii_lowercase() || b == b'_'),
                "{}",
                spec.name
            );
            assert!(
                !spec.title.is_empty() && !spec.description.is_empty(),
                "{}",
                spec.name
            );
        }
    }

    #[test]
    fn schemas_are_flat_described_objects() {
        for spec in specs() {
            assert_eq!(
                schema::check_published(&spec.input_schema),
                Ok(()),
                "{} input",
                spec.name
            );
            assert_eq!(
                schema::check_published(&spec.output_schema),
                Ok(()),
                "{} output",
                spec.name
            );
            // A misspelled argument must be an error the model sees.
            assert_eq!(
                spec.input_schema["additionalProperties"],
                Value::Bool(false),
                "{}",
                spec.name
            );
        }
    }

    #[test]
    fn scopes_and_annotations_follow_the_design() {
        let reads = [
            "list_vaults",
            "list_accounts",
            "list_transactions",
            "get_transaction",
            "get_balances",
            "spending_report",
            "net_worth_history",
            "reconcile",
            "budget_report",
            "list_members",
            "list_snapshots",
            "list_recurring",
        ];
        let destructive = [
            "void_transaction",
            "archive_account",
            "remove_member",
            "leave_vault",
            "delete_snapshot",
            "set_recurring",
        ];
        let idempotent_writes = [
            "create_vault",
            "rename_vault",
            "create_account",
            "rename_account",
            "upsert_snapshot",
            "void_transaction",
            "set_budget",
            "delete_snapshot",
            "set_recurring",
        ];
        for spec in specs() {
            let a = spec.annotations;
            assert!(!a.open_world, "{}", spec.name);
            if reads.contains(&spec.name) {
                assert_eq!(spec.scope, "ledger:read", "{}", spec.name);
                assert!(a.read_only && !a.destructive, "{}", spec.name);
            } else {
                assert_eq!(spec.scope, "ledger:write", "{}", spec.name);
                assert!(!a.read_only, "{}", spec.name);
                assert_eq!(a.destructive, destructive.contains(&spec.name), "{}", spec.name);
                assert_eq!(
                    a.idempotent,
                    idempotent_writes.contains(&spec.name),
                    "{}",
                    spec.name
                );
            }
        }
    }

    /// Every `transactionId` a result can carry has the decimal-string pattern.
    #[test]
    fn transaction_ids_are_patterned_strings() {
        fn visit(v: &Value, found: &mut usize) {
            if let Value::Object(map) = v {
                if let Some(Value::Object(props)) = map.get("properties") {
                    for (name, prop) in props {
                        if name == "transactionId" || name == "openingTransactionId" {
                            assert_eq!(prop["type"], "string");
                            assert_eq!(prop["pattern"], "^(0|[1-9][0-9]*)$");
                            *found += 1;
                        }
                    }
                }
                map.values().for_each(|x| visit(x, found));
            } else if let Value::Array(items) = v {
                items.iter().for_each(|x| visit(x, found));
            }
        }
        let mut found = 0;
        for spec in specs() {
            visit(&spec.output_schema, &mut found);
            visit(&spec.input_schema, &mut found);
        }
        // Outputs: list/get/record×2/void transactions + create_account's opening id
        // + record_transactions' results and their current + edit's and record×2's
        // current; inputs: get + void + edit.
        assert_eq!(found, 15);
    }

    /// The published input schema and the deserializer agree: each example is
    /// accepted by both, each counter-example refused by both.
    #[test]
    fn input_schemas_agree_with_the_argument_parser() {
        fn check<O: Operation>(good: &[&str], bad: &[&str]) {
            let spec = spec::<O>();
            let validator =
                jsonschema::validator_for(&spec.input_schema).unwrap_or_else(|e| panic!("{}: {e}", O::NAME));
            for text in good {
                let value: Value = serde_json::from_str(text).unwrap_or_default();
                assert!(validator.is_valid(&value), "{}: schema refuses {text}", O::NAME);
                let raw = serde_json::value::RawValue::from_string((*text).to_owned()).ok();
                let parsed = args::parse::<O::Args>(raw.as_deref());
                assert!(
                    parsed.is_ok(),
                    "{}: parser refuses {text}: {:?}",
                    O::NAME,
                    parsed.err()
                );
            }
            for text in bad {
                let value: Value = serde_json::from_str(text).unwrap_or_default();
                assert!(!validator.is_valid(&value), "{}: schema accepts {text}", O::NAME);
                let raw = serde_json::value::RawValue::from_string((*text).to_owned()).ok();
                assert!(
                    args::parse::<O::Args>(raw.as_deref()).is_err(),
                    "{}: parser accepts {text}",
                    O::NAME
                );
            }
        }
        check::<list_vaults::ListVaults>(&["{}"], &[r#"{"vault": "x"}"#]);
        check::<list_accounts::ListAccounts>(
            &["{}", r#"{"vault": "우리집", "includeArchived": true}"#],
            &[r#"{"includeArchived": "yes"}"#],
        );
        check::<list_transactions::ListTransactions>(
            &[
                r#"{"account": "식비", "from": "2026-03-01", "to": "2026-03-31", "text": "점심", "limit": 200, "cursor": "c"}"#,
            ],
            &[r#"{"from": "2026/03/01"}"#, r#"{"limit": "5"}"#, r#"{"page": 2}"#],
        );
        check::<get_transaction::GetTransaction>(
            &[r#"{"transactionId": "4818349038087529260"}"#],
            &[
                "{}",
                r#"{"transactionId": 4818349038087529260}"#,
                r#"{"transactionId": "0123"}"#,
            ],
        );
        check::<get_balances::GetBalances>(&["{}", r#"{"asOf": "2026-03-10"}"#], &[r#"{"asOf": "today"}"#]);
        check::<spending_report::SpendingReport>(
            &[r#"{"from": "2026-03-01", "to": "2026-03-31", "by": "month", "kind": "income"}"#],
            &[
                r#"{"from": "2026-03-01"}"#,
                r#"{"from": "2026-03-01", "to": "2026-03-31", "by": "week"}"#,
            ],
        );
        check::<net_worth_history::NetWorthHistory>(
            &[
                r#"{"from": "2026-01", "to": "2026-03"}"#,
                r#"{"from": "2026-01-01", "to": "2026-03-31"}"#,
            ],
            &[r#"{"from": "2026"}"#],
        );
        check::<reconcile::Reconcile>(&["{}", r#"{"account": "카카오뱅크"}"#], &[r#"{"accounts": "x"}"#]);
        check::<create_vault::CreateVault>(
            &[r#"{"name": "우리집", "currency": "KRW", "timeZone": "Asia/Seoul"}"#],
            &["{}", r#"{"name": 1}"#],
        );
        check::<rename_vault::RenameVault>(&[r#"{"vault": "a", "newName": "b"}"#], &[r#"{"newName": "b"}"#]);
        check::<create_account::CreateAccount>(
            &[
                r#"{"name": "신한카드", "kind": "liability", "openingBalance": "300000", "openingDate": "2026-03-01"}"#,
            ],
            &[
                r#"{"name": "x", "kind": "salary"}"#,
                r#"{"name": "x", "kind": "asset", "openingBalance": "1,000"}"#,
            ],
        );
        check::<rename_account::RenameAccount>(
            &[r#"{"account": "a", "newName": "b"}"#],
            &[r#"{"account": "a"}"#],
        );
        check::<archive_account::ArchiveAccount>(&[r#"{"account": "a"}"#], &["{}"]);
        check::<record_transaction::RecordTransaction>(
            &[
                r#"{"from": "카카오뱅크", "to": "식비", "amount": "12000", "idempotencyKey": "k"}"#,
                r#"{"vault": "우리집", "from": "카카오뱅크", "to": "식비", "amount": "12.50", "date": "2026-03-02", "memo": "점심", "idempotencyKey": "k", "allowDuplicate": true, "dryRun": false}"#,
            ],
            &[
                r#"{"from": "카카오뱅크", "to": "식비", "amount": "12000"}"#,
                r#"{"from": "카카오뱅크", "to": "식비", "amount": "12,000", "idempotencyKey": "k"}"#,
                r#"{"from": "카카오뱅크", "to": "식비", "amount": "12000", "idempotencyKey": "k", "currency": "KRW"}"#,
            ],
        );
        check::<record_split_transaction::RecordSplitTransaction>(
            &[
                r#"{"from": [{"account": "신한카드", "amount": "45000"}], "to": [{"account": "식비", "amount": "30000"}, {"account": "생활용품", "amount": "15000"}], "idempotencyKey": "k"}"#,
            ],
            &[
                r#"{"from": [{"account": "신한카드"}], "to": [{"account": "식비", "amount": "1"}], "idempotencyKey": "k"}"#,
                r#"{"from": "신한카드", "to": [{"account": "식비", "amount": "1"}], "idempotencyKey": "k"}"#,
            ],
        );
        check::<void_transaction::VoidTransaction>(
            &[r#"{"transactionId": "4818349038087529260", "reason": "중복"}"#],
            &[r#"{"transactionId": 4818349038087529260}"#],
        );
        check::<edit_transaction::EditTransaction>(
            &[
                r#"{"transactionId": "4818349038087529260", "idempotencyKey": "k", "amount": "9000", "date": "2026-03-02"}"#,
                r#"{"transactionId": "4818349038087529260", "idempotencyKey": "k", "expectedVersion": 2, "lines": {"from": [{"account": "신한카드", "amount": "45000"}], "to": [{"account": "식비", "amount": "45000"}]}, "dryRun": true}"#,
            ],
            &[
                r#"{"transactionId": 4818349038087529260, "idempotencyKey": "k", "memo": "x"}"#,
                r#"{"transactionId": "4818349038087529260", "memo": "x"}"#,
                r#"{"transactionId": "4818349038087529260", "idempotencyKey": "k", "expectedVersion": 0}"#,
                r#"{"transactionId": "4818349038087529260", "idempotencyKey": "k", "lines": [{"account": "식비", "amount": "1"}]}"#,
            ],
        );
        check::<list_snapshots::ListSnapshots>(
            &[
                "{}",
                r#"{"account": "카카오뱅크", "from": "2026-03-01", "to": "2026-03-31"}"#,
            ],
            &[r#"{"date": "2026-03-01"}"#],
        );
        check::<delete_snapshot::DeleteSnapshot>(
            &[r#"{"account": "카카오뱅크", "date": "2027-11-30"}"#],
            &[
                r#"{"account": "카카오뱅크"}"#,
                r#"{"account": "카카오뱅크", "date": "2027/11/30"}"#,
            ],
        );
        check::<upsert_snapshot::UpsertSnapshot>(
            &[r#"{"account": "카카오뱅크", "date": "2026-03-15", "balance": "-5000"}"#],
            &[
                r#"{"account": "카카오뱅크", "date": "2026-03-15"}"#,
                r#"{"account": "카카오뱅크", "date": "15/03", "balance": "1"}"#,
            ],
        );
        check::<share_vault::ShareVault>(&[r#"{}"#, r#"{"role": "owner"}"#], &[r#"{"role": "admin"}"#]);
        check::<join_vault::JoinVault>(
            &[r#"{"inviteCode": "7K2M-QX4P-9RTW-HB3N-5CZA-8VDE-1FGJ", "name": "우리집"}"#],
            &[r#"{}"#, r#"{"inviteCode": 12345}"#],
        );
        check::<remove_member::RemoveMember>(&[r#"{"member": "민지"}"#], &[r#"{}"#]);
        check::<set_budget::SetBudget>(
            &[
                r#"{"account": "식비", "amount": "600000"}"#,
                r#"{"vault": "우리집", "account": "식비", "amount": "0", "month": "2026-04", "repeat": false}"#,
            ],
            &[
                r#"{"account": "식비"}"#,
                r#"{"account": "식비", "amount": "1", "month": "2026/04"}"#,
                r#"{"account": "식비", "amount": "1", "repeat": "yes"}"#,
            ],
        );
        check::<budget_report::BudgetReport>(
            &["{}", r#"{"vault": "우리집", "month": "2026-03"}"#],
            &[r#"{"month": "March"}"#, r#"{"account": "식비"}"#],
        );
        check::<record_transactions::RecordTransactions>(
            &[
                r#"{"entries": [{"from": "신한카드", "to": "식비", "amount": "8000"}], "idempotencyKey": "k"}"#,
                // A bad amount or date is that entry's error, not the call's.
                r#"{"vault": "우리집", "entries": [{"from": "신한카드", "to": "식비", "amount": "12.5", "date": "2026-02-30", "memo": "점심", "externalRef": "30012345"}], "idempotencyKey": "k", "dryRun": true, "allowDuplicate": false}"#,
            ],
            &[
                r#"{"entries": [{"from": "신한카드", "to": "식비", "amount": "8000"}]}"#,
                r#"{"entries": [{"from": "신한카드", "amount": "8000"}], "idempotencyKey": "k"}"#,
                r#"{"entries": [{"from": "신한카드", "to": "식비", "amount": "8000", "account": "x"}], "idempotencyKey": "k"}"#,
            ],
        );
        check::<set_recurring::SetRecurring>(
            &[
                r#"{"name": "월세", "from": "카카오뱅크", "to": "주거비", "amount": "500000", "day": 25}"#,
                r#"{"name": "보험", "from": "카카오뱅크", "to": "보험료", "amount": "120000", "every": "year", "start": "2026-03-10", "end": "2030-03-10", "memo": "자동차보험"}"#,
                r#"{"name": "월세", "amount": "550000", "change": true}"#,
                r#"{"name": "월세", "remove": true}"#,
            ],
            &[
                r#"{"from": "카카오뱅크"}"#,
                r#"{"name": "월세", "every": "week"}"#,
                r#"{"name": "월세", "day": "25일"}"#,
                r#"{"name": "월세", "start": "3월 1일"}"#,
            ],
        );
        check::<list_recurring::ListRecurring>(
            &["{}", r#"{"vault": "우리집", "month": "2026-03"}"#],
            &[r#"{"month": "2026-03-01"}"#, r#"{"name": "월세"}"#],
        );
    }

    /// The argument names of docs/tools.md are the contract: exactly these, these required.
    #[test]
    fn arguments_are_exactly_those_of_the_contract() {
        let specs = specs();
        assert_eq!(specs.len(), CONTRACT.len());
        for ((name, args, required), spec) in CONTRACT.iter().zip(&specs) {
            assert_eq!(spec.name, *name);
            let mut published: Vec<&str> = spec.input_schema["properties"]
                .as_object()
                .map(|p| p.keys().map(String::as_str).collect())
                .unwrap_or_default();
            published.sort_unstable();
            let mut expected = args.to_vec();
            expected.sort_unstable();
            assert_eq!(published, expected, "{name}");
            let mut published_required: Vec<&str> = spec.input_schema["required"]
                .as_array()
                .map(|r| r.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            published_required.sort_unstable();
            let mut expected_required = required.to_vec();
            expected_required.sort_unstable();
            assert_eq!(published_required, expected_required, "{name}");
        }
    }

    /// Every result field docs/tools.md names is published and always present (fields may grow).
    #[test]
    fn results_carry_the_fields_of_the_contract() {
        let contract: &[(&str, &[&str])] = &[
            ("list_vaults", &["vaults"]),
            ("list_accounts", &["vault", "currency", "accounts"]),
            ("list_transactions", &["vault", "currency", "transactions"]),
            ("get_transaction", &["vault", "currency", "transaction"]),
            (
                "get_balances",
                &["vault", "currency", "asOf", "accounts", "totals"],
            ),
            (
                "spending_report",
                &["vault", "currency", "from", "to", "kind", "total", "rows"],
            ),
            ("net_worth_history", &["vault", "currency", "points"]),
            ("reconcile", &["vault", "currency", "accounts"]),
            (
                "create_vault",
                &["vaultId", "name", "currency", "timeZone", "created"],
            ),
            ("rename_vault", &["vaultId", "name"]),
            (
                "create_account",
                &["accountId", "name", "kind", "balance", "created"],
            ),
            ("rename_account", &["accountId", "name"]),
            ("archive_account", &["accountId", "name", "archived"]),
            (
                "record_transaction",
                &["transaction", "balances", "replayed", "dryRun"],
            ),
            (
                "record_split_transaction",
                &["transaction", "balances", "replayed", "dryRun"],
            ),
            ("void_transaction", &["transaction", "alreadyVoided"]),
            (
                "upsert_snapshot",
                &[
                    "accountId",
                    "account",
                    "date",
                    "balance",
                    "ledgerBalance",
                    "difference",
                ],
            ),
            (
                "edit_transaction",
                &["transaction", "balances", "replayed", "dryRun", "changed"],
            ),
            ("list_snapshots", &["vault", "currency", "snapshots"]),
            ("delete_snapshot", &["accountId", "account", "date", "deleted"]),
            ("share_vault", &["vault", "inviteCode", "expiresAt", "role"]),
            ("join_vault", &["vault", "role", "members"]),
            ("list_members", &["vault", "members"]),
            ("remove_member", &["vault", "member", "removed"]),
            ("leave_vault", &["vault", "left"]),
            ("set_budget", &["vault", "account", "month", "amount", "repeat"]),
            (
                "budget_report",
                &["vault", "currency", "month", "rows", "totals", "unbudgetedSpent"],
            ),
            (
                "record_transactions",
                &["vault", "currency", "results", "counts", "balances", "dryRun"],
            ),
        ];
        let required = |schema: &Value| -> Vec<String> {
            schema["required"]
                .as_array()
                .map(|r| r.iter().filter_map(Value::as_str).map(str::to_owned).collect())
                .unwrap_or_default()
        };
        for ((name, fields), spec) in contract.iter().zip(specs()) {
            assert_eq!(spec.name, *name);
            let present = required(&spec.output_schema);
            for field in *fields {
                assert!(
                    present.iter().any(|p| p == field),
                    "{name}: {field} is not a required result field"
                );
            }
            if let Some(transaction) = spec.output_schema["properties"].get("transaction") {
                let t = required(transaction);
                // A recording's dry run is a preview without an id (decision 028).
                let preview_without_id = ["record_transaction", "record_split_transaction"].contains(name);
                assert_eq!(
                    t.iter().any(|p| p == "transactionId"),
                    !preview_without_id,
                    "{name}: transaction.transactionId"
                );
                for field in ["date", "memo", "voided", "postings", "version"] {
                    assert!(t.iter().any(|p| p == field), "{name}: transaction.{field}");
                }
                let posting = required(&transaction["properties"]["postings"]["items"]);
                assert_eq!(posting, ["accountId", "account", "amount"], "{name}");
            }
        }
    }

    /// Where a description states a constraint a machine can check, the schema
    /// agrees: an argument described as positive has a pattern that refuses a minus.
    #[test]
    fn descriptions_and_schemas_agree() {
        fn visit(v: &Value, tool: &str, checked: &mut usize) {
            let Value::Object(map) = v else { return };
            if let Some(Value::Object(props)) = map.get("properties") {
                for (name, prop) in props {
                    let d = prop["description"].as_str().unwrap_or("");
                    if let Some(pattern) = prop["pattern"].as_str().filter(|_| d.contains("ositive")) {
                        let v = jsonschema::validator_for(
                            &serde_json::json!({"type": "string", "pattern": pattern}),
                        )
                        .unwrap_or_else(|e| panic!("{tool}.{name}: {e}"));
                        assert!(!v.is_valid(&Value::from("-1")), "{tool}.{name} allows a minus");
                        assert!(v.is_valid(&Value::from("9000")), "{tool}.{name} refuses 9000");
                        *checked += 1;
                    }
                    visit(prop, tool, checked);
                }
            }
            for key in ["items"] {
                if let Some(inner) = map.get(key) {
                    visit(inner, tool, checked);
                }
            }
        }
        let mut checked = 0;
        for spec in specs() {
            visit(&spec.input_schema, spec.name, &mut checked);
        }
        // record_transaction's amount, the split's two line amounts, edit's amount and two
        // line amounts, record_transactions' entry amount.
        assert_eq!(checked, 7);
    }

    #[test]
    fn idempotency_key_says_reuse_unchanged() {
        for spec in specs()
            .iter()
            .filter(|s| s.name.starts_with("record_") || s.name == "edit_transaction")
        {
            let d = spec.input_schema["properties"]["idempotencyKey"]["description"]
                .as_str()
                .unwrap_or("");
            assert!(
                d.contains("reuse the same idempotencyKey unchanged"),
                "{}",
                spec.name
            );
            assert!(!d.contains("unique per request"), "{}", spec.name);
            assert_eq!(
                spec.input_schema["required"]
                    .as_array()
                    .map(|r| r.contains(&"idempotencyKey".into())),
                Some(true)
            );
        }
    }
}
