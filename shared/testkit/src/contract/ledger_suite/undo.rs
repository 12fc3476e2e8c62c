//! Contract tests of operations and `undo`, on every store: a batch taken back with
//! every total as before, an edit and a void reversed, twice a no-op, refused after a
//! later change, safe to retry after a failure in the middle, the default operation,
//! who may undo what, and "the one I just entered" (newest recorded first).

use super::batches::{batch, counts, entry};
use super::*;

/// What the book shows: every balance and report a household reads, as text.
async fn book(l: &Ledger, who: &PersonId) -> Vec<String> {
    let accounts = call!(l.list_accounts(who, None, true)).expect("list_accounts");
    let bal = call!(l.get_balances(who, None, None)).expect("get_balances");
    let spent = call!(l.spending_report(
        who,
        ReportRequest {
            vault: None,
            from: date("2026-03-01"),
            to: date("2026-03-31"),
            by: ReportBy::Account,
            kind: FlowKind::Expense,
            tag: None,
        }
    ))
    .expect("spending_report");
    let worth = call!(l.net_worth_history(who, None, month("2026-01"), month("2026-03"))).expect("history");
    vec![
        format!("{accounts:?}"),
        format!("{bal:?}"),
        format!("{spent:?}"),
        format!("{worth:?}"),
    ]
}

/// `n` statement lines (approval numbers `{tag}-0`…), 1,000 won apart, in early March.
fn lines(tag: &str, n: usize) -> Vec<Result<BatchEntry, Unreadable>> {
    (0..n)
        .map(|i| {
            let to = if i % 2 == 0 { "식비" } else { "쇼핑" };
            let day = format!("2026-03-{:02}", 1 + i % 9);
            entry(
                "신한카드",
                to,
                &(1000 * (i + 1)).to_string(),
                &day,
                &format!("{tag} {i}"),
                Some(&format!("{tag}-{i}")),
            )
        })
        .collect()
}

fn ids_of(r: &BatchRecorded) -> Vec<TransactionId> {
    r.results
        .iter()
        .filter_map(|e| match e {
            EntryResult::Recorded { transaction_id, .. } => *transaction_id,
            _ => None,
        })
        .collect()
}

async fn undo(l: &Ledger, who: &PersonId, op: Option<OperationId>) -> Result<Undone, LedgerError> {
    call!(l.undo(
        who,
        UndoRequest {
            vault: None,
            operation_id: op,
            dry_run: false,
        }
    ))
}

fn actions(u: &Undone) -> Vec<(TransactionId, UndoAction)> {
    u.undone.iter().map(|e| (e.transaction_id, e.action)).collect()
}

async fn get(l: &Ledger, who: &PersonId, id: TransactionId) -> Transaction {
    call!(l.get_transaction(who, None, id))
        .expect("get_transaction")
        .transaction
}

