//! Card bills: the cycle, each bill's items, 할부 parts, what was paid
//! (docs/tools.md, "card_bill" and "Card bills").

use jiff::civil::Date;
use serde_json::{Value, json};

use super::{Billing, Book, Kind};
use crate::calendar::{self, Month};

impl Billing {
    /// Months between a period's close and its payment (0: paid the month it closes).
    fn lag(self) -> Month {
        if self.payment > self.closing { 0 } else { 1 }
    }

    /// The usage period of the bill paid in month `m`.
    pub fn period(self, m: Month) -> (Date, Date) {
        let close = calendar::day_in(m - self.lag(), self.closing);
        let before = calendar::day_in(m - self.lag() - 1, self.closing);
        (calendar::add_days(before, 1), close)
    }

    /// The due date of the bill paid in month `m`.
    pub fn due(self, m: Month) -> Date {
        calendar::day_in(m, self.payment)
    }

    /// The bill whose period holds `date`.
    pub fn bill_of(self, date: Date) -> Month {
        let m = calendar::month_of(date);
        if date <= calendar::day_in(m, self.closing) {
            m + self.lag()
        } else {
            m + self.lag() + 1
        }
    }

    /// The next bill paid on or after `today`.
    pub fn next_bill(self, today: Date) -> Month {
        let m = calendar::month_of(today);
        if self.due(m) >= today { m } else { m + 1 }
    }
}

/// A bill item's place, `[entry, date, memo, amount, part, of]`: its date, then its
/// entry's label and part (the contract orders items by date only).
pub fn item_order(item: &Value) -> (String, String, i64) {
    let text = |v: &Value| v.as_str().unwrap_or_default().to_owned();
    (text(&item[1]), text(&item[0]), item[4].as_i64().unwrap_or(0))
}

/// Part `k` (1-based) of `amount` in `n` parts: equal, the remainder on the first.
pub fn part(amount: i64, n: u8, k: u8) -> i64 {
    let n = i64::from(n);
    let base = amount / n;
    if k == 1 { base + amount % n } else { base }
}

/// One item of a bill: the entry, its date, memo, amount, and `(part, of)` for 할부.
type Item = (usize, Date, String, i64, Option<(u8, u8)>);

/// One bill as the contract describes it.
pub struct Bill {
    /// Its charges, refunds and 할부 parts.
    pub items: Vec<Item>,
    /// What of it the card's payments settled, the oldest bill first.
    pub paid: i64,
    /// The part of `paid` from payments dated after the due date.
    pub paid_late: i64,
    /// The card's 할부 parts on later bills: their sum and how many purchases.
    pub left: (i64, u32),
}

impl Book {
    /// Bill `m` of card `c`. Every payment (money onto the card from an asset account)
    /// pays the oldest bill not yet paid, whatever its date: all payments together
    /// cover the bills in order, so this one is paid for what they leave over after
    /// every earlier bill, and paid late for what only payments after its due date
    /// covered (docs/tools.md, "Bills").
    fn bill(&self, c: usize, b: Billing, m: Month) -> Bill {
        let due = b.due(m);
        let mut items = Vec::new();
        // Payments in all, those after the due date, and every earlier bill's items.
        let (mut payments, mut late, mut before) = (0, 0, 0);
        let mut left = (0, 0);
        for (n, e) in self.live() {
            let lines = e.content.lines();
            let debit: i64 = lines.iter().filter(|l| l.0 == c).map(|l| l.1).sum();
            if debit == 0 {
                continue;
            }
            let date = e.content.date;
            if let Some(count) = e
                .installments
                .filter(|_| e.content.from.first().map(|l| l.0) == Some(c))
            {
                let first = b.bill_of(date);
                let mut later = 0;
                for k in 1..=count {
                    let x = part(e.content.amount(), count, k);
                    let on = first + Month::from(k) - 1;
                    if on == m {
                        items.push((n, date, e.content.memo.clone(), x, Some((k, count))));
                    } else if on < m {
                        before += x;
                    } else {
                        later += x;
                    }
                }
                if later > 0 {
                    left = (left.0 + later, left.1 + 1);
                }
                continue;
            }
            let payment = debit > 0
                && lines
                    .iter()
                    .any(|l| l.1 < 0 && self.accounts[l.0].kind == Kind::Asset);
            if payment {
                payments += debit;
                if date > due {
                    late += debit;
                }
            } else if b.bill_of(date) == m {
                items.push((n, date, e.content.memo.clone(), -debit, None));
            } else if b.bill_of(date) < m {
                before -= debit;
            }
        }
        items.sort_by_key(|i| (i.1, i.0, i.4));
        let total: i64 = items.iter().map(|i| i.3).sum();
        let covered = |paid: i64| (paid - before).clamp(0, total.max(0));
        let paid = covered(payments);
        Bill {
            items,
            paid,
            paid_late: paid - covered(payments - late),
            left,
        }
    }

