//! `record_transactions`: a statement at once, each entry exactly once.

use std::borrow::Cow;

use async_trait::async_trait;
use dochiya_domain::{Decimal, LocalDate, PersonId};
use dochiya_ledger::api::{BatchEntry, EditLines, BatchRecorded, EntryResult, MatchedBy, NewBatch, Unreadable};
use dochiya_ledger::Ledger;
use dochiya_ledger::api::{Field, LedgerError, Side};
use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::de::Deserializer;
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

use crate::args::{AccountArg, DATE_PATTERN, KeyArg, MemoArg, NameArg, POSITIVE_AMOUNT_PATTERN, RefArg, TagArg};
use crate::errors::{entry_message, simple_argument};
use crate::lines::{Lines, split_argument};
use crate::operation::{Kind, write, Operation};
use crate::text;
use crate::tools::recorded::BalanceOut;
use crate::wire::{OperationIdOut, TransactionIdOut, TransactionOut, VaultOut};

/// An entry's amount as read: a bad one is that entry's error, not the whole call's
/// (its message, and the string sent, which the ledger judges against the vault's currency).
#[derive(Debug)]
struct EntryAmount(Result<Decimal, (String, Option<String>)>);

impl<'de> Deserialize<'de> for EntryAmount {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let raw: Box<RawValue> = Deserialize::deserialize(deserializer)?;
        Ok(EntryAmount(Decimal::from_json_text(raw.get()).map_err(|e| {
            (
                e.message().to_owned(),
                serde_json::from_str::<String>(raw.get()).ok(),
            )
        })))
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
    from: Option<AccountArg>,
    /// Account the money arrives at: "식비"; for a refund, the card. Omitted: picked by the memo's words.
    to: Option<AccountArg>,
    /// Positive decimal string, e.g. "12500".
    amount: Option<EntryAmount>,
    /// A split instead of from/to/amount.
    lines: Option<Lines>,
    /// YYYY-MM-DD; default today.
    date: Option<EntryDate>,
    /// Short memo, e.g. the merchant.
    memo: Option<MemoArg>,
    #[schemars(description = text::EXTERNAL_REF)]
    external_ref: Option<RefArg>,
    #[schemars(description = text::TAGS)]
    tags: Option<Vec<TagArg>>,
    #[schemars(description = text::INSTALLMENTS)]
    installments: Option<i64>,
    /// A member or "shared"; see record_transaction.
    #[serde(rename = "for")]
    for_whom: Option<NameArg>,
}

/// Arguments of `record_transactions`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(crate) struct Args {
    #[schemars(description = text::VAULT)]
    vault: Option<NameArg>,
    /// 1–100 entries, in statement order.
    #[schemars(length(min = 1, max = 100))]
    entries: Vec<Entry>,
    /// Make one up for this batch; on a retry reuse it unchanged with the same entries.
    idempotency_key: KeyArg,
    #[schemars(description = text::DRY_RUN)]
    dry_run: Option<bool>,
    /// true: record entries even when one with the same accounts and amount is in the book within a day.
    allow_duplicate: Option<bool>,
}

/// What happened to one entry (`wouldRecord`: on a dry run, would be recorded). No
/// doc comment on a variant: schemars would turn the enum into a `oneOf`.
#[derive(Debug, Clone, Copy, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
enum Status {
    Recorded,
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
    Split,
    OtherCategory,
    Installment,
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
    /// For a duplicate: its externalRef was recorded before; a live entry with the same accounts and amount is dated the same day (sameDate) or a day apart (dayApart); within a day, an entry on the same card with this amount is a split (split) or has another category (otherCategory); or it is a 할부 part the book already bills (installment; transactionId is the purchase).
    #[serde(skip_serializing_if = "Option::is_none")]
    matched_by: Option<MatchedByOut>,
    /// For a duplicate: another book entry it matches as well, which no other line took (the book may hold it twice).
    #[serde(skip_serializing_if = "Option::is_none")]
    also_matches: Option<TransactionIdOut>,
    /// For an error: what is wrong and what to do.
    #[serde(skip_serializing_if = "Option::is_none")]
    message: Option<String>,
    /// For a replayed entry voided or edited since: the transaction as it is now.
    #[serde(skip_serializing_if = "Option::is_none")]
    current: Option<TransactionOut>,
    /// For a recorded entry whose direction is unusual: how it reads.
    #[serde(skip_serializing_if = "Option::is_none")]
    note: Option<String>,
    /// For an entry sent without `to`: the memo's word that chose its category (shown on a dry run too).
    #[serde(skip_serializing_if = "Option::is_none")]
    categorized_by: Option<crate::wire::CategorizedByOut>,
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
    /// The write's operation: pass it to undo to take the whole write back.
    #[serde(skip_serializing_if = "Option::is_none")]
    operation_id: Option<OperationIdOut>,
}

