//! Accounts: `create_account` (with its opening balance) and `update_account` (rename,
//! archive and bring back, parent, billing) — docs/tools.md, "create_account",
//! "update_account", "Card bills"; archived handles from its conventions.

use serde_json::json;

use super::entries::Draft;
use super::views::account_view;
use super::{Account, Billing, Book, Content, Expect, Kind, Learn, Origin, Performance};
use crate::calendar;
use crate::step::{AccountChange, Owner, PerformanceArg};

impl Book {
    /// The opening-balance account, made on first use with the vault's language.
    fn equity_account(&mut self) -> usize {
        if let Some(e) = self.equity {
            return e;
        }
        let name = if self.setup.korean() {
            "기초잔액"
        } else {
            "Opening Balances"
        };
        self.accounts.push(Account {
            name: name.to_owned(),
            kind: Kind::Equity,
            parent: None,
            billing: None,
            handle: None,
            opening: None,
            owner: None,
            goal: None,
            words: Vec::new(),
            performance: None,
        });
        self.equity = Some(self.accounts.len() - 1);
        self.accounts.len() - 1
    }

    /// A billing cycle the contract takes: days 1–31, not closing on the 28th or later
    /// and paid later the same month.
    pub fn billing_ok(b: Billing) -> bool {
        (1..=31).contains(&b.closing)
            && (1..=31).contains(&b.payment)
            && !(b.closing >= 28 && b.payment > b.closing)
    }

    /// `create_account`.
    #[allow(clippy::too_many_arguments)]
    pub fn create_account(
        &mut self,
        who: usize,
        name: &str,
        kind: Kind,
        opening: Option<(i64, i64)>,
        parent: Option<usize>,
        billing: Option<Billing>,
        owner: Option<Owner>,
    ) {
        let mut args = json!({"name": name, "kind": kind.name()});
        if let Some((x, d)) = opening {
            args["openingBalance"] = json!(self.amount(x));
            args["openingDate"] = json!(calendar::date_text(calendar::add_days(self.today(), d)));
        }
        if let Some(p) = parent {
            args["parent"] = json!(self.accounts[p].reference());
        }
        if let Some(b) = billing {
            args["billing"] = json!({"closingDay": b.closing, "paymentDay": b.payment});
        }
        if let Some(o) = owner {
            args["owner"] = json!(self.owner_text(o));
        }
        let owner_ok = owner.is_none_or(|o| self.owner_of(o).is_some());
        let parent_ok = parent.is_none_or(|p| self.parent_fits(None, kind, p));
        let billing_ok = billing.is_none_or(|b| kind == Kind::Liability && Book::billing_ok(b));
        let opening_ok = opening.is_none() || matches!(kind, Kind::Asset | Kind::Liability);
        let valid = self.is_member(who) && parent_ok && billing_ok && opening_ok && owner_ok;
        if let Some(a) = self.live_named(name) {
            // A repeat: the same kind, and the same opening balance and cycle when sent
            // (a parent sent again is not compared: the contract names kind and opening;
            // nor is an owner, which the ledger neither checks nor sets on a repeat — the
            // contract is silent, followed here).
            let same = self.is_member(who)
                && self.accounts[a].kind == kind
                && opening.is_none_or(|(x, _)| self.accounts[a].opening == Some(x))
                && billing.is_none_or(|b| self.accounts[a].billing == Some(b));
            let expect = if same {
                Expect::Ok(json!({"name": self.accounts[a].name, "kind": kind.name(), "created": false}))
            } else {
                Expect::Refused
            };
            self.call(who, "create_account", args, expect);
            return;
        }
        if !valid {
            self.call(who, "create_account", args, Expect::Refused);
            return;
        }
        self.accounts.push(Account {
            name: name.to_owned(),
            kind,
            parent,
            billing,
            handle: None,
            opening: opening.map(|o| o.0),
            owner: owner.and_then(|o| self.owner_of(o)).flatten(),
            goal: None,
            words: Vec::new(),
            performance: None,
        });
        let a = self.accounts.len() - 1;
        let mut learn = Vec::new();
        if let Some((x, d)) = opening {
            let e = self.equity_account();
            let (from, to) = if kind == Kind::Asset { (e, a) } else { (a, e) };
            let memo = if self.setup.korean() {
                format!("{name} 기초잔액")
            } else {
                format!("Opening balance of {name}")
            };
            let draft = Draft {
                content: Content {
                    date: calendar::add_days(self.today(), d),
                    memo,
                    from: vec![(from, x)],
                    to: vec![(to, x)],
                    tags: Vec::new(),
                    for_whom: None,
                },
                installments: None,
                external_ref: None,
                date_left_out: false,
                for_arg: None,
                picked: None,
            };
            let n = self.add_entry(&draft, Origin::Opening(who), None);
            learn.push(Learn::Entry(n, "/openingTransactionId".into()));
        }
        let (balance, scheduled) = self.balance(a, self.today());
        let view = json!({
            "name": name, "kind": kind.name(), "created": true,
            "balance": balance, "scheduled": scheduled,
        });
        self.call(who, "create_account", args, Expect::Ok(view)).learn = learn;
    }

