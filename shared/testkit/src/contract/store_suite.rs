//! Store-level contract: conditions, atomicity, queries and cursors over any Store.
//!
//! Every rule in the [`dochiya_store`] crate docs, as tests generic over the
//! store. A store crate instantiates all of them in its own `tests/` with
//!
//! ```text
//! mod memory {
//!     dochiya_ledger::store_contract_tests!(async { make_store().await });
//! }
//! ```
//!
//! The expression is evaluated once per test. Every test writes only under
//! partition keys of its own (a fresh UUID), so a store may be shared between
//! tests (one DynamoDB table) or made fresh for each (embedded, in memory).
//!
//! Rules checked here beyond the module docs, which the ledger relies on:
//! - `get_many(&[])` is `[]`, and `get_many` takes more keys than one DynamoDB batch (100);
//! - a page with fewer items than the limit is the last one (`last_sk` is `None`),
//!   and a page's `last_sk`, when present, is its last item's sort key;
//! - a cursor outside the queried range is not an error: it yields what lies after it;
//! - a query limit of 0 is [`StoreError::Invalid`];
//! - `add` to a non-numeric attribute is [`StoreError::Invalid`];
//! - keys and attribute names DynamoDB refuses are refused by every store
//!   ([`dochiya_store::eval::validate_key`], reserved `PK`/`SK`), reads included.
//!
//! [`StoreError::Transient`] is retryable by contract, so the concurrency tests
//! retry it (DynamoDB reports conflicting transactions that way); every other
//! outcome must be exact.

use std::collections::BTreeMap;
use std::future::Future;
use std::sync::Arc;

use dochiya_store::{
    Attrs, Condition, Guard, Item, Key, MAX_ITEM_BYTES, MAX_WRITE_OPS, Page, Query, SkRange, Store,
    StoreError, TTL_ATTRIBUTE, Value, WriteOp,
};

/// Run one contract test on a fresh multi-threaded runtime (so the concurrency
/// tests really race), without the calling crate needing tokio's macros.
pub fn block_on<F: Future>(fut: F) -> F::Output {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(4)
        .enable_all()
        .build()
        .expect("a tokio runtime for the store contract suite");
    rt.block_on(fut)
}

// ---------------------------------------------------------------- helpers

/// A partition key no other test (or run) uses.
fn fresh_pk(tag: &str) -> String {
    format!("SUITE#{tag}#{}", uuid::Uuid::new_v4())
}

fn attrs(pairs: &[(&str, Value)]) -> Attrs {
    pairs.iter().map(|(k, v)| ((*k).to_owned(), v.clone())).collect()
}

fn s(v: &str) -> Value {
    Value::S(v.to_owned())
}

fn item(pk: &str, sk: &str, a: Attrs) -> Item {
    Item {
        key: Key::new(pk, sk),
        attrs: a,
    }
}

fn put(it: &Item) -> WriteOp {
    WriteOp::Put {
        item: it.clone(),
        guard: None,
    }
}

/// The guard name of ops whose guard a test does not tell apart from others.
const G: &str = "guard";

fn put_if(it: &Item, c: Condition) -> WriteOp {
    put_named(it, G, c)
}

fn put_named(it: &Item, name: &'static str, c: Condition) -> WriteOp {
    WriteOp::Put {
        item: it.clone(),
        guard: Some(Guard::new(name, c)),
    }
}

fn update(
    key: &Key,
    set: Attrs,
    add: &[(&str, i64)],
    remove: &[&str],
    condition: Option<Condition>,
) -> WriteOp {
    WriteOp::Update {
        key: key.clone(),
        set,
        add: add.iter().map(|(k, v)| ((*k).to_owned(), *v)).collect(),
        remove: remove.iter().map(|r| (*r).to_owned()).collect(),
        guard: condition.map(|c| Guard::new(G, c)),
    }
}

async fn write_ok<S: Store + ?Sized>(store: &S, ops: Vec<WriteOp>) {
    if let Err(e) = store.write(ops).await {
        panic!("write should succeed, got {e:?}");
    }
}

async fn get<S: Store + ?Sized>(store: &S, key: &Key) -> Option<Item> {
    match store.get(key).await {
        Ok(i) => i,
        Err(e) => panic!("get {key:?} failed: {e:?}"),
    }
}

async fn query<S: Store + ?Sized>(store: &S, q: &Query) -> Page {
    let page = match store.query(q).await {
        Ok(p) => p,
        Err(e) => panic!("query {q:?} failed: {e:?}"),
    };
    // Page invariants every query must keep.
    assert!(
        page.items.len() <= q.limit as usize,
        "page over the limit for {q:?}"
    );
    for it in &page.items {
        assert_eq!(it.key.pk, q.pk, "item from another partition in {q:?}");
    }
    if page.items.len() < q.limit as usize {
        assert_eq!(page.last_sk, None, "a short page must be the last one for {q:?}");
    }
    if let Some(last) = &page.last_sk {
        assert_eq!(
            Some(last),
            page.items.last().map(|i| &i.key.sk),
            "last_sk must be the last item's sk"
        );
    }
    page
}

fn sks(items: &[Item]) -> Vec<String> {
    items.iter().map(|i| i.key.sk.clone()).collect()
}

fn q(pk: &str, range: SkRange, forward: bool, limit: u32, after: Option<&str>) -> Query {
    Query {
        pk: pk.to_owned(),
        range,
        forward,
        limit,
        after: after.map(str::to_owned),
    }
}

/// Every sort key a query yields, page by page, and how many pages it took.
async fn drain<S: Store + ?Sized>(store: &S, mut q: Query) -> (Vec<String>, usize) {
    let mut out = Vec::new();
    let mut pages = 0;
    loop {
        let page = query(store, &q).await;
        pages += 1;
        out.extend(sks(&page.items));
        match page.last_sk {
            Some(c) => q.after = Some(c),
            None => return (out, pages),
        }
        assert!(pages <= 1000, "query never ends");
    }
}

/// Put items with the given sort keys (attribute `sk` repeats the key) into one partition.
async fn seed<S: Store + ?Sized>(store: &S, pk: &str, keys: &[&str]) {
    for chunk in keys.chunks(MAX_WRITE_OPS) {
        let ops = chunk
            .iter()
            .map(|k| put(&item(pk, k, attrs(&[("sk", s(k))]))))
            .collect();
        write_ok(store, ops).await;
    }
}

fn expect_condition_failed(result: Result<(), StoreError>, guard: &str, current: Option<Item>) {
    match result {
        Err(StoreError::ConditionFailed { guard: g, current: c }) => {
            assert_eq!(g, guard, "reported guard");
            assert_eq!(c, current, "reported current item");
        }
        other => panic!("expected ConditionFailed of {guard}, got {other:?}"),
    }
}

/// An `add` past 64 bits, reported with the attribute it added to.
fn expect_overflow(result: Result<(), StoreError>, attribute: &str, what: &str) {
    match result {
        Err(StoreError::Overflow { attribute: a }) => assert_eq!(a, attribute, "{what}"),
        other => panic!("{what}: expected Overflow of {attribute}, got {other:?}"),
    }
}

fn expect_invalid(result: Result<(), StoreError>, what: &str) {
    match result {
        Err(StoreError::Invalid(msg)) => assert!(!msg.is_empty(), "{what}: Invalid needs a message"),
        other => panic!("{what}: expected Invalid, got {other:?}"),
    }
}

/// Retry a write while the store says the failure is transient (bounded).
async fn write_retrying<S: Store + ?Sized>(store: &S, ops: Vec<WriteOp>) -> Result<(), StoreError> {
    let mut attempt = 0;
    loop {
        match store.write(ops.clone()).await {
            Err(StoreError::Transient(_)) if attempt < 50 => {
                attempt += 1;
                tokio::time::sleep(std::time::Duration::from_millis(2 * attempt)).await;
            }
            other => return other,
        }
    }
}

