//! `record_transactions`: a statement matched with the book line by line
//! (docs/tools.md, "record_transactions"; decisions 032 and 047).
//!
//! A line is a duplicate of the book by its `externalRef`, or by data: a live entry
//! recorded before the batch with the same accounts and amounts (`sameDate`, then
//! `dayApart`), else one whose card side (its one asset or liability net) is the
//! line's, the rest other categories (`split` when either has more than two accounts,
//! else `otherCategory`), the same day, then a day apart. Each pass runs over every
//! line; each book entry absorbs one line, the earliest recorded first; a matched line
//! names another entry it matches that no line took (`alsoMatches`). Statement lines
//! naming a 할부 part (`할부 2/3`, `2/3회차`) with that part's amount on its card match
//! the part the book bills (`installment`, tried between the same accounts and the
//! card side); each part absorbs one line.

use serde_json::{Value, json};

use super::entries::Draft;
use super::views::balances_view;
use super::{Book, Expect, Kind, Learn, Origin};
use crate::calendar;
use crate::step::EntrySpec;

/// The 할부 part a statement line's memo names, `할부 k/n` or `k/n회차`: `(k, n)`.
fn part_named(memo: &str) -> Option<(u8, u8)> {
    let at = memo.find('/')?;
    let k: String = memo[..at]
        .chars()
        .rev()
        .take_while(char::is_ascii_digit)
        .collect();
    let k: String = k.chars().rev().collect();
    let n: String = memo[at + 1..].chars().take_while(char::is_ascii_digit).collect();
    let rest = &memo[at + 1 + n.len()..];
    let (k, n) = (k.parse::<u8>().ok()?, n.parse::<u8>().ok()?);
    let named = memo.contains("할부") || rest.starts_with('회');
    (named && (1..=n).contains(&k) && (2..=36).contains(&n)).then_some((k, n))
}

/// What became of one line.
#[derive(Debug, Clone, PartialEq)]
enum Decision {
    /// Recorded now as entry n.
    Recorded(usize),
    /// Recorded by an earlier call with this key (entry n).
    Replayed(usize),
    /// Would be recorded (dry run).
    Would,
    /// Already in the book as entry n: how it matched, and another entry it matches.
    Duplicate(usize, &'static str, Option<usize>),
    /// The same reference as an earlier line of the batch (its entry, unless a dry run).
    Twice(Option<usize>),
    /// Refused.
    Error,
}

impl Book {
    /// Each account's net (debit-positive) in `c`, zero nets left out, by account.
    fn nets(c: &super::Content) -> Vec<(usize, i64)> {
        let mut nets: Vec<(usize, i64)> = Vec::new();
        for (a, x) in c.lines() {
            match nets.iter_mut().find(|n| n.0 == a) {
                Some(n) => n.1 += x,
                None => nets.push((a, x)),
            }
        }
        nets.retain(|n| n.1 != 0);
        nets.sort_unstable();
        nets
    }

    /// The card side of a line or entry: its one net on an asset or liability account
    /// (the card or bank a statement is of), the rest categories; none for a transfer.
    fn card_side(&self, nets: &[(usize, i64)]) -> Option<(usize, i64)> {
        let mut money = nets
            .iter()
            .filter(|n| matches!(self.accounts[n.0].kind, Kind::Asset | Kind::Liability));
        match (money.next(), money.next()) {
            (Some(&one), None) => Some(one),
            _ => None,
        }
    }

