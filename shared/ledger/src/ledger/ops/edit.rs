//! Editing a transaction in place: the same id, new content, the previous version kept.
//!
//! An edit is one atomic write of: the idempotency claim (with the result, so a
//! retry returns it; see `idempotency.rs`), the membership check, the previous
//! version saved as its own item (only if absent: two edits of one version
//! cannot both land, and a void checks the same item), the transaction's two
//! items rewritten (moved when the date changes) and every stored total moved by
//! the difference (`writer.rs`, [`TxChange::Edit`]).
//! Reads before it: one round of the idempotency record, the transaction, its
//! earlier versions and the account catalogue.

use crate::api::EditShape;
use crate::api::{Field, Reason, Side};
use crate::ledger::entry::clean_memo;
use crate::ledger::guards::IDEMPOTENCY_CLAIM;
use crate::ledger::idempotency::{IdempotencyKey, NextAction, changed_op, next_action};
use crate::ledger::operations::{EntryAction, OpKind, OpStamp};
use crate::ledger::resolve::{Catalogue, join2, query_all, retrying};
use crate::ledger::roster::membership_check;
use crate::ledger::roster::{InVault, in_vault};
use crate::ledger::today::{Later, catalogue_today, shown};
use crate::ledger::view::{not_found, versions, view};
use crate::ledger::writer::{TxChange, transaction_ops};
use crate::ledger::*;
use crate::ledger::{entry, household, idempotency, installments};
use crate::stored::account::AccountRec;
use crate::stored::entry::{PostingRec, TxRec, VersionRec};
use crate::stored::idempotency::IdemRec;
use crate::stored::member::Membership;
use crate::stored::table;
use dochiya_domain::{AccountId, Decimal, Money, NameKey};
use dochiya_store::MAX_WRITE_OPS;

pub(in crate::ledger) async fn edit(
    ledger: &Ledger,
    who: &PersonId,
    input: TransactionEdit,
) -> Result<Edited, LedgerError> {
    let key = IdempotencyKey::parse(&input.idempotency_key)?;
    let memo = input
        .memo
        .as_deref()
        .map(|m| clean_memo(Some(m), Field::Memo))
        .transpose()?;
    check_shape(ledger, &input)?;
    let (input, key, memo) = (&input, &key, memo.as_deref());
    retrying(|| {
        in_vault(ledger, who, input.vault.as_deref(), |v| {
            attempt(ledger, who, input, key, memo, v)
        })
    })
    .await
}

/// The rules that need no vault: something to change, `lines` or the simple fields (not both), positive amounts.
fn check_shape(ledger: &Ledger, input: &TransactionEdit) -> Result<(), LedgerError> {
    let simple = input.amount.is_some() || input.from.is_some() || input.to.is_some();
    if input.lines.is_some() && simple {
        return Err(LedgerError::EditShape(EditShape::LinesAndSimple));
    }
    if !simple
        && input.lines.is_none()
        && input.date.is_none()
        && input.memo.is_none()
        && input.tags.is_none()
        && input.for_whom.is_none()
    {
        return Err(LedgerError::EditShape(EditShape::NothingToChange));
    }
    if let Some(tags) = &input.tags {
        entry::entry_tags(tags)?;
    }
    if let Some(a) = input.amount {
        entry::positive(a, Field::Amount)?;
    }
    if let Some(lines) = &input.lines {
        entry::check_line_shape(ledger, &lines.from, &lines.to)?;
    }
    Ok(())
}

