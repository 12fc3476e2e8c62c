//! Dates in a vault's time zone, months, and the injected clock.
//!
//! A Lambda's clock is UTC; "today" is computed in the vault's IANA zone
//! (bundled tzdb via `jiff`), because a model does not know the date.

use dochiya_quote::quote;
use std::fmt;
use std::sync::Mutex;

use jiff::Timestamp;
use jiff::civil::Date;
use jiff::tz::TimeZone;

use super::ParseError;

/// Earliest year a ledger date may have.
const MIN_YEAR: i16 = 1900;
/// Latest year a ledger date may have.
const MAX_YEAR: i16 = 2999;

/// A calendar date (`YYYY-MM-DD`) in a vault's time zone.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct LocalDate(Date);

impl LocalDate {
    /// Parse exactly `YYYY-MM-DD` naming a real date (years 1900–2999).
    pub fn parse(text: &str) -> Result<LocalDate, ParseError> {
        let t = text.trim();
        let b = t.as_bytes();
        let shape_ok = b.len() == 10
            && b[4] == b'-'
            && b[7] == b'-'
            && b.iter()
                .enumerate()
                .all(|(i, c)| i == 4 || i == 7 || c.is_ascii_digit());
        if !shape_ok {
            return Err(ParseError::new(format!(
                "{t} is not a date; write it as YYYY-MM-DD, like \"2026-03-01\"",
                t = quote(t)
            )));
        }
        let num = |s: &str| s.parse::<i16>().unwrap_or(0);
        let (y, m, d) = (num(&t[0..4]), num(&t[5..7]), num(&t[8..10]));
        LocalDate::from_ymd(y, m, d)
            .ok_or_else(|| ParseError::new(format!("{t} is not a real calendar date")))
    }

    /// A date from its parts, if it exists and is in range.
    pub fn from_ymd(year: i16, month: i16, day: i16) -> Option<LocalDate> {
        if !(MIN_YEAR..=MAX_YEAR).contains(&year) {
            return None;
        }
        let month = i8::try_from(month).ok()?;
        let day = i8::try_from(day).ok()?;
        Date::new(year, month, day).ok().map(LocalDate)
    }

    /// The month it falls in.
    pub fn month(self) -> YearMonth {
        YearMonth {
            year: self.0.year(),
            month: self.0.month(),
        }
    }

    /// Day of the month (1–31).
    pub fn day(self) -> i8 {
        self.0.day()
    }

    /// The first day of its month.
    pub fn first_of_month(self) -> LocalDate {
        LocalDate(self.0.first_of_month())
    }

    /// The last day of its month.
    pub fn last_of_month(self) -> LocalDate {
        LocalDate(self.0.last_of_month())
    }

    /// The day after (the last representable date stays itself).
    pub fn next_day(self) -> LocalDate {
        LocalDate(self.0.tomorrow().unwrap_or(self.0))
    }

    /// The day before (the first representable date stays itself).
    pub fn prev_day(self) -> LocalDate {
        LocalDate(self.0.yesterday().unwrap_or(self.0))
    }

    /// Days from `earlier` to this date (negative when `earlier` is later).
    pub fn days_since(self, earlier: LocalDate) -> i64 {
        let (a, b) = (self.as_jiff(), earlier.as_jiff());
        i64::from(a.since(b).map_or(0, |span| span.get_days()))
    }

    /// The underlying `jiff` date.
    pub fn as_jiff(self) -> Date {
        self.0
    }
}

impl fmt::Display for LocalDate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:04}-{:02}-{:02}",
            self.0.year(),
            self.0.month(),
            self.0.day()
        )
    }
}

/// A calendar month (`YYYY-MM`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct YearMonth {
    year: i16,
    month: i8,
}

impl YearMonth {
    /// Parse `YYYY-MM`, or a full `YYYY-MM-DD` (its month is taken).
    pub fn parse(text: &str) -> Result<YearMonth, ParseError> {
        let t = text.trim();
        if t.len() == 10 {
            return LocalDate::parse(t).map(LocalDate::month);
        }
        let full = format!("{t}-01");
        LocalDate::parse(&full).map(LocalDate::month).map_err(|_| {
            ParseError::new(format!(
                "{t} is not a month; write it as YYYY-MM, like \"2026-03\"",
                t = quote(t)
            ))
        })
    }

    /// Year.
    pub fn year(self) -> i16 {
        self.year
    }

    /// Month number (1–12).
    pub fn month(self) -> i8 {
        self.month
    }

    /// Its first day.
    pub fn first_day(self) -> LocalDate {
        // Always valid: year and month came from a valid date.
        LocalDate(Date::new(self.year, self.month, 1).unwrap_or(Date::MIN))
    }

    /// Its last day.
    pub fn last_day(self) -> LocalDate {
        self.first_day().last_of_month()
    }

    /// The following month.
    pub fn next(self) -> YearMonth {
        if self.month == 12 {
            YearMonth {
                year: self.year + 1,
                month: 1,
            }
        } else {
            YearMonth {
                year: self.year,
                month: self.month + 1,
            }
        }
    }

