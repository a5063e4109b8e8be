//! Helpers of the referee's report tests: a temporary directory, running the referee, and the
//! `-engine` arguments of a mock engine or of our engine.

#![allow(dead_code)]

use std::path::PathBuf;
use std::process::{Command, Output};

pub const REFEREE: &str = env!("CARGO_BIN_EXE_referee");
pub const MOCK: &str = env!("CARGO_BIN_EXE_mock-engine");
pub const ENGINE: &str = env!("CARGO_BIN_EXE_baghchal");

/// A fresh temporary directory for one test.
pub fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("referee-reports-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs the referee with `args`.
pub fn referee(args: &[String]) -> Output {
    Command::new(REFEREE)
        .args(args)
        .output()
        .expect("the referee runs")
}

pub fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).to_string()
}

pub fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).to_string()
}

/// Whitespace-separated words as arguments.
pub fn words(text: &str) -> Vec<String> {
    text.split_whitespace().map(str::to_string).collect()
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

/// A path in `dir` as an argument.
pub fn path(dir: &std::path::Path, file: &str) -> String {
    dir.join(file).to_str().unwrap().to_string()
}
