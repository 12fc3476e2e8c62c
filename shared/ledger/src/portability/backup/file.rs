//! The backup file: JSON lines. The first line is the header, the last the trailer,
//! every line between one item with its typed attributes, in DynamoDB's own JSON
//! shape (`{"S": …}`, `{"N": "…"}` as a string so no number passes through a float,
//! `{"BOOL": …}`, `{"L": […]}`, `{"M": {…}}`):
//!
//! ```text
//! {"format":"dochiya-backup","version":1,"vaultId":"…","vaultName":"우리집","persons":["…"],"exportedAt":…}
//! {"pk":"V#…","sk":"A#…","attrs":{"name":{"S":"카카오뱅크"},"net":{"N":"988000"},…}}
//! {"trailer":{"items":1234,"sha256":"…"}}
//! ```

use std::collections::BTreeMap;
use std::io::{BufRead, Write};

use serde_json::{Map, Value as Json, json};
use sha2::{Digest, Sha256};

use super::{Backup, BackupError};
use crate::stored::{member, table, vault};
use dochiya_domain::{PersonId, VaultId};
use dochiya_store::{Attrs, Item, Key, MAX_ITEM_BYTES, Value};

/// The header's `format`.
pub const BACKUP_FORMAT: &str = "dochiya-backup";
/// The format version this build writes and reads.
pub const BACKUP_VERSION: i64 = 1;
/// Most items one backup may hold (a vault of decades is far below it).
pub const MAX_BACKUP_ITEMS: usize = 5_000_000;
/// Longest line read: an item of the largest size a store takes, in JSON.
pub const MAX_LINE_BYTES: usize = 4 * MAX_ITEM_BYTES;

impl Backup {
    /// Write the backup as JSON lines.
    pub fn write_jsonl(&self, out: &mut impl Write) -> std::io::Result<()> {
        let header = json!({
            "format": BACKUP_FORMAT,
            "version": BACKUP_VERSION,
            "vaultId": self.vault_id.to_string(),
            "vaultName": self.vault_name,
            "persons": self.persons,
            "exportedAt": self.exported_at_ms,
        });
        writeln!(out, "{header}")?;
        let mut hash = Sha256::new();
        for item in &self.items {
            let line = item_line(item).to_string();
            hash.update(line.as_bytes());
            hash.update(b"\n");
            writeln!(out, "{line}")?;
        }
        let trailer = json!({"trailer": {"items": self.items.len(), "sha256": hex(&hash.finalize())}});
        writeln!(out, "{trailer}")?;
        out.flush()
    }

    /// Read a backup written by [`Backup::write_jsonl`], checking its header, that
    /// every item belongs to its vault or persons, once, its trailer, and that it
    /// holds nothing its vault's members do not imply ([`Backup::check_scope`]).
    pub fn read_jsonl(input: impl BufRead) -> Result<Backup, BackupError> {
        let mut lines = Lines::new(input);
        let Some(first) = lines.next_line()? else {
            return Err(BackupError::NotABackup("the input is empty".into()));
        };
        let mut backup = header(&first)?;
        let mut hash = Sha256::new();
        let mut lines_of: std::collections::HashMap<Key, usize> = std::collections::HashMap::new();
        loop {
            let Some(line) = lines.next_line()? else {
                return Err(BackupError::Truncated(format!(
                    "it ends after {} items without its trailer",
                    backup.items.len()
                )));
            };
            let value: Json =
                serde_json::from_str(&line).map_err(|e| lines.bad(format!("not JSON ({e})")))?;
            if let Some(trailer) = value.get("trailer") {
                check_trailer(trailer, backup.items.len(), &hex(&hash.clone().finalize()))?;
                break;
            }
            if backup.items.len() >= MAX_BACKUP_ITEMS {
                return Err(lines.bad(format!("more than {MAX_BACKUP_ITEMS} items")));
            }
            let item = item_of(&value).map_err(|m| lines.bad(m))?;
            check_belongs(&backup, &item.key).map_err(|m| lines.bad(m))?;
            if let Some(first) = lines_of.insert(item.key.clone(), lines.number) {
                return Err(lines.bad(format!(
                    "item {}/{} appears again (first on line {first}); a backup holds each item once",
                    item.key.pk, item.key.sk
                )));
            }
            hash.update(line.as_bytes());
            hash.update(b"\n");
            backup.items.push(item);
        }
        if lines.next_line()?.is_some() {
            return Err(BackupError::Truncated("there are lines after its trailer".into()));
        }
        if !backup
            .items
            .iter()
            .any(|i| i.key.sk == vault::VAULT_META && i.key.pk == table::vault_pk(backup.vault_id))
        {
            return Err(BackupError::NotABackup("it holds no vault settings item".into()));
        }
        backup.check_scope()?;
        Ok(backup)
    }
}

