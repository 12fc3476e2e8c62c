//! Runs histories: `MODEL_CASES` of them (each from its own seed), or the one
//! `MODEL_SEED` names. A failure shrinks to a minimal history and is printed as the seed
//! that replays it and as readable steps with the calls each made.

use std::cell::Cell;
use std::sync::Once;

use proptest::test_runner::{Config, RngAlgorithm, TestCaseError, TestError, TestRng, TestRunner};
use proptest_state_machine::{ReferenceStateMachine, StateMachineTest};

use crate::book::Book;
use crate::machine::{Household, HouseholdTest, OnStore};
use crate::step::Step;

thread_local! {
    /// Panics on this thread are expected (proptest catches them while shrinking): keep quiet.
    static QUIET: Cell<bool> = const { Cell::new(false) };
}

/// Installs, once, a panic hook that stays silent on threads running histories.
fn quiet_panics() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let default = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !QUIET.with(Cell::get) {
                default(info);
            }
        }));
    });
}

/// Reads a number from the environment.
fn env_number(name: &str) -> Option<u64> {
    let text = std::env::var(name).ok()?;
    Some(
        text.trim()
            .parse()
            .unwrap_or_else(|_| panic!("{name}={text:?} is not a number")),
    )
}

/// splitmix64: the seed of case `i` from the run's base, and a seed's 32 bytes.
fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = x;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

fn seed_bytes(seed: u64) -> [u8; 32] {
    let mut out = [0_u8; 32];
    for (i, chunk) in out.chunks_mut(8).enumerate() {
        chunk.copy_from_slice(&mix(seed.wrapping_add(i as u64)).to_le_bytes());
    }
    out
}

/// Runs `default_cases` histories on store `S` (or `MODEL_CASES`; or the one
/// `MODEL_SEED`), panicking with the first failure's seed and minimal history.
pub fn run<S: OnStore>(label: &str, default_cases: u64) {
    quiet_panics();
    if let Some(seed) = env_number("MODEL_SEED") {
        if let Err(failure) = run_one::<S>(label, seed) {
            panic!("{failure}");
        }
        println!("{label}: seed {seed} passed");
        return;
    }
    let cases = env_number("MODEL_CASES").unwrap_or(default_cases);
    let base = env_number("MODEL_BASE").unwrap_or_else(|| {
        let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH);
        now.map(|d| d.as_secs() ^ u64::from(d.subsec_nanos()))
            .unwrap_or(0)
    });
    // Shown with a failure whatever it is (a panic outside a case has no seed of its own).
    println!("{label}: MODEL_BASE={base}, {cases} histories");
    let started = std::time::Instant::now();
    let mut steps = 0;
    for i in 0..cases {
        match run_one::<S>(label, mix(base.wrapping_add(i))) {
            Ok(n) => steps += n,
            Err(failure) => panic!("{failure}\n(history {} of this run, MODEL_BASE={base})", i + 1),
        }
    }
    println!(
        "{label}: {cases} histories ({steps} steps) passed in {:.1?} (MODEL_BASE={base})\n  writes answered (ok/refused): {}",
        started.elapsed(),
        crate::live::tally()
    );
}

/// One history from `seed`: the number of steps it ran, or its failure, shrunk and told.
fn run_one<S: OnStore>(label: &str, seed: u64) -> Result<usize, String> {
    let config = Config {
        cases: 1,
        failure_persistence: None,
        max_shrink_iters: 400,
        max_shrink_time: 300_000,
        ..Config::default()
    };
    let rng = TestRng::from_seed(RngAlgorithm::ChaCha, &seed_bytes(seed));
    let mut runner = TestRunner::new_with_rng(config.clone(), rng);
    let strategy = Household::sequential_strategy(S::STEPS);
    let ran = Cell::new(0);
    // Quiet while the runner shrinks (every tried case panics); loud again however the
    // run ends, a panic outside a case (in generating one) included, so it is told.
    struct Loud;
    impl Drop for Loud {
        fn drop(&mut self) {
            QUIET.with(|q| q.set(false));
        }
    }
    QUIET.with(|q| q.set(true));
    let loud = Loud;
    let result = runner.run(&strategy, |(book, steps, seen)| {
        ran.set(steps.len());
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            HouseholdTest::<S>::test_sequential(config.clone(), book, steps, seen);
        }));
        outcome.map_err(|e| TestCaseError::fail(panic_text(e.as_ref())))
    });
    drop(loud);
    match result {
        Ok(()) => Ok(ran.get()),
        Err(TestError::Fail(reason, (book, steps, _))) => Err(format!(
            "{label}: the history of seed {seed} fails.\n\
                 Replay it: MODEL_SEED={seed} cargo test -p dochiya-model --all-features --test model {label}\n\
                 {reason}\n\nThe minimal history ({} steps):\n{}",
            steps.len(),
            narrate(book, &steps)
        )),
        Err(e) => Err(format!("{label}: seed {seed}: {e}")),
    }
}

/// Runs one history written by hand (for what random histories seldom reach) exactly as
/// a random one runs: every call's answer and every read after each step compared with
/// the model. Panics with the history told, step by step, when it fails; a step the book
/// does not allow is a mistake in the history.
pub fn replay<S: OnStore>(label: &str, setup: crate::book::Setup, steps: Vec<Step>) {
    quiet_panics();
    let book = Book::new(setup);
    let mut check = book.clone();
    for (i, step) in steps.iter().enumerate() {
        assert!(
            check.allows(step),
            "{label}: step {} ({step:?}) is not allowed",
            i + 1
        );
        check.apply(step);
    }
    let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        HouseholdTest::<S>::test_sequential(Config::default(), book.clone(), steps.clone(), None);
    }));
    if let Err(e) = outcome {
        panic!(
            "{label}: {}\n\nThe history ({} steps):\n{}",
            panic_text(e.as_ref()),
            steps.len(),
            narrate(book, &steps)
        );
    }
}

fn panic_text(e: &(dyn std::any::Any + Send)) -> String {
    e.downcast_ref::<String>()
        .cloned()
        .or_else(|| e.downcast_ref::<&str>().map(|s| (*s).to_owned()))
        .unwrap_or_else(|| "a panic without a message".to_owned())
}

/// The history as readable steps: each step, the clock, and the calls it made.
pub fn narrate(mut book: Book, steps: &[Step]) -> String {
    let mut out = format!(
        "  set-up: {} {} in {}, starting {}; {} member(s)\n",
        book.setup.vault,
        book.setup.currency.code,
        book.setup.zone,
        jiff::Timestamp::from_second(book.now)
            .map(|t| t.to_string())
            .unwrap_or_default(),
        book.setup.members
    );
    for (i, a) in book.accounts.iter().enumerate() {
        out.push_str(&format!("    a{i} = {} ({})\n", a.name, a.kind.name()));
    }
    for (i, step) in steps.iter().enumerate() {
        book.apply(step);
        out.push_str(&format!(
            "  {:>2}. [{} {}] {step:?}\n",
            i + 1,
            book.today(),
            clock(book.now, book.setup.zone)
        ));
        for call in &book.calls {
            let who = &book.people[call.who].name;
            out.push_str(&format!("        {who}: {} {}\n", call.tool, call.args));
        }
    }
    out
}

fn clock(unix: i64, zone: &str) -> String {
    let tz = jiff::tz::TimeZone::get(zone).expect("a zone");
    jiff::Timestamp::from_second(unix)
        .map(|t| t.to_zoned_datetime(tz).time().to_string())
        .unwrap_or_default()
}