    /// How book entry `n` matches line `d` in `pass` (0 the same accounts and amount
    /// the same day, 1 a day apart; 3 the same card side the same day, 4 a day apart),
    /// or None. A line with a reference never takes an entry recorded with another.
    fn matches(&self, n: usize, d: &Draft, pass: u8) -> Option<&'static str> {
        let e = &self.entries[n];
        if d.external_ref.is_some() && e.recorded_ref.is_some() {
            return None;
        }
        let apart = calendar::days_between(e.content.date, d.content.date).abs();
        let same_day = pass == 0 || pass == 3;
        if apart != i64::from(!same_day) {
            return None;
        }
        let (book, line) = (Self::nets(&e.content), Self::nets(&d.content));
        if pass < 2 {
            return (book == line).then_some(if pass == 0 { "sameDate" } else { "dayApart" });
        }
        let side = self.card_side(&line)?;
        let split = book.len() > 2 || line.len() > 2;
        (book != line && self.card_side(&book) == Some(side)).then_some(if split {
            "split"
        } else {
            "otherCategory"
        })
    }

    /// Whether line `d` repeats part `k` of 할부 purchase `n`: the line names part k of
    /// that purchase's count, charges its card (a card with billing) with that part's
    /// amount, and is dated within a day of the purchase or in the part's bill from
    /// its period's start to its due date, a day either side.
    fn repeats_part(&self, n: usize, d: &Draft) -> Option<u8> {
        let (k, of) = part_named(&d.content.memo)?;
        let (card, x) = self.card_side(&Self::nets(&d.content))?;
        let e = &self.entries[n];
        let &(purchase_card, amount) = e.content.from.first()?;
        let b = self.accounts[card].billing?;
        if e.installments != Some(of) || purchase_card != card || -super::part(amount, of, k) != x {
            return None;
        }
        let m = b.bill_of(e.content.date) + i32::from(k) - 1;
        let (date, lo, hi) = (d.content.date, b.period(m).0, b.due(m));
        let near = calendar::days_between(e.content.date, date).abs() <= 1;
        let within = calendar::add_days(lo, -1) <= date && date <= calendar::add_days(hi, 1);
        (near || within).then_some(k)
    }

