//! The sentence a model reads for each reason the ledger refuses an input, and for each
//! total it cannot show: what is wrong and what to send instead. The ledger only names
//! the rule and its values ([`Reason`], [`Total`]); every word is here, tested once below.

use dochiya_domain::AccountKind;
use dochiya_ledger::api::{Blocker, Difference, Holder, OperationId, Reason, Total};

/// The largest 64-bit number of minor units, as refusals quote it.
const MOST: &str = "9223372036854775807";

/// "an asset", "a liability", …
pub(crate) fn with_article(kind: AccountKind) -> String {
    match kind {
        AccountKind::Liability => "a liability".into(),
        other => format!("an {other}"),
    }
}

/// Why an input was refused, as the clause after `Invalid <argument>: `.
pub fn reason(r: &Reason) -> String {
    use Reason as R;
    match r {
        R::Parse(e) => e.message().to_string(),
        R::Caller(message) => message.clone(),
        R::OtherCurrency { sent, vault } => {
            dochiya_domain::other_currency(sent, vault.code()).unwrap_or_else(|| sent.clone())
        }
        R::NoLineOnASide
        | R::TooManyLines { .. }
        | R::ZeroAmount
        | R::NegativeAmount
        | R::TextControl
        | R::TextTooLong { .. }
        | R::ReferenceControl
        | R::ReferenceTooLong { .. }
        | R::BothSides { .. }
        | R::AmountsOutOfRange
        | R::NetsOutOfRange
        | R::BalanceWouldOverflow { .. }
        | R::RollupWouldOverflow
        | R::EditTooLarge { .. }
        | R::KeyLength { .. }
        | R::BatchSize { .. } => entries(r),
        R::BalanceOutOfRange
        | R::OpeningOutOfRange
        | R::ReportTooLong { .. }
        | R::HistoryTooLong { .. }
        | R::Limit { .. }
        | R::TagByMember
        | R::BudgetOfArchived { .. }
        | R::BudgetNotExpense { .. }
        | R::TooManyBudgets { .. }
        | R::NegativeBudget => reads_and_budgets(r),
        R::BillingNotLiability { .. }
        | R::RefundInInstallments { .. }
        | R::InstallmentsNotByCard
        | R::InstallmentsWithoutBilling { .. }
        | R::TooManyParts { .. }
        | R::PerformanceWithoutCycle
        | R::ThresholdNotPositive { .. }
        | R::TooManyExcluded { .. }
        | R::ExcludeNotExpense { .. }
        | R::NoBillingCycle { .. }
        | R::OtherBillingCycle { .. } => cards(r),
        R::ScheduleDay { .. }
        | R::ScheduleEnd { .. }
        | R::ScheduleExists { .. }
        | R::NoScheduleYet { .. }
        | R::TooManySchedules { .. }
        | R::StartTooEarly { .. } => recurring(r),
        R::ForWithoutExpense
        | R::OwnerOfEquity { .. }
        | R::NoShares
        | R::MemberTwice { .. }
        | R::WeightOutOfRange { .. }
        | R::AllWeightsZero
        | R::TooManyShareChanges { .. } => household(r),
        R::ParentOfNonCategory { .. }
        | R::OwnParent { .. }
        | R::ParentOfOtherKind { .. }
        | R::ParentCycle { .. }
        | R::ParentTooDeep { .. }
        | R::ChildHasChildren { .. } => groups(r),
        R::GoalNotInAsset { .. }
        | R::GoalNameTaken { .. }
        | R::AccountHasGoal { .. }
        | R::GoalWithoutTarget
        | R::TargetNotPositive { .. }
        | R::GoalDatePassed { .. } => goals(r),
        R::WordsOfTwo { .. }
        | R::NoWordMatches { .. }
        | R::WordsNotExpense { .. }
        | R::TooManyWords { .. }
        | R::BadWord { .. }
        | R::WordTaken { .. }
        | R::TooManyVaultWords { .. } => words(r),
        R::HandleForm { .. }
        | R::RestoredHandleForm { .. }
        | R::TooManyVaults { .. }
        | R::NothingToChange
        | R::TooManyWeights { .. }
        | R::OpeningOfFlow
        | R::OpeningDateAlone
        | R::OpeningOfEquity { .. }
        | R::TooManyAccounts { .. }
        | R::EquityNameTaken { .. }
        | R::TooManyMembers { .. }
        | R::VaultFull { .. }
        | R::RemovingYourself
        | R::ConfirmMismatch { .. } => setup(r),
    }
}

/// A new entry, an edit, a batch.
fn entries(r: &Reason) -> String {
    use Reason as R;
    match r {
        R::NoLineOnASide => "a transaction needs at least one `from` line and one `to` line".into(),
        R::TooManyLines { max, got } => {
            format!("a transaction may have at most {max} lines in total; it has {got}")
        }
        R::ZeroAmount => "the amount is zero; record only amounts that moved".into(),
        R::NegativeAmount => "amounts are positive; the direction is given by `from` (money leaves) and `to` (money arrives), so swap them instead of using a minus sign".into(),
        R::TextControl => "the text may not contain control characters or line breaks".into(),
        R::TextTooLong { max, got } => format!("the text may have at most {max} characters; it has {got}"),
        R::ReferenceControl => "the reference may not contain control characters or line breaks".into(),
        R::ReferenceTooLong { max, got } => {
            format!("the reference may have at most {max} characters; it has {got}")
        }
        R::BothSides { account, recurring } => format!(
            "\"{account}\" is on both sides; a {} moves money between different accounts",
            if *recurring { "recurring entry" } else { "transaction" }
        ),
        R::AmountsOutOfRange => "the amounts are out of range".into(),
        R::NetsOutOfRange => "the amounts are out of range for this ledger".into(),
        R::BalanceWouldOverflow { account } => format!(
            "this entry would put the balance of {} out of range (past {MOST} minor units), so it was not recorded; check the amount for extra digits",
            account.as_ref().map_or("one of its accounts".to_string(), |a| format!("\"{a}\""))
        ),
        R::RollupWouldOverflow => format!(
            "this entry would put a stored monthly or daily total of one of its accounts out of range (past {MOST} minor units), so nothing was recorded; check the amount for extra digits"
        ),
        R::EditTooLarge { items, max } => format!(
            "this edit would change {items} stored items at once, more than one atomic write holds ({max}); change fewer accounts or the date in a separate edit"
        ),
        R::KeyLength { max } => format!(
            "make up a key of 1–{max} characters for this entry (for example a UUID) and reuse it unchanged if you retry this same entry"
        ),
        R::BatchSize { max, got } => format!(
            "send 1–{max} entries in one call; this call has {got}. Split a longer statement into several calls, each with its own idempotency key"
        ),
        _ => unreachable_reason(r),
    }
}

