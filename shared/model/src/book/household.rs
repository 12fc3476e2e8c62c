//! Two people, one book (issue 53; docs/tools.md, "settle_up", "update_vault",
//! `owner` and `for`): whose an account or a piece of spending is, the shares the
//! household divides by, settle-up, and each member's spending.
//!
//! Written from the contract, not from the ledger's arithmetic: every figure is a sum
//! over the live entries' postings, each month's shared amounts divided by the weights
//! in force that month.

use std::collections::BTreeMap;

use jiff::civil::Date;
use serde_json::{Map, Value, json};

use super::{Book, Content, Expect, Kind, Whose, fold};
use crate::calendar::{self, Month};
use crate::step::ShareArg;

/// The largest weight a member may be given.
pub const MAX_WEIGHT: i64 = 1_000_000;

/// Whose side a posting is on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Side {
    /// A member's own: their account, card, income, personal category, or spending `for` them.
    Member(usize),
    /// The household's: joint accounts and shared spending.
    Pool,
    /// Income nobody owns (interest, an unowned salary account).
    SharedIncome,
}

impl Book {
    /// Person `p` kept the vault at some time in month `m`.
    fn in_month(&self, p: usize, m: Month) -> bool {
        self.people[p]
            .stints
            .iter()
            .any(|&(joined, left)| joined <= m && left.is_none_or(|l| m <= l))
    }

    /// Person `p`'s weight in month `m`: nothing in a month they were not in; else the
    /// latest shares from `m` or earlier that name them; else 1.
    pub fn weight(&self, p: usize, m: Month) -> u64 {
        if !self.in_month(p, m) {
            return 0;
        }
        self.shares
            .iter()
            .rev()
            .filter(|s| s.0 <= m)
            .find_map(|s| s.1.get(&p).copied())
            .unwrap_or(1)
    }

    /// The members now, oldest first.
    pub fn current_members(&self) -> Vec<usize> {
        let mut members: Vec<usize> = (0..self.people.len()).filter(|&p| self.is_member(p)).collect();
        members.sort_by_key(|&p| (self.people[p].joined_at, p));
        members
    }

    /// Everyone who has kept the vault: the members now, oldest first, then former
    /// members by name.
    fn household(&self) -> Vec<usize> {
        let mut former: Vec<usize> = (0..self.people.len())
            .filter(|&p| !self.is_member(p) && !self.people[p].stints.is_empty())
            .collect();
        former.sort_by(|a, b| self.people[*a].name.cmp(&self.people[*b].name));
        let mut all = self.current_members();
        all.extend(former);
        all
    }

    /// The side of a posting on account `a` in an entry saying `whose`; none for the
    /// opening-balance account.
    fn side(&self, a: usize, whose: Option<Whose>) -> Option<Side> {
        let account = &self.accounts[a];
        let own = account.owner.map(Side::Member);
        match account.kind {
            Kind::Equity => None,
            Kind::Asset | Kind::Liability => Some(own.unwrap_or(Side::Pool)),
            Kind::Income => Some(own.unwrap_or(Side::SharedIncome)),
            Kind::Expense => Some(match whose {
                Some(Whose::Member(p)) => Side::Member(p),
                Some(Whose::Shared) => Side::Pool,
                None => own.unwrap_or(Side::Pool),
            }),
        }
    }

    /// An opening balance (a posting on the opening-balance account): outside settle-up.
    fn is_opening(&self, c: &Content) -> bool {
        c.lines().iter().any(|l| self.accounts[l.0].kind == Kind::Equity)
    }

    /// `total` divided among `people` by `weights`: each part rounded toward zero, the
    /// remainder whole to the largest weight (ties: the first name); all weights 0
    /// divide equally.
    fn divide(&self, total: i128, people: &[usize], weights: &[u64]) -> Vec<i128> {
        let zero = weights.iter().all(|&w| w == 0);
        let w: Vec<i128> = weights
            .iter()
            .map(|&w| if zero { 1 } else { i128::from(w) })
            .collect();
        let sum: i128 = w.iter().sum();
        if sum == 0 {
            return vec![0; people.len()];
        }
        let mut parts: Vec<i128> = w.iter().map(|&x| total * x / sum).collect();
        let rest = total - parts.iter().sum::<i128>();
        let largest = (0..people.len()).max_by(|&a, &b| {
            w[a].cmp(&w[b])
                .then_with(|| self.people[people[b]].name.cmp(&self.people[people[a]].name))
        });
        if let Some(i) = largest {
            parts[i] += rest;
        }
        parts
    }