/// What the caller asked for, normalized: the idempotency record's check. It is
/// taken over the request, not over the stored entry, so a retry replays even
/// after the entry changed again since.
fn fingerprint(input: &TransactionEdit, memo: Option<&str>, m: &Membership) -> Result<String, LedgerError> {
    let minor = |d: Decimal, field: Field| {
        Money::from_decimal(d, m.currency)
            .map(|x| x.minor().to_string())
            .map_err(|e| LedgerError::from_parse(field, e))
    };
    let opt = |s: Option<String>| s.unwrap_or_else(|| "\u{0}".into());
    let lines = match &input.lines {
        None => "\u{0}".to_string(),
        Some(l) => {
            let mut parts = Vec::new();
            for (side, list) in [(Side::From, &l.from), (Side::To, &l.to)] {
                for (index, line) in list.iter().enumerate() {
                    parts.push(format!(
                        "{}:{}={}",
                        side.as_str(),
                        NameKey::of(&line.account).as_str(),
                        minor(line.amount, Field::LineAmount { side, index })?
                    ));
                }
            }
            parts.sort();
            parts.join("\u{1f}")
        }
    };
    Ok([
        "edit-v1".to_string(),
        m.vault_id.to_string(),
        input.transaction_id.to_string(),
        opt(input.expected_version.map(|v| v.to_string())),
        opt(input.date.map(|d| d.to_string())),
        opt(memo.map(str::to_string)),
        opt(input.amount.map(|a| minor(a, Field::Amount)).transpose()?),
        opt(input.from.as_deref().map(|n| NameKey::of(n).as_str().to_string())),
        opt(input.to.as_deref().map(|n| NameKey::of(n).as_str().to_string())),
        lines,
    ]
    .join("\u{1e}")
        // Only with tags, so records of edits without them keep their fingerprint.
        + &match &input.tags {
            None => String::new(),
            Some(tags) => {
                let keys: Vec<String> = tags.iter().map(|t| NameKey::of(t).as_str().to_string()).collect();
                format!("\u{1e}tg:{}", keys.join("\u{1f}"))
            }
        }
        // Likewise only with `for`.
        + &input
            .for_whom
            .as_deref()
            .map(|f| format!("\u{1e}for:{}", NameKey::of(f.trim()).as_str()))
            .unwrap_or_default())
}

/// What the read round found.
struct Reads {
    next: NextAction,
    current: TxRec,
    history: Vec<VersionRec>,
    cat: Catalogue,
    /// The entries dated after today (for the result's balances).
    later: Later,
}

/// One round: the idempotency record, the transaction, its earlier versions and the accounts.
async fn read_round(
    ledger: &Ledger,
    who: &PersonId,
    key: &IdempotencyKey,
    id: TransactionId,
    m: &Membership,
    now_s: i64,
) -> Result<Reads, LedgerError> {
    let store = ledger.store.as_ref();
    let ik_key = key.item_key(who);
    let (((ik, tx), versions), cat) = join2(
        join2(
            join2(
                store.get(&ik_key),
                store.get(&crate::stored::entry::transaction_by_id(m.vault_id, id)),
            ),
            query_all(
                store,
                table::vault_pk(m.vault_id),
                crate::stored::entry::transaction_versions(id),
                true,
            ),
        ),
        catalogue_today(ledger, m),
    )
    .await;
    let next = next_action(ik_key, ik?, now_s)?;
    let (cat, later) = cat?;
    let current = match tx? {
        Some(item) => TxRec::from_item(&item)?,
        None => return Err(not_found(id, m)),
    };
    let history = versions?
        .iter()
        .map(|i| VersionRec::from_attrs(&i.attrs))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Reads {
        next,
        current,
        history,
        cat,
        later,
    })
}

/// The account a name means in an edit: a live one, or an archived one the entry already uses.
fn account_for<'c>(
    cat: &'c Catalogue,
    current: &TxRec,
    name: &str,
    m: &Membership,
) -> Result<&'c AccountRec, LedgerError> {
    match cat.resolve(name, false, m) {
        Err(LedgerError::ArchivedAccount { .. }) => match cat.resolve(name, true, m) {
            Ok(a) if current.postings.iter().any(|p| p.account_id == a.account_id) => Ok(a),
            _ => cat.resolve(name, false, m),
        },
        other => other,
    }
}

