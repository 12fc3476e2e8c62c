//! The local HTTP adapter: hyper on 127.0.0.1, one task per connection, graceful stop.
//!
//! No protocol logic lives here. The body is buffered up to one byte past the gate's
//! cap, so the gate (not this adapter) answers 413 without us holding a huge body; a
//! declared `Content-Length` over the cap is answered before any of the body is read
//! (what follows is then dropped unbuffered, within the body deadline).
//! No client can hold the server: headers, bodies and idle keep-alive connections have
//! deadlines, and the number of open connections is capped.

use std::future::Future;
use std::sync::Arc;
use std::time::{Duration, Instant};

use bytes::{Bytes, BytesMut};
use http_body_util::{BodyExt as _, Full};
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use tokio::net::TcpListener;
use tokio::sync::Semaphore;

use crate::Handle;

/// How long in-flight requests get to finish after a stop signal.
const DRAIN_TIMEOUT: Duration = Duration::from_secs(10);
/// Pause after a failed accept: EMFILE and friends do not clear at once, and retrying
/// immediately spins a core and floods the log.
const ACCEPT_BACKOFF: Duration = Duration::from_millis(100);
/// After a 413, at most this many times the body limit is read and dropped before closing.
const DISCARD_FACTOR: usize = 4;
/// At most one log line per this interval for repeated accept or cap refusals.
const LOG_EVERY: Duration = Duration::from_secs(1);

/// What keeps one client from holding the local server.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ConnectionLimits {
    /// Time for a request's headers to arrive; also how long an idle keep-alive
    /// connection (or one that never sends a byte) stays open.
    pub header_read: Duration,
    /// Time for a whole request body to arrive once its headers are in.
    pub body_read: Duration,
    /// Connections open at once; one more is closed at once.
    pub max_connections: usize,
}

impl ConnectionLimits {
    /// Header and idle deadline (`DOCHIYA_HTTP_TIMEOUT_MS` overrides).
    pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(10);
    /// Open connections at once (`DOCHIYA_MAX_CONNECTIONS` overrides).
    pub const DEFAULT_MAX_CONNECTIONS: usize = 256;
}

impl Default for ConnectionLimits {
    fn default() -> Self {
        ConnectionLimits {
            header_read: Self::DEFAULT_TIMEOUT,
            body_read: Self::DEFAULT_TIMEOUT,
            max_connections: Self::DEFAULT_MAX_CONNECTIONS,
        }
    }
}

/// A warning logged at most once per [`LOG_EVERY`], counting what it left out.
struct Throttled {
    last: Option<Instant>,
    suppressed: u64,
}

impl Throttled {
    fn new() -> Self {
        Throttled {
            last: None,
            suppressed: 0,
        }
    }

    /// `Some(n)` (n = lines left out since the last one) when this one should be logged.
    fn allow(&mut self) -> Option<u64> {
        let now = Instant::now();
        if self.last.is_some_and(|t| now.duration_since(t) < LOG_EVERY) {
            self.suppressed += 1;
            return None;
        }
        self.last = Some(now);
        Some(std::mem::take(&mut self.suppressed))
    }
}

/// Serve `server` on `listener` until `shutdown` resolves, then drain open connections.
pub async fn serve<H: Handle>(
    listener: TcpListener,
    server: Arc<H>,
    body_limit: usize,
    limits: ConnectionLimits,
    shutdown: impl Future<Output = ()>,
) -> std::io::Result<()> {
    let graceful = GracefulShutdown::new();
    let slots = Arc::new(Semaphore::new(limits.max_connections));
    let mut accept_log = Throttled::new();
    let mut cap_log = Throttled::new();
    tokio::pin!(shutdown);
    loop {
        tokio::select! {
            accepted = listener.accept() => {
                let (stream, peer) = match accepted {
                    Ok(a) => a,
                    Err(e) => {
                        // Accept errors (EMFILE, aborted handshakes) are per connection: keep
                        // serving, but back off so a full descriptor table is not a busy loop.
                        if let Some(suppressed) = accept_log.allow() {
                            tracing::warn!(error = %e, suppressed, "accept failed");
                        }
                        tokio::time::sleep(ACCEPT_BACKOFF).await;
                        continue;
                    }
                };
                let Ok(slot) = Arc::clone(&slots).try_acquire_owned() else {
                    // Over the cap: close now rather than queue (the client sees a reset).
                    if let Some(suppressed) = cap_log.allow() {
                        tracing::warn!(%peer, max = limits.max_connections, suppressed, "connection refused: too many open connections");
                    }
                    drop(stream);
                    continue;
                };
                let server = Arc::clone(&server);
                let service = service_fn(move |req| answer(Arc::clone(&server), req, body_limit, limits.body_read));
                let connection = http1::Builder::new()
                    .timer(TokioTimer::new())
                    .header_read_timeout(limits.header_read)
                    .serve_connection(TokioIo::new(stream), service);
                let connection = graceful.watch(connection);
                tokio::spawn(async move {
                    if let Err(e) = connection.await {
                        tracing::debug!(%peer, error = ?e.to_string(), "connection ended with an error");
                    }
                    drop(slot);
                });
            }
            () = &mut shutdown => break,
        }
    }
    drop(listener);
    tokio::select! {
        () = graceful.shutdown() => tracing::info!("stopped: all connections closed"),
        () = tokio::time::sleep(DRAIN_TIMEOUT) => tracing::warn!("stopped: gave up waiting for open connections"),
    }
    Ok(())
}

