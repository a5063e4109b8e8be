//! `perft` (with its counting shortcuts) must equal `perft_plain` and the reference's perft on
//! many seeded random positions, under every rule variant, with and without game history.

mod common;

use baghchal::perft::perft_plain;
use baghchal::{perft, Bitboard, Game, Position, Side, Square};
use common::reference::perft as reference_perft;
use common::{ref_game_of, rule_variants};
use rand::rngs::StdRng;
use rand::seq::{IndexedRandom, SliceRandom};
use rand::{Rng, SeedableRng};

const SEED: u64 = 20_261_129;

/// A random position with any mix of goats on the board, in hand and captured.
fn random_position(rng: &mut StdRng) -> Position {
    let mut squares: Vec<Square> = Square::all().collect();
    squares.shuffle(rng);
    let on_board = rng.random_range(0..=20usize);
    let captured = rng.random_range(0..=20 - on_board);
    let in_hand = 20 - on_board - captured;
    let tigers = squares[..4].iter().fold(Bitboard::EMPTY, |b, &s| b.with(s));
    let goats = squares[4..4 + on_board]
        .iter()
        .fold(Bitboard::EMPTY, |b, &s| b.with(s));
    let side = if in_hand < 20 && rng.random_bool(0.5) {
        Side::Tigers
    } else {
        Side::Goats
    };
    Position::from_parts(tigers, goats, side, in_hand as u8, captured as u8)
        .expect("valid random position")
}

/// Checks perft against perft_plain at depths 1..=4 and against the reference at 1..=3.
fn check(game: &mut Game, context: &str) {
    let mut reference = ref_game_of(game);
    for depth in 1..=4 {
        let fast = perft(game, depth);
        assert_eq!(
            fast,
            perft_plain(game, depth),
            "{context} depth {depth}: perft vs perft_plain"
        );
        if depth <= 3 {
            assert_eq!(
                fast,
                reference_perft(&mut reference, depth),
                "{context} depth {depth}: reference"
            );
        }
    }
}

#[test]
fn perft_equals_plain_on_random_positions() {
    let mut rng = StdRng::seed_from_u64(SEED);
    for rules in rule_variants() {
        for index in 0..60 {
            let start = random_position(&mut rng);
            let context = format!("seed {SEED} rules [{rules}] random position {index}: {start}");
            check(&mut Game::new(start, rules), &context);
        }
    }
}

#[test]
fn perft_equals_plain_along_random_games() {
    let mut rng = StdRng::seed_from_u64(SEED + 1);
    for rules in rule_variants() {
        for game_index in 0..10 {
            let mut game = Game::startpos(rules);
            // Tigers that rarely capture let games reach the movement phase and repeat.
            let peaceful = game_index % 2 == 1;
            for ply in 0..120 {
                if ply % 10 == 3 {
                    let context = format!(
                        "seed {} rules [{rules}] game {game_index} ply {ply}",
                        SEED + 1
                    );
                    check(&mut game, &context);
                }
                let moves = game.legal_moves();
                let quiet: Vec<_> = moves
                    .iter()
                    .copied()
                    .filter(|mv| !mv.is_capture())
                    .collect();
                let pool = if peaceful && !quiet.is_empty() {
                    &quiet[..]
                } else {
                    &moves[..]
                };
                let Some(&mv) = pool.choose(&mut rng) else {
                    break;
                };
                game.play(mv).expect("legal move");
            }
        }
    }
}
