//! Text forms: position strings (cases in `tests/data/positions.txt`), move text, rules text.
//! Good text round-trips through `FromStr`/`Display`; bad text gives an error that says what is
//! wrong, and no text makes a parser panic.

mod common;

use baghchal::{Move, Position, Repetition, Rules, Square, START_POSITION};
use common::every_geometric_move;
use rand::rngs::StdRng;
use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};

#[test]
fn position_cases_from_data_file() {
    let mut checked = 0;
    for (number, line) in include_str!("data/positions.txt").lines().enumerate() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.split(" | ").collect();
        assert_eq!(fields.len(), 3, "positions.txt line {}", number + 1);
        let text = if fields[1].trim() == "(empty)" {
            ""
        } else {
            fields[1]
        };
        let expected = fields[2].trim();
        match (fields[0].trim(), text.parse::<Position>()) {
            ("ok", Ok(position)) => {
                assert_eq!(position.to_string(), expected, "line {}", number + 1);
                assert_eq!(
                    expected.parse::<Position>(),
                    Ok(position),
                    "line {}",
                    number + 1
                );
                assert_eq!(
                    position.hash(),
                    position.hash_from_scratch(),
                    "line {}",
                    number + 1
                );
            }
            ("err", Err(error)) => {
                let message = error.to_string();
                assert!(
                    message.contains(expected),
                    "line {}: {message:?} lacks {expected:?}",
                    number + 1
                );
                assert!(
                    message.starts_with("invalid position: "),
                    "line {}: {message}",
                    number + 1
                );
            }
            (kind, result) => panic!("line {}: expected {kind}, got {result:?}", number + 1),
        }
        checked += 1;
    }
    assert!(checked >= 40, "only {checked} cases");
}

#[test]
fn move_numbers_are_read() {
    let (position, number) = Position::parse_with_move_number("T3T/5/5/5/T3T g 20 0 57").unwrap();
    assert_eq!((position, number), (Position::startpos(), 57));
    let (_, number) = Position::parse_with_move_number(START_POSITION).unwrap();
    assert_eq!(number, 1);
}

#[test]
fn good_move_text() {
    let cases = [
        ("c3", "c3"),
        ("C3", "c3"),
        ("a1", "a1"),
        ("e5", "e5"),
        ("e1d2", "e1d2"),
        ("E1D2", "e1d2"),
        ("e1c3", "e1c3"),
        ("a1a3", "a1a3"),
        ("b2c2", "b2c2"),
        ("c5a3", "c5a3"),
        ("b1d1", "b1d1"),
    ];
    for (text, canonical) in cases {
        let mv: Move = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(mv.to_string(), canonical);
    }
    assert!(matches!("e1c3".parse(), Ok(Move::Jump { .. })));
    assert!(matches!("e1d2".parse(), Ok(Move::Step { .. })));
    assert!(matches!("c3".parse(), Ok(Move::Place { .. })));
}

#[test]
fn bad_move_text_names_the_token() {
    let cases = [
        ("", "expected a point"),
        ("c", "expected a point"),
        ("c3d", "expected a point"),
        ("a1b1c1", "expected a point"),
        (" c3", "expected a point"),
        ("é1", "expected a point"),
        ("f1", "invalid square \"f1\""),
        ("a0", "invalid square \"a0\""),
        ("a6", "invalid square \"a6\""),
        ("a1z9", "invalid square \"z9\""),
        ("a1a4", "not one or two steps apart along a line"),
        ("b1c2", "not one or two steps apart along a line"),
        ("b1d3", "not one or two steps apart along a line"),
        ("a1a1", "not one or two steps apart along a line"),
        ("a1c2", "not one or two steps apart along a line"),
    ];
    for (text, fragment) in cases {
        let message = text.parse::<Move>().unwrap_err().to_string();
        assert!(
            message.contains(&format!("invalid move \"{text}\"")),
            "{text}: {message}"
        );
        assert!(message.contains(fragment), "{text}: {message}");
    }
}

