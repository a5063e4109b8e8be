//! `tb forbid`: the census and the solved values under `Repetition forbid`, checked against an
//! exhaustive full-history search on the rules core (`Game` with `Repetition::Forbid`), which
//! knows nothing of raw indexes, components or the solver.

use baghchal::tablebase::file::PayloadCheck;
use baghchal::tablebase::forbid::census::census;
use baghchal::tablebase::forbid::probe::probe_forbid;
use baghchal::tablebase::forbid::start::start_bounds;
use baghchal::tablebase::forbid::ForbidValue;
use baghchal::tablebase::index::LayerIndex;
use baghchal::tablebase::placement::PlacementTables;
use baghchal::tablebase::stamp::Stamps;
use baghchal::tablebase::verify::board_position;
use baghchal::tablebase::{Tablebase, Wdl};
use baghchal::{Game, Position, Repetition, Side};
use forbid_common::{
    engine_answer, forbid_rules, full_history_winner, random_placement, run_tb, solved_dir,
    table_rules, QUIET,
};
use rand::rngs::StdRng;
use rand::seq::{IndexedRandom, SliceRandom};
use rand::{Rng, SeedableRng};
use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::sync::Arc;
use tb_common::{mover_loses_within, mover_wins_within};

mod forbid_common;
mod tb_common;

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
        let position = random_placement(&mut rng, in_hand, side);
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

/// The table-draw steps (no capture) of the last state of `game` that the rules allow.
fn draw_steps(game: &Game, tables: &Tablebase) -> Vec<baghchal::Move> {
    let position = *game.position();
    game.legal_moves()
        .iter()
        .copied()
        .filter(|&mv| {
            let child = position.played(mv);
            child.goats_captured() == position.goats_captured()
                && tables.probe(&child).unwrap().wdl == Wdl::Draw
        })
        .collect()
}

/// Proven values judged for a game's history (`ForbidJudge`, claims 5 and 7 of docs/forbid.md)
/// against the full-history search of the game itself: random games of table-draw steps from
/// sampled proven draws, judged at every state. Some histories must meet the state's
/// component and change its value from the stored one (the judge must not claim the stored
/// value there).
fn check_judged_histories(captures_to_win: u8, stride: usize) {
    use baghchal::tablebase::forbid::history::ForbidJudge;
    use baghchal::tablebase::forbid::tables::ForbidTables;
    let dir = solved_dir(captures_to_win);
    let tables = Tablebase::open(dir, table_rules(captures_to_win)).expect("open");
    let (forbid, errors) = ForbidTables::open(dir, &tables);
    assert!(errors.is_empty(), "{errors:?}");
    let forbid = forbid.expect("forbid files");
    let judge = ForbidJudge::new(&tables, &forbid);
    let mut rng = StdRng::seed_from_u64(23);
    let (mut agreed, mut changed, mut unclaimed) = (0, 0, 0);
    for captured in 0..captures_to_win {
        let index = LayerIndex::get(usize::from(captured) + 1);
        for side in 0..2 {
            for class in (0..index.len()).step_by(stride) {
                let start = board_position(index.decode(class), side, captured);
                let stored = forbid.stored(&start);
                if !matches!(stored, Some(ForbidValue::Win | ForbidValue::Loss)) {
                    continue;
                }
                let mut game = Game::new(start, forbid_rules(captures_to_win));
                for _ in 0..rng.random_range(1..8) {
                    let steps = draw_steps(&game, &tables);
                    let Some(&mv) = steps.choose(&mut rng) else {
                        break;
                    };
                    game.play(mv).expect("legal");
                    let judged = judge.value_in_game(game.positions(), 100_000);
                    let mut budget = 20_000;
                    let winner = full_history_winner(&mut game.clone(), &tables, &mut budget);
                    let mover = game.position().side_to_move();
                    match (judged, winner) {
                        (ForbidValue::Unknown, _) => unclaimed += 1,
                        (_, None) => {}
                        (judged, Some(winner)) => {
                            let expected = if winner == mover {
                                ForbidValue::Win
                            } else {
                                ForbidValue::Loss
                            };
                            assert_eq!(judged, expected, "{:?}", game.positions());
                            agreed += 1;
                            if forbid.stored(game.position()) == Some(judged.negate()) {
                                changed += 1;
                            }
                        }
                    }
                }
            }
        }
    }
    eprintln!("{agreed} judged values agree ({changed} differ from the stored value), {unclaimed} not claimed");
    assert!(agreed >= 50, "{agreed} agreed");
    assert!(
        changed >= 1,
        "no history changed a value: the test shows nothing"
    );
}

