//! Accounts: list, create (with an optional opening balance), rename, archive.

use std::collections::BTreeMap;

use crate::api::{AccountShape, Entity, Field, Holder, OwnerAction, Reason, Total};
use crate::ledger::budget_settings;
use crate::ledger::guards::{ACCOUNT_NEW, ACCOUNT_NUMBER_FREE, NAME_FREE, NAME_HELD, VAULT_EXISTS, guard};
use crate::ledger::resolve::{Catalogue, catalogue, join2, retrying};
use crate::ledger::roster::require_owner;
use crate::ledger::roster::{InVault, in_vault};
use crate::ledger::system_names::{Equity, SystemNames};
use crate::ledger::today::catalogue_today;
use crate::ledger::writer::{TxChange, transaction_ops};
use crate::ledger::*;
use crate::ledger::{bills, goals, groups, household, nets, words};
use crate::stored::account::{
    AccountRec, account_count_update, account_pointer, archive_mark, points_at_account,
};
use crate::stored::budget::BudgetHead;
use crate::stored::entry::{PostingRec, TxRec};
use crate::stored::member::Membership;
use crate::stored::snapshot::SnapshotHead;
use crate::stored::table::name_attrs;
use crate::stored::{account, vault};
use dochiya_domain::{AccountId, AccountKind, Money, Name, random_uuid};
use dochiya_store::{Condition, Item, WriteOp};

/// Most accounts (live and archived) in one vault, unless the ledger's settings say
/// otherwise (`LedgerConfig::max_accounts`).
pub const MAX_ACCOUNTS: usize = 500;

pub(in crate::ledger) async fn list_accounts(
    ledger: &Ledger,
    who: &PersonId,
    vault: Option<&str>,
    include_archived: bool,
) -> Result<AccountList, LedgerError> {
    in_vault(ledger, who, vault, |v| async move {
        let m = v.membership;
        // One round: the accounts (each with the budget settings that still matter,
        // decision 030) and the daily rollups after today (balances are as of
        // today; later entries apart).
        let today = ledger.today_in(&m);
        let month = today.month();
        let ((cat, later), words) = join2(
            join2(catalogue(ledger, &m), nets::later_than(ledger, &m, today)),
            words::word_items(ledger, &m),
        )
        .await;
        let cat = cat?;
        let mut learned = words::learned_words(&words?, &cat)?;
        let settings = match budget_settings::settings_from_heads(&cat) {
            Some(settings) => settings,
            // An account item from before the heads: the settings decide (one more round).
            None => budget_settings::settings_through(ledger, &m, month).await?,
        };
        let budgets = budget_settings::in_force(&settings, month);
        // Cards with billing: their next bills; owners by name. One more round, only
        // when there are billed cards or owners, the two read together.
        let (bills, owners) = join2(
            bills::next_bills(ledger, &m, &cat, today),
            household::owner_labels(ledger, who, &m, &cat.accounts),
        )
        .await;
        let (bills, owners) = (bills?, owners?);
        let mut list = list_of(&m, &cat, &later?, include_archived, (&budgets, &bills))?;
        for (info, a) in list
            .accounts
            .iter_mut()
            .filter_map(|i| cat.by_id(i.account_id).map(|a| (i, a)))
        {
            info.owner = a.owner.as_ref().and_then(|o| owners.get(o).cloned());
            info.goal = a
                .goal
                .as_ref()
                .filter(|_| !a.archived)
                .map(|g| goals::view(a, g, info.balance.minor(), today, &m));
            let set = a.match_words.iter().map(|w| WordOf {
                word: w.clone(),
                learned: false,
            });
            let taught = learned
                .remove(&a.account_id)
                .unwrap_or_default()
                .into_iter()
                .map(|w| WordOf {
                    word: w,
                    learned: true,
                });
            info.match_words = set.chain(taught).collect();
        }
        Ok(list)
    })
    .await
}

