// The ledger story every TypeScript client runs, and the checks on its results.
// Each SDK script supplies `listTools` / `callTool` adapters over its own client;
// the checks and expected values live here once, so the two SDK generations are
// held to exactly the same story. (tests/clients/story.py is the Python twin.)

import { readFileSync } from 'node:fs';

/**
 * The tool names the server must list: read from the tools/list snapshot that
 * tests/tests/tools.rs keeps equal to the code (DOCHIYA_TOOLS_SNAPSHOT names it),
 * so no copy of the list is kept here.
 */
export const CONTRACT_TOOLS = JSON.parse(readFileSync(process.env.DOCHIYA_TOOLS_SNAPSHOT, 'utf8'))
  .tools.map((t) => t.name)
  .sort();

/** Tools the story calls: each must declare an outputSchema, or the SDK validates nothing. */
export const STORY_TOOLS = ['create_vault', 'create_account', 'record_transaction', 'get_balances',
  'record_transactions', 'spending_report', 'update_account', 'list_vaults'];

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DECIMAL_ID = /^[0-9]+$/;
const DATE = /^[0-9]{4}-[0-9]{2}-[0-9]{2}$/;

/** Thrown when the server's answer differs from what the story expects. */
export class StoryFailure extends Error {}

function fail(what, actual, expected) {
  throw new StoryFailure(`${what}: got ${JSON.stringify(actual)}, expected ${JSON.stringify(expected)}`);
}

/** Key-order-independent JSON text, so objects compare by value. */
function canonical(v) {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object') {
    return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`).join(',')}}`;
  }
  return JSON.stringify(v);
}

function expectEqual(actual, expected, what) {
  if (canonical(actual) !== canonical(expected)) fail(what, actual, expected);
}

function expectMatch(actual, re, what) {
  if (typeof actual !== 'string' || !re.test(actual)) fail(what, actual, `a string matching ${re}`);
}

/** Only the named fields of an object (output fields may grow; the named ones must be exact). */
function pick(obj, keys) {
  const out = {};
  for (const k of keys) out[k] = obj?.[k];
  return out;
}

/** Entries of an array keyed by one field, so order does not matter but duplicates are caught. */
function byKey(items, key, what) {
  if (!Array.isArray(items)) fail(what, items, 'an array');
  const out = {};
  for (const it of items) {
    if (Object.hasOwn(out, it[key])) fail(`${what}: duplicate ${key}`, it[key], 'unique');
    out[it[key]] = it;
  }
  return out;
}

function structured(result, tool) {
  if (result.isError) {
    const text = (result.content ?? []).map((c) => c.text ?? '').join(' ');
    throw new StoryFailure(`${tool} returned isError: ${text}`);
  }
  if (!result.structuredContent || typeof result.structuredContent !== 'object') {
    fail(`${tool} structuredContent`, result.structuredContent, 'an object');
  }
  return result.structuredContent;
}

/**
 * A fetch that can be armed to damage the next `get_balances` result on its way
 * in (it drops the required `totals` field). Used once, at the end, to prove the
 * SDK really validates structuredContent against the tool's outputSchema: a client
 * whose validation is off would accept the damaged result and the story fails.
 */
export function tamperingFetch(baseFetch = globalThis.fetch) {
  const state = { armed: false, tampered: 0 };
  const fetchImpl = async (input, init) => {
    const response = await baseFetch(input, init);
    if (!state.armed || typeof init?.body !== 'string') return response;
    let request;
    try {
      request = JSON.parse(init.body);
    } catch {
      return response;
    }
    if (request?.method !== 'tools/call' || request?.params?.name !== 'get_balances') return response;
    const text = await response.text();
    const damage = (json) => {
      const msg = JSON.parse(json);
      if (msg?.result?.structuredContent?.totals !== undefined) {
        delete msg.result.structuredContent.totals;
        state.tampered += 1;
      }
      return JSON.stringify(msg);
    };
    const contentType = response.headers.get('content-type') ?? '';
    // Our server always answers JSON; SSE framing is handled too so the check
    // cannot silently pass if that ever changes.
    const body = contentType.includes('text/event-stream')
      ? text.split('\n').map((l) => (l.startsWith('data: ') ? `data: ${damage(l.slice(6))}` : l)).join('\n')
      : damage(text);
    const headers = new Headers(response.headers);
    headers.delete('content-length');
    return new Response(body, { status: response.status, statusText: response.statusText, headers });
  };
  return { fetch: fetchImpl, state };
}

