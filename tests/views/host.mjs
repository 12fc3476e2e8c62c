// dochiya's MCP Apps views in a real browser, with the official host side of the
// extension (@modelcontextprotocol/ext-apps AppBridge, bundled for the page by the stage).
//
// As a 2026-07-28 client that declares io.modelcontextprotocol/ui (and, for one view, as
// a 2025-11-25 client that declared it only in initialize), this script keeps a
// small household in the running server, reads each view by resources/read from the
// link the tool published, and calls spending_report, budget_report and card_bill for
// REAL results (parent groups still come from a fixture in spending_report's shape). A host page on loopback loads each view into a sandboxed iframe (opaque
// origin, the extension's restrictive default CSP), does the ui/initialize handshake and
// sends the tool result; the numbers the view shows are checked against the result, in
// Korean and English, light and dark, with a screenshot of each.
//
// usage: DOCHIYA_MCP_URL=… TOKEN=… SHOTS=dir node host.mjs
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';

const mcpUrl = process.env.DOCHIYA_MCP_URL;
const token = process.env.TOKEN;
const shots = process.env.SHOTS;
const here = path.dirname(new URL(import.meta.url).pathname);
const UI = { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } };
const failures = [];
const check = (label, got, want) => {
  if (got !== want) failures.push(`${label}: shows ${JSON.stringify(got)}, want ${JSON.stringify(want)}`);
};

// ---- the MCP side: a stateless 2026-07-28 client with the extension ----
let nextId = 1;
async function mcp(method, params, name) {
  const headers = {
    'content-type': 'application/json',
    'mcp-protocol-version': '2026-07-28',
    'mcp-method': method,
    authorization: `Bearer ${token}`,
  };
  if (name) headers['mcp-name'] = name;
  const _meta = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientCapabilities': { extensions: UI },
  };
  const body = { jsonrpc: '2.0', id: nextId++, method, params: { ...params, _meta } };
  const res = await fetch(mcpUrl, { method: 'POST', headers, body: JSON.stringify(body) });
  const json = await res.json();
  if (json.error) throw new Error(`${method} ${name ?? ''}: ${JSON.stringify(json.error)}`);
  return json.result;
}
async function call(tool, args) {
  const result = await mcp('tools/call', { name: tool, arguments: args }, tool);
  if (result.isError) throw new Error(`${tool}: ${result.content[0].text}`);
  return result;
}

const tools = (await mcp('tools/list', {})).tools;
const linkOf = (tool) => tools.find((t) => t.name === tool)?._meta?.ui?.resourceUri;
// No outside origin of any kind, declared explicitly (compared with sorted keys: the
// server's JSON orders them its own way).
const NO_ORIGIN = JSON.stringify({ baseUriDomains: [], connectDomains: [], frameDomains: [], resourceDomains: [] });
const sorted = (o) => JSON.stringify(Object.fromEntries(Object.entries(o ?? {}).sort(([a], [b]) => (a < b ? -1 : 1))));
async function view(uri, read = (u) => mcp('resources/read', { uri: u }, u)) {
  const content = (await read(uri)).contents[0];
  if (content.mimeType !== 'text/html;profile=mcp-app') throw new Error(`${uri}: ${content.mimeType}`);
  check(`${uri}: declared CSP`, sorted(content._meta?.ui?.csp), NO_ORIGIN);
  return content.text;
}

// ---- the legacy side: a 2025-11-25 client, as Claude and most hosts connect today ----
// It declares the extension once, in initialize; its later requests carry no
// capabilities (and there is no session), yet they get the links all the same.
async function legacy(method, params) {
  const headers = { 'content-type': 'application/json', 'mcp-protocol-version': '2025-11-25', authorization: `Bearer ${token}` };
  const body = { jsonrpc: '2.0', id: nextId++, method, ...(params ? { params } : {}) };
  const res = await fetch(mcpUrl, { method: 'POST', headers, body: JSON.stringify(body) });
  const json = await res.json();
  if (json.error) throw new Error(`legacy ${method}: ${JSON.stringify(json.error)}`);
  return json.result;
}