fn list_of(
    m: &Membership,
    cat: &Catalogue,
    later: &BTreeMap<AccountId, i64>,
    include_archived: bool,
    (budgets, bills): (&BTreeMap<AccountId, i64>, &BTreeMap<AccountId, NextBill>),
) -> Result<AccountList, LedgerError> {
    let mut listed: Vec<&AccountRec> = cat
        .accounts
        .iter()
        .filter(|a| include_archived || !a.archived)
        .collect();
    // The stored name key is the normalized name: no normalizing per request.
    // Archived accounts with one name follow their handles' order (archived first, first).
    listed.sort_by(|a, b| {
        (a.kind, a.archived, &a.name_key, cat.archive_order(a)).cmp(&(
            b.kind,
            b.archived,
            &b.name_key,
            cat.archive_order(b),
        ))
    });
    let accounts = listed
        .into_iter()
        .map(|a| {
            let later_net = later.get(&a.account_id).copied().unwrap_or(0);
            let today_net = a
                .net
                .checked_sub(later_net)
                .and_then(|n| a.kind.natural(n))
                .ok_or_else(|| {
                    LedgerError::out_of_range(Total::VaultBalance {
                        vault: m.name.clone(),
                    })
                })?;
            Ok(AccountInfo {
                account_id: a.account_id,
                name: a.name.clone(),
                kind: a.kind,
                balance: Money::from_minor(today_net, m.currency),
                scheduled: nets::scheduled(a.kind, later, a.account_id, m)?,
                archived: a.archived,
                handle: cat.handle(a).map(str::to_string),
                // Settings exist only for expense accounts; an archived one shows none.
                budget: budgets
                    .get(&a.account_id)
                    .filter(|_| !a.archived)
                    .map(|b| Money::from_minor(*b, m.currency)),
                parent: groups::parent_name(cat, a),
                billing: a.billing,
                next_bill: bills.get(&a.account_id).cloned(),
                owner: None,
                goal: None,
                match_words: Vec::new(),
            })
        })
        .collect::<Result<Vec<_>, LedgerError>>()?;
    Ok(AccountList {
        vault: m.vault_ref(),
        currency: m.currency,
        accounts,
    })
}

pub(in crate::ledger) async fn create_account(
    ledger: &Ledger,
    who: &PersonId,
    input: NewAccount,
) -> Result<CreatedAccount, LedgerError> {
    let name = Name::parse(&input.name).map_err(|e| LedgerError::from_parse(Field::Name, e))?;
    refuse_handle_shape(&name, Field::Name)?;
    if input.opening_balance.is_some_and(|b| !b.is_zero())
        && matches!(input.kind, AccountKind::Income | AccountKind::Expense)
    {
        return Err(LedgerError::invalid(Field::OpeningBalance, Reason::OpeningOfFlow));
    }
    if input.billing.is_some() {
        bills::check_billable(name.display(), input.kind)?;
    }
    if input.opening_date.is_some() && input.opening_balance.is_none() {
        return Err(LedgerError::invalid(Field::OpeningDate, Reason::OpeningDateAlone));
    }
    let names = SystemNames::new(&ledger.config.opening_equity_name)?;
    // Either language's name: a vault keeps whichever it already has.
    if let Some(equity) = names
        .equity_named(name.key())
        .filter(|_| input.opening_balance.is_some_and(|b| !b.is_zero()))
    {
        return Err(LedgerError::invalid(
            Field::OpeningBalance,
            Reason::OpeningOfEquity {
                account: equity.display().to_string(),
            },
        ));
    }
    retrying(|| {
        in_vault(ledger, who, input.vault.as_deref(), |v| {
            create_in_vault(ledger, who, &input, &name, &names, v)
        })
    })
    .await
}

