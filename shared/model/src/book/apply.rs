//! One step applied to the book: its preconditions, the clock, retries, and the
//! dispatch to each area's file.

use serde_json::Value;

use super::{Book, Expect, IDEMPOTENCY_TTL};
use crate::calendar;
use crate::step::{AccountChange, EditSpec, EntrySpec, For, Owner, RecurringAction, Step, Tick};

/// A retry is sent within this many seconds of the first call (the record lives 7 days;
/// the model stays clear of the edge).
const RETRY_WITHIN: i64 = IDEMPOTENCY_TTL - 24 * 3600;

impl Book {
    /// Whether `step` still makes sense in this book (after shrinking removed earlier steps).
    pub fn allows(&self, step: &Step) -> bool {
        let accounts = self.accounts.len();
        let person_ok = |p: usize| p < self.people.len();
        let for_ok = |f: Option<For>| !matches!(f, Some(For::Person(p)) if !person_ok(p));
        let entry_ok =
            |e: &EntrySpec| e.from.iter().chain(e.to.iter()).all(|l| l.0 < accounts) && for_ok(e.for_whom);
        let owner_ok = |o: Option<Owner>| !matches!(o, Some(Owner::Person(p)) if !person_ok(p));
        match step {
            Step::Clock(Tick::DueDate(c, _)) => *c < accounts && self.accounts[*c].billing.is_some(),
            Step::Clock(_) => true,
            Step::Record {
                who,
                entry,
                reuse_key,
                ..
            } => {
                person_ok(*who)
                    && entry_ok(entry)
                    && reuse_key
                        .is_none_or(|w| w < self.writes.len() && self.writes[w].tool == "record_transaction")
            }
            Step::Batch { who, lines, .. } => person_ok(*who) && lines.iter().all(entry_ok),
            Step::Edit { who, entry, edit, .. } => {
                person_ok(*who)
                    && *entry < self.entries.len()
                    && edit_ok(edit, accounts)
                    && for_ok(edit.for_whom)
            }
            Step::Void { who, entry } => person_ok(*who) && *entry < self.entries.len(),
            Step::Undo { who, operation, .. } => {
                person_ok(*who) && operation.is_none_or(|o| o < self.operations.len())
            }
            Step::Retry { write } => self.retry_ok(*write),
            Step::CreateAccount {
                who, parent, owner, ..
            } => person_ok(*who) && parent.is_none_or(|p| p < accounts) && owner_ok(*owner),
            Step::UpdateAccount { who, account, change } => {
                let owner = match change {
                    AccountChange::Owner(o) => owner_ok(Some(*o)),
                    _ => true,
                };
                person_ok(*who) && *account < accounts && self.change_ok(*account, change) && owner
            }
            Step::UpdateVault { who, shares, .. } => {
                person_ok(*who) && shares.iter().flatten().all(|s| s.who.is_none_or(person_ok))
            }
            Step::SetBudget { who, account, .. } => person_ok(*who) && *account < accounts,
            Step::SetGoal { who, account, .. } => person_ok(*who) && *account < accounts,
            Step::SetRecurring { who, action, .. } => {
                person_ok(*who)
                    && match action {
                        RecurringAction::Set(s) | RecurringAction::Change(s) => {
                            s.from < accounts && s.to < accounts
                        }
                        RecurringAction::Remove => true,
                    }
            }
            Step::Share { who, .. } => person_ok(*who),
            Step::Join { who, invite } => person_ok(*who) && *invite < self.invites.len(),
            Step::Remove { who, member } => person_ok(*who) && person_ok(*member) && *member != 0,
            Step::Leave { who } => person_ok(*who) && *who != 0,
            // Only person 0 deletes for real: the book then starts again as the set-up
            // makes it, which person 0 does.
            Step::DeleteVault {
                who,
                confirm,
                dry_run,
            } => person_ok(*who) && (*who == 0 || !*confirm || *dry_run),
        }
    }

    /// An account change the model can follow: no archiving an account a live schedule
    /// posts to (a schedule that cannot post is issue 50's), targets that exist.
    fn change_ok(&self, a: usize, change: &AccountChange) -> bool {
        match change {
            AccountChange::Archive(_) => !self
                .schedules
                .iter()
                .any(|s| !s.removed && (s.from == a || s.to == a)),
            AccountChange::Parent(p) => p.is_none_or(|p| p < self.accounts.len()),
            AccountChange::Performance(_, p) => p.exclude.iter().all(|&x| x < self.accounts.len()),
            _ => true,
        }
    }

    /// Write `w` can be sent again exactly as it was: within the record's life, and its
    /// arguments still name the same accounts.
    fn retry_ok(&self, w: usize) -> bool {
        let Some(write) = self.writes.get(w) else {
            return false;
        };
        let fresh = write.claimed_at.is_none_or(|t| self.now - t < RETRY_WITHIN);
        let same_names = match &write.step {
            Some(Step::Record { entry, .. }) => {
                let args = self.entry_args(entry);
                args.as_object()
                    .is_some_and(|a| a.iter().all(|(k, v)| write.args.get(k) == Some(v)))
            }
            Some(Step::Batch { lines, .. }) => {
                let entries: Vec<Value> = lines.iter().map(|l| self.entry_args(l)).collect();
                write.args.get("entries") == Some(&Value::Array(entries))
            }
            Some(Step::Edit { entry, edit, .. }) => {
                let mut args = self.edit_args(*entry, edit);
                args["idempotencyKey"] = write.args["idempotencyKey"].clone();
                for k in ["expectedVersion", "dryRun"] {
                    if let Some(v) = write.args.get(k) {
                        args[k] = v.clone();
                    }
                }
                args == write.args
            }
            _ => false,
        };
        fresh && same_names && self.people.get(write.who).is_some()
    }

