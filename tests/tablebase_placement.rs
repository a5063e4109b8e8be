//! Placement-phase tables: generated for small variants, checked against an exact search into
//! the movement tables, verified, resumed, damaged; and the engine and referee using them.

use baghchal::engine::{Engine, EngineOptions, Limits};
use baghchal::referee::tb_adjudication::{TbAdjudicator, TbResults};
use baghchal::tablebase::file::placement_path;
use baghchal::tablebase::placement::generate::generate_placement;
use baghchal::tablebase::placement::index::{Frames, Layer, PlacementIndex};
use baghchal::tablebase::placement::verify::verify_placement;
use baghchal::tablebase::{TableRules, Tablebase, Wdl};
use baghchal::{Bitboard, Game, Position, Repetition, Rules, Side};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

const NO_PROGRESS: &(dyn Fn(&str, u64, u64) + Sync) = &|_: &str, _: u64, _: u64| {};

fn table_rules(forced_capture: bool) -> TableRules {
    TableRules {
        forced_capture,
        captures_to_win: 2,
    }
}

/// Tables for captures to win 2 with placement layers up to 2 goats in hand (generated once per
/// variant into the target's temporary directory).
fn table_dir(forced_capture: bool) -> &'static Path {
    static DIRS: [OnceLock<PathBuf>; 2] = [OnceLock::new(), OnceLock::new()];
    DIRS[usize::from(forced_capture)].get_or_init(|| {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
            .join(format!("tb-placement-ctw2-forced{forced_capture}"));
        generate_placement(&dir, table_rules(forced_capture), 2, 2, NO_PROGRESS)
            .expect("generation");
        dir
    })
}

fn open(forced_capture: bool) -> Tablebase {
    let dir = table_dir(forced_capture);
    let tables = Tablebase::open(dir, table_rules(forced_capture)).expect("open");
    let corrupt = tables.placement().expect("placement layers").wait_checked();
    assert!(corrupt.is_empty(), "{corrupt:?}");
    tables
}

/// The exact value for the side to move by a full-width search down to the movement tables.
fn exact(tables: &Tablebase, position: &Position, rules: &Rules) -> Wdl {
    if position.goats_captured() >= rules.captures_to_win {
        return if position.side_to_move() == Side::Goats {
            Wdl::Loss
        } else {
            Wdl::Win
        };
    }
    if position.goats_in_hand() == 0 {
        return tables.probe(position).expect("movement position").wdl;
    }
    let mut best = Wdl::Loss;
    for &mv in position.legal_moves(rules).iter() {
        match exact(tables, &position.played(mv), rules) {
            Wdl::Loss => return Wdl::Win,
            Wdl::Draw => best = Wdl::Draw,
            Wdl::Win => {}
        }
    }
    best
}

/// A random valid position of `layer` with `side` to move.
fn random_position(rng: &mut StdRng, layer: Layer, side: Side) -> Position {
    let index = PlacementIndex::new(layer);
    let (class, goats) = index.decode(rng.random_range(0..index.len()));
    let tigers = Frames::get().classes[class].tigers;
    // Any image of the board under the symmetries is the same position.
    let g = rng.random_range(0..8);
    let frames = Frames::get();
    Position::from_parts(
        Bitboard(frames.transform(tigers, g)),
        Bitboard(frames.transform(goats, g)),
        side,
        layer.in_hand,
        layer.captured,
    )
    .expect("a decoded board is a position")
}

#[test]
fn sampled_values_match_an_exact_search_into_the_movement_tables() {
    for forced_capture in [false, true] {
        let tables = open(forced_capture);
        let rules = table_rules(forced_capture).with_repetition(Repetition::Draw);
        let mut rng = StdRng::seed_from_u64(14);
        let mut seen = [0usize; 3];
        for _ in 0..600 {
            let layer = Layer {
                in_hand: rng.random_range(1..=2),
                captured: rng.random_range(0..2),
            };
            let side = if rng.random_bool(0.5) {
                Side::Goats
            } else {
                Side::Tigers
            };
            let position = random_position(&mut rng, layer, side);
            let stored = tables.probe(&position).expect("covered").wdl;
            assert_eq!(
                stored,
                exact(&tables, &position, &rules),
                "{position} forced {forced_capture}"
            );
            seen[stored as usize] += 1;
        }
        // The sample reaches every kind of value.
        assert!(seen.iter().all(|&n| n > 0), "{seen:?}");
    }
}