    /// The preceding month.
    pub fn prev(self) -> YearMonth {
        if self.month == 1 {
            YearMonth {
                year: self.year - 1,
                month: 12,
            }
        } else {
            YearMonth {
                year: self.year,
                month: self.month - 1,
            }
        }
    }

    /// Months from `self` to `other`, both included (empty when `other` is earlier).
    pub fn through(self, other: YearMonth) -> Vec<YearMonth> {
        let mut out = Vec::new();
        let mut m = self;
        while m <= other {
            out.push(m);
            m = m.next();
        }
        out
    }
}

impl fmt::Display for YearMonth {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:04}-{:02}", self.year, self.month)
    }
}

/// A vault's IANA time zone.
#[derive(Debug, Clone, PartialEq)]
pub struct VaultZone {
    name: String,
    tz: TimeZone,
}

impl VaultZone {
    /// Look up an IANA zone name in the bundled database (e.g. `Asia/Seoul`).
    pub fn parse(name: &str) -> Result<VaultZone, ParseError> {
        let name = name.trim();
        if name.is_empty() || name.len() > 64 {
            return Err(ParseError::new(
                "the time zone must be an IANA name like \"Asia/Seoul\"",
            ));
        }
        let tz = TimeZone::get(name).map_err(|_| {
            ParseError::new(format!(
                "{} is not a known IANA time zone; use a name like \"Asia/Seoul\" or \"America/New_York\"",
                quote(name)
            ))
        })?;
        let canonical = tz.iana_name().unwrap_or(name).to_string();
        Ok(VaultZone { name: canonical, tz })
    }

    /// The default zone, `Asia/Seoul`.
    pub fn seoul() -> VaultZone {
        VaultZone::parse("Asia/Seoul").unwrap_or_else(|_| VaultZone {
            name: "UTC".into(),
            tz: TimeZone::UTC,
        })
    }

    /// UTC (the scheduled run's calendar).
    pub fn utc() -> VaultZone {
        VaultZone {
            name: "UTC".into(),
            tz: TimeZone::UTC,
        }
    }

    /// The IANA name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The calendar date at an instant in this zone.
    pub fn date_at(&self, at: Timestamp) -> LocalDate {
        LocalDate(at.to_zoned_datetime(self.tz.clone()).date())
    }
}

/// The current instant, injected so that "today" and id times are testable.
pub trait Clock: Send + Sync + 'static {
    /// Now.
    fn now(&self) -> Timestamp;
}

/// The system clock.
#[derive(Debug, Default, Clone, Copy)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> Timestamp {
        Timestamp::now()
    }
}

/// A clock that stands still until moved (tests).
#[derive(Debug)]
pub struct ManualClock(Mutex<Timestamp>);

impl ManualClock {
    /// Starts at the given Unix second.
    pub fn at_unix_seconds(seconds: i64) -> ManualClock {
        ManualClock(Mutex::new(
            Timestamp::from_second(seconds).unwrap_or(Timestamp::UNIX_EPOCH),
        ))
    }

    /// Move forward (or back) by seconds.
    pub fn advance_seconds(&self, seconds: i64) {
        let mut t = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let next = t.as_second().saturating_add(seconds);
        *t = Timestamp::from_second(next).unwrap_or(*t);
    }
}

impl Clock for ManualClock {
    fn now(&self) -> Timestamp {
        *self.0.lock().unwrap_or_else(|e| e.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_parse_strictly() {
        assert_eq!(LocalDate::parse("2026-03-01").unwrap().to_string(), "2026-03-01");
        assert_eq!(
            LocalDate::parse("2026-02-30").unwrap_err().to_string(),
            "2026-02-30 is not a real calendar date"
        );
        assert!(LocalDate::parse("2024-02-29").is_ok());
        for bad in [
            "2026-3-1",
            "2026/03/01",
            "20260301",
            "2026-03-01T00:00",
            "1899-12-31",
            "3000-01-01",
        ] {
            assert!(LocalDate::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn months_walk_across_years() {
        let m = YearMonth::parse("2025-12").unwrap();
        assert_eq!(m.next().to_string(), "2026-01");
        assert_eq!(m.next().prev(), m);
        assert_eq!(YearMonth::parse("2026-02-17").unwrap().to_string(), "2026-02");
        assert_eq!(m.through(YearMonth::parse("2026-02").unwrap()).len(), 3);
        assert_eq!(
            YearMonth::parse("2024-02").unwrap().last_day().to_string(),
            "2024-02-29"
        );
        assert!(YearMonth::parse("2026-13").is_err());
    }

    #[test]
    fn today_depends_on_the_vault_zone() {
        // 2026-03-01T16:30:00Z is already 03-02 in Seoul but still 03-01 in New York.
        let at = Timestamp::from_second(1_772_382_600).unwrap();
        assert_eq!(VaultZone::seoul().date_at(at).to_string(), "2026-03-02");
        assert_eq!(
            VaultZone::parse("America/New_York")
                .unwrap()
                .date_at(at)
                .to_string(),
            "2026-03-01"
        );
        assert!(VaultZone::parse("Mars/Base").is_err());
    }
}
