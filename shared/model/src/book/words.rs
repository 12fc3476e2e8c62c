//! Words that categorize (docs/tools.md, "Words that categorize" and `update_account`
//! `match`; decision 061): an expense category's set words, the words the entries'
//! memos teach, and the category an entry sent without `to` goes to.
//!
//! Written from the contract: a word's counts are not kept by the model as the ledger
//! keeps its word items, they are counted again from the live entries every time (each
//! live entry with that first word, once on each account it moved money into: its
//! debit postings, whoever or whatever recorded it, a void and an undo moving them as
//! they move the entries); `match: []` remembers where a learned word's count stood on
//! that account, so it starts again from 0.
//!
//! Readings where the contract leaves room, each the ledger's too: "none went to another
//! category" counts live expense categories only (a bank, a card or an archived
//! category stops nothing); `[]` clears the words learned for the account (a word it
//! merely holds a count of keeps it); an undo of an edit corrects like an edit (the
//! ledger writes it as one); any member may set words (see `accounts.rs`); a learned
//! word is compared folded (the server writes it as a memo did, `Opening`).
//! `update_account`'s result lists `match: []` after a clear (compared as absent).
//! Not generated: the vault's 200-word bound, an empty word, a memo's NFKC forms.

use std::collections::BTreeMap;

use serde_json::{Value, json};

use super::{Book, Content, Kind, fold};

/// The most words an account is set (docs/tools.md, "Words that categorize").
pub const MAX_WORDS: usize = 10;
/// The most characters of a word.
pub const MAX_WORD_CHARS: usize = 30;
/// How many live entries with a word teach it (with none going to another account).
const TEACHES: i64 = 2;

/// What chose an entry's category: the word, the category, and whether it was learned.
#[derive(Debug, Clone, PartialEq)]
pub struct Categorized {
    /// The set word the memo holds, or the memo's learned first word.
    pub word: String,
    /// The category.
    pub account: usize,
    /// Learned from the entries (else set with `match`).
    pub learned: bool,
}

/// The word a memo teaches: its first whitespace-separated word, letters only, folded
/// like names; none when fewer than two letters are left.
pub fn first_word(memo: &str) -> Option<String> {
    let letters: String = memo
        .split_whitespace()
        .next()?
        .chars()
        .filter(|c| c.is_alphabetic())
        .collect();
    let word = fold(&letters);
    (word.chars().count() >= 2).then_some(word)
}

/// The accounts an entry moved money into (its debit postings), each once, in line order.
fn debited(c: &Content) -> Vec<usize> {
    let mut out: Vec<usize> = Vec::new();
    for (a, x) in c.lines() {
        if x > 0 && !out.contains(&a) {
            out.push(a);
        }
    }
    out
}

/// Each (word, account) count, from the live entries alone.
type Counts = BTreeMap<(String, usize), i64>;

impl Book {
    /// A live expense category.
    fn live_expense(&self, a: usize) -> bool {
        let account = &self.accounts[a];
        account.kind == Kind::Expense && account.handle.is_none()
    }

    /// Every live entry's first word, once on each account it moved money into.
    fn raw_counts(&self) -> Counts {
        let mut counts = Counts::new();
        for (_, e) in self.live() {
            let Some(word) = first_word(&e.content.memo) else {
                continue;
            };
            for a in debited(&e.content) {
                *counts.entry((word.clone(), a)).or_insert(0) += 1;
            }
        }
        counts
    }

    /// The counts now: from the live entries, less where each stood when `match: []`
    /// cleared what was learned for its account.
    pub fn word_counts(&self) -> Counts {
        let mut counts = self.raw_counts();
        for (k, base) in &self.word_base {
            *counts.entry(k.clone()).or_insert(0) -= base;
        }
        counts
    }

    /// The category `word` is learned for: its latest correction when that is a live
    /// expense category; else the one live expense category two or more entries with
    /// it went to, when none went to another (docs/tools.md: "another category";
    /// decision 061: "the one live expense category ..., when none went to another":
    /// money the word moved into a bank, a card or an archived category stops nothing).
    fn learned(&self, word: &str, counts: &Counts) -> Option<usize> {
        if let Some(&a) = self.fixes.get(word)
            && self.live_expense(a)
        {
            return Some(a);
        }
        let went: Vec<(usize, i64)> = counts
            .iter()
            .filter(|((w, a), c)| w == word && **c > 0 && self.live_expense(*a))
            .map(|((_, a), c)| (*a, *c))
            .collect();
        match went[..] {
            [(a, c)] if c >= TEACHES => Some(a),
            _ => None,
        }
    }

    /// Every learned word and its category.
    pub fn learned_words(&self) -> BTreeMap<String, usize> {
        let counts = self.word_counts();
        let mut words: Vec<String> = counts.keys().map(|k| k.0.clone()).collect();
        words.extend(self.fixes.keys().cloned());
        words.sort();
        words.dedup();
        words
            .into_iter()
            .filter_map(|w| self.learned(&w, &counts).map(|a| (w, a)))
            .collect()
    }

