//! Exact money: decimal input read from its text, integer minor units inside.
//!
//! Amounts travel as decimal strings in the currency's major unit (docs/design.md §5).
//! Input is parsed into a [`Decimal`] without knowing the currency (tools read it
//! from the exact JSON text), and only becomes [`Money`] once the vault's currency
//! is known: more decimals than the currency has are refused, never rounded.

use dochiya_quote::quote;
use std::fmt;

use super::ParseError;

/// The largest absolute amount of one input, in minor units (just under 10^16).
///
/// Above 2^53 on purpose, so exact parsing of large values is observable, yet
/// hundreds of maximal amounts still sum inside `i64` (and checked sums report the rest).
pub const MAX_AMOUNT_MINOR: i64 = 9_999_999_999_999_999;

/// An ISO 4217 currency and the number of decimals of its minor unit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Currency {
    code: &'static str,
    exponent: u8,
}

/// Currencies we accept, with their ISO 4217 minor-unit exponents.
const CURRENCIES: &[(&str, u8)] = &[
    ("KRW", 0),
    ("JPY", 0),
    ("USD", 2),
    ("EUR", 2),
    ("GBP", 2),
    ("CNY", 2),
    ("HKD", 2),
    ("TWD", 2),
    ("SGD", 2),
    ("AUD", 2),
    ("NZD", 2),
    ("CAD", 2),
    ("CHF", 2),
    ("SEK", 2),
    ("NOK", 2),
    ("DKK", 2),
    ("THB", 2),
    ("PHP", 2),
    ("MYR", 2),
    ("IDR", 2),
    ("INR", 2),
    ("MXN", 2),
    ("BRL", 2),
    ("VND", 0),
    ("CLP", 0),
    ("ISK", 0),
    ("BHD", 3),
    ("KWD", 3),
    ("JOD", 3),
    ("OMR", 3),
];

impl Currency {
    /// Korean won (no minor unit).
    pub const KRW: Currency = Currency {
        code: "KRW",
        exponent: 0,
    };
    /// Japanese yen (no minor unit).
    pub const JPY: Currency = Currency {
        code: "JPY",
        exponent: 0,
    };
    /// US dollar (cents).
    pub const USD: Currency = Currency {
        code: "USD",
        exponent: 2,
    };
    /// Euro (cents).
    pub const EUR: Currency = Currency {
        code: "EUR",
        exponent: 2,
    };

    /// Parse an ISO 4217 code (letters in any case).
    pub fn parse(text: &str) -> Result<Currency, ParseError> {
        let upper = text.trim().to_ascii_uppercase();
        CURRENCIES
            .iter()
            .find(|(code, _)| *code == upper)
            .map(|&(code, exponent)| Currency { code, exponent })
            .ok_or_else(|| {
                ParseError::new(format!(
                    "{} is not a supported ISO 4217 currency code; use one of {}",
                    quote(text.trim()),
                    CURRENCIES.iter().map(|(c, _)| *c).collect::<Vec<_>>().join(", ")
                ))
            })
    }

    /// The three-letter code, e.g. `KRW`.
    pub fn code(self) -> &'static str {
        self.code
    }

    /// Decimals of the minor unit (KRW 0, USD 2, KWD 3).
    pub fn exponent(self) -> u8 {
        self.exponent
    }

    /// Every supported currency code.
    pub fn supported() -> impl Iterator<Item = &'static str> {
        CURRENCIES.iter().map(|(c, _)| *c)
    }
}

impl fmt::Display for Currency {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code)
    }
}

/// An exact decimal number as written by the caller, before a currency is known.
///
/// Kept as an integer mantissa and a count of fractional digits; trailing
/// fractional zeros are dropped at parse time (`"12500.00"` is exactly `12500`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Decimal {
    mantissa: i128,
    scale: u32,
}

/// Most digits a decimal may carry: far beyond any amount, short of `i128` limits.
const MAX_DIGITS: usize = 30;

impl Decimal {
    // `Decimal::parse`, the parse every amount people send goes through, is in
    // amount_text.rs: it is `parse_plain` plus the explanation of a refusal.

