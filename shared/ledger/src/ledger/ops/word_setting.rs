//! `update_account` with `match`: set an expense account's words, or clear them and
//! what was learned for it (decision 061); how words categorize is `words.rs`.

use std::collections::BTreeMap;

use crate::ledger::resolve::{catalogue, join2, query_all, retrying};
use crate::ledger::roster::in_vault;
use crate::ledger::words::{checked_words, learned_for};
use crate::ledger::*;
use crate::stored::account::MATCH;
use crate::stored::table::{sv, tag_net_attr};
use crate::stored::word::{WORD_FIX, WordRec};
use crate::stored::{account, table, word};
use dochiya_store::{Value, WriteOp};

pub(in crate::ledger) async fn set_words(
    ledger: &Ledger,
    who: &PersonId,
    vault: Option<&str>,
    account: &str,
    words: &[String],
) -> Result<WordsSet, LedgerError> {
    retrying(|| {
        in_vault(ledger, who, vault, |v| async move {
            let m = v.membership.clone();
            let (cat, items) = join2(
                catalogue(ledger, &m),
                query_all(
                    ledger.store.as_ref(),
                    table::vault_pk(m.vault_id),
                    word::words(),
                    true,
                ),
            )
            .await;
            let (cat, items) = (cat?, items?);
            let a = cat.resolve(account, false, &m)?.clone();
            let set = checked_words(words, &a, &cat)?;
            let learned: Vec<WordRec> = items
                .iter()
                .map(|i| WordRec::from_attrs(&i.attrs))
                .collect::<Result<Vec<_>, _>>()?
                .into_iter()
                .filter(|r| learned_for(r, &cat).is_some_and(|l| l.account_id == a.account_id))
                .collect();
            // `[]` clears what was learned for the account too.
            let clearing = set.is_empty() && !learned.is_empty();
            let shown = |learned: &[WordRec]| {
                set.iter()
                    .map(|w| WordOf {
                        word: w.clone(),
                        learned: false,
                    })
                    .chain(learned.iter().map(|r| WordOf {
                        word: r.word.clone(),
                        learned: true,
                    }))
                    .collect::<Vec<_>>()
            };
            let done = |changed, learned: &[WordRec]| WordsSet {
                vault: m.vault_ref(),
                account_id: a.account_id,
                name: a.name.clone(),
                kind: a.kind,
                words: shown(learned),
                changed,
            };
            if set == a.match_words && !clearing {
                return Ok(done(false, &learned));
            }
            let (attrs, remove) = if set.is_empty() {
                (BTreeMap::new(), vec![MATCH.to_string()])
            } else {
                (
                    BTreeMap::from([(MATCH.to_string(), Value::L(set.iter().map(sv).collect()))]),
                    vec![],
                )
            };
            let mut ops = vec![account::live_account_update(
                m.vault_id,
                a.account_id,
                attrs,
                remove,
            )];
            if clearing {
                for r in &learned {
                    ops.push(WriteOp::Update {
                        key: word::word(m.vault_id, &dochiya_domain::NameKey::of(&r.word)),
                        set: BTreeMap::from([(tag_net_attr(a.account_id), Value::N(0))]),
                        add: BTreeMap::new(),
                        remove: if r.fix == Some(a.account_id) {
                            vec![WORD_FIX.to_string()]
                        } else {
                            vec![]
                        },
                        guard: None,
                    });
                }
            }
            v.write(ledger, who, ops).await?;
            Ok(done(true, if clearing { &[] } else { &learned }))
        })
    })
    .await
}

impl Ledger {
    /// Set an expense account's words (`[]`: clear them, and what was learned for it).
    pub async fn set_account_words(
        &self,
        who: &PersonId,
        vault: Option<&str>,
        account: &str,
        words: &[String],
    ) -> Result<WordsSet, LedgerError> {
        set_words(self, who, vault, account, words).await
    }
}
