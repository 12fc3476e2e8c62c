//! Output value types shared by the tools: what leaves the server, field by field.
//!
//! Money and transaction ids are strings with published patterns, so a client
//! that validates `structuredContent` against the `outputSchema` sees exactly
//! the contract of docs/tools.md; nothing here is a stored record.

use std::borrow::Cow;

use dochiya_domain::{AccountId, Every, LocalDate, Money, TransactionId, VaultId, YearMonth};
use dochiya_ledger::api as lt;
use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::{Deserialize, Serialize};

use crate::args::{AMOUNT_PATTERN, DATE_PATTERN, TRANSACTION_ID_PATTERN};

/// Declares a string newtype with a fixed inline schema.
macro_rules! wire_string {
    ($(#[$doc:meta])* $name:ident, $schema_name:literal, $schema:tt) => {
        $(#[$doc])*
        #[derive(Debug, Clone, PartialEq, Eq, Serialize)]
        #[serde(transparent)]
        pub(crate) struct $name(pub(crate) String);

        impl JsonSchema for $name {
            fn schema_name() -> Cow<'static, str> {
                $schema_name.into()
            }

            fn inline_schema() -> bool {
                true
            }

            fn json_schema(_: &mut SchemaGenerator) -> Schema {
                json_schema!($schema)
            }
        }
    };
}

wire_string!(
    /// An amount: decimal string in the currency's major unit.
    AmountOut,
    "Amount",
    { "type": "string", "pattern": AMOUNT_PATTERN }
);
wire_string!(
    /// A transaction id: decimal string, always above 2^53.
    TransactionIdOut,
    "TransactionId",
    { "type": "string", "pattern": TRANSACTION_ID_PATTERN }
);
wire_string!(
    /// An operation id: decimal string, always above 2^53.
    OperationIdOut,
    "OperationId",
    { "type": "string", "pattern": TRANSACTION_ID_PATTERN }
);
wire_string!(
    /// A `YYYY-MM-DD` date.
    DateOut,
    "Date",
    { "type": "string", "pattern": DATE_PATTERN }
);
wire_string!(
    /// A `YYYY-MM` month.
    MonthOut,
    "Month",
    { "type": "string", "pattern": "^[0-9]{4}-[0-9]{2}$" }
);
wire_string!(
    /// A vault or account id (UUID).
    UuidOut,
    "Uuid",
    { "type": "string", "format": "uuid" }
);

impl From<Money> for AmountOut {
    fn from(m: Money) -> Self {
        Self(m.to_decimal_string())
    }
}

impl From<TransactionId> for TransactionIdOut {
    fn from(id: TransactionId) -> Self {
        Self(id.to_string())
    }
}

impl From<lt::OperationId> for OperationIdOut {
    fn from(id: lt::OperationId) -> Self {
        Self(id.to_string())
    }
}

impl From<LocalDate> for DateOut {
    fn from(d: LocalDate) -> Self {
        Self(d.to_string())
    }
}

impl From<YearMonth> for MonthOut {
    fn from(m: YearMonth) -> Self {
        Self(m.to_string())
    }
}

impl From<VaultId> for UuidOut {
    fn from(id: VaultId) -> Self {
        Self(id.to_string())
    }
}

impl From<AccountId> for UuidOut {
    fn from(id: AccountId) -> Self {
        Self(id.to_string())
    }
}

/// Account kinds as arguments and results spell them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub(crate) enum KindWire {
    Asset,
    Liability,
    Income,
    Expense,
    Equity,
}

impl From<dochiya_domain::AccountKind> for KindWire {
    fn from(k: dochiya_domain::AccountKind) -> Self {
        use dochiya_domain::AccountKind as K;
        match k {
            K::Asset => KindWire::Asset,
            K::Liability => KindWire::Liability,
            K::Income => KindWire::Income,
            K::Expense => KindWire::Expense,
            K::Equity => KindWire::Equity,
        }
    }
}

impl From<KindWire> for dochiya_domain::AccountKind {
    fn from(k: KindWire) -> Self {
        use dochiya_domain::AccountKind as K;
        match k {
            KindWire::Asset => K::Asset,
            KindWire::Liability => K::Liability,
            KindWire::Income => K::Income,
            KindWire::Expense => K::Expense,
            KindWire::Equity => K::Equity,
        }
    }
}

