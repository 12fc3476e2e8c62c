//! Reading tool arguments: serde with `deny_unknown_fields`, errors rewritten for a model.
//!
//! Arguments arrive as the exact JSON text the client sent, so an amount sent as
//! a JSON number is read from its digits and a transaction id sent as a number
//! is refused (it may already have been rounded by the client) instead of
//! travelling through `f64`.

use std::borrow::Cow;
use std::fmt;

use dochiya_protocol::ToolError;
use dochiya_quote::{quote, quote_escaped, quote_name};
use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::Deserialize;
use serde::de::{self, DeserializeOwned, Deserializer, Visitor};
use serde_json::value::RawValue;

use dochiya_domain::limits::{
    MAX_ACCOUNT_REF_CHARS, MAX_CODE_CHARS, MAX_CURSOR_CHARS, MAX_EXTERNAL_REF_CHARS,
    MAX_IDEMPOTENCY_KEY_CHARS, MAX_INVITE_CODE_CHARS, MAX_MEMO_CHARS, MAX_NAME_CHARS, MAX_SEARCH_CHARS,
};
use dochiya_domain::{Decimal, LocalDate, TransactionId, YearMonth};

/// The pattern every transaction id matches: a decimal integer without leading zeros.
pub(crate) const TRANSACTION_ID_PATTERN: &str = "^(0|[1-9][0-9]*)$";

/// Parses `arguments` (absent or `null` means `{}`) into `T`, with model-friendly errors
/// (the tests' way in; a tool call goes through [`parse_or_refused`]).
#[cfg(test)]
pub(crate) fn parse<T: DeserializeOwned>(arguments: Option<&RawValue>) -> Result<T, ToolError> {
    parse_or_refused(arguments).map_err(|r| r.error)
}

/// Arguments that did not parse: the sentence for the model, and where it failed.
pub(crate) struct Refused {
    /// What the model reads.
    pub error: ToolError,
    /// The failing argument's name when it is an `amount` (at any depth), with the
    /// string sent there: what a caller may reword against the vault.
    pub amount: Option<(String, String)>,
}

/// Parses `arguments` (absent or `null` means `{}`) into `T`, with model-friendly
/// errors, keeping where a failure was (see [`Refused`]).
pub(crate) fn parse_or_refused<T: DeserializeOwned>(arguments: Option<&RawValue>) -> Result<T, Refused> {
    let refused = |error| Refused { error, amount: None };
    let text = match arguments.map(RawValue::get).map(str::trim) {
        None | Some("null") => "{}",
        Some(text) => text,
    };
    if !text.starts_with('{') {
        return Err(refused(ToolError::Invalid(
            "The arguments must be a JSON object of named arguments, e.g. {\"vault\": \"우리집\"}.".into(),
        )));
    }
    // The plain parse first: tracking the path costs an allocation per key, and only a
    // failure needs it. Parsing is deterministic, so the second pass fails the same way
    // and names where.
    if let Ok(parsed) = serde_json::from_str::<T>(text) {
        return Ok(parsed);
    }
    let mut deserializer = serde_json::Deserializer::from_str(text);
    let parsed: T = serde_path_to_error::deserialize(&mut deserializer).map_err(|e| {
        let path = e.path().to_string();
        let amount = amount_sent(text, e.path()).map(|sent| (path.clone(), sent));
        Refused {
            error: ToolError::Invalid(explain(&path, e.inner())),
            amount,
        }
    })?;
    deserializer
        .end()
        .map_err(|e| refused(ToolError::Invalid(explain(".", &e))))?;
    Ok(parsed)
}

/// The string sent at `path` when the path ends at a field named `amount`.
fn amount_sent(text: &str, path: &serde_path_to_error::Path) -> Option<String> {
    use serde_path_to_error::Segment;
    let last = path.iter().next_back()?;
    if !matches!(last, Segment::Map { key } if key == "amount") {
        return None;
    }
    let mut v: serde_json::Value = serde_json::from_str(text).ok()?;
    for segment in path.iter() {
        v = match segment {
            Segment::Seq { index } => v.get_mut(*index)?.take(),
            Segment::Map { key } => v.get_mut(key.as_str())?.take(),
            Segment::Enum { .. } => v,
            Segment::Unknown => return None,
        };
    }
    v.as_str().map(str::to_owned)
}

