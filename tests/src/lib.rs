//! Helpers for the end-to-end tests: start the built server, speak HTTP to it.