    /// Parse text that must already be a plain decimal (trimmed, not empty).
    pub(super) fn parse_plain(t: &str) -> Result<Decimal, ParseError> {
        if t.contains(',') || t.contains('_') || t.contains(' ') || t.contains('\'') {
            return Err(ParseError::new(format!(
                "{t} has digit separators; write the plain number without commas or spaces, like \"12500\" (a decimal point is written \".\")",
                t = quote(t)
            )));
        }
        if t.contains(['e', 'E']) {
            return Err(ParseError::new(format!(
                "{t} uses exponent notation; write the plain decimal number instead (for example \"1000\", not \"1e3\")",
                t = quote(t)
            )));
        }
        let (negative, body) = match t.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, t),
        };
        let (int_part, frac_part) = match body.split_once('.') {
            Some((i, f)) => (i, Some(f)),
            None => (body, None),
        };
        let digits_only = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
        if !digits_only(int_part) || frac_part.is_some_and(|f| !digits_only(f)) {
            return Err(ParseError::new(format!(
                "{t} is not a plain decimal number; write digits with an optional \"-\" and \".\", like \"12500\" or \"-12.50\"",
                t = quote(t)
            )));
        }
        let frac = frac_part.unwrap_or("").trim_end_matches('0');
        let int = int_part.trim_start_matches('0');
        if int.len() + frac.len() > MAX_DIGITS {
            return Err(ParseError::new(format!(
                "{t} has too many digits to be an amount",
                t = quote(t)
            )));
        }
        let mut mantissa: i128 = 0;
        for b in int.bytes().chain(frac.bytes()) {
            // Cannot overflow: at most 30 digits.
            mantissa = mantissa * 10 + i128::from(b - b'0');
        }
        if negative {
            mantissa = -mantissa;
        }
        // The scale fits: frac.len() <= MAX_DIGITS.
        let scale = u32::try_from(frac.len()).unwrap_or(u32::MAX);
        Ok(Decimal { mantissa, scale })
    }

    /// Parse the exact JSON text of an argument: a JSON string holding a decimal,
    /// or a JSON number read from its digits (never through `f64`).
    pub fn from_json_text(raw: &str) -> Result<Decimal, ParseError> {
        let raw = raw.trim();
        if raw.starts_with('"') {
            let s: String = serde_json::from_str(raw)
                .map_err(|_| ParseError::new("the amount is not a valid JSON string"))?;
            return Decimal::parse(&s);
        }
        if raw.starts_with(|c: char| c == '-' || c.is_ascii_digit()) {
            return Decimal::parse(raw);
        }
        Err(ParseError::new(
            "the amount must be a decimal string like \"12500\" or \"12.50\" (a JSON number is also accepted)",
        ))
    }

    /// The integer mantissa and the count of fractional digits.
    pub(super) fn parts(self) -> (i128, u32) {
        (self.mantissa, self.scale)
    }

    /// `mantissa / 10^scale`, trailing fractional zeros dropped.
    pub(super) fn from_parts(mut mantissa: i128, mut scale: u32) -> Decimal {
        while scale > 0 && mantissa % 10 == 0 {
            mantissa /= 10;
            scale -= 1;
        }
        Decimal { mantissa, scale }
    }

    /// Whether the value is zero (`"-0"` included).
    pub fn is_zero(self) -> bool {
        self.mantissa == 0
    }

    /// Whether the value is below zero.
    pub fn is_negative(self) -> bool {
        self.mantissa < 0
    }

    /// Digits after the decimal point once trailing zeros are dropped.
    pub fn scale(self) -> u32 {
        self.scale
    }
}

impl fmt::Display for Decimal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_scaled(f, self.mantissa, self.scale)
    }
}

/// Write `mantissa / 10^scale` as a plain decimal.
fn write_scaled(f: &mut fmt::Formatter<'_>, mantissa: i128, scale: u32) -> fmt::Result {
    let digits = mantissa.unsigned_abs().to_string();
    let sign = if mantissa < 0 { "-" } else { "" };
    let scale = scale as usize;
    if scale == 0 {
        return write!(f, "{sign}{digits}");
    }
    let padded = if digits.len() <= scale {
        format!("{}{digits}", "0".repeat(scale + 1 - digits.len()))
    } else {
        digits
    };
    let (int, frac) = padded.split_at(padded.len() - scale);
    write!(f, "{sign}{int}.{frac}")
}

/// An exact amount of one currency: a signed count of minor units.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Money {
    minor: i64,
    currency: Currency,
}

impl Money {
    /// An amount from minor units (won, cents).
    pub fn from_minor(minor: i64, currency: Currency) -> Money {
        Money { minor, currency }
    }

    /// Zero of a currency.
    pub fn zero(currency: Currency) -> Money {
        Money { minor: 0, currency }
    }

