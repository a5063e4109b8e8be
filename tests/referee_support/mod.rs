//! Helpers shared by the referee's black-box tests: temporary directories, running the referee,
//! `-engine` arguments for the mock engine and for our engine, records compared without the
//! figures that differ from run to run, and the sharded-match helpers.

#![allow(dead_code)]

use baghchal::referee::record::{read_records, GameRecord};
use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

pub const REFEREE: &str = env!("CARGO_BIN_EXE_referee");
pub const MOCK: &str = env!("CARGO_BIN_EXE_mock-engine");
pub const ENGINE: &str = env!("CARGO_BIN_EXE_baghchal");

/// A fresh directory for one test (named by the process id, so that runs never share one).
pub fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("referee-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `dir/name` as a string argument.
pub fn path(dir: &Path, name: &str) -> String {
    dir.join(name).to_str().unwrap().to_string()
}

/// Strings from string slices.
pub fn strings(args: &[&str]) -> Vec<String> {
    args.iter().map(|s| s.to_string()).collect()
}

/// Whitespace-separated words as arguments.
pub fn words(text: &str) -> Vec<String> {
    text.split_whitespace().map(str::to_string).collect()
}

/// Runs the referee with `args` to the end.
pub fn referee<S: AsRef<OsStr>>(args: &[S]) -> Output {
    Command::new(REFEREE)
        .args(args)
        .output()
        .expect("the referee runs")
}

/// stdout or stderr as text.
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).to_string()
}

/// A run's stdout as text.
pub fn stdout(output: &Output) -> String {
    text(&output.stdout)
}

/// A run's stderr as text.
pub fn stderr(output: &Output) -> String {
    text(&output.stderr)
}

/// Asserts a run succeeded, showing its stderr otherwise.
pub fn assert_ok(output: &Output) {
    assert!(output.status.success(), "{}", stderr(output));
}

/// `-engine` arguments for a mock engine with this name, seed and extra mock flags.
pub fn mock(name: &str, seed: u64, flags: &[&str]) -> Vec<String> {
    let mut args = vec![
        "-engine".to_string(),
        format!("cmd={MOCK}"),
        format!("name={name}"),
        format!("arg=--seed={seed}"),
    ];
    args.extend(flags.iter().map(|flag| format!("arg={flag}")));
    args
}

/// Mock engines named `names` (seeds 1, 2, ...), depth 1, timeouts of 2 s, score blocks off.
pub fn mocks(names: &[&str]) -> Vec<String> {
    let plain: Vec<(&str, &[&str])> = names.iter().map(|name| (*name, &[][..])).collect();
    mocks_with(&plain)
}

/// As [`mocks`], each engine with its own mock flags.
pub fn mocks_with(engines: &[(&str, &[&str])]) -> Vec<String> {
    let mut args: Vec<String> = engines
        .iter()
        .enumerate()
        .flat_map(|(i, (name, flags))| mock(name, i as u64 + 1, flags))
        .collect();
    args.extend(strings(&[
        "-each",
        "depth=1",
        "-ratinginterval",
        "0",
        "-stall-timeout",
        "2000",
        "-handshake-timeout",
        "2000",
    ]));
    args
}

/// `-engine` arguments for our engine with this name and extra spec keys.
pub fn engine(name: &str, keys: &str) -> Vec<String> {
    let mut args = vec![
        "-engine".to_string(),
        format!("cmd={ENGINE}"),
        format!("name={name}"),
    ];
    args.extend(words(keys));
    args
}

/// Runs the referee with `args` plus `-jsonout dir/tag.jsonl`; the output and the records.
pub fn run(dir: &Path, tag: &str, args: &[String]) -> (Output, Vec<GameRecord>) {
    let json = path(dir, &format!("{tag}.jsonl"));
    let mut args = args.to_vec();
    args.extend(["-jsonout".to_string(), json.clone()]);
    let output = referee(&args);
    let records = if Path::new(&json).exists() {
        read_records(&json).unwrap()
    } else {
        Vec::new()
    };
    (output, records)
}

/// The records without thinking times, allowances and dates, which differ from run to run.
pub fn without_times(records: &[GameRecord]) -> Vec<GameRecord> {
    let mut records = records.to_vec();
    for record in &mut records {
        record.date.clear();
        for played in &mut record.moves {
            played.time_ms = None;
            played.allowed_ms = None;
        }
    }
    records
}

/// The opening moves (book moves) of a record.
pub fn book_moves(record: &GameRecord) -> Vec<String> {
    record
        .moves
        .iter()
        .take_while(|m| m.book)
        .map(|m| m.mv.to_string())
        .collect()
}

/// The process ids a mock engine appended to `path` (`--pid-file`).
pub fn pids_in(path: impl AsRef<Path>) -> Vec<u32> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .map(|line| line.trim().parse().unwrap())
        .collect()
}

/// An openings file (no engine check) in `dir`, so that games differ.
pub fn openings(dir: &Path) -> String {
    let file = path(dir, "openings.txt");
    let mut args = strings(&["openings", "--no-search", "--count", "30", "--plies", "6"]);
    args.extend(["--seed".into(), "3".into(), "--out".into(), file.clone()]);
    assert_ok(&referee(&args));
    file
}

/// Match arguments: mock engines A and B (B with `b_flags`), depth 1, seed 5, `rounds` game
/// pairs over the openings in random order.
pub fn match_args(openings: &str, rounds: u32, b_flags: &[&str]) -> Vec<String> {
    let mut args = mock("A", 1, &[]);
    args.extend(mock("B", 3, b_flags));
    args.extend(strings(&[
        "-each", "depth=1", "-seed", "5", "-recover", "-rounds",
    ]));
    args.push(rounds.to_string());
    args.extend([
        "-openings".into(),
        format!("file={openings}"),
        "order=random".into(),
    ]);
    args
}

/// The whole match in one run, records to `file`.
pub fn unsharded(args: &[String], file: &str) -> Vec<GameRecord> {
    let mut args = args.to_vec();
    args.extend(["-jsonout".into(), file.into()]);
    assert_ok(&referee(&args));
    read_records(file).unwrap()
}

/// `referee merge FILES...`'s stdout.
pub fn merged(files: &[String]) -> String {
    let mut args = vec!["merge".to_string()];
    args.extend(files.iter().cloned());
    let output = referee(&args);
    assert_ok(&output);
    stdout(&output)
}

/// Whether this run is CI's (`CI` set and not `false`), where nothing may be skipped.
pub fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "false" && v != "0")
}

/// Says plainly that a test is skipped because `reason`; in CI the test fails instead.
pub fn skip(test: &str, reason: &str) {
    assert!(!in_ci(), "{test} cannot run in CI: {reason}");
    // Straight to stderr: the test harness would hide an eprintln! of a passing test.
    use std::io::Write;
    let _ = writeln!(
        std::io::stderr(),
        "SKIPPED {test}: {reason} (it runs in CI, where CI=true)"
    );
}
