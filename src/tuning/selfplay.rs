//! Seeded self-play scaffolding shared by the data tools (`eval_data`, `wdl_data`): varied
//! openings and games played on several threads with results independent of the thread count.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use crate::{Game, Rules};

/// Opening `index` of the set seeded with `seed`: 2 to 8 uniformly random plies from the start
/// position, from a generator seeded with `seed` and `index`.
pub fn random_opening(rules: Rules, seed: u64, index: u64) -> Game {
    let mut rng = StdRng::seed_from_u64(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ index);
    let mut game = Game::startpos(rules);
    for _ in 0..rng.random_range(2..=8) {
        let moves = game.legal_moves();
        if moves.is_empty() {
            break;
        }
        game.play_unchecked(moves[rng.random_range(0..moves.len())]);
    }
    game
}

/// `play(index)` for every index below `games`, spread over `threads` threads, in index order.
pub fn play_all<T: Send>(games: u64, threads: u64, play: impl Fn(u64) -> T + Sync) -> Vec<T> {
    let threads = threads.max(1);
    let play = &play;
    let mut results: Vec<(u64, T)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|worker| {
                scope.spawn(move || {
                    (worker..games)
                        .step_by(threads as usize)
                        .map(|index| (index, play(index)))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|worker| worker.join().expect("a self-play worker panicked"))
            .collect()
    });
    results.sort_by_key(|(index, _)| *index);
    results.into_iter().map(|(_, result)| result).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn openings_are_seeded_and_results_keep_their_order() {
        let rules = Rules::default();
        let a = random_opening(rules, 1, 5);
        assert_eq!(a.moves(), random_opening(rules, 1, 5).moves());
        assert!((2..=8).contains(&a.ply()));
        let one = play_all(9, 1, |i| random_opening(rules, 1, i).moves().to_vec());
        let three = play_all(9, 3, |i| random_opening(rules, 1, i).moves().to_vec());
        assert_eq!(one, three);
        assert!(one.windows(2).any(|w| w[0] != w[1]));
    }
}
