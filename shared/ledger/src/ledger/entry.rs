//! The rules an entry's input meets before any read: lines present and bounded,
//! amounts positive, memo, externalRef and tags clean, the date not far ahead. Shared
//! by record, batch, edit and the recurring schedules.

use super::idempotency::{IdempotencyKey, recorded};
use super::resolve::Catalogue;
use super::*;
use crate::api::{Field, Reason, Side};
use crate::stored::entry;
use crate::stored::entry::{GuardRec, PostingRec};
use crate::stored::idempotency::IdemRec;
use crate::stored::member::Membership;
use crate::stored::table::content_hash;
use dochiya_domain::limits::{MAX_EXTERNAL_REF_CHARS, MAX_MEMO_CHARS};
use dochiya_domain::{Currency, Decimal, Money, NameKey, VaultId, VaultZone};
use dochiya_store::Key;

/// The shape rules that need no vault: both sides present, not too many lines, amounts positive.
pub(super) fn check_lines(ledger: &Ledger, input: &NewSplit) -> Result<(), LedgerError> {
    entry_tags(&input.tags)?;
    check_line_shape(ledger, &input.from, &input.to)
}

/// Both sides present, at most `max_postings` lines, every amount positive: a new split
/// and an edit's replacement lines alike.
pub(super) fn check_line_shape(
    ledger: &Ledger,
    from: &[SplitLine],
    to: &[SplitLine],
) -> Result<(), LedgerError> {
    if from.is_empty() || to.is_empty() {
        return Err(LedgerError::invalid(
            Field::Lines(if from.is_empty() { Side::From } else { Side::To }),
            Reason::NoLineOnASide,
        ));
    }
    let lines = from.len() + to.len();
    if lines > ledger.config.max_postings {
        return Err(LedgerError::invalid(
            Field::Lines(Side::To),
            Reason::TooManyLines {
                max: ledger.config.max_postings,
                got: lines,
            },
        ));
    }
    for (side, list) in [(Side::From, from), (Side::To, to)] {
        for (index, l) in list.iter().enumerate() {
            positive(l.amount, Field::LineAmount { side, index })?;
        }
    }
    Ok(())
}

/// Refuse a date more than a year after `today` (likely a typo; the caller may say it is meant).
pub(super) fn check_not_far_future(date: LocalDate, today: LocalDate) -> Result<(), LedgerError> {
    let limit = today
        .as_jiff()
        .checked_add(jiff::Span::new().years(1))
        .unwrap_or(today.as_jiff());
    if date.as_jiff() > limit {
        return Err(LedgerError::FarFutureDate { date, today });
    }
    Ok(())
}

/// An amount that moved: not zero, not negative (the direction is the side).
pub(super) fn positive(amount: Decimal, field: Field) -> Result<(), LedgerError> {
    if amount.is_zero() {
        return Err(LedgerError::invalid(field, Reason::ZeroAmount));
    }
    if amount.is_negative() {
        return Err(LedgerError::invalid(field, Reason::NegativeAmount));
    }
    Ok(())
}

/// Validate a memo: trimmed, no control characters, at most [`MAX_MEMO_CHARS`].
pub(super) fn clean_memo(memo: Option<&str>, field: Field) -> Result<String, LedgerError> {
    let memo = memo.unwrap_or("").trim();
    if memo.chars().any(char::is_control) {
        return Err(LedgerError::invalid(field, Reason::TextControl));
    }
    let n = memo.chars().count();
    if n > MAX_MEMO_CHARS {
        return Err(LedgerError::invalid(
            field,
            Reason::TextTooLong {
                max: MAX_MEMO_CHARS,
                got: n,
            },
        ));
    }
    Ok(memo.to_string())
}

