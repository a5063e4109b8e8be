//! The test-position suite (tests/data/critical-positions.txt) is well formed and critical as
//! our rules core sees it, and `referee positions` scores engines on a suite over pipes.

use baghchal::referee::positions::read_suite;
use baghchal::{Game, Position};
use std::path::Path;
use std::process::Command;

const REFEREE: &str = env!("CARGO_BIN_EXE_referee");
const MOCK: &str = env!("CARGO_BIN_EXE_mock-engine");
const ENGINE: &str = env!("CARGO_BIN_EXE_baghchal");
const SUITE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/critical-positions.txt"
);

#[test]
fn the_suite_is_critical_in_both_phases() {
    let (rules, entries) = read_suite(Path::new(SUITE)).expect("the suite parses");
    let placement = entries
        .iter()
        .filter(|e| e.position.goats_in_hand() > 0)
        .count();
    let movement = entries.len() - placement;
    assert!(
        movement >= 100 && placement >= 100,
        "{movement} {placement}"
    );
    for entry in &entries {
        let game = Game::new(entry.position, rules);
        assert!(game.outcome().is_none(), "{}", entry.line());
        let legal = game.legal_moves();
        // Every listed move is legal, and some legal move is not listed: only some keep the
        // value.
        assert!(
            entry.keeping.iter().all(|mv| legal.contains(mv)),
            "{}",
            entry.line()
        );
        assert!(entry.keeping.len() < legal.len(), "{}", entry.line());
        let drawn = entry.value == "draw";
        let in_movement = entry.position.goats_in_hand() == 0;
        // Movement-phase wins carry their distance, placement wins none.
        assert_eq!(
            entry.value.split_whitespace().count(),
            if drawn || !in_movement { 1 } else { 2 },
            "{}",
            entry.line()
        );
    }
}

/// A small suite: a made-up win that only the capture keeps, and the same position as a
/// made-up draw that every move but the capture keeps.
fn small_suite(dir: &Path) -> String {
    let start: Position = "T3T/5/5/1G3/T3T t 19 0".parse().unwrap();
    let game = Game::new(start, Default::default());
    let others: Vec<String> = game
        .legal_moves()
        .iter()
        .filter(|m| !m.is_capture())
        .map(|m| m.to_string())
        .collect();
    let text = format!(
        "# rules: ForcedCapture=false CapturesToWin=5 Repetition=forbid\n\
         # made up for the test: the values are not real\n\
         T3T/5/5/1G3/T3T t 19 0 | win | a1c3\n\
         T3T/5/5/1G3/T3T t 19 0 | draw | {}\n",
        others.join(" ")
    );
    let path = dir.join("suite.txt");
    std::fs::write(&path, text).unwrap();
    path.to_str().unwrap().to_string()
}

#[test]
fn referee_positions_scores_an_engine_and_names_lost_positions() {
    let dir = std::env::temp_dir().join(format!("referee-positions-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let suite = small_suite(&dir);
    let run = |engine: &str, extra: &[&str]| {
        let mut args = vec![
            "positions".to_string(),
            "--engine".to_string(),
            format!("cmd={engine}"),
        ];
        args.extend(extra.iter().map(|s| s.to_string()));
        args.extend(["--file".to_string(), suite.clone()]);
        Command::new(REFEREE).args(&args).output().unwrap()
    };
    // The mock plays one random move in both lines: it keeps exactly one line's value, and
    // the other line is named.
    let output = run(MOCK, &["--depth", "1"]);
    let out = String::from_utf8_lossy(&output.stdout).to_string();
    assert!(output.status.success(), "{out}");
    assert_eq!(
        out.lines().filter(|l| l.starts_with("lost ")).count(),
        1,
        "{out}"
    );
    assert!(out.contains("value kept: 1 of 2 (50.0%)"), "{out}");
    assert!(
        out.contains("go depth 1, rules ForcedCapture=false"),
        "{out}"
    );
    // Our engine too keeps exactly one of the two complementary lines; the phase filter keeps
    // both (placement) lines.
    let output = run(ENGINE, &["--nodes", "2000", "--phase", "placement"]);
    let out = String::from_utf8_lossy(&output.stdout).to_string();
    assert!(out.contains("value kept: 1 of 2 (50.0%)"), "{out}");
    assert!(
        out.contains("placement wins ") && out.contains("placement draws "),
        "{out}"
    );
    let output = run(ENGINE, &["--phase", "movement"]);
    let out = String::from_utf8_lossy(&output.stdout).to_string();
    assert!(out.contains("value kept: 0 of 0"), "{out}");
    // A bad line is named.
    std::fs::write(
        &suite,
        "# rules: ForcedCapture=false CapturesToWin=5 Repetition=forbid\nT3T | win | c3\n",
    )
    .unwrap();
    let output = run(ENGINE, &[]);
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("line 2: "));
    std::fs::remove_dir_all(&dir).unwrap();
}
