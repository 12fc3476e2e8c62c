//! OAuth 2.1 protected resource (DESIGN.md §3): metadata, challenges, JWT verification, dev tokens.
