//! Every text parser of the domain under arbitrary input (issue 51): it never panics,
//! it either parses or refuses with a sentence, and what it writes reads back the same.

use proptest::prelude::*;

use super::*;

/// Text as a model or a person might send it: any characters, or near-misses of the
/// formats (digits, signs, separators, spaces, Hangul, currency marks, invisible ones).
fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<String>(),
        "[0-9 ,.+\\-eE₩$원만천]{0,24}",
        "[0-9]{1,4}-[0-9]{1,2}(-[0-9]{1,3})?",
        "[가-힣a-zA-Z0-9 \u{200b}\u{202e}\t#:()-]{0,80}",
        "[A-Za-z0-9 -]{0,40}",
    ]
}

/// A refusal says something a model can act on.
fn refused(e: &ParseError) -> bool {
    !e.message().trim().is_empty()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn amounts_parse_or_refuse_with_a_sentence(t in text()) {
        match Decimal::parse(&t) {
            Ok(d) => {
                for c in ["KRW", "USD", "JPY"] {
                    let currency = Currency::parse(c).expect("a currency");
                    if let Err(e) = Money::from_decimal(d, currency) {
                        prop_assert!(refused(&e));
                    }
                }
            }
            Err(e) => prop_assert!(refused(&e)),
        }
        if let Err(e) = Decimal::from_json_text(&t) {
            prop_assert!(refused(&e));
        }
    }

    #[test]
    fn amounts_round_trip_through_their_text(minor in -MAX_AMOUNT_MINOR..=MAX_AMOUNT_MINOR, code in prop::sample::select(vec!["KRW", "USD", "KWD"])) {
        let currency = Currency::parse(code).expect("a currency");
        let money = Money::from_minor(minor, currency);
        let text = money.to_string();
        let back = Money::from_decimal(Decimal::parse(&text).expect("its own text parses"), currency)
            .expect("its own text converts");
        prop_assert_eq!(back, money);
    }

    #[test]
    fn dates_and_months_parse_or_refuse(t in text()) {
        match LocalDate::parse(&t) {
            Ok(d) => prop_assert_eq!(LocalDate::parse(&d.to_string()), Ok(d)),
            Err(e) => prop_assert!(refused(&e)),
        }
        match YearMonth::parse(&t) {
            Ok(m) => prop_assert_eq!(YearMonth::parse(&m.to_string()), Ok(m)),
            Err(e) => prop_assert!(refused(&e)),
        }
        if let Err(e) = VaultZone::parse(&t) {
            prop_assert!(refused(&e));
        }
        if let Err(e) = Currency::parse(&t) {
            prop_assert!(refused(&e));
        }
    }

    #[test]
    fn real_dates_round_trip(y in 1900_i16..=2999, m in 1_i16..=12, d in 1_i16..=31) {
        if let Some(date) = LocalDate::from_ymd(y, m, d) {
            let text = date.to_string();
            prop_assert_eq!(text.len(), 10);
            prop_assert_eq!(LocalDate::parse(&text), Ok(date));
            prop_assert_eq!(YearMonth::parse(&text).map(|x| x.to_string()), Ok(text[..7].to_string()));
        }
    }

    #[test]
    fn names_and_tags_parse_or_refuse_and_fold_stably(t in text()) {
        match Name::parse(&t) {
            Ok(n) => {
                prop_assert!(n.display().chars().count() <= MAX_NAME_CHARS);
                let again = Name::parse(n.display()).expect("a name's display is a name");
                prop_assert_eq!(again.key(), n.key());
            }
            Err(e) => prop_assert!(refused(&e)),
        }
        match parse_tags(&[t.clone(), "여행".into()]) {
            Ok(tags) => prop_assert!(!tags.is_empty() && tags.len() <= limits::MAX_TAGS),
            Err(e) => prop_assert!(refused(&e)),
        }
        if let Err(e) = AccountKind::parse(&t) {
            prop_assert!(refused(&e));
        }
    }

    #[test]
    fn invite_codes_parse_as_typed_and_round_trip(t in text(), seed in any::<u64>()) {
        // Any text: a code or nothing, never a panic.
        let _ = InviteCode::parse(&t);
        let code = InviteCode::generate(&SeededEntropy::new(seed));
        let shown = code.display();
        prop_assert_eq!(InviteCode::parse(&shown).map(|c| c.hash()), Some(code.hash()));
        let typed = shown.to_lowercase().replace('-', " ");
        prop_assert_eq!(InviteCode::parse(&typed).map(|c| c.hash()), Some(code.hash()));
    }

    #[test]
    fn ids_parse_or_refuse_and_round_trip(t in text(), id in (TWO_POW_53 + 1)..=u64::MAX) {
        if let Err(e) = TransactionId::parse(&t) {
            prop_assert!(refused(&e));
        }
        let text = id.to_string();
        prop_assert_eq!(TransactionId::parse(&text).map(|i| i.to_string()), Ok(text));
    }
}
