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

use crate::api::Field;
use crate::ledger::duplicates::{Guards, duplicate_check, guard_ops, pointed_at};
use crate::ledger::entry::external_ref_op;
use crate::ledger::entry::{
    Entry, check_balanced, check_lines, clean_external_ref, clean_memo, resolve_postings, window_ms,
};
use crate::ledger::guards::IDEMPOTENCY_CLAIM;
use crate::ledger::idempotency::{
    IdempotencyKey, NextAction, changed_op, changed_since, next_action, recorded,
};
use crate::ledger::resolve::{Catalogue, join2, retrying};
use crate::ledger::roster::membership_check;
use crate::ledger::roster::{InVault, in_vault};
use crate::ledger::today::{Later, accounts_of, catalogue_today, shown};
use crate::ledger::view::{direction_note, view};
use crate::ledger::writer::{TxChange, transaction_ops};
use crate::ledger::*;
use crate::ledger::{household, idempotency, operations, view, words};
use crate::stored::entry::{GuardRec, TxRec, external_ref_tx};
use crate::stored::idempotency::IdemRec;
use crate::stored::member::Membership;
use dochiya_store::{Item, Key};

/// The entry with its category chosen by the memo's words, when `to` was left out (one
/// more read round), and how it was chosen.
async fn categorized(
    ledger: &Ledger,
    m: &Membership,
    input: &NewSplit,
    memo: &str,
) -> Result<(Option<NewSplit>, Option<CategorizedBy>), LedgerError> {
    if !words::left_out(input) {
        return Ok((None, None));
    }
    let (_, mut chosen) = words::categorize(ledger, m, &[memo]).await?;
    let c = chosen.remove(0)?;
    let filled = NewSplit {
        to: vec![SplitLine {
            account: c.account.name.clone(),
            amount: input.to[0].amount,
        }],
        ..input.clone()
    };
    Ok((
        Some(filled),
        Some(CategorizedBy {
            word: c.word,
            account: c.account.name,
            learned: c.learned,
        }),
    ))
}

/// As [`categorized`], with a refusal of the words handed back instead of returned:
/// words that choose no category now may have chosen one for this key's first call, so
/// the refusal waits for the idempotency record and a retry replays whatever it
/// recorded (the fingerprint leaves a chosen category out).
async fn categorized_or_deferred(
    ledger: &Ledger,
    m: &Membership,
    input: &NewSplit,
    memo: &str,
) -> Result<(Option<NewSplit>, Option<CategorizedBy>, Option<LedgerError>), LedgerError> {
    match categorized(ledger, m, input, memo).await {
        Ok((filled, by)) => Ok((filled, by, None)),
        Err(refusal) if words::left_out(input) => Ok((None, None, Some(refusal))),
        Err(other) => Err(other),
    }
}

