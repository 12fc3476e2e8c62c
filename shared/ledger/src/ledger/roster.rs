//! A person's roster (their memberships and its version), cached per instance.
//!
//! Every call needs to know which vault a name means, and that lives in the
//! caller's own partition, so without a cache every call would spend a read
//! round on it before touching the vault (docs/design.md §10 allows one read round
//! for a write). The cache is safe because it is never trusted alone:
//! - every change to a person's memberships (`create_vault`, `rename_vault`)
//!   bumps a version item (`P#<sub>` / `M`) in the same atomic write;
//! - a write made from a cached roster carries a check that the version is
//!   still the cached one, so a stale roster fails the write, which is re-run
//!   on a fresh read;
//! - a read made from a cached roster fetches the version item in the same
//!   round as its data, and is re-run on a fresh roster if the version moved.
//!
//! So the cache changes how many round trips a call takes, never what it sees.

use std::collections::HashMap;
use std::future::Future;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use super::Ledger;
use super::guards::{MEMBERSHIP, ROSTER_VERSION};
use super::resolve::{join2, pick_vault, query_all};
use crate::api::Role;
use crate::api::{Entity, LedgerError, OwnerAction};
use crate::stored::member::{EndedRec, Membership, ROSTER_VERSION as VERSION};
use crate::stored::schedule::head_next;
use crate::stored::{member, schedule, table};
use dochiya_domain::{LocalDate, PersonId};
use dochiya_store::{Condition, Guard, Item, StoreError, TTL_ATTRIBUTE, Value, WriteOp};

/// The attribute of a roster version item that says when the person deleted their data.
pub(super) const CLOSED_AT: &str = "closedAt";

/// Most people whose rosters one instance keeps; past it the cache starts over.
/// (A Lambda instance serves one request at a time and few people; this only
/// bounds memory on a long-running local server.)
const MAX_PEOPLE: usize = 4096;

/// One person's memberships as read together with their version.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Roster {
    /// Memberships, sorted by name key.
    pub members: Vec<Membership>,
    /// Memberships that ended (removed, or left), latest first.
    pub ended: Vec<EndedRec>,
    /// The version item's value; `None` while the person has never changed a membership.
    pub version: Option<i64>,
}

impl Roster {
    /// The condition "the version is still this roster's".
    fn unchanged(&self) -> Condition {
        match self.version {
            Some(v) => Condition::AttrEquals(VERSION.into(), Value::N(v)),
            None => Condition::NotExists,
        }
    }

    /// The write op that moves the version on, only if it is still this roster's:
    /// carried by every write that changes a membership.
    pub fn bump(&self, who: &PersonId) -> WriteOp {
        WriteOp::Update {
            key: member::roster_version(who),
            set: Default::default(),
            add: [(VERSION.to_string(), 1)].into(),
            // A closing mark's expiry goes: the version item now counts memberships again.
            remove: vec![TTL_ATTRIBUTE.into()],
            guard: Some(Guard::new(ROSTER_VERSION, self.unchanged())),
        }
    }

    /// The op that moves ANOTHER person's version on, whatever it is: carried by
    /// a write that changes their memberships for them (removal from a vault),
    /// so every roster cached for them anywhere is stale from that write on.
    pub fn moved_on(whose: &PersonId) -> WriteOp {
        WriteOp::Update {
            key: member::roster_version(whose),
            set: Default::default(),
            add: [(VERSION.to_string(), 1)].into(),
            remove: vec![TTL_ATTRIBUTE.into()],
            guard: None,
        }
    }

    /// This roster after a successful write with [`Roster::bump`] that set `members`.
    pub fn next(&self, mut members: Vec<Membership>) -> Roster {
        members.sort_by(|a, b| a.name_key.cmp(&b.name_key));
        Roster {
            members,
            ended: self.ended.clone(),
            version: Some(self.version.unwrap_or(0).saturating_add(1)),
        }
    }
}

/// Rosters this instance has read, by person.
#[derive(Debug, Default)]
pub(super) struct RosterCache {
    enabled: bool,
    map: Mutex<HashMap<String, Arc<Roster>>>,
}

impl RosterCache {
    /// A cache; a disabled one never remembers anything (every call reads the roster).
    pub fn new(enabled: bool) -> Self {
        Self {
            enabled,
            map: Mutex::new(HashMap::new()),
        }
    }

