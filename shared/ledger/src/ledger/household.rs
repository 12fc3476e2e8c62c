//! Two people, one book (docs/decisions/060-settle-up.md): whose an account or a
//! piece of spending is, the shares the household divides by, settle-up, and each
//! member's spending.
//!
//! Every figure is derived from what the live entries of the period moved, read by
//! month from the rollups every write keeps (`flows.rs`, decision 062), so edits,
//! voids, undo, recurring postings and card payments count with no extra step. The
//! arithmetic is `core::settle`'s.

use std::collections::{BTreeMap, HashMap};

use super::flows::{Flows, flows};
use super::guards::MEMBERS_UNCHANGED;
use super::members::{find_member, founder, labels, numbered};
use super::resolve::{Catalogue, catalogue, join2, query_all, retrying};
use super::roster::{in_vault, require_owner};
use super::*;
use crate::api::{Field, OwnerAction, Reason, Total};
use crate::core::settle::{Party, Tally, divide, transfers};
use crate::stored::account::AccountRec;
use crate::stored::account::OWNER;
use crate::stored::entry::FOR_SHARED;
use crate::stored::entry::TxRec;
use crate::stored::member::{MemberRec, Membership, members_unchanged};
use crate::stored::table::n_or_zero;
use crate::stored::{account, member, table, vault};
use dochiya_domain::{AccountId, AccountKind, Money, NameKey, VaultId};
use dochiya_store::{Item, Value, WriteOp};

/// Attribute of a vault's `META` holding its shares' history.
const SHARES: &str = "shares";
/// Most changes of shares a vault keeps (at most one a month; ten years of monthly changes).
pub const MAX_SHARE_CHANGES: usize = 120;
/// Largest weight a member can be given.
pub const MAX_WEIGHT: i64 = 1_000_000;
/// What `for` says for spending that was everyone's.
pub const FOR_EVERYONE: &str = "shared";

/// Shares in force from a month on: weights by member subject (a member not named: 1).
#[derive(Debug, Clone, PartialEq, Eq)]
struct Regime {
    from: YearMonth,
    weights: BTreeMap<String, u64>,
}

fn regimes_of(meta: &dochiya_store::Attrs) -> Result<Vec<Regime>, LedgerError> {
    let bad = || LedgerError::internal("stored shares are not readable");
    let Some(v) = meta.get(SHARES) else {
        return Ok(vec![]);
    };
    let Value::L(list) = v else { return Err(bad()) };
    let mut out = Vec::new();
    for r in list {
        let Value::M(r) = r else { return Err(bad()) };
        let from = match r.get("from") {
            Some(Value::S(s)) => YearMonth::parse(s).map_err(|_| bad())?,
            _ => return Err(bad()),
        };
        let Some(Value::M(w)) = r.get("weights") else {
            return Err(bad());
        };
        let weights = w
            .iter()
            .map(|(k, v)| match v {
                Value::N(n) => u64::try_from(*n).map(|n| (k.clone(), n)).map_err(|_| bad()),
                _ => Err(bad()),
            })
            .collect::<Result<_, _>>()?;
        out.push(Regime { from, weights });
    }
    out.sort_by_key(|r| r.from);
    Ok(out)
}

fn regimes_value(list: &[Regime]) -> Value {
    Value::L(
        list.iter()
            .map(|r| {
                Value::M(BTreeMap::from([
                    ("from".to_string(), Value::S(r.from.to_string())),
                    (
                        "weights".to_string(),
                        Value::M(
                            r.weights
                                .iter()
                                .map(|(k, w)| (k.clone(), Value::N(i64::try_from(*w).unwrap_or(i64::MAX))))
                                .collect(),
                        ),
                    ),
                ]))
            })
            .collect(),
    )
}

/// Someone settle-up counts: a member, or someone who was one.
#[derive(Debug, Clone)]
struct Person {
    sub: String,
    label: String,
    /// Their times in the vault: the first and last month of each (`None` first: the
    /// vault's first member, from the start; `None` last: still a member).
    spans: Vec<(Option<YearMonth>, Option<YearMonth>)>,
    current: bool,
    /// False for a subject nobody is known by any more: never given a share.
    weighs: bool,
}

