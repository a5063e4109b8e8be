//! Time management and the flags a running search is steered by.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::limits::Limits;

/// Moves to go assumed when the clock gives none.
const DEFAULT_MOVES_TO_GO: u32 = 25;
/// Shortest time ever planned.
const MINIMUM: Duration = Duration::from_micros(100);

/// Flags and clock shared by the engine and its search threads.
pub struct Control {
    start: Instant,
    stop: AtomicBool,
    stop_helpers: AtomicBool,
    pondering: AtomicBool,
    finished: AtomicBool,
    /// `nodestime`: nodes per millisecond of the virtual clock (0: real time).
    nodes_per_ms: u64,
}

impl Control {
    /// Fresh flags for a search starting now.
    pub fn new(pondering: bool) -> Control {
        Control::with_nodes_time(pondering, 0)
    }

    /// Fresh flags for a search whose thinking time is counted in nodes, `nodes_per_ms` to the
    /// millisecond (0: real time).
    pub fn with_nodes_time(pondering: bool, nodes_per_ms: u64) -> Control {
        Control {
            nodes_per_ms,
            start: Instant::now(),
            stop: AtomicBool::new(false),
            stop_helpers: AtomicBool::new(false),
            pondering: AtomicBool::new(pondering),
            finished: AtomicBool::new(false),
        }
    }

    /// Time since the search started.
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// Time spent on the move's plan by a thread that has searched `nodes`: the time since
    /// `go`, or with `nodestime` the nodes in milliseconds. Pondering counts, as Stockfish
    /// counts it: what the ponder search found is thinking about this move, so after
    /// `ponderhit` the search ends once the plan, counted from `go`, is used up (at once after
    /// a ponder longer than the plan). The engine's clock runs only from `ponderhit`, so this
    /// never spends more of it than the plan.
    pub fn budget_elapsed(&self, nodes: u64) -> Duration {
        match self.nodes_per_ms {
            0 => self.elapsed(),
            per_ms => Duration::from_micros(nodes.saturating_mul(1000) / per_ms),
        }
    }

    /// Asks every search thread to stop.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// Whether `stop` was asked for.
    pub fn is_stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// Asks helper threads to stop (the main thread has decided).
    pub fn stop_helpers(&self) {
        self.stop_helpers.store(true, Ordering::Relaxed);
    }

    /// Whether helper threads should stop.
    pub fn helpers_stopped(&self) -> bool {
        self.stop_helpers.load(Ordering::Relaxed) || self.is_stopped()
    }

    /// Whether the search is a ponder search that has not been hit yet.
    pub fn is_pondering(&self) -> bool {
        self.pondering.load(Ordering::Relaxed)
    }

    /// The opponent played the expected move: the time plan applies from now on (see
    /// [`Control::budget_elapsed`]).
    pub fn ponderhit(&self) {
        self.pondering.store(false, Ordering::Relaxed);
    }

    /// Blocks while the result must wait: until `stop` for `go infinite`, and until `stop` or
    /// `ponderhit` for a ponder search. The one place a finished search is held back.
    pub fn hold_result(&self, limits: &Limits) {
        while !self.is_stopped() && (limits.infinite || self.is_pondering()) {
            std::thread::sleep(Duration::from_millis(1));
        }
    }

    /// Marks the search as finished (just before its result is delivered).
    pub fn set_finished(&self) {
        self.finished.store(true, Ordering::Release);
    }

    /// Whether the search has finished.
    pub fn is_finished(&self) -> bool {
        self.finished.load(Ordering::Acquire)
    }
}

/// Planned time for one move, measured on the move's clock.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct TimePlan {
    /// Do not start another iteration after this much.
    pub soft: Option<Duration>,
    /// Abort the search at this much.
    pub hard: Option<Duration>,
}

