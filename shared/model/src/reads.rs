//! Every read, after every step, compared with the model: balances and their totals,
//! the accounts, every transaction, spending by account, group, month and tag, budgets,
//! each card's bills, the schedules, net worth by month, the export's totals, members.

use serde_json::{Map, Value, json};

use crate::book::{Book, Kind, Origin, item_order};
use crate::calendar;
use crate::compare::{Canon, billing, differences, members, words};
use crate::live::Live;

/// One read: the tool, its arguments, what the model expects, and how to read the answer.
fn compare(
    live: &mut Live,
    book: &Book,
    tool: &str,
    args: Value,
    expected: Value,
    read: impl Fn(&Canon<'_>, &Value) -> Value,
) {
    let answer = live.call(book, 0, tool, &args).ok(&format!("{tool} {args}"));
    let actual = read(&live.canon(book), &answer);
    let mut diffs = Vec::new();
    differences(&expected, &actual, "", &mut diffs);
    assert!(
        diffs.is_empty(),
        "{tool} {args} differs from the model:\n  {}\n{answer:#}",
        diffs.join("\n  ")
    );
}

/// Every read the history touches.
pub fn check(live: &mut Live, book: &Book) {
    transactions(live, book);
    balances(live, book);
    accounts(live, book);
    spending(live, book);
    budgets(live, book);
    cards(live, book);
    recurring(live, book);
    net_worth(live, book);
    export(live, book);
    vaults(live, book);
    settle(live, book);
}

/// `list_transactions` with voided entries, every page: first learns the ids of
/// recurring postings (made by the server on its own), then compares every entry.
fn transactions(live: &mut Live, book: &Book) {
    let mut all: Vec<Value> = Vec::new();
    let mut args = json!({"includeVoided": true, "limit": 200});
    loop {
        let page = live
            .call(book, 0, "list_transactions", &args)
            .ok("list_transactions");
        all.extend(page["transactions"].as_array().cloned().unwrap_or_default());
        match page.get("nextCursor").and_then(Value::as_str) {
            Some(c) => args["cursor"] = json!(c),
            None => break,
        }
    }
    let dates: Vec<&str> = all.iter().filter_map(|t| t["date"].as_str()).collect();
    assert!(
        dates.windows(2).all(|w| w[0] >= w[1]),
        "list_transactions is not newest first: {dates:?}"
    );
    learn_postings(live, book, &all);
    let canon = live.canon(book);
    let mut actual = Map::new();
    for t in &all {
        let c = canon.tx(t);
        actual.insert(c["id"].as_str().unwrap_or("?").to_owned(), c);
    }
    let mut diffs = Vec::new();
    differences(
        &json!({"transactions": book.transactions_report()}),
        &json!({"transactions": actual}),
        "",
        &mut diffs,
    );
    assert!(
        diffs.is_empty(),
        "list_transactions differs from the model:\n  {}",
        diffs.join("\n  ")
    );
}

/// Matches the model's postings with the server's, by schedule and date, in recording order.
fn learn_postings(live: &mut Live, book: &Book, all: &[Value]) {
    let mut found: Vec<(u64, &Value)> = all
        .iter()
        .filter(|t| t.get("recurring").is_some_and(|r| !r.is_null()))
        .filter_map(|t| Some((t["transactionId"].as_str()?.parse().ok()?, t)))
        .collect();
    found.sort_by_key(|f| f.0);
    for (n, e) in book.entries.iter().enumerate() {
        let Origin::Posting(s) = e.origin else { continue };
        let label = format!("t{n}");
        if live.ids.real(&label).is_some() {
            continue;
        }
        let date = calendar::date_text(e.content.date);
        let name = &book.schedules[s].name;
        let hit = found.iter().find(|(id, t)| {
            !live.ids.knows(&id.to_string()) && t["recurring"] == json!(name) && t["date"] == json!(date)
        });
        if let Some((id, t)) = hit {
            live.ids.learn(label, id.to_string());
            // The posting's own operation, while the entry still shows it.
            let recording = book.operations.iter().position(|o| {
                o.changes
                    .iter()
                    .any(|c| c.0 == n && c.1 == crate::book::Change::Recorded)
            });
            if let (Some(r), Some(op)) = (
                recording.filter(|r| e.operation == Some(*r)),
                t["operationId"].as_str(),
            ) {
                live.ids.learn(format!("op{r}"), op.to_owned());
            }
        }
    }
}

fn balances(live: &mut Live, book: &Book) {
    let today = book.today();
    let end_of_last_month = calendar::last_day(book.this_month() - 1);
    for (date, args) in [
        (today, json!({})),
        (
            end_of_last_month,
            json!({"asOf": calendar::date_text(end_of_last_month)}),
        ),
    ] {
        let mut expected = book.balances_report(date);
        if date == today {
            expected["scheduled"] = book.scheduled_balances();
        }
        compare(live, book, "get_balances", args, expected, |c, r| {
            let rows = |v: &Value| {
                let mut out = Map::new();
                for a in v.as_array().into_iter().flatten() {
                    add(
                        &mut out,
                        a["name"].as_str().unwrap_or("?"),
                        c.amount(&a["balance"]),
                    );
                }
                Value::Object(out)
            };
            let mut scheduled = Map::new();
            for a in r["accounts"]
                .as_array()
                .into_iter()
                .flatten()
                .chain(r["archived"].as_array().into_iter().flatten())
            {
                if let Some(s) = a.get("scheduled") {
                    scheduled.insert(a["name"].as_str().unwrap_or("?").to_owned(), c.amount(s));
                }
            }
            let t = &r["totals"];
            json!({
                "asOf": r["asOf"],
                "accounts": rows(&r["accounts"]),
                "archived": rows(r.get("archived").unwrap_or(&json!([]))),
                "totals": [c.amount(&t["assets"]), c.amount(&t["liabilities"]), c.amount(&t["netWorth"])],
                "scheduled": scheduled,
            })
        });
    }
}

fn accounts(live: &mut Live, book: &Book) {
    compare(
        live,
        book,
        "list_accounts",
        json!({"includeArchived": true}),
        json!({"accounts": book.accounts_report()}),
        |c, r| {
            let mut out = Map::new();
            for a in r["accounts"].as_array().into_iter().flatten() {
                let key = a
                    .get("handle")
                    .and_then(Value::as_str)
                    .or(a["name"].as_str())
                    .unwrap_or("?");
                let next = a.get("nextBill").map_or(Value::Null, |n| {
                    json!([n["dueDate"], c.amount(&n["amount"]), c.amount(&n["remaining"])])
                });
                let left = a
                    .get("installmentsLeft")
                    .map_or(Value::Null, |l| json!([c.amount(&l["amount"]), l["count"]]));
                out.insert(
                    key.to_owned(),
                    json!({
                        "kind": a["kind"],
                        "balance": c.amount(&a["balance"]),
                        "archived": a["archived"],
                        "parent": a.get("parent").cloned().unwrap_or(Value::Null),
                        "billing": a.get("billing").map_or(Value::Null, billing),
                        "budget": a.get("budget").map_or(Value::Null, |b| c.amount(b)),
                        "nextBill": next,
                        "installmentsLeft": left,
                        "owner": a.get("owner").cloned().unwrap_or(Value::Null),
                        "goal": a.get("goal").map_or(Value::Null, |g| c.goal(g)),
                        "match": a.get("match").map_or(Value::Null, words),
                    }),
                );
            }
            json!({"accounts": out})
        },
    );
}

/// A spending report's answer: total, rows by the report's key, what is scheduled.
fn spending_answer(c: &Canon<'_>, r: &Value) -> Value {
    let mut rows = Map::new();
    for row in r["rows"].as_array().into_iter().flatten() {
        let key = ["tag", "month", "account", "member"]
            .iter()
            .find_map(|k| row.get(*k).and_then(Value::as_str))
            .unwrap_or("?");
        add(&mut rows, key, c.amount(&row["amount"]));
    }
    json!({
        "total": c.amount(&r["total"]),
        "rows": rows,
        "scheduled": r.get("scheduled").map_or(Value::Null, |s| json!([c.amount(&s["amount"]), s["count"]])),
    })
}

fn spending(live: &mut Live, book: &Book) {
    let m = book.this_month();
    let (first, last) = (calendar::first_day(m), calendar::last_day(m));
    let earlier = calendar::first_day(m - 2);
    let text = calendar::date_text;
    let reports = [
        (Kind::Expense, first, last, "account", None),
        (Kind::Expense, first, last, "group", None),
        (Kind::Expense, earlier, last, "month", None),
        (Kind::Expense, earlier, last, "tag", None),
        (Kind::Expense, earlier, last, "account", Some("여행")),
        (Kind::Income, earlier, last, "account", None),
    ];
    for (kind, from, to, by, tag) in reports {
        let mut args = json!({"from": text(from), "to": text(to), "by": by, "kind": kind.name()});
        if let Some(t) = tag {
            args["tag"] = json!(t);
        }
        let expected = book.spending_view(kind, from, to, by, tag);
        compare(live, book, "spending_report", args, expected, spending_answer);
    }
    // By member: each one's own plus their share of the household's, month by month.
    for (kind, from) in [(Kind::Expense, first), (Kind::Income, earlier)] {
        let args = json!({"from": text(from), "to": text(last), "by": "member", "kind": kind.name()});
        let expected = book.member_spending_view(kind, from, last);
        compare(live, book, "spending_report", args, expected, spending_answer);
    }
}

/// `settle_up` over the whole history (its defaults: the first entry's date through
/// today) and over this month (as `YYYY-MM`, through its last day).
fn settle(live: &mut Live, book: &Book) {
    let m = book.this_month();
    let month = json!(calendar::month_text(m));
    let current: Vec<String> = book
        .current_members()
        .into_iter()
        .map(|p| book.people[p].name.clone())
        .collect();
    for (args, from, to) in [
        (json!({}), None, None),
        (
            json!({"from": month, "to": month}),
            Some(calendar::first_day(m)),
            Some(calendar::last_day(m)),
        ),
    ] {
        let expected = book.settle_view(from, to);
        compare(live, book, "settle_up", args, expected, |c, r| {
            let mut members = Map::new();
            let mut nets = Vec::new();
            let mut order: Vec<String> = Vec::new();
            for x in r["members"].as_array().into_iter().flatten() {
                let name = x["name"].as_str().unwrap_or("?").to_owned();
                let net = c.amount(&x["net"]);
                members.insert(
                    name.clone(),
                    json!([c.amount(&x["putIn"]), c.amount(&x["share"]), net]),
                );
                nets.push((name.clone(), i128::from(net.as_i64().unwrap_or(i64::MAX))));
                order.push(name);
            }
            // The members now in their order, then former members (compared by name).
            let split = order.iter().take_while(|n| current.contains(n)).count();
            order[split..].sort();
            let transfers: Vec<(String, String, i128)> = r["transfers"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|t| {
                    (
                        t["from"].as_str().unwrap_or("?").to_owned(),
                        t["to"].as_str().unwrap_or("?").to_owned(),
                        i128::from(c.amount(&t["amount"]).as_i64().unwrap_or(0)),
                    )
                })
                .collect();
            json!({
                "from": r["from"],
                "to": r["to"],
                "members": members,
                "order": order,
                "transfers": transfers.iter().map(|(f, t, x)| json!([f, t, i64::try_from(*x).unwrap_or(0)])).collect::<Vec<_>>(),
                "check": crate::book::transfers_check(&nets, &transfers),
            })
        });
    }
}

fn budgets(live: &mut Live, book: &Book) {
    for m in [book.this_month(), book.this_month() - 1] {
        let args = json!({"month": calendar::month_text(m)});
        compare(
            live,
            book,
            "budget_report",
            args,
            book.budget_report_view(m),
            |c, r| {
                let mut rows = Map::new();
                for row in r["rows"].as_array().into_iter().flatten() {
                    rows.insert(
                        row["account"].as_str().unwrap_or("?").to_owned(),
                        json!([
                            c.amount(&row["budget"]),
                            c.amount(&row["spent"]),
                            c.amount(&row["remaining"]),
                            row["percentUsed"],
                            row["over"],
                            row.get("carried").map_or(Value::Null, |x| c.amount(x)),
                        ]),
                    );
                }
                let t = &r["totals"];
                let opt = |k: &str| r.get(k).map_or(Value::Null, |x| c.amount(x));
                json!({
                    "month": r["month"],
                    "rows": rows,
                    "totals": [c.amount(&t["budget"]), c.amount(&t["spent"]), c.amount(&t["remaining"]), t.get("percentUsed").cloned().unwrap_or(Value::Null), t["over"]],
                    "unbudgetedSpent": c.amount(&r["unbudgetedSpent"]),
                    "daysLeft": r.get("daysLeft").cloned().unwrap_or(Value::Null),
                    "dailyAllowance": opt("dailyAllowance"),
                    "scheduled": r.get("scheduled").map_or(Value::Null, |s| json!([c.amount(&s["amount"]), s["count"]])),
                    "goals": r.get("goals").map_or(Value::Null, |g| {
                        let goals: Map<String, Value> = g
                            .as_array()
                            .into_iter()
                            .flatten()
                            .map(|x| (x["name"].as_str().unwrap_or("?").to_owned(), c.goal(x)))
                            .collect();
                        Value::Object(goals)
                    }),
                })
            },
        );
    }
}

fn cards(live: &mut Live, book: &Book) {
    for (a, account) in book.accounts.iter().enumerate() {
        let Some(b) = account.billing else { continue };
        let next = b.next_bill(book.today());
        for m in [None, Some(next - 1)] {
            let mut args = json!({"account": account.reference()});
            if let Some(m) = m {
                args["month"] = json!(calendar::month_text(m));
            }
            compare(
                live,
                book,
                "card_bill",
                args,
                book.card_bill_view(a, m),
                |c, r| {
                    let mut items: Vec<Value> = r["items"]
                        .as_array()
                        .into_iter()
                        .flatten()
                        .map(|i| {
                            let opt = |k: &str| i.get(k).cloned().unwrap_or(Value::Null);
                            json!([
                                c.ids_label(&i["transactionId"]),
                                i["date"],
                                i["memo"],
                                c.amount(&i["amount"]),
                                opt("part"),
                                opt("of")
                            ])
                        })
                        .collect();
                    // By date; items of one date in any order (sorted here as the model does).
                    items.sort_by_key(item_order);
                    json!({
                        "period": [r["period"]["from"], r["period"]["to"]],
                        "dueDate": r["dueDate"],
                        "items": items,
                        "total": c.amount(&r["total"]),
                        "paid": c.amount(&r["paid"]),
                        "paidLate": r.get("paidLate").map_or(Value::Null, |x| c.amount(x)),
                        "remaining": c.amount(&r["remaining"]),
                        "installmentsLeft": [c.amount(&r["installmentsLeft"]["amount"]), r["installmentsLeft"]["count"]],
                        "performance": r.get("performance").map_or(Value::Null, |p| json!([
                            c.amount(&p["counted"]),
                            c.amount(&p["threshold"]),
                            c.amount(&p["left"]),
                            c.amount(&p["excluded"]),
                        ])),
                    })
                },
            );
        }
    }
}

fn recurring(live: &mut Live, book: &Book) {
    let m = book.this_month();
    compare(
        live,
        book,
        "list_recurring",
        json!({}),
        book.list_recurring_view(m),
        |c, r| {
            json!({
                "month": r["month"],
                "recurring": r["recurring"].as_array().into_iter().flatten().map(|s| c.recurring(s)).collect::<Vec<_>>(),
                "upcoming": r["upcoming"].as_array().into_iter().flatten()
                    .map(|u| json!([u["date"], u["name"], c.amount(&u["amount"])])).collect::<Vec<_>>(),
                "upcomingTotal": c.amount(&r["upcomingTotal"]),
            })
        },
    );
}

fn net_worth(live: &mut Live, book: &Book) {
    let from = calendar::month_of(calendar::date_at(book.setup.start, book.setup.zone)) - 2;
    let to = book.this_month();
    let args = json!({"from": calendar::month_text(from), "to": calendar::month_text(to)});
    compare(
        live,
        book,
        "net_worth_history",
        args,
        json!({"points": book.net_worth_view(from, to)}),
        |c, r| {
            let points: Vec<Value> = r["points"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|p| {
                    json!([
                        p["month"],
                        c.amount(&p["assets"]),
                        c.amount(&p["liabilities"]),
                        c.amount(&p["netWorth"])
                    ])
                })
                .collect();
            json!({"points": points})
        },
    );
}

/// The CSV export, every page: each account's sum over rows not voided, and the count.
fn export(live: &mut Live, book: &Book) {
    let mut text = String::new();
    let mut count = 0;
    let mut args = json!({"format": "csv"});
    loop {
        let page = live
            .call(book, 0, "export_transactions", &args)
            .ok("export_transactions");
        text.push_str(page["text"].as_str().unwrap_or_default());
        count += page["count"].as_i64().unwrap_or(0);
        match page.get("nextCursor").and_then(Value::as_str) {
            Some(c) => args["cursor"] = json!(c),
            None => break,
        }
    }
    let canon = live.canon(book);
    let mut sums = Map::new();
    let mut rows = crate::csv::rows(text.trim_start_matches('\u{feff}'));
    let header = rows.next().unwrap_or_default();
    let col = |name: &str| {
        header
            .iter()
            .position(|h| h == name)
            .unwrap_or_else(|| panic!("no {name} column: {header:?}"))
    };
    let (account, amount, voided) = (col("account"), col("amount"), col("voided"));
    for row in rows {
        if row[voided] == "true" {
            continue;
        }
        let x = canon
            .amount(&json!(row[amount]))
            .as_i64()
            .unwrap_or_else(|| panic!("amount {:?}", row[amount]));
        let sum = sums.entry(row[account].clone()).or_insert(json!(0));
        *sum = json!(sum.as_i64().unwrap_or(0) + x);
    }
    let mut diffs = Vec::new();
    differences(
        &book.export_view(),
        &json!({"sums": sums, "count": count}),
        "",
        &mut diffs,
    );
    assert!(
        diffs.is_empty(),
        "the CSV export differs from the model:\n  {}",
        diffs.join("\n  ")
    );
}

fn vaults(live: &mut Live, book: &Book) {
    compare(
        live,
        book,
        "list_vaults",
        json!({}),
        json!({"members": book.members_view(0)}),
        |_, r| json!({"members": members(&r["vaults"][0]["members"])}),
    );
}

/// Adds `x` to the row `key` (rows of two accounts of one name add up).
fn add(rows: &mut Map<String, Value>, key: &str, x: Value) {
    let row = rows.entry(key.to_owned()).or_insert(json!(0));
    *row = match (row.as_i64(), x.as_i64()) {
        (Some(a), Some(b)) => json!(a + b),
        _ => x,
    };
}

impl Canon<'_> {
    /// The model's label of a real transaction id.
    pub fn ids_label(&self, v: &Value) -> Value {
        v.as_str().map_or(Value::Null, |s| json!(self.ids.label(s)))
    }
}
