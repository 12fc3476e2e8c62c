//! Recurring entries (월세, 관리비, 통신비): schedules by name (`set_recurring`), what
//! they will post (`list_recurring`), and their posting (`../posting.rs`).
//!
//! A schedule is one item (`RC#<name key>`) with its accounts by id, its amount and
//! dates (`domain::Schedule`) and how far it got (`postedThrough`). The vault's head
//! (`RN`) holds the earliest date any schedule may next fall due; every call into the
//! vault reads it beside its roster check (`roster.rs`), and posts first when it is
//! due, so an occurrence is visible no later than the first call on or after its date.

mod detect;

use crate::api::{Difference, Entity, Field, Reason};
use crate::ledger::entry::{clean_memo, positive};
use crate::ledger::guards::{SCHEDULE_NEW, SCHEDULE_UNCHANGED, SCHEDULES_COUNTED};
use crate::ledger::posting::{due, earliest, head_ops, next_of, schedules};
use crate::ledger::resolve::{Catalogue, catalogue, join2, retrying};
use crate::ledger::roster::{InVault, in_vault};
use crate::ledger::*;
use crate::ledger::{entry, posting};
use crate::stored::member::Membership;
use crate::stored::schedule;
use crate::stored::schedule::{ScheduleRec, head_next};
use dochiya_domain::{Every, Money, Name, Schedule, ScheduleError, closest_names, random_uuid};
use dochiya_store::{Condition, Guard, Item, WriteOp};

/// Most schedules one vault keeps: bounds every posting run and listing (unless the
/// ledger's settings say otherwise: `LedgerConfig::max_schedules`).
pub const MAX_SCHEDULES: usize = 50;

fn field(arg: &'static str) -> Field {
    Field::Recurring(arg)
}

fn dates_error(e: ScheduleError) -> LedgerError {
    match e {
        ScheduleError::Day(got) => LedgerError::invalid(field("day"), Reason::ScheduleDay { got }),
        ScheduleError::End { start, end } => {
            LedgerError::invalid(field("end"), Reason::ScheduleEnd { start, end })
        }
    }
}

/// A schedule as results show it (account names as the catalogue has them now).
fn view(s: &ScheduleRec, cat: Option<&Catalogue>, m: &Membership) -> RecurringView {
    let name = |id, stored: &str| {
        cat.and_then(|c| c.by_id(id))
            .map_or_else(|| stored.to_string(), |a| a.name.clone())
    };
    RecurringView {
        name: s.name.clone(),
        from: name(s.from_id, &s.from_name),
        to: name(s.to_id, &s.to_name),
        amount: Money::from_minor(s.amount, m.currency),
        day: s.dates.day(),
        every: s.dates.every(),
        start: s.dates.start(),
        end: s.dates.end(),
        memo: s.memo.clone(),
        tags: s.tags.clone(),
        next: next_of(s),
        last_posted: s.last_posted,
        stuck: s.stuck,
    }
}

pub(in crate::ledger) async fn set_recurring(
    ledger: &Ledger,
    who: &PersonId,
    input: RecurringInput,
) -> Result<RecurringSet, LedgerError> {
    let name = Name::parse(&input.name).map_err(|e| LedgerError::from_parse(field("name"), e))?;
    if let Some(amount) = input.amount {
        positive(amount, Field::Amount)?;
    }
    let memo = match &input.memo {
        Some(memo) => Some(clean_memo(Some(memo), Field::Memo)?),
        None => None,
    };
    // Checked before any read, like a recorded entry's: the postings carry them.
    let tags = input.tags.as_deref().map(entry::entry_tags).transpose()?;
    let (input, name, memo) = (&input, &name, (memo.as_deref(), tags.as_deref()));
    retrying(|| {
        in_vault(ledger, who, input.vault.as_deref(), |v| {
            set_in(ledger, who, input, name, memo, v)
        })
    })
    .await
}

