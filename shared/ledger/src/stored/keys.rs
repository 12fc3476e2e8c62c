//! Every item key of the single table, built in this one place (docs/keys.md).
//!
//! Two kinds of partition:
//! - `P#<sub>`: a person's own items: vault memberships, vault-name items
//!   (uniqueness of vault names per person) and idempotency records.
//! - `V#<vaultId>`: everything of one vault. Reached only through a membership
//!   found in the caller's partition, never from an id a client sent.
//!
//! Sort keys sort as text: dates are `YYYY-MM-DD`, months `YYYY-MM`, and
//! transaction ids fixed-width, so ranges and newest-first queries are key ranges.

use dochiya_domain::{AccountId, LocalDate, NameKey, PersonId, TransactionId, VaultId, YearMonth};
use dochiya_store::{Key, SkRange};

/// Sort key of a vault's own settings item.
pub const VAULT_META: &str = "META";
/// Prefix of membership items in a person's partition.
pub const MEMBERSHIP_PREFIX: &str = "M#";
/// Sort key of a person's roster version: sorts just before every `M#…`, so
/// one query reads the version with the memberships.
pub const ROSTER_VERSION: &str = "M";
/// Prefix of ended memberships in a person's partition (removed, or left): sorts
/// after every `M#…` and before `VN#`, so the roster query reads them too.
pub const ENDED_PREFIX: &str = "MX#";
/// Prefix of account items (balance included) in a vault.
pub const ACCOUNT_PREFIX: &str = "A#";
/// Prefix of monthly rollups in a vault.
pub const MONTH_PREFIX: &str = "B#";
/// Prefix of daily rollups in a vault.
pub const DAY_PREFIX: &str = "C#";
/// Prefix of transactions by date in a vault.
pub const TX_PREFIX: &str = "T#";
/// Prefix of transactions' earlier versions in a vault. `TV#` sorts after every
/// `T#…` key (`V` > `#`), so no transaction range reads a version.
pub const TX_VERSION_PREFIX: &str = "TV#";
/// Prefix of the items that tell a replay what its entry is now (`TC#<hash of
/// the idempotency record's key>`). `TC#` sorts after every `T#…` key and
/// before `TI#`, so no transaction range reads one.
pub const TX_CHANGED_PREFIX: &str = "TC#";
/// Prefix of snapshots in a vault.
pub const SNAPSHOT_PREFIX: &str = "S#";
/// Prefix of budget settings in a vault: after every `B#…` rollup, before `C#`.
pub const BUDGET_PREFIX: &str = "BG#";
/// Prefix of member items (who keeps a shared vault) in a vault.
pub const MEMBER_PREFIX: &str = "MB#";
/// Prefix of invite items; an invite is its own partition and its sort key repeats it.
pub const INVITE_PREFIX: &str = "INV#";
/// Prefix of recurring schedules in a vault (`RC#<name key>`). `R` sorts after every
/// `M…` and before `S#`, inside no other range.
pub const RECURRING_PREFIX: &str = "RC#";
/// Prefix of recurring postings' claims (`RP#<scheduleId>#<date>`): one per schedule and date, ever.
pub const RECURRING_POSTED_PREFIX: &str = "RP#";
/// Sort key of a vault's recurring head: the earliest date any schedule may next fall due.
pub const RECURRING_HEAD: &str = "RN";
/// Prefix of monthly tag rollups (`GM#<YYYY-MM>#<tagKey>`, decision 038).
pub const TAG_MONTH_PREFIX: &str = "GM#";
/// Prefix of daily tag rollups (`GD#<YYYY-MM-DD>#<tagKey>`).
pub const TAG_DAY_PREFIX: &str = "GD#";
/// Prefix of installment purchases' items (`IP#<bound>#<accountId>#<id20>`, decision
/// 040). `I` sorts after `DR#` and before `M`, inside no other range.
pub const INSTALLMENT_PREFIX: &str = "IP#";
/// A character above every character used after a prefix: closes inclusive ranges.
pub const HIGH: char = '\u{10FFFF}';

/// A person's partition.
pub fn person_pk(who: &PersonId) -> String {
    format!("P#{}", who.as_str())
}

/// A vault's partition.
pub fn vault_pk(vault: VaultId) -> String {
    format!("V#{vault}")
}

/// A person's membership of a vault (`P#<sub>` / `M#<vaultId>`).
pub fn membership(who: &PersonId, vault: VaultId) -> Key {
    Key::new(person_pk(who), format!("{MEMBERSHIP_PREFIX}{vault}"))
}

/// The record that a person's membership of a vault ended (`P#<sub>` / `MX#<vaultId>`).
pub fn ended_membership(who: &PersonId, vault: VaultId) -> Key {
    Key::new(person_pk(who), format!("{ENDED_PREFIX}{vault}"))
}

/// Whether a sort key (from [`roster`]) is an ended membership's.
pub fn is_ended_membership(sk: &str) -> bool {
    sk.starts_with(ENDED_PREFIX)
}

