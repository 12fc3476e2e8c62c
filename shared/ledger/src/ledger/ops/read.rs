//! Reading transactions: one by id, or a filtered page newest first.

use crate::api::{Field, Reason};
use crate::ledger::cursor;
use crate::ledger::members::recorder_named;
use crate::ledger::resolve::{catalogue, join2, query_all};
use crate::ledger::roster::in_vault;
use crate::ledger::view;
use crate::ledger::view::transaction_in;
use crate::ledger::view::view;
use crate::ledger::*;
use crate::stored::entry::{TxRec, VersionRec};
use crate::stored::table::content_hash;
use crate::stored::{entry, member, table};
use dochiya_domain::NameKey;
use dochiya_store::Query;

/// Default page size.
pub const DEFAULT_LIMIT: u32 = 50;
/// Largest page size.
pub const MAX_LIMIT: u32 = 200;
/// Items one filtered page may examine (one query); a page may then hold fewer
/// than `limit` transactions and still carry a cursor.
const SCAN_LIMIT: u32 = 1000;

pub(in crate::ledger) async fn get_transaction(
    ledger: &Ledger,
    who: &PersonId,
    vault: Option<&str>,
    id: TransactionId,
) -> Result<TransactionView, LedgerError> {
    in_vault(ledger, who, vault, |v| async move {
        let m = v.membership;
        // The earlier versions are read beside the transaction, in the same round.
        let (found, versions) = join2(
            transaction_in(ledger, &m, id),
            query_all(
                ledger.store.as_ref(),
                table::vault_pk(m.vault_id),
                entry::transaction_versions(id),
                true,
            ),
        )
        .await;
        let (tx, cat) = found?;
        let history = versions?
            .iter()
            .map(|i| VersionRec::from_attrs(&i.attrs))
            .collect::<Result<Vec<_>, _>>()?;
        let mut transaction = view(&tx, Some(&cat), m.currency);
        transaction.history = view::versions(&history, Some(&cat), m.currency);
        Ok(TransactionView {
            vault: m.vault_ref(),
            currency: m.currency,
            transaction,
        })
    })
    .await
}

pub(in crate::ledger) async fn list_transactions(
    ledger: &Ledger,
    who: &PersonId,
    q: TransactionQuery,
) -> Result<TransactionPage, LedgerError> {
    let limit = q.limit.unwrap_or(DEFAULT_LIMIT);
    if !(1..=MAX_LIMIT).contains(&limit) {
        return Err(LedgerError::invalid(
            Field::Limit,
            Reason::Limit { max: MAX_LIMIT },
        ));
    }
    if let (Some(f), Some(t)) = (q.from, q.to) {
        LedgerError::check_range(&f, &t)?;
    }
    let text = q
        .text
        .as_deref()
        .map(NameKey::of)
        .filter(|k| !k.as_str().is_empty());
    let tag = q
        .tag
        .as_deref()
        .map(|t| {
            dochiya_domain::Tag::parse(t).map_err(|e| LedgerError::from_parse(Field::Category("tag"), e))
        })
        .transpose()?
        .map(|t| t.key().clone());
    let (q, text, tag) = (&q, &text, &tag);
    in_vault(ledger, who, q.vault.as_deref(), |v| async move {
        page_of(ledger, who, q, (text.as_ref(), tag.as_ref()), limit, v.membership).await
    })
    .await
}