/// A 100-entry statement taken back: each entry voided once, every balance and report
/// as before byte for byte; twice is a no-op; the same statement imports again;
/// the newest recorded entries come first when asked.
pub async fn undo_of_a_batch_brings_every_total_back<S: Store>(store: S) {
    let counting = Arc::new(CountingStore::new(store));
    let (l, clock) = ledger_over(counting.clone());
    let me = fresh_person("undo-batch");
    household(&l, &me).await;
    let before = book(&l, &me).await;
    clock.advance_seconds(60);
    let imported = call!(l.record_transactions(&me, batch(lines("카드", 100), "stmt-1"))).expect("batch");
    assert_eq!(counts(&imported), (100, 0, 0, 0));
    let op = imported.operation_id.expect("a batch's operation");
    let ids = ids_of(&imported);
    // Every entry shows the batch's operation and when it was recorded.
    let first = get(&l, &me, ids[0]).await;
    assert_eq!(first.operation_id, Some(op));
    assert_eq!(
        first.recorded_at.map(|t| t.to_string()),
        Some("2026-03-15T03:01:00Z".to_string())
    );
    let after_import = book(&l, &me).await;
    assert_ne!(after_import, before);

    // A dry run changes nothing and says what would be done.
    let dry = call!(l.undo(
        &me,
        UndoRequest {
            dry_run: true,
            ..Default::default()
        }
    ))
    .expect("dry run");
    assert_eq!((dry.operation_id, dry.undone.len(), dry.dry_run), (op, 100, true));
    assert_eq!(book(&l, &me).await, after_import);

    clock.advance_seconds(60);
    counting.reset();
    let u = undo(&l, &me, None).await.expect("undo");
    let c = counting.take();
    assert_eq!((u.operation_id, u.already_undone, u.dry_run), (op, false, false));
    // In recording order (by id): a batch's entries share one millisecond.
    let mut sorted = ids.clone();
    sorted.sort();
    assert_eq!(
        actions(&u),
        sorted
            .iter()
            .map(|id| (*id, UndoAction::Voided))
            .collect::<Vec<_>>()
    );
    // The pointer, the operation with its entries, the entries now; then one write per entry.
    assert_eq!((c.writes, c.read_rounds), (100, 3));
    assert_eq!(book(&l, &me).await, before, "every balance and report as before");
    let voided = get(&l, &me, ids[7]).await;
    assert!(voided.voided);
    assert_eq!(
        voided.void_reason.as_deref(),
        Some(format!("undo of operation {op}").as_str())
    );

    // Twice: nothing written, and it says so.
    counting.reset();
    let again = undo(&l, &me, Some(op)).await.expect("again");
    assert_eq!((again.already_undone, again.undone.len()), (true, 100));
    assert_eq!(counting.take().writes, 0);

    // The statement taken back imports again: neither its references nor its lines
    // match the voided entries.
    clock.advance_seconds(60);
    let again = call!(l.record_transactions(&me, batch(lines("카드", 100), "stmt-2"))).expect("reimport");
    assert_eq!(counts(&again), (100, 0, 0, 0));
    assert_eq!(book(&l, &me).await, after_import);
    let op2 = again.operation_id.expect("operation");
    assert_ne!(op2, op);

    // "방금 거": newest recorded first, whatever the dates; the statement's lines are
    // dated early March, before the household's entries.
    let latest = call!(l.list_transactions(
        &me,
        TransactionQuery {
            limit: Some(3),
            order_recorded: true,
            ..Default::default()
        }
    ))
    .expect("list");
    assert_eq!(latest.transactions.len(), 3);
    assert!(latest.transactions.iter().all(|t| t.operation_id == Some(op2)));
    let by_date = call!(l.list_transactions(
        &me,
        TransactionQuery {
            limit: Some(1),
            ..Default::default()
        }
    ))
    .expect("list");
    assert_ne!(by_date.transactions[0].operation_id, Some(op2));
    // Pages of the recorded order follow on; a cursor of one order is refused by the other.
    let next = call!(l.list_transactions(
        &me,
        TransactionQuery {
            limit: Some(3),
            order_recorded: true,
            cursor: latest.next_cursor.clone(),
            ..Default::default()
        }
    ))
    .expect("page 2");
    assert!(next.transactions[0].transaction_id < latest.transactions[2].transaction_id);
    let wrong = call!(l.list_transactions(
        &me,
        TransactionQuery {
            limit: Some(3),
            cursor: latest.next_cursor.clone(),
            ..Default::default()
        }
    ))
    .unwrap_err();
    assert!(matches!(wrong, LedgerError::BadCursor), "{wrong:?}");
}

