// The whole connection in a real browser, driven like a person would: the official
// TypeScript MCP client's OAuth support (@modelcontextprotocol/client) against dochiya's
// built-in authorization server, headless Chromium (playwright-core on Debian's
// chromium) for the pages, and the stand-in OpenID provider for the sign-in.
//
// 401 -> protected-resource metadata -> authorization-server metadata -> CIMD (a client
// document served here on loopback) or DCR -> /authorize -> sign-in -> consent (the
// client's document host, or its name marked unverified) -> Deny -> access_denied
// -> again: sign-in -> consent, "remember" ticked -> Allow -> redirect -> token ->
// tools/call -> refresh -> a new authorization: sign-in answered straight back to the
// client (remembered consent) -> tools/call -> the privacy page the pages link ->
// revoke (the client must name itself and be the token's) -> refused -> the account
// page: sign in, see and download, refusals, delete everything -> tokens refused.
//
// usage: DOCHIYA_MCP_URL=… SHOTS=dir LABEL=… node flow.mjs cimd|dcr [en|ko]
import http from 'node:http';
import { chromium } from 'playwright-core';
import { Client, StreamableHTTPClientTransport, UnauthorizedError, refreshAuthorization } from '@modelcontextprotocol/client';

const [registration = 'cimd', lang = 'en'] = process.argv.slice(2);
const mcpUrl = process.env.DOCHIYA_MCP_URL;
const shots = process.env.SHOTS;
const label = process.env.LABEL ?? registration;
const issuer = new URL(mcpUrl).origin;
const fail = (why) => {
  throw new Error(`[${label}] ${why}`);
};

// The client's loopback side: the redirect target and (for CIMD) its metadata document.
// Each authorization waits for its own callback.
let codeArrived;
let codePromise;
const expectCallback = () => {
  codePromise = new Promise((resolve) => (codeArrived = resolve));
};
const callbackServer = http.createServer((req, res) => {
  const url = new URL(req.url, 'http://127.0.0.1');
  if (url.pathname === '/client.json') {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(clientDocument()));
    return;
  }
  if (url.pathname === '/callback') {
    codeArrived(url.searchParams);
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end('<!doctype html><meta charset="utf-8"><title>done</title><p id="done">Signed in; you can close this window.</p>');
    return;
  }
  res.writeHead(404).end();
});
await new Promise((r) => callbackServer.listen(0, '127.0.0.1', r));
const base = `http://127.0.0.1:${callbackServer.address().port}`;
const redirectUrl = `${base}/callback`;
const documentUrl = `${base}/client.json`;
const clientName = `dochiya browser test (${registration})`;
const clientMetadata = {
  client_name: clientName,
  redirect_uris: [redirectUrl],
  grant_types: ['authorization_code', 'refresh_token'],
  response_types: ['code'],
  token_endpoint_auth_method: 'none',
};
const clientDocument = () => ({ client_id: documentUrl, ...clientMetadata });

class Provider {
  tokensValue;
  info;
  verifier;
  authorizationUrl;
  get redirectUrl() {
    return redirectUrl;
  }
  // CIMD: the SDK's own clientMetadataUrl switch accepts only https URLs, and the test's
  // document is on plain loopback http; so the client presents the document URL as its
  // client_id, which is what a CIMD client sends, and dochiya fetches the document.
  state() {
    this.stateValue = `state-${Math.random().toString(36).slice(2)}`;
    return this.stateValue;
  }
  get clientMetadata() {
    return clientMetadata;
  }
  clientInformation() {
    return registration === 'cimd' ? { client_id: documentUrl } : this.info;
  }
  saveClientInformation(info) {
    this.info = info;
  }
  tokens() {
    return this.tokensValue;
  }
  saveTokens(tokens) {
    this.tokensValue = tokens;
  }
  redirectToAuthorization(url) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(v) {
    this.verifier = v;
  }
  codeVerifier() {
    return this.verifier;
  }
}

