//! The embedded [`dochiya_ledger::store::Store`]: a redb file on local disk, or in memory for tests.