/// The differences between a schedule and what a call sent (values as results show them).
fn differences(
    s: &ScheduleRec,
    input: &RecurringInput,
    wanted: &Wanted<'_>,
    m: &Membership,
) -> Vec<Difference> {
    let mut out = Vec::new();
    let mut differ = |what: &'static str, was: String, sent: String| {
        if was != sent {
            out.push(Difference { what, was, sent });
        }
    };
    if let Some((id, name)) = &wanted.from {
        differ(
            "from",
            s.from_name.clone(),
            if *id == s.from_id {
                s.from_name.clone()
            } else {
                name.clone()
            },
        );
    }
    if let Some((id, name)) = &wanted.to {
        differ(
            "to",
            s.to_name.clone(),
            if *id == s.to_id {
                s.to_name.clone()
            } else {
                name.clone()
            },
        );
    }
    if let Some(a) = wanted.amount {
        let money = |v| Money::from_minor(v, m.currency).to_string();
        differ("amount", money(s.amount), money(a));
    }
    if let Some(d) = input.day {
        differ("day", s.dates.day().to_string(), d.to_string());
    }
    if let Some(e) = input.every {
        differ("every", s.dates.every().to_string(), e.to_string());
    }
    if let Some(d) = input.start {
        differ("start", s.dates.start().to_string(), d.to_string());
    }
    if let Some(d) = input.end {
        differ(
            "end",
            s.dates.end().map_or("none".into(), |e| e.to_string()),
            d.to_string(),
        );
    }
    if let Some(memo) = wanted.memo {
        differ("memo", format!("\"{}\"", s.memo), format!("\"{memo}\""));
    }
    if let Some(tags) = wanted.tags {
        let keys = |t: &[String]| -> Vec<dochiya_domain::NameKey> {
            t.iter().map(|t| dochiya_domain::NameKey::of(t)).collect()
        };
        if keys(&s.tags) != keys(tags) {
            differ("tags", format!("{:?}", s.tags), format!("{tags:?}"));
        }
    }
    out
}

/// What a call sent, resolved in the vault: accounts by id, the amount in minor units.
struct Wanted<'a> {
    from: Option<(dochiya_domain::AccountId, String)>,
    to: Option<(dochiya_domain::AccountId, String)>,
    amount: Option<i64>,
    memo: Option<&'a str>,
    /// Checked and folded; `None`: not sent.
    tags: Option<&'a [String]>,
}

fn wanted<'a>(
    input: &RecurringInput,
    (memo, tags): (Option<&'a str>, Option<&'a [String]>),
    cat: &Catalogue,
    m: &Membership,
) -> Result<Wanted<'a>, LedgerError> {
    let account = |name: &Option<String>| -> Result<_, LedgerError> {
        name.as_deref()
            .map(|n| cat.resolve(n, false, m).map(|a| (a.account_id, a.name.clone())))
            .transpose()
    };
    let amount = input
        .amount
        .map(|a| Money::from_decimal(a, m.currency).map(|m| m.minor()))
        .transpose()
        .map_err(|e| LedgerError::from_parse(Field::Amount, e))?;
    Ok(Wanted {
        from: account(&input.from)?,
        to: account(&input.to)?,
        amount,
        memo,
        tags,
    })
}