const provider = new Provider();
const seen = [];
const logFetch = async (input, init) => {
  const response = await fetch(input, init);
  seen.push(`${init?.method ?? 'GET'} ${new URL(String(input instanceof Request ? input.url : input)).pathname} ${response.status}`);
  return response;
};
const newClient = () => new Client({ name: 'dochiya-browser-test', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });

// A tool call without a token: 401, and the SDK discovers and prepares a sign-in; its
// transport finishes it once the browser brings the code back.
const startAuthorization = async () => {
  provider.authorizationUrl = undefined;
  const transport = new StreamableHTTPClientTransport(new URL(mcpUrl), { authProvider: provider, fetch: logFetch });
  const client = newClient();
  await client.connect(transport);
  let unauthorized = false;
  try {
    await client.callTool({ name: 'list_vaults', arguments: {} });
  } catch (e) {
    unauthorized = e instanceof UnauthorizedError || /unauthori[sz]ed/i.test(String(e));
    if (!unauthorized) throw e;
  }
  if (!unauthorized || !provider.authorizationUrl) fail('no 401 -> authorization URL');
  return { client, transport, authorizationUrl: new URL(provider.authorizationUrl) };
};

const first = await startAuthorization();
const expectSeen = (fragment) => {
  if (!seen.some((s) => s.includes(fragment))) fail(`the client never did ${fragment}; it did: ${seen.join(', ')}`);
};
expectSeen('/.well-known/oauth-protected-resource');
expectSeen('/.well-known/oauth-authorization-server 200');
if (registration === 'dcr') expectSeen('POST /oauth/register 201');
const authorizationUrl = first.authorizationUrl;
if (authorizationUrl.origin !== issuer || authorizationUrl.pathname !== '/oauth/authorize') fail(`authorization URL ${authorizationUrl}`);
if (authorizationUrl.searchParams.get('code_challenge_method') !== 'S256') fail('no S256 challenge');
if (authorizationUrl.searchParams.get('resource') !== mcpUrl) fail(`resource ${authorizationUrl.searchParams.get('resource')}`);
const expectedClientId = registration === 'cimd' ? documentUrl : provider.info?.client_id;
if (authorizationUrl.searchParams.get('client_id') !== expectedClientId) fail(`client_id ${authorizationUrl.searchParams.get('client_id')}`);

// 2. The browser: sign-in, our consent page, back to the client with a code (or an error).
let signIn = '';
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync'],
});
const context = await browser.newContext({
  locale: lang === 'ko' ? 'ko-KR' : 'en-US',
  extraHTTPHeaders: { 'accept-language': lang === 'ko' ? 'ko-KR,ko;q=0.9' : 'en-US,en;q=0.9' },
  viewport: { width: 420, height: 820 },
  acceptDownloads: true,
});
const page = await context.newPage();
page.setDefaultTimeout(15000);
const callback = () =>
  Promise.race([
    codePromise,
    new Promise((_, reject) => setTimeout(() => reject(new Error(`[${label}] no callback; page: ${page.url()}`)), 15000)),
  ]);
