#!/usr/bin/env python3
"""Cold start of the dochiya-mcp binary, measured from process start.

local:  process start -> first answered request (tools/call list_vaults, 2026-07-28,
        dev token) on 127.0.0.1, polling every 0.5 ms.
lambda: a minimal Lambda runtime-API stub on 127.0.0.1 (this file) hands the
        process one API Gateway v2 event through /2018-06-01/runtime/invocation/next;
        measured: process start -> first /next (init done) and -> response posted.

Usage: coldstart.py BINARY DATA_DIR RUNS
Prints one line per mode with min / median / max in milliseconds. Standard library only.
"""

import http.client
import http.server
import json
import os
import socket
import statistics
import subprocess
import sys
import threading
import time

LIST_VAULTS = json.dumps(
    {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/call",
        "params": {
            "name": "list_vaults",
            "arguments": {},
            "_meta": {
                "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                "io.modelcontextprotocol/clientCapabilities": {},
            },
        },
    }
)


def headers(token, host):
    return {
        "content-type": "application/json",
        "host": host,
        "mcp-protocol-version": "2026-07-28",
        "mcp-method": "tools/call",
        "mcp-name": "list_vaults",
        "authorization": "Bearer " + token,
    }


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def base_env(data_dir):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("AWS_", "DOCHIYA_"))}
    env.update({"DOCHIYA_DATA_DIR": data_dir, "DOCHIYA_AUTH": "dev", "DOCHIYA_LOG": "warn"})
    return env


def mint(binary, data_dir, port):
    out = subprocess.run(
        [binary, "token", "--port", str(port)], env=base_env(data_dir), capture_output=True, text=True, check=True
    )
    return out.stdout.strip().splitlines()[-1]


def stop(proc):
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def local_once(binary, data_dir):
    port = free_port()
    token = mint(binary, data_dir, port)
    env = base_env(data_dir)
    env["DOCHIYA_PORT"] = str(port)
    t0 = time.perf_counter()
    proc = subprocess.Popen([binary], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = t0 + 30
        while time.perf_counter() < deadline:
            try:
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
                conn.request("POST", "/mcp", LIST_VAULTS, headers(token, f"127.0.0.1:{port}"))
                resp = conn.getresponse()
                body = resp.read()
                conn.close()
                elapsed = time.perf_counter() - t0
                if resp.status != 200 or b'"vaults"' not in body:
                    raise SystemExit(f"unexpected answer {resp.status}: {body[:300]!r}")
                return elapsed
            except (ConnectionRefusedError, ConnectionResetError):
                time.sleep(0.0005)
        raise SystemExit("local server did not answer within 30 s")
    finally:
        stop(proc)


class Stub(http.server.BaseHTTPRequestHandler):
    """The runtime API, for one invocation: later /next calls wait until the process is stopped."""

    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_GET(self):
        state = self.server.state
        if self.path != "/2018-06-01/runtime/invocation/next":
            self.send_error(404)
            return
        if state["served"]:
            # The runtime polls again after answering: hold it until we stop the process.
            state["done"].wait(30)
            try:
                self.send_error(500)
            except OSError:
                pass  # the process is gone already
            return
        state["served"] = True
        state["next_at"] = time.perf_counter()
        body = json.dumps(state["event"]).encode()
        self.send_response(200)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(body)))
        self.send_header("lambda-runtime-aws-request-id", "bench-request-1")
        self.send_header("lambda-runtime-deadline-ms", str(int(time.time() * 1000) + 30000))
        self.send_header("lambda-runtime-invoked-function-arn", "arn:aws:lambda:us-east-1:123456789012:function:dochiya")
        self.send_header("lambda-runtime-trace-id", "Root=1-00000000-000000000000000000000000")
        self.end_headers()
        self.wfile.write(body)

    def do_POST(self):
        state = self.server.state
        length = int(self.headers.get("content-length", "0"))
        body = self.rfile.read(length)
        if self.path.endswith("/response"):
            state["response_at"] = time.perf_counter()
            state["response"] = body
        else:
            state["error"] = (self.path, body)
        self.send_response(202)
        self.send_header("content-length", "0")
        self.end_headers()
        state["answered"].set()


def api_gateway_event(token):
    return {
        "version": "2.0",
        "routeKey": "POST /mcp",
        "rawPath": "/mcp",
        "rawQueryString": "",
        "headers": headers(token, "127.0.0.1:9000"),
        "requestContext": {
            "accountId": "123456789012",
            "apiId": "bench",
            "domainName": "127.0.0.1",
            "domainPrefix": "bench",
            "http": {"method": "POST", "path": "/mcp", "protocol": "HTTP/1.1", "sourceIp": "127.0.0.1", "userAgent": "bench"},
            "requestId": "bench-1",
            "routeKey": "POST /mcp",
            "stage": "$default",
            "time": "30/Nov/2026:09:00:00 +0000",
            "timeEpoch": 1796029200000,
        },
        "body": LIST_VAULTS,
        "isBase64Encoded": False,
    }


def lambda_once(binary, data_dir, token):
    state = {"served": False, "done": threading.Event(), "answered": threading.Event(), "event": api_gateway_event(token)}
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Stub)
    server.daemon_threads = True
    server.state = state
    threading.Thread(target=server.serve_forever, daemon=True).start()
    env = base_env(data_dir)
    env.update(
        {
            "AWS_LAMBDA_RUNTIME_API": f"127.0.0.1:{server.server_address[1]}",
            "AWS_LAMBDA_FUNCTION_NAME": "dochiya",
            "AWS_LAMBDA_FUNCTION_VERSION": "$LATEST",
            "AWS_LAMBDA_FUNCTION_MEMORY_SIZE": "256",
            "AWS_LAMBDA_LOG_GROUP_NAME": "/aws/lambda/dochiya",
            "AWS_LAMBDA_LOG_STREAM_NAME": "bench",
            "AWS_REGION": "us-east-1",
        }
    )
    t0 = time.perf_counter()
    proc = subprocess.Popen([binary], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        if not state["answered"].wait(30):
            raise SystemExit("no Lambda response within 30 s; stderr: " + proc.stderr.read1(4000).decode(errors="replace"))
        if "error" in state:
            raise SystemExit(f"the function reported an error: {state['error']!r}")
        answer = json.loads(state["response"])
        if answer.get("statusCode") != 200 or '"vaults"' not in answer.get("body", ""):
            raise SystemExit(f"unexpected Lambda answer: {state['response'][:300]!r}")
        return state["next_at"] - t0, state["response_at"] - t0
    finally:
        state["done"].set()
        stop(proc)
        server.shutdown()
        server.server_close()


def summary(name, values):
    ms = sorted(v * 1000 for v in values)
    return f"{name}: min {ms[0]:.1f} ms, median {statistics.median(ms):.1f} ms, max {ms[-1]:.1f} ms ({len(ms)} runs)"


def main():
    binary, data_dir, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
    local = [local_once(binary, data_dir) for _ in range(runs)]
    token = mint(binary, data_dir, 9000)
    lam = [lambda_once(binary, data_dir, token) for _ in range(runs)]
    print(summary("cold start, local (start -> first answered tools/call)", local))
    print(summary("cold start, Lambda stub (start -> first /next = init)", [i for i, _ in lam]))
    print(summary("cold start, Lambda stub (start -> response posted)", [r for _, r in lam]))


if __name__ == "__main__":
    main()
