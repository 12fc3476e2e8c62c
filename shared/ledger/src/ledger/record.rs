//! Recording (simple and split) and voiding transactions.
//!
//! A record is one atomic write of: the idempotency claim (with the result,
//! so a retry returns it; see `idempotency.rs`), the membership check, the
//! transaction's items (built by `writer.rs`) and the duplicate guard.
//! An entry with an externalRef also claims it (`XR#`, only if absent) in the
//! same write, and skips the duplicate guard: the reference is its identity.
//! Reads before it: one round of the idempotency record, the account catalogue
//! and the duplicate guard or the externalRef claim (plus the caller's roster first when this instance
//! has not cached it; see `roster.rs`).

use super::codec::{
    GuardRec, IdemRec, Membership, PostingRec, TxRec, content_hash, external_ref_attrs, external_ref_tx,
    guard_points_at,
};
use super::guards::{DUPLICATE_GUARD, EXTERNAL_REF_FREE, IDEMPOTENCY_CLAIM, MEMBERSHIP};
use super::idempotency::{
    Claim, IdempotencyKey, NextAction, changed_op, changed_since, next_action, recorded,
};
use super::resolve::{Catalogue, join2, retrying};
use super::roster::{InVault, in_vault};
use super::roster::{membership_check, vault_gone};
use super::today::{Later, accounts_of, catalogue_today, shown};
use super::view::{direction_note, view};
use super::writer::{TxChange, transaction_ops};
use super::*;
use crate::domain::{Currency, Decimal, Money, NameKey, VaultId, VaultZone};
use crate::error::{Field, Side};
use crate::keys;
use crate::store::{Condition, Item, Key, StoreError, WriteOp};

use crate::domain::limits::{MAX_EXTERNAL_REF_CHARS, MAX_MEMO_CHARS};

/// One validated line: the account name as given, its key, and the amount in minor units.
struct Line {
    name: String,
    key: NameKey,
    minor: i64,
}

pub(super) async fn record(
    ledger: &Ledger,
    who: &PersonId,
    input: NewSplit,
) -> Result<Recorded, LedgerError> {
    let key = IdempotencyKey::parse(&input.idempotency_key)?;
    let memo = clean_memo(input.memo.as_deref(), Field::Memo)?;
    let external_ref = clean_external_ref(input.external_ref.as_deref())?;
    check_lines(ledger, &input)?;
    let (key, memo, external_ref) = (&key, memo.as_str(), external_ref.as_deref());
    retrying(|| {
        in_vault(ledger, who, input.vault.as_deref(), |v| {
            attempt(ledger, who, &input, key, memo, external_ref, v)
        })
    })
    .await
}

/// The shape rules that need no vault: both sides present, not too many lines, amounts positive.
pub(super) fn check_lines(ledger: &Ledger, input: &NewSplit) -> Result<(), LedgerError> {
    entry_tags(&input.tags)?;
    if input.from.is_empty() || input.to.is_empty() {
        return Err(LedgerError::invalid(
            Field::Lines(if input.from.is_empty() {
                Side::From
            } else {
                Side::To
            }),
            "a transaction needs at least one `from` line and one `to` line",
        ));
    }
    let lines = input.from.len() + input.to.len();
    if lines > ledger.config.max_postings {
        return Err(LedgerError::invalid(
            Field::Lines(Side::To),
            format!(
                "a transaction may have at most {} lines in total; it has {lines}",
                ledger.config.max_postings
            ),
        ));
    }
    for (side, list) in [(Side::From, &input.from), (Side::To, &input.to)] {
        for (index, l) in list.iter().enumerate() {
            positive(l.amount, Field::LineAmount { side, index })?;
        }
    }
    Ok(())
}

/// Refuse a date more than a year after `today` (likely a typo; the caller may say it is meant).
pub(super) fn check_not_far_future(date: LocalDate, today: LocalDate) -> Result<(), LedgerError> {
    let limit = today
        .as_jiff()
        .checked_add(jiff::Span::new().years(1))
        .unwrap_or(today.as_jiff());
    if date.as_jiff() > limit {
        return Err(LedgerError::FarFutureDate { date, today });
    }
    Ok(())
}

/// An amount that moved: not zero, not negative (the direction is the side).
pub(super) fn positive(amount: Decimal, field: Field) -> Result<(), LedgerError> {
    if amount.is_zero() {
        return Err(LedgerError::invalid(
            field,
            "the amount is zero; record only amounts that moved",
        ));
    }
    if amount.is_negative() {
        return Err(LedgerError::invalid(
            field,
            "amounts are positive; the direction is given by `from` (money leaves) and `to` (money arrives), so swap them instead of using a minus sign",
        ));
    }
    Ok(())
}