/// Snapshots, reports, pages and budgets.
fn reads_and_budgets(r: &Reason) -> String {
    use Reason as R;
    match r {
        R::BalanceOutOfRange => "the balance is out of range".into(),
        R::OpeningOutOfRange => "the opening balance is out of range".into(),
        R::ReportTooLong { max } => format!("a report may span at most {max} months"),
        R::HistoryTooLong { max } => format!("a history may span at most {max} months"),
        R::Limit { max } => format!("limit must be between 1 and {max}"),
        R::TagByMember => {
            "a report by member counts every entry; leave tag out, or report by account with the tag".into()
        }
        R::BudgetOfArchived { account } => format!(
            "\"{account}\" is archived; budgets are for live expense accounts (list_accounts shows them)"
        ),
        R::BudgetNotExpense { account, kind } => format!(
            "\"{account}\" is {} account; budgets are for expense accounts such as \"식비\" (list_accounts shows each account's kind)",
            with_article(*kind)
        ),
        R::TooManyBudgets { max } => format!(
            "a vault keeps at most {max} budget settings (one per account and month set); set repeating budgets (repeat: true) instead of one per month"
        ),
        R::NegativeBudget => "a budget cannot be negative; \"0\" clears it".into(),
        _ => unreachable_reason(r),
    }
}

/// Cards: billing, 할부, 실적.
fn cards(r: &Reason) -> String {
    use Reason as R;
    match r {
        R::BillingNotLiability { account, kind } => format!(
            "\"{account}\" is {} account; billing is for a card, a liability account (create the card with kind liability)",
            with_article(*kind)
        ),
        R::RefundInInstallments { card } => format!(
            "money back onto \"{card}\" (a refund) is one-time: leave installments out; a refund of a whole installment purchase is voiding that purchase"
        ),
        R::InstallmentsNotByCard => "installments are for a purchase paid by card: `from` must be one liability account (the card) with billing set".into(),
        R::InstallmentsWithoutBilling { card } => format!(
            "\"{card}\" has no billing cycle, so its parts would have no bills: set it first with update_account (billing: {{closingDay, paymentDay}}), then record the purchase"
        ),
        R::TooManyParts { total, count, least } => {
            format!("{total} cannot be paid in {count} parts: each part is at least {least}")
        }
        R::PerformanceWithoutCycle => "performance needs the card's cycle in the same billing: send closingDay and paymentDay with it".into(),
        R::ThresholdNotPositive { got } => format!("threshold must be more than 0; it was {got}"),
        R::TooManyExcluded { max, got } => format!("exclude at most {max} categories; {got} were sent"),
        R::ExcludeNotExpense { account, kind } => format!(
            "exclude names expense categories (관리비, 세금, 상품권); \"{account}\" is {}",
            with_article(*kind)
        ),
        R::NoBillingCycle { card } => format!(
            "\"{card}\" has no billing cycle yet: set it with update_account (billing: {{closingDay, paymentDay}}, e.g. closingDay 31 and paymentDay 14 for 전월 1일 ~ 전월 말일 paid on the 14th), then ask again"
        ),
        R::OtherBillingCycle { card } => format!(
            "\"{card}\" already exists with another billing cycle; change it with update_account (billing)"
        ),
        _ => unreachable_reason(r),
    }
}

/// Recurring entries.
fn recurring(r: &Reason) -> String {
    use Reason as R;
    match r {
        R::ScheduleDay { got } => format!(
            "day {got} is not a day of the month; send 1–31 (31, or leaving it out, means the month's last day)"
        ),
        R::ScheduleEnd { start, end } => {
            format!("end {end} is before start {start}; send an end on or after the start, or leave it out")
        }
        R::ScheduleExists { name, differences } => format!(
            "a recurring entry named \"{name}\" already exists with other settings: {}. Send change: true to change it from its next date on, or use another name",
            differences.iter().map(difference).collect::<Vec<_>>().join(", ")
        ),
        R::NoScheduleYet { name, missing } => format!(
            "there is no recurring entry named \"{name}\" yet; to create it send {} as well",
            missing.join(", ")
        ),
        R::TooManySchedules { max } => {
            format!("a vault keeps at most {max} recurring entries; remove one first (remove: true)")
        }
        R::StartTooEarly { start, today } => format!(
            "start {start} is more than a year before today ({today}); send a start within the last year"
        ),
        _ => unreachable_reason(r),
    }
}

/// `day 25 (sent 10)`.
fn difference(d: &Difference) -> String {
    format!("{} {} (sent {})", d.what, d.was, d.sent)
}

/// Two people in one book: `for`, owners, shares.
fn household(r: &Reason) -> String {
    use Reason as R;
    match r {
        R::ForWithoutExpense => "`for` says whose spending an entry was, and this entry has no expense account; leave it out (a transfer between members' own accounts settles by itself)".into(),
        R::OwnerOfEquity { account } => format!("\"{account}\" is the opening-balance account; it is nobody's"),
        R::NoShares => "name at least one member with a weight, e.g. {\"하은\": 6, \"지훈\": 4}".into(),
        R::MemberTwice { member } => format!("{member} is named twice; give each member one weight"),
        R::WeightOutOfRange { member, max, got } => {
            format!("a weight is a whole number from 0 to {max}; {member} was given {got}")
        }
        R::AllWeightsZero => "every weight would be 0; at least one member must carry a share".into(),
        R::TooManyShareChanges { max } => format!("a vault keeps at most {max} changes of shares"),
        _ => unreachable_reason(r),
    }
}

