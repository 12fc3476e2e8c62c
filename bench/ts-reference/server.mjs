// Reference MCP server for bench/side-by-side.sh: the usual stack (Node.js on the
// official TypeScript SDK, v2 server package, 2026-07-28 protocol) serving a
// small household ledger with the same tool names, argument names and result
// shapes as dochiya for the requests bench/load.sh drives. It exists only to be
// measured next to dochiya; it is not part of the product.
//
// What it does per request, so the comparison is explicit:
// - a fixed bearer token compared in constant time (dochiya verifies a real
//   HS256 JWT on every request: signature, issuer, audience, expiry, scopes);
// - the SDK's stateless 2026-07-28 entry (`createMcpHandler`): a fresh McpServer
//   from the factory per request, argument validation with zod, output checked
//   against the output schema;
// - an in-memory store (a Map per user) with no durability (dochiya commits each
//   write to its embedded store on disk).
// Money is integer minor units in BigInt; amounts travel as decimal strings.
//
// Usage: node server.mjs --port PORT --token TOKEN   (or REF_PORT / REF_TOKEN)

import { createServer } from 'node:http';
import { randomUUID, timingSafeEqual, createHash } from 'node:crypto';
import { McpServer, createMcpHandler } from '@modelcontextprotocol/server';
import { localhostHostValidation, localhostOriginValidation, toNodeHandler } from '@modelcontextprotocol/node';
import * as z from 'zod';

function option(name, envName) {
  const i = process.argv.indexOf(`--${name}`);
  if (i !== -1 && i + 1 < process.argv.length) return process.argv[i + 1];
  return process.env[envName];
}
const PORT = Number(option('port', 'REF_PORT') ?? '8090');
const TOKEN = option('token', 'REF_TOKEN');
if (!TOKEN || !Number.isInteger(PORT)) {
  console.error('usage: node server.mjs --port PORT --token TOKEN');
  process.exit(2);
}
const TOKEN_BYTES = Buffer.from(TOKEN, 'utf8');

// ---------------------------------------------------------------- money

// Digits after the decimal point per currency (ISO 4217 minor units).
const MINOR_DIGITS = { KRW: 0, JPY: 0, USD: 2, EUR: 2, GBP: 2 };
const DECIMAL = /^-?[0-9]+(\.[0-9]+)?$/;

class ToolError extends Error {}

/** Parses a decimal string into integer minor units (BigInt); never via a float. */
function parseAmount(text, currency) {
  if (typeof text !== 'string' || !DECIMAL.test(text)) {
    throw new ToolError(`amount ${JSON.stringify(text)} is not a decimal number like "12000"`);
  }
  const digits = MINOR_DIGITS[currency];
  const negative = text.startsWith('-');
  const [whole, frac = ''] = (negative ? text.slice(1) : text).split('.');
  if (frac.replace(/0+$/, '').length > digits) {
    throw new ToolError(`amount ${text} has more decimals than ${currency} allows (${digits})`);
  }
  const units = BigInt(whole + frac.padEnd(digits, '0').slice(0, digits));
  if (units > 10n ** 18n) throw new ToolError(`amount ${text} is out of range`);
  return negative ? -units : units;
}

/** Formats integer minor units (BigInt) as a decimal string in the major unit. */
function formatAmount(units, currency) {
  const digits = MINOR_DIGITS[currency];
  const negative = units < 0n;
  let s = (negative ? -units : units).toString();
  if (digits > 0) {
    s = s.padStart(digits + 1, '0');
    s = `${s.slice(0, -digits)}.${s.slice(-digits)}`;
  }
  return negative ? `-${s}` : s;
}

// ---------------------------------------------------------------- store

/** Name key: NFC, trimmed, inner whitespace collapsed, case-folded. */
const nameKey = (name) => name.normalize('NFC').trim().replace(/\s+/g, ' ').toLowerCase();

// Transaction ids are decimal strings above 2^53, like dochiya's.
let lastTxn = BigInt(Date.now()) << 22n;
const nextTransactionId = () => (++lastTxn).toString();

const users = new Map(); // subject -> { vaults: Map<nameKey, Vault> }

