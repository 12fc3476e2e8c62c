//! The server under test as the model sees it: the calls it is sent, the ids it
//! answered with (by the model's labels), and the first result of each idempotent write.

use std::collections::{BTreeMap, HashMap};
use std::sync::Mutex;

use serde_json::{Value, json};

use crate::book::{Book, Call, Expect, Learn};
use crate::compare::{Canon, Ids, differences, substitute};
use crate::sut::{Answer, Backend, Sut};

/// How many writes each tool answered, and how many of them were refusals, this process.
static TALLY: Mutex<BTreeMap<String, (u64, u64)>> = Mutex::new(BTreeMap::new());

/// What a write is counted as: its tool, and the tool with the argument that makes it
/// one of issue 53's (an `owner`, a `for`, `shares` or `newName`) or issue 54's (`match`,
/// `billing.performance`, an entry left to the memo's `words`).
fn counted_as(tool: &str, args: &Value) -> Vec<String> {
    let has = |k: &str| args.get(k).is_some();
    let entries = args["entries"].as_array();
    let any_entry = |f: &dyn Fn(&Value) -> bool| entries.is_some_and(|e| e.iter().any(f));
    let by_words = |x: &Value| x.get("to").is_none() && x.get("lines").is_none();
    let mut out = vec![tool.to_owned()];
    let mut also = match tool {
        "create_account" | "update_account" if has("owner") => vec!["owner"],
        "record_transaction" | "edit_transaction" if has("for") => vec!["for"],
        "record_transactions" if any_entry(&|x| x.get("for").is_some()) => vec!["for"],
        "update_vault" => ["shares", "newName"].into_iter().filter(|k| has(k)).collect(),
        "update_account" if has("match") => vec!["match"],
        "update_account" if args["billing"].get("performance").is_some() => vec!["performance"],
        _ => vec![],
    };
    if (tool == "record_transaction" && by_words(args))
        || (tool == "record_transactions" && any_entry(&by_words))
    {
        also.push("words");
    }
    out.extend(also.into_iter().map(|k| format!("{tool}[{k}]")));
    out
}

/// What an answer is counted as besides its call: a category a learned word chose
/// (`categorizedBy.learned`, an entry's or each statement line's).
fn answered_as(tool: &str, v: &Value) -> Vec<String> {
    let learned = |x: &Value| x["categorizedBy"]["learned"] == json!(true);
    let n = match tool {
        "record_transaction" => usize::from(learned(v)),
        "record_transactions" => v["results"]
            .as_array()
            .map_or(0, |r| r.iter().filter(|x| learned(x)).count()),
        _ => 0,
    };
    vec![format!("{tool}[learned word]"); n]
}

