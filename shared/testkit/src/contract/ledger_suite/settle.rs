//! Contract tests of two people keeping one book (decision 060): owners, `for`, shares,
//! settle-up and each member's spending, every figure worked out by hand beside it.

use super::*;

/// (name, putIn, share, net) of each line, as strings.
fn lines(s: &Settlement) -> Vec<(String, String, String, String)> {
    s.members
        .iter()
        .map(|m| {
            (
                m.name.clone(),
                m.put_in.to_string(),
                m.share.to_string(),
                m.net.to_string(),
            )
        })
        .collect()
}

fn line(name: &str, put_in: &str, share: &str, net: &str) -> (String, String, String, String) {
    (name.into(), put_in.into(), share.into(), net.into())
}

fn transfers(s: &Settlement) -> Vec<(String, String, String)> {
    s.transfers
        .iter()
        .map(|t| (t.from.clone(), t.to.clone(), t.amount.to_string()))
        .collect()
}

async fn settle(l: &Ledger, who: &PersonId, from: Option<&str>, to: Option<&str>) -> Settlement {
    call!(l.settle_up(
        who,
        SettleRequest {
            vault: None,
            from: from.map(date),
            to: to.map(date),
        }
    ))
    .expect("settle_up")
}

async fn owned(l: &Ledger, who: &PersonId, name: &str, kind: AccountKind, owner: Option<&str>) {
    call!(l.create_account(
        who,
        NewAccount {
            vault: None,
            name: name.into(),
            kind,
            opening_balance: None,
            opening_date: None,
            parent: None,
            billing: None,
            owner: owner.map(str::to_owned),
        }
    ))
    .expect("create_account");
}

fn for_(t: NewTransaction, whom: &str) -> NewTransaction {
    NewTransaction {
        for_whom: Some(whom.into()),
        ..t
    }
}

/// 지훈 (the owner) and 하은 in one vault: a joint account, each one's own account or
/// card, shared categories and 하은's 용돈.
async fn couple(l: &Ledger, clock: &ManualClock) -> (PersonId, PersonId) {
    let jihun = named_person("settle-jihun", "지훈");
    let haeun = named_person("settle-haeun", "하은");
    vault(l, &jihun, "우리집").await;
    let code = call!(l.share_vault(&jihun, None, Role::Member))
        .expect("share")
        .invite_code;
    clock.advance_seconds(60);
    call!(l.join_vault(&haeun, &code, None)).expect("join");
    // An opening balance is outside settle-up.
    account(l, &jihun, "공동통장", AccountKind::Asset, Some("100000")).await;
    owned(l, &jihun, "국민은행", AccountKind::Asset, Some("지훈")).await;
    owned(l, &jihun, "하은통장", AccountKind::Asset, Some("하은")).await;
    owned(l, &jihun, "신한카드", AccountKind::Liability, Some("하은")).await;
    owned(l, &jihun, "월급", AccountKind::Income, Some("지훈")).await;
    owned(l, &jihun, "용돈", AccountKind::Expense, Some("하은")).await;
    account(l, &jihun, "식비", AccountKind::Expense, None).await;
    account(l, &jihun, "이자", AccountKind::Income, None).await;
    (jihun, haeun)
}

