//! The local HTTP adapter: hyper on 127.0.0.1, one task per connection, graceful stop.
//!
//! No protocol logic lives here. The body is buffered up to one byte past the gate's
//! cap, so the gate (not this adapter) answers 413 without us holding a huge body.

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use bytes::{Bytes, BytesMut};
use http_body_util::{BodyExt as _, Full};
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper_util::rt::TokioIo;
use hyper_util::server::graceful::GracefulShutdown;
use tokio::net::TcpListener;

use crate::Handle;

/// How long in-flight requests get to finish after a stop signal.
const DRAIN_TIMEOUT: Duration = Duration::from_secs(10);

/// Serve `server` on `listener` until `shutdown` resolves, then drain open connections.
pub async fn serve<H: Handle>(
    listener: TcpListener,
    server: Arc<H>,
    body_limit: usize,
    shutdown: impl Future<Output = ()>,
) -> std::io::Result<()> {
    let graceful = GracefulShutdown::new();
    tokio::pin!(shutdown);
    loop {
        tokio::select! {
            accepted = listener.accept() => {
                let (stream, peer) = match accepted {
                    Ok(a) => a,
                    Err(e) => {
                        // Accept errors (EMFILE, aborted handshakes) are per connection: keep serving.
                        tracing::warn!(error = %e, "accept failed");
                        continue;
                    }
                };
                let server = Arc::clone(&server);
                let service = service_fn(move |req| answer(Arc::clone(&server), req, body_limit));
                let connection = http1::Builder::new().serve_connection(TokioIo::new(stream), service);
                let connection = graceful.watch(connection);
                tokio::spawn(async move {
                    if let Err(e) = connection.await {
                        tracing::debug!(%peer, error = %e, "connection ended with an error");
                    }
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

/// One request: buffer the body (bounded), hand it to the one handler, send its answer.
async fn answer<H: Handle>(
    server: Arc<H>,
    req: hyper::Request<Incoming>,
    body_limit: usize,
) -> Result<hyper::Response<Full<Bytes>>, hyper::Error> {
    let (parts, mut body) = req.into_parts();
    let mut buffered = BytesMut::new();
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
    let response = server
        .handle(http::Request::from_parts(parts, buffered.freeze()))
        .await;
    Ok(response.map(Full::new))
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
