//! A card's bill as dates: the usage period a payment day covers, and the
//! installment (할부) parts each bill carries.
//!
//! Pure calendar rules, no storage. A bill is named by the month it is paid in.
//! The period that closes on `closingDay` (a day the month lacks means its last
//! day) is paid on the first `paymentDay` after it: in the same month when the
//! payment day is later than the closing day, else in the next month.

use super::{LocalDate, ParseError, YearMonth};

/// Fewest parts an installment purchase has (one part is a one-time charge).
pub const MIN_INSTALLMENTS: i64 = 2;
/// Most parts an installment purchase has (the longest plans Korean cards offer).
pub const MAX_INSTALLMENTS: i64 = 36;

/// Why a billing setting is refused, by the argument at fault.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BillingError {
    /// `closingDay` outside 1–31.
    ClosingDay(String),
    /// `paymentDay` outside 1–31, or one that would not fall after the closing day.
    PaymentDay(String),
}

/// When a card's usage period closes and when its bill is paid: valid by construction.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Billing {
    closing: i8,
    payment: i8,
}

/// One bill's dates.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BillDates {
    /// The month it is paid in (its name).
    pub month: YearMonth,
    /// The period's first day.
    pub from: LocalDate,
    /// The period's last day (the closing day).
    pub to: LocalDate,
    /// The day it is paid.
    pub due: LocalDate,
}

fn day_of(value: i64) -> Option<i8> {
    i8::try_from(value).ok().filter(|d| (1..=31).contains(d))
}

/// Day `day` of `month`, or its last day when the month is shorter.
fn clamped(month: YearMonth, day: i8) -> LocalDate {
    let last = month.last_day();
    if day >= last.day() {
        last
    } else {
        LocalDate::from_ymd(month.year(), i16::from(month.month()), i16::from(day)).unwrap_or(last)
    }
}

/// `month` moved by `n` months (negative: back).
fn shifted(month: YearMonth, n: i64) -> YearMonth {
    let mut m = month;
    for _ in 0..n.unsigned_abs() {
        m = if n > 0 { m.next() } else { m.prev() };
    }
    m
}

/// Months from `a` to `b` (negative when `b` is earlier).
pub fn months_between(a: YearMonth, b: YearMonth) -> i64 {
    (i64::from(b.year()) - i64::from(a.year())) * 12 + i64::from(b.month()) - i64::from(a.month())
}

impl Billing {
    /// A card closing on `closing_day` and paid on `payment_day` (each 1–31; 31 means
    /// the month's last day).
    pub fn new(closing_day: i64, payment_day: i64) -> Result<Billing, BillingError> {
        let closing = day_of(closing_day).ok_or_else(|| {
            BillingError::ClosingDay(format!(
                "closingDay {closing_day} is not a day of the month; send 1–31 (31 means the month's last day, as in 전월 1일 ~ 전월 말일)"
            ))
        })?;
        let payment = day_of(payment_day).ok_or_else(|| {
            BillingError::PaymentDay(format!(
                "paymentDay {payment_day} is not a day of the month; send 1–31"
            ))
        })?;
        // Paid in the closing month, on a day February may lack: it would fall on the
        // closing day itself. Cards that close this late are paid the next month.
        if payment > closing && closing >= 28 {
            return Err(BillingError::PaymentDay(format!(
                "with closingDay {closing}, paymentDay {payment} would fall on the closing day in February; a card that closes this late is paid the next month, so send a paymentDay of {closing} or less"
            )));
        }
        Ok(Billing { closing, payment })
    }

    /// The closing day as set (1–31).
    pub fn closing_day(self) -> i64 {
        i64::from(self.closing)
    }

    /// The payment day as set (1–31).
    pub fn payment_day(self) -> i64 {
        i64::from(self.payment)
    }

    /// Months from the closing month to the payment month: 0 or 1.
    fn lag(self) -> i64 {
        if self.payment > self.closing { 0 } else { 1 }
    }

    /// The bill paid in `month`.
    pub fn bill(self, month: YearMonth) -> BillDates {
        let closes = shifted(month, -self.lag());
        BillDates {
            month,
            from: clamped(closes.prev(), self.closing).next_day(),
            to: clamped(closes, self.closing),
            due: clamped(month, self.payment),
        }
    }

    /// The month of the bill whose period holds `date`.
    pub fn bill_of(self, date: LocalDate) -> YearMonth {
        let closes = if date <= clamped(date.month(), self.closing) {
            date.month()
        } else {
            date.month().next()
        };
        shifted(closes, self.lag())
    }

    /// The month of the next bill paid on or after `today`.
    pub fn next_bill(self, today: LocalDate) -> YearMonth {
        let month = today.month();
        if self.bill(month).due >= today {
            month
        } else {
            month.next()
        }
    }
}

