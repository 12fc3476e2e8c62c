//! The on-disk encoding of an item's attributes: compact, versioned, deterministic.
//!
//! Layout: one format byte ([`FORMAT`]), then the attribute map. A map is a
//! varint count followed by (name, value) pairs in strictly ascending byte order
//! of the name (so one set of attributes has exactly one encoding, and a
//! duplicate or out-of-order name marks corrupt data). A name or string is a
//! varint byte length and UTF-8 bytes. A value is one tag byte and its payload:
//! `S` string, `N` zigzag varint, `false`/`true` alone, `L` varint count + values,
//! `M` a map as above. Varints are LEB128, at most 10 bytes.
//!
//! Decoding trusts nothing: lengths are checked against the bytes left, nesting
//! is bounded, and trailing bytes are an error.

use std::collections::BTreeMap;

use dochiya_store::{Attrs, Value};

/// Format byte of the current encoding; bump it when the layout changes.
pub const FORMAT: u8 = 1;

/// Deepest nesting of lists and maps accepted (DynamoDB allows 32 levels).
const MAX_DEPTH: usize = 64;

const TAG_S: u8 = 0x01;
const TAG_N: u8 = 0x02;
const TAG_FALSE: u8 = 0x03;
const TAG_TRUE: u8 = 0x04;
const TAG_L: u8 = 0x05;
const TAG_M: u8 = 0x06;

/// Why stored bytes are not a valid encoding.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DecodeError {
    /// The bytes end before the value does.
    #[error("truncated at byte {0}")]
    Truncated(usize),
    /// The first byte names a format this build does not know.
    #[error("unknown format {0}")]
    UnknownFormat(u8),
    /// A tag byte that is no value kind.
    #[error("unknown value tag {tag:#04x} at byte {at}")]
    UnknownTag {
        /// The tag read.
        tag: u8,
        /// Its offset.
        at: usize,
    },
    /// A varint longer than 10 bytes or over `u64`.
    #[error("bad varint at byte {0}")]
    BadVarint(usize),
    /// A length that points past the end of the data.
    #[error("length {len} at byte {at} exceeds the data")]
    BadLength {
        /// The length read.
        len: u64,
        /// Its offset.
        at: usize,
    },
    /// A string that is not UTF-8.
    #[error("string at byte {0} is not UTF-8")]
    NotUtf8(usize),
    /// Map names not in strictly ascending order.
    #[error("map name at byte {0} is a duplicate or out of order")]
    UnorderedName(usize),
    /// Lists and maps nested too deep.
    #[error("nesting deeper than {MAX_DEPTH} levels")]
    TooDeep,
    /// Bytes after the end of the item.
    #[error("{0} trailing bytes")]
    Trailing(usize),
}

/// Encode attributes (infallible: every [`Attrs`] has an encoding).
pub fn encode(attrs: &Attrs) -> Vec<u8> {
    let mut out = Vec::with_capacity(64);
    out.push(FORMAT);
    encode_map(attrs, &mut out);
    out
}

/// Decode attributes written by [`encode`].
pub fn decode(bytes: &[u8]) -> Result<Attrs, DecodeError> {
    let mut r = Reader { bytes, pos: 0 };
    let format = r.byte()?;
    if format != FORMAT {
        return Err(DecodeError::UnknownFormat(format));
    }
    let attrs = r.map(0)?;
    if r.pos != bytes.len() {
        return Err(DecodeError::Trailing(bytes.len() - r.pos));
    }
    Ok(attrs)
}

fn put_varint(mut v: u64, out: &mut Vec<u8>) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

fn put_str(s: &str, out: &mut Vec<u8>) {
    put_varint(s.len() as u64, out);
    out.extend_from_slice(s.as_bytes());
}

fn encode_map(map: &BTreeMap<String, Value>, out: &mut Vec<u8>) {
    put_varint(map.len() as u64, out);
    // BTreeMap iterates in ascending byte order of the names: deterministic.
    for (name, value) in map {
        put_str(name, out);
        encode_value(value, out);
    }
}