impl Person {
    /// Whether they were in the vault at some time from month `from` through `to`.
    fn in_between(&self, from: YearMonth, to: YearMonth) -> bool {
        self.spans
            .iter()
            .any(|(j, l)| j.is_none_or(|j| j <= to) && l.is_none_or(|l| from <= l))
    }
}

/// A vault's people and shares as one read found them.
pub(super) struct Household {
    people: Vec<Person>,
    regimes: Vec<Regime>,
    /// The current members as stored (for writes).
    members: Vec<MemberRec>,
    /// The members version on `META` (`None`: absent, a vault made before sharing).
    version: Option<i64>,
}

impl Household {
    fn index(&self, sub: &str) -> Option<usize> {
        self.people.iter().position(|p| p.sub == sub)
    }

    /// The people's weights in `month`: a person not in the vault then weighs nothing;
    /// one who is weighs what the latest shares in force naming them say, else 1.
    fn weights(&self, month: YearMonth) -> Vec<u64> {
        self.people
            .iter()
            .map(|p| {
                if !p.weighs || !p.in_between(month, month) {
                    return 0;
                }
                self.regimes
                    .iter()
                    .rev()
                    .filter(|r| r.from <= month)
                    .find_map(|r| r.weights.get(&p.sub).copied())
                    .unwrap_or(1)
            })
            .collect()
    }

    /// Each person's place in remainder ties: by name.
    fn rank(&self) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.people.len()).collect();
        order.sort_by(|a, b| self.people[*a].label.cmp(&self.people[*b].label));
        let mut rank = vec![0; order.len()];
        for (r, i) in order.into_iter().enumerate() {
            rank[i] = r;
        }
        rank
    }

    /// The current members' weights this month.
    pub(super) fn current_shares(&self, month: YearMonth) -> Vec<ShareOf> {
        let w = self.weights(month);
        self.people
            .iter()
            .zip(w)
            .filter(|(p, _)| p.current)
            .map(|(p, weight)| ShareOf {
                member: p.label.clone(),
                weight,
            })
            .collect()
    }

    /// A subject stored on an account or an entry that names nobody known any more
    /// (their data was deleted): counted as a former member of their own.
    fn person_for(&mut self, sub: &str) -> usize {
        if let Some(i) = self.index(sub) {
            return i;
        }
        let taken: Vec<NameKey> = self.people.iter().map(|p| NameKey::of(&p.label)).collect();
        let label = numbered("former member", |k| !taken.contains(k));
        self.people.push(Person {
            sub: sub.to_string(),
            label,
            spans: vec![],
            current: false,
            weighs: false,
        });
        self.people.len() - 1
    }

    /// Count in everyone the accounts and entries name, so the people list is complete
    /// before any sum is sized by it.
    fn know_everyone(&mut self, f: &Flows) {
        for a in &f.cat.accounts {
            if let Some(o) = &a.owner {
                self.person_for(o);
            }
        }
        for w in f.fors().filter(|w| *w != FOR_SHARED) {
            self.person_for(w);
        }
    }

    /// Whose side a posting on `a` is, in an entry saying `for_whom`.
    fn party(&mut self, a: &AccountRec, for_whom: Option<&str>) -> Option<Party> {
        let owned =
            |h: &mut Household, o: &Option<String>| o.as_deref().map(|s| Party::Member(h.person_for(s)));
        match a.kind {
            AccountKind::Equity => None,
            AccountKind::Asset | AccountKind::Liability => Some(owned(self, &a.owner).unwrap_or(Party::Pool)),
            AccountKind::Income => Some(owned(self, &a.owner).unwrap_or(Party::SharedIncome)),
            AccountKind::Expense => Some(match for_whom {
                Some(FOR_SHARED) => Party::Pool,
                Some(sub) => Party::Member(self.person_for(sub)),
                None => owned(self, &a.owner).unwrap_or(Party::Pool),
            }),
        }
    }
}