/// Validate a memo: trimmed, no control characters, at most [`MAX_MEMO_CHARS`].
pub(super) fn clean_memo(memo: Option<&str>, field: Field) -> Result<String, LedgerError> {
    let memo = memo.unwrap_or("").trim();
    if memo.chars().any(char::is_control) {
        return Err(LedgerError::invalid(
            field,
            "the text may not contain control characters or line breaks",
        ));
    }
    let n = memo.chars().count();
    if n > MAX_MEMO_CHARS {
        return Err(LedgerError::invalid(
            field,
            format!("the text may have at most {MAX_MEMO_CHARS} characters; it has {n}"),
        ));
    }
    Ok(memo.to_string())
}

/// Validate an externalRef: trimmed, at most [`MAX_EXTERNAL_REF_CHARS`], no control
/// characters; empty counts as absent (a model may send `""` for a line without one).
pub(super) fn clean_external_ref(raw: Option<&str>) -> Result<Option<String>, LedgerError> {
    let Some(r) = raw.map(str::trim).filter(|r| !r.is_empty()) else {
        return Ok(None);
    };
    if r.chars().any(char::is_control) {
        return Err(LedgerError::invalid(
            Field::ExternalRef,
            "the reference may not contain control characters or line breaks",
        ));
    }
    let n = r.chars().count();
    if n > MAX_EXTERNAL_REF_CHARS {
        return Err(LedgerError::invalid(
            Field::ExternalRef,
            format!("the reference may have at most {MAX_EXTERNAL_REF_CHARS} characters; it has {n}"),
        ));
    }
    Ok(Some(r.to_string()))
}

fn to_lines(list: &[SplitLine], side: Side, currency: Currency) -> Result<Vec<Line>, LedgerError> {
    list.iter()
        .enumerate()
        .map(|(index, l)| {
            let money = Money::from_decimal(l.amount, currency)
                .map_err(|e| LedgerError::from_parse(Field::LineAmount { side, index }, e))?;
            Ok(Line {
                name: l.account.trim().to_string(),
                key: NameKey::of(&l.account),
                minor: money.minor(),
            })
        })
        .collect()
}

fn describe(lines: &[Line]) -> String {
    let mut parts: Vec<String> = lines
        .iter()
        .map(|l| format!("{}={}", l.key.as_str(), l.minor))
        .collect();
    parts.sort();
    parts.join("\u{1f}")
}

/// An entry's tags, validated (display forms, repeats dropped; decision 038).
pub(super) fn entry_tags(raw: &[String]) -> Result<Vec<String>, LedgerError> {
    let tags =
        crate::domain::parse_tags(raw).map_err(|e| LedgerError::from_parse(Field::Category("tags"), e))?;
    Ok(tags.iter().map(|t| t.display().to_string()).collect())
}

/// One entry as it will be written in one vault, before any read.
pub(super) struct Entry<'a> {
    input: &'a NewSplit,
    /// Its idempotency key.
    pub key: &'a IdempotencyKey,
    /// Its cleaned memo.
    pub memo: &'a str,
    to: Vec<Line>,
    from: Vec<Line>,
    /// Its date (today in the vault when not given).
    pub date: LocalDate,
    /// Whether the caller gave the date; a defaulted one replays whatever day it is now.
    pub date_given: bool,
    /// Its cleaned externalRef, if any.
    pub external_ref: Option<&'a str>,
    /// What precedes its own fingerprint (a batch's hash; empty for one record).
    pub print_prefix: String,
    vault_id: VaultId,
    zone: VaultZone,
    /// Whether a defaulted date crossed the vault's midnight within the window, so an
    /// entry recorded yesterday, minutes ago, for yesterday is a probable repeat.
    also_yesterday: bool,
    /// The duplicate guard's keys: same date, accounts and amounts, in this time bucket
    /// and the one before; then the same for the day before when `also_yesterday`
    /// (see [`guard_keys`]).
    pub guard_keys: Vec<Key>,
    /// The externalRef claim's key, when it has a reference.
    pub xr_key: Option<Key>,
    /// The origin its transaction carries (see `TxRec::origin`).
    pub origin: String,
    /// Where a void or an edit of its transaction leaves what it is now.
    pub changed_key: Key,
    /// Its validated tags.
    pub tags: Vec<String>,
}