/// A vault as results name it.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct VaultOut {
    /// The vault's id (a UUID). Tools take the vault's name, not this id.
    pub(crate) vault_id: UuidOut,
    /// The vault's name; pass it as `vault` to other tools.
    pub(crate) name: String,
}

impl From<lt::VaultRef> for VaultOut {
    fn from(v: lt::VaultRef) -> Self {
        Self {
            vault_id: v.vault_id.into(),
            name: v.name,
        }
    }
}

/// One posting of a transaction.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct PostingOut {
    /// The account's id (a UUID).
    pub(crate) account_id: UuidOut,
    /// The account's current name.
    pub(crate) account: String,
    /// Signed decimal string in the vault currency: positive is a debit (money arriving at a `to` account), negative a credit (money leaving a `from` account). A transaction's postings sum to zero.
    pub(crate) amount: AmountOut,
}

/// A stored transaction's id: always present.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct StoredId {
    /// The transaction's id: a decimal string (larger than 2^53). Pass it back exactly as this string, never as a number, to get_transaction or void_transaction.
    pub(crate) transaction_id: TransactionIdOut,
}

/// A recording's transaction id: absent on a dry run's preview of a new entry.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct RecordedId {
    /// The transaction's id: a decimal string (larger than 2^53). Pass it back exactly as this string, never as a number, to get_transaction or void_transaction. Absent on a dry run's preview (nothing was stored, so there is no id).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) transaction_id: Option<TransactionIdOut>,
}

/// How a result carries a transaction's id.
pub(crate) trait IdOut {
    /// The id field of `t`.
    fn of(t: &lt::Transaction) -> Self;
}

impl IdOut for StoredId {
    fn of(t: &lt::Transaction) -> Self {
        Self {
            transaction_id: t.transaction_id.into(),
        }
    }
}

impl IdOut for RecordedId {
    fn of(t: &lt::Transaction) -> Self {
        Self {
            // A new entry's preview (version 1; an edit's is 2 or more) has a placeholder
            // id, never stored: not shown.
            transaction_id: (!(t.preview && t.version == 1)).then(|| t.transaction_id.into()),
        }
    }
}

/// A transaction; `Id` says whether its id may be absent (a recording's preview).
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct TransactionOut<Id = StoredId> {
    #[serde(flatten)]
    pub(crate) id: Id,
    /// True on a dry run's result: a preview, not stored.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub(crate) preview: bool,
    /// The date it happened, YYYY-MM-DD in the vault's time zone.
    pub(crate) date: DateOut,
    /// The memo (empty when none was given).
    pub(crate) memo: String,
    /// True when it was voided: the record stays but it no longer counts in any balance.
    pub(crate) voided: bool,
    /// Who recorded it: a member's name then, or "<schedule> (recurring)" for a recurring schedule's posting. Absent on entries made before vaults could be shared.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) recorded_by: Option<String>,
    /// The postings: `to` accounts (positive) first, then `from` accounts (negative).
    pub(crate) postings: Vec<PostingOut>,
    /// 1 when recorded, one more with each edit; pass it as expectedVersion to edit_transaction.
    pub(crate) version: u32,
    /// Earlier versions, oldest first (get_transaction and edit_transaction only).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub(crate) history: Vec<VersionOut>,
    /// Why it was voided (voided entries only; may be empty).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) void_reason: Option<String>,
    /// When it was voided, RFC 3339 UTC (voided entries only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) voided_at: Option<String>,
    /// Who voided it (voided entries only; absent on older voids).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) voided_by: Option<String>,
    /// The recurring schedule (set_recurring) that posted it, by name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) recurring: Option<String>,
    /// Its tags (absent: none).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub(crate) tags: Vec<String>,
    /// Whose spending it was when not its categories': a member, or "shared".
    #[serde(rename = "for", skip_serializing_if = "Option::is_none")]
    pub(crate) for_whom: Option<String>,
    /// When it was recorded, RFC 3339 UTC (absent on old entries).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) recorded_at: Option<String>,
    /// The operation whose change it shows now (its recording, latest edit or void); pass it to undo to take that change back.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) operation_id: Option<OperationIdOut>,
    /// An installment purchase: its card bills carry it in `count` monthly parts.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) installments: Option<InstallmentsOut>,
}

