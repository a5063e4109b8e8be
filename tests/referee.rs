//! Black-box tests of the referee binary against the mock engine: faults give the right
//! terminations and exit codes, `--recover` goes on, no process is left behind, records
//! round-trip, resume and shards + merge reproduce one run, concurrency does not change results.

use baghchal::referee::outcome::Termination;
use baghchal::referee::record::{read_records, GameRecord};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const REFEREE: &str = env!("CARGO_BIN_EXE_referee");
const MOCK: &str = env!("CARGO_BIN_EXE_mock-engine");

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("referee-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn referee(args: &[&str]) -> Output {
    Command::new(REFEREE)
        .args(args)
        .output()
        .expect("the referee runs")
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).to_string()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).to_string()
}

/// `-engine` arguments for a mock engine with this name, seed and extra mock flags.
fn mock(name: &str, seed: u64, flags: &[&str]) -> Vec<String> {
    let mut args = vec![
        "-engine".to_string(),
        format!("cmd={MOCK}"),
        format!("name={name}"),
        format!("arg=--seed={seed}"),
    ];
    args.extend(flags.iter().map(|flag| format!("arg={flag}")));
    args
}

/// A two-engine match of mock engines; returns the output and the JSON records.
fn play(dir: &Path, tag: &str, b_flags: &[&str], extra: &[&str]) -> (Output, Vec<GameRecord>) {
    let json = dir.join(format!("{tag}.jsonl"));
    let mut args = mock("A", 1, &[]);
    args.extend(mock("B", 2, b_flags));
    args.extend(
        [
            "-each",
            "depth=1",
            "-seed",
            "5",
            "-stall-timeout",
            "300",
            "-handshake-timeout",
            "300",
            "-jsonout",
            json.to_str().unwrap(),
        ]
        .iter()
        .map(|s| s.to_string()),
    );
    args.extend(extra.iter().map(|s| s.to_string()));
    let arg_refs: Vec<&str> = args.iter().map(String::as_str).collect();
    let output = referee(&arg_refs);
    let records = if json.exists() {
        read_records(json.to_str().unwrap()).unwrap()
    } else {
        Vec::new()
    };
    (output, records)
}

/// The records without thinking times, which differ from run to run.
fn without_times(records: &[GameRecord]) -> Vec<GameRecord> {
    let mut records = records.to_vec();
    for record in &mut records {
        for played in &mut record.moves {
            played.time_ms = None;
        }
    }
    records
}

#[cfg(target_os = "linux")]
fn processes_with(tag: &str) -> usize {
    std::fs::read_dir("/proc")
        .unwrap()
        .filter_map(|entry| std::fs::read(entry.ok()?.path().join("cmdline")).ok())
        .filter(|cmdline| String::from_utf8_lossy(cmdline).contains(tag))
        .count()
}

#[test]
fn each_misbehaviour_gives_its_termination_and_stops_without_recover() {
    let dir = temp_dir("faults");
    for (flags, termination, needle) in [
        (
            &["--behaviour=crash", "--after=2"][..],
            Termination::Disconnect,
            "disconnect",
        ),
        (
            &["--behaviour=exit-on-go"][..],
            Termination::Disconnect,
            "disconnect",
        ),
        (
            &["--behaviour=stall", "--after=1"][..],
            Termination::Stall,
            "no bestmove within 3",
        ),
        (
            &["--behaviour=no-uciok"][..],
            Termination::Stall,
            "no uciok within 3",
        ),
        (
            &["--behaviour=illegal", "--after=3"][..],
            Termination::IllegalMove,
            "only goats are placed",
        ),
        (
            &["--behaviour=malformed", "--after=1"][..],
            Termination::IllegalMove,
            "malformed move \"xyz!\"",
        ),
    ] {
        let (output, records) = play(&dir, "fault", flags, &["-rounds", "2"]);
        assert_eq!(
            output.status.code(),
            Some(3),
            "{flags:?}: {}",
            stderr(&output)
        );
        assert!(
            stderr(&output).contains("engine \"B\""),
            "{}",
            stderr(&output)
        );
        assert_eq!(
            records.len(),
            1,
            "{flags:?}: the run stops after the faulty game"
        );
        let record = &records[0];
        assert_eq!(
            record.termination, termination,
            "{flags:?}: {}",
            record.reason
        );
        assert!(
            record.reason.starts_with("Tigers lose: "),
            "{}",
            record.reason
        );
        assert!(
            record.reason.contains(needle),
            "{flags:?}: {}",
            record.reason
        );
        std::fs::remove_file(dir.join("fault.jsonl")).unwrap();
    }
}