    /// Amounts by month divided among `people`: months with the same weights together.
    fn divide_months(&self, people: &[usize], by_month: &BTreeMap<Month, i128>) -> Vec<i128> {
        let mut groups: BTreeMap<Vec<u64>, i128> = BTreeMap::new();
        for (&m, &x) in by_month {
            let w: Vec<u64> = people.iter().map(|&p| self.weight(p, m)).collect();
            *groups.entry(w).or_insert(0) += x;
        }
        let mut out = vec![0; people.len()];
        for (w, x) in groups {
            for (o, part) in out.iter_mut().zip(self.divide(x, people, &w)) {
                *o += part;
            }
        }
        out
    }

    /// `settle_up` over `from..=to` (None: the first entry's date, and today).
    pub fn settle_view(&self, from: Option<Date>, to: Option<Date>) -> Value {
        let to = to.unwrap_or_else(|| self.today());
        let counted: Vec<&Content> = self
            .live()
            .map(|(_, e)| &e.content)
            .filter(|c| c.date <= to && !self.is_opening(c))
            .collect();
        let from = from
            .or_else(|| counted.iter().map(|c| c.date).min())
            .unwrap_or(to)
            .min(to);
        let people = self.household();
        let at = |p: usize| {
            people
                .iter()
                .position(|&q| q == p)
                .expect("a person of the household")
        };
        let mut put_in = vec![0_i128; people.len()];
        let mut used: BTreeMap<Month, i128> = BTreeMap::new();
        let mut income: BTreeMap<Month, i128> = BTreeMap::new();
        for c in counted.iter().filter(|c| c.date >= from) {
            let month = calendar::month_of(c.date);
            for (a, x) in c.lines() {
                let x = i128::from(x);
                match self.side(a, c.for_whom) {
                    Some(Side::Member(p)) => put_in[at(p)] -= x,
                    Some(Side::Pool) => *used.entry(month).or_insert(0) += x,
                    Some(Side::SharedIncome) => *income.entry(month).or_insert(0) -= x,
                    None => {}
                }
            }
        }
        let share = self.divide_months(&people, &used);
        for (p, x) in put_in.iter_mut().zip(self.divide_months(&people, &income)) {
            *p += x;
        }
        let (first, last) = (calendar::month_of(from), calendar::month_of(to));
        let mut members = Map::new();
        let mut order = Vec::new();
        let mut nets = Vec::new();
        for (i, &p) in people.iter().enumerate() {
            let during = (first..=last).any(|m| self.in_month(p, m));
            if !self.is_member(p) && !during && put_in[i] == 0 && share[i] == 0 {
                continue;
            }
            let name = self.people[p].name.clone();
            let net = put_in[i] - share[i];
            members.insert(
                name.clone(),
                json!([minor(put_in[i]), minor(share[i]), minor(net)]),
            );
            order.push(json!(name));
            nets.push((name, net));
        }
        json!({
            "from": calendar::date_text(from),
            "to": calendar::date_text(to),
            "members": members,
            "order": order,
            "transfers": transfers(&nets)
                .into_iter()
                .map(|(f, t, x)| json!([f, t, minor(x)]))
                .collect::<Vec<_>>(),
            "check": "ok",
        })
    }

    /// `spending_report` by member of `kind` over `from..=to`: each member's own, plus
    /// their share of the household's, month by month; what is dated after today apart.
    pub fn member_spending_view(&self, kind: Kind, from: Date, to: Date) -> Value {
        let until = to.min(self.today());
        let people = self.household();
        let at = |p: usize| {
            people
                .iter()
                .position(|&q| q == p)
                .expect("a person of the household")
        };
        let mut own = vec![0_i128; people.len()];
        let mut shared: BTreeMap<Month, i128> = BTreeMap::new();
        for (_, e) in self.live() {
            let c = &e.content;
            if c.date < from || c.date > until {
                continue;
            }
            for (a, x) in c.lines() {
                if self.accounts[a].kind != kind {
                    continue;
                }
                let x = i128::from(kind.natural(x));
                match self.side(a, c.for_whom) {
                    Some(Side::Member(p)) => own[at(p)] += x,
                    Some(Side::Pool | Side::SharedIncome) => {
                        *shared.entry(calendar::month_of(c.date)).or_insert(0) += x;
                    }
                    None => {}
                }
            }
        }
        for (o, x) in own.iter_mut().zip(self.divide_months(&people, &shared)) {
            *o += x;
        }
        let mut rows = Map::new();
        for (i, &p) in people.iter().enumerate() {
            if self.is_member(p) || own[i] != 0 {
                rows.insert(self.people[p].name.clone(), json!(minor(own[i])));
            }
        }
        json!({
            "total": minor(own.iter().sum()),
            "rows": rows,
            "scheduled": self.scheduled_in(kind, from, to, None),
        })
    }

