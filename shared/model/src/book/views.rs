//! What the reads must show, computed from the entries' postings. Each view is the
//! canonical form `crate::compare` reduces the server's answer to: amounts in minor
//! units, entries and operations by their model labels (`t3`, `op2`), lists that the
//! contract does not order as maps.

use jiff::civil::Date;
use serde_json::{Map, Value, json};

use super::{Billing, Book, Kind, Origin, Whose};
use crate::calendar::{self, Month};

/// Entry `n` as a `Transaction`.
pub fn tx_view(book: &Book, n: usize) -> Value {
    let e = &book.entries[n];
    let mut postings: Vec<(String, i64)> = e
        .content
        .lines()
        .into_iter()
        // A posting names its account as it is called now (an archived one by its name).
        .map(|(a, x)| (book.accounts[a].name.clone(), x))
        .collect();
    postings.sort();
    let (recorded_by, recurring) = match e.origin {
        Origin::Hand(p) | Origin::Batch(p) | Origin::Opening(p) => (json!(book.people[p].name), Value::Null),
        // A schedule's posting names it: "<name> (recurring)", whoever edits it later.
        Origin::Posting(s) => {
            let name = &book.schedules[s].name;
            (json!(format!("{name} (recurring)")), json!(name))
        }
    };
    json!({
        "id": format!("t{n}"),
        "date": calendar::date_text(e.content.date),
        "memo": e.content.memo,
        "voided": e.voided,
        "version": e.version(),
        "postings": postings,
        "tags": e.content.tags,
        "recurring": recurring,
        "recordedBy": recorded_by,
        "installments": e.installments,
        "operation": e.operation.map(|o| format!("op{o}")),
        "for": e.content.for_whom.map(|w| whose_name(book, w)),
    })
}

/// How a `for` shows: the member's name, or `"shared"`.
pub fn whose_name(book: &Book, w: Whose) -> String {
    match w {
        Whose::Member(p) => book.people[p].name.clone(),
        Whose::Shared => "shared".to_owned(),
    }
}

/// An account's owner as shown: the member's name (a former member's too), or null.
pub fn owner_name(book: &Book, a: usize) -> Value {
    json!(book.accounts[a].owner.map(|p| book.people[p].name.clone()))
}

/// `balances` of a write: each account's balance as of today and what is scheduled later.
pub fn balances_view(book: &Book, accounts: &[usize]) -> Value {
    let today = book.today();
    let mut out = Map::new();
    for &a in accounts {
        let (balance, scheduled) = book.balance(a, today);
        // A write's balances name accounts as results do: an archived one by its handle.
        out.insert(
            book.accounts[a].reference().to_owned(),
            json!([balance, scheduled]),
        );
    }
    Value::Object(out)
}

/// An account as `update_account` shows it.
pub fn account_view(book: &Book, a: usize) -> Value {
    let account = &book.accounts[a];
    json!({
        "name": account.name,
        "kind": account.kind.name(),
        "archived": account.handle.is_some(),
        "parent": account.parent.map(|p| book.accounts[p].reference()),
        "billing": billing_json(account.billing),
        "owner": owner_name(book, a),
        "match": book.match_view(a),
    })
}

impl Book {
    /// Entries dated after today within `from..=to` touching a `kind` account (and
    /// carrying `tag`): `[amount, count]`, or null when none.
    pub fn scheduled_in(&self, kind: Kind, from: Date, to: Date, tag: Option<&str>) -> Value {
        let today = self.today();
        let mut amount = 0;
        let mut count = 0;
        for (_, e) in self.live() {
            let d = e.content.date;
            let tagged = match tag {
                Some(t) => e.content.tags.iter().any(|x| x == t),
                None => true,
            };
            if d <= today || d < from || d > to || !tagged {
                continue;
            }
            let lines: Vec<_> = e
                .content
                .lines()
                .into_iter()
                .filter(|l| self.accounts[l.0].kind == kind)
                .collect();
            if !lines.is_empty() {
                count += 1;
                amount += lines.iter().map(|l| kind.natural(l.1)).sum::<i64>();
            }
        }
        if count == 0 {
            Value::Null
        } else {
            json!([amount, count])
        }
    }

    /// `get_balances` as of `date`: live accounts, archived ones holding money, totals.
    pub fn balances_report(&self, date: Date) -> Value {
        let mut live = Map::new();
        let mut archived = Map::new();
        let (mut assets, mut liabilities) = (0, 0);
        for (a, account) in self.accounts.iter().enumerate() {
            let balance = self.net(a, None, Some(date));
            match account.kind {
                Kind::Asset => assets += balance,
                Kind::Liability => liabilities += balance,
                _ => {}
            }
            if account.handle.is_none() {
                live.insert(account.name.clone(), json!(balance));
            } else if balance != 0
                || (date == self.today() && self.balance(a, date).1.is_some_and(|s| s != 0))
            {
                // Archived rows go by the account's name (its handle is in list_accounts);
                // one holding money later (scheduled) is listed too; two of one name add up.
                let row = archived.entry(account.name.clone()).or_insert(json!(0));
                *row = json!(row.as_i64().unwrap_or(0) + balance);
            }
        }
        json!({
            "asOf": calendar::date_text(date),
            "accounts": live,
            "archived": archived,
            "totals": [assets, liabilities, assets - liabilities],
        })
    }