/// Lines of the input, numbered, each bounded.
struct Lines<R> {
    input: R,
    number: usize,
}

impl<R: BufRead> Lines<R> {
    fn new(input: R) -> Self {
        Lines { input, number: 0 }
    }

    fn next_line(&mut self) -> Result<Option<String>, BackupError> {
        let mut buf = Vec::new();
        let limit = u64::try_from(MAX_LINE_BYTES + 2).unwrap_or(u64::MAX);
        let read = std::io::Read::take(&mut self.input, limit)
            .read_until(b'\n', &mut buf)
            .map_err(|e| BackupError::NotABackup(format!("cannot read the input: {e}")))?;
        if read == 0 {
            return Ok(None);
        }
        self.number += 1;
        if buf.len() > MAX_LINE_BYTES + 1 {
            return Err(self.bad(format!("longer than {MAX_LINE_BYTES} bytes")));
        }
        if buf.last() != Some(&b'\n') {
            // The last line of a whole file ends with a line break: this one was cut.
            return Err(BackupError::Truncated(format!("line {} is cut off", self.number)));
        }
        buf.pop();
        String::from_utf8(buf)
            .map(Some)
            .map_err(|_| self.bad("not UTF-8".into()))
    }

    fn bad(&self, message: String) -> BackupError {
        BackupError::BadLine {
            line: self.number,
            message,
        }
    }
}

fn header(line: &str) -> Result<Backup, BackupError> {
    let not = |why: &str| BackupError::NotABackup(why.to_string());
    let h: Json = serde_json::from_str(line).map_err(|_| not("its first line is not JSON"))?;
    if h.get("format").and_then(Json::as_str) != Some(BACKUP_FORMAT) {
        return Err(not("its first line is not a dochiya backup header"));
    }
    match h.get("version").and_then(Json::as_i64) {
        Some(BACKUP_VERSION) => {}
        Some(found) => return Err(BackupError::Version { found }),
        None => return Err(not("its header has no version")),
    }
    let vault_id = h
        .get("vaultId")
        .and_then(Json::as_str)
        .and_then(|v| VaultId::parse(v).ok())
        .ok_or_else(|| not("its header has no vault id"))?;
    let persons = h
        .get("persons")
        .and_then(Json::as_array)
        .map(|a| {
            a.iter()
                .map(|p| {
                    p.as_str()
                        .filter(|s| PersonId::new(*s).is_ok())
                        .map(str::to_string)
                })
                .collect::<Option<Vec<_>>>()
        })
        .and_then(|p| p.filter(|p| !p.is_empty()))
        .ok_or_else(|| not("its header names no persons"))?;
    Ok(Backup {
        vault_id,
        vault_name: h
            .get("vaultName")
            .and_then(Json::as_str)
            .unwrap_or_default()
            .to_string(),
        persons,
        exported_at_ms: h.get("exportedAt").and_then(Json::as_i64).unwrap_or(0),
        items: Vec::new(),
    })
}

fn check_trailer(trailer: &Json, count: usize, sha: &str) -> Result<(), BackupError> {
    let items = trailer.get("items").and_then(Json::as_u64);
    if items != Some(count as u64) {
        return Err(BackupError::Truncated(format!(
            "its trailer counts {} items and the file holds {count}",
            items.map_or("no".to_string(), |n| n.to_string())
        )));
    }
    if trailer.get("sha256").and_then(Json::as_str) != Some(sha) {
        return Err(BackupError::Truncated(
            "its items do not match the trailer's SHA-256".into(),
        ));
    }
    Ok(())
}

