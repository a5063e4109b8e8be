//! `tb forbid`: the census and the solved values under `Repetition forbid`, checked against an
//! exhaustive full-history search on the rules core (`Game` with `Repetition::Forbid`), which
//! knows nothing of raw indexes, components or the solver.

use baghchal::tablebase::file::PayloadCheck;
use baghchal::tablebase::forbid::census::census;
use baghchal::tablebase::forbid::probe::probe_forbid;
use baghchal::tablebase::forbid::solve::{solve_tables, SolveOptions};
use baghchal::tablebase::forbid::start::start_bounds;
use baghchal::tablebase::forbid::ForbidValue;
use baghchal::tablebase::index::LayerIndex;
use baghchal::tablebase::placement::PlacementTables;
use baghchal::tablebase::solve::generate_tables;
use baghchal::tablebase::stamp::Stamps;
use baghchal::tablebase::verify::board_position;
use baghchal::tablebase::{TableRules, Tablebase, Wdl};
use baghchal::{Game, Position, Repetition, Rules, Side};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};
use tb_common::{mover_loses_within, mover_wins_within};

mod tb_common;

const QUIET: &(dyn Fn(&str, u64, u64) + Sync) = &|_: &str, _: u64, _: u64| {};

const OPTIONS: SolveOptions = SolveOptions {
    max_states: 24,
    node_budget: 1_000_000,
};

fn table_rules(captures_to_win: u8) -> TableRules {
    TableRules {
        forced_capture: false,
        captures_to_win,
    }
}

fn forbid_rules(captures_to_win: u8) -> Rules {
    table_rules(captures_to_win).with_repetition(Repetition::Forbid)
}

/// Tables for `captures_to_win`, solved under forbid once (kept between runs: both resume).
fn solved_dir(captures_to_win: u8) -> &'static Path {
    static DIRS: [OnceLock<PathBuf>; 2] = [OnceLock::new(), OnceLock::new()];
    DIRS[usize::from(captures_to_win) - 1].get_or_init(|| {
        let dir =
            Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("forbid-ctw{captures_to_win}"));
        generate_tables(&dir, table_rules(captures_to_win), 2, QUIET).expect("generation");
        solve_tables(&dir, OPTIONS, QUIET).expect("solve");
        dir
    })
}

/// Every raw movement-phase board of a layer as a position, with `side` to move.
fn raw_positions(captured: u8, side: Side) -> impl Iterator<Item = Position> {
    let squares = 25u32;
    (0u32..1 << squares)
        .filter(|&tigers| tigers.count_ones() == 4)
        .flat_map(move |tigers| {
            let free: Vec<u32> = (0..squares).filter(|&p| tigers & (1 << p) == 0).collect();
            subsets(&free, usize::from(captured) + 1)
                .into_iter()
                .map(move |empties| {
                    let goats = !(tigers | empties) & ((1 << squares) - 1);
                    Position::from_parts(
                        baghchal::Bitboard(tigers),
                        baghchal::Bitboard(goats),
                        side,
                        0,
                        captured,
                    )
                    .expect("valid")
                })
        })
}

fn subsets(points: &[u32], k: usize) -> Vec<u32> {
    if k == 0 {
        return vec![0];
    }
    if points.len() < k {
        return Vec::new();
    }
    let (first, rest) = (points[0], &points[1..]);
    let mut out: Vec<u32> = subsets(rest, k - 1)
        .into_iter()
        .map(|s| s | 1 << first)
        .collect();
    out.extend(subsets(rest, k));
    out
}

