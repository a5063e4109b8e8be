//! The match log (`-log file=F level=L`) and `-show-latency`.

mod referee_support;

use referee_support::*;

/// Whether `line` is `YYYY-MM-DDTHH:MM:SS.mmmZ rest`; returns `rest`.
fn after_timestamp(line: &str) -> Option<&str> {
    let (stamp, rest) = line.split_once(' ')?;
    let bytes = stamp.as_bytes();
    let digits =
        |range: std::ops::Range<usize>| range.into_iter().all(|i| bytes[i].is_ascii_digit());
    let shaped = bytes.len() == 24
        && digits(0..4)
        && bytes[4] == b'-'
        && bytes[10] == b'T'
        && bytes[19] == b'.'
        && digits(20..23)
        && bytes[23] == b'Z';
    shaped.then_some(rest)
}

#[test]
fn the_log_has_every_engine_line_timestamped() {
    let dir = temp_dir("log");
    let log = path(&dir, "match.log");
    let mut args = mock("A", 1, &[]);
    args.extend(mock("B", 2, &["--behaviour=crash", "--after=2"]));
    args.extend(words(&format!(
        "-each depth=1 -seed 5 -rounds 1 -games 2 -recover -log file={log} level=info"
    )));
    let output = referee(&args);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = std::fs::read_to_string(&log).unwrap();
    let bodies: Vec<&str> = text
        .lines()
        .map(|line| after_timestamp(line).unwrap_or_else(|| panic!("no timestamp: {line}")))
        .collect();
    for expected in [
        "A < uci",
        "A > uciok",
        "B < uci",
        "A < isready",
        "A > readyok",
    ] {
        assert!(bodies.contains(&expected), "{expected} missing:\n{text}");
    }
    let count = |prefix: &str| bodies.iter().filter(|b| b.starts_with(prefix)).count();
    // Every move the games record was asked with a go and answered with a bestmove.
    assert!(
        count("A < go ") >= 2 && count("A > bestmove ") == count("A < go "),
        "{text}"
    );
    assert!(
        count("B < go ") > count("B > bestmove "),
        "the crashes: {text}"
    );
    // The referee's own message about the restart, at level info.
    assert!(
        bodies
            .iter()
            .any(|b| b.starts_with("INFO referee: B: unusable after game")),
        "{text}"
    );
    // At level error that message is not copied (the engine lines still are).
    let quiet = path(&dir, "quiet.log");
    let mut args = mock("A", 1, &[]);
    args.extend(mock("B", 2, &["--behaviour=crash", "--after=2"]));
    args.extend(words(&format!(
        "-each depth=1 -seed 5 -rounds 1 -games 2 -recover -log file={quiet} level=error"
    )));
    assert!(referee(&args).status.success());
    let text = std::fs::read_to_string(&quiet).unwrap();
    assert!(
        text.contains(" A < uci\n") && !text.contains("INFO referee:"),
        "{text}"
    );
}

#[test]
fn bad_log_settings_are_clear_errors() {
    let dir = temp_dir("badlog");
    for (log, needle) in [
        (
            format!("file={} level=loud", path(&dir, "a.log")),
            "invalid -log level \"loud\"",
        ),
        ("level=info".to_string(), "-log needs file=FILE"),
        (
            format!("file={}", path(&dir, "missing-dir/a.log")),
            "cannot open the log file",
        ),
    ] {
        let mut args = mock("A", 1, &[]);
        args.extend(mock("B", 2, &[]));
        args.extend(words(&format!("-each depth=1 -log {log}")));
        let output = referee(&args);
        assert_eq!(output.status.code(), Some(2), "{log}");
        assert!(stderr(&output).contains(needle), "{}", stderr(&output));
    }
}

#[test]
fn show_latency_prints_per_game_and_summary_lines() {
    // Our engine reports its thinking time; the mock does not.
    let mut args = engine("ours", "depth=2");
    args.extend(mock("M", 2, &[]));
    args.extend(words(
        "-each depth=2 -seed 5 -rounds 1 -games 2 -maxplies 30 -show-latency",
    ));
    let output = referee(&args);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    let lines: Vec<&str> = text.lines().collect();
    for game in [1, 2] {
        let ours = format!("Latency of ours in game {game}: ");
        let line = lines
            .iter()
            .find(|l| l.starts_with(&ours))
            .unwrap_or_else(|| panic!("{text}"));
        assert!(
            line.contains(" moves, mean ") && line.contains(" ms, max "),
            "{line}"
        );
        let mock_line = format!("Latency of M in game {game}: no reported think times (");
        assert!(lines.iter().any(|l| l.starts_with(&mock_line)), "{text}");
    }
    let summary = lines
        .iter()
        .find(|l| l.starts_with("Latency of ours: "))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(summary.contains(" moves, mean "), "{summary}");
    // Without the flag, no latency lines.
    let mut args = engine("ours", "depth=2");
    args.extend(mock("M", 2, &[]));
    args.extend(words(
        "-each depth=2 -seed 5 -rounds 1 -games 2 -maxplies 30",
    ));
    let output = referee(&args);
    assert!(!stdout(&output).contains("Latency of"));
}
