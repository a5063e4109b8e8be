//! Bagh Chal (tigers and goats): rules, search engine, referee and tablebases.
//!
//! The rules layer ([`Position`], [`Game`], [`Rules`], notation, [`perft()`]) knows nothing of
//! search or I/O.

pub mod bitboard;
pub mod cli;
pub mod game;
pub mod movelist;
pub mod mv;
pub mod notation;
pub mod perft;
pub mod position;
pub mod referee;
pub mod rules;
pub mod side;
pub mod square;
pub mod tablebase;
pub mod tables;
mod zobrist;

pub use bitboard::Bitboard;
pub use game::Game;
pub use movelist::MoveList;
pub use mv::{Move, ParseMoveError};
pub use notation::{ParsePositionError, START_POSITION};
pub use perft::{divide, perft};
pub use position::{IllegalMoveError, Position, PositionError};
pub use rules::{Repetition, Rules};
pub use side::{Outcome, Side};
pub use square::Square;

pub mod bench;
pub mod engine;
pub mod search;