// Where the browser is: the client's callback, our consent page, a sign-in form (the
// stand-in provider's login, any login name being that test user, or dochiya's own local
// page), or the provider's own consent for the scopes.
const whereAmI = async () => {
  for (let i = 0; i < 150; i++) {
    const u = new URL(page.url());
    if (u.origin === base) return 'callback';
    if (u.origin === issuer && u.pathname === '/oauth/consent') return 'consent';
    // A page being left mid-check throws; look again.
    const has = (selector) => page.$(selector).catch(() => null);
    if (await has('input[name=login], input[name=name]')) return 'form';
    if (u.pathname.includes('/interaction/') && (await has('button[type=submit]'))) return 'provider consent';
    await page.waitForTimeout(100);
  }
  return fail(`stuck at ${page.url()}`);
};
// Submits the page's form and waits for the browser to leave the page.
const submit = async (what) => {
  const from = page.url();
  await page.click('button[type=submit]');
  await page.waitForURL((u) => u.href !== from).catch(() => fail(`${what}: the browser stayed at ${from}`));
};
// From an authorization URL through the sign-in (the provider may remember its session
// and skip its form; the local page asks for a name and the sign-in code the server
// printed at start and keeps in its data directory, SIGNIN_CODE_FILE: reaching 127.0.0.1
// is not enough to sign in) to our consent page or, with a remembered consent, the
// client's callback. Resolves which of the two.
const signInAt = async (url, shotName) => {
  expectCallback();
  await page.goto(url.href);
  for (;;) {
    const where = await whereAmI();
    if (where === 'callback' || where === 'consent') return where;
    if (where === 'provider consent') {
      await submit('the provider\'s consent');
      continue;
    }
    if (shotName) await page.screenshot({ path: `${shots}/${label}-${shotName}.png`, fullPage: true });
    const name = await page.getAttribute('input[name=login], input[name=name]', 'name');
    signIn = name === 'login' ? 'upstream sign-in' : 'local sign-in';
    if (signIn === 'upstream sign-in') {
      await page.fill('input[name=login]', 'test-user');
      await page.fill('input[name=password]', 'any-password');
    } else {
      if (!(await page.content()).includes(lang === 'ko' ? 'dochiya 로그인' : 'Sign in to dochiya')) fail('local sign-in page');
      await page.fill('input[name=name]', 'Test Person (local)');
      const codeFile = process.env.SIGNIN_CODE_FILE;
      if (!codeFile) fail('SIGNIN_CODE_FILE is not set for a local sign-in');
      const { readFileSync } = await import('node:fs');
      await page.fill('input[name=code]', readFileSync(codeFile, 'utf8').trim());
      if (shotName) await page.screenshot({ path: `${shots}/${label}-${shotName}b-filled.png`, fullPage: true });
    }
    await submit(signIn);
  }
};
const consentPage = async () => {
  const consent = await page.content();
  const mark = registration === 'cimd'
    ? (lang === 'ko' ? `(<strong class="host">${new URL(documentUrl).host}</strong>에 게시된 앱)` : `(published at <strong class="host">${new URL(documentUrl).host}</strong>)`)
    : (lang === 'ko' ? '(확인되지 않음: 앱이 등록할 때 스스로 붙인 이름입니다)' : '(unverified: the app gave itself this name when it registered)');
  for (const expected of [clientName, '127.0.0.1', 'Test Person', lang === 'ko' ? '가계부 보기' : 'See your ledgers', mark]) {
    if (!consent.includes(expected)) fail(`consent page lacks ${JSON.stringify(expected)}`);
  }
  if (consent.includes('<script')) fail('the consent page has a script');
  const privacyLink = `<footer><a href="/privacy">${lang === 'ko' ? '개인정보 처리' : 'Privacy'}</a></footer>`;
  if (!consent.includes(privacyLink)) fail('the consent page does not link the privacy page');
};
// The privacy page, in the browser's language, with the operator's contact or the
// sentence that none is set.
const privacyPage = async () => {
  await page.goto(`${issuer}/privacy`);
  const html = await page.content();
  const contact = process.env.SUPPORT_CONTACT;
  const expected = lang === 'ko'
    ? ['<h1>이 dochiya 서버의 개인정보 처리</h1>', '<h2>저장하는 것</h2>', '<h2>보관 기간</h2>', '<h2>내보내기와 삭제</h2>', '(delete_vault)']
    : ['<h1>Privacy at this dochiya server</h1>', '<h2>What is stored</h2>', '<h2>For how long</h2>', '<h2>Export and delete</h2>', '(delete_vault)'];
  expected.push(contact
    ? `<p class="contact">${contact}</p>`
    : (lang === 'ko' ? '연락처를 정하지 않았습니다' : 'has not set a contact'));
  for (const e of expected) if (!html.includes(e)) fail(`privacy page lacks ${JSON.stringify(e)}`);
  await page.screenshot({ path: `${shots}/${label}-4-privacy.png`, fullPage: true });
};
try {
  // Deny first: the client hears access_denied, with its state and our issuer.
  if ((await signInAt(authorizationUrl, '1-sign-in')) !== 'consent') fail(`no consent page after the first sign-in: ${page.url()}`);
  await consentPage();
  await page.screenshot({ path: `${shots}/${label}-2-consent.png`, fullPage: true });
  await page.click('button[value=deny]');
  const denied = await callback();
  if (denied.get('error') !== 'access_denied' || denied.get('state') !== provider.stateValue || denied.get('iss') !== issuer) {
    fail(`deny: callback params ${denied}`);
  }
  await first.client.close();
  // Then Allow, remembered.
  const second = await startAuthorization();
  if ((await signInAt(second.authorizationUrl)) !== 'consent') fail(`no consent page after the second sign-in: ${page.url()}`);
  await consentPage();
  await page.check('input[name=remember]');
  await page.click('button[value=allow]');
  const params = await callback();
  if (params.get('state') !== provider.stateValue || params.get('iss') !== issuer) fail(`callback params ${params}`);
  await second.transport.finishAuth(params.get('code'), params.get('iss'));
  await second.client.close();
} catch (e) {
  await browser.close();
  throw e;
}

