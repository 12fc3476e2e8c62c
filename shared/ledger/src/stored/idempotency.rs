//! A person's idempotency records (`P#<sub>` / `IK#<key>`): a call's fingerprint and the
//! result a replay gives back.

use std::collections::BTreeMap;

use super::entry::TxRec;
use super::table::{corrupt, n, n_or_zero, parse_or_corrupt, person_pk, s, sv};
use crate::api::LedgerError;
use dochiya_domain::{AccountId, PersonId, VaultId};
use dochiya_store::{Attrs, Key, SkRange, TTL_ATTRIBUTE, Value};

/// Every idempotency record in a person's partition (a batch's operation claim too).
pub fn idempotency_records() -> SkRange {
    SkRange::Prefix("IK#".into())
}

/// An idempotency record of a person (`P#<sub>` / `IK#<key>`).
pub fn idempotency(who: &PersonId, key: &str) -> Key {
    Key::new(person_pk(who), format!("IK#{key}"))
}

/// An idempotency record: the call's fingerprint and its stored result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IdemRec {
    pub fingerprint: String,
    pub vault_id: VaultId,
    pub tx: TxRec,
    /// Each touched account's balance after the write (see [`StoredBalance`]).
    pub balances: Vec<StoredBalance>,
    pub expires_at: i64,
    /// How the memo's words chose its category, when `to` was left out (absent on
    /// records from before it was kept): a replay says what the first call said.
    pub categorized_by: Option<crate::api::CategorizedBy>,
}

/// An account's balance in a write's result, natural sign: as of the vault's today
/// when the write happened, and the net of entries dated after it (`scheduled`, 0:
/// none; records from before it was stored read as 0).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredBalance {
    pub account_id: AccountId,
    pub name: String,
    pub balance: i64,
    pub scheduled: i64,
}

impl IdemRec {
    /// This record as item attributes.
    pub fn to_attrs(&self) -> Attrs {
        let balances = self
            .balances
            .iter()
            .map(|b| {
                let mut m = BTreeMap::from([
                    ("accountId".into(), sv(b.account_id.to_string())),
                    ("name".into(), sv(&b.name)),
                    ("balance".into(), Value::N(b.balance)),
                ]);
                if b.scheduled != 0 {
                    m.insert("scheduled".into(), Value::N(b.scheduled));
                }
                Value::M(m)
            })
            .collect();
        let mut attrs = BTreeMap::from([
            ("fingerprint".into(), sv(&self.fingerprint)),
            ("vaultId".into(), sv(self.vault_id.to_string())),
            ("tx".into(), Value::M(self.tx.to_attrs())),
            ("balances".into(), Value::L(balances)),
            (TTL_ATTRIBUTE.into(), Value::N(self.expires_at)),
        ]);
        if let Some(c) = &self.categorized_by {
            attrs.insert(
                CATEGORIZED_BY.into(),
                Value::M(BTreeMap::from([
                    ("word".into(), sv(&c.word)),
                    ("account".into(), sv(&c.account)),
                    ("learned".into(), Value::Bool(c.learned)),
                ])),
            );
        }
        attrs
    }

    /// This record from an item's attributes (a missing or mistyped one is corrupt data).
    pub fn from_attrs(a: &Attrs) -> Result<Self, LedgerError> {
        let tx = match a.get("tx") {
            Some(Value::M(m)) => TxRec::from_attrs(m)?,
            _ => return Err(corrupt("tx")),
        };
        let balances = match a.get("balances") {
            Some(Value::L(list)) => list
                .iter()
                .map(|v| match v {
                    Value::M(m) => Ok(StoredBalance {
                        account_id: parse_or_corrupt(AccountId::parse(s(m, "accountId")?), "account id")?,
                        name: s(m, "name")?.to_string(),
                        balance: n(m, "balance")?,
                        scheduled: n_or_zero(m, "scheduled")?,
                    }),
                    _ => Err(corrupt("balances")),
                })
                .collect::<Result<Vec<_>, _>>()?,
            _ => return Err(corrupt("balances")),
        };
        Ok(IdemRec {
            fingerprint: s(a, "fingerprint")?.to_string(),
            vault_id: parse_or_corrupt(VaultId::parse(s(a, "vaultId")?), "vault id")?,
            tx,
            balances,
            expires_at: n(a, TTL_ATTRIBUTE)?,
            categorized_by: match a.get(CATEGORIZED_BY) {
                None => None,
                Some(Value::M(m)) => Some(crate::api::CategorizedBy {
                    word: s(m, "word")?.to_string(),
                    account: s(m, "account")?.to_string(),
                    learned: matches!(m.get("learned"), Some(Value::Bool(true))),
                }),
                Some(_) => return Err(corrupt(CATEGORIZED_BY)),
            },
        })
    }
}

/// Attribute of an idempotency record holding how its entry was categorized.
const CATEGORIZED_BY: &str = "categorizedBy";
