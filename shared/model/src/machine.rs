//! The model and the system under test as one state machine: proptest-state-machine
//! draws steps from the model ([`Household`]) and runs each on the server ([`Live`]),
//! comparing every answer with what the model expects, then every read.

use std::marker::PhantomData;

use proptest::prelude::*;
use proptest_state_machine::{ReferenceStateMachine, StateMachineTest};

use crate::book::Book;
use crate::live::Live;
use crate::step::Step;
use crate::sut::Backend;
use crate::{generate, oracle, reads};

/// The reference state machine: the book, its steps drawn from what it holds.
#[derive(Debug)]
pub struct Household;

impl ReferenceStateMachine for Household {
    type State = Book;
    type Transition = Step;

    fn init_state() -> BoxedStrategy<Book> {
        generate::setup().prop_map(Book::new).boxed()
    }

    fn transitions(book: &Book) -> BoxedStrategy<Step> {
        generate::step(book)
    }

    fn apply(mut book: Book, step: &Step) -> Book {
        book.apply(step);
        book
    }

    fn preconditions(book: &Book, step: &Step) -> bool {
        book.allows(step)
    }
}

/// Which store a run uses, as a type (the state-machine trait has no instance).
pub trait OnStore {
    /// The store.
    const BACKEND: Backend;
    /// At the end of each history, hledger's balances of the export must equal the model.
    const HLEDGER: bool = false;
    /// How many steps a history has.
    const STEPS: std::ops::RangeInclusive<usize> = 5..=35;
}

/// The test kit's memory store.
#[derive(Debug)]
pub struct OnMemory;
impl OnStore for OnMemory {
    const BACKEND: Backend = Backend::Memory;
}

/// The embedded store in memory.
#[derive(Debug)]
pub struct OnEmbedded;
impl OnStore for OnEmbedded {
    const BACKEND: Backend = Backend::Embedded;
}

/// The embedded store on a file.
#[derive(Debug)]
pub struct OnEmbeddedFile;
impl OnStore for OnEmbeddedFile {
    const BACKEND: Backend = Backend::EmbeddedFile;
}

/// The embedded store in memory, each final book checked by hledger too.
#[derive(Debug)]
pub struct OnEmbeddedWithHledger;
impl OnStore for OnEmbeddedWithHledger {
    const BACKEND: Backend = Backend::Embedded;
    const HLEDGER: bool = true;
}

/// DynamoDB on moto.
#[derive(Debug)]
pub struct OnDynamo;
impl OnStore for OnDynamo {
    const BACKEND: Backend = Backend::Dynamo;
    // moto answers in milliseconds where the local stores take microseconds.
    const STEPS: std::ops::RangeInclusive<usize> = 4..=14;
}

/// The state-machine test over store `S`.
#[derive(Debug)]
pub struct HouseholdTest<S>(PhantomData<S>);

impl<S: OnStore> StateMachineTest for HouseholdTest<S> {
    type SystemUnderTest = Live;
    type Reference = Household;

    fn init_test(book: &Book) -> Live {
        let mut live = Live::start(S::BACKEND, book);
        run(&mut live, book);
        live
    }

    fn apply(mut live: Live, book: &Book, _step: Step) -> Live {
        run(&mut live, book);
        live
    }

    fn teardown(mut live: Live, book: Book) {
        if S::HLEDGER {
            oracle::check_hledger(&mut live, &book);
        }
    }
}

/// Makes the step's calls, checks each answer, then every read.
fn run(live: &mut Live, book: &Book) {
    for call in &book.calls {
        live.check_call(book, call);
    }
    live.set_clock(book.now);
    reads::check(live, book);
}
