//! Recording many entries in one call (`record_transactions`), each exactly once.
//!
//! Every entry is its own atomic write with its own idempotency record, keyed by
//! the batch key and the entry's position ([`IdempotencyKey::for_entry`]), so a
//! retry of the whole batch replays what landed and records only what is missing.
//! Each record's fingerprint starts with a hash of the whole batch, so the same
//! key with other entries is refused before anything is written.
//! One read round serves every entry (their records, externalRef claims and
//! duplicate guards, with the accounts); the writes then go one entry at a time,
//! never combined (docs/decisions/025-batches-per-entry-writes.md says why).

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::{Mutex, MutexGuard};

use crate::api::{Field, Reason};
use crate::ledger::duplicates::guard_ops;
use crate::ledger::entry::external_ref_op;
use crate::ledger::entry::{
    Entry, check_balanced, check_lines, clean_external_ref, clean_memo, resolve_postings, window_ms,
};
use crate::ledger::idempotency::{IdempotencyKey, NextAction, changed_since, next_action};
use crate::ledger::installments::OpenPurchase;
use crate::ledger::resolve::{Catalogue, join_all, join2, query_all, retrying};
use crate::ledger::roster::membership_check;
use crate::ledger::roster::{InVault, in_vault};
use crate::ledger::statement::{Book, BookEntry, LineKey, book_ranges, match_book, parts_from};
use crate::ledger::today::{Later, accounts_of, catalogue_today, shown};
use crate::ledger::view::{direction_note, view};
use crate::ledger::writer::{TxChange, transaction_ops};
use crate::ledger::*;
use crate::ledger::{household, idempotency, operations, words};
use crate::stored::entry::{GuardRec, TxRec, external_ref_tx};
use crate::stored::idempotency::{IdemRec, StoredBalance};
use crate::stored::member::Membership;
use crate::stored::table::content_hash;
use crate::stored::{entry, table};
use dochiya_domain::AccountId;
use dochiya_domain::limits::MAX_BATCH_ENTRIES;
use dochiya_store::{Item, Key};

pub(in crate::ledger) async fn record_batch(
    ledger: &Ledger,
    who: &PersonId,
    input: NewBatch,
) -> Result<BatchRecorded, LedgerError> {
    let n = input.entries.len();
    if n == 0 || n > MAX_BATCH_ENTRIES {
        return Err(LedgerError::invalid(
            Field::Entries,
            Reason::BatchSize {
                max: MAX_BATCH_ENTRIES,
                got: n,
            },
        ));
    }
    let key = IdempotencyKey::parse(&input.idempotency_key)?;
    let print = batch_print(&input);
    // Ids this call wrote, kept across re-runs after a lost race: a re-run replays
    // them, but they were still recorded by this call, not by an earlier one.
    let written: Mutex<BTreeSet<TransactionId>> = Mutex::new(BTreeSet::new());
    let (input, key, print, written) = (&input, &key, print.as_str(), &written);
    retrying(|| {
        in_vault(ledger, who, input.vault.as_deref(), |v| {
            record_in_vault(ledger, who, input, key, print, written, v)
        })
    })
    .await
}

/// What makes this batch this batch: every entry as sent, in order, and allowDuplicate.
fn batch_print(input: &NewBatch) -> String {
    let mut parts: Vec<String> = vec!["batch-v1".into(), input.allow_duplicate.to_string()];
    for e in &input.entries {
        parts.push(match e {
            Ok(e) => {
                let mut fields = vec![
                    e.from.trim().to_string(),
                    e.to.trim().to_string(),
                    e.amount.to_string(),
                    e.date.map(|d| d.to_string()).unwrap_or_default(),
                    e.memo.as_deref().unwrap_or("").trim().to_string(),
                    e.external_ref.as_deref().unwrap_or("").trim().to_string(),
                ];
                // A split entry's lines, after the simple fields (an entry without lines prints as before).
                if let Some(lines) = &e.lines {
                    for (side, ls) in [("from", &lines.from), ("to", &lines.to)] {
                        for l in ls {
                            fields.push(format!("{side}:{}:{}", l.account.trim(), l.amount));
                        }
                    }
                }
                fields.join("\u{1f}")
            }
            // An entry that could not be read writes nothing; its place still counts.
            Err(u) => format!("unreadable\u{1f}{}\u{1f}{}", u.field, u.message),
        });
    }
    let refs: Vec<&str> = parts.iter().map(String::as_str).collect();
    content_hash(&refs)
}