/// The version of a person's memberships (`P#<sub>` / `M`): moved on by every
/// write that changes a membership, checked by every write that relied on a cached one.
pub fn roster_version(who: &PersonId) -> Key {
    Key::new(person_pk(who), ROSTER_VERSION)
}

/// A vault name held by a person (`P#<sub>` / `VN#<nameKey>`): at most one per name.
pub fn vault_name(who: &PersonId, name: &NameKey) -> Key {
    Key::new(person_pk(who), format!("VN#{}", name.as_str()))
}

/// A vault deletion under way (`P#<sub>` / `DV#<vaultId>`), in the deleting owner's
/// partition from the write that ends every membership until the vault's last item is
/// gone: the owner's next `delete_vault` finishes what a crash left (decision 057).
pub fn deletion(who: &PersonId, vault: VaultId) -> Key {
    Key::new(person_pk(who), format!("{DELETION_PREFIX}{vault}"))
}

/// Sort-key prefix of the deletions under way in a person's partition.
pub const DELETION_PREFIX: &str = "DV#";

/// Every deletion under way in a person's partition.
pub fn deletions() -> SkRange {
    SkRange::Prefix(DELETION_PREFIX.into())
}

/// Every idempotency record in a person's partition (a batch's operation claim too).
pub fn idempotency_records() -> SkRange {
    SkRange::Prefix("IK#".into())
}

/// An idempotency record of a person (`P#<sub>` / `IK#<key>`).
pub fn idempotency(who: &PersonId, key: &str) -> Key {
    Key::new(person_pk(who), format!("IK#{key}"))
}

/// A person's member item in a shared vault (`V#<id>` / `MB#<sub>`).
pub fn member(vault: VaultId, who: &PersonId) -> Key {
    Key::new(vault_pk(vault), format!("{MEMBER_PREFIX}{}", who.as_str()))
}

/// Prefix of a former member's item in a vault (`V#<id>` / `FM#<sub>`; decision 060).
pub const FORMER_MEMBER_PREFIX: &str = "FM#";

/// What a vault keeps of one time someone was in it, once they left or were removed:
/// their name and that time (one item per time in, keyed by when it began), so a
/// settle-up over a period they were in still shows them.
pub fn former_member(vault: VaultId, sub: &str, joined_at: i64) -> Key {
    Key::new(
        vault_pk(vault),
        format!("{FORMER_MEMBER_PREFIX}{sub}#{joined_at:012}"),
    )
}

/// Every former member item of a vault.
pub fn former_members() -> SkRange {
    SkRange::Prefix(FORMER_MEMBER_PREFIX.into())
}

/// Prefix of a vault's word items (`LW#<wordKey>`; decision 061).
pub const WORD_PREFIX: &str = "LW#";

/// What a vault has learned of one memo first word: how many live entries with it went
/// to each account, and the account an edit last moved one to.
pub fn word(vault: VaultId, word: &NameKey) -> Key {
    Key::new(vault_pk(vault), format!("{WORD_PREFIX}{}", word.as_str()))
}

/// Every word item of a vault.
pub fn words() -> SkRange {
    SkRange::Prefix(WORD_PREFIX.into())
}

/// Prefix of a vault's `for` rollups (`FR#<YYYY-MM>#<for>`; decision 062).
pub const FOR_MONTH_PREFIX: &str = "FR#";

/// What entries saying `for` (a member's subject, or `*`) moved on each account in a
/// month: month first, so one range reads every `for` of a span of months. `FR#` sorts
/// after `FM#` and before `GD#`, inside no other range.
pub fn for_month_rollup(vault: VaultId, month: YearMonth, for_whom: &str) -> Key {
    Key::new(vault_pk(vault), format!("{FOR_MONTH_PREFIX}{month}#{for_whom}"))
}

/// Every account's monthly rollups from the month `from` on (future months included).
pub fn months_from(from: YearMonth) -> SkRange {
    SkRange::Between(month_from(from), upper(MONTH_PREFIX))
}

/// Every `for` rollup of the months `from..=to` (from the first when `from` is `None`).
pub fn for_months_between(from: Option<YearMonth>, to: YearMonth) -> SkRange {
    SkRange::Between(
        format!(
            "{FOR_MONTH_PREFIX}{}",
            from.map(|m| m.to_string()).unwrap_or_default()
        ),
        upper(&format!("{FOR_MONTH_PREFIX}{to}#")),
    )
}

/// Every account's monthly rollups of the months `from..=to` (from the first when
/// `from` is `None`).
pub fn month_rollups(from: Option<YearMonth>, to: YearMonth) -> SkRange {
    SkRange::Between(
        from.map_or_else(|| MONTH_PREFIX.to_string(), month_from),
        month_through(to),
    )
}

/// An invite, found by the hash of its code alone (`INV#<hash>` / `INV#`): the
/// joiner knows nothing else, so the invite cannot live in the vault's partition.
pub fn invite(code_hash: &str) -> Key {
    Key::new(format!("{INVITE_PREFIX}{code_hash}"), INVITE_PREFIX)
}

/// A vault's settings (`V#<id>` / `META`).
pub fn vault_meta(vault: VaultId) -> Key {
    Key::new(vault_pk(vault), VAULT_META)
}

