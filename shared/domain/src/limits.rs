//! Every bound on text a caller sends, defined once: the ledger's parsers enforce
//! them, and the tools publish them as `maxLength` and check them before any work.
//!
//! Lengths are in Unicode scalar values (what JSON Schema's `maxLength` counts).

/// Longest vault or account name.
pub const MAX_NAME_CHARS: usize = 64;
/// Longest memo or void reason.
pub const MAX_MEMO_CHARS: usize = 500;
/// Longest idempotency key.
pub const MAX_IDEMPOTENCY_KEY_CHARS: usize = 200;
/// Longest memo search text (a filter compares it with memos, so a memo's bound).
pub const MAX_SEARCH_CHARS: usize = MAX_MEMO_CHARS;
/// Longest page cursor (ours are well under 100 characters).
pub const MAX_CURSOR_CHARS: usize = 512;
/// Longest currency code or time-zone name argument (IANA names stay under 40).
pub const MAX_CODE_CHARS: usize = 64;
/// Longest token subject (`sub`), in bytes: the same bound in auth and in [`super::PersonId`].
pub const MAX_SUBJECT_BYTES: usize = 255;
/// How many characters of a wanted name are compared when suggesting close names;
/// a longer one is over [`MAX_NAME_CHARS`] and cannot be near any stored name anyway.
pub const MAX_SUGGEST_CHARS: usize = MAX_NAME_CHARS + 1;
/// Longest externalRef (a statement line's own id: approval numbers and bank
/// transaction ids are well under 40 characters).
pub const MAX_EXTERNAL_REF_CHARS: usize = 100;
/// Most entries in one `record_transactions` batch (a month of one card fits).
pub const MAX_BATCH_ENTRIES: usize = 100;
/// Longest display name kept for a member (from the token's `name`, `preferred_username` or `email`).
pub const MAX_DISPLAY_NAME_CHARS: usize = MAX_NAME_CHARS;
/// Longest invite-code argument (28 characters, dashes and spaces, some slack).
pub const MAX_INVITE_CODE_CHARS: usize = 64;
/// Longest account argument: a name, or an archived account's handle (the name,
/// `" (archived YYYY-MM-DD #n)"` and some slack).
pub const MAX_ACCOUNT_REF_CHARS: usize = MAX_NAME_CHARS + 40;
/// Most tags on one entry (decision 038).
pub const MAX_TAGS: usize = 5;
/// Longest tag, in characters (after a leading `#` is dropped).
pub const MAX_TAG_CHARS: usize = 32;
