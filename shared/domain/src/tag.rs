//! Tags (#여행, #명절): labels that cut across categories. A tag is a name under
//! the name rules (folding, invisible characters, mixed scripts), shorter, with an
//! optional leading `#` dropped; an entry carries at most [`MAX_TAGS`] distinct ones.
//! Every writer of tags (records, edits, and later recurring schedules) parses them here.

use super::ParseError;
use super::limits::{MAX_TAG_CHARS, MAX_TAGS};
use super::name::{Name, NameKey};

/// A valid tag: its display form and its comparison key (as a name's).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Tag(Name);

impl Tag {
    /// Validate one tag.
    pub fn parse(text: &str) -> Result<Tag, ParseError> {
        let trimmed = text.trim();
        let bare = trimmed.strip_prefix('#').unwrap_or(trimmed);
        // Bound the work before the name rules normalize anything.
        let chars = bare.chars().take(MAX_TAG_CHARS * 4 + 1).count();
        if chars > MAX_TAG_CHARS * 4 {
            return Err(too_long(bare));
        }
        let name = Name::parse(bare).map_err(|e| {
            ParseError::new(format!(
                "tag \"{}\": {}",
                bare.chars().take(MAX_TAG_CHARS).collect::<String>(),
                e.message()
                    .replace("a name", "a tag")
                    .replace("the name", "the tag")
            ))
        })?;
        if name.display().chars().count() > MAX_TAG_CHARS {
            return Err(too_long(name.display()));
        }
        Ok(Tag(name))
    }

    /// The tag as written (without a leading `#`).
    pub fn display(&self) -> &str {
        self.0.display()
    }

    /// The comparison key (tags that differ only in case or width are one tag).
    pub fn key(&self) -> &NameKey {
        self.0.key()
    }
}

fn too_long(text: &str) -> ParseError {
    let head: String = text.chars().take(MAX_TAG_CHARS).collect();
    ParseError::new(format!(
        "a tag may have at most {MAX_TAG_CHARS} characters; \"{head}…\" has {}: send a shorter tag",
        text.chars().count()
    ))
}

/// Validate an entry's tags: each by [`Tag::parse`], repeats (by key) kept once in
/// the order first given, at most [`MAX_TAGS`] distinct.
pub fn parse_tags<S: AsRef<str>>(raw: &[S]) -> Result<Vec<Tag>, ParseError> {
    // Bound before parsing: a long list is refused without looking at its items.
    if raw.len() > MAX_TAGS * 4 {
        return Err(too_many(raw.len()));
    }
    let mut tags: Vec<Tag> = Vec::new();
    for text in raw {
        let tag = Tag::parse(text.as_ref())?;
        if !tags.iter().any(|t| t.key() == tag.key()) {
            tags.push(tag);
        }
    }
    if tags.len() > MAX_TAGS {
        return Err(too_many(tags.len()));
    }
    Ok(tags)
}

fn too_many(n: usize) -> ParseError {
    ParseError::new(format!(
        "an entry may have at most {MAX_TAGS} tags; it has {n}: keep the {MAX_TAGS} that matter, e.g. [\"여행\", \"제주\"]"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_fold_like_names_and_drop_a_leading_hash() {
        let t = parse_tags(&["#여행", " 여행 ", "Trip", "ＴＲＩＰ", "#명절"]).unwrap();
        let shown: Vec<&str> = t.iter().map(Tag::display).collect();
        assert_eq!(shown, ["여행", "Trip", "명절"]);
        assert_eq!(t[1].key().as_str(), "trip");
        assert_eq!(parse_tags::<&str>(&[]).unwrap(), vec![]);
    }

    #[test]
    fn bad_tags_say_what_to_send_instead() {
        let six = ["a", "b", "c", "d", "e", "f"];
        assert_eq!(
            parse_tags(&six).unwrap_err().message(),
            "an entry may have at most 5 tags; it has 6: keep the 5 that matter, e.g. [\"여행\", \"제주\"]"
        );
        let long = "가".repeat(33);
        assert_eq!(
            Tag::parse(&long).unwrap_err().message(),
            format!(
                "a tag may have at most 32 characters; \"{}…\" has 33: send a shorter tag",
                "가".repeat(32)
            )
        );
        assert!(Tag::parse(&"가".repeat(32)).is_ok());
        assert_eq!(
            Tag::parse("여\u{200b}행").unwrap_err().message(),
            "tag \"여\u{200b}행\": a tag may not contain U+200B (zero width space): it is invisible, so the tag would look like another one; remove it"
        );
        assert_eq!(
            Tag::parse("#").unwrap_err().message(),
            "tag \"\": a tag may not be empty"
        );
        assert!(parse_tags(&vec!["a"; 21]).is_err());
    }
}
