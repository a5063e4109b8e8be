//! `-config file=PATH`: every match setting in one JSON file, written during the run (with the
//! seed used and the run's state) so that `referee -config file=PATH` alone resumes or repeats
//! it; options beside it override the file; bad files are reported with the file and the key
//! before anything is played.

mod referee_support;

use referee_support::*;
use serde_json::Value;
use std::process::{Command, Stdio};

fn read_json(path: &str) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn config_run(config: &str, extra: &[&str]) -> std::process::Output {
    let mut args = strings(&["-config", &format!("file={config}")]);
    args.extend(strings(extra));
    referee(&args)
}

#[test]
fn the_config_file_alone_resumes_and_repeats_the_run() {
    let dir = temp_dir("resume");
    let config = path(&dir, "match.json");
    let json = path(&dir, "games.jsonl");
    // A first run (no seed given) writes the file: every setting, the seed used, the state.
    let mut args = mocks(&["A", "B"]);
    args.extend(strings(&[
        "-rounds",
        "3",
        "-maxplies",
        "20",
        "-repeat",
        "1",
        "-jsonout",
        &json,
    ]));
    args.extend(strings(&["-config", &format!("file={config}")]));
    let output = referee(&args);
    assert_ok(&output);
    let full = baghchal::referee::record::read_records(&json).unwrap();
    assert_eq!(full.len(), 6);
    let saved = read_json(&config);
    assert_eq!(saved["rounds"], 3);
    assert_eq!(saved["repeat"], 1);
    assert_eq!(saved["engines"].as_array().unwrap().len(), 2);
    assert_eq!(saved["resume"], true);
    assert!(saved["seed"].is_u64(), "{saved}");
    assert_eq!(saved["rules"]["captures_to_win"], 5);
    assert_eq!(saved["state"]["games_recorded"], 6);
    assert_eq!(saved["state"]["status"], "complete");
    // Lose the last four games: the file alone plays them again, identically.
    let lines = std::fs::read_to_string(&json).unwrap();
    let first_two: Vec<&str> = lines.lines().take(2).collect();
    std::fs::write(&json, first_two.join("\n") + "\n").unwrap();
    let output = config_run(&config, &[]);
    assert_ok(&output);
    assert!(
        text_of(&output).contains("4 to play"),
        "{}",
        text_of(&output)
    );
    let resumed = baghchal::referee::record::read_records(&json).unwrap();
    assert_eq!(without_times(&resumed), without_times(&full));
    // Complete: running it again plays nothing and prints the results again.
    let output = config_run(&config, &[]);
    assert_ok(&output);
    assert!(text(&output.stdout).contains("Score of A vs B"));
    assert_eq!(
        baghchal::referee::record::read_records(&json)
            .unwrap()
            .len(),
        6
    );
    // Options beside -config override the file, and the file keeps the new setting.
    let output = config_run(&config, &["-rounds", "4"]);
    assert_ok(&output);
    assert_eq!(
        baghchal::referee::record::read_records(&json)
            .unwrap()
            .len(),
        8
    );
    assert_eq!(read_json(&config)["rounds"], 4);
    assert_eq!(read_json(&config)["seed"], saved["seed"]);
}

fn text_of(output: &std::process::Output) -> String {
    text(&output.stderr) + &text(&output.stdout)
}

