//! The end-to-end tests of dochiya-mcp, one module per concern, in one test binary: the
//! whole app (the AWS SDKs with it) is linked once instead of once per file. The built
//! server over HTTP ([`e2e`]) and the assembled handler in process ([`harness`]), every
//! tool result checked against its published schema. The modules that need the moto
//! server sit in `moto_only!` (testkit's `moto` feature, decision 055).

mod book;
mod e2e;
mod harness;

mod auth;
mod durability;
mod export;
mod hardening;
mod household;
mod local_limits;
mod protocol;
mod protocol_cli;
mod scheduled;
mod tools;
mod tools_app;
mod views;

dochiya_testkit::moto_only! {
    mod authserver;
    mod backup;
    mod dynamo;
}
