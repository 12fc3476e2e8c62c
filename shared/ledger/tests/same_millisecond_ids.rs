//! Entries one instance records in the same millisecond get distinct ids even when
//! the random bits repeat: before the ids moved past the last one minted, the second
//! entry here clashed with the first (a failed write, retried until it gave up), and
//! a batch of 100 beside a few entries of its millisecond clashed about once in
//! 10,000 runs (the contract suite's `batch_of_a_hundred_each_once` saw one more
//! read round and one more write).

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use dochiya_domain::{AccountKind, Decimal, Entropy, ManualClock, PersonId};
use dochiya_ledger::api::{NewAccount, NewTransaction, NewVault};
use dochiya_ledger::{Ledger, LedgerConfig};
use dochiya_testkit::memory::MemoryStore;

/// Fresh bits every time but for the low 20, the ones a transaction id takes.
#[derive(Default)]
struct Stuck(AtomicU64);

impl Entropy for Stuck {
    fn next_u64(&self) -> u64 {
        (self.0.fetch_add(1, Ordering::Relaxed) + 1) << 20 | 7
    }
}

#[tokio::test]
async fn one_millisecond_and_the_same_random_bits_still_give_distinct_ids() {
    // A clock that never moves: every id below is minted in one millisecond.
    let clock = Arc::new(ManualClock::at_unix_seconds(1_773_543_600));
    let l = Ledger::with_entropy(
        Arc::new(MemoryStore::new()),
        clock,
        Arc::new(Stuck::default()),
        LedgerConfig::default(),
    );
    let me = PersonId::new("same-ms").expect("a subject");
    let vault = NewVault {
        name: "가계부".into(),
        currency: None,
        time_zone: None,
    };
    Box::pin(l.create_vault(&me, vault)).await.expect("create_vault");
    for (name, kind, opening) in [
        ("카카오뱅크", AccountKind::Asset, Some("1000000")),
        ("식비", AccountKind::Expense, None),
    ] {
        let account = NewAccount {
            vault: None,
            name: name.into(),
            kind,
            opening_balance: opening.map(|o| Decimal::parse(o).expect("an amount")),
            opening_date: None,
            parent: None,
            billing: None,
            owner: None,
        };
        Box::pin(l.create_account(&me, account))
            .await
            .expect("create_account");
    }
    let mut ids = Vec::new();
    for (i, amount) in ["12000", "8000"].iter().enumerate() {
        let entry = NewTransaction {
            vault: None,
            from: "카카오뱅크".into(),
            to: "식비".into(),
            amount: Decimal::parse(amount).expect("an amount"),
            date: None,
            memo: Some(format!("점심 {i}")),
            idempotency_key: format!("same-ms-{i}"),
            allow_duplicate: false,
            future_date: false,
            dry_run: false,
            external_ref: None,
            tags: vec![],
            for_whom: None,
        };
        let recorded = Box::pin(l.record_transaction(&me, entry))
            .await
            .expect("record_transaction");
        ids.push(recorded.transaction.transaction_id.get());
    }
    // The opening entry took the id of this millisecond and these bits; each next one
    // is the one after.
    assert_eq!(ids[1] - ids[0], 1);
}
