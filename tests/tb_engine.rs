//! The engine with tablebases: root reporting, probing in the search, the last placement, bad
//! table directories and the options (tables from `tb_common`).

mod tb_common;

use baghchal::engine::{Bound, Engine, EngineOptions, Evaluation, Score, SearchInfo};
use baghchal::tablebase::Wdl;
use baghchal::{Game, Position, Repetition, Rules};
use std::path::{Path, PathBuf};
use tb_common::*;

#[test]
fn the_root_reports_table_results() {
    let wins = sample(31, 3, |_, value| {
        value.wdl == Wdl::Win && value.plies_to_end >= Some(3)
    });
    let losses = sample(32, 3, |_, value| {
        value.wdl == Wdl::Loss && value.plies_to_end >= Some(2)
    });
    // Table draws are results under the draw rule only: under forbid, a cycle may run out of
    // new positions (see the next test).
    let draws = sample(33, 3, |_, value| value.wdl == Wdl::Draw);
    let games = (wins.into_iter().chain(losses))
        .map(|start| (start, Repetition::Forbid))
        .chain(draws.into_iter().map(|start| (start, Repetition::Draw)));
    for (start, repetition) in games {
        let value = tables().probe(&start).unwrap();
        let game = Game::new(start, rules(repetition));
        let options = EngineOptions {
            show_wdl: true,
            ..EngineOptions::default()
        };
        let (result, infos) = search_with_tables(&game, options);
        let info = result.info.expect("an info");
        assert!(info.tbhits > 0 && infos.iter().all(|info| info.tbhits > 0));
        let plies = value.plies_to_end.map(i32::from);
        let (score, wdl) = match value.wdl {
            Wdl::Win => (Score::Mate((plies.unwrap() + 1) / 2), [1000, 0, 0]),
            Wdl::Loss => (Score::Mate(-plies.unwrap() / 2), [0, 0, 1000]),
            Wdl::Draw => (Score::Cp(0), [0, 1000, 0]),
        };
        assert_eq!(
            (info.score, info.bound, info.wdl),
            (score, Bound::Exact, Some(wdl))
        );
        // The move keeps the value at the best distance.
        assert_eq!(
            after_move(&start, result.best_move.unwrap()),
            value,
            "{start}"
        );
        let mut line = game.clone();
        for &mv in &info.pv {
            line.play(mv).expect("a legal line");
        }
        if value.wdl != Wdl::Draw {
            // The line is the table's: it ends the game at the reported distance.
            assert_eq!(line.ply(), value.plies_to_end.unwrap() as usize, "{start}");
            assert!(line.outcome().is_some());
        }
    }
}

/// A table draw that the forbid rule turns into a tigers' win: the engine reports a mate, and
/// the move it plays keeps the win within the reported distance (every line tried).
fn forbid_win_is_a_true_mate(evaluation: Evaluation) {
    // One empty square: the goats' cycle soon runs out of positions not seen before.
    let start: Position = "GGGGG/GGGGG/1TGGG/GTTGG/GGGGT t 0 0".parse().unwrap();
    assert_eq!(tables().probe(&start).unwrap().wdl, Wdl::Draw);
    let mut game = Game::new(start, rules(Repetition::Forbid));
    // The search's own claim (the proof search at the root would settle it first, without a
    // distance: `the_root_proof_search_*` in tests/tb_engine_proof.rs).
    let options = EngineOptions {
        evaluation,
        forbid_proof: false,
        ..EngineOptions::default()
    };
    let (result, _) = search_with_tables_to(&game, options, nodes(100_000));
    let info = result.info.expect("an info");
    let Score::Mate(moves @ 1..) = info.score else {
        panic!("no win found: {:?}", info.score);
    };
    // The claim, judged by trying every line of the game: the tigers win within `moves` moves,
    // and the move played keeps that.
    let plies = 2 * moves as u32 - 1;
    assert!(mover_wins_within(&mut game, plies));
    game.play(result.best_move.unwrap()).unwrap();
    assert!(mover_loses_within(&mut game, plies - 1));
}

#[test]
fn a_table_draw_the_forbid_rule_wins_is_reported_as_a_true_mate() {
    forbid_win_is_a_true_mate(Evaluation::Classic);
}

/// The same with the pattern network (the default evaluation). It failed before the
/// transposition table's key held the states the forbid rule excludes: a mate found where one
/// path's cycle ran out of fresh states was reused on another path, and the move played did not
/// keep the mate reported.
#[test]
fn a_table_draw_the_forbid_rule_wins_is_reported_as_a_true_mate_with_the_network() {
    forbid_win_is_a_true_mate(Evaluation::Network);
}

#[test]
fn multi_pv_ranks_root_moves_by_table_value() {
    let start = sample(41, 1, |position, value| {
        value.wdl == Wdl::Win && position.count_moves(&rules(Repetition::Forbid)) >= 3
    })[0];
    let game = Game::new(start, rules(Repetition::Forbid));
    let options = EngineOptions {
        multi_pv: 3,
        ..EngineOptions::default()
    };
    let (_, infos) = search_with_tables(&game, options);
    assert_eq!(infos.len(), 3);
    let rank = |info: &SearchInfo| match info.score {
        Score::Mate(n) if n > 0 => 1000 - n,
        Score::Mate(n) => -1000 - n,
        Score::Cp(_) => 0,
    };
    for pair in infos.windows(2) {
        assert!(rank(&pair[0]) >= rank(&pair[1]), "{infos:?}");
        assert_eq!(pair[1].multipv, pair[0].multipv + 1);
    }
}

