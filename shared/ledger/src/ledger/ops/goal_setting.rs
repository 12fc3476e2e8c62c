//! `set_goal`: set, change or stop a savings goal on an asset account (decision 061);
//! how a goal reads is `goals.rs`.

use crate::api::Entity;
use crate::ledger::goals::{asked, view};
use crate::ledger::resolve::retrying;
use crate::ledger::roster::in_vault;
use crate::ledger::today::catalogue_today;
use crate::ledger::*;
use crate::stored::account;
use crate::stored::account::GOAL_ATTRS;
use std::collections::BTreeMap;

pub(in crate::ledger) async fn set_goal(
    ledger: &Ledger,
    who: &PersonId,
    input: GoalInput,
) -> Result<GoalSet, LedgerError> {
    let input = &input;
    retrying(|| {
        in_vault(ledger, who, input.vault.as_deref(), |v| async move {
            let m = v.membership.clone();
            let (cat, later) = catalogue_today(ledger, &m).await?;
            let a = cat.resolve(&input.account, false, &m)?.clone();
            let saved = later.balance(&a, 0, 0)?.balance;
            let today = later.today;
            let (goal, set, remove, created) = if input.remove {
                let Some(g) = a.goal.clone().filter(|g| {
                    dochiya_domain::NameKey::of(&g.name) == dochiya_domain::NameKey::of(&input.name)
                }) else {
                    return Err(LedgerError::NotFound {
                        what: Entity::Goal,
                        name: input.name.clone(),
                        within: Some(format!("\"{}\"", a.name)),
                        candidates: a.goal.iter().map(|g| g.name.clone()).collect(),
                    });
                };
                (
                    g,
                    BTreeMap::new(),
                    GOAL_ATTRS.iter().map(|s| s.to_string()).collect(),
                    false,
                )
            } else {
                let g = asked(input, &a, &cat, today, &m)?;
                if a.goal.as_ref() == Some(&g) {
                    return Ok(GoalSet {
                        vault: m.vault_ref(),
                        goal: view(&a, &g, saved, today, &m),
                        created: false,
                        removed: false,
                    });
                }
                // A goal without `by` now loses the one it had.
                let remove = if g.by.is_none() {
                    vec![GOAL_ATTRS[2].to_string()]
                } else {
                    vec![]
                };
                (g.clone(), g.attrs(), remove, a.goal.is_none())
            };
            let ops = vec![account::live_account_update(
                m.vault_id,
                a.account_id,
                set,
                remove,
            )];
            v.write(ledger, who, ops).await?;
            Ok(GoalSet {
                vault: m.vault_ref(),
                goal: view(&a, &goal, saved, today, &m),
                created,
                removed: input.remove,
            })
        })
    })
    .await
}

impl Ledger {
    /// Set a savings goal on an asset account (the same again changes nothing), or stop it.
    pub async fn set_goal(&self, who: &PersonId, input: GoalInput) -> Result<GoalSet, LedgerError> {
        set_goal(self, who, input).await
    }
}