#[test]
fn values_judged_for_a_history_agree_with_a_full_history_search_captures_to_win_1() {
    check_judged_histories(1, 1);
}

#[test]
fn values_judged_for_a_history_agree_with_a_full_history_search_captures_to_win_2() {
    check_judged_histories(2, 97);
}

// ---- The engine and the referee use proven values (issue 23 part 6) ----

const ENGINE: &str = env!("CARGO_BIN_EXE_baghchal");
const REFEREE: &str = env!("CARGO_BIN_EXE_referee");
const MOCK: &str = env!("CARGO_BIN_EXE_mock-engine");

/// The first table draws of CapturesToWin 1 (in class order) whose stored forbid value is
/// `value`, as positions with no history.
fn stored_draws(tables: &Tablebase, value: ForbidValue) -> Vec<Position> {
    stored_draws_of(1, tables, value, 1)
}

/// The table draws of CapturesToWin `captures_to_win` (every `stride`th class of each layer)
/// whose stored forbid value is `value`, as positions with no history.
fn stored_draws_of(
    captures_to_win: u8,
    tables: &Tablebase,
    value: ForbidValue,
    stride: usize,
) -> Vec<Position> {
    let dir = solved_dir(captures_to_win);
    let mut found = Vec::new();
    for captured in 0..captures_to_win {
        let index = LayerIndex::get(usize::from(captured) + 1);
        for side in 0..2 {
            for class in (0..index.len()).step_by(stride) {
                let position = board_position(index.decode(class), side, captured);
                if tables.probe(&position).unwrap().wdl == Wdl::Draw
                    && probe_forbid(dir, tables, &position).unwrap() == Some(value)
                {
                    found.push(position);
                }
            }
        }
    }
    found
}

/// The winner of a game by the full-history search, which must decide it.
fn decided_winner(game: &Game, tables: &Tablebase) -> Side {
    full_history_winner(&mut game.clone(), tables, &mut 200_000).expect("within budget")
}

#[test]
fn the_engine_plays_and_reports_a_proven_forbid_win_where_the_tables_see_a_draw() {
    let dir = solved_dir(1);
    let tables = Tablebase::open(dir, table_rules(1)).expect("open");
    let wins = stored_draws(&tables, ForbidValue::Win);
    assert!(wins.len() >= 3);
    for start in wins.iter().step_by(wins.len() / 3).take(3) {
        let (lines, best) = engine_answer(dir, &format!("fen {start}"));
        let mover = start.side_to_move();
        assert!(
            lines
                .iter()
                .any(|l| l.contains(&format!("info string forbid: {mover} win"))),
            "{start}: {lines:?}"
        );
        assert!(
            lines.iter().any(|l| l.contains("score cp 20000")),
            "{lines:?}"
        );
        // The move keeps the win, by the full-history search of the game itself.
        let mut game = Game::new(*start, forbid_rules(1));
        game.play(best.parse().expect("a move")).expect("legal");
        assert_eq!(decided_winner(&game, &tables), mover, "{start} {best}");
    }
    // Without the forbid files the same position is only a table draw.
    let plain = Path::new(env!("CARGO_TARGET_TMPDIR")).join("forbid-ctw1-tables-only");
    std::fs::create_dir_all(&plain).unwrap();
    std::fs::copy(dir.join("layer-0.bctb"), plain.join("layer-0.bctb")).unwrap();
    let (lines, _) = engine_answer(&plain, &format!("fen {}", wins[0]));
    assert!(!lines
        .iter()
        .any(|l| l.contains("forbid:") || l.contains("cp 20000")));
    assert!(lines.iter().any(|l| l.contains("score cp 0")), "{lines:?}");
}