// ---------------------------------------------------------------- reads

/// Reading a key that was never written gives `None`.
pub async fn get_missing_is_none<S: Store>(store: S) {
    let pk = fresh_pk("get-missing");
    assert_eq!(get(&store, &Key::new(&pk, "nothing")).await, None);
}

/// Every value kind round-trips exactly, including extremes and nesting.
pub async fn put_then_get_round_trips_every_value_kind<S: Store>(store: S) {
    let pk = fresh_pk("round-trip");
    let mut nested = BTreeMap::new();
    nested.insert(
        "inner".to_owned(),
        Value::L(vec![Value::N(-7), s("x"), Value::Bool(false)]),
    );
    nested.insert("empty".to_owned(), Value::M(BTreeMap::new()));
    let it = item(
        &pk,
        "SK#가계부#😀",
        attrs(&[
            ("s", s("카카오뱅크 café 😀")),
            ("empty_s", s("")),
            ("min", Value::N(i64::MIN)),
            ("max", Value::N(i64::MAX)),
            ("zero", Value::N(0)),
            ("neg", Value::N(-1)),
            ("t", Value::Bool(true)),
            ("f", Value::Bool(false)),
            (
                "list",
                Value::L(vec![
                    s("a"),
                    Value::N(1),
                    Value::L(vec![]),
                    Value::M(nested.clone()),
                ]),
            ),
            ("empty_list", Value::L(vec![])),
            ("map", Value::M(nested)),
            (TTL_ATTRIBUTE, Value::N(4_102_444_800)),
        ]),
    );
    write_ok(&store, vec![put(&it)]).await;
    assert_eq!(get(&store, &it.key).await, Some(it.clone()));
    // An item with no attributes besides its key.
    let bare = item(&pk, "bare", Attrs::new());
    write_ok(&store, vec![put(&bare)]).await;
    assert_eq!(get(&store, &bare.key).await, Some(bare));
}

/// A put replaces the whole item: attributes it does not carry are gone.
pub async fn put_replaces_the_whole_item<S: Store>(store: S) {
    let pk = fresh_pk("put-replaces");
    let first = item(&pk, "a", attrs(&[("x", Value::N(1)), ("y", s("old"))]));
    let second = item(&pk, "a", attrs(&[("y", s("new"))]));
    write_ok(&store, vec![put(&first)]).await;
    write_ok(&store, vec![put(&second)]).await;
    assert_eq!(get(&store, &first.key).await, Some(second));
}

/// `get_many` answers in the order asked, `None` for missing keys, across
/// partitions, and once per position when a key repeats.
pub async fn get_many_follows_key_order<S: Store>(store: S) {
    let pk = fresh_pk("get-many");
    let other = fresh_pk("get-many-other");
    let a = item(&pk, "a", attrs(&[("n", Value::N(1))]));
    let b = item(&pk, "b", attrs(&[("n", Value::N(2))]));
    let c = item(&other, "a", attrs(&[("n", Value::N(3))]));
    write_ok(&store, vec![put(&a), put(&b), put(&c)]).await;
    let keys = vec![
        b.key.clone(),
        Key::new(&pk, "missing"),
        c.key.clone(),
        a.key.clone(),
    ];
    let got = match store.get_many(&keys).await {
        Ok(g) => g,
        Err(e) => panic!("get_many failed: {e:?}"),
    };
    assert_eq!(got, vec![Some(b.clone()), None, Some(c), Some(a.clone())]);
    // A key asked for twice is answered twice, in place (two postings to one account).
    let twice = match store
        .get_many(&[a.key.clone(), b.key.clone(), a.key.clone()])
        .await
    {
        Ok(g) => g,
        Err(e) => panic!("get_many with a repeated key failed: {e:?}"),
    };
    assert_eq!(twice, vec![Some(a.clone()), Some(b), Some(a)]);
    let none = match store.get_many(&[]).await {
        Ok(g) => g,
        Err(e) => panic!("get_many(&[]) failed: {e:?}"),
    };
    assert_eq!(none, Vec::<Option<Item>>::new());
}

/// `get_many` takes more keys than one DynamoDB batch and keeps their order.
pub async fn get_many_beyond_one_batch<S: Store>(store: S) {
    let pk = fresh_pk("get-many-big");
    let names: Vec<String> = (0..150).map(|i| format!("k{i:03}")).collect();
    // Only even ones exist.
    let present: Vec<&str> = names.iter().step_by(2).map(String::as_str).collect();
    seed(&store, &pk, &present).await;
    let keys: Vec<Key> = names.iter().rev().map(|n| Key::new(&pk, n)).collect();
    let got = match store.get_many(&keys).await {
        Ok(g) => g,
        Err(e) => panic!("get_many of 150 keys failed: {e:?}"),
    };
    let expected: Vec<Option<Item>> = names
        .iter()
        .rev()
        .enumerate()
        .map(|(i, n)| {
            // Reversed: index 0 is k149 (odd, absent).
            let idx = 149 - i;
            (idx % 2 == 0).then(|| item(&pk, n, attrs(&[("sk", s(n))])))
        })
        .collect();
    assert_eq!(got, expected);
}

// ---------------------------------------------------------------- conditions

/// The states an item can be in, relative to a condition on attribute `a` = "v".
#[derive(Debug, Clone, Copy)]
enum State {
    Missing,
    Matches,
    Differs,
    LacksAttr,
}

const STATES: [State; 4] = [State::Missing, State::Matches, State::Differs, State::LacksAttr];

fn state_item(pk: &str, st: State) -> Option<Item> {
    match st {
        State::Missing => None,
        State::Matches => Some(item(pk, "x", attrs(&[("a", s("v")), ("keep", Value::N(1))]))),
        // Same text but another type: conditions compare typed values.
        State::Differs => Some(item(pk, "x", attrs(&[("a", s("w")), ("keep", Value::N(1))]))),
        State::LacksAttr => Some(item(pk, "x", attrs(&[("keep", Value::N(1))]))),
    }
}

/// The conditions, with the states in which each holds (the DynamoDB table of truth).
fn conditions() -> Vec<(Condition, [bool; 4])> {
    vec![
        (Condition::Exists, [false, true, true, true]),
        (Condition::NotExists, [true, false, false, false]),
        (
            Condition::AttrEquals("a".into(), s("v")),
            [false, true, false, false],
        ),
        (
            Condition::AttrNotEquals("a".into(), s("v")),
            [true, false, true, true],
        ),
        (Condition::AttrAbsent("a".into()), [true, false, false, true]),
        (
            Condition::All(vec![Condition::Exists, Condition::AttrAbsent("a".into())]),
            [false, false, false, true],
        ),
        (
            Condition::All(vec![
                Condition::AttrNotEquals("a".into(), s("w")),
                Condition::AttrEquals("keep".into(), Value::N(1)),
            ]),
            [false, true, false, true],
        ),
    ]
}

#[derive(Debug, Clone, Copy)]
enum OpKind {
    Put,
    Update,
    Delete,
    Check,
}

