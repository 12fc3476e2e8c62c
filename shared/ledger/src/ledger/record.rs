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

use super::accounts::{membership_check, vault_gone};
use super::codec::{
    GuardRec, IdemRec, Membership, PostingRec, TxRec, content_hash, external_ref_attrs, external_ref_tx,
    guard_points_at,
};
use super::guards::{DUPLICATE_GUARD, EXTERNAL_REF_FREE, IDEMPOTENCY_CLAIM, MEMBERSHIP};
use super::idempotency::{Claim, IdempotencyKey, NextAction, next_action, recorded, replay};
use super::resolve::{Catalogue, join2, retrying};
use super::roster::{InVault, in_vault};
use super::today::{Later, accounts_of, catalogue_today, shown};
use super::writer::{TxChange, transaction_ops};
use super::*;
use crate::domain::{Currency, Decimal, Money, NameKey};
use crate::error::{Entity, Field, Side};
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
    /// Its cleaned externalRef, if any.
    pub external_ref: Option<&'a str>,
    /// Everything the caller sent that makes this entry this entry (the idempotency record's check).
    pub fingerprint: String,
    /// The duplicate guard's key (same date, memo, accounts and amounts).
    pub guard_key: Key,
    /// The externalRef claim's key, when it has a reference.
    pub xr_key: Option<Key>,
}

impl<'a> Entry<'a> {
    /// The entry of `input` in the vault of `m`; amounts checked against its currency.
    pub fn new(
        ledger: &Ledger,
        input: &'a NewSplit,
        key: &'a IdempotencyKey,
        memo: &'a str,
        external_ref: Option<&'a str>,
        m: &Membership,
    ) -> Result<Self, LedgerError> {
        let to = to_lines(&input.to, Side::To, m.currency)?;
        let from = to_lines(&input.from, Side::From, m.currency)?;
        let date = input.date.unwrap_or_else(|| m.today(ledger));
        if !input.future_date {
            check_not_far_future(date, m.today(ledger))?;
        }
        // Over the resolved request (the default date applied), so a retry that
        // leaves out `date` on the same day, or sends today's date, replays.
        let mut parts = vec![
            "v2".to_string(),
            m.vault_id.to_string(),
            date.to_string(),
            memo.to_string(),
            describe(&to),
            describe(&from),
        ];
        // Only when given, so records of entries without one keep their fingerprint.
        if let Some(r) = external_ref {
            parts.push(format!("xr:{r}"));
        }
        let fingerprint = parts.join("\u{1e}");
        let guard_hash = content_hash(&[
            &m.vault_id.to_string(),
            &date.to_string(),
            memo,
            &describe(&to),
            &describe(&from),
        ]);
        Ok(Entry {
            input,
            key,
            memo,
            to,
            from,
            date,
            external_ref,
            fingerprint,
            guard_key: keys::duplicate_guard(m.vault_id, &guard_hash),
            xr_key: external_ref.map(|r| keys::external_ref(m.vault_id, r)),
        })
    }

    /// Whether the duplicate guard decides about this entry: not with allowDuplicate,
    /// and not for an entry with an externalRef (the reference is its identity).
    pub fn guarded(&self) -> bool {
        !self.input.allow_duplicate && self.external_ref.is_none()
    }

    fn replay(&self, rec: &IdemRec, m: &Membership) -> Result<Recorded, LedgerError> {
        replay(rec, &self.fingerprint, self.key, m, self.input.dry_run)
    }
}