#[test]
fn the_file_is_kept_up_to_date_during_the_run_and_an_interrupted_run_resumes_from_it() {
    let dir = temp_dir("autosave");
    let config = path(&dir, "match.json");
    let json = path(&dir, "games.jsonl");
    let mut args = mocks(&["A", "B"]);
    args.extend(strings(&[
        "-rounds",
        "4",
        "-maxplies",
        "10",
        "-seed",
        "7",
        "-wait",
        "300",
    ]));
    args.extend(strings(&["-jsonout", &json, "-config", &config]));
    let mut child = Command::new(REFEREE)
        .args(&args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Wait until the file says two games are recorded (the pause after each game leaves time
    // to look), then interrupt the run as Ctrl-C would.
    let mut seen = 0;
    for _ in 0..600 {
        std::thread::sleep(std::time::Duration::from_millis(20));
        if let Ok(text) = std::fs::read_to_string(&config) {
            let value: Value = serde_json::from_str(&text).expect("never a half-written file");
            seen = value["state"]["games_recorded"].as_u64().unwrap_or(0);
            if seen >= 2 {
                assert_eq!(value["state"]["status"], "running");
                break;
            }
        }
    }
    assert!(seen >= 2, "the state was never updated");
    let pid = child.id().to_string();
    Command::new("kill").args(["-INT", &pid]).status().unwrap();
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(130));
    let saved = read_json(&config);
    assert_eq!(saved["state"]["status"], "interrupted");
    let recorded = baghchal::referee::record::read_records(&json)
        .unwrap()
        .len();
    assert!((2..8).contains(&recorded), "{recorded}");
    // The file alone finishes the run, as one uninterrupted run would have played it.
    let output = config_run(&config, &["-wait", "0"]);
    assert_ok(&output);
    let resumed = baghchal::referee::record::read_records(&json).unwrap();
    let mut args = mocks(&["A", "B"]);
    args.extend(strings(&["-rounds", "4", "-maxplies", "10", "-seed", "7"]));
    let (output, whole) = run(&dir, "whole", &args);
    assert_ok(&output);
    assert_eq!(without_times(&resumed), without_times(&whole));
}

#[test]
fn bad_config_files_name_the_file_and_the_key_and_lose_nothing() {
    let dir = temp_dir("bad");
    let json = path(&dir, "games.jsonl");
    let config = path(&dir, "match.json");
    let mut args = mocks(&["A", "B"]);
    args.extend(strings(&[
        "-maxplies",
        "6",
        "-jsonout",
        &json,
        "-config",
        &config,
    ]));
    assert_ok(&referee(&args));
    let records = std::fs::read_to_string(&json).unwrap();
    let good = std::fs::read_to_string(&config).unwrap();
    for (edit, needle) in [
        (good.replacen("\"rounds\"", "\"roundz\"", 1), "roundz"),
        (
            good.replacen("\"rounds\": 1", "\"rounds\": \"one\"", 1),
            "key \"rounds\"",
        ),
        (
            good.replacen("\"rounds\": 1", "\"rounds\": 0", 1),
            "key \"rounds\"",
        ),
        (
            good.replacen("\"maxplies\": 6", "\"maxplies\": -6", 1),
            "key \"maxplies\"",
        ),
        (
            good.replacen("\"captures_to_win\": 5", "\"captures_to_win\": 21", 1),
            "key \"rules.captures_to_win\"",
        ),
        (
            good.replacen("\"round-robin\"", "\"swiss\"", 1),
            "key \"tournament\"",
        ),
        (good[..good.len() / 2].to_string(), "line"),
    ] {
        assert_ne!(edit, good, "{needle}: the edit applies");
        std::fs::write(&config, &edit).unwrap();
        let output = config_run(&config, &[]);
        let error = text(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{needle}: {error}");
        assert!(
            error.contains(&config) && error.contains(needle),
            "{needle}: {error}"
        );
        assert_eq!(
            std::fs::read_to_string(&json).unwrap(),
            records,
            "records untouched"
        );
        assert_eq!(
            std::fs::read_to_string(&config).unwrap(),
            edit,
            "the file is left for the user to fix"
        );
    }
    let output = referee(&strings(&["-config", "file=x.json", "discard=true"]));
    assert!(text(&output.stderr).contains("\"discard\""));
    // A file that cannot be written stops the run before its first game.
    let unwritable = path(&dir, "no-such-dir/match.json");
    let mut args = mocks(&["A", "B"]);
    args.extend(strings(&["-config", &unwritable]));
    let output = referee(&args);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        text(&output.stderr).contains("cannot write config file"),
        "{}",
        text(&output.stderr)
    );
    assert!(!text(&output.stdout).contains("Started game"));
}

#[test]
fn report_settings_round_trip_through_the_file() {
    let dir = temp_dir("reports");
    let config = path(&dir, "match.json");
    let pgn = path(&dir, "games.pgn");
    let epd = path(&dir, "end.epd");
    let mut args = mocks(&["A", "B"]);
    args.extend(strings(&[
        "-maxplies",
        "8",
        "-pgnout",
        &format!("file={pgn}"),
        "nodes=true",
        "pv=true",
        "-epdout",
        &epd,
        "-output",
        "format=fastchess",
        "-scoreinterval",
        "1",
        "-config",
        &config,
    ]));
    let first = referee(&args);
    assert_ok(&first);
    // The report settings sit at the top level of the file, under their option names.
    let saved = read_json(&config);
    assert_eq!(
        saved["pgnout"],
        serde_json::json!([format!("file={pgn}"), "nodes=true", "pv=true"])
    );
    assert_eq!(saved["output"], serde_json::json!(["format=fastchess"]));
    assert_eq!(saved["scoreinterval"], 1);
    assert_eq!(saved["epdout"], serde_json::json!([epd]));
    assert_eq!(saved["show_latency"], false);
    let written = std::fs::read_to_string(&pgn).unwrap();
    let games = baghchal::referee::record::read_records(&pgn).unwrap();
    assert!(
        written.contains(", n=1") && written.contains(", pv=\""),
        "{written}"
    );
    // Read back: the file alone writes the same kind of records and output.
    std::fs::remove_file(&pgn).unwrap();
    std::fs::remove_file(&epd).unwrap();
    let again = config_run(&config, &[]);
    assert_ok(&again);
    let rewritten = std::fs::read_to_string(&pgn).unwrap();
    assert!(
        rewritten.contains(", n=1") && rewritten.contains(", pv=\""),
        "{rewritten}"
    );
    let replayed = baghchal::referee::record::read_records(&pgn).unwrap();
    assert_eq!(without_times(&replayed), without_times(&games));
    assert_eq!(std::fs::read_to_string(&epd).unwrap().lines().count(), 2);
    for output in [&first, &again] {
        let stdout = text(&output.stdout);
        assert!(stdout.contains("Tournament finished"), "{stdout}");
        assert!(stdout.contains("Score of A vs B"), "{stdout}");
    }
    // A report key the file misspells, or a bad report value, is named.
    let good = std::fs::read_to_string(&config).unwrap();
    for (edit, needle) in [
        (
            good.replacen("\"scoreinterval\"", "\"scoreintervall\"", 1),
            "scoreintervall",
        ),
        (
            good.replacen("\"scoreinterval\": 1", "\"scoreinterval\": -1", 1),
            "key \"scoreinterval\"",
        ),
    ] {
        assert_ne!(edit, good, "{needle}: the edit applies");
        std::fs::write(&config, &edit).unwrap();
        let output = config_run(&config, &[]);
        let error = text(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{needle}: {error}");
        assert!(error.contains(needle), "{needle}: {error}");
    }
}