// A household this month, in won: groceries and eating out under budgets, one over.
const vault = '뷰 테스트';
await call('create_vault', { name: vault });
await call('create_vault', { name: 'Trip', currency: 'USD', timeZone: 'America/New_York' });
const vaults = (await call('list_vaults', {})).structuredContent.vaults;
const today = vaults.find((v) => v.name === vault).today;
const month = today.slice(0, 7);
for (const [name, kind, extra] of [
  ['카카오뱅크', 'asset', { openingBalance: '3000000', openingDate: `${month}-01` }],
  ['식비', 'expense'], ['외식', 'expense'], ['교통비', 'expense'], ['생활용품', 'expense'],
]) {
  await call('create_account', { vault, name, kind, ...(extra ?? {}) });
}
for (const [account, amount] of [['식비', '400000'], ['외식', '150000'], ['교통비', '80000']]) {
  await call('set_budget', { vault, account, amount, month });
}
const entries = [
  ['식비', '123450', '장보기'], ['식비', '64800', '시장'], ['외식', '98000', '가족 외식'],
  ['외식', '71500', '회식'], ['교통비', '55000', '교통카드 충전'], ['생활용품', '1234567', '세탁기'],
];
for (const [i, [to, amount, memo]] of entries.entries()) {
  await call('record_transaction', {
    vault, from: '카카오뱅크', to, amount, date: today, memo, idempotencyKey: `views-${month}-${i}`,
  });
}
// A dollar vault, for two decimal places.
for (const [name, kind] of [['Card', 'liability'], ['Food', 'expense'], ['Taxi', 'expense']]) {
  await call('create_account', { vault: 'Trip', name, kind });
}
const tripToday = vaults.find((v) => v.name === 'Trip').today;
await call('record_transaction', { vault: 'Trip', from: 'Card', to: 'Food', amount: '1234.56', date: tripToday, memo: 'dinners', idempotencyKey: 'views-usd-1' });
await call('record_transaction', { vault: 'Trip', from: 'Card', to: 'Taxi', amount: '12.5', date: tripToday, memo: 'taxi', idempotencyKey: 'views-usd-2' });

// A card paid on the 14th for last month's charges: a 3-part purchase, a one-time
// charge and a refund last month, a payment today (after the period closed).
const [y, mo] = month.split('-').map(Number);
const prev = mo === 1 ? `${y - 1}-12` : `${y}-${String(mo - 1).padStart(2, '0')}`;
await call('create_account', { vault, name: '신한카드', kind: 'liability', billing: { closingDay: 31, paymentDay: 14 } });
await call('create_account', { vault, name: '가전', kind: 'expense' });
for (const [i, [from, to, amount, day, memo, installments]] of [
  ['신한카드', '가전', '300000', '10', '노트북', 3],
  ['신한카드', '식비', '86400', '15', '마트 장보기'],
  ['식비', '신한카드', '39000', '20', '환불: 운동화'],
].entries()) {
  await call('record_transaction', {
    vault, from, to, amount, date: `${prev}-${day}`, memo, idempotencyKey: `views-card-${i}`, ...(installments ? { installments } : {}),
  });
}
await call('record_transaction', { vault, from: '카카오뱅크', to: '신한카드', amount: '100000', date: today, memo: '카드값', idempotencyKey: 'views-card-pay' });

const spending = await call('spending_report', { vault, from: month, to: month });
const budget = await call('budget_report', { vault });
// Each person's spending (one member here: everything shared is theirs).
const byMember = await call('spending_report', { vault, from: month, to: month, by: 'member' });
const dollars = await call('spending_report', { vault: 'Trip', from: tripToday.slice(0, 7), to: tripToday.slice(0, 7) });
const cardResult = await call('card_bill', { vault, account: '신한카드', month });
const cardBill = cardResult.structuredContent;
for (const [label, result, tool] of [['spending', spending, 'spending_report'], ['budget', budget, 'budget_report'], ['card', cardResult, 'card_bill']]) {
  check(`${label}: result _meta.ui`, result._meta?.ui?.resourceUri, linkOf(tool));
}
// The bill as computed by hand: part 1 of 3 (the remainder on the first part), the
// charge, the refund.
check('card bill items', cardBill.items.map((i) => `${i.memo}:${i.amount}:${i.part ?? ''}/${i.of ?? ''}`).join('|'),
  '노트북:100000:1/3|마트 장보기:86400:/|환불: 운동화:-39000:/');
