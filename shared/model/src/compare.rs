//! The server's answers reduced to the model's canonical views (`crate::book::views`):
//! amounts in minor units, ids replaced by the model's labels, lists the contract does
//! not order as maps keyed by name; and the comparison, which names every difference.

use std::collections::HashMap;

use serde_json::{Map, Value, json};

use crate::money::Currency;

/// Real ids and the model's labels for them, both ways.
#[derive(Debug, Default)]
pub struct Ids {
    label: HashMap<String, String>,
    real: HashMap<String, String>,
}

impl Ids {
    /// Learns that `real` is the thing the model calls `label`.
    pub fn learn(&mut self, label: String, real: String) {
        if let Some(known) = self.real.get(&label) {
            assert_eq!(known, &real, "{label} was {known} and is now {real}");
        }
        if let Some(other) = self.label.get(&real) {
            assert_eq!(
                other, &label,
                "the server answered {real}, which is {other}, where the model expects {label}"
            );
        }
        self.label.insert(real.clone(), label.clone());
        self.real.insert(label, real);
    }

    /// The label of a real id (the id itself when unknown, so a difference shows it).
    pub fn label(&self, real: &str) -> String {
        self.label
            .get(real)
            .cloned()
            .unwrap_or_else(|| format!("?{real}"))
    }

    /// The real id of a label.
    pub fn real(&self, label: &str) -> Option<&String> {
        self.real.get(label)
    }

    /// Knows this real id.
    pub fn knows(&self, real: &str) -> bool {
        self.label.contains_key(real)
    }
}

/// Arguments with `$tx:n`, `$op:n` and `$invite:n` replaced by the real ids.
pub fn substitute(args: &Value, ids: &Ids) -> Value {
    match args {
        Value::String(s) => {
            for (prefix, label) in [("$tx:", "t"), ("$op:", "op"), ("$invite:", "invite")] {
                if let Some(n) = s.strip_prefix(prefix) {
                    let label = format!("{label}{n}");
                    let real = ids
                        .real(&label)
                        .unwrap_or_else(|| panic!("no real id for {label}"));
                    return Value::String(real.clone());
                }
            }
            args.clone()
        }
        Value::Array(items) => Value::Array(items.iter().map(|v| substitute(v, ids)).collect()),
        Value::Object(map) => {
            Value::Object(map.iter().map(|(k, v)| (k.clone(), substitute(v, ids))).collect())
        }
        _ => args.clone(),
    }
}

/// Reads the server's answers in the model's terms.
pub struct Canon<'a> {
    /// The vault's currency.
    pub currency: Currency,
    /// The ids learned so far.
    pub ids: &'a Ids,
}