/// A vault's members, former members and shares, in one round.
pub(super) async fn read_household(
    ledger: &Ledger,
    who: &PersonId,
    m: &Membership,
) -> Result<Household, LedgerError> {
    let store = ledger.store.as_ref();
    let pk = table::vault_pk(m.vault_id);
    let (current, former) = join2(
        query_all(store, pk.clone(), member::members_and_meta(), true),
        query_all(store, pk, member::former_members(), true),
    )
    .await;
    let (mut list, mut version, mut created_at, mut regimes) = (Vec::new(), None, 0, Vec::new());
    for item in &current? {
        if member::is_member(&item.key.sk) {
            list.push(MemberRec::from_attrs(&item.attrs)?);
        } else if item.key.sk == vault::VAULT_META {
            version = item
                .attrs
                .contains_key(member::MEMBERS_VERSION)
                .then(|| member::members_version(&item.attrs))
                .transpose()?;
            created_at = n_or_zero(&item.attrs, "createdAt")?;
            regimes = regimes_of(&item.attrs)?;
        }
    }
    list.sort_by_key(|r| r.joined_at);
    if list.is_empty() {
        list.push(founder(who, m, created_at));
    }
    let month_of = |at: i64| super::members::joined_on(m, at).month();
    let mut former_items: Vec<FormerRec> = former?
        .iter()
        .map(FormerRec::from_item)
        .collect::<Result<_, _>>()?;
    former_items.sort_by_key(|f| f.joined_at);
    // The vault's first stint counts from the start (entries from before it was made).
    let first = list
        .iter()
        .map(|r| r.joined_at)
        .chain(former_items.iter().map(|f| f.joined_at))
        .min()
        .unwrap_or(0);
    let start = |at: i64| (at > first).then(|| month_of(at));
    let mut people: Vec<Person> = list
        .iter()
        .zip(labels(&list))
        .map(|(r, label)| Person {
            sub: r.person.clone(),
            label,
            spans: vec![(start(r.joined_at), None)],
            current: true,
            weighs: true,
        })
        .collect();
    for f in former_items {
        let span = (start(f.joined_at), Some(month_of(f.left_at)));
        if let Some(p) = people.iter_mut().find(|p| p.sub == f.person) {
            p.spans.push(span);
            continue;
        }
        let taken: Vec<NameKey> = people.iter().map(|p| NameKey::of(&p.label)).collect();
        let label = if taken.contains(&NameKey::of(&f.name)) {
            numbered(&f.name, |k| !taken.contains(k))
        } else {
            f.name.clone()
        };
        people.push(Person {
            sub: f.person,
            label,
            spans: vec![span],
            current: false,
            weighs: true,
        });
    }
    Ok(Household {
        people,
        regimes,
        members: list,
        version,
    })
}

/// What a vault keeps of a former member (`FM#<sub>`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct FormerRec {
    pub person: String,
    pub name: String,
    pub joined_at: i64,
    pub left_at: i64,
}

impl FormerRec {
    /// The item that keeps it.
    pub(super) fn item(&self, vault: VaultId) -> Item {
        Item {
            key: member::former_member(vault, &self.person, self.joined_at),
            attrs: BTreeMap::from([
                ("person".into(), Value::S(self.person.clone())),
                ("name".into(), Value::S(self.name.clone())),
                ("joinedAt".into(), Value::N(self.joined_at)),
                ("leftAt".into(), Value::N(self.left_at)),
            ]),
        }
    }

    fn from_item(item: &Item) -> Result<FormerRec, LedgerError> {
        let s = |k: &str| match item.attrs.get(k) {
            Some(Value::S(v)) => Ok(v.clone()),
            _ => Err(LedgerError::internal("a former member item is not readable")),
        };
        Ok(FormerRec {
            person: s("person")?,
            name: s("name")?,
            joined_at: n_or_zero(&item.attrs, "joinedAt")?,
            left_at: n_or_zero(&item.attrs, "leftAt")?,
        })
    }
}

