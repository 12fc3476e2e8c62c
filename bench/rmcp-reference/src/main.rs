//! Reference MCP server for `bench/cpu.sh`: the official Rust SDK (rmcp) serving a
//! small household ledger with the same tool names, argument names and result
//! fields as dochiya (and as `bench/ts-reference`) for the requests the benchmark
//! sends. It exists only to be measured next to dochiya; it is not part of the
//! product.
//!
//! What it does per request, so the comparison is explicit:
//! - a fixed bearer token compared in constant time (dochiya verifies a real HS256
//!   JWT on every request: signature, issuer, audience, expiry, scopes);
//! - rmcp's Streamable HTTP service in stateless mode (no sessions; 2026-07-28
//!   requests are always stateless there), JSON responses, the SDK's `#[tool]`
//!   router with schemars input and output schemas, arguments deserialized by serde;
//! - an in-memory store behind one mutex, nothing durable (dochiya commits each write
//!   to its embedded store).
//!
//! Money is integer minor units (`i128`), never a float; amounts travel as decimal
//! strings.
//!
//! Usage: `dochiya-rmcp-reference --port PORT --token TOKEN` (or `REF_PORT`, `REF_TOKEN`).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use axum::extract::Request;
use axum::http::{HeaderMap, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::{Json, Parameters};
use rmcp::model::{Implementation, ServerCapabilities, ServerConfig};
use rmcp::transport::streamable_http_server::session::never::NeverSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use rmcp::{ServerHandler, tool, tool_handler, tool_router};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use unicode_normalization::UnicodeNormalization as _;

// ---------------------------------------------------------------- money

/// Digits after the decimal point of a supported currency (ISO 4217 minor units).
fn minor_digits(currency: &str) -> Option<u32> {
    match currency {
        "KRW" | "JPY" => Some(0),
        "USD" | "EUR" | "GBP" => Some(2),
        _ => None,
    }
}

/// Parses a decimal string (`-?[0-9]+(\.[0-9]+)?`) into integer minor units.
fn parse_amount(text: &str, currency: &str) -> Result<i128, String> {
    let digits =
        minor_digits(currency).ok_or_else(|| format!("currency {currency} is not supported here"))?;
    let (negative, unsigned) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let (whole, frac) = unsigned.split_once('.').unwrap_or((unsigned, ""));
    let shape_ok = !whole.is_empty()
        && whole.bytes().all(|b| b.is_ascii_digit())
        && (frac.is_empty() && !unsigned.ends_with('.') || frac.bytes().all(|b| b.is_ascii_digit()));
    if !shape_ok || (unsigned.contains('.') && frac.is_empty()) {
        return Err(format!("amount {text:?} is not a decimal number like \"12000\""));
    }
    if frac.trim_end_matches('0').len() > digits as usize {
        return Err(format!(
            "amount {text} has more decimals than {currency} allows ({digits})"
        ));
    }
    if whole.len() > 20 {
        return Err(format!("amount {text} is out of range"));
    }
    let mut units: i128 = whole
        .parse()
        .map_err(|_| format!("amount {text} is out of range"))?;
    let mut frac_digits = frac.bytes();
    for _ in 0..digits {
        let d = frac_digits.next().map_or(0, |b| i128::from(b - b'0'));
        units = units * 10 + d;
    }
    if units > 10i128.pow(18) {
        return Err(format!("amount {text} is out of range"));
    }
    Ok(if negative { -units } else { units })
}

/// Formats integer minor units as a decimal string in the major unit.
fn format_amount(units: i128, currency: &str) -> String {
    let digits = minor_digits(currency).unwrap_or(0) as usize;
    let mut s = units.unsigned_abs().to_string();
    if digits > 0 {
        if s.len() <= digits {
            s = format!("{}{s}", "0".repeat(digits + 1 - s.len()));
        }
        s.insert(s.len() - digits, '.');
    }
    if units < 0 { format!("-{s}") } else { s }
}

// ---------------------------------------------------------------- store

/// Name key: NFC, trimmed, inner whitespace collapsed, case-folded.
fn name_key(name: &str) -> String {
    let nfc: String = name.nfc().collect();
    nfc.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

/// Account kinds, in list order.
const KINDS: [&str; 5] = ["asset", "liability", "income", "expense", "equity"];

/// An account kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Kind {
    Asset,
    Liability,
    Income,
    Expense,
    Equity,
}

impl Kind {
    fn as_str(self) -> &'static str {
        KINDS[self as usize]
    }
    /// Assets and expenses grow with debits; the other kinds with credits.
    fn debit_natural(self) -> bool {
        matches!(self, Kind::Asset | Kind::Expense)
    }
}

