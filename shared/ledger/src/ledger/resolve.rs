//! From names to things: the caller's memberships, the vault a call means, and
//! a vault's account catalogue. Every path into a vault starts here.

use std::future::Future;
use std::task::Poll;

use super::Ledger;
use std::collections::BTreeMap;

use crate::api::AccountChoice;
use crate::api::{Entity, LedgerError, Match};
use crate::stored::account::{AccountRec, archived_when};
use crate::stored::member::Membership;
use crate::stored::{account, table};
use dochiya_domain::{AccountId, IdShape, LocalDate, NameKey, archived_handle, closest_names, id_shape};
use dochiya_store::{Item, Query, SkRange, Store};

/// Page size for queries that read a whole range.
const PAGE: u32 = 1000;
/// How many times an operation is re-run after losing a race.
const ATTEMPTS: usize = 6;
/// How many closest names an error lists.
const CANDIDATES: usize = 5;

/// Run both futures concurrently (one read round) and return both outputs.
pub(super) async fn join2<A: Future, B: Future>(a: A, b: B) -> (A::Output, B::Output) {
    futures::future::join(a, b).await
}

/// Run every future concurrently (one read round) and return their outputs in order.
/// Hand-written, not `futures::future::join_all`: above 30 futures that one switches to
/// `FuturesOrdered`, whose polling could start some reads after others have finished.
pub(super) async fn join_all<F: Future>(futures: Vec<F>) -> Vec<F::Output> {
    let mut futures: Vec<std::pin::Pin<Box<F>>> = futures.into_iter().map(Box::pin).collect();
    let mut done: Vec<Option<F::Output>> = futures.iter().map(|_| None).collect();
    std::future::poll_fn(move |cx| {
        let mut pending = false;
        for (f, slot) in futures.iter_mut().zip(done.iter_mut()) {
            if slot.is_none() {
                match f.as_mut().poll(cx) {
                    Poll::Ready(v) => *slot = Some(v),
                    Poll::Pending => pending = true,
                }
            }
        }
        if pending {
            Poll::Pending
        } else {
            Poll::Ready(done.iter_mut().filter_map(Option::take).collect())
        }
    })
    .await
}

/// Re-run `attempt` while it reports [`LedgerError::Conflict`] (it lost a race and
/// wrote nothing); each run re-reads, so the next one decides on fresh data.
pub(super) async fn retrying<T, F, Fut>(mut attempt: F) -> Result<T, LedgerError>
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Result<T, LedgerError>>,
{
    let mut last = LedgerError::Conflict;
    for _ in 0..ATTEMPTS {
        match attempt().await {
            Err(LedgerError::Conflict) => last = LedgerError::Conflict,
            other => return other,
        }
    }
    Err(last)
}

/// Every item of a key range, following pages (each page is one query call).
pub(super) async fn query_all(
    store: &dyn Store,
    pk: String,
    range: SkRange,
    forward: bool,
) -> Result<Vec<Item>, LedgerError> {
    let mut out = Vec::new();
    let mut after = None;
    loop {
        let page = store
            .query(&Query {
                pk: pk.clone(),
                range: range.clone(),
                forward,
                limit: PAGE,
                after,
            })
            .await?;
        out.extend(page.items);
        match page.last_sk {
            Some(sk) => after = Some(sk),
            None => return Ok(out),
        }
    }
}

/// The vault a call means: the named one (exact normalized match), or the only one.
pub(super) fn pick_vault(all: &[Membership], wanted: Option<&str>) -> Result<Membership, LedgerError> {
    match wanted.map(str::trim).filter(|w| !w.is_empty()) {
        Some(name) => {
            let key = NameKey::of(name);
            if let (None, Some(id_kind)) = (all.iter().find(|m| m.name_key == key), id_shape(name)) {
                return Err(LedgerError::IdForName {
                    what: Entity::Vault,
                    given: name.to_string(),
                    id_kind,
                    within: None,
                    meant: all
                        .iter()
                        .find(|m| m.vault_id.to_string().eq_ignore_ascii_case(name))
                        .map(|m| m.name.clone()),
                    candidates: all.iter().take(CANDIDATES).map(|m| m.name.clone()).collect(),
                });
            }
            all.iter()
                .find(|m| m.name_key == key)
                .cloned()
                .ok_or_else(|| LedgerError::NotFound {
                    what: Entity::Vault,
                    name: name.to_string(),
                    within: None,
                    candidates: closest_names(name, all.iter().map(|m| m.name.as_str()), CANDIDATES),
                })
        }
        None => match all {
            [only] => Ok(only.clone()),
            [] => Err(LedgerError::NotFound {
                what: Entity::Vault,
                name: String::new(),
                within: None,
                candidates: vec![],
            }),
            several => Err(LedgerError::Ambiguous {
                what: Entity::Vault,
                name: String::new(),
                matches: several
                    .iter()
                    .map(|m| Match {
                        name: m.name.clone(),
                        location: format!("{}, {}", m.currency.code(), m.zone.name()),
                    })
                    .collect(),
            }),
        },
    }
}

