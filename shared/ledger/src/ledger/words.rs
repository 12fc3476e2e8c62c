//! Words that categorize (decision 061): an entry whose `to` is left out goes to the
//! expense account whose set word its memo contains, else to the account its memo's
//! first word was learned for. Set words live on the account item (`match`); what is
//! learned is kept per first word by every write (`LW#`, see `writer.rs`), so finding
//! a category is one read, never a scan of the entries.

use std::collections::BTreeMap;

use super::resolve::{Catalogue, join2, query_all};
use super::*;
use crate::api::{Field, Reason};
use crate::stored::account::AccountRec;
use crate::stored::member::Membership;
use crate::stored::word::{WordRec, first_word};
use crate::stored::{table, word};
use dochiya_domain::{AccountId, AccountKind, NameKey};

/// Most set words one account keeps.
pub const MAX_WORDS_PER_ACCOUNT: usize = 10;
/// Most set words one vault keeps.
pub const MAX_WORDS_PER_VAULT: usize = 200;
/// Longest set word, in characters.
pub const MAX_WORD_CHARS: usize = 30;

/// Whether `to` was left out: one `to` line with no account (the tools send that when
/// the memo's words are to choose the category).
pub(super) fn left_out(input: &NewSplit) -> bool {
    matches!(input.to.as_slice(), [line] if line.account.trim().is_empty())
}

/// How an entry was categorized: the word that matched and the account it chose.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Chosen {
    pub word: String,
    pub account: AccountRec,
    pub learned: bool,
}

/// The expense account `word` was learned for, if any: the latest correction when it
/// names a live expense account; else the one live expense account that two or more
/// live entries with the word went to, when none went to another.
pub(super) fn learned_for<'a>(rec: &WordRec, cat: &'a Catalogue) -> Option<&'a AccountRec> {
    let expense = |id: AccountId| {
        cat.by_id(id)
            .filter(|a| a.kind == AccountKind::Expense && !a.archived)
    };
    if let Some(a) = rec.fix.and_then(expense) {
        return Some(a);
    }
    let mut used = rec
        .counts
        .iter()
        .filter(|(_, n)| **n > 0)
        .filter_map(|(id, n)| expense(*id).map(|a| (a, *n)));
    match (used.next(), used.next()) {
        (Some((a, n)), None) if n >= 2 => Some(a),
        _ => None,
    }
}

/// The category `memo` means, with `word` the learned item of its first word (if read).
pub(super) fn choose(
    memo: &str,
    learned: Option<&WordRec>,
    cat: &Catalogue,
    m: &Membership,
) -> Result<Chosen, LedgerError> {
    let text = NameKey::of(memo);
    let mut set: Vec<(&AccountRec, &str)> = Vec::new();
    for a in cat
        .accounts
        .iter()
        .filter(|a| !a.archived && a.kind == AccountKind::Expense)
    {
        if let Some(w) = a
            .match_words
            .iter()
            .find(|w| text.as_str().contains(NameKey::of(w).as_str()))
        {
            set.push((a, w));
        }
    }
    // By name, so a refusal names them in one order every time.
    set.sort_by(|x, y| x.0.name.cmp(&y.0.name));
    match set.as_slice() {
        [(a, w)] => {
            return Ok(Chosen {
                word: (*w).to_string(),
                account: (*a).clone(),
                learned: false,
            });
        }
        [(a, w), (b, v), ..] => {
            return Err(LedgerError::invalid(
                Field::LineAccount {
                    side: crate::api::Side::To,
                    index: 0,
                },
                Reason::WordsOfTwo {
                    memo: memo.to_string(),
                    first: Box::new(((*w).to_string(), a.name.clone())),
                    second: Box::new(((*v).to_string(), b.name.clone())),
                },
            ));
        }
        [] => {}
    }
    if let (Some(rec), Some(word)) = (learned, first_word(memo))
        && let Some(a) = learned_for(rec, cat)
    {
        return Ok(Chosen {
            word,
            account: a.clone(),
            learned: true,
        });
    }
    let categories: Vec<String> = cat
        .accounts
        .iter()
        .filter(|a| !a.archived && a.kind == AccountKind::Expense)
        .map(|a| a.name.clone())
        .collect();
    Err(LedgerError::invalid(
        Field::LineAccount {
            side: crate::api::Side::To,
            index: 0,
        },
        Reason::NoWordMatches {
            memo: memo.to_string(),
            vault: m.name.clone(),
            categories,
        },
    ))
}

