//! Helpers for the end-to-end tests: start the built server, speak HTTP to it.
//!
//! A module of the end-to-end test binary (`tests/tests/main.rs`), used by each test
//! that runs the server. Those tests belong to the `dochiya-mcp` package (functions/mcp/Cargo.toml), so Cargo builds the
//! binary for them and names it in `CARGO_BIN_EXE_dochiya-mcp`: a test never runs a
//! stale binary left from an earlier build. [`Server::start`] runs it on a free port
//! (`DOCHIYA_PORT=0`; the binary prints the address it bound) with its own temporary
//! data directory, and stops it on drop. [`send`] is a deliberately small HTTP/1.1
//! client over a raw socket, so a test controls every header byte (no `Accept` unless
//! the test sends one).

// Without the moto feature the modules that need moto are left out, and with them the
// only users of some helpers.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// The binary Cargo built for this test target.
pub fn binary_path() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_dochiya-mcp"))
}

/// `dochiya-mcp` with only what a test sets: nothing inherited may switch stores, auth or runtime.
fn clean_command() -> Command {
    let mut command = Command::new(binary_path());
    for (key, _) in std::env::vars_os() {
        let key = key.to_string_lossy();
        if key.starts_with("DOCHIYA_") || key.starts_with("AWS_") || key == "LAMBDA_TASK_ROOT" {
            command.env_remove(&*key);
        }
    }
    command
}

/// Run a `dochiya-mcp` subcommand to completion with `env` (and nothing inherited).
pub fn run(args: &[&str], env: &[(&str, &str)]) -> std::process::Output {
    clean_command()
        .args(args)
        .env("DOCHIYA_LOG", "warn")
        .envs(env.iter().copied())
        .stdin(Stdio::null())
        .output()
        .expect("run dochiya-mcp")
}

/// The local DynamoDB-compatible server's settings, passed to a child explicitly.
/// Fails loudly when `tests/run.sh` (stage 20) did not start one: never skipped.
pub fn dynamodb_env() -> Vec<(&'static str, String)> {
    let endpoint = std::env::var("AWS_ENDPOINT_URL_DYNAMODB").unwrap_or_else(|_| {
        panic!(
            "AWS_ENDPOINT_URL_DYNAMODB is not set: these tests need the moto server that tests/run.sh \
             starts (or start one and export AWS_ENDPOINT_URL_DYNAMODB, AWS_REGION and test credentials)"
        )
    });
    let var = |k: &str, default: &str| std::env::var(k).unwrap_or_else(|_| default.to_owned());
    vec![
        ("AWS_ENDPOINT_URL_DYNAMODB", endpoint),
        ("AWS_REGION", var("AWS_REGION", "us-east-1")),
        ("AWS_ACCESS_KEY_ID", var("AWS_ACCESS_KEY_ID", "test")),
        ("AWS_SECRET_ACCESS_KEY", var("AWS_SECRET_ACCESS_KEY", "test")),
        ("AWS_EC2_METADATA_DISABLED", "true".to_owned()),
    ]
}

/// A running `dochiya-mcp`; killed and its data directory removed on drop.
#[derive(Debug)]
pub struct Server {
    child: Child,
    data_dir: PathBuf,
    /// The bound port on 127.0.0.1.
    pub port: u16,
    /// The dev token it printed (both scopes, `sub` = `local`).
    pub token: String,
    /// From spawning the process to its first answered request.
    pub startup: Duration,
}

static NEXT_DIR: AtomicU32 = AtomicU32::new(0);

impl Server {
    /// Start with the default configuration (dev auth, embedded store).
    pub fn start() -> Self {
        Self::start_with(&[])
    }

