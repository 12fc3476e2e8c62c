//! Store-level contract: conditions, atomicity, queries and cursors over any Store.
