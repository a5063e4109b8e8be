//! Black-box tests of `referee openings`, SPRT early stop and adjudication, with the mock
//! engine.

use baghchal::referee::books::{read_book, BookFormat};
use baghchal::referee::outcome::Termination;
use baghchal::referee::record::read_records;
use baghchal::Rules;
mod referee_support;

use referee_support::{referee, strings, MOCK};
use std::process::Output;

fn temp_file(name: &str) -> String {
    let path = std::env::temp_dir().join(format!(
        "referee-openings-test-{}-{name}",
        std::process::id()
    ));
    let _ = std::fs::remove_file(&path);
    path.to_str().unwrap().to_string()
}

#[test]
fn generated_openings_are_distinct_checked_and_reproducible() {
    let out = temp_file("checked.txt");
    let run = |score: &str, out: &str| {
        referee(&strings(&[
            "openings",
            "--engine",
            &format!("cmd={MOCK}"),
            &format!("arg=--score={score}"),
            "--count",
            "12",
            "--plies",
            "4",
            "--seed",
            "9",
            "--max-score",
            "50",
            "--out",
            out,
        ]))
    };
    let output = run("30", &out);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let openings = read_book(&out, Some(BookFormat::Epd), None, Rules::default()).unwrap();
    assert_eq!(openings.len(), 12);
    let mut finals: Vec<String> = openings
        .iter()
        .map(|o| o.game(Rules::default()).unwrap().position().to_string())
        .collect();
    finals.sort();
    finals.dedup();
    assert_eq!(finals.len(), 12);
    assert!(openings.iter().all(|o| o.moves.len() == 4));
    let again = temp_file("again.txt");
    assert!(run("30", &again).status.success());
    assert_eq!(
        std::fs::read_to_string(&out).unwrap(),
        std::fs::read_to_string(&again).unwrap()
    );
    // Every candidate scored beyond --max-score: nothing kept, a clear error.
    let output = run("300", &temp_file("none.txt"));
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("only 0 of 12 openings"));
}

fn mock_match(
    b_flags: &[&str],
    extra: &[&str],
) -> (Output, Vec<baghchal::referee::record::GameRecord>) {
    let openings = temp_file(&format!("openings-{}.txt", b_flags.join("")));
    let generated = referee(&strings(&[
        "openings",
        "--no-search",
        "--count",
        "60",
        "--plies",
        "5",
        "--seed",
        "3",
        "--out",
        &openings,
    ]));
    assert!(generated.status.success());
    let json = temp_file(&format!(
        "match-{}-{}.jsonl",
        b_flags.join(""),
        extra.join("")
    ));
    let mut args = strings(&[
        "-engine",
        &format!("cmd={MOCK}"),
        "name=A",
        "arg=--seed=1",
        "-engine",
        &format!("cmd={MOCK}"),
        "name=B",
        "arg=--seed=2",
    ]);
    args.extend(b_flags.iter().map(|f| format!("arg={f}")));
    args.extend(strings(&[
        "-each",
        "depth=1",
        "-seed",
        "1",
        "-ratinginterval",
        "0",
        "-jsonout",
        &json,
    ]));
    args.extend(strings(&[
        "-openings",
        &format!("file={openings}"),
        "order=random",
    ]));
    args.extend(strings(extra));
    let output = referee(&args);
    let records = read_records(&json).unwrap_or_default();
    (output, records)
}

#[test]
fn sprt_stops_the_match_once_decided() {
    let (output, records) = mock_match(
        &["--behaviour=crash", "--after=20"],
        &["-recover", "-rounds", "200", "-sprt", "elo0=0", "elo1=20"],
    );
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(text.contains("H1 was accepted"), "{text}");
    assert!(
        records.len() < 400 && records.len() % 2 == 0,
        "{}",
        records.len()
    );
    let last_sprt = text.lines().rfind(|l| l.starts_with("SPRT:")).unwrap();
    assert!(last_sprt.contains("ubound 2.94"), "{last_sprt}");
}

#[test]
fn adjudication_rules_end_games() {
    let (_, records) = mock_match(&["--score=-600"], &["-resign", "movecount=3", "score=500"]);
    assert_eq!(records.len(), 2);
    for record in &records {
        assert_eq!(record.termination, Termination::Adjudication);
        assert_eq!(record.points_of("A"), Some(1.0), "{}", record.reason);
    }
    let (_, records) = mock_match(&[], &["-maxplies", "9"]);
    assert!(records
        .iter()
        .all(|r| r.termination == Termination::Adjudication && r.moves.len() == 9));
    // -wait: two games on one worker take at least the pause between them.
    let started = std::time::Instant::now();
    let (output, records) = mock_match(&[], &["-maxplies", "4", "-rounds", "1", "-wait", "700"]);
    assert!(output.status.success());
    assert!(records.len() >= 2);
    assert!(started.elapsed() >= std::time::Duration::from_millis(700));
    // Full moves: a goat's and a tiger's move each.
    let (_, records) = mock_match(&[], &["-maxmoves", "5"]);
    assert!(records
        .iter()
        .all(|r| r.termination == Termination::Adjudication && r.moves.len() == 10));
    let (output, _) = mock_match(&[], &["-maxmoves", "5", "-maxplies", "9"]);
    assert!(!output.status.success(), "-maxmoves and -maxplies conflict");
    let (_, records) = mock_match(&[], &["-draw", "movenumber=12", "movecount=2", "score=0"]);
    assert!(records
        .iter()
        .all(|r| r.reason.starts_with("Draw by adjudication: scores") && r.moves.len() == 12));
}