#[test]
fn late_answers_lose_on_time_and_recover_goes_on() {
    let dir = temp_dir("recover");
    let (output, records) = play(
        &dir,
        "late",
        &["--behaviour=late", "--delay-ms=150"],
        &["-each", "tc=0.1+0", "-recover", "-rounds", "2"],
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(records.len(), 4);
    for record in &records {
        assert_eq!(
            record.termination,
            Termination::TimeForfeit,
            "{}",
            record.reason
        );
        assert_eq!(record.points_of("A"), Some(1.0));
    }
    let (output, records) = play(
        &dir,
        "crash",
        &["--behaviour=crash", "--after=1"],
        &["-recover", "-rounds", "3"],
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(records.len(), 6);
    assert!(records
        .iter()
        .all(|r| r.termination == Termination::Disconnect));
    let text = stdout(&output);
    assert!(
        text.contains("Finished game 6 (B vs A): 0-1 {Goats lose: disconnect"),
        "{text}"
    );
    assert!(
        text.contains("Score of A vs B: 6 - 0 - 0  [1.000] 6"),
        "{text}"
    );
}

#[test]
fn garbage_lines_are_ignored_and_games_finish_normally() {
    let dir = temp_dir("garbage");
    let (output, records) = play(
        &dir,
        "garbage",
        &["--behaviour=garbage"],
        &[
            "-rounds",
            "2",
            "-pgnout",
            dir.join("g.pgn").to_str().unwrap(),
        ],
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(records.len(), 4);
    assert!(records.iter().all(|r| r.termination == Termination::Normal));
    let pgn = read_records(dir.join("g.pgn").to_str().unwrap()).unwrap();
    assert_eq!(pgn.len(), 4);
    for (from_pgn, from_json) in pgn.iter().zip(&records) {
        assert_eq!(
            from_pgn.moves.iter().map(|m| m.mv).collect::<Vec<_>>(),
            from_json.moves.iter().map(|m| m.mv).collect::<Vec<_>>()
        );
        assert_eq!(
            (from_pgn.result, &from_pgn.reason),
            (from_json.result, &from_json.reason)
        );
        assert!(from_pgn
            .moves
            .iter()
            .all(|m| m.time_ms.is_some() && m.depth == Some(1)));
    }
}

#[test]
fn results_do_not_depend_on_concurrency() {
    let dir = temp_dir("concurrency");
    let (one, serial) = play(&dir, "one", &[], &["-rounds", "4"]);
    let (three, parallel) = play(&dir, "three", &[], &["-rounds", "4", "-concurrency", "3"]);
    assert_eq!(without_times(&serial), without_times(&parallel));
    assert_eq!(serial.len(), 8);
    let finished = |output: &Output| -> Vec<String> {
        stdout(output)
            .lines()
            .filter(|l| !l.starts_with("Started"))
            .map(str::to_string)
            .collect()
    };
    assert_eq!(finished(&one), finished(&three));
}

#[test]
fn shards_and_merge_equal_one_run_and_resume_completes_a_run() {
    let dir = temp_dir("shards");
    let (_, whole) = play(&dir, "whole", &[], &["-rounds", "5"]);
    let (_, first) = play(&dir, "s1", &[], &["-rounds", "5", "-shard", "1/2"]);
    let (_, second) = play(&dir, "s2", &[], &["-rounds", "5", "-shard", "2/2"]);
    assert_eq!(first.len() + second.len(), whole.len());
    let merge = |files: &[&str]| -> String {
        let paths: Vec<String> = files
            .iter()
            .map(|f| dir.join(f).to_str().unwrap().to_string())
            .collect();
        let mut args = vec!["merge"];
        args.extend(paths.iter().map(String::as_str));
        let output = referee(&args);
        assert!(output.status.success(), "{}", stderr(&output));
        stdout(&output)
    };
    assert_eq!(merge(&["s2.jsonl", "s1.jsonl"]), merge(&["whole.jsonl"]));
    assert!(merge(&["whole.jsonl"]).contains("Ptnml(0-2): ["));
    // Resume: keep the first three games, then finish the match.
    let text = std::fs::read_to_string(dir.join("whole.jsonl")).unwrap();
    let mut head: String = text.lines().take(3).map(|l| format!("{l}\n")).collect();
    // A run killed while writing leaves half a line: resuming drops it.
    head.push_str(&text.lines().nth(3).unwrap()[..30]);
    std::fs::write(dir.join("resumed.jsonl"), head).unwrap();
    let (output, resumed) = play(&dir, "resumed", &[], &["-rounds", "5", "-resume"]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(
        !stdout(&output).contains("Started game 3 of"),
        "{}",
        stdout(&output)
    );
    assert_eq!(without_times(&resumed), without_times(&whole));
    // Records of another schedule (other openings) are refused.
    let openings = dir.join("openings.txt");
    std::fs::write(&openings, "moves c3 a1b2\nmoves b3 e5d4\n").unwrap();
    let (output, _) = play(
        &dir,
        "resumed",
        &[],
        &[
            "-rounds",
            "5",
            "-resume",
            "-openings",
            openings.to_str().unwrap(),
        ],
    );
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("not part of this match's schedule"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn bad_command_lines_fail_before_anything_starts() {
    let dir = temp_dir("bad");
    let openings = dir.join("openings.txt");
    std::fs::write(&openings, "moves c3\nmoves c3 a1a3\n").unwrap();
    for (args, needle) in [
        (
            vec![
                "-engine",
                "cmd=/nonexistent/x",
                "depth=1",
                "-engine",
                "cmd=/nonexistent/y",
                "depth=1",
            ],
            "not found",
        ),
        (
            vec![
                "-engine",
                &format!("cmd={MOCK}"),
                "-engine",
                &format!("cmd={MOCK}"),
                "depth=1",
            ],
            "no limit",
        ),
        (
            vec![
                "-engine",
                &format!("cmd={MOCK}"),
                "depth=1",
                "bogus=2",
                "-engine",
                &format!("cmd={MOCK}"),
            ],
            "\"bogus\"",
        ),
        (
            vec![
                "-engine",
                &format!("cmd={MOCK}"),
                "depth=1",
                "name=X",
                "-engine",
                &format!("cmd={MOCK}"),
                "depth=1",
                "-openings",
                openings.to_str().unwrap(),
            ],
            "line 2",
        ),
        (
            vec![
                "-engine",
                &format!("cmd={MOCK}"),
                "depth=1",
                "name=X",
                "-engine",
                &format!("cmd={MOCK}"),
                "depth=1",
                "-sprt",
                "elo0=1",
            ],
            "elo1",
        ),
        (
            vec![
                "-engine",
                &format!("cmd={MOCK}"),
                "depth=1",
                "name=X",
                "-engine",
                &format!("cmd={MOCK}"),
                "depth=1",
                "-shard",
                "3/2",
            ],
            "\"3/2\"",
        ),
    ] {
        let output = referee(&args);
        assert_eq!(
            output.status.code(),
            Some(2),
            "{args:?}: {}",
            stderr(&output)
        );
        assert!(
            stderr(&output).contains(needle),
            "{args:?}: {}",
            stderr(&output)
        );
        assert!(!stdout(&output).contains("Started"), "{args:?}");
    }
}

#[cfg(target_os = "linux")]
#[test]
fn no_engine_is_left_behind_after_quit_refusal_or_interrupt() {
    let dir = temp_dir("leftovers");
    let tag = format!("--tag=leftover-{}", std::process::id());
    let (output, records) = play(
        &dir,
        "stubborn",
        &["--behaviour=ignore-quit", &tag],
        &["-rounds", "1"],
    );
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(records.len(), 2);
    assert_eq!(processes_with(&tag), 0);
    // Ctrl-C in the middle of a match: exit 130, complete records only, engines gone.
    let json = dir.join("interrupted.jsonl");
    let mut args = mock("A", 1, &[&tag, "--behaviour=late", "--delay-ms=5"]);
    args.extend(mock("B", 2, &[&tag]));
    args.extend(
        [
            "-each",
            "depth=1",
            "-rounds",
            "12",
            "-concurrency",
            "2",
            "-jsonout",
            json.to_str().unwrap(),
        ]
        .map(String::from),
    );
    let child = Command::new(REFEREE)
        .args(&args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(1000));
    assert!(processes_with(&tag) > 0);
    // SAFETY: sends SIGINT to the referee child we just started.
    unsafe {
        libc::kill(child.id() as libc::pid_t, libc::SIGINT);
    }
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(130));
    let records = read_records(json.to_str().unwrap()).unwrap();
    assert!(
        !records.is_empty() && records.len() < 24,
        "{}",
        records.len()
    );
    assert!(records
        .iter()
        .all(|r| r.termination != Termination::Interrupt));
    assert_eq!(processes_with(&tag), 0);
    // The records so far are valid: resuming completes the match.
    let output = Command::new(REFEREE)
        .args(&args)
        .arg("-resume")
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", stderr(&output));
    let mut numbers: Vec<u64> = read_records(json.to_str().unwrap())
        .unwrap()
        .iter()
        .map(|r| r.number)
        .collect();
    numbers.sort_unstable();
    assert_eq!(numbers, (1..=24).collect::<Vec<u64>>());
    assert_eq!(processes_with(&tag), 0);
}