/// One pass of create_account in the vault on fresh reads (a lost race re-runs it).
async fn create_in_vault(
    ledger: &Ledger,
    who: &PersonId,
    input: &NewAccount,
    name: &Name,
    names: &SystemNames,
    v: InVault,
) -> Result<CreatedAccount, LedgerError> {
    let m = v.membership.clone();
    let (cat, later) = catalogue_today(ledger, &m).await?;
    if let Some(existing) = cat.live(name.key()) {
        check_same_account(existing, input, &m)?;
        let b = later.balance(existing, 0, 0)?;
        let money = |v: i64| Money::from_minor(v, m.currency);
        return Ok(CreatedAccount {
            vault: m.vault_ref(),
            account_id: existing.account_id,
            name: existing.name.clone(),
            kind: existing.kind,
            balance: money(b.balance),
            scheduled: (b.scheduled != 0).then(|| money(b.scheduled)),
            created: false,
            opening_transaction_id: None,
        });
    }
    let cap = ledger.config.max_accounts;
    if cat.accounts.len() >= cap {
        return Err(at_most_accounts(cap));
    }
    let opening = match input.opening_balance {
        Some(d) => Money::from_decimal(d, m.currency)
            .map_err(|e| LedgerError::from_parse(Field::OpeningBalance, e))?,
        None => Money::zero(m.currency),
    };
    let parent = match input.parent.as_deref().map(str::trim) {
        None | Some("") => None,
        Some(p) => Some(groups::check_parent(
            &cat,
            None,
            (name.display(), input.kind),
            p,
            &m,
        )?),
    };
    let owner = match input.owner.as_deref().map(str::trim) {
        None | Some("") => None,
        Some(_) if input.kind == AccountKind::Equity => None,
        Some(name) => Some(household::member_subject(ledger, who, &m, name).await?),
    };
    let now = ledger.clock.now();
    let account = AccountRec {
        account_id: AccountId::from_uuid(random_uuid(ledger.entropy.as_ref())),
        name: name.display().to_string(),
        name_key: name.key().clone(),
        kind: input.kind,
        archived: false,
        net: 0,
        snapshots: SnapshotHead::NEW,
        budgets: BudgetHead::for_new_account(),
        opening: Some(opening.minor()),
        parent: parent.map(|p| p.account_id),
        child_seq: 0,
        billing: input.billing,
        owner,
        goal: None,
        performance: None,
        match_words: Vec::new(),
    };
    let mut ops = Vec::new();
    ops.extend(parent.map(|p| groups::attach_op(&m, p)));
    let mut new_accounts = 1;
    let mut opening_id = None;
    let mut account_net = 0;
    if !opening.is_zero() {
        let o = opening_entry(ledger, who, input, &m, &cat, &account, (names, opening))?;
        ops.extend(o.ops);
        new_accounts += o.new_accounts;
        account_net = o.account_net;
        opening_id = Some(o.transaction_id);
    }
    ops.extend(account_puts(
        &m,
        &AccountRec {
            net: account_net,
            ..account.clone()
        },
        now.as_second(),
    ));
    // An opening balance may bring the equity account too: both count.
    let count = cat.accounts.len();
    if count + usize::try_from(new_accounts).unwrap_or(usize::MAX) > cap {
        return Err(at_most_accounts(cap));
    }
    ops.extend((count + 1..=count + usize::try_from(new_accounts).unwrap_or(0)).map(|n| number_claim(&m, n)));
    ops.push(account_count_update(
        vault::vault_meta(m.vault_id),
        new_accounts,
        guard(VAULT_EXISTS, Condition::Exists),
    ));
    // A later opening date: the balance today is zero, the opening is scheduled.
    let opens_later = input.opening_date.is_some_and(|d| d > later.today);
    let b = later.balance(&account, account_net, if opens_later { account_net } else { 0 })?;
    let money = |v: i64| Money::from_minor(v, m.currency);
    // A name was taken (or an id collided) concurrently: re-read and decide again.
    v.write(ledger, who, ops).await?;
    Ok(CreatedAccount {
        vault: m.vault_ref(),
        account_id: account.account_id,
        name: account.name,
        kind: account.kind,
        balance: money(b.balance),
        scheduled: (b.scheduled != 0).then(|| money(b.scheduled)),
        created: true,
        opening_transaction_id: opening_id,
    })
}

fn at_most_accounts(cap: usize) -> LedgerError {
    LedgerError::invalid(Field::Name, Reason::TooManyAccounts { max: cap })
}

/// The claim of account number `n` (only if absent): the count the cap was checked
/// against is part of the write's condition, so creations racing past the cap cannot
/// all land; a loser decides again on fresh reads (accounts are never deleted, so
/// the count only grows and every number is claimed once).
fn number_claim(m: &Membership, n: usize) -> WriteOp {
    WriteOp::Put {
        item: Item {
            key: account::account_number(m.vault_id, n),
            attrs: Default::default(),
        },
        guard: guard(ACCOUNT_NUMBER_FREE, Condition::NotExists),
    }
}

