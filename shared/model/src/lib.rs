//! A reference model of the household book, random household histories, and the
//! system under test they run against (issue 51; decision 054).
//!
//! - [`book`]: the model, written from docs/tools.md, every read a sum of postings;
//! - [`step`] and [`generate`]: what a household does, drawn from what the book holds;
//! - [`sut`]: the assembled MCP handler in process (JSON in, JSON out) over a store;
//! - [`machine`], [`reads`], [`compare`]: each step run on both, every answer and every
//!   read compared, every result checked against its published output schema;
//! - [`runner`]: `MODEL_CASES`, `MODEL_SEED`, the minimal failing history printed.
//!
//! Dev-only: nothing shipped depends on this crate.

pub mod book;
pub mod calendar;
pub mod compare;
pub mod csv;
pub mod generate;
pub mod live;
pub mod machine;
pub mod money;
pub mod oracle;
pub mod reads;
pub mod runner;
pub mod step;
pub mod sut;
pub mod terms;