/// Rewrites a serde error at `path` into a sentence naming the argument. Whatever of the
/// sent text serde put in its message (a value, an unknown name, a map key in the path)
/// is quoted by the one rule of `dochiya_quote`: at most 64 characters of it.
fn explain(path: &str, error: &serde_json::Error) -> String {
    let full = error.to_string();
    // serde_json appends the position in the JSON text; it means nothing to a model.
    let message = match full.rfind(" at line ") {
        Some(i) if error.line() != 0 => &full[..i],
        _ => full.as_str(),
    };
    let at_root = path == "." || path.is_empty();
    let at = quote_name(path);
    if let Some(rest) = message.strip_prefix("unknown field ") {
        let (field, accepted) = match rest.strip_suffix(", there are no fields") {
            Some(field) => (field, None),
            None => split_expected(rest),
        };
        // The path ends with the unknown field itself; name its container.
        let bare = field.trim_matches('`');
        let parent = path
            .strip_suffix(bare)
            .map(|p| p.trim_end_matches('.'))
            .unwrap_or(path);
        let place = if parent.is_empty() || parent == "." {
            String::new()
        } else {
            format!(" in {}", quote_name(parent))
        };
        let field = quote_name(bare);
        return match accepted {
            Some(accepted) => format!(
                "Unknown argument {field}{place}. The accepted arguments are {accepted}; check the spelling against the input schema."
            ),
            _ => format!("Unknown argument {field}{place}. This tool takes no arguments."),
        };
    }
    if let Some(field) = message.strip_prefix("missing field ") {
        return if at_root {
            format!("Missing required argument {field}.")
        } else {
            format!("Missing {field} in {at}.")
        };
    }
    if let Some(rest) = message.strip_prefix("unknown variant ") {
        let (got, accepted) = split_expected(rest);
        let accepted = accepted.unwrap_or("the values in the input schema");
        let got = shown(got);
        return format!("Argument {at} is {got}, which is not allowed; use one of {accepted}.");
    }
    if let Some(rest) = message.strip_prefix("invalid value: ") {
        let (got, expected) = split_expected(rest);
        let expected = expected.map(plain_type).unwrap_or_else(|| "another value".into());
        let got = shown(got);
        return format!("Argument {at} has an invalid value: it is {got}, but it must be {expected}.");
    }
    if let Some(rest) = message.strip_prefix("invalid type: ") {
        let (got, expected) = split_expected(rest);
        let expected = expected.map(plain_type).unwrap_or_else(|| "another type".into());
        let got = shown(got);
        return format!("Argument {at} has the wrong type: it is {got}, but it must be {expected}.");
    }
    if at_root {
        return format!("The arguments are not valid: {message}.");
    }
    // Messages from our own argument types are already whole sentences.
    format!("Argument {at}: {message}")
}

/// A value as serde names it in a message (`string "…"`, `` `name` ``, `integer `5``),
/// its sent text cut by the one quoting rule; serde already escaped a string.
fn shown(got: &str) -> String {
    if let Some(inner) = got.strip_prefix("string \"").and_then(|r| r.strip_suffix('"')) {
        return format!("string {}", quote_escaped(inner));
    }
    match got.strip_prefix('`').and_then(|r| r.strip_suffix('`')) {
        Some(inner) => quote_name(inner).to_string(),
        None => got.to_owned(),
    }
}

/// Splits serde's "X, expected Y" into X and Y (without serde's "one of").
fn split_expected(text: &str) -> (&str, Option<&str>) {
    match text.split_once(", expected ") {
        Some((got, expected)) => (got, Some(expected.strip_prefix("one of ").unwrap_or(expected))),
        None => (text, None),
    }
}