impl<'a> Entry<'a> {
    /// The entry of `input` in the vault of `m`; amounts checked against its currency.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        ledger: &Ledger,
        who: &PersonId,
        input: &'a NewSplit,
        key: &'a IdempotencyKey,
        memo: &'a str,
        external_ref: Option<&'a str>,
        m: &Membership,
        now_ms: i64,
    ) -> Result<Self, LedgerError> {
        let to = to_lines(&input.to, Side::To, m.currency)?;
        let from = to_lines(&input.from, Side::From, m.currency)?;
        let today = m.today(ledger);
        let date = input.date.unwrap_or(today);
        if !input.future_date {
            check_not_far_future(date, today)?;
        }
        let window = window_ms(ledger);
        let window_start = jiff::Timestamp::from_millisecond(now_ms.saturating_sub(window))
            .unwrap_or(jiff::Timestamp::UNIX_EPOCH);
        let also_yesterday = input.date.is_none() && m.zone.date_at(window_start) < date;
        let (to_text, from_text) = (describe(&to), describe(&from));
        let mut guards = guard_keys(m.vault_id, date, &to_text, &from_text, now_ms, window).to_vec();
        if also_yesterday {
            guards.extend(guard_keys(
                m.vault_id,
                date.prev_day(),
                &to_text,
                &from_text,
                now_ms,
                window,
            ));
        }
        // Last: a recurring posting of this very entry, whenever it was posted.
        guards.push(posted_guard_key(m.vault_id, date, &to_text, &from_text));
        let origin = key.origin(who);
        let tags = entry_tags(&input.tags)?;
        Ok(Entry {
            tags,
            changed_key: keys::transaction_changed(m.vault_id, &origin),
            origin,
            input,
            key,
            memo,
            to,
            from,
            date,
            date_given: input.date.is_some(),
            external_ref,
            print_prefix: String::new(),
            vault_id: m.vault_id,
            zone: m.zone.clone(),
            also_yesterday,
            guard_keys: guards,
            xr_key: external_ref.map(|r| keys::external_ref(m.vault_id, r)),
        })
    }

    /// Everything the caller sent that makes this entry this entry, with its date
    /// resolved to `date` (the idempotency record's check).
    fn fingerprint_at(&self, date: LocalDate) -> String {
        let mut parts = vec![
            "v2".to_string(),
            self.vault_id.to_string(),
            date.to_string(),
            self.memo.to_string(),
            describe(&self.to),
            describe(&self.from),
        ];
        // Only when given, so records of entries without one keep their fingerprint.
        if let Some(r) = self.external_ref {
            parts.push(format!("xr:{r}"));
        }
        // Likewise only with tags: a retry with other tags is another request.
        if !self.tags.is_empty() {
            let keys: Vec<String> = self
                .tags
                .iter()
                .map(|t| NameKey::of(t).as_str().to_string())
                .collect();
            parts.push(format!("tg:{}", keys.join("\u{1f}")));
        }
        if let Some(n) = self.input.installments {
            parts.push(format!("in:{}", n.count()));
        }
        let own = parts.join("\u{1e}");
        if self.print_prefix.is_empty() {
            own
        } else {
            format!("{}\u{1e}{own}", self.print_prefix)
        }
    }

    /// The fingerprint of this entry as it will be stored (its resolved date).
    pub fn fingerprint(&self) -> String {
        self.fingerprint_at(self.date)
    }

    /// Whether `rec` records this very entry: the same arguments, and a defaulted date
    /// matches the date the record resolved, so a retry after midnight replays.
    pub fn is_recorded_by(&self, rec: &IdemRec) -> bool {
        rec.vault_id == self.vault_id
            && (rec.fingerprint == self.fingerprint()
                || (!self.date_given && rec.fingerprint == self.fingerprint_at(rec.tx.date)))
    }

    /// The installment plan of this entry's postings, when it asked for one (decision 040).
    pub fn installments(
        &self,
        cat: &Catalogue,
        postings: &[PostingRec],
        currency: Currency,
    ) -> Result<Option<super::codec::InstallmentPlan>, LedgerError> {
        self.input
            .installments
            .map(|n| super::installments::plan_for(cat, postings, n, currency))
            .transpose()
    }

    /// Whether the duplicate guard decides about this entry: not with allowDuplicate,
    /// and not for an entry with an externalRef (the reference is its identity).
    pub fn guarded(&self) -> bool {
        !self.input.allow_duplicate && self.external_ref.is_none()
    }

    /// Whether an entry of these lines, recorded within the window, repeats this one:
    /// the same date, or, for a defaulted date just past the vault's midnight, the
    /// day before if it was recorded on that day (then still today).
    fn repeats(&self, g: &GuardRec) -> bool {
        let recorded_on = jiff::Timestamp::from_millisecond(g.recorded_at_ms)
            .map(|t| self.zone.date_at(t))
            .ok();
        g.date == self.date
            || (self.also_yesterday && g.date == self.date.prev_day() && recorded_on == Some(g.date))
    }

    fn replay(&self, rec: &IdemRec, m: &Membership) -> Result<Recorded, LedgerError> {
        if !self.is_recorded_by(rec) {
            return Err(LedgerError::IdempotencyKeyReused {
                key: self.key.as_str().to_string(),
            });
        }
        Ok(recorded(rec, m, true, self.input.dry_run))
    }
}