#[test]
fn every_square_and_move_round_trips() {
    for square in Square::all() {
        assert_eq!(square.to_string().parse::<Square>(), Ok(square));
    }
    let moves = every_geometric_move();
    // 25 placements, 2 x 56 steps along the 56 line segments, and the jumps.
    let steps = moves
        .iter()
        .filter(|mv| matches!(mv, Move::Step { .. }))
        .count();
    assert_eq!(steps, 112);
    for mv in moves {
        assert_eq!(mv.to_string().parse::<Move>(), Ok(mv));
        assert_eq!(mv.to_string().to_uppercase().parse::<Move>(), Ok(mv));
    }
}

#[test]
fn rules_text_round_trips_and_rejects() {
    for rules in common::rule_variants() {
        assert_eq!(rules.to_string().parse::<Rules>(), Ok(rules));
    }
    assert_eq!(
        Rules::default().to_string(),
        "ForcedCapture=false CapturesToWin=5 Repetition=forbid"
    );
    assert_eq!("".parse::<Rules>(), Ok(Rules::default()));
    let cases = [
        ("CapturesToWin=0", "captures to win 0"),
        ("CapturesToWin=21", "captures to win 21"),
        ("CapturesToWin=-1", "\"-1\""),
        ("ForcedCapture=yes", "\"yes\""),
        ("Repetition=maybe", "\"maybe\""),
        ("Colour=red", "\"Colour\""),
        ("ForcedCapture", "\"ForcedCapture\""),
    ];
    for (text, fragment) in cases {
        let message = text.parse::<Rules>().unwrap_err().to_string();
        assert!(message.contains(fragment), "{text}: {message}");
    }
    assert_eq!("draw".parse::<Repetition>(), Ok(Repetition::Draw));
    assert!("sometimes"
        .parse::<Repetition>()
        .unwrap_err()
        .to_string()
        .contains("\"sometimes\""));
}

/// Random edits of good text: parsers return errors, never panic, and whatever parses prints
/// back to text that parses to the same thing.
#[test]
fn mangled_text_never_panics() {
    let seed = 77;
    let mut rng = StdRng::seed_from_u64(seed);
    let alphabet: Vec<char> = "TGtg012345679/ -+xé\t".chars().collect();
    let samples = [
        START_POSITION,
        "T1G1T/1G3/2GT1/1G1G1/T4 g 14 1 9",
        "GGTGG/GG1GG/T1G1T/GG1GG/GGTG1 t 0 4",
    ];
    let mut parsed = 0;
    for round in 0..20_000 {
        let mut chars: Vec<char> = samples.choose(&mut rng).unwrap().chars().collect();
        for _ in 0..rng.random_range(1..4) {
            let at = rng.random_range(0..=chars.len());
            match rng.random_range(0..3) {
                0 if at < chars.len() => {
                    chars.remove(at);
                }
                1 if at < chars.len() => chars[at] = *alphabet.choose(&mut rng).unwrap(),
                _ => chars.insert(at, *alphabet.choose(&mut rng).unwrap()),
            }
        }
        let text: String = chars.into_iter().collect();
        let result = std::panic::catch_unwind(|| text.parse::<Position>());
        let result =
            result.unwrap_or_else(|_| panic!("seed {seed} round {round}: panic on {text:?}"));
        match result {
            Ok(position) => {
                parsed += 1;
                assert_eq!(
                    position.to_string().parse::<Position>(),
                    Ok(position),
                    "{text:?}"
                );
            }
            Err(error) => assert!(!error.to_string().is_empty()),
        }
    }
    assert!(parsed > 100, "only {parsed} mangled strings parsed");

    let move_alphabet: Vec<char> = "abcdefz0123456 é".chars().collect();
    for _ in 0..20_000 {
        let length = rng.random_range(0..6);
        let text: String = (0..length)
            .map(|_| *move_alphabet.choose(&mut rng).unwrap())
            .collect();
        if let Ok(mv) = text.parse::<Move>() {
            assert_eq!(mv.to_string(), text.to_lowercase());
        }
    }
}