check('card bill total', cardBill.total, '147400');
const html = {
  spending: await view(linkOf('spending_report')),
  budget: await view(linkOf('budget_report')),
  card: await view(linkOf('card_bill')),
};

const init = await legacy('initialize', {
  protocolVersion: '2025-11-25', capabilities: { extensions: UI }, clientInfo: { name: 'legacy-host', version: '1' },
});
check('legacy initialize: extension declared back', JSON.stringify(init.capabilities.extensions), JSON.stringify(UI));
const legacyTools = (await legacy('tools/list')).tools;
for (const tool of ['spending_report', 'budget_report', 'card_bill']) {
  check(`legacy tools/list: ${tool} link`, legacyTools.find((t) => t.name === tool)?._meta?.ui?.resourceUri, linkOf(tool));
}
const legacySpending = await legacy('tools/call', { name: 'spending_report', arguments: { vault, from: month, to: month } });
check('legacy spending_report: result _meta.ui', legacySpending._meta?.ui?.resourceUri, linkOf('spending_report'));
check('legacy spending_report: the same numbers', JSON.stringify(legacySpending.structuredContent), JSON.stringify(spending.structuredContent));
const legacyHtml = await view(linkOf('spending_report'), (uri) => legacy('resources/read', { uri }));
check('legacy resources/read: the same view', legacyHtml, html.spending);

// ---- expected text, computed here from the result's strings ----
function money(value, currency, lang) {
  const negative = value.startsWith('-');
  const [whole, frac] = value.replace('-', '').split('.');
  const number = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',') + (frac !== undefined ? `.${frac}` : '');
  const sign = negative ? '-' : '';
  if (currency === 'KRW') return lang === 'ko' ? `${sign}${number}원` : `${sign}₩${number}`;
  return currency === 'USD' ? `${sign}$${number}` : `${sign}${number} ${currency}`;
}