/// The writes made so far, per tool: `tool ok/refused`, for a run's summary.
pub fn tally() -> String {
    let tally = TALLY.lock().unwrap_or_else(|e| e.into_inner());
    tally
        .iter()
        .map(|(tool, (ok, refused))| format!("{tool} {ok}/{refused}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The server under test and what it has told us.
pub struct Live {
    runtime: tokio::runtime::Runtime,
    sut: Sut,
    /// Real ids and the model's labels.
    pub ids: Ids,
    /// The first result of each idempotent write, for its retries.
    first: HashMap<usize, Value>,
}

impl Live {
    /// A fresh server over an empty store of `backend`, its clock at the book's start.
    pub fn start(backend: Backend, book: &Book) -> Live {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a runtime");
        let sut = runtime.block_on(Sut::new(
            backend,
            book.setup.start,
            book.setup.start.unsigned_abs(),
        ));
        Live {
            runtime,
            sut,
            ids: Ids::default(),
            first: HashMap::new(),
        }
    }

    /// Sets the server's clock (Unix seconds).
    pub fn set_clock(&self, now: i64) {
        self.sut.set_clock(now);
    }

    /// One call as person `who`, as the model's clock says.
    pub fn call(&mut self, book: &Book, who: usize, tool: &str, args: &Value) -> Answer {
        let person = &book.people[who];
        let args = substitute(args, &self.ids);
        let (sub, name) = (person.sub.clone(), person.name.clone());
        let sut = &mut self.sut;
        self.runtime.block_on(sut.call(&sub, &name, tool, &args))
    }

    /// The canonical reader for this book.
    pub fn canon<'a>(&'a self, book: &Book) -> Canon<'a> {
        Canon {
            currency: book.currency(),
            ids: &self.ids,
        }
    }

    /// Makes one call of a step and checks its answer against what the model expects.
    pub fn check_call(&mut self, book: &Book, call: &Call) {
        self.sut.set_clock(call.at);
        let answer = self.call(book, call.who, call.tool, &call.args);
        let what = format!("p{} {} {}", call.who, call.tool, call.args);
        {
            let mut tally = TALLY.lock().unwrap_or_else(|e| e.into_inner());
            for key in counted_as(call.tool, &call.args) {
                let slot = tally.entry(key).or_default();
                match answer {
                    Answer::Ok(_) => slot.0 += 1,
                    Answer::Refused(_) => slot.1 += 1,
                }
            }
            if let Answer::Ok(v) = &answer {
                for key in answered_as(call.tool, v) {
                    tally.entry(key).or_default().0 += 1;
                }
            }
        }
        match (&call.expect, answer) {
            (Expect::Refused, Answer::Refused(_)) => {}
            (Expect::Refused, Answer::Ok(v)) => {
                panic!("{what}: the model expects a refusal, the server answered {v}")
            }
            (_, Answer::Refused(m)) => panic!("{what}: the model expects success, the server refused: {m}"),
            (Expect::Ok(view), Answer::Ok(v)) => {
                self.learn(&call.learn, &v);
                if let Some(w) = call.write {
                    self.first.entry(w).or_insert_with(|| v.clone());
                }
                // A vault deleted for good: its ids and its writes' first results mean
                // nothing now, and the book that follows labels them from the start again.
                if call.tool == "delete_vault" && call.args["dryRun"] == json!(false) {
                    self.first.clear();
                    self.ids = Ids::default();
                }
                let actual = self.canon(book).write(call.tool, &v);
                let mut diffs = Vec::new();
                differences(view, &actual, "", &mut diffs);
                assert!(
                    diffs.is_empty(),
                    "{what}: the answer differs from the model:\n  {}\n{v:#}",
                    diffs.join("\n  ")
                );
            }
            (Expect::Replay { write, current }, Answer::Ok(v)) => {
                self.check_replay(book, &what, *write, current, &v)
            }
        }
    }

    /// A retry answers the first result again, marked replayed, with `current` when the
    /// entry changed since.
    fn check_replay(&self, book: &Book, what: &str, write: usize, current: &Option<Value>, v: &Value) {
        let first = self
            .first
            .get(&write)
            .unwrap_or_else(|| panic!("{what}: no first result of write {write}"));
        assert_eq!(
            v["replayed"],
            json!(true),
            "{what}: a retry is not marked replayed: {v}"
        );
        // Names may be shown as they are now (an account renamed since); ids may not change.
        let strip = |x: &Value| {
            let mut x = x.clone();
            if let Some(m) = x.as_object_mut() {
                m.remove("replayed");
                m.remove("current");
            }
            without_names(&mut x);
            x
        };
        assert_eq!(
            strip(v),
            strip(first),
            "{what}: a retry answers other than the first call"
        );
        let shown = v.get("current").map(|c| self.canon(book).tx(c));
        let mut diffs = Vec::new();
        differences(&json!(current), &json!(shown), "/current", &mut diffs);
        assert!(
            diffs.is_empty(),
            "{what}: `current` differs from the model:\n  {}",
            diffs.join("\n  ")
        );
    }

    fn learn(&mut self, learn: &[Learn], v: &Value) {
        for l in learn {
            let (label, pointer) = match l {
                Learn::Entry(n, p) => (format!("t{n}"), p),
                Learn::Operation(n, p) => (format!("op{n}"), p),
                Learn::Invite(n, p) => (format!("invite{n}"), p),
            };
            let real = v
                .pointer(pointer)
                .and_then(Value::as_str)
                .unwrap_or_else(|| panic!("no {pointer} in {v}"));
            self.ids.learn(label, real.to_owned());
        }
    }
}

impl std::fmt::Debug for Live {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Live")
    }
}

/// `value` without the `account` names of objects that carry an `accountId`, and the
/// vault's `name` beside its `vaultId`.
fn without_names(value: &mut Value) {
    match value {
        Value::Object(map) => {
            if map.contains_key("accountId") {
                map.remove("account");
            }
            // The vault as its caller names it now (renamed since with update_vault).
            if map.contains_key("vaultId") {
                map.remove("name");
            }
            map.values_mut().for_each(without_names);
        }
        Value::Array(items) => items.iter_mut().for_each(without_names),
        _ => {}
    }
}
