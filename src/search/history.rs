//! Whole-state keys of the game before the root, for the repetition rules inside the search.

use crate::Game;

/// The keys (whole state: board, side, goats in hand and captured) of every game position before the current one, with a bit filter that
/// answers most lookups without a search.
pub struct GameKeys {
    sorted: Vec<u64>,
    filter: [u64; 16],
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
        GameKeys { sorted, filter }
    }

    /// Whether `key` is among them.
    #[inline]
    pub fn contains(&self, key: u64) -> bool {
        let bit = (key & 1023) as usize;
        self.filter[bit / 64] & (1 << (bit % 64)) != 0 && self.sorted.binary_search(&key).is_ok()
    }
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
}