/// Contributions to a joint account, its spending and a card of one's own: 지훈 moves
/// 600,000 in, the joint account pays 100,000 of groceries, 하은's card 50,000. Used:
/// 600,000 − 100,000 + 100,000 + 50,000 = 650,000, 325,000 each; 지훈 put in 600,000
/// (net +275,000), 하은 50,000 (net −275,000); 하은 pays 지훈 275,000. The opening
/// balance of the joint account counts nowhere.
pub async fn a_joint_account_and_own_cards_settle_by_halves<S: Store>(store: S) {
    let (l, clock) = ledger_over(Arc::new(store));
    let (jihun, haeun) = couple(&l, &clock).await;
    record(
        &l,
        &jihun,
        tx("국민은행", "공동통장", "600000", Some("2026-03-02"), "생활비"),
    )
    .await;
    record(
        &l,
        &haeun,
        tx("공동통장", "식비", "100000", Some("2026-03-03"), "장보기"),
    )
    .await;
    record(
        &l,
        &haeun,
        tx("신한카드", "식비", "50000", Some("2026-03-04"), "마트"),
    )
    .await;
    let s = settle(&l, &haeun, None, None).await;
    assert_eq!((s.from, s.to), (date("2026-03-02"), date("2026-03-15")));
    assert_eq!(
        lines(&s),
        vec![
            line("지훈", "600000", "325000", "275000"),
            line("하은", "50000", "325000", "-275000"),
        ]
    );
    assert_eq!(
        transfers(&s),
        vec![("하은".into(), "지훈".into(), "275000".into())]
    );

    // Each member's spending: the shared 150,000 halved.
    let report = call!(l.spending_report(
        &jihun,
        ReportRequest {
            vault: None,
            from: date("2026-03-01"),
            to: date("2026-03-31"),
            by: ReportBy::Member,
            kind: FlowKind::Expense,
            tag: None,
        }
    ))
    .expect("report");
    let rows: Vec<(Option<String>, String)> = report
        .rows
        .iter()
        .map(|r| (r.member.clone(), r.amount.to_string()))
        .collect();
    assert_eq!(
        rows,
        vec![
            (Some("지훈".into()), "75000".into()),
            (Some("하은".into()), "75000".into())
        ]
    );
    assert_eq!(report.total.to_string(), "150000");

    // A settlement between their own accounts brings both nets to zero; its undo brings them back.
    let paid = record(
        &l,
        &haeun,
        tx("하은통장", "국민은행", "275000", Some("2026-03-05"), "정산"),
    )
    .await;
    let s = settle(&l, &haeun, None, None).await;
    assert_eq!(
        lines(&s),
        vec![
            line("지훈", "325000", "325000", "0"),
            line("하은", "325000", "325000", "0"),
        ]
    );
    assert!(s.transfers.is_empty(), "{:?}", s.transfers);
    call!(l.undo(
        &haeun,
        UndoRequest {
            vault: None,
            operation_id: paid.operation_id,
            dry_run: false,
        }
    ))
    .expect("undo");
    let s = settle(&l, &haeun, None, None).await;
    assert_eq!(
        transfers(&s),
        vec![("하은".into(), "지훈".into(), "275000".into())]
    );
}