/// What the first read round found.
struct Reads {
    next: NextAction,
    /// The accounts and the entries dated after today (for the result's balances).
    cat: Result<(Catalogue, Later), LedgerError>,
    guard: Option<GuardRec>,
    /// The claim of the entry's externalRef, when another transaction holds it.
    claimed_by: Option<TransactionId>,
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
    // The guard, or the externalRef claim instead (an entry with one skips the guard).
    let second = match (&e.xr_key, e.guarded()) {
        (Some(xr), _) => Some(xr),
        (None, true) => Some(&e.guard_key),
        (None, false) => None,
    };
    let second_read = async {
        match second {
            Some(k) => store.get(k).await,
            None => Ok(None),
        }
    };
    let ((ik, cat), second) = join2(join2(store.get(&ik_key), catalogue_today(ledger, m)), second_read).await;
    let next = next_action(ik_key, ik?, now_s)?;
    let mut reads = Reads {
        next,
        cat,
        guard: None,
        claimed_by: None,
    };
    if matches!(reads.next, NextAction::Replay(_)) {
        return Ok(reads);
    }
    match (second?, e.xr_key.is_some()) {
        (Some(item), true) => reads.claimed_by = Some(external_ref_tx(&item)?),
        (Some(item), false) => reads.guard = Some(GuardRec::from_attrs(&item.attrs)?),
        (None, _) => {}
    }
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
                    .ok_or_else(|| LedgerError::invalid(Field::Total, "the amounts are out of range"))?,
            ),
        });
    }
    Ok(())
}

/// The duplicate guard: an identical entry recorded within the window, still live,
/// is refused unless the caller allowed duplicates. `Some` is a replay: the guard
/// was this very entry, landed from a concurrent retry.
async fn duplicate_check(
    ledger: &Ledger,
    e: &Entry<'_>,
    claim: &Claim,
    guard: Option<&GuardRec>,
    m: &Membership,
    now_ms: i64,
) -> Result<Option<Recorded>, LedgerError> {
    let window_ms = window_ms(ledger);
    let Some(g) =
        guard.filter(|g| !e.input.allow_duplicate && now_ms.saturating_sub(g.recorded_at_ms) < window_ms)
    else {
        return Ok(None);
    };
    // Rare path: was the earlier one voided, or is it this very entry landing from a concurrent retry?
    let got = ledger
        .store
        .get_many(&[
            claim.key().clone(),
            keys::transaction_by_id(m.vault_id, g.transaction_id),
        ])
        .await?;
    if let Some(Some(item)) = got.first() {
        return e.replay(&IdemRec::from_attrs(&item.attrs)?, m).map(Some);
    }
    let earlier_live = match got.get(1) {
        Some(Some(item)) => !TxRec::from_item(item)?.voided,
        _ => false,
    };
    if earlier_live {
        return Err(LedgerError::ProbableDuplicate {
            earlier_id: g.transaction_id,
            minutes_ago: now_ms.saturating_sub(g.recorded_at_ms) / 60_000,
        });
    }
    Ok(None)
}

pub(super) fn window_ms(ledger: &Ledger) -> i64 {
    i64::try_from(ledger.config.duplicate_window.as_millis()).unwrap_or(i64::MAX)
}