/// The postings after the edit: `lines` replace them all; `amount`, `from`, `to`
/// change a simple entry's one line on each side; otherwise they stay.
fn new_postings(
    cat: &Catalogue,
    current: &TxRec,
    input: &TransactionEdit,
    m: &Membership,
) -> Result<Vec<PostingRec>, LedgerError> {
    let minor = |d: Decimal, field: Field| {
        Money::from_decimal(d, m.currency)
            .map(|x| x.minor())
            .map_err(|e| LedgerError::from_parse(field, e))
    };
    let posting = |a: &AccountRec, amount: i64| PostingRec {
        account_id: a.account_id,
        name: a.name.clone(),
        amount,
    };
    if let Some(lines) = &input.lines {
        let mut postings = Vec::with_capacity(lines.to.len() + lines.from.len());
        let (mut debits, mut credits) = (0i64, 0i64);
        for (side, list) in [(Side::To, &lines.to), (Side::From, &lines.from)] {
            for (index, l) in list.iter().enumerate() {
                let amount = minor(l.amount, Field::LineAmount { side, index })?;
                let a = account_for(cat, current, &l.account, m)?;
                let total = if side == Side::To {
                    &mut debits
                } else {
                    &mut credits
                };
                *total = total
                    .checked_add(amount)
                    .ok_or_else(entry::amounts_out_of_range)?;
                postings.push(posting(a, if side == Side::To { amount } else { -amount }));
            }
        }
        entry::sides_balance(debits, credits, m.currency)?;
        let to_ids: Vec<AccountId> = postings[..lines.to.len()].iter().map(|p| p.account_id).collect();
        if let Some((index, p)) = postings[lines.to.len()..]
            .iter()
            .enumerate()
            .find(|(_, p)| to_ids.contains(&p.account_id))
        {
            return Err(both_sides(
                Field::LineAccount {
                    side: Side::From,
                    index,
                },
                &p.name,
            ));
        }
        return Ok(postings);
    }
    if input.amount.is_none() && input.from.is_none() && input.to.is_none() {
        return Ok(current.postings.clone());
    }
    let (debit, credit) = match current.postings.as_slice() {
        [d, c] if d.amount > 0 && c.amount < 0 => (d, c),
        [c, d] if d.amount > 0 && c.amount < 0 => (d, c),
        _ => return Err(LedgerError::EditShape(EditShape::SplitNeedsLines)),
    };
    let amount = match input.amount {
        Some(a) => minor(a, Field::Amount)?,
        None => debit.amount,
    };
    let keep = |p: &PostingRec| {
        cat.by_id(p.account_id)
            .ok_or_else(|| LedgerError::internal("a posting's account is missing"))
    };
    let to = match input.to.as_deref() {
        Some(name) => account_for(cat, current, name, m)?,
        None => keep(debit)?,
    };
    let from = match input.from.as_deref() {
        Some(name) => account_for(cat, current, name, m)?,
        None => keep(credit)?,
    };
    if to.account_id == from.account_id {
        return Err(both_sides(
            Field::LineAccount {
                side: Side::From,
                index: 0,
            },
            &to.name,
        ));
    }
    Ok(vec![posting(to, amount), posting(from, -amount)])
}

fn both_sides(field: Field, name: &str) -> LedgerError {
    LedgerError::invalid(
        field,
        Reason::BothSides {
            account: name.to_string(),
            recurring: false,
        },
    )
}

/// The edited transaction: the same id, one version higher. An installment purchase
/// stays one, on a card with billing, and its parts move with it (decision 040).
fn next_version(
    cat: &Catalogue,
    current: &TxRec,
    (input, memo): (&TransactionEdit, Option<&str>),
    m: &Membership,
    now_ms: i64,
) -> Result<TxRec, LedgerError> {
    let postings = new_postings(cat, current, input, m)?;
    let installments = match current.installments {
        Some(plan) => Some(installments::plan_for(cat, &postings, plan.count, m.currency)?),
        None => None,
    };
    Ok(TxRec {
        date: input.date.unwrap_or(current.date),
        memo: memo.map_or_else(|| current.memo.clone(), str::to_string),
        postings,
        version: current.version + 1,
        edited_at_ms: Some(now_ms),
        installments,
        tags: input
            .tags
            .as_deref()
            .map_or_else(|| Ok(current.tags.clone()), entry::entry_tags)?,
        ..current.clone()
    })
}

/// The next version with its `for` as the edit asks (one more read, only when it names
/// a member), checked: `for` needs an expense line.
async fn with_for(
    ledger: &Ledger,
    who: &PersonId,
    m: &Membership,
    input: &TransactionEdit,
    mut new: TxRec,
    cat: &Catalogue,
) -> Result<TxRec, LedgerError> {
    if let Some(f) = input.for_whom.as_deref() {
        let f = household::for_subject(ledger, who, m, f).await?;
        new.for_name = f.as_ref().map(|f| f.1.clone());
        new.for_whom = f.map(|f| f.0);
    }
    household::check_for(&new, cat)?;
    Ok(new)
}

/// Most edits of one transaction: its history is returned whole, so it stays bounded.
pub const MAX_EDITS: u32 = 100;