/// Spending for one person: the joint account paying 하은's 30,000 taxi (`for`) is
/// taken out by her; 지훈's account paying her 식비 20,000 (`for`) is put in by him and
/// taken out by her; 하은's card paying her own 용돈 counts nowhere; the joint account
/// paying 용돈 is taken out by her; her card paying 용돈 `for: "shared"` is shared.
pub async fn spending_for_one_person_and_personal_categories<S: Store>(store: S) {
    let (l, clock) = ledger_over(Arc::new(store));
    let (jihun, haeun) = couple(&l, &clock).await;
    record(
        &l,
        &jihun,
        tx("국민은행", "공동통장", "400000", Some("2026-03-02"), "생활비"),
    )
    .await;
    // Pool −30,000 / 하은 takes out 30,000.
    record(
        &l,
        &haeun,
        for_(
            tx("공동통장", "식비", "30000", Some("2026-03-03"), "택시 대신 밥"),
            "하은",
        ),
    )
    .await;
    // 지훈 puts in 20,000, 하은 takes out 20,000.
    record(
        &l,
        &jihun,
        for_(
            tx("국민은행", "식비", "20000", Some("2026-03-04"), "하은 점심"),
            "하은",
        ),
    )
    .await;
    // 하은 to 하은: nothing.
    record(
        &l,
        &haeun,
        tx("신한카드", "용돈", "15000", Some("2026-03-05"), "화장품"),
    )
    .await;
    // Pool −10,000 / 하은 takes out 10,000.
    record(
        &l,
        &haeun,
        tx("공동통장", "용돈", "10000", Some("2026-03-06"), "책"),
    )
    .await;
    // 하은 puts in 8,000 / pool +8,000.
    record(
        &l,
        &haeun,
        for_(
            tx("신한카드", "용돈", "8000", Some("2026-03-07"), "같이 쓸 우산"),
            "shared",
        ),
    )
    .await;
    // Used: 400,000 − 30,000 − 10,000 + 8,000 = 368,000, 184,000 each.
    // 지훈: 400,000 + 20,000 = 420,000 → +236,000. 하은: −30,000 − 20,000 − 10,000 + 8,000 = −52,000 → −236,000.
    let s = settle(&l, &haeun, Some("2026-03-01"), Some("2026-03-31")).await;
    assert_eq!(
        lines(&s),
        vec![
            line("지훈", "420000", "184000", "236000"),
            line("하은", "-52000", "184000", "-236000"),
        ]
    );
    assert_eq!(
        transfers(&s),
        vec![("하은".into(), "지훈".into(), "236000".into())]
    );
    // The entries show whose they were.
    let listed = call!(l.list_transactions(&haeun, TransactionQuery::default())).expect("list");
    let fors: Vec<Option<&str>> = listed
        .transactions
        .iter()
        // Leave out the contribution and the opening balance (dated today).
        .filter(|t| t.memo != "생활비" && t.date < date("2026-03-15"))
        .map(|t| t.for_whom.as_deref())
        .collect();
    assert_eq!(fors, vec![Some("shared"), None, None, Some("하은"), Some("하은")]);

    // An edit takes `for` away again ("" : by its category, shared): 하은 no longer takes out 30,000.
    let taxi = listed
        .transactions
        .iter()
        .find(|t| t.memo == "택시 대신 밥")
        .expect("taxi");
    call!(l.edit_transaction(
        &haeun,
        TransactionEdit {
            vault: None,
            transaction_id: taxi.transaction_id,
            idempotency_key: key(),
            expected_version: None,
            amount: None,
            date: None,
            memo: None,
            from: None,
            to: None,
            lines: None,
            future_date: false,
            dry_run: false,
            tags: None,
            for_whom: Some(String::new()),
        }
    ))
    .expect("edit");
    // Used 398,000 → 199,000 each; 하은 −22,000 → −221,000; 지훈 420,000 → +221,000.
    let s = settle(&l, &haeun, Some("2026-03-01"), Some("2026-03-31")).await;
    assert_eq!(
        lines(&s),
        vec![
            line("지훈", "420000", "199000", "221000"),
            line("하은", "-22000", "199000", "-221000"),
        ]
    );
    // Undoing the edit brings its `for` back with the rest.
    call!(l.undo(&haeun, UndoRequest::default())).expect("undo the edit");
    let s = settle(&l, &haeun, Some("2026-03-01"), Some("2026-03-31")).await;
    assert_eq!(
        transfers(&s),
        vec![("하은".into(), "지훈".into(), "236000".into())]
    );
    let taxi = call!(l.get_transaction(&haeun, None, taxi.transaction_id)).expect("get");
    assert_eq!(taxi.transaction.for_whom.as_deref(), Some("하은"));
}

