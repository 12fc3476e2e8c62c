// The official MCP Inspector (web UI, pinned in package.json) signing in to dochiya's
// built-in authorization server in headless Chromium, driven as a person would click it.
// One run is one protocol era (legacy | modern) and one registration (dcr | cimd):
//
//   connect -> a tool call -> 401 -> the Inspector's discovery -> /authorize -> our local
//   sign-in page -> our consent page (the client's name marked unverified, or the host
//   its document lives at) -> Deny -> access_denied back in the Inspector
//   -> again: sign-in -> consent, "remember" ticked -> Allow -> code -> token -> the call
//   -> the Apps tab lists the three tools with a view
//   -> the server's clock +2 h: the access token is stale, the Inspector refreshes
//   -> the clock +31 days: the refresh token is gone too, the Inspector authorizes anew
//      -> sign-in -> no consent page (remembered) -> straight back with a code -> the call
//   -> Connection Info names the client -> Clear OAuth state.
//
// For CIMD the Inspector is configured (by the stage) with an https document URL on
// loopback; this script serves that document with the stage's certificate.
//
// env: INSPECTOR_URL (with its API token), SIGNIN_CODE_FILE, CLOCK_FILE (the server's
// faketime offset), ERA, REGISTRATION, SHOTS, LABEL; for cimd also CIMD_PORT, TLS_CERT,
// TLS_KEY.
import https from 'node:https';
import { readFileSync, writeFileSync } from 'node:fs';
import { chromium } from 'playwright-core';

const env = (name) => process.env[name] ?? fail(`${name} is not set`);
function fail(why) {
  throw new Error(`[${process.env.LABEL}] ${why}`);
}
const [era, registration, shots, label] = [env('ERA'), env('REGISTRATION'), env('SHOTS'), env('LABEL')];
const inspector = new URL(env('INSPECTOR_URL'));
const code = readFileSync(env('SIGNIN_CODE_FILE'), 'utf8').trim();
const steps = [];
const step = (what) => {
  steps.push(what);
  console.log(`[${label}] ok: ${what}`);
};

