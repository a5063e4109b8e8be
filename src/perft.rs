//! Perft: counting the leaves of the legal move tree, repetition rules included.

use crate::game::Game;
use crate::mv::Move;

/// Number of move sequences of length `depth` from the game's current position. Follows the
/// repetition rule along each path; a finished position has no moves, so it counts 0 below it.
pub fn perft(game: &mut Game, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let rules = *game.rules();
    let position = *game.position();
    // While goats are in hand no state can recur (every goat move places one), under either
    // repetition rule: the counts need no history.
    if position.is_placement_phase() {
        if depth == 1 {
            return u64::from(position.count_moves(&rules));
        }
        // Goats place and the tigers answer; the answers are history-free while goats stay in hand.
        if depth == 2 && position.goats_in_hand() >= 2 {
            if let Some(count) = position.count_placements_then_tiger_moves(&rules) {
                return count;
            }
        }
        // Tigers move and goats answer by placing (still the placement phase: history-free).
        if depth == 2 {
            if let Some(count) = position.count_tiger_moves_then_placements(&rules) {
                return count;
            }
        }
    }
    let moves = game.legal_moves();
    if depth == 1 {
        return moves.len() as u64;
    }
    let mut total = 0;
    for &mv in moves.iter() {
        game.play_unchecked(mv);
        total += perft(game, depth - 1);
        game.undo();
    }
    total
}

/// Each legal move with its perft count at `depth - 1`, in generation order.
///
/// # Panics
/// If `depth` is 0.
pub fn divide(game: &mut Game, depth: u32) -> Vec<(Move, u64)> {
    assert!(depth > 0, "divide needs depth >= 1");
    let moves = game.legal_moves();
    moves
        .iter()
        .map(|&mv| {
            game.play_unchecked(mv);
            let count = perft(game, depth - 1);
            game.undo();
            (mv, count)
        })
        .collect()
}

/// Perft by plain recursion over generated moves, with none of [`perft`]'s shortcuts; for tests.
pub fn perft_plain(game: &mut Game, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = game.legal_moves();
    let mut total = 0;
    for &mv in moves.iter() {
        game.play_unchecked(mv);
        total += perft_plain(game, depth - 1);
        game.undo();
    }
    total
}
