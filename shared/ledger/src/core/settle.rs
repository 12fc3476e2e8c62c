//! Settle-up arithmetic (docs/decisions/060-settle-up.md): what each person put in,
//! their share of what the household used, and the fewest transfers that settle it.
//!
//! Pure: the caller reads the entries and says, for each posting, whose it is
//! ([`Party`]); this module only adds up. Every posting counts as `−amount` put in by
//! its party (money leaving a member's side is theirs put in; money arriving there
//! is theirs taken out), and `+amount` used when its party is the household's pool.
//! Because a transaction's postings sum to zero, what everyone put in always equals
//! what the pool used, so the nets sum to zero before any rounding, and the rounding
//! below keeps every total exact.

use std::collections::BTreeMap;

use dochiya_domain::YearMonth;

/// Whose side of the household a posting is on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Party {
    /// A member's own account, income, or spending for them (index into the people).
    Member(usize),
    /// The household's: a shared account or shared spending.
    Pool,
    /// Shared income (an income account nobody owns): put in by everyone by the shares.
    SharedIncome,
}

/// Most people with a non-zero net for which the fewest transfers are searched
/// exactly (3ⁿ steps); past it, a greedy pairing (at most one transfer more per group).
const EXACT_UP_TO: usize = 12;

/// The running sums of a settle-up.
#[derive(Debug, Clone)]
pub(crate) struct Tally {
    /// Each person's direct put-in (signed, minor units).
    direct: Vec<i128>,
    /// Shared income by month (put in by everyone by that month's shares).
    shared_income: BTreeMap<YearMonth, i128>,
    /// What the pool used by month.
    used: BTreeMap<YearMonth, i128>,
}

/// One person's line of a settle-up, in minor units.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Line {
    /// What they put in.
    pub put_in: i64,
    /// Their share of what the household used.
    pub share: i64,
    /// `put_in − share`: positive is owed to them.
    pub net: i64,
}

/// One payment that settles: `from` pays `to`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Transfer {
    /// The payer (index).
    pub from: usize,
    /// The payee (index).
    pub to: usize,
    /// Minor units, positive.
    pub amount: i64,
}

impl Tally {
    /// An empty tally for `people` people.
    pub fn new(people: usize) -> Tally {
        Tally {
            direct: vec![0; people],
            shared_income: BTreeMap::new(),
            used: BTreeMap::new(),
        }
    }

    /// Count one posting (debit-positive `amount`) of an entry dated in `month`.
    pub fn add(&mut self, month: YearMonth, party: Party, amount: i64) {
        let amount = i128::from(amount);
        match party {
            Party::Member(i) => {
                if let Some(d) = self.direct.get_mut(i) {
                    *d -= amount;
                }
            }
            Party::SharedIncome => *self.shared_income.entry(month).or_insert(0) -= amount,
            Party::Pool => *self.used.entry(month).or_insert(0) += amount,
        }
    }

    /// Each person's line, with `weights(month)` the shares in force in that month
    /// (one weight per person) and `rank` the order a remainder prefers among equal
    /// weights (lower first). `None` when a total does not fit in minor units.
    pub fn lines(&self, weights: impl Fn(YearMonth) -> Vec<u64>, rank: &[usize]) -> Option<Vec<Line>> {
        let n = self.direct.len();
        let mut put_in = self.direct.clone();
        let mut share = vec![0i128; n];
        // Months with the same weights are divided once, so a remainder is given once.
        let mut by_weights: BTreeMap<Vec<u64>, (i128, i128)> = BTreeMap::new();
        for (month, used) in &self.used {
            by_weights.entry(weights(*month)).or_default().0 += used;
        }
        for (month, income) in &self.shared_income {
            by_weights.entry(weights(*month)).or_default().1 += income;
        }
        for (w, (used, income)) in &by_weights {
            for (i, part) in divide(*used, w, rank).into_iter().enumerate() {
                share[i] += part;
            }
            for (i, part) in divide(*income, w, rank).into_iter().enumerate() {
                put_in[i] += part;
            }
        }
        (0..n)
            .map(|i| {
                let p = i64::try_from(put_in[i]).ok()?;
                let s = i64::try_from(share[i]).ok()?;
                Some(Line {
                    put_in: p,
                    share: s,
                    net: p.checked_sub(s)?,
                })
            })
            .collect()
    }
}

