//! Bagh Chal (tigers and goats): rules, search engine, protocol, referee and tablebases.
//!
//! Layers, each knowing only those before it:
//! - rules: [`Square`], [`Bitboard`], [`Move`], [`Position`], [`Game`], [`Rules`], notation,
//!   [`perft()`]; no search, no I/O;
//! - [`tablebase`]: the movement phase solved by retrograde analysis;
//! - [`engine`] (with [`search`] and [`bench`](mod@bench)): a protocol-free engine core;
//! - [`protocol`]: the UCI-style text protocol around the engine core;
//! - [`referee`]: matches between engine processes, with its own rules check;
//! - [`tuning`]: the evaluation fitted to tablebase-labelled positions (for tools);
//! - [`gui`]: the browser GUI, a web server driving engine processes through the referee layer.

pub mod bitboard;
pub mod cli;
pub mod game;
pub mod movelist;
pub mod mv;
pub mod notation;
pub mod perft;
pub mod position;
pub mod rules;
pub mod side;
pub mod square;
pub mod tables;
mod zobrist;

pub mod bench;
pub mod engine;
pub mod gui;
pub mod protocol;
pub mod referee;
pub mod search;
pub mod tablebase;
pub mod tuning;

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
