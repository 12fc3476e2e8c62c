// What every view shares: money as exact text, the conversation with the host (MCP Apps
// postMessage JSON-RPC) and the small drawing helpers. Served inside each view's one
// script where its `/* views/common.js */` line stands (shared/tools/src/views.rs); each
// view defines WORDS and APP_NAME before that line and its draw() after it.
const SYMBOLS = { USD: "$", EUR: "€", JPY: "¥", GBP: "£", CNY: "¥" };

// ---- money as text: exact decimal strings, BigInt for ratios and sums ----
function fractionDigits(values) {
  return values.reduce((d, v) => Math.max(d, (String(v).split(".")[1] || "").length), 0);
}
function units(value, digits) {
  const text = String(value);
  const negative = text.startsWith("-");
  const [whole, frac = ""] = text.replace(/^[-+]/, "").split(".");
  const n = BigInt(whole || "0") * 10n ** BigInt(digits) + BigInt((frac + "0".repeat(digits)).slice(0, digits) || "0");
  return negative ? -n : n;
}
function fromUnits(n, digits) {
  const negative = n < 0n;
  const text = (negative ? -n : n).toString().padStart(digits + 1, "0");
  const whole = digits ? text.slice(0, -digits) : text;
  return (negative ? "-" : "") + whole + (digits ? "." + text.slice(-digits) : "");
}
function groupDigits(value) {
  const text = String(value);
  const negative = text.startsWith("-");
  const [whole, frac] = text.replace(/^[-+]/, "").split(".");
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return { negative, number: grouped + (frac !== undefined ? "." + frac : "") };
}
function money(value, currency, lang) {
  const { negative, number } = groupDigits(value);
  const sign = negative ? "-" : "";
  if (currency === "KRW") return lang === "ko" ? `${sign}${number}원` : `${sign}₩${number}`;
  const symbol = SYMBOLS[currency];
  return symbol ? `${sign}${symbol}${number}` : `${sign}${number} ${currency}`;
}
function share(part, whole) {
  if (whole <= 0n || part <= 0n) return 0;
  return Number((part * 1000n) / whole) / 10;
}

// ---- the host conversation (MCP Apps postMessage JSON-RPC) ----
const view = { lang: null, locale: null, result: null, nextId: 1, pending: new Map() };
function post(message) { window.parent.postMessage(message, "*"); }
function request(method, params) {
  const id = view.nextId++;
  post({ jsonrpc: "2.0", id, method, params });
  return new Promise((resolve, reject) => view.pending.set(id, { resolve, reject }));
}
function applyContext(context) {
  if (!context) return;
  if (context.theme === "light" || context.theme === "dark") document.documentElement.dataset.theme = context.theme;
  const vars = context.styles && context.styles.variables;
  if (vars) for (const [name, value] of Object.entries(vars)) if (value) document.documentElement.style.setProperty(name, value);
  if (context.locale) view.locale = context.locale;
  if (view.result) draw(view.result);
}
function language(currency) {
  const locale = view.locale || (currency === "KRW" ? "ko" : navigator.language || "en");
  return String(locale).toLowerCase().startsWith("ko") ? "ko" : "en";
}
window.addEventListener("message", (event) => {
  if (event.source !== window.parent) return;
  const m = event.data;
  if (!m || m.jsonrpc !== "2.0") return;
  if (m.method === undefined && view.pending.has(m.id)) {
    const { resolve, reject } = view.pending.get(m.id);
    view.pending.delete(m.id);
    return m.error ? reject(m.error) : resolve(m.result);
  }
  switch (m.method) {
    case "ui/notifications/tool-result": view.result = m.params; draw(m.params); break;
    case "ui/notifications/host-context-changed": applyContext(m.params); break;
    case "ui/notifications/tool-cancelled": failed(words().cancelled); break;
    case "ui/resource-teardown": post({ jsonrpc: "2.0", id: m.id, result: {} }); break;
    case "ping": if (m.id !== undefined) post({ jsonrpc: "2.0", id: m.id, result: {} }); break;
  }
});
new ResizeObserver(() => {
  const el = document.documentElement;
  post({ jsonrpc: "2.0", method: "ui/notifications/size-changed", params: { width: el.scrollWidth, height: el.scrollHeight } });
}).observe(document.body);
request("ui/initialize", {
  appInfo: { name: APP_NAME, version: "1" },
  appCapabilities: { availableDisplayModes: ["inline"] },
  protocolVersion: "2026-01-26",
}).then((init) => {
  applyContext(init && init.hostContext);
  document.getElementById("waiting") && (document.getElementById("waiting").textContent = words().waiting);
  post({ jsonrpc: "2.0", method: "ui/notifications/initialized", params: {} });
}, () => {});

// ---- drawing ----
function words(currency) { view.lang = language(currency); document.documentElement.lang = view.lang; return WORDS[view.lang]; }
function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "style") node.style.cssText = v; else if (k.includes("-")) node.setAttribute(k, v); else node[k] = v;
  }
  for (const c of children) if (c !== null && c !== undefined) node.append(c);
  return node;
}
function failed(message) {
  document.getElementById("app").replaceChildren(el("p", { className: "error", "data-test": "error" }, message));
}
function structured(result) {
  if (result && result.structuredContent) return result.structuredContent;
  const text = result && result.content && result.content.find((c) => c.type === "text");
  try { return text ? JSON.parse(text.text) : null; } catch { return null; }
}
function nameOf(vault) { return vault && typeof vault === "object" ? vault.name : vault; }