/// Every operation kind under every condition in every item state: the write
/// succeeds exactly when the condition holds, with the exact effect; otherwise
/// it fails naming the op's guard, with the exact current item, and changes nothing.
async fn condition_matrix<S: Store>(store: S, kind: OpKind) {
    for (ci, (cond, holds)) in conditions().into_iter().enumerate() {
        for (si, st) in STATES.into_iter().enumerate() {
            let pk = fresh_pk(&format!("cond-{kind:?}-{ci}-{si}"));
            let key = Key::new(&pk, "x");
            let before = state_item(&pk, st);
            if let Some(it) = &before {
                write_ok(&store, vec![put(it)]).await;
            }
            let new_item = item(&pk, "x", attrs(&[("a", s("new"))]));
            let op = match kind {
                OpKind::Put => put_if(&new_item, cond.clone()),
                OpKind::Update => update(
                    &key,
                    attrs(&[("u", Value::Bool(true))]),
                    &[("c", 5)],
                    &["keep"],
                    Some(cond.clone()),
                ),
                OpKind::Delete => WriteOp::Delete {
                    key: key.clone(),
                    guard: Some(Guard::new(G, cond.clone())),
                },
                OpKind::Check => WriteOp::Check {
                    key: key.clone(),
                    guard: Guard::new(G, cond.clone()),
                },
            };
            let result = store.write(vec![op]).await;
            let after = get(&store, &key).await;
            let ctx = format!("{kind:?} with {cond:?} on {st:?}");
            if holds[si] {
                if let Err(e) = result {
                    panic!("{ctx}: expected success, got {e:?}");
                }
                let expected = match kind {
                    OpKind::Put => Some(new_item),
                    OpKind::Update => {
                        let mut a = before.map(|b| b.attrs).unwrap_or_default();
                        a.remove("keep");
                        a.insert("u".into(), Value::Bool(true));
                        a.insert("c".into(), Value::N(5));
                        Some(item(&pk, "x", a))
                    }
                    OpKind::Delete => None,
                    OpKind::Check => before,
                };
                assert_eq!(after, expected, "{ctx}: state after the write");
            } else {
                match result {
                    Err(StoreError::ConditionFailed { guard, current }) => {
                        assert_eq!(guard, G, "{ctx}: guard");
                        assert_eq!(current, before, "{ctx}: reported current item");
                    }
                    other => panic!("{ctx}: expected ConditionFailed, got {other:?}"),
                }
                assert_eq!(after, before, "{ctx}: nothing may change");
            }
        }
    }
}

/// Put under each condition in each state.
pub async fn put_conditions<S: Store>(store: S) {
    condition_matrix(store, OpKind::Put).await;
}

/// Update under each condition in each state.
pub async fn update_conditions<S: Store>(store: S) {
    condition_matrix(store, OpKind::Update).await;
}

/// Delete under each condition in each state.
pub async fn delete_conditions<S: Store>(store: S) {
    condition_matrix(store, OpKind::Delete).await;
}

/// Check under each condition in each state.
pub async fn check_conditions<S: Store>(store: S) {
    condition_matrix(store, OpKind::Check).await;
}

/// Attribute conditions compare typed values: `N(1)` is not `S("1")`, and maps compare whole.
pub async fn attr_conditions_compare_typed_values<S: Store>(store: S) {
    let pk = fresh_pk("typed");
    let mut m = BTreeMap::new();
    m.insert("k".to_owned(), Value::N(1));
    let it = item(&pk, "x", attrs(&[("n", Value::N(1)), ("m", Value::M(m.clone()))]));
    write_ok(&store, vec![put(&it)]).await;
    let check = |c: Condition| WriteOp::Check {
        key: it.key.clone(),
        guard: Guard::new("typed", c),
    };
    expect_condition_failed(
        store
            .write(vec![check(Condition::AttrEquals("n".into(), s("1")))])
            .await,
        "typed",
        Some(it.clone()),
    );
    write_ok(&store, vec![check(Condition::AttrNotEquals("n".into(), s("1")))]).await;
    write_ok(
        &store,
        vec![check(Condition::AttrEquals("n".into(), Value::N(1)))],
    )
    .await;
    write_ok(
        &store,
        vec![check(Condition::AttrEquals("m".into(), Value::M(m.clone())))],
    )
    .await;
    m.insert("k2".to_owned(), Value::N(2));
    expect_condition_failed(
        store
            .write(vec![check(Condition::AttrEquals("m".into(), Value::M(m)))])
            .await,
        "typed",
        Some(it.clone()),
    );
}

/// Unconditional operations: put creates or replaces, delete of a missing item is fine.
pub async fn unconditional_ops<S: Store>(store: S) {
    let pk = fresh_pk("uncond");
    let key = Key::new(&pk, "x");
    write_ok(
        &store,
        vec![WriteOp::Delete {
            key: key.clone(),
            guard: None,
        }],
    )
    .await;
    assert_eq!(get(&store, &key).await, None);
    let it = item(&pk, "x", attrs(&[("v", Value::N(1))]));
    write_ok(&store, vec![put(&it)]).await;
    write_ok(
        &store,
        vec![WriteOp::Delete {
            key: key.clone(),
            guard: None,
        }],
    )
    .await;
    assert_eq!(get(&store, &key).await, None);
}

// ---------------------------------------------------------------- atomicity

/// A write of many kinds of operation applies all of them.
pub async fn multi_op_write_applies_everything<S: Store>(store: S) {
    let pk = fresh_pk("multi");
    let other = fresh_pk("multi-other");
    let old = item(&pk, "old", attrs(&[("v", Value::N(1))]));
    let guard = item(&other, "guard", attrs(&[("member", Value::Bool(true))]));
    let counter = item(&pk, "counter", attrs(&[("n", Value::N(10))]));
    write_ok(&store, vec![put(&old), put(&guard), put(&counter)]).await;

    let new = item(&pk, "new", attrs(&[("v", Value::N(2))]));
    write_ok(
        &store,
        vec![
            WriteOp::Check {
                key: guard.key.clone(),
                guard: Guard::new(G, Condition::AttrEquals("member".into(), Value::Bool(true))),
            },
            put_if(&new, Condition::NotExists),
            update(
                &counter.key,
                Attrs::new(),
                &[("n", -3)],
                &[],
                Some(Condition::Exists),
            ),
            WriteOp::Delete {
                key: old.key.clone(),
                guard: Some(Guard::new(G, Condition::Exists)),
            },
        ],
    )
    .await;
    assert_eq!(get(&store, &new.key).await, Some(new));
    assert_eq!(
        get(&store, &counter.key).await,
        Some(item(&pk, "counter", attrs(&[("n", Value::N(7))])))
    );
    assert_eq!(get(&store, &old.key).await, None);
    assert_eq!(get(&store, &guard.key).await, Some(guard));
}

/// A failed guard anywhere leaves everything as it was and reports that
/// operation's guard name and the item as it was.
pub async fn failed_condition_writes_nothing<S: Store>(store: S) {
    let pk = fresh_pk("atomic");
    let existing = item(&pk, "e", attrs(&[("v", Value::N(1))]));
    let victim = item(&pk, "victim", attrs(&[("v", Value::N(9))]));
    write_ok(&store, vec![put(&existing), put(&victim)]).await;

    let a = item(&pk, "a", attrs(&[("v", Value::N(2))]));
    let ops = vec![
        put(&a),
        update(&Key::new(&pk, "counter"), Attrs::new(), &[("n", 1)], &[], None),
        WriteOp::Delete {
            key: victim.key.clone(),
            guard: None,
        },
        put_named(
            &item(&pk, "e", attrs(&[("v", Value::N(3))])),
            "e-absent",
            Condition::NotExists,
        ),
        put_named(&item(&pk, "z", Attrs::new()), "z-exists", Condition::Exists),
    ];
    // Operations 3 and 4 both fail; the first is reported.
    expect_condition_failed(store.write(ops).await, "e-absent", Some(existing.clone()));
    assert_eq!(get(&store, &a.key).await, None);
    assert_eq!(get(&store, &Key::new(&pk, "counter")).await, None);
    assert_eq!(get(&store, &victim.key).await, Some(victim));
    assert_eq!(get(&store, &existing.key).await, Some(existing));
    let (all, _) = drain(&store, q(&pk, SkRange::All, true, 100, None)).await;
    assert_eq!(all, vec!["e", "victim"]);
}

