//! `settle_up`: who put what into the household, each one's share, and who pays whom.

use async_trait::async_trait;
use dochiya_domain::PersonId;
use dochiya_ledger::Ledger;
use dochiya_ledger::api::{LedgerError, SettleRequest};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::args::{DayOrMonthArg, NameArg};
use crate::operation::{Kind, Operation, READ};
use crate::text;
use crate::wire::{AmountOut, DateOut, VaultOut};

/// Arguments of `settle_up`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(crate) struct Args {
    #[schemars(description = text::VAULT)]
    vault: Option<NameArg>,
    /// First day, YYYY-MM-DD (YYYY-MM: its first day); default the first entry.
    from: Option<DayOrMonthArg>,
    /// Last day (YYYY-MM: its last day); default today.
    to: Option<DayOrMonthArg>,
}

/// One person's line.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct MemberOut {
    /// The member (a former one too, over their time).
    name: String,
    /// What they put into the household: shared spending their own accounts paid, what they moved into shared accounts less what they took out, their income into shared accounts.
    put_in: AmountOut,
    /// Their share (by the vault's shares) of what the household used: shared spending plus what shared accounts gained.
    share: AmountOut,
    /// putIn − share: positive is owed to them, negative they owe.
    net: AmountOut,
}

/// One payment that settles.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct TransferOut {
    /// Who pays.
    from: String,
    /// Who is paid.
    to: String,
    /// How much.
    amount: AmountOut,
}

/// Result of `settle_up`.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Output {
    #[schemars(description = text::VAULT_OUT)]
    vault: VaultOut,
    #[schemars(description = text::CURRENCY)]
    currency: String,
    /// First day counted.
    from: DateOut,
    /// Last day counted.
    to: DateOut,
    /// Every member; the nets sum to zero.
    members: Vec<MemberOut>,
    /// The fewest payments that settle every net exactly (empty: already even). Recorded as a transfer from the payer's own account to the other's, they count as settled.
    transfers: Vec<TransferOut>,
}

/// The `settle_up` tool.
pub(crate) struct SettleUp;

#[async_trait]
impl Operation for SettleUp {
    type Args = Args;
    type Output = Output;
    const NAME: &'static str = "settle_up";
    const TITLE: &'static str = "Settle up (정산)";
    const DESCRIPTION: &'static str = "정산: who owes whom in a shared vault. From the entries: what each member put in (their own accounts paying shared spending, money into shared accounts), their share (update_vault shares), and the fewest transfers. Spending is shared unless its category has an owner or the entry says `for`.";
    const KIND: Kind = READ;
    #[cfg(test)]
    const EXAMPLES: crate::operation::Examples = (
        &[r#"{}"#, r#"{"from": "2026-11", "to": "2026-11"}"#],
        &[r#"{"from": "last month"}"#],
    );

    async fn run(ledger: &Ledger, who: &PersonId, args: Args) -> Result<Output, LedgerError> {
        let s = ledger
            .settle_up(
                who,
                SettleRequest {
                    vault: args.vault.map(String::from),
                    from: args.from.map(|d| d.first()),
                    to: args.to.map(|d| d.last()),
                },
            )
            .await?;
        Ok(Output {
            vault: s.vault.into(),
            currency: s.currency.code().to_owned(),
            from: s.from.into(),
            to: s.to.into(),
            members: s
                .members
                .into_iter()
                .map(|m| MemberOut {
                    name: m.name,
                    put_in: m.put_in.into(),
                    share: m.share.into(),
                    net: m.net.into(),
                })
                .collect(),
            transfers: s
                .transfers
                .into_iter()
                .map(|t| TransferOut {
                    from: t.from,
                    to: t.to,
                    amount: t.amount.into(),
                })
                .collect(),
        })
    }
}
