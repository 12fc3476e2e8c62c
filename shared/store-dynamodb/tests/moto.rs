//! The DynamoDB-specific behaviour of the store against a real DynamoDB API
//! (moto): what is stored on the wire, condition failures with their items,
//! update guards, paging, batching, call counts and table set-up. The shared
//! contract suites (tests/store_contract.rs, tests/ledger_contract.rs) cover the store rules themselves.

mod common;

use std::collections::BTreeMap;
use std::sync::Arc;

use aws_sdk_dynamodb::types::{AttributeValue, TimeToLiveStatus};
use dochiya_store::{
    Attrs, Condition, Guard, Item, Key, MAX_WRITE_OPS, Query, SkRange, Store, StoreError, Value, WriteOp,
};
use dochiya_store_dynamodb::{DynamoError, DynamoStore, TableCreation, check_table, create_table};

use common::{client, fresh_store, unique_table};

fn attrs(pairs: &[(&str, Value)]) -> Attrs {
    pairs.iter().map(|(k, v)| ((*k).to_owned(), v.clone())).collect()
}

fn item(pk: &str, sk: &str, pairs: &[(&str, Value)]) -> Item {
    Item {
        key: Key::new(pk, sk),
        attrs: attrs(pairs),
    }
}

/// A guard named after the sort key of the item it guards (test ops are few and short-lived).
fn named(sk: &str, condition: Condition) -> Guard {
    Guard::new(Box::leak(sk.to_owned().into_boxed_str()), condition)
}

fn put(item: Item, condition: Option<Condition>) -> WriteOp {
    let guard = condition.map(|c| named(&item.key.sk, c));
    WriteOp::Put { item, guard }
}

fn add(pk: &str, sk: &str, name: &str, delta: i64, condition: Option<Condition>) -> WriteOp {
    WriteOp::Update {
        key: Key::new(pk, sk),
        set: Attrs::new(),
        add: BTreeMap::from([(name.to_owned(), delta)]),
        remove: vec![],
        guard: condition.map(|c| named(sk, c)),
    }
}

#[tokio::test]
async fn values_are_stored_as_exact_dynamodb_types() {
    let (store, _, client) = fresh_store("types").await;
    let nested = Value::M(BTreeMap::from([
        ("amount".to_owned(), Value::N(-12_500)),
        (
            "tags".to_owned(),
            Value::L(vec![Value::S("식비".into()), Value::Bool(true)]),
        ),
    ]));
    let written = item(
        "V#1",
        "TX#1",
        &[
            ("id", Value::N(9_007_199_254_740_993)),
            ("max", Value::N(i64::MAX)),
            ("min", Value::N(i64::MIN)),
            ("memo", Value::S("커피 ☕".into())),
            ("empty", Value::S(String::new())),
            ("void", Value::Bool(false)),
            ("posting", nested),
        ],
    );
    store.write(vec![put(written.clone(), None)]).await.unwrap();
    assert_eq!(store.get(&written.key).await.unwrap(), Some(written.clone()));

    let raw = client
        .get_item()
        .table_name(store.table())
        .key("PK", AttributeValue::S("V#1".into()))
        .key("SK", AttributeValue::S("TX#1".into()))
        .send()
        .await
        .unwrap()
        .item
        .unwrap();
    assert_eq!(raw["id"], AttributeValue::N("9007199254740993".into()));
    assert_eq!(raw["min"], AttributeValue::N("-9223372036854775808".into()));
    assert_eq!(raw["void"], AttributeValue::Bool(false));
    let AttributeValue::M(posting) = &raw["posting"] else {
        panic!("posting is {:?}", raw["posting"])
    };
    assert_eq!(posting["amount"], AttributeValue::N("-12500".into()));
    assert_eq!(raw.len(), 9, "PK, SK and the seven attributes: {raw:?}");
}