#[test]
fn the_last_placement_is_decided_by_the_tables() {
    // Goats to place their last goat: every placement leads into the tables.
    let start: Position = "TGGGT/GGGG1/GGGG1/GGGGG/TGG1T g 1 1".parse().unwrap();
    let game = Game::new(start, rules(Repetition::Forbid));
    let best = start
        .legal_moves(&rules(Repetition::Forbid))
        .iter()
        .map(|&mv| after_move(&start, mv))
        .max_by_key(|value| match (value.wdl, value.plies_to_end) {
            (Wdl::Win, Some(plies)) => 1000 - i32::from(plies),
            (Wdl::Loss, Some(plies)) => -1000 + i32::from(plies),
            _ => 0,
        })
        .unwrap();
    let (result, _) = search_with_tables(&game, EngineOptions::default());
    assert_eq!(after_move(&start, result.best_move.unwrap()), best);
    assert!(result.info.unwrap().tbhits > 0);
}

#[test]
fn the_search_probes_before_the_movement_phase() {
    // Goats to move with two goats in hand: the search reaches the last placement.
    let start: Position = "TGGGT/GGGG1/GGGG1/GGGGG/TGG1T g 2 0".parse().unwrap();
    let game = Game::new(start, rules(Repetition::Forbid));
    let (result, _) = search_with_tables(&game, EngineOptions::default());
    assert!(result.info.unwrap().tbhits > 0);
    let mut plain = engine(&game, false);
    assert_eq!(plain.search_blocking(nodes(3000)).info.unwrap().tbhits, 0);
}

/// A copy of the tables in a fresh directory.
fn copy_tables(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("tb-engine-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for entry in std::fs::read_dir(table_dir()).unwrap() {
        let path = entry.unwrap().path();
        std::fs::copy(&path, dir.join(path.file_name().unwrap())).unwrap();
    }
    dir
}

/// The engine with a bad table directory reports why and plays on without tables.
fn assert_refused(dir: &Path, rules: Rules, expected: &str) {
    let game = Game::new(sample(51, 1, |_, _| true)[0], rules);
    let mut engine = Engine::new(EngineOptions {
        rules,
        tablebase_path: Some(dir.to_path_buf()),
        ..EngineOptions::default()
    });
    let status = engine.tablebase_status();
    let message = status.error().expect("an error").to_string();
    assert!(message.contains(expected), "{message}");
    assert!(status.to_string().starts_with("cannot use tablebases in"));
    engine.set_game(game);
    let result = engine.search_blocking(nodes(2000));
    assert!(result.best_move.is_some());
    assert_eq!(result.info.unwrap().tbhits, 0);
}

#[test]
fn bad_table_directories_are_reported_and_not_used() {
    let dir = copy_tables("corrupt");
    let path = dir.join("layer-1.bctb");
    let mut bytes = std::fs::read(&path).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 1;
    std::fs::write(&path, bytes).unwrap();
    assert_refused(&dir, rules(Repetition::Forbid), "checksum mismatch");
    std::fs::remove_dir_all(&dir).unwrap();

    let missing = Path::new(env!("CARGO_TARGET_TMPDIR")).join("tb-engine-missing");
    assert_refused(&missing, rules(Repetition::Forbid), "not found");
    let forced = Rules {
        forced_capture: true,
        ..rules(Repetition::Forbid)
    };
    assert_refused(table_dir(), forced, "made for rules");
    let five = Rules {
        captures_to_win: 5,
        ..rules(Repetition::Forbid)
    };
    assert_refused(table_dir(), five, "made for rules");
}

#[test]
fn tables_follow_the_path_and_rules_options() {
    let mut options = EngineOptions {
        rules: rules(Repetition::Forbid),
        ..EngineOptions::default()
    };
    let mut engine = Engine::new(options.clone());
    assert_eq!(engine.tablebase_status().to_string(), "tablebases off");
    options.tablebase_path = Some(table_dir().to_path_buf());
    engine.set_options(options.clone()).unwrap();
    assert!(engine.tablebase_status().is_loaded());
    // The repetition rule does not change table values: the tables stay.
    options.rules.repetition = Repetition::Draw;
    engine.set_options(options.clone()).unwrap();
    assert!(engine.tablebase_status().is_loaded());
    options.rules.forced_capture = true;
    engine.set_options(options.clone()).unwrap();
    assert!(engine.tablebase_status().error().is_some());
    options.rules.forced_capture = false;
    engine.set_options(options.clone()).unwrap();
    assert!(engine.tablebase_status().is_loaded());
    options.tablebase_path = Some(PathBuf::new());
    engine.set_options(options).unwrap();
    assert!(!engine.tablebase_status().is_loaded());
    assert!(engine.tablebase_status().error().is_none());
}