/// The failed operation's guard and current item are reported even for a `Check` at the last position.
pub async fn failed_check_reports_its_guard_and_item<S: Store>(store: S) {
    let pk = fresh_pk("atomic-check");
    let m = item(&pk, "member", attrs(&[("role", s("viewer"))]));
    write_ok(&store, vec![put(&m)]).await;
    let ops: Vec<WriteOp> = (0..9)
        .map(|i| put(&item(&pk, &format!("p{i}"), Attrs::new())))
        .chain([WriteOp::Check {
            key: m.key.clone(),
            guard: Guard::new("owner", Condition::AttrEquals("role".into(), s("owner"))),
        }])
        .collect();
    expect_condition_failed(store.write(ops).await, "owner", Some(m.clone()));
    let (all, _) = drain(&store, q(&pk, SkRange::All, true, 100, None)).await;
    assert_eq!(all, vec!["member"]);
}

/// The reported name is the failing op's own, not another guard's of the same
/// write: guards before it hold, guards after it are not evaluated for the report.
pub async fn failed_guard_is_reported_by_its_name<S: Store>(store: S) {
    let pk = fresh_pk("guard-name");
    let m = item(&pk, "member", attrs(&[("role", s("viewer"))]));
    write_ok(&store, vec![put(&m)]).await;
    let check = |name: &'static str, c: Condition| WriteOp::Check {
        key: m.key.clone(),
        guard: Guard::new(name, c),
    };
    let absent = item(&pk, "absent", Attrs::new());
    let ops = |second: &'static str| {
        vec![
            put_named(
                &item(&pk, "new", Attrs::new()),
                "new-absent",
                Condition::NotExists,
            ),
            check(second, Condition::AttrEquals("role".into(), s("owner"))),
            put_named(&absent, "absent-exists", Condition::Exists),
        ]
    };
    expect_condition_failed(store.write(ops("is-owner")).await, "is-owner", Some(m.clone()));
    expect_condition_failed(store.write(ops("role")).await, "role", Some(m.clone()));
    let only_last = vec![
        check("is-member", Condition::Exists),
        put_named(&absent, "absent-exists", Condition::Exists),
    ];
    expect_condition_failed(store.write(only_last).await, "absent-exists", None);
    let (all, _) = drain(&store, q(&pk, SkRange::All, true, 100, None)).await;
    assert_eq!(all, vec!["member"]);
}

/// An update that overflows, anywhere in a write, fails it as Overflow with nothing written.
pub async fn failed_update_writes_nothing<S: Store>(store: S) {
    let pk = fresh_pk("atomic-overflow");
    let big = item(&pk, "big", attrs(&[("n", Value::N(i64::MAX - 1))]));
    write_ok(&store, vec![put(&big)]).await;
    let ops = vec![
        put(&item(&pk, "a", Attrs::new())),
        update(&big.key, Attrs::new(), &[("n", 2)], &[], None),
        put(&item(&pk, "b", Attrs::new())),
    ];
    expect_overflow(store.write(ops).await, "n", "overflow inside a write");
    assert_eq!(get(&store, &big.key).await, Some(big));
    let (all, _) = drain(&store, q(&pk, SkRange::All, true, 100, None)).await;
    assert_eq!(all, vec!["big"]);
}

// ---------------------------------------------------------------- update semantics

/// An update creates a missing item: `set` as given, `add` from 0, `remove` ignored.
pub async fn update_creates_missing_item<S: Store>(store: S) {
    let pk = fresh_pk("upd-create");
    let key = Key::new(&pk, "x");
    write_ok(
        &store,
        vec![update(
            &key,
            attrs(&[("name", s("Food"))]),
            &[("total", -1250)],
            &["gone"],
            None,
        )],
    )
    .await;
    assert_eq!(
        get(&store, &key).await,
        Some(item(
            &pk,
            "x",
            attrs(&[("name", s("Food")), ("total", Value::N(-1250))])
        ))
    );
}

/// `add` accumulates, `set` overwrites only what it names, `remove` drops attributes.
pub async fn update_add_set_remove<S: Store>(store: S) {
    let pk = fresh_pk("upd");
    let key = Key::new(&pk, "x");
    let start = item(
        &pk,
        "x",
        attrs(&[("n", Value::N(100)), ("keep", s("k")), ("old", Value::Bool(true))]),
    );
    write_ok(&store, vec![put(&start)]).await;
    write_ok(
        &store,
        vec![update(
            &key,
            attrs(&[("keep", s("k2"))]),
            &[("n", -30), ("m", 7)],
            &["old", "absent"],
            None,
        )],
    )
    .await;
    write_ok(
        &store,
        vec![update(&key, Attrs::new(), &[("n", 5), ("m", -7)], &[], None)],
    )
    .await;
    assert_eq!(
        get(&store, &key).await,
        Some(item(
            &pk,
            "x",
            attrs(&[("n", Value::N(75)), ("m", Value::N(0)), ("keep", s("k2"))])
        ))
    );
}

/// Adding past `i64` either way is Overflow and leaves the item unchanged.
pub async fn update_overflow_is_invalid<S: Store>(store: S) {
    let pk = fresh_pk("upd-overflow");
    let hi = item(&pk, "hi", attrs(&[("n", Value::N(i64::MAX))]));
    let lo = item(&pk, "lo", attrs(&[("n", Value::N(i64::MIN))]));
    write_ok(&store, vec![put(&hi), put(&lo)]).await;
    expect_overflow(
        store
            .write(vec![update(&hi.key, Attrs::new(), &[("n", 1)], &[], None)])
            .await,
        "n",
        "i64::MAX + 1",
    );
    expect_overflow(
        store
            .write(vec![update(&lo.key, Attrs::new(), &[("n", -1)], &[], None)])
            .await,
        "n",
        "i64::MIN - 1",
    );
    assert_eq!(get(&store, &hi.key).await, Some(hi.clone()));
    assert_eq!(get(&store, &lo.key).await, Some(lo.clone()));
    // Reaching the extremes exactly is fine.
    write_ok(
        &store,
        vec![update(&hi.key, Attrs::new(), &[("n", -1)], &[], None)],
    )
    .await;
    write_ok(
        &store,
        vec![update(&hi.key, Attrs::new(), &[("n", 1)], &[], None)],
    )
    .await;
    assert_eq!(get(&store, &hi.key).await, Some(hi));
}

/// `add` to a string attribute is Invalid and changes nothing.
pub async fn update_add_to_non_number_is_invalid<S: Store>(store: S) {
    let pk = fresh_pk("upd-nan");
    let it = item(&pk, "x", attrs(&[("n", s("12"))]));
    write_ok(&store, vec![put(&it)]).await;
    expect_invalid(
        store
            .write(vec![update(&it.key, Attrs::new(), &[("n", 1)], &[], None)])
            .await,
        "add to S",
    );
    assert_eq!(get(&store, &it.key).await, Some(it));
}

// ---------------------------------------------------------------- validation

/// A write with no operations is Invalid.
/// A combined condition must hold at least one condition and nest none: refused
/// before anything is written, with the same message on every store.
pub async fn malformed_combined_condition_is_invalid<S: Store>(store: S) {
    let pk = fresh_pk("all-malformed");
    let key = Key::new(&pk, "x");
    for cond in [
        Condition::All(vec![]),
        Condition::All(vec![Condition::Exists, Condition::All(vec![Condition::Exists])]),
    ] {
        let op = WriteOp::Check {
            key: key.clone(),
            guard: Guard::new(G, cond.clone()),
        };
        match store.write(vec![op]).await {
            Err(StoreError::Invalid(msg)) => assert_eq!(
                msg, "a combined condition needs at least one condition and none nested",
                "{cond:?}"
            ),
            other => panic!("{cond:?}: expected Invalid, got {other:?}"),
        }
    }
}

pub async fn empty_write_is_invalid<S: Store>(store: S) {
    expect_invalid(store.write(Vec::new()).await, "0 operations");
}

