//! What a search reports: progress infos, the final result, and the observer that receives them.

use std::time::Duration;

use super::score::{Bound, Score};
use crate::Move;

/// One progress report: one per completed iteration per PV line, and one per aspiration failure.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchInfo {
    /// Iteration depth in plies.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// Line number, 1-based.
    pub multipv: u32,
    /// Score of the line, side to move's view.
    pub score: Score,
    /// Whether the score is exact or a bound.
    pub bound: Bound,
    /// Per mille win/draw/loss for the side to move, when `show_wdl`.
    pub wdl: Option<[u32; 3]>,
    /// Nodes searched (all threads).
    pub nodes: u64,
    /// Time since the search started.
    pub time: Duration,
    /// Transposition table use, per mille.
    pub hashfull: u32,
    /// Tablebase hits.
    pub tbhits: u64,
    /// The line, legal from the root, starting with its first move.
    pub pv: Vec<Move>,
}

impl SearchInfo {
    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        (self.nodes as f64 / self.time.as_secs_f64().max(1e-6)) as u64
    }
}

/// What a finished search returns.
#[derive(Clone, Debug, Default)]
pub struct SearchResult {
    /// The move to play; `None` only when the root has no legal move (or there was nothing to
    /// search).
    pub best_move: Option<Move>,
    /// The expected reply.
    pub ponder_move: Option<Move>,
    /// The final complete info for the best line (`None` if no search happened).
    pub info: Option<SearchInfo>,
}

/// Receives progress while a search runs. Called from the search thread(s).
pub trait SearchObserver: Send + 'static {
    /// A progress report.
    fn on_info(&mut self, info: &SearchInfo);
    /// The root move now searched (1-based `number`), sent only on long searches.
    fn on_currmove(&mut self, _depth: u32, _mv: Move, _number: u32) {}
    /// A remark for the user (the protocol's `info string`).
    fn on_string(&mut self, _text: &str) {}
    /// Called exactly once per search, when its result may be reported (an `infinite` or
    /// pondering search is held until `stop` or `ponderhit`). Helper threads may still be
    /// stopping then: the engine waits for them before anything that needs the search gone.
    fn on_finish(&mut self, result: &SearchResult);
    /// The main search thread has decided `result`; helper threads are told to stop but may
    /// not have yet (on a busy machine a thread can wait milliseconds for a core). The
    /// engine's background search answers from here rather than after them.
    fn on_decided(&mut self, _result: &SearchResult) {}
}

/// An observer that ignores everything.
pub struct Silent;

impl SearchObserver for Silent {
    fn on_info(&mut self, _info: &SearchInfo) {}
    fn on_finish(&mut self, _result: &SearchResult) {}
}