/// One request: buffer the body (bounded, within the deadline), hand it to the one
/// handler, send its answer.
async fn answer<H: Handle>(
    server: Arc<H>,
    req: hyper::Request<Incoming>,
    body_limit: usize,
    body_read: Duration,
) -> Result<hyper::Response<Full<Bytes>>, hyper::Error> {
    let (parts, mut body) = req.into_parts();
    let declared_over = parts
        .headers
        .get(http::header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok())
        .is_some_and(|n| n > u64::try_from(body_limit).unwrap_or(u64::MAX));
    let mut buffered = BytesMut::new();
    // A declared length over the cap: the gate answers 413 from the header alone,
    // so nothing of the body is read (and the connection closes after the answer).
    if !declared_over {
        let read = async {
            while buffered.len() <= body_limit {
                match body.frame().await {
                    None => break,
                    Some(frame) => {
                        if let Ok(data) = frame?.into_data() {
                            buffered.extend_from_slice(&data);
                        }
                    }
                }
            }
            Ok::<(), hyper::Error>(())
        };
        match tokio::time::timeout(body_read, read).await {
            Ok(result) => result?,
            Err(_) => {
                tracing::debug!(after_ms = body_read.as_millis() as u64, "request body too slow");
                return Ok(closing(timeout_response()));
            }
        }
    }
    let response = server
        .handle(http::Request::from_parts(parts, buffered.freeze()))
        .await;
    let response = response.map(Full::new);
    if !declared_over {
        return Ok(response);
    }
    // The 413 goes out now; the body the client is still sending is read and
    // dropped (bounded in bytes and time) so closing does not reset the connection
    // under the client before it has read the answer (a "lingering close").
    let discard = DISCARD_FACTOR.saturating_mul(body_limit);
    tokio::spawn(async move {
        let drain = async {
            let mut seen = 0usize;
            while let Some(Ok(frame)) = body.frame().await {
                seen = seen.saturating_add(frame.data_ref().map_or(0, Bytes::len));
                if seen > discard {
                    break;
                }
            }
        };
        let _ = tokio::time::timeout(body_read, drain).await;
    });
    Ok(closing(response))
}

/// 408 for a body that did not arrive in time (plain text: there is no JSON-RPC id to answer).
fn timeout_response() -> hyper::Response<Full<Bytes>> {
    let mut response = hyper::Response::new(Full::new(Bytes::from_static(
        b"Request Timeout: the request body did not arrive in time\n",
    )));
    *response.status_mut() = http::StatusCode::REQUEST_TIMEOUT;
    response.headers_mut().insert(
        http::header::CONTENT_TYPE,
        http::HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    response
}

/// Ask hyper to close the connection after this response (its unread body is not drained).
fn closing(mut response: hyper::Response<Full<Bytes>>) -> hyper::Response<Full<Bytes>> {
    response
        .headers_mut()
        .insert(http::header::CONNECTION, http::HeaderValue::from_static("close"));
    response
}

/// Resolves on Ctrl-C or (on Unix) SIGTERM.
pub async fn stop_signal() {
    let ctrl_c = async {
        if let Err(e) = tokio::signal::ctrl_c().await {
            tracing::warn!(error = %e, "cannot listen for Ctrl-C");
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(e) => {
                tracing::warn!(error = %e, "cannot listen for SIGTERM");
                std::future::pending::<()>().await;
            }
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {}
        () = term => {}
    }
    tracing::info!("stop signal received");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn throttled_logs_once_per_interval_and_counts_the_rest() {
        let mut t = Throttled::new();
        assert_eq!(t.allow(), Some(0));
        assert_eq!(t.allow(), None);
        assert_eq!(t.allow(), None);
        t.last = Instant::now().checked_sub(LOG_EVERY);
        assert_eq!(t.allow(), Some(2));
    }
}