/// Serde's Rust-flavoured type names in words a model knows.
fn plain_type(expected: &str) -> Cow<'static, str> {
    match expected {
        "u8" | "u16" | "u32" | "u64" | "usize" => "a whole number, 0 or more".into(),
        "i8" | "i16" | "i32" | "i64" | "isize" => "a whole number".into(),
        "a sequence" => "an array".into(),
        "a map" => "an object".into(),
        e if e.starts_with("struct ") => "an object".into(),
        e => Cow::Owned(e.to_owned()),
    }
}

/// Finishes a message from a domain parser as a sentence.
pub(crate) fn sentence(message: &str) -> String {
    if message.ends_with('.') {
        message.to_owned()
    } else {
        format!("{message}.")
    }
}

/// A string argument of at most `MAX` characters, checked as it is read (before any
/// other work); published with `maxLength`. The refusal names the length, never the text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Bounded<const MAX: usize>(String);

/// A vault or account name.
pub(crate) type NameArg = Bounded<MAX_NAME_CHARS>;
/// An account named in a call: a name, or an archived account's handle.
pub(crate) type AccountArg = Bounded<MAX_ACCOUNT_REF_CHARS>;
/// A tag argument (room for a leading `#` and spaces; the ledger's rules decide).
pub(crate) type TagArg = Bounded<MAX_TAG_ARG_CHARS>;
const MAX_TAG_ARG_CHARS: usize = dochiya_domain::limits::MAX_TAG_CHARS + 2;
/// A memo or void reason.
pub(crate) type MemoArg = Bounded<MAX_MEMO_CHARS>;
/// An idempotency key.
pub(crate) type KeyArg = Bounded<MAX_IDEMPOTENCY_KEY_CHARS>;
/// Memo search text.
pub(crate) type SearchArg = Bounded<MAX_SEARCH_CHARS>;
/// A page cursor.
pub(crate) type CursorArg = Bounded<MAX_CURSOR_CHARS>;
/// A currency code or time-zone name.
pub(crate) type CodeArg = Bounded<MAX_CODE_CHARS>;
/// A statement line's own id (`externalRef`).
pub(crate) type RefArg = Bounded<MAX_EXTERNAL_REF_CHARS>;
/// An invite code.
pub(crate) type InviteCodeArg = Bounded<MAX_INVITE_CODE_CHARS>;
/// A word that categorizes (`update_account` `match`).
pub(crate) type WordArg = Bounded<{ dochiya_ledger::ledger::MAX_WORD_CHARS }>;

impl<const MAX: usize> std::ops::Deref for Bounded<MAX> {
    type Target = str;

    fn deref(&self) -> &str {
        &self.0
    }
}

impl<const MAX: usize> From<Bounded<MAX>> for String {
    fn from(value: Bounded<MAX>) -> String {
        value.0
    }
}

impl<'de, const MAX: usize> Deserialize<'de> for Bounded<MAX> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        let chars = text.chars().count();
        if chars > MAX {
            return Err(de::Error::custom(format!(
                "it is {chars} characters long; the limit is {MAX}."
            )));
        }
        Ok(Bounded(text))
    }
}

impl<const MAX: usize> JsonSchema for Bounded<MAX> {
    fn schema_name() -> Cow<'static, str> {
        format!("Text{MAX}").into()
    }

    fn inline_schema() -> bool {
        true
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({ "type": "string", "maxLength": MAX })
    }
}

/// An amount argument, read by the ledger's parser from the exact JSON text: a
/// JSON string holding a decimal, or a JSON number's own digits (never `f64`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct AmountArg(pub(crate) Decimal);

impl<'de> Deserialize<'de> for AmountArg {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let raw: Box<RawValue> = Deserialize::deserialize(deserializer)?;
        Decimal::from_json_text(raw.get())
            .map(AmountArg)
            .map_err(|e| de::Error::custom(sentence(e.message())))
    }
}

impl JsonSchema for AmountArg {
    fn schema_name() -> Cow<'static, str> {
        "Amount".into()
    }

    fn inline_schema() -> bool {
        true
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        // Published as a string (what a model should send); a JSON number is
        // still accepted and read from its digits.
        json_schema!({ "type": "string", "pattern": AMOUNT_PATTERN })
    }
}