async fn set_in(
    ledger: &Ledger,
    who: &PersonId,
    input: &RecurringInput,
    name: &Name,
    memo: (Option<&str>, Option<&[String]>),
    v: InVault,
) -> Result<RecurringSet, LedgerError> {
    let m = v.membership.clone();
    let store = ledger.store.as_ref();
    let head_and_count = [
        schedule::recurring_head(m.vault_id),
        schedule::recurring_count(m.vault_id),
    ];
    let ((cat, all), got) = join2(
        join2(catalogue(ledger, &m), schedules(ledger, &m)),
        store.get_many(&head_and_count),
    )
    .await;
    let (cat, all, got) = (cat?, all?, got?);
    let head = head_next(got.first().and_then(Option::as_ref))?;
    let count = counted(got.get(1).and_then(Option::as_ref))?;
    // Post what is due first (`in_vault` does, then runs this again): a change or a
    // removal applies from the next date on, never to an occurrence already due.
    if due(ledger, &m, head) {
        return Err(LedgerError::Conflict);
    }
    let existing = all.iter().find(|s| &s.name_key == name.key()).cloned();
    if input.remove {
        return remove(ledger, who, &v, &cat, (&all, count), existing, name, head).await;
    }
    let w = wanted(input, memo, &cat, &m)?;
    let result = |s: &ScheduleRec, created, changed| RecurringSet {
        vault: m.vault_ref(),
        currency: m.currency,
        recurring: view(s, Some(&cat), &m),
        created,
        changed,
        removed: false,
    };
    let rec = match &existing {
        Some(s) if !input.change => {
            let diff = differences(s, input, &w, &m);
            if diff.is_empty() {
                return Ok(result(s, false, false));
            }
            return Err(LedgerError::invalid(
                field("name"),
                Reason::ScheduleExists {
                    name: s.name.clone(),
                    differences: diff,
                },
            ));
        }
        // A change that sends only what the schedule already has changes nothing, unless
        // the schedule is stuck: then it is the way out, which tries posting again.
        Some(s) if s.stuck.is_none() && differences(s, input, &w, &m).is_empty() => {
            return Ok(result(s, false, false));
        }
        Some(s) => changed(ledger, &m, s, input, &w)?,
        None => created(ledger, &m, schedule_count(count, &all), input, name, &w)?,
    };
    // What it makes due at once must be able to post: refused here, nothing is stored.
    posting::check_postable(ledger, &m, &rec).await?;
    let mut ops = vec![WriteOp::Put {
        item: Item {
            key: schedule::recurring(m.vault_id, &rec.name_key),
            attrs: rec.to_attrs(),
        },
        guard: Some(match &existing {
            Some(s) => Guard::new(SCHEDULE_UNCHANGED, s.unchanged()),
            None => Guard::new(SCHEDULE_NEW, Condition::NotExists),
        }),
    }];
    if existing.is_none() {
        ops.push(count_op(&m, count, &all, 1));
    }
    let next = [head, next_of(&rec)].into_iter().flatten().min();
    if next != head {
        ops.extend(head_ops(&m, head, next));
    }
    v.write(ledger, who, ops).await?;
    // Nothing due (a start after today): the head written above is already the
    // schedules' earliest date, so there is nothing to read again (one read round).
    if !due(ledger, &m, next) {
        return Ok(result(&rec, existing.is_none(), existing.is_some()));
    }
    // Due already (a start in the past, or today's day): posted now, before the answer.
    let (now, _) = posting::post_due(ledger, &m, next).await?;
    let shown = now
        .iter()
        .find(|s| s.schedule_id == rec.schedule_id)
        .unwrap_or(&rec);
    Ok(result(shown, existing.is_none(), existing.is_some()))
}

/// Attribute of the schedule counter (`RV`): how many schedules the vault keeps.
const SCHEDULE_COUNT: &str = "n";

/// The schedule counter as read (`None`: no item yet, in a vault whose schedules were
/// all made before it; their query counts them then).
fn counted(item: Option<&Item>) -> Result<Option<i64>, LedgerError> {
    match item.map(|i| i.attrs.get(SCHEDULE_COUNT)) {
        None => Ok(None),
        Some(Some(dochiya_store::Value::N(n))) => Ok(Some(*n)),
        Some(_) => Err(LedgerError::internal(
            "the vault's schedule counter is unreadable",
        )),
    }
}

/// How many schedules the vault keeps: the counter, or (before it) the query's count.
fn schedule_count(counter: Option<i64>, all: &[ScheduleRec]) -> i64 {
    counter.unwrap_or_else(|| i64::try_from(all.len()).unwrap_or(i64::MAX))
}

/// A creation (`delta` 1) or a removal (−1) sets the counter, only if it is still
/// what was read (absent: still absent). The count a cap is checked against is the
/// one this write's condition holds, so creations racing past the cap cannot all
/// land: the losers decide again on fresh reads (decision 048).
fn count_op(m: &Membership, read: Option<i64>, all: &[ScheduleRec], delta: i64) -> WriteOp {
    let n = schedule_count(read, all).saturating_add(delta);
    WriteOp::Put {
        item: Item {
            key: schedule::recurring_count(m.vault_id),
            attrs: [(SCHEDULE_COUNT.to_string(), dochiya_store::Value::N(n))].into(),
        },
        guard: Some(Guard::new(
            SCHEDULES_COUNTED,
            match read {
                Some(n) => Condition::AttrEquals(SCHEDULE_COUNT.into(), dochiya_store::Value::N(n)),
                None => Condition::NotExists,
            },
        )),
    }
}