/// How many monthly parts an installment purchase is billed in.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub(crate) struct InstallmentsOut {
    /// 2–36.
    pub(crate) count: u8,
}

/// An earlier version of an edited transaction.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct VersionOut {
    /// Which version this was.
    pub(crate) version: u32,
    /// Its date then.
    pub(crate) date: DateOut,
    /// Its memo then.
    pub(crate) memo: String,
    /// Its postings then.
    pub(crate) postings: Vec<PostingOut>,
    /// When an edit replaced it, RFC 3339 UTC.
    pub(crate) changed_at: String,
}

fn postings_out(postings: Vec<lt::Posting>) -> Vec<PostingOut> {
    postings
        .into_iter()
        .map(|p| PostingOut {
            account_id: p.account_id.into(),
            account: p.account,
            amount: p.amount.into(),
        })
        .collect()
}

impl<Id: IdOut> From<lt::Transaction> for TransactionOut<Id> {
    fn from(t: lt::Transaction) -> Self {
        Self {
            id: Id::of(&t),
            preview: t.preview,
            date: t.date.into(),
            memo: t.memo,
            voided: t.voided,
            // A posting was recorded by its schedule, nobody's own hand.
            recorded_by: t.recorded_by.or_else(|| t.recurring.as_deref().map(posted_by)),
            postings: postings_out(t.postings),
            version: t.version,
            history: t
                .history
                .into_iter()
                .map(|h| VersionOut {
                    version: h.version,
                    date: h.date.into(),
                    memo: h.memo,
                    postings: postings_out(h.postings),
                    changed_at: h.replaced_at.to_string(),
                })
                .collect(),
            void_reason: t.void_reason,
            voided_at: t.voided_at.map(|at| at.to_string()),
            voided_by: t.voided_by,
            recurring: t.recurring,
            tags: t.tags,
            for_whom: t.for_whom,
            recorded_at: t.recorded_at.map(|at| at.to_string()),
            operation_id: t.operation_id.map(Into::into),
            installments: t.installments.map(|count| InstallmentsOut { count }),
        }
    }
}

/// Who recorded a recurring schedule's posting, as `recordedBy` shows it: the schedule,
/// marked so it never reads as a member's name.
pub(crate) fn posted_by(schedule: &str) -> String {
    format!("{schedule} (recurring)")
}

/// A role in a shared vault, as arguments and results spell it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub(crate) enum RoleWire {
    Owner,
    Member,
}

impl From<lt::Role> for RoleWire {
    fn from(r: lt::Role) -> Self {
        match r {
            lt::Role::Owner => RoleWire::Owner,
            lt::Role::Member => RoleWire::Member,
        }
    }
}

impl From<RoleWire> for lt::Role {
    fn from(r: RoleWire) -> Self {
        match r {
            RoleWire::Owner => lt::Role::Owner,
            RoleWire::Member => lt::Role::Member,
        }
    }
}

/// One person keeping a vault.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct MemberOut {
    /// Their name (from their sign-in, or a short handle); pass it as `member` to remove_member.
    pub(crate) name: String,
    /// owner or member.
    pub(crate) role: RoleWire,
    /// The date they joined, YYYY-MM-DD in the vault's time zone.
    pub(crate) joined_at: DateOut,
    /// True for the caller.
    pub(crate) you: bool,
}

impl From<lt::MemberInfo> for MemberOut {
    fn from(m: lt::MemberInfo) -> Self {
        Self {
            name: m.name,
            role: m.role.into(),
            joined_at: m.joined_on.into(),
            you: m.you,
        }
    }
}

/// The note of a read filter whose name a live account and archived ones had: which one was used.
pub(crate) fn account_note(choice: Option<lt::AccountChoice>) -> Option<String> {
    choice.map(|c| {
        let handles = c
            .archived
            .iter()
            .map(|h| format!("\"{h}\""))
            .collect::<Vec<_>>()
            .join(", ");
        format!(
            "\"{}\" means the active account ({}); archived accounts had that name too: pass {handles} as `account` to see one instead.",
            c.name, c.account_id
        )
    })
}