/**
 * Runs the story. `api.listTools()` resolves to the tools array;
 * `api.callTool(name, args)` resolves to a CallToolResult (the SDK validates it);
 * `tamper` is the state of the client's tamperingFetch.
 */
export async function runStory(label, api, tamper) {
  const steps = [];
  const step = (s) => {
    steps.push(s);
    console.log(`[${label}] ok: ${s}`);
  };

  const tools = await api.listTools();
  expectEqual(tools.map((t) => t.name).sort(), CONTRACT_TOOLS, 'tools/list names');
  for (const name of STORY_TOOLS) {
    const tool = tools.find((t) => t.name === name);
    if (!tool.outputSchema || tool.outputSchema.type !== 'object') {
      fail(`${name} outputSchema`, tool.outputSchema, 'an object schema (else the SDK validates nothing)');
    }
  }
  step(`tools/list: ${tools.length} tools, story tools declare outputSchema`);

  const vault = structured(await api.callTool('create_vault', { name: '우리집' }), 'create_vault');
  expectMatch(vault.vaultId, UUID, 'create_vault vaultId');
  expectEqual(pick(vault, ['name', 'currency', 'timeZone', 'created']),
    { name: '우리집', currency: 'KRW', timeZone: 'Asia/Seoul', created: true }, 'create_vault result');
  step(`create_vault 우리집 (${vault.vaultId})`);

  const accounts = {};
  for (const [name, kind] of [['카카오뱅크', 'asset'], ['월급', 'income']]) {
    const acct = structured(await api.callTool('create_account', { vault: '우리집', name, kind }), 'create_account');
    expectMatch(acct.accountId, UUID, `create_account ${name} accountId`);
    expectEqual(pick(acct, ['name', 'kind', 'balance', 'created']),
      { name, kind, balance: '0', created: true }, `create_account ${name} result`);
    accounts[name] = acct.accountId;
  }
  step('create_account 카카오뱅크 (asset), 월급 (income)');

  const idempotencyKey = `${label}-salary-2026-11`;
  const salary = {
    vault: '우리집', from: '월급', to: '카카오뱅크', amount: '3500000',
    date: '2026-11-25', memo: '11월 월급', idempotencyKey,
  };
  const first = structured(await api.callTool('record_transaction', salary), 'record_transaction');
  const tx = first.transaction;
  expectMatch(tx?.transactionId, DECIMAL_ID, 'record_transaction transactionId');
  expectEqual(pick(tx, ['date', 'memo', 'voided']), { date: '2026-11-25', memo: '11월 월급', voided: false },
    'record_transaction transaction');
  const postings = byKey(tx.postings, 'account', 'record_transaction postings');
  expectEqual(Object.fromEntries(Object.entries(postings).map(([k, v]) => [k, pick(v, ['account', 'accountId', 'amount'])])),
    {
      월급: { account: '월급', accountId: accounts['월급'], amount: '-3500000' },
      카카오뱅크: { account: '카카오뱅크', accountId: accounts['카카오뱅크'], amount: '3500000' },
    }, 'record_transaction postings (signed: debit +, credit -)');
  const expectedBalances = {
    월급: { account: '월급', accountId: accounts['월급'], balance: '3500000' },
    카카오뱅크: { account: '카카오뱅크', accountId: accounts['카카오뱅크'], balance: '3500000' },
  };
  const gotBalances = byKey(first.balances, 'account', 'record_transaction balances');
  expectEqual(Object.fromEntries(Object.entries(gotBalances).map(([k, v]) => [k, pick(v, ['account', 'accountId', 'balance'])])),
    expectedBalances, 'record_transaction balances');
  expectEqual(pick(first, ['replayed', 'dryRun']), { replayed: false, dryRun: false }, 'record_transaction flags');
  step(`record_transaction 월급 → 카카오뱅크 3500000 (transactionId ${tx.transactionId})`);

  const again = structured(await api.callTool('record_transaction', salary), 'record_transaction (retry)');
  expectEqual(again.replayed, true, 'retry with the same idempotencyKey: replayed');
  expectEqual(again.transaction?.transactionId, tx.transactionId, 'retry transactionId');
  expectEqual(again.transaction, tx, 'retry transaction');
  const againBalances = byKey(again.balances, 'account', 'retry balances');
  expectEqual(Object.fromEntries(Object.entries(againBalances).map(([k, v]) => [k, pick(v, ['account', 'accountId', 'balance'])])),
    expectedBalances, 'retry balances (must not be applied twice)');
  step(`record_transaction retry: replayed, same transactionId ${tx.transactionId}`);

  const bal = structured(await api.callTool('get_balances', { vault: '우리집' }), 'get_balances');
  expectEqual(pick(bal.vault, ['vaultId', 'name']), { vaultId: vault.vaultId, name: '우리집' }, 'get_balances vault');
  expectEqual(bal.currency, 'KRW', 'get_balances currency');
  expectMatch(bal.asOf, DATE, 'get_balances asOf');
  const rows = byKey(bal.accounts, 'name', 'get_balances accounts');
  expectEqual(Object.fromEntries(Object.entries(rows).map(([k, v]) => [k, pick(v, ['accountId', 'name', 'kind', 'balance'])])),
    {
      월급: { accountId: accounts['월급'], name: '월급', kind: 'income', balance: '3500000' },
      카카오뱅크: { accountId: accounts['카카오뱅크'], name: '카카오뱅크', kind: 'asset', balance: '3500000' },
    }, 'get_balances accounts');
  expectEqual(pick(bal.totals, ['assets', 'liabilities', 'netWorth']),
    { assets: '3500000', liabilities: '0', netWorth: '3500000' }, 'get_balances totals');
  step('get_balances: 카카오뱅크 3500000, 월급 3500000, net worth 3500000');

  // Negative control: the SDK must reject a result that breaks the outputSchema.
  tamper.armed = true;
  let rejected = null;
  try {
    await api.callTool('get_balances', { vault: '우리집' });
  } catch (e) {
    rejected = e;
  } finally {
    tamper.armed = false;
  }
  if (tamper.tampered !== 1) fail('tampering fetch hit count', tamper.tampered, 1);
  if (!rejected) {
    throw new StoryFailure('SDK accepted a get_balances result without the required `totals`: output-schema validation is not in effect');
  }
  step(`SDK rejected a result missing \`totals\` (${String(rejected.message ?? rejected).split('\n')[0].slice(0, 160)})`);
  await statementStory(label, api, step);
  return steps;
}

