//! `record_transactions`: a statement at once, each entry exactly once.

use std::borrow::Cow;

use async_trait::async_trait;
use dochiya_ledger::domain::{Decimal, LocalDate, PersonId};
use dochiya_ledger::ledger::{BatchEntry, BatchRecorded, EntryResult, MatchedBy, NewBatch, Unreadable};
use dochiya_ledger::{Field, Ledger, LedgerError, Side};
use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::de::Deserializer;
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

use crate::args::{AccountArg, DATE_PATTERN, KeyArg, MemoArg, NameArg, POSITIVE_AMOUNT_PATTERN, RefArg};
use crate::errors::{entry_message, simple_argument};
use crate::operation::{Operation, WRITE, write};
use crate::text;
use crate::tools::recorded::BalanceOut;
use crate::wire::{TransactionIdOut, TransactionOut, VaultOut};

/// An entry's amount as read: a bad one is that entry's error, not the whole call's.
#[derive(Debug)]
struct EntryAmount(Result<Decimal, String>);

impl<'de> Deserialize<'de> for EntryAmount {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let raw: Box<RawValue> = Deserialize::deserialize(deserializer)?;
        Ok(EntryAmount(
            Decimal::from_json_text(raw.get()).map_err(|e| e.message().to_owned()),
        ))
    }
}

impl JsonSchema for EntryAmount {
    fn schema_name() -> Cow<'static, str> {
        "Amount".into()
    }

    fn inline_schema() -> bool {
        true
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        // An amount that moved: no minus, as the description says (a negative still
        // reaches the ledger's "swap from and to" refusal as that entry's error).
        json_schema!({ "type": "string", "pattern": POSITIVE_AMOUNT_PATTERN })
    }
}

/// An entry's date as read: a bad one is that entry's error.
#[derive(Debug)]
struct EntryDate(Result<LocalDate, String>);

impl<'de> Deserialize<'de> for EntryDate {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        Ok(EntryDate(
            LocalDate::parse(&text).map_err(|e| e.message().to_owned()),
        ))
    }
}

impl JsonSchema for EntryDate {
    fn schema_name() -> Cow<'static, str> {
        "Date".into()
    }

    fn inline_schema() -> bool {
        true
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({ "type": "string", "pattern": DATE_PATTERN })
    }
}

/// One statement line.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct Entry {
    /// Account the money leaves: the card "신한카드"; for a refund, the expense.
    from: AccountArg,
    /// Account the money arrives at: "식비"; for a refund, the card.
    to: AccountArg,
    /// Positive decimal string in the vault currency: "12500".
    amount: EntryAmount,
    /// YYYY-MM-DD; default today in the vault.
    date: Option<EntryDate>,
    /// Short memo, e.g. the merchant.
    memo: Option<MemoArg>,
    /// The line's own id (approval number, bank transaction id); unique per vault.
    external_ref: Option<RefArg>,
}

/// Arguments of `record_transactions`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(crate) struct Args {
    #[schemars(description = text::VAULT)]
    vault: Option<NameArg>,
    /// The entries, 1–100, in statement order.
    #[schemars(length(min = 1, max = 100))]
    entries: Vec<Entry>,
    /// A key you make up for this batch. To retry it after a failure or timeout, reuse the same idempotencyKey unchanged, with the same entries.
    idempotency_key: KeyArg,
    /// Check every entry and write nothing. Default false.
    dry_run: Option<bool>,
    /// Record entries even when a live entry with the same accounts and amount is dated within a day of them. Default false.
    allow_duplicate: Option<bool>,
}

/// What happened to one entry.
#[derive(Debug, Clone, Copy, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
enum Status {
    Recorded,
    /// On a dry run: would be recorded.
    WouldRecord,
    Duplicate,
    Error,
}

/// What an entry was found to repeat.
#[derive(Debug, Clone, Copy, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
enum MatchedByOut {
    ExternalRef,
    SameDate,
    DayApart,
}

/// One entry's outcome.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct EntryOut {
    /// The entry's position in `entries`, from 0.
    index: u32,
    /// recorded (now or by an earlier call with this key), wouldRecord (dry run), duplicate (already in the ledger, not recorded again) or error (not recorded; see message).
    status: Status,
    /// The recorded transaction, or for a duplicate the existing one. Absent on a dry run and for errors.
    #[serde(skip_serializing_if = "Option::is_none")]
    transaction_id: Option<TransactionIdOut>,
    /// For a duplicate: its externalRef was recorded before, or a live entry with the same accounts and amount is dated the same day (sameDate) or a day apart (dayApart).
    #[serde(skip_serializing_if = "Option::is_none")]
    matched_by: Option<MatchedByOut>,
    /// For an error: what is wrong and what to do.
    #[serde(skip_serializing_if = "Option::is_none")]
    message: Option<String>,
    /// For a replayed entry voided or edited since: the transaction as it is now.
    #[serde(skip_serializing_if = "Option::is_none")]
    current: Option<TransactionOut>,
    /// For a recorded entry whose direction is unusual: how it reads.
    #[serde(skip_serializing_if = "Option::is_none")]
    note: Option<String>,
}