/// The duplicate guard's two keys for an entry dated `date` with these lines, recorded
/// at `now_ms`: the clock is cut into buckets one window wide, and the guard of the
/// current bucket and of the one before cover every entry recorded within the window
/// (decision 032: the same date, accounts and amounts, whatever the memo).
fn guard_keys(
    vault: VaultId,
    date: LocalDate,
    to: &str,
    from: &str,
    now_ms: i64,
    window_ms: i64,
) -> [Key; 2] {
    let bucket = now_ms.div_euclid(window_ms.max(1));
    let date = date.to_string();
    let key = |b: i64| {
        keys::duplicate_guard(
            vault,
            &content_hash(&["dg-v3", &vault.to_string(), &date, to, from, &b.to_string()]),
        )
    };
    [key(bucket), key(bucket.saturating_sub(1))]
}

/// The guard a recurring posting leaves for its date and lines (`to`, `from` as
/// [`describe`] writes them; one line each: `"<name key>=<minor units>"`), so the
/// household's own entry of the same rent on the same day is its probable duplicate.
pub(super) fn posted_guard_key(vault: VaultId, date: LocalDate, to: &str, from: &str) -> Key {
    keys::recurring_guard(
        vault,
        &content_hash(&["dr-v1", &vault.to_string(), &date.to_string(), to, from]),
    )
}

/// The line text [`describe`] gives one simple line.
pub(super) fn line_text(account: &NameKey, minor: i64) -> String {
    format!("{}={minor}", account.as_str())
}

/// The duplicate guards read for an entry, in the order of its `guard_keys`.
pub(super) type Guards = Vec<Option<GuardRec>>;

/// What the first read round found.
struct Reads {
    next: NextAction,
    /// The accounts and the entries dated after today (for the result's balances).
    cat: Result<(Catalogue, Later), LedgerError>,
    guards: Guards,
    /// The claim of the entry's externalRef, when another transaction holds it.
    claimed_by: Option<TransactionId>,
    /// What the entry is now, when a void or an edit changed it since it was recorded.
    changed: Option<Item>,
}

/// One round: was this entry already written (idempotency record), the accounts
/// (names, kinds, balances) and the duplicate guard. With allowDuplicate the
/// guard is not consulted, only moved to this transaction.
async fn read_round(
    ledger: &Ledger,
    who: &PersonId,
    e: &Entry<'_>,
    m: &Membership,
    now_s: i64,
) -> Result<Reads, LedgerError> {
    let store = ledger.store.as_ref();
    let ik_key = e.key.item_key(who);
    // The guards, or the externalRef claim instead (an entry with one skips the guard).
    let second: Vec<Key> = match (&e.xr_key, e.guarded()) {
        (Some(xr), _) => vec![xr.clone()],
        (None, true) => e.guard_keys.clone(),
        (None, false) => vec![],
    };
    let second_read = async {
        match second.len() {
            0 => Ok(vec![]),
            1 => store.get(&second[0]).await.map(|i| vec![i]),
            _ => store.get_many(&second).await,
        }
    };
    // The `TC#` item is read beside the record, so a replay says what changed at no extra round.
    let (((ik, cat), second), changed) = join2(
        join2(join2(store.get(&ik_key), catalogue_today(ledger, m)), second_read),
        store.get(&e.changed_key),
    )
    .await;
    let next = next_action(ik_key, ik?, now_s)?;
    let mut reads = Reads {
        next,
        cat,
        guards: Vec::new(),
        claimed_by: None,
        changed: changed?,
    };
    if matches!(reads.next, NextAction::Replay(_)) {
        return Ok(reads);
    }
    let second = second?;
    if e.xr_key.is_some() {
        if let Some(Some(item)) = second.first() {
            reads.claimed_by = Some(external_ref_tx(item)?);
        }
        return Ok(reads);
    }
    reads.guards = second
        .into_iter()
        .map(|item| item.map(|i| GuardRec::from_attrs(&i.attrs)).transpose())
        .collect::<Result<_, _>>()?;
    Ok(reads)
}

