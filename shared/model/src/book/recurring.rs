//! Recurring entries: `set_recurring`, their postings by date, `list_recurring`
//! (docs/tools.md, "set_recurring", "list_recurring"; decision 036).

use jiff::civil::Date;
use serde_json::{Value, json};

use super::entries::{Draft, fold_tags};
use super::{Book, Content, Expect, Origin, Schedule};
use crate::calendar::{self, Month};
use crate::step::{RecurringAction, RecurringSpec};

/// Day of the month when `day` is left out: the last.
const LAST_DAY: u8 = 31;

impl Schedule {
    /// Every occurrence dated `after` (exclusive) through `through`, in order.
    pub fn occurrences(&self, after: Option<Date>, through: Date) -> Vec<Date> {
        let step: Month = if self.yearly { 12 } else { 1 };
        let mut out = Vec::new();
        let mut m = calendar::month_of(self.start);
        while calendar::first_day(m) <= through {
            let d = calendar::day_in(m, self.day);
            let in_range = d >= self.start && self.end.is_none_or(|e| d <= e) && d <= through;
            if in_range && after.is_none_or(|a| d > a) {
                out.push(d);
            }
            m += step;
        }
        out
    }

    /// The next occurrence after `today`, if any.
    pub fn next_after(&self, today: Date) -> Option<Date> {
        let horizon = calendar::add_days(today, 800);
        self.occurrences(Some(today), horizon).first().copied()
    }
}

impl Book {
    /// Posts every live schedule's occurrences due by today, each once, oldest first.
    pub fn post_due(&mut self) {
        let today = self.today();
        for s in 0..self.schedules.len() {
            if self.schedules[s].removed {
                continue;
            }
            let due = self.schedules[s].occurrences(self.schedules[s].posted_through, today);
            for date in due {
                let sch = &self.schedules[s];
                let draft = Draft {
                    content: Content {
                        date,
                        memo: sch.memo.clone(),
                        from: vec![(sch.from, sch.amount)],
                        to: vec![(sch.to, sch.amount)],
                        tags: sch.tags.clone(),
                        for_whom: None,
                    },
                    installments: None,
                    external_ref: None,
                    date_left_out: false,
                    for_arg: None,
                    picked: None,
                };
                let op = self.new_operation(None);
                let n = self.add_entry(&draft, Origin::Posting(s), Some(op));
                // The guard of a posting knows its accounts by the schedule's names (the
                // ledger posts without reading the accounts; reported in issue 51).
                let (from, to) = &self.schedules[s].names;
                let x = self.schedules[s].amount;
                let mut guard = vec![(super::fold(from), -x), (super::fold(to), x)];
                guard.sort();
                self.entries[n].guard = guard;
            }
            self.schedules[s].posted_through = Some(today);
        }
    }

    /// The live schedule named `name`.
    pub fn schedule_named(&self, name: &str) -> Option<usize> {
        let key = super::fold(name);
        self.schedules
            .iter()
            .position(|s| !s.removed && super::fold(&s.name) == key)
    }

    /// A schedule as `spec` asks for it.
    fn schedule_from(&self, name: &str, spec: &RecurringSpec) -> Schedule {
        Schedule {
            name: name.to_owned(),
            from: spec.from,
            to: spec.to,
            names: (
                self.accounts[spec.from].name.clone(),
                self.accounts[spec.to].name.clone(),
            ),
            amount: spec.amount,
            day: spec.day.unwrap_or(LAST_DAY),
            yearly: spec.yearly,
            start: calendar::add_days(self.today(), spec.start.unwrap_or(0)),
            end: spec.end.map(|d| calendar::add_days(self.today(), d)),
            memo: name.to_owned(),
            tags: fold_tags(&spec.tags),
            posted_through: None,
            removed: false,
        }
    }

    /// The JSON `set_recurring` is sent.
    fn recurring_args(&self, name: &str, spec: &RecurringSpec, change: bool) -> Value {
        let mut args = json!({
            "name": name,
            "from": self.accounts[spec.from].reference(),
            "to": self.accounts[spec.to].reference(),
            "amount": self.amount(spec.amount),
        });
        if let Some(d) = spec.day {
            args["day"] = json!(d);
        }
        if spec.yearly {
            args["every"] = json!("year");
        }
        if let (Some(d), false) = (spec.start, change) {
            args["start"] = json!(calendar::date_text(calendar::add_days(self.today(), d)));
        }
        if let Some(d) = spec.end {
            args["end"] = json!(calendar::date_text(calendar::add_days(self.today(), d)));
        }
        if !spec.tags.is_empty() {
            args["tags"] = json!(spec.tags);
        }
        if change {
            args["change"] = json!(true);
        }
        args
    }

    /// A schedule the contract takes: live accounts, a day 1–31, `end` not before `start`,
    /// `start` at most a year back.
    fn schedule_ok(&self, s: &Schedule) -> bool {
        let live = self.accounts[s.from].handle.is_none() && self.accounts[s.to].handle.is_none();
        let year_back = calendar::add_days(self.today(), -365);
        live && s.from != s.to
            && (1..=31).contains(&s.day)
            && s.end.is_none_or(|e| e >= s.start)
            && s.start >= year_back
            && s.amount > 0
    }