/// The guard item moved to this transaction; only if it is still the one we read
/// (unconditionally when the guard does not decide about this entry).
pub(super) fn guard_op(
    e: &Entry<'_>,
    guard: Option<&GuardRec>,
    tx: &TxRec,
    now_s: i64,
    window_ms: i64,
) -> WriteOp {
    WriteOp::Put {
        item: Item {
            key: e.guard_key.clone(),
            attrs: GuardRec {
                transaction_id: tx.id,
                date: tx.date,
                recorded_at_ms: tx.recorded_at_ms,
            }
            .to_attrs(now_s.saturating_add(window_ms / 1000 + 60)),
        },
        guard: match (guard, e.guarded()) {
            (_, false) => None,
            (Some(g), true) => super::guards::guard(DUPLICATE_GUARD, guard_points_at(g.transaction_id)),
            (None, true) => super::guards::guard(DUPLICATE_GUARD, Condition::NotExists),
        },
    }
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
    let e = Entry::new(ledger, input, key, memo, external_ref, &m)?;
    let now = ledger.clock.now();
    let (now_s, now_ms) = (now.as_second(), now.as_millisecond());
    let reads = read_round(ledger, who, &e, &m, now_s).await?;
    let claim = match reads.next {
        NextAction::Replay(r) => return e.replay(&r, &m),
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
    if let Some(replayed) = duplicate_check(ledger, &e, &claim, reads.guard.as_ref(), &m, now_ms).await? {
        return Ok(replayed);
    }

    let tx = TxRec::new(
        TransactionId::generate(now_ms, ledger.entropy.next_u64()),
        e.date,
        e.memo.to_string(),
        now_ms,
        Some(who.display_name()),
        postings,
    );
    let change = TxChange::Create(&tx);
    let rec = IdemRec {
        fingerprint: e.fingerprint.clone(),
        vault_id: m.vault_id,
        tx: tx.clone(),
        balances: later.after(&cat, &accounts_of(&tx.postings), Some(&change))?,
        expires_at: now_s
            .saturating_add(i64::try_from(ledger.config.idempotency_ttl.as_secs()).unwrap_or(i64::MAX)),
    };
    let result = recorded(&rec, &m, false, input.dry_run);
    if input.dry_run {
        return Ok(result);
    }
    let mut ops = vec![
        claim.op(&rec),
        membership_check(who, &m),
        guard_op(&e, reads.guard.as_ref(), &tx, now_s, window_ms(ledger)),
    ];
    ops.extend(external_ref_op(&e, tx.id));
    ops.extend(transaction_ops(m.vault_id, change, &[])?);
    match v.commit(ledger, who, ops).await {
        Ok(()) => Ok(result),
        // The key was claimed between our read and our write (a concurrent retry of this entry).
        Err(StoreError::ConditionFailed {
            guard: IDEMPOTENCY_CLAIM,
            current: Some(item),
        }) => replay(
            &IdemRec::from_attrs(&item.attrs)?,
            &rec.fingerprint,
            key,
            &m,
            false,
        ),
        Err(StoreError::ConditionFailed {
            guard: MEMBERSHIP, ..
        }) => Err(vault_gone(&m)),
        // A guard moved, an account was archived, or ids collided: decide again on fresh reads.
        Err(StoreError::ConditionFailed { .. }) => Err(LedgerError::Conflict),
        Err(e) => Err(super::writer::refusing_overflow(e)),
    }
}

/// A stored transaction as results show it; account names from the catalogue when given
/// (current names), else as recorded.
pub(super) fn view(tx: &TxRec, cat: Option<&Catalogue>, currency: Currency) -> Transaction {
    Transaction {
        transaction_id: tx.id,
        date: tx.date,
        memo: tx.memo.clone(),
        voided: tx.voided,
        recorded_by: tx.recorded_by.clone(),
        postings: tx
            .postings
            .iter()
            .map(|p| Posting {
                account_id: p.account_id,
                account: cat
                    .and_then(|c| c.by_id(p.account_id))
                    .map(|a| a.name.clone())
                    .unwrap_or_else(|| p.name.clone()),
                amount: Money::from_minor(p.amount, currency),
            })
            .collect(),
        version: tx.version,
        history: Vec::new(),
        void_reason: tx.voided.then(|| tx.void_reason.clone().unwrap_or_default()),
        voided_at: tx
            .voided_at
            .filter(|_| tx.voided)
            .and_then(|s| jiff::Timestamp::from_second(s).ok()),
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
                });
            }
            let at = ledger.clock.now().as_second();
            let change = TxChange::Reverse { tx: &tx, reason, at };
            let balances = shown(&later.after(&cat, &touched, Some(&change))?, m.currency);
            let mut ops = vec![membership_check(who, &m)];
            ops.extend(transaction_ops(m.vault_id, change, &[])?);
            match v.commit(ledger, who, ops).await {
                Ok(()) => {
                    let voided = TxRec {
                        voided: true,
                        void_reason: Some(reason.to_string()),
                        voided_at: Some(at),
                        ..tx
                    };
                    Ok(Voided {
                        vault: m.vault_ref(),
                        currency: m.currency,
                        transaction: view(&voided, Some(&cat), m.currency),
                        already_voided: false,
                        balances,
                    })
                }
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

/// "No such transaction" in this vault.
pub(super) fn not_found(id: TransactionId, m: &Membership) -> LedgerError {
    LedgerError::NotFound {
        what: Entity::Transaction,
        name: id.to_string(),
        within: Some(m.described()),
        candidates: vec![],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
