//! Whole-state keys of the game before the root, for the repetition rules inside the search.

use crate::zobrist::history_key;
use crate::{Game, Position};

/// The keys (whole state: board, side, goats in hand and captured) of every game position before the current one, with a bit filter that
/// answers most lookups without a search.
pub struct GameKeys {
    sorted: Vec<u64>,
    filter: [u64; 16],
    /// The key of the set of positions since the last placement or capture, before the current
    /// one (the XOR of their [`history_key`]s): the earlier states the forbid rule can still
    /// exclude.
    since_irreversible: u64,
}

impl GameKeys {
    /// The keys of `game`'s positions, excluding the current one.
    pub fn new(game: &Game) -> GameKeys {
        let positions = game.positions();
        let mut sorted: Vec<u64> = positions[..positions.len() - 1]
            .iter()
            .map(|position| position.hash())
            .collect();
        sorted.sort_unstable();
        sorted.dedup();
        let mut filter = [0u64; 16];
        for &key in &sorted {
            let bit = (key & 1023) as usize;
            filter[bit / 64] |= 1 << (bit % 64);
        }
        let mut since_irreversible = 0;
        for pair in positions.windows(2).rev() {
            if !is_reversible(&pair[0], &pair[1]) {
                break;
            }
            since_irreversible ^= history_key(pair[0].hash());
        }
        GameKeys {
            sorted,
            filter,
            since_irreversible,
        }
    }

    /// The key of the set of the game's positions since its last placement or capture, the
    /// current one excluded: the XOR of a nonlinear mix of their keys (0 when there are none).
    pub fn since_irreversible(&self) -> u64 {
        self.since_irreversible
    }

    /// Whether `key` is among them.
    #[inline]
    pub fn contains(&self, key: u64) -> bool {
        let bit = (key & 1023) as usize;
        self.filter[bit / 64] & (1 << (bit % 64)) != 0 && self.sorted.binary_search(&key).is_ok()
    }
}

/// Whether the move from `parent` to `child` can be followed by a return to `parent`: not a
/// placement (goats in hand only decrease) and not a capture (captures only increase).
pub fn is_reversible(parent: &Position, child: &Position) -> bool {
    !parent.is_placement_phase() && parent.goats_captured() == child.goats_captured()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Rules;

    #[test]
    fn holds_history_but_not_the_current_position() {
        let mut game = Game::startpos(Rules::default());
        game.play("c3".parse().unwrap()).unwrap();
        game.play("a1b1".parse().unwrap()).unwrap();
        let keys = GameKeys::new(&game);
        assert!(keys.contains(game.positions()[0].hash()));
        assert!(keys.contains(game.positions()[1].hash()));
        assert!(!keys.contains(game.position().hash()));
    }

    #[test]
    fn the_states_since_the_last_placement_or_capture_are_hashed_together() {
        // Placements only: nothing before the current state can recur.
        let mut game = Game::startpos(Rules::default());
        game.play("c3".parse().unwrap()).unwrap();
        game.play("a1b1".parse().unwrap()).unwrap();
        assert_eq!(GameKeys::new(&game).since_irreversible(), 0);

        // The movement phase: every quiet move adds the state it left; a capture starts over.
        let start: Position = "GGGGG/GGGGG/1TGGG/GTTGG/GGGGT t 0 0".parse().unwrap();
        let mut game = Game::new(start, Rules::default());
        let mut expected = 0;
        for _ in 0..6 {
            let position = *game.position();
            let moves = position.legal_moves(game.rules());
            let Some(&mv) = moves.iter().next() else {
                break;
            };
            game.play(mv).unwrap();
            expected = if mv.is_capture() {
                0
            } else {
                expected ^ history_key(position.hash())
            };
            assert!(is_reversible(&position, game.position()) != mv.is_capture());
            assert_eq!(GameKeys::new(&game).since_irreversible(), expected);
        }
        assert!(game.positions().len() > 2);
    }
}