/// One entry made ready for a vault: its split form, cleaned memo and reference, its key.
struct Prepared {
    split: NewSplit,
    /// Its `to` was left out and chosen by the memo's words.
    categorized: bool,
    memo: String,
    external_ref: Option<String>,
    key: IdempotencyKey,
}

/// The checks of entry `index` that need no vault, as `record_transaction` makes them.
fn prepare(
    ledger: &Ledger,
    batch: &NewBatch,
    key: &IdempotencyKey,
    index: usize,
    currency: dochiya_domain::Currency,
) -> Result<Prepared, LedgerError> {
    let e = match &batch.entries[index] {
        Ok(e) => e,
        // An amount in another currency is refused against this vault's, with no number.
        Err(u) => {
            let reason = match &u.sent {
                Some(sent) if dochiya_domain::other_currency(sent, currency.code()).is_some() => {
                    Reason::OtherCurrency {
                        sent: sent.clone(),
                        vault: currency,
                    }
                }
                _ => Reason::Caller(u.message.clone()),
            };
            return Err(LedgerError::invalid(u.field, reason));
        }
    };
    let line = |account: &str| SplitLine {
        account: account.to_string(),
        amount: e.amount,
    };
    let (from, to) = match &e.lines {
        Some(lines) => (lines.from.clone(), lines.to.clone()),
        None => (vec![line(&e.from)], vec![line(&e.to)]),
    };
    let split = NewSplit {
        vault: None,
        from,
        to,
        date: e.date,
        memo: e.memo.clone(),
        idempotency_key: String::new(),
        allow_duplicate: batch.allow_duplicate,
        dry_run: batch.dry_run,
        external_ref: e.external_ref.clone(),
        // Statement lines are past entries; the far-future check is record_transaction's.
        future_date: true,
        tags: e.tags.clone(),
        installments: e.installments,
        for_whom: e.for_whom.clone(),
    };
    let memo = clean_memo(e.memo.as_deref(), Field::Memo)?;
    let external_ref = clean_external_ref(e.external_ref.as_deref())?;
    check_lines(ledger, &split)?;
    Ok(Prepared {
        split,
        categorized: false,
        memo,
        external_ref,
        key: key.for_entry(index),
    })
}

/// What the words chose for each entry whose `to` was left out, and the refusals of
/// those they chose nothing for (deferred: a line this key recorded earlier replays).
type Categorized = (Vec<Option<CategorizedBy>>, Vec<Option<LedgerError>>);

/// The entries whose `to` was left out, categorized by their memos' words in one read
/// round: each gets its category, or a refusal that waits for its idempotency record
/// (the fingerprint leaves a chosen category out, so a retry replays whatever the first
/// call recorded); per entry, how it was chosen.
async fn categorize_left_out(
    ledger: &Ledger,
    m: &Membership,
    ready: &mut [Option<Prepared>],
) -> Result<Categorized, LedgerError> {
    let mut out = vec![None; ready.len()];
    let mut refused: Vec<Option<LedgerError>> = (0..ready.len()).map(|_| None).collect();
    let wanted: Vec<usize> = (0..ready.len())
        .filter(|i| ready[*i].as_ref().is_some_and(|p| words::left_out(&p.split)))
        .collect();
    if wanted.is_empty() {
        return Ok((out, refused));
    }
    let memos: Vec<&str> = wanted
        .iter()
        .filter_map(|i| ready[*i].as_ref().map(|p| p.memo.as_str()))
        .collect();
    let (_, chosen) = words::categorize(ledger, m, &memos).await?;
    for (i, c) in wanted.into_iter().zip(chosen) {
        match c {
            Ok(c) => {
                if let Some(p) = ready[i].as_mut() {
                    p.split.to[0].account.clone_from(&c.account.name);
                    p.categorized = true;
                }
                out[i] = Some(CategorizedBy {
                    word: c.word,
                    account: c.account.name,
                    learned: c.learned,
                });
            }
            Err(e) => {
                if let Some(p) = ready[i].as_mut() {
                    p.categorized = true;
                }
                refused[i] = Some(e);
            }
        }
    }
    Ok((out, refused))
}