/// An amount that moved (record, edit): published with a pattern without a minus,
/// as the descriptions say; a negative one still reaches the ledger's refusal,
/// which says to swap `from` and `to`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct PositiveAmountArg(pub(crate) Decimal);

impl<'de> Deserialize<'de> for PositiveAmountArg {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        AmountArg::deserialize(deserializer).map(|a| PositiveAmountArg(a.0))
    }
}

impl JsonSchema for PositiveAmountArg {
    fn schema_name() -> Cow<'static, str> {
        "PositiveAmount".into()
    }

    fn inline_schema() -> bool {
        true
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({ "type": "string", "pattern": POSITIVE_AMOUNT_PATTERN })
    }
}

/// A decimal without a sign: digits, optional fraction.
pub(crate) const POSITIVE_AMOUNT_PATTERN: &str = "^[0-9]+(\\.[0-9]+)?$";

/// A plain decimal: optional minus, digits, optional fraction.
pub(crate) const AMOUNT_PATTERN: &str = "^-?[0-9]+(\\.[0-9]+)?$";

/// A `YYYY-MM-DD` date.
pub(crate) const DATE_PATTERN: &str = "^[0-9]{4}-[0-9]{2}-[0-9]{2}$";

/// A transaction id argument: the decimal string exactly as a tool returned it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct TransactionIdArg(pub(crate) TransactionId);

/// The refusal for an id sent as a JSON number (docs/design.md §5).
pub(crate) const ID_AS_NUMBER: &str = "it was sent as a JSON number. Send transactionId as a string, with the decimal digits exactly as a tool returned them (e.g. \"7263012345678901234\"). Transaction ids are larger than 2^53 (9007199254740992), and a JSON number that large may already have been rounded by the client to a different id, so a number is never used.";

impl<'de> Deserialize<'de> for TransactionIdArg {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct IdVisitor;

        impl Visitor<'_> for IdVisitor {
            type Value = TransactionIdArg;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a string of decimal digits")
            }

            fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
                TransactionId::parse(v)
                    .map(TransactionIdArg)
                    .map_err(|e| E::custom(sentence(e.message())))
            }

            fn visit_u64<E: de::Error>(self, _: u64) -> Result<Self::Value, E> {
                Err(E::custom(ID_AS_NUMBER))
            }

            fn visit_i64<E: de::Error>(self, _: i64) -> Result<Self::Value, E> {
                Err(E::custom(ID_AS_NUMBER))
            }

            fn visit_f64<E: de::Error>(self, _: f64) -> Result<Self::Value, E> {
                Err(E::custom(ID_AS_NUMBER))
            }
        }

        deserializer.deserialize_any(IdVisitor)
    }
}

impl JsonSchema for TransactionIdArg {
    fn schema_name() -> Cow<'static, str> {
        "TransactionId".into()
    }

    fn inline_schema() -> bool {
        true
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({ "type": "string", "pattern": TRANSACTION_ID_PATTERN })
    }
}

/// A `YYYY-MM-DD` date argument, checked to be a real date.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct DateArg(pub(crate) LocalDate);

impl<'de> Deserialize<'de> for DateArg {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        LocalDate::parse(&text)
            .map(DateArg)
            .map_err(|e| de::Error::custom(sentence(e.message())))
    }
}

impl JsonSchema for DateArg {
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

/// A day or a whole month where a range end or an as-of date is taken:
/// `YYYY-MM-DD`, or `YYYY-MM` meaning its first day (a start) or its last (an end).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum DayOrMonthArg {
    /// A day.
    Day(LocalDate),
    /// A whole month.
    Month(YearMonth),
}

impl DayOrMonthArg {
    /// As the start of a range: a month's first day.
    pub(crate) fn first(self) -> LocalDate {
        match self {
            DayOrMonthArg::Day(d) => d,
            DayOrMonthArg::Month(m) => m.first_day(),
        }
    }

