//! `update_account`: change an account's settings by name: rename it, archive it, or
//! bring an archived one back. Settings added later (parent, billing) are more optional
//! fields of the same call, each applied only when sent.

use async_trait::async_trait;
use dochiya_domain::PersonId;
use dochiya_ledger::Ledger;
use dochiya_ledger::api::{Field, LedgerError};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::args::{AccountArg, NameArg};
use crate::operation::{Kind, Operation, destructive};
use crate::text;
use crate::wire::{AmountOut, KindWire, UuidOut, VaultOut};

/// Arguments of `update_account`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(crate) struct Args {
    #[schemars(description = text::VAULT)]
    vault: Option<NameArg>,
    /// Account name; an archived one by its handle (list_accounts includeArchived).
    account: AccountArg,
    /// New name, unique among live accounts.
    new_name: Option<NameArg>,
    /// true archives (history stays, name freed); false brings an archived account back.
    archive: Option<bool>,
    /// true: archive even with money left.
    force: Option<bool>,
    /// Parent category of the same kind (income/expense); "" clears it.
    parent: Option<NameArg>,
    /// A card's bill cycle; {} clears it.
    billing: Option<super::card_bill::BillingSettingArg>,
    #[schemars(description = text::OWNER)]
    owner: Option<NameArg>,
    /// Memo words that pick this category when `to` is omitted; [] clears.
    #[serde(rename = "match")]
    #[schemars(length(max = 10))]
    match_words: Option<Vec<crate::args::WordArg>>,
}

/// The account after the update.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct AccountOut {
    #[schemars(description = text::ACCOUNT_ID)]
    account_id: UuidOut,
    /// Its name now; once archived, tools name it by its handle (list_accounts with includeArchived shows it).
    name: String,
    #[schemars(description = text::KIND)]
    kind: KindWire,
    /// True when it is archived: new transactions cannot use it.
    archived: bool,
    /// Its parent category.
    #[serde(skip_serializing_if = "Option::is_none")]
    parent: Option<String>,
    /// A card's billing cycle (after a billing change; absent when cleared).
    #[serde(skip_serializing_if = "Option::is_none")]
    billing: Option<super::card_bill::BillingOut>,
    /// Whose it is (after an owner change; absent: the household's).
    #[serde(skip_serializing_if = "Option::is_none")]
    owner: Option<String>,
    /// Its words (after a match change).
    #[serde(rename = "match", skip_serializing_if = "Option::is_none")]
    match_words: Option<Vec<crate::wire::WordOut>>,
}

/// Result of `update_account`.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Output {
    #[schemars(description = text::VAULT_OUT)]
    vault: VaultOut,
    /// The account as it is now.
    account: AccountOut,
    /// False when nothing was written (bringing back an account that is live).
    changed: bool,
    /// When archived by this call: its balance as of today (natural sign); it still counts in balances.
    #[serde(skip_serializing_if = "Option::is_none")]
    balance: Option<AmountOut>,
    #[schemars(description = text::SCHEDULED)]
    #[serde(skip_serializing_if = "Option::is_none")]
    scheduled: Option<AmountOut>,
}