/// Validate an externalRef: trimmed, at most [`MAX_EXTERNAL_REF_CHARS`], no control
/// characters; empty counts as absent (a model may send `""` for a line without one).
pub(super) fn clean_external_ref(raw: Option<&str>) -> Result<Option<String>, LedgerError> {
    let Some(r) = raw.map(str::trim).filter(|r| !r.is_empty()) else {
        return Ok(None);
    };
    if r.chars().any(char::is_control) {
        return Err(LedgerError::invalid(Field::ExternalRef, Reason::ReferenceControl));
    }
    let n = r.chars().count();
    if n > MAX_EXTERNAL_REF_CHARS {
        return Err(LedgerError::invalid(
            Field::ExternalRef,
            Reason::ReferenceTooLong {
                max: MAX_EXTERNAL_REF_CHARS,
                got: n,
            },
        ));
    }
    Ok(Some(r.to_string()))
}

/// An entry's tags, validated (display forms, repeats dropped; decision 038).
pub(super) fn entry_tags(raw: &[String]) -> Result<Vec<String>, LedgerError> {
    let tags =
        dochiya_domain::parse_tags(raw).map_err(|e| LedgerError::from_parse(Field::Category("tags"), e))?;
    Ok(tags.iter().map(|t| t.display().to_string()).collect())
}

/// The duplicate guard's two keys for an entry dated `date` with these lines, recorded
/// at `now_ms`: the clock is cut into buckets one window wide, and the guard of the
/// current bucket and of the one before cover every entry recorded within the window
/// (decision 032: the same date, accounts and amounts, whatever the memo).
pub(super) fn guard_keys(
    vault: VaultId,
    date: LocalDate,
    to: &str,
    from: &str,
    now_ms: i64,
    window_ms: i64,
) -> [Key; 2] {
    let bucket = now_ms.div_euclid(window_ms.max(1));
    let date = date.to_string();
    let key = |b: i64| {
        entry::duplicate_guard(
            vault,
            &content_hash(&["dg-v3", &vault.to_string(), &date, to, from, &b.to_string()]),
        )
    };
    [key(bucket), key(bucket.saturating_sub(1))]
}

/// One validated line: the account name as given, its key, and the amount in minor units.
pub(super) struct Line {
    pub(super) name: String,
    pub(super) key: NameKey,
    pub(super) minor: i64,
}

pub(super) fn to_lines(list: &[SplitLine], side: Side, currency: Currency) -> Result<Vec<Line>, LedgerError> {
    list.iter()
        .enumerate()
        .map(|(index, l)| {
            let money = Money::from_decimal(l.amount, currency)
                .map_err(|e| LedgerError::from_parse(Field::LineAmount { side, index }, e))?;
            Ok(Line {
                name: l.account.trim().to_string(),
                key: NameKey::of(&l.account),
                minor: money.minor(),
            })
        })
        .collect()
}

pub(super) fn describe(lines: &[Line]) -> String {
    let mut parts: Vec<String> = lines
        .iter()
        .map(|l| format!("{}={}", l.key.as_str(), l.minor))
        .collect();
    parts.sort();
    parts.join("\u{1f}")
}

/// One entry as it will be written in one vault, before any read.
pub(super) struct Entry<'a> {
    pub(super) input: &'a NewSplit,
    /// Its idempotency key.
    pub(super) key: &'a IdempotencyKey,
    /// Its cleaned memo.
    pub(super) memo: &'a str,
    pub(super) to: Vec<Line>,
    pub(super) from: Vec<Line>,
    /// Its date (today in the vault when not given).
    pub(super) date: LocalDate,
    /// Whether the caller gave the date; a defaulted one replays whatever day it is now.
    pub(super) date_given: bool,
    /// Its cleaned externalRef, if any.
    pub(super) external_ref: Option<&'a str>,
    /// What precedes its own fingerprint (a batch's hash; empty for one record).
    pub(super) print_prefix: String,
    pub(super) vault_id: VaultId,
    pub(super) zone: VaultZone,
    /// Whether a defaulted date crossed the vault's midnight within the window, so an
    /// entry recorded yesterday, minutes ago, for yesterday is a probable repeat.
    pub(super) also_yesterday: bool,
    /// The duplicate guard's keys: same date, accounts and amounts, in this time bucket
    /// and the one before; then the same for the day before when `also_yesterday`
    /// (see [`guard_keys`]).
    pub(super) guard_keys: Vec<Key>,
    /// The externalRef claim's key, when it has a reference.
    pub(super) xr_key: Option<Key>,
    /// The origin its transaction carries (see `TxRec::origin`).
    pub(super) origin: String,
    /// Where a void or an edit of its transaction leaves what it is now.
    pub(super) changed_key: Key,
    /// Its validated tags.
    pub(super) tags: Vec<String>,
    /// Its `to` was left out and chosen by words (see `words.rs`).
    pub(super) categorized: bool,
}

