//! The names the ledger itself gives: the equity account opening balances post
//! against, and the memos of opening entries. A vault named in Hangul, or a KRW vault
//! in Asia/Seoul, gets them in Korean (기초잔액, "신한카드 기초잔액"); others in
//! English ("Opening Balances", "Opening balance of …").
//!
//! The stored name is what counts: a vault that already has the equity account
//! under either name keeps using it (and its language for memos), so existing
//! vaults keep their English names without any migration.

use super::resolve::Catalogue;
use crate::api::LedgerError;
use crate::stored::account::AccountRec;
use crate::stored::member::Membership;
use dochiya_domain::{AccountKind, Name, NameKey};

/// The Korean name of the opening-balance equity account.
pub const KOREAN_OPENING_EQUITY: &str = "기초잔액";

/// Both languages' names of the opening-balance equity account.
pub(super) struct SystemNames {
    english: Name,
    korean: Name,
}

/// The equity account an opening balance posts against.
pub(super) enum Equity<'c> {
    /// The vault has it (under either name).
    Existing(&'c AccountRec),
    /// It is to be created with this name.
    New(&'c Name),
    /// The vault's own name for it belongs to an account of another kind.
    Taken(&'c AccountRec),
}

impl SystemNames {
    /// The names, with the English one from the configuration.
    pub fn new(english: &str) -> Result<Self, LedgerError> {
        let parse = |n: &str| Name::parse(n).map_err(|e| LedgerError::internal(e.to_string()));
        Ok(SystemNames {
            english: parse(english)?,
            korean: parse(KOREAN_OPENING_EQUITY)?,
        })
    }

    /// The system name `key` is, if it is one (in either language).
    pub fn equity_named(&self, key: &NameKey) -> Option<&Name> {
        [&self.english, &self.korean].into_iter().find(|n| n.key() == key)
    }

    /// The equity account openings of this vault post against: a live equity account
    /// under the vault's own name or the other one, else a new one under the vault's.
    pub fn equity<'c>(&'c self, cat: &'c Catalogue, m: &Membership) -> Equity<'c> {
        let (own, other) = if korean(m) {
            (&self.korean, &self.english)
        } else {
            (&self.english, &self.korean)
        };
        let equity = |n: &Name| cat.live(n.key()).filter(|a| a.kind == AccountKind::Equity);
        if let Some(a) = equity(own).or_else(|| equity(other)) {
            return Equity::Existing(a);
        }
        match cat.live(own.key()) {
            Some(a) => Equity::Taken(a),
            None => Equity::New(own),
        }
    }

    /// The memo of `account`'s opening entry, in the language of the equity account used.
    pub fn opening_memo(&self, equity: &AccountRec, account: &str) -> String {
        if &equity.name_key == self.korean.key() {
            format!("{account} {KOREAN_OPENING_EQUITY}")
        } else {
            format!("Opening balance of {account}")
        }
    }
}

/// Whether the vault gets Korean system names: its name is written in Hangul (the
/// people who named it read Korean, whatever its currency or zone: a Korean
/// household's yen account), or its currency is KRW and its zone Asia/Seoul.
fn korean(m: &Membership) -> bool {
    let hangul =
        |c: char| matches!(c, '\u{AC00}'..='\u{D7A3}' | '\u{1100}'..='\u{11FF}' | '\u{3130}'..='\u{318F}');
    m.name.chars().any(hangul) || (m.currency.code() == "KRW" && m.zone.name() == "Asia/Seoul")
}
