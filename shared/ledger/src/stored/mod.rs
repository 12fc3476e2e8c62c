//! What the ledger stores: the one table's keys ([`keys`]), the attributes of its
//! items ([`attrs`]) and the names of the guards its writes carry ([`guards`]).

pub mod attrs;
pub mod guards;
pub mod keys;