/// Strongly connected components by Kosaraju (recursive; small graphs only): the sizes.
fn component_sizes(edges: &HashMap<u64, Vec<u64>>) -> Vec<usize> {
    fn order(v: u64, edges: &HashMap<u64, Vec<u64>>, seen: &mut HashSet<u64>, out: &mut Vec<u64>) {
        if !seen.insert(v) {
            return;
        }
        for &w in &edges[&v] {
            order(w, edges, seen, out);
        }
        out.push(v);
    }
    fn collect(v: u64, back: &HashMap<u64, Vec<u64>>, seen: &mut HashSet<u64>) -> usize {
        if !seen.insert(v) {
            return 0;
        }
        1 + back
            .get(&v)
            .map_or(0, |ws| ws.iter().map(|&w| collect(w, back, seen)).sum())
    }
    let mut finished = Vec::new();
    let mut seen = HashSet::new();
    for &v in edges.keys() {
        order(v, edges, &mut seen, &mut finished);
    }
    let mut back: HashMap<u64, Vec<u64>> = HashMap::new();
    for (&v, ws) in edges {
        for &w in ws {
            back.entry(w).or_default().push(v);
        }
    }
    let mut seen = HashSet::new();
    let mut sizes: Vec<usize> = finished
        .iter()
        .rev()
        .map(|&v| collect(v, &back, &mut seen))
        .filter(|&size| size > 0)
        .collect();
    sizes.sort_unstable();
    sizes
}

#[test]
fn the_census_counts_raw_draws_and_components_like_a_brute_force_graph() {
    let dir = solved_dir(1);
    let tables = Tablebase::open(dir, table_rules(1)).expect("open");
    let rules = forbid_rules(1);
    // The draw graph of layer 0 built from the rules core: every raw board probed.
    let mut edges: HashMap<u64, Vec<u64>> = HashMap::new();
    let mut draws = [0u64; 2];
    for side in [Side::Goats, Side::Tigers] {
        for position in raw_positions(0, side) {
            if tables.probe(&position).expect("covered").wdl != Wdl::Draw {
                continue;
            }
            draws[side.index()] += 1;
            let successors = position
                .legal_moves(&rules)
                .iter()
                .map(|&mv| position.played(mv))
                .filter(|child| {
                    child.goats_captured() == 0
                        && tables.probe(child).expect("covered").wdl == Wdl::Draw
                })
                .map(|child| child.hash())
                .collect();
            edges.insert(position.hash(), successors);
        }
    }
    let sizes = component_sizes(&edges);
    let layers = census(dir, QUIET).expect("census");
    assert_eq!(layers.len(), 1);
    let layer = &layers[0];
    assert_eq!(
        [layer.sides[0].draw_states, layer.sides[1].draw_states],
        draws
    );
    assert_eq!(layer.components(), sizes.len() as u64);
    assert_eq!(layer.largest(), *sizes.last().unwrap() as u64);
    let singletons = sizes.iter().filter(|&&s| s == 1).count() as u64;
    assert_eq!(layer.in_range(1, 1).0, singletons);
    let mut from_census: Vec<usize> = layer
        .sizes
        .iter()
        .flat_map(|(&size, &count)| std::iter::repeat_n(size as usize, count as usize))
        .collect();
    from_census.sort_unstable();
    assert_eq!(from_census, sizes);
    assert!(draws[0] > 0 && draws[1] > 0);
}

/// The winner of `game` (Repetition forbid) with best play from here, by trying every line of
/// the game itself: the tables are used only at table wins and losses (exact from any history
/// of table draws: `table_wins_hold_under_forbid_after_draws`), never at draws. `None` when
/// more than `budget` nodes would be needed.
fn full_history_winner(game: &mut Game, tables: &Tablebase, budget: &mut u64) -> Option<Side> {
    let mover = game.position().side_to_move();
    if let Some(outcome) = game.outcome() {
        return outcome.winner();
    }
    // Table values are used in the movement phase only.
    let value = (game.position().goats_in_hand() == 0)
        .then(|| tables.probe(game.position()).expect("covered"));
    match value.map(|value| value.wdl) {
        Some(Wdl::Win) => return Some(mover),
        Some(Wdl::Loss) => return Some(mover.opposite()),
        _ => {}
    }
    if *budget == 0 {
        return None;
    }
    *budget -= 1;
    let mut unknown = false;
    for mv in game.legal_moves().iter().copied().collect::<Vec<_>>() {
        game.play(mv).expect("legal");
        let winner = full_history_winner(game, tables, budget);
        game.undo();
        match winner {
            Some(side) if side == mover => return Some(mover),
            Some(_) => {}
            None => unknown = true,
        }
    }
    if unknown {
        None
    } else {
        Some(mover.opposite())
    }
}

