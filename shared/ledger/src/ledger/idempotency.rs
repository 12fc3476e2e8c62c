//! Idempotent writes: a caller-chosen key claims one entry; a retry with the same
//! key and the same arguments gets the stored result back instead of a second entry.
//!
//! The record (`P#<sub>` / `IK#<key>`) holds the call's fingerprint and its result.
//! Before a write, the record read in the first round decides the [`NextAction`];
//! the write itself carries the claim, so two concurrent calls with one key
//! cannot both write: the loser's claim fails and it replays the winner's result.

use super::Recorded;
use super::guards::{IDEMPOTENCY_CLAIM, guard};
use super::view::view;
use crate::api::{Field, LedgerError, Reason};
use crate::stored::entry::TxRec;
use crate::stored::idempotency::IdemRec;
use crate::stored::member::Membership;
use crate::stored::table::content_hash;
use crate::stored::{entry, idempotency};
use dochiya_domain::PersonId;
use dochiya_domain::limits::MAX_IDEMPOTENCY_KEY_CHARS;
use dochiya_store::{Condition, Item, Key, TTL_ATTRIBUTE, Value, WriteOp};

/// A caller's idempotency key: trimmed, 1–[`MAX_IDEMPOTENCY_KEY_CHARS`] characters, no control characters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IdempotencyKey(String);

impl IdempotencyKey {
    /// Validate a key as the caller sent it.
    pub fn parse(raw: &str) -> Result<Self, LedgerError> {
        let key = raw.trim();
        if key.is_empty()
            || key.chars().count() > MAX_IDEMPOTENCY_KEY_CHARS
            || key.chars().any(char::is_control)
        {
            return Err(LedgerError::invalid(
                Field::IdempotencyKey,
                Reason::KeyLength {
                    max: MAX_IDEMPOTENCY_KEY_CHARS,
                },
            ));
        }
        Ok(Self(key.to_string()))
    }

    /// The key as text.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Where this person's record for the key is stored.
    pub(super) fn item_key(&self, who: &PersonId) -> Key {
        idempotency::idempotency(who, &self.0)
    }

    /// The origin a transaction recorded under this key carries (a hash of the
    /// record's item key; see [`TxRec::origin`]).
    pub(super) fn origin(&self, who: &PersonId) -> String {
        let k = self.item_key(who);
        content_hash(&["origin-v1", &k.pk, &k.sk])
    }

    /// The key of entry `index` of a batch keyed by `self`: the batch key, a unit
    /// separator, the position. A caller's key cannot hold a control character
    /// ([`IdempotencyKey::parse`]), so no single call's key names a batch entry's record.
    pub(super) fn for_entry(&self, index: usize) -> IdempotencyKey {
        IdempotencyKey(format!("{}\u{1f}{index}", self.0))
    }
}

/// What the stored record says to do with a call.
#[derive(Debug)]
pub(super) enum NextAction {
    /// No live record: do the work, and claim the key in the same write.
    Start(Claim),
    /// The key was used already: answer from the record (or refuse if the arguments differ).
    Replay(Box<IdemRec>),
}

/// The right to write the record for a key: only if absent, or still the expired one we read.
#[derive(Debug, Clone)]
pub(super) struct Claim {
    key: Key,
    expired_at: Option<i64>,
}

impl Claim {
    /// The record's item key.
    pub fn key(&self) -> &Key {
        &self.key
    }

    /// The write op that stores `rec` under the key, failing if another call claimed it first.
    pub fn op(&self, rec: &IdemRec) -> WriteOp {
        WriteOp::Put {
            item: Item {
                key: self.key.clone(),
                attrs: rec.to_attrs(),
            },
            guard: guard(
                IDEMPOTENCY_CLAIM,
                match self.expired_at {
                    Some(old) => Condition::AttrEquals(TTL_ATTRIBUTE.into(), Value::N(old)),
                    None => Condition::NotExists,
                },
            ),
        }
    }
}

/// Decide from the record read for `key` (if any) at `now_s` (epoch seconds).
pub(super) fn next_action(key: Key, stored: Option<Item>, now_s: i64) -> Result<NextAction, LedgerError> {
    let rec = stored.map(|i| IdemRec::from_attrs(&i.attrs)).transpose()?;
    // DynamoDB deletes expired items lazily: an expired record counts as absent.
    Ok(match rec {
        Some(r) if r.expires_at > now_s => NextAction::Replay(Box::new(r)),
        Some(r) => NextAction::Start(Claim {
            key,
            expired_at: Some(r.expires_at),
        }),
        None => NextAction::Start(Claim {
            key,
            expired_at: None,
        }),
    })
}

/// The result a record stands for.
pub(super) fn recorded(rec: &IdemRec, m: &Membership, replayed: bool, dry_run: bool) -> Recorded {
    Recorded {
        vault: m.vault_ref(),
        currency: m.currency,
        transaction: view(&rec.tx, None, m.currency),
        balances: super::today::shown(&rec.balances, m.currency),
        replayed,
        dry_run,
        current: None,
        note: None,
        operation_id: rec.tx.operation_id,
        categorized_by: rec.categorized_by.clone(),
    }
}

// ------------------------------------------------------------ the entry as it is now

