//! What a vault learned of memo first words (`V#<id>` / `LW#<wordKey>`; decision 061).

use std::collections::BTreeMap;

use super::table::{optional_s, parse_or_corrupt, per_account, s, vault_pk};
use crate::api::LedgerError;
use dochiya_domain::{AccountId, NameKey, VaultId};
use dochiya_store::{Attrs, Key, SkRange};

/// Prefix of a vault's word items (`LW#<wordKey>`; decision 061).
pub const WORD_PREFIX: &str = "LW#";

/// What a vault has learned of one memo first word: how many live entries with it went
/// to each account, and the account an edit last moved one to.
pub fn word(vault: VaultId, word: &NameKey) -> Key {
    Key::new(vault_pk(vault), format!("{WORD_PREFIX}{}", word.as_str()))
}

/// Every word item of a vault.
pub fn words() -> SkRange {
    SkRange::Prefix(WORD_PREFIX.into())
}

/// The first word of a memo as words are learned by: its first whitespace-separated
/// token with only its letters kept, two or more (`None`: no such word).
pub fn first_word(memo: &str) -> Option<String> {
    let word: String = memo
        .split_whitespace()
        .next()?
        .chars()
        .filter(|c| c.is_alphabetic())
        .collect();
    (word.chars().count() >= 2).then_some(word)
}

/// What a vault learned of one first word (`LW#<wordKey>`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WordRec {
    /// The word as last written.
    pub word: String,
    /// How many live entries with it moved money into each account.
    pub counts: BTreeMap<AccountId, i64>,
    /// The account an edit last moved an entry with it to (the latest correction).
    pub fix: Option<AccountId>,
}

/// Attribute of a word item naming the latest correction's account.
pub const WORD_FIX: &str = "fix";

impl WordRec {
    /// This record from an item's attributes.
    pub fn from_attrs(a: &Attrs) -> Result<Self, LedgerError> {
        let counts = per_account(a)?;
        Ok(WordRec {
            word: s(a, "word")?.to_string(),
            counts,
            fix: optional_s(a, WORD_FIX)?
                .map(|f| parse_or_corrupt(AccountId::parse(&f), WORD_FIX))
                .transpose()?,
        })
    }
}