/// The postings of the entry with resolved (live) accounts; an account on both sides is refused.
pub(super) fn resolve_postings(
    cat: &Catalogue,
    e: &Entry<'_>,
    m: &Membership,
) -> Result<Vec<PostingRec>, LedgerError> {
    let mut postings = Vec::with_capacity(e.to.len() + e.from.len());
    for (lines, sign) in [(&e.to, 1i64), (&e.from, -1i64)] {
        for l in lines {
            let a = cat.resolve(&l.name, false, m)?;
            postings.push(PostingRec {
                account_id: a.account_id,
                name: a.name.clone(),
                amount: l.minor * sign,
            });
        }
    }
    let debit_ids: Vec<_> = postings
        .iter()
        .filter(|p| p.amount > 0)
        .map(|p| p.account_id)
        .collect();
    // `from` postings follow the `to` ones, in line order.
    if let Some((index, p)) = postings[e.to.len()..]
        .iter()
        .enumerate()
        .find(|(_, p)| debit_ids.contains(&p.account_id))
    {
        return Err(LedgerError::invalid(
            Field::LineAccount {
                side: Side::From,
                index,
            },
            format!(
                "\"{}\" is on both sides; a transaction moves money between different accounts",
                p.name
            ),
        ));
    }
    Ok(postings)
}

/// Both sides sum to the same amount.
pub(super) fn check_balanced(e: &Entry<'_>, currency: Currency) -> Result<(), LedgerError> {
    let sum = |lines: &[Line]| lines.iter().try_fold(0i64, |acc, l| acc.checked_add(l.minor));
    let (debits, credits) = match (sum(&e.to), sum(&e.from)) {
        (Some(d), Some(c)) => (d, c),
        _ => return Err(LedgerError::invalid(Field::Total, "the amounts are out of range")),
    };
    if debits != credits {
        let money = |v| Money::from_minor(v, currency);
        return Err(LedgerError::Unbalanced {
            debits: money(debits),
            credits: money(credits),
            difference: money(
                debits
                    .checked_sub(credits)
                    .and_then(i64::checked_abs)
                    .ok_or_else(|| LedgerError::invalid(Field::Total, "the amounts are out of range"))?,
            ),
        });
    }
    Ok(())
}

/// The guards of `guards` that `e` repeats, recorded within the window before
/// `now_ms`, newest first.
fn within_window<'g>(e: &Entry<'_>, guards: &'g Guards, window_ms: i64, now_ms: i64) -> Vec<&'g GuardRec> {
    let mut live: Vec<&GuardRec> = guards
        .iter()
        .flatten()
        .filter(|g| (g.posted || now_ms.saturating_sub(g.recorded_at_ms) < window_ms) && e.repeats(g))
        .collect();
    live.sort_by_key(|g| std::cmp::Reverse(g.recorded_at_ms));
    live.dedup_by_key(|g| g.transaction_id);
    live
}

/// The refusal of an entry that repeats `earlier` (recorded `now_ms - recorded_at` ago).
pub(super) fn probable_duplicate(earlier: &TxRec, now_ms: i64) -> LedgerError {
    LedgerError::ProbableDuplicate {
        earlier_id: earlier.id,
        earlier_date: earlier.date,
        earlier_memo: earlier.memo.clone(),
        recorded_at: jiff::Timestamp::from_millisecond(earlier.recorded_at_ms)
            .unwrap_or(jiff::Timestamp::UNIX_EPOCH),
        minutes_ago: now_ms.saturating_sub(earlier.recorded_at_ms) / 60_000,
    }
}

/// The duplicate guard: an entry with the same date, accounts and amounts recorded
/// within the window (whatever its memo), still live, is refused
/// unless the caller allowed duplicates. `Some` is a replay: the guard was this very
/// entry, landed from a concurrent retry.
async fn duplicate_check(
    ledger: &Ledger,
    e: &Entry<'_>,
    claim: &Claim,
    guards: &Guards,
    m: &Membership,
    now_ms: i64,
) -> Result<Option<Recorded>, LedgerError> {
    let candidates = within_window(e, guards, window_ms(ledger), now_ms);
    if e.input.allow_duplicate || candidates.is_empty() {
        return Ok(None);
    }
    // Rare path: were the earlier ones voided, or is it this very entry landing from a concurrent retry?
    let mut wanted = vec![claim.key().clone()];
    wanted.extend(
        candidates
            .iter()
            .map(|g| keys::transaction_by_id(m.vault_id, g.transaction_id)),
    );
    let got = ledger.store.get_many(&wanted).await?;
    if let Some(Some(item)) = got.first() {
        return e.replay(&IdemRec::from_attrs(&item.attrs)?, m).map(Some);
    }
    for item in got.iter().skip(1).flatten() {
        let earlier = TxRec::from_item(item)?;
        if !earlier.voided {
            return Err(probable_duplicate(&earlier, now_ms));
        }
    }
    Ok(None)
}