/// A repeat of create_account for an existing live account is harmless only when it
/// asks for the same account: same kind and, when given, the same opening balance
/// (an account from before openings were kept is compared by kind alone).
fn check_same_account(existing: &AccountRec, input: &NewAccount, m: &Membership) -> Result<(), LedgerError> {
    if input.billing.is_some_and(|b| existing.billing != Some(b)) {
        return Err(LedgerError::invalid(
            Field::Card("billing"),
            Reason::OtherBillingCycle {
                card: existing.name.clone(),
            },
        ));
    }
    let requested = input
        .opening_balance
        .map(|d| {
            Money::from_decimal(d, m.currency).map_err(|e| LedgerError::from_parse(Field::OpeningBalance, e))
        })
        .transpose()?;
    let opening_differs = matches!((requested, existing.opening), (Some(r), Some(o)) if r.minor() != o);
    if existing.kind == input.kind && !opening_differs {
        return Ok(());
    }
    let money = |v: i64| Money::from_minor(v, m.currency);
    Err(LedgerError::AccountMismatch {
        name: existing.name.clone(),
        vault: m.described(),
        existing: Box::new(AccountShape {
            kind: existing.kind,
            opening: existing.opening.map(money),
        }),
        requested: Box::new(AccountShape {
            kind: input.kind,
            opening: requested,
        }),
    })
}

/// The opening-balance entry of a new account: the transaction against the
/// opening-balance equity account (created with it when missing) and its ops.
struct Opening {
    ops: Vec<WriteOp>,
    new_accounts: i64,
    account_net: i64,
    transaction_id: TransactionId,
}

fn opening_entry(
    ledger: &Ledger,
    who: &PersonId,
    input: &NewAccount,
    m: &Membership,
    cat: &Catalogue,
    account: &AccountRec,
    (names, opening): (&SystemNames, Money),
) -> Result<Opening, LedgerError> {
    let now = ledger.clock.now();
    let mut ops = Vec::new();
    let mut new_accounts = 0;
    let date = input.opening_date.unwrap_or_else(|| ledger.today_in(m));
    let (equity, equity_is_new) = match names.equity(cat, m) {
        Equity::Existing(e) => (e.clone(), false),
        Equity::Taken(e) => {
            return Err(LedgerError::invalid(
                Field::OpeningBalance,
                Reason::EquityNameTaken {
                    account: e.name.clone(),
                    kind: e.kind,
                },
            ));
        }
        Equity::New(equity_name) => (
            AccountRec {
                account_id: AccountId::from_uuid(random_uuid(ledger.entropy.as_ref())),
                name: equity_name.display().to_string(),
                name_key: equity_name.key().clone(),
                kind: AccountKind::Equity,
                archived: false,
                net: 0,
                snapshots: SnapshotHead::NEW,
                budgets: BudgetHead::for_new_account(),
                opening: Some(0),
                parent: None,
                child_seq: 0,
                billing: None,
                owner: None,
                goal: None,
                performance: None,
                match_words: Vec::new(),
            },
            true,
        ),
    };
    // Natural sign in, debit-positive stored: an asset of 100 is a +100 debit.
    let debit = if input.kind.is_debit_normal() {
        opening.minor()
    } else {
        opening.minor().checked_neg().ok_or_else(range)?
    };
    let id = ledger.new_transaction_id(now.as_millisecond());
    let tx = TxRec::new(
        id,
        date,
        names.opening_memo(&equity, &account.name),
        now.as_millisecond(),
        Some(who),
        vec![
            PostingRec {
                account_id: account.account_id,
                name: account.name.clone(),
                amount: debit,
            },
            PostingRec {
                account_id: equity.account_id,
                name: equity.name.clone(),
                amount: debit.checked_neg().ok_or_else(range)?,
            },
        ],
    );
    let equity_net = debit.checked_neg().ok_or_else(range)?;
    let mut opened_here = vec![account.account_id];
    if equity_is_new {
        new_accounts += 1;
        opened_here.push(equity.account_id);
        ops.extend(account_puts(
            m,
            &AccountRec {
                net: equity_net,
                ..equity
            },
            now.as_second(),
        ));
    }
    ops.extend(transaction_ops(m.vault_id, TxChange::Create(&tx), &opened_here)?);
    Ok(Opening {
        ops,
        new_accounts,
        account_net: debit,
        transaction_id: id,
    })
}

