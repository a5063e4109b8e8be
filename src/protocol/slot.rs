//! One `go`: its observer, and the rule that its `bestmove` is printed exactly once, and only
//! when allowed (`go infinite` waits for `stop`, `go ponder` for `stop` or `ponderhit`).

use super::output::{format_bestmove, format_currmove, format_info, Output};
use crate::engine::{SearchInfo, SearchObserver, SearchResult};
use crate::{Game, Move};
use std::sync::{Arc, Mutex, MutexGuard};

enum State {
    /// The search runs.
    Running,
    /// The search finished but may not report yet.
    Held(SearchResult),
    /// `bestmove` was printed.
    Done,
}

struct Inner {
    state: State,
    hold_infinite: bool,
    hold_ponder: bool,
    /// The searched game, to check every pv before printing it.
    game: Game,
    /// The last info line printed, so the final one is not printed twice.
    last_info: Option<SearchInfo>,
}

/// The shared state of one `go`.
pub struct SearchSlot {
    inner: Mutex<Inner>,
    out: Arc<dyn Output>,
}

impl SearchSlot {
    /// A slot for a search of `game`; `infinite`/`ponder` hold the `bestmove` back.
    pub fn new(out: Arc<dyn Output>, game: Game, infinite: bool, ponder: bool) -> Arc<SearchSlot> {
        Arc::new(SearchSlot {
            inner: Mutex::new(Inner {
                state: State::Running,
                hold_infinite: infinite,
                hold_ponder: ponder,
                game,
                last_info: None,
            }),
            out,
        })
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        self.inner
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Whether `bestmove` was printed.
    pub fn is_done(&self) -> bool {
        matches!(self.lock().state, State::Done)
    }

    /// Whether the search still waits for `ponderhit`.
    pub fn is_pondering(&self) -> bool {
        let inner = self.lock();
        inner.hold_ponder && !matches!(inner.state, State::Done)
    }

    /// `stop` (`all` true) or `ponderhit` (`all` false): lifts the holds, and prints a held result.
    pub fn release(&self, all: bool) {
        let mut inner = self.lock();
        inner.hold_ponder = false;
        if all {
            inner.hold_infinite = false;
        }
        if inner.hold_infinite {
            return;
        }
        if let State::Held(_) = inner.state {
            if let State::Held(result) = std::mem::replace(&mut inner.state, State::Done) {
                self.report(&mut inner, &result);
            }
        }
    }

    /// The search has finished: print now, or hold the result.
    pub fn finish(&self, result: &SearchResult) {
        let mut inner = self.lock();
        if !matches!(inner.state, State::Running) {
            log::warn!("a search finished twice; the second result is ignored");
            return;
        }
        if inner.hold_infinite || inner.hold_ponder {
            inner.state = State::Held(result.clone());
        } else {
            inner.state = State::Done;
            self.report(&mut inner, result);
        }
    }

    /// Prints the final info line and `bestmove`, with every move checked legal.
    fn report(&self, inner: &mut Inner, result: &SearchResult) {
        let best = result
            .best_move
            .filter(|mv| inner.game.check_move(*mv).is_ok());
        if best != result.best_move {
            log::error!(
                "the engine's best move {:?} is illegal here",
                result.best_move
            );
        }
        let best = best.or_else(|| inner.game.legal_moves().first().copied());
        let ponder = match (best, result.ponder_move) {
            (Some(best), Some(ponder)) => {
                let pv = legal_prefix(&mut inner.game, &[best, ponder]);
                (pv.len() == 2).then_some(ponder)
            }
            _ => None,
        };
        if let (Some(best), Some(info)) = (best, &result.info) {
            let mut info = info.clone();
            info.pv = legal_prefix(&mut inner.game, &info.pv);
            if info.pv.first() != Some(&best) {
                info.pv = vec![best];
            }
            if !inner
                .last_info
                .as_ref()
                .is_some_and(|last| same_report(last, &info))
            {
                self.out.line(&format_info(&info));
            }
        }
        self.out.line(&format_bestmove(best, ponder));
    }

    fn print_info(&self, info: &SearchInfo) {
        let mut inner = self.lock();
        let mut info = info.clone();
        info.pv = legal_prefix(&mut inner.game, &info.pv);
        self.out.line(&format_info(&info));
        inner.last_info = Some(info);
    }
}

/// Whether two reports say the same (time aside): then the final line need not be repeated.
fn same_report(a: &SearchInfo, b: &SearchInfo) -> bool {
    (
        a.depth, a.seldepth, a.multipv, a.score, a.bound, a.wdl, a.nodes, &a.pv,
    ) == (
        b.depth, b.seldepth, b.multipv, b.score, b.bound, b.wdl, b.nodes, &b.pv,
    )
}

/// The longest prefix of `moves` that is legal in `game` (which is left as it was).
fn legal_prefix(game: &mut Game, moves: &[Move]) -> Vec<Move> {
    let mut legal = Vec::with_capacity(moves.len());
    for &mv in moves {
        if game.play(mv).is_err() {
            log::error!("the engine reported an illegal move {mv} in a pv");
            break;
        }
        legal.push(mv);
    }
    for _ in &legal {
        game.undo();
    }
    legal
}

/// The observer handed to the engine for one `go`.
pub struct Observer {
    slot: Arc<SearchSlot>,
}

impl Observer {
    /// An observer reporting to `slot`.
    pub fn new(slot: Arc<SearchSlot>) -> Observer {
        Observer { slot }
    }
}

impl Drop for Observer {
    /// If the search thread died without finishing (a panic), report a legal move anyway so
    /// the `go` still gets its one `bestmove` and the session does not stay busy.
    fn drop(&mut self) {
        let running = matches!(self.slot.lock().state, State::Running);
        if running {
            log::error!("the search ended without a result; reporting a legal move");
            self.slot.finish(&SearchResult {
                best_move: None,
                ponder_move: None,
                info: None,
            });
        }
    }
}

impl SearchObserver for Observer {
    fn on_info(&mut self, info: &SearchInfo) {
        self.slot.print_info(info);
    }

    fn on_currmove(&mut self, depth: u32, mv: Move, number: u32) {
        self.slot.out.line(&format_currmove(depth, mv, number));
    }

    fn on_finish(&mut self, result: &SearchResult) {
        self.slot.finish(result);
    }
}