/// The category tree.
fn groups(r: &Reason) -> String {
    use Reason as R;
    match r {
        R::ParentOfNonCategory { account, kind } => format!(
            "only income and expense accounts (categories) have a parent; \"{account}\" is {}: send no parent",
            with_article(*kind)
        ),
        R::OwnParent { account, kind } => {
            format!("\"{account}\" cannot be its own parent: send another {kind} account, or \"\" for none")
        }
        R::ParentOfOtherKind {
            account,
            kind,
            parent,
            parent_kind,
        } => format!(
            "a parent has the kind of its children: \"{account}\" is {} and \"{parent}\" is {}; send {} account as the parent",
            with_article(*kind),
            with_article(*parent_kind),
            with_article(*kind)
        ),
        R::ParentCycle { parent, account } => format!(
            "\"{parent}\" is under \"{account}\", so this would make a cycle; clear its parent first (update_account with parent \"\")"
        ),
        R::ParentTooDeep { parent, grand } => format!(
            "\"{parent}\" is itself under \"{grand}\", and categories have two levels; send \"{grand}\" as the parent"
        ),
        R::ChildHasChildren {
            account,
            first,
            more,
            parent,
        } => format!(
            "\"{account}\" is the parent of \"{first}\"{}, and categories have two levels; move its children first (update_account with parent), or make \"{parent}\" their parent instead",
            if *more > 0 {
                format!(" and {more} more")
            } else {
                String::new()
            }
        ),
        _ => unreachable_reason(r),
    }
}

/// Savings goals.
fn goals(r: &Reason) -> String {
    use Reason as R;
    match r {
        R::GoalNotInAsset { account, kind } => format!(
            "a goal is kept in an asset account (적금, 여행통장); \"{account}\" is {}",
            with_article(*kind)
        ),
        R::GoalNameTaken { goal, account } => format!(
            "a goal named \"{goal}\" is already kept in \"{account}\"; choose another name or change that one"
        ),
        R::AccountHasGoal { account, goal } => format!(
            "\"{account}\" already keeps the goal \"{goal}\"; name that goal to change it, or remove it first"
        ),
        R::GoalWithoutTarget => "send target: the amount to reach, e.g. \"3000000\"".into(),
        R::TargetNotPositive { got } => format!("target must be more than 0; it was {got}"),
        R::GoalDatePassed { by, today } => format!("by ({by}) has already passed; today is {today}"),
        _ => unreachable_reason(r),
    }
}

/// Learned words that choose a category.
fn words(r: &Reason) -> String {
    use Reason as R;
    match r {
        R::WordsOfTwo { memo, first, second } => format!(
            "the memo \"{memo}\" matches the words of two categories, \"{}\" of \"{}\" and \"{}\" of \"{}\"; send to",
            first.0, first.1, second.0, second.1
        ),
        R::NoWordMatches {
            memo,
            vault,
            categories,
        } => format!(
            "no category's words match the memo \"{memo}\" in vault \"{vault}\"; send to, one of {}",
            if categories.is_empty() {
                "none yet: create_account with kind expense".to_string()
            } else {
                categories
                    .iter()
                    .map(|c| format!("\"{c}\""))
                    .collect::<Vec<_>>()
                    .join(", ")
            }
        ),
        R::WordsNotExpense { account, kind } => format!(
            "words categorize spending: \"{account}\" is {}, not an expense category",
            with_article(*kind)
        ),
        R::TooManyWords { max, got } => format!("an account keeps at most {max} words; {got} were sent"),
        R::BadWord { word, max } => format!("a word is 1 to {max} characters on one line; \"{word}\" is not"),
        R::WordTaken { word, account } => {
            format!("\"{word}\" is already a word of \"{account}\"; remove it there first")
        }
        R::TooManyVaultWords { max, elsewhere } => {
            format!("a vault keeps at most {max} words; it has {elsewhere} elsewhere")
        }
        _ => unreachable_reason(r),
    }
}

/// Vaults, accounts and members.
fn setup(r: &Reason) -> String {
    use Reason as R;
    match r {
        R::HandleForm { name } => format!(
            "\"{name}\" has the form of an archived account's handle (name (archived YYYY-MM-DD)), which always means that archived account; choose a name without the \"(archived …)\" part"
        ),
        R::RestoredHandleForm { name } => format!(
            "\"{name}\" has the form of an archived account's handle; choose a name without the \"(archived …)\" part"
        ),
        R::TooManyVaults { max } => format!("a person may have at most {max} vaults"),
        R::NothingToChange => "nothing to change: send newName, shares, or both".into(),
        R::TooManyWeights { max, got } => format!("a vault has at most {max} members; {got} weights were sent"),
        R::OpeningOfFlow => "an opening balance applies to asset, liability and equity accounts only; income and expense accounts start at zero".into(),
        R::OpeningDateAlone => "an opening date needs an opening balance".into(),
        R::OpeningOfEquity { account } => format!(
            "\"{account}\" is the account opening balances post against; it cannot have an opening balance itself"
        ),
        R::TooManyAccounts { max } => format!("a vault may have at most {max} accounts"),
        R::EquityNameTaken { account, kind } => format!(
            "opening balances post against an equity account named \"{account}\", but that name belongs to {} account; rename it first",
            with_article(*kind)
        ),
        R::TooManyMembers { max } => format!("a vault may have at most {max} members"),
        R::VaultFull { max } => format!("the vault already has {max} members, the most it may have"),
        R::RemovingYourself => "that is you; to leave the vault yourself call leave_vault".into(),
        R::ConfirmMismatch { vault } => {
            format!("confirm must be the vault's name, \"{vault}\", typed again; nothing was deleted")
        }
        _ => unreachable_reason(r),
    }
}

/// Each family above is sent only its own reasons by [`reason`]; this keeps a slip visible.
fn unreachable_reason(r: &Reason) -> String {
    format!("{r:?}")
}

