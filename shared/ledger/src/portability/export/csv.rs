//! CSV for spreadsheets: UTF-8 with a byte-order mark (Excel reads Korean right
//! only with it), one row per posting, quoted per RFC 4180, CRLF line ends.

use super::{Book, Entry};

/// The columns, in order.
pub(super) const HEADER: [&str; 11] = [
    "transactionId",
    "date",
    "memo",
    "account",
    "kind",
    "parent",
    "amount",
    "tags",
    "voided",
    "owner",
    "for",
];

/// The byte-order mark and the header row.
pub(super) fn preamble(out: &mut String) {
    out.push('\u{feff}');
    row(out, HEADER.iter().map(|h| Cell::Plain(h)));
}

/// One row per posting; an amount is signed (debits positive), in the major unit.
pub(super) fn entry(book: &Book, entry: &Entry<'_>, out: &mut String) {
    let (id, date) = (entry.id.to_string(), entry.date.to_string());
    let tags = entry.tags.join(",");
    for (account, amount) in &entry.postings {
        let a = &book.accounts[*account];
        let amount = amount.to_string();
        row(
            out,
            [
                Cell::Plain(&id),
                Cell::Plain(&date),
                Cell::Text(entry.memo),
                Cell::Text(&a.name),
                Cell::Plain(a.kind.as_str()),
                Cell::Text(a.parent.as_ref().map_or("", |(name, _)| name.as_str())),
                Cell::Plain(&amount),
                Cell::Text(&tags),
                Cell::Plain(if entry.voided { "true" } else { "false" }),
                Cell::Text(a.owner.as_deref().unwrap_or("")),
                Cell::Text(entry.for_name.unwrap_or("")),
            ]
            .into_iter(),
        );
    }
}

/// A cell: our own values (ids, dates, amounts), or text a person wrote.
enum Cell<'a> {
    Plain(&'a str),
    /// Text that a spreadsheet must not read as a formula: one starting with
    /// `=`, `+`, `-` or `@` gets a leading apostrophe (the usual guard against
    /// CSV injection: a shared vault's memo is another person's input).
    Text(&'a str),
}

fn row<'a>(out: &mut String, cells: impl Iterator<Item = Cell<'a>>) {
    for (i, cell) in cells.enumerate() {
        if i > 0 {
            out.push(',');
        }
        let (guard, text) = match cell {
            Cell::Plain(t) => ("", t),
            Cell::Text(t) if t.starts_with(['=', '+', '-', '@']) => ("'", t),
            Cell::Text(t) => ("", t),
        };
        if guard.is_empty() && !text.contains([',', '"', '\r', '\n']) {
            out.push_str(text);
        } else {
            out.push('"');
            out.push_str(guard);
            out.push_str(&text.replace('"', "\"\""));
            out.push('"');
        }
    }
    out.push_str("\r\n");
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cells(values: &[&str]) -> String {
        let mut out = String::new();
        row(&mut out, values.iter().map(|v| Cell::Text(v)));
        out
    }

    #[test]
    fn quotes_per_rfc_4180() {
        assert_eq!(
            cells(&["점심", "a,b", "say \"hi\"", "two\nlines", ""]),
            "점심,\"a,b\",\"say \"\"hi\"\"\",\"two\nlines\",\r\n"
        );
    }

    #[test]
    fn text_that_looks_like_a_formula_is_kept_as_text() {
        assert_eq!(
            cells(&["=HYPERLINK(\"x\")", "+1", "-", "@a", "a=b"]),
            "\"'=HYPERLINK(\"\"x\"\")\",\"'+1\",\"'-\",\"'@a\",a=b\r\n"
        );
    }

    #[test]
    fn the_first_page_starts_with_a_byte_order_mark_and_the_header() {
        let mut out = String::new();
        preamble(&mut out);
        assert_eq!(
            out,
            "\u{feff}transactionId,date,memo,account,kind,parent,amount,tags,voided,owner,for\r\n"
        );
    }
}