/// Items read in the first round, by key (`None`: absent).
struct Found(BTreeMap<Key, Option<Item>>);

impl Found {
    fn get(&self, key: &Key) -> Option<&Item> {
        self.0.get(key).and_then(Option::as_ref)
    }
}

/// What entries earlier in this batch took: externalRefs, and the duplicate guards
/// this attempt moved (the next write's guard expects them).
#[derive(Default)]
struct Taken {
    refs: HashMap<String, TransactionId>,
    guards: HashMap<Key, TransactionId>,
}

impl Taken {
    fn note(&mut self, e: &Entry<'_>, id: TransactionId) {
        if let Some(r) = e.external_ref {
            self.refs.entry(r.to_string()).or_insert(id);
        }
    }
}

/// Net changes (debit-positive) this attempt made (all of them, and those dated
/// after today), and the accounts recorded entries touch.
#[derive(Default, Clone)]
struct Moved {
    nets: BTreeMap<AccountId, i64>,
    later: BTreeMap<AccountId, i64>,
    order: Vec<AccountId>,
}

impl Moved {
    fn touch(&mut self, tx: &TxRec) {
        for p in &tx.postings {
            if !self.order.contains(&p.account_id) {
                self.order.push(p.account_id);
            }
        }
    }

    fn apply(
        &mut self,
        nets: &BTreeMap<AccountId, i64>,
        later: &BTreeMap<AccountId, i64>,
    ) -> Result<(), LedgerError> {
        for (into, from) in [(&mut self.nets, nets), (&mut self.later, later)] {
            for (id, net) in from {
                let slot = into.entry(*id).or_insert(0);
                *slot = slot.checked_add(*net).ok_or_else(out_of_range)?;
            }
        }
        Ok(())
    }

    /// An account's balance as of today (natural sign, later entries apart): as
    /// read, plus this attempt's moves.
    fn balance(&self, cat: &Catalogue, later: &Later, id: AccountId) -> Result<StoredBalance, LedgerError> {
        let a = cat
            .by_id(id)
            .ok_or_else(|| LedgerError::internal("resolved account vanished"))?;
        let of = |x: &BTreeMap<AccountId, i64>| x.get(&id).copied().unwrap_or(0);
        later.named(cat, a, of(&self.nets), of(&self.later))
    }
}

fn out_of_range() -> LedgerError {
    LedgerError::invalid(Field::Total, Reason::BalanceWouldOverflow { account: None })
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // A set of ids behind a poisoned lock is still a valid set.
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// Everything one attempt knows while it goes through the entries.
struct Run<'a> {
    ledger: &'a Ledger,
    who: &'a PersonId,
    input: &'a NewBatch,
    v: InVault,
    cat: Catalogue,
    /// The entries dated after today, as read (for the balances shown).
    later: Later,
    found: Found,
    /// Each entry's duplicate in the book (by externalRef or by data), decided before any write.
    dups: Vec<Option<Duplicate>>,
    taken: Taken,
    moved: Moved,
    written: &'a Mutex<BTreeSet<TransactionId>>,
    /// Ids given to this attempt's entries.
    ids: BTreeSet<TransactionId>,
    now_s: i64,
    now_ms: i64,
    /// The batch's one operation (every entry it records is filed under it).
    op: operations::BatchOp,
    /// Whether any entry is recorded under the operation (by this call or an earlier one).
    any_recorded: bool,
    /// How the words chose each entry's category (a replay's: what its first call said).
    categorized: Vec<Option<CategorizedBy>>,
    /// The entries the words chose nothing for: refused unless their key replays.
    refused: Vec<Option<LedgerError>>,
}