/// Entries of a report's period dated after today: not counted as spent or received yet.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ScheduledOut {
    /// Their total on the report's accounts, decimal string in the vault currency.
    pub(crate) amount: AmountOut,
    /// How many entries.
    pub(crate) count: u32,
}

impl From<lt::Scheduled> for ScheduledOut {
    fn from(s: lt::Scheduled) -> Self {
        ScheduledOut {
            amount: s.amount.into(),
            count: s.count,
        }
    }
}

/// A recurring schedule as `set_recurring` and `list_recurring` show it.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct RecurringOut {
    /// Its name.
    pub(crate) name: String,
    /// Account the money leaves.
    pub(crate) from: String,
    /// Account it arrives at.
    pub(crate) to: String,
    /// Each time, in the vault currency.
    pub(crate) amount: AmountOut,
    /// Day of the month (31: the last day).
    pub(crate) day: i8,
    /// month or year.
    pub(crate) every: EveryWire,
    /// First possible date.
    pub(crate) start: DateOut,
    /// Last possible date.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) end: Option<DateOut>,
    /// Memo of its postings.
    pub(crate) memo: String,
    /// Tags its postings carry (absent: none).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub(crate) tags: Vec<String>,
    /// Next date it posts; absent once it has ended.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) next: Option<DateOut>,
    /// Latest date it posted.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) last_posted: Option<DateOut>,
    /// Present when it stopped posting: why, since when, and how to fix it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) stuck: Option<StuckOut>,
}

/// A recurring entry that stopped posting.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct StuckOut {
    /// Why: a total would overflow, an account is archived, or the store refused the entry.
    pub(crate) reason: StuckReasonWire,
    /// The occurrence it stopped at; nothing from then on posts until it is changed.
    pub(crate) since: DateOut,
    /// What to do: change it (set_recurring with change: true) or remove it.
    pub(crate) note: String,
}

// Why a schedule stopped posting, as results spell it. No doc comment: it would
// become the field's description (the field's says enough).
#[derive(Debug, Clone, Copy, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) enum StuckReasonWire {
    #[allow(missing_docs)]
    Overflow,
    #[allow(missing_docs)]
    ArchivedAccount,
    #[allow(missing_docs)]
    Refused,
}

impl From<lt::Stuck> for StuckOut {
    fn from(s: lt::Stuck) -> Self {
        Self {
            reason: match s.reason {
                lt::StuckReason::Overflow => StuckReasonWire::Overflow,
                lt::StuckReason::ArchivedAccount => StuckReasonWire::ArchivedAccount,
                lt::StuckReason::Refused => StuckReasonWire::Refused,
            },
            since: s.since.into(),
            note: crate::wording::stuck_note(s),
        }
    }
}

impl From<lt::RecurringView> for RecurringOut {
    fn from(r: lt::RecurringView) -> Self {
        Self {
            name: r.name,
            from: r.from,
            to: r.to,
            amount: r.amount.into(),
            day: r.day,
            every: r.every.into(),
            start: r.start.into(),
            end: r.end.map(DateOut::from),
            memo: r.memo,
            tags: r.tags,
            next: r.next.map(DateOut::from),
            last_posted: r.last_posted.map(DateOut::from),
            stuck: r.stuck.map(StuckOut::from),
        }
    }
}

// How often, as arguments and results spell it (`year`: in the start's month). No doc
// comment: it would become the argument's description (the tool's says enough).
#[derive(Debug, Clone, Copy, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub(crate) enum EveryWire {
    #[allow(missing_docs)]
    Month,
    #[allow(missing_docs)]
    Year,
}

impl From<EveryWire> for Every {
    fn from(e: EveryWire) -> Self {
        match e {
            EveryWire::Month => Every::Month,
            EveryWire::Year => Every::Year,
        }
    }
}

