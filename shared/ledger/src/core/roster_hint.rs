//! A person's roster as their access token carries it: the `rh` claim
//! ([`ROSTER_HINT_CLAIM`](dochiya_domain::scopes::ROSTER_HINT_CLAIM), decision 044).
//!
//! Our authorization server reads the roster when it mints a token and signs it into the
//! token; a new instance then knows the caller's vaults without the roster query, and
//! treats them exactly like a roster it had cached (docs/design.md §10): a read fetches
//! the roster's version in the same round as its data, a write carries a check on it, so
//! a hint that went stale (a vault made, renamed, left or removed since) costs a round,
//! never an answer from the wrong vault. The shape is compact because every request
//! carries it:
//!
//! ```json
//! {"v": 3, "m": [["<vault id>", "가계부", "가계부", "KRW", "Asia/Seoul", "owner"]]}
//! ```
//!
//! `v` is the roster version (`null` while it was never moved), `m` the memberships as
//! `[vault id, name, name key, currency, time zone, role]`.

use std::collections::BTreeMap;

use serde_json::{Value, json};

use crate::stored::member::{Membership, ROLE};
use crate::stored::table::sv;
use dochiya_store::Attrs;

/// Most memberships a hint carries; a person with more gets no hint (the roster query
/// then runs as before): the token stays small on every request.
pub const MAX_HINTED_VAULTS: usize = 8;

/// The hint for a roster of `members` at `version`; `None` past [`MAX_HINTED_VAULTS`].
pub fn encode(members: &[Membership], version: Option<i64>) -> Option<Value> {
    if members.len() > MAX_HINTED_VAULTS {
        return None;
    }
    let m: Vec<Value> = members
        .iter()
        .map(|m| {
            json!([
                m.vault_id.to_string(),
                m.name,
                m.name_key.as_str(),
                m.currency.code(),
                m.zone.name(),
                m.role.as_str(),
            ])
        })
        .collect();
    Some(json!({ "v": version, "m": m }))
}

/// The memberships and version a hint carries; `None` for any other shape (a hint is a
/// courtesy: one that cannot be read is ignored, and the roster is read instead).
pub fn decode(hint: &Value) -> Option<(Vec<Membership>, Option<i64>)> {
    let obj = hint.as_object()?;
    let version = match obj.get("v")? {
        Value::Null => None,
        v => Some(v.as_i64()?),
    };
    let list = obj.get("m")?.as_array()?;
    if list.len() > MAX_HINTED_VAULTS {
        return None;
    }
    let mut members = Vec::with_capacity(list.len());
    for entry in list {
        let [id, name, key, currency, zone, role] = entry.as_array()?.as_slice() else {
            return None;
        };
        // Through the stored record's own reader, so a hint is checked like an item.
        let attrs: Attrs = BTreeMap::from([
            ("vaultId".into(), sv(id.as_str()?)),
            ("name".into(), sv(name.as_str()?)),
            ("nameKey".into(), sv(key.as_str()?)),
            ("currency".into(), sv(currency.as_str()?)),
            ("timeZone".into(), sv(zone.as_str()?)),
            (ROLE.into(), sv(role.as_str()?)),
        ]);
        members.push(Membership::from_attrs(&attrs).ok()?);
    }
    Some((members, version))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::Role;
    use dochiya_domain::{Currency, NameKey, VaultId, VaultZone};

    fn member(name: &str, role: Role) -> Membership {
        Membership {
            vault_id: VaultId::parse("0190f3c5-7a2b-7c3d-8e4f-5a6b7c8d9e0f").expect("an id"),
            name: name.into(),
            name_key: NameKey::of(name),
            currency: Currency::parse("KRW").expect("KRW"),
            zone: VaultZone::parse("Asia/Seoul").expect("a zone"),
            role,
        }
    }

    #[test]
    fn a_hint_reads_back_as_it_was_written() {
        let members = vec![member("가계부", Role::Owner), member("여행", Role::Member)];
        let hint = encode(&members, Some(3)).expect("two vaults fit");
        assert_eq!(
            hint.to_string(),
            r#"{"m":[["0190f3c5-7a2b-7c3d-8e4f-5a6b7c8d9e0f","가계부","가계부","KRW","Asia/Seoul","owner"],["0190f3c5-7a2b-7c3d-8e4f-5a6b7c8d9e0f","여행","여행","KRW","Asia/Seoul","member"]],"v":3}"#
        );
        assert_eq!(decode(&hint), Some((members, Some(3))));
        let never_moved = encode(&[], None).expect("no vault fits");
        assert_eq!(decode(&never_moved), Some((vec![], None)));
    }

    #[test]
    fn too_many_vaults_get_no_hint() {
        let many = vec![member("가계부", Role::Owner); MAX_HINTED_VAULTS + 1];
        assert_eq!(encode(&many, Some(1)), None);
        let row = json!([
            "0190f3c5-7a2b-7c3d-8e4f-5a6b7c8d9e0f",
            "a",
            "a",
            "KRW",
            "Asia/Seoul",
            "owner"
        ]);
        let forged = json!({"v": 1, "m": vec![row; MAX_HINTED_VAULTS + 1]});
        assert_eq!(decode(&forged), None);
    }

    #[test]
    fn any_other_shape_is_ignored() {
        let ok = [
            "0190f3c5-7a2b-7c3d-8e4f-5a6b7c8d9e0f",
            "a",
            "a",
            "KRW",
            "Asia/Seoul",
            "owner",
        ];
        for bad in [
            json!(null),
            json!("rh"),
            json!({"m": [ok]}),
            json!({"v": "1", "m": [ok]}),
            json!({"v": 1.5, "m": [ok]}),
            json!({"v": 1, "m": {}}),
            json!({"v": 1, "m": [["0190f3c5-7a2b-7c3d-8e4f-5a6b7c8d9e0f", "a", "a", "KRW", "Asia/Seoul"]]}),
            json!({"v": 1, "m": [["not-an-id", "a", "a", "KRW", "Asia/Seoul", "owner"]]}),
            json!({"v": 1, "m": [["0190f3c5-7a2b-7c3d-8e4f-5a6b7c8d9e0f", "a", "a", "XXXX", "Asia/Seoul", "owner"]]}),
            json!({"v": 1, "m": [["0190f3c5-7a2b-7c3d-8e4f-5a6b7c8d9e0f", "a", "a", "KRW", "Mars/Base", "owner"]]}),
            json!({"v": 1, "m": [["0190f3c5-7a2b-7c3d-8e4f-5a6b7c8d9e0f", "a", "a", "KRW", "Asia/Seoul", "king"]]}),
            json!({"v": 1, "m": [["0190f3c5-7a2b-7c3d-8e4f-5a6b7c8d9e0f", 7, "a", "KRW", "Asia/Seoul", "owner"]]}),
        ] {
            assert_eq!(decode(&bad), None, "{bad}");
        }
    }
}