// The client document, for CIMD: its client_id is its own https URL.
let documentUrl;
let documentServer;
if (registration === 'cimd') {
  documentUrl = `https://127.0.0.1:${env('CIMD_PORT')}/client.json`;
  const document = {
    client_id: documentUrl,
    client_name: 'MCP Inspector (CIMD)',
    redirect_uris: [`${inspector.origin}/oauth/callback`],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
  };
  documentServer = https.createServer({ cert: readFileSync(env('TLS_CERT')), key: readFileSync(env('TLS_KEY')) }, (req, res) => {
    if (req.url === '/client.json') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(document));
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise((resolve) => documentServer.listen(Number(env('CIMD_PORT')), '127.0.0.1', resolve));
}

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync'],
});
const tokenRequests = [];
try {
  const context = await browser.newContext({
    locale: 'en-US',
    extraHTTPHeaders: { 'accept-language': 'en-US,en;q=0.9' },
    viewport: { width: 1280, height: 900 },
  });
  // The Inspector's page reaches no network but ours; its web font is not needed.
  await context.route((url) => !['127.0.0.1', 'localhost'].includes(url.hostname), (route) => route.abort());
  const page = await context.newPage();
  page.setDefaultTimeout(20000);
  // The Inspector sends its OAuth requests through its own backend (/api/fetch).
  page.on('request', (r) => {
    const body = r.url().endsWith('/api/fetch') ? r.postData() ?? '' : '';
    if (body.includes('/oauth/token')) tokenRequests.push(body);
  });
  const shot = (name) => page.screenshot({ path: `${shots}/${label}-${name}.png`, fullPage: true });
  const text = async () => page.innerText('body');
  const atInspector = (u) => u.origin === inspector.origin;

  // The tool call that needs a token: list_vaults, from the Tools tab.
  const callTool = async () => {
    await page.click('text=Tools');
    const close = page.locator('button[aria-label="Close results"]');
    if (await close.count()) await close.click();
    await page.click('text=list_vaults');
    await page.click('button:has-text("Execute Tool")');
  };
  const resultShown = async (what) => {
    await page.waitForSelector('text=Structured Output');
    if (!(await text()).includes('"vaults"')) fail(`${what}: no list_vaults result`);
  };
  // Our local sign-in page: the name is who you are, the code proves this machine.
  const signIn = async () => {
    await page.waitForURL((u) => u.pathname === '/oauth/signin');
    if (!(await page.content()).includes('Sign in to dochiya')) fail('not our sign-in page');
    await page.fill('input[name=name]', 'Inspector Person');
    await page.fill('input[name=code]', code);
    await page.click('button[type=submit]');
    await page.waitForURL((u) => u.pathname === '/oauth/consent' || atInspector(u));
  };

  await page.goto(inspector.href);
  // The server list renders, then settles; a click during a re-render can miss.
  await page.waitForSelector('text="Disconnected"');
  for (let attempt = 1; !(await page.locator('text="Connected"').count()); attempt++) {
    await page.click('[role=switch]', { force: true }).catch((e) => attempt >= 3 && fail(`connect: ${e.message}`));
    await page.waitForSelector('text="Connected"', { timeout: 5000 }).catch(() => attempt >= 3 && fail('never connected'));
  }
  const version = era === 'modern' ? 'MCP 2026-07-28' : 'MCP 2025-11-25';
  if (!(await text()).includes(version)) fail(`connected, but not as ${version}`);
  step(`connect (${version})`);

  // 1. Deny.
  await callTool();
  await signIn();
  if (new URL(page.url()).pathname !== '/oauth/consent') fail(`after the first sign-in: ${page.url()}`);
  const consent = await page.content();
  const mark = registration === 'cimd'
    ? `(published at <strong class="host">127.0.0.1:${env('CIMD_PORT')}</strong>)`
    : '(unverified: the app gave itself this name when it registered)';
  if (!consent.includes(mark)) fail(`the consent page lacks ${mark}`);
  await shot('1-consent');
  step(`sign-in -> consent page (${registration === 'cimd' ? 'document host shown' : 'name marked unverified'})`);
  await page.click('button[value=deny]');
  await page.waitForURL(atInspector);
  await page.waitForSelector('text=access_denied');
  await shot('2-denied');
  step('deny -> access_denied in the Inspector');

  // 2. Allow, remembered.
  await page.click('text=Re-authenticate');
  await page.waitForSelector('text="Connected"');
  await callTool();
  await signIn();
  if (new URL(page.url()).pathname !== '/oauth/consent') fail(`after the second sign-in: ${page.url()}`);
  await page.check('input[name=remember]');
  await page.click('button[value=allow]');
  await page.waitForURL(atInspector);
  await page.waitForSelector('text=Authorization complete');
  await callTool();
  await resultShown('after Allow');
  if (!tokenRequests.some((b) => b.includes('grant_type=authorization_code'))) fail('no code was redeemed');
  await shot('3-result');
  step('allow (remembered) -> code -> token -> tools/call');

  // The views (decision 042): the Inspector's Apps tab lists every tool whose
  // `_meta.ui.resourceUri` names a ui:// view, in both eras; exactly our three.
  await page.click('text="Apps"');
  for (const tool of ['spending_report', 'budget_report', 'card_bill']) {
    await page.waitForSelector(`text="${tool}"`).catch(() => fail(`the Apps tab does not list ${tool}`));
  }
  // Exactly those three (the tab counts them); the tab fades in, so the picture waits.
  await page.waitForSelector('text="MCP Apps (3)"').catch(() => fail('the Apps tab does not count three apps'));
  await page.waitForTimeout(600);
  await shot('3b-apps');
  // The tab's own search: a tool without a view is no app.
  const search = page.locator('input[placeholder="Search apps..."]');
  for (const tool of ['record_transaction', 'list_vaults', 'delete_vault']) {
    await search.fill(tool);
    await page.waitForSelector('text="No matching apps"').catch(() => fail(`the Apps tab lists ${tool}, which has no view`));
  }
  await search.fill('');
  step('the Apps tab lists spending_report, budget_report and card_bill');

  // 3. Two hours on: the access token has expired, the refresh token has not.
  writeFileSync(env('CLOCK_FILE'), '+2h\n');
  const before = tokenRequests.length;
  await callTool();
  await resultShown('after the refresh');
  if (!tokenRequests.slice(before).some((b) => b.includes('grant_type=refresh_token'))) fail('no refresh after +2 h');
  if (new URL(page.url()).pathname === '/oauth/signin') fail('a sign-in instead of a refresh');
  step('+2 h -> refresh -> tools/call');

  // 4. A month on: the refresh token has expired too; the consent (90 days) has not.
  writeFileSync(env('CLOCK_FILE'), '+31d\n');
  await callTool();
  await signIn();
  if (!atInspector(new URL(page.url()))) fail(`a remembered consent did not go straight back: ${page.url()}`);
  await page.waitForSelector('text=Authorization complete');
  await callTool();
  await resultShown('after the remembered consent');
  await shot('4-remembered');
  step('+31 days -> refresh refused -> sign-in -> remembered consent -> code -> tools/call');

  // 5. The Inspector's view of the grant, then its clear.
  await page.click('text=Servers');
  await page.click('text=Connection Info');
  const info = await text();
  const clientId = registration === 'cimd' ? documentUrl : 'dcr_';
  if (!info.includes(clientId)) fail(`Connection Info does not name client ${clientId}`);
  await page.click('text=Clear OAuth state and disconnect');
  await page.waitForSelector('text=OAuth state cleared');
  step('Connection Info names the client -> clear OAuth state');
} finally {
  await browser.close();
  documentServer?.close();
}
console.log(`PASS MCP Inspector ${label}: ${steps.join(' -> ')}`);
process.exit(0);