/** Reads the server URL and token from the environment the stage sets. */
export function env() {
  const url = process.env.DOCHIYA_MCP_URL;
  const token = process.env.DOCHIYA_TOKEN;
  if (!url || !token) {
    console.error('DOCHIYA_MCP_URL and DOCHIYA_TOKEN must be set');
    process.exit(2);
  }
  return { url, token };
}

/** Runs `main`, printing one PASS or FAIL line; any failure exits non-zero. */
export async function report(label, main) {
  try {
    const steps = await main();
    console.log(`PASS ${label}: ${steps.length} steps`);
  } catch (e) {
    console.error(`FAIL ${label}: ${e instanceof StoryFailure ? e.message : (e?.stack ?? e)}`);
    process.exit(1);
  }
}

// ============================================================ record_transactions
// A card statement imported twice: 8 lines (two of them refunds), each with its
// approval number as externalRef. The second import (a new key: the statement
// pasted again) finds every line by its approval number and records nothing.
// Twin of the block at the end of story.py.

/** [approval number, date, memo, category, amount, refund]. Hand sums: 식비 5,600 + 23,000
 * + 8,500 + 3,200 = 40,300; 쇼핑 38,900 − 38,900 + 89,000 − 29,000 = 60,000; the card owes 100,300. */
const STATEMENT = [
  ['30000001', '2026-11-02', '스타벅스 강남역점', '식비', '5600', false],
  ['30000002', '2026-11-03', '쿠팡', '쇼핑', '38900', false],
  ['30000003', '2026-11-05', '배달의민족', '식비', '23000', false],
  ['30000004', '2026-11-07', '쿠팡 환불', '쇼핑', '38900', true],
  ['30000005', '2026-11-09', '무신사', '쇼핑', '89000', false],
  ['30000006', '2026-11-12', '김밥천국 역삼점', '식비', '8500', false],
  ['30000007', '2026-11-15', '무신사 부분환불', '쇼핑', '29000', true],
  ['30000008', '2026-11-20', 'GS25 테헤란점', '식비', '3200', false],
];

