//! `card_bill`: one bill of a card with billing ("이번 달 카드값"), and the `billing`
//! argument and result the account tools share.

use async_trait::async_trait;
use dochiya_domain::{Billing, BillingError, Installments, PersonId};
use dochiya_ledger::Ledger;
use dochiya_ledger::api::{Field, LedgerError};
use dochiya_ledger::api::{InstallmentsLeft, PerformanceInput};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::args::{AccountArg, NameArg, OnlyMonthArg, PositiveAmountArg};
use crate::operation::{Kind, Operation, READ};
use crate::text;
use crate::wire::{AmountOut, DateOut, TransactionIdOut, VaultOut};

/// A card's billing cycle as arguments send it; `{}` clears it.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(crate) struct BillingArg {
    /// Usage period's last day, 1–31 (31: month end).
    closing_day: Option<i64>,
    /// Day paid, 1–31.
    payment_day: Option<i64>,
}

/// A card's billing as update_account sends it: the cycle, and its 실적.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(crate) struct BillingSettingArg {
    /// Usage period's last day, 1–31 (31: month end).
    closing_day: Option<i64>,
    /// Day paid, 1–31.
    payment_day: Option<i64>,
    /// 실적: the monthly spending that unlocks the card's benefits.
    performance: Option<PerformanceArg>,
}

/// A card's 실적 setting as arguments send it.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct PerformanceArg {
    /// Per usage period.
    threshold: PositiveAmountArg,
    /// Categories not counted (관리비, 세금).
    #[schemars(length(max = 20))]
    exclude: Option<Vec<NameArg>>,
}

impl BillingSettingArg {
    /// The cycle it sets (`None`: `{}`, clear it), checked before any work.
    pub(crate) fn parse(&self) -> Result<Option<Billing>, LedgerError> {
        BillingArg {
            closing_day: self.closing_day,
            payment_day: self.payment_day,
        }
        .parse()
    }

    /// Its 실적 setting, when sent.
    pub(crate) fn performance(&self) -> Option<PerformanceInput> {
        self.performance.as_ref().map(|p| PerformanceInput {
            threshold: p.threshold.0,
            exclude: p
                .exclude
                .iter()
                .flatten()
                .map(|n| String::from(n.clone()))
                .collect(),
        })
    }
}

impl BillingArg {
    /// The cycle it sets (`None`: `{}`, clear it), checked before any work.
    pub(crate) fn parse(&self) -> Result<Option<Billing>, LedgerError> {
        let field = Field::Card("billing");
        match (self.closing_day, self.payment_day) {
            (None, None) => Ok(None),
            (Some(c), Some(p)) => Billing::new(c, p).map(Some).map_err(|e| match e {
                BillingError::ClosingDay(m) | BillingError::PaymentDay(m) => crate::errors::refused(field, m),
            }),
            _ => Err(crate::errors::refused(
                field,
                "send both closingDay and paymentDay (e.g. {\"closingDay\": 31, \"paymentDay\": 14}), or {} to clear it",
            )),
        }
    }
}

/// An entry's `installments` argument, checked before any work.
pub(crate) fn installments(count: Option<i64>) -> Result<Option<Installments>, LedgerError> {
    count
        .map(|n| {
            Installments::new(n).map_err(|e| crate::errors::refused(Field::Card("installments"), e.message().to_string()))
        })
        .transpose()
}

/// A card's billing cycle as results show it.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct BillingOut {
    /// Last day of the usage period (31: the month's last day).
    closing_day: i64,
    /// Day the bill is paid.
    payment_day: i64,
}

impl From<Billing> for BillingOut {
    fn from(b: Billing) -> Self {
        BillingOut {
            closing_day: b.closing_day(),
            payment_day: b.payment_day(),
        }
    }
}

/// Arguments of `card_bill`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(crate) struct Args {
    #[schemars(description = text::VAULT)]
    vault: Option<NameArg>,
    /// The card (a liability with billing).
    account: AccountArg,
    /// YYYY-MM the bill is paid in; default the next payment on or after today.
    month: Option<OnlyMonthArg>,
}

/// The usage period a bill covers.
#[derive(Debug, Serialize, JsonSchema)]
struct PeriodOut {
    /// First day, YYYY-MM-DD.
    from: DateOut,
    /// Last day (the closing day).
    to: DateOut,
}

