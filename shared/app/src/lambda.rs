//! The Lambda adapter: API Gateway events in, the one handler, API Gateway responses out.
//!
//! Only representation changes here. lambda_http decodes base64 event bodies into
//! bytes; the answer goes back as text (our bodies are JSON or empty), so API Gateway
//! never sees a base64 response.

use std::convert::Infallible;
use std::sync::Arc;

use bytes::Bytes;
use lambda_http::{Body, Request, Response, service_fn};

use crate::Handle;

/// Serve Lambda invocations until the runtime stops the process.
pub async fn run<H: Handle>(server: Arc<H>) -> Result<(), lambda_http::Error> {
    // The server is built once, before the first event, and shared by every invocation.
    lambda_http::run(service_fn(move |event: Request| {
        let server = Arc::clone(&server);
        async move { answer(&server, event).await }
    }))
    .await
}

/// One invocation: convert the event to `http::Request<Bytes>`, handle it, convert back.
pub async fn answer<H: Handle>(server: &H, event: Request) -> Result<Response<Body>, Infallible> {
    let (parts, body) = event.into_parts();
    let body = match body {
        Body::Empty => Bytes::new(),
        Body::Text(text) => Bytes::from(text),
        Body::Binary(bytes) => Bytes::from(bytes),
        other => Bytes::copy_from_slice(other.as_ref()),
    };
    let response = server.handle(http::Request::from_parts(parts, body)).await;
    Ok(response.map(|bytes| {
        if bytes.is_empty() {
            Body::Empty
        } else {
            match String::from_utf8(bytes.to_vec()) {
                Ok(text) => Body::Text(text),
                Err(e) => Body::Binary(e.into_bytes()),
            }
        }
    }))
}