    /// Applies `step`: moves the clock a second (a step takes time), makes its calls,
    /// then posts what fell due (the reads after every step are calls into the vault).
    pub fn apply(&mut self, step: &Step) {
        self.calls.clear();
        self.now += 1;
        let writes = self.writes.len();
        match step {
            Step::Clock(t) => self.tick(*t),
            Step::Record {
                who,
                entry,
                allow_duplicate,
                dry_run,
                reuse_key,
            } => {
                let key = match reuse_key {
                    Some(w) => self.writes[*w].args["idempotencyKey"]
                        .as_str()
                        .unwrap_or_default()
                        .to_owned(),
                    None => self.key("entry"),
                };
                self.record(*who, entry, *allow_duplicate, *dry_run, key);
            }
            Step::Batch {
                who,
                lines,
                allow_duplicate,
                dry_run,
            } => self.batch(*who, lines, *allow_duplicate, *dry_run),
            Step::Edit {
                who,
                entry,
                edit,
                expected_version,
                dry_run,
            } => {
                let key = self.key("edit");
                self.edit(*who, *entry, edit, *expected_version, *dry_run, key);
            }
            Step::Void { who, entry } => self.void(*who, *entry),
            Step::Undo {
                who,
                operation,
                dry_run,
            } => self.undo(*who, *operation, *dry_run),
            Step::Retry { write } => self.retry(*write),
            Step::CreateAccount {
                who,
                name,
                kind,
                opening,
                parent,
                billing,
                owner,
            } => {
                self.create_account(*who, name, *kind, *opening, *parent, *billing, *owner);
            }
            Step::UpdateAccount { who, account, change } => self.update_account(*who, *account, change),
            Step::SetBudget {
                who,
                account,
                amount,
                month,
                repeat,
                rollover,
            } => {
                self.set_budget(*who, *account, *amount, *month, *repeat, *rollover);
            }
            Step::SetRecurring { who, name, action } => self.set_recurring(*who, name, action),
            Step::SetGoal {
                who,
                name,
                account,
                target,
                by,
                remove,
            } => self.set_goal(*who, name, *account, *target, *by, *remove),
            Step::UpdateVault {
                who,
                new_name,
                shares,
            } => self.update_vault(*who, new_name.as_deref(), shares.as_deref()),
            Step::Share { who, owner } => self.share(*who, *owner),
            Step::Join { who, invite } => self.join(*who, *invite),
            Step::Remove { who, member } => self.remove(*who, *member),
            Step::Leave { who } => self.leave(*who),
            Step::DeleteVault {
                who,
                confirm,
                dry_run,
            } => self.delete_vault(*who, *confirm, *dry_run),
        }
        for w in writes..self.writes.len() {
            self.writes[w].step = Some(step.clone());
        }
        self.post_due();
    }

    /// Moves the clock.
    fn tick(&mut self, tick: Tick) {
        let zone = self.setup.zone;
        let today = self.today();
        let target = match tick {
            Tick::Seconds(s) => self.now + s,
            Tick::Midnight(s) => calendar::midnight(calendar::add_days(today, 1), zone) + s,
            Tick::MonthEnd(s) => calendar::midnight(calendar::first_day(self.this_month() + 1), zone) + s,
            Tick::DueDate(c, s) => {
                let b = self.accounts[c].billing.expect("a card with billing");
                let mut m = b.next_bill(today);
                if b.due(m) <= today {
                    m += 1;
                }
                calendar::midnight(b.due(m), zone) + s
            }
        };
        self.now = self.now.max(target);
    }

    /// Sends write `w` again, unchanged.
    fn retry(&mut self, w: usize) {
        let write = self.writes[w].clone();
        if write.tool == "record_transactions" {
            let (allow, _) = match &write.step {
                Some(Step::Batch {
                    allow_duplicate,
                    dry_run,
                    ..
                }) => (*allow_duplicate, *dry_run),
                _ => (false, false),
            };
            if !self.is_member(write.who) {
                self.call(write.who, write.tool, write.args, Expect::Refused);
                return;
            }
            // Lines sent without `to` are categorized again by the words as they are now.
            let pending: Vec<_> = write.pending.iter().map(|d| self.pick(d.clone())).collect();
            self.run_batch(write.who, write.args.clone(), &pending, Some(w), allow, false);
            return;
        }
        if write.claimed_at.is_some() && self.is_member(write.who) {
            let current = self.current_since(w);
            self.call(
                write.who,
                write.tool,
                write.args,
                Expect::Replay { write: w, current },
            );
            return;
        }
        let key = write.args["idempotencyKey"]
            .as_str()
            .unwrap_or_default()
            .to_owned();
        match write.step {
            Some(Step::Record {
                who,
                entry,
                allow_duplicate,
                dry_run,
                ..
            }) => {
                self.record(who, &entry, allow_duplicate, dry_run, key);
            }
            Some(Step::Edit {
                who,
                entry,
                edit,
                expected_version,
                dry_run,
            }) => {
                self.edit(who, entry, &edit, expected_version, dry_run, key);
            }
            _ => self
                .call(write.who, write.tool, write.args, Expect::Refused)
                .learn
                .clear(),
        }
    }
}

fn edit_ok(edit: &EditSpec, accounts: usize) -> bool {
    let lines_ok = edit
        .lines
        .as_ref()
        .is_none_or(|(f, t)| f.iter().chain(t.iter()).all(|l| l.0 < accounts));
    lines_ok && edit.from.is_none_or(|a| a < accounts) && edit.to.is_none_or(|a| a < accounts)
}
