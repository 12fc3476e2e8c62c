//! Transaction ids of one ledger instance: each above the last it minted.
//!
//! An id is the millisecond and 20 random bits (`TransactionId::generate`). Ids of
//! one millisecond clash about once in 10,000 when a batch of 100 is minted beside a
//! few earlier entries of the same millisecond (a frozen test clock makes every
//! entry one millisecond; a fast instance does it for real), and a clash is a failed
//! write and a whole re-run of the batch. Moving past the last id instead keeps an
//! instance's ids apart by construction; ids of two instances are still kept apart
//! by the store's guard on the id item.

use std::sync::atomic::{AtomicU64, Ordering};

use dochiya_domain::TransactionId;

/// The last id this instance minted.
#[derive(Debug, Default)]
pub struct IdMinter(AtomicU64);

impl IdMinter {
    /// A new id from the time and randomness, or the one after the last if that is
    /// not above it (still time-ordered: at most a few ids ahead of the clock).
    pub fn mint(&self, unix_ms: i64, random: u64) -> TransactionId {
        let fresh = TransactionId::generate(unix_ms, random);
        let mut last = self.0.load(Ordering::Relaxed);
        loop {
            let next = if fresh.get() > last {
                fresh
            } else {
                TransactionId::from_u64(last.saturating_add(1)).unwrap_or(fresh)
            };
            match self
                .0
                .compare_exchange_weak(last, next.get(), Ordering::Relaxed, Ordering::Relaxed)
            {
                Ok(_) => return next,
                Err(now) => last = now,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_of_one_millisecond_and_the_same_random_bits_differ() {
        let minter = IdMinter::default();
        let ms = 1_790_000_000_000;
        let a = minter.mint(ms, 7);
        let b = minter.mint(ms, 7);
        let c = minter.mint(ms, 3);
        assert_eq!((b.get() - a.get(), c.get() - a.get()), (1, 2));
        assert_eq!(a, TransactionId::generate(ms, 7));
        // A later millisecond starts from its own time again.
        assert_eq!(minter.mint(ms + 1, 0), TransactionId::generate(ms + 1, 0));
    }
}