    /// `card_bill` of card `c` for month `m` (None: the next payment on or after today).
    pub fn card_bill_view(&self, c: usize, m: Option<Month>) -> Value {
        let Some(b) = self.accounts[c].billing else {
            return Value::Null;
        };
        let m = m.unwrap_or_else(|| b.next_bill(self.today()));
        let bill = self.bill(c, b, m);
        let total: i64 = bill.items.iter().map(|i| i.3).sum();
        let (from, to) = b.period(m);
        let mut items: Vec<Value> = bill
            .items
            .iter()
            .map(|(n, d, memo, x, p)| {
                json!([
                    format!("t{n}"),
                    calendar::date_text(*d),
                    memo,
                    x,
                    p.map(|p| p.0),
                    p.map(|p| p.1)
                ])
            })
            .collect();
        items.sort_by_key(item_order);
        json!({
            "period": [calendar::date_text(from), calendar::date_text(to)],
            "dueDate": calendar::date_text(b.due(m)),
            "items": items,
            "total": total,
            "paid": bill.paid,
            "paidLate": (bill.paid_late != 0).then_some(bill.paid_late),
            "remaining": total - bill.paid,
            "installmentsLeft": [bill.left.0, bill.left.1],
            "performance": self.performance(c, b, m),
        })
    }

    /// The card's 실적 over bill `m`'s usage period, `[counted, threshold, left,
    /// excluded]` (null without a setting): every live entry dated in the period with a
    /// posting on the card and an expense line counts its amount on the card (a charge
    /// adds, a refund takes away; a 할부 purchase in full, by its date); the part of it
    /// that went to excluded categories, never more than the card's amount and of its
    /// sign, is `excluded` instead (docs/tools.md, "card_bill").
    fn performance(&self, c: usize, b: Billing, m: Month) -> Value {
        let Some(p) = &self.accounts[c].performance else {
            return Value::Null;
        };
        let (from, to) = b.period(m);
        let (mut counted, mut excluded) = (0, 0);
        for (_, e) in self.live() {
            let date = e.content.date;
            let lines = e.content.lines();
            let on_card = lines.iter().any(|l| l.0 == c);
            let spends = lines.iter().any(|l| self.accounts[l.0].kind == Kind::Expense);
            if date < from || date > to || !on_card || !spends {
                continue;
            }
            let amount: i64 = -lines.iter().filter(|l| l.0 == c).map(|l| l.1).sum::<i64>();
            let out: i64 = lines
                .iter()
                .filter(|l| p.exclude.contains(&l.0))
                .map(|l| l.1)
                .sum();
            let out = if amount >= 0 {
                out.clamp(0, amount)
            } else {
                out.clamp(amount, 0)
            };
            counted += amount - out;
            excluded += out;
        }
        json!([counted, p.threshold, (p.threshold - counted).max(0), excluded])
    }

    /// A live card's next bill as `list_accounts` shows it: `[dueDate, amount,
    /// remaining]`, and its 할부 left after that bill, `[amount, count]`.
    pub fn next_bill_view(&self, c: usize) -> (Value, Value) {
        let account = &self.accounts[c];
        let Some(b) = account.billing.filter(|_| account.handle.is_none()) else {
            return (Value::Null, Value::Null);
        };
        let m = b.next_bill(self.today());
        let bill = self.bill(c, b, m);
        let total = bill.items.iter().map(|i| i.3).sum::<i64>();
        (
            json!([calendar::date_text(b.due(m)), total, total - bill.paid]),
            json!([bill.left.0, bill.left.1]),
        )
    }
}