/// A new schedule from a call: from, to and amount required; start at most a year back.
fn created(
    ledger: &Ledger,
    m: &Membership,
    count: i64,
    input: &RecurringInput,
    name: &Name,
    w: &Wanted<'_>,
) -> Result<ScheduleRec, LedgerError> {
    let (Some((from_id, from_name)), Some((to_id, to_name)), Some(amount)) = (&w.from, &w.to, w.amount)
    else {
        let missing: Vec<&str> = [
            ("from", w.from.is_none()),
            ("to", w.to.is_none()),
            ("amount", w.amount.is_none()),
        ]
        .into_iter()
        .filter_map(|(n, gone)| gone.then_some(n))
        .collect();
        return Err(LedgerError::invalid(
            field(missing[0]),
            Reason::NoScheduleYet {
                name: name.display().to_string(),
                missing: missing.clone(),
            },
        ));
    };
    let cap = ledger.config.max_schedules;
    if usize::try_from(count).unwrap_or(usize::MAX) >= cap {
        return Err(LedgerError::invalid(
            field("name"),
            Reason::TooManySchedules { max: cap },
        ));
    }
    if from_id == to_id {
        return Err(LedgerError::invalid(
            field("to"),
            Reason::BothSides {
                account: to_name.clone(),
                recurring: true,
            },
        ));
    }
    let today = ledger.today_in(m);
    let start = input.start.unwrap_or(today);
    let year_back = today
        .as_jiff()
        .checked_sub(jiff::Span::new().years(1))
        .unwrap_or(today.as_jiff());
    if start.as_jiff() < year_back {
        return Err(LedgerError::invalid(
            field("start"),
            Reason::StartTooEarly { start, today },
        ));
    }
    let dates = Schedule::new(input.day, input.every.unwrap_or(Every::Month), start, input.end)
        .map_err(dates_error)?;
    Ok(ScheduleRec {
        schedule_id: random_uuid(ledger.entropy.as_ref()).to_string(),
        name: name.display().to_string(),
        name_key: name.key().clone(),
        from_id: *from_id,
        from_name: from_name.clone(),
        to_id: *to_id,
        to_name: to_name.clone(),
        amount,
        memo: w.memo.map_or_else(|| name.display().to_string(), str::to_string),
        tags: w.tags.map(<[String]>::to_vec).unwrap_or_default(),
        dates,
        posted_through: None,
        last_posted: None,
        version: 1,
        stuck: None,
    })
}

/// A schedule changed by a call: what it sent replaces, the rest stays; everything
/// through today stays decided as it was (a change applies from the next date on).
/// A stuck schedule is unstuck, and its change applies from the occurrence it stopped
/// at: those occurrences were never posted, so they post now with the new settings.
fn changed(
    ledger: &Ledger,
    m: &Membership,
    s: &ScheduleRec,
    input: &RecurringInput,
    w: &Wanted<'_>,
) -> Result<ScheduleRec, LedgerError> {
    let (from_id, from_name) = w.from.clone().unwrap_or((s.from_id, s.from_name.clone()));
    let (to_id, to_name) = w.to.clone().unwrap_or((s.to_id, s.to_name.clone()));
    if from_id == to_id {
        return Err(LedgerError::invalid(
            field("to"),
            Reason::BothSides {
                account: to_name.clone(),
                recurring: true,
            },
        ));
    }
    let dates = Schedule::new(
        Some(input.day.unwrap_or(i64::from(s.dates.day()))),
        input.every.unwrap_or(s.dates.every()),
        input.start.unwrap_or(s.dates.start()),
        input.end.or(s.dates.end()),
    )
    .map_err(dates_error)?;
    let today = ledger.today_in(m);
    Ok(ScheduleRec {
        from_id,
        from_name,
        to_id,
        to_name,
        amount: w.amount.unwrap_or(s.amount),
        memo: w.memo.map_or_else(|| s.memo.clone(), str::to_string),
        tags: w.tags.map_or_else(|| s.tags.clone(), <[String]>::to_vec),
        dates,
        posted_through: match s.stuck {
            Some(_) => s.posted_through,
            None => Some(s.posted_through.map_or(today, |p| p.max(today))),
        },
        version: s.version.saturating_add(1),
        stuck: None,
        ..s.clone()
    })
}