    /// The category an entry with `memo` and no `to` goes to: the live category whose
    /// set word the memo holds (two categories: refused), else the one its first word
    /// is learned for; `None` when refused.
    pub fn categorize(&self, memo: &str) -> Option<Categorized> {
        let folded = fold(memo);
        let hits: Vec<(usize, &String)> = (0..self.accounts.len())
            .filter(|&a| self.live_expense(a))
            .filter_map(|a| {
                let words = &self.accounts[a].words;
                words.iter().find(|w| folded.contains(&fold(w))).map(|w| (a, w))
            })
            .collect();
        match hits[..] {
            [(account, word)] => Some(Categorized {
                word: word.clone(),
                account,
                learned: false,
            }),
            [] => {
                let word = first_word(memo)?;
                let account = self.learned(&word, &self.word_counts())?;
                Some(Categorized {
                    word,
                    account,
                    learned: true,
                })
            }
            _ => None,
        }
    }

    /// `categorizedBy` as compared: `[word, account, learned]`.
    pub fn categorized_view(&self, c: Option<&Categorized>) -> Value {
        c.map_or(Value::Null, |c| {
            json!([c.word, self.accounts[c.account].reference(), c.learned])
        })
    }

    /// An account's `match` as compared: its set words in order, and its learned words
    /// (docs/tools.md lists them after the set ones and says no order among them: a
    /// set, sorted here); null when it has none.
    pub fn match_view(&self, a: usize) -> Value {
        let set = &self.accounts[a].words;
        let learned: Vec<String> = self
            .learned_words()
            .into_iter()
            .filter(|(_, b)| *b == a)
            .map(|(w, _)| w)
            .collect();
        if set.is_empty() && learned.is_empty() {
            return Value::Null;
        }
        json!({"set": set, "learned": learned})
    }

    /// `update_account` `match`: a live expense category's words, at most 10 of at
    /// most 30 characters, none another account's; `[]` clears its set words and what
    /// was learned for it (its counts from 0 again, a correction to it removed).
    /// `changed`, or `None` when refused.
    pub fn set_words(&mut self, a: usize, words: &[String], allowed: bool) -> Option<bool> {
        let account = &self.accounts[a];
        let fits = |w: &String| (1..=MAX_WORD_CHARS).contains(&w.chars().count());
        let taken = |w: &String| {
            self.accounts
                .iter()
                .enumerate()
                .any(|(b, x)| b != a && x.words.iter().any(|v| fold(v) == fold(w)))
        };
        if !allowed
            || account.kind != Kind::Expense
            || account.handle.is_some()
            || words.len() > MAX_WORDS
            || !words.iter().all(fits)
            || words.iter().any(taken)
        {
            return None;
        }
        if !words.is_empty() {
            let changed = account.words != words;
            self.accounts[a].words = words.to_vec();
            return Some(changed);
        }
        // What was learned for it: each word learned for it now, whose count on it
        // starts again from 0 and whose correction to it goes. (Decision 061 says "its
        // counts set to 0"; docs/tools.md "clears ... what was learned for the
        // account": a word it merely holds a count of, learned for no one, keeps it, as
        // the ledger does.) `changed` when there were set words or something learned.
        let learned: Vec<String> = self
            .learned_words()
            .into_iter()
            .filter(|(_, b)| *b == a)
            .map(|(w, _)| w)
            .collect();
        let changed = !account.words.is_empty() || !learned.is_empty();
        let raw = self.raw_counts();
        for w in learned {
            let key = (w.clone(), a);
            let base = raw.get(&key).copied().unwrap_or(0);
            self.word_base.insert(key, base);
            if self.fixes.get(&w) == Some(&a) {
                self.fixes.remove(&w);
            }
        }
        self.accounts[a].words.clear();
        Some(changed)
    }

    /// An edit that keeps the memo's first word and moves the entry to another account
    /// makes that account the word's correction (the latest wins): the first account
    /// the entry now moves money into that it did not before.
    pub fn correct(&mut self, old: &Content, new: &Content) {
        let (Some(word), Some(now)) = (first_word(&old.memo), first_word(&new.memo)) else {
            return;
        };
        if word != now {
            return;
        }
        let before = debited(old);
        if let Some(&a) = debited(new).iter().find(|a| !before.contains(a)) {
            self.fixes.insert(word, a);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::first_word;

    #[test]
    fn a_memo_teaches_its_first_word_in_letters() {
        assert_eq!(first_word("스타벅스 라떼").as_deref(), Some("스타벅스"));
        assert_eq!(first_word("  Coffee!! beans").as_deref(), Some("coffee"));
        assert_eq!(first_word("7eleven 간식").as_deref(), Some("eleven"));
        assert_eq!(first_word("a cup"), None);
        assert_eq!(first_word(""), None);
    }
}
