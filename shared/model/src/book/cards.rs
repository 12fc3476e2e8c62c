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

impl Book {
    /// Bill `m` of card `c`: its items, and what was paid.
    fn bill(&self, c: usize, b: Billing, m: Month) -> (Vec<Item>, i64) {
        let (from, to) = b.period(m);
        let due = b.due(m);
        let mut items = Vec::new();
        let mut paid = 0;
        for (n, e) in self.live() {
            let lines = e.content.lines();
            let Some(&(_, debit)) = lines.iter().find(|l| l.0 == c) else {
                continue;
            };
            let date = e.content.date;
            if let Some(count) = e
                .installments
                .filter(|_| e.content.from.first().map(|l| l.0) == Some(c))
            {
                let first = b.bill_of(date);
                for k in 1..=count {
                    if first + Month::from(k) - 1 == m {
                        let x = part(e.content.amount(), count, k);
                        items.push((n, date, e.content.memo.clone(), x, Some((k, count))));
                    }
                }
                continue;
            }
            let payment = debit > 0
                && lines
                    .iter()
                    .filter(|l| l.1 < 0)
                    .all(|l| self.accounts[l.0].kind == Kind::Asset);
            if payment {
                if date > to && date <= due {
                    paid += debit;
                }
            } else if date >= from && date <= to {
                items.push((n, date, e.content.memo.clone(), -debit, None));
            }
        }
        items.sort_by_key(|i| (i.1, i.0, i.4));
        (items, paid)
    }

    /// `card_bill` of card `c` for month `m` (None: the next payment on or after today).
    pub fn card_bill_view(&self, c: usize, m: Option<Month>) -> Value {
        let Some(b) = self.accounts[c].billing else {
            return Value::Null;
        };
        let m = m.unwrap_or_else(|| b.next_bill(self.today()));
        let (items, paid) = self.bill(c, b, m);
        let total: i64 = items.iter().map(|i| i.3).sum();
        let (from, to) = b.period(m);
        let mut items: Vec<Value> = items
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
            "paid": paid,
            "remaining": total - paid,
        })
    }

    /// A live card's next bill as `list_accounts` shows it: `[dueDate, amount]`.
    pub fn next_bill_view(&self, c: usize) -> Value {
        let account = &self.accounts[c];
        let Some(b) = account.billing.filter(|_| account.handle.is_none()) else {
            return Value::Null;
        };
        let m = b.next_bill(self.today());
        let (items, _) = self.bill(c, b, m);
        json!([
            calendar::date_text(b.due(m)),
            items.iter().map(|i| i.3).sum::<i64>()
        ])
    }
}
