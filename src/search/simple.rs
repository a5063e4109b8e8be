//! The weak reference players: uniform random, and 1-ply greedy on the static evaluation.

use crate::{Game, Move};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use super::eval::evaluate;
use super::params::Params;
use super::score::{Value, DRAW, MATE};

/// A uniformly random legal move, from an RNG seeded with `seed` and the position's hash.
pub fn random_move(game: &Game, seed: u64) -> Option<Move> {
    let moves = game.legal_moves();
    if moves.is_empty() {
        return None;
    }
    let mut rng = StdRng::seed_from_u64(seed ^ game.position().hash());
    Some(moves[rng.random_range(0..moves.len())])
}

/// The value for the mover of playing `mv` in `game`: the game result if it ends the game,
/// otherwise the negated static evaluation of the position reached.
pub fn one_ply_value(game: &Game, mv: Move, params: &Params) -> Value {
    let mover = game.position().side_to_move();
    let mut after = game.clone();
    after.play_unchecked(mv);
    match after.outcome() {
        Some(outcome) => match outcome.winner() {
            Some(winner) if winner == mover => MATE - 1,
            Some(_) => -MATE + 1,
            None => DRAW,
        },
        None => -evaluate(after.position(), game.rules(), params),
    }
}

/// The legal move with the best value after one ply (the first such move in generation order),
/// with that value.
pub fn greedy_move(game: &Game, params: &Params) -> Option<(Move, Value)> {
    let mut best: Option<(Move, Value)> = None;
    for &mv in game.legal_moves().iter() {
        let value = one_ply_value(game, mv, params);
        if best.is_none_or(|(_, best_value)| value > best_value) {
            best = Some((mv, value));
        }
    }
    best
}

/// A guess at the opponent's reply after `mv` (for the ponder move): the greedy reply.
pub fn guess_reply(game: &Game, mv: Move, params: &Params) -> Option<Move> {
    let mut after = game.clone();
    after.play(mv).ok()?;
    greedy_move(&after, params).map(|(reply, _)| reply)
}