/// An account with its running balance (`V#<id>` / `A#<accountId>`).
pub fn account(vault: VaultId, account: AccountId) -> Key {
    Key::new(vault_pk(vault), format!("{ACCOUNT_PREFIX}{account}"))
}

/// A live account name in a vault (`V#<id>` / `AN#<nameKey>`): at most one per name.
pub fn account_name(vault: VaultId, name: &NameKey) -> Key {
    Key::new(vault_pk(vault), format!("AN#{}", name.as_str()))
}

/// An account's net change in a month (`V#<id>` / `B#<YYYY-MM>#<accountId>`).
pub fn month_rollup(vault: VaultId, month: YearMonth, account: AccountId) -> Key {
    Key::new(vault_pk(vault), format!("{MONTH_PREFIX}{month}#{account}"))
}

/// An account's net change on a day (`V#<id>` / `C#<YYYY-MM-DD>#<accountId>`).
pub fn day_rollup(vault: VaultId, date: LocalDate, account: AccountId) -> Key {
    Key::new(vault_pk(vault), format!("{DAY_PREFIX}{date}#{account}"))
}

/// A transaction by date (`V#<id>` / `T#<YYYY-MM-DD>#<id20>`).
pub fn transaction(vault: VaultId, date: LocalDate, id: TransactionId) -> Key {
    Key::new(vault_pk(vault), transaction_sk(date, id))
}

/// The sort key of a transaction by date.
pub fn transaction_sk(date: LocalDate, id: TransactionId) -> String {
    format!("{TX_PREFIX}{date}#{}", id.to_key_string())
}

/// A transaction by id (`V#<id>` / `TI#<id20>`): a copy for lookups by id.
pub fn transaction_by_id(vault: VaultId, id: TransactionId) -> Key {
    Key::new(vault_pk(vault), format!("TI#{}", id.to_key_string()))
}

/// An earlier version of an edited transaction (`V#<id>` / `TV#<id20>#<version>`):
/// the content version `version` had until an edit replaced it.
pub fn transaction_version(vault: VaultId, id: TransactionId, version: u32) -> Key {
    Key::new(
        vault_pk(vault),
        format!("{}{version:05}", transaction_versions_prefix(id)),
    )
}

/// Sort-key prefix of one transaction's earlier versions.
fn transaction_versions_prefix(id: TransactionId) -> String {
    format!("{TX_VERSION_PREFIX}{}#", id.to_key_string())
}

/// What an entry is now, for replays of the key that recorded it (`V#<id>` /
/// `TC#<origin>`): written by every void and edit of an entry that has an origin.
pub fn transaction_changed(vault: VaultId, origin: &str) -> Key {
    Key::new(vault_pk(vault), format!("{TX_CHANGED_PREFIX}{origin}"))
}

/// The duplicate guard for one transaction content (`V#<id>` / `DG#<hash>`).
pub fn duplicate_guard(vault: VaultId, content_hash: &str) -> Key {
    Key::new(vault_pk(vault), format!("DG#{content_hash}"))
}

/// An externalRef claim (`V#<id>` / `XR#<externalRef>`): at most one transaction per
/// statement-line id in a vault. `XR#` sorts after `T#`, `TI#` and `S#` and inside
/// no range query (`A#`…`C#`, `C#…`, `S#…`, `T#…` are each bounded by their prefix).
pub fn external_ref(vault: VaultId, external_ref: &str) -> Key {
    Key::new(vault_pk(vault), format!("XR#{external_ref}"))
}

/// A snapshot (`V#<id>` / `S#<accountId>#<YYYY-MM-DD>`): one per account and date.
pub fn snapshot(vault: VaultId, account: AccountId, date: LocalDate) -> Key {
    Key::new(vault_pk(vault), format!("{SNAPSHOT_PREFIX}{account}#{date}"))
}

/// A budget setting (`V#<id>` / `BG#<YYYY-MM>#<accountId>`): one per account and
/// month set; month first, so "every setting up to a month" is one range.
pub fn budget(vault: VaultId, month: YearMonth, account: AccountId) -> Key {
    Key::new(vault_pk(vault), format!("{BUDGET_PREFIX}{month}#{account}"))
}

/// Sort-key prefix of one account's snapshots.
pub fn snapshot_prefix(account: AccountId) -> String {
    format!("{SNAPSHOT_PREFIX}{account}#")
}

/// Sort key just after every item starting with `prefix` (inclusive upper bound).
pub fn upper(prefix: &str) -> String {
    format!("{prefix}{HIGH}")
}

/// First sort key of monthly rollups of `month`.
pub fn month_from(month: YearMonth) -> String {
    format!("{MONTH_PREFIX}{month}")
}

/// Last sort key of monthly rollups of `month`.
pub fn month_through(month: YearMonth) -> String {
    upper(&format!("{MONTH_PREFIX}{month}#"))
}

/// First sort key of daily rollups of `date`.
pub fn day_from(date: LocalDate) -> String {
    format!("{DAY_PREFIX}{date}")
}