/// Archived accounts keep their history, but an edit may not move their balance.
fn refuse_archived(
    nets: &std::collections::BTreeMap<AccountId, i64>,
    cat: &Catalogue,
) -> Result<(), LedgerError> {
    match nets
        .iter()
        .filter(|(_, net)| **net != 0)
        .filter_map(|(id, _)| cat.by_id(*id))
        .find(|a| a.archived)
    {
        Some(a) => Err(LedgerError::ArchivedAccount { name: a.name.clone() }),
        None => Ok(()),
    }
}

async fn attempt(
    ledger: &Ledger,
    who: &PersonId,
    input: &TransactionEdit,
    key: &IdempotencyKey,
    memo: Option<&str>,
    v: InVault,
) -> Result<Edited, LedgerError> {
    let m = v.membership.clone();
    let fingerprint = fingerprint(input, memo, &m)?;
    let now = ledger.clock.now();
    let (now_s, now_ms) = (now.as_second(), now.as_millisecond());
    let reads = read_round(ledger, who, key, input.transaction_id, &m, now_s).await?;
    let Reads {
        next,
        current,
        mut history,
        cat,
        later,
    } = reads;
    let claim = match next {
        NextAction::Replay(rec) => {
            return replay(
                &rec,
                &fingerprint,
                key,
                &current,
                &history,
                &cat,
                &m,
                input.dry_run,
            );
        }
        NextAction::Start(claim) => claim,
    };
    if current.voided {
        return Err(LedgerError::EditOfVoided { id: current.id });
    }
    if let Some(expected) = input.expected_version
        && expected != current.version
    {
        return Err(LedgerError::VersionMismatch {
            id: current.id,
            expected,
            current: current.version,
        });
    }
    if current.version > MAX_EDITS {
        return Err(LedgerError::TooManyEdits {
            id: current.id,
            most: MAX_EDITS,
        });
    }
    if let Some(d) = input.date.filter(|_| !input.future_date) {
        entry::check_not_far_future(d, ledger.today_in(&m))?;
    }
    let op = OpStamp::new(ledger, OpKind::Edit, Some(who), now_ms);
    let new = TxRec {
        operation_id: Some(op.id),
        ..next_version(&cat, &current, (input, memo), &m, now_ms)?
    };
    let new = with_for(ledger, who, &m, input, new, &cat).await?;
    if new.same_content(&current) {
        // Nothing differs: nothing is written, and a retry would answer the same.
        return unchanged(&current, &history, &cat, &later, &m, input.dry_run);
    }
    let change = TxChange::Edit {
        old: &current,
        new: &new,
        at_ms: now_ms,
    };
    refuse_archived(&change.nets()?, &cat)?;
    let rec = IdemRec {
        fingerprint,
        vault_id: m.vault_id,
        tx: new.clone(),
        balances: later.after(&cat, &touched(&current, &new), Some(&change))?,
        expires_at: now_s
            .saturating_add(i64::try_from(ledger.config.idempotency_ttl.as_secs()).unwrap_or(i64::MAX)),
        categorized_by: None,
    };
    history.push(VersionRec {
        tx: current.clone(),
        replaced_at_ms: now_ms,
    });
    let mut result = edited(&rec, &history, Some(&cat), &m, false, input.dry_run, None);
    if input.dry_run {
        result.transaction.preview = true;
        return Ok(result);
    }
    let mut ops = vec![claim.op(&rec), membership_check(who, &m)];
    ops.extend(op.ops(m.vault_id, &new, EntryAction::Edited, current.operation_id));
    ops.extend(transaction_ops(m.vault_id, change, &[])?);
    // Replays of the key that recorded the entry then say what it is now.
    ops.extend(changed_op(m.vault_id, &new, now_s, idempotency::ttl_s(ledger)));
    // The commit adds one more op (the roster check).
    if ops.len() >= MAX_WRITE_OPS {
        return Err(LedgerError::invalid(
            Field::Lines(Side::To),
            Reason::EditTooLarge {
                items: ops.len() + 1,
                max: MAX_WRITE_OPS,
            },
        ));
    }
    commit(ledger, who, v, ops, result, &rec, &history, &cat, key).await
}