impl Ledger {
    /// Today in the vault's zone.
    pub(super) fn today_in(&self, m: &Membership) -> LocalDate {
        m.zone.date_at(self.clock.now())
    }
}

/// A vault's accounts, live and archived, with each archived account's handle.
#[derive(Debug, Clone)]
pub(super) struct Catalogue {
    pub accounts: Vec<AccountRec>,
    /// Each archived account's place in archiving order (by name, day, moment) and the
    /// name that means it alone (docs/decisions/027-archived-account-handles.md).
    handles: BTreeMap<AccountId, (usize, String)>,
}

impl Catalogue {
    /// Build from queried items, skipping any that are not accounts.
    pub fn from_items(items: &[Item]) -> Result<Catalogue, LedgerError> {
        let mut accounts = Vec::new();
        let mut archived = Vec::new();
        for item in items.iter().filter(|i| account::is_account(&i.key.sk)) {
            let a = AccountRec::from_attrs(&item.attrs)?;
            if a.archived {
                let (on, at) = archived_when(&item.attrs)?;
                archived.push((a.name_key.clone(), on, at, a.account_id, a.name.clone()));
            }
            accounts.push(a);
        }
        // Same name, same day: numbered in the order they were archived (then by id),
        // so a handle never changes once given.
        archived.sort();
        let mut handles = BTreeMap::new();
        let mut ordinal = 0;
        for (i, (key, on, _, id, name)) in archived.iter().enumerate() {
            let same_as_previous = i > 0 && archived[i - 1].0 == *key && archived[i - 1].1 == *on;
            ordinal = if same_as_previous { ordinal + 1 } else { 1 };
            handles.insert(*id, (i, archived_handle(name, *on, ordinal)));
        }
        Ok(Catalogue { accounts, handles })
    }

    /// The live account with this name.
    pub fn live(&self, key: &NameKey) -> Option<&AccountRec> {
        self.accounts.iter().find(|a| !a.archived && &a.name_key == key)
    }

    /// An account by id, live or archived.
    pub fn by_id(&self, id: dochiya_domain::AccountId) -> Option<&AccountRec> {
        self.accounts.iter().find(|a| a.account_id == id)
    }

    /// The handle of an archived account (`None` for a live one).
    pub fn handle(&self, a: &AccountRec) -> Option<&str> {
        self.handles.get(&a.account_id).map(|(_, h)| h.as_str())
    }

    /// An archived account's place in archiving order (`None` for a live one).
    pub fn archive_order(&self, a: &AccountRec) -> Option<usize> {
        self.handles.get(&a.account_id).map(|(i, _)| *i)
    }

    /// The name that means this account in any tool: a live account's name, an
    /// archived account's handle.
    pub fn shown_name<'a>(&'a self, a: &'a AccountRec) -> &'a str {
        self.handle(a).unwrap_or(&a.name)
    }

    /// The account a name means: a live account's name first (a real name always wins),
    /// then an archived account's handle, then an archived account's plain name.
    /// Archived accounts are found only when `allow_archived` (filters, history);
    /// otherwise naming one is [`LedgerError::ArchivedAccount`].
    pub fn resolve(
        &self,
        name: &str,
        allow_archived: bool,
        vault: &Membership,
    ) -> Result<&AccountRec, LedgerError> {
        let key = NameKey::of(name);
        if let Some(a) = self.live(&key) {
            return Ok(a);
        }
        if let Some(a) = self
            .accounts
            .iter()
            .find(|a| self.handle(a).is_some_and(|h| NameKey::of(h) == key))
        {
            return match allow_archived {
                true => Ok(a),
                false => Err(LedgerError::ArchivedAccount {
                    name: self.shown_name(a).to_string(),
                }),
            };
        }
        let mut archived: Vec<&AccountRec> = self
            .accounts
            .iter()
            .filter(|a| a.archived && a.name_key == key)
            .collect();
        archived.sort_by_key(|a| self.archive_order(a));
        match archived.as_slice() {
            [] if id_shape(name).is_some() => Err(self.id_for_name(name, vault)),
            [] => Err(LedgerError::NotFound {
                what: Entity::Account,
                name: name.trim().to_string(),
                within: Some(vault.described()),
                candidates: closest_names(
                    name,
                    self.accounts
                        .iter()
                        .filter(|a| !a.archived)
                        .map(|a| a.name.as_str()),
                    CANDIDATES,
                ),
            }),
            [one] if allow_archived => Ok(one),
            [one, ..] if !allow_archived => Err(LedgerError::ArchivedAccount {
                name: one.name.clone(),
            }),
            several => Err(LedgerError::Ambiguous {
                what: Entity::Account,
                name: name.trim().to_string(),
                matches: several
                    .iter()
                    .map(|a| Match {
                        name: self.shown_name(a).to_string(),
                        location: format!("archived account {} in {}", a.account_id, vault.described()),
                    })
                    .collect(),
            }),
        }
    }