/// A game from a stored win whose history meets the last state's component and makes that
/// state a loss for its mover (by the full-history search), with a move to a stored loss for
/// the opponent; `None` if the sample has none.
fn changed_by_history(
    tables: &Tablebase,
    starts: &[Position],
) -> Option<(Position, Vec<baghchal::Move>)> {
    let mut rng = StdRng::seed_from_u64(5);
    for start in starts {
        for _ in 0..20 {
            let mut game = Game::new(*start, forbid_rules(1));
            let mut moves = Vec::new();
            for _ in 0..6 {
                let steps = draw_steps(&game, tables);
                let Some(&mv) = steps.choose(&mut rng) else {
                    break;
                };
                game.play(mv).unwrap();
                moves.push(mv);
                let stored = probe_forbid(solved_dir(1), tables, game.position()).unwrap();
                let mover = game.position().side_to_move();
                let mut budget = 200_000;
                let winner = full_history_winner(&mut game.clone(), tables, &mut budget);
                // A move to a stored loss for the opponent: a judge that ignored the history
                // would claim the win through it.
                let tempting = game.legal_moves().iter().any(|&mv| {
                    let child = game.position().played(mv);
                    probe_forbid(solved_dir(1), tables, &child).unwrap() == Some(ForbidValue::Loss)
                });
                if stored == Some(ForbidValue::Win) && tempting && winner == Some(mover.opposite())
                {
                    return Some((*start, moves));
                }
            }
        }
    }
    None
}

#[test]
fn the_engine_does_not_claim_a_stored_win_that_the_history_undoes() {
    let dir = solved_dir(1);
    let tables = Tablebase::open(dir, table_rules(1)).expect("open");
    let mut starts = stored_draws(&tables, ForbidValue::Win);
    starts.extend(stored_draws(&tables, ForbidValue::Loss));
    let (start, moves) = changed_by_history(&tables, &starts).expect("a history that matters");
    let text: Vec<String> = moves.iter().map(|mv| mv.to_string()).collect();
    let (lines, _) = engine_answer(dir, &format!("fen {start} moves {}", text.join(" ")));
    let mut game = Game::new(start, forbid_rules(1));
    for &mv in &moves {
        game.play(mv).unwrap();
    }
    let mover = game.position().side_to_move();
    assert!(
        !lines
            .iter()
            .any(|l| l.contains(&format!("forbid: {mover} win")) || l.contains("cp 20000")),
        "{lines:?}"
    );
}

#[test]
fn a_corrupt_forbid_file_is_reported_and_not_used() {
    let dir = solved_dir(1);
    let tables = Tablebase::open(dir, table_rules(1)).expect("open");
    let win = stored_draws(&tables, ForbidValue::Win)[0];
    let bad = Path::new(env!("CARGO_TARGET_TMPDIR")).join("forbid-ctw1-corrupt");
    std::fs::create_dir_all(&bad).unwrap();
    std::fs::copy(dir.join("layer-0.bctb"), bad.join("layer-0.bctb")).unwrap();
    let mut bytes = std::fs::read(dir.join("forbid-0.bcfb")).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 0x55;
    std::fs::write(bad.join("forbid-0.bcfb"), bytes).unwrap();
    let (lines, _) = engine_answer(&bad, &format!("fen {win}"));
    assert!(
        lines.iter().any(
            |l| l.starts_with("info string error: forbid values not used")
                && l.contains("forbid-0.bcfb")
        ),
        "{lines:?}"
    );
    assert!(!lines
        .iter()
        .any(|l| l.contains("forbid:") || l.contains("cp 20000")));
    // The referee's adjudicator does not use it either; the tables themselves still work.
    let rules = forbid_rules(1);
    let adjudicator = baghchal::referee::tb_adjudication::TbAdjudicator::open(&bad, &rules, None)
        .expect("the tables open");
    assert!(!adjudicator.has_forbid_values());
    assert_eq!(adjudicator.adjudicate(&Game::new(win, rules)), None);
}

