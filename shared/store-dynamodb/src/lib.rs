//! The DynamoDB [`dochiya_ledger::store::Store`] (DESIGN.md §7).