/// Every solved table draw (a sample for the larger variant) against the full-history search.
fn check_solved_values(captures_to_win: u8, stride: usize) {
    let dir = solved_dir(captures_to_win);
    let tables = Tablebase::open(dir, table_rules(captures_to_win)).expect("open");
    let (mut checked, mut wins, mut losses, mut out_of_budget) = (0, 0, 0, 0);
    for captured in 0..captures_to_win {
        let index = LayerIndex::get(usize::from(captured) + 1);
        for side in 0..2 {
            for class in (0..index.len()).step_by(stride) {
                let position = board_position(index.decode(class), side, captured);
                if tables.probe(&position).unwrap().wdl != Wdl::Draw {
                    continue;
                }
                let solved = probe_forbid(dir, &tables, &position).unwrap().unwrap();
                if solved == ForbidValue::Unknown {
                    continue;
                }
                let mut game = Game::new(position, forbid_rules(captures_to_win));
                let mut budget = 5_000;
                let Some(winner) = full_history_winner(&mut game, &tables, &mut budget) else {
                    out_of_budget += 1;
                    continue;
                };
                let mover = position.side_to_move();
                let expected = if winner == mover {
                    ForbidValue::Win
                } else {
                    ForbidValue::Loss
                };
                assert_eq!(solved, expected, "{position}");
                checked += 1;
                if expected == ForbidValue::Win {
                    wins += 1;
                } else {
                    losses += 1;
                }
            }
        }
    }
    eprintln!("checked {checked} ({wins} wins, {losses} losses), {out_of_budget} over budget");
    assert!(wins >= 20 && losses >= 20, "{wins} wins, {losses} losses");
}

#[test]
fn solved_values_agree_with_a_full_history_search_captures_to_win_1() {
    check_solved_values(1, 1);
}

#[test]
fn solved_values_agree_with_a_full_history_search_captures_to_win_2() {
    check_solved_values(2, 31);
}

#[test]
fn table_wins_hold_under_forbid_after_draws() {
    // From a table draw, play a move into a table win or loss for the opponent; with that
    // history, the table's value must hold under forbid within its distance.
    let dir = solved_dir(2);
    let tables = Tablebase::open(dir, table_rules(2)).expect("open");
    let rules = forbid_rules(2);
    let mut checked = 0;
    for captured in 0..2 {
        let index = LayerIndex::get(usize::from(captured) + 1);
        for side in 0..2 {
            for class in (0..index.len()).step_by(37) {
                let position = board_position(index.decode(class), side, captured);
                if tables.probe(&position).unwrap().wdl != Wdl::Draw {
                    continue;
                }
                for &mv in position.legal_moves(&rules).iter() {
                    let child = position.played(mv);
                    let value = tables.probe(&child).unwrap();
                    let Some(plies) = value.plies_to_end.filter(|&d| (1..=5).contains(&d)) else {
                        continue;
                    };
                    let mut game = Game::new(position, rules);
                    game.play(mv).unwrap();
                    let holds = if value.wdl == Wdl::Win {
                        mover_wins_within(&mut game, u32::from(plies))
                    } else {
                        mover_loses_within(&mut game, u32::from(plies))
                    };
                    assert!(holds, "{position} {mv}: {value}");
                    checked += 1;
                }
            }
        }
    }
    assert!(checked >= 50, "{checked}");
}

