//! Entries by hand: `record_transaction`, `edit_transaction`, `void_transaction`, the
//! duplicate guard, and the rules every new entry meets (docs/tools.md, "record_transaction").

use serde_json::{Value, json};

use super::views::{balances_view, tx_view};
use super::{
    Book, Categorized, Change, Content, DUPLICATE_WINDOW, Entry, Expect, Kind, Learn, Operation, Origin,
    POSTED_GUARD, Whose,
};
use crate::calendar;
use crate::step::{DateArg, EditSpec, EntrySpec, For};

/// An entry resolved against the book: what would be recorded.
#[derive(Debug, Clone, PartialEq)]
pub struct Draft {
    /// Its content (date resolved).
    pub content: Content,
    /// 할부 months.
    pub installments: Option<u8>,
    /// The statement line's id.
    pub external_ref: Option<String>,
    /// The date was left out.
    pub date_left_out: bool,
    /// The `for` as sent (its validity is decided when the entry would be written).
    pub for_arg: Option<For>,
    /// Sent without `to`: what the memo's words chose (`Some(None)`: nothing, refused).
    pub picked: Option<Option<Categorized>>,
}

impl Book {
    /// The date an argument means.
    pub fn resolve_date(&self, date: DateArg) -> jiff::civil::Date {
        match date {
            DateArg::Omit => self.today(),
            DateArg::Offset(d) => calendar::add_days(self.today(), d),
            DateArg::At(d) => d,
        }
    }

    /// `spec` resolved against the book now.
    pub fn draft(&self, spec: &EntrySpec) -> Draft {
        let draft = Draft {
            content: Content {
                date: self.resolve_date(spec.date),
                // Memos are kept trimmed.
                memo: spec.memo.trim().to_owned(),
                from: spec.from.clone(),
                to: spec.to.clone(),
                tags: fold_tags(&spec.tags),
                for_whom: spec.for_whom.and_then(whose),
            },
            installments: spec.installments,
            external_ref: spec.external_ref.clone(),
            date_left_out: spec.date == DateArg::Omit,
            for_arg: spec.for_whom,
            picked: spec.pick.then_some(None),
        };
        self.pick(draft)
    }

    /// A draft sent without `to` categorized by the memo's words as they are now (a
    /// statement's retry decides its unrecorded lines again): the whole amount to the
    /// category chosen, or no `to` at all when none is.
    pub fn pick(&self, mut d: Draft) -> Draft {
        if d.picked.is_none() {
            return d;
        }
        let chosen = self.categorize(&d.content.memo);
        let amount: i64 = d.content.from.iter().map(|l| l.1).sum();
        d.content.to = chosen.iter().map(|c| (c.account, amount)).collect();
        d.picked = Some(chosen);
        d
    }

    /// The text a `for` is sent as.
    pub fn for_text(&self, f: For) -> String {
        match f {
            For::Person(p) => self.people[p].name.clone(),
            For::Shared => "shared".to_owned(),
            For::Clear => String::new(),
            For::Stranger => self.stranger().to_owned(),
        }
    }