// ---- the host page ----
const hostPage = `<!doctype html><html><head><meta charset="utf-8"><title>host</title>
<style>body{margin:0;background:#888}iframe{display:block;border:0;width:640px;height:200px;background:transparent}</style></head>
<body><script type="module">
import { AppBridge, PostMessageTransport } from "/bridge.js";
// The extension's default CSP for a view that declares no outside origin.
const CSP = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; media-src data:; connect-src 'none'; object-src 'none'";
window.show = (html, result, args, hostContext) => new Promise((resolve, reject) => {
  document.body.replaceChildren();
  const frame = document.createElement("iframe");
  frame.setAttribute("sandbox", "allow-scripts");
  frame.srcdoc = html.replace("<head>", '<head><meta http-equiv="Content-Security-Policy" content="' + CSP + '">');
  document.body.append(frame);
  const bridge = new AppBridge(null, { name: "dochiya-test-host", version: "1" }, {}, { hostContext });
  bridge.onsizechange = ({ height }) => { if (height) frame.style.height = height + "px"; };
  bridge.oninitialized = async () => {
    await bridge.sendToolInput({ arguments: args });
    await bridge.sendToolResult(result);
    resolve();
  };
  bridge.connect(new PostMessageTransport(frame.contentWindow, frame.contentWindow)).catch(reject);
  setTimeout(() => reject(new Error("no ui/initialize from the view")), 10000);
});
</script></body></html>`;
const bridgeJs = fs.readFileSync(path.join(here, 'bridge.js'));
const server = http.createServer((req, res) => {
  if (req.url === '/bridge.js') {
    res.writeHead(200, { 'content-type': 'text/javascript' });
    return res.end(bridgeJs);
  }
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  res.end(hostPage);
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
const page = await browser.newPage({ viewport: { width: 640, height: 1000 }, deviceScaleFactor: 1 });
page.on('pageerror', (e) => failures.push(`page error: ${e.message}`));
page.on('console', (m) => { if (m.type() === 'error') failures.push(`console: ${m.text()}`); });
await page.goto(`http://127.0.0.1:${server.address().port}/`);

async function show(name, source, result, args, theme, locale) {
  await page.evaluate(([h, r, a, c]) => window.show(h, r, a, c), [source, result, args, { theme, locale, displayMode: 'inline' }]);
  const frame = page.frameLocator('iframe');
  await frame.locator('[data-test="period"]').waitFor({ timeout: 10000 });
  await page.waitForTimeout(150);
  const box = await page.locator('iframe').boundingBox();
  await page.screenshot({ path: path.join(shots, `${name}-${theme}-${locale.slice(0, 2)}.png`), clip: { x: 0, y: 0, width: 640, height: Math.ceil(box.height) } });
  return frame;
}
const texts = async (frame, selector) => frame.locator(selector).allInnerTexts();

// Spending by category: the total, then each category largest first with its amount and share.
async function checkSpending(label, result, theme, locale) {
  const lang = locale.slice(0, 2);
  const data = result.structuredContent;
  const frame = await show(label, html.spending, result, {}, theme, locale);
  check(`${label} ${theme} ${lang} total`, (await texts(frame, '[data-test="total"]'))[0], money(data.total, data.currency, lang));
  const names = await frame.locator('[data-test="row"]').evaluateAll((rows) => rows.map((r) => r.dataset.name));
  check(`${label} ${lang} categories`, names.join('|'), data.rows.map((r) => r.account ?? r.member).join('|'));
  const amounts = await texts(frame, '[data-test="row"] [data-test="amount"]');
  check(`${label} ${lang} amounts`, amounts.join('|'), data.rows.map((r) => money(r.amount, data.currency, lang)).join('|'));
  const digits = Math.max(...data.rows.map((r) => (r.amount.split('.')[1] ?? '').length), (data.total.split('.')[1] ?? '').length);
  const minor = (v) => BigInt(v.replace('.', '')) * 10n ** BigInt(digits - (v.split('.')[1] ?? '').length);
  const shares = await texts(frame, '[data-test="row"] [data-test="share"]');
  const want = data.rows.map((r) => `${(Number((minor(r.amount) * 1000n) / minor(data.total)) / 10).toFixed(1)}%`);
  check(`${label} ${lang} shares`, shares.join('|'), want.join('|'));
}

// Budget against spending: the totals, each budget's spent / budget / what is left, days left.
async function checkBudget(theme, locale) {
  const lang = locale.slice(0, 2);
  const data = budget.structuredContent;
  const m = (v) => money(v, data.currency, lang);
  const frame = await show('budget', html.budget, budget, {}, theme, locale);
  check(`budget ${lang} total budget`, (await texts(frame, '[data-test="total-budget"]'))[0], m(data.totals.budget));
  check(`budget ${lang} total spent`, (await texts(frame, '[data-test="total-spent"]'))[0], m(data.totals.spent));
  check(`budget ${lang} total left`, (await texts(frame, '[data-test="total-remaining"]'))[0], m(data.totals.remaining.replace('-', '')));
  check(`budget ${lang} spent`, (await texts(frame, '[data-test="spent"]')).join('|'), data.rows.map((r) => m(r.spent)).join('|'));
  check(`budget ${lang} budgets`, (await texts(frame, '[data-test="budget"]')).join('|'), data.rows.map((r) => m(r.budget)).join('|'));
  const left = data.rows.map((r) => r.over
    ? `${lang === 'ko' ? '초과' : 'Over by'} ${m(r.remaining.replace('-', ''))}`
    : `${lang === 'ko' ? '남음' : 'Left'} ${m(r.remaining)}`);
  check(`budget ${lang} remaining`, (await texts(frame, '[data-test="remaining"]')).join('|'), left.join('|'));
  const days = data.daysLeft;
  check(`budget ${lang} days left`, (await texts(frame, '[data-test="days-left-label"]'))[0],
    lang === 'ko' ? `${days}일 남음` : `${days} ${days === 1 ? 'day' : 'days'} left`);
  check(`budget ${lang} daily allowance`, (await texts(frame, '[data-test="days-left"]'))[0],
    `${m(data.dailyAllowance)} / ${lang === 'ko' ? '하루' : 'day'}`);
  check(`budget ${lang} unbudgeted`, (await texts(frame, '[data-test="unbudgeted"]'))[0],
    `${lang === 'ko' ? '예산 밖 지출' : 'Unbudgeted spending'}: ${m(data.unbudgetedSpent)}`);
}

// The card bill: each item with its installment part, and total, paid, left to pay.
async function checkCard(theme, locale) {
  const lang = locale.slice(0, 2);
  const m = (v) => money(v, cardBill.currency, lang);
  const frame = await show('card-bill', html.card, cardResult, { account: cardBill.account }, theme, locale);
  check(`card ${lang} items`, (await texts(frame, '[data-test="item"] [data-test="amount"]')).join('|'), cardBill.items.map((i) => m(i.amount)).join('|'));
  const parts = cardBill.items.filter((i) => i.part).map((i) => (lang === 'ko' ? `할부 ${i.part}/${i.of}` : `${i.part} of ${i.of}`));
  check(`card ${lang} parts`, (await texts(frame, '[data-test="part"]')).join('|'), parts.join('|'));
  for (const key of ['total', 'paid', 'remaining']) check(`card ${lang} ${key}`, (await texts(frame, `[data-test="${key}"]`))[0], m(cardBill[key]));
  check(`card ${lang} due`, (await texts(frame, '[data-test="due"]'))[0], cardBill.dueDate);
}

// Rows that carry `parent` (the categories issue's shape) fold under it with the group's total.
const groupsResult = JSON.parse(fs.readFileSync(path.join(here, 'spending_groups.fixture.json'), 'utf8'));
async function checkGroups(theme, locale) {
  const lang = locale.slice(0, 2);
  const m = (v) => money(v, groupsResult.currency, lang);
  const result = { content: [{ type: 'text', text: JSON.stringify(groupsResult) }], structuredContent: groupsResult };
  const frame = await show('spending-groups', html.spending, result, {}, theme, locale);
  const sums = new Map();
  for (const row of groupsResult.rows) {
    const key = row.parent ?? row.account;
    sums.set(key, (sums.get(key) ?? 0n) + BigInt(row.amount));
  }
  const order = [...sums].sort((a, b) => (b[1] > a[1] ? 1 : b[1] < a[1] ? -1 : 0));
  const heads = await frame.locator('[data-test="group"], .group > [data-test="row"]:first-child').evaluateAll((rows) => rows.map((r) => r.dataset.name));
  check(`groups ${lang} order`, heads.join('|'), order.map(([name]) => name).join('|'));
  const groupAmounts = await texts(frame, '[data-test="group"] [data-test="amount"]');
  const grouped = order.filter(([name]) => groupsResult.rows.some((r) => r.parent === name));
  check(`groups ${lang} totals`, groupAmounts.join('|'), grouped.map(([, sum]) => m(sum.toString())).join('|'));
  check(`groups ${lang} total`, (await texts(frame, '[data-test="total"]'))[0], m(groupsResult.total));
}

for (const theme of ['light', 'dark']) {
  for (const locale of ['ko-KR', 'en-US']) {
    await checkSpending('spending', spending, theme, locale);
    await checkBudget(theme, locale);
    await checkCard(theme, locale);
  }
}
await checkSpending('spending-usd', dollars, 'light', 'en-US');
await checkSpending('spending-member', byMember, 'light', 'ko-KR');
// The legacy client's result, in the view it found through the legacy link.
await checkSpending('spending-legacy', legacySpending, 'light', 'ko-KR');
await checkGroups('light', 'ko-KR');
await checkGroups('dark', 'en-US');

await browser.close();
server.close();
console.log(`views: ${fs.readdirSync(shots).length} screenshots in ${shots}`);
if (failures.length) {
  console.error(failures.join('\n'));
  process.exit(1);
}
console.log('views: every number shown matches its result');
