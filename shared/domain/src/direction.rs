//! How an entry reads from the kinds of its two sides. Every direction is
//! recorded (refunds are real), but the few a model most often gets backwards
//! are named, so a result can say how the entry reads and the model can check it.

use super::AccountKind;

/// How money moving from an account of one kind to another reads, when that is unusual.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reading {
    /// From an expense into an asset or liability: a refund (or spending entered backwards).
    Refund,
    /// From an asset or liability into income: income given back (or income entered backwards).
    IncomeReturned,
    /// From an expense into income: a refund counted as income.
    RefundAsIncome,
    /// Between two expense accounts: spending moved to another category.
    SpendingMoved,
    /// Between two income accounts: income moved to another category.
    IncomeMoved,
    /// Between equity and an income or expense account: an adjustment through equity.
    ThroughEquity,
}

/// How money leaving a `from` account and arriving at a `to` account reads; `None`
/// for the ordinary directions (spending, income received, transfers, card
/// payments, loans, opening balances, a deduction from income).
pub fn reading(from: AccountKind, to: AccountKind) -> Option<Reading> {
    use AccountKind::{Asset, Equity, Expense, Income, Liability};
    match (from, to) {
        (Expense, Asset | Liability) => Some(Reading::Refund),
        (Asset | Liability, Income) => Some(Reading::IncomeReturned),
        (Expense, Income) => Some(Reading::RefundAsIncome),
        (Expense, Expense) => Some(Reading::SpendingMoved),
        (Income, Income) => Some(Reading::IncomeMoved),
        (Equity, Income | Expense) | (Income | Expense, Equity) => Some(Reading::ThroughEquity),
        (Asset | Liability, Asset | Liability | Expense | Equity)
        | (Income, Asset | Liability | Expense)
        | (Equity, Asset | Liability | Equity) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use AccountKind::{Asset as A, Equity as Q, Expense as X, Income as I, Liability as L};

    /// Every one of the 25 pairs, written out: rows are `from`, columns `to`
    /// (asset, liability, income, expense, equity).
    #[test]
    fn every_pair_of_kinds_reads_as_the_table_says() {
        use Reading::*;
        let n = None;
        let table: [(AccountKind, [Option<Reading>; 5]); 5] = [
            (A, [n, n, Some(IncomeReturned), n, n]),
            (L, [n, n, Some(IncomeReturned), n, n]),
            (I, [n, n, Some(IncomeMoved), n, Some(ThroughEquity)]),
            (
                X,
                [
                    Some(Refund),
                    Some(Refund),
                    Some(RefundAsIncome),
                    Some(SpendingMoved),
                    Some(ThroughEquity),
                ],
            ),
            (Q, [n, n, Some(ThroughEquity), Some(ThroughEquity), n]),
        ];
        let columns = [A, L, I, X, Q];
        let mut checked = 0;
        for (from, row) in table {
            for (to, expected) in columns.into_iter().zip(row) {
                assert_eq!(reading(from, to), expected, "{from:?} → {to:?}");
                checked += 1;
            }
        }
        assert_eq!(checked, 25);
        assert_eq!(
            AccountKind::ALL.len(),
            5,
            "a new kind needs its row and column here"
        );
    }
}
