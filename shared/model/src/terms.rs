//! The words a step and the book share: an account's kind and a card's billing cycle.

/// An account's kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// 자산.
    Asset,
    /// 부채 (cards).
    Liability,
    /// 수입.
    Income,
    /// 지출.
    Expense,
    /// 자본 (the opening-balance account).
    Equity,
}

impl Kind {
    /// The contract's name for it.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Asset => "asset",
            Kind::Liability => "liability",
            Kind::Income => "income",
            Kind::Expense => "expense",
            Kind::Equity => "equity",
        }
    }

    /// A debit-positive amount in this kind's natural sign.
    pub fn natural(self, debit: i64) -> i64 {
        match self {
            Kind::Asset | Kind::Expense => debit,
            Kind::Liability | Kind::Income | Kind::Equity => -debit,
        }
    }
}

/// A card's billing cycle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Billing {
    /// Last day of the usage period (31: the month's last day).
    pub closing: u8,
    /// Day the bill is paid.
    pub payment: u8,
}