/// `total` divided by `weights` exactly: each part rounded toward zero, and what is
/// left goes whole to the largest weight (ties: the lowest `rank`). All-zero weights
/// divide equally among everyone.
pub(crate) fn divide(total: i128, weights: &[u64], rank: &[usize]) -> Vec<i128> {
    let n = weights.len();
    if n == 0 {
        return vec![];
    }
    let equal = vec![1u64; n];
    let w: &[u64] = if weights.iter().all(|x| *x == 0) {
        &equal
    } else {
        weights
    };
    let sum: i128 = w.iter().map(|x| i128::from(*x)).sum();
    let mut parts: Vec<i128> = w.iter().map(|x| total * i128::from(*x) / sum).collect();
    let left = total - parts.iter().sum::<i128>();
    if left != 0 {
        let pick = (0..n)
            .max_by(|a, b| w[*a].cmp(&w[*b]).then(rank[*b].cmp(&rank[*a])))
            .unwrap_or(0);
        parts[pick] += left;
    }
    parts
}

/// The fewest transfers that bring every net to zero (the nets must sum to zero):
/// the people are split into as many groups summing to zero as there can be, and
/// each group of k settles in k − 1 transfers, the largest debt paid to the largest
/// credit first. `rank` orders ties (lower first).
pub(crate) fn transfers(nets: &[i64], rank: &[usize]) -> Vec<Transfer> {
    let mut open: Vec<usize> = (0..nets.len()).filter(|i| nets[*i] != 0).collect();
    open.sort_by_key(|i| rank[*i]);
    let groups = if open.len() <= EXACT_UP_TO {
        zero_sum_groups(&open, nets)
    } else {
        vec![open]
    };
    let mut out = Vec::new();
    for group in groups {
        let mut left: Vec<(usize, i64)> = group.iter().map(|i| (*i, nets[*i])).collect();
        loop {
            let debtor = left
                .iter()
                .filter(|x| x.1 < 0)
                .min_by(|a, b| a.1.cmp(&b.1).then(rank[a.0].cmp(&rank[b.0])))
                .copied();
            let creditor = left
                .iter()
                .filter(|x| x.1 > 0)
                .max_by(|a, b| a.1.cmp(&b.1).then(rank[b.0].cmp(&rank[a.0])))
                .copied();
            let (Some((d, owes)), Some((c, owed))) = (debtor, creditor) else {
                break;
            };
            let amount = owed.min(-owes);
            out.push(Transfer {
                from: d,
                to: c,
                amount,
            });
            for x in left.iter_mut() {
                if x.0 == d {
                    x.1 += amount;
                } else if x.0 == c {
                    x.1 -= amount;
                }
            }
        }
    }
    out.sort_by(|a, b| {
        b.amount
            .cmp(&a.amount)
            .then(rank[a.from].cmp(&rank[b.from]))
            .then(rank[a.to].cmp(&rank[b.to]))
    });
    out
}

/// `people` split into the most groups whose nets sum to zero (exact search over subsets).
fn zero_sum_groups(people: &[usize], nets: &[i64]) -> Vec<Vec<usize>> {
    let n = people.len();
    if n == 0 {
        return vec![];
    }
    let full: usize = (1 << n) - 1;
    let sum = |mask: usize| -> i128 {
        (0..n)
            .filter(|b| mask & (1 << b) != 0)
            .map(|b| i128::from(nets[people[b]]))
            .sum()
    };
    let sums: Vec<i128> = (0..=full).map(sum).collect();
    // best[mask]: most zero-sum groups `mask` splits into (masks that sum to zero only).
    let mut best: Vec<Option<(u32, usize)>> = vec![None; full + 1];
    best[0] = Some((0, 0));
    for mask in 1..=full {
        if sums[mask] != 0 {
            continue;
        }
        let low = mask & mask.wrapping_neg();
        // Every zero-sum part of `mask` holding its lowest member, the rest split best.
        let mut sub = mask;
        let mut found: Option<(u32, usize)> = None;
        while sub > 0 {
            if sub & low != 0
                && sums[sub] == 0
                && let Some((k, _)) = best[mask ^ sub]
                && found.is_none_or(|(f, _)| k + 1 > f)
            {
                found = Some((k + 1, sub));
            }
            sub = (sub - 1) & mask;
        }
        best[mask] = found;
    }
    let mut groups = Vec::new();
    let mut mask = full;
    while mask != 0 {
        let Some((_, part)) = best[mask] else {
            // The nets do not sum to zero: one group settles what can be settled.
            return vec![people.to_vec()];
        };
        groups.push(
            (0..n)
                .filter(|b| part & (1 << b) != 0)
                .map(|b| people[b])
                .collect(),
        );
        mask ^= part;
    }
    groups
}

#[cfg(test)]
mod tests {
    use super::*;

    fn month(m: i8) -> YearMonth {
        YearMonth::parse(&format!("2026-{m:02}")).unwrap()
    }

