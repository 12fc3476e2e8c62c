//! Recording (simple and split) and voiding transactions.
//!
//! A record is one atomic write of: the idempotency record (with the result,
//! so a retry returns it), the membership check, the transaction (by date and
//! by id), the duplicate guard, and every balance and rollup it changes.
//! Reads before it: one round of the idempotency record, the account catalogue
//! and the duplicate guard (plus the caller's roster first when this instance
//! has not cached it; see `roster.rs`).

use std::collections::BTreeMap;

use super::accounts::{membership_check, vault_gone};
use super::codec::{GuardRec, IdemRec, Membership, PostingRec, TxRec, content_hash, sv};
use super::effects::{balance_op, net_by_account, rollup_ops};
use super::resolve::{Catalogue, catalogue, join2, retrying};
use super::roster::{InVault, in_vault};
use super::*;
use crate::domain::{Currency, Money, NameKey};
use crate::error::Entity;
use crate::keys;
use crate::store::{Condition, Item, StoreError, TTL_ATTRIBUTE, Value, WriteOp};

use crate::domain::limits::{MAX_IDEMPOTENCY_KEY_CHARS, MAX_MEMO_CHARS};

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
    simple: bool,
) -> Result<Recorded, LedgerError> {
    let key = input.idempotency_key.trim();
    if key.is_empty() || key.chars().count() > MAX_IDEMPOTENCY_KEY_CHARS || key.chars().any(char::is_control)
    {
        return Err(LedgerError::invalid(
            "idempotencyKey",
            format!(
                "make up a key of 1–{MAX_IDEMPOTENCY_KEY_CHARS} characters for this entry (for example a UUID) and reuse it unchanged if you retry this same entry"
            ),
        ));
    }
    let memo = clean_memo(input.memo.as_deref(), "memo")?;
    if input.from.is_empty() || input.to.is_empty() {
        return Err(LedgerError::invalid(
            if input.from.is_empty() { "from" } else { "to" },
            "a transaction needs at least one `from` line and one `to` line",
        ));
    }
    let lines = input.from.len() + input.to.len();
    if lines > ledger.config.max_postings {
        return Err(LedgerError::invalid(
            "to",
            format!(
                "a transaction may have at most {} lines in total; it has {lines}",
                ledger.config.max_postings
            ),
        ));
    }
    for (side, list) in [("from", &input.from), ("to", &input.to)] {
        for (i, l) in list.iter().enumerate() {
            let field = if simple {
                "amount".to_string()
            } else {
                format!("{side}[{i}].amount")
            };
            if l.amount.is_zero() {
                return Err(LedgerError::invalid(
                    field,
                    "the amount is zero; record only amounts that moved",
                ));
            }
            if l.amount.is_negative() {
                return Err(LedgerError::invalid(
                    field,
                    "amounts are positive; the direction is given by `from` (money leaves) and `to` (money arrives), so swap them instead of using a minus sign",
                ));
            }
        }
    }
    retrying(|| {
        in_vault(ledger, who, input.vault.as_deref(), |v| {
            attempt(ledger, who, &input, key, &memo, simple, v)
        })
    })
    .await
}