    /// Decides every line: replays, references, errors, then data matches in four
    /// passes over all lines, each book entry taken by one line; a matched line names
    /// another entry it matches that no line took (docs/tools.md, "record_transactions").
    fn decide(
        &self,
        drafts: &[Draft],
        recorded: &[Option<usize>],
        allow_duplicate: bool,
        first: usize,
    ) -> Vec<Decision> {
        let mut out: Vec<Option<Decision>> = vec![None; drafts.len()];
        let ours: Vec<usize> = recorded.iter().flatten().copied().collect();
        let mut taken: Vec<usize> = ours.clone();
        let mut refs: Vec<&str> = Vec::new();
        // Lines whose reference an earlier line has: the write loop decides them.
        let mut repeat = vec![false; drafts.len()];
        for (i, d) in drafts.iter().enumerate() {
            if let Some(r) = d.external_ref.as_deref() {
                repeat[i] = refs.contains(&r);
                refs.push(r);
            }
            // A reference the book holds is decided first (before the line's accounts).
            let by_ref = d.external_ref.as_deref().and_then(|r| self.ref_claimed(r));
            out[i] = if let Some(n) = recorded.get(i).copied().flatten() {
                Some(Decision::Replayed(n))
            } else if let Some(n) = by_ref {
                taken.push(n);
                Some(Decision::Duplicate(n, "externalRef", None))
            } else if !self.acceptable(d) {
                Some(Decision::Error)
            } else {
                None
            };
        }
        if allow_duplicate {
            return out.into_iter().map(|d| d.unwrap_or(Decision::Would)).collect();
        }
        // A target: a book entry, or part k of a 할부 purchase.
        let mut taken: Vec<(usize, Option<u8>)> = taken.into_iter().map(|n| (n, None)).collect();
        let candidates = |d: &Draft, pass: u8| -> Vec<((usize, Option<u8>), &'static str)> {
            if pass == 2 {
                return self
                    .live()
                    .filter(|(n, _)| *n < first)
                    .filter_map(|(n, _)| self.repeats_part(n, d).map(|k| ((n, Some(k)), "installment")))
                    .collect();
            }
            let mut found: Vec<(i64, usize, &'static str)> = self
                .live()
                .filter(|(n, _)| *n < first && !ours.contains(n))
                .filter_map(|(n, e)| self.matches(n, d, pass).map(|how| (e.recorded_at, n, how)))
                .collect();
            found.sort_unstable();
            found.into_iter().map(|(_, n, how)| ((n, None), how)).collect()
        };
        let open: Vec<usize> = (0..drafts.len())
            .filter(|&i| out[i].is_none() && !repeat[i])
            .collect();
        let mut matched: Vec<(usize, usize, &'static str)> = Vec::new();
        for pass in 0..5 {
            for &i in &open {
                if matched.iter().any(|m| m.0 == i) {
                    continue;
                }
                if let Some((t, how)) = candidates(&drafts[i], pass)
                    .into_iter()
                    .find(|c| !taken.contains(&c.0))
                {
                    taken.push(t);
                    matched.push((i, t.0, how));
                }
            }
        }
        for (i, n, how) in matched {
            let also = (0..5)
                .flat_map(|pass| candidates(&drafts[i], pass))
                .map(|c| c.0)
                .find(|c| !taken.contains(c) && c.0 != n)
                .map(|c| c.0);
            out[i] = Some(Decision::Duplicate(n, how, also));
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
        // Every line resolved before any is recorded: a line sent without `to` takes the
        // words as they are before the statement (its lines teach one another nothing,
        // as the dry run that shows each line's category must have it).
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
            // A `for` is decided when the line would be written: after the references and
            // the book's duplicates (a line the book holds is its duplicate whatever it says).
            let decision = match decision {
                Decision::Would if same_ref.is_none() && self.for_bad(&drafts[i]) => Decision::Error,
                d => d,
            };
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
        let view = self.batch_view(&results, drafts, &fresh, op, dry_run);
        if !fresh.is_empty()
            && w.is_some_and(|w| self.writes[w].entries.iter().flatten().count() == fresh.len())
        {
            learn.push(Learn::Operation(op.expect("an operation"), "/operationId".into()));
        }
        let call = self.call(who, "record_transactions", args, Expect::Ok(view));
        call.learn = learn;
        call.write = w;
    }

    fn batch_view(
        &self,
        results: &[Decision],
        drafts: &[Draft],
        fresh: &[usize],
        op: Option<usize>,
        dry_run: bool,
    ) -> Value {
        let mut counts = json!({"recorded": 0, "wouldRecord": 0, "replayed": 0, "duplicate": 0, "error": 0});
        let rows: Vec<Value> = results
            .iter()
            .zip(drafts)
            .map(|(d, draft)| {
                let (status, count, n, how, also) = match d {
                    Decision::Recorded(n) => ("recorded", "recorded", Some(*n), None, None),
                    Decision::Replayed(n) => ("recorded", "replayed", Some(*n), None, None),
                    Decision::Would => ("wouldRecord", "wouldRecord", None, None, None),
                    Decision::Duplicate(n, how, also) => {
                        ("duplicate", "duplicate", Some(*n), Some(*how), *also)
                    }
                    Decision::Twice(n) => ("duplicate", "duplicate", *n, Some("externalRef"), None),
                    Decision::Error => ("error", "error", None, None, None),
                };
                counts[count] = json!(counts[count].as_i64().unwrap_or(0) + 1);
                // A dry run's repeat of a line names the preview's id, which exists nowhere
                // (reported in issue 51): any id is taken there.
                let tx = match (d, n) {
                    (Decision::Twice(None), _) => json!("*"),
                    (_, n) => json!(n.map(|n| format!("t{n}"))),
                };
                // What chose a line's category, on a line sent without `to` that is (or
                // would be) recorded now; the contract is silent on the other statuses.
                let by = match (&draft.picked, d) {
                    (None, _) => Value::Null,
                    (Some(c), Decision::Recorded(_) | Decision::Would) => self.categorized_view(c.as_ref()),
                    _ => json!("*"),
                };
                json!({"status": status, "tx": tx, "matchedBy": how, "also": also.map(|n| format!("t{n}")), "by": by})
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