pub(super) fn window_ms(ledger: &Ledger) -> i64 {
    i64::try_from(ledger.config.duplicate_window.as_millis()).unwrap_or(i64::MAX)
}

/// The current bucket's guard of the entry's date moved to this transaction, only if
/// every guard read is still what was read (`read`: the transaction each pointed at,
/// in the order of `guard_keys`), so two racing entries with the same date and lines
/// cannot both pass, even across a bucket's edge. Unconditional when `guarded` is
/// false (allowDuplicate, an externalRef, or a batch entry, decided by data).
pub(super) fn guard_ops(
    e: &Entry<'_>,
    guarded: bool,
    read: &[Option<TransactionId>],
    tx: &TxRec,
    now_s: i64,
    window_ms: i64,
) -> Vec<WriteOp> {
    bucket_guard_ops(&e.guard_keys, guarded, read, tx, now_s, window_ms)
}

/// [`guard_ops`] over the entry's guard keys and whether the guard decides about it.
fn bucket_guard_ops(
    guard_keys: &[Key],
    guarded: bool,
    read: &[Option<TransactionId>],
    tx: &TxRec,
    now_s: i64,
    window_ms: i64,
) -> Vec<WriteOp> {
    let unchanged = |was: Option<TransactionId>| match was {
        Some(id) => super::guards::guard(DUPLICATE_GUARD, guard_points_at(id)),
        None => super::guards::guard(DUPLICATE_GUARD, Condition::NotExists),
    };
    let was = |i: usize| read.get(i).copied().flatten();
    let Some(current_key) = guard_keys.first() else {
        return vec![];
    };
    let mut ops = vec![WriteOp::Put {
        item: Item {
            key: current_key.clone(),
            attrs: GuardRec {
                transaction_id: tx.id,
                date: tx.date,
                recorded_at_ms: tx.recorded_at_ms,
                posted: false,
            }
            // Read until the end of the next bucket: two windows, and a minute's slack.
            .to_attrs(now_s.saturating_add(2 * (window_ms / 1000) + 60)),
        },
        guard: if guarded { unchanged(was(0)) } else { None },
    }];
    if guarded {
        for (i, key) in guard_keys.iter().enumerate().skip(1) {
            if let Some(guard) = unchanged(was(i)) {
                ops.push(WriteOp::Check {
                    key: key.clone(),
                    guard,
                });
            }
        }
    }
    ops
}

/// The transactions the guards read point at.
pub(super) fn pointed_at(guards: &Guards) -> Vec<Option<TransactionId>> {
    guards
        .iter()
        .map(|g| g.as_ref().map(|g| g.transaction_id))
        .collect()
}

/// The entry's externalRef claimed for `tx`, only if no transaction holds it yet.
pub(super) fn external_ref_op(e: &Entry<'_>, tx: TransactionId) -> Option<WriteOp> {
    e.xr_key.as_ref().map(|key| WriteOp::Put {
        item: Item {
            key: key.clone(),
            attrs: external_ref_attrs(tx),
        },
        guard: super::guards::guard(EXTERNAL_REF_FREE, Condition::NotExists),
    })
}