    /// A name nobody in the vault has.
    pub fn stranger(&self) -> &'static str {
        if self.setup.korean() { "이웃" } else { "neighbor" }
    }

    /// A `for` the vault refuses: a name that is no member's now.
    pub fn for_refused(&self, f: Option<For>) -> bool {
        match f {
            Some(For::Person(p)) => !self.is_member(p),
            Some(For::Stranger) => true,
            _ => false,
        }
    }

    /// `for` on content with no expense posting: refused (it says whose spending it was).
    pub fn for_without_spending(&self, c: &Content) -> bool {
        c.for_whom.is_some() && !c.lines().iter().any(|l| self.accounts[l.0].kind == Kind::Expense)
    }

    /// Whether `d`'s `for` is refused (as sent, or on an entry that spends nothing).
    pub fn for_bad(&self, d: &Draft) -> bool {
        self.for_refused(d.for_arg) || self.for_without_spending(&d.content)
    }

    /// The JSON of an entry as `record_transaction` (or a batch line) takes it.
    pub fn entry_args(&self, spec: &EntrySpec) -> Value {
        let mut args = serde_json::Map::new();
        let name = |a: usize| self.accounts[a].reference().to_owned();
        if spec.pick {
            // `to` left out: the memo's words choose it.
            args.insert("from".into(), json!(name(spec.from[0].0)));
            args.insert("amount".into(), json!(self.amount(spec.from[0].1)));
        } else if spec.split || spec.from.len() != 1 || spec.to.len() != 1 {
            let side = |lines: &[(usize, i64)]| {
                lines
                    .iter()
                    .map(|&(a, x)| json!({"account": name(a), "amount": self.amount(x)}))
                    .collect::<Vec<_>>()
            };
            args.insert(
                "lines".into(),
                json!({"from": side(&spec.from), "to": side(&spec.to)}),
            );
        } else {
            args.insert("from".into(), json!(name(spec.from[0].0)));
            args.insert("to".into(), json!(name(spec.to[0].0)));
            args.insert("amount".into(), json!(self.amount(spec.from[0].1)));
        }
        match spec.date {
            DateArg::Omit => {}
            d => {
                args.insert("date".into(), json!(calendar::date_text(self.resolve_date(d))));
            }
        }
        args.insert("memo".into(), json!(spec.memo));
        if !spec.tags.is_empty() {
            args.insert("tags".into(), json!(spec.tags));
        }
        if let Some(n) = spec.installments {
            args.insert("installments".into(), json!(n));
        }
        if let Some(r) = &spec.external_ref {
            args.insert("externalRef".into(), json!(r));
        }
        if let Some(f) = spec.for_whom {
            args.insert("for".into(), json!(self.for_text(f)));
        }
        Value::Object(args)
    }

    /// Whether a new entry like `draft` may be recorded at all (accounts live, a valid 할부).
    pub fn acceptable(&self, d: &Draft) -> bool {
        let c = &d.content;
        let live = c.lines().iter().all(|l| self.accounts[l.0].handle.is_none());
        let categorized = !matches!(d.picked, Some(None));
        categorized && live && well_formed(c) && self.installments_fit(c, d.installments)
    }

    /// 할부: one `from` line, a card with billing, at least one minor unit per part.
    pub fn installments_fit(&self, c: &Content, installments: Option<u8>) -> bool {
        let Some(n) = installments else { return true };
        let [(card, amount)] = c.from[..] else {
            return false;
        };
        let account = &self.accounts[card];
        account.kind == Kind::Liability
            && account.billing.is_some()
            && amount >= i64::from(n)
            && c.to.iter().all(|l| self.accounts[l.0].kind != Kind::Liability)
    }

    /// The statement reference is already claimed in the vault.
    pub fn ref_claimed(&self, r: &str) -> Option<usize> {
        self.entries
            .iter()
            .position(|e| e.external_ref.as_deref() == Some(r))
    }

    /// The live entry `d` is a probable duplicate of (decision 032 and docs/tools.md: same
    /// date, accounts and amounts, recorded in the last 10 minutes; a recurring posting's
    /// date for 45 days; a left-out date just past midnight also matches yesterday's entry
    /// recorded yesterday).
    ///
    /// Four ways the ledger's guard is narrower than the contract's words, reported in
    /// issue 51 and followed here: it compares what each entry was recorded as (an edit
    /// does not move it), by the accounts' names then (a rename in between hides it; a
    /// posting by its schedule's names when set or changed),
    /// and it remembers only the latest entry of each 10-minute bucket of the clock
    /// (and the latest posting of a date), so an entry recorded with `allowDuplicate`
    /// and then voided hides an earlier live one.
    pub fn duplicate_of(&self, d: &Draft) -> Option<usize> {
        let data = self.guard_of(&d.content);
        let today = self.today();
        let since_midnight = self.now - calendar::midnight(today, self.setup.zone);
        let yesterday = calendar::add_days(today, -1);
        let bucket = |t: i64| t.div_euclid(DUPLICATE_WINDOW);
        let same = |e: &Entry| {
            let recorded = e.history.first().unwrap_or(&e.content);
            let date_ok = recorded.date == d.content.date
                || (d.date_left_out
                    && since_midnight < DUPLICATE_WINDOW
                    && recorded.date == yesterday
                    && calendar::date_at(e.recorded_at, self.setup.zone) == yesterday);
            date_ok && e.guard == data
        };
        // The latest entry of each guard: by hand or statement per bucket, posted per date.
        let mut latest: Vec<(Option<i64>, usize)> = Vec::new();
        for (i, e) in self.entries.iter().enumerate() {
            let guard = match e.origin {
                Origin::Hand(_) | Origin::Batch(_) => Some(bucket(e.recorded_at)),
                Origin::Posting(_) => None,
                Origin::Opening(_) => continue,
            };
            if same(e) {
                latest.retain(|g| g.0 != guard);
                latest.push((guard, i));
            }
        }
        latest.into_iter().find_map(|(guard, i)| {
            let e = &self.entries[i];
            let age = self.now - e.recorded_at;
            let in_force = match guard {
                Some(b) => (b == bucket(self.now) || b == bucket(self.now) - 1) && age < DUPLICATE_WINDOW,
                None => age < POSTED_GUARD,
            };
            (in_force && !e.voided).then_some(i)
        })
    }

    /// Postings by account name (folded) and amount, sorted: how the duplicate guard
    /// knows an entry (by names, so it knows it before the accounts are read).
    fn guard_of(&self, c: &Content) -> Vec<(String, i64)> {
        let mut lines: Vec<(String, i64)> = c
            .lines()
            .into_iter()
            .map(|(a, x)| (super::fold(&self.accounts[a].name), x))
            .collect();
        lines.sort();
        lines
    }

    /// Records `d` as a new entry by `origin` under operation `op`; its index.
    pub fn add_entry(&mut self, d: &Draft, origin: Origin, op: Option<usize>) -> usize {
        self.entries.push(Entry {
            content: d.content.clone(),
            history: Vec::new(),
            voided: false,
            recorded_at: self.now,
            origin,
            external_ref: d.external_ref.clone(),
            recorded_ref: d.external_ref.clone(),
            installments: d.installments,
            operation: op,
            guard: self.guard_of(&d.content),
        });
        let n = self.entries.len() - 1;
        if let Some(op) = op {
            self.operations[op].changes.push((n, Change::Recorded, None));
        }
        n
    }

    /// A new operation by `who` (None: a posting), the maker's latest.
    pub fn new_operation(&mut self, who: Option<usize>) -> usize {
        self.operations.push(Operation {
            by: who,
            changes: Vec::new(),
            undone: false,
        });
        let op = self.operations.len() - 1;
        if let Some(p) = who {
            self.people[p].latest = Some(op);
        }
        op
    }

    /// `record_transaction`.
    pub fn record(
        &mut self,
        who: usize,
        spec: &EntrySpec,
        allow_duplicate: bool,
        dry_run: bool,
        key: String,
    ) {
        let d = self.draft(spec);
        let mut args = self.entry_args(spec);
        args["idempotencyKey"] = json!(key);
        if allow_duplicate {
            args["allowDuplicate"] = json!(true);
        }
        if dry_run {
            args["dryRun"] = json!(true);
        }
        if let Some(w) = self.claimed_key(&key).filter(|_| self.is_member(who)) {
            let expect = if self.writes[w].args == args {
                Expect::Replay {
                    write: w,
                    current: self.current_since(w),
                }
            } else {
                Expect::Refused
            };
            self.call(who, "record_transaction", args, expect);
            return;
        }
        // A date more than a year ahead needs `futureDate` (never sent; a shrunk history
        // can leave an absolute date that far from its clock).
        let far = self
            .today()
            .checked_add(jiff::Span::new().years(1))
            .is_ok_and(|limit| d.content.date > limit);
        let refused = !self.is_member(who)
            || !self.acceptable(&d)
            || far
            || self.for_bad(&d)
            || d.external_ref
                .as_deref()
                .is_some_and(|r| self.ref_claimed(r).is_some())
            || (!allow_duplicate && d.external_ref.is_none() && self.duplicate_of(&d).is_some());
        if refused {
            self.remember(who, "record_transaction", &args, None);
            self.call(who, "record_transaction", args, Expect::Refused);
            return;
        }
        if dry_run {
            let view = self.preview_view(&d, who);
            self.call(who, "record_transaction", args, Expect::Ok(view));
            return;
        }
        let op = self.new_operation(Some(who));
        let n = self.add_entry(&d, Origin::Hand(who), Some(op));
        let w = self.remember(who, "record_transaction", &args, Some(self.now));
        self.writes[w].entries = vec![Some(n)];
        self.writes[w].operation = Some(op);
        self.writes[w].resolved_date = Some(d.content.date);
        self.writes[w].snapshot = Some((1, false));
        let accounts = self.accounts_of(&[n]);
        let view = json!({
            "transaction": tx_view(self, n),
            "balances": balances_view(self, &accounts),
            "replayed": false,
            "dryRun": false,
            "operation": format!("op{op}"),
            "categorizedBy": self.categorized_view(d.picked.as_ref().and_then(Option::as_ref)),
        });
        let call = self.call(who, "record_transaction", args, Expect::Ok(view));
        call.learn = vec![
            Learn::Entry(n, "/transaction/transactionId".into()),
            Learn::Operation(op, "/operationId".into()),
        ];
        call.write = Some(w);
    }

    /// What a dry run of `d` shows: the transaction without an id.
    fn preview_view(&self, d: &Draft, who: usize) -> Value {
        let mut book = self.clone();
        let n = book.add_entry(d, Origin::Hand(who), None);
        let mut tx = tx_view(&book, n);
        tx["id"] = Value::Null;
        let by = self.categorized_view(d.picked.as_ref().and_then(Option::as_ref));
        json!({"transaction": tx, "replayed": false, "dryRun": true, "categorizedBy": by})
    }

    /// The write that claimed idempotency key `key` and is still kept, if any.
    pub fn claimed_key(&self, key: &str) -> Option<usize> {
        self.writes.iter().rposition(|w| {
            w.args["idempotencyKey"] == json!(key)
                && w.claimed_at
                    .is_some_and(|t| self.now - t < super::IDEMPOTENCY_TTL)
        })
    }

    /// The entry of write `w` as it is now, when it changed since that write.
    pub fn current_since(&self, w: usize) -> Option<Value> {
        let n = self.writes[w].entries.first().copied().flatten()?;
        let e = &self.entries[n];
        (Some((e.version(), e.voided)) != self.writes[w].snapshot).then(|| tx_view(self, n))
    }

    /// Remembers a write for retries; its index.
    pub fn remember(
        &mut self,
        who: usize,
        tool: &'static str,
        args: &Value,
        claimed_at: Option<i64>,
    ) -> usize {
        self.writes.push(super::Write {
            who,
            tool,
            args: args.clone(),
            claimed_at,
            entries: Vec::new(),
            operation: None,
            resolved_date: None,
            pending: Vec::new(),
            step: None,
            snapshot: None,
        });
        self.writes.len() - 1
    }

    /// Every account the entries touch now, in account order.
    pub fn accounts_of(&self, entries: &[usize]) -> Vec<usize> {
        self.accounts_with_previous(entries, false)
    }

    /// Every account the entries touch now, and (`previous`) in the version before.
    pub fn accounts_with_previous(&self, entries: &[usize], previous: bool) -> Vec<usize> {
        let mut accounts: Vec<usize> = entries
            .iter()
            .flat_map(|&n| {
                let e = &self.entries[n];
                let before = e.history.last().filter(|_| previous);
                std::iter::once(&e.content)
                    .chain(before)
                    .flat_map(|c| c.lines())
                    .map(|l| l.0)
                    .collect::<Vec<_>>()
            })
            .collect();
        accounts.sort_unstable();
        accounts.dedup();
        accounts
    }

    /// `void_transaction`.
    pub fn void(&mut self, who: usize, n: usize) {
        let args = json!({"transactionId": format!("$tx:{n}"), "reason": "model void"});
        if !self.is_member(who) {
            self.call(who, "void_transaction", args, Expect::Refused);
            return;
        }
        let already = self.entries[n].voided;
        let mut op = None;
        if !already {
            let o = self.new_operation(Some(who));
            let before = self.entries[n].operation;
            self.operations[o].changes.push((n, Change::Voided, before));
            self.entries[n].voided = true;
            self.entries[n].operation = Some(o);
            op = Some(o);
        }
        let accounts = self.accounts_of(&[n]);
        let view = json!({
            "transaction": tx_view(self, n),
            "alreadyVoided": already,
            "balances": balances_view(self, &accounts),
            // Already voided: the operation the entry shows.
            "operation": op.or(self.entries[n].operation).map(|o| format!("op{o}")),
        });
        let call = self.call(who, "void_transaction", args, Expect::Ok(view));
        if let Some(o) = op {
            call.learn = vec![Learn::Operation(o, "/operationId".into())];
        }
    }

    /// The content an edit asks for, or `None` when the edit is refused by its shape.
    fn edited(&self, n: usize, edit: &EditSpec) -> Option<Content> {
        let old = &self.entries[n].content;
        let mut c = old.clone();
        let simple_fields = edit.amount.is_some() || edit.from.is_some() || edit.to.is_some();
        if simple_fields && (!old.is_simple() || edit.lines.is_some()) {
            return None;
        }
        if let Some(x) = edit.amount {
            c.from[0].1 = x;
            c.to[0].1 = x;
        }
        if let Some(a) = edit.from {
            c.from[0].0 = a;
        }
        if let Some(a) = edit.to {
            c.to[0].0 = a;
        }
        if let Some((from, to)) = &edit.lines {
            c.from = from.clone();
            c.to = to.clone();
        }
        if let Some(d) = edit.date {
            c.date = calendar::add_days(self.today(), d);
        }
        if let Some(m) = &edit.memo {
            c.memo = m.trim().to_owned();
        }
        if let Some(t) = &edit.tags {
            c.tags = fold_tags(t);
        }
        if let Some(f) = edit.for_whom {
            c.for_whom = whose(f);
        }
        Some(c)
    }

    /// The JSON an edit sends.
    pub fn edit_args(&self, n: usize, edit: &EditSpec) -> Value {
        let name = |a: usize| json!(self.accounts[a].reference());
        let mut args = json!({"transactionId": format!("$tx:{n}")});
        if let Some(x) = edit.amount {
            args["amount"] = json!(self.amount(x));
        }
        if let Some(a) = edit.from {
            args["from"] = name(a);
        }
        if let Some(a) = edit.to {
            args["to"] = name(a);
        }
        if let Some((from, to)) = &edit.lines {
            let side = |lines: &[(usize, i64)]| {
                lines
                    .iter()
                    .map(|&(a, x)| json!({"account": name(a), "amount": self.amount(x)}))
                    .collect::<Vec<_>>()
            };
            args["lines"] = json!({"from": side(from), "to": side(to)});
        }
        if let Some(d) = edit.date {
            args["date"] = json!(calendar::date_text(calendar::add_days(self.today(), d)));
        }
        if let Some(m) = &edit.memo {
            args["memo"] = json!(m);
        }
        if let Some(t) = &edit.tags {
            args["tags"] = json!(t);
        }
        if let Some(f) = edit.for_whom {
            args["for"] = json!(self.for_text(f));
        }
        args
    }

    /// `edit_transaction`.
    pub fn edit(
        &mut self,
        who: usize,
        n: usize,
        edit: &EditSpec,
        expected_version: Option<i8>,
        dry_run: bool,
        key: String,
    ) {
        let mut args = self.edit_args(n, edit);
        args["idempotencyKey"] = json!(key);
        let version = self.entries[n].version();
        let expected = expected_version.map(|v| (version as i64 + i64::from(v)).max(1));
        if let Some(v) = expected {
            args["expectedVersion"] = json!(v);
        }
        if dry_run {
            args["dryRun"] = json!(true);
        }
        // A key an earlier call of this edit claimed (a refused first call sent again
        // after the entry came back, then again) replays, as record_transaction's does.
        if let Some(w) = self.claimed_key(&key).filter(|_| self.is_member(who)) {
            let expect = if self.writes[w].args == args {
                Expect::Replay {
                    write: w,
                    current: self.current_since(w),
                }
            } else {
                Expect::Refused
            };
            self.call(who, "edit_transaction", args, expect);
            return;
        }
        let new = self.edited(n, edit);
        let e = &self.entries[n];
        // A `for` is checked on the entry as it would be: a member's name now, and an
        // expense posting for it to be about (an edit of lines keeps the `for` it had).
        let ok = self.is_member(who)
            && !e.voided
            && expected.is_none_or(|v| v == version as i64)
            && !self.for_refused(edit.for_whom)
            && new.as_ref().is_some_and(|c| !self.for_without_spending(c))
            && new.as_ref().is_some_and(|c| {
                // An edit that keeps the postings (date, memo, tags) may touch an entry of
                // an archived account; one that changes them needs every account live.
                // Every posting it adds or takes away must be on a live account (moving an
                // entry off an archived account is refused too); postings it keeps may
                // stay on one.
                let (old, new) = (e.content.lines(), c.lines());
                let mut changed = new
                    .iter()
                    .filter(|l| !old.contains(l))
                    .chain(old.iter().filter(|l| !new.contains(l)));
                let all_live = changed.all(|l| self.accounts[l.0].handle.is_none());
                *c == e.content || (all_live && well_formed(c) && self.installments_fit(c, e.installments))
            });
        let Some(new) = new.filter(|_| ok) else {
            self.remember(who, "edit_transaction", &args, None);
            self.call(who, "edit_transaction", args, Expect::Refused);
            return;
        };
        let changed = new != self.entries[n].content;
        if dry_run || !changed {
            let mut book = self.clone();
            if changed {
                let old = book.entries[n].content.clone();
                book.entries[n].history.push(old);
                book.entries[n].content = new;
            }
            let mut tx = tx_view(&book, n);
            if dry_run && changed {
                tx["operation"] = Value::Null; // a preview has no operation yet
            }
            let view = json!({"transaction": tx, "changed": changed, "replayed": false, "dryRun": dry_run});
            // Nothing written, no key claimed: a retry decides again.
            if !dry_run {
                self.remember(who, "edit_transaction", &args, None);
            }
            self.call(who, "edit_transaction", args, Expect::Ok(view));
            return;
        }
        let op = self.new_operation(Some(who));
        let before = self.entries[n].operation;
        let old = std::mem::replace(&mut self.entries[n].content, new.clone());
        self.correct(&old, &new);
        self.entries[n].history.push(old.clone());
        self.entries[n].operation = Some(op);
        self.operations[op].changes.push((n, Change::Edited(old), before));
        let w = self.remember(who, "edit_transaction", &args, Some(self.now));
        self.writes[w].entries = vec![Some(n)];
        self.writes[w].operation = Some(op);
        self.writes[w].snapshot = Some((self.entries[n].version(), false));
        let accounts = self.accounts_with_previous(&[n], true);
        let view = json!({
            "transaction": tx_view(self, n),
            "balances": balances_view(self, &accounts),
            "changed": true,
            "replayed": false,
            "dryRun": false,
            "operation": format!("op{op}"),
        });
        let call = self.call(who, "edit_transaction", args, Expect::Ok(view));
        call.learn = vec![Learn::Operation(op, "/operationId".into())];
        call.write = Some(w);
    }
}

/// What a `for` stores: a member, everyone, or nothing (`""`, or a stranger, refused).
pub fn whose(f: For) -> Option<Whose> {
    match f {
        For::Person(p) => Some(Whose::Member(p)),
        For::Shared => Some(Whose::Shared),
        For::Clear | For::Stranger => None,
    }
}

/// Tags as entries keep them: a leading `#` dropped, folded, each once, in order.
pub fn fold_tags(tags: &[String]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for t in tags {
        let t = super::fold(t.strip_prefix('#').unwrap_or(t));
        if !out.contains(&t) {
            out.push(t);
        }
    }
    out
}

/// Lines the contract takes: amounts positive, the sides equal, no account on both sides.
fn well_formed(c: &Content) -> bool {
    let positive = c.from.iter().chain(c.to.iter()).all(|l| l.1 > 0);
    let both = c.from.iter().any(|f| c.to.iter().any(|t| t.0 == f.0));
    let from: i64 = c.from.iter().map(|l| l.1).sum();
    positive && !both && from == c.amount()
}