/// How many monthly parts an installment purchase is paid in (2–36).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Installments(u8);

impl Installments {
    /// Parse a count of parts.
    pub fn new(count: i64) -> Result<Installments, ParseError> {
        if !(MIN_INSTALLMENTS..=MAX_INSTALLMENTS).contains(&count) {
            return Err(ParseError::new(format!(
                "{count} is not a number of installments; send {MIN_INSTALLMENTS}–{MAX_INSTALLMENTS} (months), or leave it out for a one-time charge"
            )));
        }
        Ok(Installments(u8::try_from(count).unwrap_or(2)))
    }

    /// The count of parts.
    pub fn count(self) -> u8 {
        self.0
    }

    /// The parts of `total` minor units, first to last: equal parts, the remainder on
    /// the first (100,000 in 3 → 33,334 + 33,333 + 33,333). `None` when a part would
    /// be less than one minor unit.
    pub fn split(self, total: i64) -> Option<Vec<i64>> {
        let n = i64::from(self.0);
        if total < n {
            return None;
        }
        let (each, rest) = (total / n, total % n);
        let mut parts = vec![each; usize::from(self.0)];
        parts[0] = each + rest;
        Some(parts)
    }

    /// Which part (1-based) a bill paid in `bill` carries, for a purchase whose first
    /// part is on the bill of `first`; `None` when that bill carries none.
    pub fn part_on(self, first: YearMonth, bill: YearMonth) -> Option<u8> {
        let k = months_between(first, bill) + 1;
        u8::try_from(k).ok().filter(|k| (1..=self.0).contains(k))
    }

    /// How many parts come after the bill paid in `bill`, for a purchase whose first
    /// part is on the bill of `first` (all of them when `bill` is before the first).
    pub fn parts_after(self, first: YearMonth, bill: YearMonth) -> u8 {
        let billed = (months_between(first, bill) + 1).clamp(0, i64::from(self.0));
        self.0 - u8::try_from(billed).unwrap_or(self.0)
    }

    /// The latest bill month any card's cycle could put the last part of a purchase
    /// dated `date` on: the charge closes in its month or the next and is paid then
    /// or a month later. Independent of the card's settings, so changing them never
    /// moves a stored item.
    pub fn last_bill_bound(self, date: LocalDate) -> YearMonth {
        shifted(date.month(), i64::from(self.0) + 1)
    }
}