struct Account {
    account_id: String,
    name: String,
    kind: Kind,
    /// Sum of debits minus credits, in minor units.
    debits: i128,
    archived: bool,
}

impl Account {
    fn natural_balance(&self) -> i128 {
        if self.kind.debit_natural() {
            self.debits
        } else {
            -self.debits
        }
    }
}

struct Posting {
    account: usize,
    units: i128,
}

struct Transaction {
    transaction_id: String,
    date: String,
    memo: String,
    voided: bool,
    postings: Vec<Posting>,
    at: jiff::Timestamp,
}

struct Vault {
    vault_id: String,
    name: String,
    currency: String,
    time_zone: String,
    accounts: Vec<Account>,
    by_name: HashMap<String, usize>,
    transactions: Vec<Transaction>,
    /// idempotencyKey -> (the arguments as JSON, the stored result).
    idempotency: HashMap<String, (String, RecordResult)>,
}

#[derive(Default)]
struct Ledger {
    vaults: Vec<Vault>,
    by_name: HashMap<String, usize>,
    last_transaction: u64,
}

/// Today in an IANA time zone, YYYY-MM-DD.
fn today(time_zone: &str) -> Result<String, String> {
    let zone = jiff::tz::TimeZone::get(time_zone)
        .map_err(|_| format!("time zone {time_zone:?} is not an IANA time zone"))?;
    Ok(jiff::Timestamp::now().to_zoned_datetime(zone).date().to_string())
}

/// A YYYY-MM-DD string naming a real calendar date.
fn real_date(text: &str) -> Result<String, String> {
    let shape = text.len() == 10
        && text.bytes().enumerate().all(|(i, b)| {
            if i == 4 || i == 7 {
                b == b'-'
            } else {
                b.is_ascii_digit()
            }
        });
    match shape.then(|| text.parse::<jiff::civil::Date>()) {
        Some(Ok(_)) => Ok(text.to_owned()),
        _ => Err(format!("{text} is not a real date")),
    }
}

impl Ledger {
    fn next_transaction_id(&mut self) -> String {
        // Decimal ids above 2^53, like dochiya's: milliseconds shifted, plus a counter.
        let base = (jiff::Timestamp::now().as_millisecond() as u64) << 22;
        self.last_transaction = (self.last_transaction + 1).max(base);
        self.last_transaction.to_string()
    }

    fn vault(&mut self, name: Option<&str>) -> Result<usize, String> {
        let names = || {
            self.vaults
                .iter()
                .map(|v| v.name.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        };
        match name {
            None => match self.vaults.len() {
                1 => Ok(0),
                0 => Err("you have no vault yet: create one with create_vault".into()),
                _ => Err(format!(
                    "you have several vaults ({}): say which one as `vault`",
                    names()
                )),
            },
            Some(name) => self.by_name.get(&name_key(name)).copied().ok_or_else(|| {
                let names = names();
                format!(
                    "no vault named \"{name}\"; your vaults: {}",
                    if names.is_empty() { "(none)" } else { &names }
                )
            }),
        }
    }
}

impl Vault {
    fn find_account(&self, name: &str) -> Result<usize, String> {
        self.by_name.get(&name_key(name)).copied().ok_or_else(|| {
            let names = self
                .accounts
                .iter()
                .map(|a| a.name.as_str())
                .collect::<Vec<_>>()
                .join(", ");
            format!(
                "no account named \"{name}\" in {}; its accounts: {names}",
                self.name
            )
        })
    }

    fn vault_ref(&self) -> VaultRef {
        VaultRef {
            vault_id: self.vault_id.clone(),
            name: self.name.clone(),
        }
    }