/// Someone who left and came back counts only in the months they were in, every time:
/// 하은 is in for March (joined) and April (left), out in May, back in June, and leaves
/// again in July. March: her card 10,000 shared 1:1; May: 지훈's 30,000 is his alone;
/// June: 지훈's 20,000 shared 1:1. 지훈 puts in 50,000 and bears 5,000 + 30,000 + 10,000
/// = 45,000 (+5,000); 하은 puts in 10,000 and bears 15,000 (−5,000).
pub async fn a_member_who_left_and_came_back_counts_in_each_time_in<S: Store>(store: S) {
    let (l, clock) = ledger_over(Arc::new(store));
    let (jihun, haeun) = couple(&l, &clock).await;
    let day = 86_400;
    let rejoin = |l: &Ledger| {
        let (l, jihun, haeun) = (l.clone(), jihun.clone(), haeun.clone());
        async move {
            let code = call!(l.share_vault(&jihun, None, Role::Member))
                .expect("share")
                .invite_code;
            call!(l.join_vault(&haeun, &code, None)).expect("join again");
        }
    };
    record(
        &l,
        &haeun,
        tx("신한카드", "식비", "10000", Some("2026-03-10"), "3월"),
    )
    .await;
    clock.advance_seconds(31 * day); // 2026-04-15
    call!(l.leave_vault(&haeun, None)).expect("leave in April");
    clock.advance_seconds(30 * day); // 2026-05-15
    record(
        &l,
        &jihun,
        tx("국민은행", "식비", "30000", Some("2026-05-10"), "5월"),
    )
    .await;
    clock.advance_seconds(31 * day); // 2026-06-15
    rejoin(&l).await;
    record(
        &l,
        &jihun,
        tx("국민은행", "식비", "20000", Some("2026-06-15"), "6월"),
    )
    .await;
    let want = vec![
        line("지훈", "50000", "45000", "5000"),
        line("하은", "10000", "15000", "-5000"),
    ];
    let s = settle(&l, &jihun, Some("2026-03-01"), Some("2026-06-30")).await;
    assert_eq!(lines(&s), want);
    clock.advance_seconds(30 * day); // 2026-07-15
    call!(l.leave_vault(&haeun, None)).expect("leave again");
    let s = settle(&l, &jihun, Some("2026-03-01"), Some("2026-06-30")).await;
    assert_eq!(lines(&s), want);
}

/// Unequal shares with a remainder, shares by month and membership by month: 6:4 set
/// in March applies from March 1; in February only 지훈 was in the vault (하은 joined in
/// March), so he bears February alone. Shared income (이자, nobody's) is put in by the shares.
pub async fn unequal_shares_apply_from_their_month_with_the_remainder_to_the_largest<S: Store>(store: S) {
    let (l, clock) = ledger_over(Arc::new(store));
    let (jihun, haeun) = couple(&l, &clock).await;
    record(
        &l,
        &jihun,
        tx("국민은행", "식비", "10001", Some("2026-02-20"), "2월 장보기"),
    )
    .await;
    let set = call!(l.update_vault(
        &jihun,
        VaultUpdate {
            vault: None,
            new_name: None,
            shares: Some(vec![("지훈".into(), 6), ("하은".into(), 4)]),
        }
    ))
    .expect("shares");
    assert!(set.changed);
    let weights: Vec<(String, u64)> = set.shares.iter().map(|s| (s.member.clone(), s.weight)).collect();
    assert_eq!(weights, vec![("지훈".into(), 6), ("하은".into(), 4)]);
    // March: 하은's card pays 10,001; interest of 1,001 lands in the joint account.
    record(
        &l,
        &haeun,
        tx("신한카드", "식비", "10001", Some("2026-03-03"), "3월 장보기"),
    )
    .await;
    record(
        &l,
        &jihun,
        tx("이자", "공동통장", "1001", Some("2026-03-04"), "이자"),
    )
    .await;
    // February, weights 1:0: 지훈 puts in 10,001 and bears 10,001.
    // March, 6:4: used 10,001 + 1,001 = 11,002 → 6,601.2 and 4,400.8, toward zero 6,601 +
    // 4,400 = 11,001, the 1 left to the largest share: 지훈 6,602, 하은 4,400. The interest
    // 1,001 is put in 6:4 → 600.6 and 400.4 → 600 + 400, the 1 left to 지훈: 601 / 400.
    // 지훈: put in 10,001 + 601 = 10,602; share 10,001 + 6,602 = 16,603; net −6,001.
    // 하은: put in 10,001 + 400 = 10,401; share 4,400; net +6,001.
    let s = settle(&l, &haeun, None, None).await;
    assert_eq!(
        lines(&s),
        vec![
            line("지훈", "10602", "16603", "-6001"),
            line("하은", "10401", "4400", "6001"),
        ]
    );
    assert_eq!(transfers(&s), vec![("지훈".into(), "하은".into(), "6001".into())]);
    // March alone: the same nets (February settled itself).
    let march = settle(&l, &haeun, Some("2026-03-01"), None).await;
    assert_eq!(
        lines(&march),
        vec![
            line("지훈", "601", "6602", "-6001"),
            line("하은", "10401", "4400", "6001"),
        ]
    );
    // The same shares again write nothing.
    let again = call!(l.update_vault(
        &jihun,
        VaultUpdate {
            vault: None,
            new_name: None,
            shares: Some(vec![("하은".into(), 4)]),
        }
    ))
    .expect("same shares");
    assert!(!again.changed);
}