/// An edit is reversed to the version before (a new version, history kept), a void
/// is brought back, and a recording is voided: each entry shows again the operation
/// it showed before, so the earlier operation can be undone in turn.
pub async fn undo_of_an_edit_and_of_a_void<S: Store>(store: S) {
    let (l, clock) = ledger_over(Arc::new(store));
    let me = fresh_person("undo-edit");
    household(&l, &me).await;
    let before = book(&l, &me).await;
    let t = record(
        &l,
        &me,
        tx("카카오뱅크", "식비", "15000", Some("2026-03-15"), "회식"),
    )
    .await;
    let (id, rec_op) = (t.transaction.transaction_id, t.operation_id.expect("op"));
    assert_eq!(t.transaction.operation_id, Some(rec_op));
    let recorded = book(&l, &me).await;

    clock.advance_seconds(60);
    let e = edit(
        &l,
        &me,
        TransactionEdit {
            amount: Some(d("9000")),
            date: Some(date("2026-02-28")),
            ..edit_of(id)
        },
    )
    .await
    .expect("edit");
    let edit_op = e.operation_id.expect("edit op");
    assert_eq!(e.transaction.operation_id, Some(edit_op));
    let u = undo(&l, &me, None).await.expect("undo the edit");
    assert_eq!(
        (u.operation_id, actions(&u)),
        (edit_op, vec![(id, UndoAction::Restored)])
    );
    let now = call!(l.get_transaction(&me, None, id)).expect("get").transaction;
    assert_eq!(
        (now.version, now.history.len()),
        (3, 2),
        "a new version; history kept"
    );
    assert_eq!(
        (now.date.to_string(), now.postings[0].amount.to_string()),
        ("2026-03-15".into(), "15000".into())
    );
    assert_eq!(now.operation_id, Some(rec_op));
    assert_eq!(book(&l, &me).await, recorded);

    clock.advance_seconds(60);
    let v = call!(l.void_transaction(&me, None, id, Some("잘못"))).expect("void");
    let void_op = v.operation_id.expect("void op");
    assert_eq!(book(&l, &me).await, before);
    let u = undo(&l, &me, None).await.expect("undo the void");
    assert_eq!(
        (u.operation_id, actions(&u)),
        (void_op, vec![(id, UndoAction::Unvoided)])
    );
    let now = get(&l, &me, id).await;
    assert_eq!(
        (now.voided, now.void_reason.clone(), now.operation_id),
        (false, None, Some(rec_op))
    );
    assert_eq!(book(&l, &me).await, recorded);
    // Voiding the entry brought back works as on any live entry.
    assert!(
        !call!(l.void_transaction(&me, None, id, None))
            .expect("void")
            .already_voided
    );
    let u = undo(&l, &me, None).await.expect("undo the second void");
    assert_eq!(actions(&u), vec![(id, UndoAction::Unvoided)]);

    // The recording itself, now that it shows again.
    let u = undo(&l, &me, Some(rec_op)).await.expect("undo the recording");
    assert_eq!(actions(&u), vec![(id, UndoAction::Voided)]);
    assert_eq!(book(&l, &me).await, before);
    let twice = undo(&l, &me, Some(edit_op)).await.expect("the edit again");
    assert!(twice.already_undone);
}

/// An operation whose entries changed since is refused whole, naming each entry and
/// what changed; once the later change is undone, it can be.
pub async fn undo_refused_after_a_later_change<S: Store>(store: S) {
    let (l, clock) = ledger_over(Arc::new(store));
    let me = fresh_person("undo-later");
    household(&l, &me).await;
    let before = book(&l, &me).await;
    let b = call!(l.record_transactions(&me, batch(lines("줄", 3), "three"))).expect("batch");
    let (op, ids) = (b.operation_id.expect("op"), ids_of(&b));
    clock.advance_seconds(60);
    let e = edit(
        &l,
        &me,
        TransactionEdit {
            memo: Some("고침".into()),
            ..edit_of(ids[1])
        },
    )
    .await
    .expect("edit");
    let later = e.operation_id.expect("edit op");
    let v = call!(l.void_transaction(&me, None, ids[2], None)).expect("void");
    let void_op = v.operation_id.expect("void op");
    let shown = book(&l, &me).await;
    let err = undo(&l, &me, Some(op)).await.unwrap_err();
    assert_eq!(err.kind(), dochiya_ledger::api::ErrorKind::Conflict);
    // Each entry in the way, in recording order (by id).
    let mut blocks = [
        (
            ids[1],
            Blocker::Edited {
                by: Some(later),
                version: 2,
            },
        ),
        (ids[2], Blocker::Voided { by: Some(void_op) }),
    ];
    blocks.sort_by_key(|b| b.0);
    assert!(
        matches!(&err, LedgerError::UndoBlocked { id, changes }
            if *id == op.to_string()
                && changes.iter().map(|c| (c.transaction_id, c.what.clone())).eq(blocks.clone())),
        "{err:?}"
    );
    assert_eq!(book(&l, &me).await, shown, "nothing changed");
    assert!(!get(&l, &me, ids[0]).await.voided);

    undo(&l, &me, Some(later)).await.expect("undo the edit");
    undo(&l, &me, Some(void_op)).await.expect("undo the void");
    let u = undo(&l, &me, Some(op)).await.expect("now the batch");
    assert_eq!(u.undone.len(), 3);
    assert_eq!(book(&l, &me).await, before);
}