impl<'a> Entry<'a> {
    /// The entry of `input` in the vault of `m`; amounts checked against its currency.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        ledger: &Ledger,
        who: &PersonId,
        input: &'a NewSplit,
        key: &'a IdempotencyKey,
        memo: &'a str,
        external_ref: Option<&'a str>,
        m: &Membership,
        now_ms: i64,
    ) -> Result<Self, LedgerError> {
        let to = to_lines(&input.to, Side::To, m.currency)?;
        let from = to_lines(&input.from, Side::From, m.currency)?;
        let today = ledger.today_in(m);
        let date = input.date.unwrap_or(today);
        if !input.future_date {
            check_not_far_future(date, today)?;
        }
        let window = window_ms(ledger);
        let window_start = jiff::Timestamp::from_millisecond(now_ms.saturating_sub(window))
            .unwrap_or(jiff::Timestamp::UNIX_EPOCH);
        let also_yesterday = input.date.is_none() && m.zone.date_at(window_start) < date;
        let (to_text, from_text) = (describe(&to), describe(&from));
        let mut guards = guard_keys(m.vault_id, date, &to_text, &from_text, now_ms, window).to_vec();
        if also_yesterday {
            guards.extend(guard_keys(
                m.vault_id,
                date.prev_day(),
                &to_text,
                &from_text,
                now_ms,
                window,
            ));
        }
        // Last: a recurring posting of this very entry, whenever it was posted.
        guards.push(posted_guard_key(m.vault_id, date, &to_text, &from_text));
        let origin = key.origin(who);
        let tags = entry_tags(&input.tags)?;
        Ok(Entry {
            categorized: false,
            tags,
            changed_key: entry::transaction_changed(m.vault_id, &origin),
            origin,
            input,
            key,
            memo,
            to,
            from,
            date,
            date_given: input.date.is_some(),
            external_ref,
            print_prefix: String::new(),
            vault_id: m.vault_id,
            zone: m.zone.clone(),
            also_yesterday,
            guard_keys: guards,
            xr_key: external_ref.map(|r| entry::external_ref(m.vault_id, r)),
        })
    }

    /// Everything the caller sent that makes this entry this entry, with its date
    /// resolved to `date` (the idempotency record's check).
    pub(super) fn fingerprint_at(&self, date: LocalDate) -> String {
        let mut parts = vec![
            "v2".to_string(),
            self.vault_id.to_string(),
            date.to_string(),
            self.memo.to_string(),
            // A category chosen by words is not the caller's: a retry replays whatever
            // the words say by then.
            if self.categorized {
                "~".to_string()
            } else {
                describe(&self.to)
            },
            describe(&self.from),
        ];
        // Only when given, so records of entries without one keep their fingerprint.
        if let Some(r) = self.external_ref {
            parts.push(format!("xr:{r}"));
        }
        // Likewise only with tags: a retry with other tags is another request.
        if !self.tags.is_empty() {
            let keys: Vec<String> = self
                .tags
                .iter()
                .map(|t| NameKey::of(t).as_str().to_string())
                .collect();
            parts.push(format!("tg:{}", keys.join("\u{1f}")));
        }
        if let Some(n) = self.input.installments {
            parts.push(format!("in:{}", n.count()));
        }
        // Only when given: a retry saying another member's `for` is another request.
        if let Some(f) = self
            .input
            .for_whom
            .as_deref()
            .map(str::trim)
            .filter(|f| !f.is_empty())
        {
            parts.push(format!("for:{}", NameKey::of(f).as_str()));
        }
        let own = parts.join("\u{1e}");
        if self.print_prefix.is_empty() {
            own
        } else {
            format!("{}\u{1e}{own}", self.print_prefix)
        }
    }

    /// The fingerprint of this entry as it will be stored (its resolved date).
    pub fn fingerprint(&self) -> String {
        self.fingerprint_at(self.date)
    }

    /// Whether `rec` records this very entry: the same arguments, and a defaulted date
    /// matches the date the record resolved, so a retry after midnight replays.
    pub fn is_recorded_by(&self, rec: &IdemRec) -> bool {
        rec.vault_id == self.vault_id
            && (rec.fingerprint == self.fingerprint()
                || (!self.date_given && rec.fingerprint == self.fingerprint_at(rec.tx.date)))
    }

    /// The installment plan of this entry's postings, when it asked for one (decision 040).
    pub fn installments(
        &self,
        cat: &Catalogue,
        postings: &[PostingRec],
        currency: Currency,
    ) -> Result<Option<entry::InstallmentPlan>, LedgerError> {
        self.input
            .installments
            .map(|n| super::installments::plan_for(cat, postings, n, currency))
            .transpose()
    }

    /// Whether the duplicate guard decides about this entry: not with allowDuplicate,
    /// and not for an entry with an externalRef (the reference is its identity).
    pub fn guarded(&self) -> bool {
        !self.input.allow_duplicate && self.external_ref.is_none()
    }

    /// Whether an entry of these lines, recorded within the window, repeats this one:
    /// the same date, or, for a defaulted date just past the vault's midnight, the
    /// day before if it was recorded on that day (then still today).
    pub(super) fn repeats(&self, g: &GuardRec) -> bool {
        let recorded_on = jiff::Timestamp::from_millisecond(g.recorded_at_ms)
            .map(|t| self.zone.date_at(t))
            .ok();
        g.date == self.date
            || (self.also_yesterday && g.date == self.date.prev_day() && recorded_on == Some(g.date))
    }

    pub(super) fn replay(&self, rec: &IdemRec, m: &Membership) -> Result<Recorded, LedgerError> {
        if !self.is_recorded_by(rec) {
            return Err(LedgerError::IdempotencyKeyReused {
                key: self.key.as_str().to_string(),
            });
        }
        Ok(recorded(rec, m, true, self.input.dry_run))
    }
}