/// The `record_transactions` tool.
pub(crate) struct RecordTransactions;

#[async_trait]
impl Operation for RecordTransactions {
    type Args = Args;
    type Output = Output;
    const NAME: &'static str = "record_transactions";
    const TITLE: &'static str = "Record many transactions";
    const DESCRIPTION: &'static str = "Imports many entries at once (카드 명세서, 통장 내역, a pasted statement; up to 100), each exactly once. Call with dryRun true first: every problem is listed; then again without it. Give each line its approval number as externalRef: a line already in the book (also as a split, or a 할부 part: keep \"할부 2/3\" in its memo) comes back duplicate, not recorded twice. One result per entry: recorded, duplicate or error.";
    const KIND: Kind = write(true);
    #[cfg(test)]
    const EXAMPLES: crate::operation::Examples = (
        &[
                r#"{"entries": [{"from": "신한카드", "to": "식비", "amount": "8000"}], "idempotencyKey": "k"}"#,
                // A bad amount or date is that entry's error, not the call's.
                r#"{"vault": "우리집", "entries": [{"from": "신한카드", "to": "식비", "amount": "12.5", "date": "2026-02-30", "memo": "점심", "externalRef": "30012345"}], "idempotencyKey": "k", "dryRun": true, "allowDuplicate": false}"#,
                // An entry missing a field is that entry's error too.
                r#"{"entries": [{"from": "신한카드", "amount": "8000"}], "idempotencyKey": "k"}"#,
                r#"{"entries": [{"lines": {"from": [{"account": "신한카드", "amount": "45000"}], "to": [{"account": "식비", "amount": "30000"}, {"account": "생활용품", "amount": "15000"}]}}], "idempotencyKey": "k"}"#,
            ],
            &[
                r#"{"entries": [{"from": "신한카드", "to": "식비", "amount": "8000"}]}"#,
                r#"{"entries": [{"from": "신한카드", "to": "식비", "amount": "8000", "account": "x"}], "idempotencyKey": "k"}"#,
            ],
    );

    fn argument(field: Field) -> Cow<'static, str> {
        simple_argument(field)
    }

    async fn run(ledger: &Ledger, who: &PersonId, args: Args) -> Result<Output, LedgerError> {
        let splits: Vec<bool> = args.entries.iter().map(|e| e.lines.is_some()).collect();
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
        output(batch, &splits)
    }
}

/// An entry's amount that could not be read, with the string sent.
fn unreadable_amount((message, sent): (String, Option<String>)) -> Unreadable {
    Unreadable {
        field: Field::LineAmount {
            side: Side::To,
            index: 0,
        },
        message,
        sent,
    }
}