    /// Convert a decimal to this currency: refused when it has more decimals than
    /// the currency (never rounded) or when its size exceeds [`MAX_AMOUNT_MINOR`].
    pub fn from_decimal(value: Decimal, currency: Currency) -> Result<Money, ParseError> {
        let exp = u32::from(currency.exponent);
        if value.scale > exp {
            let allowed = match exp {
                0 => format!(
                    "{} has no minor unit, so amounts are whole numbers",
                    currency.code
                ),
                1 => format!("{} allows at most 1 decimal", currency.code),
                n => format!("{} allows at most {n} decimals", currency.code),
            };
            return Err(ParseError::new(format!(
                "{value} has more decimals than the currency allows: {allowed}; amounts are never rounded, so send the exact amount"
            )));
        }
        let factor = 10_i128.pow(exp - value.scale);
        let minor = value
            .mantissa
            .checked_mul(factor)
            .filter(|m| m.unsigned_abs() <= MAX_AMOUNT_MINOR.unsigned_abs() as u128)
            .and_then(|m| i64::try_from(m).ok())
            .ok_or_else(|| {
                ParseError::new(format!(
                    "{value} is out of range: an amount may be at most {} {}",
                    Money::from_minor(MAX_AMOUNT_MINOR, currency),
                    currency.code
                ))
            })?;
        Ok(Money { minor, currency })
    }

    /// Signed count of minor units.
    pub fn minor(self) -> i64 {
        self.minor
    }

    /// The currency.
    pub fn currency(self) -> Currency {
        self.currency
    }

    /// Whether it is zero.
    pub fn is_zero(self) -> bool {
        self.minor == 0
    }

    /// Whether it is below zero.
    pub fn is_negative(self) -> bool {
        self.minor < 0
    }

    /// Sum, or `None` on overflow or a currency mismatch.
    pub fn checked_add(self, other: Money) -> Option<Money> {
        (self.currency == other.currency)
            .then(|| self.minor.checked_add(other.minor))
            .flatten()
            .map(|minor| Money {
                minor,
                currency: self.currency,
            })
    }

    /// Difference, or `None` on overflow or a currency mismatch.
    pub fn checked_sub(self, other: Money) -> Option<Money> {
        (self.currency == other.currency)
            .then(|| self.minor.checked_sub(other.minor))
            .flatten()
            .map(|minor| Money {
                minor,
                currency: self.currency,
            })
    }

    /// Negation, or `None` on overflow.
    pub fn checked_neg(self) -> Option<Money> {
        self.minor.checked_neg().map(|minor| Money {
            minor,
            currency: self.currency,
        })
    }

    /// The decimal string in the major unit, e.g. `"12500"`, `"12.50"`, `"-0.05"`.
    pub fn to_decimal_string(self) -> String {
        self.to_string()
    }
}