    fn opening_equity(&mut self) -> usize {
        let key = name_key("Opening Balances");
        if let Some(&i) = self.by_name.get(&key) {
            return i;
        }
        self.accounts.push(Account {
            account_id: uuid::Uuid::new_v4().to_string(),
            name: "Opening Balances".into(),
            kind: Kind::Equity,
            debits: 0,
            archived: false,
        });
        self.by_name.insert(key, self.accounts.len() - 1);
        self.accounts.len() - 1
    }

    fn post(&mut self, transaction_id: String, date: String, memo: String, postings: Vec<Posting>) -> usize {
        for p in &postings {
            self.accounts[p.account].debits += p.units;
        }
        self.transactions.push(Transaction {
            transaction_id,
            date,
            memo,
            voided: false,
            postings,
            at: jiff::Timestamp::now(),
        });
        self.transactions.len() - 1
    }

    fn transaction_view(&self, t: &Transaction) -> TransactionView {
        TransactionView {
            transaction_id: t.transaction_id.clone(),
            date: t.date.clone(),
            memo: t.memo.clone(),
            voided: t.voided,
            postings: t
                .postings
                .iter()
                .map(|p| PostingView {
                    account_id: self.accounts[p.account].account_id.clone(),
                    account: self.accounts[p.account].name.clone(),
                    amount: format_amount(p.units, &self.currency),
                })
                .collect(),
        }
    }
}

// ---------------------------------------------------------------- arguments and results

/// Arguments of list_vaults (none).
#[derive(Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct ListVaultsArgs {}

/// One vault.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct VaultItem {
    /// The vault's id (a UUID).
    vault_id: String,
    /// The vault's name; pass it as `vault` to other tools.
    name: String,
    /// ISO 4217 currency code.
    currency: String,
    /// IANA time zone.
    time_zone: String,
    /// Today in the vault's time zone.
    today: String,
    /// Number of live accounts.
    account_count: u32,
}

/// Your vaults.
#[derive(Debug, Serialize, JsonSchema)]
struct ListVaultsResult {
    /// Your vaults, by name.
    vaults: Vec<VaultItem>,
}

/// Arguments of create_vault.
#[derive(Debug, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct CreateVaultArgs {
    /// Name of the new vault, e.g. "우리집" (at most 64 characters, unique among your vaults).
    #[schemars(length(min = 1, max = 64))]
    name: String,
    /// ISO 4217 currency code, e.g. "KRW" (default), "USD". It cannot be changed later.
    currency: Option<String>,
    /// IANA time zone whose calendar dates the vault uses, e.g. "Asia/Seoul" (default).
    time_zone: Option<String>,
}

/// The vault created (or found).
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct CreateVaultResult {
    /// The vault's id (a UUID). Tools take the vault's name, not this id.
    vault_id: String,
    /// The vault's name.
    name: String,
    /// ISO 4217 currency code of the vault.
    currency: String,
    /// IANA time zone of the vault.
    time_zone: String,
    /// Today's date in the vault's time zone, YYYY-MM-DD.
    today: String,
    /// True when created now; false when it already existed with these settings.
    created: bool,
}

/// The vault a result is about.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct VaultRef {
    /// The vault's id (a UUID). Tools take the vault's name, not this id.
    vault_id: String,
    /// The vault's name; pass it as `vault` to other tools.
    name: String,
}

/// Arguments of create_account.
#[derive(Debug, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct CreateAccountArgs {
    /// Name of the vault (as list_vaults shows it). Leave it out when you have only one vault.
    vault: Option<String>,
    /// Name of the new account, e.g. "카카오뱅크", "식비".
    #[schemars(length(min = 1, max = 64))]
    name: String,
    /// asset (bank account, cash), liability (credit card, loan), income, expense or equity.
    kind: Kind,
    /// Balance the account already has, in the kind's natural sign; asset, liability and equity only.
    #[schemars(regex(pattern = r"^-?[0-9]+(\.[0-9]+)?$"))]
    opening_balance: Option<String>,
    /// Date of the opening balance, YYYY-MM-DD; default today.
    #[schemars(regex(pattern = r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$"))]
    opening_date: Option<String>,
}