pub(in crate::ledger) async fn record(
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

async fn attempt(
    ledger: &Ledger,
    who: &PersonId,
    input: &NewSplit,
    key: &IdempotencyKey,
    memo: &str,
    external_ref: Option<&str>,
    v: InVault,
) -> Result<Recorded, LedgerError> {
    let m = v.membership.clone();
    let now = ledger.clock.now();
    let (now_s, now_ms) = (now.as_second(), now.as_millisecond());
    let (filled, by, refused) = categorized_or_deferred(ledger, &m, input, memo).await?;
    let input = filled.as_ref().unwrap_or(input);
    let mut e = Entry::new(ledger, who, input, key, memo, external_ref, &m, now_ms)?;
    e.categorized = by.is_some() || refused.is_some();
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
    if let Some(refusal) = refused {
        return Err(refusal);
    }
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
    // Whose spending it was (one more read, only when it names a member).
    let for_whom = household::for_of(ledger, who, &m, input.for_whom.as_deref()).await?;
    if let Some(replayed) = duplicate_check(ledger, &e, &claim, &reads.guards, &m, now_ms).await? {
        return Ok(Recorded {
            categorized_by: by.clone(),
            ..replayed
        });
    }

    let op = operations::OpStamp::new(ledger, operations::OpKind::Record, Some(who), now_ms);
    let tx = TxRec {
        origin: Some(e.origin.clone()),
        external_ref: e.external_ref.map(str::to_string),
        tags: e.tags.clone(),
        operation_id: Some(op.id),
        installments,
        for_name: for_whom.as_ref().map(|f| f.1.clone()),
        for_whom: for_whom.map(|f| f.0),
        ..TxRec::new(
            ledger.new_transaction_id(now_ms),
            e.date,
            e.memo.to_string(),
            now_ms,
            Some(who),
            postings,
        )
    };
    household::check_for(&tx, &cat)?;
    let change = TxChange::Create(&tx);
    let rec = IdemRec {
        fingerprint: e.fingerprint(),
        vault_id: m.vault_id,
        tx: tx.clone(),
        balances: later.after(&cat, &accounts_of(&tx.postings), Some(&change))?,
        expires_at: now_s
            .saturating_add(i64::try_from(ledger.config.idempotency_ttl.as_secs()).unwrap_or(i64::MAX)),
        categorized_by: by,
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
    ops.extend(op.ops(m.vault_id, &tx, operations::EntryAction::Recorded, None));
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
    // A guard moved, an account was archived, or ids collided (an error): decide again
    // on fresh reads. The key claimed between our read and our write: a concurrent
    // retry of this entry, whose result is replayed.
    match v.write_unless(ledger, who, ops, IDEMPOTENCY_CLAIM).await? {
        None => Ok(result),
        Some(Some(item)) => e.replay(&IdemRec::from_attrs(&item.attrs)?, &m),
        Some(None) => Err(LedgerError::Conflict),
    }
}

pub(in crate::ledger) async fn void(
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
            let m = v.membership.clone();
            // Boxed, like `catalogue_today`: the second query inline would grow the future.
            let (found, later) = Box::pin(join2(
                view::transaction_in(ledger, &m, id),
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
            let op = operations::OpStamp::new(ledger, operations::OpKind::Void, Some(who), now_ms);
            let by = who.display_name();
            let change = TxChange::Reverse {
                tx: &tx,
                reason,
                at,
                by: &by,
            };
            let balances = shown(&later.after(&cat, &touched, Some(&change))?, m.currency);
            let mut ops = Vec::new();
            let mut items = transaction_ops(m.vault_id, change, &[])?;
            operations::stamp_updates(&mut items, m.vault_id, &tx, op.id);
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
            ops.extend(op.ops(m.vault_id, &voided, operations::EntryAction::Voided, before));
            ops.extend(changed_op(m.vault_id, &voided, at, idempotency::ttl_s(ledger)));
            // Voided concurrently (an error): the next attempt reads it as already voided.
            v.write(ledger, who, ops).await?;
            Ok(Voided {
                vault: m.vault_ref(),
                currency: m.currency,
                transaction: view(&voided, Some(&cat), m.currency),
                already_voided: false,
                balances,
                operation_id: Some(op.id),
            })
        })
    })
    .await
}

impl Ledger {
    /// Record money moving `from` one account `to` another (see [`NewTransaction`]).
    pub async fn record_transaction(
        &self,
        who: &PersonId,
        input: NewTransaction,
    ) -> Result<Recorded, LedgerError> {
        let split = NewSplit {
            vault: input.vault,
            from: vec![SplitLine {
                account: input.from,
                amount: input.amount,
            }],
            to: vec![SplitLine {
                account: input.to,
                amount: input.amount,
            }],
            date: input.date,
            memo: input.memo,
            idempotency_key: input.idempotency_key,
            allow_duplicate: input.allow_duplicate,
            for_whom: input.for_whom,
            future_date: input.future_date,
            dry_run: input.dry_run,
            external_ref: input.external_ref,
            tags: input.tags,
            installments: None,
        };
        record(self, who, split).await
    }

    /// Record a split transaction: several `from` and `to` lines whose sums must match.
    /// Idempotent per `idempotency_key`; guarded against identical entries minutes apart.
    pub async fn record_split(&self, who: &PersonId, input: NewSplit) -> Result<Recorded, LedgerError> {
        record(self, who, input).await
    }

    /// Void a transaction: keeps the record, reverses its effect; once.
    /// Voiding a voided transaction writes nothing and says `already_voided`.
    pub async fn void_transaction(
        &self,
        who: &PersonId,
        vault: Option<&str>,
        id: TransactionId,
        reason: Option<&str>,
    ) -> Result<Voided, LedgerError> {
        void(self, who, vault, id, reason).await
    }
}