#[test]
fn layers_verify_and_counts_match() {
    let dir = table_dir(false);
    let tables = open(false);
    let checks = verify_placement(dir, &tables, 2, 1, 2, NO_PROGRESS).expect("verify");
    assert_eq!(checks.len(), 4);
    for check in &checks {
        assert!(check.ok(), "{check:?}");
        assert!(check.checked > 0);
    }
}

#[test]
fn a_flipped_byte_is_reported_and_the_layer_never_used() {
    let source = table_dir(false);
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("tb-placement-damaged");
    std::fs::create_dir_all(&dir).unwrap();
    for entry in std::fs::read_dir(source).unwrap() {
        let path = entry.unwrap().path();
        std::fs::copy(&path, dir.join(path.file_name().unwrap())).unwrap();
    }
    let damaged = placement_path(&dir, 2, 0);
    let mut bytes = std::fs::read(&damaged).unwrap();
    let at = bytes.len() - 10;
    bytes[at] ^= 0x10;
    std::fs::write(&damaged, bytes).unwrap();
    // Through the protocol: isready waits for the checksums and names the damaged layer.
    let mut engine = std::process::Command::new(env!("CARGO_BIN_EXE_baghchal"))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("engine starts");
    let mut stdin = engine.stdin.take().unwrap();
    writeln!(
        stdin,
        "setoption name CapturesToWin value 2\nsetoption name TablebasePath value {}\nisready\nquit",
        dir.display()
    )
    .unwrap();
    drop(stdin);
    let output = engine.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&output.stdout);
    let corrupt = format!(
        "info string error: \"{}\": corrupt placement layer, not used\nreadyok",
        damaged.display()
    );
    assert!(text.contains(&corrupt), "{text}");
    let tables = Tablebase::open(&dir, table_rules(false)).expect("headers are fine");
    let placement = tables.placement().unwrap();
    assert_eq!(placement.wait_checked(), vec![damaged.clone()]);
    let mut rng = StdRng::seed_from_u64(3);
    let layer = Layer {
        in_hand: 2,
        captured: 0,
    };
    let position = random_position(&mut rng, layer, Side::Goats);
    assert_eq!(tables.probe(&position), None);
    // The other layers still answer.
    let other = random_position(
        &mut rng,
        Layer {
            in_hand: 1,
            ..layer
        },
        Side::Goats,
    );
    assert!(tables.probe(&other).is_some());
    // Verification refuses the damaged layer; generation replaces it.
    assert!(verify_placement(&dir, &tables, 2, 1, 1, NO_PROGRESS).is_err());
    drop(tables);
    let run = generate_placement(&dir, table_rules(false), 2, 1, NO_PROGRESS).unwrap();
    assert_eq!(run.start, None);
    let redone: Vec<(u8, u8)> = run
        .reports
        .iter()
        .filter(|report| !report.resumed)
        .map(|report| (report.header.in_hand, report.header.captured))
        .collect();
    assert_eq!(redone, vec![(2, 0)]);
    assert_eq!(
        std::fs::read(&damaged).unwrap(),
        std::fs::read(placement_path(source, 2, 0)).unwrap()
    );
}

/// Positions with 2 goats in hand where some legal move throws the value away.
fn critical_positions(tables: &Tablebase, rules: &Rules, count: usize) -> Vec<Position> {
    let mut rng = StdRng::seed_from_u64(99);
    let mut found = Vec::new();
    while found.len() < count {
        let layer = Layer {
            in_hand: 2,
            captured: rng.random_range(0..2),
        };
        let side = if found.len() % 2 == 0 {
            Side::Goats
        } else {
            Side::Tigers
        };
        let position = random_position(&mut rng, layer, side);
        let value = tables.probe(&position).unwrap().wdl;
        if value == Wdl::Loss {
            continue;
        }
        let throws_away = position.legal_moves(rules).iter().any(|&mv| {
            let child = position.played(mv);
            child.goats_captured() < rules.captures_to_win
                && tables.probe(&child).unwrap().wdl != value_for_opponent(value)
        });
        if throws_away {
            found.push(position);
        }
    }
    found
}

fn value_for_opponent(value: Wdl) -> Wdl {
    match value {
        Wdl::Win => Wdl::Loss,
        Wdl::Draw => Wdl::Draw,
        Wdl::Loss => Wdl::Win,
    }
}