fn range() -> LedgerError {
    LedgerError::invalid(Field::OpeningBalance, Reason::OpeningOutOfRange)
}

/// The account item and its name item, both only if absent.
fn account_puts(m: &Membership, a: &AccountRec, now: i64) -> [WriteOp; 2] {
    [
        WriteOp::Put {
            item: Item {
                key: account::account(m.vault_id, a.account_id),
                attrs: a.to_attrs(now),
            },
            guard: guard(ACCOUNT_NEW, Condition::NotExists),
        },
        WriteOp::Put {
            item: Item {
                key: account::account_name(m.vault_id, &a.name_key),
                attrs: account_pointer(a.account_id),
            },
            guard: guard(NAME_FREE, Condition::NotExists),
        },
    ]
}

pub(in crate::ledger) async fn rename_account(
    ledger: &Ledger,
    who: &PersonId,
    vault: Option<&str>,
    account: &str,
    new_name: &str,
) -> Result<RenamedAccount, LedgerError> {
    let new = &Name::parse(new_name).map_err(|e| LedgerError::from_parse(Field::NewName, e))?;
    refuse_handle_shape(new, Field::NewName)?;
    retrying(|| {
        in_vault(ledger, who, vault, |v| async move {
            let m = v.membership.clone();
            require_owner(&m, OwnerAction::RenameAccounts)?;
            let cat = catalogue(ledger, &m).await?;
            let a = live_account(&cat, account, &m)?;
            if let Some(other) = cat.live(new.key()).filter(|o| o.account_id != a.account_id) {
                return Err(LedgerError::NameTaken {
                    what: Entity::Account,
                    name: other.name.clone(),
                    existing: Holder::OtherAccount {
                        kind: other.kind,
                        vault: m.name.clone(),
                    },
                });
            }
            if new.display() == a.name {
                // The name it already has, exactly: nothing to write.
                return Ok(RenamedAccount {
                    vault: m.vault_ref(),
                    account_id: a.account_id,
                    name: a.name.clone(),
                    kind: a.kind,
                    changed: false,
                });
            }
            let mut ops = vec![account::live_account_update(
                m.vault_id,
                a.account_id,
                name_attrs(new.display(), new.key()),
                vec![],
            )];
            if !new.key().same_stored(&a.name_key) {
                ops.push(WriteOp::Delete {
                    key: account::account_name(m.vault_id, &a.name_key),
                    guard: guard(NAME_HELD, points_at_account(a.account_id)),
                });
                ops.push(WriteOp::Put {
                    item: Item {
                        key: account::account_name(m.vault_id, new.key()),
                        attrs: account_pointer(a.account_id),
                    },
                    guard: guard(NAME_FREE, Condition::NotExists),
                });
            }
            v.write(ledger, who, ops).await?;
            Ok(RenamedAccount {
                vault: m.vault_ref(),
                account_id: a.account_id,
                name: new.display().to_string(),
                kind: a.kind,
                changed: true,
            })
        })
    })
    .await
}