function userOf(subject) {
  let user = users.get(subject);
  if (!user) {
    user = { vaults: new Map() };
    users.set(subject, user);
  }
  return user;
}

const dateFormats = new Map();
/** Today in the vault's time zone, YYYY-MM-DD. */
function today(timeZone) {
  let format = dateFormats.get(timeZone);
  if (!format) {
    try {
      format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    } catch {
      throw new ToolError(`time zone ${JSON.stringify(timeZone)} is not an IANA time zone`);
    }
    dateFormats.set(timeZone, format);
  }
  return format.format(new Date());
}

/** A YYYY-MM-DD string that names a real calendar date (the schema checked the shape). */
function realDate(text) {
  const [y, m, d] = text.split('-').map(Number);
  const t = new Date(Date.UTC(y, m - 1, d));
  if (t.getUTCFullYear() !== y || t.getUTCMonth() !== m - 1 || t.getUTCDate() !== d) {
    throw new ToolError(`${text} is not a real date`);
  }
  return text;
}

function findVault(user, name) {
  if (name === undefined) {
    if (user.vaults.size === 1) return user.vaults.values().next().value;
    if (user.vaults.size === 0) throw new ToolError('you have no vault yet: create one with create_vault');
    const names = [...user.vaults.values()].map((v) => v.name).join(', ');
    throw new ToolError(`you have several vaults (${names}): say which one as \`vault\``);
  }
  const vault = user.vaults.get(nameKey(name));
  if (!vault) {
    const names = [...user.vaults.values()].map((v) => v.name).join(', ');
    throw new ToolError(`no vault named "${name}"; your vaults: ${names || '(none)'}`);
  }
  return vault;
}

function findAccount(vault, name) {
  const account = vault.accounts.get(nameKey(name));
  if (!account) {
    const names = [...vault.accounts.values()].map((a) => a.name).join(', ');
    throw new ToolError(`no account named "${name}" in ${vault.name}; its accounts: ${names}`);
  }
  return account;
}

// Assets and expenses grow with debits; the other kinds with credits.
const debitNatural = (kind) => kind === 'asset' || kind === 'expense';
const naturalBalance = (account) => (debitNatural(account.kind) ? account.debits : -account.debits);
const vaultRef = (vault) => ({ vaultId: vault.vaultId, name: vault.name });

/** Applies postings [{account, units}] (debit positive) and records the transaction. */
function post(vault, date, memo, postings) {
  const transaction = { transactionId: nextTransactionId(), date, memo, voided: false, postings, at: Date.now() };
  for (const p of postings) p.account.debits += p.units;
  vault.transactions.push(transaction);
  return transaction;
}

const transactionView = (vault, t) => ({
  transactionId: t.transactionId,
  date: t.date,
  memo: t.memo,
  voided: t.voided,
  postings: t.postings.map((p) => ({
    accountId: p.account.accountId,
    account: p.account.name,
    amount: formatAmount(p.units, vault.currency),
  })),
});

// ---------------------------------------------------------------- schemas

const KINDS = ['asset', 'liability', 'income', 'expense', 'equity'];
const decimal = (what) => z.string().regex(DECIMAL).describe(what);
const dateString = (what) => z.string().regex(/^[0-9]{4}-[0-9]{2}-[0-9]{2}$/).describe(what);
const uuid = (what) => z.string().uuid().describe(what);
const vaultArg = z.string().describe('Name of the vault (as list_vaults shows it). Leave it out when you have only one vault.').optional();
const vaultOut = z
  .object({
    vaultId: uuid('The vault\'s id (a UUID). Tools take the vault\'s name, not this id.'),
    name: z.string().describe('The vault\'s name; pass it as `vault` to other tools.'),
  })
  .describe('The vault this result is about.');
const currencyOut = z.string().describe('ISO 4217 code of the vault\'s currency; every amount in this result is a decimal string in its major unit.');
const balanceOut = decimal('Balance as a decimal string in the vault currency, in the account kind\'s natural sign (a credit card owing 300,000 won shows "300000").');
const kindOut = z.enum(KINDS).describe('asset, liability, income, expense or equity.');

