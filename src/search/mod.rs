//! The search: evaluation, transposition table, move ordering, time management and the
//! iterative-deepening principal variation search with Lazy SMP.
//!
//! Everything here is protocol-free; [`crate::engine::Engine`] is the entry point.

pub mod eval;
pub mod history;
pub mod ordering;
pub mod params;
mod root;
pub mod score;
pub mod simple;
pub mod tb;
pub mod thread;
pub mod time;
pub mod tt;
pub mod worker;

pub use score::{Bound, Score};
