//! Field descriptions shared by several tools, written for a model.
//!
//! They carry the rules a model gets wrong without them: units of amounts,
//! date format and zone, what `from`/`to` mean, and how to retry safely.

/// The optional `vault` argument.
pub(crate) const VAULT: &str = "Vault name; omit if only one.";

/// A required `vault` argument naming an existing vault.
pub(crate) const VAULT_REQUIRED: &str = "Current vault name.";

/// A positive amount argument.
pub(crate) const AMOUNT: &str = "Positive decimal string in the vault currency, e.g. \"12500\" (KRW) or \"12.50\" (USD); no separators or sign.";

/// An optional transaction date.
pub(crate) const DATE_DEFAULT_TODAY: &str = "YYYY-MM-DD; default the vault's today.";

/// The optional memo.
pub(crate) const MEMO: &str = "Short memo, e.g. \"점심 김밥\".";

/// The idempotency key, in the words docs/design.md §6 asks for.
pub(crate) const IDEMPOTENCY_KEY: &str = "Make one up for each new entry; on a retry of the same entry reuse it unchanged with the same arguments: it is recorded once and the first result comes back marked replayed.";

/// The duplicate-guard override.
pub(crate) const ALLOW_DUPLICATE: &str = "true only for a real second entry with the same date, accounts and amounts as one recorded minutes ago (refused as a probable duplicate otherwise).";

/// The far-future override.
pub(crate) const FUTURE_DATE: &str = "true if a date over a year ahead is meant.";

/// The preview flag.
pub(crate) const DRY_RUN: &str = "true: check and preview, write nothing.";

/// The `from` account of a simple transaction.
pub(crate) const FROM_ACCOUNT: &str =
    "Account the money leaves: the bank \"카카오뱅크\" or card \"신한카드\" that paid, the income \"월급\".";

/// The `to` account of a simple transaction.
pub(crate) const TO_ACCOUNT: &str = "Account the money arrives at: the expense \"식비\", the bank receiving a salary, the card being paid off. Omitted: picked by the memo's words.";

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
pub(crate) const TRANSACTION_ID: &str = "The id string exactly as returned; never a number.";

/// The optional `externalRef` of an entry.
pub(crate) const EXTERNAL_REF: &str =
    "The statement line's own id (approval number); a ref already in the vault is not recorded again.";
/// A card purchase's installments (할부).
pub(crate) const INSTALLMENTS: &str =
    "할부 months, 2–36: `from` is a card with billing; its bills carry equal parts.";
/// The members of a vault in a result.
pub(crate) const MEMBERS: &str =
    "Everyone keeping this vault, oldest first; a name here is what remove_member takes.";

/// The note of a read filter naming an account that archived accounts also had.
pub(crate) const ACCOUNT_NOTE: &str = "Present when `account` named an active account that archived accounts also had: says which was used and the archived ones' handles.";

/// An account's parent (대분류), as an argument.
pub(crate) const PARENT: &str =
    "Parent category of the same kind (income/expense), e.g. \"식비\" for \"외식\"; two levels.";

/// An entry's tags, as an argument.
pub(crate) const FOR: &str = "Whose spending, in a shared vault: a member's name (theirs alone) or \"shared\" (an owned category's, for everyone).";

/// An account's owner.
pub(crate) const OWNER: &str =
    "A member's name: their own account, card, income or category (용돈); \"\": shared.";

/// An entry's tags.
pub(crate) const TAGS: &str = "Up to 5 tags across categories, e.g. [\"여행\"].";