/// A failure in the middle of a 100-entry undo (lost before or after the commit):
/// the retry takes back the rest, every entry exactly once; racing undos too.
pub async fn undo_retry_after_failure_in_the_middle<S: Store>(store: S) {
    let failing = Arc::new(FailingStore::new(store));
    let (l, clock) = ledger_over(failing.clone());
    let me = fresh_person("undo-fail");
    household(&l, &me).await;
    let before = book(&l, &me).await;
    for (round, how) in [InjectedFailure::Transient, InjectedFailure::TransientAfterApply]
        .into_iter()
        .enumerate()
    {
        clock.advance_seconds(1);
        let b =
            call!(l.record_transactions(&me, batch(lines(&format!("r{round}"), 100), &format!("f{round}"))))
                .expect("batch");
        let (op, ids) = (b.operation_id.expect("op"), ids_of(&b));
        clock.advance_seconds(1);
        failing.fail_nth_write(50, how);
        let e = l
            .undo(
                &me,
                UndoRequest {
                    operation_id: Some(op),
                    ..Default::default()
                },
            )
            .await
            .unwrap_err();
        assert!(matches!(e, LedgerError::Transient(_)), "{e:?}");
        let landed = if how == InjectedFailure::Transient { 49 } else { 50 };
        let all = all_transactions(&l, &me).await;
        let voided = all
            .iter()
            .filter(|t| ids.contains(&t.transaction_id) && t.voided)
            .count();
        assert_eq!(voided, landed, "{how:?}");
        let u = undo(&l, &me, Some(op)).await.expect("retry");
        assert_eq!((u.already_undone, u.undone.len()), (false, 100), "{how:?}");
        let all = all_transactions(&l, &me).await;
        for id in &ids {
            let t = all.iter().find(|t| t.transaction_id == *id).expect("listed");
            assert!(t.voided, "{id} voided ({how:?})");
        }
        assert_eq!(book(&l, &me).await, before, "{how:?}");
    }

    // Three undos of one batch at once: each entry is taken back once.
    clock.advance_seconds(1);
    let b = call!(l.record_transactions(&me, batch(lines("race", 20), "race"))).expect("batch");
    let op = b.operation_id.expect("op");
    let (a, b2, c) = tokio::join!(
        undo(&l, &me, Some(op)),
        undo(&l, &me, Some(op)),
        undo(&l, &me, Some(op))
    );
    for r in [a, b2, c] {
        assert_eq!(r.expect("undo").undone.len(), 20);
    }
    assert_eq!(book(&l, &me).await, before, "after the race");
}

/// Without an id, the caller's own latest operation; members undo their own, an
/// owner anyone's; unknown ids, another vault's, a transaction id instead: refused,
/// saying what to send, nothing changed.
pub async fn undo_without_an_id_and_who_may<S: Store>(store: S) {
    let (l, clock) = ledger_over(Arc::new(store));
    let owner = named_person("undo-owner", "지은");
    let member = named_person("undo-member", "준호");
    shared_household(&l, &owner, &member, Role::Member).await;
    // Nothing of the member's yet.
    let none = undo(&l, &member, None).await.unwrap_err();
    assert!(
        matches!(&none, LedgerError::NoOperation { vault } if vault == "가계부"),
        "{none:?}"
    );
    assert_eq!(none.kind(), dochiya_ledger::api::ErrorKind::NotFound);

    clock.advance_seconds(60);
    let mine = record(
        &l,
        &member,
        tx("현금", "식비", "4500", Some("2026-03-15"), "커피"),
    )
    .await;
    clock.advance_seconds(60);
    let theirs = record(&l, &owner, tx("현금", "쇼핑", "9000", Some("2026-03-15"), "양말")).await;
    let (mine_op, theirs_op) = (mine.operation_id.expect("op"), theirs.operation_id.expect("op"));
    // The member's default is the member's own latest, not the owner's later one.
    let u = undo(&l, &member, None).await.expect("own latest");
    assert_eq!(u.operation_id, mine_op);
    // A member may not undo the owner's.
    let shown = book(&l, &owner).await;
    let refused = undo(&l, &member, Some(theirs_op)).await.unwrap_err();
    assert!(
        matches!(&refused, LedgerError::UndoNotYours { id, by, vault }
            if *id == theirs_op.to_string() && by == "지은" && vault == "가계부"),
        "{refused:?}"
    );
    assert_eq!(book(&l, &owner).await, shown);
    // The owner may undo the member's (already undone: it says so) and a new one.
    clock.advance_seconds(60);
    let again = record(&l, &member, tx("현금", "식비", "5500", Some("2026-03-15"), "빵")).await;
    let u = undo(&l, &owner, again.operation_id)
        .await
        .expect("owner undoes the member's");
    assert!(!u.already_undone);
    assert!(
        undo(&l, &owner, Some(mine_op))
            .await
            .expect("twice")
            .already_undone
    );

    // An id no operation has; a transaction id in its place; another person's vault's.
    let unknown = OperationId::parse("4818349038087529260").expect("id");
    let e = undo(&l, &owner, Some(unknown)).await.unwrap_err();
    assert!(
        matches!(&e, LedgerError::UnknownOperation { id, vault, entry_operation: None }
            if id == "4818349038087529260" && vault == "가계부"),
        "{e:?}"
    );
    let tid = theirs.transaction.transaction_id;
    let as_op = OperationId::parse(&tid.to_string()).expect("id");
    let e = undo(&l, &owner, Some(as_op)).await.unwrap_err();
    assert!(
        matches!(&e, LedgerError::UnknownOperation { id, vault, entry_operation: Some(op) }
            if *id == tid.to_string() && vault == "가계부" && *op == theirs_op.to_string()),
        "{e:?}"
    );
    let stranger = fresh_person("undo-stranger");
    household(&l, &stranger).await;
    let e = undo(&l, &stranger, Some(theirs_op)).await.unwrap_err();
    assert_eq!(e.kind(), dochiya_ledger::api::ErrorKind::NotFound);
    assert_eq!(book(&l, &owner).await, shown, "nothing changed by any refusal");
}

