//! `record_transactions`: a statement matched with the book line by line
//! (docs/tools.md, "record_transactions"; decision 032).
//!
//! A line is a duplicate of the book by its `externalRef`, or by data: a live entry
//! recorded before the batch with the same two accounts and amount, or (a card
//! statement's line against a split receipt or any entry) whose posting on the line's
//! card has the line's amount on that side, dated the same day, else a day apart. Each
//! book entry absorbs one line; same-day matches go first; the earliest recorded first.

use serde_json::{Value, json};

use super::entries::Draft;
use super::views::balances_view;
use super::{Book, Expect, Kind, Learn, Origin};
use crate::calendar;
use crate::step::EntrySpec;

/// What became of one line.
#[derive(Debug, Clone, PartialEq)]
enum Decision {
    /// Recorded now as entry n.
    Recorded(usize),
    /// Recorded by an earlier call with this key (entry n).
    Replayed(usize),
    /// Would be recorded (dry run).
    Would,
    /// Already in the book as entry n; how it matched (None: by the card side).
    Duplicate(usize, Option<&'static str>),
    /// The same reference as an earlier line of the batch (its entry, unless a dry run).
    Twice(Option<usize>),
    /// Refused.
    Error,
}

impl Book {
    /// The card side of a charge line (money leaving a card, as a card statement lists a
    /// purchase): the card and its posting. Payments and refunds onto a card match as
    /// any line does (same accounts and amount): issue 49 leaves them so.
    fn card_side(&self, d: &Draft) -> Option<(usize, i64)> {
        let c = &d.content;
        let [(card, x)] = c.from[..] else { return None };
        let charge = self.accounts[card].kind == Kind::Liability
            && c.to.iter().all(|l| self.accounts[l.0].kind != Kind::Liability);
        charge.then_some((card, -x))
    }

    /// Book entry `n` is a data match for line `d`: how, or None.
    fn matches(&self, n: usize, d: &Draft) -> Option<Option<&'static str>> {
        let e = &self.entries[n];
        if let (Some(line_ref), Some(book_ref)) = (&d.external_ref, &e.recorded_ref)
            && line_ref != book_ref
        {
            return None;
        }
        if d.content.is_simple() && e.content.is_simple() && e.content.data() == d.content.data() {
            let how = if e.content.date == d.content.date {
                "sameDate"
            } else {
                "dayApart"
            };
            return Some(Some(how));
        }
        let card = self.card_side(d)?;
        e.content.lines().contains(&card).then_some(None)
    }

    /// Decides every line: replays, errors, references, then data matches in two passes.
    fn decide(
        &self,
        drafts: &[Draft],
        recorded: &[Option<usize>],
        allow_duplicate: bool,
        first: usize,
    ) -> Vec<Decision> {
        let mut out: Vec<Option<Decision>> = vec![None; drafts.len()];
        for (i, d) in drafts.iter().enumerate() {
            // A reference the book holds is decided first (before the line's accounts).
            let by_ref = d.external_ref.as_deref().and_then(|r| self.ref_claimed(r));
            out[i] = if let Some(n) = recorded.get(i).copied().flatten() {
                Some(Decision::Replayed(n))
            } else if let Some(n) = by_ref {
                Some(Decision::Duplicate(n, Some("externalRef")))
            } else if !self.acceptable(d) {
                Some(Decision::Error)
            } else {
                None
            };
        }
        if allow_duplicate {
            return out.into_iter().map(|d| d.unwrap_or(Decision::Would)).collect();
        }
        let mut taken: Vec<usize> = Vec::new();
        let ours: Vec<usize> = recorded.iter().flatten().copied().collect();
        for apart in [0, 1] {
            for (i, d) in drafts.iter().enumerate() {
                if out[i].is_some() {
                    continue;
                }
                let found = self
                    .live()
                    .filter(|(n, e)| {
                        *n < first
                            && !taken.contains(n)
                            && !ours.contains(n)
                            && calendar::days_between(e.content.date, d.content.date).abs() == apart
                    })
                    .filter_map(|(n, e)| self.matches(n, d).map(|how| (e.recorded_at, n, how)))
                    .min_by_key(|(at, n, _)| (*at, *n));
                if let Some((_, n, how)) = found {
                    taken.push(n);
                    out[i] = Some(Decision::Duplicate(n, how));
                }
            }
        }
        out.into_iter().map(|d| d.unwrap_or(Decision::Would)).collect()
    }

    /// `record_transactions` of `lines`.
    pub fn batch(&mut self, who: usize, lines: &[EntrySpec], allow_duplicate: bool, dry_run: bool) {
        let entries: Vec<Value> = lines.iter().map(|l| self.entry_args(l)).collect();
        let mut args = json!({"entries": entries, "idempotencyKey": self.key("statement")});
        if allow_duplicate {
            args["allowDuplicate"] = json!(true);
        }
        if dry_run {
            args["dryRun"] = json!(true);
        }
        let drafts: Vec<Draft> = lines.iter().map(|l| self.draft(l)).collect();
        if !self.is_member(who) {
            self.call(who, "record_transactions", args, Expect::Refused);
            return;
        }
        let w = (!dry_run).then(|| self.remember(who, "record_transactions", &args, None));
        if let Some(w) = w {
            self.writes[w].pending = drafts.clone();
            self.writes[w].entries = vec![None; drafts.len()];
        }
        self.run_batch(who, args, &drafts, w, allow_duplicate, dry_run);
    }