async fn attempt(
    ledger: &Ledger,
    who: &PersonId,
    input: &NewSplit,
    key: &IdempotencyKey,
    memo: &str,
    external_ref: Option<&str>,
    v: InVault,
) -> Result<Recorded, LedgerError> {
    let m = v.m.clone();
    let now = ledger.clock.now();
    let (now_s, now_ms) = (now.as_second(), now.as_millisecond());
    let e = Entry::new(ledger, who, input, key, memo, external_ref, &m, now_ms)?;
    let reads = read_round(ledger, who, &e, &m, now_s).await?;
    let claim = match reads.next {
        NextAction::Replay(r) => {
            let mut out = e.replay(&r, &m)?;
            out.current = changed_since(&r, reads.changed.as_ref())?
                .map(|now| view(&now, reads.cat.as_ref().ok().map(|(c, _)| c), m.currency));
            out.note = reads
                .cat
                .as_ref()
                .ok()
                .and_then(|(c, _)| direction_note(&r.tx, c));
            return Ok(out);
        }
        NextAction::Start(claim) => claim,
    };
    if let (Some(r), Some(id)) = (e.external_ref, reads.claimed_by) {
        return Err(LedgerError::ExternalRefTaken {
            external_ref: r.to_string(),
            transaction_id: id,
        });
    }
    let (cat, later) = reads.cat?;
    let postings = resolve_postings(&cat, &e, &m)?;
    check_balanced(&e, m.currency)?;
    let installments = e.installments(&cat, &postings, m.currency)?;
    if let Some(replayed) = duplicate_check(ledger, &e, &claim, &reads.guards, &m, now_ms).await? {
        return Ok(replayed);
    }

    let op = super::operations::OpStamp::new(ledger, super::operations::OpKind::Record, Some(who), now_ms);
    let tx = TxRec {
        origin: Some(e.origin.clone()),
        external_ref: e.external_ref.map(str::to_string),
        tags: e.tags.clone(),
        operation_id: Some(op.id),
        installments,
        ..TxRec::new(
            ledger.new_transaction_id(now_ms),
            e.date,
            e.memo.to_string(),
            now_ms,
            Some(who.display_name()),
            postings,
        )
    };
    let change = TxChange::Create(&tx);
    let rec = IdemRec {
        fingerprint: e.fingerprint(),
        vault_id: m.vault_id,
        tx: tx.clone(),
        balances: later.after(&cat, &accounts_of(&tx.postings), Some(&change))?,
        expires_at: now_s
            .saturating_add(i64::try_from(ledger.config.idempotency_ttl.as_secs()).unwrap_or(i64::MAX)),
    };
    let mut result = Recorded {
        note: direction_note(&tx, &cat),
        ..recorded(&rec, &m, false, input.dry_run)
    };
    if input.dry_run {
        // Nothing is stored: the id is a placeholder no later write will use.
        result.transaction.preview = true;
        result.transaction.operation_id = None;
        result.operation_id = None;
        return Ok(result);
    }
    let mut ops = vec![claim.op(&rec), membership_check(who, &m)];
    ops.extend(op.ops(m.vault_id, &tx, super::operations::EntryAction::Recorded, None));
    ops.extend(guard_ops(
        &e,
        e.guarded(),
        &pointed_at(&reads.guards),
        &tx,
        now_s,
        window_ms(ledger),
    ));
    ops.extend(external_ref_op(&e, tx.id));
    ops.extend(transaction_ops(m.vault_id, change, &[])?);
    match v.commit(ledger, who, ops).await {
        Ok(()) => Ok(result),
        // The key was claimed between our read and our write (a concurrent retry of this entry).
        Err(StoreError::ConditionFailed {
            guard: IDEMPOTENCY_CLAIM,
            current: Some(item),
        }) => e.replay(&IdemRec::from_attrs(&item.attrs)?, &m),
        Err(StoreError::ConditionFailed {
            guard: MEMBERSHIP, ..
        }) => Err(vault_gone(&m)),
        // A guard moved, an account was archived, or ids collided: decide again on fresh reads.
        Err(StoreError::ConditionFailed { .. }) => Err(LedgerError::Conflict),
        Err(e) => Err(super::writer::refusing_overflow(e)),
    }
}