/// Last sort key of daily rollups of `date`.
pub fn day_through(date: LocalDate) -> String {
    upper(&format!("{DAY_PREFIX}{date}#"))
}

/// First sort key of transactions on `date`.
pub fn tx_from(date: LocalDate) -> String {
    format!("{TX_PREFIX}{date}")
}

/// Last sort key of transactions on `date`.
pub fn tx_through(date: LocalDate) -> String {
    upper(&format!("{TX_PREFIX}{date}#"))
}

// ------------------------------------------------------------ access patterns
//
// Every query range the ledger runs, by what it reads. Ranges that span several
// prefixes rely on the byte order of the prefixes (`A#` < `AN#` < `B#` < `C#`,
// `M` < `M#`); that knowledge stays here.

/// Every account of a vault.
pub fn accounts() -> SkRange {
    SkRange::Prefix(ACCOUNT_PREFIX.into())
}

/// Accounts and the monthly rollups of every month through `through` (every
/// month when `None`), in one query: the head of a balance or history.
/// The range also holds the account-name items (`AN#`), which readers skip.
pub fn accounts_and_months_through(through: Option<YearMonth>) -> SkRange {
    let end = match through {
        Some(month) => month_through(month),
        None => upper(MONTH_PREFIX),
    };
    SkRange::Between(ACCOUNT_PREFIX.into(), end)
}

/// Monthly rollups of the months `from..=to`.
pub fn months_between(from: YearMonth, to: YearMonth) -> SkRange {
    SkRange::Between(month_from(from), month_through(to))
}

/// Daily rollups of the dates `from..=to`.
pub fn days_between(from: LocalDate, to: LocalDate) -> SkRange {
    SkRange::Between(day_from(from), day_through(to))
}

/// Daily rollups from `from` on, to the last dated one (entries after today included).
pub fn days_from(from: LocalDate) -> SkRange {
    SkRange::Between(day_from(from), upper(DAY_PREFIX))
}

/// Transactions dated `from..=to`; an open end reads to the first or last one.
pub fn transactions_between(from: Option<LocalDate>, to: Option<LocalDate>) -> SkRange {
    SkRange::Between(
        from.map(tx_from).unwrap_or_else(|| TX_PREFIX.to_string()),
        to.map(tx_through).unwrap_or_else(|| upper(TX_PREFIX)),
    )
}

/// The earlier versions of one transaction, oldest first.
pub fn transaction_versions(id: TransactionId) -> SkRange {
    SkRange::Prefix(transaction_versions_prefix(id))
}

/// Every snapshot of a vault.
pub fn snapshots() -> SkRange {
    SkRange::Prefix(SNAPSHOT_PREFIX.into())
}

/// Every snapshot of one account, oldest first.
pub fn account_snapshots(account: AccountId) -> SkRange {
    SkRange::Prefix(snapshot_prefix(account))
}

/// A person's roster: the version item (`M`) and every membership (`M#…`) in one query.
pub fn roster() -> SkRange {
    SkRange::Between(ROSTER_VERSION.into(), upper(ENDED_PREFIX))
}

/// Every budget setting of a vault.
pub fn budgets() -> SkRange {
    SkRange::Prefix(BUDGET_PREFIX.into())
}

/// Budget settings of every month through `through`: all a month's budgets can depend on.
pub fn budgets_through(through: YearMonth) -> SkRange {
    SkRange::Between(BUDGET_PREFIX.into(), upper(&format!("{BUDGET_PREFIX}{through}#")))
}

/// In one query, the monthly rollups of `month` and every budget setting through
/// it (a budget report). `B#` < `BG#` in byte order, so the range runs from the
/// month's rollups through the later months' (readers skip them) into the settings.
pub fn month_and_budgets_through(month: YearMonth) -> SkRange {
    SkRange::Between(month_from(month), upper(&format!("{BUDGET_PREFIX}{month}#")))
}

/// In one query, the monthly rollups of `from..=month` and every budget setting
/// through `month`: a budget report with its rollover look-back (decision 038).
/// The later months' rollups in between are skipped by readers, as above.
pub fn months_and_budgets_through(from: YearMonth, month: YearMonth) -> SkRange {
    SkRange::Between(month_from(from), upper(&format!("{BUDGET_PREFIX}{month}#")))
}

/// Whether a sort key (from a range above) is a budget setting's.
pub fn is_budget(sk: &str) -> bool {
    sk.starts_with(BUDGET_PREFIX)
}

/// A vault's member items (`MB#…`) and its settings (`META`) in one query:
/// `MB#` < `META` in byte order, and nothing else in a vault starts with `M`.
pub fn members_and_meta() -> SkRange {
    SkRange::Between(MEMBER_PREFIX.into(), VAULT_META.into())
}

/// An installment purchase on a card (`V#<id>` / `IP#<bound>#<accountId>#<id20>`): `bound`
/// is the latest month its last part can be billed in whatever the card's cycle, so
/// the bills of a month read only the purchases still open then.
pub fn installment(vault: VaultId, bound: YearMonth, card: AccountId, id: TransactionId) -> Key {
    Key::new(
        vault_pk(vault),
        format!("{INSTALLMENT_PREFIX}{bound}#{card}#{}", id.to_key_string()),
    )
}

