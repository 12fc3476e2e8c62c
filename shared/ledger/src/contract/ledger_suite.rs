//! Ledger-level contract: operations, races, isolation and read budgets over any Store.
