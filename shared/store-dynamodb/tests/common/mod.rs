//! Shared set-up for the DynamoDB store's tests: a moto server started by
//! `tests/run.sh`, and a fresh table per test so tests run in parallel.

#![allow(dead_code)]

use std::sync::atomic::{AtomicU32, Ordering};

use aws_sdk_dynamodb::Client;
use dochiya_store_dynamodb::{CallCounter, DynamoStore, TableCreation, create_table, load_client};

/// The SDK client, pointed at the local DynamoDB-compatible server. Fails loudly
/// when none is configured: no DynamoDB test is ever skipped.
pub async fn client() -> Client {
    if std::env::var_os("AWS_ENDPOINT_URL_DYNAMODB").is_none() {
        panic!(
            "AWS_ENDPOINT_URL_DYNAMODB is not set: the DynamoDB store tests need the local moto \
             server that tests/run.sh installs and starts (run tests/run.sh, or start moto and \
             export AWS_ENDPOINT_URL_DYNAMODB, AWS_REGION and test credentials yourself)"
        );
    }
    load_client().await
}

/// A table name no other test uses.
pub fn unique_table(label: &str) -> String {
    static NEXT: AtomicU32 = AtomicU32::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or(0);
    format!(
        "{label}-{}-{}-{nanos}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::SeqCst)
    )
}

/// A store over a brand-new table, with its SDK calls counted.
pub async fn fresh_store(label: &str) -> (DynamoStore, CallCounter, Client) {
    let client = client().await;
    let table = unique_table(label);
    assert_eq!(
        create_table(&client, &table).await.unwrap(),
        TableCreation::Created
    );
    let counter = CallCounter::new();
    let store = DynamoStore::new(client.clone(), table).with_call_counter(counter.clone());
    (store, counter, client)
}