pub(in crate::ledger) async fn archive_account(
    ledger: &Ledger,
    who: &PersonId,
    vault: Option<&str>,
    account: &str,
    force: bool,
) -> Result<ArchivedAccount, LedgerError> {
    retrying(|| {
        in_vault(ledger, who, vault, |v| async move {
            let m = v.membership.clone();
            require_owner(&m, OwnerAction::ArchiveAccounts)?;
            let (cat, later) = catalogue_today(ledger, &m).await?;
            let a = live_account(&cat, account, &m)?;
            let b = later.balance(&a, 0, 0)?;
            let money = |v: i64| Money::from_minor(v, m.currency);
            // Money left in an archived account is easy to forget: say so unless told.
            // An income or expense account's balance is its history, not money held:
            // it stays in every report, and "moving it" would rewrite that history.
            if !force && a.kind.holds_money() && (b.balance != 0 || b.scheduled != 0) {
                return Err(LedgerError::ArchiveWithBalance {
                    name: a.name.clone(),
                    balance: money(b.balance),
                    scheduled: (b.scheduled != 0).then(|| money(b.scheduled)),
                });
            }
            let ops = vec![
                account::live_account_update(
                    m.vault_id,
                    a.account_id,
                    archive_mark(ledger.today_in(&m), ledger.clock.now().as_millisecond()),
                    vec![],
                ),
                WriteOp::Delete {
                    key: account::account_name(m.vault_id, &a.name_key),
                    guard: guard(NAME_HELD, points_at_account(a.account_id)),
                },
                account_count_update(
                    vault::vault_meta(m.vault_id),
                    -1,
                    guard(VAULT_EXISTS, Condition::Exists),
                ),
            ];
            v.write(ledger, who, ops).await?;
            Ok(ArchivedAccount {
                vault: m.vault_ref(),
                account_id: a.account_id,
                name: a.name.clone(),
                kind: a.kind,
                balance: money(b.balance),
                scheduled: (b.scheduled != 0).then(|| money(b.scheduled)),
            })
        })
    })
    .await
}

/// A live account by name; an archived one is "not found (archived)".
fn live_account(cat: &Catalogue, name: &str, m: &Membership) -> Result<AccountRec, LedgerError> {
    match cat.resolve(name, false, m) {
        Ok(a) => Ok(a.clone()),
        Err(LedgerError::ArchivedAccount { name }) => Err(LedgerError::NotFound {
            what: Entity::Account,
            name: name.clone(),
            within: Some(format!(
                "{} (an archived account has that name; archived accounts cannot be renamed or archived again)",
                m.described()
            )),
            candidates: vec![],
        }),
        Err(e) => Err(e),
    }
}

/// A new account name may not look like an archived account's handle: a handle
/// always means one archived account (docs/decisions/027-archived-account-handles.md).
fn refuse_handle_shape(name: &Name, field: Field) -> Result<(), LedgerError> {
    if dochiya_domain::is_archived_handle(name.display()) {
        return Err(LedgerError::invalid(
            field,
            Reason::HandleForm {
                name: name.display().to_string(),
            },
        ));
    }
    Ok(())
}

impl Ledger {
    /// Accounts of a vault with kind and current balance; archived ones only when asked.
    pub async fn list_accounts(
        &self,
        who: &PersonId,
        vault: Option<&str>,
        include_archived: bool,
    ) -> Result<AccountList, LedgerError> {
        list_accounts(self, who, vault, include_archived).await
    }

    /// Create an account, optionally with an opening balance posted against the
    /// opening-balance equity account (created when missing). An existing live
    /// account with that name and kind is returned with `created: false`.
    pub async fn create_account(
        &self,
        who: &PersonId,
        input: NewAccount,
    ) -> Result<CreatedAccount, LedgerError> {
        create_account(self, who, input).await
    }

    /// Rename a live account.
    pub async fn rename_account(
        &self,
        who: &PersonId,
        vault: Option<&str>,
        account: &str,
        new_name: &str,
    ) -> Result<RenamedAccount, LedgerError> {
        rename_account(self, who, vault, account, new_name).await
    }

    /// Archive a live account: frees its name, keeps its history; new transactions refuse it.
    /// An account holding money (today or in entries dated later) is refused unless `force`.
    pub async fn archive_account(
        &self,
        who: &PersonId,
        vault: Option<&str>,
        account: &str,
        force: bool,
    ) -> Result<ArchivedAccount, LedgerError> {
        archive_account(self, who, vault, account, force).await
    }

    /// Make an account a member's own (`owner` a member's name), or the household's again (`""`).
    pub async fn set_account_owner(
        &self,
        who: &PersonId,
        vault: Option<&str>,
        account: &str,
        owner: &str,
    ) -> Result<OwnerSet, LedgerError> {
        household::set_account_owner(self, who, vault, account, owner).await
    }
}
