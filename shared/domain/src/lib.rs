//! Domain values, each parsed once at the edge and valid from then on:
//! money, ids, names, dates and account kinds.

use dochiya_quote::quote;
mod amount_text;
mod billing;
mod direction;
mod ids;
mod invite;
pub mod limits;
mod money;
mod name;
mod schedule;
pub mod scopes;
mod tag;
mod time;

#[cfg(test)]
mod properties_tests;

pub use amount_text::other_currency;
pub use billing::{
    BillDates, Billing, BillingError, Installments, MAX_INSTALLMENTS, MIN_INSTALLMENTS, installment_part,
    months_between,
};
pub use direction::{Reading, reading};
pub use ids::{
    AccountId, Entropy, OsEntropy, PersonId, SeededEntropy, TWO_POW_53, TransactionId, VaultId,
    is_usable_subject, random_uuid,
};
pub use invite::{InviteCode, handle_for};
pub use limits::MAX_NAME_CHARS;
pub use money::{Currency, Decimal, MAX_AMOUNT_MINOR, Money};
pub use name::{
    IdShape, Name, NameKey, archived_handle, closest_names, id_shape, invisible_in, is_archived_handle,
    without_invisible,
};
pub use schedule::{Every, MAX_DAY, Schedule, ScheduleError};
pub use tag::{Tag, parse_tags};
pub use time::{Clock, LocalDate, ManualClock, SystemClock, VaultZone, YearMonth};

use std::fmt;

/// Why a value could not be parsed: a sentence written for the model that sent it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct ParseError {
    message: String,
}

impl ParseError {
    /// A parse error with its explanation.
    pub fn new(message: impl Into<String>) -> Self {
        Self {
            message: message.into(),
        }
    }

    /// The explanation.
    pub fn message(&self) -> &str {
        &self.message
    }
}

/// What an account is; decides its natural sign.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum AccountKind {
    /// Things you own (bank accounts, cash); grows with debits.
    Asset,
    /// Things you owe (credit cards, loans); grows with credits.
    Liability,
    /// Money coming in (salary); grows with credits.
    Income,
    /// Money going out (food, transport); grows with debits.
    Expense,
    /// Opening balances and other owner's equity; grows with credits.
    Equity,
}

impl AccountKind {
    /// Every kind, in display order.
    pub const ALL: [AccountKind; 5] = [
        AccountKind::Asset,
        AccountKind::Liability,
        AccountKind::Income,
        AccountKind::Expense,
        AccountKind::Equity,
    ];

    /// Parse `asset`, `liability`, `income`, `expense` or `equity` (any case).
    pub fn parse(text: &str) -> Result<AccountKind, ParseError> {
        match text.trim().to_ascii_lowercase().as_str() {
            "asset" => Ok(AccountKind::Asset),
            "liability" => Ok(AccountKind::Liability),
            "income" => Ok(AccountKind::Income),
            "expense" => Ok(AccountKind::Expense),
            "equity" => Ok(AccountKind::Equity),
            other => Err(ParseError::new(format!(
                "{} is not an account kind; use asset, liability, income, expense or equity",
                quote(other)
            ))),
        }
    }

    /// The lowercase name used in arguments and results.
    pub fn as_str(self) -> &'static str {
        match self {
            AccountKind::Asset => "asset",
            AccountKind::Liability => "liability",
            AccountKind::Income => "income",
            AccountKind::Expense => "expense",
            AccountKind::Equity => "equity",
        }
    }

    /// Whether the kind grows with debits (assets, expenses).
    pub fn is_debit_normal(self) -> bool {
        matches!(self, AccountKind::Asset | AccountKind::Expense)
    }

    /// Whether its balance is money held or owed (assets, liabilities, equity), rather
    /// than a running total of what came in or went out (income, expense).
    pub fn holds_money(self) -> bool {
        !matches!(self, AccountKind::Income | AccountKind::Expense)
    }

    /// The balance in the kind's natural sign, from the debit-positive net of its postings.
    /// `None` only on overflow (negating `i64::MIN`).
    pub fn natural(self, debit_net: i64) -> Option<i64> {
        if self.is_debit_normal() {
            Some(debit_net)
        } else {
            debit_net.checked_neg()
        }
    }
}

impl fmt::Display for AccountKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn natural_signs_follow_the_kind() {
        // A +100 debit-positive net: an asset or expense grew, the others shrank.
        let signs: Vec<_> = AccountKind::ALL
            .iter()
            .map(|k| (k.as_str(), k.natural(100)))
            .collect();
        assert_eq!(
            signs,
            vec![
                ("asset", Some(100)),
                ("liability", Some(-100)),
                ("income", Some(-100)),
                ("expense", Some(100)),
                ("equity", Some(-100))
            ]
        );
        assert_eq!(AccountKind::Liability.natural(i64::MIN), None);
        assert_eq!(AccountKind::parse(" Expense ").unwrap(), AccountKind::Expense);
        assert!(
            AccountKind::parse("cash")
                .unwrap_err()
                .to_string()
                .contains("asset, liability, income, expense or equity")
        );
    }
}