/// Validate a memo: trimmed, no control characters, at most [`MAX_MEMO_CHARS`].
pub(super) fn clean_memo(memo: Option<&str>, field: &str) -> Result<String, LedgerError> {
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

fn to_lines(
    list: &[SplitLine],
    side: &str,
    simple: bool,
    currency: Currency,
) -> Result<Vec<Line>, LedgerError> {
    list.iter()
        .enumerate()
        .map(|(i, l)| {
            let field = if simple {
                "amount".to_string()
            } else {
                format!("{side}[{i}].amount")
            };
            let money =
                Money::from_decimal(l.amount, currency).map_err(|e| LedgerError::from_parse(field, e))?;
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

async fn attempt(
    ledger: &Ledger,
    who: &PersonId,
    input: &NewSplit,
    key: &str,
    memo: &str,
    simple: bool,
    v: InVault,
) -> Result<Recorded, LedgerError> {
    let store = ledger.store.as_ref();
    let ik_key = keys::idempotency(who, key);
    let m = v.m.clone();
    let to = to_lines(&input.to, "to", simple, m.currency)?;
    let from = to_lines(&input.from, "from", simple, m.currency)?;
    let fingerprint = [
        "v1".to_string(),
        m.vault_id.to_string(),
        input.date.map(|d| d.to_string()).unwrap_or_default(),
        memo.to_string(),
        describe(&to),
        describe(&from),
    ]
    .join("\u{1e}");
    let now = ledger.clock.now();
    let (now_s, now_ms) = (now.as_second(), now.as_millisecond());
    let date = input.date.unwrap_or_else(|| m.today(ledger));
    let guard_hash = content_hash(&[
        &m.vault_id.to_string(),
        &date.to_string(),
        memo,
        &describe(&to),
        &describe(&from),
    ]);
    let guard_key = keys::duplicate_guard(m.vault_id, &guard_hash);
    // One round: was this entry already written (idempotency record), the accounts
    // (names, kinds, balances) and the duplicate guard. With allowDuplicate the
    // guard is not consulted, only moved to this transaction.
    let guard_read = async {
        if input.allow_duplicate {
            Ok(None)
        } else {
            store.get(&guard_key).await
        }
    };
    let ((ik, cat), guard) = join2(join2(store.get(&ik_key), catalogue(ledger, &m)), guard_read).await;
    let ik = ik?.map(|i| IdemRec::from_attrs(&i.attrs)).transpose()?;
    // DynamoDB deletes expired items lazily: an expired record counts as absent.
    let (live_ik, expired_ik) = match ik {
        Some(r) if r.expires_at > now_s => (Some(r), None),
        Some(r) => (None, Some(r.expires_at)),
        None => (None, None),
    };
    if let Some(r) = live_ik {
        return replay(r, &fingerprint, key, &m, input.dry_run);
    }
    let cat = cat?;
    let guard = guard?.map(|g| GuardRec::from_attrs(&g.attrs)).transpose()?;

    let mut postings = Vec::with_capacity(to.len() + from.len());
    for (lines, sign) in [(&to, 1i64), (&from, -1i64)] {
        for l in lines {
            let a = cat.resolve(&l.name, false, &m)?;
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
    if let Some(p) = postings
        .iter()
        .find(|p| p.amount < 0 && debit_ids.contains(&p.account_id))
    {
        return Err(LedgerError::invalid(
            if simple { "to" } else { "from" },
            format!(
                "\"{}\" is on both sides; a transaction moves money between different accounts",
                p.name
            ),
        ));
    }
    let sum = |lines: &[Line]| lines.iter().try_fold(0i64, |acc, l| acc.checked_add(l.minor));
    let (debits, credits) = match (sum(&to), sum(&from)) {
        (Some(d), Some(c)) => (d, c),
        _ => return Err(LedgerError::invalid("amount", "the amounts are out of range")),
    };
    if debits != credits {
        let money = |v| Money::from_minor(v, m.currency);
        return Err(LedgerError::Unbalanced {
            debits: money(debits),
            credits: money(credits),
            difference: money(
                debits
                    .checked_sub(credits)
                    .ok_or_else(|| LedgerError::invalid("amount", "the amounts are out of range"))?,
            ),
        });
    }

    let window_ms = i64::try_from(ledger.config.duplicate_window.as_millis()).unwrap_or(i64::MAX);
    if let Some(g) = guard
        .as_ref()
        .filter(|g| !input.allow_duplicate && now_ms.saturating_sub(g.recorded_at_ms) < window_ms)
    {
        // Rare path: was the earlier one voided, or is it this very entry landing from a concurrent retry?
        let got = store
            .get_many(&[
                ik_key.clone(),
                keys::transaction_by_id(m.vault_id, g.transaction_id),
            ])
            .await?;
        if let Some(Some(item)) = got.first() {
            return replay(
                IdemRec::from_attrs(&item.attrs)?,
                &fingerprint,
                key,
                &m,
                input.dry_run,
            );
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
    }

    let id = TransactionId::generate(now_ms, ledger.entropy.next_u64());
    let tx = TxRec {
        id,
        date,
        memo: memo.to_string(),
        voided: false,
        recorded_at_ms: now_ms,
        postings,
    };
    let nets = net_by_account(&tx.postings, 1)?;
    let mut balances = Vec::new();
    for p in &tx.postings {
        if balances.iter().any(|(id, _, _)| *id == p.account_id) {
            continue;
        }
        let a = cat
            .by_id(p.account_id)
            .ok_or_else(|| LedgerError::internal("resolved account vanished"))?;
        let net = a.net.checked_add(nets.get(&p.account_id).copied().unwrap_or(0));
        let natural = net
            .and_then(|n| a.kind.natural(n))
            .ok_or_else(|| LedgerError::invalid("amount", "the balance would be out of range"))?;
        balances.push((a.account_id, a.name.clone(), natural));
    }
    let rec = IdemRec {
        fingerprint,
        vault_id: m.vault_id,
        tx: tx.clone(),
        balances,
        expires_at: now_s
            .saturating_add(i64::try_from(ledger.config.idempotency_ttl.as_secs()).unwrap_or(i64::MAX)),
    };
    let result = recorded(&rec, &m, false, input.dry_run);
    if input.dry_run {
        return Ok(result);
    }

    let mut ops = vec![
        WriteOp::Put {
            item: Item {
                key: ik_key,
                attrs: rec.to_attrs(),
            },
            condition: Some(match expired_ik {
                Some(old) => Condition::AttrEquals(TTL_ATTRIBUTE.into(), Value::N(old)),
                None => Condition::NotExists,
            }),
        },
        membership_check(who, &m),
        WriteOp::Put {
            item: Item {
                key: keys::transaction(m.vault_id, date, id),
                attrs: tx.to_attrs(),
            },
            condition: Some(Condition::NotExists),
        },
        WriteOp::Put {
            item: Item {
                key: keys::transaction_by_id(m.vault_id, id),
                attrs: tx.to_attrs(),
            },
            condition: Some(Condition::NotExists),
        },
        WriteOp::Put {
            item: Item {
                key: guard_key,
                attrs: GuardRec {
                    transaction_id: id,
                    date,
                    recorded_at_ms: now_ms,
                }
                .to_attrs(now_s.saturating_add(window_ms / 1000 + 60)),
            },
            condition: match (&guard, input.allow_duplicate) {
                (_, true) => None,
                (Some(g), false) => Some(Condition::AttrEquals(
                    "transactionId".into(),
                    sv(g.transaction_id.to_string()),
                )),
                (None, false) => Some(Condition::NotExists),
            },
        },
    ];
    for (&account, &net) in &nets {
        ops.push(balance_op(m.vault_id, account, net, true));
    }
    ops.extend(rollup_ops(m.vault_id, date, &nets));
    match v.commit(ledger, who, ops).await {
        Ok(()) => Ok(result),
        // The key was claimed between our read and our write (a concurrent retry of this entry).
        Err(StoreError::ConditionFailed {
            index: 0,
            current: Some(item),
        }) => replay(
            IdemRec::from_attrs(&item.attrs)?,
            &rec.fingerprint,
            key,
            &m,
            false,
        ),
        Err(StoreError::ConditionFailed { index: 1, .. }) => Err(vault_gone(&m)),
        // A guard moved, an account was archived, or ids collided: decide again on fresh reads.
        Err(StoreError::ConditionFailed { .. }) => Err(LedgerError::Conflict),
        Err(e) => Err(super::effects::refusing_overflow(e)),
    }
}

/// The stored result of an earlier call with the same key, or a refusal if the arguments differ.
fn replay(
    rec: IdemRec,
    fingerprint: &str,
    key: &str,
    m: &Membership,
    dry_run: bool,
) -> Result<Recorded, LedgerError> {
    // The fingerprint names the vault, so a match is a record of this very vault.
    if rec.fingerprint != fingerprint || rec.vault_id != m.vault_id {
        return Err(LedgerError::IdempotencyKeyReused { key: key.to_string() });
    }
    Ok(recorded(&rec, m, true, dry_run))
}

fn recorded(rec: &IdemRec, m: &Membership, replayed: bool, dry_run: bool) -> Recorded {
    Recorded {
        vault: m.vault_ref(),
        currency: m.currency,
        transaction: view(&rec.tx, None, m.currency),
        balances: rec
            .balances
            .iter()
            .map(|(id, name, bal)| AccountBalance {
                account_id: *id,
                account: name.clone(),
                balance: Money::from_minor(*bal, m.currency),
            })
            .collect(),
        replayed,
        dry_run,
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
    }
}

pub(super) async fn void(
    ledger: &Ledger,
    who: &PersonId,
    vault: Option<&str>,
    id: TransactionId,
    reason: Option<&str>,
) -> Result<Voided, LedgerError> {
    let reason = clean_memo(reason, "reason")?;
    let reason = &reason;
    retrying(|| {
        in_vault(ledger, who, vault, |v| async move {
            let m = v.m.clone();
            let (tx, cat) = super::read::transaction_in(ledger, &m, id).await?;
            if tx.voided {
                return Ok(Voided {
                    vault: m.vault_ref(),
                    currency: m.currency,
                    transaction: view(&tx, Some(&cat), m.currency),
                    already_voided: true,
                });
            }
            let nets = net_by_account(&tx.postings, -1)?;
            let mark = BTreeMap::from([
                ("voided".into(), Value::Bool(true)),
                ("voidReason".into(), sv(reason.as_str())),
                ("voidedAt".into(), Value::N(ledger.clock.now().as_second())),
            ]);
            let unvoided = Some(Condition::AttrEquals("voided".into(), Value::Bool(false)));
            let mut ops = vec![
                membership_check(who, &m),
                WriteOp::Update {
                    key: keys::transaction(m.vault_id, tx.date, id),
                    set: mark.clone(),
                    add: BTreeMap::new(),
                    remove: vec![],
                    condition: unvoided.clone(),
                },
                WriteOp::Update {
                    key: keys::transaction_by_id(m.vault_id, id),
                    set: mark,
                    add: BTreeMap::new(),
                    remove: vec![],
                    condition: unvoided,
                },
            ];
            for (&account, &net) in &nets {
                ops.push(balance_op(m.vault_id, account, net, false));
            }
            ops.extend(rollup_ops(m.vault_id, tx.date, &nets));
            match v.commit(ledger, who, ops).await {
                Ok(()) => {
                    let voided = TxRec { voided: true, ..tx };
                    Ok(Voided {
                        vault: m.vault_ref(),
                        currency: m.currency,
                        transaction: view(&voided, Some(&cat), m.currency),
                        already_voided: false,
                    })
                }
                Err(StoreError::ConditionFailed { index: 0, .. }) => Err(vault_gone(&m)),
                // Voided concurrently: the next attempt reads it as already voided.
                Err(StoreError::ConditionFailed { .. }) => Err(LedgerError::Conflict),
                Err(e) => Err(super::effects::refusing_overflow(e)),
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