    fn lock(&self) -> MutexGuard<'_, HashMap<String, Arc<Roster>>> {
        // The map holds only copies of stored data; a panic elsewhere cannot leave it half-written.
        self.map.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn get(&self, who: &PersonId) -> Option<Arc<Roster>> {
        if !self.enabled {
            return None;
        }
        self.lock().get(who.as_str()).cloned()
    }

    /// Remember a roster just read or just written.
    pub fn put(&self, who: &PersonId, roster: Arc<Roster>) {
        if !self.enabled {
            return;
        }
        let mut map = self.lock();
        if map.len() >= MAX_PEOPLE && !map.contains_key(who.as_str()) {
            map.clear();
        }
        map.insert(who.as_str().to_string(), roster);
    }

    /// Drop a person's roster (it was found stale).
    pub fn forget(&self, who: &PersonId) {
        if self.enabled {
            self.lock().remove(who.as_str());
        }
    }
}

/// Remember the roster a caller's verified token carries ([`crate::core::roster_hint`]),
/// unless this instance already has one for them (its own is at least as new). Trusted
/// no more than a roster cached here: every read checks its version in the same round,
/// every write carries a check on it. Whether it was taken.
pub(super) fn take_hint(ledger: &Ledger, who: &PersonId, hint: &serde_json::Value) -> bool {
    if !ledger.rosters.enabled || ledger.rosters.get(who).is_some() {
        return false;
    }
    // One that cannot be read is ignored: the roster query runs as without a hint.
    let Some((mut members, version)) = crate::core::roster_hint::decode(hint) else {
        return false;
    };
    members.sort_by(|a, b| a.name_key.cmp(&b.name_key));
    ledger.rosters.put(
        who,
        Arc::new(Roster {
            members,
            // Ended memberships only reword a failed lookup, which reads the roster afresh.
            ended: vec![],
            version,
        }),
    );
    true
}

/// The caller's roster as their next token's hint: read afresh (one query, and then
/// cached here); `None` when they hold more vaults than a hint carries.
pub(super) async fn hint(ledger: &Ledger, who: &PersonId) -> Result<Option<serde_json::Value>, LedgerError> {
    // For a token being minted now: a closing mark refuses only older tokens.
    let roster = fetch_unchecked(ledger, who).await?;
    Ok(crate::core::roster_hint::encode(&roster.members, roster.version))
}

/// Read the caller's roster from the store (one query) and remember it; refused when
/// the person deleted their data after the caller's token was issued.
pub(super) async fn fetch(ledger: &Ledger, who: &PersonId) -> Result<Arc<Roster>, LedgerError> {
    read(ledger, who, true).await
}

/// [`fetch`] for the deletion of the person itself, which a closing mark does not stop.
pub(super) async fn fetch_unchecked(ledger: &Ledger, who: &PersonId) -> Result<Arc<Roster>, LedgerError> {
    read(ledger, who, false).await
}

async fn read(ledger: &Ledger, who: &PersonId, check_closed: bool) -> Result<Arc<Roster>, LedgerError> {
    let items = query_all(
        ledger.store.as_ref(),
        table::person_pk(who),
        member::roster(),
        true,
    )
    .await?;
    let mut version = None;
    let mut members = Vec::with_capacity(items.len());
    let mut ended = Vec::new();
    for item in &items {
        if member::is_roster_version(&item.key.sk) {
            if check_closed && closed_for(&item.attrs, who.issued_at()) {
                return Err(LedgerError::PersonDeleted);
            }
            version = Some(version_of(&item.attrs)?);
        } else if member::is_ended_membership(&item.key.sk) {
            ended.push(EndedRec::from_attrs(&item.attrs)?);
        } else {
            members.push(Membership::from_attrs(&item.attrs)?);
        }
    }
    members.sort_by(|a, b| a.name_key.cmp(&b.name_key));
    // A vault rejoined since is live again: its ended record says nothing.
    ended.retain(|e| !members.iter().any(|m| m.vault_id == e.vault_id));
    ended.sort_by_key(|x| std::cmp::Reverse(x.on));
    let roster = Arc::new(Roster {
        members,
        ended,
        version,
    });
    ledger.rosters.put(who, roster.clone());
    Ok(roster)
}

/// Whether a roster version item's closing mark refuses a caller whose token was
/// issued at `issued_at` (epoch seconds; unknown is refused while the mark stands). A
/// token of the deletion's own second passes: a sign-in right after the deletion must
/// work, and no grant was left to mint one just before it.
fn closed_for(attrs: &dochiya_store::Attrs, issued_at: Option<i64>) -> bool {
    match attrs.get(CLOSED_AT) {
        Some(Value::N(at)) => issued_at.is_none_or(|iat| iat < *at),
        _ => false,
    }
}