    /// Every member's weight this month, oldest first.
    fn shares_view(&self) -> Value {
        let month = self.this_month();
        Value::Array(
            self.current_members()
                .into_iter()
                .map(|p| json!([self.people[p].name, self.weight(p, month)]))
                .collect(),
        )
    }

    /// `update_vault`: a rename (the caller's name for the vault), shares from this
    /// month on, or both; owners only.
    pub fn update_vault(&mut self, who: usize, new_name: Option<&str>, shares: Option<&[ShareArg]>) {
        let mut args = json!({});
        if let Some(n) = new_name {
            args["newName"] = json!(n);
        }
        // The shares as the JSON object holds them (a name sent twice alike is one key).
        let asked: Option<Map<String, Value>> = shares.map(|s| {
            s.iter()
                .map(|x| {
                    let name = x
                        .who
                        .map_or_else(|| self.stranger().to_owned(), |p| self.people[p].name.clone());
                    let key = if x.spaced { format!("{name} ") } else { name };
                    (key, json!(x.weight))
                })
                .collect()
        });
        if let Some(a) = &asked {
            args["shares"] = Value::Object(a.clone());
        }
        if !self.is_owner(who) || (new_name.is_none() && asked.is_none()) {
            self.call(who, "update_vault", args, Expect::Refused);
            return;
        }
        let month = self.this_month();
        let members = self.current_members();
        let mut changed = false;
        if let Some(asked) = &asked {
            let before: BTreeMap<usize, u64> = members.iter().map(|&p| (p, self.weight(p, month))).collect();
            let mut merged = before.clone();
            let mut seen = Vec::new();
            let mut ok = !asked.is_empty();
            for (name, weight) in asked {
                let weight = weight.as_i64().unwrap_or(-1);
                let named = members
                    .iter()
                    .copied()
                    .find(|&p| fold(&self.people[p].name) == fold(name));
                match named {
                    Some(p) if !seen.contains(&p) && (0..=MAX_WEIGHT).contains(&weight) => {
                        seen.push(p);
                        merged.insert(p, weight.unsigned_abs());
                    }
                    _ => ok = false,
                }
            }
            if !ok || merged.values().all(|&w| w == 0) {
                self.call(who, "update_vault", args, Expect::Refused);
                return;
            }
            if merged != before {
                // A second change in a month replaces that month's.
                self.shares.retain(|s| s.0 != month);
                self.shares.push((month, merged));
                self.shares.sort_by_key(|s| s.0);
                changed = true;
            }
        }
        if let Some(n) = new_name
            && self.people[who].vault_name != n
        {
            self.people[who].vault_name = n.to_owned();
            changed = true;
        }
        let view = json!({
            "name": self.people[who].vault_name,
            "shares": self.shares_view(),
            "changed": changed,
        });
        self.call(who, "update_vault", args, Expect::Ok(view));
    }
}

/// An amount the model summed in i128, as JSON.
fn minor(x: i128) -> Value {
    json!(i64::try_from(x).expect("an amount in range"))
}

/// The fewest transfers that settle `nets` (by name): the people with a net split into
/// as many groups summing to zero as there can be; in each, the most negative pays the
/// most positive what settles one of them, until all are even. Sorted by amount, largest
/// first, then by the payer's name, then the payee's.
pub fn transfers(nets: &[(String, i128)]) -> Vec<(String, String, i128)> {
    let open: Vec<(String, i128)> = nets.iter().filter(|n| n.1 != 0).cloned().collect();
    let mut out = Vec::new();
    for group in groups(&open.iter().map(|n| n.1).collect::<Vec<_>>()) {
        let mut left: Vec<(String, i128)> = group.iter().map(|&i| open[i].clone()).collect();
        // The first name wins a tie.
        left.sort_by(|a, b| a.0.cmp(&b.0));
        loop {
            let debtor = (0..left.len())
                .filter(|&i| left[i].1 < 0)
                .min_by_key(|&i| left[i].1);
            let creditor = (0..left.len())
                .filter(|&i| left[i].1 > 0)
                .max_by(|&a, &b| left[a].1.cmp(&left[b].1).then(b.cmp(&a)));
            let (Some(d), Some(c)) = (debtor, creditor) else {
                break;
            };
            let x = (-left[d].1).min(left[c].1);
            left[d].1 += x;
            left[c].1 -= x;
            out.push((left[d].0.clone(), left[c].0.clone(), x));
        }
    }
    out.sort_by(|a, b| {
        b.2.cmp(&a.2)
            .then_with(|| a.0.cmp(&b.0))
            .then_with(|| a.1.cmp(&b.1))
    });
    out
}

