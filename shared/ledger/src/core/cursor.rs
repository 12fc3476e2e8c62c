//! Opaque page cursors of `list_transactions`.
//!
//! A cursor names the vault and the filters it was made for, and the sort key to
//! resume after. It is only a position: the partition always comes from the
//! caller's resolved membership, so a cursor from someone else's listing can at
//! most be refused, never read their data.

use crate::api::LedgerError;
use crate::stored::entry;
use dochiya_domain::VaultId;

const VERSION: &str = "c1";

/// Encode a position.
pub fn encode(vault: VaultId, filter_hash: &str, after_sk: &str) -> String {
    let text = format!("{VERSION}|{vault}|{filter_hash}|{after_sk}");
    text.bytes().map(|b| format!("{b:02x}")).collect()
}

/// Decode a cursor made for this vault and these filters into the sort key to resume after.
pub fn decode(cursor: &str, vault: VaultId, filter_hash: &str) -> Result<String, LedgerError> {
    let bad = || LedgerError::BadCursor;
    let t = cursor.trim();
    if !t.len().is_multiple_of(2) || t.len() > 2048 {
        return Err(bad());
    }
    let bytes = (0..t.len())
        .step_by(2)
        .map(|i| t.get(i..i + 2).and_then(|h| u8::from_str_radix(h, 16).ok()))
        .collect::<Option<Vec<u8>>>()
        .ok_or_else(bad)?;
    let text = String::from_utf8(bytes).map_err(|_| bad())?;
    let mut parts = text.splitn(4, '|');
    let (Some(v), Some(id), Some(hash), Some(sk)) = (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Err(bad());
    };
    if v != VERSION
        || id != vault.to_string()
        || hash != filter_hash
        || !(entry::is_transaction(sk) || entry::is_transaction_by_id(sk))
    {
        return Err(bad());
    }
    Ok(sk.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cursors_round_trip_only_for_their_vault_and_filters() {
        let v = VaultId::from_uuid(uuid::Uuid::from_u128(7));
        let other = VaultId::from_uuid(uuid::Uuid::from_u128(8));
        let c = encode(v, "abc", "T#2026-03-01#00004611686018427387905");
        assert_eq!(
            decode(&c, v, "abc").unwrap(),
            "T#2026-03-01#00004611686018427387905"
        );
        assert!(decode(&c, other, "abc").is_err());
        assert!(decode(&c, v, "abd").is_err());
        assert!(decode("zz", v, "abc").is_err());
        assert!(
            decode(&encode(v, "abc", "A#x"), v, "abc").is_err(),
            "only transaction positions"
        );
    }
}
