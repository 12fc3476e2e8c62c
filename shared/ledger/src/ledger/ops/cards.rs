//! Cards: setting a card's billing cycle and reading its bills (decision 040); the bills
//! themselves are computed in `bills`.

use crate::api::{Field, Reason};
use crate::ledger::bills;
use crate::ledger::bills::{bill, check_billable, installments_left, remaining};
use crate::ledger::resolve::{Catalogue, catalogue, retrying};
use crate::ledger::roster::in_vault;
use crate::ledger::*;
use crate::stored::account;
use crate::stored::account::{AccountRec, BILLING_ATTRS, PERFORMANCE_ATTRS, PerformanceRec, billing_attrs};
use crate::stored::member::Membership;
use dochiya_domain::{Billing, Money};
use std::collections::BTreeMap;

/// Set (`Some`) or clear (`None`) a card's billing cycle; the same setting again writes nothing.
pub(in crate::ledger) async fn set_billing(
    ledger: &Ledger,
    who: &PersonId,
    vault: Option<&str>,
    account: &str,
    (billing, performance): (Option<Billing>, Option<&PerformanceInput>),
) -> Result<BillingSet, LedgerError> {
    retrying(|| {
        in_vault(ledger, who, vault, |v| async move {
            let m = v.membership.clone();
            let cat = catalogue(ledger, &m).await?;
            let a = live_card(&cat, account, &m)?;
            check_billable(&a.name, a.kind)?;
            // 실적 rides on a cycle: a setting without one is refused; clearing the cycle clears it.
            let perf = match (performance, billing) {
                (Some(_), None) => {
                    return Err(LedgerError::invalid(
                        Field::Card("billing"),
                        Reason::PerformanceWithoutCycle,
                    ));
                }
                (Some(p), Some(_)) => Some(performance_setting(p, &cat, &m)?),
                (None, Some(_)) => a.performance.clone(),
                (None, None) => None,
            };
            let done = |changed| BillingSet {
                vault: m.vault_ref(),
                account_id: a.account_id,
                name: a.name.clone(),
                kind: a.kind,
                billing,
                changed,
            };
            if a.billing == billing && a.performance == perf {
                return Ok(done(false));
            }
            let (set, remove) = match (billing, &perf) {
                (Some(b), Some(p)) => {
                    let mut set = billing_attrs(b);
                    set.extend(p.attrs());
                    (set, vec![])
                }
                (Some(b), None) => (billing_attrs(b), vec![]),
                (None, _) => (
                    BTreeMap::new(),
                    BILLING_ATTRS
                        .iter()
                        .chain(PERFORMANCE_ATTRS.iter())
                        .map(|s| s.to_string())
                        .collect(),
                ),
            };
            let ops = vec![account::live_account_update(
                m.vault_id,
                a.account_id,
                set,
                remove,
            )];
            v.write(ledger, who, ops).await?;
            Ok(done(true))
        })
    })
    .await
}

/// Most categories one card's 실적 may leave out.
pub const MAX_EXCLUDED: usize = 20;

/// A 실적 setting as given, checked: a positive threshold, existing expense categories.
fn performance_setting(
    p: &PerformanceInput,
    cat: &Catalogue,
    m: &Membership,
) -> Result<PerformanceRec, LedgerError> {
    let field = Field::Card("performance");
    let threshold =
        Money::from_decimal(p.threshold, m.currency).map_err(|e| LedgerError::from_parse(field, e))?;
    if threshold.minor() <= 0 {
        return Err(LedgerError::invalid(
            field,
            Reason::ThresholdNotPositive { got: threshold },
        ));
    }
    if p.exclude.len() > MAX_EXCLUDED {
        return Err(LedgerError::invalid(
            field,
            Reason::TooManyExcluded {
                max: MAX_EXCLUDED,
                got: p.exclude.len(),
            },
        ));
    }
    let mut exclude = Vec::new();
    for name in &p.exclude {
        let a = cat.resolve(name, false, m)?;
        if a.kind != dochiya_domain::AccountKind::Expense {
            return Err(LedgerError::invalid(
                field,
                Reason::ExcludeNotExpense {
                    account: a.name.clone(),
                    kind: a.kind,
                },
            ));
        }
        if !exclude.contains(&a.account_id) {
            exclude.push(a.account_id);
        }
    }
    Ok(PerformanceRec {
        threshold: threshold.minor(),
        exclude,
    })
}

