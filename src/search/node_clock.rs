//! `nodestime` (as in Stockfish): thinking time counted in nodes, so that timed games replay
//! node for node. The engine keeps its own clock, in nodes, over a game: the first timed `go`
//! of a game starts it at the side to move's clock times `nodestime`; each search is given what
//! is left (in milliseconds of nodes) and then charged the nodes it searched less the increment.
//! The clock an arbiter sends is read only to start it; a new game starts it again.

use std::sync::atomic::{AtomicI64, Ordering};
use std::time::Duration;

use super::limits::Limits;

/// The nodes left on the engine's own clock (`-1`: not started in this game).
#[derive(Debug)]
pub struct NodeClock {
    available: AtomicI64,
}

impl Default for NodeClock {
    fn default() -> NodeClock {
        NodeClock {
            available: AtomicI64::new(-1),
        }
    }
}

impl NodeClock {
    /// A new game: the next timed search starts the clock again.
    pub fn reset(&self) {
        self.available.store(-1, Ordering::Relaxed);
    }

    /// Replaces the side to move's clock in `limits` with the nodes left, as milliseconds at
    /// `nodes_per_ms` (starting the clock from the one sent, the first time in a game).
    pub fn apply(&self, limits: &mut Limits, side_index: usize, nodes_per_ms: u64) {
        let Some(sent) = limits.time_left[side_index] else {
            return;
        };
        let per_ms = nodes_per_ms.max(1) as i64;
        let mut available = self.available.load(Ordering::Relaxed);
        if available < 0 {
            let sent_ms = i64::try_from(sent.as_millis()).unwrap_or(i64::MAX);
            available = sent_ms.saturating_mul(per_ms);
            self.available.store(available, Ordering::Relaxed);
        }
        limits.time_left[side_index] = Some(Duration::from_millis((available / per_ms) as u64));
    }

    /// After a search under `limits` (as applied) that searched `nodes`: the clock loses them
    /// and gains the increment (never below 0).
    pub fn charge(&self, limits: &Limits, side_index: usize, nodes_per_ms: u64, nodes: u64) {
        if limits.time_left[side_index].is_none() {
            return;
        }
        let per_ms = nodes_per_ms.max(1) as i64;
        let increment_ms = limits.increment[side_index].map_or(0, |inc| inc.as_millis() as i64);
        let available = self.available.load(Ordering::Relaxed).max(0);
        let nodes = i64::try_from(nodes).unwrap_or(i64::MAX);
        let left = available
            .saturating_add(increment_ms.saturating_mul(per_ms))
            .saturating_sub(nodes)
            .max(0);
        self.available.store(left, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clock_limits(ms: u64, inc: u64) -> Limits {
        Limits {
            time_left: [Some(Duration::from_millis(ms)), None],
            increment: [Some(Duration::from_millis(inc)), None],
            ..Limits::default()
        }
    }

    #[test]
    fn the_clock_starts_from_the_sent_one_and_then_runs_on_nodes() {
        let clock = NodeClock::default();
        let mut limits = clock_limits(1000, 10);
        clock.apply(&mut limits, 0, 100);
        assert_eq!(limits.time_left[0], Some(Duration::from_millis(1000)));
        // 1000 ms = 100,000 nodes; 30,000 searched, 10 ms = 1,000 nodes back.
        clock.charge(&limits, 0, 100, 30_000);
        // The arbiter's clock (wall time, say 990 ms) is not read again.
        let mut next = clock_limits(990, 10);
        clock.apply(&mut next, 0, 100);
        assert_eq!(next.time_left[0], Some(Duration::from_millis(710)));
        clock.charge(&next, 0, 100, 1_000_000);
        let mut broke = clock_limits(990, 10);
        clock.apply(&mut broke, 0, 100);
        assert_eq!(broke.time_left[0], Some(Duration::ZERO));
        clock.reset();
        let mut fresh = clock_limits(500, 0);
        clock.apply(&mut fresh, 0, 100);
        assert_eq!(fresh.time_left[0], Some(Duration::from_millis(500)));
    }

    #[test]
    fn searches_without_a_clock_leave_it_alone() {
        let clock = NodeClock::default();
        let mut limits = Limits {
            depth: Some(3),
            ..Limits::default()
        };
        clock.apply(&mut limits, 0, 100);
        clock.charge(&limits, 0, 100, 5000);
        assert_eq!(limits.time_left, [None, None]);
        let mut timed = clock_limits(200, 0);
        clock.apply(&mut timed, 0, 100);
        assert_eq!(timed.time_left[0], Some(Duration::from_millis(200)));
    }
}