/// The account created (or found).
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct CreateAccountResult {
    /// The vault this result is about.
    vault: VaultRef,
    /// The account's id (a UUID).
    account_id: String,
    /// The account's name.
    name: String,
    /// asset, liability, income, expense or equity.
    kind: Kind,
    /// Balance as a decimal string in the vault currency, in the account kind's natural sign.
    balance: String,
    /// True when created now; false when it already existed.
    created: bool,
    /// The transaction that recorded the opening balance.
    #[serde(skip_serializing_if = "Option::is_none")]
    opening_transaction_id: Option<String>,
}

/// Arguments of list_accounts.
#[derive(Debug, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct ListAccountsArgs {
    /// Name of the vault (as list_vaults shows it). Leave it out when you have only one vault.
    vault: Option<String>,
    /// Set true to also list archived accounts. Default false.
    include_archived: Option<bool>,
}

/// One account.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct AccountItem {
    /// The account's id (a UUID).
    account_id: String,
    /// The account's name; pass it as `account`, `from` or `to`.
    name: String,
    /// asset, liability, income, expense or equity.
    kind: Kind,
    /// Balance as a decimal string in the vault currency, in the account kind's natural sign
    /// (a credit card owing 300,000 won shows "300000").
    balance: String,
    /// True when archived: new transactions cannot use it.
    archived: bool,
}

/// The accounts of a vault.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct ListAccountsResult {
    /// The vault this result is about.
    vault: VaultRef,
    /// ISO 4217 code of the vault's currency; every amount in this result is a decimal
    /// string in its major unit.
    currency: String,
    /// The accounts, by kind then name.
    accounts: Vec<AccountItem>,
}

/// Arguments of record_transaction.
#[derive(Debug, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct RecordTransactionArgs {
    /// Name of the vault (as list_vaults shows it). Leave it out when you have only one vault.
    #[serde(skip_serializing_if = "Option::is_none")]
    vault: Option<String>,
    /// Name of the account the money leaves, e.g. "카카오뱅크".
    from: String,
    /// Name of the account the money arrives at, e.g. "식비".
    to: String,
    /// Positive amount as a decimal string in the vault currency's major unit, e.g. "12000".
    #[schemars(regex(pattern = r"^-?[0-9]+(\.[0-9]+)?$"))]
    amount: String,
    /// Date it happened, YYYY-MM-DD in the vault's time zone; default today.
    #[schemars(regex(pattern = r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$"))]
    #[serde(skip_serializing_if = "Option::is_none")]
    date: Option<String>,
    /// Short memo, e.g. "점심".
    #[schemars(length(max = 200))]
    #[serde(skip_serializing_if = "Option::is_none")]
    memo: Option<String>,
    /// A key made up once for this entry; a retry with the same key records it once.
    #[schemars(length(min = 1, max = 128))]
    idempotency_key: String,
    /// Set true for a deliberate second identical entry. Default false.
    #[serde(skip_serializing_if = "Option::is_none")]
    allow_duplicate: Option<bool>,
    /// Set true to preview without writing. Default false.
    #[serde(skip_serializing_if = "Option::is_none")]
    dry_run: Option<bool>,
}

/// One posting.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct PostingView {
    /// The account's id (a UUID).
    account_id: String,
    /// The account's current name.
    account: String,
    /// Signed amount: positive debit, negative credit.
    amount: String,
}

/// The transaction as recorded.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct TransactionView {
    /// The transaction's id, a decimal string.
    transaction_id: String,
    /// The date it happened.
    date: String,
    /// The memo (empty when none).
    memo: String,
    /// True when voided.
    voided: bool,
    /// The postings: `to` first, then `from`.
    postings: Vec<PostingView>,
}

/// A balance after the transaction.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct BalanceView {
    /// The account's id (a UUID).
    account_id: String,
    /// The account's name.
    account: String,
    /// Balance as a decimal string in the vault currency, in the account kind's natural sign.
    balance: String,
}

