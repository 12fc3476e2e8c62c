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

use super::accounts::{membership_check, vault_gone};
use super::codec::{GuardRec, IdemRec, Membership, StoredBalance, TxRec, content_hash, external_ref_tx};
use super::guards::MEMBERSHIP;
use super::idempotency::{IdempotencyKey, NextAction, changed_since, next_action};
use super::record::{
    Entry, Guards, check_balanced, check_lines, clean_external_ref, clean_memo, external_ref_op, guard_ops,
    resolve_postings, window_ms, within_window,
};
use super::record::{direction_note, view};
use super::resolve::{Catalogue, join2, retrying};
use super::roster::{InVault, in_vault};
use super::today::{Later, accounts_of, catalogue_today, shown};
use super::writer::{TxChange, refusing_overflow, transaction_ops};
use super::*;
use crate::domain::AccountId;
use crate::domain::limits::MAX_BATCH_ENTRIES;
use crate::error::Field;
use crate::keys;
use crate::store::{Item, Key, StoreError};

pub(super) async fn record_batch(
    ledger: &Ledger,
    who: &PersonId,
    input: NewBatch,
) -> Result<BatchRecorded, LedgerError> {
    let n = input.entries.len();
    if n == 0 || n > MAX_BATCH_ENTRIES {
        return Err(LedgerError::invalid(
            Field::Entries,
            format!(
                "send 1–{MAX_BATCH_ENTRIES} entries in one call; this call has {n}. Split a longer statement into several calls, each with its own idempotency key"
            ),
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
            attempt(ledger, who, input, key, print, written, v)
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
) -> Result<Prepared, LedgerError> {
    let e = match &batch.entries[index] {
        Ok(e) => e,
        Err(u) => return Err(LedgerError::invalid(u.field, u.message.clone())),
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
    };
    let memo = clean_memo(e.memo.as_deref(), Field::Memo)?;
    let external_ref = clean_external_ref(e.external_ref.as_deref())?;
    check_lines(ledger, &split)?;
    Ok(Prepared {
        split,
        memo,
        external_ref,
        key: key.for_entry(index),
    })
}

/// Items read in the first round, by key (`None`: absent).
struct Found(BTreeMap<Key, Option<Item>>);

impl Found {
    fn get(&self, key: &Key) -> Option<&Item> {
        self.0.get(key).and_then(Option::as_ref)
    }

    /// The stored duplicate guards of an entry's lines, `[current bucket, previous]`.
    fn guards(&self, e: &Entry<'_>) -> Result<Guards, LedgerError> {
        let read = |k: &Key| self.get(k).map(|g| GuardRec::from_attrs(&g.attrs)).transpose();
        Ok([read(&e.guard_keys[0])?, read(&e.guard_keys[1])?])
    }

    /// The transactions of the guards that decide about the entry and were recorded
    /// within the window, newest first, leaving out `own` (this call's entries).
    fn live_guards(
        &self,
        e: &Entry<'_>,
        ledger: &Ledger,
        now_ms: i64,
        own: &BTreeSet<TransactionId>,
    ) -> Result<Vec<TransactionId>, LedgerError> {
        if !e.guarded() {
            return Ok(vec![]);
        }
        let guards = self.guards(e)?;
        Ok(within_window(&guards, window_ms(ledger), now_ms)
            .into_iter()
            .map(|g| g.transaction_id)
            .filter(|id| !own.contains(id))
            .collect())
    }
}

/// What entries earlier in this batch took: externalRefs, contents (date, memo,
/// lines: within one batch only an entry the same in all of them is a repeat), and
/// the duplicate guards this attempt moved (the next write's guard expects them).
#[derive(Default)]
struct Taken {
    refs: HashMap<String, TransactionId>,
    contents: HashMap<String, TransactionId>,
    guards: HashMap<Key, TransactionId>,
}

impl Taken {
    fn note(&mut self, e: &Entry<'_>, id: TransactionId) {
        if let Some(r) = e.external_ref {
            self.refs.entry(r.to_string()).or_insert(id);
        }
        self.contents.entry(e.content_key.clone()).or_insert(id);
    }
}

/// Net changes (debit-positive) this attempt made (all of them, and those dated
/// after today), and the accounts recorded entries touch.
#[derive(Default)]
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
    /// read, plus this attempt's moves, plus `extra` (all dates; `extra_later` after today).
    fn balance(
        &self,
        cat: &Catalogue,
        later: &Later,
        id: AccountId,
        (extra, extra_later): (&BTreeMap<AccountId, i64>, &BTreeMap<AccountId, i64>),
    ) -> Result<StoredBalance, LedgerError> {
        let a = cat
            .by_id(id)
            .ok_or_else(|| LedgerError::internal("resolved account vanished"))?;
        let sum = |x: &BTreeMap<AccountId, i64>, y: &BTreeMap<AccountId, i64>| {
            [x.get(&id), y.get(&id)]
                .into_iter()
                .flatten()
                .try_fold(0i64, |acc, v| acc.checked_add(*v))
                .ok_or_else(out_of_range)
        };
        later.balance(a, sum(&self.nets, extra)?, sum(&self.later, extra_later)?)
    }
}

fn out_of_range() -> LedgerError {
    LedgerError::invalid(Field::Total, "the balance would be out of range")
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
    /// Transactions that live guards point at and that were voided since.
    voided: BTreeSet<TransactionId>,
    /// Transactions this call recorded (in an earlier attempt, or by an earlier call
    /// with this key): guards pointing at them are no duplicates of its other entries.
    own: BTreeSet<TransactionId>,
    taken: Taken,
    moved: Moved,
    written: &'a Mutex<BTreeSet<TransactionId>>,
    /// Ids given to this attempt's entries.
    ids: BTreeSet<TransactionId>,
    now_s: i64,
    now_ms: i64,
}

async fn attempt(
    ledger: &Ledger,
    who: &PersonId,
    input: &NewBatch,
    key: &IdempotencyKey,
    print: &str,
    written: &Mutex<BTreeSet<TransactionId>>,
    v: InVault,
) -> Result<BatchRecorded, LedgerError> {
    let m = v.m.clone();
    let now = ledger.clock.now();
    let (ready, failed): (Vec<Option<Prepared>>, Vec<Option<LedgerError>>) = (0..input.entries.len())
        .map(|i| match prepare(ledger, input, key, i) {
            Ok(p) => (Some(p), None),
            Err(e) => (None, Some(e)),
        })
        .unzip();
    let entries: Vec<Result<Entry<'_>, LedgerError>> = ready
        .iter()
        .zip(failed)
        .map(|(p, failed)| match (p, failed) {
            (Some(p), _) => {
                Entry::new(
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
                    e.fingerprint = format!("{print}\u{1e}{}", e.fingerprint);
                    e
                })
            }
            (None, Some(e)) => Err(e),
            (None, None) => Err(LedgerError::internal(
                "a batch entry neither prepared nor refused",
            )),
        })
        .collect();
    let (cat, later, found) = read_round(ledger, who, &m, input, &entries).await?;
    let now_s = now.as_second();
    let nexts = decide_keys(who, &m, key, &entries, &found, now_s)?;
    let mut own: BTreeSet<TransactionId> = lock(written).clone();
    own.extend(nexts.iter().filter_map(|n| match n {
        Some(NextAction::Replay(rec)) => Some(rec.tx.id),
        _ => None,
    }));
    let voided = earlier_voided(ledger, &m, &entries, &nexts, &found, now.as_millisecond(), &own).await?;
    let mut run = Run {
        ledger,
        who,
        input,
        v,
        cat,
        later,
        found,
        voided,
        own,
        taken: Taken::default(),
        moved: Moved::default(),
        written,
        ids: BTreeSet::new(),
        now_s,
        now_ms: now.as_millisecond(),
    };
    let mut results = Vec::with_capacity(entries.len());
    for (e, next) in entries.into_iter().zip(nexts) {
        results.push(match (e, next) {
            (Ok(e), Some(next)) => run.entry(&e, next).await?,
            (Err(err), _) => EntryResult::Failed(err),
            (Ok(_), None) => return Err(LedgerError::internal("a batch entry without a decision")),
        });
    }
    run.finish(results)
}

/// One round: every entry's record and its externalRef claim (or, without one,
/// its duplicate guard), beside the account catalogue.
async fn read_round(
    ledger: &Ledger,
    who: &PersonId,
    m: &Membership,
    input: &NewBatch,
    entries: &[Result<Entry<'_>, LedgerError>],
) -> Result<(Catalogue, Later, Found), LedgerError> {
    let mut wanted: Vec<Key> = Vec::new();
    for e in entries.iter().filter_map(|e| e.as_ref().ok()) {
        wanted.push(e.key.item_key(who));
        wanted.push(e.changed_key.clone());
        match &e.xr_key {
            Some(xr) => wanted.push(xr.clone()),
            None if !input.allow_duplicate => wanted.extend(e.guard_keys.iter().cloned()),
            None => {}
        }
    }
    wanted.sort();
    wanted.dedup();
    let (cat, got) = join2(catalogue_today(ledger, m), ledger.store.get_many(&wanted)).await;
    let found = Found(wanted.into_iter().zip(got?).collect());
    let (cat, later) = cat?;
    Ok((cat, later, found))
}

/// Each entry's next step from its record; a record of this key with another
/// batch's fingerprint refuses the whole call before anything is written.
fn decide_keys(
    who: &PersonId,
    m: &Membership,
    key: &IdempotencyKey,
    entries: &[Result<Entry<'_>, LedgerError>],
    found: &Found,
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
            && (rec.fingerprint != e.fingerprint || rec.vault_id != m.vault_id)
        {
            return Err(LedgerError::IdempotencyKeyReused {
                key: key.as_str().to_string(),
            });
        }
        nexts.push(Some(next));
    }
    Ok(nexts)
}

/// Of the transactions that live guards point at, those voided since (a voided
/// entry is no duplicate). A second read round, only when some guard is live.
async fn earlier_voided(
    ledger: &Ledger,
    m: &Membership,
    entries: &[Result<Entry<'_>, LedgerError>],
    nexts: &[Option<NextAction>],
    found: &Found,
    now_ms: i64,
    own: &BTreeSet<TransactionId>,
) -> Result<BTreeSet<TransactionId>, LedgerError> {
    let mut ids = BTreeSet::new();
    for (e, next) in entries.iter().zip(nexts) {
        if let (Ok(e), Some(NextAction::Start(_))) = (e, next) {
            ids.extend(found.live_guards(e, ledger, now_ms, own)?);
        }
    }
    if ids.is_empty() {
        return Ok(ids);
    }
    let ids: Vec<TransactionId> = ids.into_iter().collect();
    let keys: Vec<Key> = ids
        .iter()
        .map(|id| keys::transaction_by_id(m.vault_id, *id))
        .collect();
    let got = ledger.store.get_many(&keys).await?;
    let mut voided = BTreeSet::new();
    for (id, item) in ids.into_iter().zip(got) {
        let live = match item {
            Some(item) => !TxRec::from_item(&item)?.voided,
            None => false,
        };
        if !live {
            voided.insert(id);
        }
    }
    Ok(voided)
}

impl Run<'_> {
    /// Decide one entry and, unless it is a replay, duplicate, error or dry run, write it.
    async fn entry(&mut self, e: &Entry<'_>, next: NextAction) -> Result<EntryResult, LedgerError> {
        let claim = match next {
            NextAction::Replay(rec) => {
                self.taken.note(e, rec.tx.id);
                self.moved.touch(&rec.tx);
                let mine = lock(self.written).contains(&rec.tx.id);
                let current = changed_since(&rec, self.found.get(&e.changed_key))?
                    .map(|now| Box::new(view(&now, Some(&self.cat), self.v.m.currency)));
                return Ok(EntryResult::Recorded {
                    transaction_id: Some(rec.tx.id),
                    replayed: !mine,
                    current,
                    note: direction_note(&rec.tx, &self.cat),
                });
            }
            NextAction::Start(claim) => claim,
        };
        if let Some(d) = self.duplicate_of(e)? {
            return Ok(EntryResult::Duplicate(d));
        }
        let currency = self.v.m.currency;
        let postings = match resolve_postings(&self.cat, e, &self.v.m)
            .and_then(|p| check_balanced(e, currency).map(|()| p))
        {
            Ok(p) => p,
            Err(err) => return Ok(EntryResult::Failed(err)),
        };
        let id = self.new_id();
        let m = &self.v.m;
        let tx = TxRec {
            origin: Some(e.origin.clone()),
            ..TxRec::new(
                id,
                e.date,
                e.memo.to_string(),
                self.now_ms,
                Some(self.who.display_name()),
                postings,
            )
        };
        let change = TxChange::Create(&tx);
        let nets = change.nets()?;
        let nets_later = change.nets_after(self.later.today)?;
        if !self.input.dry_run {
            let balances = accounts_of(&tx.postings)
                .into_iter()
                .map(|id| {
                    self.moved
                        .balance(&self.cat, &self.later, id, (&nets, &nets_later))
                })
                .collect::<Result<Vec<_>, LedgerError>>()?;
            let rec = IdemRec {
                fingerprint: e.fingerprint.clone(),
                vault_id: m.vault_id,
                tx: tx.clone(),
                balances,
                expires_at: self.now_s.saturating_add(
                    i64::try_from(self.ledger.config.idempotency_ttl.as_secs()).unwrap_or(i64::MAX),
                ),
            };
            let mut ops = vec![claim.op(&rec), membership_check(self.who, m)];
            let read = self.guards_now(e)?;
            ops.extend(guard_ops(e, read, &tx, self.now_s, window_ms(self.ledger)));
            ops.extend(external_ref_op(e, tx.id));
            ops.extend(transaction_ops(m.vault_id, change, &[])?);
            match self.v.commit(self.ledger, self.who, ops).await {
                Ok(()) => {
                    lock(self.written).insert(tx.id);
                    self.taken.guards.insert(e.guard_keys[0].clone(), tx.id);
                }
                Err(StoreError::ConditionFailed {
                    guard: MEMBERSHIP, ..
                }) => return Err(vault_gone(m)),
                // Another call took this entry's key, externalRef or guard, or an account
                // was archived: the whole batch decides again on fresh reads, and what
                // this attempt wrote is replayed then.
                Err(StoreError::ConditionFailed { .. }) => return Err(LedgerError::Conflict),
                Err(err) => return Err(refusing_overflow(err)),
            }
        }
        self.taken.note(e, tx.id);
        self.moved.apply(&nets, &nets_later)?;
        self.moved.touch(&tx);
        Ok(EntryResult::Recorded {
            transaction_id: (!self.input.dry_run).then_some(tx.id),
            replayed: false,
            current: None,
            note: direction_note(&tx, &self.cat),
        })
    }

    /// A transaction id no other entry of this batch has: all share one millisecond,
    /// so 100 ids drawn from 20 random bits would collide about once in 200 batches
    /// (a failed write and a re-run, if left to the store's guard).
    fn new_id(&mut self) -> TransactionId {
        let mut id = TransactionId::generate(self.now_ms, self.ledger.entropy.next_u64());
        // Bounded: with broken randomness the store's guard still refuses a taken id.
        for _ in 0..64 {
            if self.ids.insert(id) {
                break;
            }
            id = TransactionId::generate(self.now_ms, self.ledger.entropy.next_u64());
        }
        id
    }

    /// Whether the entry repeats one already recorded: by its externalRef (earlier
    /// in this batch, or stored), or, when the guard decides, by an identical entry
    /// earlier in this batch or a live one recorded within the window.
    fn duplicate_of(&self, e: &Entry<'_>) -> Result<Option<Duplicate>, LedgerError> {
        let dup = |transaction_id, matched_by| {
            Some(Duplicate {
                transaction_id,
                matched_by,
            })
        };
        if let (Some(r), Some(xr)) = (e.external_ref, &e.xr_key) {
            if let Some(id) = self.taken.refs.get(r) {
                return Ok(dup(*id, MatchedBy::ExternalRef));
            }
            return match self.found.get(xr) {
                Some(item) => Ok(dup(external_ref_tx(item)?, MatchedBy::ExternalRef)),
                None => Ok(None),
            };
        }
        if !e.guarded() {
            return Ok(None);
        }
        if let Some(id) = self.taken.contents.get(&e.content_key) {
            return Ok(dup(*id, MatchedBy::DuplicateGuard));
        }
        Ok(self
            .found
            .live_guards(e, self.ledger, self.now_ms, &self.own)?
            .into_iter()
            .find(|id| !self.voided.contains(id))
            .and_then(|id| dup(id, MatchedBy::DuplicateGuard)))
    }

    /// What each of the entry's two guards points at now: the entry this attempt last
    /// moved it to, else what the read round found.
    fn guards_now(&self, e: &Entry<'_>) -> Result<[Option<TransactionId>; 2], LedgerError> {
        let found = self.found.guards(e)?;
        Ok([0, 1].map(|i| {
            self.taken
                .guards
                .get(&e.guard_keys[i])
                .copied()
                .or_else(|| found[i].as_ref().map(|g| g.transaction_id))
        }))
    }

    /// The batch's result: the entries' outcomes and the touched accounts' balances.
    fn finish(self, results: Vec<EntryResult>) -> Result<BatchRecorded, LedgerError> {
        let m = &self.v.m;
        let none = BTreeMap::new();
        let balances = self
            .moved
            .order
            .iter()
            .map(|id| self.moved.balance(&self.cat, &self.later, *id, (&none, &none)))
            .collect::<Result<Vec<_>, LedgerError>>()?;
        let balances = shown(&balances, m.currency);
        Ok(BatchRecorded {
            vault: m.vault_ref(),
            currency: m.currency,
            results,
            balances,
            dry_run: self.input.dry_run,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::{Decimal, LocalDate};

    fn entry(amount: &str, external_ref: Option<&str>) -> Result<BatchEntry, Unreadable> {
        Ok(BatchEntry {
            from: "신한카드".into(),
            to: "식비".into(),
            amount: Decimal::parse(amount).unwrap(),
            date: Some(LocalDate::parse("2026-03-02").unwrap()),
            memo: Some("점심".into()),
            external_ref: external_ref.map(Into::into),
            lines: None,
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