/// 100 operations are accepted; 101 are Invalid and write nothing.
pub async fn write_op_limit<S: Store>(store: S) {
    let pk = fresh_pk("limit");
    let over: Vec<WriteOp> = (0..=MAX_WRITE_OPS)
        .map(|i| put(&item(&pk, &format!("k{i:03}"), Attrs::new())))
        .collect();
    assert_eq!(over.len(), 101);
    expect_invalid(store.write(over).await, "101 operations");
    let (none, _) = drain(&store, q(&pk, SkRange::All, true, 500, None)).await;
    assert_eq!(none, Vec::<String>::new());

    let exact: Vec<WriteOp> = (0..MAX_WRITE_OPS)
        .map(|i| put(&item(&pk, &format!("k{i:03}"), Attrs::new())))
        .collect();
    write_ok(&store, exact).await;
    let (all, _) = drain(&store, q(&pk, SkRange::All, true, 500, None)).await;
    assert_eq!(all.len(), 100);
    assert_eq!(all.first().map(String::as_str), Some("k000"));
    assert_eq!(all.last().map(String::as_str), Some("k099"));
}

/// Two operations on one key in one write are Invalid, whatever their kinds, and write nothing.
pub async fn two_ops_on_one_key_is_invalid<S: Store>(store: S) {
    let pk = fresh_pk("dup");
    let a = item(&pk, "a", attrs(&[("v", Value::N(1))]));
    let other = item(&pk, "other", Attrs::new());
    expect_invalid(
        store.write(vec![put(&other), put(&a), put(&a)]).await,
        "put twice",
    );
    expect_invalid(
        store
            .write(vec![
                put(&a),
                WriteOp::Check {
                    key: a.key.clone(),
                    guard: Guard::new(G, Condition::NotExists),
                },
            ])
            .await,
        "put + check",
    );
    expect_invalid(
        store
            .write(vec![
                update(&a.key, Attrs::new(), &[("v", 1)], &[], None),
                WriteOp::Delete {
                    key: a.key.clone(),
                    guard: None,
                },
            ])
            .await,
        "update + delete",
    );
    assert_eq!(get(&store, &other.key).await, None);
    assert_eq!(get(&store, &a.key).await, None);
    // Same sort key in two partitions is two keys.
    write_ok(
        &store,
        vec![put(&a), put(&item(&fresh_pk("dup-b"), "a", Attrs::new()))],
    )
    .await;
}

/// An item over [`MAX_ITEM_BYTES`] is Invalid (by put or by update); a large one under it is fine.
pub async fn oversize_item_is_invalid<S: Store>(store: S) {
    let pk = fresh_pk("size");
    let too_big = item(&pk, "big", attrs(&[("blob", s(&"x".repeat(MAX_ITEM_BYTES + 1)))]));
    let marker = item(&pk, "marker", Attrs::new());
    expect_invalid(
        store.write(vec![put(&marker), put(&too_big)]).await,
        "oversize put",
    );
    assert_eq!(get(&store, &marker.key).await, None);
    assert_eq!(get(&store, &too_big.key).await, None);

    let large = item(&pk, "large", attrs(&[("blob", s(&"가".repeat(100 * 1024)))]));
    write_ok(&store, vec![put(&large)]).await;
    assert_eq!(get(&store, &large.key).await, Some(large.clone()));
    // 300 KiB of Hangul + another 300 KiB would pass 400 KiB.
    expect_invalid(
        store
            .write(vec![update(
                &large.key,
                attrs(&[("more", s(&"y".repeat(300 * 1024)))]),
                &[],
                &[],
                None,
            )])
            .await,
        "update growing past the limit",
    );
    assert_eq!(get(&store, &large.key).await, Some(large));
}

/// Keys DynamoDB refuses (an empty part, a sort key over 1,024 bytes, a partition
/// key over 2,048) are Invalid in every store, for writes and reads; keys at the limits are fine.
pub async fn key_limits<S: Store>(store: S) {
    let pk = fresh_pk("keys");
    let at_limit = item(&pk, &"k".repeat(1024), attrs(&[("v", Value::N(1))]));
    let long_pk = format!("{pk}{}", "p".repeat(2048 - pk.len()));
    let at_pk_limit = item(&long_pk, "a", Attrs::new());
    write_ok(&store, vec![put(&at_limit), put(&at_pk_limit)]).await;
    assert_eq!(get(&store, &at_limit.key).await, Some(at_limit));
    assert_eq!(get(&store, &at_pk_limit.key).await, Some(at_pk_limit));

    let marker = item(&pk, "marker", Attrs::new());
    let bad = [
        Key::new(pk.as_str(), ""),
        Key::new("", "a"),
        Key::new(pk.as_str(), "k".repeat(1025)),
        Key::new(format!("{long_pk}p"), "a"),
    ];
    for key in bad {
        let ctx = format!("key of {} / {} bytes", key.pk.len(), key.sk.len());
        let bad_put = put(&Item {
            key: key.clone(),
            attrs: Attrs::new(),
        });
        expect_invalid(store.write(vec![put(&marker), bad_put]).await, &ctx);
        let check = WriteOp::Check {
            key: key.clone(),
            guard: Guard::new(G, Condition::NotExists),
        };
        expect_invalid(store.write(vec![check]).await, &ctx);
        match store.get(&key).await {
            Err(StoreError::Invalid(_)) => {}
            other => panic!("{ctx}: get should be Invalid, got {other:?}"),
        }
        match store.get_many(&[marker.key.clone(), key.clone()]).await {
            Err(StoreError::Invalid(_)) => {}
            other => panic!("{ctx}: get_many should be Invalid, got {other:?}"),
        }
    }
    assert_eq!(
        get(&store, &marker.key).await,
        None,
        "nothing of a refused write lands"
    );
    match store.query(&q("", SkRange::All, true, 10, None)).await {
        Err(StoreError::Invalid(_)) => {}
        other => panic!("query of an empty partition key should be Invalid, got {other:?}"),
    }
}

/// Top-level attributes named `PK`, `SK` (where DynamoDB keeps the key) or the
/// empty string are Invalid wherever an operation names them; nested names and
/// other spellings are ordinary data.
pub async fn reserved_attribute_names_are_invalid<S: Store>(store: S) {
    let pk = fresh_pk("reserved");
    let key = Key::new(&pk, "x");
    for name in ["PK", "SK", ""] {
        let ctx = format!("attribute {name:?}");
        let with = attrs(&[(name, s("v"))]);
        let ops = vec![
            put(&item(&pk, "x", with.clone())),
            update(&key, with, &[], &[], None),
            update(&key, Attrs::new(), &[(name, 1)], &[], None),
            update(&key, Attrs::new(), &[], &[name], None),
            WriteOp::Check {
                key: key.clone(),
                guard: Guard::new(G, Condition::AttrEquals(name.to_owned(), s("v"))),
            },
            WriteOp::Delete {
                key: key.clone(),
                guard: Some(Guard::new(G, Condition::AttrNotEquals(name.to_owned(), s("v")))),
            },
        ];
        for op in ops {
            expect_invalid(store.write(vec![op.clone()]).await, &format!("{ctx} in {op:?}"));
        }
    }
    assert_eq!(get(&store, &key).await, None);
    let mut nested = BTreeMap::new();
    nested.insert("PK".to_owned(), s("inner"));
    nested.insert("SK".to_owned(), s("inner"));
    let fine = item(
        &pk,
        "x",
        attrs(&[("pk", s("a")), ("Sk", s("b")), ("m", Value::M(nested))]),
    );
    write_ok(&store, vec![put(&fine)]).await;
    assert_eq!(get(&store, &key).await, Some(fine));
}