/// A recurring posting is an operation of its own, nobody's: any member may undo it,
/// no one's default takes it, and the occurrence is not posted again.
pub async fn undo_of_a_recurring_posting<S: Store>(store: S) {
    let (l, clock) = ledger_over(Arc::new(store));
    let owner = named_person("undo-rc-owner", "지은");
    let member = named_person("undo-rc-member", "준호");
    shared_household(&l, &owner, &member, Role::Member).await;
    let before = book(&l, &owner).await;
    call!(l.set_recurring(
        &owner,
        RecurringInput {
            name: "구독".into(),
            from: Some("카카오뱅크".into()),
            to: Some("쇼핑".into()),
            amount: Some(d("9900")),
            day: Some(5),
            start: Some(date("2026-03-01")),
            ..Default::default()
        }
    ))
    .expect("set_recurring");
    let posted = |all: Vec<Transaction>| {
        all.into_iter()
            .filter(|t| t.recurring.as_deref() == Some("구독"))
            .collect::<Vec<_>>()
    };
    let first = posted(all_transactions(&l, &member).await);
    assert_eq!(first.len(), 1);
    let (id, op) = (
        first[0].transaction_id,
        first[0].operation_id.expect("a posting's operation"),
    );
    // Nobody's own latest.
    assert!(matches!(
        undo(&l, &member, None).await,
        Err(LedgerError::NoOperation { .. })
    ));
    let u = undo(&l, &member, Some(op))
        .await
        .expect("any member may undo a posting");
    assert_eq!(actions(&u), vec![(id, UndoAction::Voided)]);
    assert_eq!(book(&l, &owner).await, before);
    clock.advance_seconds(3600);
    let again = posted(all_transactions(&l, &owner).await);
    assert_eq!(
        again
            .iter()
            .map(|t| (t.transaction_id, t.voided))
            .collect::<Vec<_>>(),
        vec![(id, true)],
        "not posted again"
    );
}

/// The contract tests of this file, instantiated by [`crate::ledger_contract_tests!`]
/// for every store: a test is registered here, beside its code.
#[doc(hidden)]
#[macro_export]
macro_rules! __ledger_suite_undo {
    ($factory:expr) => {
        $crate::__ledger_contract_tests!(
            $factory;
            undo_of_a_batch_brings_every_total_back,
            undo_of_an_edit_and_of_a_void,
            undo_refused_after_a_later_change,
            undo_retry_after_failure_in_the_middle,
            undo_without_an_id_and_who_may,
            undo_of_a_recurring_posting,
        );
    };
}
