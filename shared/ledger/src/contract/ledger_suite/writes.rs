//! Contract tests of what writes tell a model: voided entries in listings,
//! replays that show the entry as it is now, notes on unusual directions, the
//! duplicate guard by the clock, dry-run previews; on every store.

use super::*;

/// Listings leave voided entries out unless asked; shown, they carry why, when and who.
pub async fn listings_leave_voided_entries_out_unless_asked<S: Store>(store: S) {
    let (l, clock) = ledger_over(Arc::new(store));
    let me = named_person("list-voided", "지은");
    household(&l, &me).await;
    clock.advance_seconds(1);
    let wrong = record(
        &l,
        &me,
        tx("카카오뱅크", "식비", "15000", Some("2026-03-15"), "회식"),
    )
    .await;
    let id = wrong.transaction.transaction_id;
    clock.advance_seconds(60);
    call!(l.void_transaction(&me, None, id, Some("잘못 입력"))).expect("void");
    let list = |include_voided, limit| {
        l.list_transactions(
            &me,
            TransactionQuery {
                include_voided,
                limit,
                ..Default::default()
            },
        )
    };
    let default = call!(list(false, None)).expect("list");
    assert_eq!(
        default.transactions.len(),
        7,
        "six entries and the opening balance"
    );
    assert!(default.transactions.iter().all(|t| t.transaction_id != id));
    // A page of one that would have been the voided entry skips it and still pages on.
    let first = call!(list(false, Some(1))).expect("page");
    assert_eq!(first.transactions, default.transactions[..1]);
    assert!(first.next_cursor.is_some());
    let all = call!(list(true, None)).expect("with voided");
    assert_eq!(all.transactions.len(), 8);
    let shown = &all.transactions[0];
    assert_eq!(shown.transaction_id, id);
    assert!(shown.voided);
    assert_eq!(
        (
            shown.void_reason.as_deref(),
            shown.voided_at.map(|t| t.as_second()),
            shown.voided_by.as_deref()
        ),
        (Some("잘못 입력"), Some(NOON_KST_2026_03_15 + 61), Some("지은"))
    );
    let got = call!(l.get_transaction(&me, None, id)).expect("get");
    assert_eq!(
        &got.transaction, shown,
        "the listing shows what get_transaction shows"
    );
    // A cursor belongs to its own listing: one with voided entries is another listing.
    let c = call!(list(true, Some(1)))
        .expect("page")
        .next_cursor
        .expect("more");
    let e = call!(l.list_transactions(
        &me,
        TransactionQuery {
            cursor: Some(c.clone()),
            limit: Some(1),
            ..Default::default()
        }
    ))
    .unwrap_err();
    assert!(
        e.to_string()
            .starts_with("The cursor was not made by this listing"),
        "{e}"
    );
}
