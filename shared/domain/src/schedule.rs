//! Recurring schedules as dates: which days a fixed cost (월세, 관리비, 통신비) falls on.
//!
//! Pure calendar rules, no storage: a day of the month (a day the month lacks means
//! its last day), every month or every year (in the start's month), from a start
//! date to an optional end, both included. "Due" is decided by the caller with the
//! vault's own `today` ([`super::VaultZone::date_at`]).

use dochiya_quote::quote;
use std::fmt;

use super::{LocalDate, ParseError, YearMonth};

/// Latest day a schedule may name; a month without it uses its last day.
pub const MAX_DAY: i64 = 31;

/// How often a schedule falls due.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Every {
    /// Each month on its day.
    Month,
    /// Each year on its day of the start's month.
    Year,
}

impl Every {
    /// Parse `month` or `year`.
    pub fn parse(text: &str) -> Result<Every, ParseError> {
        match text.trim() {
            "month" => Ok(Every::Month),
            "year" => Ok(Every::Year),
            other => Err(ParseError::new(format!(
                "{} is not a period; send \"month\" or \"year\"",
                quote(other)
            ))),
        }
    }

    /// `month` or `year`.
    pub fn as_str(self) -> &'static str {
        match self {
            Every::Month => "month",
            Every::Year => "year",
        }
    }
}

impl fmt::Display for Every {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Why a schedule's dates are refused, by the argument at fault (worded by the tools).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ScheduleError {
    /// `day` outside 1–31: the day sent.
    Day(i64),
    /// `end` before `start`.
    End {
        /// The start.
        start: LocalDate,
        /// The end sent.
        end: LocalDate,
    },
}

/// When a recurring entry falls due: valid by construction.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Schedule {
    day: i8,
    every: Every,
    start: LocalDate,
    end: Option<LocalDate>,
}

impl Schedule {
    /// A schedule on `day` (1–31; `None`: the month's last day), from `start` to `end`.
    pub fn new(
        day: Option<i64>,
        every: Every,
        start: LocalDate,
        end: Option<LocalDate>,
    ) -> Result<Schedule, ScheduleError> {
        let day = day.unwrap_or(MAX_DAY);
        let Some(day) = i8::try_from(day).ok().filter(|d| (1..=31).contains(d)) else {
            return Err(ScheduleError::Day(day));
        };
        if let Some(end) = end
            && end < start
        {
            return Err(ScheduleError::End { start, end });
        }
        Ok(Schedule {
            day,
            every,
            start,
            end,
        })
    }

    /// The day of the month it names (31: the last day).
    pub fn day(&self) -> i8 {
        self.day
    }

    /// How often.
    pub fn every(&self) -> Every {
        self.every
    }

    /// First possible date.
    pub fn start(&self) -> LocalDate {
        self.start
    }

    /// Last possible date, if any.
    pub fn end(&self) -> Option<LocalDate> {
        self.end
    }

    /// The same dates rule from another start (a change applies from its next occurrence).
    pub fn starting(self, start: LocalDate) -> Schedule {
        Schedule { start, ..self }
    }

    /// Its date in month `m`: its day, or the month's last day when the month is shorter.
    fn in_month(&self, m: YearMonth) -> LocalDate {
        let last = m.last_day();
        LocalDate::from_ymd(
            m.year(),
            i16::from(m.month()),
            i16::from(self.day.min(last.day())),
        )
        .unwrap_or(last)
    }

    /// The first occurrence on or after `from`, if it is within the schedule.
    pub fn next_on_or_after(&self, from: LocalDate) -> Option<LocalDate> {
        let from = from.max(self.start);
        let mut m = from.month();
        if self.every == Every::Year {
            m = self.start.month();
            while m.year() < from.month().year() {
                m = year_later(m)?;
            }
        }
        // At most two steps: this period's date may already have passed.
        for _ in 0..3 {
            let d = self.in_month(m);
            if d >= from {
                return self.end.is_none_or(|e| d <= e).then_some(d);
            }
            m = match self.every {
                Every::Month => m.next(),
                Every::Year => year_later(m)?,
            };
        }
        None
    }

    /// Every occurrence after `after` (exclusive; `None`: from the start) through
    /// `through` (inclusive), oldest first, at most `limit` of them.
    pub fn between(&self, after: Option<LocalDate>, through: LocalDate, limit: usize) -> Vec<LocalDate> {
        let mut out = Vec::new();
        let mut from = after.map_or(self.start, LocalDate::next_day);
        while out.len() < limit {
            match self.next_on_or_after(from) {
                Some(d) if d <= through => {
                    out.push(d);
                    if d.next_day() == d {
                        break;
                    }
                    from = d.next_day();
                }
                _ => break,
            }
        }
        out
    }
}

