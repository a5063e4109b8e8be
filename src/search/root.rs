//! The root of the search: aspiration windows around each line's previous score, and the
//! principal variation search over the root moves.

use super::score::{is_mate, Bound, Value, INFINITE};
use super::tb::is_proven;
use super::thread::{Reporter, RootMove, SearchContext, CURRMOVE_AFTER};
use super::worker::{Abort, Worker};

/// Searches line `line` at `depth` with a window around the previous score, widening it on
/// failure.
pub(crate) fn aspiration(
    worker: &mut Worker<'_>,
    moves: &mut [RootMove],
    line: usize,
    depth: i32,
    context: &SearchContext<'_>,
    mut reporter: Option<&mut Reporter<'_>>,
) {
    let previous = moves[line].previous_score;
    let mut delta = context.params.aspiration.max(1);
    let (mut alpha, mut beta) = if depth >= 4 && !is_mate(previous) && previous > -INFINITE {
        (
            (previous - delta).max(-INFINITE),
            (previous + delta).min(INFINITE),
        )
    } else {
        (-INFINITE, INFINITE)
    };
    loop {
        let value = root_search(
            worker,
            moves,
            line,
            depth,
            alpha,
            beta,
            context,
            reporter.as_deref_mut(),
        );
        if worker.aborted {
            return;
        }
        moves[line..].sort_by_key(|root_move| std::cmp::Reverse(root_move.score));
        let bound = if value <= alpha {
            beta = (alpha + beta) / 2;
            alpha = (value - delta).max(-INFINITE);
            Bound::Upper
        } else if value >= beta {
            beta = (value + delta).min(INFINITE);
            Bound::Lower
        } else {
            return;
        };
        if let Some(reporter) = reporter.as_deref_mut() {
            let nodes = reporter.total_nodes(worker);
            let info = context.info(
                depth as u32,
                worker.seldepth,
                line,
                value,
                bound,
                nodes,
                &moves[line].pv,
            );
            reporter.observer.on_info(&info);
        }
        delta += delta / 2 + 10;
    }
}

/// Searches the root moves `moves[line..]`; returns the best value found.
#[allow(clippy::too_many_arguments, clippy::needless_range_loop)]
fn root_search(
    worker: &mut Worker<'_>,
    moves: &mut [RootMove],
    line: usize,
    depth: i32,
    mut alpha: Value,
    beta: Value,
    context: &SearchContext<'_>,
    mut reporter: Option<&mut Reporter<'_>>,
) -> Value {
    let mut best = -INFINITE;
    for index in line..moves.len() {
        let (mv, child, bias) = (moves[index].mv, moves[index].child, moves[index].bias);
        if let Some(reporter) = reporter.as_deref_mut() {
            if context.control.elapsed() >= CURRMOVE_AFTER {
                reporter
                    .observer
                    .on_currmove(depth as u32, mv, index as u32 + 1);
            }
        }
        let value = if index == line {
            biased_search(worker, &child, depth, alpha, beta, true, bias)
        } else {
            let value = biased_search(worker, &child, depth, alpha, alpha + 1, false, bias);
            if value > alpha && value < beta {
                biased_search(worker, &child, depth, alpha, beta, true, bias)
            } else {
                value
            }
        };
        if worker.aborted {
            return best;
        }
        if worker.abort == Abort::Never {
            // A root move has a value: from now on the clock may end the first iteration.
            worker.abort = Abort::StopOrTime;
        }
        best = best.max(value);
        if index == line || value > alpha {
            let root_move = &mut moves[index];
            root_move.score = value;
            root_move.pv.clear();
            root_move.pv.push(mv);
            root_move.pv.extend_from_slice(worker.child_pv());
            if value > alpha {
                alpha = value;
                if value >= beta {
                    return value;
                }
            }
        }
    }
    best
}

/// The value of a root move for the root: its search with the window shifted by its `bias`
/// (see [`RootMove`]), plus the bias. A proven value (a mate, or a forbid value's win or loss)
/// is never biased: it is searched again with the window as given, so that its bound and
/// distance are exact.
#[allow(clippy::too_many_arguments)]
fn biased_search(
    worker: &mut Worker<'_>,
    child: &crate::Position,
    depth: i32,
    alpha: Value,
    beta: Value,
    pv_node: bool,
    bias: Value,
) -> Value {
    if bias == 0 {
        return worker.search_root_move(child, depth, alpha, beta, pv_node);
    }
    let shift = |value: Value| (value - bias).clamp(-INFINITE, INFINITE);
    let value = worker.search_root_move(child, depth, shift(alpha), shift(beta), pv_node);
    if worker.aborted || !is_proven(value) {
        return value + bias;
    }
    worker.search_root_move(child, depth, alpha, beta, pv_node)
}