    /// As the end of a range or an as-of date: a month's last day.
    pub(crate) fn last(self) -> LocalDate {
        match self {
            DayOrMonthArg::Day(d) => d,
            DayOrMonthArg::Month(m) => m.last_day(),
        }
    }
}

impl<'de> Deserialize<'de> for DayOrMonthArg {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        let parsed = if text.trim().len() == 7 {
            YearMonth::parse(&text).map(DayOrMonthArg::Month)
        } else {
            LocalDate::parse(&text).map(DayOrMonthArg::Day)
        };
        parsed.map_err(|e| de::Error::custom(sentence(e.message())))
    }
}

impl JsonSchema for DayOrMonthArg {
    fn schema_name() -> Cow<'static, str> {
        "DayOrMonth".into()
    }

    fn inline_schema() -> bool {
        true
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({ "type": "string", "pattern": "^[0-9]{4}-[0-9]{2}(-[0-9]{2})?$" })
    }
}

/// A month argument: `YYYY-MM` (a full `YYYY-MM-DD` names its month).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct MonthArg(pub(crate) YearMonth);

impl<'de> Deserialize<'de> for MonthArg {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        YearMonth::parse(&text)
            .map(MonthArg)
            .map_err(|e| de::Error::custom(sentence(e.message())))
    }
}

impl JsonSchema for MonthArg {
    fn schema_name() -> Cow<'static, str> {
        "Month".into()
    }

    fn inline_schema() -> bool {
        true
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({ "type": "string", "pattern": "^[0-9]{4}-[0-9]{2}(-[0-9]{2})?$" })
    }
}

/// A month and only a month, `YYYY-MM`: a full date is refused, since a report "for
/// 2026-03-15" may mean a day or a month, and the month would answer silently.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct OnlyMonthArg(pub(crate) YearMonth);

impl<'de> Deserialize<'de> for OnlyMonthArg {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        let t = text.trim();
        if t.len() == 10
            && let Ok(day) = LocalDate::parse(t)
        {
            return Err(de::Error::custom(sentence(&format!(
                "{} is a date; the month is YYYY-MM: send \"{}\" for that month",
                quote(t),
                day.month()
            ))));
        }
        YearMonth::parse(t)
            .map(OnlyMonthArg)
            .map_err(|e| de::Error::custom(sentence(e.message())))
    }
}