    /// Start with extra `DOCHIYA_*` variables.
    pub fn start_with(env: &[(&str, &str)]) -> Self {
        let data_dir = std::env::temp_dir().join(format!(
            "dochiya-e2e-{}-{}",
            std::process::id(),
            NEXT_DIR.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = std::fs::remove_dir_all(&data_dir);
        Self::start_in(data_dir, env)
    }

    /// Start on an existing data directory (one a killed server left), with extra variables.
    pub fn start_in(data_dir: PathBuf, env: &[(&str, &str)]) -> Self {
        let mut command = clean_command();
        command
            .env("DOCHIYA_PORT", "0")
            .env("DOCHIYA_DATA_DIR", &data_dir)
            .env("DOCHIYA_AUTH", "dev")
            .env("DOCHIYA_LOG", "warn")
            .envs(env.iter().copied())
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit());
        let started = Instant::now();
        let mut child = command.spawn().expect("spawn dochiya-mcp");
        let stdout = child.stdout.take().expect("piped stdout");
        let (lines, received) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if lines.send(line).is_err() {
                    break;
                }
            }
        });
        let mut port = None;
        let mut token = None;
        while port.is_none() || token.is_none() {
            let line = match received.recv_timeout(Duration::from_secs(60)) {
                Ok(line) => line,
                Err(e) => {
                    let _ = child.kill();
                    panic!(
                        "dochiya-mcp did not announce itself ({e}); status {:?}",
                        child.try_wait()
                    );
                }
            };
            if let Some(url) = line.strip_prefix("dochiya: listening on http://127.0.0.1:") {
                port = url.trim_end_matches("/mcp").parse::<u16>().ok();
            } else if line.starts_with("dochiya: dev token") {
                token = line.rsplit(' ').next().map(str::to_owned);
            }
        }
        let mut server = Server {
            child,
            data_dir,
            port: port.unwrap_or_default(),
            token: token.unwrap_or_default(),
            startup: Duration::ZERO,
        };
        let ping = server.post(
            &[("content-type", "application/json")],
            br#"{"jsonrpc":"2.0","id":0,"method":"ping"}"#,
        );
        assert_eq!(ping.status, 200, "first ping");
        server.startup = started.elapsed();
        server
    }

    /// `POST /mcp` with exactly `headers` (plus Host, Content-Length, Connection: close).
    pub fn post(&self, headers: &[(&str, &str)], body: &[u8]) -> Response {
        self.send("POST", "/mcp", headers, body)
    }

    /// `POST /mcp` with a JSON body and `Content-Type: application/json` plus `headers`.
    pub fn post_json(&self, headers: &[(&str, &str)], body: &str) -> Response {
        let mut all = vec![("content-type", "application/json")];
        all.extend_from_slice(headers);
        self.post(&all, body.as_bytes())
    }

    /// Any request to this server.
    pub fn send(&self, method: &str, path: &str, headers: &[(&str, &str)], body: &[u8]) -> Response {
        send(self.port, method, path, headers, body).unwrap_or_else(|e| panic!("{method} {path}: {e}"))
    }

    /// Its data directory (embedded store, dev secret).
    pub fn data_dir(&self) -> &std::path::Path {
        &self.data_dir
    }

    /// `Authorization: Bearer <the printed dev token>`.
    pub fn bearer(&self) -> String {
        format!("Bearer {}", self.token)
    }

    /// SIGKILL the process (no shutdown, no flush) and keep its data directory for a restart.
    pub fn kill_keeping_data(mut self) -> PathBuf {
        let _ = self.child.kill();
        let _ = self.child.wait();
        std::mem::take(&mut self.data_dir)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        // Empty once `kill_keeping_data` handed the directory on.
        if !self.data_dir.as_os_str().is_empty() {
            let _ = std::fs::remove_dir_all(&self.data_dir);
        }
    }
}

/// An HTTP answer.
#[derive(Debug, Clone)]
pub struct Response {
    /// Status code.
    pub status: u16,
    /// Headers, names lower-cased, in order.
    pub headers: Vec<(String, String)>,
    /// The body bytes.
    pub body: Vec<u8>,
}

impl Response {
    /// The first value of header `name` (case-insensitive).
    pub fn header(&self, name: &str) -> Option<&str> {
        let name = name.to_ascii_lowercase();
        self.headers
            .iter()
            .find(|(k, _)| *k == name)
            .map(|(_, v)| v.as_str())
    }

    /// The body as JSON (panics with the body text when it is not JSON).
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {:?}", String::from_utf8_lossy(&self.body)))
    }
}

/// One HTTP/1.1 request on a fresh connection to 127.0.0.1:`port`.
pub fn send(
    port: u16,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &[u8],
) -> std::io::Result<Response> {
    let mut stream = TcpStream::connect(("127.0.0.1", port))?;
    stream.set_read_timeout(Some(Duration::from_secs(30)))?;
    let mut head = format!("{method} {path} HTTP/1.1\r\n");
    if !headers.iter().any(|(k, _)| k.eq_ignore_ascii_case("host")) {
        head.push_str(&format!("Host: 127.0.0.1:{port}\r\n"));
    }
    for (name, value) in headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str(&format!(
        "Content-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    ));
    stream.write_all(head.as_bytes())?;
    stream.write_all(body)?;
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw)?;
    parse_response(&raw)
}

fn parse_response(raw: &[u8]) -> std::io::Result<Response> {
    let bad = |what: &str| std::io::Error::new(std::io::ErrorKind::InvalidData, what.to_owned());
    let split = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .ok_or_else(|| bad("no end of head"))?;
    let head = std::str::from_utf8(&raw[..split]).map_err(|_| bad("head not UTF-8"))?;
    let mut lines = head.split("\r\n");
    let status = lines
        .next()
        .and_then(|l| l.split(' ').nth(1))
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| bad("status line"))?;
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_owned()))
        .collect();
    let mut body = raw[split + 4..].to_vec();
    if let Some(len) = headers
        .iter()
        .find(|(k, _)| k == "content-length")
        .and_then(|(_, v)| v.parse::<usize>().ok())
    {
        body.truncate(len);
    }
    Ok(Response {
        status,
        headers,
        body,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_status_headers_and_body_by_length() {
        let r = parse_response(
            b"HTTP/1.1 405 Method Not Allowed\r\nAllow: POST\r\ncontent-length: 2\r\n\r\n{}xx",
        )
        .unwrap();
        assert_eq!(r.status, 405);
        assert_eq!(r.header("allow"), Some("POST"));
        assert_eq!(r.body, b"{}");
    }
}