pub(super) async fn void(
    ledger: &Ledger,
    who: &PersonId,
    vault: Option<&str>,
    id: TransactionId,
    reason: Option<&str>,
) -> Result<Voided, LedgerError> {
    let reason = clean_memo(reason, Field::VoidReason)?;
    let reason = &reason;
    retrying(|| {
        in_vault(ledger, who, vault, |v| async move {
            let m = v.m.clone();
            // Boxed, like `catalogue_today`: the second query inline would grow the future.
            let (found, later) = Box::pin(join2(
                super::read::transaction_in(ledger, &m, id),
                Later::read(ledger, &m),
            ))
            .await;
            let ((tx, cat), later) = (found?, later?);
            let touched = accounts_of(&tx.postings);
            if tx.voided {
                return Ok(Voided {
                    vault: m.vault_ref(),
                    currency: m.currency,
                    transaction: view(&tx, Some(&cat), m.currency),
                    already_voided: true,
                    balances: shown(&later.after(&cat, &touched, None)?, m.currency),
                    operation_id: tx.operation_id,
                });
            }
            let now_ms = ledger.clock.now().as_millisecond();
            let at = now_ms.div_euclid(1000);
            let op =
                super::operations::OpStamp::new(ledger, super::operations::OpKind::Void, Some(who), now_ms);
            let by = who.display_name();
            let change = TxChange::Reverse {
                tx: &tx,
                reason,
                at,
                by: &by,
            };
            let balances = shown(&later.after(&cat, &touched, Some(&change))?, m.currency);
            let mut ops = vec![membership_check(who, &m)];
            let mut items = transaction_ops(m.vault_id, change, &[])?;
            super::operations::stamp_updates(&mut items, m.vault_id, &tx, op.id);
            ops.extend(items);
            let before = tx.operation_id;
            let voided = TxRec {
                voided: true,
                void_reason: Some(reason.to_string()),
                voided_at: Some(at),
                voided_by: Some(by.clone()),
                operation_id: Some(op.id),
                ..tx
            };
            ops.extend(op.ops(
                m.vault_id,
                &voided,
                super::operations::EntryAction::Voided,
                before,
            ));
            ops.extend(changed_op(
                m.vault_id,
                &voided,
                at,
                super::idempotency::ttl_s(ledger),
            ));
            match v.commit(ledger, who, ops).await {
                Ok(()) => Ok(Voided {
                    vault: m.vault_ref(),
                    currency: m.currency,
                    transaction: view(&voided, Some(&cat), m.currency),
                    already_voided: false,
                    balances,
                    operation_id: Some(op.id),
                }),
                Err(StoreError::ConditionFailed {
                    guard: MEMBERSHIP, ..
                }) => Err(vault_gone(&m)),
                // Voided concurrently: the next attempt reads it as already voided.
                Err(StoreError::ConditionFailed { .. }) => Err(LedgerError::Conflict),
                Err(e) => Err(super::writer::refusing_overflow(e)),
            }
        })
    })
    .await
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The guard keys cover the last window whatever the bucket's edge, differ by
    /// date and lines, and the write moves the current bucket's guard only if every
    /// guard read is still what was read.
    #[test]
    fn guards_are_per_date_and_bucket_and_all_checked_on_write() {
        let v = crate::domain::VaultId::from_uuid(uuid::Uuid::nil());
        let w = 600_000;
        let on = LocalDate::parse("2026-03-15").unwrap();
        let at = |ms| guard_keys(v, on, "식비=4500", "카카오뱅크=-4500", ms, w);
        // Within one bucket the keys are the same; the next bucket's previous is this one's current.
        assert_eq!(at(w * 5), at(w * 6 - 1));
        assert_eq!(at(w * 6)[1], at(w * 5)[0]);
        assert_ne!(at(w * 6)[0], at(w * 5)[0]);
        // Other lines, or another date, other guards.
        assert_ne!(
            guard_keys(v, on, "식비=4600", "카카오뱅크=-4600", w * 5, w),
            at(w * 5)
        );
        assert_ne!(
            guard_keys(v, on.next_day(), "식비=4500", "카카오뱅크=-4500", w * 5, w),
            at(w * 5)
        );
        let tx = TxRec::new(
            TransactionId::from_u64((1 << 53) + 9).unwrap(),
            on,
            String::new(),
            w * 5,
            None,
            vec![],
        );
        let earlier = TransactionId::from_u64((1 << 53) + 3).unwrap();
        let mut keys = at(w * 5).to_vec();
        keys.extend(guard_keys(
            v,
            on.prev_day(),
            "식비=4500",
            "카카오뱅크=-4500",
            w * 5,
            w,
        ));
        let ops = bucket_guard_ops(&keys, true, &[None, Some(earlier), None, None], &tx, 0, w);
        let shape: Vec<_> = ops
            .iter()
            .map(|op| {
                let g = crate::store::eval::guard_of(op).expect("guarded");
                (
                    op.key().clone(),
                    matches!(op, WriteOp::Put { .. }),
                    g.name,
                    g.condition.clone(),
                )
            })
            .collect();
        assert_eq!(
            shape,
            vec![
                (keys[0].clone(), true, DUPLICATE_GUARD, Condition::NotExists),
                (keys[1].clone(), false, DUPLICATE_GUARD, guard_points_at(earlier)),
                (keys[2].clone(), false, DUPLICATE_GUARD, Condition::NotExists),
                (keys[3].clone(), false, DUPLICATE_GUARD, Condition::NotExists),
            ]
        );
        // allowDuplicate: the guard moves without a condition, and nothing is checked.
        let free = bucket_guard_ops(&keys, false, &[None, Some(earlier)], &tx, 0, w);
        assert_eq!(free.len(), 1);
        assert!(crate::store::eval::guard_of(&free[0]).is_none());
    }

    #[test]
    fn external_refs_are_trimmed_bounded_and_optional() {
        assert_eq!(
            clean_external_ref(Some("  30012345 ")).unwrap(),
            Some("30012345".to_string())
        );
        assert_eq!(clean_external_ref(Some("   ")).unwrap(), None);
        assert_eq!(clean_external_ref(None).unwrap(), None);
        let longest = "x".repeat(MAX_EXTERNAL_REF_CHARS);
        assert_eq!(clean_external_ref(Some(&longest)).unwrap(), Some(longest.clone()));
        let e = clean_external_ref(Some(&format!("{longest}x"))).unwrap_err();
        assert_eq!(
            e.to_string(),
            "Invalid external reference: the reference may have at most 100 characters; it has 101"
        );
        let e = clean_external_ref(Some("a\tb")).unwrap_err();
        assert_eq!(
            e.to_string(),
            "Invalid external reference: the reference may not contain control characters or line breaks"
        );
    }
}