#[tokio::test]
async fn a_failed_transaction_names_the_operation_and_its_item_and_writes_nothing() {
    let (store, counter, _) = fresh_store("txfail").await;
    let taken = item("U#1", "NAME#food", &[("account", Value::S("A1".into()))]);
    store.write(vec![put(taken.clone(), None)]).await.unwrap();
    counter.take();

    let err = store
        .write(vec![
            put(
                item("V#1", "ACCT#A2", &[("name", Value::S("food".into()))]),
                Some(Condition::NotExists),
            ),
            add("V#1", "META", "accounts", 1, None),
            put(
                item("U#1", "NAME#food", &[("account", Value::S("A2".into()))]),
                Some(Condition::NotExists),
            ),
        ])
        .await
        .unwrap_err();
    match err {
        StoreError::ConditionFailed { guard, current } => {
            assert_eq!((guard, current), ("NAME#food", Some(taken.clone())))
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(
        counter.take(),
        BTreeMap::from([("TransactWriteItems".to_owned(), 1)])
    );
    assert_eq!(store.get(&Key::new("V#1", "ACCT#A2")).await.unwrap(), None);
    assert_eq!(store.get(&Key::new("V#1", "META")).await.unwrap(), None);
    assert_eq!(store.get(&taken.key).await.unwrap(), Some(taken));
}

#[tokio::test]
async fn a_single_conditional_write_is_one_plain_call_with_the_same_errors() {
    let (store, counter, _) = fresh_store("single").await;
    let first = item("V#1", "SNAP#2026-11-30", &[("balance", Value::N(100))]);
    store
        .write(vec![put(first.clone(), Some(Condition::NotExists))])
        .await
        .unwrap();
    let err = store
        .write(vec![put(
            item("V#1", "SNAP#2026-11-30", &[("balance", Value::N(5))]),
            Some(Condition::NotExists),
        )])
        .await
        .unwrap_err();
    match err {
        StoreError::ConditionFailed { guard, current } => {
            assert_eq!((guard, current), ("SNAP#2026-11-30", Some(first.clone())))
        }
        other => panic!("{other:?}"),
    }
    let err = store
        .write(vec![WriteOp::Delete {
            key: Key::new("V#1", "gone"),
            guard: Some(named("gone", Condition::Exists)),
        }])
        .await
        .unwrap_err();
    match err {
        StoreError::ConditionFailed { guard, current } => assert_eq!((guard, current), ("gone", None)),
        other => panic!("{other:?}"),
    }
    let err = store
        .write(vec![add(
            "V#1",
            "SNAP#2026-11-30",
            "balance",
            1,
            Some(Condition::AttrEquals("balance".into(), Value::N(7))),
        )])
        .await
        .unwrap_err();
    match err {
        StoreError::ConditionFailed { guard, current } => {
            assert_eq!((guard, current), ("SNAP#2026-11-30", Some(first)))
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(
        counter.take(),
        BTreeMap::from([
            ("DeleteItem".to_owned(), 1),
            ("PutItem".to_owned(), 2),
            ("UpdateItem".to_owned(), 1)
        ])
    );
}

#[tokio::test]
async fn updates_create_items_add_from_zero_and_refuse_overflow() {
    let (store, _, _) = fresh_store("update").await;
    let key = Key::new("V#1", "ACCT#A1");
    // An Update on a missing item creates it; `add` starts from 0.
    store
        .write(vec![add(
            "V#1",
            "ACCT#A1",
            "balance",
            -500,
            Some(Condition::AttrNotEquals("archived".into(), Value::Bool(true))),
        )])
        .await
        .unwrap();
    assert_eq!(
        store.get(&key).await.unwrap(),
        Some(item("V#1", "ACCT#A1", &[("balance", Value::N(-500))]))
    );

    // set + add on one attribute is the sum; remove wins over set.
    store
        .write(vec![WriteOp::Update {
            key: key.clone(),
            set: attrs(&[
                ("count", Value::N(10)),
                ("name", Value::S("food".into())),
                ("old", Value::N(1)),
            ]),
            add: BTreeMap::from([("count".to_owned(), 5), ("balance".to_owned(), 200)]),
            remove: vec!["old".to_owned()],
            guard: Some(named("ACCT#A1", Condition::Exists)),
        }])
        .await
        .unwrap();
    let expected = item(
        "V#1",
        "ACCT#A1",
        &[
            ("balance", Value::N(-300)),
            ("count", Value::N(15)),
            ("name", Value::S("food".into())),
        ],
    );
    assert_eq!(store.get(&key).await.unwrap(), Some(expected.clone()));

    // Going past i64 is refused (DynamoDB itself would store 38 digits), in a
    // transaction and alone, and nothing is written.
    store
        .write(vec![add("V#1", "BIG", "n", i64::MAX - 1, None)])
        .await
        .unwrap();
    let err = store
        .write(vec![
            add("V#1", "ACCT#A1", "balance", 1, None),
            add("V#1", "BIG", "n", 2, None),
        ])
        .await
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "invalid store request: numeric overflow adding to n"
    );
    let err = store
        .write(vec![add("V#1", "BIG", "n", 2, None)])
        .await
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "invalid store request: numeric overflow adding to n"
    );
    store.write(vec![add("V#1", "BIG", "n", 1, None)]).await.unwrap();
    assert_eq!(
        store.get(&Key::new("V#1", "BIG")).await.unwrap().unwrap().attrs["n"],
        Value::N(i64::MAX)
    );
    store
        .write(vec![add("V#1", "SMALL", "n", i64::MIN, None)])
        .await
        .unwrap();
    let err = store
        .write(vec![add("V#1", "SMALL", "n", -1, None)])
        .await
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "invalid store request: numeric overflow adding to n"
    );
    assert_eq!(store.get(&key).await.unwrap(), Some(expected));

    // Adding to a string is refused, not a condition failure.
    let err = store
        .write(vec![add("V#1", "ACCT#A1", "name", 1, None)])
        .await
        .unwrap_err();
    assert!(matches!(err, StoreError::Invalid(_)), "{err:?}");

    // An update with nothing to change still creates the item, with no attributes.
    store
        .write(vec![WriteOp::Update {
            key: Key::new("V#1", "EMPTY"),
            set: Attrs::new(),
            add: BTreeMap::new(),
            remove: vec![],
            guard: Some(named("EMPTY", Condition::NotExists)),
        }])
        .await
        .unwrap();
    assert_eq!(
        store.get(&Key::new("V#1", "EMPTY")).await.unwrap(),
        Some(item("V#1", "EMPTY", &[]))
    );
}

async fn all_sks(store: &DynamoStore, range: SkRange, forward: bool, limit: u32) -> (Vec<String>, usize) {
    let mut after = None;
    let mut sks = Vec::new();
    let mut pages = 0;
    loop {
        let page = store
            .query(&Query {
                pk: "V#1".into(),
                range: range.clone(),
                forward,
                limit,
                after: after.take(),
            })
            .await
            .unwrap();
        pages += 1;
        sks.extend(page.items.iter().map(|i| i.key.sk.clone()));
        match page.last_sk {
            Some(sk) => after = Some(sk),
            None => return (sks, pages),
        }
    }
}

#[tokio::test]
async fn queries_page_exactly_like_the_other_stores() {
    let (store, counter, _) = fresh_store("query").await;
    let sks = ["A", "TX#1", "TX#2", "TX#3", "TX#4", "TX#5", "TY#1"];
    store
        .write(sks.iter().map(|sk| put(item("V#1", sk, &[]), None)).collect())
        .await
        .unwrap();
    store
        .write(vec![put(item("V#2", "TX#9", &[]), None)])
        .await
        .unwrap();
    counter.take();

    // A full last page carries no cursor: the extra item fetched tells.
    let (got, pages) = all_sks(&store, SkRange::Prefix("TX#".into()), true, 5).await;
    assert_eq!(
        (got, pages),
        (
            vec!["TX#1", "TX#2", "TX#3", "TX#4", "TX#5"]
                .into_iter()
                .map(String::from)
                .collect(),
            1
        )
    );
    assert_eq!(counter.take(), BTreeMap::from([("Query".to_owned(), 1)]));

    let (got, pages) = all_sks(&store, SkRange::Prefix("TX#".into()), false, 2).await;
    assert_eq!(got, vec!["TX#5", "TX#4", "TX#3", "TX#2", "TX#1"]);
    assert_eq!(pages, 3);
    let (got, _) = all_sks(&store, SkRange::Between("TX#2".into(), "TY#1".into()), true, 3).await;
    assert_eq!(got, vec!["TX#2", "TX#3", "TX#4", "TX#5", "TY#1"]);
    let (got, _) = all_sks(&store, SkRange::All, true, 100).await;
    assert_eq!(got, sks);

    // A cursor outside the range (say, from another query) is never sent.
    let page = store
        .query(&Query {
            pk: "V#1".into(),
            range: SkRange::Prefix("TX#".into()),
            forward: true,
            limit: 2,
            after: Some("A".into()),
        })
        .await
        .unwrap();
    assert_eq!(
        page.items.iter().map(|i| i.key.sk.as_str()).collect::<Vec<_>>(),
        ["TX#1", "TX#2"]
    );
    let page = store
        .query(&Query {
            pk: "V#1".into(),
            range: SkRange::Prefix("TX#".into()),
            forward: true,
            limit: 2,
            after: Some("TY#1".into()),
        })
        .await
        .unwrap();
    assert_eq!(
        page,
        dochiya_store::Page {
            items: vec![],
            last_sk: None
        }
    );
    // The partition is the query's own; a cursor cannot move it.
    let page = store
        .query(&Query {
            pk: "V#2".into(),
            range: SkRange::All,
            forward: true,
            limit: 5,
            after: Some("TX#1".into()),
        })
        .await
        .unwrap();
    assert_eq!(page.items, vec![item("V#2", "TX#9", &[])]);
}

#[tokio::test]
async fn get_many_batches_by_100_dedupes_and_keeps_order() {
    let (store, counter, _) = fresh_store("batch").await;
    for chunk in (0..150).collect::<Vec<_>>().chunks(MAX_WRITE_OPS) {
        store
            .write(
                chunk
                    .iter()
                    .map(|i| put(item("V#1", &format!("K#{i:03}"), &[("i", Value::N(*i))]), None))
                    .collect(),
            )
            .await
            .unwrap();
    }
    counter.take();
    let mut keys: Vec<Key> = (0..160)
        .rev()
        .map(|i| Key::new("V#1", format!("K#{i:03}")))
        .collect();
    keys.push(Key::new("V#1", "K#007"));
    let got = store.get_many(&keys).await.unwrap();
    assert_eq!(got.len(), 161);
    for (key, found) in keys.iter().zip(&got) {
        let i: i64 = key.sk[2..].parse().unwrap();
        match found {
            Some(it) => assert_eq!((&it.key, &it.attrs["i"]), (key, &Value::N(i))),
            None => assert!(i >= 150, "{key:?} missing"),
        }
    }
    assert_eq!(counter.take(), BTreeMap::from([("BatchGetItem".to_owned(), 2)]));
    assert_eq!(store.get_many(&[]).await.unwrap(), Vec::<Option<Item>>::new());
    assert_eq!(counter.total(), 0);
}

#[tokio::test]
async fn limits_are_refused_before_any_call() {
    let (store, counter, _) = fresh_store("limits").await;
    let ops: Vec<WriteOp> = (0..=MAX_WRITE_OPS)
        .map(|i| put(item("V#1", &format!("K#{i}"), &[]), None))
        .collect();
    let err = store.write(ops).await.unwrap_err();
    assert_eq!(
        err.to_string(),
        "invalid store request: a write may carry at most 100 operations, got 101"
    );
    let err = store
        .write(vec![put(
            item("V#1", "big", &[("memo", Value::S("x".repeat(400 * 1024)))]),
            None,
        )])
        .await
        .unwrap_err();
    assert!(err.to_string().ends_with("over the 409600-byte limit"), "{err}");
    assert_eq!(counter.total(), 0);

    // The most a transaction may carry goes through in one call.
    let ops: Vec<WriteOp> = (0..MAX_WRITE_OPS)
        .map(|i| put(item("V#1", &format!("K#{i:03}"), &[]), None))
        .collect();
    store.write(ops).await.unwrap();
    assert_eq!(
        counter.take(),
        BTreeMap::from([("TransactWriteItems".to_owned(), 1)])
    );
}

#[tokio::test]
async fn concurrent_claims_of_one_name_have_exactly_one_winner() {
    let (store, _, _) = fresh_store("race").await;
    let store = Arc::new(store);
    let tasks: Vec<_> = (0..8)
        .map(|i| {
            let store = Arc::clone(&store);
            tokio::spawn(async move {
                store
                    .write(vec![
                        put(item("V#1", &format!("ACCT#{i}"), &[]), Some(Condition::NotExists)),
                        put(
                            item("U#1", "NAME#food", &[("account", Value::N(i))]),
                            Some(Condition::NotExists),
                        ),
                        add("V#1", "META", "accounts", 1, None),
                    ])
                    .await
            })
        })
        .collect();
    let mut winners = 0;
    for task in tasks {
        match task.await.unwrap() {
            Ok(()) => winners += 1,
            Err(StoreError::ConditionFailed {
                guard: "NAME#food",
                current: Some(_),
            }) => {}
            Err(other) => panic!("{other:?}"),
        }
    }
    assert_eq!(winners, 1);
    let meta = store.get(&Key::new("V#1", "META")).await.unwrap().unwrap();
    assert_eq!(meta.attrs["accounts"], Value::N(1));
}

#[tokio::test]
async fn table_setup_is_idempotent_and_checked() {
    let client = client().await;
    let table = unique_table("setup");
    assert_eq!(
        create_table(&client, &table).await.unwrap(),
        TableCreation::Created
    );
    assert_eq!(
        create_table(&client, &table).await.unwrap(),
        TableCreation::AlreadyExists
    );
    check_table(&client, &table).await.unwrap();
    let ttl = client
        .describe_time_to_live()
        .table_name(&table)
        .send()
        .await
        .unwrap();
    let ttl = ttl.time_to_live_description.unwrap();
    assert_eq!(ttl.attribute_name(), Some("expiresAt"));
    assert_eq!(ttl.time_to_live_status(), Some(&TimeToLiveStatus::Enabled));
    let description = client
        .describe_table()
        .table_name(&table)
        .send()
        .await
        .unwrap()
        .table
        .unwrap();
    assert_eq!(
        description
            .billing_mode_summary()
            .and_then(|b| b.billing_mode())
            .map(|m| m.as_str()),
        Some("PAY_PER_REQUEST")
    );
    assert!(description.global_secondary_indexes().is_empty());

    let missing = unique_table("missing");
    let err = DynamoStore::new(client.clone(), missing.clone())
        .check_table()
        .await
        .unwrap_err();
    assert!(
        matches!(&err, DynamoError::TableMissing { table } if *table == missing),
        "{err:?}"
    );
    assert!(err.to_string().contains("does not exist"), "{err}");
    // The first request against a missing table says the same, as a backend error.
    let err = DynamoStore::new(client.clone(), missing.clone())
        .get(&Key::new("a", "b"))
        .await
        .unwrap_err();
    match err {
        StoreError::Backend(source) => assert!(source.to_string().contains("does not exist"), "{source}"),
        other => panic!("{other:?}"),
    }

    // A table with other keys is refused at start-up.
    let wrong = unique_table("wrong");
    client
        .create_table()
        .table_name(&wrong)
        .key_schema(
            aws_sdk_dynamodb::types::KeySchemaElement::builder()
                .attribute_name("id")
                .key_type(aws_sdk_dynamodb::types::KeyType::Hash)
                .build()
                .unwrap(),
        )
        .attribute_definitions(
            aws_sdk_dynamodb::types::AttributeDefinition::builder()
                .attribute_name("id")
                .attribute_type(aws_sdk_dynamodb::types::ScalarAttributeType::S)
                .build()
                .unwrap(),
        )
        .billing_mode(aws_sdk_dynamodb::types::BillingMode::PayPerRequest)
        .send()
        .await
        .unwrap();
    let err = check_table(&client, &wrong).await.unwrap_err();
    assert!(matches!(err, DynamoError::WrongSchema { .. }), "{err:?}");
}