/// The same month a year later (`None` past the last representable year).
fn year_later(m: YearMonth) -> Option<YearMonth> {
    LocalDate::from_ymd(m.year().checked_add(1)?, i16::from(m.month()), 1).map(LocalDate::month)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(t: &str) -> LocalDate {
        LocalDate::parse(t).unwrap()
    }

    fn dates(v: Vec<LocalDate>) -> Vec<String> {
        v.into_iter().map(|d| d.to_string()).collect()
    }

    #[test]
    fn day_31_is_the_last_day_of_february_and_april() {
        let s = Schedule::new(Some(31), Every::Month, d("2026-01-15"), None).unwrap();
        assert_eq!(
            dates(s.between(None, d("2026-05-31"), 12)),
            [
                "2026-01-31",
                "2026-02-28",
                "2026-03-31",
                "2026-04-30",
                "2026-05-31"
            ]
        );
        // A leap year's February has its 29th; day 30 also clamps there.
        let s = Schedule::new(Some(30), Every::Month, d("2028-02-01"), None).unwrap();
        assert_eq!(
            s.next_on_or_after(d("2028-02-01")).unwrap().to_string(),
            "2028-02-29"
        );
        // Leaving the day out means the month's last day.
        let s = Schedule::new(None, Every::Month, d("2026-04-01"), None).unwrap();
        assert_eq!(s.day(), 31);
        assert_eq!(
            s.next_on_or_after(d("2026-04-01")).unwrap().to_string(),
            "2026-04-30"
        );
    }

    #[test]
    fn start_and_end_bound_the_dates_both_included() {
        let s = Schedule::new(Some(25), Every::Month, d("2026-01-25"), Some(d("2026-04-25"))).unwrap();
        assert_eq!(
            dates(s.between(None, d("2026-12-31"), 12)),
            ["2026-01-25", "2026-02-25", "2026-03-25", "2026-04-25"]
        );
        // A start after this month's day: the first date is next month's.
        let s = Schedule::new(Some(5), Every::Month, d("2026-03-10"), None).unwrap();
        assert_eq!(
            s.next_on_or_after(d("2026-03-01")).unwrap().to_string(),
            "2026-04-05"
        );
        // Exclusive of `after`, inclusive of `through`, bounded by `limit`.
        assert_eq!(
            dates(s.between(Some(d("2026-04-05")), d("2026-06-05"), 12)),
            ["2026-05-05", "2026-06-05"]
        );
        assert_eq!(dates(s.between(None, d("2027-12-31"), 3)).len(), 3);
        let ended = Schedule::new(Some(5), Every::Month, d("2026-03-01"), Some(d("2026-03-04"))).unwrap();
        assert_eq!(ended.next_on_or_after(d("2026-03-01")), None);
    }

    #[test]
    fn every_year_falls_in_the_start_month() {
        let s = Schedule::new(Some(29), Every::Year, d("2024-02-01"), None).unwrap();
        assert_eq!(
            dates(s.between(None, d("2028-12-31"), 12)),
            [
                "2024-02-29",
                "2025-02-28",
                "2026-02-28",
                "2027-02-28",
                "2028-02-29"
            ]
        );
        assert_eq!(
            s.next_on_or_after(d("2026-03-01")).unwrap().to_string(),
            "2027-02-28"
        );
        let insurance = Schedule::new(Some(10), Every::Year, d("2026-07-20"), None).unwrap();
        assert_eq!(
            insurance.next_on_or_after(d("2026-07-20")).unwrap().to_string(),
            "2027-07-10"
        );
    }

    #[test]
    fn bad_days_and_ends_are_refused_by_the_argument_at_fault() {
        for day in [0, 32, -1] {
            assert_eq!(
                Schedule::new(Some(day), Every::Month, d("2026-01-01"), None),
                Err(ScheduleError::Day(day))
            );
        }
        assert_eq!(
            Schedule::new(Some(1), Every::Month, d("2026-03-01"), Some(d("2026-02-28"))),
            Err(ScheduleError::End {
                start: d("2026-03-01"),
                end: d("2026-02-28")
            })
        );
        assert_eq!(Every::parse("year"), Ok(Every::Year));
        assert_eq!(
            Every::parse("week").unwrap_err().to_string(),
            "\"week\" is not a period; send \"month\" or \"year\""
        );
    }

    #[test]
    fn due_in_los_angeles_turns_at_its_midnight() {
        let la = super::super::VaultZone::parse("America/Los_Angeles").unwrap();
        let s = Schedule::new(Some(1), Every::Month, d("2026-03-01"), None).unwrap();
        // 2026-03-01T07:59:59Z is 23:59:59 on Feb 28 in LA (PST, UTC-8); a second later, March 1st.
        let before = jiff::Timestamp::from_second(1_772_351_999).unwrap();
        let at = jiff::Timestamp::from_second(1_772_352_000).unwrap();
        assert_eq!(
            dates(s.between(None, la.date_at(before), 12)),
            Vec::<String>::new()
        );
        assert_eq!(dates(s.between(None, la.date_at(at), 12)), ["2026-03-01"]);
    }
}