impl From<Every> for EveryWire {
    fn from(e: Every) -> Self {
        match e {
            Every::Month => EveryWire::Month,
            Every::Year => EveryWire::Year,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use dochiya_domain::Currency;
    use serde_json::json;

    fn transaction(recorded_by: Option<&str>, recurring: Option<&str>) -> lt::Transaction {
        let krw = Currency::parse("KRW").unwrap();
        let account = |id: &str, name: &str, amount: i64| lt::Posting {
            account_id: AccountId::parse(id).unwrap(),
            account: name.into(),
            amount: Money::from_minor(amount, krw),
        };
        lt::Transaction {
            transaction_id: TransactionId::parse("9007199254740993").unwrap(),
            date: LocalDate::parse("2026-04-25").unwrap(),
            memo: "월세".into(),
            voided: false,
            recorded_by: recorded_by.map(Into::into),
            postings: vec![
                account("0195b9c6-4a5e-7c3a-9f1e-2d3c4b5a6978", "주거비", 500_000),
                account("0195b9c6-4a5e-7c3a-9f1e-2d3c4b5a6979", "카카오뱅크", -500_000),
            ],
            version: 1,
            history: Vec::new(),
            void_reason: None,
            voided_at: None,
            voided_by: None,
            recurring: recurring.map(Into::into),
            installments: None,
            preview: false,
            tags: Vec::new(),
            operation_id: None,
            recorded_at: None,
            for_whom: None,
        }
    }

    /// The serializer itself, not a schema of it: a posting names its schedule, an entry
    /// from before sharing leaves `recordedBy` out, and both fit the published schema.
    #[test]
    fn recorded_by_is_a_name_or_absent_never_null() {
        let published = crate::schema::output_schema::<TransactionOut>();
        let schema = jsonschema::validator_for(&published).unwrap();
        let posting =
            serde_json::to_value(TransactionOut::<StoredId>::from(transaction(None, Some("월세")))).unwrap();
        assert_eq!(posting["recordedBy"], json!("월세 (recurring)"));
        let by_hand =
            serde_json::to_value(TransactionOut::<StoredId>::from(transaction(Some("하은"), None))).unwrap();
        assert_eq!(by_hand["recordedBy"], json!("하은"));
        let old = serde_json::to_value(TransactionOut::<StoredId>::from(transaction(None, None))).unwrap();
        assert_eq!(old.get("recordedBy"), None);
        for v in [&posting, &by_hand, &old] {
            assert!(schema.is_valid(v), "{v}");
        }
    }
}

/// A savings goal and how far it is (set_goal, list_accounts, budget_report).
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct GoalOut {
    /// The goal's name.
    pub(crate) name: String,
    /// The asset account it is kept in.
    pub(crate) account: String,
    /// What to reach.
    pub(crate) target: AmountOut,
    /// The day to reach it by, YYYY-MM-DD.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) by: Option<DateOut>,
    /// The account's balance today.
    pub(crate) saved: AmountOut,
    /// target − saved, "0" once reached.
    pub(crate) left: AmountOut,
    /// With `by`: what to put aside each month, this month through by's, rounded up.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) monthly_needed: Option<AmountOut>,
    /// With `by`: saved is at least the straight line from the day the goal was set to the target on `by`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) on_track: Option<bool>,
}

impl From<dochiya_ledger::api::GoalView> for GoalOut {
    fn from(g: dochiya_ledger::api::GoalView) -> Self {
        GoalOut {
            name: g.name,
            account: g.account,
            target: g.target.into(),
            by: g.by.map(Into::into),
            saved: g.saved.into(),
            left: g.left.into(),
            monthly_needed: g.monthly_needed.map(Into::into),
            on_track: g.on_track,
        }
    }
}

/// How an entry sent without `to` was categorized.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub(crate) struct CategorizedByOut {
    /// The word that matched: a set word the memo holds, or its learned first word.
    pub(crate) word: String,
    /// The category chosen.
    pub(crate) account: String,
    /// True when the word was learned from earlier entries (else set with update_account match).
    pub(crate) learned: bool,
}

impl From<dochiya_ledger::api::CategorizedBy> for CategorizedByOut {
    fn from(c: dochiya_ledger::api::CategorizedBy) -> Self {
        CategorizedByOut {
            word: c.word,
            account: c.account,
            learned: c.learned,
        }
    }
}

/// One of an account's words.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub(crate) struct WordOut {
    /// The word.
    pub(crate) word: String,
    /// True when learned from the entries (update_account match [] clears it with the set ones).
    pub(crate) learned: bool,
}

impl From<dochiya_ledger::api::WordOf> for WordOut {
    fn from(w: dochiya_ledger::api::WordOf) -> Self {
        WordOut {
            word: w.word,
            learned: w.learned,
        }
    }
}
