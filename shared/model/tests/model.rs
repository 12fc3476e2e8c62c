//! Random household histories against the reference model, on the memory store and the
//! embedded store (in memory and on a file). `MODEL_CASES` sets how many per store,
//! `MODEL_SEED` replays one; tests/model.sh runs a soak.

use dochiya_model::machine::{OnEmbedded, OnEmbeddedFile, OnEmbeddedWithHledger, OnMemory};
use dochiya_model::runner::run;

#[test]
fn histories_on_the_memory_store() {
    run::<OnMemory>("histories_on_the_memory_store", 80);
}

#[test]
fn histories_on_the_embedded_store() {
    run::<OnEmbedded>("histories_on_the_embedded_store", 80);
}

#[test]
fn histories_on_the_embedded_store_on_a_file() {
    run::<OnEmbeddedFile>("histories_on_the_embedded_store_on_a_file", 16);
}

#[test]
fn exported_books_balance_in_hledger_as_in_the_model() {
    run::<OnEmbeddedWithHledger>("exported_books_balance_in_hledger_as_in_the_model", 8);
}