const SCHEMAS = {
  list_vaults: {
    input: z.object({}).strict(),
    output: z.object({
      vaults: z
        .array(
          z.object({
            vaultId: uuid('The vault\'s id (a UUID).'),
            name: z.string().describe('The vault\'s name; pass it as `vault` to other tools.'),
            currency: z.string().describe('ISO 4217 currency code.'),
            timeZone: z.string().describe('IANA time zone.'),
            today: dateString('Today in the vault\'s time zone.'),
            accountCount: z.number().int().describe('Number of live accounts.'),
          }),
        )
        .describe('Your vaults, by name.'),
    }),
  },
  create_vault: {
    input: z
      .object({
        name: z.string().min(1).max(64).describe('Name of the new vault, e.g. "우리집" (at most 64 characters, unique among your vaults).'),
        currency: z.string().describe('ISO 4217 currency code, e.g. "KRW" (default), "USD". It cannot be changed later.').optional(),
        timeZone: z.string().describe('IANA time zone whose calendar dates the vault uses, e.g. "Asia/Seoul" (default).').optional(),
      })
      .strict(),
    output: z.object({
      vaultId: uuid('The vault\'s id (a UUID). Tools take the vault\'s name, not this id.'),
      name: z.string().describe('The vault\'s name.'),
      currency: z.string().describe('ISO 4217 currency code of the vault.'),
      timeZone: z.string().describe('IANA time zone of the vault.'),
      today: dateString('Today\'s date in the vault\'s time zone, YYYY-MM-DD.'),
      created: z.boolean().describe('True when created now; false when it already existed with these settings.'),
    }),
  },
  create_account: {
    input: z
      .object({
        vault: vaultArg,
        name: z.string().min(1).max(64).describe('Name of the new account, e.g. "카카오뱅크", "식비".'),
        kind: z.enum(KINDS).describe('asset (bank account, cash), liability (credit card, loan), income, expense or equity.'),
        openingBalance: decimal('Balance the account already has, in the kind\'s natural sign; asset, liability and equity only.').optional(),
        openingDate: dateString('Date of the opening balance, YYYY-MM-DD; default today.').optional(),
      })
      .strict(),
    output: z.object({
      vault: vaultOut,
      accountId: uuid('The account\'s id (a UUID).'),
      name: z.string().describe('The account\'s name.'),
      kind: kindOut,
      balance: balanceOut,
      created: z.boolean().describe('True when created now; false when it already existed.'),
      openingTransactionId: z.string().regex(/^(0|[1-9][0-9]*)$/).describe('The transaction that recorded the opening balance.').optional(),
    }),
  },
  list_accounts: {
    input: z
      .object({
        vault: vaultArg,
        includeArchived: z.boolean().describe('Set true to also list archived accounts. Default false.').optional(),
      })
      .strict(),
    output: z.object({
      vault: vaultOut,
      currency: currencyOut,
      accounts: z
        .array(
          z
            .object({
              accountId: uuid('The account\'s id (a UUID).'),
              name: z.string().describe('The account\'s name; pass it as `account`, `from` or `to`.'),
              kind: kindOut,
              balance: balanceOut,
              archived: z.boolean().describe('True when archived: new transactions cannot use it.'),
            })
            .describe('One account.'),
        )
        .describe('The accounts, by kind then name.'),
    }),
  },
  record_transaction: {
    input: z
      .object({
        vault: vaultArg,
        from: z.string().describe('Name of the account the money leaves, e.g. "카카오뱅크".'),
        to: z.string().describe('Name of the account the money arrives at, e.g. "식비".'),
        amount: decimal('Positive amount as a decimal string in the vault currency\'s major unit, e.g. "12000".'),
        date: dateString('Date it happened, YYYY-MM-DD in the vault\'s time zone; default today.').optional(),
        memo: z.string().max(200).describe('Short memo, e.g. "점심".').optional(),
        idempotencyKey: z.string().min(1).max(128).describe('A key made up once for this entry; a retry with the same key records it once.'),
        allowDuplicate: z.boolean().describe('Set true for a deliberate second identical entry. Default false.').optional(),
        dryRun: z.boolean().describe('Set true to preview without writing. Default false.').optional(),
      })
      .strict(),
    output: z.object({
      vault: vaultOut,
      currency: currencyOut,
      transaction: z
        .object({
          transactionId: z.string().regex(/^(0|[1-9][0-9]*)$/).describe('The transaction\'s id, a decimal string.'),
          date: dateString('The date it happened.'),
          memo: z.string().describe('The memo (empty when none).'),
          voided: z.boolean().describe('True when voided.'),
          postings: z
            .array(
              z
                .object({
                  accountId: uuid('The account\'s id (a UUID).'),
                  account: z.string().describe('The account\'s current name.'),
                  amount: decimal('Signed amount: positive debit, negative credit.'),
                })
                .describe('One posting.'),
            )
            .describe('The postings: `to` first, then `from`.'),
        })
        .describe('The transaction as recorded.'),
      balances: z
        .array(
          z.object({
            accountId: uuid('The account\'s id (a UUID).'),
            account: z.string().describe('The account\'s name.'),
            balance: balanceOut,
          }),
        )
        .describe('Balances of the accounts it touched, after it.'),
      replayed: z.boolean().describe('True when this is the stored result of an earlier call with the same idempotencyKey.'),
      dryRun: z.boolean().describe('True when nothing was written.'),
    }),
  },
};