/// Bad input is refused naming the members or the rule, and nothing is stored: an owner
/// or `for` naming no member, `for` on a transfer, shares naming no member, negative,
/// twice or all zero, and shares set by a member who is not an owner.
pub async fn bad_owners_fors_and_shares_are_refused_and_change_nothing<S: Store>(store: S) {
    let (l, clock) = ledger_over(Arc::new(store));
    let (jihun, haeun) = couple(&l, &clock).await;
    record(
        &l,
        &jihun,
        tx("국민은행", "식비", "10000", Some("2026-03-02"), "장보기"),
    )
    .await;
    let before = settle(&l, &jihun, None, None).await;

    let e = call!(l.set_account_owner(&jihun, None, "식비", "민수")).unwrap_err();
    assert!(
        matches!(&e, LedgerError::NotFound { what: Entity::Member, candidates, .. }
            if candidates == &vec!["지훈".to_string(), "하은".to_string()]),
        "{e:?}"
    );
    let e = call!(l.record_transaction(&jihun, for_(tx("국민은행", "식비", "1", None, "x"), "민수")))
        .unwrap_err();
    assert!(
        matches!(
            &e,
            LedgerError::NotFound {
                what: Entity::Member,
                ..
            }
        ),
        "{e:?}"
    );
    let e = call!(l.record_transaction(&jihun, for_(tx("국민은행", "공동통장", "1", None, "x"), "하은")))
        .unwrap_err();
    assert!(
        matches!(
            &e,
            LedgerError::InvalidInput {
                field: Field::Household("for"),
                reason: Reason::ForWithoutExpense
            }
        ),
        "{e:?}"
    );
    let shares = |list: Vec<(&str, i64)>| VaultUpdate {
        vault: None,
        new_name: None,
        shares: Some(list.into_iter().map(|(n, w)| (n.to_string(), w)).collect()),
    };
    let e = call!(l.update_vault(&jihun, shares(vec![("민수", 1)]))).unwrap_err();
    assert!(
        matches!(
            &e,
            LedgerError::NotFound {
                what: Entity::Member,
                ..
            }
        ),
        "{e:?}"
    );
    for (list, message) in [
        (
            vec![("하은", -1)],
            Reason::WeightOutOfRange {
                member: "하은".into(),
                max: 1_000_000,
                got: -1,
            },
        ),
        (vec![("하은", 0), ("지훈", 0)], Reason::AllWeightsZero),
        (
            vec![("하은", 1), ("하은", 2)],
            Reason::MemberTwice {
                member: "하은".into(),
            },
        ),
        (vec![], Reason::NoShares),
    ] {
        let e = call!(l.update_vault(&jihun, shares(list.clone()))).unwrap_err();
        assert!(
            matches!(&e, LedgerError::InvalidInput { field: Field::Household("shares"), reason } if *reason == message),
            "{e:?}"
        );
    }
    let e = call!(l.update_vault(&haeun, shares(vec![("하은", 9)]))).unwrap_err();
    assert!(
        matches!(
            &e,
            LedgerError::NeedsOwner {
                action: OwnerAction::SetShares,
                ..
            }
        ),
        "{e:?}"
    );
    let e = call!(l.set_account_owner(&haeun, None, "식비", "하은")).unwrap_err();
    assert!(
        matches!(
            &e,
            LedgerError::NeedsOwner {
                action: OwnerAction::AssignOwners,
                ..
            }
        ),
        "{e:?}"
    );
    assert_eq!(settle(&l, &jihun, None, None).await, before);
    let listed = call!(l.list_accounts(&jihun, None, false)).expect("accounts");
    let owners: Vec<(String, Option<String>)> = listed
        .accounts
        .iter()
        .filter(|a| a.owner.is_some())
        .map(|a| (a.name.clone(), a.owner.clone()))
        .collect();
    assert_eq!(
        owners,
        vec![
            ("국민은행".into(), Some("지훈".into())),
            ("하은통장".into(), Some("하은".into())),
            ("신한카드".into(), Some("하은".into())),
            ("월급".into(), Some("지훈".into())),
            ("용돈".into(), Some("하은".into())),
        ]
    );
    // "" makes an account the household's again.
    let set = call!(l.set_account_owner(&jihun, None, "용돈", "")).expect("clear");
    assert_eq!((set.owner, set.changed), (None, true));
}

