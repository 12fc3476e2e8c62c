//! A card's bill and billing cycle.

use super::*;
use dochiya_domain::{AccountId, AccountKind, Currency, LocalDate, Money, TransactionId};

/// One line of a card bill: a one-time charge or refund of its period, or one part of
/// an installment purchase.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BillItem {
    /// The transaction (for a part: the purchase).
    pub transaction_id: TransactionId,
    /// Its date (for a part: the purchase's).
    pub date: LocalDate,
    /// Its memo.
    pub memo: String,
    /// What it adds to the bill: a charge positive, a refund negative.
    pub amount: Money,
    /// For an installment part: which part (1-based) and of how many.
    pub part: Option<(u8, u8)>,
}

/// Result of `card_bill`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CardBill {
    /// The vault.
    pub vault: VaultRef,
    /// The vault's currency.
    pub currency: Currency,
    /// The card's name.
    pub account: String,
    /// The usage period's first and last day.
    pub period: (LocalDate, LocalDate),
    /// The day the bill is paid.
    pub due_date: LocalDate,
    /// Its items: one-time entries by date, then installment parts by purchase date.
    pub items: Vec<BillItem>,
    /// The sum of the items.
    pub total: Money,
    /// What of `total` the card's payments settled, every payment paying the oldest
    /// unpaid bill first, whatever its date (decision 047).
    pub paid: Money,
    /// The part of `paid` that came from payments dated after the due date (`None`: none).
    pub paid_late: Option<Money>,
    /// `total` − `paid`.
    pub remaining: Money,
    /// What the card's 할부 still owes after this bill.
    pub installments_left: InstallmentsLeft,
    /// The card's 실적 over this bill's usage period, when the card has a setting.
    pub performance: Option<super::PerformanceView>,
}

/// Result of setting or clearing a card's billing (`update_account` with `billing`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BillingSet {
    /// The vault.
    pub vault: VaultRef,
    /// The card's id.
    pub account_id: AccountId,
    /// Its display name.
    pub name: String,
    /// Its kind (always liability).
    pub kind: AccountKind,
    /// The cycle now (`None`: cleared).
    pub billing: Option<dochiya_domain::Billing>,
    /// False when it already was so (nothing written).
    pub changed: bool,
}