fn run_tb(args: &[&str]) -> (bool, String, String) {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_baghchal"))
        .arg("tb")
        .args(args)
        .output()
        .expect("run baghchal");
    (
        output.status.success(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

#[test]
fn the_cli_solves_probes_and_refuses_a_damaged_forbid_file() {
    // A private copy: this test damages a file.
    let source = solved_dir(1);
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("forbid-cli");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(source.join("layer-0.bctb"), dir.join("layer-0.bctb")).unwrap();
    let dir_text = dir.to_str().unwrap();

    let (ok, out, _) = run_tb(&["forbid", "census", dir_text]);
    assert!(ok);
    assert!(
        out.lines()
            .any(|line| line.trim_start().starts_with("0 goats")),
        "{out}"
    );

    // A table draw with a solved value, and what the library says of it.
    let tables = Tablebase::open(&dir, table_rules(1)).unwrap();
    let index = LayerIndex::get(1);
    let position = (0..index.len())
        .map(|class| board_position(index.decode(class), 0, 0))
        .find(|p| tables.probe(p).unwrap().wdl == Wdl::Draw)
        .expect("a draw");
    let text = position.to_string();
    let (ok, out, _) = run_tb(&["probe", dir_text, &text]);
    assert!(ok);
    assert!(out.contains("forbid: not solved"), "{out}");

    let (ok, out, _) = run_tb(&["forbid", "solve", dir_text, "--max-states", "24"]);
    assert!(ok, "{out}");
    let value = probe_forbid(&dir, &tables, &position).unwrap().unwrap();
    let winner = match value {
        ForbidValue::Win => position.side_to_move(),
        ForbidValue::Loss => position.side_to_move().opposite(),
        ForbidValue::Unknown => panic!("layer 0 of CapturesToWin 1 is solved completely"),
    };
    let (ok, out, _) = run_tb(&["probe", dir_text, &text]);
    assert!(ok);
    assert!(out.contains(&format!("forbid: {winner} win")), "{out}");
    // Solving again keeps the file.
    let (ok, out, _) = run_tb(&["forbid", "solve", dir_text, "--max-states", "24"]);
    assert!(ok && out.contains("(present)"), "{out}");

    // One flipped bit: reported as corrupt, never used.
    let path = dir.join("forbid-0.bcfb");
    let mut bytes = std::fs::read(&path).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 1;
    std::fs::write(&path, bytes).unwrap();
    let (ok, _, err) = run_tb(&["probe", dir_text, &text]);
    assert!(!ok && err.contains("corrupt"), "{err}");
    // Out-of-range options and missing tables are clear errors.
    let (ok, _, _) = run_tb(&["forbid", "solve", dir_text, "--max-states", "65"]);
    assert!(!ok);
    let (ok, _, err) = run_tb(&["forbid", "census", "/nonexistent/forbid"]);
    assert!(!ok && err.contains("not found"), "{err}");
}

#[test]
fn the_placement_pass_under_forbid_agrees_with_a_full_history_search() {
    // CapturesToWin 1: every table draw is solved, so every placement value is decided.
    let dir = solved_dir(1);
    let start = start_bounds(dir, 2, 2, QUIET).expect("placement under forbid");
    assert_eq!(start.unknown_entries, vec![0]);
    assert!(start.run.start.is_none(), "stopped at 2 goats in hand");
    let stamps = Arc::new(Stamps::load(&start.dir));
    let placement = PlacementTables::open(&start.dir, table_rules(1), stamps, PayloadCheck::Always)
        .expect("open");
    assert!(placement.wait_checked().is_empty(), "no corrupt layer");
    let tables = Tablebase::open(dir, table_rules(1)).expect("open");
    let mut rng = StdRng::seed_from_u64(23);
    let (mut checked, mut goats_wins) = (0, 0);
    for _ in 0..400 {
        let in_hand = rng.random_range(1..=2u8);
        let side = if rng.random_bool(0.5) {
            Side::Goats
        } else {
            Side::Tigers
        };
        let mut points: Vec<u32> = (0..25).collect();
        points.shuffle(&mut rng);
        let tigers = points[..4].iter().fold(0, |set, &p| set | 1 << p);
        let goats = points[4..4 + usize::from(20 - in_hand)]
            .iter()
            .fold(0, |set, &p| set | 1 << p);
        let position = Position::from_parts(
            baghchal::Bitboard(tigers),
            baghchal::Bitboard(goats),
            side,
            in_hand,
            0,
        )
        .expect("valid");
        let stored = placement.probe(&position).expect("covered");
        assert_ne!(stored, Wdl::Draw, "{position}: no unknown values here");
        let mut game = Game::new(position, forbid_rules(1));
        let mut budget = 20_000;
        let Some(winner) = full_history_winner(&mut game, &tables, &mut budget) else {
            continue;
        };
        let expected = if winner == side { Wdl::Win } else { Wdl::Loss };
        assert_eq!(stored, expected, "{position}");
        checked += 1;
        goats_wins += usize::from(winner == Side::Goats);
    }
    assert!(
        checked >= 200 && goats_wins >= 20 && checked - goats_wins >= 20,
        "{checked} {goats_wins}"
    );
}