impl TimePlan {
    /// The plan for `limits` with the side to move indexed by `side_index`.
    pub fn new(limits: &Limits, side_index: usize, move_overhead: Duration) -> TimePlan {
        let mut plan = TimePlan::default();
        if let Some(time_left) = limits.time_left[side_index] {
            let available = time_left.saturating_sub(move_overhead).max(MINIMUM);
            let increment = limits.increment[side_index].unwrap_or_default();
            let moves_to_go = limits
                .moves_to_go
                .unwrap_or(DEFAULT_MOVES_TO_GO)
                .clamp(1, 50);
            let share = available / moves_to_go + increment * 3 / 4;
            let (soft_cap, hard_cap) = if moves_to_go == 1 {
                (available * 7 / 10, available * 9 / 10)
            } else {
                (available / 3, available * 3 / 4)
            };
            let soft = share.min(soft_cap).max(MINIMUM);
            let hard = (share * 3).min(hard_cap).max(soft);
            plan.soft = Some(soft);
            plan.hard = Some(hard);
        }
        if let Some(movetime) = limits.movetime {
            let budget = movetime.saturating_sub(move_overhead).max(MINIMUM);
            // A fixed time per move is used in full: the hard limit aborts the last iteration,
            // whose finished root moves still count.
            plan.hard = Some(plan.hard.map_or(budget, |hard| hard.min(budget)));
            plan.soft = plan.soft.map(|soft| soft.min(budget));
        }
        plan
    }

    /// Whether another iteration is worth starting after `elapsed` (it would likely not finish).
    pub fn should_stop_iterating(&self, elapsed: Duration) -> bool {
        self.soft.is_some_and(|soft| elapsed >= soft / 2)
    }

    /// Whether the search must stop now.
    pub fn is_out_of_time(&self, elapsed: Duration) -> bool {
        self.hard.is_some_and(|hard| elapsed >= hard)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clock(ms: u64) -> Option<Duration> {
        Some(Duration::from_millis(ms))
    }

    #[test]
    fn never_plans_beyond_the_clock() {
        for (left, inc, mtg) in [
            (10, 0, None),
            (1000, 0, Some(1)),
            (60_000, 1000, None),
            (50, 5000, None),
        ] {
            let limits = Limits {
                time_left: [clock(left), clock(left)],
                increment: [clock(inc), clock(inc)],
                moves_to_go: mtg,
                ..Limits::default()
            };
            let plan = TimePlan::new(&limits, 0, Duration::from_millis(30));
            let hard = plan.hard.unwrap();
            assert!(
                hard <= Duration::from_millis(left.saturating_sub(30).max(1)),
                "{left} {inc}"
            );
            assert!(plan.soft.unwrap() <= hard);
        }
    }

    #[test]
    fn pondering_counts_on_the_plan_after_ponderhit() {
        let control = Control::new(true);
        std::thread::sleep(Duration::from_millis(30));
        control.ponderhit();
        assert!(!control.is_pondering());
        assert!(control.budget_elapsed(0) >= Duration::from_millis(30));
        // A ponder longer than the plan: the search stops at once after ponderhit.
        let plan = TimePlan {
            soft: Some(Duration::from_millis(10)),
            hard: Some(Duration::from_millis(20)),
        };
        assert!(plan.is_out_of_time(control.budget_elapsed(0)));
        // With `nodestime`, the nodes count, pondering's included.
        let nodes_time = Control::with_nodes_time(true, 10);
        nodes_time.ponderhit();
        assert_eq!(nodes_time.budget_elapsed(500), Duration::from_millis(50));
    }

    #[test]
    fn movetime_is_a_hard_limit() {
        let limits = Limits {
            movetime: clock(500),
            ..Limits::default()
        };
        let plan = TimePlan::new(&limits, 1, Duration::from_millis(30));
        assert_eq!(plan.hard, clock(470));
        assert_eq!(
            TimePlan::new(&Limits::default(), 0, Duration::ZERO),
            TimePlan::default()
        );
    }
}