    /// `set_recurring`.
    pub fn set_recurring(&mut self, who: usize, name: &str, action: &RecurringAction) {
        if !self.is_member(who) {
            let args = match action {
                RecurringAction::Remove => json!({"name": name, "remove": true}),
                RecurringAction::Set(spec) => self.recurring_args(name, spec, false),
                RecurringAction::Change(spec) => self.recurring_args(name, spec, true),
            };
            self.call(who, "set_recurring", args, Expect::Refused);
            return;
        }
        let existing = self.schedule_named(name);
        let (args, outcome) = match action {
            RecurringAction::Remove => {
                let args = json!({"name": name, "remove": true});
                let outcome = existing.map(|s| {
                    self.schedules[s].removed = true;
                    (s, false, false, true)
                });
                (args, outcome)
            }
            RecurringAction::Set(spec) => {
                let args = self.recurring_args(name, spec, false);
                let wanted = self.schedule_from(name, spec);
                let outcome = match existing {
                    Some(s) => self.same_settings(s, spec).then_some((s, false, false, false)),
                    None if self.schedule_ok(&wanted) => {
                        self.schedules.push(wanted);
                        self.post_due();
                        Some((self.schedules.len() - 1, true, false, false))
                    }
                    None => None,
                };
                (args, outcome)
            }
            RecurringAction::Change(spec) => {
                let args = self.recurring_args(name, spec, true);
                let outcome = match existing {
                    Some(s) => self.change_schedule(s, spec),
                    // A change of a schedule that is not there makes it (start: today).
                    None => {
                        let wanted = self.schedule_from(
                            name,
                            &RecurringSpec {
                                start: None,
                                ..spec.clone()
                            },
                        );
                        self.schedule_ok(&wanted).then(|| {
                            self.schedules.push(wanted);
                            self.post_due();
                            (self.schedules.len() - 1, true, false, false)
                        })
                    }
                };
                (args, outcome)
            }
        };
        let expect = match outcome {
            Some((s, created, changed, removed)) => Expect::Ok(json!({
                "recurring": self.recurring_view(s),
                "created": created,
                "changed": changed,
                "removed": removed,
            })),
            None => Expect::Refused,
        };
        self.call(who, "set_recurring", args, expect);
    }

    /// Schedule `s` already has what `spec` sends (only the fields sent are compared).
    fn same_settings(&self, s: usize, spec: &RecurringSpec) -> bool {
        let have = &self.schedules[s];
        let today = self.today();
        (have.from, have.to, have.amount) == (spec.from, spec.to, spec.amount)
            && spec.day.is_none_or(|d| d == have.day)
            && (!spec.yearly || have.yearly)
            && spec
                .start
                .is_none_or(|d| calendar::add_days(today, d) == have.start)
            && spec
                .end
                .is_none_or(|d| Some(calendar::add_days(today, d)) == have.end)
            && (spec.tags.is_empty() || fold_tags(&spec.tags) == have.tags)
    }

    /// `change: true`: what is sent replaces the settings from the next date on.
    fn change_schedule(&mut self, s: usize, spec: &RecurringSpec) -> Option<(usize, bool, bool, bool)> {
        if self.same_settings(s, spec) {
            return Some((s, false, false, false));
        }
        let today = self.today();
        let mut wanted = self.schedules[s].clone();
        wanted.from = spec.from;
        wanted.to = spec.to;
        wanted.names = (
            self.accounts[spec.from].name.clone(),
            self.accounts[spec.to].name.clone(),
        );
        wanted.amount = spec.amount;
        if let Some(d) = spec.day {
            wanted.day = d;
        }
        if spec.yearly {
            wanted.yearly = true;
        }
        if let Some(d) = spec.end {
            wanted.end = Some(calendar::add_days(today, d));
        }
        if !spec.tags.is_empty() {
            wanted.tags = fold_tags(&spec.tags);
        }
        if !self.schedule_ok(&wanted) {
            return None;
        }
        self.schedules[s] = wanted;
        Some((s, false, true, false))
    }

    /// A schedule as results show it.
    pub fn recurring_view(&self, s: usize) -> Value {
        let sch = &self.schedules[s];
        let today = self.today();
        let last = self
            .entries
            .iter()
            .filter(|e| e.origin == Origin::Posting(s))
            // The occurrence's own date, whatever an edit made of the entry since.
            .map(|e| e.history.first().unwrap_or(&e.content).date)
            .max();
        json!({
            "name": sch.name,
            "from": self.accounts[sch.from].reference(),
            "to": self.accounts[sch.to].reference(),
            "amount": sch.amount,
            "day": sch.day,
            "every": if sch.yearly { "year" } else { "month" },
            "start": calendar::date_text(sch.start),
            "end": sch.end.map(calendar::date_text),
            "memo": sch.memo,
            "tags": sch.tags,
            "next": if sch.removed { None } else { sch.next_after(today).map(calendar::date_text) },
            "lastPosted": last.map(calendar::date_text),
        })
    }

    /// `list_recurring` for `month`.
    pub fn list_recurring_view(&self, month: Month) -> Value {
        let today = self.today();
        let mut live: Vec<usize> = (0..self.schedules.len())
            .filter(|&s| !self.schedules[s].removed)
            .collect();
        live.sort_by_key(|&s| self.schedules[s].name.clone());
        let mut upcoming: Vec<(Date, String, i64)> = live
            .iter()
            .flat_map(|&s| {
                let sch = &self.schedules[s];
                sch.occurrences(Some(today), calendar::last_day(month))
                    .into_iter()
                    .filter(move |d| calendar::month_of(*d) == month)
                    .map(move |d| (d, sch.name.clone(), sch.amount))
            })
            .collect();
        upcoming.sort();
        let total: i64 = upcoming.iter().map(|u| u.2).sum();
        json!({
            "month": calendar::month_text(month),
            "recurring": live.iter().map(|&s| self.recurring_view(s)).collect::<Vec<_>>(),
            "upcoming": upcoming.iter().map(|(d, n, x)| json!([calendar::date_text(*d), n, x])).collect::<Vec<_>>(),
            "upcomingTotal": total,
        })
    }
}
