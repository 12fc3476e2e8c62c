//! The household a history starts from: the vault, its accounts, who keeps it.

use serde_json::json;

use super::{Billing, Book, Expect, Kind, Person, Role};
use crate::money::Currency;

/// An account made at the start.
#[derive(Debug, Clone, PartialEq)]
pub struct Starting {
    /// Name.
    pub name: &'static str,
    /// Kind.
    pub kind: Kind,
    /// Opening balance (posted 40 days before the start).
    pub opening: Option<i64>,
    /// Parent, by its index in the starting list.
    pub parent: Option<usize>,
    /// Billing cycle.
    pub billing: Option<Billing>,
}

/// The vault's settings and the household at the start.
#[derive(Debug, Clone, PartialEq)]
pub struct Setup {
    /// The currency.
    pub currency: Currency,
    /// The IANA zone.
    pub zone: &'static str,
    /// The vault's name.
    pub vault: &'static str,
    /// The clock at the start (Unix seconds).
    pub start: i64,
    /// The people: subject and display name. Person 0 makes the vault.
    pub people: Vec<(&'static str, &'static str)>,
    /// How many of them keep the vault from the start (person 0 first, as owner).
    pub members: usize,
    /// Person 1 joins as an owner (else as a member).
    pub second_owner: bool,
    /// The accounts made at the start.
    pub accounts: Vec<Starting>,
    /// Accounts made someone's own once the members are in (`update_account` by person
    /// 0): the account's index in the starting list and the person (left out when they
    /// do not keep the vault from the start).
    pub owners: Vec<(usize, usize)>,
}

impl Setup {
    /// The system names are Korean: a vault named in Hangul, or KRW in Asia/Seoul.
    pub fn korean(&self) -> bool {
        let hangul = self.vault.chars().any(|c| ('\u{AC00}'..='\u{D7A3}').contains(&c));
        hangul || (self.currency == Currency::KRW && self.zone == "Asia/Seoul")
    }
}

impl Book {
    /// The book after the set-up calls (kept in `calls` for the system under test).
    pub fn new(setup: Setup) -> Book {
        let people = setup
            .people
            .iter()
            .map(|(sub, name)| Person {
                sub: (*sub).to_owned(),
                name: (*name).to_owned(),
                role: None,
                latest: None,
                joined_at: 0,
                stints: Vec::new(),
                vault_name: String::new(),
            })
            .collect();
        let mut book = Book {
            now: setup.start,
            setup: setup.clone(),
            people,
            accounts: Vec::new(),
            equity: None,
            entries: Vec::new(),
            operations: Vec::new(),
            schedules: Vec::new(),
            budgets: Vec::new(),
            invites: Vec::new(),
            shares: Vec::new(),
            word_base: std::collections::BTreeMap::new(),
            fixes: std::collections::BTreeMap::new(),
            writes: Vec::new(),
            calls: Vec::new(),
            next_key: 0,
        };
        book.people[0].role = Some(Role::Owner);
        book.people[0].joined_at = book.now;
        // The vault's first member counts in settle-up from the beginning of time.
        book.people[0].stints = vec![(crate::calendar::Month::MIN, None)];
        book.people[0].vault_name = setup.vault.to_owned();
        let view = json!({
            "name": setup.vault, "currency": setup.currency.code, "timeZone": setup.zone,
            "today": crate::calendar::date_text(book.today()), "created": true,
        });
        let args = json!({"name": setup.vault, "currency": setup.currency.code, "timeZone": setup.zone});
        book.call(0, "create_vault", args, Expect::Ok(view));
        let mut index = Vec::new();
        for s in &setup.accounts {
            let parent = s.parent.map(|p| index[p]);
            book.create_account(
                0,
                s.name,
                s.kind,
                s.opening.map(|x| (x, -40)),
                parent,
                s.billing,
                None,
            );
            index.push(book.accounts.len() - 1);
        }
        for p in 1..setup.members.min(setup.people.len()) {
            book.now += 1;
            book.share(0, p == 1 && setup.second_owner);
            book.join(p, book.invites.len() - 1);
        }
        for &(a, p) in &setup.owners {
            if p < setup.members.min(setup.people.len()) && a < index.len() {
                book.now += 1;
                let change = crate::step::AccountChange::Owner(crate::step::Owner::Person(p));
                book.update_account(0, index[a], &change);
            }
        }
        book
    }
}