    /// `p` may be the parent of account `a` (None: a new account) of `kind`.
    fn parent_fits(&self, a: Option<usize>, kind: Kind, p: usize) -> bool {
        let parent = &self.accounts[p];
        let kind_ok = matches!(kind, Kind::Income | Kind::Expense) && parent.kind == kind;
        let shape_ok = parent.parent.is_none() && a.is_none_or(|a| a != p && self.children(a).is_empty());
        kind_ok && shape_ok && parent.handle.is_none()
    }

    /// `update_account`.
    pub fn update_account(&mut self, who: usize, a: usize, change: &AccountChange) {
        let mut args = json!({"account": self.accounts[a].reference()});
        // Any member may send a card's cycle (docs/tools.md) and a category's words
        // (`match`: "in a call of its own", where `owner` says "owners; in a call of
        // its own"; the general "Owners only." is read as the rest's).
        let owner_only = !matches!(
            change,
            AccountChange::Billing(_) | AccountChange::Performance(..) | AccountChange::Match(_)
        );
        let allowed = self.is_member(who) && (!owner_only || self.is_owner(who));
        let outcome = match change {
            AccountChange::Rename(n) => {
                args["newName"] = json!(n);
                self.rename(a, n, allowed)
            }
            AccountChange::Archive(force) => {
                args["archive"] = json!(true);
                if *force {
                    args["force"] = json!(true);
                }
                self.archive(a, *force, allowed)
            }
            AccountChange::Unarchive(n) => {
                args["archive"] = json!(false);
                if let Some(n) = n {
                    args["newName"] = json!(n);
                }
                self.unarchive(a, n.as_deref(), allowed)
            }
            AccountChange::Parent(p) => {
                args["parent"] = json!(p.map_or("", |p| self.accounts[p].reference()));
                self.reparent(a, *p, allowed)
            }
            AccountChange::Billing(b) => {
                args["billing"] = b.map_or(
                    json!({}),
                    |b| json!({"closingDay": b.closing, "paymentDay": b.payment}),
                );
                self.rebill(a, *b, allowed)
            }
            AccountChange::Owner(o) => {
                args["owner"] = json!(self.owner_text(*o));
                self.set_owner(a, *o, allowed)
            }
            AccountChange::Match(words) => {
                args["match"] = json!(words);
                self.set_words(a, words, allowed)
            }
            AccountChange::Performance(b, p) => {
                let mut billing = b.map_or(
                    json!({}),
                    |b| json!({"closingDay": b.closing, "paymentDay": b.payment}),
                );
                let mut perf = json!({"threshold": self.amount(p.threshold)});
                if !p.exclude.is_empty() {
                    let names: Vec<&str> = p.exclude.iter().map(|&x| self.accounts[x].reference()).collect();
                    perf["exclude"] = json!(names);
                }
                billing["performance"] = perf;
                args["billing"] = billing;
                self.reperform(a, *b, p, allowed)
            }
        };
        let expect = match outcome {
            Some(changed) => {
                let mut account = account_view(self, a);
                // Each setting is compared where the call sends it (an archive's result
                // leaves the cycle out).
                if !matches!(change, AccountChange::Billing(_) | AccountChange::Performance(..)) {
                    account["billing"] = json!("*");
                }
                if !matches!(change, AccountChange::Match(_)) {
                    account["match"] = json!("*");
                }
                if !matches!(change, AccountChange::Parent(_)) {
                    account["parent"] = json!("*");
                }
                if !matches!(change, AccountChange::Owner(_)) {
                    account["owner"] = json!("*");
                }
                let mut view = json!({"account": account, "changed": changed});
                if matches!(change, AccountChange::Archive(_)) {
                    let (balance, scheduled) = self.balance(a, self.today());
                    view["balance"] = json!(balance);
                    view["scheduled"] = json!(scheduled);
                }
                Expect::Ok(view)
            }
            None => Expect::Refused,
        };
        self.call(who, "update_account", args, expect);
    }

    fn rename(&mut self, a: usize, name: &str, allowed: bool) -> Option<bool> {
        let taken = self.live_named(name).is_some_and(|b| b != a);
        if !allowed || self.accounts[a].handle.is_some() || taken || Some(a) == self.equity {
            return None;
        }
        let changed = self.accounts[a].name != name;
        self.accounts[a].name = name.to_owned();
        Some(changed)
    }

