//! Black-box tests of `referee check`: our engine passes every check in both dialects, a
//! well-behaved mock passes too, and each mock-engine fault is flagged by the right check with
//! the right reason (and the run exits non-zero).

use std::process::{Command, Output};

const REFEREE: &str = env!("CARGO_BIN_EXE_referee");
const MOCK: &str = env!("CARGO_BIN_EXE_mock-engine");
const ENGINE: &str = env!("CARGO_BIN_EXE_baghchal");

/// `referee check` on an engine spec, with the checker's own flags.
fn check(spec: &[String], flags: &[&str]) -> Output {
    let mut args = vec!["check".to_string(), "--engine".to_string()];
    args.extend(spec.iter().cloned());
    args.extend(flags.iter().map(|f| f.to_string()));
    Command::new(REFEREE)
        .args(&args)
        .output()
        .expect("the referee runs")
}

fn mock_spec(flags: &[&str]) -> Vec<String> {
    let mut spec = vec![format!("cmd={MOCK}"), "name=mock".to_string()];
    spec.extend(flags.iter().map(|f| format!("arg={f}")));
    spec
}

/// The `fail <name>: <reason>` lines of a run.
fn failures(output: &Output) -> Vec<(String, String)> {
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .filter_map(|line| line.strip_prefix("fail "))
        .filter_map(|rest| rest.split_once(": "))
        .map(|(name, reason)| (name.to_string(), reason.to_string()))
        .collect()
}

fn text(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).to_string()
}

/// Our engine: every check passes (a 200 ms margin for the loaded test machine's scheduling).
#[test]
fn our_engine_passes_every_check_in_both_dialects() {
    for dialect in ["uci", "ugi"] {
        let spec = vec![format!("cmd={ENGINE}"), "timemargin=200".to_string()];
        let output = check(&spec, &["--dialect", dialect]);
        let out = text(&output);
        assert!(output.status.success(), "{dialect}:\n{out}");
        assert!(failures(&output).is_empty(), "{out}");
        for name in [
            "handshake",
            "options",
            "position-long-game",
            "variant-forced-capture",
            "variant-captures-to-win",
            "variant-repetition-forbid",
            "variant-repetition-draw",
            "game-over",
            "go-clock-tigers",
            "go-infinite-stop",
            "go-ponder-hit",
            "bad-input",
            "quit",
        ] {
            assert!(out.contains(&format!("pass {name}\n")), "{name}:\n{out}");
        }
        assert_eq!(out.contains("pass query\n"), dialect == "ugi", "{out}");
        assert!(out.contains("stop latency: worst "), "{out}");
        assert!(out.contains("summary: "), "{out}");
    }
}

#[test]
fn a_well_behaved_mock_passes_and_options_reach_the_rules() {
    let output = check(&mock_spec(&[]), &["--dialect", "ugi"]);
    assert!(output.status.success(), "{}", text(&output));
    // The spec's rule options are sent, and the moves are judged under them.
    let mut spec = mock_spec(&["--behaviour=ignore-rules"]);
    spec.push("option.ForcedCapture=true".to_string());
    let output = check(&spec, &[]);
    // After c3 a1b2 b3 the tiger on b2 can capture: with ForcedCapture on, a step is illegal.
    let failed = failures(&output);
    assert!(
        failed
            .iter()
            .any(|(name, reason)| name == "position-placement"
                && reason.contains("illegal bestmove")
                && reason.contains("captures are forced")),
        "{}",
        text(&output)
    );
}

