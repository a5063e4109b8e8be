//! The search without tables against the tables (captures to win 2): every result it claims
//! is true, and the short wins are found. Under the draw rule, with no game history, table
//! values are the game's values.

mod tb_common;

use baghchal::engine::{Limits, Score};
use baghchal::tablebase::Wdl;
use baghchal::{Game, Position, Repetition};
use tb_common::*;

/// Table wins at most this many plies away must be found.
const SHORT_WIN: u16 = 9;

#[test]
fn search_results_agree_with_the_tables() {
    let positions = sample(61, 80, |_, _| true);
    let (mut wins, mut losses, mut short_wins) = (0, 0, 0);
    for start in positions {
        let value = tables().probe(&start).unwrap();
        let mut engine = engine(&Game::new(start, rules(Repetition::Draw)), false);
        let info = engine.search_blocking(nodes(20_000)).info.expect("an info");
        match info.score {
            Score::Mate(moves) if moves > 0 => {
                // Wins within `moves` moves: the tables' fastest win is no longer.
                wins += 1;
                assert_eq!(value.wdl, Wdl::Win, "{start}: {:?}", info.score);
                assert!(value.plies_to_end.unwrap() < 2 * moves as u16, "{start}");
            }
            Score::Mate(moves) => {
                // Lost within `-moves` moves: the tables' slowest loss is no longer.
                losses += 1;
                assert_eq!(value.wdl, Wdl::Loss, "{start}: {:?}", info.score);
                assert!(
                    value.plies_to_end.unwrap() <= 2 * (-moves) as u16,
                    "{start}"
                );
            }
            Score::Cp(_) => {}
        }
        if value.wdl == Wdl::Win && value.plies_to_end.unwrap() <= SHORT_WIN {
            short_wins += 1;
            assert!(
                matches!(info.score, Score::Mate(moves) if moves > 0),
                "{start}: a win in {:?} plies missed: {:?}",
                value.plies_to_end,
                info.score
            );
        }
    }
    eprintln!("claimed wins {wins}, claimed losses {losses}, short wins {short_wins}");
    // The sample holds claims of both kinds, so the checks above were exercised.
    assert!(wins > 0 && losses > 0 && short_wins > 0);
}

/// The settings for crowded positions (off by default, docs/eval.md "Search changes for the
/// movement-phase misses") search more in such positions, and what they claim is still true:
/// on crowded table positions (captures to win 2: one or two empty points), each changes the
/// tree of a fixed-depth search, and every mate it reports agrees with the tables.
#[test]
fn crowded_position_settings_change_the_tree_and_claim_only_true_results() {
    let positions = sample(67, 40, |_, value| value.wdl != Wdl::Loss);
    let depth = Limits {
        depth: Some(10),
        ..Limits::default()
    };
    let claims = std::cell::Cell::new(0);
    let nodes_with = |settings: &[(&str, i32)], start: &Position| {
        let mut engine = engine(&Game::new(*start, rules(Repetition::Draw)), false);
        let mut params = engine.params().clone();
        for &(name, value) in settings {
            params.set(name, value).unwrap();
        }
        engine.set_params(params);
        let info = engine.search_blocking(depth.clone()).info.expect("an info");
        if let Score::Mate(moves) = info.score {
            let value = tables().probe(start).unwrap();
            let wdl = if moves > 0 { Wdl::Win } else { Wdl::Loss };
            claims.set(claims.get() + 1);
            assert_eq!(
                value.wdl, wdl,
                "{start} with {settings:?}: {:?}",
                info.score
            );
        }
        info.nodes
    };
    let settings: [&[(&str, i32)]; 4] = [
        &[("narrow_extension", 3)],
        &[("parry_extension", 2)],
        &[("crowded_empty", 2)],
        &[("crowded_empty", 2), ("crowded_sides", 2)],
    ];
    let base: u64 = positions.iter().map(|p| nodes_with(&[], p)).sum();
    for setting in settings {
        let changed: u64 = positions.iter().map(|p| nodes_with(setting, p)).sum();
        eprintln!("{setting:?}: {changed} nodes against {base}");
        assert_ne!(changed, base, "{setting:?} left the search as it was");
    }
    // Some mates were claimed, so the check above was exercised.
    eprintln!("mate claims checked: {}", claims.get());
    assert!(claims.get() > 0);
}