/// The postings of the entry with resolved (live) accounts; an account on both sides is refused.
pub(super) fn resolve_postings(
    cat: &Catalogue,
    e: &Entry<'_>,
    m: &Membership,
) -> Result<Vec<PostingRec>, LedgerError> {
    let mut postings = Vec::with_capacity(e.to.len() + e.from.len());
    for (lines, sign) in [(&e.to, 1i64), (&e.from, -1i64)] {
        for l in lines {
            let a = cat.resolve(&l.name, false, m)?;
            postings.push(PostingRec {
                account_id: a.account_id,
                name: a.name.clone(),
                amount: l.minor * sign,
            });
        }
    }
    let debit_ids: Vec<_> = postings
        .iter()
        .filter(|p| p.amount > 0)
        .map(|p| p.account_id)
        .collect();
    // `from` postings follow the `to` ones, in line order.
    if let Some((index, p)) = postings[e.to.len()..]
        .iter()
        .enumerate()
        .find(|(_, p)| debit_ids.contains(&p.account_id))
    {
        return Err(LedgerError::invalid(
            Field::LineAccount {
                side: Side::From,
                index,
            },
            Reason::BothSides {
                account: p.name.clone(),
                recurring: false,
            },
        ));
    }
    Ok(postings)
}

/// Both sides sum to the same amount.
pub(super) fn check_balanced(e: &Entry<'_>, currency: Currency) -> Result<(), LedgerError> {
    let sum = |lines: &[Line]| lines.iter().try_fold(0i64, |acc, l| acc.checked_add(l.minor));
    match (sum(&e.to), sum(&e.from)) {
        (Some(debits), Some(credits)) => sides_balance(debits, credits, currency),
        _ => Err(amounts_out_of_range()),
    }
}

