//! Dates and months as the contract counts them: the vault's own today, months by
//! number, a day of the month clamped to the month's last day.

use jiff::civil::Date;
use jiff::tz::TimeZone;
use jiff::{Timestamp, ToSpan};

/// A month as one number (`year * 12 + month - 1`), so months add like integers.
pub type Month = i32;

/// The date of `unix_seconds` in the zone `zone` (an IANA name).
pub fn date_at(unix_seconds: i64, zone: &str) -> Date {
    let tz = TimeZone::get(zone).expect("a known time zone");
    Timestamp::from_second(unix_seconds)
        .expect("a time in range")
        .to_zoned_datetime(tz)
        .date()
}

/// The Unix second at which `date` begins in `zone`.
pub fn midnight(date: Date, zone: &str) -> i64 {
    let tz = TimeZone::get(zone).expect("a known time zone");
    date.to_zoned_datetime(tz)
        .expect("a midnight")
        .timestamp()
        .as_second()
}

/// `date` moved by `days`.
pub fn add_days(date: Date, days: i64) -> Date {
    date.checked_add(days.days()).expect("a date in range")
}

/// Days from `a` to `b` (positive when `b` is later).
pub fn days_between(a: Date, b: Date) -> i64 {
    i64::from((b - a).get_days())
}

/// The month `date` is in.
pub fn month_of(date: Date) -> Month {
    i32::from(date.year()) * 12 + i32::from(date.month()) - 1
}

/// Day `day` of `month`, or its last day when the month is shorter.
pub fn day_in(month: Month, day: u8) -> Date {
    let first = first_day(month);
    let last = first.last_of_month().day();
    let day = i8::try_from(day).unwrap_or(31).min(last).max(1);
    Date::new(first.year(), first.month(), day).expect("a clamped day")
}

/// The first day of `month`.
pub fn first_day(month: Month) -> Date {
    let year = i16::try_from(month.div_euclid(12)).expect("a year in range");
    let m = i8::try_from(month.rem_euclid(12) + 1).expect("a month");
    Date::new(year, m, 1).expect("a first day")
}

/// The last day of `month`.
pub fn last_day(month: Month) -> Date {
    first_day(month).last_of_month()
}

/// `YYYY-MM`.
pub fn month_text(month: Month) -> String {
    format!("{:04}-{:02}", month.div_euclid(12), month.rem_euclid(12) + 1)
}

/// `YYYY-MM-DD`.
pub fn date_text(date: Date) -> String {
    date.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn months_and_days_clamp() {
        let feb = month_of(Date::new(2026, 2, 10).unwrap());
        assert_eq!(day_in(feb, 31).to_string(), "2026-02-28");
        assert_eq!(month_text(feb - 2), "2025-12");
        assert_eq!(last_day(feb + 10).to_string(), "2026-12-31");
        assert_eq!(date_at(1_774_926_000, "Asia/Seoul").to_string(), "2026-03-31");
        assert_eq!(
            midnight(Date::new(2026, 3, 31).unwrap(), "Asia/Seoul"),
            1_774_882_800
        );
    }
}