/// The subject a member's name means (refused with the members' names when none has it).
pub(super) async fn member_subject(
    ledger: &Ledger,
    who: &PersonId,
    m: &Membership,
    name: &str,
) -> Result<String, LedgerError> {
    let members = super::members::read_members(ledger, m.vault_id).await?;
    let list = members.or_sole(who, m);
    let (member, _) = find_member(&list, name, m)?;
    Ok(member.person.clone())
}

/// What a `for` as given stores: ([`FOR_SHARED`] or a member's subject, the name it
/// shows by), or nothing (`""`: by its categories again).
pub(super) async fn for_subject(
    ledger: &Ledger,
    who: &PersonId,
    m: &Membership,
    given: &str,
) -> Result<Option<(String, String)>, LedgerError> {
    let given = given.trim();
    if given.is_empty() {
        return Ok(None);
    }
    if given.eq_ignore_ascii_case(FOR_EVERYONE) {
        return Ok(Some((FOR_SHARED.to_string(), FOR_EVERYONE.to_string())));
    }
    let members = super::members::read_members(ledger, m.vault_id).await?;
    let list = members.or_sole(who, m);
    let (member, label) = find_member(&list, given, m)?;
    Ok(Some((member.person.clone(), label)))
}

/// [`for_subject`] of a `for` when one was given.
pub(super) async fn for_of(
    ledger: &Ledger,
    who: &PersonId,
    m: &Membership,
    given: Option<&str>,
) -> Result<Option<(String, String)>, LedgerError> {
    match given {
        Some(f) => for_subject(ledger, who, m, f).await,
        None => Ok(None),
    }
}

/// Refuse a `for` on an entry with no expense line: it says whose spending it was.
pub(super) fn check_for(tx: &TxRec, cat: &Catalogue) -> Result<(), LedgerError> {
    if tx.for_whom.is_none() {
        return Ok(());
    }
    let spends = tx.postings.iter().any(|p| {
        cat.by_id(p.account_id)
            .is_some_and(|a| a.kind == AccountKind::Expense)
    });
    if spends {
        Ok(())
    } else {
        Err(LedgerError::invalid(
            Field::Household("for"),
            Reason::ForWithoutExpense,
        ))
    }
}

/// The names the owners of `accounts` show by (one read, only when some account has one).
pub(super) async fn owner_labels(
    ledger: &Ledger,
    who: &PersonId,
    m: &Membership,
    accounts: &[AccountRec],
) -> Result<HashMap<String, String>, LedgerError> {
    if accounts.iter().all(|a| a.owner.is_none()) {
        return Ok(HashMap::new());
    }
    let mut h = read_household(ledger, who, m).await?;
    Ok(accounts
        .iter()
        .filter_map(|a| a.owner.as_deref())
        .map(|s| {
            let i = h.person_for(s);
            (s.to_string(), h.people[i].label.clone())
        })
        .collect())
}

