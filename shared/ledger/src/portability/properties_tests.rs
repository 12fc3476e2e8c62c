//! The schema's readers under arbitrary input (issue 51): page cursors and backup files
//! never panic, refuse what is not theirs, and read back exactly what was written.

use proptest::prelude::*;

use crate::api::OperationId;
use crate::core::cursor;
use crate::portability::backup::Backup;
use crate::stored::{entry, table, vault};
use dochiya_domain::{LocalDate, TransactionId, VaultId};
use dochiya_store::{Item, Key, Value};

/// A stored value: strings of any characters, integers of any size, nested lists and maps.
fn value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        any::<String>().prop_map(Value::S),
        any::<i64>().prop_map(Value::N),
        any::<bool>().prop_map(Value::Bool),
    ];
    leaf.prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::L),
            prop::collection::btree_map("[a-zA-Z#]{1,8}", inner, 0..4).prop_map(Value::M),
        ]
    })
}

/// A backup of one vault made before sharing: its meta item with arbitrary attributes
/// and its creator, the one member (decision 048: nothing outside the vault unless a
/// membership implies it).
fn backup() -> impl Strategy<Value = Backup> {
    (
        any::<u128>(),
        "\\PC{1,20}",
        prop::collection::btree_map("[a-zA-Z]{1,10}", value(), 0..6),
        any::<i64>(),
    )
        .prop_map(|(id, name, mut attrs, at)| {
            let vault = VaultId::from_uuid(uuid::Uuid::from_u128(id));
            attrs.insert("createdBy".to_string(), Value::S("alice".into()));
            Backup {
                vault_id: vault,
                vault_name: name,
                persons: vec!["alice".into()],
                exported_at_ms: at,
                items: vec![Item {
                    key: Key::new(table::vault_pk(vault), vault::VAULT_META),
                    attrs,
                }],
            }
        })
}

fn written(b: &Backup) -> String {
    let mut out = Vec::new();
    b.write_jsonl(&mut out).expect("write");
    String::from_utf8(out).expect("UTF-8")
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn cursors_refuse_anything_else_and_round_trip(t in any::<String>(), hex in "[0-9a-f]{0,300}", v in any::<u128>(),
        hash in "[a-z0-9]{0,16}", y in 1900_i16..2999, id in (dochiya_domain::TWO_POW_53 + 1)..=u64::MAX) {
        let vault = VaultId::from_uuid(uuid::Uuid::from_u128(v));
        // Anything else is refused (a hex string that is no cursor included), never a panic.
        prop_assert!(cursor::decode(&t, vault, &hash).is_err());
        prop_assert!(cursor::decode(&hex, vault, &hash).is_err());
        let date = LocalDate::from_ymd(y, 1 + (v % 12) as i16, 1 + (v % 28) as i16).expect("a date");
        let id = TransactionId::parse(&id.to_string()).expect("an id");
        for sk in [entry::transaction(vault, date, id).sk, entry::transaction_by_id(vault, id).sk] {
            let c = cursor::encode(vault, &hash, &sk);
            prop_assert_eq!(cursor::decode(&c, vault, &hash).ok(), Some(sk));
            let other = format!("{hash}x");
            prop_assert!(cursor::decode(&c, vault, &other).is_err());
        }
    }

    #[test]
    fn backups_read_back_exactly(b in backup()) {
        let text = written(&b);
        prop_assert_eq!(Backup::read_jsonl(text.as_bytes()).ok(), Some(b));
    }

    #[test]
    fn damaged_backups_are_refused_never_panic(b in backup(), cut in any::<prop::sample::Index>(), junk in any::<String>(), line in any::<prop::sample::Index>()) {
        let text = written(&b);
        // Cut anywhere (inside a character too), or a line replaced by anything.
        let at = cut.index(text.len());
        prop_assert!(Backup::read_jsonl(&text.as_bytes()[..at]).is_err());
        let mut lines: Vec<&str> = text.lines().collect();
        let i = line.index(lines.len());
        lines[i] = &junk;
        let damaged = lines.join("\n");
        if damaged != text.trim_end() {
            prop_assert!(Backup::read_jsonl(damaged.as_bytes()).is_err());
        }
        let _ = Backup::read_jsonl(junk.as_bytes());
    }

    #[test]
    fn operation_ids_parse_or_refuse(t in any::<String>(), id in (dochiya_domain::TWO_POW_53 + 1)..=u64::MAX) {
        if let Err(e) = OperationId::parse(&t) {
            prop_assert!(!e.message().is_empty());
        }
        prop_assert_eq!(OperationId::parse(&id.to_string()).map(|o| o.to_string()), Ok(id.to_string()));
    }
}
