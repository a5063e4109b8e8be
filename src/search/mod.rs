//! The search: evaluation, transposition table, move ordering, time management and the
//! iterative-deepening principal variation search with Lazy SMP.
//!
//! Everything here is protocol-free, and knows nothing of the engine that drives it: its inputs
//! ([`Limits`], [`EngineOptions`]) and outputs ([`SearchInfo`], [`SearchResult`], through a
//! [`SearchObserver`]) live here; [`crate::engine::Engine`] is the entry point.
//!
//! - Scores are from the side to move's view, 100 = one goat; a win is `MATE - plies` and is
//!   reported as [`Score::Mate`] in moves of the side to move.
//! - Repetition follows the game's rules: under `forbid`, moves made with no goat in hand that
//!   recreate a state of the game or of the search path are not generated (a side left
//!   without moves loses); under `draw`, a repeated position scores 0. Whole-state keys of the path
//!   are kept on a stack, those of the game in a sorted list with a bit filter.
//! - Limits: `depth`, `nodes` (main thread), time and a found `mate` stop the search; the
//!   first iteration always completes, so a move is always there. A `go` without any limit searches until `stop`
//!   (or to the deepest iteration); `infinite` and unanswered `ponder` searches hold their result
//!   until `stop` (or `ponderhit`). Root moves are announced (`currmove`) after 3 s only.
//! - With one thread and depth or node limits the search is deterministic, infos included
//!   (apart from time and speed); the table carries over between searches of a game.
//! - Threads > 1: helper threads run the same iterative deepening (every other one a ply
//!   deeper) on the shared lock-free table; the main thread alone reports and decides.
//! - Tablebases ([`tb`]): a root in the tables plays its value-keeping move at once (or searches
//!   among drawing moves); inside the search, movement-phase nodes and the goats' last placement
//!   return exact table values, mates adjusted by ply.

pub mod eval;
pub mod eval_weights;
pub mod history;
pub mod limits;
pub mod network;
pub mod node_clock;
pub mod options;
pub mod ordering;
pub mod params;
pub mod report;
mod root;
pub mod score;
pub mod simple;
pub mod skill;
pub mod skill_elo;
pub mod tb;
pub mod thread;
pub mod time;
pub mod tt;
pub mod wdl;
pub mod wdl_fit;
pub mod worker;

pub use limits::Limits;
pub use options::{EngineOptions, Evaluation, ParseStrategyError, Strategy};
pub use report::{SearchInfo, SearchObserver, SearchResult, Silent};
pub use score::{Bound, Score};