pub(super) async fn set_account_owner(
    ledger: &Ledger,
    who: &PersonId,
    vault: Option<&str>,
    account: &str,
    owner: &str,
) -> Result<OwnerSet, LedgerError> {
    retrying(|| {
        in_vault(ledger, who, vault, |v| async move {
            let m = v.membership.clone();
            require_owner(&m, OwnerAction::AssignOwners)?;
            let (cat, sub) = join2(catalogue(ledger, &m), async {
                match owner.trim() {
                    "" => Ok(None),
                    name => member_subject(ledger, who, &m, name).await.map(Some),
                }
            })
            .await;
            let (cat, sub) = (cat?, sub?);
            let a = cat.resolve(account, false, &m)?.clone();
            if a.kind == AccountKind::Equity {
                return Err(LedgerError::invalid(
                    Field::Household("owner"),
                    Reason::OwnerOfEquity {
                        account: a.name.clone(),
                    },
                ));
            }
            let h = read_household(ledger, who, &m).await?;
            let label = |s: &Option<String>| {
                s.as_deref().map(|s| {
                    h.index(s)
                        .map_or_else(|| "former member".to_string(), |i| h.people[i].label.clone())
                })
            };
            let done = |changed| OwnerSet {
                vault: m.vault_ref(),
                account_id: a.account_id,
                name: a.name.clone(),
                kind: a.kind,
                owner: label(&sub),
                changed,
            };
            if a.owner == sub {
                return Ok(done(false));
            }
            let (set, remove) = match &sub {
                Some(s) => (BTreeMap::from([(OWNER.to_string(), Value::S(s.clone()))]), vec![]),
                None => (BTreeMap::new(), vec![OWNER.to_string()]),
            };
            let ops = vec![WriteOp::Update {
                key: account::account(m.vault_id, a.account_id),
                set,
                add: BTreeMap::new(),
                remove,
                guard: super::guards::guard(super::guards::ACCOUNT_LIVE, account::account_live()),
            }];
            v.write(ledger, who, ops).await?;
            Ok(done(true))
        })
    })
    .await
}

/// The shares after merging `asked` into this month's, checked.
fn merged_shares(
    h: &Household,
    asked: &[(String, i64)],
    month: YearMonth,
    m: &Membership,
) -> Result<BTreeMap<String, u64>, LedgerError> {
    if asked.is_empty() {
        return Err(LedgerError::invalid(Field::Household("shares"), Reason::NoShares));
    }
    let mut now: BTreeMap<String, u64> = h
        .people
        .iter()
        .zip(h.weights(month))
        .filter(|(p, _)| p.current)
        .map(|(p, w)| (p.sub.clone(), w))
        .collect();
    let mut seen = Vec::new();
    for (name, weight) in asked {
        let (member, label) = find_member(&h.members, name, m)?;
        if seen.contains(&member.person) {
            return Err(LedgerError::invalid(
                Field::Household("shares"),
                Reason::MemberTwice { member: label },
            ));
        }
        seen.push(member.person.clone());
        if !(0..=MAX_WEIGHT).contains(weight) {
            return Err(LedgerError::invalid(
                Field::Household("shares"),
                Reason::WeightOutOfRange {
                    member: label,
                    max: MAX_WEIGHT,
                    got: *weight,
                },
            ));
        }
        now.insert(member.person.clone(), u64::try_from(*weight).unwrap_or(0));
    }
    if now.values().all(|w| *w == 0) {
        return Err(LedgerError::invalid(
            Field::Household("shares"),
            Reason::AllWeightsZero,
        ));
    }
    Ok(now)
}

/// Set this month's shares (from its first day on): (changed, every member's weight now).
pub(super) async fn set_shares(
    ledger: &Ledger,
    who: &PersonId,
    vault: Option<&str>,
    asked: &[(String, i64)],
) -> Result<(bool, Vec<ShareOf>), LedgerError> {
    retrying(|| {
        in_vault(ledger, who, vault, |v| async move {
            let m = v.membership.clone();
            require_owner(&m, OwnerAction::SetShares)?;
            let mut h = read_household(ledger, who, &m).await?;
            let month = ledger.today_in(&m).month();
            let merged = merged_shares(&h, asked, month, &m)?;
            let before: BTreeMap<String, u64> = h
                .people
                .iter()
                .zip(h.weights(month))
                .filter(|(p, _)| p.current)
                .map(|(p, w)| (p.sub.clone(), w))
                .collect();
            if before == merged {
                return Ok((false, h.current_shares(month)));
            }
            h.regimes.retain(|r| r.from != month);
            if h.regimes.len() >= MAX_SHARE_CHANGES {
                return Err(LedgerError::invalid(
                    Field::Household("shares"),
                    Reason::TooManyShareChanges {
                        max: MAX_SHARE_CHANGES,
                    },
                ));
            }
            h.regimes.push(Regime {
                from: month,
                weights: merged,
            });
            h.regimes.sort_by_key(|r| r.from);
            // Under the members version, so shares and a join or a removal never pass each
            // other; a vault made before sharing has no version (and only its creator).
            let (add, condition) = match h.version {
                Some(v) => (
                    BTreeMap::from([(member::MEMBERS_VERSION.to_string(), 1)]),
                    members_unchanged(v),
                ),
                None => (
                    BTreeMap::new(),
                    dochiya_store::Condition::AttrAbsent(member::MEMBERS_VERSION.into()),
                ),
            };
            let op = WriteOp::Update {
                key: vault::vault_meta(m.vault_id),
                set: BTreeMap::from([(SHARES.to_string(), regimes_value(&h.regimes))]),
                add,
                remove: vec![],
                guard: super::guards::guard(MEMBERS_UNCHANGED, condition),
            };
            let ops = vec![op];
            v.write(ledger, who, ops).await?;
            Ok((true, h.current_shares(month)))
        })
    })
    .await
}