fn version_of(attrs: &dochiya_store::Attrs) -> Result<i64, LedgerError> {
    match attrs.get(VERSION) {
        Some(Value::N(v)) => Ok(*v),
        _ => Err(LedgerError::internal("stored roster version is not a number")),
    }
}

/// The vault a call works in, and what it was resolved from.
#[derive(Debug, Clone)]
pub(super) struct InVault {
    /// The caller's membership of the vault (its id, name and settings).
    pub membership: Membership,
    roster: Arc<Roster>,
    committed: Arc<AtomicBool>,
}

impl InVault {
    fn new(membership: Membership, roster: Arc<Roster>) -> Self {
        Self {
            membership,
            roster,
            committed: Arc::new(AtomicBool::new(false)),
        }
    }

    /// Apply `ops` atomically together with a check that the caller's roster is
    /// still the one this vault was resolved from. A failed roster check is
    /// reported as a failure of guard [`ROSTER_VERSION`]: callers treat it like
    /// any lost race, and the next attempt reads a fresh roster.
    async fn commit(&self, ledger: &Ledger, who: &PersonId, mut ops: Vec<WriteOp>) -> Result<(), StoreError> {
        ops.push(WriteOp::Check {
            key: member::roster_version(who),
            guard: Guard::new(ROSTER_VERSION, self.roster.unchanged()),
        });
        let out = ledger.store.write(ops).await;
        match &out {
            Ok(()) => self.committed.store(true, Ordering::Release),
            Err(StoreError::ConditionFailed {
                guard: ROSTER_VERSION,
                ..
            }) => ledger.rosters.forget(who),
            Err(_) => {}
        }
        out
    }
}

impl InVault {
    /// A member's write into the vault, the one way it is made: the check that the
    /// caller is still a member first (unless an op of the write already guards their
    /// membership item, as an owner's check does), the roster check last, and every
    /// failure mapped once by [`write_failed`].
    pub async fn write(&self, ledger: &Ledger, who: &PersonId, ops: Vec<WriteOp>) -> Result<(), LedgerError> {
        self.write_with(ledger, who, ops, |_, _| None).await
    }

    /// [`InVault::write`] for a write with a guard whose failure is an outcome of its
    /// own, not an error (a key claimed by a concurrent retry, a snapshot already
    /// gone): `None` when written, `Some(item as it was)` when guard `own` failed.
    pub async fn write_unless(
        &self,
        ledger: &Ledger,
        who: &PersonId,
        ops: Vec<WriteOp>,
        own: &'static str,
    ) -> Result<Option<Option<Item>>, LedgerError> {
        let mut failed = None;
        let out = self
            .write_with(ledger, who, ops, |guard, current| {
                (guard == own).then(|| {
                    failed = Some(current.cloned());
                    LedgerError::Conflict
                })
            })
            .await;
        match (out, failed) {
            (Ok(()), _) => Ok(None),
            (Err(_), Some(current)) => Ok(Some(current)),
            (Err(e), None) => Err(e),
        }
    }

