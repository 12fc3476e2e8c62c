//! `export_transactions`: a period's entries as CSV, hledger or Beancount text, a page at a time.

use async_trait::async_trait;
use dochiya_domain::PersonId;
use dochiya_ledger::portability::export::{ExportFormat, ExportRequest};
use dochiya_ledger::Ledger;
use dochiya_ledger::api::LedgerError;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::args::{CursorArg, DayOrMonthArg, NameArg};
use crate::operation::{Kind, Operation, READ};
use crate::text;
use crate::wire::{DateOut, VaultOut};

/// The text formats.
#[derive(Debug, Clone, Copy, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Format {
    Csv,
    Hledger,
    Beancount,
}

impl From<Format> for ExportFormat {
    fn from(f: Format) -> Self {
        match f {
            Format::Csv => ExportFormat::Csv,
            Format::Hledger => ExportFormat::Hledger,
            Format::Beancount => ExportFormat::Beancount,
        }
    }
}

impl From<ExportFormat> for Format {
    fn from(f: ExportFormat) -> Self {
        match f {
            ExportFormat::Csv => Format::Csv,
            ExportFormat::Hledger => Format::Hledger,
            ExportFormat::Beancount => Format::Beancount,
        }
    }
}

/// Arguments of `export_transactions`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(crate) struct Args {
    #[schemars(description = text::VAULT)]
    vault: Option<NameArg>,
    /// First day (YYYY-MM-DD or YYYY-MM).
    from: Option<DayOrMonthArg>,
    /// Last day (YYYY-MM-DD or YYYY-MM).
    to: Option<DayOrMonthArg>,
    /// csv opens in Excel.
    format: Format,
    /// The previous page's nextCursor.
    cursor: Option<CursorArg>,
}

/// Result of `export_transactions`.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Output {
    #[schemars(description = text::VAULT_OUT)]
    vault: VaultOut,
    /// The format of `text`.
    format: Format,
    /// First day: as asked, else this page's first entry's.
    from: DateOut,
    /// Last day: as asked, else this page's last entry's.
    to: DateOut,
    /// Entries on this page, voided ones included.
    count: u32,
    /// This page's text; the pages' texts concatenated in order are the whole file.
    text: String,
    /// Present when more follows: call again with it as `cursor` and the same arguments.
    #[serde(skip_serializing_if = "Option::is_none")]
    next_cursor: Option<String>,
}

/// The `export_transactions` tool.
pub(crate) struct ExportTransactions;

#[async_trait]
impl Operation for ExportTransactions {
    type Args = Args;
    type Output = Output;
    const NAME: &'static str = "export_transactions";
    const TITLE: &'static str = "Export transactions";
    const DESCRIPTION: &'static str = "Exports entries as file text, oldest first: csv (a row per posting), hledger or beancount; voided ones marked or commented out. Up to 500 per page: while nextCursor is present, call again with it and join the texts.";
    const KIND: Kind = READ;
    #[cfg(test)]
    const EXAMPLES: crate::operation::Examples = (
        &[
            r#"{"format": "csv"}"#,
            r#"{"vault": "우리집", "from": "2026-01", "to": "2026-02-28", "format": "beancount", "cursor": "c"}"#,
        ],
        &[
            "{}",
            r#"{"format": "xlsx"}"#,
            r#"{"format": "hledger", "from": "2026/01/01"}"#,
            r#"{"format": "csv", "limit": 10}"#,
        ],
    );

    async fn run(ledger: &Ledger, who: &PersonId, args: Args) -> Result<Output, LedgerError> {
        let from = args.from.map(DayOrMonthArg::first);
        let to = args.to.map(DayOrMonthArg::last);
        let page = ledger
            .export_transactions(
                who,
                ExportRequest {
                    vault: args.vault.map(String::from),
                    from,
                    to,
                    format: args.format.into(),
                    cursor: args.cursor.map(String::from),
                },
            )
            .await?;
        Ok(Output {
            vault: page.vault.into(),
            format: page.format.into(),
            from: page.from.into(),
            to: page.to.into(),
            count: page.count,
            text: page.text,
            next_cursor: page.next_cursor,
        })
    }
}