/// Items belong to the vault's partition, or to one of its persons' partitions
/// under the prefixes a backup takes from there.
fn check_belongs(backup: &Backup, key: &Key) -> Result<(), String> {
    if key.pk == table::vault_pk(backup.vault_id) {
        return Ok(());
    }
    let person = backup
        .persons
        .iter()
        .filter_map(|p| PersonId::new(p.as_str()).ok())
        .find(|p| table::person_pk(p) == key.pk);
    let membership = format!("{}{}", member::MEMBERSHIP_PREFIX, backup.vault_id);
    match person {
        Some(_) if key.sk == membership || key.sk.starts_with("VN#") || key.sk.starts_with("IK#") => Ok(()),
        _ => Err(format!(
            "item {}/{} is not of vault {}",
            key.pk, key.sk, backup.vault_id
        )),
    }
}

fn item_line(item: &Item) -> Json {
    let attrs: Map<String, Json> = item.attrs.iter().map(|(k, v)| (k.clone(), to_json(v))).collect();
    json!({"pk": item.key.pk, "sk": item.key.sk, "attrs": attrs})
}

fn to_json(value: &Value) -> Json {
    match value {
        Value::S(s) => json!({"S": s}),
        Value::N(n) => json!({"N": n.to_string()}),
        Value::Bool(b) => json!({"BOOL": b}),
        Value::L(list) => json!({"L": list.iter().map(to_json).collect::<Vec<_>>()}),
        Value::M(map) => {
            json!({"M": map.iter().map(|(k, v)| (k.clone(), to_json(v))).collect::<Map<_, _>>()})
        }
    }
}

fn item_of(line: &Json) -> Result<Item, String> {
    let text = |name: &str| {
        line.get(name)
            .and_then(Json::as_str)
            .map(str::to_string)
            .ok_or_else(|| format!("an item line needs \"{name}\""))
    };
    let (pk, sk) = (text("pk")?, text("sk")?);
    let attrs = match line.get("attrs") {
        Some(Json::Object(map)) => attrs_of(map)?,
        _ => return Err("an item line needs \"attrs\"".into()),
    };
    Ok(Item {
        key: Key::new(pk, sk),
        attrs,
    })
}

fn attrs_of(map: &Map<String, Json>) -> Result<Attrs, String> {
    map.iter()
        .map(|(k, v)| Ok((k.clone(), from_json(v, 0)?)))
        .collect::<Result<BTreeMap<_, _>, String>>()
}