    /// Every account with entries dated after today: what they add, by name (handle).
    pub fn scheduled_balances(&self) -> Value {
        let today = self.today();
        let mut out = Map::new();
        for (a, account) in self.accounts.iter().enumerate() {
            let (balance, scheduled) = self.balance(a, today);
            if let Some(s) = scheduled
                && (account.handle.is_none() || balance != 0 || s != 0)
            {
                out.insert(account.name.clone(), json!(s));
            }
        }
        Value::Object(out)
    }

    /// `list_accounts` with archived accounts: each by its name (handle when archived).
    pub fn accounts_report(&self) -> Value {
        let today = self.today();
        let mut out = Map::new();
        for (a, account) in self.accounts.iter().enumerate() {
            let budget = (account.kind == Kind::Expense && account.handle.is_none())
                .then(|| self.budget_now(a))
                .flatten();
            let (next_bill, installments_left) = self.next_bill_view(a);
            out.insert(
                account.reference().to_owned(),
                json!({
                    "kind": account.kind.name(),
                    "balance": self.net(a, None, Some(today)),
                    "archived": account.handle.is_some(),
                    "parent": account.parent.map(|p| self.accounts[p].reference()),
                    "billing": billing_json(account.billing),
                    "budget": budget,
                    "nextBill": next_bill,
                    "installmentsLeft": installments_left,
                    "owner": owner_name(self, a),
                    "goal": self.goal_view(a),
                    "match": self.match_view(a),
                }),
            );
        }
        Value::Object(out)
    }

    /// `list_transactions` with voided entries: every entry by label.
    pub fn transactions_report(&self) -> Value {
        let mut out = Map::new();
        for n in 0..self.entries.len() {
            out.insert(format!("t{n}"), tx_view(self, n));
        }
        Value::Object(out)
    }

    /// `spending_report` of `kind` over `from..=to`, rows keyed by `by`, entries with `tag` only.
    pub fn spending_view(&self, kind: Kind, from: Date, to: Date, by: &str, tag: Option<&str>) -> Value {
        let until = to.min(self.today());
        let mut rows: Map<String, Value> = Map::new();
        if by == "month" {
            for m in calendar::month_of(from)..=calendar::month_of(to) {
                rows.insert(calendar::month_text(m), json!(0));
            }
        }
        let mut total = 0;
        for (_, e) in self.live() {
            let d = e.content.date;
            if d < from || d > until || tag.is_some_and(|t| !e.content.tags.iter().any(|x| x == t)) {
                continue;
            }
            for (a, x) in e.content.lines() {
                if self.accounts[a].kind != kind {
                    continue;
                }
                let amount = kind.natural(x);
                // By tag, the total sums the rows: an entry with two tags counts twice.
                total += if by == "tag" {
                    amount * e.content.tags.len() as i64
                } else {
                    amount
                };
                // Rows name accounts as arguments do: an archived one by its handle.
                let keys: Vec<String> = match by {
                    "group" => vec![
                        self.accounts[self.accounts[a].parent.unwrap_or(a)]
                            .reference()
                            .to_owned(),
                    ],
                    "month" => vec![calendar::month_text(calendar::month_of(d))],
                    "tag" => e.content.tags.clone(),
                    _ => vec![self.accounts[a].reference().to_owned()],
                };
                for k in keys {
                    let row = rows.entry(k).or_insert(json!(0));
                    *row = json!(row.as_i64().unwrap_or(0) + amount);
                }
            }
        }
        // Rows that net to nothing are left out (a month is shown whatever it holds).
        rows.retain(|_, v| by == "month" || v.as_i64() != Some(0));
        json!({
            "total": total,
            "rows": rows,
            "scheduled": if by == "tag" && tag.is_none() {
                self.scheduled_tagged(kind, from, to)
            } else {
                self.scheduled_in(kind, from, to, tag)
            },
        })
    }

    /// What is scheduled in a report by tag: the entries carrying any tag.
    fn scheduled_tagged(&self, kind: Kind, from: Date, to: Date) -> Value {
        let mut book = self.clone();
        for e in &mut book.entries {
            if e.content.tags.is_empty() {
                e.voided = true;
            }
        }
        book.scheduled_in(kind, from, to, None)
    }

    /// `net_worth_history` from month `from` through `to`: each month end's totals.
    pub fn net_worth_view(&self, from: Month, to: Month) -> Value {
        let points: Vec<Value> = (from..=to)
            .map(|m| {
                let end = calendar::last_day(m);
                let (mut assets, mut liabilities) = (0, 0);
                for (a, account) in self.accounts.iter().enumerate() {
                    match account.kind {
                        Kind::Asset => assets += self.net(a, None, Some(end)),
                        Kind::Liability => liabilities += self.net(a, None, Some(end)),
                        _ => {}
                    }
                }
                json!([calendar::month_text(m), assets, liabilities, assets - liabilities])
            })
            .collect();
        Value::Array(points)
    }

    /// The export's totals: each account's debit-positive sum over live entries, and the
    /// number of entries (voided ones included).
    pub fn export_view(&self) -> Value {
        let mut sums = Map::new();
        for (a, account) in self.accounts.iter().enumerate() {
            let kind = account.kind;
            let debit = kind.natural(self.net(a, None, None));
            if self
                .live()
                .any(|(_, e)| e.content.lines().iter().any(|l| l.0 == a))
            {
                sums.insert(account.reference().to_owned(), json!(debit));
            }
        }
        json!({"sums": sums, "count": self.entries.len()})
    }
}

/// The JSON of a billing cycle in the canonical views.
pub fn billing_json(b: Option<Billing>) -> Value {
    b.map_or(Value::Null, |b| json!([b.closing, b.payment]))
}