/// What record_transaction recorded.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct RecordResult {
    /// The vault this result is about.
    vault: VaultRef,
    /// ISO 4217 code of the vault's currency; every amount in this result is a decimal
    /// string in its major unit.
    currency: String,
    /// The transaction as recorded.
    transaction: TransactionView,
    /// Balances of the accounts it touched, after it.
    balances: Vec<BalanceView>,
    /// True when this is the stored result of an earlier call with the same idempotencyKey.
    replayed: bool,
    /// True when nothing was written.
    dry_run: bool,
}

// ---------------------------------------------------------------- tools

/// The MCP server: one instance per request (the SDK's stateless mode asks the
/// factory each time), sharing the ledger and a tool router built once.
#[derive(Clone)]
struct Reference {
    ledger: Arc<Mutex<Ledger>>,
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl Reference {
    #[tool(
        description = "Lists your vaults (household books) with currency, time zone, today's date there and the number of accounts.",
        annotations(
            title = "List vaults",
            read_only_hint = true,
            destructive_hint = false,
            idempotent_hint = true,
            open_world_hint = false
        )
    )]
    fn list_vaults(
        &self,
        Parameters(_): Parameters<ListVaultsArgs>,
    ) -> Result<Json<ListVaultsResult>, String> {
        let ledger = self
            .ledger
            .lock()
            .map_err(|_| "ledger lock poisoned".to_owned())?;
        let mut vaults = ledger
            .vaults
            .iter()
            .map(|v| {
                Ok(VaultItem {
                    vault_id: v.vault_id.clone(),
                    name: v.name.clone(),
                    currency: v.currency.clone(),
                    time_zone: v.time_zone.clone(),
                    today: today(&v.time_zone)?,
                    account_count: v.accounts.iter().filter(|a| !a.archived).count() as u32,
                })
            })
            .collect::<Result<Vec<_>, String>>()?;
        vaults.sort_by(|a, b| a.name.cmp(&b.name));
        Ok(Json(ListVaultsResult { vaults }))
    }

    #[tool(
        description = "Creates a vault (a household book) with a name, a currency (default KRW) and a time zone (default Asia/Seoul). A retry with the same name and settings returns the existing vault with created false.",
        annotations(
            title = "Create a vault",
            read_only_hint = false,
            destructive_hint = false,
            idempotent_hint = true,
            open_world_hint = false
        )
    )]
    fn create_vault(
        &self,
        Parameters(args): Parameters<CreateVaultArgs>,
    ) -> Result<Json<CreateVaultResult>, String> {
        let mut ledger = self
            .ledger
            .lock()
            .map_err(|_| "ledger lock poisoned".to_owned())?;
        let currency = args.currency.unwrap_or_else(|| "KRW".into());
        let time_zone = args.time_zone.unwrap_or_else(|| "Asia/Seoul".into());
        if minor_digits(&currency).is_none() {
            return Err(format!("currency {currency} is not supported here"));
        }
        let key = name_key(&args.name);
        let today = today(&time_zone)?;
        if let Some(&i) = ledger.by_name.get(&key) {
            let existing = &ledger.vaults[i];
            if existing.currency != currency || existing.time_zone != time_zone {
                return Err(format!(
                    "you already have a vault named \"{}\" with other settings",
                    existing.name
                ));
            }
            return Ok(Json(CreateVaultResult {
                vault_id: existing.vault_id.clone(),
                name: existing.name.clone(),
                currency,
                time_zone,
                today,
                created: false,
            }));
        }
        let vault = Vault {
            vault_id: uuid::Uuid::new_v4().to_string(),
            name: args.name.trim().to_owned(),
            currency: currency.clone(),
            time_zone: time_zone.clone(),
            accounts: Vec::new(),
            by_name: HashMap::new(),
            transactions: Vec::new(),
            idempotency: HashMap::new(),
        };
        let result = CreateVaultResult {
            vault_id: vault.vault_id.clone(),
            name: vault.name.clone(),
            currency,
            time_zone,
            today,
            created: true,
        };
        ledger.vaults.push(vault);
        let index = ledger.vaults.len() - 1;
        ledger.by_name.insert(key, index);
        Ok(Json(result))
    }

    #[tool(
        description = "Creates an account in a vault: asset (카카오뱅크), liability (신한카드), income (월급), expense (식비) or equity. Asset, liability and equity accounts may start with an opening balance, posted against an opening-balance equity account.",
        annotations(
            title = "Create an account",
            read_only_hint = false,
            destructive_hint = false,
            idempotent_hint = true,
            open_world_hint = false
        )
    )]
    fn create_account(
        &self,
        Parameters(args): Parameters<CreateAccountArgs>,
    ) -> Result<Json<CreateAccountResult>, String> {
        let mut guard = self
            .ledger
            .lock()
            .map_err(|_| "ledger lock poisoned".to_owned())?;
        let ledger = &mut *guard;
        let v = ledger.vault(args.vault.as_deref())?;
        let key = name_key(&args.name);
        if let Some(&i) = ledger.vaults[v].by_name.get(&key) {
            let vault = &ledger.vaults[v];
            let existing = &vault.accounts[i];
            if existing.kind != args.kind {
                return Err(format!(
                    "\"{}\" already exists as {}",
                    existing.name,
                    existing.kind.as_str()
                ));
            }
            return Ok(Json(account_result(vault, i, false, None)));
        }
        let opening = match &args.opening_balance {
            None => None,
            Some(_) if matches!(args.kind, Kind::Income | Kind::Expense) => {
                return Err("income and expense accounts start at zero: leave openingBalance out".into());
            }
            Some(text) => {
                let vault = &ledger.vaults[v];
                let units = parse_amount(text, &vault.currency)?;
                let date = match &args.opening_date {
                    None => today(&vault.time_zone)?,
                    Some(d) => real_date(d)?,
                };
                Some((if args.kind.debit_natural() { units } else { -units }, date))
            }
        };
        let transaction_id = opening.as_ref().map(|_| ledger.next_transaction_id());
        let vault = &mut ledger.vaults[v];
        vault.accounts.push(Account {
            account_id: uuid::Uuid::new_v4().to_string(),
            name: args.name.trim().to_owned(),
            kind: args.kind,
            debits: 0,
            archived: false,
        });
        let account = vault.accounts.len() - 1;
        vault.by_name.insert(key, account);
        let mut opening_id = None;
        if let (Some((signed, date)), Some(id)) = (opening, transaction_id) {
            let equity = vault.opening_equity();
            let postings = vec![
                Posting {
                    account,
                    units: signed,
                },
                Posting {
                    account: equity,
                    units: -signed,
                },
            ];
            vault.post(id.clone(), date, "Opening balance".into(), postings);
            opening_id = Some(id);
        }
        Ok(Json(account_result(vault, account, true, opening_id)))
    }

    #[tool(
        description = "Lists the accounts of a vault with their kind and current balance, a decimal string in the vault currency.",
        annotations(
            title = "List accounts",
            read_only_hint = true,
            destructive_hint = false,
            idempotent_hint = true,
            open_world_hint = false
        )
    )]
    fn list_accounts(
        &self,
        Parameters(args): Parameters<ListAccountsArgs>,
    ) -> Result<Json<ListAccountsResult>, String> {
        let mut ledger = self
            .ledger
            .lock()
            .map_err(|_| "ledger lock poisoned".to_owned())?;
        let v = ledger.vault(args.vault.as_deref())?;
        let vault = &ledger.vaults[v];
        let include_archived = args.include_archived.unwrap_or(false);
        let mut accounts: Vec<&Account> = vault
            .accounts
            .iter()
            .filter(|a| include_archived || !a.archived)
            .collect();
        accounts.sort_by(|a, b| (a.kind as usize, &a.name).cmp(&(b.kind as usize, &b.name)));
        let accounts = accounts
            .into_iter()
            .map(|a| AccountItem {
                account_id: a.account_id.clone(),
                name: a.name.clone(),
                kind: a.kind,
                balance: format_amount(a.natural_balance(), &vault.currency),
                archived: a.archived,
            })
            .collect();
        Ok(Json(ListAccountsResult {
            vault: vault.vault_ref(),
            currency: vault.currency.clone(),
            accounts,
        }))
    }

    #[tool(
        description = "Records money moving from one account to another: it leaves `from` and arrives at `to`. Lunch for 12,000 won paid from the bank: from \"카카오뱅크\", to \"식비\", amount \"12000\". Make up an idempotencyKey once per entry and reuse it on retry.",
        annotations(
            title = "Record a transaction",
            read_only_hint = false,
            destructive_hint = false,
            idempotent_hint = false,
            open_world_hint = false
        )
    )]
    fn record_transaction(
        &self,
        Parameters(args): Parameters<RecordTransactionArgs>,
    ) -> Result<Json<RecordResult>, String> {
        let mut guard = self
            .ledger
            .lock()
            .map_err(|_| "ledger lock poisoned".to_owned())?;
        let ledger = &mut *guard;
        let v = ledger.vault(args.vault.as_deref())?;
        // Same key, same arguments: the stored result, marked replayed.
        let fingerprint = serde_json::to_string(&args).map_err(|e| e.to_string())?;
        if let Some((earlier, result)) = ledger.vaults[v].idempotency.get(&args.idempotency_key) {
            if *earlier != fingerprint {
                return Err(format!(
                    "idempotencyKey \"{}\" was already used with different arguments",
                    args.idempotency_key
                ));
            }
            let mut result = result.clone();
            result.replayed = true;
            return Ok(Json(result));
        }
        let vault = &ledger.vaults[v];
        let from = vault.find_account(&args.from)?;
        let to = vault.find_account(&args.to)?;
        if from == to {
            return Err("from and to are the same account".into());
        }
        for a in [from, to] {
            if vault.accounts[a].archived {
                return Err(format!("account \"{}\" is archived", vault.accounts[a].name));
            }
        }
        let units = parse_amount(&args.amount, &vault.currency)?;
        if units <= 0 {
            return Err(format!("amount must be positive, got {}", args.amount));
        }
        let date = match &args.date {
            None => today(&vault.time_zone)?,
            Some(d) => real_date(d)?,
        };
        let memo = args.memo.clone().unwrap_or_default();
        if !args.allow_duplicate.unwrap_or(false) {
            // A probable duplicate: the same entry recorded in the last 10 minutes.
            let since = jiff::Timestamp::now() - jiff::SignedDuration::from_secs(600);
            for t in vault.transactions.iter().rev() {
                if t.at < since {
                    break;
                }
                if !t.voided
                    && t.date == date
                    && t.memo == memo
                    && t.postings.len() == 2
                    && t.postings[0].account == to
                    && t.postings[1].account == from
                    && t.postings[0].units == units
                {
                    return Err(format!(
                        "probable duplicate of transaction {}; set allowDuplicate true if it is a separate entry",
                        t.transaction_id
                    ));
                }
            }
        }
        let dry_run = args.dry_run.unwrap_or(false);
        let postings = vec![
            Posting { account: to, units },
            Posting {
                account: from,
                units: -units,
            },
        ];
        let transaction_id = if dry_run {
            "0".to_owned()
        } else {
            ledger.next_transaction_id()
        };
        let vault = &mut ledger.vaults[v];
        let view = if dry_run {
            let t = Transaction {
                transaction_id,
                date,
                memo,
                voided: false,
                postings,
                at: jiff::Timestamp::now(),
            };
            vault.transaction_view(&t)
        } else {
            let i = vault.post(transaction_id, date, memo, postings);
            vault.transaction_view(&vault.transactions[i])
        };
        let balance = |a: usize| {
            let account = &vault.accounts[a];
            let preview = match (dry_run, a == to) {
                (false, _) => 0,
                (true, true) => units,
                (true, false) => -units,
            };
            let raw = account.debits + preview;
            format_amount(
                if account.kind.debit_natural() { raw } else { -raw },
                &vault.currency,
            )
        };
        let mut touched = [to, from];
        touched.sort_by(|a, b| vault.accounts[*a].name.cmp(&vault.accounts[*b].name));
        let balances = touched
            .iter()
            .map(|&a| BalanceView {
                account_id: vault.accounts[a].account_id.clone(),
                account: vault.accounts[a].name.clone(),
                balance: balance(a),
            })
            .collect();
        let result = RecordResult {
            vault: vault.vault_ref(),
            currency: vault.currency.clone(),
            transaction: view,
            balances,
            replayed: false,
            dry_run,
        };
        if !dry_run {
            vault
                .idempotency
                .insert(args.idempotency_key.clone(), (fingerprint, result.clone()));
        }
        Ok(Json(result))
    }
}