// ---------------------------------------------------------------- tools

const TOOLS = {
  list_vaults(user) {
    const vaults = [...user.vaults.values()]
      .sort((a, b) => a.name.localeCompare(b.name))
      .map((v) => ({
        vaultId: v.vaultId,
        name: v.name,
        currency: v.currency,
        timeZone: v.timeZone,
        today: today(v.timeZone),
        accountCount: [...v.accounts.values()].filter((a) => !a.archived).length,
      }));
    return { vaults };
  },

  create_vault(user, args) {
    const currency = args.currency ?? 'KRW';
    const timeZone = args.timeZone ?? 'Asia/Seoul';
    if (!(currency in MINOR_DIGITS)) throw new ToolError(`currency ${currency} is not supported here`);
    const key = nameKey(args.name);
    const existing = user.vaults.get(key);
    if (existing) {
      if (existing.currency !== currency || existing.timeZone !== timeZone) {
        throw new ToolError(`you already have a vault named "${existing.name}" with other settings`);
      }
      return { ...vaultRef(existing), currency, timeZone, today: today(timeZone), created: false };
    }
    today(timeZone); // rejects an unknown time zone before the vault exists
    const vault = {
      vaultId: randomUUID(),
      name: args.name.trim(),
      currency,
      timeZone,
      accounts: new Map(),
      transactions: [],
      idempotency: new Map(),
    };
    user.vaults.set(key, vault);
    return { ...vaultRef(vault), currency, timeZone, today: today(timeZone), created: true };
  },

  create_account(user, args) {
    const vault = findVault(user, args.vault);
    const key = nameKey(args.name);
    const existing = vault.accounts.get(key);
    if (existing) {
      if (existing.kind !== args.kind) throw new ToolError(`"${existing.name}" already exists as ${existing.kind}`);
      return accountResult(vault, existing, false);
    }
    const account = { accountId: randomUUID(), name: args.name.trim(), kind: args.kind, debits: 0n, archived: false };
    let opening;
    if (args.openingBalance !== undefined) {
      if (args.kind === 'income' || args.kind === 'expense') {
        throw new ToolError('income and expense accounts start at zero: leave openingBalance out');
      }
      const units = parseAmount(args.openingBalance, vault.currency);
      const signed = debitNatural(args.kind) ? units : -units;
      const date = args.openingDate === undefined ? today(vault.timeZone) : realDate(args.openingDate);
      const equity = openingEquity(vault);
      vault.accounts.set(key, account);
      opening = post(vault, date, 'Opening balance', [
        { account, units: signed },
        { account: equity, units: -signed },
      ]);
    } else {
      vault.accounts.set(key, account);
    }
    const result = accountResult(vault, account, true);
    if (opening) result.openingTransactionId = opening.transactionId;
    return result;
  },

  list_accounts(user, args) {
    const vault = findVault(user, args.vault);
    const accounts = [...vault.accounts.values()]
      .filter((a) => args.includeArchived || !a.archived)
      .sort((a, b) => KINDS.indexOf(a.kind) - KINDS.indexOf(b.kind) || a.name.localeCompare(b.name))
      .map((a) => ({
        accountId: a.accountId,
        name: a.name,
        kind: a.kind,
        balance: formatAmount(naturalBalance(a), vault.currency),
        archived: a.archived,
      }));
    return { vault: vaultRef(vault), currency: vault.currency, accounts };
  },

  record_transaction(user, args) {
    const vault = findVault(user, args.vault);
    // Same key, same arguments: the stored result, marked replayed.
    const fingerprint = createHash('sha256').update(JSON.stringify(args)).digest('base64');
    const earlier = vault.idempotency.get(args.idempotencyKey);
    if (earlier) {
      if (earlier.fingerprint !== fingerprint) {
        throw new ToolError(`idempotencyKey "${args.idempotencyKey}" was already used with different arguments`);
      }
      return { ...earlier.result, replayed: true };
    }
    const from = findAccount(vault, args.from);
    const to = findAccount(vault, args.to);
    if (from === to) throw new ToolError('from and to are the same account');
    for (const a of [from, to]) if (a.archived) throw new ToolError(`account "${a.name}" is archived`);
    const units = parseAmount(args.amount, vault.currency);
    if (units <= 0n) throw new ToolError(`amount must be positive, got ${args.amount}`);
    const date = args.date === undefined ? today(vault.timeZone) : realDate(args.date);
    const memo = args.memo ?? '';
    if (!args.allowDuplicate) {
      // A probable duplicate: the same entry recorded in the last 10 minutes.
      const since = Date.now() - 600_000;
      for (let i = vault.transactions.length - 1; i >= 0; i--) {
        const t = vault.transactions[i];
        if (t.at < since) break;
        if (
          !t.voided && t.date === date && t.memo === memo && t.postings.length === 2 &&
          t.postings[0].account === to && t.postings[1].account === from && t.postings[0].units === units
        ) {
          throw new ToolError(`probable duplicate of transaction ${t.transactionId}; set allowDuplicate true if it is a separate entry`);
        }
      }
    }
    const postings = [
      { account: to, units },
      { account: from, units: -units },
    ];
    let transaction;
    if (args.dryRun) {
      transaction = { transactionId: '0', date, memo, voided: false, postings };
    } else {
      transaction = post(vault, date, memo, postings);
    }
    const balance = (a) => {
      const preview = args.dryRun ? postings.find((p) => p.account === a).units : 0n;
      const raw = a.debits + preview;
      return formatAmount(debitNatural(a.kind) ? raw : -raw, vault.currency);
    };
    const result = {
      vault: vaultRef(vault),
      currency: vault.currency,
      transaction: transactionView(vault, transaction),
      balances: [to, from]
        .sort((a, b) => a.name.localeCompare(b.name))
        .map((a) => ({ accountId: a.accountId, account: a.name, balance: balance(a) })),
      replayed: false,
      dryRun: Boolean(args.dryRun),
    };
    if (!args.dryRun) vault.idempotency.set(args.idempotencyKey, { fingerprint, result });
    return result;
  },
};

