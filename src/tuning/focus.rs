//! Training positions where the pattern network is weak (issue 27): crowded movement-phase
//! positions and late placement, met on short walks from positions of real play.
//! `tools/eval_focus.rs` labels them by the tables (docs/eval.md, "Data for the weak spots").

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use crate::tablebase::{Tablebase, Wdl};
use crate::{Position, Repetition, Rules};

/// Which positions are wanted.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Focus {
    /// Movement-phase positions with at most this many empty points.
    pub max_empty: u32,
    /// Placement positions with 1 to this many goats in hand.
    pub max_hand: u8,
}

impl Focus {
    /// Whether `position` is wanted.
    pub fn contains(&self, position: &Position) -> bool {
        match position.goats_in_hand() {
            0 => position.empty().count() <= self.max_empty,
            hand => hand <= self.max_hand,
        }
    }
}

/// Whether `position`, of table value `wdl` for the side to move, is a table draw of the goats'
/// last movement-phase layer under `rules` (no goats in hand, one capture short of the tigers'
/// win: 5 empty points by default). The network scored these as a large tigers' edge, so
/// `network_train --last-layer-draws N` counts them `N` times (docs/eval.md, "Data for the weak
/// spots").
pub fn is_last_layer_draw(position: &Position, wdl: Wdl, rules: &Rules) -> bool {
    wdl == Wdl::Draw
        && position.goats_in_hand() == 0
        && position.goats_captured() + 1 == rules.captures_to_win
}

/// How the walks go.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Walks {
    /// Seed of the walks' generators.
    pub seed: u64,
    /// Walks from each start.
    pub walks: u32,
    /// Plies of a walk at most (it stops when the game ends).
    pub plies: u32,
    /// Percent of plies that play a move the tables call best (the others are uniformly
    /// random), so that a walk stays near the value of the game it left.
    pub best_percent: u32,
}

/// The positions in `focus` met on the walks from `start`, the `index`-th start, in order
/// (repeats included). Walk `w` draws from a generator seeded with the seed, `index` and `w`, so
/// the positions depend on nothing else.
pub fn walk(
    tables: &Tablebase,
    start: &Position,
    index: u64,
    focus: &Focus,
    walks: &Walks,
) -> Vec<Position> {
    // Legal moves ignore the repetition rule, as the tables do.
    let rules = tables.rules().with_repetition(Repetition::default());
    let mut found = Vec::new();
    for w in 0..walks.walks {
        let mut rng = StdRng::seed_from_u64(
            walks.seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ (index << 8) ^ u64::from(w),
        );
        let mut position = *start;
        for _ in 0..walks.plies {
            let moves = position.legal_moves(&rules);
            if moves.is_empty() || position.outcome(&rules).is_some() {
                break;
            }
            let best = if rng.random_range(0..100) < walks.best_percent {
                tables.best_moves(&position)
            } else {
                Vec::new()
            };
            position = match best.len() {
                0 => position.played(moves[rng.random_range(0..moves.len())]),
                n => position.played(best[rng.random_range(0..n)]),
            };
            if focus.contains(&position) {
                found.push(position);
            }
        }
    }
    found
}
