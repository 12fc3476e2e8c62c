//! Sharing: `share_vault`, `join_vault`, `remove_member`, `leave_vault`, and
//! `delete_vault`
//! (docs/tools.md, "Sharing"). Members today are the people keeping the vault and who
//! recorded what; owners, shares and settle-up extend this file.

use serde_json::{Value, json};

use std::collections::BTreeSet;

use super::setup::Setup;
use super::{Book, Expect, Invite, Learn, Role};

/// An invite code works for 7 days.
const INVITE_LIFE: i64 = 7 * 24 * 3600;

impl Book {
    /// The members as `list_vaults` and `join_vault` show them to person `me`, oldest first.
    pub fn members_view(&self, me: usize) -> Value {
        let mut members: Vec<(i64, usize)> = self
            .people
            .iter()
            .enumerate()
            .filter(|(_, p)| p.role.is_some())
            .map(|(i, p)| (p.joined_at, i))
            .collect();
        members.sort_unstable();
        Value::Array(
            members
                .into_iter()
                .map(|(_, i)| {
                    let p = &self.people[i];
                    let role = if p.role == Some(Role::Owner) {
                        "owner"
                    } else {
                        "member"
                    };
                    json!([p.name, role, i == me])
                })
                .collect(),
        )
    }

    /// `share_vault`.
    pub fn share(&mut self, who: usize, owner: bool) {
        let args = json!({"role": if owner { "owner" } else { "member" }});
        if !self.is_owner(who) {
            self.call(who, "share_vault", args, Expect::Refused);
            return;
        }
        self.invites.push(Invite {
            role: if owner { Role::Owner } else { Role::Member },
            made_at: self.now,
            used: false,
            vault_name: self.people[who].vault_name.clone(),
        });
        let k = self.invites.len() - 1;
        let view = json!({"role": if owner { "owner" } else { "member" }});
        self.call(who, "share_vault", args, Expect::Ok(view)).learn =
            vec![Learn::Invite(k, "/inviteCode".into())];
    }

    /// `join_vault` with invite `k`.
    pub fn join(&mut self, who: usize, k: usize) {
        let args = json!({"inviteCode": format!("$invite:{k}")});
        let invite = &self.invites[k];
        // A member joining with an owner's code becomes an owner (how the last owner
        // hands over); any other join of a member is refused.
        let promotion = invite.role == Role::Owner && self.people[who].role == Some(Role::Member);
        if (self.is_member(who) && !promotion) || invite.used || self.now - invite.made_at >= INVITE_LIFE {
            self.call(who, "join_vault", args, Expect::Refused);
            return;
        }
        let role = invite.role;
        self.invites[k].used = true;
        self.people[who].role = Some(role);
        if !promotion {
            let month = self.this_month();
            let name = self.invites[k].vault_name.clone();
            let p = &mut self.people[who];
            p.joined_at = self.now;
            p.stints.push((month, None));
            p.vault_name = name;
        }
        let view = json!({
            "role": if role == Role::Owner { "owner" } else { "member" },
            "members": self.members_view(who),
        });
        self.call(who, "join_vault", args, Expect::Ok(view));
    }

    /// `remove_member` of person `m`.
    pub fn remove(&mut self, who: usize, m: usize) {
        let args = json!({"member": self.people[m].name});
        if !self.is_owner(who) || who == m || !self.is_member(m) {
            self.call(who, "remove_member", args, Expect::Refused);
            return;
        }
        self.gone(m);
        let view = json!({"member": self.people[m].name, "removed": true});
        self.call(who, "remove_member", args, Expect::Ok(view));
    }

    /// What a deletion of the vault removes, as `delete_vault` counts it: every
    /// transaction ever recorded (voided ones too), every account (archived ones and
    /// the opening-balance account too), the members, the live schedules, one budget
    /// setting per account and month set (a clear is a setting too), no snapshots (the
    /// model makes none).
    fn deleted_counts(&self) -> Value {
        let budgets: BTreeSet<(usize, String)> = self
            .budgets
            .iter()
            .map(|b| (b.account, format!("{:?}", b.month)))
            .collect();
        json!({
            "entries": self.entries.len(),
            "accounts": self.accounts.len(),
            "members": self.people.iter().filter(|p| p.role.is_some()).count(),
            "schedules": self.schedules.iter().filter(|s| !s.removed).count(),
            "budgets": budgets.len(),
            "snapshots": 0,
        })
    }

    /// `delete_vault`: refused to a member, to a misspelt confirmation and to someone
    /// without the vault; a dry run counts; a deletion counts, and the book starts
    /// again as the set-up makes it (person 0 alone, the same accounts, nothing
    /// recorded), the same name free for it at once.
    pub fn delete_vault(&mut self, who: usize, confirm: bool, dry_run: bool) {
        // The vault by the caller's own name for it (a rename is the renamer's alone).
        let name = if self.is_member(who) {
            self.people[who].vault_name.clone()
        } else {
            self.setup.vault.to_owned()
        };
        let typed = if confirm {
            name.clone()
        } else {
            format!("{name} 2")
        };
        let args = json!({"vault": &name, "confirm": typed, "dryRun": dry_run});
        if !self.is_owner(who) || !confirm {
            self.call(who, "delete_vault", args, Expect::Refused);
            return;
        }
        let view = json!({"vault": {"name": name}, "deleted": self.deleted_counts(), "dryRun": dry_run});
        self.call(who, "delete_vault", args, Expect::Ok(view));
        if dry_run {
            return;
        }
        let mut calls = std::mem::take(&mut self.calls);
        let mut fresh = Book::new(Setup {
            start: self.now,
            members: 1,
            ..self.setup.clone()
        });
        calls.append(&mut fresh.calls);
        fresh.calls = calls;
        fresh.next_key = self.next_key;
        *self = fresh;
    }

    /// `leave_vault`.
    pub fn leave(&mut self, who: usize) {
        let members = self.people.iter().filter(|p| p.role.is_some()).count();
        let owners = self.people.iter().filter(|p| p.role == Some(Role::Owner)).count();
        let last_owner = self.is_owner(who) && owners == 1 && members > 1;
        if !self.is_member(who) || members == 1 || last_owner {
            self.call(who, "leave_vault", json!({}), Expect::Refused);
            return;
        }
        self.gone(who);
        self.call(who, "leave_vault", json!({}), Expect::Ok(json!({"left": true})));
    }

    /// Person `p` no longer keeps the vault: their time in it ends this month.
    fn gone(&mut self, p: usize) {
        let month = self.this_month();
        let person = &mut self.people[p];
        person.role = None;
        if let Some(last) = person.stints.last_mut() {
            last.1 = Some(month);
        }
    }
}