    /// Decides and records a batch (first call or retry of write `w`).
    pub fn run_batch(
        &mut self,
        who: usize,
        args: Value,
        drafts: &[Draft],
        w: Option<usize>,
        allow_duplicate: bool,
        dry_run: bool,
    ) {
        let recorded = w.map(|w| self.writes[w].entries.clone()).unwrap_or_default();
        let first = self.entries.len();
        let decisions = self.decide(drafts, &recorded, allow_duplicate, first);
        let mut op = w.and_then(|w| self.writes[w].operation);
        let mut learn = Vec::new();
        let mut results = Vec::new();
        let mut fresh: Vec<usize> = Vec::new();
        let mut taken_refs: Vec<(String, Option<usize>)> = Vec::new();
        for (i, decision) in decisions.into_iter().enumerate() {
            // A reference an earlier line of this batch takes makes the line its duplicate.
            let line_ref = drafts[i].external_ref.clone();
            let same_ref = line_ref
                .as_ref()
                .and_then(|r| taken_refs.iter().find(|(x, _)| x == r).map(|x| x.1));
            match (&line_ref, &decision, same_ref) {
                (Some(r), Decision::Would, None) => {
                    let n = (!dry_run).then_some(self.entries.len());
                    taken_refs.push((r.clone(), n));
                }
                // A line an earlier call with this key recorded takes its reference too.
                (Some(r), Decision::Replayed(n), None) => taken_refs.push((r.clone(), Some(*n))),
                _ => {}
            }
            let decision = match decision {
                Decision::Would if same_ref.is_some() => Decision::Twice(same_ref.flatten()),
                Decision::Would if !dry_run => {
                    let o = *op.get_or_insert_with(|| self.new_operation(Some(who)));
                    let n = self.add_entry(&drafts[i], Origin::Batch(who), Some(o));
                    self.people[who].latest = Some(o);
                    learn.push(Learn::Entry(n, format!("/results/{i}/transactionId")));
                    fresh.push(n);
                    Decision::Recorded(n)
                }
                d => d,
            };
            results.push(decision);
        }
        if let Some(w) = w {
            for (i, d) in results.iter().enumerate() {
                if let Decision::Recorded(n) = d {
                    self.writes[w].entries[i] = Some(*n);
                }
            }
            self.writes[w].operation = op;
            self.writes[w].claimed_at.get_or_insert(self.now);
        }
        let view = self.batch_view(&results, &fresh, op, dry_run);
        if !fresh.is_empty()
            && w.is_some_and(|w| self.writes[w].entries.iter().flatten().count() == fresh.len())
        {
            learn.push(Learn::Operation(op.expect("an operation"), "/operationId".into()));
        }
        let call = self.call(who, "record_transactions", args, Expect::Ok(view));
        call.learn = learn;
        call.write = w;
    }

    fn batch_view(&self, results: &[Decision], fresh: &[usize], op: Option<usize>, dry_run: bool) -> Value {
        let mut counts = json!({"recorded": 0, "wouldRecord": 0, "replayed": 0, "duplicate": 0, "error": 0});
        let rows: Vec<Value> = results
            .iter()
            .map(|d| {
                let (status, count, n, how) = match d {
                    Decision::Recorded(n) => ("recorded", "recorded", Some(*n), None),
                    Decision::Replayed(n) => ("recorded", "replayed", Some(*n), None),
                    Decision::Would => ("wouldRecord", "wouldRecord", None, None),
                    Decision::Duplicate(n, how) => {
                        ("duplicate", "duplicate", Some(*n), Some(how.unwrap_or("*")))
                    }
                    Decision::Twice(n) => ("duplicate", "duplicate", *n, Some("externalRef")),
                    Decision::Error => ("error", "error", None, None),
                };
                counts[count] = json!(counts[count].as_i64().unwrap_or(0) + 1);
                // A dry run's repeat of a line names the preview's id, which exists nowhere
                // (reported in issue 51): any id is taken there.
                let tx = match (d, n) {
                    (Decision::Twice(None), _) => json!("*"),
                    (_, n) => json!(n.map(|n| format!("t{n}"))),
                };
                json!({"status": status, "tx": tx, "matchedBy": how})
            })
            .collect();
        let mut view = json!({"results": rows, "counts": counts, "dryRun": dry_run});
        if !dry_run {
            // The balances (now) of the accounts of every entry this key recorded, as
            // recorded, now or by an earlier call.
            let mut accounts = self.accounts_of(fresh);
            for d in results {
                if let Decision::Replayed(n) = d {
                    let e = &self.entries[*n];
                    accounts.extend(
                        e.history
                            .first()
                            .unwrap_or(&e.content)
                            .lines()
                            .iter()
                            .map(|l| l.0),
                    );
                }
            }
            accounts.sort_unstable();
            accounts.dedup();
            view["balances"] = balances_view(self, &accounts);
        }
        if !dry_run && op.is_some() {
            view["operation"] = json!(op.map(|o| format!("op{o}")));
        }
        view
    }
}
