//! Helpers shared by the tests of sharded matches: `merge --watch`, GNU parallel and Slurm.

#![allow(dead_code)]

use baghchal::referee::record::GameRecord;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

pub const REFEREE: &str = env!("CARGO_BIN_EXE_referee");
pub const MOCK: &str = env!("CARGO_BIN_EXE_mock-engine");

/// A fresh directory for one test.
pub fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("referee-merge-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

pub fn path(dir: &Path, name: &str) -> String {
    dir.join(name).to_str().unwrap().to_string()
}

pub fn referee(args: &[String]) -> Output {
    Command::new(REFEREE)
        .args(args)
        .output()
        .expect("the referee runs")
}

pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).to_string()
}

/// An openings file (no engine check) in `dir`, so that games differ.
pub fn openings(dir: &Path) -> String {
    let file = path(dir, "openings.txt");
    let args = ["openings", "--no-search", "--count", "30", "--plies", "6"];
    let mut args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    args.extend(["--seed".into(), "3".into(), "--out".into(), file.clone()]);
    let output = referee(&args);
    assert!(output.status.success(), "{}", text(&output.stderr));
    file
}

/// Match arguments: mock engines A and B (B with `b_flags`), depth 1, seed 5, `rounds` game
/// pairs over the openings in random order.
pub fn match_args(openings: &str, rounds: u32, b_flags: &[&str]) -> Vec<String> {
    let mut args: Vec<String> = vec![
        "-engine".into(),
        format!("cmd={MOCK}"),
        "name=A".into(),
        "arg=--seed=1".into(),
        "-engine".into(),
        format!("cmd={MOCK}"),
        "name=B".into(),
        "arg=--seed=3".into(),
    ];
    args.extend(b_flags.iter().map(|f| format!("arg={f}")));
    for arg in ["-each", "depth=1", "-seed", "5", "-recover", "-rounds"] {
        args.push(arg.into());
    }
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
    let output = referee(&args);
    assert!(output.status.success(), "{}", text(&output.stderr));
    baghchal::referee::record::read_records(file).unwrap()
}

/// `referee merge FILES...`'s stdout.
pub fn merged(files: &[String]) -> String {
    let mut args = vec!["merge".to_string()];
    args.extend(files.iter().cloned());
    let output = referee(&args);
    assert!(output.status.success(), "{}", text(&output.stderr));
    text(&output.stdout)
}

/// The records without thinking times, which differ from run to run.
pub fn without_times(records: &[GameRecord]) -> Vec<GameRecord> {
    let mut records = records.to_vec();
    for record in &mut records {
        for played in &mut record.moves {
            played.time_ms = None;
        }
    }
    records
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
