//! What the ledger stores: one file per stored entity, holding its keys (prefixes,
//! constructors, sort-key ranges) and its records' attributes together
//! (docs/keys.md). Nothing else formats a key or names an attribute. Records are
//! internal; results are built from them explicitly ([`crate::api`]), so nothing
//! stored leaves the server unless a result names it.
//!
//! - [`table`]: the partitions, the sort-key order and the attribute readers every item uses.
//! - [`vault`]: a vault's settings, the names its members hold it by, a deletion under way.
//! - [`member`]: memberships, the roster version, member and former-member items, invites.
//! - [`account`]: accounts with their balances and settings, their name and number claims.
//! - [`entry`]: transactions, their versions, duplicate guards, externalRef and installment items.
//! - [`rollup`]: account, tag and `for` rollups, and the updates that move them.
//! - [`idempotency`]: a person's idempotency records and the results they keep.
//! - [`schedule`]: recurring schedules, their claims, head and count, and the due index.
//! - [`snapshot`]: balance snapshots and the head an account item keeps of them.
//! - [`budget`]: budget settings and the head an account item keeps of them.
//! - [`word`]: what a vault learned of memo first words.
//! - [`operation`]: operations, the entries they changed and each member's latest.
//! - [`guards`]: the names of the guards the ledger's writes carry.

pub mod account;
pub mod budget;
pub mod entry;
pub mod guards;
pub mod idempotency;
pub mod member;
pub mod operation;
pub mod rollup;
pub mod schedule;
pub mod snapshot;
pub mod table;
pub mod vault;
pub mod word;