/// The part a statement line says it is, from its memo: `n/m` after the word 할부
/// ("삼성 TV 할부 2/3", "할부(2/3)") or followed by 회차 / 회 ("2/3회차"), with
/// 1 ≤ n ≤ m and m a count of installments. The first such `n/m` counts; a date
/// like `12/05` (n > m) is skipped.
pub fn installment_part(memo: &str) -> Option<(u8, u8)> {
    let says_installment = memo.contains("할부");
    let chars: Vec<char> = memo.chars().collect();
    let digits_at = |mut i: usize| {
        let start = i;
        while i < chars.len() && chars[i].is_ascii_digit() {
            i += 1;
        }
        (chars[start..i].iter().collect::<String>(), i)
    };
    let skip_spaces = |mut i: usize| {
        while i < chars.len() && chars[i] == ' ' {
            i += 1;
        }
        i
    };
    let mut i = 0;
    while i < chars.len() {
        // The start of a run of digits.
        if !chars[i].is_ascii_digit() || (i > 0 && chars[i - 1].is_ascii_digit()) {
            i += 1;
            continue;
        }
        let (n, after_n) = digits_at(i);
        let slash = skip_spaces(after_n);
        if chars.get(slash) != Some(&'/') {
            i = after_n;
            continue;
        }
        let m_at = skip_spaces(slash + 1);
        let (m, after_m) = digits_at(m_at);
        let rest: String = chars[skip_spaces(after_m)..].iter().take(2).collect();
        let part = (n.parse::<u8>(), m.parse::<u8>());
        if let (Ok(n), Ok(m)) = part
            && (says_installment || rest.starts_with('회'))
            && n >= 1
            && n <= m
            && (MIN_INSTALLMENTS..=MAX_INSTALLMENTS).contains(&i64::from(m))
        {
            return Some((n, m));
        }
        i = after_n;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(text: &str) -> LocalDate {
        LocalDate::parse(text).unwrap()
    }

    fn m(text: &str) -> YearMonth {
        YearMonth::parse(text).unwrap()
    }

    fn dates(b: BillDates) -> (String, String, String) {
        (b.from.to_string(), b.to.to_string(), b.due.to_string())
    }

    fn strs(from: &str, to: &str, due: &str) -> (String, String, String) {
        (from.into(), to.into(), due.into())
    }

    /// 결제일 14, 전월 1일 ~ 전월 말일 (Shinhan, Lotte, KB): every month ends the period.
    #[test]
    fn closing_last_day_paying_14() {
        let b = Billing::new(31, 14).unwrap();
        assert_eq!(
            dates(b.bill(m("2026-11"))),
            strs("2026-10-01", "2026-10-31", "2026-11-14")
        );
        // Across the year's end and through February.
        assert_eq!(
            dates(b.bill(m("2027-01"))),
            strs("2026-12-01", "2026-12-31", "2027-01-14")
        );
        assert_eq!(
            dates(b.bill(m("2027-03"))),
            strs("2027-02-01", "2027-02-28", "2027-03-14")
        );
        assert_eq!(
            dates(b.bill(m("2028-03"))),
            strs("2028-02-01", "2028-02-29", "2028-03-14")
        );
        assert_eq!(b.bill_of(d("2026-10-31")), m("2026-11"));
        assert_eq!(b.bill_of(d("2026-11-01")), m("2026-12"));
        assert_eq!(b.bill_of(d("2026-12-31")), m("2027-01"));
        assert_eq!(b.bill_of(d("2027-02-28")), m("2027-03"));
    }

    /// 결제일 1, 전전월 19일 ~ 전월 18일 (Samsung).
    #[test]
    fn closing_18_paying_1() {
        let b = Billing::new(18, 1).unwrap();
        assert_eq!(
            dates(b.bill(m("2026-11"))),
            strs("2026-09-19", "2026-10-18", "2026-11-01")
        );
        assert_eq!(
            dates(b.bill(m("2027-01"))),
            strs("2026-11-19", "2026-12-18", "2027-01-01")
        );
        assert_eq!(
            dates(b.bill(m("2027-02"))),
            strs("2026-12-19", "2027-01-18", "2027-02-01")
        );
        assert_eq!(b.bill_of(d("2026-10-18")), m("2026-11"));
        assert_eq!(b.bill_of(d("2026-10-19")), m("2026-12"));
        assert_eq!(b.bill_of(d("2026-12-25")), m("2027-02"));
    }

    /// 결제일 24, 전월 12일 ~ 당월 11일 (Samsung): paid in the month it closes.
    #[test]
    fn closing_11_paying_24() {
        let b = Billing::new(11, 24).unwrap();
        assert_eq!(
            dates(b.bill(m("2026-11"))),
            strs("2026-10-12", "2026-11-11", "2026-11-24")
        );
        assert_eq!(
            dates(b.bill(m("2027-01"))),
            strs("2026-12-12", "2027-01-11", "2027-01-24")
        );
        assert_eq!(
            dates(b.bill(m("2027-03"))),
            strs("2027-02-12", "2027-03-11", "2027-03-24")
        );
        assert_eq!(b.bill_of(d("2026-11-11")), m("2026-11"));
        assert_eq!(b.bill_of(d("2026-11-12")), m("2026-12"));
        assert_eq!(b.bill_of(d("2026-12-31")), m("2027-01"));
    }

    /// A closing day February lacks closes on its last day; the next period starts after it.
    #[test]
    fn a_short_month_closes_on_its_last_day() {
        let b = Billing::new(30, 10).unwrap();
        assert_eq!(
            dates(b.bill(m("2027-03"))),
            strs("2027-01-31", "2027-02-28", "2027-03-10")
        );
        assert_eq!(
            dates(b.bill(m("2027-04"))),
            strs("2027-03-01", "2027-03-30", "2027-04-10")
        );
        assert_eq!(b.bill_of(d("2027-02-28")), m("2027-03"));
        assert_eq!(b.bill_of(d("2027-03-01")), m("2027-04"));
        // Paid on the month's last day: 31 in a 30-day month is the 30th.
        let last = Billing::new(31, 31).unwrap();
        assert_eq!(
            dates(last.bill(m("2026-11"))),
            strs("2026-10-01", "2026-10-31", "2026-11-30")
        );
    }

    /// Every day belongs to exactly one period, and the periods follow each other.
    #[test]
    fn periods_tile_the_calendar() {
        for (c, p) in [(31, 14), (18, 1), (11, 24), (30, 10), (27, 28), (1, 1), (31, 31)] {
            let b = Billing::new(c, p).unwrap();
            let mut month = m("2026-01");
            for _ in 0..30 {
                let bill = b.bill(month);
                let next = b.bill(month.next());
                assert_eq!(next.from, bill.to.next_day(), "{c}/{p} {month}");
                assert!(bill.due > bill.to, "{c}/{p} {month}: due after closing");
                assert_eq!(b.bill_of(bill.from), month);
                assert_eq!(b.bill_of(bill.to), month);
                month = month.next();
            }
        }
    }

    #[test]
    fn next_bill_is_the_next_due_date_on_or_after_today() {
        let b = Billing::new(31, 14).unwrap();
        assert_eq!(b.next_bill(d("2026-11-14")), m("2026-11"));
        assert_eq!(b.next_bill(d("2026-11-15")), m("2026-12"));
        assert_eq!(b.next_bill(d("2026-12-20")), m("2027-01"));
    }

    #[test]
    fn days_are_bounded_and_a_payment_day_falls_after_the_closing() {
        assert_eq!(
            Billing::new(0, 14),
            Err(BillingError::ClosingDay(
                "closingDay 0 is not a day of the month; send 1–31 (31 means the month's last day, as in 전월 1일 ~ 전월 말일)".into()
            ))
        );
        assert_eq!(
            Billing::new(31, 32),
            Err(BillingError::PaymentDay(
                "paymentDay 32 is not a day of the month; send 1–31".into()
            ))
        );
        assert_eq!(
            Billing::new(28, 30),
            Err(BillingError::PaymentDay(
                "with closingDay 28, paymentDay 30 would fall on the closing day in February; a card that closes this late is paid the next month, so send a paymentDay of 28 or less".into()
            ))
        );
        assert!(Billing::new(27, 31).is_ok());
    }

    #[test]
    fn installments_split_with_the_remainder_first() {
        let three = Installments::new(3).unwrap();
        assert_eq!(three.split(100_000), Some(vec![33_334, 33_333, 33_333]));
        assert_eq!(three.split(3), Some(vec![1, 1, 1]));
        assert_eq!(three.split(2), None);
        let twelve = Installments::new(12).unwrap();
        assert_eq!(
            twelve.split(1_200_005),
            Some([vec![100_005], vec![100_000; 11]].concat())
        );
        assert_eq!(twelve.split(1_200_005).unwrap().iter().sum::<i64>(), 1_200_005);
        for bad in [1, 37, 0, -3] {
            assert_eq!(
                Installments::new(bad).unwrap_err().message(),
                format!(
                    "{bad} is not a number of installments; send 2–36 (months), or leave it out for a one-time charge"
                )
            );
        }
    }

    #[test]
    fn parts_after_a_bill_count_down_to_none() {
        let three = Installments::new(3).unwrap();
        let first = m("2026-12");
        let after = |bill: &str| three.parts_after(first, m(bill));
        assert_eq!(
            [
                after("2026-10"),
                after("2026-11"),
                after("2026-12"),
                after("2027-01"),
                after("2027-02"),
                after("2030-01")
            ],
            [3, 3, 2, 1, 0, 0]
        );
    }

    #[test]
    fn a_statement_line_names_its_installment_part() {
        let cases = [
            ("삼성 TV 할부 2/3", Some((2, 3))),
            ("할부(1/12) 냉장고", Some((1, 12))),
            ("할부 3 / 3", Some((3, 3))),
            ("냉장고 2/10회차", Some((2, 10))),
            ("냉장고 [2/10 회]", Some((2, 10))),
            // A date first is skipped, the part after it found.
            ("12/05 할부 2/3", Some((2, 3))),
            // No word that says installment; a part past the count; one part only.
            ("영화 2/3", None),
            ("할부 4/3", None),
            ("할부 1/1", None),
            ("할부 0/3", None),
            ("할부 2/37", None),
            ("할부 3개월", None),
            ("", None),
            ("할부 999999999999/3", None),
        ];
        for (memo, part) in cases {
            assert_eq!(installment_part(memo), part, "{memo}");
        }
    }

    /// The first part on the bill whose period holds the purchase, then one per month.
    #[test]
    fn parts_land_on_consecutive_bills() {
        let b = Billing::new(31, 14).unwrap();
        let three = Installments::new(3).unwrap();
        let first = b.bill_of(d("2026-11-20"));
        assert_eq!(first, m("2026-12"));
        let on = |bill: &str| three.part_on(first, m(bill));
        assert_eq!(
            [
                on("2026-11"),
                on("2026-12"),
                on("2027-01"),
                on("2027-02"),
                on("2027-03")
            ],
            [None, Some(1), Some(2), Some(3), None]
        );
        // The stored bound is never before the last part, whatever the cycle.
        for (c, p) in [(31, 14), (18, 1), (11, 24), (1, 1), (31, 31)] {
            let b = Billing::new(c, p).unwrap();
            for date in ["2026-01-31", "2026-12-31", "2027-02-28", "2026-06-01"] {
                let last = shifted(b.bill_of(d(date)), 35);
                assert!(
                    Installments(36).last_bill_bound(d(date)) >= last,
                    "{c}/{p} {date}"
                );
            }
        }
    }
}
