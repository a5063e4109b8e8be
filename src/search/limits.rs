//! What one search may spend: the limits of a `go`, parsed straight into this by the protocol.

use std::time::Duration;

use super::score::{Score, Value};
use crate::Move;

/// Search limits, UCI-style; `None` = no limit of that kind. The search stops at the first limit
/// reached. With no limit at all (plain `go`) the engine searches until `stop`, as Stockfish
/// does (or to the deepest iteration, and then answers).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Maximum depth in plies.
    pub depth: Option<u32>,
    /// Look for a win in this many moves of the side to move: the search stops as soon as its
    /// best line wins in that many moves or fewer ([`Limits::is_mate_found`]), and goes no
    /// deeper than twice as many plies (a win in `n` moves takes at most `2n - 1` plies),
    /// combined with `depth`.
    pub mate: Option<u32>,
    /// Maximum nodes (of the main thread; the first iteration always completes).
    pub nodes: Option<u64>,
    /// Time for this move.
    pub movetime: Option<Duration>,
    /// Search until `stop` (the result is held back until then).
    pub infinite: bool,
    /// Pondering: search without a time limit until `ponderhit` (then the clock applies) or
    /// `stop`; the result is held back until one of them.
    pub ponder: bool,
    /// Remaining clock time per side, indexed by `Side::index()` (goats = wtime, tigers = btime).
    pub time_left: [Option<Duration>; 2],
    /// Increment per move per side, indexed like `time_left`.
    pub increment: [Option<Duration>; 2],
    /// Moves to the next time control.
    pub moves_to_go: Option<u32>,
    /// Restrict the root to these moves (empty = all legal moves; illegal ones are ignored, and
    /// if none is legal all legal moves are searched).
    pub search_moves: Vec<Move>,
}

impl Limits {
    /// The depth limit in plies: `depth`, or twice `mate`, whichever is smaller.
    pub fn depth_limit(&self) -> Option<u32> {
        let mate_depth = self.mate.map(|moves| moves.saturating_mul(2));
        match (self.depth, mate_depth) {
            (Some(depth), Some(mate)) => Some(depth.min(mate)),
            (depth, mate) => depth.or(mate),
        }
    }

    /// Whether `value` (the best root move's, from a completed iteration) is a win for the side
    /// to move in at most `mate` of its moves: a `mate` search is done then.
    pub fn is_mate_found(&self, value: Value) -> bool {
        match (self.mate, Score::from_value(value)) {
            (Some(wanted), Score::Mate(moves)) => moves > 0 && moves.unsigned_abs() <= wanted,
            _ => false,
        }
    }

    /// Whether the result must wait for `stop` (or, pondering, for `ponderhit`).
    pub fn holds_result(&self) -> bool {
        self.infinite || self.ponder
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::score::{mate_in, mated_in};

    #[test]
    fn mate_is_a_depth_limit_in_moves() {
        let limits = |depth, mate| Limits {
            depth,
            mate,
            ..Limits::default()
        };
        assert_eq!(limits(None, Some(3)).depth_limit(), Some(6));
        assert_eq!(limits(Some(4), Some(3)).depth_limit(), Some(4));
        assert_eq!(limits(Some(9), None).depth_limit(), Some(9));
        assert_eq!(limits(None, None).depth_limit(), None);
    }

    #[test]
    fn a_mate_search_is_done_at_a_win_in_at_most_its_moves() {
        let mate = |moves| Limits {
            mate: Some(moves),
            ..Limits::default()
        };
        assert!(mate(1).is_mate_found(mate_in(1)));
        assert!(mate(3).is_mate_found(mate_in(3)));
        assert!(mate(3).is_mate_found(mate_in(5)));
        assert!(!mate(2).is_mate_found(mate_in(5)));
        assert!(!mate(3).is_mate_found(mated_in(2)));
        assert!(!mate(3).is_mate_found(250));
        assert!(!Limits::default().is_mate_found(mate_in(1)));
    }
}