/// The `to` side's sum (debits) equals the `from` side's (credits), or the refusal that
/// names both and the difference (a new entry and an edit's lines alike).
pub(super) fn sides_balance(debits: i64, credits: i64, currency: Currency) -> Result<(), LedgerError> {
    if debits == credits {
        return Ok(());
    }
    let money = |v| Money::from_minor(v, currency);
    Err(LedgerError::Unbalanced {
        debits: money(debits),
        credits: money(credits),
        difference: money(
            debits
                .checked_sub(credits)
                .and_then(i64::checked_abs)
                .ok_or_else(amounts_out_of_range)?,
        ),
    })
}

/// The refusal of amounts whose sum passes 64-bit minor units.
pub(super) fn amounts_out_of_range() -> LedgerError {
    LedgerError::invalid(Field::Total, Reason::AmountsOutOfRange)
}

pub(super) fn window_ms(ledger: &Ledger) -> i64 {
    i64::try_from(ledger.config.duplicate_window.as_millis()).unwrap_or(i64::MAX)
}

/// The guard a recurring posting leaves for its date and lines (`to`, `from` as
/// [`describe`] writes them; one line each: `"<name key>=<minor units>"`), so the
/// household's own entry of the same rent on the same day is its probable duplicate.
pub(super) fn posted_guard_key(vault: VaultId, date: LocalDate, to: &str, from: &str) -> Key {
    entry::recurring_guard(
        vault,
        &content_hash(&["dr-v1", &vault.to_string(), &date.to_string(), to, from]),
    )
}

/// The line text [`describe`] gives one simple line.
pub(super) fn line_text(account: &NameKey, minor: i64) -> String {
    format!("{}={minor}", account.as_str())
}

/// The entry's externalRef claimed for `tx`, only if no transaction holds it yet.
pub(super) fn external_ref_op(e: &Entry<'_>, tx: TransactionId) -> Option<dochiya_store::WriteOp> {
    e.xr_key.as_ref().map(|key| dochiya_store::WriteOp::Put {
        item: dochiya_store::Item {
            key: key.clone(),
            attrs: entry::external_ref_attrs(tx),
        },
        guard: super::guards::guard(
            crate::stored::guards::EXTERNAL_REF_FREE,
            dochiya_store::Condition::NotExists,
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn external_refs_are_trimmed_bounded_and_optional() {
        assert_eq!(
            clean_external_ref(Some("  30012345 ")).unwrap(),
            Some("30012345".to_string())
        );
        assert_eq!(clean_external_ref(Some("   ")).unwrap(), None);
        assert_eq!(clean_external_ref(None).unwrap(), None);
        let longest = "x".repeat(MAX_EXTERNAL_REF_CHARS);
        assert_eq!(clean_external_ref(Some(&longest)).unwrap(), Some(longest.clone()));
        let e = clean_external_ref(Some(&format!("{longest}x"))).unwrap_err();
        assert!(
            matches!(
                &e,
                LedgerError::InvalidInput {
                    field: Field::ExternalRef,
                    reason: Reason::ReferenceTooLong { max: 100, got: 101 }
                }
            ),
            "{e:?}"
        );
        let e = clean_external_ref(Some("a\tb")).unwrap_err();
        assert!(
            matches!(
                &e,
                LedgerError::InvalidInput {
                    field: Field::ExternalRef,
                    reason: Reason::ReferenceControl
                }
            ),
            "{e:?}"
        );
    }
}