/// Remove a schedule by name: what it posted stays (and its claims, so nothing reposts).
#[allow(clippy::too_many_arguments)]
async fn remove(
    ledger: &Ledger,
    who: &PersonId,
    v: &InVault,
    cat: &Catalogue,
    (all, count): (&[ScheduleRec], Option<i64>),
    existing: Option<ScheduleRec>,
    name: &Name,
    head: Option<LocalDate>,
) -> Result<RecurringSet, LedgerError> {
    let m = &v.membership;
    let Some(s) = existing else {
        return Err(LedgerError::NotFound {
            what: Entity::Recurring,
            name: name.display().to_string(),
            within: Some(m.described()),
            candidates: closest_names(name.display(), all.iter().map(|s| s.name.as_str()), 5),
        });
    };
    let rest: Vec<ScheduleRec> = all.iter().filter(|x| x.name_key != s.name_key).cloned().collect();
    let mut ops = vec![
        WriteOp::Delete {
            key: schedule::recurring(m.vault_id, &s.name_key),
            guard: Some(Guard::new(SCHEDULE_UNCHANGED, s.unchanged())),
        },
        count_op(m, count, all, -1),
    ];
    let next = earliest(&rest);
    if next != head {
        ops.extend(head_ops(m, head, next));
    }
    v.write(ledger, who, ops).await?;
    Ok(RecurringSet {
        vault: m.vault_ref(),
        currency: m.currency,
        recurring: RecurringView {
            next: None,
            ..view(&s, Some(cat), m)
        },
        created: false,
        changed: false,
        removed: true,
    })
}

pub(in crate::ledger) async fn list_recurring(
    ledger: &Ledger,
    who: &PersonId,
    vault: Option<&str>,
    month: Option<YearMonth>,
) -> Result<RecurringList, LedgerError> {
    in_vault(ledger, who, vault, |v| async move {
        let m = v.membership;
        let today = ledger.today_in(&m);
        let ((cat, all), seen) = join2(
            join2(catalogue(ledger, &m), schedules(ledger, &m)),
            detect::seen(ledger, &m, today),
        )
        .await;
        let (cat, all, seen) = (cat?, all?, seen?);
        let month = month.unwrap_or_else(|| today.month());
        let mut upcoming = Vec::new();
        let mut total: i64 = 0;
        // A stuck schedule posts nothing until it is changed: nothing of it is upcoming.
        for s in all.iter().filter(|s| s.stuck.is_none()) {
            let after = [s.posted_through, Some(today), Some(month.first_day().prev_day())]
                .into_iter()
                .flatten()
                .max();
            for date in s.dates.between(after, month.last_day(), 31) {
                total = total
                    .checked_add(s.amount)
                    .ok_or_else(entry::amounts_out_of_range)?;
                upcoming.push(Upcoming {
                    name: s.name.clone(),
                    date,
                    amount: Money::from_minor(s.amount, m.currency),
                });
            }
        }
        upcoming.sort_by(|a, b| (a.date, &a.name).cmp(&(b.date, &b.name)));
        Ok(RecurringList {
            vault: m.vault_ref(),
            currency: m.currency,
            month,
            recurring: all.iter().map(|s| view(s, Some(&cat), &m)).collect(),
            upcoming,
            upcoming_total: Money::from_minor(total, m.currency),
            detected: seen.detected(&cat, &all, m.currency),
        })
    })
    .await
}

impl Ledger {
    /// Create, change (`change: true`) or remove a recurring entry by name. What is
    /// due already (a start in the past) is posted before the answer.
    pub async fn set_recurring(
        &self,
        who: &PersonId,
        input: RecurringInput,
    ) -> Result<RecurringSet, LedgerError> {
        set_recurring(self, who, input).await
    }

    /// The vault's recurring entries and what is still to come in a month (default this month).
    pub async fn list_recurring(
        &self,
        who: &PersonId,
        vault: Option<&str>,
        month: Option<YearMonth>,
    ) -> Result<RecurringList, LedgerError> {
        list_recurring(self, who, vault, month).await
    }
}