pub(super) async fn settle_up(
    ledger: &Ledger,
    who: &PersonId,
    request: SettleRequest,
) -> Result<Settlement, LedgerError> {
    if let (Some(f), Some(t)) = (request.from, request.to) {
        LedgerError::check_range(&f, &t)?;
    }
    let request = &request;
    in_vault(ledger, who, request.vault.as_deref(), |v| async move {
        let m = v.membership;
        let today = ledger.today_in(&m);
        let to = request.to.unwrap_or(today);
        if let Some(f) = request.from
            && f > to
        {
            LedgerError::check_range(&f, &to)?;
        }
        let (f, h) = join2(
            flows(ledger, &m, request.from, to, to, true),
            read_household(ledger, who, &m),
        )
        .await;
        let (f, mut h) = (f?, h?);
        let from = request.from.or(f.first).unwrap_or(to).min(to);
        h.know_everyone(&f);
        let by_id: HashMap<AccountId, &AccountRec> =
            f.cat.accounts.iter().map(|a| (a.account_id, a)).collect();
        let mut tally = Tally::new(h.people.len());
        let postings = f.entries.iter().flat_map(|t| {
            t.postings
                .iter()
                .map(move |p| (t.date.month(), p.account_id, t.for_whom.as_deref(), p.amount))
        });
        let months = f
            .months
            .iter()
            .map(|x| (x.month, x.account, x.for_whom.as_deref(), x.net));
        for (month, account, for_whom, amount) in postings.chain(months) {
            let Some(a) = by_id.get(&account) else {
                continue;
            };
            if let Some(party) = h.party(a, for_whom) {
                tally.add(month, party, amount);
            }
        }
        let rank = h.rank();
        let lines = tally.lines(|month| h.weights(month), &rank).ok_or_else(|| {
            LedgerError::out_of_range(Total::SettleUp {
                vault: m.name.clone(),
            })
        })?;
        let in_period = |p: &Person| p.in_between(from.month(), to.month());
        let money = |v: i64| Money::from_minor(v, m.currency);
        let shown: Vec<usize> = (0..h.people.len())
            .filter(|i| {
                let p = &h.people[*i];
                p.current || lines[*i].put_in != 0 || lines[*i].share != 0 || in_period(p)
            })
            .collect();
        let nets: Vec<i64> = lines.iter().map(|l| l.net).collect();
        let members = shown
            .iter()
            .map(|i| SettleLine {
                name: h.people[*i].label.clone(),
                put_in: money(lines[*i].put_in),
                share: money(lines[*i].share),
                net: money(lines[*i].net),
            })
            .collect();
        let transfers = transfers(&nets, &rank)
            .into_iter()
            .map(|t| SettleTransfer {
                from: h.people[t.from].label.clone(),
                to: h.people[t.to].label.clone(),
                amount: money(t.amount),
            })
            .collect();
        Ok(Settlement {
            vault: m.vault_ref(),
            currency: m.currency,
            from,
            to,
            members,
            transfers,
        })
    })
    .await
}