/// A query limit of 0 is Invalid.
pub async fn query_limit_zero_is_invalid<S: Store>(store: S) {
    let pk = fresh_pk("limit0");
    match store.query(&q(&pk, SkRange::All, true, 0, None)).await {
        Err(StoreError::Invalid(_)) => {}
        other => panic!("expected Invalid, got {other:?}"),
    }
}

// ---------------------------------------------------------------- queries

const ORDERED: [&str; 10] = ["A", "B#1", "B#2", "B#10", "a", "a#", "a#b", "b", "가", "😀"];

/// Sort-key byte order of [`ORDERED`] (uppercase before lowercase, "#10" before "#2").
fn byte_sorted() -> Vec<String> {
    let mut v: Vec<String> = ORDERED.iter().map(|s| (*s).to_owned()).collect();
    v.sort();
    v
}

/// All items come back in byte order forward and reversed backward; other partitions never leak in.
pub async fn query_all_in_byte_order_without_leaks<S: Store>(store: S) {
    let pk = fresh_pk("q-all");
    seed(&store, &pk, &ORDERED).await;
    // Neighbouring partitions: equal prefix, longer, and sorting just before/after.
    let neighbours = [
        format!("{pk}#"),
        format!("{pk}0"),
        format!("{pk}#x"),
        pk[..pk.len() - 1].to_owned(),
    ];
    for n in &neighbours {
        seed(&store, n, &["0", "A", "a", "zzz", "\u{10FFFF}"]).await;
    }
    let expected = byte_sorted();
    assert_eq!(
        expected,
        vec!["A", "B#1", "B#10", "B#2", "a", "a#", "a#b", "b", "가", "😀"],
        "test data sorted as bytes"
    );
    let page = query(&store, &q(&pk, SkRange::All, true, 100, None)).await;
    assert_eq!(sks(&page.items), expected);
    assert_eq!(
        page.items[4],
        item(&pk, "a", attrs(&[("sk", s("a"))])),
        "items come back whole"
    );
    let back = query(&store, &q(&pk, SkRange::All, false, 100, None)).await;
    let mut rev = expected.clone();
    rev.reverse();
    assert_eq!(sks(&back.items), rev);
    // Each neighbour sees only its own five.
    for n in &neighbours {
        let (got, _) = drain(&store, q(n, SkRange::All, false, 2, None)).await;
        assert_eq!(got, vec!["\u{10FFFF}", "zzz", "a", "A", "0"], "partition {n}");
    }
    // A partition with nothing in it.
    let empty = query(&store, &q(&fresh_pk("q-empty"), SkRange::All, true, 10, None)).await;
    assert_eq!(
        empty,
        Page {
            items: vec![],
            last_sk: None
        }
    );
}

/// Sort keys order by UTF-8 bytes, not UTF-16 units or chars' case: U+FF5E sorts before U+1F600.
pub async fn query_orders_by_utf8_bytes<S: Store>(store: S) {
    let pk = fresh_pk("q-utf8");
    // UTF-16 would put the emoji (surrogate 0xD83D) before U+FF5E; UTF-8 puts it after.
    let keys = ["\u{FF5E}", "😀", "\u{E000}", "é", "z", "Z", "각", "가나", "가"];
    seed(&store, &pk, &keys).await;
    let (got, _) = drain(&store, q(&pk, SkRange::All, true, 3, None)).await;
    assert_eq!(
        got,
        vec!["Z", "z", "é", "가", "가나", "각", "\u{E000}", "\u{FF5E}", "😀"]
    );
}

/// Prefix queries, forward and backward, including multibyte prefixes and a key equal to the prefix.
pub async fn query_prefix<S: Store>(store: S) {
    let pk = fresh_pk("q-prefix");
    let keys = [
        "TX#2026-01-31#1",
        "TX#2026-02-01#1",
        "TX#2026-02-01#2",
        "TX#2026-02-28#9",
        "TX#2026-03-01#1",
        "TX#",
        "TX",
        "TXN",
        "가",
        "가나",
        "가나다",
        "각",
        "갸",
        "A#\u{FF5E}",
        "A#😀",
        "A#\u{10FFFF}",
        "A$",
    ];
    seed(&store, &pk, &keys).await;
    let run = |p: &str, fwd: bool| q(&pk, SkRange::Prefix(p.to_owned()), fwd, 100, None);
    let cases: Vec<(&str, Vec<&str>)> = vec![
        (
            "TX#2026-02",
            vec!["TX#2026-02-01#1", "TX#2026-02-01#2", "TX#2026-02-28#9"],
        ),
        (
            "TX#",
            vec![
                "TX#",
                "TX#2026-01-31#1",
                "TX#2026-02-01#1",
                "TX#2026-02-01#2",
                "TX#2026-02-28#9",
                "TX#2026-03-01#1",
            ],
        ),
        ("TX#2026-02-01#1", vec!["TX#2026-02-01#1"]),
        ("TX#2027", vec![]),
        ("가", vec!["가", "가나", "가나다"]),
        ("가나", vec!["가나", "가나다"]),
        ("갸", vec!["갸"]),
        ("A#", vec!["A#\u{FF5E}", "A#😀", "A#\u{10FFFF}"]),
        ("A#\u{10FFFF}", vec!["A#\u{10FFFF}"]),
        ("\u{10FFFF}", vec![]),
    ];
    for (p, expected) in cases {
        let fwd = query(&store, &run(p, true)).await;
        assert_eq!(sks(&fwd.items), expected, "prefix {p:?} forward");
        let back = query(&store, &run(p, false)).await;
        let mut rev: Vec<&str> = expected.clone();
        rev.reverse();
        assert_eq!(sks(&back.items), rev, "prefix {p:?} backward");
        // And page by page, one item at a time, both ways.
        let (paged, _) = drain(&store, q(&pk, SkRange::Prefix(p.to_owned()), true, 1, None)).await;
        assert_eq!(paged, expected, "prefix {p:?} paged forward");
        let (paged_back, _) = drain(&store, q(&pk, SkRange::Prefix(p.to_owned()), false, 1, None)).await;
        assert_eq!(paged_back, rev, "prefix {p:?} paged backward");
    }
}

/// Between is inclusive at both ends, forward and backward; bounds need not exist.
pub async fn query_between<S: Store>(store: S) {
    let pk = fresh_pk("q-between");
    let keys = [
        "M#2025-12",
        "M#2026-01",
        "M#2026-02",
        "M#2026-03",
        "M#2026-04",
        "N",
        "가",
        "각",
    ];
    seed(&store, &pk, &keys).await;
    let between = |a: &str, b: &str| SkRange::Between(a.to_owned(), b.to_owned());
    let cases: Vec<(SkRange, Vec<&str>)> = vec![
        (
            between("M#2026-01", "M#2026-03"),
            vec!["M#2026-01", "M#2026-02", "M#2026-03"],
        ),
        (
            between("M#2026-01-15", "M#2026-03-99"),
            vec!["M#2026-02", "M#2026-03"],
        ),
        (between("M#2026-02", "M#2026-02"), vec!["M#2026-02"]),
        (between("M#2027", "M#2028"), vec![]),
        (
            between("M#", "M#~"),
            vec!["M#2025-12", "M#2026-01", "M#2026-02", "M#2026-03", "M#2026-04"],
        ),
        (between("가", "각"), vec!["가", "각"]),
        (between("N", "\u{10FFFF}"), vec!["N", "가", "각"]),
    ];
    for (range, expected) in cases {
        let fwd = query(&store, &q(&pk, range.clone(), true, 100, None)).await;
        assert_eq!(sks(&fwd.items), expected, "{range:?} forward");
        let back = query(&store, &q(&pk, range.clone(), false, 100, None)).await;
        let mut rev = expected.clone();
        rev.reverse();
        assert_eq!(sks(&back.items), rev, "{range:?} backward");
        let (paged, _) = drain(&store, q(&pk, range.clone(), false, 2, None)).await;
        assert_eq!(paged, rev, "{range:?} paged backward");
    }
}

