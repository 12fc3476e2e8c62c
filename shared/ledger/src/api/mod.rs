//! What a tool sends the ledger, what it gets back, and why a call was refused: plain
//! data, no store and no operation. Each item has one public path, `dochiya_ledger::api::…`.

mod entries;
mod error;
mod household;
mod plans;

pub use entries::*;
pub use error::*;
pub use household::*;
pub use plans::*;