#[test]
fn the_engine_keeps_the_value_of_placement_positions_and_reports_it() {
    let tables = open(false);
    let rules = table_rules(false).with_repetition(Repetition::Draw);
    for position in critical_positions(&tables, &rules, 12) {
        let value = tables.probe(&position).unwrap().wdl;
        let mut engine = Engine::new(EngineOptions {
            rules,
            tablebase_path: Some(table_dir(false).to_path_buf()),
            ..EngineOptions::default()
        });
        // The checksums are checked in the background: wait, as `isready` does.
        assert_eq!(engine.wait_for_tablebase(None), Some(Vec::new()));
        engine.set_game(Game::new(position, rules));
        let result = engine.search_blocking(Limits {
            depth: Some(3),
            ..Limits::default()
        });
        let mv = result.best_move.expect("a move");
        let child = position.played(mv);
        let kept = child.goats_captured() >= rules.captures_to_win
            || tables.probe(&child).unwrap().wdl == value_for_opponent(value);
        assert!(kept, "{position}: {mv} leaves the value {value}");
        let info = result.info.expect("an info");
        assert!(info.tbhits > 0);
        let score = info.score.to_string();
        match value {
            Wdl::Draw => assert_eq!(score, "cp 0", "{position}"),
            Wdl::Win => assert!(score == "cp 20000" || score.starts_with("mate "), "{score}"),
            Wdl::Loss => unreachable!(),
        }
    }
}

#[test]
fn the_referee_adjudicates_placement_positions() {
    let tables = open(false);
    let rules = table_rules(false).with_repetition(Repetition::Draw);
    let mut rng = StdRng::seed_from_u64(5);
    let layer = Layer {
        in_hand: 2,
        captured: 1,
    };
    let adjudicator = TbAdjudicator::new(table_dir(false), tables, TbResults::default_for(&rules));
    let mut seen_win = false;
    for _ in 0..200 {
        let position = random_position(&mut rng, layer, Side::Tigers);
        let game = Game::new(position, rules);
        let value = open(false).probe(&position).unwrap().wdl;
        let verdict = adjudicator.adjudicate(&game);
        if value == Wdl::Win {
            seen_win = true;
            let (_, comment) = verdict.expect("a tigers' win is adjudicated");
            assert_eq!(comment, "Tablebase: tigers win");
        }
    }
    assert!(seen_win);
}

#[test]
fn the_cli_generates_verifies_and_probes_placement_layers() {
    let dir = std::env::temp_dir().join(format!("baghchal-tb-placement-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let run = |args: &[&str]| {
        let output = std::process::Command::new(env!("CARGO_BIN_EXE_baghchal"))
            .arg("tb")
            .args(args)
            .output()
            .expect("runs");
        let stdout = String::from_utf8_lossy(&output.stdout).to_string();
        (output.status.success(), stdout)
    };
    let dir_arg = dir.to_str().unwrap();
    let (ok, text) = run(&[
        "gen",
        "--out",
        dir_arg,
        "--captures-to-win",
        "1",
        "--placement",
        "--max-in-hand",
        "2",
    ]);
    assert!(ok, "{text}");
    // Two layers (1 and 2 goats in hand, none captured), each with both sides.
    let rows: Vec<&str> = text
        .lines()
        .filter(|line| line.trim_start().starts_with(['1', '2']) && line.contains(" 0 "))
        .filter(|line| line.contains("goats") || line.contains("tigers"))
        .collect();
    assert_eq!(rows.len(), 4, "{text}");
    assert!(
        text.contains("placement positions (both sides to move): 5131280"),
        "{text}"
    );
    let (ok, text) = run(&["verify", dir_arg]);
    assert!(ok, "{text}");
    assert!(
        text.contains(
            "placement 2 in hand 0 captured: 4431560 positions checked, 0 mismatches, counts match"
        ),
        "{text}"
    );
    assert!(text.ends_with("verify: ok\n"), "{text}");
    // A position with 2 goats in hand: its value, without a distance, as the library has it.
    let position = "TGGGG/GGGGG/GGGGG/G1GGG/T2TT t 2 0";
    let (ok, text) = run(&["probe", dir_arg, position]);
    assert!(ok, "{text}");
    let tables = Tablebase::open_recorded(&dir).unwrap();
    tables.placement().unwrap().wait_checked();
    let value = tables.probe(&position.parse().unwrap()).unwrap();
    assert!(
        text.starts_with(&format!("value: {}\ndistance: none\n", value.wdl)),
        "{text}"
    );
    // Three goats in hand are not covered.
    let (ok, _) = run(&["probe", dir_arg, "T3T/5/5/5/T3T g 20 0"]);
    assert!(!ok);
    let _ = std::fs::remove_dir_all(&dir);
}
