//! `undo`: one operation taken back whole, or refused whole (docs/tools.md, "undo";
//! decision 041).

use serde_json::json;

use super::views::balances_view;
use super::{Book, Change, Expect};

impl Book {
    /// Whether `who` may take back operation `op`: their own, anyone's as an owner, a
    /// posting as any member.
    fn may_undo(&self, who: usize, op: usize) -> bool {
        match self.operations[op].by {
            None => true,
            Some(by) => by == who || self.is_owner(who),
        }
    }

    /// An entry of the operation shows another operation's change now, or taking it back
    /// would bring an archived account back into use: a void undone (the entry counts
    /// again) or an edit undone to a version naming it. Taking back a recording voids
    /// the entry, which a void may do on an archived account too (decision 041).
    fn undo_blocked(&self, op: usize) -> bool {
        self.operations[op].changes.iter().any(|(n, change, _)| {
            let e = &self.entries[*n];
            let revived = match change {
                Change::Recorded => Vec::new(),
                Change::Voided => e.content.lines(),
                Change::Edited(before) => before.lines(),
            };
            e.operation != Some(op) || revived.iter().any(|l| self.accounts[l.0].handle.is_some())
        })
    }

    /// `undo` of `op` (None: the caller's latest).
    pub fn undo(&mut self, who: usize, op: Option<usize>, dry_run: bool) {
        let mut args = json!({});
        if let Some(o) = op {
            args["operationId"] = json!(format!("$op:{o}"));
        }
        if dry_run {
            args["dryRun"] = json!(true);
        }
        let target = op.or(self.people[who].latest);
        let Some(o) = target.filter(|&o| self.is_member(who) && self.may_undo(who, o)) else {
            self.call(who, "undo", args, Expect::Refused);
            return;
        };
        if self.operations[o].undone {
            // Undone before: what it took back, and nothing written now.
            let undone: Vec<_> = self.operations[o]
                .changes
                .iter()
                .map(|(n, change, _)| {
                    let action = match change {
                        Change::Recorded => "voided",
                        Change::Edited(_) => "restored",
                        Change::Voided => "unvoided",
                    };
                    json!([format!("t{n}"), action])
                })
                .collect();
            let view = json!({
                "operation": format!("op{o}"), "undone": undone, "balances": {},
                "alreadyUndone": true, "dryRun": dry_run,
            });
            self.call(who, "undo", args, Expect::Ok(view));
            return;
        }
        if self.undo_blocked(o) {
            self.call(who, "undo", args, Expect::Refused);
            return;
        }
        let mut book = self.clone();
        let mut undone = Vec::new();
        let mut corrections = Vec::new();
        let changes = book.operations[o].changes.clone();
        for (n, change, before) in changes {
            let e = &mut book.entries[n];
            let recording = change == Change::Recorded;
            let action = match change {
                Change::Recorded => {
                    e.voided = true;
                    e.external_ref = None;
                    "voided"
                }
                Change::Edited(old) => {
                    let now = std::mem::replace(&mut e.content, old.clone());
                    e.history.push(now.clone());
                    corrections.push((now, old));
                    "restored"
                }
                Change::Voided => {
                    e.voided = false;
                    "unvoided"
                }
            };
            // Shows the operation before it again; a recording taken back keeps showing
            // its own (the entry had none before).
            e.operation = if recording { Some(o) } else { before };
            undone.push(json!([format!("t{n}"), action]));
        }
        // Taking an edit back moves the entry back: a correction like an edit's
        // (docs/tools.md names only edit_transaction; the ledger writes the undo as an
        // edit, so its word goes back at once).
        for (now, old) in corrections {
            book.correct(&now, &old);
        }
        book.operations[o].undone = true;
        // The accounts of each entry as it is now and as it was before: the version an
        // undone edit leaves behind; a void or unvoid moves no posting.
        let mut accounts = Vec::new();
        for (n, change, _) in &book.operations[o].changes {
            let edited = matches!(change, Change::Edited(_));
            accounts.extend(book.accounts_with_previous(&[*n], edited));
        }
        accounts.sort_unstable();
        accounts.dedup();
        let view = json!({
            "operation": format!("op{o}"),
            "undone": undone,
            "balances": balances_view(&book, &accounts),
            "alreadyUndone": false,
            "dryRun": dry_run,
        });
        if !dry_run {
            *self = book;
        }
        self.call(who, "undo", args, Expect::Ok(view));
    }
}