/// A typed value; nesting is bounded (stored items nest two or three deep).
fn from_json(value: &Json, depth: usize) -> Result<Value, String> {
    const MAX_DEPTH: usize = 16;
    let bad = || format!("not a typed value: {value}");
    let Json::Object(map) = value else {
        return Err(bad());
    };
    if map.len() != 1 || depth > MAX_DEPTH {
        return Err(bad());
    }
    match map.iter().next() {
        Some((t, Json::String(s))) if t == "S" => Ok(Value::S(s.clone())),
        Some((t, Json::String(n))) if t == "N" => n.parse().map(Value::N).map_err(|_| bad()),
        Some((t, Json::Bool(b))) if t == "BOOL" => Ok(Value::Bool(*b)),
        Some((t, Json::Array(list))) if t == "L" => list
            .iter()
            .map(|v| from_json(v, depth + 1))
            .collect::<Result<_, _>>()
            .map(Value::L),
        Some((t, Json::Object(m))) if t == "M" => m
            .iter()
            .map(|(k, v)| Ok((k.clone(), from_json(v, depth + 1)?)))
            .collect::<Result<_, String>>()
            .map(Value::M),
        _ => Err(bad()),
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn backup() -> Backup {
        let vault = VaultId::from_uuid(uuid::Uuid::from_u128(7));
        let pk = table::vault_pk(vault);
        let meta = BTreeMap::from([
            ("name".to_string(), Value::S("우리집".into())),
            ("createdBy".to_string(), Value::S("alice".into())),
            ("accountCount".to_string(), Value::N(9_007_199_254_740_993)),
            ("shared".to_string(), Value::Bool(false)),
            (
                "postings".to_string(),
                Value::L(vec![Value::M(BTreeMap::from([(
                    "amount".to_string(),
                    Value::N(-12_000),
                )]))]),
            ),
        ]);
        let claim = BTreeMap::from([("vaultId".to_string(), Value::S(vault.to_string()))]);
        let membership = member::Membership {
            vault_id: vault,
            name: "우리집".into(),
            name_key: dochiya_domain::NameKey::of("우리집"),
            currency: dochiya_domain::Currency::parse("KRW").expect("KRW"),
            zone: dochiya_domain::VaultZone::parse("Asia/Seoul").expect("a zone"),
            role: crate::api::Role::Owner,
        };
        Backup {
            vault_id: vault,
            vault_name: "우리집".into(),
            persons: vec!["alice".into()],
            exported_at_ms: 1,
            items: vec![
                Item {
                    key: Key::new(pk, vault::VAULT_META),
                    attrs: meta,
                },
                Item {
                    key: Key::new("P#alice", format!("M#{vault}")),
                    attrs: membership.to_attrs(),
                },
                Item {
                    key: Key::new("P#alice", "VN#우리집"),
                    attrs: claim,
                },
            ],
        }
    }

    fn text(b: &Backup) -> String {
        let mut out = Vec::new();
        b.write_jsonl(&mut out).expect("write");
        String::from_utf8(out).expect("UTF-8")
    }

    fn read(text: &str) -> Result<Backup, String> {
        Backup::read_jsonl(text.as_bytes()).map_err(|e| e.to_string())
    }

    #[test]
    fn a_backup_reads_back_exactly_numbers_beyond_two_to_the_53_included() {
        let b = backup();
        let written = text(&b);
        assert!(
            written.contains(r#""accountCount":{"N":"9007199254740993"}"#),
            "{written}"
        );
        assert_eq!(read(&written), Ok(b));
    }

    #[test]
    fn truncated_altered_or_foreign_files_are_refused() {
        let written = text(&backup());
        let lines: Vec<&str> = written.lines().collect();
        assert_eq!(
            read(&format!("{}\n{}\n", lines[0], lines[1])),
            Err("the backup is truncated or altered: it ends after 1 items without its trailer; nothing was written. Export it again".into())
        );
        assert_eq!(
            read(&written[..written.len() - 1]),
            Err(
                "the backup is truncated or altered: line 5 is cut off; nothing was written. Export it again"
                    .into()
            )
        );
        let dropped = format!("{}\n{}\n{}\n{}\n", lines[0], lines[1], lines[2], lines[4]);
        assert_eq!(
            read(&dropped),
            Err("the backup is truncated or altered: its trailer counts 3 items and the file holds 2; nothing was written. Export it again".into())
        );
        let altered = written.replacen("-12000", "-13000", 1);
        assert_eq!(
            read(&altered),
            Err("the backup is truncated or altered: its items do not match the trailer's SHA-256; nothing was written. Export it again".into())
        );
        assert_eq!(
            read(&written.replacen("\"version\":1", "\"version\":2", 1)),
            Err("backup format version 2 is not one this dochiya reads (it reads version 1); use the dochiya that made it, or a newer one".into())
        );
        let outside = written.replacen(r#""pk":"P#alice","sk":"VN#"#, r#""pk":"P#mallory","sk":"VN#"#, 1);
        assert_eq!(
            read(&outside),
            Err(format!(
                "line 4: item P#mallory/VN#우리집 is not of vault {}",
                VaultId::from_uuid(uuid::Uuid::from_u128(7))
            ))
        );
        assert_eq!(read(""), Err("not a dochiya backup: the input is empty".into()));
        // The same key twice, the second copy different: which one is meant is a guess.
        let mut twice = backup();
        let mut again = twice.items[2].clone();
        again
            .attrs
            .insert("vaultId".into(), Value::S("somewhere else".into()));
        twice.items.push(again);
        assert_eq!(
            read(&text(&twice)),
            Err("line 5: item P#alice/VN#우리집 appears again (first on line 4); a backup holds each item once".into())
        );
        assert_eq!(
            read(&written.replacen(r#"{"N":"-12000"}"#, r#"{"N":-12000}"#, 1)),
            Err(r#"line 2: not a typed value: {"N":-12000}"#.into())
        );
    }
}
