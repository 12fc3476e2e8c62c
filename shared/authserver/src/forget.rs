//! Forgetting a person: every grant of theirs ends and every record that names them
//! goes (decision 059). Run before the ledger deletes their data, so no refresh can mint
//! a token after the ledger's closing mark.
//!
//! Refresh families and account-page sessions are keyed by their own ids; each has an
//! index item in the person's own partition (`AS#WHO#<hash(sub)>` / `FAM#<sid>`, written with the family and
//! expiring with it), so a person's grants are found without a scan. Remembered
//! consents live under the person already. Authorization requests and unused codes
//! (minutes of life, no index) expire on their own; a code redeemed after this is a
//! new sign-in.

use dochiya_store::{Key, Query, SkRange, Store, StoreError, WriteOp};

use crate::state::{consent_partition, family_key, person_grants_partition};

/// What forgetting removed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Forgotten {
    /// Refresh-token families ended (one per client the person signed in to).
    pub grants: u64,
    /// Remembered consents removed.
    pub consents: u64,
    /// Account-page sessions ended.
    pub sessions: u64,
}

/// End every grant of `sub` and remove every record that names them. Safe to re-run.
pub async fn forget(store: &dyn Store, sub: &str) -> Result<Forgotten, StoreError> {
    let mut out = Forgotten::default();
    let index = all_keys(store, &person_grants_partition(sub)).await?;
    let mut doomed = Vec::with_capacity(index.len() * 2);
    for key in index {
        if let Some(sid) = key.sk.strip_prefix(crate::state::GRANT_PREFIX) {
            doomed.push(family_key(sid));
            out.grants += 1;
        } else if let Some(hash) = key.sk.strip_prefix(crate::state::SESSION_PREFIX) {
            doomed.push(crate::account::session_key(hash));
            out.sessions += 1;
        }
        doomed.push(key);
    }
    let consents = all_keys(store, &consent_partition(sub)).await?;
    out.consents = consents.len() as u64;
    doomed.extend(consents);
    for chunk in doomed.chunks(dochiya_store::MAX_WRITE_OPS) {
        let ops = chunk
            .iter()
            .map(|key| WriteOp::Delete {
                key: key.clone(),
                guard: None,
            })
            .collect();
        store.write(ops).await?;
    }
    Ok(out)
}

/// Every key of a partition, page by page.
async fn all_keys(store: &dyn Store, pk: &str) -> Result<Vec<Key>, StoreError> {
    let mut keys = Vec::new();
    let mut after = None;
    loop {
        let page = store
            .query(&Query {
                pk: pk.to_owned(),
                range: SkRange::All,
                forward: true,
                limit: 1000,
                after,
            })
            .await?;
        keys.extend(page.items.into_iter().map(|i| i.key));
        match page.last_sk {
            Some(sk) => after = Some(sk),
            None => return Ok(keys),
        }
    }
}