impl Canon<'_> {
    /// A decimal string as minor units (or the text itself when it is not one).
    pub fn amount(&self, v: &Value) -> Value {
        match v.as_str().and_then(|s| self.currency.parse(s)) {
            Some(x) => json!(x),
            None => v.clone(),
        }
    }

    fn id(&self, v: &Value) -> Value {
        v.as_str().map_or(Value::Null, |s| json!(self.ids.label(s)))
    }

    /// A `Transaction`.
    pub fn tx(&self, t: &Value) -> Value {
        let mut postings: Vec<(String, Value)> = t["postings"]
            .as_array()
            .map(|ps| {
                ps.iter()
                    .map(|p| {
                        (
                            p["account"].as_str().unwrap_or("?").to_owned(),
                            self.amount(&p["amount"]),
                        )
                    })
                    .collect()
            })
            .unwrap_or_default();
        postings.sort_by_key(|p| (p.0.clone(), p.1.as_i64()));
        let recurring = t.get("recurring").cloned().unwrap_or(Value::Null);
        let recorded_by = t.get("recordedBy").cloned().unwrap_or(Value::Null);
        json!({
            "id": t.get("transactionId").map_or(Value::Null, |v| self.id(v)),
            "date": t["date"],
            "memo": t["memo"],
            "voided": t["voided"],
            "version": t["version"],
            "postings": postings.into_iter().map(|(a, x)| json!([a, x])).collect::<Vec<_>>(),
            "tags": t.get("tags").cloned().unwrap_or(json!([])),
            "recurring": recurring,
            "recordedBy": recorded_by,
            "installments": t.get("installments").map_or(Value::Null, |i| i["count"].clone()),
            "operation": t.get("operationId").map_or(Value::Null, |v| self.id(v)),
            "for": t.get("for").cloned().unwrap_or(Value::Null),
        })
    }

    /// `balances: [{account, balance, scheduled?}]` as `{account: [balance, scheduled]}`.
    pub fn balances(&self, rows: &Value) -> Value {
        let mut out = Map::new();
        for r in rows.as_array().into_iter().flatten() {
            out.insert(
                r["account"].as_str().unwrap_or("?").to_owned(),
                json!([
                    self.amount(&r["balance"]),
                    r.get("scheduled").map_or(Value::Null, |s| self.amount(s))
                ]),
            );
        }
        Value::Object(out)
    }

    /// A write's result in the model's terms (the keys each tool's view may hold).
    pub fn write(&self, tool: &str, r: &Value) -> Value {
        let op = r.get("operationId").map_or(Value::Null, |v| self.id(v));
        match tool {
            "record_transaction" | "edit_transaction" | "void_transaction" => json!({
                "transaction": self.tx(&r["transaction"]),
                "balances": self.balances(&r["balances"]),
                "replayed": r["replayed"],
                "dryRun": r["dryRun"],
                "changed": r["changed"],
                "alreadyVoided": r["alreadyVoided"],
                "operation": op,
                "categorizedBy": r.get("categorizedBy").map_or(Value::Null, categorized),
            }),
            "record_transactions" => self.batch(r, op),
            "undo" => json!({
                "operation": self.id(&r["operationId"]),
                "undone": r["undone"].as_array().into_iter().flatten()
                    .map(|u| json!([self.id(&u["transactionId"]), u["action"]])).collect::<Vec<_>>(),
                "balances": self.balances(&r["balances"]),
                "alreadyUndone": r["alreadyUndone"],
                "dryRun": r["dryRun"],
            }),
            "create_account" => json!({
                "name": r["name"], "kind": r["kind"], "created": r["created"],
                "balance": self.amount(&r["balance"]),
                "scheduled": r.get("scheduled").map_or(Value::Null, |s| self.amount(s)),
            }),
            "update_account" => {
                let a = &r["account"];
                json!({
                    "account": {
                        "name": a["name"], "kind": a["kind"], "archived": a["archived"],
                        "parent": a.get("parent").cloned().unwrap_or(Value::Null),
                        "billing": a.get("billing").map_or(Value::Null, billing),
                        "owner": a.get("owner").cloned().unwrap_or(Value::Null),
                        // After a match change the result lists the words now, `[]`
                        // when none are left ("lists its words now"; elsewhere an empty
                        // field is absent).
                        "match": a.get("match").filter(|m| m != &&json!([])).map_or(Value::Null, words),
                    },
                    "changed": r["changed"],
                    "balance": r.get("balance").map_or(Value::Null, |s| self.amount(s)),
                    "scheduled": r.get("scheduled").map_or(Value::Null, |s| self.amount(s)),
                })
            }
            "set_budget" => json!({
                "account": r["account"], "month": r["month"], "amount": self.amount(&r["amount"]),
                "repeat": r["repeat"], "rollover": r["rollover"],
            }),
            "set_recurring" => json!({
                "recurring": self.recurring(&r["recurring"]),
                "created": r["created"], "changed": r["changed"], "removed": r["removed"],
            }),
            "join_vault" => json!({"role": r["role"], "members": members(&r["members"])}),
            "set_goal" => {
                json!({"goal": self.goal(&r["goal"]), "created": r["created"], "removed": r["removed"]})
            }
            "update_vault" => json!({
                "name": r["name"],
                "shares": r["shares"].as_array().into_iter().flatten()
                    .map(|s| json!([s["member"], s["weight"]])).collect::<Vec<_>>(),
                "changed": r["changed"],
            }),
            _ => r.clone(),
        }
    }

    fn batch(&self, r: &Value, op: Value) -> Value {
        let counts: Map<String, Value> = ["recorded", "wouldRecord", "replayed", "duplicate", "error"]
            .iter()
            .map(|k| {
                (
                    (*k).to_owned(),
                    json!(r["counts"].get(*k).and_then(Value::as_i64).unwrap_or(0)),
                )
            })
            .collect();
        let results: Vec<Value> = r["results"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|x| {
                json!({
                    "status": x["status"],
                    "tx": x.get("transactionId").map_or(Value::Null, |v| self.id(v)),
                    "matchedBy": x.get("matchedBy").cloned().unwrap_or(Value::Null),
                    "also": x.get("alsoMatches").map_or(Value::Null, |v| self.id(v)),
                    "by": x.get("categorizedBy").map_or(Value::Null, categorized),
                })
            })
            .collect();
        json!({
            "results": results,
            "counts": counts,
            "balances": self.balances(&r["balances"]),
            "dryRun": r["dryRun"],
            "operation": op,
        })
    }

    /// A `Goal`.
    pub fn goal(&self, g: &Value) -> Value {
        let opt = |k: &str| g.get(k).cloned().unwrap_or(Value::Null);
        let amount = |k: &str| g.get(k).map_or(Value::Null, |x| self.amount(x));
        json!({
            "name": g["name"], "account": g["account"], "target": amount("target"), "by": opt("by"),
            "saved": amount("saved"), "left": amount("left"), "monthlyNeeded": amount("monthlyNeeded"),
            "onTrack": opt("onTrack"),
        })
    }

    /// A `Recurring`.
    pub fn recurring(&self, s: &Value) -> Value {
        let opt = |k: &str| s.get(k).cloned().unwrap_or(Value::Null);
        json!({
            "name": s["name"], "from": s["from"], "to": s["to"], "amount": self.amount(&s["amount"]),
            "day": s["day"], "every": s["every"], "start": s["start"], "end": opt("end"),
            "memo": s["memo"], "tags": s.get("tags").cloned().unwrap_or(json!([])),
            "next": opt("next"), "lastPosted": opt("lastPosted"),
        })
    }
}