#[test]
fn the_referee_adjudicates_proven_forbid_values_for_the_game_history() {
    use baghchal::referee::outcome::GameResult;
    use baghchal::referee::tb_adjudication::TbAdjudicator;
    let dir = solved_dir(1);
    let tables = Tablebase::open(dir, table_rules(1)).expect("open");
    let rules = forbid_rules(1);
    let adjudicator = TbAdjudicator::open(dir, &rules, None).expect("open");
    assert!(adjudicator.has_forbid_values());
    for value in [ForbidValue::Win, ForbidValue::Loss] {
        for start in stored_draws(&tables, value).iter().take(5) {
            let game = Game::new(*start, rules);
            let winner = decided_winner(&game, &tables);
            let (result, reason) = adjudicator.adjudicate(&game).expect("adjudicated");
            assert_eq!(result, GameResult::win_for(winner), "{start}");
            assert_eq!(reason, format!("Forbid tablebase: {winner} win"));
        }
    }
    // A history that changes the value: never the stored result.
    let mut starts = stored_draws(&tables, ForbidValue::Win);
    starts.extend(stored_draws(&tables, ForbidValue::Loss));
    let (start, moves) = changed_by_history(&tables, &starts).expect("a history that matters");
    let mut game = Game::new(start, rules);
    for &mv in &moves {
        game.play(mv).unwrap();
    }
    let winner = decided_winner(&game, &tables);
    if let Some((result, _)) = adjudicator.adjudicate(&game) {
        assert_eq!(result, GameResult::win_for(winner));
    }
    // Under the draw rule forbid files are not read.
    let draw_rules = table_rules(1).with_repetition(Repetition::Draw);
    assert!(!TbAdjudicator::open(dir, &draw_rules, None)
        .unwrap()
        .has_forbid_values());
}

/// Plays `positions` (all won by `winner` from an empty history, CapturesToWin
/// `captures_to_win`) through the referee: our engine with the tables in `dir` on the winner's
/// side, `opponent` (the referee's `-engine` settings) on the other, played to the end unless
/// `extra` asks for adjudication; returns the games' results and final comments.
fn play_out(
    captures_to_win: u8,
    opponent: &[String],
    dir: &Path,
    positions: &[Position],
    winner: Side,
    tag: &str,
    extra: &[&str],
) -> Vec<(String, String)> {
    use baghchal::referee::record::read_records;
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("forbid-playout-{tag}"));
    std::fs::create_dir_all(&out).unwrap();
    let openings = out.join("openings.txt");
    let text: String = positions.iter().map(|p| format!("{p}\n")).collect();
    std::fs::write(&openings, text).unwrap();
    let json = out.join("games.jsonl");
    let _ = std::fs::remove_file(&json);
    let ours = [
        format!("cmd={ENGINE}"),
        "name=ours".into(),
        format!("option.TablebasePath={}", dir.display()),
        "depth=3".into(),
    ];
    let mut args: Vec<String> = vec!["-engine".into()];
    // -noswap: the first engine plays goats in every game.
    if winner == Side::Goats {
        args.extend(ours.iter().cloned());
        args.push("-engine".into());
        args.extend(opponent.iter().cloned());
    } else {
        args.extend(opponent.iter().cloned());
        args.push("-engine".into());
        args.extend(ours.iter().cloned());
    }
    for arg in [
        "-noswap",
        "-captures-to-win",
        &captures_to_win.to_string(),
        "-repetition",
        "forbid",
        "-games",
        "1",
        "-rounds",
        &positions.len().to_string(),
        "-openings",
        &format!("file={}", openings.display()),
        "-jsonout",
        json.to_str().unwrap(),
    ] {
        args.push(arg.to_string());
    }
    args.extend(extra.iter().map(|s| s.to_string()));
    let output = std::process::Command::new(REFEREE)
        .args(&args)
        .output()
        .expect("the referee runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    read_records(json.to_str().unwrap())
        .unwrap()
        .iter()
        .map(|record| (record.result.to_string(), record.reason.clone()))
        .collect()
}