/// What kind of id a name looked like, as the phrase after "is ".
pub fn id_kind(shape: dochiya_domain::IdShape) -> &'static str {
    match shape {
        dochiya_domain::IdShape::Uuid => "an id (a UUID)",
        dochiya_domain::IdShape::Transaction => "a transaction id",
        dochiya_domain::IdShape::Other => "an id",
    }
}

/// What already has a name, as the phrase after "already exists as ".
pub fn holder(h: &Holder) -> String {
    match h {
        Holder::Vault { currency, zone } => format!("a vault in {currency} with time zone {zone}"),
        Holder::OtherVault { currency } => format!("another of your vaults ({currency})"),
        Holder::OtherAccount { kind, vault } => format!("another account ({kind}) in vault \"{vault}\""),
        Holder::LiveAccount { kind, vault } => format!(
            "a live account ({kind}) in vault \"{vault}\"; bring this one back under another name with newName"
        ),
    }
}

/// What happened to an entry that keeps an operation from being undone.
pub fn blocker(b: &Blocker) -> String {
    let by = |by: &Option<OperationId>| by.map(|o| format!(" by operation {o}")).unwrap_or_default();
    match b {
        Blocker::Voided { by: o } => format!("it was voided since{}", by(o)),
        Blocker::Edited { by: o, version } => format!("it was edited since{} (now version {version})", by(o)),
        Blocker::Changed { by: o } => format!("it was changed since{}", by(o)),
        Blocker::ArchivedAccount { account } => {
            format!("it would move account \"{account}\", which is archived now")
        }
    }
}