/// The edit's one atomic write, and what each failed guard means.
#[allow(clippy::too_many_arguments)]
async fn commit(
    ledger: &Ledger,
    who: &PersonId,
    v: InVault,
    ops: Vec<dochiya_store::WriteOp>,
    result: Edited,
    rec: &IdemRec,
    history: &[VersionRec],
    cat: &Catalogue,
    key: &IdempotencyKey,
) -> Result<Edited, LedgerError> {
    let m = v.membership.clone();
    // Edited or voided meanwhile, an account archived (an error): decide again on
    // fresh reads. A concurrent retry of this very edit claimed the key first: replay it.
    match v.write_unless(ledger, who, ops, IDEMPOTENCY_CLAIM).await? {
        None => Ok(result),
        Some(None) => Err(LedgerError::Conflict),
        Some(Some(item)) => {
            let stored = IdemRec::from_attrs(&item.attrs)?;
            if stored.fingerprint != rec.fingerprint || stored.vault_id != m.vault_id {
                return Err(LedgerError::IdempotencyKeyReused {
                    key: key.as_str().to_string(),
                });
            }
            Ok(edited(&stored, history, Some(cat), &m, true, false, None))
        }
    }
}

/// The answer to an edit that asks for what is already there.
fn unchanged(
    current: &TxRec,
    history: &[VersionRec],
    cat: &Catalogue,
    later: &Later,
    m: &Membership,
    dry_run: bool,
) -> Result<Edited, LedgerError> {
    let balances = later.after(cat, &touched(current, current), None)?;
    let mut transaction = view(current, Some(cat), m.currency);
    transaction.history = versions(history, Some(cat), m.currency);
    Ok(Edited {
        vault: m.vault_ref(),
        currency: m.currency,
        transaction,
        balances: shown(&balances, m.currency),
        changed: false,
        replayed: false,
        dry_run,
        current: None,
        operation_id: None,
    })
}

/// The stored result of an earlier edit with the same key (and the entry as it is
/// now, when it changed since), or a refusal if the request differs.
#[allow(clippy::too_many_arguments)]
fn replay(
    rec: &IdemRec,
    fingerprint: &str,
    key: &IdempotencyKey,
    current: &TxRec,
    history: &[VersionRec],
    cat: &Catalogue,
    m: &Membership,
    dry_run: bool,
) -> Result<Edited, LedgerError> {
    if rec.fingerprint != fingerprint || rec.vault_id != m.vault_id {
        return Err(LedgerError::IdempotencyKeyReused {
            key: key.as_str().to_string(),
        });
    }
    let earlier: Vec<VersionRec> = history
        .iter()
        .filter(|h| h.tx.version < rec.tx.version)
        .cloned()
        .collect();
    let now = (current.version != rec.tx.version || current.voided).then(|| {
        let mut t = view(current, Some(cat), m.currency);
        t.history = versions(history, Some(cat), m.currency);
        t
    });
    Ok(edited(rec, &earlier, Some(cat), m, true, dry_run, now))
}

/// The result an edit's record stands for.
fn edited(
    rec: &IdemRec,
    history: &[VersionRec],
    cat: Option<&Catalogue>,
    m: &Membership,
    replayed: bool,
    dry_run: bool,
    current: Option<Transaction>,
) -> Edited {
    let mut transaction = view(&rec.tx, cat, m.currency);
    transaction.history = versions(history, cat, m.currency);
    // A preview is no operation (nothing is stored); a replay is the stored edit's.
    let operation_id = rec.tx.operation_id.filter(|_| replayed || !dry_run);
    transaction.operation_id = operation_id;
    Edited {
        vault: m.vault_ref(),
        currency: m.currency,
        transaction,
        balances: shown(&rec.balances, m.currency),
        changed: true,
        replayed,
        dry_run,
        current,
        operation_id,
    }
}

/// Every account the entry touches before or after the edit: the new ones first, in posting order.
fn touched(old: &TxRec, new: &TxRec) -> Vec<AccountId> {
    let mut ids: Vec<AccountId> = Vec::new();
    for p in new.postings.iter().chain(&old.postings) {
        if !ids.contains(&p.account_id) {
            ids.push(p.account_id);
        }
    }
    ids
}

impl Ledger {
    /// Correct a transaction in place: same id, new version, the previous one kept
    /// (see [`TransactionEdit`]). Idempotent per `idempotency_key`, like recording.
    pub async fn edit_transaction(
        &self,
        who: &PersonId,
        input: TransactionEdit,
    ) -> Result<Edited, LedgerError> {
        edit(self, who, input).await
    }
}