/// An entry for the ledger, or why it could not be read.
fn read_entry(e: Entry) -> Result<BatchEntry, Unreadable> {
    let unreadable = |field: Field, message: String| Unreadable {
        field,
        message,
        sent: None,
    };
    let date = e
        .date
        .map(|d| d.0)
        .transpose()
        .map_err(|m| unreadable(Field::Date, m))?;
    let installments = e
        .installments
        .map(dochiya_domain::Installments::new)
        .transpose()
        .map_err(|p| unreadable(Field::Card("installments"), p.message().to_string()))?;
    let (from, to, amount, lines) = match (e.from, e.to, e.amount, e.lines) {
        (Some(from), Some(to), Some(amount), None) => {
            let amount = amount.0.map_err(unreadable_amount)?;
            (from.into(), to.into(), amount, None)
        }
        (None, None, None, Some(lines)) => {
            let lines: EditLines = lines.into();
            // Unused for a split (the lines are the entry); kept so the simple fields stay filled.
            let Some(first) = lines.from.first().or(lines.to.first()).map(|l| l.amount) else {
                return Err(unreadable(
                    Field::Lines(Side::From),
                    "a split needs at least one line on each side".into(),
                ));
            };
            (String::new(), String::new(), first, Some(lines))
        }
        (_, _, _, Some(_)) => {
            return Err(unreadable(
                Field::Entries,
                "send either `lines` (a split) or `from`, `to` and `amount`, not both".into(),
            ));
        }
        // `to` left out with a memo: the memo's words choose the category ("" tells the ledger).
        (Some(from), None, Some(amount), None) if e.memo.as_deref().is_some_and(|m| !m.trim().is_empty()) => {
            let amount = amount.0.map_err(unreadable_amount)?;
            (from.into(), String::new(), amount, None)
        }
        (from, to, _, None) => {
            let missing = match (from.is_some(), to.is_some()) {
                (false, _) => "from",
                (true, false) => "to",
                (true, true) => "amount",
            };
            return Err(unreadable(
                Field::Entries,
                format!("`{missing}` is missing: send `from`, `to` and `amount`, or `lines` for a split"),
            ));
        }
    };
    Ok(BatchEntry {
        from,
        to,
        amount,
        date,
        memo: e.memo.map(String::from),
        external_ref: e.external_ref.map(String::from),
        lines,
        tags: e.tags.unwrap_or_default().into_iter().map(String::from).collect(),
        installments,
        for_whom: e.for_whom.map(String::from),
    })
}

/// An entry's own spelling of a ledger field: the form itself is "the entry".
fn simple_entry(field: Field) -> Cow<'static, str> {
    match field {
        Field::Entries => Cow::Borrowed("entry"),
        other => simple_argument(other),
    }
}

/// A split entry's spelling.
fn split_entry(field: Field) -> Cow<'static, str> {
    match field {
        Field::Entries => Cow::Borrowed("entry"),
        other => split_argument(other),
    }
}

fn output(b: BatchRecorded, splits: &[bool]) -> Result<Output, LedgerError> {
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
                    categorized_by: b.categorized.get(i).cloned().flatten().map(Into::into),
                    index,
                    status,
                    transaction_id: transaction_id.map(Into::into),
                    matched_by: None,
                    also_matches: None,
                    message: None,
                    current: current.map(|t| (*t).into()),
                    note: note.as_ref().map(crate::tools::recorded::note),
                }
            }
            EntryResult::Duplicate(d) => {
                counts.duplicate += 1;
                EntryOut {
                    categorized_by: b.categorized.get(i).cloned().flatten().map(Into::into),
                    index,
                    status: Status::Duplicate,
                    transaction_id: Some(d.transaction_id.into()),
                    matched_by: Some(match d.matched_by {
                        MatchedBy::ExternalRef => MatchedByOut::ExternalRef,
                        MatchedBy::SameDate => MatchedByOut::SameDate,
                        MatchedBy::DayApart => MatchedByOut::DayApart,
                        MatchedBy::Split => MatchedByOut::Split,
                        MatchedBy::OtherCategory => MatchedByOut::OtherCategory,
                        MatchedBy::Installment => MatchedByOut::Installment,
                    }),
                    also_matches: d.also.map(Into::into),
                    message: None,
                    current: None,
                    note: None,
                }
            }
            EntryResult::Failed(e) => {
                counts.error += 1;
                EntryOut {
                    categorized_by: b.categorized.get(i).cloned().flatten().map(Into::into),
                    index,
                    status: Status::Error,
                    transaction_id: None,
                    matched_by: None,
                    also_matches: None,
                    // An internal failure of one entry fails the call, as it would for one record.
                    message: Some(entry_message(
                        e,
                        match splits.get(i) {
                            Some(true) => split_entry,
                            _ => simple_entry,
                        },
                    )?),
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
        operation_id: b.operation_id.map(Into::into),
    })
}

