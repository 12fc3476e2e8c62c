//! A card's 실적 over one usage period (decision 061): what counted toward the threshold
//! that unlocks its benefits.
//!
//! An entry counts when it is dated in the period, moves money on the card and has an
//! expense line: its amount on the card (a charge positive, a refund negative) counts,
//! except the part that went to an excluded category (관리비, 세금, 상품권), which is
//! `excluded` instead. A 할부 purchase counts in full in the period it was made: card
//! companies count the purchase, not its monthly parts, toward 실적, and the purchase is
//! the entry; its parts on later bills are not entries and never count again. Payments
//! to the card and cash moved off it have no expense line and do not count.

use super::bill::Reads;
use super::*;
use crate::stored::account::PerformanceRec;
use dochiya_domain::{Currency, LocalDate};

/// The 실적 of card `card` over `(from, to)`.
pub(in crate::ledger) fn performance(
    reads: &Reads,
    cat: &Catalogue,
    card: AccountId,
    (from, to): (LocalDate, LocalDate),
    setting: &PerformanceRec,
    currency: Currency,
) -> Result<PerformanceView, LedgerError> {
    let overflow = || LedgerError::out_of_range(Total::Performance);
    let (mut counted, mut excluded) = (0i64, 0i64);
    for tx in reads.txs.iter().filter(|t| from <= t.date && t.date <= to) {
        // What left the card: a charge positive, a refund negative.
        let on_card: i64 = tx
            .postings
            .iter()
            .filter(|p| p.account_id == card)
            .map(|p| -p.amount)
            .sum();
        let expense = |p: &&crate::stored::entry::PostingRec| {
            cat.by_id(p.account_id)
                .is_some_and(|a| a.kind == AccountKind::Expense)
        };
        if on_card == 0 || !tx.postings.iter().any(|p| expense(&p)) {
            continue;
        }
        let to_excluded: i64 = tx
            .postings
            .iter()
            .filter(expense)
            .filter(|p| setting.exclude.contains(&p.account_id))
            .map(|p| p.amount)
            .sum();
        // The card's part that went to excluded categories, never more than the card paid.
        let left_out = if on_card >= 0 {
            to_excluded.clamp(0, on_card)
        } else {
            to_excluded.clamp(on_card, 0)
        };
        excluded = excluded.checked_add(left_out).ok_or_else(overflow)?;
        counted = counted.checked_add(on_card - left_out).ok_or_else(overflow)?;
    }
    let money = |v: i64| Money::from_minor(v, currency);
    Ok(PerformanceView {
        counted: money(counted),
        threshold: money(setting.threshold),
        left: money(setting.threshold.saturating_sub(counted).max(0)),
        excluded: money(excluded),
    })
}