/// Natural sign: spending is a debit, income a credit.
fn natural(kind: AccountKind, amount: i64) -> i128 {
    if kind == AccountKind::Expense {
        i128::from(amount)
    } else {
        -i128::from(amount)
    }
}

/// `spending_report` by member: each person's spending (or income) of the period,
/// theirs alone plus their share of the household's, and what lies after today apart.
pub(super) async fn report_by_member(
    ledger: &Ledger,
    who: &PersonId,
    r: &ReportRequest,
    m: Membership,
) -> Result<SpendingReport, LedgerError> {
    if r.tag.is_some() {
        return Err(LedgerError::invalid(Field::Category("tag"), Reason::TagByMember));
    }
    let today = ledger.today_in(&m);
    let exact_from = today.next_day().min(r.to);
    let (f, h) = join2(
        flows(ledger, &m, Some(r.from), r.to, exact_from, false),
        read_household(ledger, who, &m),
    )
    .await;
    let (f, mut h) = (f?, h?);
    let kind = r.kind.account_kind();
    let by_id: HashMap<AccountId, &AccountRec> = f.cat.accounts.iter().map(|a| (a.account_id, a)).collect();
    h.know_everyone(&f);
    let mut own: Vec<i128> = vec![0; h.people.len()];
    let mut shared: BTreeMap<YearMonth, i128> = BTreeMap::new();
    let (mut later, mut later_count) = (0i128, 0u32);
    let natural = |amount: i64| natural(kind, amount);
    let mut count =
        |h: &mut Household, a: &AccountRec, month: YearMonth, for_whom: Option<&str>, v: i128| match h
            .party(a, for_whom)
        {
            Some(Party::Member(i)) => own[i] += v,
            Some(Party::Pool | Party::SharedIncome) => *shared.entry(month).or_insert(0) += v,
            None => {}
        };
    for tx in &f.entries {
        let mut counted = false;
        for p in tx.postings.iter() {
            let Some(a) = by_id.get(&p.account_id).filter(|a| a.kind == kind) else {
                continue;
            };
            counted = true;
            if tx.date > today {
                later += natural(p.amount);
            } else {
                count(
                    &mut h,
                    a,
                    tx.date.month(),
                    tx.for_whom.as_deref(),
                    natural(p.amount),
                );
            }
        }
        if counted && tx.date > today {
            later_count += 1;
        }
    }
    for x in &f.months {
        if let Some(a) = by_id.get(&x.account).filter(|a| a.kind == kind) {
            count(&mut h, a, x.month, x.for_whom.as_deref(), natural(x.net));
        }
    }
    let rank = h.rank();
    let mut by_weights: BTreeMap<Vec<u64>, i128> = BTreeMap::new();
    for (month, v) in &shared {
        *by_weights.entry(h.weights(*month)).or_insert(0) += v;
    }
    for (w, v) in &by_weights {
        for (i, part) in divide(*v, w, &rank).into_iter().enumerate() {
            own[i] += part;
        }
    }
    let range = || {
        LedgerError::out_of_range(Total::MemberReport {
            vault: m.name.clone(),
        })
    };
    let money = |v: i128| {
        i64::try_from(v)
            .map(|v| Money::from_minor(v, m.currency))
            .map_err(|_| range())
    };
    let mut rows = Vec::new();
    for (i, p) in h.people.iter().enumerate() {
        if !p.current && own[i] == 0 {
            continue;
        }
        rows.push(ReportRow {
            account_id: None,
            account: None,
            month: None,
            amount: money(own[i])?,
            parent: None,
            tag: None,
            member: Some(p.label.clone()),
        });
    }
    let total = money(own.iter().sum())?;
    let scheduled = (later_count > 0)
        .then(|| {
            money(later).map(|amount| Scheduled {
                amount,
                count: later_count,
            })
        })
        .transpose()?;
    Ok(SpendingReport {
        vault: m.vault_ref(),
        currency: m.currency,
        from: r.from,
        to: r.to,
        kind: r.kind,
        by: r.by,
        total,
        rows,
        scheduled,
    })
}
