//! Black-box tests of `baghchal perft`: output format, options, and errors on bad arguments.

use std::process::{Command, Output};

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_baghchal"))
        .args(args)
        .output()
        .expect("the baghchal binary runs")
}

/// Checks the output format and returns the per-move lines and the total.
fn parse_perft_output(output: &Output) -> (Vec<(String, u64)>, u64) {
    let stdout = String::from_utf8(output.stdout.clone()).expect("utf-8 output");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "exit {:?}, stderr {stderr}",
        output.status
    );
    let lines: Vec<&str> = stdout.lines().filter(|line| !line.is_empty()).collect();
    let (last, move_lines) = lines.split_last().expect("some output");
    let total: u64 = last
        .strip_prefix("Nodes searched: ")
        .unwrap_or_else(|| panic!("last line {last:?}"))
        .parse()
        .expect("a count");
    let mut moves = Vec::new();
    for line in move_lines {
        let (text, count) = line
            .split_once(": ")
            .unwrap_or_else(|| panic!("line {line:?}"));
        let mv: baghchal::Move = text
            .parse()
            .unwrap_or_else(|e| panic!("line {line:?}: {e}"));
        assert_eq!(mv.to_string(), text, "moves print in canonical form");
        moves.push((text.to_string(), count.parse().expect("a count")));
    }
    if !moves.is_empty() {
        assert_eq!(
            moves.iter().map(|(_, count)| count).sum::<u64>(),
            total,
            "{stdout}"
        );
    }
    (moves, total)
}

fn fails_with(args: &[&str], fragment: &str) {
    let output = run(args);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success(), "{args:?} succeeded");
    assert!(
        stderr.contains(fragment),
        "{args:?}: stderr {stderr:?} lacks {fragment:?}"
    );
    assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    assert!(output.stdout.is_empty(), "{args:?}: results on stdout");
}

#[test]
fn start_position_divide() {
    let (moves, total) = parse_perft_output(&run(&["perft", "3"]));
    assert_eq!(total, 5052);
    assert_eq!(moves.len(), 21);
    let (moves, total) = parse_perft_output(&run(&["perft", "1"]));
    assert_eq!((moves.len(), total), (21, 21));
    assert!(moves.iter().all(|(_, count)| *count == 1));
    let (moves, total) = parse_perft_output(&run(&["perft", "0"]));
    assert_eq!((moves.len(), total), (0, 1));
}

#[test]
fn rule_flags_position_and_moves() {
    let (_, total) = parse_perft_output(&run(&["perft", "4", "--forced-capture"]));
    assert_eq!(total, 14_612);
    let (_, total) = parse_perft_output(&run(&["perft", "4", "--captures-to-win", "1"]));
    assert_eq!(total, 64_464);
    let position = "GGTGG/GG1GG/T1G1T/GG1GG/GGTG1 g 0 4";
    // Repetition acts in the movement phase only (the whole state is compared).
    let (_, total) = parse_perft_output(&run(&[
        "perft",
        "5",
        "--position",
        position,
        "--repetition",
        "draw",
    ]));
    assert_eq!(total, 80_974);
    let (_, total) = parse_perft_output(&run(&["perft", "5", "--position", position]));
    assert_eq!(total, 80_220);
    let (moves, total) = parse_perft_output(&run(&["perft", "3", "--position", position]));
    assert_eq!((moves.len(), total), (15, 1_050));
    let (_, total) = parse_perft_output(&run(&[
        "perft",
        "3",
        "--position",
        position,
        "--forced-capture",
    ]));
    assert_eq!(total, 234);
    let (_, total) = parse_perft_output(&run(&[
        "perft",
        "3",
        "--position",
        position,
        "--captures-to-win",
        "4",
    ]));
    assert_eq!(total, 0);

    // The moves become history: the forbid rule removes b1a1, the draw rule ends the game.
    let movement = "T3T/1GGG1/1G1G1/1GGG1/T3T g 0 12";
    let args = [
        "perft",
        "2",
        "--position",
        movement,
        "--captures-to-win",
        "20",
        "--moves",
        "b4a4",
        "a1b1",
        "a4b4",
    ];
    let (moves, total) = parse_perft_output(&run(&args));
    assert_eq!(total, 248);
    assert!(!moves.iter().any(|(text, _)| text == "b1a1"), "{moves:?}");
    let args = [
        "perft",
        "3",
        "--repetition",
        "draw",
        "--captures-to-win",
        "20",
        "--position",
        movement,
        "--moves",
        "b4a4",
        "a1b1",
        "a4b4",
        "b1a1",
    ];
    let (moves, total) = parse_perft_output(&run(&args));
    assert_eq!((moves.len(), total), (0, 0));
}

#[test]
fn bad_arguments_fail_cleanly() {
    fails_with(
        &["perft", "3", "--position", "T3T/5/5/5/T3X g 20 0"],
        "\"X\"",
    );
    fails_with(
        &["perft", "3", "--position", "T3T/5/5/5/T3T g 19 0"],
        "expected 20",
    );
    fails_with(&["perft", "3", "--position", "nonsense"], "1 fields");
    fails_with(&["perft", "3", "--moves", "z9"], "\"z9\"");
    fails_with(&["perft", "3", "--moves", "a1a4"], "\"a1a4\"");
    fails_with(
        &["perft", "3", "--moves", "c3", "a1b1", "c3"],
        "c3 is not empty",
    );
    fails_with(&["perft", "3", "--moves", "c3", "c3"], "tigers to move");
    fails_with(&["perft", "3", "--moves", "a1b1"], "illegal move \"a1b1\"");
    fails_with(&["perft", "3", "--captures-to-win", "0"], "0");
    fails_with(&["perft", "3", "--captures-to-win", "21"], "21");
    fails_with(&["perft", "3", "--repetition", "maybe"], "maybe");
    fails_with(&["perft", "three"], "three");
    fails_with(&["perft", "-1"], "-1");
    fails_with(&["perft"], "DEPTH");
    fails_with(&["perft", "3", "--no-such-flag"], "--no-such-flag");
}
