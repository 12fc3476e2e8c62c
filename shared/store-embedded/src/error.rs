//! What can go wrong inside the embedded store, before it becomes a [`StoreError`].

use std::path::PathBuf;

use dochiya_store::StoreError;

use crate::codec::DecodeError;

/// A failure of the embedded store itself (opening, I/O, corrupt data).
#[derive(Debug, thiserror::Error)]
pub enum EmbeddedError {
    /// The directory for the store file could not be created.
    #[error("cannot create the directory {path} for the embedded store")]
    CreateDir {
        /// The directory.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// The data directory or store file could not be made private to this user.
    #[error("cannot make {path} private to this user")]
    Permissions {
        /// The directory or file.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// The store file could not be opened or created (in use by another process, unreadable, not a store).
    #[error("cannot open the embedded store {location}")]
    Open {
        /// The file, or `memory`.
        location: String,
        /// What redb reported.
        #[source]
        source: redb::DatabaseError,
    },
    /// The file holds a store written by an incompatible version of this program.
    #[error("the embedded store {location} has format {found}, this build reads format {expected}")]
    Format {
        /// The file.
        location: String,
        /// Format recorded in the file.
        found: u64,
        /// Format this build writes.
        expected: u64,
    },
    /// A redb operation failed (I/O error, corruption detected by redb).
    #[error("embedded store {action} failed")]
    Storage {
        /// What was being done.
        action: &'static str,
        /// What redb reported.
        #[source]
        source: redb::Error,
    },
    /// An item's stored bytes do not decode.
    #[error("corrupt item {pk} / {sk} in the embedded store")]
    CorruptItem {
        /// Its partition key.
        pk: String,
        /// Its sort key.
        sk: String,
        /// What is wrong with the bytes.
        #[source]
        source: DecodeError,
    },
    /// A stored sort key is not UTF-8.
    #[error("corrupt sort key in partition {pk} of the embedded store")]
    CorruptKey {
        /// The partition.
        pk: String,
    },
    /// A group commit failed for every write it carried (the cause, as text: one redb
    /// error is reported to several writers).
    #[error("embedded store group commit: {0}")]
    Group(String),
    /// The blocking task running a store operation panicked or was cancelled.
    #[error("embedded store task did not finish")]
    Task(#[source] tokio::task::JoinError),
}

impl EmbeddedError {
    /// Wrap a redb error with what was being done.
    pub(crate) fn storage<E: Into<redb::Error>>(action: &'static str) -> impl FnOnce(E) -> Self {
        move |source| Self::Storage {
            action,
            source: source.into(),
        }
    }
}

impl From<EmbeddedError> for StoreError {
    fn from(e: EmbeddedError) -> Self {
        // Nothing here passes on retry: I/O and corruption need an operator.
        StoreError::Backend(Box::new(e))
    }
}