function accountResult(vault, account, created) {
  return {
    vault: vaultRef(vault),
    accountId: account.accountId,
    name: account.name,
    kind: account.kind,
    balance: formatAmount(naturalBalance(account), vault.currency),
    created,
  };
}

function openingEquity(vault) {
  const key = nameKey('Opening Balances');
  let equity = vault.accounts.get(key);
  if (!equity) {
    equity = { accountId: randomUUID(), name: 'Opening Balances', kind: 'equity', debits: 0n, archived: false };
    vault.accounts.set(key, equity);
  }
  return equity;
}

const TITLES = {
  list_vaults: ['List vaults', 'Lists your vaults (household books) with currency, time zone, today\'s date there and the number of accounts.', true],
  create_vault: ['Create a vault', 'Creates a vault (a household book) with a name, a currency (default KRW) and a time zone (default Asia/Seoul). A retry with the same name and settings returns the existing vault with created false.', false],
  create_account: ['Create an account', 'Creates an account in a vault: asset (카카오뱅크), liability (신한카드), income (월급), expense (식비) or equity. Asset, liability and equity accounts may start with an opening balance, posted against an opening-balance equity account.', false],
  list_accounts: ['List accounts', 'Lists the accounts of a vault with their kind and current balance, a decimal string in the vault currency.', true],
  record_transaction: ['Record a transaction', 'Records money moving from one account to another: it leaves `from` and arrives at `to`. Lunch for 12,000 won paid from the bank: from "카카오뱅크", to "식비", amount "12000". Make up an idempotencyKey once per entry and reuse it on retry.', false],
};

