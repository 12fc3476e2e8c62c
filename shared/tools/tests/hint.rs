//! Decision 044 at the tool layer: the roster hint a verified token carries reaches the
//! ledger, so a new instance's first call makes the warm call's store reads.

use std::sync::Arc;

use dochiya_domain::{AccountKind, ManualClock, PersonId};
use dochiya_ledger::api::{NewAccount, NewVault};
use dochiya_ledger::{Ledger, LedgerConfig};
use dochiya_protocol::Principal;
use dochiya_store::Store;
use dochiya_store_embedded::EmbeddedStore;
use dochiya_testkit::testing::CountingStore;

/// 2026-03-15, noon in Seoul.
const NOON: i64 = 1_773_543_600;

fn ledger_over(store: Arc<CountingStore<dyn Store>>) -> Ledger {
    Ledger::new(
        store,
        Arc::new(ManualClock::at_unix_seconds(NOON)),
        LedgerConfig::default(),
    )
}

/// `(queries, gets, get_manys, writes, read rounds)` of one `list_accounts` on a new instance.
async fn cold_list_accounts(
    counting: &Arc<CountingStore<dyn Store>>,
    principal: &Principal,
) -> (u64, u64, u64, u64, u64) {
    let tools = dochiya_tools::all(Arc::new(ledger_over(counting.clone())));
    let tool = tools
        .iter()
        .find(|t| t.spec().name == "list_accounts")
        .expect("list_accounts");
    counting.reset();
    let out = tool.call(principal, None).await.expect("list_accounts");
    let k = counting.take();
    let out: serde_json::Value = serde_json::from_str(out.get()).expect("JSON");
    assert_eq!(out["vault"]["name"], "가계부", "{out}");
    (k.queries, k.gets, k.get_manys, k.writes, k.read_rounds)
}

#[tokio::test]
async fn a_token_hint_spares_a_new_instance_the_roster_query() {
    let inner: Arc<dyn Store> = Arc::new(EmbeddedStore::in_memory().expect("in-memory store"));
    let counting: Arc<CountingStore<dyn Store>> = Arc::new(CountingStore::from_arc(inner));
    let warm = ledger_over(counting.clone());
    let who = PersonId::new("hint-tool").expect("a subject");
    warm.create_vault(
        &who,
        NewVault {
            name: "가계부".into(),
            currency: None,
            time_zone: None,
        },
    )
    .await
    .expect("create_vault");
    warm.create_account(
        &who,
        NewAccount {
            vault: None,
            name: "현금".into(),
            kind: AccountKind::Asset,
            opening_balance: None,
            opening_date: None,
            parent: None,
            billing: None,
            owner: None,
        },
    )
    .await
    .expect("create_account");
    let hint = warm.roster_hint(&who).await.expect("roster_hint");
    let principal = |roster_hint| Principal {
        person: "hint-tool".into(),
        scopes: vec!["ledger:read".into()],
        name: None,
        roster_hint,
        issued_at: None,
    };
    // Without the hint, the roster query and its round come first; with it, they do not.
    // (list_accounts' own round: accounts, the days after today, the learned words.)
    assert_eq!(
        cold_list_accounts(&counting, &principal(None)).await,
        (4, 1, 0, 0, 2)
    );
    assert_eq!(
        cold_list_accounts(&counting, &principal(hint)).await,
        (3, 0, 1, 0, 1)
    );
}
