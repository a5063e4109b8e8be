//! Tablebase values against independent solvers built on the rules core (`Position`), without
//! symmetry: a full fixed-point minimax over every raw position of the smallest layer, and a
//! plain depth-limited minimax with memo on sampled positions of two layers.

use baghchal::tablebase::solve::generate_tables;
use baghchal::tablebase::{TableRules, Tablebase, TbValue, Wdl};
use baghchal::{Bitboard, Position, Rules, Side};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::OnceLock;

fn rules(forced_capture: bool, captures_to_win: u8) -> Rules {
    Rules {
        forced_capture,
        captures_to_win,
        ..Rules::default()
    }
}

/// Tables for `rules` generated once per variant into a temporary directory.
fn tables(rules: &Rules) -> &'static Tablebase {
    let table_rules = TableRules::of(rules);
    let TableRules {
        forced_capture,
        captures_to_win,
    } = table_rules;
    static CACHE: [[OnceLock<Tablebase>; 2]; 2] = [
        [OnceLock::new(), OnceLock::new()],
        [OnceLock::new(), OnceLock::new()],
    ];
    CACHE[usize::from(forced_capture)][usize::from(captures_to_win - 1)].get_or_init(|| {
        let dir: PathBuf = std::env::temp_dir().join(format!(
            "baghchal-tb-values-{}-{forced_capture}-{captures_to_win}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        generate_tables(&dir, table_rules, 2, &|_: &str, _: u64, _: u64| {}).expect("generation");
        let tables = Tablebase::open(&dir, table_rules).expect("open");
        let _ = std::fs::remove_dir_all(&dir);
        tables
    })
}

/// All `k`-subsets of the points in `mask`.
fn subsets(mask: u32, k: u32) -> Vec<u32> {
    if k == 0 {
        return vec![0];
    }
    if mask.count_ones() < k {
        return Vec::new();
    }
    let low = mask & mask.wrapping_neg();
    let mut out: Vec<u32> = subsets(mask & !low, k - 1)
        .into_iter()
        .map(|s| s | low)
        .collect();
    out.extend(subsets(mask & !low, k));
    out
}

/// Every position with all goats placed and `captured` goats captured, both sides to move.
fn raw_positions(captured: u8) -> Vec<Position> {
    let full = (1u32 << 25) - 1;
    let mut positions = Vec::new();
    for tigers in subsets(full, 4) {
        for empties in subsets(full & !tigers, u32::from(captured) + 1) {
            let goats = full & !tigers & !empties;
            for side in [Side::Goats, Side::Tigers] {
                positions.push(
                    Position::from_parts(Bitboard(tigers), Bitboard(goats), side, 0, captured)
                        .expect("valid"),
                );
            }
        }
    }
    positions
}

fn key(position: &Position) -> (u32, u32, Side) {
    (
        position.tigers().0,
        position.goats().0,
        position.side_to_move(),
    )
}

/// Distance-to-end values by fixed-point iteration of depth-n minimax over the whole layer
/// (captures_to_win = 1, so every capture ends the game): `Some(d)` wins when d is odd, loses
/// when even; `None` is a draw.
fn fixed_point_values(positions: &[Position], rules: &Rules) -> Vec<Option<u32>> {
    const CAPTURE_WINS: u32 = u32::MAX;
    let lookup: HashMap<_, u32> = positions
        .iter()
        .enumerate()
        .map(|(i, p)| (key(p), i as u32))
        .collect();
    let children: Vec<Vec<u32>> = positions
        .iter()
        .map(|p| {
            p.legal_moves(rules)
                .iter()
                .map(|&mv| {
                    let child = p.played(mv);
                    if child.goats_captured() >= rules.captures_to_win {
                        CAPTURE_WINS
                    } else {
                        lookup[&key(&child)]
                    }
                })
                .collect()
        })
        .collect();
    let mut values: Vec<Option<u32>> = vec![None; positions.len()];
    loop {
        let next: Vec<Option<u32>> = children
            .iter()
            .map(|kids| {
                let child_values = kids.iter().map(|&c| {
                    if c == CAPTURE_WINS {
                        Some(0)
                    } else {
                        values[c as usize]
                    }
                });
                let fastest_win = child_values.clone().flatten().filter(|d| d % 2 == 0).min();
                if let Some(d) = fastest_win {
                    Some(d + 1)
                } else if child_values.clone().all(|v| v.is_some()) {
                    Some(child_values.flatten().max().map_or(0, |d| d + 1))
                } else {
                    None
                }
            })
            .collect();
        if next == values {
            return values;
        }
        values = next;
    }
}

fn as_value(distance: Option<u32>) -> TbValue {
    distance.map_or(TbValue::DRAW, |d| TbValue::at_distance(d as u16))
}

#[test]
fn whole_first_layer_equals_fixed_point_minimax() {
    let positions = raw_positions(0);
    for forced_capture in [false, true] {
        let rules = rules(forced_capture, 1);
        let tables = tables(&rules);
        let expected = fixed_point_values(&positions, &rules);
        let mut kinds = [0usize; 3];
        for (position, &distance) in positions.iter().zip(&expected) {
            let value = as_value(distance);
            assert_eq!(
                tables.probe(position),
                Some(value),
                "{position} forced={forced_capture}"
            );
            kinds[value.wdl as usize] += 1;
        }
        assert!(
            kinds.iter().all(|&n| n > 0),
            "wins, draws and losses all occur: {kinds:?}"
        );
    }
}

/// Plain depth-limited minimax: `Some(d)` if the game ends in `d <= depth` plies with best play
/// (fastest win, slowest loss), `None` if that is not decided within `depth` plies.
fn minimax(
    position: &Position,
    depth: u32,
    rules: &Rules,
    memo: &mut HashMap<(u64, u32), Option<u32>>,
) -> Option<u32> {
    if let Some(&known) = memo.get(&(position.hash(), depth)) {
        return known;
    }
    let moves = position.legal_moves(rules);
    let result = if moves.is_empty() {
        Some(0)
    } else if depth == 0 {
        None
    } else {
        let mut fastest_win: Option<u32> = None;
        let mut slowest_loss = Some(0u32);
        for &mv in moves.iter() {
            let child = position.played(mv);
            let value = if child.goats_captured() >= rules.captures_to_win {
                Some(0)
            } else {
                minimax(&child, depth - 1, rules, memo)
            };
            match value {
                Some(d) if d % 2 == 0 => {
                    fastest_win = Some(fastest_win.map_or(d + 1, |w| w.min(d + 1)))
                }
                Some(d) => slowest_loss = slowest_loss.map(|l| l.max(d + 1)),
                None => slowest_loss = None,
            }
        }
        fastest_win.or(slowest_loss)
    };
    memo.insert((position.hash(), depth), result);
    result
}

#[test]
fn sampled_two_layer_positions_equal_plain_minimax() {
    const DEPTH: u32 = 7;
    let seed = 20_261_129;
    let mut rng = StdRng::seed_from_u64(seed);
    for forced_capture in [false, true] {
        let rules = rules(forced_capture, 2);
        let tables = tables(&rules);
        let layers = [raw_positions(0), raw_positions(1)];
        let (mut decided, mut undecided) = (0, 0);
        for sample in 0..120 {
            let layer = &layers[sample % 2];
            let position = layer[rng.random_range(0..layer.len())];
            let stored = tables.probe(&position).expect("covered");
            let mut memo = HashMap::new();
            let searched = minimax(&position, DEPTH, &rules, &mut memo);
            match stored.plies_to_end {
                Some(d) if u32::from(d) <= DEPTH => {
                    assert_eq!(searched, Some(u32::from(d)), "{position} (seed {seed})");
                    decided += 1;
                }
                _ => {
                    assert_eq!(searched, None, "{position}: stored {stored} (seed {seed})");
                    undecided += 1;
                }
            }
        }
        assert!(
            decided > 10 && undecided > 10,
            "{decided} decided, {undecided} undecided"
        );
    }
}

#[test]
fn values_are_invariant_under_symmetry_and_best_moves_keep_them() {
    let rules = rules(false, 2);
    let tables = tables(&rules);
    let mut rng = StdRng::seed_from_u64(7);
    let positions = raw_positions(1);
    for _ in 0..2_000 {
        let position = positions[rng.random_range(0..positions.len())];
        let value = tables.probe(&position).expect("covered");
        for g in 0..8 {
            let map = |set: Bitboard| Bitboard(baghchal::tablebase::index::transform(set.0, g));
            let image = Position::from_parts(
                map(position.tigers()),
                map(position.goats()),
                position.side_to_move(),
                0,
                1,
            )
            .unwrap();
            assert_eq!(
                tables.probe(&image),
                Some(value),
                "{position} under symmetry {g}"
            );
        }
        let best = tables.best_moves_with_values(&position);
        let legal = position.legal_moves(&rules);
        if legal.is_empty() {
            assert_eq!(value, TbValue::at_distance(0));
            assert!(best.is_empty());
            continue;
        }
        let (first, after) = best
            .first()
            .copied()
            .unwrap_or_else(|| panic!("{position}: no move keeps {value}"));
        assert!(legal.contains(&first));
        assert_eq!(after, value, "{position}: best move {first}");
        match value.wdl {
            Wdl::Loss => assert_eq!(best.len(), legal.len()),
            Wdl::Win | Wdl::Draw => assert!(best.iter().all(|(_, v)| v.wdl == value.wdl)),
        }
    }
}

#[test]
fn positions_outside_the_tables() {
    let tables = tables(&rules(false, 1));
    assert_eq!(tables.probe(&Position::startpos()), None, "goats in hand");
    let full = (1u32 << 25) - 1;
    let tigers = 0b1_0001 | 0b1_0001 << 20;
    let goats = full & !tigers & !0b110;
    // One goat captured with captures_to_win = 1: the tigers have won.
    let over = Position::from_parts(Bitboard(tigers), Bitboard(goats), Side::Goats, 0, 1).unwrap();
    assert_eq!(tables.probe(&over), Some(TbValue::at_distance(0)));
    assert!(tables.best_moves(&over).is_empty());
    let odd = Position::from_parts(Bitboard(tigers), Bitboard(goats), Side::Tigers, 0, 1).unwrap();
    assert_eq!(tables.probe(&odd), None);
}