/// The op that leaves `tx` as it is now (after a void or an edit) where replays of
/// the key that recorded it look (`TC#<origin>`); none for an entry without an origin.
/// It lives as long as that key's record can (`ttl_s` from now).
pub(super) fn changed_op(
    vault: dochiya_domain::VaultId,
    tx: &TxRec,
    now_s: i64,
    ttl_s: i64,
) -> Option<WriteOp> {
    let origin = tx.origin.as_deref()?;
    let mut attrs = tx.to_attrs();
    attrs.insert(TTL_ATTRIBUTE.into(), Value::N(now_s.saturating_add(ttl_s)));
    Some(WriteOp::Put {
        item: Item {
            key: entry::transaction_changed(vault, origin),
            attrs,
        },
        guard: None,
    })
}

/// The entry as it is now for a replay of `rec`, when it changed since (edited or
/// voided); `changed` is the `TC#` item read beside the record.
pub(super) fn changed_since(rec: &IdemRec, changed: Option<&Item>) -> Result<Option<TxRec>, LedgerError> {
    let Some(item) = changed else {
        return Ok(None);
    };
    let now = TxRec::from_item(item)?;
    // The key may have been used again after its record expired: only this entry counts.
    Ok((now.id == rec.tx.id && (now.version != rec.tx.version || now.voided)).then_some(now))
}

/// How long idempotency records live, in seconds.
pub(super) fn ttl_s(ledger: &super::Ledger) -> i64 {
    i64::try_from(ledger.config.idempotency_ttl.as_secs()).unwrap_or(i64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stored(expires_at: i64) -> Item {
        let rec = IdemRec {
            fingerprint: "f".into(),
            vault_id: dochiya_domain::VaultId::from_uuid(uuid::Uuid::nil()),
            tx: entry::TxRec::new(
                dochiya_domain::TransactionId::from_u64((1 << 53) + 1).unwrap(),
                dochiya_domain::LocalDate::parse("2026-03-09").unwrap(),
                String::new(),
                0,
                None,
                vec![],
            ),
            balances: vec![],
            expires_at,
            categorized_by: None,
        };
        Item {
            key: Key::new("P#a", "IK#k"),
            attrs: rec.to_attrs(),
        }
    }

    fn claim_condition(action: NextAction) -> Option<Condition> {
        let NextAction::Start(claim) = action else {
            panic!("expected Start, got {action:?}")
        };
        let rec = IdemRec::from_attrs(&stored(0).attrs).unwrap();
        match claim.op(&rec) {
            WriteOp::Put { guard: Some(g), .. } => {
                assert_eq!(g.name, IDEMPOTENCY_CLAIM);
                Some(g.condition)
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_record_keeps_how_words_categorized_its_entry() {
        let mut rec = IdemRec::from_attrs(&stored(5).attrs).unwrap();
        assert_eq!(rec.categorized_by, None);
        rec.categorized_by = Some(crate::api::CategorizedBy {
            word: "이마트".into(),
            account: "식비".into(),
            learned: true,
        });
        assert_eq!(IdemRec::from_attrs(&rec.to_attrs()).unwrap(), rec);
    }

    #[test]
    fn a_live_record_replays_and_an_expired_or_missing_one_is_claimed() {
        let key = Key::new("P#a", "IK#k");
        match next_action(key.clone(), Some(stored(101)), 100).unwrap() {
            NextAction::Replay(r) => assert_eq!(r.expires_at, 101),
            other => panic!("{other:?}"),
        }
        // Expired at exactly now: DynamoDB may still return it; it counts as absent.
        assert_eq!(
            claim_condition(next_action(key.clone(), Some(stored(100)), 100).unwrap()),
            Some(Condition::AttrEquals(TTL_ATTRIBUTE.into(), Value::N(100)))
        );
        assert_eq!(
            claim_condition(next_action(key, None, 100).unwrap()),
            Some(Condition::NotExists)
        );
    }

    #[test]
    fn keys_are_trimmed_and_bounded() {
        assert_eq!(IdempotencyKey::parse("  k-1 ").unwrap().as_str(), "k-1");
        for bad in ["", "   ", "a\nb"] {
            assert!(
                matches!(
                    IdempotencyKey::parse(bad),
                    Err(LedgerError::InvalidInput {
                        field: Field::IdempotencyKey,
                        ..
                    })
                ),
                "{bad:?}"
            );
        }
        let longest = "k".repeat(MAX_IDEMPOTENCY_KEY_CHARS);
        assert!(IdempotencyKey::parse(&longest).is_ok());
        assert!(IdempotencyKey::parse(&format!("{longest}k")).is_err());
    }

    #[test]
    fn batch_entry_keys_are_apart_from_every_callers_key() {
        let batch = IdempotencyKey::parse("statement").unwrap();
        let who = PersonId::new("a").unwrap();
        assert_eq!(
            batch.for_entry(7).item_key(&who),
            Key::new("P#a", "IK#statement\u{1f}7")
        );
        assert_ne!(batch.for_entry(1), batch.for_entry(11));
        // The separator is a control character, which no caller's key may hold.
        assert!(IdempotencyKey::parse("statement\u{1f}7").is_err());
    }
}