/// One pass of the batch in the vault: read, decide every entry, write them one by one
/// (a lost race re-runs it on fresh reads; `written` keeps what earlier passes wrote).
async fn record_in_vault(
    ledger: &Ledger,
    who: &PersonId,
    input: &NewBatch,
    key: &IdempotencyKey,
    print: &str,
    written: &Mutex<BTreeSet<TransactionId>>,
    v: InVault,
) -> Result<BatchRecorded, LedgerError> {
    let m = v.membership.clone();
    let now = ledger.clock.now();
    let (mut ready, failed): (Vec<Option<Prepared>>, Vec<Option<LedgerError>>) = (0..input.entries.len())
        .map(|i| match prepare(ledger, input, key, i, m.currency) {
            Ok(p) => (Some(p), None),
            Err(e) => (None, Some(e)),
        })
        .unzip();
    let (categorized, refused) = categorize_left_out(ledger, &m, &mut ready).await?;
    let entries: Vec<Result<Entry<'_>, LedgerError>> = ready
        .iter()
        .zip(failed)
        .map(|(p, failed)| match (p, failed) {
            (Some(p), _) => Entry::new(
                ledger,
                who,
                &p.split,
                &p.key,
                &p.memo,
                p.external_ref.as_deref(),
                &m,
                now.as_millisecond(),
            )
            .map(|mut e| {
                // The record answers for the whole batch: a retry with other entries is refused.
                e.print_prefix = print.to_string();
                e.categorized = p.categorized;
                e
            }),
            (None, Some(e)) => Err(e),
            (None, None) => Err(LedgerError::internal(
                "a batch entry neither prepared nor refused",
            )),
        })
        .collect();
    let op_key = operations::BatchOp::key(key, who);
    let (cat, later, found, book) = read_round(ledger, who, &m, input, &entries, &op_key).await?;
    let now_s = now.as_second();
    let op = operations::BatchOp::from_read(
        ledger,
        who,
        op_key.clone(),
        found.get(&op_key),
        now.as_millisecond(),
        now_s.saturating_add(idempotency::ttl_s(ledger)),
    )?;
    let nexts = decide_keys(key, &entries, &found, who, now_s)?;
    let mut own: BTreeSet<TransactionId> = lock(written).clone();
    own.extend(nexts.iter().filter_map(|n| match n {
        Some(NextAction::Replay(rec)) => Some(rec.tx.id),
        _ => None,
    }));
    let dups = decide_duplicates(input, &entries, &nexts, &found, &book, &cat, &m, own)?;
    let mut run = Run {
        ledger,
        who,
        input,
        v,
        cat,
        later,
        found,
        dups,
        taken: Taken::default(),
        moved: Moved::default(),
        written,
        ids: BTreeSet::new(),
        now_s,
        now_ms: now.as_millisecond(),
        op,
        any_recorded: false,
        categorized,
        refused,
    };
    let mut results = Vec::with_capacity(entries.len());
    for (i, (e, next)) in entries.into_iter().zip(nexts).enumerate() {
        results.push(match (e, next) {
            (Ok(e), Some(next)) => run.entry(i, &e, next).await?,
            (Err(err), _) => EntryResult::Failed(err),
            (Ok(_), None) => return Err(LedgerError::internal("a batch entry without a decision")),
        });
    }
    run.finish(results)
}

/// The book a batch's lines may repeat, as the read round found it.
struct BookRead {
    /// Live entries dated within a day of any line, the earliest recorded first.
    entries: Vec<BookEntry>,
    /// Installment purchases still open, read only when a line names a part.
    open: Vec<OpenPurchase>,
}