/// One line of the bill.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct ItemOut {
    /// The transaction (for a part: the purchase).
    transaction_id: TransactionIdOut,
    /// Its date (for a part: the purchase's).
    date: DateOut,
    /// Its memo.
    memo: String,
    /// A charge positive, a refund negative.
    amount: AmountOut,
    /// An installment part: which one (1-based).
    #[serde(skip_serializing_if = "Option::is_none")]
    part: Option<u8>,
    /// An installment part: of how many.
    #[serde(skip_serializing_if = "Option::is_none")]
    of: Option<u8>,
}

/// Result of `card_bill`.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Output {
    #[schemars(description = text::VAULT_OUT)]
    vault: VaultOut,
    #[schemars(description = text::CURRENCY)]
    currency: String,
    /// The card's name.
    account: String,
    /// The usage period.
    period: PeriodOut,
    /// The day the bill is paid.
    due_date: DateOut,
    /// Charges and refunds of the period and installment parts, by date.
    items: Vec<ItemOut>,
    /// The bill's amount: the sum of the items.
    total: AmountOut,
    /// Settled by payments into the card from an asset, each paying the oldest unpaid bill first whatever its date.
    paid: AmountOut,
    /// The part of paid that came after the due date.
    #[serde(skip_serializing_if = "Option::is_none")]
    paid_late: Option<AmountOut>,
    /// total − paid: still to pay.
    remaining: AmountOut,
    /// What the card's 할부 still owes after this bill.
    installments_left: InstallmentsLeftOut,
    /// The card's 실적 over this usage period (a card with billing.performance).
    #[serde(skip_serializing_if = "Option::is_none")]
    performance: Option<PerformanceOut>,
}

/// A card's 실적 over one usage period.
#[derive(Debug, Serialize, JsonSchema)]
struct PerformanceOut {
    /// Charges less refunds of the period outside the excluded categories; a 할부 purchase counts in full in the period it was made.
    counted: AmountOut,
    /// The amount to reach.
    threshold: AmountOut,
    /// threshold − counted, "0" once reached.
    left: AmountOut,
    /// Spending in the excluded categories (not counted).
    excluded: AmountOut,
}

/// What a card's 할부 still owes after a bill.
#[derive(Debug, Serialize, JsonSchema)]
pub(crate) struct InstallmentsLeftOut {
    /// The parts on later bills.
    amount: AmountOut,
    /// How many purchases they are of.
    count: u32,
}

impl From<InstallmentsLeft> for InstallmentsLeftOut {
    fn from(l: InstallmentsLeft) -> Self {
        InstallmentsLeftOut {
            amount: l.amount.into(),
            count: l.count,
        }
    }
}

/// The `card_bill` tool.
pub(crate) struct CardBill;

#[async_trait]
impl Operation for CardBill {
    type Args = Args;
    type Output = Output;
    const NAME: &'static str = "card_bill";
    const TITLE: &'static str = "Card bill";
    const DESCRIPTION: &'static str = "One credit-card bill (이번 달 카드값, 결제 예정 금액): its usage period, due date, each charge and refund of the period and each 할부 part, the total, what was paid (payments settle the oldest bill first) and what remains, and what 할부 still owes after it (할부 남은 거). Not the card's balance.";
    const KIND: Kind = READ;
    #[cfg(test)]
    const EXAMPLES: crate::operation::Examples = (
        &[
            r#"{"account": "신한카드"}"#,
            r#"{"vault": "우리집", "account": "신한카드", "month": "2026-12"}"#,
        ],
        &["{}", r#"{"account": "신한카드", "month": "2026-12-14"}"#],
    );

    async fn run(ledger: &Ledger, who: &PersonId, args: Args) -> Result<Output, LedgerError> {
        let b = ledger
            .card_bill(who, args.vault.as_deref(), &args.account, args.month.map(|m| m.0))
            .await?;
        Ok(Output {
            vault: b.vault.into(),
            currency: b.currency.code().to_owned(),
            account: b.account,
            period: PeriodOut {
                from: b.period.0.into(),
                to: b.period.1.into(),
            },
            due_date: b.due_date.into(),
            items: b
                .items
                .into_iter()
                .map(|i| ItemOut {
                    transaction_id: i.transaction_id.into(),
                    date: i.date.into(),
                    memo: i.memo,
                    amount: i.amount.into(),
                    part: i.part.map(|p| p.0),
                    of: i.part.map(|p| p.1),
                })
                .collect(),
            total: b.total.into(),
            paid: b.paid.into(),
            paid_late: b.paid_late.map(Into::into),
            remaining: b.remaining.into(),
            installments_left: b.installments_left.into(),
            performance: b.performance.map(|p| PerformanceOut {
                counted: p.counted.into(),
                threshold: p.threshold.into(),
                left: p.left.into(),
                excluded: p.excluded.into(),
            }),
        })
    }
}
