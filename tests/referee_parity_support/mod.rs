//! Helpers shared by the tests of the referee's fastchess/cutechess parity options: books,
//! -repeat/-noswap/-reverse, gauntlet seeds, knockout, restart and the config file.

#![allow(dead_code)]

use baghchal::referee::record::{read_records, GameRecord};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

pub const REFEREE: &str = env!("CARGO_BIN_EXE_referee");
pub const MOCK: &str = env!("CARGO_BIN_EXE_mock-engine");

/// A fresh directory for one test.
pub fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("referee-parity-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `dir/name` as a string.
pub fn path(dir: &Path, name: &str) -> String {
    dir.join(name).to_str().unwrap().to_string()
}

/// Strings from string slices.
pub fn strings(args: &[&str]) -> Vec<String> {
    args.iter().map(|s| s.to_string()).collect()
}

/// Runs the referee.
pub fn referee(args: &[String]) -> Output {
    Command::new(REFEREE)
        .args(args)
        .output()
        .expect("the referee runs")
}

/// stdout or stderr as text.
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).to_string()
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

/// Asserts a run succeeded, showing its stderr otherwise.
pub fn assert_ok(output: &Output) {
    assert!(output.status.success(), "{}", text(&output.stderr));
}

/// The records without thinking times and dates, which differ from run to run.
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

/// The process ids a mock engine appended to `path`.
pub fn pids_in(path: &str) -> Vec<u32> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .map(|line| line.trim().parse().unwrap())
        .collect()
}