/// A removed member keeps their history: settle-up over March still shows 하은, and her
/// card's spending still counts as hers.
pub async fn a_removed_member_stays_in_the_settle_up_of_their_time<S: Store>(store: S) {
    let (l, clock) = ledger_over(Arc::new(store));
    let (jihun, haeun) = couple(&l, &clock).await;
    record(
        &l,
        &haeun,
        tx("신한카드", "식비", "40000", Some("2026-03-03"), "장보기"),
    )
    .await;
    call!(l.remove_member(&jihun, None, "하은")).expect("remove");
    let s = settle(&l, &jihun, Some("2026-03-01"), Some("2026-03-15")).await;
    assert_eq!(
        lines(&s),
        vec![
            line("지훈", "0", "20000", "-20000"),
            line("하은", "40000", "20000", "20000"),
        ]
    );
    assert_eq!(
        transfers(&s),
        vec![("지훈".into(), "하은".into(), "20000".into())]
    );
    // update_vault shows only who is in now.
    let v = call!(l.update_vault(
        &jihun,
        VaultUpdate {
            vault: None,
            new_name: Some("우리집".into()),
            shares: None,
        }
    ))
    .expect("update");
    let weights: Vec<(String, u64)> = v.shares.iter().map(|s| (s.member.clone(), s.weight)).collect();
    assert_eq!((weights, v.changed), (vec![("지훈".into(), 1)], false));
}