/// A limit cuts the page and `last_sk` resumes strictly after it, in both directions,
/// whatever the page size; a partial page is the last.
pub async fn query_limit_and_cursor<S: Store>(store: S) {
    let pk = fresh_pk("q-cursor");
    let keys: Vec<String> = (0..25).map(|i| format!("K#{i:02}")).collect();
    let refs: Vec<&str> = keys.iter().map(String::as_str).collect();
    seed(&store, &pk, &refs).await;

    let first = query(&store, &q(&pk, SkRange::All, true, 10, None)).await;
    assert_eq!(sks(&first.items), keys[..10].to_vec());
    assert_eq!(first.last_sk.as_deref(), Some("K#09"));
    let second = query(&store, &q(&pk, SkRange::All, true, 10, first.last_sk.as_deref())).await;
    assert_eq!(sks(&second.items), keys[10..20].to_vec());
    let third = query(&store, &q(&pk, SkRange::All, true, 10, second.last_sk.as_deref())).await;
    assert_eq!(sks(&third.items), keys[20..].to_vec());
    assert_eq!(third.last_sk, None);

    let back = query(&store, &q(&pk, SkRange::All, false, 4, None)).await;
    assert_eq!(sks(&back.items), vec!["K#24", "K#23", "K#22", "K#21"]);
    assert_eq!(back.last_sk.as_deref(), Some("K#21"));
    let back2 = query(&store, &q(&pk, SkRange::All, false, 4, Some("K#21"))).await;
    assert_eq!(sks(&back2.items), vec!["K#20", "K#19", "K#18", "K#17"]);

    let mut rev = keys.clone();
    rev.reverse();
    for limit in [1, 2, 3, 7, 24, 25, 26] {
        let (fwd, pages) = drain(&store, q(&pk, SkRange::All, true, limit, None)).await;
        assert_eq!(fwd, keys, "limit {limit} forward");
        // Whole pages, plus possibly one empty page when the last one was exactly full.
        let full = 25usize.div_ceil(limit as usize);
        assert!(pages == full || pages == full + 1, "limit {limit}: {pages} pages");
        let (bwd, _) = drain(&store, q(&pk, SkRange::All, false, limit, None)).await;
        assert_eq!(bwd, rev, "limit {limit} backward");
    }
}

/// A cursor resumes strictly after its sort key whether or not that key exists,
/// and a cursor outside the range is not an error.
pub async fn query_cursor_edges<S: Store>(store: S) {
    let pk = fresh_pk("q-cursor-edge");
    seed(&store, &pk, &["a", "b", "c", "d", "e"]).await;
    let all = |fwd: bool, after: &str| q(&pk, SkRange::All, fwd, 100, Some(after));
    let cases: Vec<(Query, Vec<&str>)> = vec![
        (all(true, "b"), vec!["c", "d", "e"]),
        (all(true, "bb"), vec!["c", "d", "e"]),
        (all(true, "0"), vec!["a", "b", "c", "d", "e"]),
        (all(true, "e"), vec![]),
        (all(true, "zzz"), vec![]),
        (all(false, "c"), vec!["b", "a"]),
        (all(false, "cc"), vec!["c", "b", "a"]),
        (all(false, "a"), vec![]),
        (all(false, "zzz"), vec!["e", "d", "c", "b", "a"]),
        (
            q(
                &pk,
                SkRange::Between("b".into(), "d".into()),
                true,
                100,
                Some("a"),
            ),
            vec!["b", "c", "d"],
        ),
        (
            q(
                &pk,
                SkRange::Between("b".into(), "d".into()),
                true,
                100,
                Some("c"),
            ),
            vec!["d"],
        ),
        (
            q(
                &pk,
                SkRange::Between("b".into(), "d".into()),
                true,
                100,
                Some("d"),
            ),
            vec![],
        ),
        (
            q(
                &pk,
                SkRange::Between("b".into(), "d".into()),
                true,
                100,
                Some("x"),
            ),
            vec![],
        ),
        (
            q(
                &pk,
                SkRange::Between("b".into(), "d".into()),
                false,
                100,
                Some("x"),
            ),
            vec!["d", "c", "b"],
        ),
        (
            q(
                &pk,
                SkRange::Between("b".into(), "d".into()),
                false,
                100,
                Some("c"),
            ),
            vec!["b"],
        ),
        (
            q(
                &pk,
                SkRange::Between("b".into(), "d".into()),
                false,
                100,
                Some("a"),
            ),
            vec![],
        ),
        (
            q(&pk, SkRange::Prefix("c".into()), true, 100, Some("b")),
            vec!["c"],
        ),
        (q(&pk, SkRange::Prefix("c".into()), true, 100, Some("c")), vec![]),
        (
            q(&pk, SkRange::Prefix("c".into()), false, 100, Some("d")),
            vec!["c"],
        ),
        (q(&pk, SkRange::Prefix("c".into()), false, 100, Some("c")), vec![]),
    ];
    for (query_, expected) in cases {
        let page = query(&store, &query_).await;
        assert_eq!(sks(&page.items), expected, "{query_:?}");
        assert_eq!(page.last_sk, None, "{query_:?}");
    }
}

/// A write between pages is seen by the next page if it sorts after the cursor
/// (strongly consistent reads; the cursor is a key, not a snapshot).
pub async fn query_sees_writes_between_pages<S: Store>(store: S) {
    let pk = fresh_pk("q-live");
    seed(&store, &pk, &["a", "c", "e"]).await;
    let first = query(&store, &q(&pk, SkRange::All, true, 2, None)).await;
    assert_eq!(sks(&first.items), vec!["a", "c"]);
    seed(&store, &pk, &["b", "d"]).await;
    write_ok(
        &store,
        vec![WriteOp::Delete {
            key: Key::new(&pk, "e"),
            guard: None,
        }],
    )
    .await;
    let (rest, _) = drain(&store, q(&pk, SkRange::All, true, 2, first.last_sk.as_deref())).await;
    assert_eq!(rest, vec!["d"]);
}

// ---------------------------------------------------------------- concurrency

/// 20 concurrent `NotExists` puts of one key: exactly one wins, 19 see the winner's item.
pub async fn concurrent_conditional_puts_one_winner<S: Store>(store: S) {
    let store = Arc::new(store);
    let pk = fresh_pk("race-put");
    let key = Key::new(&pk, "NAME#food");
    let mut tasks = Vec::new();
    for i in 0..20i64 {
        let store = store.clone();
        let it = item(&pk, "NAME#food", attrs(&[("owner", Value::N(i))]));
        tasks.push(tokio::spawn(async move {
            write_retrying(&*store, vec![put_if(&it, Condition::NotExists)]).await
        }));
    }
    let mut winners = Vec::new();
    let mut losers = Vec::new();
    for (i, t) in tasks.into_iter().enumerate() {
        match t.await {
            Ok(Ok(())) => winners.push(i as i64),
            Ok(Err(StoreError::ConditionFailed { guard: G, current })) => losers.push(current),
            Ok(Err(e)) => panic!("task {i}: unexpected error {e:?}"),
            Err(e) => panic!("task {i} panicked: {e}"),
        }
    }
    assert_eq!(winners.len(), 1, "exactly one conditional put wins");
    assert_eq!(losers.len(), 19);
    let stored = item(&pk, "NAME#food", attrs(&[("owner", Value::N(winners[0]))]));
    assert_eq!(get(&*store, &key).await, Some(stored.clone()));
    for current in losers {
        assert_eq!(current, Some(stored.clone()), "losers see the winner");
    }
}

