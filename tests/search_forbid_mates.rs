//! Mate claims of the search under `Repetition forbid`, without tables, judged by trying every
//! line of the game itself (its whole history included).
//!
//! Under forbid a position's value depends on the states since the last capture, so the
//! transposition table's key holds a key of that set. Built as the XOR of the states' Zobrist
//! keys it collided (Zobrist keys are linear: two histories that moved the same pieces over the
//! same points an even number of times hash alike), and the search reused a mate of one history
//! in another, claiming mates shorter than any the tigers can force.

use baghchal::engine::{Engine, EngineOptions, Limits, Score};
use baghchal::{Game, Move, Position, Repetition, Rules, Side};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::collections::HashMap;

fn rules() -> Rules {
    Rules {
        captures_to_win: 2,
        repetition: Repetition::Forbid,
        ..Rules::default()
    }
}

/// A node of the exhaustive search: the position, every state the game has seen (a move may
/// not recreate one), and the plies left.
type Node = (Position, Vec<u64>, u32);

/// Whether the tigers win `game` within `plies` plies whatever the goats play, trying every
/// line (memoised on the position and the set of states seen).
fn tigers_win_within(game: &mut Game, plies: u32, memo: &mut HashMap<Node, bool>) -> bool {
    if let Some(outcome) = game.outcome() {
        return outcome.winner() == Some(Side::Tigers);
    }
    if plies == 0 {
        return false;
    }
    let mut seen: Vec<u64> = game.positions().iter().map(Position::hash).collect();
    seen.sort_unstable();
    let node = (*game.position(), seen, plies);
    if let Some(&won) = memo.get(&node) {
        return won;
    }
    let tigers = game.position().side_to_move() == Side::Tigers;
    let moves: Vec<Move> = game.legal_moves().iter().copied().collect();
    let mut check = |mv: Move| {
        game.play(mv).expect("a legal move");
        let won = tigers_win_within(game, plies - 1, memo);
        game.undo();
        won
    };
    let won = if tigers {
        moves.into_iter().any(&mut check)
    } else {
        moves.into_iter().all(&mut check)
    };
    memo.insert(node, won);
    won
}

/// The search's score of `game` at `nodes` nodes, one thread.
fn score(game: &Game, nodes: u64) -> Score {
    let mut engine = Engine::new(EngineOptions {
        rules: *game.rules(),
        threads: 1,
        ..EngineOptions::default()
    });
    engine.set_game(game.clone());
    let limits = Limits {
        nodes: Some(nodes),
        ..Limits::default()
    };
    engine.search_blocking(limits).info.expect("an info").score
}

/// Whether a mate claim for the side to move holds: the tigers win within the moves claimed.
/// `None` when there is no claim.
fn claim_holds(game: &mut Game, score: Score) -> Option<bool> {
    let Score::Mate(moves) = score else {
        return None;
    };
    let tigers = game.position().side_to_move() == Side::Tigers;
    // Mate n: the side to move wins with its n-th move; mate -n: it loses to the other's n-th.
    let plies = match (moves > 0, tigers) {
        (true, true) => 2 * moves - 1,
        (false, false) => 2 * -moves,
        // A goats' win, or a tigers' loss: claims this test does not judge.
        _ => return None,
    };
    Some(tigers_win_within(
        game,
        plies.unsigned_abs(),
        &mut HashMap::new(),
    ))
}

/// Goats to move after a long shuffle: their longest defence lasts 8 tiger moves (e1e2), and
/// the search claimed `mate -6` before the history's key was fixed.
#[test]
fn a_mate_claim_after_a_long_shuffle_holds() {
    let start: Position = "GGGGG/GGGGG/TTTGG/GGT1G/GGGG1 g 0 1".parse().unwrap();
    let mut game = Game::new(start, rules());
    for mv in "e2e1 c3d2 e1e2 c2c3 e2e1 d2e2 b2c2 e2d2 a2b2 a3a2".split(' ') {
        game.play(mv.parse().unwrap()).unwrap();
    }
    let score = score(&game, 200_000);
    assert!(matches!(score, Score::Mate(..=-1)), "{score:?}");
    assert_eq!(claim_holds(&mut game, score), Some(true), "{score:?}");
}

/// Every short mate claim on crowded boards after random shuffles holds.
#[test]
fn mate_claims_under_forbid_hold_after_random_histories() {
    let starts = [
        "GGGGG/GGGGG/1TGGG/GTTGG/GGGGT t 0 0",
        "GGGGG/GGGGG/TTTGG/GGT1G/GGGG1 g 0 1",
    ];
    let mut rng = StdRng::seed_from_u64(23);
    let mut judged = 0;
    for round in 0..200 {
        let start: Position = starts[round % starts.len()].parse().unwrap();
        let mut game = Game::new(start, rules());
        for _ in 0..rng.random_range(0..14) {
            let moves = game.legal_moves();
            if moves.is_empty() {
                break;
            }
            let mv = moves.iter().copied().nth(rng.random_range(0..moves.len()));
            game.play(mv.unwrap()).unwrap();
        }
        if game.outcome().is_some() {
            continue;
        }
        let score = score(&game, 60_000);
        // Claims up to 7 moves: within the exhaustive search's reach.
        if matches!(score, Score::Mate(n) if n.abs() <= 7) {
            if let Some(holds) = claim_holds(&mut game, score) {
                judged += 1;
                assert!(holds, "{score:?} does not hold in {game:?}");
            }
        }
    }
    assert!(judged >= 30, "only {judged} claims judged");
}