impl fmt::Display for Money {
    /// The amount in major units, without the currency code.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_scaled(f, i128::from(self.minor), u32::from(self.currency.exponent))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn money(text: &str, c: Currency) -> Result<Money, String> {
        Decimal::parse(text)
            .and_then(|d| Money::from_decimal(d, c))
            .map_err(|e| e.to_string())
    }

    #[test]
    fn krw_whole_won_round_trips() {
        let m = money("12500", Currency::KRW).unwrap();
        assert_eq!(m.minor(), 12500);
        assert_eq!(m.to_string(), "12500");
    }

    #[test]
    fn usd_cents_render_with_two_decimals() {
        assert_eq!(money("12.50", Currency::USD).unwrap().minor(), 1250);
        assert_eq!(money("12.5", Currency::USD).unwrap().to_string(), "12.50");
        assert_eq!(money("0.05", Currency::USD).unwrap().to_string(), "0.05");
        assert_eq!(money("-0.05", Currency::USD).unwrap().to_string(), "-0.05");
        assert_eq!(money("7", Currency::USD).unwrap().to_string(), "7.00");
        assert_eq!(Money::from_minor(-1250, Currency::USD).to_string(), "-12.50");
    }

    #[test]
    fn jpy_refuses_decimals() {
        assert_eq!(money("980", Currency::JPY).unwrap().to_string(), "980");
        let err = money("980.5", Currency::JPY).unwrap_err();
        assert!(err.contains("JPY has no minor unit"), "{err}");
    }

    #[test]
    fn excess_decimals_are_refused_not_rounded() {
        let err = money("0.1", Currency::KRW).unwrap_err();
        assert_eq!(
            err,
            "0.1 has more decimals than the currency allows: KRW has no minor unit, so amounts are whole numbers; amounts are never rounded, so send the exact amount"
        );
        assert!(
            money("12.345", Currency::USD)
                .unwrap_err()
                .contains("USD allows at most 2 decimals")
        );
        assert_eq!(money("0.1", Currency::USD).unwrap().minor(), 10);
    }

    #[test]
    fn trailing_zero_decimals_are_exact_and_accepted() {
        assert_eq!(money("12500.00", Currency::KRW).unwrap().minor(), 12500);
        assert_eq!(money("1.230", Currency::USD).unwrap().minor(), 123);
    }

    #[test]
    fn thousands_separators_are_refused() {
        let err = Decimal::parse("12,500").unwrap_err().to_string();
        assert_eq!(
            err,
            "\"12,500\" has thousands separators (\",\"); an amount is plain digits in the vault's currency, with \".\" for decimals: send \"12500\""
        );
        assert!(Decimal::parse("12 500").is_err());
        assert!(Decimal::parse("12_500").is_err());
    }

    #[test]
    fn exponent_notation_is_refused() {
        let err = Decimal::parse("1e3").unwrap_err().to_string();
        assert!(err.contains("exponent notation"), "{err}");
        assert!(Decimal::from_json_text("1E3").is_err());
    }

    #[test]
    fn negative_zero_is_zero_and_renders_without_sign() {
        let d = Decimal::parse("-0").unwrap();
        assert!(d.is_zero());
        assert!(!d.is_negative());
        assert_eq!(d.to_string(), "0");
        assert_eq!(money("-0.00", Currency::USD).unwrap().to_string(), "0.00");
    }

    #[test]
    fn two_pow_53_plus_one_stays_exact() {
        // 9007199254740993 is the first integer an f64 cannot hold.
        let d = Decimal::from_json_text("9007199254740993").unwrap();
        assert_eq!(d.to_string(), "9007199254740993");
        let m = Money::from_decimal(d, Currency::KRW).unwrap();
        assert_eq!(m.minor(), 9_007_199_254_740_993);
        assert_eq!(m.to_string(), "9007199254740993");
        let cents = money("90071992547409.93", Currency::USD).unwrap();
        assert_eq!(cents.minor(), 9_007_199_254_740_993);
    }

    #[test]
    fn out_of_range_is_refused() {
        let err = money("10000000000000000", Currency::KRW).unwrap_err();
        assert_eq!(
            err,
            "10000000000000000 is out of range: an amount may be at most 9999999999999999 KRW"
        );
        assert!(Decimal::parse("1234567890123456789012345678901").is_err());
    }

    #[test]
    fn json_text_string_and_number_read_the_same() {
        assert_eq!(
            Decimal::from_json_text("\"12.50\"").unwrap(),
            Decimal::from_json_text("12.5").unwrap()
        );
        assert_eq!(
            Decimal::from_json_text("12500").unwrap(),
            Decimal::parse("12500").unwrap()
        );
        assert!(Decimal::from_json_text("true").is_err());
        assert!(Decimal::from_json_text("null").is_err());
    }

    #[test]
    fn malformed_decimals_are_refused() {
        for bad in ["", "+5", ".5", "5.", "1.2.3", "abc", "--1", "0x10", "١٢"] {
            assert!(Decimal::parse(bad).is_err(), "{bad:?} should be refused");
        }
    }

    #[test]
    fn checked_arithmetic_reports_overflow_and_mismatch() {
        let max = Money::from_minor(i64::MAX, Currency::KRW);
        assert_eq!(max.checked_add(Money::from_minor(1, Currency::KRW)), None);
        assert_eq!(
            Money::from_minor(1, Currency::KRW).checked_add(Money::from_minor(1, Currency::USD)),
            None
        );
        assert_eq!(Money::from_minor(i64::MIN, Currency::KRW).checked_neg(), None);
        assert_eq!(
            Money::from_minor(5, Currency::KRW).checked_sub(Money::from_minor(7, Currency::KRW)),
            Some(Money::from_minor(-2, Currency::KRW))
        );
    }

    #[test]
    fn currency_codes_parse_in_any_case() {
        assert_eq!(Currency::parse("krw").unwrap(), Currency::KRW);
        assert_eq!(Currency::parse("KWD").unwrap().exponent(), 3);
        assert!(
            Currency::parse("XYZ")
                .unwrap_err()
                .to_string()
                .starts_with("\"XYZ\" is not a supported")
        );
    }
}