/// One round: every entry's record, its externalRef claim and its duplicate guards,
/// the book's entries dated within a day of any entry and, when a line names an
/// installment part (`할부 2/3`), the purchases still open from its month, beside
/// the account catalogue.
async fn read_round(
    ledger: &Ledger,
    who: &PersonId,
    m: &Membership,
    input: &NewBatch,
    entries: &[Result<Entry<'_>, LedgerError>],
    op_key: &Key,
) -> Result<(Catalogue, Later, Found, BookRead), LedgerError> {
    let mut wanted: Vec<Key> = vec![op_key.clone()];
    let ok = || entries.iter().filter_map(|e| e.as_ref().ok());
    for e in ok() {
        wanted.push(e.key.item_key(who));
        wanted.push(e.changed_key.clone());
        wanted.extend(e.xr_key.iter().cloned());
        if !input.allow_duplicate {
            wanted.extend(e.guard_keys.iter().cloned());
        }
    }
    wanted.sort();
    wanted.dedup();
    let (ranges, parts) = if input.allow_duplicate {
        (vec![], None)
    } else {
        (
            book_ranges(ok().map(|e| e.date)),
            parts_from(ok().map(|e| (e.date, e.memo))),
        )
    };
    let store = ledger.store.as_ref();
    let pk = || table::vault_pk(m.vault_id);
    let book_reads = join_all(
        ranges
            .iter()
            .map(|(lo, hi)| {
                query_all(
                    store,
                    pk(),
                    entry::transactions_between(Some(*lo), Some(*hi)),
                    true,
                )
            })
            .chain(parts.map(|month| query_all(store, pk(), entry::installments_open_in(month), true)))
            .collect(),
    );
    let ((cat, got), mut book_pages) = join2(
        join2(catalogue_today(ledger, m), store.get_many(&wanted)),
        book_reads,
    )
    .await;
    let found = Found(wanted.into_iter().zip(got?).collect());
    let (cat, later) = cat?;
    let open = match parts {
        Some(_) => book_pages
            .pop()
            .ok_or_else(|| LedgerError::internal("the open installments were not read"))??
            .iter()
            .map(OpenPurchase::from_item)
            .collect::<Result<Vec<_>, _>>()?,
        None => Vec::new(),
    };
    let mut book = Vec::new();
    for page in book_pages {
        for item in page? {
            book.extend(BookEntry::of(TxRec::from_item(&item)?, &cat));
        }
    }
    // The earliest recorded first: ids are ordered by the time of recording.
    book.sort_by_key(BookEntry::id);
    Ok((cat, later, found, BookRead { entries: book, open }))
}

/// Each entry's next step from its record; a record of this key with another
/// batch's fingerprint refuses the whole call before anything is written.
fn decide_keys(
    key: &IdempotencyKey,
    entries: &[Result<Entry<'_>, LedgerError>],
    found: &Found,
    who: &PersonId,
    now_s: i64,
) -> Result<Vec<Option<NextAction>>, LedgerError> {
    let mut nexts = Vec::with_capacity(entries.len());
    for e in entries {
        let Ok(e) = e else {
            nexts.push(None);
            continue;
        };
        let ik = e.key.item_key(who);
        let next = next_action(ik.clone(), found.get(&ik).cloned(), now_s)?;
        if let NextAction::Replay(rec) = &next
            && !e.is_recorded_by(rec)
        {
            return Err(LedgerError::IdempotencyKeyReused {
                key: key.as_str().to_string(),
            });
        }
        nexts.push(Some(next));
    }
    Ok(nexts)
}

/// Each entry's duplicate in the book, before any write: its externalRef claimed
/// (exact), else, unless allowDuplicate, what it repeats by data: a live entry with
/// the same postings, one on the same card with the same amount (a split, another
/// category), or an installment part (see [`match_book`]). An entry whose reference
/// an earlier entry of this batch also has is left to the loop (it repeats that one).
#[allow(clippy::too_many_arguments)]
fn decide_duplicates(
    input: &NewBatch,
    entries: &[Result<Entry<'_>, LedgerError>],
    nexts: &[Option<NextAction>],
    found: &Found,
    book: &BookRead,
    cat: &Catalogue,
    m: &Membership,
    mut taken: BTreeSet<TransactionId>,
) -> Result<Vec<Option<Duplicate>>, LedgerError> {
    let mut refs_seen: BTreeSet<&str> = BTreeSet::new();
    let mut dups: Vec<Option<Duplicate>> = Vec::with_capacity(entries.len());
    let mut lines: Vec<Option<LineKey<'_>>> = Vec::with_capacity(entries.len());
    for (e, next) in entries.iter().zip(nexts) {
        let (mut dup, mut line) = (None, None);
        if let Ok(e) = e {
            let repeat_ref = e.external_ref.is_some_and(|r| !refs_seen.insert(r));
            let starts = matches!(next, Some(NextAction::Start(_)));
            // A reference the book holds makes every line with it that claim's duplicate,
            // the repeats of it in this batch included (their write would fail the claim).
            if let Some(item) = e.xr_key.as_ref().and_then(|k| found.get(k)).filter(|_| starts) {
                let id = external_ref_tx(item)?;
                taken.insert(id);
                dup = Some(Duplicate {
                    transaction_id: id,
                    matched_by: MatchedBy::ExternalRef,
                    also: None,
                });
            } else if starts
                && !repeat_ref
                && !input.allow_duplicate
                && let Ok(p) = resolve_postings(cat, e, m)
            {
                line = Some(LineKey::new(&p, cat, e.date, e.memo, e.external_ref));
            }
        }
        dups.push(dup);
        lines.push(line);
    }
    let by_data = match_book(
        &lines,
        &Book {
            entries: &book.entries,
            open: &book.open,
            cat,
        },
        &taken,
    );
    Ok(dups
        .into_iter()
        .zip(by_data)
        .map(|(by_ref, by_data)| by_ref.or(by_data))
        .collect())
}

impl Run<'_> {
    /// Decide entry `i` and, unless it is a replay, duplicate, error or dry run, write it.
    async fn entry(&mut self, i: usize, e: &Entry<'_>, next: NextAction) -> Result<EntryResult, LedgerError> {
        let claim = match next {
            NextAction::Replay(rec) => {
                self.any_recorded = true;
                if let Some(c) = self.categorized.get_mut(i) {
                    c.clone_from(&rec.categorized_by);
                }
                self.taken.note(e, rec.tx.id);
                self.moved.touch(&rec.tx);
                let mine = lock(self.written).contains(&rec.tx.id);
                let current = changed_since(&rec, self.found.get(&e.changed_key))?
                    .map(|now| Box::new(view(&now, Some(&self.cat), self.v.membership.currency)));
                return Ok(EntryResult::Recorded {
                    transaction_id: Some(rec.tx.id),
                    replayed: !mine,
                    current,
                    note: direction_note(&rec.tx, &self.cat),
                });
            }
            NextAction::Start(claim) => claim,
        };
        if let Some(id) = e.external_ref.and_then(|r| self.taken.refs.get(r)) {
            return Ok(EntryResult::Duplicate(Duplicate {
                transaction_id: *id,
                matched_by: MatchedBy::ExternalRef,
                also: None,
            }));
        }
        if let Some(d) = self.dups.get(i).copied().flatten() {
            return Ok(EntryResult::Duplicate(d));
        }
        if let Some(refusal) = self.refused.get_mut(i).and_then(Option::take) {
            return Ok(EntryResult::Failed(refusal));
        }
        let currency = self.v.membership.currency;
        let (postings, installments) = match resolve_postings(&self.cat, e, &self.v.membership)
            .and_then(|p| check_balanced(e, currency).map(|()| p))
            .and_then(|p| e.installments(&self.cat, &p, currency).map(|i| (p, i)))
        {
            Ok(p) => p,
            Err(err) => return Ok(EntryResult::Failed(err)),
        };
        // Whose spending it was (one more read, only for an entry that names a member).
        let for_whom = match e.input.for_whom.as_deref() {
            Some(f) => match household::for_subject(self.ledger, self.who, &self.v.membership, f).await {
                Ok(f) => f,
                Err(err) => return Ok(EntryResult::Failed(err)),
            },
            None => None,
        };
        let id = self.new_id();
        let tx = TxRec {
            for_name: for_whom.as_ref().map(|f| f.1.clone()),
            for_whom: for_whom.map(|f| f.0),
            origin: Some(e.origin.clone()),
            external_ref: e.external_ref.map(str::to_string),
            tags: e.tags.clone(),
            operation_id: Some(self.op.stamp.id),
            installments,
            ..TxRec::new(
                id,
                e.date,
                e.memo.to_string(),
                self.now_ms,
                Some(self.who),
                postings,
            )
        };
        if let Err(err) = household::check_for(&tx, &self.cat) {
            return Ok(EntryResult::Failed(err));
        }
        // What the entry leaves, checked before its write: one that would overflow a
        // balance is that entry's error, and the entries before it stay written.
        let (moved, balances) = match self.after(&tx) {
            Ok(after) => after,
            Err(err) => return Ok(EntryResult::Failed(err)),
        };
        if !self.input.dry_run {
            let by = self.categorized.get(i).cloned().flatten();
            match self.write(e, claim, &tx, (balances, by)).await? {
                Some(err) => return Ok(EntryResult::Failed(err)),
                None => lock(self.written).insert(tx.id),
            };
        }
        self.taken.note(e, tx.id);
        self.moved = moved;
        self.any_recorded = true;
        Ok(EntryResult::Recorded {
            transaction_id: (!self.input.dry_run).then_some(tx.id),
            replayed: false,
            current: None,
            note: direction_note(&tx, &self.cat),
        })
    }

    /// The moves after `tx`, and the balances of its accounts then.
    fn after(&self, tx: &TxRec) -> Result<(Moved, Vec<StoredBalance>), LedgerError> {
        let change = TxChange::Create(tx);
        let mut moved = self.moved.clone();
        moved.apply(&change.nets()?, &change.nets_after(self.later.today)?)?;
        moved.touch(tx);
        let balances = accounts_of(&tx.postings)
            .into_iter()
            .map(|id| moved.balance(&self.cat, &self.later, id))
            .collect::<Result<Vec<_>, LedgerError>>()?;
        Ok((moved, balances))
    }

    /// Write the entry; `Some` is the entry's own refusal (an overflowing rollup).
    async fn write(
        &mut self,
        e: &Entry<'_>,
        claim: idempotency::Claim,
        tx: &TxRec,
        (balances, categorized_by): (Vec<StoredBalance>, Option<CategorizedBy>),
    ) -> Result<Option<LedgerError>, LedgerError> {
        let m = &self.v.membership;
        let rec = IdemRec {
            fingerprint: e.fingerprint(),
            vault_id: m.vault_id,
            tx: tx.clone(),
            balances,
            expires_at: self.now_s.saturating_add(
                i64::try_from(self.ledger.config.idempotency_ttl.as_secs()).unwrap_or(i64::MAX),
            ),
            categorized_by,
        };
        let guarded = !self.input.allow_duplicate;
        let read = if guarded { self.guards_now(e)? } else { vec![] };
        let mut ops = vec![claim.op(&rec), membership_check(self.who, m), self.op.claim_op()];
        ops.extend(
            self.op
                .stamp
                .ops(m.vault_id, tx, operations::EntryAction::Recorded, None),
        );
        ops.extend(guard_ops(
            e,
            guarded,
            &read,
            tx,
            self.now_s,
            window_ms(self.ledger),
        ));
        ops.extend(external_ref_op(e, tx.id));
        ops.extend(transaction_ops(m.vault_id, TxChange::Create(tx), &[])?);
        match self.v.write(self.ledger, self.who, ops).await {
            Ok(()) => {
                if let Some(k) = e.guard_keys.first() {
                    self.taken.guards.insert(k.clone(), tx.id);
                }
                self.op.claimed();
                Ok(None)
            }
            // Another call took this entry's key, externalRef or guard, or an account
            // was archived (`Conflict`): the whole batch decides again on fresh reads,
            // and what this attempt wrote is replayed then. A total out of range is
            // this entry's own refusal.
            Err(refused @ LedgerError::InvalidInput { .. }) => Ok(Some(refused)),
            Err(other) => Err(other),
        }
    }

    /// A transaction id no other entry of this batch has: all share one millisecond,
    /// so 100 ids drawn from 20 random bits would collide about once in 200 batches
    /// (a failed write and a re-run, if left to the store's guard).
    fn new_id(&mut self) -> TransactionId {
        let mut id = self.ledger.new_transaction_id(self.now_ms);
        // Bounded: with broken randomness the store's guard still refuses a taken id.
        for _ in 0..64 {
            if self.ids.insert(id) {
                break;
            }
            id = self.ledger.new_transaction_id(self.now_ms);
        }
        id
    }

    /// What each of the entry's guards points at now: the entry this attempt last
    /// moved it to, else what the read round found.
    fn guards_now(&self, e: &Entry<'_>) -> Result<Vec<Option<TransactionId>>, LedgerError> {
        e.guard_keys
            .iter()
            .map(|k| match self.taken.guards.get(k) {
                Some(id) => Ok(Some(*id)),
                None => self
                    .found
                    .get(k)
                    .map(|g| GuardRec::from_attrs(&g.attrs).map(|g| g.transaction_id))
                    .transpose(),
            })
            .collect()
    }

    /// The batch's result: the entries' outcomes and the touched accounts' balances.
    fn finish(self, results: Vec<EntryResult>) -> Result<BatchRecorded, LedgerError> {
        let m = &self.v.membership;
        let balances = self
            .moved
            .order
            .iter()
            .map(|id| self.moved.balance(&self.cat, &self.later, *id))
            .collect::<Result<Vec<_>, LedgerError>>()?;
        let balances = shown(&balances, m.currency);
        Ok(BatchRecorded {
            vault: m.vault_ref(),
            currency: m.currency,
            results,
            balances,
            dry_run: self.input.dry_run,
            operation_id: (self.any_recorded && !self.input.dry_run).then_some(self.op.stamp.id),
            categorized: self.categorized,
        })
    }
}

impl Ledger {
    /// Record up to [`MAX_BATCH_ENTRIES`](dochiya_domain::limits::MAX_BATCH_ENTRIES)
    /// simple entries, each exactly once (its own atomic write and idempotency record),
    /// with one result per entry: recorded, duplicate (by externalRef or by data, with
    /// the book) or that entry's error. See `batch.rs`.
    pub async fn record_transactions(
        &self,
        who: &PersonId,
        input: NewBatch,
    ) -> Result<BatchRecorded, LedgerError> {
        record_batch(self, who, input).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use dochiya_domain::{Decimal, LocalDate};

    fn entry(amount: &str, external_ref: Option<&str>) -> Result<BatchEntry, Unreadable> {
        Ok(BatchEntry {
            from: "신한카드".into(),
            to: "식비".into(),
            amount: Decimal::parse(amount).unwrap(),
            date: Some(LocalDate::parse("2026-03-02").unwrap()),
            memo: Some("점심".into()),
            external_ref: external_ref.map(Into::into),
            lines: None,
            tags: vec![],
            installments: None,
            for_whom: None,
        })
    }

    fn batch(entries: Vec<Result<BatchEntry, Unreadable>>) -> NewBatch {
        NewBatch {
            vault: None,
            entries,
            idempotency_key: "k".into(),
            allow_duplicate: false,
            dry_run: false,
        }
    }

    /// The batch fingerprint changes with any entry, their order or allowDuplicate;
    /// not with dryRun (a dry run and the real call are one batch).
    #[test]
    fn the_batch_print_covers_every_entry_in_order() {
        let a = batch(vec![entry("8000", Some("1")), entry("9000", None)]);
        let same = batch(vec![entry("8000", Some("1")), entry("9000", None)]);
        assert_eq!(batch_print(&a), batch_print(&same));
        let dry = NewBatch {
            dry_run: true,
            ..a.clone()
        };
        assert_eq!(batch_print(&a), batch_print(&dry));
        let variants = [
            batch(vec![entry("9000", None), entry("8000", Some("1"))]),
            batch(vec![entry("8000", Some("1")), entry("9001", None)]),
            batch(vec![entry("8000", Some("2")), entry("9000", None)]),
            batch(vec![entry("8000", Some("1"))]),
            batch(vec![
                entry("8000", Some("1")),
                Err(Unreadable {
                    field: Field::Date,
                    message: "not a date".into(),
                    sent: None,
                }),
            ]),
            NewBatch {
                allow_duplicate: true,
                ..a.clone()
            },
        ];
        for v in &variants {
            assert_ne!(batch_print(&a), batch_print(v), "{v:?}");
        }
    }
}
