//! Amounts as the contract has them: decimal strings in the currency's major unit,
//! held by the model as integers of the minor unit (never a float).

/// The vault's currency: its code and how many decimals its minor unit has.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Currency {
    /// ISO 4217 code.
    pub code: &'static str,
    /// Decimals of the minor unit (KRW 0, USD 2).
    pub decimals: u32,
}

impl Currency {
    /// Won: no minor unit.
    pub const KRW: Currency = Currency {
        code: "KRW",
        decimals: 0,
    };
    /// Dollars: cents.
    pub const USD: Currency = Currency {
        code: "USD",
        decimals: 2,
    };

    /// `minor` written as the contract's input string ("12500", "12.50", "-3.05").
    pub fn format(self, minor: i64) -> String {
        if self.decimals == 0 {
            return minor.to_string();
        }
        let scale = 10_i64.pow(self.decimals);
        let sign = if minor < 0 { "-" } else { "" };
        let abs = minor.unsigned_abs();
        let scale = scale.unsigned_abs();
        format!(
            "{sign}{}.{:0width$}",
            abs / scale,
            abs % scale,
            width = self.decimals as usize
        )
    }

    /// A decimal string of an answer in minor units; `None` when it is not one exactly.
    pub fn parse(self, text: &str) -> Option<i64> {
        let (negative, digits) = match text.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, text),
        };
        let (whole, fraction) = match digits.split_once('.') {
            Some((w, f)) => (w, f),
            None => (digits, ""),
        };
        let all_digits = |s: &str| s.chars().all(|c| c.is_ascii_digit());
        if whole.is_empty() || !all_digits(whole) || !all_digits(fraction) {
            return None;
        }
        if fraction.len() > self.decimals as usize || (digits.contains('.') && fraction.is_empty()) {
            return None;
        }
        let mut value: i64 = whole.parse().ok()?;
        for i in 0..self.decimals as usize {
            let d = fraction.as_bytes().get(i).map_or(0, |b| i64::from(b - b'0'));
            value = value.checked_mul(10)?.checked_add(d)?;
        }
        Some(if negative { -value } else { value })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn amounts_round_trip_in_minor_units() {
        assert_eq!(Currency::USD.format(1250), "12.50");
        assert_eq!(Currency::USD.format(-305), "-3.05");
        assert_eq!(Currency::KRW.format(12500), "12500");
        assert_eq!(Currency::USD.parse("12.5"), Some(1250));
        assert_eq!(Currency::USD.parse("-3.05"), Some(-305));
        assert_eq!(Currency::USD.parse("7"), Some(700));
        assert_eq!(Currency::KRW.parse("12.5"), None);
        assert_eq!(Currency::USD.parse("1."), None);
        assert_eq!(Currency::USD.parse(""), None);
    }
}