fn encode_value(value: &Value, out: &mut Vec<u8>) {
    match value {
        Value::S(s) => {
            out.push(TAG_S);
            put_str(s, out);
        }
        Value::N(n) => {
            out.push(TAG_N);
            // Zigzag: small magnitudes of either sign stay short.
            put_varint(((*n << 1) ^ (*n >> 63)) as u64, out);
        }
        Value::Bool(false) => out.push(TAG_FALSE),
        Value::Bool(true) => out.push(TAG_TRUE),
        Value::L(items) => {
            out.push(TAG_L);
            put_varint(items.len() as u64, out);
            for item in items {
                encode_value(item, out);
            }
        }
        Value::M(map) => {
            out.push(TAG_M);
            encode_map(map, out);
        }
    }
}

struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl Reader<'_> {
    fn byte(&mut self) -> Result<u8, DecodeError> {
        let b = *self.bytes.get(self.pos).ok_or(DecodeError::Truncated(self.pos))?;
        self.pos += 1;
        Ok(b)
    }

    fn varint(&mut self) -> Result<u64, DecodeError> {
        let start = self.pos;
        let mut v: u64 = 0;
        for i in 0..10 {
            let b = self.byte()?;
            let bits = u64::from(b & 0x7f);
            // The tenth byte may carry only the top bit of a u64.
            if i == 9 && bits > 1 {
                return Err(DecodeError::BadVarint(start));
            }
            v |= bits << (7 * i);
            if b & 0x80 == 0 {
                return Ok(v);
            }
        }
        Err(DecodeError::BadVarint(start))
    }

    /// A count or length that cannot exceed the bytes left (each element takes ≥ 1 byte).
    fn len(&mut self) -> Result<usize, DecodeError> {
        let at = self.pos;
        let len = self.varint()?;
        let left = self.bytes.len() - self.pos;
        match usize::try_from(len) {
            Ok(n) if n <= left => Ok(n),
            _ => Err(DecodeError::BadLength { len, at }),
        }
    }

    fn str(&mut self) -> Result<String, DecodeError> {
        let n = self.len()?;
        let at = self.pos;
        let raw = &self.bytes[at..at + n];
        self.pos += n;
        std::str::from_utf8(raw)
            .map(str::to_owned)
            .map_err(|_| DecodeError::NotUtf8(at))
    }

    fn map(&mut self, depth: usize) -> Result<BTreeMap<String, Value>, DecodeError> {
        let n = self.len()?;
        let mut map = BTreeMap::new();
        let mut last: Option<String> = None;
        for _ in 0..n {
            let at = self.pos;
            let name = self.str()?;
            if last.as_ref().is_some_and(|l| l.as_str() >= name.as_str()) {
                return Err(DecodeError::UnorderedName(at));
            }
            let value = self.value(depth)?;
            last = Some(name.clone());
            map.insert(name, value);
        }
        Ok(map)
    }

    fn value(&mut self, depth: usize) -> Result<Value, DecodeError> {
        let at = self.pos;
        match self.byte()? {
            TAG_S => Ok(Value::S(self.str()?)),
            TAG_N => {
                let z = self.varint()?;
                Ok(Value::N(((z >> 1) as i64) ^ -((z & 1) as i64)))
            }
            TAG_FALSE => Ok(Value::Bool(false)),
            TAG_TRUE => Ok(Value::Bool(true)),
            TAG_L => {
                if depth >= MAX_DEPTH {
                    return Err(DecodeError::TooDeep);
                }
                let n = self.len()?;
                let mut items = Vec::with_capacity(n);
                for _ in 0..n {
                    items.push(self.value(depth + 1)?);
                }
                Ok(Value::L(items))
            }
            TAG_M => {
                if depth >= MAX_DEPTH {
                    return Err(DecodeError::TooDeep);
                }
                Ok(Value::M(self.map(depth + 1)?))
            }
            tag => Err(DecodeError::UnknownTag { tag, at }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn attrs(pairs: Vec<(&str, Value)>) -> Attrs {
        pairs.into_iter().map(|(k, v)| (k.to_owned(), v)).collect()
    }

    #[test]
    fn round_trips_every_value_kind() {
        let mut m = BTreeMap::new();
        m.insert("z".to_owned(), Value::L(vec![Value::N(-1), Value::Bool(true)]));
        m.insert("".to_owned(), Value::M(BTreeMap::new()));
        let a = attrs(vec![
            ("s", Value::S("카카오뱅크 😀".into())),
            ("e", Value::S(String::new())),
            ("min", Value::N(i64::MIN)),
            ("max", Value::N(i64::MAX)),
            ("zero", Value::N(0)),
            ("f", Value::Bool(false)),
            ("l", Value::L(vec![])),
            ("m", Value::M(m)),
        ]);
        assert_eq!(decode(&encode(&a)), Ok(a));
        assert_eq!(decode(&encode(&Attrs::new())), Ok(Attrs::new()));
    }

    #[test]
    fn encoding_is_exact_and_compact() {
        let a = attrs(vec![
            ("n", Value::N(-2)),
            ("b", Value::Bool(true)),
            ("s", Value::S("가".into())),
        ]);
        // format, 3 attrs, "b" true, "n" zigzag(-2)=3, "s" "가" (3 bytes).
        let expected = vec![
            1, 3, 1, b'b', TAG_TRUE, 1, b'n', TAG_N, 3, 1, b's', TAG_S, 3, 0xEA, 0xB0, 0x80,
        ];
        assert_eq!(encode(&a), expected);
        let big = attrs(vec![("n", Value::N(i64::MIN))]);
        // zigzag(i64::MIN) = u64::MAX: ten varint bytes.
        assert_eq!(encode(&big).len(), 1 + 1 + 2 + 1 + 10);
    }

    #[test]
    fn refuses_corrupt_bytes() {
        let good = encode(&attrs(vec![("a", Value::S("xy".into())), ("b", Value::N(300))]));
        assert_eq!(decode(&[]), Err(DecodeError::Truncated(0)));
        assert_eq!(decode(&[9, 0]), Err(DecodeError::UnknownFormat(9)));
        assert_eq!(
            decode(&good[..good.len() - 1]),
            Err(DecodeError::Truncated(good.len() - 1))
        );
        let mut trailing = good.clone();
        trailing.push(0);
        assert_eq!(decode(&trailing), Err(DecodeError::Trailing(1)));
        // "a" then a string claiming 100 bytes.
        assert_eq!(
            decode(&[1, 1, 1, b'a', TAG_S, 100]),
            Err(DecodeError::BadLength { len: 100, at: 5 })
        );
        assert_eq!(
            decode(&[1, 1, 1, b'a', 0x7f]),
            Err(DecodeError::UnknownTag { tag: 0x7f, at: 4 })
        );
        assert_eq!(decode(&[1, 1, 1, 0xff, TAG_TRUE]), Err(DecodeError::NotUtf8(3)));
        // Names out of order ("b" before "a") and duplicated.
        assert_eq!(
            decode(&[1, 2, 1, b'b', TAG_TRUE, 1, b'a', TAG_TRUE]),
            Err(DecodeError::UnorderedName(5))
        );
        assert_eq!(
            decode(&[1, 2, 1, b'a', TAG_TRUE, 1, b'a', TAG_TRUE]),
            Err(DecodeError::UnorderedName(5))
        );
        // An 11-byte varint and one over u64.
        let mut long = vec![1, 1, 1, b'a', TAG_N];
        long.extend([0xff; 10]);
        long.push(0);
        assert_eq!(decode(&long), Err(DecodeError::BadVarint(5)));
        let mut over = vec![1, 1, 1, b'a', TAG_N];
        over.extend([0xff; 9]);
        over.push(0x02);
        assert_eq!(decode(&over), Err(DecodeError::BadVarint(5)));
    }

    #[test]
    fn refuses_nesting_beyond_the_bound() {
        let mut v = Value::N(1);
        for _ in 0..=MAX_DEPTH {
            v = Value::L(vec![v]);
        }
        let deep = attrs(vec![("a", v)]);
        assert_eq!(decode(&encode(&deep)), Err(DecodeError::TooDeep));
        let mut ok = Value::N(1);
        for _ in 0..MAX_DEPTH {
            ok = Value::L(vec![ok]);
        }
        let fine = attrs(vec![("a", ok)]);
        assert_eq!(decode(&encode(&fine)), Ok(fine));
    }
}