/// The mock engine's random mover, as `-engine` settings.
fn random_mover() -> Vec<String> {
    vec![
        format!("cmd={MOCK}"),
        "name=mock".into(),
        "arg=--seed=7".into(),
        "depth=1".into(),
    ]
}

#[test]
fn proven_winners_never_lose_against_a_random_mover_through_the_referee() {
    let dir = solved_dir(1);
    let tables = Tablebase::open(dir, table_rules(1)).expect("open");
    let won_by = |winner: Side| -> Vec<Position> {
        let mut found: Vec<Position> = [ForbidValue::Win, ForbidValue::Loss]
            .into_iter()
            .flat_map(|value| stored_draws(&tables, value))
            .filter(|p| {
                let mover_wins = probe_forbid(dir, &tables, p).unwrap() == Some(ForbidValue::Win);
                (p.side_to_move() == winner) == mover_wins
            })
            .collect();
        found.shuffle(&mut StdRng::seed_from_u64(11));
        found.truncate(8);
        found
    };
    for winner in [Side::Goats, Side::Tigers] {
        let positions = won_by(winner);
        assert!(positions.len() >= 4);
        let expected = if winner == Side::Goats { "1-0" } else { "0-1" };
        let results = play_out(
            1,
            &random_mover(),
            dir,
            &positions,
            winner,
            &format!("{winner}"),
            &[],
        );
        assert_eq!(results.len(), positions.len());
        for (result, _) in &results {
            assert_eq!(result, expected, "{winner}: {results:?}");
        }
        // With -tb the referee adjudicates the proven value at once.
        let results = play_out(
            1,
            &random_mover(),
            dir,
            &positions,
            winner,
            &format!("{winner}-tb"),
            &["-tb", dir.to_str().unwrap()],
        );
        for (result, comment) in &results {
            assert_eq!(result, expected);
            assert!(comment.contains("Forbid tablebase"), "{comment}");
        }
    }
}

/// The larger play-out (run by hand, `--ignored`; minutes): CapturesToWin 2, up to `count`
/// proven entry states per winner from both layers, against the random mover and against our
/// engine without tables at depth 2. Prints the tally.
#[test]
#[ignore]
fn proven_winners_never_lose_captures_to_win_2_larger_run() {
    let count: usize = std::env::var("FORBID_PLAYOUT_COUNT")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(40);
    let dir = solved_dir(2);
    let tables = Tablebase::open(dir, table_rules(2)).expect("open");
    let our_engine = vec![
        format!("cmd={ENGINE}"),
        "name=plain".into(),
        "depth=2".into(),
    ];
    for winner in [Side::Goats, Side::Tigers] {
        let mut positions: Vec<Position> = [ForbidValue::Win, ForbidValue::Loss]
            .into_iter()
            .flat_map(|value| stored_draws_of(2, &tables, value, 7))
            .filter(|p| {
                let mover_wins = probe_forbid(dir, &tables, p).unwrap() == Some(ForbidValue::Win);
                (p.side_to_move() == winner) == mover_wins
            })
            .collect();
        positions.shuffle(&mut StdRng::seed_from_u64(12));
        positions.truncate(count);
        let expected = if winner == Side::Goats { "1-0" } else { "0-1" };
        for (name, opponent) in [("random", random_mover()), ("engine", our_engine.clone())] {
            let results = play_out(
                2,
                &opponent,
                dir,
                &positions,
                winner,
                &format!("ctw2-{winner}-{name}"),
                &[],
            );
            let won = results
                .iter()
                .filter(|(result, _)| result == expected)
                .count();
            eprintln!(
                "CapturesToWin 2, {winner} proven winners vs {name}: {won} of {} won",
                results.len()
            );
            assert_eq!(won, results.len(), "{results:?}");
        }
    }
}