/// Each fault, the check that must flag it and a part of the reason.
const FAULTS: &[(&[&str], &[&str], &str, &str)] = &[
    (
        &["--behaviour=no-uciok"],
        &[],
        "handshake",
        "no uciok within 500 ms",
    ),
    (
        &["--behaviour=no-readyok"],
        &[],
        "handshake",
        "no readyok within 500 ms",
    ),
    (
        &["--behaviour=bad-option"],
        &[],
        "options",
        "spin option Hash: default 0 outside min 1 max 64",
    ),
    (
        &["--behaviour=stall"],
        &[],
        "position-startpos",
        "no bestmove within 500 ms",
    ),
    (
        &["--behaviour=crash"],
        &[],
        "position-startpos",
        "the engine crashed: exit status 1",
    ),
    (
        &["--behaviour=illegal"],
        &[],
        "position-startpos",
        "illegal bestmove",
    ),
    (
        &["--behaviour=malformed"],
        &[],
        "position-startpos",
        "bestmove \"xyz!\" is not a move",
    ),
    (
        &["--behaviour=garbage"],
        &[],
        "position-startpos",
        "info depth \"banana\" is not an integer",
    ),
    (
        &["--behaviour=extra-bestmove"],
        &[],
        "position-startpos",
        "unsolicited \"bestmove",
    ),
    (
        &["--behaviour=zero-bestmove"],
        &[],
        "position-startpos",
        "bestmove 0000 where the game goes on",
    ),
    (
        &["--behaviour=bad-info"],
        &[],
        "position-startpos",
        "info wdl sums to 1100, not 1000",
    ),
    (
        &["--behaviour=bad-pv"],
        &[],
        "position-startpos",
        "pv move 2 illegal",
    ),
    (
        &["--behaviour=bad-ponder"],
        &[],
        "position-startpos",
        "illegal ponder move",
    ),
    (
        &["--behaviour=ignore-rules"],
        &[],
        "variant-forced-capture",
        "illegal bestmove",
    ),
    (
        &["--behaviour=ignore-rules"],
        &[],
        "variant-repetition-forbid",
        "illegal bestmove",
    ),
    (
        &["--behaviour=late", "--delay-ms=300"],
        &[],
        "go-movetime-10",
        "no bestmove within 10 ms",
    ),
    (
        &["--behaviour=wrong-clock"],
        &[],
        "go-clock-goats",
        "no bestmove within 400 ms",
    ),
    (
        &["--behaviour=early-bestmove"],
        &[],
        "go-infinite-stop",
        "before stop: a go infinite search must wait",
    ),
    (
        &["--behaviour=early-bestmove"],
        &[],
        "go-ponder-hit",
        "before ponderhit",
    ),
    (
        &["--behaviour=busy-readyok"],
        &[],
        "go-infinite-stop",
        "isready during the search: no readyok within 300 ms",
    ),
    (
        &["--behaviour=slow-stop", "--delay-ms=1000"],
        &[],
        "go-infinite-stop",
        "after stop: no bestmove within 300 ms",
    ),
    (
        &["--behaviour=crash-on-bad-input"],
        &[],
        "bad-input",
        "after \"bogus-command\": the engine crashed: exit status 2",
    ),
    (
        &["--behaviour=wrong-query"],
        &["--dialect", "ugi"],
        "query",
        "expected \"response true\"",
    ),
    (
        &["--behaviour=ignore-quit"],
        &[],
        "quit",
        "still running 300 ms after quit",
    ),
];

#[test]
fn every_mock_fault_is_flagged_with_its_reason() {
    let outputs: Vec<Output> = std::thread::scope(|scope| {
        let runs: Vec<_> = FAULTS
            .iter()
            .map(|(mock_flags, flags, _, _)| {
                scope.spawn(move || {
                    let mut all = vec!["--timeout", "500", "--at-once", "300"];
                    all.extend_from_slice(flags);
                    check(&mock_spec(mock_flags), &all)
                })
            })
            .collect();
        runs.into_iter().map(|run| run.join().unwrap()).collect()
    });
    for ((mock_flags, _, name, reason), output) in FAULTS.iter().zip(&outputs) {
        let failed = failures(output);
        let found = failed.iter().find(|(n, _)| n == name);
        assert!(
            found.is_some_and(|(_, r)| r.contains(reason)),
            "{mock_flags:?}: expected \"fail {name}: ...{reason}...\"; got {failed:?}\n{}",
            text(output)
        );
        assert_eq!(output.status.code(), Some(1), "{mock_flags:?}");
    }
}

#[test]
fn a_failed_check_shows_the_lines_exchanged_and_a_dead_engine_is_restarted() {
    let output = check(&mock_spec(&["--behaviour=crash"]), &["--timeout", "500"]);
    let out = text(&output);
    let at = out.find("fail position-startpos:").expect("flagged");
    let after: Vec<&str> = out[at..].lines().skip(1).take(2).collect();
    assert_eq!(after[0], "    > position startpos", "{out}");
    assert_eq!(after[1], "    > go movetime 100", "{out}");
    assert!(
        out.contains("note: the engine is not running; restarting it"),
        "{out}"
    );
    assert!(out.contains("pass quit\n"), "{out}");
}

#[test]
fn a_bad_engine_spec_is_a_usage_error() {
    let output = check(&["cmd=".to_string(), "bogus".to_string()], &[]);
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("invalid engine setting \"bogus\""));
}
