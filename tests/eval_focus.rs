//! The walks that make the pattern network's data for its weak spots (`baghchal::tuning::focus`,
//! `tools/eval_focus.rs`), on the tables for captures to win 2.

mod tb_common;

use baghchal::tablebase::Wdl;
use baghchal::tuning::focus::{is_last_layer_draw, walk, Focus, Walks};
use baghchal::{Position, Repetition, Rules};
use tb_common::{rules, sample, tables};

const EVERYWHERE: Focus = Focus {
    max_empty: 25,
    max_hand: 20,
};

fn walks(best_percent: u32, plies: u32) -> Walks {
    Walks {
        seed: 7,
        walks: 1,
        plies,
        best_percent,
    }
}

/// Walking only along moves the tables call best keeps the value: a draw stays a draw and a win
/// alternates with a loss; the winner's moves take the game no closer to its end than one ply
/// (the distance is the fastest win) and the loser's at least one ply closer (the slowest loss).
/// A game that ends (by the rules core) is won by the side the tables named.
#[test]
fn best_moves_keep_the_value_and_wins_end_with_the_winner_the_tables_name() {
    let rules = rules(Repetition::Draw);
    let starts = sample(3, 40, |_, value| value.wdl != Wdl::Loss);
    let mut ended = 0;
    for (index, start) in starts.iter().enumerate() {
        let start_value = tables().probe(start).unwrap();
        let found = walk(tables(), start, index as u64, &EVERYWHERE, &walks(100, 200));
        assert!(!found.is_empty());
        let mut last = start_value;
        for (ply, position) in found.iter().enumerate() {
            let plies = ply + 1;
            if let Some(outcome) = position.outcome(&rules) {
                assert_eq!(start_value.wdl, Wdl::Win, "{start}: {position}");
                assert_eq!(outcome.winner(), Some(start.side_to_move()), "{start}");
                assert_eq!(plies, found.len());
                ended += 1;
                continue;
            }
            let value = tables().probe(position).unwrap();
            let expected = if plies % 2 == 0 {
                start_value
            } else {
                start_value.negate()
            };
            assert_eq!(value.wdl, expected.wdl, "{start} -> {position}");
            if let (Some(before), Some(after)) = (last.plies_to_end, value.plies_to_end) {
                if last.wdl == Wdl::Win {
                    assert!(after + 1 >= before, "{start} -> {position}");
                } else {
                    assert!(after < before, "{start} -> {position}");
                }
            }
            last = value;
        }
    }
    assert!(ended > 0, "no win among the starts ended");
}

/// Random walks take legal moves one after the other, keep only what the focus wants, and the
/// same start, index and seed give the same positions (another seed, others).
#[test]
fn walks_are_legal_focused_and_repeat_from_their_seed() {
    let rules = rules(Repetition::Draw);
    let starts = sample(4, 20, |_, _| true);
    let mut differ = 0;
    for (index, start) in starts.iter().enumerate() {
        let found = walk(tables(), start, index as u64, &EVERYWHERE, &walks(0, 12));
        let mut previous = *start;
        for position in &found {
            let reachable = previous
                .legal_moves(&rules)
                .iter()
                .any(|mv| previous.played(*mv) == *position);
            assert!(reachable, "{previous} -> {position}");
            previous = *position;
        }
        let again = walk(tables(), start, index as u64, &EVERYWHERE, &walks(0, 12));
        assert_eq!(found, again);
        let other = walk(
            tables(),
            start,
            index as u64,
            &EVERYWHERE,
            &Walks {
                seed: 8,
                ..walks(0, 12)
            },
        );
        differ += usize::from(other != found);

        // One empty point at most: no goat captured yet.
        let crowded = Focus {
            max_empty: 1,
            max_hand: 0,
        };
        let kept = walk(tables(), start, index as u64, &crowded, &walks(0, 12));
        let expected: Vec<Position> = found
            .iter()
            .copied()
            .filter(|p| p.empty().count() <= 1)
            .collect();
        assert_eq!(kept, expected);
    }
    assert!(differ > 0, "another seed never changed a walk");
}

/// The focus: movement positions by their empty points, placement by the goats in hand.
#[test]
fn the_focus_reads_empty_points_and_goats_in_hand() {
    let focus = Focus {
        max_empty: 4,
        max_hand: 3,
    };
    for (text, wanted) in [
        ("GGGGG/GTGGG/GG3/GG1TT/GGTGG g 0 3", true),
        ("GGGGG/GTG1G/GG3/GG1TT/GGTGG g 0 4", false),
        ("GT2T/GG1GG/GGT1G/GGT1G/GGGGG g 2 2", true),
        ("GT2T/GG1GG/GGT1G/GGT2/GGGG1 g 4 2", false),
        ("T3T/5/5/5/T3T g 20 0", false),
    ] {
        let position: Position = text.parse().unwrap();
        assert_eq!(focus.contains(&position), wanted, "{text}");
    }
}

/// The goats' last layer's table draws (weighted up by `network_train --last-layer-draws`):
/// movement phase, one capture short of the tigers' win under the rules given, draws only,
/// either side to move.
#[test]
fn last_layer_draws_are_movement_draws_one_capture_short() {
    let default = Rules::default();
    let short_game = rules(Repetition::Draw);
    for (text, wdl, rules, wanted) in [
        (
            "GGGGG/GTG1G/GG3/GG1TT/GGTGG g 0 4",
            Wdl::Draw,
            default,
            true,
        ),
        (
            "GGGGG/GTG1G/GG3/GG1TT/GGTGG t 0 4",
            Wdl::Draw,
            default,
            true,
        ),
        (
            "GGGGG/GTG1G/GG3/GG1TT/GGTGG g 0 4",
            Wdl::Win,
            default,
            false,
        ),
        (
            "GGGGG/GTG1G/GG3/GG1TT/GGTGG t 0 4",
            Wdl::Loss,
            default,
            false,
        ),
        (
            "GGGGG/GTGGG/GG3/GG1TT/GGTGG g 0 3",
            Wdl::Draw,
            default,
            false,
        ),
        (
            "GGGGG/GTGGG/GGG2/GG1TT/GGTGG g 0 2",
            Wdl::Draw,
            default,
            false,
        ),
        (
            "GT2T/GG1GG/GGT1G/GGTG1/GGGG1 g 1 4",
            Wdl::Draw,
            default,
            false,
        ),
        (
            "GGGGG/GTGGG/GGG2/GG1TT/GGTGG g 0 2",
            Wdl::Draw,
            short_game,
            false,
        ),
        (
            "GGGGG/GTGGG/GGGG1/GG1TT/GGTGG t 0 1",
            Wdl::Draw,
            short_game,
            true,
        ),
        (
            "GGGGG/GTG1G/GG3/GG1TT/GGTGG g 0 4",
            Wdl::Draw,
            short_game,
            false,
        ),
    ] {
        let position: Position = text.parse().unwrap();
        assert_eq!(
            is_last_layer_draw(&position, wdl, &rules),
            wanted,
            "{text} {wdl:?} {}",
            rules.captures_to_win
        );
    }
}