impl JsonSchema for OnlyMonthArg {
    fn schema_name() -> Cow<'static, str> {
        "Month".into()
    }

    fn inline_schema() -> bool {
        true
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({ "type": "string", "pattern": "^[0-9]{4}-[0-9]{2}$" })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_month_refuses_a_full_date() {
        let read = |t: &str| serde_json::from_str::<OnlyMonthArg>(t).map_err(|e| e.to_string());
        assert_eq!(read("\"2026-03\"").unwrap().0.to_string(), "2026-03");
        let e = read("\"2026-03-15\"").unwrap_err();
        assert!(
            e.starts_with("\"2026-03-15\" is a date; the month is YYYY-MM: send \"2026-03\" for that month"),
            "{e}"
        );
    }

    #[test]
    fn a_month_is_its_first_day_as_a_start_and_its_last_as_an_end() {
        let parse = |t: &str| serde_json::from_str::<DayOrMonthArg>(t).map_err(|e| e.to_string());
        let feb = parse("\"2028-02\"").expect("a month");
        assert_eq!(
            (feb.first().to_string(), feb.last().to_string()),
            ("2028-02-01".into(), "2028-02-29".into())
        );
        let day = parse("\"2026-03-15\"").expect("a day");
        assert_eq!(
            (day.first().to_string(), day.last().to_string()),
            ("2026-03-15".into(), "2026-03-15".into())
        );
        assert!(parse("\"2026-13\"").is_err());
        assert!(parse("\"2026-02-30\"").is_err());
    }

    #[derive(Debug, Deserialize, PartialEq)]
    #[serde(deny_unknown_fields, rename_all = "camelCase")]
    struct Line {
        account: String,
        amount: AmountArg,
    }

    #[derive(Debug, Deserialize, PartialEq)]
    #[serde(deny_unknown_fields, rename_all = "camelCase")]
    struct Sample {
        amount: Option<AmountArg>,
        transaction_id: Option<TransactionIdArg>,
        date: Option<DateArg>,
        limit: Option<u32>,
        dry_run: Option<bool>,
        lines: Option<Vec<Line>>,
    }

    #[derive(Debug, Deserialize, PartialEq)]
    #[serde(deny_unknown_fields)]
    struct Empty {}

    #[derive(Debug, Deserialize, PartialEq, JsonSchema)]
    #[serde(deny_unknown_fields)]
    struct Named {
        from: NameArg,
        memo: Option<MemoArg>,
    }

    fn raw(text: &str) -> Box<RawValue> {
        RawValue::from_string(text.to_owned()).unwrap()
    }

    fn ok<T: DeserializeOwned + fmt::Debug>(text: &str) -> T {
        match parse::<T>(Some(&raw(text))) {
            Ok(value) => value,
            Err(e) => panic!("{text} did not parse: {e:?}"),
        }
    }

    fn err<T: DeserializeOwned + fmt::Debug>(text: &str) -> String {
        match parse::<T>(Some(&raw(text))) {
            Err(ToolError::Invalid(message)) => message,
            other => panic!("expected an Invalid error, got {other:?}"),
        }
    }

    fn amount(s: &Sample) -> String {
        s.amount.map(|a| a.0.to_string()).unwrap_or_default()
    }

    #[test]
    fn amounts_keep_their_exact_digits() {
        assert_eq!(amount(&ok(r#"{"amount": 12.50}"#)), "12.5");
        assert_eq!(amount(&ok(r#"{"amount": "0.1"}"#)), "0.1");
        // 2^53 + 1: an f64 would make it ...992.
        assert_eq!(amount(&ok(r#"{"amount": 9007199254740993}"#)), "9007199254740993");
        assert_eq!(
            amount(&ok(r#"{"amount": "9007199254740993"}"#)),
            "9007199254740993"
        );
        let s: Sample = ok(r#"{"lines": [{"account": "식비", "amount": 8000}]}"#);
        let lines = s.lines.unwrap_or_default();
        assert_eq!(lines.len(), 1);
        assert_eq!(lines[0].account, "식비");
        assert_eq!(lines[0].amount.0.to_string(), "8000");
    }

    #[test]
    fn a_bad_amount_is_named_by_its_path() {
        assert_eq!(
            err::<Sample>(r#"{"amount": "12,500"}"#),
            "Argument `amount`: \"12,500\" has thousands separators (\",\"); an amount is plain digits in the vault's currency, with \".\" for decimals: send \"12500\"."
        );
        assert_eq!(
            err::<Sample>(r#"{"lines": [{"account": "식비", "amount": true}]}"#),
            "Argument `lines[0].amount`: the amount must be a decimal string like \"12500\" or \"12.50\" (a JSON number is also accepted)."
        );
    }

    #[test]
    fn transaction_id_as_number_is_refused_with_the_reason() {
        let expected = format!("Argument `transactionId`: {ID_AS_NUMBER}");
        assert_eq!(
            err::<Sample>(r#"{"transactionId": 7263012345678901234}"#),
            expected
        );
        assert_eq!(err::<Sample>(r#"{"transactionId": 9007199254740993}"#), expected);
        assert_eq!(err::<Sample>(r#"{"transactionId": 1e19}"#), expected);
        assert_eq!(err::<Sample>(r#"{"transactionId": -5}"#), expected);
    }

    #[test]
    fn transaction_id_string_is_kept_exactly() {
        let s: Sample = ok(r#"{"transactionId": "9007199254740993"}"#);
        assert_eq!(s.transaction_id.map(|t| t.0.get()), Some(9_007_199_254_740_993));
        assert_eq!(
            err::<Sample>(r#"{"transactionId": "0123"}"#),
            "Argument `transactionId`: \"0123\" is not a transaction id: ids have no leading zeros."
        );
    }

    #[test]
    fn dates_must_be_real() {
        let s: Sample = ok(r#"{"date": "2026-02-28"}"#);
        assert_eq!(s.date.map(|d| d.0.to_string()), Some("2026-02-28".to_owned()));
        assert_eq!(
            err::<Sample>(r#"{"date": "2026-02-30"}"#),
            "Argument `date`: 2026-02-30 is not a real calendar date."
        );
        assert_eq!(
            err::<Sample>(r#"{"date": "2026/02/01"}"#),
            "Argument `date`: \"2026/02/01\" is not a date; write it as YYYY-MM-DD, like \"2026-03-01\"."
        );
    }

    #[test]
    fn unknown_arguments_are_named_with_the_accepted_ones() {
        assert_eq!(
            err::<Sample>(r#"{"amout": "1"}"#),
            "Unknown argument `amout`. The accepted arguments are `amount`, `transactionId`, `date`, `limit`, `dryRun`, `lines`; check the spelling against the input schema."
        );
        assert_eq!(
            err::<Sample>(r#"{"lines": [{"account": "a", "amount": "1", "memo": "x"}]}"#),
            "Unknown argument `memo` in `lines[0]`. The accepted arguments are `account` or `amount`; check the spelling against the input schema."
        );
        assert_eq!(
            err::<Empty>(r#"{"vault": "우리집"}"#),
            "Unknown argument `vault`. This tool takes no arguments."
        );
    }

    #[test]
    fn missing_and_mistyped_arguments_are_named() {
        assert_eq!(
            err::<Line>(r#"{"account": "식비"}"#),
            "Missing required argument `amount`."
        );
        assert_eq!(
            err::<Sample>(r#"{"lines": [{"amount": "1"}]}"#),
            "Missing `account` in `lines[0]`."
        );
        assert_eq!(
            err::<Sample>(r#"{"limit": "5"}"#),
            "Argument `limit` has the wrong type: it is string \"5\", but it must be a whole number, 0 or more."
        );
        assert_eq!(
            err::<Sample>(r#"{"dryRun": "yes"}"#),
            "Argument `dryRun` has the wrong type: it is string \"yes\", but it must be a boolean."
        );
        assert_eq!(
            err::<Sample>(r#"{"limit": -1}"#),
            "Argument `limit` has an invalid value: it is integer `-1`, but it must be a whole number, 0 or more."
        );
        assert_eq!(
            err::<Sample>("[1]"),
            "The arguments must be a JSON object of named arguments, e.g. {\"vault\": \"우리집\"}."
        );
    }

    #[test]
    fn over_long_strings_are_refused_by_length_without_echoing_them() {
        let huge = "가".repeat(1_000_000);
        assert_eq!(
            err::<Named>(&format!(r#"{{"from": "{huge}"}}"#)),
            "Argument `from`: it is 1000000 characters long; the limit is 64."
        );
        assert_eq!(
            err::<Named>(&format!(r#"{{"from": "식비", "memo": "{}"}}"#, "x".repeat(501))),
            "Argument `memo`: it is 501 characters long; the limit is 500."
        );
        let at_limit: Named = ok(&format!(r#"{{"from": "{}"}}"#, "가".repeat(64)));
        assert_eq!(at_limit.from.chars().count(), 64);
        assert_eq!(at_limit.memo, None);
    }

    #[test]
    fn bounded_strings_publish_max_length() {
        let schema = crate::schema::input_schema::<Named>();
        assert_eq!(
            schema["properties"]["from"],
            serde_json::json!({ "type": "string", "maxLength": 64 })
        );
        assert_eq!(
            schema["properties"]["memo"],
            serde_json::json!({ "type": "string", "maxLength": 500 })
        );
    }

    #[test]
    fn absent_or_null_arguments_mean_none() {
        assert_eq!(parse::<Empty>(None).ok(), Some(Empty {}));
        assert_eq!(parse::<Empty>(Some(&raw("null"))).ok(), Some(Empty {}));
        let s: Sample = ok("{}");
        assert_eq!(s.limit, None);
    }
}