/// A billing cycle as `[closingDay, paymentDay]`.
pub fn billing(b: &Value) -> Value {
    if b.get("closingDay").is_none() {
        return Value::Null;
    }
    json!([b["closingDay"], b["paymentDay"]])
}

/// A learned word folded like names: docs/tools.md says how words are compared, not
/// how a learned one is written (the server shows it as a memo wrote it).
fn learned_word(w: &Value) -> Value {
    w.as_str().map_or(w.clone(), |w| json!(crate::book::fold(w)))
}

/// `categorizedBy` as `[word, account, learned]` (a learned word folded).
pub fn categorized(c: &Value) -> Value {
    let word = if c["learned"] == json!(true) {
        learned_word(&c["word"])
    } else {
        c["word"].clone()
    };
    json!([word, c["account"], c["learned"]])
}

/// An account's `match` as `{set: [words in order], learned: [words, sorted]}`: set
/// words first in the order set, then learned ones, in an order docs/tools.md does not
/// give (compared as a set, each folded).
pub fn words(m: &Value) -> Value {
    let mut set = Vec::new();
    let mut learned = Vec::new();
    for w in m.as_array().into_iter().flatten() {
        if w["learned"] == json!(true) {
            learned.push(learned_word(&w["word"]));
        } else if learned.is_empty() {
            set.push(w["word"].clone());
        } else {
            return json!({"set": format!("a set word after a learned one: {m}")});
        }
    }
    learned.sort_by(|a, b| a.as_str().cmp(&b.as_str()));
    json!({"set": set, "learned": learned})
}

/// Members as `[[name, role, you]]`, oldest first as given.
pub fn members(m: &Value) -> Value {
    Value::Array(
        m.as_array()
            .into_iter()
            .flatten()
            .map(|x| json!([x["name"], x["role"], x["you"]]))
            .collect(),
    )
}

/// Every key of `expected` must hold the same value in `actual` (a missing key reads as
/// null); `"*"` matches anything. The differences, one per line.
pub fn differences(expected: &Value, actual: &Value, path: &str, out: &mut Vec<String>) {
    match (expected, actual) {
        (Value::String(s), _) if s == "*" => {}
        (Value::Object(e), Value::Object(a)) => {
            for (k, v) in e {
                differences(v, a.get(k).unwrap_or(&Value::Null), &format!("{path}/{k}"), out);
            }
            if path_is_map(path) {
                for k in a.keys().filter(|k| !e.contains_key(*k)) {
                    out.push(format!("{path}/{k}: not expected, but the server has {}", a[k]));
                }
            }
        }
        (Value::Array(e), Value::Array(a)) if e.len() == a.len() => {
            for (i, (x, y)) in e.iter().zip(a).enumerate() {
                differences(x, y, &format!("{path}/{i}"), out);
            }
        }
        _ if expected == actual => {}
        _ => out.push(format!(
            "{path}: the model expects {expected}, the server has {actual}"
        )),
    }
}

/// Maps keyed by names or labels must hold exactly the expected keys.
fn path_is_map(path: &str) -> bool {
    [
        "/rows",
        "/accounts",
        "/archived",
        "/balances",
        "/transactions",
        "/sums",
        "/scheduled",
        "/members",
        "/goals",
    ]
    .iter()
    .any(|p| path.ends_with(p))
}