/// `values` (each non-zero, summing to zero) split into as many zero-sum groups as
/// there can be: indexes of each group (by brute force over subsets; a household has
/// three people).
fn groups(values: &[i128]) -> Vec<Vec<usize>> {
    let n = values.len();
    if n == 0 {
        return Vec::new();
    }
    let full = (1_usize << n) - 1;
    let sum = |mask: usize| -> i128 { (0..n).filter(|i| mask & (1 << i) != 0).map(|i| values[i]).sum() };
    // best[mask]: the most groups `mask` splits into (None: it does not sum to zero).
    let mut best: Vec<Option<(usize, usize)>> = vec![None; full + 1];
    best[0] = Some((0, 0));
    for mask in 1..=full {
        if sum(mask) != 0 {
            continue;
        }
        // The group holding the lowest index, and the rest.
        let low = mask & mask.wrapping_neg();
        let mut sub = mask;
        while sub > 0 {
            if sub & low != 0
                && sum(sub) == 0
                && let Some((k, _)) = best[mask ^ sub]
                && best[mask].is_none_or(|b| b.0 < k + 1)
            {
                best[mask] = Some((k + 1, sub));
            }
            sub = (sub - 1) & mask;
        }
    }
    let mut out = Vec::new();
    let mut mask = full;
    while mask > 0 {
        let Some((_, sub)) = best[mask] else { break };
        out.push((0..n).filter(|i| sub & (1 << i) != 0).collect());
        mask ^= sub;
    }
    out
}

/// Whether `transfers` settle `nets` (both as the server answered, by name) as the
/// contract says: every net even after them, the fewest payments that do it, each
/// positive, largest first, then by the payer's name, then the payee's. `"ok"`, or
/// what is wrong.
pub fn transfers_check(nets: &[(String, i128)], transfers: &[(String, String, i128)]) -> String {
    let total: i128 = nets.iter().map(|n| n.1).sum();
    if total != 0 {
        return format!("the nets sum to {total}");
    }
    let mut left: BTreeMap<&str, i128> = nets.iter().map(|n| (n.0.as_str(), n.1)).collect();
    for (from, to, x) in transfers {
        if *x <= 0 || from == to {
            return format!("a transfer {from} -> {to} of {x}");
        }
        match (left.contains_key(from.as_str()), left.contains_key(to.as_str())) {
            (true, true) => {
                *left.entry(from.as_str()).or_insert(0) += x;
                *left.entry(to.as_str()).or_insert(0) -= x;
            }
            _ => return format!("a transfer {from} -> {to} names someone not listed"),
        }
    }
    if let Some((who, x)) = left.iter().find(|n| *n.1 != 0) {
        return format!("after the transfers {who} is still at {x}");
    }
    let open: Vec<i128> = nets.iter().map(|n| n.1).filter(|&x| x != 0).collect();
    let fewest = open.len() - groups(&open).len();
    if transfers.len() != fewest {
        return format!("{} transfers where {fewest} settle it", transfers.len());
    }
    let sorted = transfers.windows(2).all(|w| {
        (std::cmp::Reverse(w[0].2), &w[0].0, &w[0].1) <= (std::cmp::Reverse(w[1].2), &w[1].0, &w[1].1)
    });
    if !sorted {
        return "not sorted by amount (largest first), then payer, then payee".to_owned();
    }
    "ok".to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn nets(v: &[(&str, i128)]) -> Vec<(String, i128)> {
        v.iter().map(|(n, x)| ((*n).to_owned(), *x)).collect()
    }

    #[test]
    fn transfers_settle_with_the_fewest_payments() {
        let n = nets(&[("a", -30), ("b", 10), ("c", 20)]);
        let t = transfers(&n);
        assert_eq!(
            t,
            vec![
                ("a".to_owned(), "c".to_owned(), 20),
                ("a".to_owned(), "b".to_owned(), 10)
            ]
        );
        assert_eq!(transfers_check(&n, &t), "ok");
        // Two pairs that settle apart: two payments, not three.
        let n = nets(&[("a", -5), ("b", 5), ("c", -7), ("d", 7)]);
        let t = transfers(&n);
        assert_eq!(t.len(), 2);
        assert_eq!(transfers_check(&n, &t), "ok");
        assert_ne!(transfers_check(&n, &t[..1]), "ok");
        assert_eq!(transfers(&nets(&[("a", 0), ("b", 0)])), vec![]);
    }
}