/** The per-request server instance the SDK's stateless entry asks for. */
function makeServer() {
  const server = new McpServer({ name: 'dochiya-ts-reference', version: '0.1.0' });
  for (const [name, run] of Object.entries(TOOLS)) {
    const [title, description, readOnly] = TITLES[name];
    server.registerTool(
      name,
      {
        title,
        description,
        inputSchema: SCHEMAS[name].input,
        outputSchema: SCHEMAS[name].output,
        annotations: { title, readOnlyHint: readOnly, destructiveHint: false, idempotentHint: name !== 'record_transaction', openWorldHint: false },
      },
      async (args, ctx) => {
        const subject = ctx.http?.authInfo?.clientId;
        if (!subject) return { content: [{ type: 'text', text: 'this tool needs a bearer token' }], isError: true };
        try {
          const result = run(userOf(subject), args);
          return { content: [{ type: 'text', text: JSON.stringify(result) }], structuredContent: result };
        } catch (error) {
          if (error instanceof ToolError) return { content: [{ type: 'text', text: error.message }], isError: true };
          throw error;
        }
      },
    );
  }
  return server;
}

// ---------------------------------------------------------------- HTTP

// Methods dochiya answers without a token; everything else needs one.
const OPEN_METHODS = new Set(['server/discover', 'initialize', 'notifications/initialized', 'ping', 'tools/list']);

/** The bearer token compared in constant time; undefined when absent. */
function bearerValid(header) {
  if (typeof header !== 'string' || !header.startsWith('Bearer ')) return undefined;
  const given = Buffer.from(header.slice(7), 'utf8');
  return given.length === TOKEN_BYTES.length && timingSafeEqual(given, TOKEN_BYTES);
}

// Modern only (load.sh speaks 2026-07-28); the default response mode answers a
// tool call without notifications with a single JSON body, like dochiya.
const handler = createMcpHandler(makeServer, { legacy: 'reject' });
const serve = toNodeHandler(handler, { onerror: (e) => console.error(e) });
const validateHost = localhostHostValidation();
const validateOrigin = localhostOriginValidation();

function unauthorized(res) {
  res.writeHead(401, { 'content-type': 'application/json', 'www-authenticate': 'Bearer' });
  res.end('{"error":"unauthorized"}');
}

createServer((req, res) => {
  if (!validateHost(req, res) || !validateOrigin(req, res)) return;
  if (req.url !== '/mcp') {
    res.writeHead(404);
    return res.end();
  }
  const valid = bearerValid(req.headers.authorization);
  if (valid === false) return unauthorized(res);
  if (valid === true) {
    req.auth = { token: TOKEN, clientId: 'local', scopes: ['ledger:read', 'ledger:write'] };
  } else if (!OPEN_METHODS.has(String(req.headers['mcp-method']))) {
    // The SDK rejects a Mcp-Method header that disagrees with the body, so the
    // header is a sound basis for letting tools/list through without a token.
    return unauthorized(res);
  }
  serve(req, res).catch((e) => {
    console.error(e);
    if (!res.headersSent) res.writeHead(500);
    res.end();
  });
}).listen(PORT, '127.0.0.1', () => {
  console.error(`dochiya-ts-reference listening on http://127.0.0.1:${PORT}/mcp (node ${process.version})`);
});
