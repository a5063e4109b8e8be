//! Helpers shared by the integration tests.
#![allow(dead_code)]

pub mod reference;

use baghchal::{Game, Move, Repetition, Rules, Square};
use rand::rngs::StdRng;
use rand::Rng;
use reference::{RefGame, RefPosition, RefRules};

/// The reference's view of the crate's rules.
pub fn ref_rules(rules: &Rules) -> RefRules {
    RefRules {
        forced_capture: rules.forced_capture,
        captures_to_win: rules.captures_to_win,
        repetition_draws: rules.repetition == Repetition::Draw,
    }
}

/// Every combination of forced capture on/off, captures to win 1, 5, 20, and both repetition
/// rules.
pub fn rule_variants() -> Vec<Rules> {
    let mut variants = Vec::new();
    for forced_capture in [false, true] {
        for captures_to_win in [1, 5, 20] {
            for repetition in [Repetition::Forbid, Repetition::Draw] {
                variants.push(Rules {
                    forced_capture,
                    captures_to_win,
                    repetition,
                });
            }
        }
    }
    variants
}

/// A reference game replaying the crate game's start and moves (through the reference's own
/// parser and move list, so each move is also checked to be legal for the reference).
pub fn ref_game_of(game: &Game) -> RefGame {
    let start = RefPosition::parse(&game.start_position().to_string());
    let mut reference = RefGame::new(start, ref_rules(game.rules()));
    for mv in game.moves() {
        reference.play_text(&mv.to_string());
    }
    reference
}

/// The crate's legal moves as sorted text.
pub fn sorted_texts(moves: &[Move]) -> Vec<String> {
    let mut texts: Vec<String> = moves.iter().map(|mv| mv.to_string()).collect();
    texts.sort();
    texts
}

/// The reference's legal moves as sorted text.
pub fn sorted_ref_texts(game: &RefGame) -> Vec<String> {
    let mut texts: Vec<String> = game.moves().iter().map(|mv| mv.text()).collect();
    texts.sort();
    texts
}

/// Every move the board's geometry allows in some position: 25 placements, every step along a
/// line and every jump along a line.
pub fn every_geometric_move() -> Vec<Move> {
    let mut moves = Vec::new();
    for to in Square::all() {
        moves.push(Move::Place { to });
    }
    for from in Square::all() {
        for to in Square::all() {
            if let Some(mv) = Move::between(from, to) {
                moves.push(mv);
            }
        }
    }
    moves
}

/// Parses a move list separated by spaces.
pub fn parse_moves(text: &str) -> Vec<Move> {
    text.split_whitespace()
        .map(|m| m.parse().unwrap_or_else(|e| panic!("{e}")))
        .collect()
}

/// Plays `plies` random legal moves from the start (fewer if the game ends).
pub fn random_game(rules: Rules, plies: usize, rng: &mut StdRng) -> Game {
    let mut game = Game::startpos(rules);
    for _ in 0..plies {
        let moves = game.legal_moves();
        if moves.is_empty() {
            break;
        }
        game.play(moves[rng.random_range(0..moves.len())]).unwrap();
    }
    game
}

/// A search observer that sends the search's infos and result down a channel when it ends.
pub struct Collect(
    pub  std::sync::mpsc::Sender<(
        Vec<baghchal::engine::SearchInfo>,
        baghchal::engine::SearchResult,
    )>,
    pub Vec<baghchal::engine::SearchInfo>,
);

impl baghchal::engine::SearchObserver for Collect {
    fn on_info(&mut self, info: &baghchal::engine::SearchInfo) {
        self.1.push(info.clone());
    }
    fn on_finish(&mut self, result: &baghchal::engine::SearchResult) {
        self.0
            .send((std::mem::take(&mut self.1), result.clone()))
            .unwrap();
    }
}