/// A live account by name (an archived card's billing cannot change).
pub(in crate::ledger) fn live_card(
    cat: &Catalogue,
    name: &str,
    m: &Membership,
) -> Result<AccountRec, LedgerError> {
    cat.resolve(name, false, m).cloned()
}

/// The bill of a card paid in `month` (default: the next payment on or after today).
pub(in crate::ledger) async fn card_bill(
    ledger: &Ledger,
    who: &PersonId,
    vault: Option<&str>,
    account: &str,
    month: Option<dochiya_domain::YearMonth>,
) -> Result<CardBill, LedgerError> {
    in_vault(ledger, who, vault, |v| async move {
        let m = v.membership;
        let cat = catalogue(ledger, &m).await?;
        // An archived card's old bills still read.
        let a = cat.resolve(account, true, &m)?;
        let name = cat.shown_name(a).to_string();
        check_billable(&name, a.kind)?;
        let Some(billing) = a.billing else {
            return Err(LedgerError::invalid(
                Field::Card("account"),
                Reason::NoBillingCycle {
                    card: name.to_string(),
                },
            ));
        };
        let month = month.unwrap_or_else(|| billing.next_bill(ledger.today_in(&m)));
        let wanted = (a.account_id, billing, month);
        let reads = bill::read(ledger, &m, &[wanted]).await?;
        let b = bill::compute(&reads, &cat, wanted, m.currency)?;
        let performance = a
            .performance
            .as_ref()
            .map(|p| {
                bills::performance(
                    &reads,
                    &cat,
                    a.account_id,
                    (b.dates.from, b.dates.to),
                    p,
                    m.currency,
                )
            })
            .transpose()?;
        let money = |v: i64| Money::from_minor(v, m.currency);
        let (left, installments_left) = (remaining(&b)?, installments_left(&b, m.currency));
        Ok(CardBill {
            vault: m.vault_ref(),
            currency: m.currency,
            account: name,
            period: (b.dates.from, b.dates.to),
            due_date: b.dates.due,
            items: b.items,
            total: money(b.total),
            paid: money(b.paid),
            paid_late: (b.paid_late > 0).then(|| money(b.paid_late)),
            remaining: money(left),
            installments_left,
            performance,
        })
    })
    .await
}

impl Ledger {
    /// Set (`Some`) or clear (`None`) a card's billing cycle (liabilities only).
    pub async fn set_billing(
        &self,
        who: &PersonId,
        vault: Option<&str>,
        account: &str,
        billing: Option<dochiya_domain::Billing>,
    ) -> Result<BillingSet, LedgerError> {
        set_billing(self, who, vault, account, (billing, None)).await
    }

    /// Set a card's cycle with its 실적 (`performance`: the threshold and the categories
    /// left out); without one, the card keeps the 실적 it had.
    pub async fn set_billing_with(
        &self,
        who: &PersonId,
        vault: Option<&str>,
        account: &str,
        billing: Option<dochiya_domain::Billing>,
        performance: Option<&PerformanceInput>,
    ) -> Result<BillingSet, LedgerError> {
        set_billing(self, who, vault, account, (billing, performance)).await
    }

    /// One bill of a card with billing: the bill paid in `month` (default: the next
    /// payment on or after today), its items, total, what was paid and what remains.
    pub async fn card_bill(
        &self,
        who: &PersonId,
        vault: Option<&str>,
        account: &str,
        month: Option<YearMonth>,
    ) -> Result<CardBill, LedgerError> {
        card_bill(self, who, vault, account, month).await
    }
}
