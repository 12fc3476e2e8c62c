//! A vault carried out of the ledger and back: the backup file ([`backup`]) and the
//! export formats ([`export`]).

pub mod backup;
pub mod export;

#[cfg(test)]
mod properties_tests;
