//! What every operation shares.

pub(crate) mod cursor;
pub(crate) mod minted;
pub(crate) mod roster_hint;
pub(crate) mod settle;