/// Statement lines under arbitrary input (issue 51): the arguments are read or refused
/// with a sentence, each entry becomes a ledger entry or that entry's own error, never a
/// panic; a well-formed line reads back as written.
#[cfg(test)]
mod properties {
    use proptest::prelude::*;
    use serde_json::{Value, json};

    use super::*;

    /// A value a client might put in a field: text of any kind, numbers, or the wrong type.
    fn field() -> impl Strategy<Value = Value> {
        prop_oneof![
            any::<String>().prop_map(Value::from),
            "[0-9 ,.+\\-eE₩$원]{0,16}".prop_map(Value::from),
            "[0-9]{4}-[0-9]{2}-[0-9]{2}".prop_map(Value::from),
            any::<i64>().prop_map(Value::from),
            Just(Value::Null),
            Just(json!(true)),
            Just(json!({"from": [{"account": "신한카드", "amount": "1"}], "to": []})),
            Just(json!(["여행", "#아이"])),
        ]
    }

    /// A statement line: each field present or not, holding anything.
    fn line() -> impl Strategy<Value = Value> {
        let names = ["from", "to", "amount", "lines", "date", "memo", "externalRef", "tags", "installments"];
        prop::collection::vec(prop::option::of(field()), names.len()).prop_map(move |values| {
            let mut entry = serde_json::Map::new();
            for (name, v) in names.iter().zip(values) {
                if let Some(v) = v {
                    entry.insert((*name).to_owned(), v);
                }
            }
            Value::Object(entry)
        })
    }

    fn read(args: &Value) -> Result<Args, String> {
        let raw = serde_json::value::to_raw_value(args).expect("raw JSON");
        crate::args::parse::<Args>(Some(&raw)).map_err(|e| e.to_string())
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 512, failure_persistence: None, ..ProptestConfig::default() })]

        #[test]
        fn statement_lines_are_read_or_refused_entry_by_entry(lines in prop::collection::vec(line(), 1..4)) {
            match read(&json!({"entries": lines, "idempotencyKey": "k"})) {
                Ok(args) => {
                    for e in args.entries {
                        if let Err(u) = read_entry(e) {
                            prop_assert!(!u.message.trim().is_empty());
                        }
                    }
                }
                Err(message) => prop_assert!(!message.trim().is_empty()),
            }
        }

        #[test]
        fn a_well_formed_line_reads_back(minor in 1_i64..10_000_000, cents in any::<bool>(), y in 2000_i16..2100, m in 1_i16..=12, d in 1_i16..=28,
            from in "[가-힣a-zA-Z]{1,12}", to in "[가-힣a-zA-Z]{1,12}", memo in "\\PC{0,40}") {
            let amount = if cents { format!("{}.{:02}", minor / 100, minor % 100) } else { minor.to_string() };
            let date = format!("{y:04}-{m:02}-{d:02}");
            let args = json!({"entries": [{"from": from, "to": to, "amount": amount, "date": date, "memo": memo}], "idempotencyKey": "k"});
            let mut args = read(&args).expect("a well-formed line is read");
            let e = read_entry(args.entries.remove(0)).expect("a well-formed line is an entry");
            prop_assert_eq!((e.from, e.to), (from, to));
            let currency = dochiya_domain::Currency::parse(if cents { "USD" } else { "KRW" }).expect("a currency");
            let money = dochiya_domain::Money::from_decimal(e.amount, currency).expect("in range");
            prop_assert_eq!(money.minor(), minor);
            prop_assert_eq!(e.date.map(|d| d.to_string()), Some(date));
            prop_assert_eq!(e.memo, Some(memo));
        }
    }
}
