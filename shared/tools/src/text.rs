//! Field descriptions shared by several tools, written for a model.
//!
//! They carry the rules a model gets wrong without them: units of amounts,
//! date format and zone, what `from`/`to` mean, and how to retry safely.

/// The optional `vault` argument.
pub(crate) const VAULT: &str =
    "Name of the vault (as list_vaults shows it). Leave it out when you have only one vault.";

/// A required `vault` argument naming an existing vault.
pub(crate) const VAULT_REQUIRED: &str = "Current name of the vault (as list_vaults shows it).";

/// An account name argument.
pub(crate) const ACCOUNT: &str =
    "Name of the account, e.g. \"카카오뱅크\" or \"식비\" (as list_accounts shows it). Use names, not ids.";

/// A positive amount argument.
pub(crate) const AMOUNT: &str = "Amount as a decimal string in the vault currency's major unit: \"12500\" is 12,500 won in a KRW vault, \"12.50\" is 12.50 dollars in a USD vault. Positive; no thousands separators, no currency sign, no more decimals than the currency has (KRW has none).";

/// An optional transaction date.
pub(crate) const DATE_DEFAULT_TODAY: &str = "Date it happened, YYYY-MM-DD in the vault's time zone. Leave it out for today in the vault (list_vaults shows `today`).";

/// The optional memo.
pub(crate) const MEMO: &str = "Short memo, e.g. \"점심 김밥\" or \"3월 월급\". Optional.";

/// The idempotency key, in the words docs/design.md §6 asks for.
pub(crate) const IDEMPOTENCY_KEY: &str = "A key you make up once for this new entry (e.g. a random UUID). If you retry this same entry because a call failed or timed out, reuse the same idempotencyKey unchanged, with the same arguments: the entry is then recorded only once and the first result is returned, marked replayed. Make up a new key only for a different entry.";

/// The duplicate-guard override.
pub(crate) const ALLOW_DUPLICATE: &str = "Set true only when the user really means a second, separate entry with the same accounts and amounts as one recorded in the last 10 minutes (whatever its date or memo). Default false: such a repeat is refused as a probable duplicate, and the error names the earlier entry.";

/// The far-future override.
pub(crate) const FUTURE_DATE: &str = "Set true only when a date more than a year after today is really meant (e.g. a loan's last payment). Default false: such a date is refused as a likely typo, showing the date read.";

/// The preview flag.
pub(crate) const DRY_RUN: &str = "Set true to preview: everything is checked and the result shows the transaction and the balances it would produce, but nothing is written. Default false.";

/// The `from` account of a simple transaction.
pub(crate) const FROM_ACCOUNT: &str = "Name of the account the money leaves. Lunch paid from the bank account: from \"카카오뱅크\", to \"식비\". Salary: from \"월급\" (income), to \"카카오뱅크\". A card purchase: from \"신한카드\" (liability), to \"식비\". Paying the card bill: from \"카카오뱅크\", to \"신한카드\". A refund reverses the purchase: from \"식비\", to the account that paid.";

/// The `to` account of a simple transaction.
pub(crate) const TO_ACCOUNT: &str = "Name of the account the money arrives at: \"식비\" for lunch paid from \"카카오뱅크\"; \"카카오뱅크\" for a salary from \"월급\"; \"신한카드\" when paying the card bill from \"카카오뱅크\".";

/// The currency of a result.
pub(crate) const CURRENCY: &str = "ISO 4217 code of the vault's currency; every amount in this result is a decimal string in its major unit.";

/// The vault of a result.
pub(crate) const VAULT_OUT: &str = "The vault this result is about.";

/// A balance in the natural sign.
pub(crate) const BALANCE: &str = "Balance as a decimal string in the vault currency, in the account kind's natural sign: assets and expenses grow with money arriving; liabilities, income and equity grow with money leaving them. A credit card owing 300,000 won shows \"300000\".";

/// The balances in a write's result.
pub(crate) const WRITE_BALANCES: &str = "Balances of the accounts it touched, after it, as of today in the vault's time zone (entries dated later are apart, as scheduled).";

/// Entries dated after today, shown apart from a balance.
pub(crate) const SCHEDULED: &str = "Net of entries dated after the balance's day (already recorded, not in balance), natural sign; absent when there are none.";

/// An account id in a result.
pub(crate) const ACCOUNT_ID: &str = "The account's id (a UUID). Tools take the account's name, not this id.";

/// An account name in a result.
pub(crate) const ACCOUNT_NAME: &str =
    "The account's name; pass it as `account`, `from` or `to` to other tools.";

/// An account kind.
pub(crate) const KIND: &str = "asset (bank accounts, cash), liability (credit cards, loans), income (salary), expense (food, transport) or equity (opening balances).";

/// A transaction in a result.
pub(crate) const TRANSACTION: &str = "The transaction.";

/// The transaction id argument.
pub(crate) const TRANSACTION_ID: &str = "The transaction's id as a string, exactly as a tool returned it (e.g. from list_transactions or record_transaction). Never send it as a JSON number: ids are larger than 2^53 and a number may be rounded to a different id.";

/// The optional `externalRef` of an entry.
pub(crate) const EXTERNAL_REF: &str = "The statement line's own id (card approval number, bank transaction id), if it has one. Unique per vault: a line whose externalRef was already recorded is not recorded again.";
/// The members of a vault in a result.
pub(crate) const MEMBERS: &str = "Everyone keeping this vault, oldest first.";

/// The note of a read filter naming an account that archived accounts also had.
pub(crate) const ACCOUNT_NOTE: &str = "Present when `account` named an active account that archived accounts also had: says which was used and the archived ones' handles.";