/// The installment purchases of every card that may still have a part on a bill paid
/// in `month` or later: bounds from `month` on.
pub fn installments_open_in(month: YearMonth) -> SkRange {
    SkRange::Between(format!("{INSTALLMENT_PREFIX}{month}"), upper(INSTALLMENT_PREFIX))
}

/// Whether a sort key (from [`members_and_meta`]) is a member item's.
pub fn is_member(sk: &str) -> bool {
    sk.starts_with(MEMBER_PREFIX)
}

/// A recurring schedule (`V#<id>` / `RC#<name key>`): one per name in a vault.
pub fn recurring(vault: VaultId, name: &NameKey) -> Key {
    Key::new(vault_pk(vault), format!("{RECURRING_PREFIX}{}", name.as_str()))
}

/// Every recurring schedule of a vault.
pub fn recurrings() -> SkRange {
    SkRange::Prefix(RECURRING_PREFIX.into())
}

/// The claim of one schedule's posting on one date (`V#<id>` / `RP#<scheduleId>#<date>`):
/// whoever writes it first posts that occurrence; it is never deleted, so a voided
/// occurrence is not posted again.
pub fn recurring_posted(vault: VaultId, schedule_id: &str, date: LocalDate) -> Key {
    Key::new(
        vault_pk(vault),
        format!("{RECURRING_POSTED_PREFIX}{schedule_id}#{date}"),
    )
}

/// The vault's recurring head (`V#<id>` / `RN`), read beside every call into the vault.
pub fn recurring_head(vault: VaultId) -> Key {
    Key::new(vault_pk(vault), RECURRING_HEAD)
}

/// The vault's schedule counter (`V#<id>` / `RV`): how many schedules it keeps, set
/// by every creation and removal only if it is as read, so creations racing past the
/// cap cannot all land. `RV` sorts after `RP#` and before `S#`, inside no range.
pub fn recurring_count(vault: VaultId) -> Key {
    Key::new(vault_pk(vault), "RV")
}

/// Prefix of the account-number claims (`V#<id>` / `N#<nnn>`): the n-th account of
/// a vault claims number n, only if absent, so creations racing past the cap cannot
/// all land. `N` sorts after `MB#`/`META` and before `OL#`/`OP#`, inside no range.
pub const ACCOUNT_NUMBER_PREFIX: &str = "N#";

/// The claim of the vault's `n`-th account (1-based; accounts are never deleted, so
/// the count only grows).
pub fn account_number(vault: VaultId, n: usize) -> Key {
    Key::new(vault_pk(vault), format!("{ACCOUNT_NUMBER_PREFIX}{n:04}"))
}

/// The guard that makes a hand entry of a posted occurrence a probable duplicate
/// (`V#<id>` / `DR#<hash of date and lines>`), whenever it was posted.
pub fn recurring_guard(vault: VaultId, content_hash: &str) -> Key {
    Key::new(vault_pk(vault), format!("DR#{content_hash}"))
}

/// How many partitions the due index is spread over: a million vaults put about
/// 16,000 items in each, and the scheduled run reads each shard with one query.
pub const DUE_SHARDS: u32 = 64;

/// The due-index shard of a vault (from its random id, so vaults spread evenly).
pub fn due_shard(vault: VaultId) -> u32 {
    u32::try_from(vault.as_uuid().as_u128() % u128::from(DUE_SHARDS)).unwrap_or(0)
}

/// A due-index shard's partition (`DUE#<nn>`): no person's or vault's data.
pub fn due_pk(shard: u32) -> String {
    format!("DUE#{shard:02}")
}

/// A vault's entry in the due index (`DUE#<nn>` / `<YYYY-MM-DD>#<vaultId>`): its
/// recurring head's date, so the scheduled run reads only what is due.
pub fn due(vault: VaultId, date: LocalDate) -> Key {
    Key::new(due_pk(due_shard(vault)), format!("{date}#{vault}"))
}

/// A shard's entries due on or before `through`.
pub fn due_through(through: LocalDate) -> SkRange {
    SkRange::Between("1900".into(), upper(&format!("{through}#")))
}

/// A tag's monthly rollup (`V#<id>` / `GM#<YYYY-MM>#<tagKey>`): month first, so one
/// range reads every tag of a span of months. `GD#` < `GM#`, both after `DR#` and
/// before `INV#`/`MB#`, inside no other range.
pub fn tag_month_rollup(vault: VaultId, month: YearMonth, tag: &NameKey) -> Key {
    Key::new(
        vault_pk(vault),
        format!("{TAG_MONTH_PREFIX}{month}#{}", tag.as_str()),
    )
}

/// A tag's daily rollup (`V#<id>` / `GD#<YYYY-MM-DD>#<tagKey>`).
pub fn tag_day_rollup(vault: VaultId, date: LocalDate, tag: &NameKey) -> Key {
    Key::new(
        vault_pk(vault),
        format!("{TAG_DAY_PREFIX}{date}#{}", tag.as_str()),
    )
}