/// Which total is out of range, as a noun phrase after "The ".
pub fn total(t: &Total) -> String {
    use Total as T;
    match t {
        T::Performance => "card's 실적".into(),
        T::CardBill => "card bill".into(),
        T::Balance { account } => format!("balance of account \"{account}\""),
        T::BalanceOf { account } => format!("balance of account {account}"),
        T::KindBalance { kind } => format!("balance of one {kind} account"),
        T::BalanceAtEnd { account, month } => format!("balance of account {account} at the end of {month}"),
        T::SnapshotDifference { account } => {
            format!("difference between snapshot and ledger for \"{account}\"")
        }
        T::AfterUndo => "balance after the undo".into(),
        T::VaultBalance { vault } => format!("balance of vault \"{vault}\""),
        T::KindTotal { kind, vault } => format!("total of the {kind} accounts of vault \"{vault}\""),
        T::NetWorth { vault } => format!("net worth of vault \"{vault}\""),
        T::ReportTotal { vault, month: None } => format!("report total of vault \"{vault}\""),
        T::ReportTotal {
            vault,
            month: Some(month),
        } => format!("report total for {month} of vault \"{vault}\""),
        T::ReportRow { account } => format!("report total of account {account}"),
        T::GroupRow { group } => format!("report total of group {group}"),
        T::AccountMonth { account, month } => format!("total of account {account} in {month}"),
        T::MonthChange { account } => format!("change of account {account} in one month"),
        T::Tag { tag, month: None } => format!("total of tag {tag}"),
        T::Tag {
            tag,
            month: Some(month),
        } => format!("total of tag {tag} in {month}"),
        T::Scheduled { vault } => format!("scheduled total of vault \"{vault}\""),
        T::SettleUp { vault } => format!("settle-up of vault \"{vault}\""),
        T::MemberReport { vault } => format!("report of vault \"{vault}\""),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use dochiya_domain::{Currency, LocalDate, Money, ParseError};

    fn won(minor: i64) -> Money {
        Money::from_minor(minor, Currency::KRW)
    }

    fn day(text: &str) -> LocalDate {
        LocalDate::parse(text).expect("date")
    }

    fn s(text: &str) -> String {
        text.to_string()
    }

    /// How many variants `enum` has, counted in its source (a rule, not a number kept here).
    fn variants_in(name: &str) -> usize {
        let src = include_str!("../../ledger/src/api/reason.rs");
        let start = src.find(&format!("pub enum {name} {{")).expect("the enum");
        let body = &src[start..];
        let body = &body[..body.find("\n}\n").expect("its end")];
        body.lines()
            .filter(|l| l.starts_with("    ") && l.chars().nth(4).is_some_and(|c| c.is_ascii_uppercase()))
            .count()
    }

    /// Each variant's place: a new variant does not compile until it is listed here,
    /// and the test below fails until its sentence has a row.
    fn reason_index(x: &Reason) -> usize {
        use Reason as R;
        match x {
            R::Parse(..) => 0,
            R::Caller(..) => 1,
            R::OtherCurrency { .. } => 2,
            R::NoLineOnASide => 3,
            R::TooManyLines { .. } => 4,
            R::ZeroAmount => 5,
            R::NegativeAmount => 6,
            R::TextControl => 7,
            R::TextTooLong { .. } => 8,
            R::ReferenceControl => 9,
            R::ReferenceTooLong { .. } => 10,
            R::BothSides { .. } => 11,
            R::AmountsOutOfRange => 12,
            R::NetsOutOfRange => 13,
            R::BalanceWouldOverflow { .. } => 14,
            R::RollupWouldOverflow => 15,
            R::EditTooLarge { .. } => 16,
            R::KeyLength { .. } => 17,
            R::BatchSize { .. } => 18,
            R::BalanceOutOfRange => 19,
            R::OpeningOutOfRange => 20,
            R::ReportTooLong { .. } => 21,
            R::HistoryTooLong { .. } => 22,
            R::Limit { .. } => 23,
            R::TagByMember => 24,
            R::BudgetOfArchived { .. } => 25,
            R::BudgetNotExpense { .. } => 26,
            R::TooManyBudgets { .. } => 27,
            R::NegativeBudget => 28,
            R::BillingNotLiability { .. } => 29,
            R::RefundInInstallments { .. } => 30,
            R::InstallmentsNotByCard => 31,
            R::InstallmentsWithoutBilling { .. } => 32,
            R::TooManyParts { .. } => 33,
            R::PerformanceWithoutCycle => 34,
            R::ThresholdNotPositive { .. } => 35,
            R::TooManyExcluded { .. } => 36,
            R::ExcludeNotExpense { .. } => 37,
            R::NoBillingCycle { .. } => 38,
            R::OtherBillingCycle { .. } => 39,
            R::HandleForm { .. } => 40,
            R::RestoredHandleForm { .. } => 41,
            R::TooManyVaults { .. } => 42,
            R::NothingToChange => 43,
            R::TooManyWeights { .. } => 44,
            R::OpeningOfFlow => 45,
            R::OpeningDateAlone => 46,
            R::OpeningOfEquity { .. } => 47,
            R::TooManyAccounts { .. } => 48,
            R::EquityNameTaken { .. } => 49,
            R::TooManyMembers { .. } => 50,
            R::VaultFull { .. } => 51,
            R::RemovingYourself => 52,
            R::ConfirmMismatch { .. } => 53,
            R::ScheduleDay { .. } => 54,
            R::ScheduleEnd { .. } => 55,
            R::ScheduleExists { .. } => 56,
            R::NoScheduleYet { .. } => 57,
            R::TooManySchedules { .. } => 58,
            R::StartTooEarly { .. } => 59,
            R::ForWithoutExpense => 60,
            R::OwnerOfEquity { .. } => 61,
            R::NoShares => 62,
            R::MemberTwice { .. } => 63,
            R::WeightOutOfRange { .. } => 64,
            R::AllWeightsZero => 65,
            R::TooManyShareChanges { .. } => 66,
            R::ParentOfNonCategory { .. } => 67,
            R::OwnParent { .. } => 68,
            R::ParentOfOtherKind { .. } => 69,
            R::ParentCycle { .. } => 70,
            R::ParentTooDeep { .. } => 71,
            R::ChildHasChildren { .. } => 72,
            R::GoalNotInAsset { .. } => 73,
            R::GoalNameTaken { .. } => 74,
            R::AccountHasGoal { .. } => 75,
            R::GoalWithoutTarget => 76,
            R::TargetNotPositive { .. } => 77,
            R::GoalDatePassed { .. } => 78,
            R::WordsOfTwo { .. } => 79,
            R::NoWordMatches { .. } => 80,
            R::WordsNotExpense { .. } => 81,
            R::TooManyWords { .. } => 82,
            R::BadWord { .. } => 83,
            R::WordTaken { .. } => 84,
            R::TooManyVaultWords { .. } => 85,
        }
    }

    /// Each variant's place: a new variant does not compile until it is listed here,
    /// and the test below fails until its sentence has a row.
    fn total_index(x: &Total) -> usize {
        use Total as T;
        match x {
            T::Performance => 0,
            T::CardBill => 1,
            T::Balance { .. } => 2,
            T::BalanceOf { .. } => 3,
            T::KindBalance { .. } => 4,
            T::BalanceAtEnd { .. } => 5,
            T::SnapshotDifference { .. } => 6,
            T::AfterUndo => 7,
            T::VaultBalance { .. } => 8,
            T::KindTotal { .. } => 9,
            T::NetWorth { .. } => 10,
            T::ReportTotal { .. } => 11,
            T::ReportRow { .. } => 12,
            T::GroupRow { .. } => 13,
            T::AccountMonth { .. } => 14,
            T::MonthChange { .. } => 15,
            T::Tag { .. } => 16,
            T::Scheduled { .. } => 17,
            T::SettleUp { .. } => 18,
            T::MemberReport { .. } => 19,
        }
    }

    /// Every reason once, with the sentence a model reads for it.
    #[test]
    fn each_reason_has_its_sentence() {
        use AccountKind::{Asset, Expense, Income, Liability};
        use Reason as R;
        let cases: Vec<(Reason, &str)> = vec![
            (
                R::Parse(ParseError::new("12.5 has more decimals")),
                "12.5 has more decimals",
            ),
            (R::Caller(s("send both")), "send both"),
            (
                R::OtherCurrency {
                    sent: s("¥1,200"),
                    vault: Currency::KRW,
                },
                "\"¥1,200\" is an amount in JPY, but this vault keeps KRW: send the amount actually charged in KRW (as the card statement or receipt shows it), as plain digits; do not convert it yourself",
            ),
            (
                R::NoLineOnASide,
                "a transaction needs at least one `from` line and one `to` line",
            ),
            (
                R::TooManyLines { max: 50, got: 51 },
                "a transaction may have at most 50 lines in total; it has 51",
            ),
            (
                R::ZeroAmount,
                "the amount is zero; record only amounts that moved",
            ),
            (
                R::NegativeAmount,
                "amounts are positive; the direction is given by `from` (money leaves) and `to` (money arrives), so swap them instead of using a minus sign",
            ),
            (
                R::TextControl,
                "the text may not contain control characters or line breaks",
            ),
            (
                R::TextTooLong { max: 500, got: 501 },
                "the text may have at most 500 characters; it has 501",
            ),
            (
                R::ReferenceControl,
                "the reference may not contain control characters or line breaks",
            ),
            (
                R::ReferenceTooLong { max: 100, got: 101 },
                "the reference may have at most 100 characters; it has 101",
            ),
            (
                R::BothSides {
                    account: s("현금"),
                    recurring: false,
                },
                "\"현금\" is on both sides; a transaction moves money between different accounts",
            ),
            (
                R::BothSides {
                    account: s("현금"),
                    recurring: true,
                },
                "\"현금\" is on both sides; a recurring entry moves money between different accounts",
            ),
            (R::AmountsOutOfRange, "the amounts are out of range"),
            (R::NetsOutOfRange, "the amounts are out of range for this ledger"),
            (
                R::BalanceWouldOverflow {
                    account: Some(s("자산")),
                },
                "this entry would put the balance of \"자산\" out of range (past 9223372036854775807 minor units), so it was not recorded; check the amount for extra digits",
            ),
            (
                R::BalanceWouldOverflow { account: None },
                "this entry would put the balance of one of its accounts out of range (past 9223372036854775807 minor units), so it was not recorded; check the amount for extra digits",
            ),
            (
                R::RollupWouldOverflow,
                "this entry would put a stored monthly or daily total of one of its accounts out of range (past 9223372036854775807 minor units), so nothing was recorded; check the amount for extra digits",
            ),
            (
                R::EditTooLarge { items: 101, max: 100 },
                "this edit would change 101 stored items at once, more than one atomic write holds (100); change fewer accounts or the date in a separate edit",
            ),
            (
                R::KeyLength { max: 200 },
                "make up a key of 1–200 characters for this entry (for example a UUID) and reuse it unchanged if you retry this same entry",
            ),
            (
                R::BatchSize { max: 100, got: 101 },
                "send 1–100 entries in one call; this call has 101. Split a longer statement into several calls, each with its own idempotency key",
            ),
            (R::BalanceOutOfRange, "the balance is out of range"),
            (R::OpeningOutOfRange, "the opening balance is out of range"),
            (
                R::ReportTooLong { max: 240 },
                "a report may span at most 240 months",
            ),
            (
                R::HistoryTooLong { max: 240 },
                "a history may span at most 240 months",
            ),
            (R::Limit { max: 200 }, "limit must be between 1 and 200"),
            (
                R::TagByMember,
                "a report by member counts every entry; leave tag out, or report by account with the tag",
            ),
            (
                R::BudgetOfArchived { account: s("쇼핑") },
                "\"쇼핑\" is archived; budgets are for live expense accounts (list_accounts shows them)",
            ),
            (
                R::BudgetNotExpense {
                    account: s("카카오뱅크"),
                    kind: Asset,
                },
                "\"카카오뱅크\" is an asset account; budgets are for expense accounts such as \"식비\" (list_accounts shows each account's kind)",
            ),
            (
                R::TooManyBudgets { max: 5000 },
                "a vault keeps at most 5000 budget settings (one per account and month set); set repeating budgets (repeat: true) instead of one per month",
            ),
            (R::NegativeBudget, "a budget cannot be negative; \"0\" clears it"),
            (
                R::BillingNotLiability {
                    account: s("적금"),
                    kind: Asset,
                },
                "\"적금\" is an asset account; billing is for a card, a liability account (create the card with kind liability)",
            ),
            (
                R::RefundInInstallments {
                    card: s("국민카드")
                },
                "money back onto \"국민카드\" (a refund) is one-time: leave installments out; a refund of a whole installment purchase is voiding that purchase",
            ),
            (
                R::InstallmentsNotByCard,
                "installments are for a purchase paid by card: `from` must be one liability account (the card) with billing set",
            ),
            (
                R::InstallmentsWithoutBilling {
                    card: s("국민카드")
                },
                "\"국민카드\" has no billing cycle, so its parts would have no bills: set it first with update_account (billing: {closingDay, paymentDay}), then record the purchase",
            ),
            (
                R::TooManyParts {
                    total: won(2),
                    count: 3,
                    least: won(1),
                },
                "2 cannot be paid in 3 parts: each part is at least 1",
            ),
            (
                R::PerformanceWithoutCycle,
                "performance needs the card's cycle in the same billing: send closingDay and paymentDay with it",
            ),
            (
                R::ThresholdNotPositive { got: won(0) },
                "threshold must be more than 0; it was 0",
            ),
            (
                R::TooManyExcluded { max: 20, got: 21 },
                "exclude at most 20 categories; 21 were sent",
            ),
            (
                R::ExcludeNotExpense {
                    account: s("카카오뱅크"),
                    kind: Asset,
                },
                "exclude names expense categories (관리비, 세금, 상품권); \"카카오뱅크\" is an asset",
            ),
            (
                R::NoBillingCycle {
                    card: s("국민카드")
                },
                "\"국민카드\" has no billing cycle yet: set it with update_account (billing: {closingDay, paymentDay}, e.g. closingDay 31 and paymentDay 14 for 전월 1일 ~ 전월 말일 paid on the 14th), then ask again",
            ),
            (
                R::OtherBillingCycle {
                    card: s("국민카드")
                },
                "\"국민카드\" already exists with another billing cycle; change it with update_account (billing)",
            ),
            (
                R::HandleForm {
                    name: s("x (archived 2026-01-01)"),
                },
                "\"x (archived 2026-01-01)\" has the form of an archived account's handle (name (archived YYYY-MM-DD)), which always means that archived account; choose a name without the \"(archived …)\" part",
            ),
            (
                R::RestoredHandleForm {
                    name: s("x (archived 2026-01-01)"),
                },
                "\"x (archived 2026-01-01)\" has the form of an archived account's handle; choose a name without the \"(archived …)\" part",
            ),
            (
                R::TooManyVaults { max: 20 },
                "a person may have at most 20 vaults",
            ),
            (
                R::NothingToChange,
                "nothing to change: send newName, shares, or both",
            ),
            (
                R::TooManyWeights { max: 20, got: 21 },
                "a vault has at most 20 members; 21 weights were sent",
            ),
            (
                R::OpeningOfFlow,
                "an opening balance applies to asset, liability and equity accounts only; income and expense accounts start at zero",
            ),
            (R::OpeningDateAlone, "an opening date needs an opening balance"),
            (
                R::OpeningOfEquity {
                    account: s("기초잔액"),
                },
                "\"기초잔액\" is the account opening balances post against; it cannot have an opening balance itself",
            ),
            (
                R::TooManyAccounts { max: 12 },
                "a vault may have at most 12 accounts",
            ),
            (
                R::EquityNameTaken {
                    account: s("기초잔액"),
                    kind: Liability,
                },
                "opening balances post against an equity account named \"기초잔액\", but that name belongs to a liability account; rename it first",
            ),
            (
                R::TooManyMembers { max: 20 },
                "a vault may have at most 20 members",
            ),
            (
                R::VaultFull { max: 20 },
                "the vault already has 20 members, the most it may have",
            ),
            (
                R::RemovingYourself,
                "that is you; to leave the vault yourself call leave_vault",
            ),
            (
                R::ConfirmMismatch {
                    vault: s("가계부")
                },
                "confirm must be the vault's name, \"가계부\", typed again; nothing was deleted",
            ),
            (
                R::ScheduleDay { got: 32 },
                "day 32 is not a day of the month; send 1–31 (31, or leaving it out, means the month's last day)",
            ),
            (
                R::ScheduleEnd {
                    start: day("2026-03-15"),
                    end: day("2026-03-01"),
                },
                "end 2026-03-01 is before start 2026-03-15; send an end on or after the start, or leave it out",
            ),
            (
                R::ScheduleExists {
                    name: s("월세"),
                    differences: vec![
                        Difference {
                            what: "amount",
                            was: s("500000"),
                            sent: s("550000"),
                        },
                        Difference {
                            what: "day",
                            was: s("25"),
                            sent: s("5"),
                        },
                    ],
                },
                "a recurring entry named \"월세\" already exists with other settings: amount 500000 (sent 550000), day 25 (sent 5). Send change: true to change it from its next date on, or use another name",
            ),
            (
                R::NoScheduleYet {
                    name: s("월세"),
                    missing: vec!["from", "amount"],
                },
                "there is no recurring entry named \"월세\" yet; to create it send from, amount as well",
            ),
            (
                R::TooManySchedules { max: 6 },
                "a vault keeps at most 6 recurring entries; remove one first (remove: true)",
            ),
            (
                R::StartTooEarly {
                    start: day("2025-03-14"),
                    today: day("2026-03-15"),
                },
                "start 2025-03-14 is more than a year before today (2026-03-15); send a start within the last year",
            ),
            (
                R::ForWithoutExpense,
                "`for` says whose spending an entry was, and this entry has no expense account; leave it out (a transfer between members' own accounts settles by itself)",
            ),
            (
                R::OwnerOfEquity {
                    account: s("기초잔액"),
                },
                "\"기초잔액\" is the opening-balance account; it is nobody's",
            ),
            (
                R::NoShares,
                "name at least one member with a weight, e.g. {\"하은\": 6, \"지훈\": 4}",
            ),
            (
                R::MemberTwice { member: s("하은") },
                "하은 is named twice; give each member one weight",
            ),
            (
                R::WeightOutOfRange {
                    member: s("하은"),
                    max: 1_000_000,
                    got: -1,
                },
                "a weight is a whole number from 0 to 1000000; 하은 was given -1",
            ),
            (
                R::AllWeightsZero,
                "every weight would be 0; at least one member must carry a share",
            ),
            (
                R::TooManyShareChanges { max: 120 },
                "a vault keeps at most 120 changes of shares",
            ),
            (
                R::ParentOfNonCategory {
                    account: s("적금"),
                    kind: Asset,
                },
                "only income and expense accounts (categories) have a parent; \"적금\" is an asset: send no parent",
            ),
            (
                R::OwnParent {
                    account: s("식비"),
                    kind: Expense,
                },
                "\"식비\" cannot be its own parent: send another expense account, or \"\" for none",
            ),
            (
                R::ParentOfOtherKind {
                    account: s("상여"),
                    kind: Income,
                    parent: s("식비"),
                    parent_kind: Expense,
                },
                "a parent has the kind of its children: \"상여\" is an income and \"식비\" is an expense; send an income account as the parent",
            ),
            (
                R::ParentCycle {
                    parent: s("외식"),
                    account: s("식비"),
                },
                "\"외식\" is under \"식비\", so this would make a cycle; clear its parent first (update_account with parent \"\")",
            ),
            (
                R::ParentTooDeep {
                    parent: s("외식"),
                    grand: s("식비"),
                },
                "\"외식\" is itself under \"식비\", and categories have two levels; send \"식비\" as the parent",
            ),
            (
                R::ChildHasChildren {
                    account: s("식비"),
                    first: s("배달"),
                    more: 1,
                    parent: s("교통비"),
                },
                "\"식비\" is the parent of \"배달\" and 1 more, and categories have two levels; move its children first (update_account with parent), or make \"교통비\" their parent instead",
            ),
            (
                R::ChildHasChildren {
                    account: s("식비"),
                    first: s("배달"),
                    more: 0,
                    parent: s("교통비"),
                },
                "\"식비\" is the parent of \"배달\", and categories have two levels; move its children first (update_account with parent), or make \"교통비\" their parent instead",
            ),
            (
                R::GoalNotInAsset {
                    account: s("신한카드"),
                    kind: Liability,
                },
                "a goal is kept in an asset account (적금, 여행통장); \"신한카드\" is a liability",
            ),
            (
                R::GoalNameTaken {
                    goal: s("비상금"),
                    account: s("적금"),
                },
                "a goal named \"비상금\" is already kept in \"적금\"; choose another name or change that one",
            ),
            (
                R::AccountHasGoal {
                    account: s("적금"),
                    goal: s("비상금"),
                },
                "\"적금\" already keeps the goal \"비상금\"; name that goal to change it, or remove it first",
            ),
            (
                R::GoalWithoutTarget,
                "send target: the amount to reach, e.g. \"3000000\"",
            ),
            (
                R::TargetNotPositive { got: won(0) },
                "target must be more than 0; it was 0",
            ),
            (
                R::GoalDatePassed {
                    by: day("2026-03-14"),
                    today: day("2026-03-15"),
                },
                "by (2026-03-14) has already passed; today is 2026-03-15",
            ),
            (
                R::WordsOfTwo {
                    memo: s("커피 라떼"),
                    first: Box::new((s("라떼"), s("식비"))),
                    second: Box::new((s("커피"), s("카페"))),
                },
                "the memo \"커피 라떼\" matches the words of two categories, \"라떼\" of \"식비\" and \"커피\" of \"카페\"; send to",
            ),
            (
                R::NoWordMatches {
                    memo: s("다이소"),
                    vault: s("가계부"),
                    categories: vec![s("식비"), s("쇼핑")],
                },
                "no category's words match the memo \"다이소\" in vault \"가계부\"; send to, one of \"식비\", \"쇼핑\"",
            ),
            (
                R::NoWordMatches {
                    memo: s("다이소"),
                    vault: s("가계부"),
                    categories: vec![],
                },
                "no category's words match the memo \"다이소\" in vault \"가계부\"; send to, one of none yet: create_account with kind expense",
            ),
            (
                R::WordsNotExpense {
                    account: s("카카오뱅크"),
                    kind: Asset,
                },
                "words categorize spending: \"카카오뱅크\" is an asset, not an expense category",
            ),
            (
                R::TooManyWords { max: 10, got: 11 },
                "an account keeps at most 10 words; 11 were sent",
            ),
            (
                R::BadWord {
                    word: s("가가"),
                    max: 30,
                },
                "a word is 1 to 30 characters on one line; \"가가\" is not",
            ),
            (
                R::WordTaken {
                    word: s("커피"),
                    account: s("카페"),
                },
                "\"커피\" is already a word of \"카페\"; remove it there first",
            ),
            (
                R::TooManyVaultWords {
                    max: 500,
                    elsewhere: 499,
                },
                "a vault keeps at most 500 words; it has 499 elsewhere",
            ),
        ];
        for (r, sentence) in &cases {
            assert_eq!(reason(r), *sentence, "{r:?}");
        }
        let covered: std::collections::BTreeSet<usize> = cases.iter().map(|(r, _)| reason_index(r)).collect();
        assert_eq!(covered.len(), variants_in("Reason"), "every reason has a row");
    }

    /// Every holder of a name and every blocker of an undo once, with its phrase.
    #[test]
    fn each_holder_and_blocker_has_its_phrase() {
        use AccountKind::Expense;
        let vault = || s("가계부");
        assert_eq!(
            holder(&Holder::Vault {
                currency: Currency::KRW,
                zone: s("Asia/Seoul")
            }),
            "a vault in KRW with time zone Asia/Seoul"
        );
        assert_eq!(
            holder(&Holder::OtherVault {
                currency: Currency::USD
            }),
            "another of your vaults (USD)"
        );
        assert_eq!(
            holder(&Holder::OtherAccount {
                kind: Expense,
                vault: vault()
            }),
            "another account (expense) in vault \"가계부\""
        );
        assert_eq!(
            holder(&Holder::LiveAccount {
                kind: Expense,
                vault: vault()
            }),
            "a live account (expense) in vault \"가계부\"; bring this one back under another name with newName"
        );
        let op = OperationId::parse("9007199254741092").expect("operation id");
        assert_eq!(
            blocker(&Blocker::Edited {
                by: Some(op),
                version: 2
            }),
            "it was edited since by operation 9007199254741092 (now version 2)"
        );
        assert_eq!(blocker(&Blocker::Voided { by: None }), "it was voided since");
        assert_eq!(
            blocker(&Blocker::Changed { by: Some(op) }),
            "it was changed since by operation 9007199254741092"
        );
        assert_eq!(
            blocker(&Blocker::ArchivedAccount { account: s("쇼핑") }),
            "it would move account \"쇼핑\", which is archived now"
        );
    }

    /// Every shape of id once, as the phrase after "is ".
    #[test]
    fn each_id_shape_has_its_phrase() {
        use dochiya_domain::IdShape;
        assert_eq!(id_kind(IdShape::Uuid), "an id (a UUID)");
        assert_eq!(id_kind(IdShape::Transaction), "a transaction id");
        assert_eq!(id_kind(IdShape::Other), "an id");
    }

    /// Every total once, as the noun phrase after "The ".
    #[test]
    fn each_total_has_its_phrase() {
        use Total as T;
        use dochiya_domain::{AccountId, YearMonth};
        let id = AccountId::parse("0198c0de-0000-7000-8000-000000000001").expect("id");
        let march = YearMonth::parse("2026-03").expect("month");
        let vault = || s("우리집");
        let cases: Vec<(Total, String)> = vec![
            (T::Performance, s("card's 실적")),
            (T::CardBill, s("card bill")),
            (
                T::Balance { account: s("현금") },
                s("balance of account \"현금\""),
            ),
            (T::BalanceOf { account: id }, format!("balance of account {id}")),
            (
                T::KindBalance {
                    kind: AccountKind::Asset,
                },
                s("balance of one asset account"),
            ),
            (
                T::BalanceAtEnd {
                    account: id,
                    month: march,
                },
                format!("balance of account {id} at the end of 2026-03"),
            ),
            (
                T::SnapshotDifference { account: s("현금") },
                s("difference between snapshot and ledger for \"현금\""),
            ),
            (T::AfterUndo, s("balance after the undo")),
            (
                T::VaultBalance { vault: vault() },
                s("balance of vault \"우리집\""),
            ),
            (
                T::KindTotal {
                    kind: AccountKind::Liability,
                    vault: vault(),
                },
                s("total of the liability accounts of vault \"우리집\""),
            ),
            (T::NetWorth { vault: vault() }, s("net worth of vault \"우리집\"")),
            (
                T::ReportTotal {
                    vault: vault(),
                    month: None,
                },
                s("report total of vault \"우리집\""),
            ),
            (
                T::ReportTotal {
                    vault: vault(),
                    month: Some(march),
                },
                s("report total for 2026-03 of vault \"우리집\""),
            ),
            (
                T::ReportRow { account: id },
                format!("report total of account {id}"),
            ),
            (T::GroupRow { group: id }, format!("report total of group {id}")),
            (
                T::AccountMonth {
                    account: id,
                    month: march,
                },
                format!("total of account {id} in 2026-03"),
            ),
            (
                T::MonthChange { account: id },
                format!("change of account {id} in one month"),
            ),
            (
                T::Tag {
                    tag: s("여행"),
                    month: None,
                },
                s("total of tag 여행"),
            ),
            (
                T::Tag {
                    tag: s("여행"),
                    month: Some(march),
                },
                s("total of tag 여행 in 2026-03"),
            ),
            (
                T::Scheduled { vault: vault() },
                s("scheduled total of vault \"우리집\""),
            ),
            (T::SettleUp { vault: vault() }, s("settle-up of vault \"우리집\"")),
            (
                T::MemberReport { vault: vault() },
                s("report of vault \"우리집\""),
            ),
        ];
        for (t, phrase) in &cases {
            assert_eq!(total(t), *phrase, "{t:?}");
        }
        let covered: std::collections::BTreeSet<usize> = cases.iter().map(|(t, _)| total_index(t)).collect();
        assert_eq!(covered.len(), variants_in("Total"), "every total has a row");
    }
}