/// 50 concurrent `add`s to one attribute (and a second item in the same write) sum exactly.
pub async fn concurrent_adds_sum_exactly<S: Store>(store: S) {
    let store = Arc::new(store);
    let pk = fresh_pk("race-add");
    let a = Key::new(&pk, "ACC#a");
    let b = Key::new(&pk, "ACC#b");
    let mut tasks = Vec::new();
    for i in 1..=50i64 {
        let store = store.clone();
        let (a, b) = (a.clone(), b.clone());
        tasks.push(tokio::spawn(async move {
            write_retrying(
                &*store,
                vec![
                    update(&a, Attrs::new(), &[("balance", i), ("n", 1)], &[], None),
                    update(&b, Attrs::new(), &[("balance", -i)], &[], None),
                ],
            )
            .await
        }));
    }
    for (i, t) in tasks.into_iter().enumerate() {
        match t.await {
            Ok(Ok(())) => {}
            Ok(Err(e)) => panic!("add {i} failed: {e:?}"),
            Err(e) => panic!("add {i} panicked: {e}"),
        }
    }
    assert_eq!(
        get(&*store, &a).await,
        Some(item(
            &pk,
            "ACC#a",
            attrs(&[("balance", Value::N(1275)), ("n", Value::N(50))])
        ))
    );
    assert_eq!(
        get(&*store, &b).await,
        Some(item(&pk, "ACC#b", attrs(&[("balance", Value::N(-1275))])))
    );
}

/// Optimistic concurrency: 10 tasks × 5 compare-and-set increments of a version
/// (read, then update with `AttrEquals`) end at exactly 50 with no lost update.
pub async fn concurrent_compare_and_set<S: Store>(store: S) {
    let store = Arc::new(store);
    let pk = fresh_pk("race-cas");
    let key = Key::new(&pk, "VAULT");
    write_ok(
        &*store,
        vec![put(&item(&pk, "VAULT", attrs(&[("version", Value::N(0))])))],
    )
    .await;
    let mut tasks = Vec::new();
    for _ in 0..10 {
        let store = store.clone();
        let key = key.clone();
        tasks.push(tokio::spawn(async move {
            let mut conflicts = 0u32;
            let mut done = 0;
            while done < 5 {
                let current = match store.get(&key).await {
                    Ok(Some(it)) => it.attrs.get("version").cloned(),
                    other => return Err(format!("read failed: {other:?}")),
                };
                let Some(Value::N(v)) = current else {
                    return Err(format!("bad version {current:?}"));
                };
                let op = update(
                    &key,
                    attrs(&[("version", Value::N(v + 1))]),
                    &[],
                    &[],
                    Some(Condition::AttrEquals("version".into(), Value::N(v))),
                );
                match write_retrying(&*store, vec![op]).await {
                    Ok(()) => done += 1,
                    Err(StoreError::ConditionFailed { guard: G, .. }) => conflicts += 1,
                    Err(e) => return Err(format!("write failed: {e:?}")),
                }
                if conflicts > 10_000 {
                    return Err("no progress".into());
                }
            }
            Ok(())
        }));
    }
    for t in tasks {
        match t.await {
            Ok(Ok(())) => {}
            Ok(Err(e)) => panic!("{e}"),
            Err(e) => panic!("task panicked: {e}"),
        }
    }
    assert_eq!(
        get(&*store, &key).await,
        Some(item(&pk, "VAULT", attrs(&[("version", Value::N(50))])))
    );
}

/// Concurrent multi-item writes that each need two conditions never apply half:
/// 30 tasks race to claim overlapping pairs of slots; every claimed slot is held
/// by a task whose whole pair is claimed.
pub async fn concurrent_multi_item_writes_are_atomic<S: Store>(store: S) {
    let store = Arc::new(store);
    let pk = fresh_pk("race-pairs");
    let mut tasks = Vec::new();
    for t in 0..30i64 {
        let store = store.clone();
        let pk = pk.clone();
        // Task t wants slots t % 10 and (t + 1) % 10.
        let (x, y) = (t % 10, (t + 1) % 10);
        tasks.push(tokio::spawn(async move {
            let claim = |slot: i64| {
                put_if(
                    &item(&pk, &format!("SLOT#{slot}"), attrs(&[("by", Value::N(t))])),
                    Condition::NotExists,
                )
            };
            let r = write_retrying(&*store, vec![claim(x), claim(y)]).await;
            (t, x, y, r)
        }));
    }
    let mut won: BTreeMap<i64, (i64, i64)> = BTreeMap::new();
    for task in tasks {
        let (t, x, y, r) = match task.await {
            Ok(v) => v,
            Err(e) => panic!("task panicked: {e}"),
        };
        match r {
            Ok(()) => {
                won.insert(t, (x, y));
            }
            Err(StoreError::ConditionFailed {
                guard: G,
                current: Some(_),
            }) => {}
            Err(e) => panic!("task {t}: unexpected {e:?}"),
        }
    }
    assert!(!won.is_empty(), "someone claims a pair");
    let page = query(&*store, &q(&pk, SkRange::Prefix("SLOT#".into()), true, 100, None)).await;
    assert_eq!(
        page.items.len(),
        won.len() * 2,
        "each winner holds exactly its two slots"
    );
    for it in page.items {
        let Some(Value::N(by)) = it.attrs.get("by") else {
            panic!("slot without owner: {it:?}")
        };
        let Some((x, y)) = won.get(by) else {
            panic!("slot {} held by a loser {by}", it.key.sk)
        };
        assert!(
            it.key.sk == format!("SLOT#{x}") || it.key.sk == format!("SLOT#{y}"),
            "{it:?}"
        );
    }
}

// ---------------------------------------------------------------- the macro

/// Instantiate every store contract test against the store an expression yields.
///
/// The argument is an expression of a future resolving to the store; it is
/// evaluated once per test (e.g. `async { EmbeddedStore::in_memory().unwrap() }`).
/// Invoke it inside a module of its own to run the suite against several stores.
#[macro_export]
macro_rules! store_contract_tests {
    ($factory:expr) => {
        $crate::__store_contract_tests!(
            $factory;
            get_missing_is_none,
            put_then_get_round_trips_every_value_kind,
            put_replaces_the_whole_item,
            get_many_follows_key_order,
            get_many_beyond_one_batch,
            put_conditions,
            update_conditions,
            delete_conditions,
            check_conditions,
            attr_conditions_compare_typed_values,
            unconditional_ops,
            multi_op_write_applies_everything,
            failed_condition_writes_nothing,
            failed_check_reports_its_guard_and_item,
            failed_guard_is_reported_by_its_name,
            failed_update_writes_nothing,
            update_creates_missing_item,
            update_add_set_remove,
            update_overflow_is_invalid,
            update_add_to_non_number_is_invalid,
            empty_write_is_invalid,
            malformed_combined_condition_is_invalid,
            write_op_limit,
            two_ops_on_one_key_is_invalid,
            oversize_item_is_invalid,
            key_limits,
            reserved_attribute_names_are_invalid,
            query_limit_zero_is_invalid,
            query_all_in_byte_order_without_leaks,
            query_orders_by_utf8_bytes,
            query_prefix,
            query_between,
            query_limit_and_cursor,
            query_cursor_edges,
            query_sees_writes_between_pages,
            concurrent_conditional_puts_one_winner,
            concurrent_adds_sum_exactly,
            concurrent_compare_and_set,
            concurrent_multi_item_writes_are_atomic,
        );
    };
}

/// Expands one `#[test]` per suite function (implementation detail of [`store_contract_tests!`]).
#[doc(hidden)]
#[macro_export]
macro_rules! __store_contract_tests {
    ($factory:expr; $($name:ident),* $(,)?) => {
        $(
            #[test]
            fn $name() {
                $crate::contract::store_suite::block_on(async {
                    let store = ($factory).await;
                    $crate::contract::store_suite::$name(store).await;
                });
            }
        )*
    };
}
