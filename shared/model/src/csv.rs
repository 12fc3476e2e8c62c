//! The few lines of RFC 4180 the export's check needs: quoted fields, doubled quotes, CRLF.

/// The rows of `text`, each a list of fields.
pub fn rows(text: &str) -> impl Iterator<Item = Vec<String>> + '_ {
    let mut chars = text.chars().peekable();
    std::iter::from_fn(move || {
        chars.peek()?;
        let mut row = Vec::new();
        let mut field = String::new();
        let mut quoted = false;
        while let Some(c) = chars.next() {
            match (c, quoted) {
                ('"', true) if chars.peek() == Some(&'"') => {
                    chars.next();
                    field.push('"');
                }
                ('"', _) => quoted = !quoted,
                (',', false) => row.push(std::mem::take(&mut field)),
                ('\r', false) => {}
                ('\n', false) => break,
                (c, _) => field.push(c),
            }
        }
        row.push(field);
        Some(row)
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn quoted_fields_keep_commas_quotes_and_line_breaks() {
        let rows: Vec<Vec<String>> = super::rows("a,\"b,c\",\"d\"\"e\"\r\n1,\"x\ny\",3\r\n").collect();
        assert_eq!(rows, vec![vec!["a", "b,c", "d\"e"], vec!["1", "x\ny", "3"]]);
    }
}