fn account_result(
    vault: &Vault,
    i: usize,
    created: bool,
    opening_transaction_id: Option<String>,
) -> CreateAccountResult {
    let a = &vault.accounts[i];
    CreateAccountResult {
        vault: vault.vault_ref(),
        account_id: a.account_id.clone(),
        name: a.name.clone(),
        kind: a.kind,
        balance: format_amount(a.natural_balance(), &vault.currency),
        created,
        opening_transaction_id,
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Reference {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("dochiya-rmcp-reference", "0.1.0"))
    }
}

// ---------------------------------------------------------------- HTTP

/// Methods dochiya answers without a token; everything else needs one.
const OPEN_METHODS: [&str; 5] = [
    "server/discover",
    "initialize",
    "notifications/initialized",
    "ping",
    "tools/list",
];

/// Constant-time byte comparison.
fn same(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

fn unauthorized() -> Response {
    (
        StatusCode::UNAUTHORIZED,
        [
            (header::CONTENT_TYPE, "application/json"),
            (header::WWW_AUTHENTICATE, "Bearer"),
        ],
        "{\"error\":\"unauthorized\"}",
    )
        .into_response()
}

/// The bearer check: a present token must match; without one only the open methods pass
/// (by the `Mcp-Method` header, which the SDK checks against the body).
async fn bearer(token: Arc<str>, headers: HeaderMap, request: Request, next: Next) -> Response {
    match headers.get(header::AUTHORIZATION).map(|v| v.as_bytes()) {
        Some(value) => match value.strip_prefix(b"Bearer ") {
            Some(given) if same(given, token.as_bytes()) => next.run(request).await,
            _ => unauthorized(),
        },
        None => {
            let method = headers
                .get("mcp-method")
                .and_then(|v| v.to_str().ok())
                .unwrap_or("");
            if OPEN_METHODS.contains(&method) {
                next.run(request).await
            } else {
                unauthorized()
            }
        }
    }
}

fn option(name: &str, env: &str) -> Option<String> {
    let args: Vec<String> = std::env::args().collect();
    args.iter()
        .position(|a| a == &format!("--{name}"))
        .and_then(|i| args.get(i + 1).cloned())
        .or_else(|| std::env::var(env).ok())
}

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let port: u16 = option("port", "REF_PORT")
        .and_then(|p| p.parse().ok())
        .unwrap_or(8091);
    let Some(token) = option("token", "REF_TOKEN") else {
        eprintln!("usage: dochiya-rmcp-reference --port PORT --token TOKEN");
        std::process::exit(2);
    };
    let token: Arc<str> = Arc::from(token);
    let ledger = Arc::new(Mutex::new(Ledger::default()));
    let tool_router = Reference::tool_router();
    let service = StreamableHttpService::new(
        move || {
            Ok(Reference {
                ledger: ledger.clone(),
                tool_router: tool_router.clone(),
            })
        },
        Arc::new(NeverSessionManager::default()),
        StreamableHttpServerConfig::default()
            .with_legacy_session_mode(false)
            .with_json_response(true)
            .with_sse_keep_alive(None),
    );
    let app = axum::Router::new()
        .nest_service("/mcp", service)
        .layer(middleware::from_fn(
            move |headers: HeaderMap, request: Request, next: Next| {
                bearer(token.clone(), headers, request, next)
            },
        ));
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", port)).await?;
    eprintln!("dochiya-rmcp-reference listening on http://127.0.0.1:{port}/mcp (rmcp 3.11.0)");
    axum::serve(listener, app).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn amounts_round_trip_through_minor_units() {
        assert_eq!(parse_amount("12000", "KRW"), Ok(12000));
        assert_eq!(parse_amount("12.5", "USD"), Ok(1250));
        assert_eq!(format_amount(1250, "USD"), "12.50");
        assert_eq!(format_amount(-5, "USD"), "-0.05");
        assert!(parse_amount("1.", "USD").is_err());
        assert!(parse_amount("1.234", "USD").is_err());
    }
}