/// Every tag's monthly rollups of the months `from..=to`.
pub fn tag_months_between(from: YearMonth, to: YearMonth) -> SkRange {
    SkRange::Between(
        format!("{TAG_MONTH_PREFIX}{from}"),
        upper(&format!("{TAG_MONTH_PREFIX}{to}#")),
    )
}

/// Every tag's daily rollups of the dates `from..=to`.
pub fn tag_days_between(from: LocalDate, to: LocalDate) -> SkRange {
    SkRange::Between(
        format!("{TAG_DAY_PREFIX}{from}"),
        upper(&format!("{TAG_DAY_PREFIX}{to}#")),
    )
}

/// Whether a sort key (from a range above) is a tag rollup's (monthly or daily).
pub fn is_tag_rollup(sk: &str) -> bool {
    sk.starts_with(TAG_MONTH_PREFIX) || sk.starts_with(TAG_DAY_PREFIX)
}

/// Prefix of operation items in a vault (`OP#<op20>`: the operation; `OP#<op20>#<id20>`:
/// one entry it changed). `O` sorts after `MB#`/`META` and before `RC#`, inside no other range.
pub const OPERATION_PREFIX: &str = "OP#";
/// Prefix of each member's latest-operation pointer in a vault (`OL#<sub>`).
pub const LATEST_OPERATION_PREFIX: &str = "OL#";

/// An operation (`V#<id>` / `OP#<op20>`): who made it, what kind, when; `op20` is the
/// operation id zero-padded to 20 digits.
pub fn operation(vault: VaultId, op20: &str) -> Key {
    Key::new(vault_pk(vault), format!("{OPERATION_PREFIX}{op20}"))
}

/// One entry an operation changed (`V#<id>` / `OP#<op20>#<id20>`): what it did to it.
pub fn operation_entry(vault: VaultId, op20: &str, id: TransactionId) -> Key {
    Key::new(
        vault_pk(vault),
        format!("{OPERATION_PREFIX}{op20}#{}", id.to_key_string()),
    )
}

/// An operation and every entry it changed, in one query (the entries sort after it).
pub fn operation_and_entries(op20: &str) -> SkRange {
    SkRange::Prefix(format!("{OPERATION_PREFIX}{op20}"))
}

/// A person's latest operation in a vault (`V#<id>` / `OL#<sub>`): what `undo` takes by default.
pub fn latest_operation(vault: VaultId, who: &PersonId) -> Key {
    Key::new(
        vault_pk(vault),
        format!("{LATEST_OPERATION_PREFIX}{}", who.as_str()),
    )
}

/// Transactions by id (`TI#…`), which is the order they were recorded in: ids are
/// time-ordered at recording (`list_transactions` with `order: "recorded"`).
pub fn transactions_by_id() -> SkRange {
    SkRange::Prefix("TI#".into())
}

/// Whether a sort key (from [`transactions_by_id`]) is a transaction's by-id item.
pub fn is_transaction_by_id(sk: &str) -> bool {
    sk.starts_with("TI#")
}

/// Whether a sort key (from a range above) is an account's.
pub fn is_account(sk: &str) -> bool {
    sk.starts_with(ACCOUNT_PREFIX)
}

/// Whether a sort key (from a range above) is a monthly rollup's.
pub fn is_month_rollup(sk: &str) -> bool {
    sk.starts_with(MONTH_PREFIX)
}

/// Whether a sort key (from a range above) is a daily rollup's.
pub fn is_day_rollup(sk: &str) -> bool {
    sk.starts_with(DAY_PREFIX)
}

/// Whether a sort key is a transaction's by date (a page cursor must resume at one).
pub fn is_transaction(sk: &str) -> bool {
    sk.starts_with(TX_PREFIX)
}

