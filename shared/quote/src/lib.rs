//! How much of what was sent a refusal shows. Every message that quotes a value from a
//! request (a tool argument, a prompt argument, a method or tool name, a protocol
//! version) quotes it through [`quote`]: at most [`MAX_QUOTED_CHARS`] characters, cut on
//! a character boundary, with an ellipsis and the value's length when it was cut, and
//! escaped so a line break or a text-direction control cannot reshape the message.
//! A megabyte sent is a sentence back, not a megabyte.

use std::fmt;

/// The most characters of a sent value a refusal shows.
pub const MAX_QUOTED_CHARS: usize = 64;

/// A sent value as a refusal shows it (see the crate's rule).
#[derive(Debug, Clone, Copy)]
pub struct Quoted<'a> {
    text: &'a str,
    mark: Option<char>,
    escaped: bool,
}

/// `text` between double quotes: `"2026/02/01"`, or `"2026/02/01…" (1000000 characters)`.
pub fn quote(text: &str) -> Quoted<'_> {
    Quoted {
        text,
        mark: Some('"'),
        escaped: false,
    }
}

/// A name that was sent (an argument's, a method's) between backticks, cut the same way.
pub fn quote_name(text: &str) -> Quoted<'_> {
    Quoted {
        text,
        mark: Some('`'),
        escaped: false,
    }
}

/// Text another formatter already escaped and put between double quotes (serde's
/// `string "…"`): only cut, never escaped twice.
pub fn quote_escaped(inner: &str) -> Quoted<'_> {
    Quoted {
        text: inner,
        mark: Some('"'),
        escaped: true,
    }
}

/// A sent value shown bare, where a message or a structured field always showed it so
/// (`Unknown tool: nope`): cut and escaped by the same rule, with no marks around it.
pub fn cut(text: &str) -> Quoted<'_> {
    Quoted {
        text,
        mark: None,
        escaped: false,
    }
}

impl fmt::Display for Quoted<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use fmt::Write as _;
        let mark = |f: &mut fmt::Formatter<'_>| self.mark.map_or(Ok(()), |m| f.write_char(m));
        mark(f)?;
        let mut shown = 0;
        let mut chars = self.text.chars();
        for c in chars.by_ref().take(MAX_QUOTED_CHARS) {
            // Escaped as Rust escapes a string, except a quote mark that is not ours.
            let other_mark = (c == '"' || c == '\'') && self.mark != Some(c);
            if self.escaped || other_mark {
                f.write_char(c)?;
            } else {
                write!(f, "{}", c.escape_debug())?;
            }
            shown += 1;
        }
        if chars.next().is_none() {
            return mark(f);
        }
        let total = shown + 1 + chars.count();
        f.write_char('…')?;
        mark(f)?;
        write!(f, " ({total} characters)")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_short_value_is_shown_whole() {
        assert_eq!(quote("2026/02/01").to_string(), "\"2026/02/01\"");
        assert_eq!(quote("").to_string(), "\"\"");
        assert_eq!(quote_name("amout").to_string(), "`amout`");
        assert_eq!(cut("nope").to_string(), "nope");
        let at_limit = "가".repeat(MAX_QUOTED_CHARS);
        assert_eq!(quote(&at_limit).to_string(), format!("\"{at_limit}\""));
    }

    #[test]
    fn a_long_value_is_cut_on_a_character_with_its_length() {
        let huge = "가".repeat(1_000_000);
        assert_eq!(
            quote(&huge).to_string(),
            format!("\"{}…\" (1000000 characters)", "가".repeat(64))
        );
        assert_eq!(
            quote_name(&"x".repeat(65)).to_string(),
            format!("`{}…` (65 characters)", "x".repeat(64))
        );
    }

    #[test]
    fn line_breaks_quotes_and_direction_controls_are_escaped() {
        assert_eq!(quote("a\nb\"c'd").to_string(), r#""a\nb\"c'd""#);
        assert_eq!(quote_name("a\"b").to_string(), "`a\"b`");
        assert_eq!(cut("a\"b\n").to_string(), "a\"b\\n");
        assert_eq!(
            cut(&"x".repeat(100)).to_string(),
            format!("{}… (100 characters)", "x".repeat(64))
        );
        assert_eq!(quote("\u{202E}식비").to_string(), "\"\\u{202e}식비\"");
        // Already escaped by another formatter: cut only.
        assert_eq!(quote_escaped(r"a\nb").to_string(), r#""a\nb""#);
    }
}