/// Months before this one are read from rollups (decision 062) and must settle as the
/// entries do: an entry `for` 하은 moved by an edit from December to January, a voided
/// one, an opening balance in February (that month is read entry by entry), and a
/// period cut in the middle of January. 하은 joined in March, so 지훈 alone bears the
/// earlier months. Entries: Dec 10 지훈's bank → joint 300,000; Jan 5 하은's card → 식비
/// 60,000; (Dec 20 → Jan 20) joint → 식비 100,000 for 하은; Jan 7 joint → 식비 40,000
/// (voided); Feb 1 적금 opens with 500,000; Feb 3 joint → 식비 30,000 for 지훈.
/// All time: 지훈 puts in 300,000 − 30,000 = 270,000, 하은 −100,000 + 60,000 = −40,000;
/// used 300,000 − 40,000 − 30,000 = 230,000, all 지훈's: nets +40,000 / −40,000.
/// From Jan 6: 지훈 −30,000, 하은 −100,000; used −130,000, 지훈's: +100,000 / −100,000.
pub async fn months_read_from_rollups_settle_as_their_entries_do<S: Store>(store: S) {
    let (l, clock) = ledger_over(Arc::new(store));
    let (jihun, haeun) = couple(&l, &clock).await;
    record(
        &l,
        &jihun,
        tx("국민은행", "공동통장", "300000", Some("2025-12-10"), "생활비"),
    )
    .await;
    let for_her = record(
        &l,
        &jihun,
        for_(tx("공동통장", "식비", "100000", Some("2025-12-20"), "옷"), "하은"),
    )
    .await;
    record(
        &l,
        &haeun,
        tx("신한카드", "식비", "60000", Some("2026-01-05"), "마트"),
    )
    .await;
    let voided = record(
        &l,
        &haeun,
        for_(
            tx("공동통장", "식비", "40000", Some("2026-01-07"), "외식"),
            "shared",
        ),
    )
    .await;
    call!(l.void_transaction(&haeun, None, voided.transaction.transaction_id, None)).expect("void");
    call!(l.create_account(
        &jihun,
        NewAccount {
            vault: None,
            name: "적금".into(),
            kind: AccountKind::Asset,
            opening_balance: Some(d("500000")),
            opening_date: Some(date("2026-02-01")),
            parent: None,
            billing: None,
            owner: None,
        }
    ))
    .expect("create_account");
    record(
        &l,
        &jihun,
        for_(
            tx("공동통장", "식비", "30000", Some("2026-02-03"), "점심"),
            "지훈",
        ),
    )
    .await;
    call!(l.edit_transaction(
        &jihun,
        TransactionEdit {
            vault: None,
            transaction_id: for_her.transaction.transaction_id,
            idempotency_key: key(),
            expected_version: None,
            amount: None,
            date: Some(date("2026-01-20")),
            memo: None,
            from: None,
            to: None,
            lines: None,
            future_date: false,
            dry_run: false,
            tags: None,
            for_whom: None,
        }
    ))
    .expect("edit");
    let s = settle(&l, &haeun, None, None).await;
    assert_eq!((s.from, s.to), (date("2025-12-10"), date("2026-03-15")));
    assert_eq!(
        lines(&s),
        vec![
            line("지훈", "270000", "230000", "40000"),
            line("하은", "-40000", "0", "-40000"),
        ]
    );
    assert_eq!(
        transfers(&s),
        vec![("하은".into(), "지훈".into(), "40000".into())]
    );
    let s = settle(&l, &haeun, Some("2026-01-06"), None).await;
    assert_eq!(
        lines(&s),
        vec![
            line("지훈", "-30000", "-130000", "100000"),
            line("하은", "-100000", "0", "-100000"),
        ]
    );

    // Spending by member, December to February: 하은's 100,000, 지훈's 30,000 and the
    // shared 60,000 of January, which only 지훈 bore.
    let report = call!(l.spending_report(
        &jihun,
        ReportRequest {
            vault: None,
            from: date("2025-12-01"),
            to: date("2026-02-28"),
            by: ReportBy::Member,
            kind: FlowKind::Expense,
            tag: None,
        }
    ))
    .expect("report");
    let rows: Vec<(Option<String>, String)> = report
        .rows
        .iter()
        .map(|r| (r.member.clone(), r.amount.to_string()))
        .collect();
    assert_eq!(
        rows,
        vec![
            (Some("지훈".into()), "90000".into()),
            (Some("하은".into()), "100000".into())
        ]
    );
}

/// The contract tests of this file, instantiated by [`crate::ledger_contract_tests!`]
/// for every store: a test is registered here, beside its code.
#[doc(hidden)]
#[macro_export]
macro_rules! __ledger_suite_settle {
    ($factory:expr) => {
        $crate::__ledger_contract_tests!(
            $factory;
            a_joint_account_and_own_cards_settle_by_halves,
            spending_for_one_person_and_personal_categories,
            unequal_shares_apply_from_their_month_with_the_remainder_to_the_largest,
            bad_owners_fors_and_shares_are_refused_and_change_nothing,
            a_removed_member_stays_in_the_settle_up_of_their_time,
            a_member_who_left_and_came_back_counts_in_each_time_in,
            months_read_from_rollups_settle_as_their_entries_do,
        );
    };
}