async fn page_of(
    ledger: &Ledger,
    who: &PersonId,
    q: &TransactionQuery,
    (text, tag): (Option<&NameKey>, Option<&NameKey>),
    limit: u32,
    m: member::Membership,
) -> Result<TransactionPage, LedgerError> {
    let tag_part = tag.map(|t| format!("tag:{}", t.as_str()));
    // Whose entries: read beside the page (the member list, unless it is "me").
    let recorder = async {
        match q.recorded_by.as_deref() {
            Some(name) => recorder_named(ledger, who, &m, name).await.map(Some),
            None => Ok(None),
        }
    };
    let filter_hash = content_hash(&[
        q.account
            .as_deref()
            .map(|a| NameKey::of(a).as_str().to_string())
            .unwrap_or_default()
            .as_str(),
        &q.from.map(|d| d.to_string()).unwrap_or_default(),
        &q.to.map(|d| d.to_string()).unwrap_or_default(),
        text.map(|k| k.as_str()).unwrap_or(""),
        if q.include_voided { "with-voided" } else { "" },
        if q.order_recorded { "recorded" } else { "" },
    ]) + tag_part.as_deref().unwrap_or("")
        // Appended only when set, so the cursors of other filters stay as they were.
        + &q.recorded_by
            .as_deref()
            .map(|r| format!("by:{}", NameKey::of(r).as_str()))
            .unwrap_or_default();
    let after = q
        .cursor
        .as_deref()
        .filter(|c| !c.trim().is_empty())
        .map(|c| cursor::decode(c, m.vault_id, &filter_hash))
        .transpose()?;
    // Newest recorded first reads the by-id items backwards: ids are time-ordered at
    // recording, so no index beyond them is needed; dates are then a filter.
    let filtered = q.account.is_some()
        || q.recorded_by.is_some()
        || text.is_some()
        || tag.is_some()
        || (q.order_recorded && (q.from.is_some() || q.to.is_some()));
    let range = if q.order_recorded {
        entry::transactions_by_id()
    } else {
        entry::transactions_between(q.from, q.to)
    };
    let query = Query {
        pk: table::vault_pk(m.vault_id),
        range,
        forward: false,
        // Voided entries are few: leaving them out reads a little more than a page,
        // and a page short of `limit` still carries a cursor.
        limit: match (filtered, q.include_voided) {
            (true, _) => SCAN_LIMIT,
            (false, true) => limit,
            (false, false) => (limit + limit / 4 + 4).min(SCAN_LIMIT),
        },
        after,
    };
    let ((page, cat), recorder) =
        join2(join2(ledger.store.query(&query), catalogue(ledger, &m)), recorder).await;
    let (page, cat, recorder) = (page?, cat?, recorder?);
    let (account, account_choice) = match q.account.as_deref() {
        Some(a) => {
            let (a, choice) = cat.resolve_filter(a, &m)?;
            (Some(a.account_id), choice)
        }
        None => (None, None),
    };
    let mut transactions = Vec::new();
    let mut last_sk: Option<&str> = None;
    let mut next = page.last_sk.clone();
    for item in &page.items {
        let tx = TxRec::from_item(item)?;
        let keep = (q.include_voided || !tx.voided)
            && q.from.is_none_or(|f| tx.date >= f)
            && q.to.is_none_or(|t| tx.date <= t)
            && account.is_none_or(|a| tx.postings.iter().any(|p| p.account_id == a))
            && text.is_none_or(|t| NameKey::of(&tx.memo).as_str().contains(t.as_str()))
            && tag.is_none_or(|k| tx.tags.iter().any(|t| NameKey::of(t) == *k))
            && recorder.as_ref().is_none_or(|r| r.recorded(&tx));
        if !keep {
            continue;
        }
        if transactions.len() == limit as usize {
            // More matches remain in this page: resume after the last one returned.
            next = last_sk.map(str::to_string);
            break;
        }
        last_sk = Some(&item.key.sk);
        transactions.push(view(&tx, Some(&cat), m.currency));
    }
    Ok(TransactionPage {
        vault: m.vault_ref(),
        currency: m.currency,
        transactions,
        next_cursor: next.map(|sk| cursor::encode(m.vault_id, &filter_hash, &sk)),
        account_choice,
    })
}

impl Ledger {
    /// One transaction by id, in one of the caller's vaults.
    pub async fn get_transaction(
        &self,
        who: &PersonId,
        vault: Option<&str>,
        id: TransactionId,
    ) -> Result<TransactionView, LedgerError> {
        get_transaction(self, who, vault, id).await
    }

    /// Transactions newest first, filtered, one page at a time.
    pub async fn list_transactions(
        &self,
        who: &PersonId,
        query: TransactionQuery,
    ) -> Result<TransactionPage, LedgerError> {
        list_transactions(self, who, query).await
    }
}