// 3. With the token: tools/call works (a fresh client on the same provider).
const authed = newClient();
const authedTransport = new StreamableHTTPClientTransport(new URL(mcpUrl), { authProvider: provider, fetch: logFetch });
await authed.connect(authedTransport);
const vaultName = `browser-${registration}-${Date.now()}`;
const created = await authed.callTool({ name: 'create_vault', arguments: { name: vaultName } });
if (created.isError) fail(`create_vault: ${JSON.stringify(created.content)}`);
const listed = await authed.callTool({ name: 'list_vaults', arguments: {} });
if (listed.isError || !JSON.stringify(listed.structuredContent).includes(vaultName)) fail(`list_vaults: ${JSON.stringify(listed)}`);

// 4. Refresh.
const metadata = await (await fetch(`${issuer}/.well-known/oauth-authorization-server`)).json();
const clientInformation = provider.clientInformation();
const issued = provider.tokensValue;
const refreshed = await refreshAuthorization(issuer, { metadata, clientInformation, refreshToken: issued.refresh_token, resource: new URL(mcpUrl) });
if (!refreshed.access_token || refreshed.refresh_token === issued.refresh_token) fail('refresh did not rotate');
provider.saveTokens(refreshed);
const again = await authed.callTool({ name: 'list_vaults', arguments: {} });
if (again.isError) fail('tools/call with the refreshed token');

// 5. A new authorization of the same client: the consent is remembered, so the sign-in
// is answered with the redirect straight to the client (the sign-in page's form-action
// must allow it, or Chromium stops there).
const kept = provider.tokensValue;
let thirdTokens;
provider.saveTokens(undefined);
try {
  const third = await startAuthorization();
  const landed = await signInAt(third.authorizationUrl, '3-remembered');
  if (landed !== 'callback') fail(`a remembered consent still showed ${page.url()}`);
  const params = await callback();
  if (!params.get('code') || params.get('state') !== provider.stateValue) fail(`remembered: callback params ${params}`);
  await third.transport.finishAuth(params.get('code'), params.get('iss'));
  thirdTokens = provider.tokensValue;
  const remembered = newClient();
  await remembered.connect(new StreamableHTTPClientTransport(new URL(mcpUrl), { authProvider: provider, fetch: logFetch }));
  const listedAgain = await remembered.callTool({ name: 'list_vaults', arguments: {} });
  if (listedAgain.isError || !JSON.stringify(listedAgain.structuredContent).includes(vaultName)) fail('tools/call after the remembered consent');
  await remembered.close();
  await third.client.close();
  await privacyPage();
} catch (e) {
  await browser.close();
  throw e;
}
// The grant of step 2 lives on beside the new one; it is the one revoked below.
provider.saveTokens(kept);