/// The word items of `memos`' first words, by word key (one read).
pub(super) async fn read_words(
    ledger: &Ledger,
    m: &Membership,
    memos: &[&str],
) -> Result<BTreeMap<String, WordRec>, LedgerError> {
    let keys: Vec<_> = memos
        .iter()
        .filter_map(|memo| first_word(memo))
        .map(|w| word::word(m.vault_id, &NameKey::of(&w)))
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect();
    let items = match keys.len() {
        0 => vec![],
        1 => vec![ledger.store.get(&keys[0]).await?],
        _ => ledger.store.get_many(&keys).await?,
    };
    let mut out = BTreeMap::new();
    for item in items.into_iter().flatten() {
        let rec = WordRec::from_attrs(&item.attrs)?;
        out.insert(NameKey::of(&rec.word).as_str().to_string(), rec);
    }
    Ok(out)
}

/// The category of each memo (in order) and the catalogue, in one round.
pub(super) async fn categorize(
    ledger: &Ledger,
    m: &Membership,
    memos: &[&str],
) -> Result<(Catalogue, Vec<Result<Chosen, LedgerError>>), LedgerError> {
    let (cat, words) = join2(super::resolve::catalogue(ledger, m), read_words(ledger, m, memos)).await;
    let (cat, words) = (cat?, words?);
    let chosen = memos
        .iter()
        .map(|memo| {
            let rec = first_word(memo).and_then(|w| words.get(NameKey::of(&w).as_str()));
            choose(memo, rec, &cat, m)
        })
        .collect();
    Ok((cat, chosen))
}

/// The vault's word items (one query), for [`learned_words`].
pub(super) async fn word_items(
    ledger: &Ledger,
    m: &Membership,
) -> Result<Vec<dochiya_store::Item>, LedgerError> {
    query_all(
        ledger.store.as_ref(),
        table::vault_pk(m.vault_id),
        word::words(),
        true,
    )
    .await
}

/// Every account's learned words, from the vault's word items.
pub(super) fn learned_words(
    items: &[dochiya_store::Item],
    cat: &Catalogue,
) -> Result<BTreeMap<AccountId, Vec<String>>, LedgerError> {
    let mut out: BTreeMap<AccountId, Vec<String>> = BTreeMap::new();
    for item in items {
        let rec = WordRec::from_attrs(&item.attrs)?;
        if let Some(a) = learned_for(&rec, cat) {
            out.entry(a.account_id).or_default().push(rec.word.clone());
        }
    }
    Ok(out)
}

/// A set of words as given, checked: each one line of 1–30 characters, at most 10, none
/// another account's set word, and the vault's total bounded.
pub(super) fn checked_words(
    words: &[String],
    a: &AccountRec,
    cat: &Catalogue,
) -> Result<Vec<String>, LedgerError> {
    let field = Field::Category("match");
    if a.kind != AccountKind::Expense {
        return Err(LedgerError::invalid(
            field,
            Reason::WordsNotExpense {
                account: a.name.clone(),
                kind: a.kind,
            },
        ));
    }
    if words.len() > MAX_WORDS_PER_ACCOUNT {
        return Err(LedgerError::invalid(
            field,
            Reason::TooManyWords {
                max: MAX_WORDS_PER_ACCOUNT,
                got: words.len(),
            },
        ));
    }
    let mut out: Vec<String> = Vec::new();
    for w in words {
        let w = w.trim();
        if w.is_empty() || w.chars().count() > MAX_WORD_CHARS || w.chars().any(char::is_control) {
            return Err(LedgerError::invalid(
                field,
                Reason::BadWord {
                    word: w.to_string(),
                    max: MAX_WORD_CHARS,
                },
            ));
        }
        let key = NameKey::of(w);
        if let Some(other) = cat
            .accounts
            .iter()
            .filter(|o| o.account_id != a.account_id && !o.archived)
            .find(|o| o.match_words.iter().any(|x| NameKey::of(x) == key))
        {
            return Err(LedgerError::invalid(
                field,
                Reason::WordTaken {
                    word: w.to_string(),
                    account: other.name.clone(),
                },
            ));
        }
        if !out.iter().any(|x| NameKey::of(x) == key) {
            out.push(w.to_string());
        }
    }
    let elsewhere: usize = cat
        .accounts
        .iter()
        .filter(|o| o.account_id != a.account_id)
        .map(|o| o.match_words.len())
        .sum();
    if elsewhere + out.len() > MAX_WORDS_PER_VAULT {
        return Err(LedgerError::invalid(
            field,
            Reason::TooManyVaultWords {
                max: MAX_WORDS_PER_VAULT,
                elsewhere,
            },
        ));
    }
    Ok(out)
}