    /// The refusal of an id given where an account name belongs: the account with that
    /// id (if any) and a few live names to pass instead.
    fn id_for_name(&self, given: &str, vault: &Membership) -> LedgerError {
        let given = given.trim();
        let meant = self
            .accounts
            .iter()
            .find(|a| a.account_id.to_string().eq_ignore_ascii_case(given))
            .map(|a| self.shown_name(a).to_string());
        let mut live: Vec<&AccountRec> = self.accounts.iter().filter(|a| !a.archived).collect();
        live.sort_by(|a, b| a.name_key.cmp(&b.name_key));
        LedgerError::IdForName {
            what: Entity::Account,
            given: given.to_string(),
            id_kind: id_shape(given).unwrap_or(IdShape::Other),
            within: Some(vault.described()),
            meant,
            candidates: live.iter().take(CANDIDATES).map(|a| a.name.clone()).collect(),
        }
    }

    /// The account a read filter's name means (archived ones included), and, when the
    /// name is a live account's that archived accounts also had, which one was used.
    pub fn resolve_filter(
        &self,
        name: &str,
        vault: &Membership,
    ) -> Result<(&AccountRec, Option<AccountChoice>), LedgerError> {
        let a = self.resolve(name, true, vault)?;
        let key = NameKey::of(name);
        if a.archived || a.name_key != key {
            return Ok((a, None));
        }
        let mut archived: Vec<&AccountRec> = self
            .accounts
            .iter()
            .filter(|o| o.archived && o.name_key == key)
            .collect();
        archived.sort_by_key(|o| self.archive_order(o));
        let archived: Vec<String> = archived.iter().map(|o| self.shown_name(o).to_string()).collect();
        let choice = (!archived.is_empty()).then(|| AccountChoice {
            account_id: a.account_id,
            name: a.name.clone(),
            archived,
        });
        Ok((a, choice))
    }
}

/// Load a vault's account catalogue (one query).
pub(super) async fn catalogue(ledger: &Ledger, vault: &Membership) -> Result<Catalogue, LedgerError> {
    let items = query_all(
        ledger.store.as_ref(),
        table::vault_pk(vault.vault_id),
        account::accounts(),
        true,
    )
    .await?;
    Catalogue::from_items(&items)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stored::account::archive_mark;
    use crate::stored::budget::BudgetHead;
    use crate::stored::snapshot::SnapshotHead;
    use dochiya_domain::{AccountKind, VaultId};
    use dochiya_store::Value;

    /// An account item as stored: archived (with the day, when given) or live.
    fn item(vault: VaultId, id: u128, name: &str, archived: Option<Option<(&str, i64)>>) -> Item {
        let account_id = AccountId::from_uuid(uuid::Uuid::from_u128(id));
        let mut attrs = AccountRec {
            account_id,
            name: name.into(),
            name_key: NameKey::of(name),
            kind: AccountKind::Liability,
            archived: false,
            net: 0,
            opening: None,
            billing: None,
            snapshots: SnapshotHead::NEW,
            budgets: BudgetHead::for_new_account(),
            parent: None,
            child_seq: 0,
            owner: None,
            goal: None,
            performance: None,
            match_words: Vec::new(),
        }
        .to_attrs(0);
        match archived {
            Some(Some((day, at))) => attrs.extend(archive_mark(LocalDate::parse(day).expect("a day"), at)),
            // Archived before the day was kept: only the flag.
            Some(None) => {
                attrs.insert("archived".into(), Value::Bool(true));
            }
            None => {}
        }
        Item {
            key: account::account(vault, account_id),
            attrs,
        }
    }

    #[test]
    fn handles_number_same_day_repeats_in_archiving_order_and_cover_old_archives() {
        let v = VaultId::from_uuid(uuid::Uuid::from_u128(1));
        // Stored in id order; archived in the other order on the same day.
        let items = [
            item(v, 10, "국민카드", Some(Some(("2026-05-31", 2_000)))),
            item(v, 11, "국민카드", Some(Some(("2026-05-31", 1_000)))),
            item(v, 12, "국민카드", Some(Some(("2026-06-01", 500)))),
            item(v, 13, "KB카드", Some(None)),
            item(v, 14, "kb카드", Some(None)),
            item(v, 15, "국민카드", None),
        ];
        let cat = Catalogue::from_items(&items).expect("catalogue");
        let handles: Vec<Option<&str>> = cat.accounts.iter().map(|a| cat.handle(a)).collect();
        assert_eq!(
            handles,
            vec![
                Some("국민카드 (archived 2026-05-31 #2)"),
                Some("국민카드 (archived 2026-05-31)"),
                Some("국민카드 (archived 2026-06-01)"),
                Some("KB카드 (archived)"),
                Some("kb카드 (archived #2)"),
                None,
            ]
        );
    }
}