/// What one call asks for, checked before any work.
enum Change<'a> {
    Rename(&'a str),
    Archive {
        force: bool,
    },
    Restore(Option<&'a str>),
    Parent(&'a str),
    Billing(
        Option<dochiya_domain::Billing>,
        Option<dochiya_ledger::api::PerformanceInput>,
    ),
    Owner(&'a str),
    Match(Vec<String>),
}

fn change(args: &Args) -> Result<Change<'_>, LedgerError> {
    let new_name = args.new_name.as_deref();
    if let Some(words) = &args.match_words {
        if new_name.is_some()
            || args.archive.is_some()
            || args.force.is_some()
            || args.billing.is_some()
            || args.parent.is_some()
            || args.owner.is_some()
        {
            return Err(crate::errors::refused(Field::Entries, "send match in its own call, with account only"));
        }
        return Ok(Change::Match(words.iter().map(|w| String::from(w.clone())).collect()));
    }
    if let Some(owner) = args.owner.as_deref() {
        if new_name.is_some()
            || args.archive.is_some()
            || args.force.is_some()
            || args.billing.is_some()
            || args.parent.is_some()
        {
            return Err(crate::errors::refused(
                Field::Entries,
                "send owner in its own call, with account only",
            ));
        }
        return Ok(Change::Owner(owner));
    }
    if let Some(parent) = args.parent.as_deref() {
        if args.archive.is_some() || new_name.is_some() || args.force.is_some() || args.billing.is_some() {
            return Err(crate::errors::refused(
                Field::Entries,
                "change `parent` in a call of its own: send account and parent only, then rename or archive in another call",
            ));
        }
        return Ok(Change::Parent(parent));
    }
    if let Some(billing) = &args.billing {
        if new_name.is_some() || args.archive.is_some() || args.force.is_some() {
            return Err(crate::errors::refused(
                Field::Entries,
                "send billing in its own call, without newName, archive or force",
            ));
        }
        return Ok(Change::Billing(billing.parse()?, billing.performance()));
    }
    match (args.archive, new_name, args.force) {
        (Some(true), None, force) => Ok(Change::Archive {
            force: force.unwrap_or(false),
        }),
        (Some(true), Some(_), _) => Err(crate::errors::refused(
            Field::NewName,
            "an account cannot be renamed and archived in one call: rename it first, then archive it",
        )),
        (_, _, Some(true)) => Err(crate::errors::refused(
            Field::Entries,
            "`force` goes only with archive: true",
        )),
        (Some(false), name, _) => Ok(Change::Restore(name)),
        (None, Some(name), _) => Ok(Change::Rename(name)),
        (None, None, _) => Err(crate::errors::refused(
            Field::Entries,
            "nothing to change: send newName, archive (true to archive, false to bring back), parent, billing or owner",
        )),
    }
}

/// The `update_account` tool.
pub(crate) struct UpdateAccount;

#[async_trait]
impl Operation for UpdateAccount {
    type Args = Args;
    type Output = Output;
    const NAME: &'static str = "update_account";
    const TITLE: &'static str = "Update an account";
    const DESCRIPTION: &'static str = "Changes an account (계정 수정): rename it (newName), archive it when it is no longer used (archive true, e.g. a closed card: history stays in reports, the name is freed; money left needs force), or bring an archived one back (archive false, named by its handle). Owner only; ask the user before archiving.";
    const KIND: Kind = destructive(true);
    #[cfg(test)]
    const EXAMPLES: crate::operation::Examples = (
        &[
            r#"{"account": "교통비", "newName": "교통"}"#,
            r#"{"account": "배달", "parent": "식비"}"#,
            r#"{"account": "신한카드", "archive": true, "force": true}"#,
            r#"{"account": "신한카드", "billing": {"closingDay": 31, "paymentDay": 14}}"#,
            r#"{"account": "신한카드", "billing": {}}"#,
            r#"{"account": "하은 신한카드", "owner": "하은"}"#,
            r#"{"vault": "우리집", "account": "국민카드 (archived 2026-05-31)", "archive": false, "newName": "국민카드2"}"#,
            // Refused by the tool with what to send instead, not by the schema.
            r#"{"account": "a"}"#,
        ],
        &[
            "{}",
            r#"{"account": "a", "archive": "yes"}"#,
            r#"{"account": "a", "name": "b"}"#,
            r#"{"account": "a", "billing": {"closing": 31}}"#,
        ],
    );

    fn argument(field: Field) -> std::borrow::Cow<'static, str> {
        match field {
            Field::Entries => "arguments".into(),
            other => crate::errors::argument(other),
        }
    }

    async fn run(ledger: &Ledger, who: &PersonId, args: Args) -> Result<Output, LedgerError> {
        let vault = args.vault.as_deref();
        let account = &args.account;
        Ok(match change(&args)? {
            Change::Rename(new_name) => {
                let a = ledger.rename_account(who, vault, account, new_name).await?;
                changed(a.vault, a.changed, plain(a.account_id, a.name, a.kind))
            }
            Change::Archive { force } => {
                let a = ledger.archive_account(who, vault, account, force).await?;
                Output {
                    balance: Some(a.balance.into()),
                    scheduled: a.scheduled.map(Into::into),
                    ..changed(
                        a.vault,
                        true,
                        AccountOut {
                            archived: true,
                            ..plain(a.account_id, a.name, a.kind)
                        },
                    )
                }
            }
            Change::Restore(new_name) => {
                let a = ledger.restore_account(who, vault, account, new_name).await?;
                changed(a.vault, a.restored, plain(a.account_id, a.name, a.kind))
            }
            Change::Parent(parent) => {
                let a = ledger.set_account_parent(who, vault, account, parent).await?;
                let out = AccountOut {
                    parent: a.parent,
                    ..plain(a.account_id, a.name, a.kind)
                };
                changed(a.vault, a.changed, out)
            }
            Change::Billing(billing, performance) => {
                let a = ledger
                    .set_billing_with(who, vault, account, billing, performance.as_ref())
                    .await?;
                let out = AccountOut {
                    billing: a.billing.map(Into::into),
                    ..plain(a.account_id, a.name, a.kind)
                };
                changed(a.vault, a.changed, out)
            }
            Change::Match(words) => {
                let a = ledger.set_account_words(who, vault, account, &words).await?;
                let out = AccountOut {
                    match_words: Some(a.words.into_iter().map(Into::into).collect()),
                    ..plain(a.account_id, a.name, a.kind)
                };
                changed(a.vault, a.changed, out)
            }
            Change::Owner(owner) => {
                let a = ledger.set_account_owner(who, vault, account, owner).await?;
                let out = AccountOut {
                    owner: a.owner,
                    ..plain(a.account_id, a.name, a.kind)
                };
                changed(a.vault, a.changed, out)
            }
        })
    }
}

/// The account as a result shows it, with no setting but its name and kind.
fn plain(account_id: dochiya_domain::AccountId, name: String, kind: dochiya_domain::AccountKind) -> AccountOut {
    AccountOut {
        account_id: account_id.into(),
        name,
        kind: kind.into(),
        archived: false,
        parent: None,
        billing: None,
        owner: None,
        match_words: None,
    }
}

/// The result of a change that reports no balance.
fn changed(vault: dochiya_ledger::api::VaultRef, changed: bool, account: AccountOut) -> Output {
    Output {
        vault: vault.into(),
        account,
        changed,
        balance: None,
        scheduled: None,
    }
}