/// Whether a sort key (from [`roster`]) is the roster version's.
pub fn is_roster_version(sk: &str) -> bool {
    sk == ROSTER_VERSION
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_sort_by_number_and_stay_out_of_transaction_ranges() {
        let v = VaultId::from_uuid(uuid::Uuid::nil());
        let id = TransactionId::from_u64(u64::MAX).unwrap();
        let (v2, v10) = (
            transaction_version(v, id, 2).sk,
            transaction_version(v, id, 10).sk,
        );
        assert!(v2 < v10);
        let SkRange::Between(lo, hi) = transactions_between(None, None) else {
            panic!("a transaction range is a Between");
        };
        assert!(!(lo.as_str() <= v2.as_str() && v2.as_str() <= hi.as_str()));
        let SkRange::Prefix(p) = transaction_versions(id) else {
            panic!("versions are a prefix");
        };
        assert!(v10.starts_with(&p) && !transaction_by_id(v, id).sk.starts_with(&p));
    }

    #[test]
    fn transaction_keys_sort_by_date_then_id() {
        let v = VaultId::from_uuid(uuid::Uuid::nil());
        let d1 = LocalDate::parse("2026-03-09").unwrap();
        let d2 = LocalDate::parse("2026-03-10").unwrap();
        let small = TransactionId::from_u64((1 << 53) + 1).unwrap();
        let big = TransactionId::from_u64(u64::MAX).unwrap();
        assert!(transaction(v, d1, big).sk < transaction(v, d2, small).sk);
        assert!(transaction(v, d2, small).sk < transaction(v, d2, big).sk);
        assert!(transaction(v, d2, big).sk <= tx_through(d2));
        assert!(tx_from(d2) <= transaction(v, d2, small).sk);
    }

    #[test]
    fn month_and_day_ranges_cover_exactly_their_period() {
        let v = VaultId::from_uuid(uuid::Uuid::nil());
        let a = AccountId::from_uuid(uuid::Uuid::max());
        let m = YearMonth::parse("2026-03").unwrap();
        let k = month_rollup(v, m, a).sk;
        assert!(month_from(m) <= k && k <= month_through(m));
        assert!(month_rollup(v, m.next(), a).sk > month_through(m));
        let d = LocalDate::parse("2026-03-31").unwrap();
        assert!(day_rollup(v, d, a).sk <= day_through(d));
    }

    #[test]
    fn the_head_range_holds_accounts_and_months_through_its_month_only() {
        let v = VaultId::from_uuid(uuid::Uuid::nil());
        let a = AccountId::from_uuid(uuid::Uuid::max());
        let m = YearMonth::parse("2026-03").unwrap();
        let d = LocalDate::parse("2026-03-01").unwrap();
        let within = |r: &SkRange, sk: &str| match r {
            SkRange::Between(lo, hi) => lo.as_str() <= sk && sk <= hi.as_str(),
            other => panic!("{other:?}"),
        };
        let head = accounts_and_months_through(Some(m));
        assert!(within(&head, &account(v, a).sk));
        assert!(within(&head, &month_rollup(v, m, a).sk));
        assert!(!within(&head, &month_rollup(v, m.next(), a).sk));
        assert!(!within(&head, &day_rollup(v, d, a).sk));
        let all = accounts_and_months_through(None);
        assert!(within(
            &all,
            &month_rollup(v, YearMonth::parse("2199-12").unwrap(), a).sk
        ));
        assert!(!within(&all, &day_rollup(v, d, a).sk));
        let roster = roster();
        let who = PersonId::new("sub".to_string()).unwrap();
        assert!(within(&roster, &roster_version(&who).sk));
        assert!(within(&roster, &membership(&who, v).sk));
        assert!(!within(&roster, &vault_name(&who, &NameKey::of("x")).sk));
    }

    #[test]
    fn tag_rollups_sit_outside_every_other_range_and_inside_their_own() {
        let v = VaultId::from_uuid(uuid::Uuid::nil());
        let tag = NameKey::of("여행");
        let m = YearMonth::parse("2026-03").unwrap();
        let d = LocalDate::parse("2026-03-05").unwrap();
        let within = |r: &SkRange, sk: &str| match r {
            SkRange::Between(lo, hi) => lo.as_str() <= sk && sk <= hi.as_str(),
            SkRange::Prefix(p) => sk.starts_with(p.as_str()),
            SkRange::All => true,
        };
        let (month, day) = (tag_month_rollup(v, m, &tag).sk, tag_day_rollup(v, d, &tag).sk);
        let (first, last) = (
            LocalDate::parse("1900-01-01").unwrap(),
            LocalDate::parse("2999-12-31").unwrap(),
        );
        for other in [
            accounts_and_months_through(None),
            days_between(first, last),
            transactions_between(None, None),
            budgets(),
            snapshots(),
            members_and_meta(),
            recurrings(),
        ] {
            assert!(!within(&other, &month) && !within(&other, &day), "{other:?}");
        }
        assert!(within(&tag_months_between(m, m), &month));
        assert!(!within(&tag_months_between(m.next(), m.next()), &month));
        assert!(!within(&tag_months_between(m, m), &day));
        assert!(within(&tag_days_between(d, d), &day));
        assert!(!within(&tag_days_between(d.next_day(), last), &day));
        assert!(is_tag_rollup(&month) && is_tag_rollup(&day) && !is_month_rollup(&month));
    }

    #[test]
    fn for_rollups_sit_outside_every_other_range_and_inside_their_own() {
        let v = VaultId::from_uuid(uuid::Uuid::nil());
        let m = YearMonth::parse("2026-03").unwrap();
        let within = |r: &SkRange, sk: &str| match r {
            SkRange::Between(lo, hi) => lo.as_str() <= sk && sk <= hi.as_str(),
            SkRange::Prefix(p) => sk.starts_with(p.as_str()),
            SkRange::All => true,
        };
        let (first, last) = (
            LocalDate::parse("1900-01-01").unwrap(),
            LocalDate::parse("2999-12-31").unwrap(),
        );
        let (m0, m1) = (
            YearMonth::parse("1900-01").unwrap(),
            YearMonth::parse("2999-12").unwrap(),
        );
        let sk = for_month_rollup(v, m, "google|1").sk;
        for other in [
            accounts_and_months_through(None),
            months_and_budgets_through(m0, m1),
            days_between(first, last),
            transactions_between(None, None),
            budgets(),
            snapshots(),
            members_and_meta(),
            former_members(),
            words(),
            recurrings(),
            tag_months_between(m0, m1),
            tag_days_between(first, last),
        ] {
            assert!(!within(&other, &sk), "{other:?}");
        }
        assert!(within(&for_months_between(Some(m), m), &sk));
        assert!(within(
            &for_months_between(None, m),
            &for_month_rollup(v, m, "*").sk
        ));
        assert!(!within(&for_months_between(Some(m.next()), m1), &sk));
        assert!(!within(&for_months_between(None, m.prev()), &sk));
        let a = AccountId::from_uuid(uuid::Uuid::max());
        assert!(within(&month_rollups(None, m), &month_rollup(v, m, a).sk));
        assert!(!within(&month_rollups(None, m.prev()), &month_rollup(v, m, a).sk));
        assert!(!within(&month_rollups(Some(m), m1), &account(v, a).sk));
        assert!(!within(&month_rollups(None, m1), &day_rollup(v, first, a).sk));
        assert!(within(&months_from(m), &month_rollup(v, m1, a).sk));
        assert!(within(&months_from(m), &month_rollup(v, m, a).sk));
        assert!(!within(&months_from(m), &month_rollup(v, m.prev(), a).sk));
        assert!(!within(&months_from(m0), &day_rollup(v, first, a).sk));
        assert!(!within(&months_from(m0), &budget(v, m, a).sk));
    }

    #[test]
    fn cap_counters_sit_outside_every_vault_range() {
        let v = VaultId::from_uuid(uuid::Uuid::nil());
        let within = |r: &SkRange, sk: &str| match r {
            SkRange::Between(lo, hi) => lo.as_str() <= sk && sk <= hi.as_str(),
            SkRange::Prefix(p) => sk.starts_with(p.as_str()),
            SkRange::All => true,
        };
        let (first, last) = (
            LocalDate::parse("1900-01-01").unwrap(),
            LocalDate::parse("2999-12-31").unwrap(),
        );
        let (m0, m1) = (
            YearMonth::parse("1900-01").unwrap(),
            YearMonth::parse("2999-12").unwrap(),
        );
        let id = TransactionId::from_u64(u64::MAX).unwrap();
        let ranges = [
            accounts(),
            accounts_and_months_through(None),
            months_and_budgets_through(m0, m1),
            days_between(first, last),
            transactions_between(None, None),
            transaction_versions(id),
            snapshots(),
            budgets(),
            members_and_meta(),
            installments_open_in(m0),
            recurrings(),
            tag_months_between(m0, m1),
            tag_days_between(first, last),
            transactions_by_id(),
        ];
        for sk in [
            account_number(v, 1).sk,
            account_number(v, 9999).sk,
            recurring_count(v).sk,
        ] {
            for r in &ranges {
                assert!(!within(r, &sk), "{sk} in {r:?}");
            }
        }
        assert!(account_number(v, 9).sk < account_number(v, 10).sk);
    }

    #[test]
    fn budget_settings_sit_outside_every_other_range() {
        let v = VaultId::from_uuid(uuid::Uuid::nil());
        let a = AccountId::from_uuid(uuid::Uuid::max());
        let m = YearMonth::parse("2026-03").unwrap();
        let within = |r: &SkRange, sk: &str| match r {
            SkRange::Between(lo, hi) => lo.as_str() <= sk && sk <= hi.as_str(),
            SkRange::Prefix(p) => sk.starts_with(p.as_str()),
            SkRange::All => true,
        };
        let set = budget(v, m, a).sk;
        let latest = budget(v, YearMonth::parse("2999-12").unwrap(), a).sk;
        // No range of the other access patterns reaches a setting.
        assert!(!within(&accounts_and_months_through(None), &set));
        assert!(!within(&accounts_and_months_through(None), &latest));
        assert!(!within(
            &months_between(m, YearMonth::parse("2999-12").unwrap()),
            &latest
        ));
        let d = LocalDate::parse("1900-01-01").unwrap();
        assert!(!within(
            &days_between(d, LocalDate::parse("2999-12-31").unwrap()),
            &set
        ));
        assert!(!is_month_rollup(&set) && !is_account(&set) && !is_day_rollup(&set));
        // The settings through a month: its own and earlier ones, not later ones.
        assert!(within(&budgets_through(m), &set));
        assert!(within(&budgets_through(m), &budget(v, m.prev(), a).sk));
        assert!(!within(&budgets_through(m), &budget(v, m.next(), a).sk));
        // The report's span: the month's rollups and settings through it; no
        // earlier rollups, no later settings, no daily rollups.
        let span = month_and_budgets_through(m);
        assert!(within(&span, &month_rollup(v, m, a).sk));
        assert!(!within(&span, &month_rollup(v, m.prev(), a).sk));
        assert!(within(&span, &set));
        assert!(within(
            &span,
            &budget(v, YearMonth::parse("1900-01").unwrap(), a).sk
        ));
        assert!(!within(&span, &budget(v, m.next(), a).sk));
        assert!(!within(&span, &day_rollup(v, m.first_day(), a).sk));
        assert!(!within(&span, &account(v, a).sk));
    }
}