    #[test]
    fn a_remainder_goes_whole_to_the_largest_share_then_by_rank() {
        assert_eq!(divide(10_001, &[6, 4], &[0, 1]), vec![6_001, 4_000]);
        assert_eq!(divide(100, &[1, 1, 1], &[2, 0, 1]), vec![33, 34, 33]);
        assert_eq!(divide(-100, &[1, 1, 1], &[0, 1, 2]), vec![-34, -33, -33]);
        assert_eq!(divide(7, &[0, 0], &[0, 1]), vec![4, 3]);
        assert_eq!(divide(7, &[0, 3], &[0, 1]), vec![0, 7]);
    }

    #[test]
    fn a_joint_account_paying_shared_spending_puts_nothing_in_and_both_share_it() {
        // 하은 (0) moves 500,000 to the joint account; the joint account pays 300,000 of groceries.
        let mut t = Tally::new(2);
        t.add(month(11), Party::Member(0), -500_000);
        t.add(month(11), Party::Pool, 500_000);
        t.add(month(11), Party::Pool, -300_000);
        t.add(month(11), Party::Pool, 300_000);
        let lines = t.lines(|_| vec![1, 1], &[0, 1]).unwrap();
        // Used: the 300,000 spent plus the 200,000 the joint account kept.
        assert_eq!(
            lines,
            vec![
                Line {
                    put_in: 500_000,
                    share: 250_000,
                    net: 250_000
                },
                Line {
                    put_in: 0,
                    share: 250_000,
                    net: -250_000
                },
            ]
        );
        assert_eq!(
            transfers(&[250_000, -250_000], &[0, 1]),
            vec![Transfer {
                from: 1,
                to: 0,
                amount: 250_000
            }]
        );
    }

    #[test]
    fn shared_income_is_put_in_by_the_shares_of_its_month() {
        let mut t = Tally::new(2);
        t.add(month(11), Party::SharedIncome, -1_001);
        t.add(month(11), Party::Pool, 1_001);
        let lines = t.lines(|_| vec![6, 4], &[1, 0]).unwrap();
        assert_eq!(
            lines[0],
            Line {
                put_in: 601,
                share: 601,
                net: 0
            }
        );
        assert_eq!(
            lines[1],
            Line {
                put_in: 400,
                share: 400,
                net: 0
            }
        );
    }

    #[test]
    fn months_with_other_shares_are_divided_apart() {
        let mut t = Tally::new(2);
        t.add(month(10), Party::Member(0), -1_000);
        t.add(month(10), Party::Pool, 1_000);
        t.add(month(11), Party::Member(0), -1_000);
        t.add(month(11), Party::Pool, 1_000);
        let lines = t
            .lines(|m| if m == month(10) { vec![1, 1] } else { vec![3, 1] }, &[0, 1])
            .unwrap();
        assert_eq!(
            lines[0],
            Line {
                put_in: 2_000,
                share: 1_250,
                net: 750
            }
        );
        assert_eq!(
            lines[1],
            Line {
                put_in: 0,
                share: 750,
                net: -750
            }
        );
    }

    #[test]
    fn fewest_transfers_pair_the_groups_that_cancel() {
        // Greedy largest-first would take three transfers; two groups settle in two.
        let nets = [-5, -3, 3, 5];
        let got = transfers(&nets, &[0, 1, 2, 3]);
        assert_eq!(
            got,
            vec![
                Transfer {
                    from: 0,
                    to: 3,
                    amount: 5
                },
                Transfer {
                    from: 1,
                    to: 2,
                    amount: 3
                },
            ]
        );
        assert_eq!(transfers(&[0, 0], &[0, 1]), vec![]);
        let three = transfers(&[-7, 4, 3], &[0, 1, 2]);
        assert_eq!(
            three,
            vec![
                Transfer {
                    from: 0,
                    to: 1,
                    amount: 4
                },
                Transfer {
                    from: 0,
                    to: 2,
                    amount: 3
                }
            ]
        );
    }

    #[test]
    fn many_people_still_settle_exactly() {
        let nets: Vec<i64> = (0..15).map(|i| if i < 14 { i - 7 } else { 7 }).collect();
        assert_eq!(nets.iter().sum::<i64>(), 0);
        let rank: Vec<usize> = (0..15).collect();
        let got = transfers(&nets, &rank);
        let mut left = nets.clone();
        for t in &got {
            assert!(t.amount > 0);
            left[t.from] += t.amount;
            left[t.to] -= t.amount;
        }
        assert!(left.iter().all(|x| *x == 0), "{left:?}");
        assert!(got.len() < 15);
    }
}
