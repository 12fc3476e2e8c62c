-- wrk script: one of the three benchmark requests as a 2026-07-28 client sends it.
-- Set by bench/load.sh through the environment: BENCH_REQUEST (tools_list |
-- list_accounts | record_transaction), BENCH_TOKEN, BENCH_HOST, BENCH_PATH,
-- BENCH_MAX (requests per thread before the thread stops: the count bound).
local kind = os.getenv("BENCH_REQUEST")
local token = os.getenv("BENCH_TOKEN")
local host = os.getenv("BENCH_HOST")
local path = os.getenv("BENCH_PATH") or "/mcp"
local max = tonumber(os.getenv("BENCH_MAX") or "100000")
local meta = '"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}'

local threads = {}
local counter = 0
local sent = 0

function setup(thread)
  thread:set("id", #threads + 1)
  table.insert(threads, thread)
end

local function headers(method, tool)
  local h = {
    ["Host"] = host,
    ["Content-Type"] = "application/json",
    ["Accept"] = "application/json, text/event-stream",
    ["MCP-Protocol-Version"] = "2026-07-28",
    ["Mcp-Method"] = method,
    ["Authorization"] = "Bearer " .. token,
  }
  if tool then h["Mcp-Name"] = tool end
  return h
end

local function call(tool, arguments)
  return wrk.format("POST", path, headers("tools/call", tool),
    '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"' .. tool .. '","arguments":' .. arguments .. ',' .. meta .. '}}')
end

local fixed = nil
if kind == "tools_list" then
  fixed = wrk.format("POST", path, headers("tools/list", nil),
    '{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{' .. meta .. '}}')
elseif kind == "list_accounts" then
  fixed = call("list_accounts", "{}")
end

function request()
  if fixed then return fixed end
  counter = counter + 1
  -- A fresh idempotency key per request (per thread and run), so every request writes.
  return call("record_transaction",
    '{"from":"카카오뱅크","to":"식비","amount":"12000","memo":"점심","allowDuplicate":true,"idempotencyKey":"load-'
    .. (os.getenv("BENCH_RUN") or "0") .. '-' .. tostring(id) .. '-' .. counter .. '"}')
end

-- Checking every response costs the client: wrk hands each body to Lua, and a 122 KB
-- tools/list body made the client, not the server, the bottleneck (wrk at 80 % of its
-- core against the server's 22 %). BENCH_CHECK=status checks the status only, and wrk
-- counts non-2xx answers itself, so the body is never copied into Lua; the caller checks
-- the bodies of a few requests before the run instead.
if os.getenv("BENCH_CHECK") ~= "status" then
  function response(status, headers, body)
    sent = sent + 1
    if status ~= 200 or string.find(body, '"isError":true', 1, true) then
      io.stderr:write("bad response " .. status .. ": " .. string.sub(body, 1, 200) .. "\n")
      wrk.thread:stop()
    end
    if sent >= max then wrk.thread:stop() end
  end
end

function done(summary, latency, requests)
  local secs = summary.duration / 1e6
  local bad = summary.errors.status + summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout
  io.write(string.format("RESULT requests=%d seconds=%.3f rps=%.1f p50_us=%d p99_us=%d errors=%d\n",
    summary.requests, secs, summary.requests / secs, latency:percentile(50), latency:percentile(99), bad))
end