/// How many entries ended each way.
#[derive(Debug, Default, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct Counts {
    /// Recorded by this call.
    recorded: u32,
    /// Dry run only: how many would be recorded.
    #[serde(skip_serializing_if = "Option::is_none")]
    would_record: Option<u32>,
    /// Recorded by an earlier call with this idempotencyKey (nothing written now).
    replayed: u32,
    /// Already in the ledger.
    duplicate: u32,
    /// Not recorded.
    error: u32,
}

/// Result of `record_transactions`.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Output {
    #[schemars(description = text::VAULT_OUT)]
    vault: VaultOut,
    #[schemars(description = text::CURRENCY)]
    currency: String,
    /// One result per entry, in input order.
    results: Vec<EntryOut>,
    /// How many entries ended each way.
    counts: Counts,
    /// Balances of the accounts the recorded entries touch, after the batch, as of today (entries dated later are apart, as scheduled).
    balances: Vec<BalanceOut>,
    /// True when dryRun was set: nothing was written.
    dry_run: bool,
}

/// The `record_transactions` tool.
pub(crate) struct RecordTransactions;

#[async_trait]
impl Operation for RecordTransactions {
    type Args = Args;
    type Output = Output;
    const NAME: &'static str = "record_transactions";
    const TITLE: &'static str = "Record many transactions";
    const DESCRIPTION: &'static str = "Records up to 100 simple entries at once, e.g. a pasted card statement, each exactly once. First call with dryRun true: every entry is checked and all problems listed; then call again without it. Set each entry's externalRef to its statement line's own id (approval number): a line already recorded is reported as duplicate, not recorded twice. Keep the idempotencyKey: a retry with it records only what is missing. One result per entry: recorded, duplicate or error. Result balances are as of today; entries dated later show as `scheduled`.";
    const SCOPE: &'static str = WRITE;
    const ANNOTATIONS: dochiya_protocol::ToolAnnotations = write(false);

    fn argument(field: Field) -> Cow<'static, str> {
        simple_argument(field)
    }

    async fn run(ledger: &Ledger, who: &PersonId, args: Args) -> Result<Output, LedgerError> {
        let entries = args.entries.into_iter().map(read_entry).collect();
        let batch = ledger
            .record_transactions(
                who,
                NewBatch {
                    vault: args.vault.map(String::from),
                    entries,
                    idempotency_key: args.idempotency_key.into(),
                    allow_duplicate: args.allow_duplicate.unwrap_or(false),
                    dry_run: args.dry_run.unwrap_or(false),
                },
            )
            .await?;
        output(batch)
    }
}

/// An entry for the ledger, or why it could not be read.
fn read_entry(e: Entry) -> Result<BatchEntry, Unreadable> {
    let unreadable = |field: Field, message: String| Unreadable { field, message };
    let amount = e.amount.0.map_err(|m| {
        unreadable(
            Field::LineAmount {
                side: Side::To,
                index: 0,
            },
            m,
        )
    })?;
    let date = e
        .date
        .map(|d| d.0)
        .transpose()
        .map_err(|m| unreadable(Field::Date, m))?;
    Ok(BatchEntry {
        from: e.from.into(),
        to: e.to.into(),
        amount,
        date,
        memo: e.memo.map(String::from),
        external_ref: e.external_ref.map(String::from),
    })
}

fn output(b: BatchRecorded) -> Result<Output, LedgerError> {
    let mut counts = Counts {
        // Present (even at 0) exactly on a dry run.
        would_record: b.dry_run.then_some(0),
        ..Counts::default()
    };
    let mut results = Vec::with_capacity(b.results.len());
    for (i, r) in b.results.into_iter().enumerate() {
        let index = u32::try_from(i).unwrap_or(u32::MAX);
        let out = match r {
            EntryResult::Recorded {
                transaction_id,
                replayed,
                current,
                note,
            } => {
                let status = if replayed {
                    counts.replayed += 1;
                    Status::Recorded
                } else if b.dry_run {
                    *counts.would_record.get_or_insert(0) += 1;
                    Status::WouldRecord
                } else {
                    counts.recorded += 1;
                    Status::Recorded
                };
                EntryOut {
                    index,
                    status,
                    transaction_id: transaction_id.map(Into::into),
                    matched_by: None,
                    message: None,
                    current: current.map(|t| (*t).into()),
                    note: note.as_ref().map(crate::tools::recorded::note),
                }
            }
            EntryResult::Duplicate(d) => {
                counts.duplicate += 1;
                EntryOut {
                    index,
                    status: Status::Duplicate,
                    transaction_id: Some(d.transaction_id.into()),
                    matched_by: Some(match d.matched_by {
                        MatchedBy::ExternalRef => MatchedByOut::ExternalRef,
                        MatchedBy::SameDate => MatchedByOut::SameDate,
                        MatchedBy::DayApart => MatchedByOut::DayApart,
                    }),
                    message: None,
                    current: None,
                    note: None,
                }
            }
            EntryResult::Failed(e) => {
                counts.error += 1;
                EntryOut {
                    index,
                    status: Status::Error,
                    transaction_id: None,
                    matched_by: None,
                    // An internal failure of one entry fails the call, as it would for one record.
                    message: Some(entry_message(e, simple_argument)?),
                    current: None,
                    note: None,
                }
            }
        };
        results.push(out);
    }
    Ok(Output {
        vault: b.vault.into(),
        currency: b.currency.code().to_owned(),
        results,
        counts,
        balances: b.balances.into_iter().map(BalanceOut::from).collect(),
        dry_run: b.dry_run,
    })
}