    fn archive(&mut self, a: usize, force: bool, allowed: bool) -> Option<bool> {
        let account = &self.accounts[a];
        if !allowed || account.handle.is_some() {
            return None;
        }
        let (balance, scheduled) = self.balance(a, self.today());
        let holds = balance != 0 || scheduled.is_some_and(|s| s != 0);
        if holds && !force && matches!(account.kind, Kind::Asset | Kind::Liability | Kind::Equity) {
            return None;
        }
        let stem = format!("{} (archived {}", account.name, calendar::date_text(self.today()));
        let same_day = self
            .accounts
            .iter()
            .filter(|b| {
                b.handle
                    .as_deref()
                    .is_some_and(|h| h == format!("{stem})") || h.starts_with(&format!("{stem} #")))
            })
            .count();
        let handle = if same_day == 0 {
            format!("{stem})")
        } else {
            format!("{stem} #{})", same_day + 1)
        };
        self.accounts[a].handle = Some(handle);
        Some(true)
    }

    fn unarchive(&mut self, a: usize, new_name: Option<&str>, allowed: bool) -> Option<bool> {
        if !allowed {
            return None;
        }
        if self.accounts[a].handle.is_none() {
            return Some(false);
        }
        let name = new_name.map_or_else(|| self.accounts[a].name.clone(), str::to_owned);
        if self.live_named(&name).is_some() {
            return None;
        }
        self.accounts[a].handle = None;
        self.accounts[a].name = name;
        Some(true)
    }

    fn reparent(&mut self, a: usize, p: Option<usize>, allowed: bool) -> Option<bool> {
        let account = &self.accounts[a];
        let kind_ok = matches!(account.kind, Kind::Income | Kind::Expense);
        if !allowed || account.handle.is_some() || !kind_ok {
            return None;
        }
        if let Some(p) = p
            && !self.parent_fits(Some(a), account.kind, p)
        {
            return None;
        }
        let changed = self.accounts[a].parent != p;
        self.accounts[a].parent = p;
        Some(changed)
    }

    /// The text an `owner` is sent as.
    pub fn owner_text(&self, o: Owner) -> String {
        match o {
            Owner::Person(p) => self.people[p].name.clone(),
            Owner::Nobody => String::new(),
            Owner::Stranger => self.stranger().to_owned(),
        }
    }

    /// What an `owner` sets (`Some(None)`: the household's), or `None` when refused (a
    /// name that is no member's now).
    fn owner_of(&self, o: Owner) -> Option<Option<usize>> {
        match o {
            Owner::Person(p) => self.is_member(p).then_some(Some(p)),
            Owner::Nobody => Some(None),
            Owner::Stranger => None,
        }
    }

    /// `owner` of a live account other than the opening-balance one (owners only).
    fn set_owner(&mut self, a: usize, o: Owner, allowed: bool) -> Option<bool> {
        let owner = self.owner_of(o)?;
        if !allowed || self.accounts[a].handle.is_some() || Some(a) == self.equity {
            return None;
        }
        let changed = self.accounts[a].owner != owner;
        self.accounts[a].owner = owner;
        Some(changed)
    }

    fn rebill(&mut self, a: usize, b: Option<Billing>, allowed: bool) -> Option<bool> {
        let account = &self.accounts[a];
        let ok = allowed
            && account.kind == Kind::Liability
            && account.handle.is_none()
            && b.is_none_or(Book::billing_ok);
        if !ok {
            return None;
        }
        let changed = account.billing != b || (b.is_none() && account.performance.is_some());
        self.accounts[a].billing = b;
        // Sent without `performance`, the cycle keeps its 실적; `{}` clears both.
        if b.is_none() {
            self.accounts[a].performance = None;
        }
        Some(changed)
    }

    /// `billing` with `performance`: the cycle and the card's 실적 together. Refused: no
    /// cycle, a threshold of 0 or less, an excluded account that is no expense category.
    fn reperform(&mut self, a: usize, b: Option<Billing>, p: &PerformanceArg, allowed: bool) -> Option<bool> {
        let account = &self.accounts[a];
        let excluded_ok = p.exclude.iter().all(|&x| self.accounts[x].kind == Kind::Expense);
        let b = b.filter(|&b| {
            allowed
                && account.kind == Kind::Liability
                && account.handle.is_none()
                && Book::billing_ok(b)
                && p.threshold > 0
                && excluded_ok
        })?;
        let performance = Performance {
            threshold: p.threshold,
            exclude: p.exclude.clone(),
        };
        let changed = account.billing != Some(b) || account.performance.as_ref() != Some(&performance);
        self.accounts[a].billing = Some(b);
        self.accounts[a].performance = Some(performance);
        Some(changed)
    }
}