async function statementStory(label, api, step) {
  for (const [name, kind] of [['신한카드', 'liability'], ['식비', 'expense'], ['쇼핑', 'expense']]) {
    structured(await api.callTool('create_account', { vault: '우리집', name, kind }), 'create_account');
  }
  const entries = STATEMENT.map(([ref, date, memo, cat, amount, refund]) => ({
    from: refund ? cat : '신한카드', to: refund ? '신한카드' : cat, amount, date, memo, externalRef: ref,
  }));
  const first = structured(await api.callTool('record_transactions',
    { vault: '우리집', entries, idempotencyKey: `${label}-shinhan-2026-11` }), 'record_transactions');
  expectEqual(first.counts, { recorded: 8, replayed: 0, duplicate: 0, error: 0 }, 'record_transactions counts');
  const ids = (first.results ?? []).map((r) => r.transactionId);
  ids.forEach((id, i) => expectMatch(id, DECIMAL_ID, `record_transactions results[${i}].transactionId`));
  step('record_transactions: 8 statement lines recorded');

  const again = structured(await api.callTool('record_transactions',
    { vault: '우리집', entries, idempotencyKey: `${label}-shinhan-2026-11-again` }), 'record_transactions (again)');
  expectEqual(again.counts, { recorded: 0, replayed: 0, duplicate: 8, error: 0 }, 'second import counts');
  expectEqual((again.results ?? []).map((r) => [r.status, r.matchedBy, r.transactionId]),
    ids.map((id) => ['duplicate', 'externalRef', id]), 'second import results');
  step('record_transactions again (new key): all 8 duplicates by externalRef');

  const bal = structured(await api.callTool('get_balances', { vault: '우리집' }), 'get_balances');
  const got = byKey(bal.accounts, 'name', 'accounts');
  expectEqual(['신한카드', '식비', '쇼핑'].map((k) => [k, got[k]?.balance]),
    [['신한카드', '100300'], ['식비', '40300'], ['쇼핑', '60000']], 'balances after two imports');
  const report = structured(await api.callTool('spending_report',
    { vault: '우리집', from: '2026-11-01', to: '2026-11-30' }), 'spending_report');
  expectEqual(report.total, '100300', 'spending_report total');
  expectEqual((report.rows ?? []).map((r) => [r.account, r.amount]), [['쇼핑', '60000'], ['식비', '40300']],
    'spending_report rows');
  step('balances and spending_report exact after two imports: 신한카드 100300, 쇼핑 60000, 식비 40300');

  // One receipt over two categories: record_transaction with `lines`.
  const split = structured(await api.callTool('record_transaction', {
    vault: '우리집', date: '2026-11-21', memo: '이마트', idempotencyKey: `${label}-emart`,
    lines: { from: [{ account: '신한카드', amount: '45000' }],
      to: [{ account: '식비', amount: '30000' }, { account: '쇼핑', amount: '15000' }] },
  }), 'record_transaction (lines)');
  const after = byKey(split.balances, 'account', 'split balances');
  expectEqual(['신한카드', '식비', '쇼핑'].map((k) => [k, after[k]?.balance]),
    [['신한카드', '145300'], ['식비', '70300'], ['쇼핑', '75000']], 'balances after the split');
  step('record_transaction with lines: 신한카드 45000 → 식비 30000 + 쇼핑 15000');

  const renamed = structured(await api.callTool('update_account',
    { vault: '우리집', account: '쇼핑', newName: '온라인쇼핑' }), 'update_account');
  expectEqual([renamed.account?.name, renamed.account?.kind, renamed.account?.archived, renamed.changed],
    ['온라인쇼핑', 'expense', false, true], 'update_account rename');
  const vaults = structured(await api.callTool('list_vaults', {}), 'list_vaults');
  expectEqual((vaults.vaults ?? []).map((v) => [v.name, (v.members ?? []).map((m) => [m.role, m.you])]),
    [['우리집', [['owner', true]]]], 'list_vaults members');
  step('update_account renames 쇼핑 → 온라인쇼핑; list_vaults shows the one member');
}

