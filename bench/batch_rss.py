#!/usr/bin/env python3
"""Peak RSS (VmHWM) of the built server under four concurrent 1 MB JSON-RPC batches of
500,000 members, and the latency of a ping sent meanwhile (issue 27).

usage: python3 bench/batch_rss.py target/release/dochiya-mcp   (loopback only; dev auth;
a fresh temporary data dir)"""
import http.client, os, shutil, socket, subprocess, sys, tempfile, threading, time
binary = sys.argv[1]
s = socket.socket(); s.bind(("127.0.0.1", 0)); port = s.getsockname()[1]; s.close()
data = tempfile.mkdtemp(prefix="dochiya-rss-")
env = {k: v for k, v in os.environ.items() if not k.startswith(("DOCHIYA_", "AWS_"))}
env.update(DOCHIYA_AUTH="dev", DOCHIYA_DATA_DIR=data, DOCHIYA_PORT=str(port), DOCHIYA_LOG="warn")
proc = subprocess.Popen([binary, "--port", str(port)], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
def post(body, timeout=120):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    c.request("POST", "/mcp", body=body, headers={"content-type": "application/json"})
    r = c.getresponse(); out = r.read(); c.close(); return r.status, len(out)
for _ in range(100):
    try:
        post(b'{"jsonrpc":"2.0","id":0,"method":"ping"}', 1); break
    except OSError:
        time.sleep(0.1)
def hwm():
    for line in open(f"/proc/{proc.pid}/status"):
        if line.startswith(("VmHWM", "VmRSS")):
            yield line.split()[0], int(line.split()[1])
idle = dict(hwm())
body = ("[" + ",".join(["1"] * 500_000) + "]").encode()
results = []
def one():
    results.append(post(body))
threads = [threading.Thread(target=one) for _ in range(4)]
t0 = time.monotonic()
for t in threads: t.start()
time.sleep(0.05)
p0 = time.monotonic(); status = post(b'{"jsonrpc":"2.0","id":1,"method":"ping"}'); ping = time.monotonic() - p0
for t in threads: t.join()
total = time.monotonic() - t0
peak = dict(hwm())
print(f"body {len(body)} B; answers {results}; ping during {ping*1000:.0f} ms ({status[0]}); all four in {total:.2f} s")
print(f"idle VmHWM {idle['VmHWM:']/1024:.1f} MiB; peak VmHWM {peak['VmHWM:']/1024:.1f} MiB; RSS after {peak['VmRSS:']/1024:.1f} MiB")
proc.terminate(); proc.wait(); shutil.rmtree(data, ignore_errors=True)