    /// [`InVault::write`] for a write with guards of its own: `own` says what a failed
    /// one means from its name and the item as it was (`None`: a lost race).
    pub async fn write_with(
        &self,
        ledger: &Ledger,
        who: &PersonId,
        mut ops: Vec<WriteOp>,
        own: impl FnOnce(&'static str, Option<&Item>) -> Option<LedgerError>,
    ) -> Result<(), LedgerError> {
        let member = member::membership(who, self.membership.vault_id);
        if !ops.iter().any(|op| *op.key() == member) {
            ops.insert(0, membership_check(who, &self.membership));
        }
        self.commit(ledger, who, ops)
            .await
            .map_err(|e| write_failed(&self.membership, e, own))
    }

    /// Like [`InVault::commit`], for a write that also changes the caller's own
    /// memberships (leaving the vault): the version moves on, under the same
    /// guard, instead of only being checked; the cached roster is dropped after.
    pub async fn commit_moving_roster(
        &self,
        ledger: &Ledger,
        who: &PersonId,
        mut ops: Vec<WriteOp>,
    ) -> Result<(), StoreError> {
        ops.push(self.roster.bump(who));
        let out = ledger.store.write(ops).await;
        match &out {
            Ok(()) => {
                self.committed.store(true, Ordering::Release);
                ledger.rosters.forget(who);
            }
            Err(StoreError::ConditionFailed {
                guard: ROSTER_VERSION,
                ..
            }) => ledger.rosters.forget(who),
            Err(_) => {}
        }
        out
    }
}

/// Run `body` in the vault the caller means (`wanted`, or their only vault).
///
/// With a cached roster the vault is known at once, and the roster's version is
/// read in the same round as whatever `body` reads first; if it moved, the
/// outcome is discarded and `body` runs again on a fresh roster, unless `body`
/// already committed a write (whose own roster check then proved it current).
/// Without one, the roster is read first (one query).
///
/// The vault's recurring head is read in that same round (with the version, one
/// `get_many`): when an occurrence is due, it is posted and `body` runs again on
/// data that shows it (a write that already committed is not re-run; the posting
/// follows it).
pub(super) async fn in_vault<T, F, Fut>(
    ledger: &Ledger,
    who: &PersonId,
    wanted: Option<&str>,
    mut body: F,
) -> Result<T, LedgerError>
where
    F: FnMut(InVault) -> Fut,
    Fut: Future<Output = Result<T, LedgerError>>,
{
    if let Some(roster) = ledger.rosters.get(who)
        // A name the cached roster does not know may be a vault made elsewhere: read afresh.
        && let Ok(m) = pick_vault(&roster.members, wanted)
    {
        let v = InVault::new(m.clone(), roster.clone());
        let committed = v.committed.clone();
        let (current, out) = join2(version_and_head(ledger, who, &m), Box::pin(body(v))).await;
        let (version, head) = current?;
        if committed.load(Ordering::Acquire) || version == roster.version {
            // Boxed, like the second body inside: it keeps this future (and its stack use,
            // unoptimized) the size it was before recurring heads.
            return Box::pin(after_head(
                ledger,
                &m,
                head,
                committed.load(Ordering::Acquire),
                out,
                || body(InVault::new(m.clone(), roster.clone())),
            ))
            .await;
        }
        ledger.rosters.forget(who);
    }
    let roster = fetch(ledger, who).await?;
    let m = pick_vault(&roster.members, wanted).map_err(|e| ended_instead(&roster, wanted, e))?;
    let v = InVault::new(m.clone(), roster.clone());
    let committed = v.committed.clone();
    let (head, out) = join2(
        ledger.store.get(&schedule::recurring_head(m.vault_id)),
        Box::pin(body(v)),
    )
    .await;
    let head = head_next(head?.as_ref())?;
    Box::pin(after_head(
        ledger,
        &m,
        head,
        committed.load(Ordering::Acquire),
        out,
        || body(InVault::new(m.clone(), roster.clone())),
    ))
    .await
}

/// The roster version and the vault's recurring head, in one `get_many`.
async fn version_and_head(
    ledger: &Ledger,
    who: &PersonId,
    m: &Membership,
) -> Result<(Option<i64>, Option<LocalDate>), LedgerError> {
    let got = ledger
        .store
        .get_many(&[member::roster_version(who), schedule::recurring_head(m.vault_id)])
        .await?;
    let version = match got.first() {
        Some(Some(item)) => Some(version_of(&item.attrs)?),
        _ => None,
    };
    Ok((version, head_next(got.get(1).and_then(Option::as_ref))?))
}

/// `out` as it is when nothing is due; otherwise post what is due, then run `again`
/// (unless `body` committed a write: its answer stands, the posting follows it).
async fn after_head<T, Fut>(
    ledger: &Ledger,
    m: &Membership,
    head: Option<LocalDate>,
    committed: bool,
    out: Result<T, LedgerError>,
    again: impl FnOnce() -> Fut,
) -> Result<T, LedgerError>
where
    Fut: Future<Output = Result<T, LedgerError>>,
{
    if !super::posting::due(ledger, m, head) {
        return out;
    }
    Box::pin(super::posting::post_due(ledger, m, head)).await?;
    // Boxed: inline, a second body would double every vault call's future (and its stack, unoptimized).
    if committed { out } else { Box::pin(again()).await }
}

/// "Your access ended" instead of "no such vault" (or "you have no vault yet") when
/// the vault the caller means is one they were removed from or left: a model told
/// there is no vault would start a new, empty book.
fn ended_instead(roster: &Roster, wanted: Option<&str>, e: LedgerError) -> LedgerError {
    if !matches!(
        e,
        LedgerError::NotFound {
            what: crate::api::Entity::Vault,
            ..
        }
    ) {
        return e;
    }
    let wanted = wanted.map(str::trim).filter(|w| !w.is_empty());
    let ended = match wanted {
        Some(name) => {
            let key = dochiya_domain::NameKey::of(name);
            roster
                .ended
                .iter()
                .find(|x| x.name_key == key || dochiya_domain::NameKey::of(&x.name) == key)
        }
        None if roster.members.is_empty() => roster.ended.first(),
        None => None,
    };
    match ended {
        Some(x) if x.deleted => LedgerError::VaultDeleted {
            vault: wanted.map_or_else(|| x.name.clone(), str::to_string),
            on: x.on,
        },
        Some(x) => LedgerError::AccessEnded {
            vault: wanted.map_or_else(|| x.name.clone(), str::to_string),
            on: x.on,
            removed: x.removed,
        },
        None => e,
    }
}

/// The check every vault write carries: the caller is (still) a member.
pub(super) fn membership_check(who: &PersonId, m: &Membership) -> WriteOp {
    WriteOp::Check {
        key: member::membership(who, m.vault_id),
        guard: Guard::new(MEMBERSHIP, Condition::Exists),
    }
}

/// The error when the membership check of a write failed.
pub(super) fn vault_gone(m: &Membership) -> LedgerError {
    LedgerError::NotFound {
        what: Entity::Vault,
        name: m.name.clone(),
        within: None,
        candidates: vec![],
    }
}

/// What a failed vault write means, mapped once (issue 52's one write type): the
/// membership check failed (the caller's vault is gone); a guard of the write's own,
/// when `own` says what it means from the guard's name and the item as it was; any other
/// guard moved (`Conflict`: re-read and decide again); a stored total pushed out of
/// range (the entry's own refusal); or the store's own error.
pub(super) fn write_failed(
    m: &Membership,
    e: StoreError,
    own: impl FnOnce(&'static str, Option<&Item>) -> Option<LedgerError>,
) -> LedgerError {
    match e {
        StoreError::ConditionFailed {
            guard: MEMBERSHIP, ..
        } => vault_gone(m),
        StoreError::ConditionFailed { guard, current } => {
            own(guard, current.as_ref()).unwrap_or(LedgerError::Conflict)
        }
        e => super::writer::refusing_overflow(e),
    }
}

/// Refuse an owner's action to a member, naming the action and the role it needs.
pub(super) fn require_owner(m: &Membership, action: OwnerAction) -> Result<(), LedgerError> {
    match m.role {
        Role::Owner => Ok(()),
        Role::Member => Err(LedgerError::NeedsOwner {
            action,
            vault: m.name.clone(),
        }),
    }
}

/// Most vaults one person may hold.
pub(super) const MAX_VAULTS: usize = 100;

impl Ledger {
    /// When `who` deleted their data (epoch seconds), if they did: their roster
    /// version's closing mark, one read (the authorization server ends older grants).
    pub async fn closed_at(&self, who: &PersonId) -> Result<Option<i64>, LedgerError> {
        let item = self.store.get(&member::roster_version(who)).await?;
        Ok(item.and_then(|i| match i.attrs.get(CLOSED_AT) {
            Some(Value::N(at)) => Some(*at),
            _ => None,
        }))
    }

    /// The caller's roster as the hint their next access token carries (decision 044):
    /// read afresh, one query; `None` past [`crate::core::roster_hint::MAX_HINTED_VAULTS`].
    pub async fn roster_hint(&self, who: &PersonId) -> Result<Option<serde_json::Value>, LedgerError> {
        hint(self, who).await
    }

    /// Take the roster hint of the caller's verified token, so a new instance spares the
    /// roster query; ignored when this instance has the caller's roster already, or the
    /// hint cannot be read. Whether it was taken.
    pub fn take_roster_hint(&self, who: &PersonId, hint: &serde_json::Value) -> bool {
        take_hint(self, who, hint)
    }

    /// The currency of the vault a call means (to word a refused amount against it).
    pub async fn vault_currency(
        &self,
        who: &PersonId,
        vault: Option<&str>,
    ) -> Result<dochiya_domain::Currency, LedgerError> {
        in_vault(self, who, vault, |v| async move { Ok(v.membership.currency) }).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_closing_mark_refuses_tokens_issued_until_it() {
        let attrs: dochiya_store::Attrs = [(CLOSED_AT.to_string(), Value::N(1_000))].into();
        assert!(closed_for(&attrs, Some(999)));
        assert!(!closed_for(&attrs, Some(1_000)));
        assert!(!closed_for(&attrs, Some(1_001)));
        assert!(closed_for(&attrs, None));
        assert!(!closed_for(&Default::default(), None));
    }
}