// 6. Revoke: the client names itself and must be the token's (decision 050).
const revoke = (params) =>
  fetch(metadata.revocation_endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(params),
  });
const anonymous = await revoke({ token: refreshed.refresh_token });
if (anonymous.status !== 401 || (await anonymous.json()).error !== 'invalid_client') fail(`revoke without client_id answered ${anonymous.status}`);
const stranger = await revoke({ token: refreshed.refresh_token, client_id: 'dcr_AAAAAAAAAAAAAAAAAAAAAA' });
if (stranger.status !== 400 || (await stranger.json()).error !== 'invalid_grant') fail(`revoke by another client answered ${stranger.status}`);
const revoked = await revoke({ token: refreshed.refresh_token, client_id: clientInformation.client_id });
if (revoked.status !== 200) fail(`revoke answered ${revoked.status}`);
let refused = false;
try {
  await refreshAuthorization(issuer, { metadata, clientInformation, refreshToken: refreshed.refresh_token, resource: new URL(mcpUrl) });
} catch (e) {
  refused = /invalid_grant/.test(String(e?.message ?? e) + String(e?.code ?? ''));
  if (!refused) fail(`refresh after revoke failed the wrong way: ${e}`);
}
if (!refused) fail('refresh after revoke was accepted');

// 7. The account page (decision 059): sign in at /account, see the book, download its
// backup; a post from another site and a wrong word delete nothing; then delete
// everything: the app's access token reaches nothing, its refresh token is refused, and
// the page asks for a sign-in again.
const accountSignIn = async () => {
  await page.goto(`${issuer}/account`);
  for (let i = 0; i < 300; i++) {
    const u = new URL(page.url());
    const has = (selector) => page.$(selector).catch(() => null);
    if (u.origin === issuer && u.pathname === '/oauth/account' && (await has('main h1'))) return;
    if (await has('input[name=login]')) {
      await page.fill('input[name=login]', 'test-user');
      await page.fill('input[name=password]', 'any-password');
      await submit('upstream sign-in (account)');
    } else if (await has('input[name=name]')) {
      await page.fill('input[name=name]', 'Test Person (local)');
      const { readFileSync } = await import('node:fs');
      await page.fill('input[name=code]', readFileSync(process.env.SIGNIN_CODE_FILE, 'utf8').trim());
      await submit('local sign-in (account)');
    } else if (u.pathname.includes('/interaction/') && (await has('button[type=submit]'))) {
      await submit('the provider\'s consent (account)');
    } else {
      await page.waitForTimeout(100);
    }
  }
  fail(`the account sign-in is stuck at ${page.url()}`);
};
const ko = lang === 'ko';
// The account page's forms post back to the page's own URL: wait for that post's answer.
const postAccount = async (button) => {
  const [response] = await Promise.all([
    page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/oauth/account'),
    page.click(button),
  ]);
  await page.waitForLoadState();
  return response.status();
};
try {
  await accountSignIn();
  let html = await page.content();
  for (const e of [ko ? '<h1>내 데이터</h1>' : '<h1>Your data</h1>', vaultName, ko ? '소유자' : 'owner']) {
    if (!html.includes(e)) fail(`account page lacks ${JSON.stringify(e)}`);
  }
  if (html.includes('<script')) fail('the account page has a script');
  await page.screenshot({ path: `${shots}/${label}-5-account.png`, fullPage: true });
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.click(`a[href*="vault=${encodeURIComponent(vaultName)}"]`),
  ]);
  const { readFileSync } = await import('node:fs');
  const backup = readFileSync(await download.path(), 'utf8');
  if (!backup.includes(vaultName) || !download.suggestedFilename().endsWith('.jsonl')) fail(`backup download: ${download.suggestedFilename()}`);
  // Another site's form, carrying the person's cookie (as a browser might): refused.
  const session = (await context.cookies(`${issuer}/oauth/account`)).find((c) => c.name === 'dochiya_account');
  if (!session || !session.httpOnly || session.sameSite !== 'Lax') fail(`account cookie ${JSON.stringify(session)}`);
  const csrf = await page.getAttribute('input[name=csrf]', 'value');
  const forged = await fetch(`${issuer}/oauth/account`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://evil.example', cookie: `dochiya_account=${session.value}` },
    body: new URLSearchParams({ csrf, action: 'delete', confirm: 'delete' }),
  });
  if (forged.status !== 403) fail(`a cross-site deletion answered ${forged.status}`);
  // A wrong word: refused, nothing deleted.
  await page.fill('input[name=confirm]', 'yes');
  const wrong = await postAccount('button.danger');
  if (wrong !== 400 || !(await page.content()).includes('nothing was deleted')) fail(`a wrong confirmation answered ${wrong}`);
  await page.goto(`${issuer}/oauth/account`);
  if (!(await page.content()).includes(vaultName)) fail('the book is gone after refused deletions');
  // The word: everything deleted.
  await page.fill('input[name=confirm]', ko ? '삭제' : 'delete');
  await page.screenshot({ path: `${shots}/${label}-6-account-confirm.png`, fullPage: true });
  // A token of the deletion's own second counts as issued after it (a sign-in right after
  // a deletion must work), so let the app's token's second pass before deleting: the
  // check below then judges a token truly from before (it failed when both fell in one second).
  const iat = JSON.parse(Buffer.from(provider.tokensValue.access_token.split('.')[1], 'base64url').toString()).iat;
  if (!Number.isInteger(iat)) fail(`the access token has no iat: ${iat}`);
  while (Math.floor(Date.now() / 1000) <= iat) await new Promise((r) => setTimeout(r, 100));
  const deleted = await postAccount('button.danger');
  html = await page.content();
  if (deleted !== 200) fail(`the deletion answered ${deleted}`);
  if (!html.includes(ko ? '<h1>데이터를 삭제했습니다</h1>' : '<h1>Your data was deleted</h1>') || !html.includes(vaultName)) fail(`after the deletion: ${html}`);
  await page.screenshot({ path: `${shots}/${label}-7-deleted.png`, fullPage: true });
  // The app's access token from before reaches nothing; its refresh token is refused.
  const after = await authed.callTool({ name: 'list_vaults', arguments: {} });
  if (!after.isError || !JSON.stringify(after.content).includes('data was deleted')) fail(`a token from before the deletion: ${JSON.stringify(after)}`);
  let ended = false;
  try {
    await refreshAuthorization(issuer, { metadata, clientInformation, refreshToken: thirdTokens.refresh_token, resource: new URL(mcpUrl) });
  } catch (e) {
    ended = /invalid_grant/.test(String(e?.message ?? e) + String(e?.code ?? ''));
    if (!ended) fail(`refresh after the deletion failed the wrong way: ${e}`);
  }
  if (!ended) fail('a refresh token from before the deletion was accepted');
  // Signed out: the page asks for a sign-in again, and the book is not there.
  await accountSignIn();
  if ((await page.content()).includes(vaultName)) fail('the deleted book is still listed');
} finally {
  await browser.close();
}
await authed.close();
callbackServer.close();
console.log(`PASS browser flow ${label}: 401 -> PRM -> AS metadata -> ${registration.toUpperCase()} -> authorize -> ${signIn} -> consent (${lang}) -> deny -> access_denied -> sign-in -> consent, remember -> code -> token -> tools/call -> refresh -> authorize -> ${signIn} -> remembered consent -> code -> tools/call -> privacy page -> revoke (no client: 401, another client: 400) -> revoke -> refused -> account page (download, cross-site 403, wrong word, delete) -> old tokens refused`);
process.exit(0);
