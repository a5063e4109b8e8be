//! The referee's console reports: `-output format=cutechess|fastchess`, `-scoreinterval`,
//! nElo beside Elo, SPRT models, and the per-engine fault lines (counted with mock-engine
//! faults).

mod referee_support;

use referee_support::*;

/// A match of two mock engines (depth 1, seed 5, short timeouts) with extra options.
fn mock_match(b_flags: &[&str], extra: &str) -> std::process::Output {
    let mut args = mock("A", 1, &[]);
    args.extend(mock("B", 2, b_flags));
    args.extend(words(
        "-each depth=1 -seed 5 -stall-timeout 300 -handshake-timeout 2000",
    ));
    args.extend(words(extra));
    referee(&args)
}

fn lines(output: &std::process::Output) -> Vec<String> {
    stdout(output).lines().map(str::to_string).collect()
}

#[test]
fn cutechess_layout_prints_cutechess_lines() {
    let output = mock_match(
        &[],
        "-rounds 2 -games 2 -output format=cutechess -ratinginterval 2 -sprt elo0=0 elo1=10 model=bayesian",
    );
    assert!(output.status.success(), "{}", stderr(&output));
    let lines = lines(&output);
    let count = |prefix: &str| lines.iter().filter(|l| l.starts_with(prefix)).count();
    assert_eq!(count("Started game "), 4);
    assert_eq!(count("Finished game "), 4);
    // The score line after every game (cutechess's -scoreinterval default 1).
    assert_eq!(count("Score of A vs B: "), 4);
    // The results block every 2 games.
    assert_eq!(count("...      A playing White: "), 2, "{lines:?}");
    assert_eq!(count("...      White vs Black: "), 2);
    assert_eq!(count("Elo difference: "), 2);
    assert_eq!(count("SPRT: llr "), 2);
    assert!(
        lines
            .iter()
            .any(|l| l.ends_with(", lbound -2.94, ubound 2.94")),
        "{lines:?}"
    );
    assert_eq!(lines.last().map(String::as_str), Some("Finished match"));
    // The score line's counts add up.
    let last = lines
        .iter()
        .rfind(|l| l.starts_with("Score of A vs B: "))
        .unwrap();
    let numbers: Vec<u64> = last["Score of A vs B: ".len()..]
        .split(|c: char| !c.is_ascii_digit())
        .filter(|t| !t.is_empty())
        .map(|t| t.parse().unwrap())
        .collect();
    assert_eq!(numbers[0] + numbers[1] + numbers[2], 4, "{last}");
    assert_eq!(*numbers.last().unwrap(), 4, "{last}");
}

#[test]
fn fastchess_layout_prints_fastchess_blocks() {
    let output = mock_match(
        &[],
        "-rounds 2 -games 2 -output format=fastchess -ratinginterval 4 -sprt elo0=0 elo1=10 model=logistic -each option.Hash=16",
    );
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    let lines = lines(&output);
    assert!(
        text.contains("Results of A vs B (depth=1, NULL, 16MB):"),
        "{text}"
    );
    for prefix in [
        "Elo: ",
        "LOS: ",
        "Games: 4, Wins: ",
        "Ptnml(0-2): [",
        "LLR: ",
    ] {
        assert_eq!(
            lines.iter().filter(|l| l.starts_with(prefix)).count(),
            1,
            "{prefix}: {text}"
        );
    }
    assert!(text.contains(", nElo: "), "{text}");
    assert!(text.contains(" (-2.94, 2.94) [0.00, 10.00]"), "{text}");
    assert_eq!(
        lines
            .iter()
            .filter(|l| l.as_str() == "-".repeat(50))
            .count(),
        2
    );
    assert!(!text.contains("Score of "), "{text}");
    assert_eq!(
        lines.last().map(String::as_str),
        Some("Tournament finished")
    );
}

#[test]
fn score_interval_prints_the_score_line() {
    let score_lines = |extra: &str| {
        let output = mock_match(
            &[],
            &format!("-rounds 2 -games 2 -ratinginterval 0 {extra}"),
        );
        assert!(output.status.success(), "{}", stderr(&output));
        lines(&output)
            .iter()
            .filter(|l| l.starts_with("Score of A vs B: "))
            .count()
    };
    // The final block has one; -scoreinterval 2 adds one every two games.
    assert_eq!(score_lines(""), 1);
    assert_eq!(score_lines("-scoreinterval 2"), 3);
    assert_eq!(score_lines("-scoreinterval 1"), 5);
    let output = mock_match(&[], "-output format=json");
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("invalid -output format \"json\""));
}

#[test]
fn referee_layout_has_nelo_and_sprt_models() {
    let output = mock_match(
        &[],
        "-rounds 2 -games 2 -sprt elo0=0 elo1=10 model=logistic",
    );
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    assert!(text.contains(", nElo: "), "{text}");
    assert!(text.contains("SPRT: llr "), "{text}");
    let output = mock_match(&[], "-sprt elo0=0 elo1=10 model=gaussian");
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("invalid sprt model \"gaussian\""),
        "{}",
        stderr(&output)
    );
}

/// The fault line of `name` in the output.
fn fault_line(output: &std::process::Output, name: &str) -> String {
    let prefix = format!("Faults of {name}: ");
    stdout(output)
        .lines()
        .rev()
        .find(|l| l.starts_with(&prefix))
        .unwrap_or_else(|| panic!("no fault line: {}", stdout(output)))
        .to_string()
}

#[test]
fn fault_lines_count_each_kind_of_fault() {
    // Illegal moves: every game B plays is lost by one.
    let output = mock_match(&["--behaviour=illegal", "--after=2"], "-rounds 2 -games 2");
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(
        fault_line(&output, "B"),
        "Faults of B: timeouts 0, crashes 0, illegal moves 4, disconnects 0, stalls 0"
    );
    assert_eq!(
        fault_line(&output, "A"),
        "Faults of A: timeouts 0, crashes 0, illegal moves 0, disconnects 0, stalls 0"
    );
    // Crashes (restarted with -recover), also in the other layouts.
    for layout in ["referee", "cutechess", "fastchess"] {
        let output = mock_match(
            &["--behaviour=crash", "--after=1"],
            &format!("-rounds 1 -games 2 -recover -output format={layout}"),
        );
        assert!(output.status.success(), "{}", stderr(&output));
        assert_eq!(
            fault_line(&output, "B"),
            "Faults of B: timeouts 0, crashes 2, illegal moves 0, disconnects 0, stalls 0",
            "{layout}"
        );
    }
    // A disconnect (`true` ends at once, with status 0), a stall and a time forfeit.
    let mut args = mock("A", 1, &[]);
    args.extend(words(
        "-engine cmd=true name=B -each depth=1 -rounds 1 -games 2 -recover",
    ));
    let output = referee(&args);
    assert!(
        fault_line(&output, "B").contains("crashes 0, illegal moves 0, disconnects 2,"),
        "{}",
        stdout(&output)
    );
    let output = mock_match(
        &["--behaviour=stall", "--after=1"],
        "-rounds 1 -games 2 -recover",
    );
    assert!(
        fault_line(&output, "B").ends_with("disconnects 0, stalls 2"),
        "{}",
        stdout(&output)
    );
    let output = mock_match(
        &["--behaviour=late", "--delay-ms=150"],
        "-rounds 1 -games 2 -each st=0.05 timemargin=0",
    );
    assert!(
        fault_line(&output, "B").starts_with("Faults of B: timeouts 2,"),
        "{}",
        stdout(&output)
    );
}
