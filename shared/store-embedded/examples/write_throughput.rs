//! Durable write throughput of the file store under concurrent writers: `TASKS`
//! tasks each write `WRITES` items (a put and an update, like a small transaction)
//! to a fresh store file. Prints writes per second.
//!
//! `cargo run --release -p dochiya-store-embedded --example write_throughput -- 16 200`

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Instant;

use dochiya_store::{Condition, Guard, Item, Key, Store, Value, WriteOp};
use dochiya_store_embedded::EmbeddedStore;

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let tasks: usize = args.next().map_or(Ok(16), |a| a.parse())?;
    let writes: usize = args.next().map_or(Ok(200), |a| a.parse())?;
    let dir = std::env::temp_dir().join(format!("dochiya-write-throughput-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let store = Arc::new(EmbeddedStore::open_in_dir(&dir)?);
    let started = Instant::now();
    let mut handles = Vec::new();
    for t in 0..tasks {
        let store = Arc::clone(&store);
        handles.push(tokio::spawn(async move {
            for w in 0..writes {
                let mut attrs = BTreeMap::new();
                attrs.insert("n".to_owned(), Value::N(1));
                let ops = vec![
                    WriteOp::Put {
                        item: Item {
                            key: Key::new(format!("V#{t}"), format!("T#{w:06}")),
                            attrs,
                        },
                        guard: Some(Guard::new("new", Condition::NotExists)),
                    },
                    WriteOp::Update {
                        key: Key::new(format!("V#{t}"), "A#total"),
                        set: BTreeMap::new(),
                        add: BTreeMap::from([("net".to_owned(), 1)]),
                        remove: Vec::new(),
                        guard: None,
                    },
                ];
                store.write(ops).await?;
            }
            Ok::<(), dochiya_store::StoreError>(())
        }));
    }
    for h in handles {
        h.await??;
    }
    let elapsed = started.elapsed();
    let total = tasks * writes;
    // Integer arithmetic only: the workspace forbids floating point.
    let micros = elapsed.as_micros().max(1);
    println!(
        "{tasks} tasks x {writes} writes = {total} durable writes in {} ms: {} writes/s",
        micros / 1000,
        (total as u128) * 1_000_000 / micros
    );
    drop(store);
    let _ = std::fs::remove_dir_all(&dir);
    Ok(())
}
