//! One `go`: its observer, and the rule that its `bestmove` is printed exactly once. Holding it
//! back for `stop` or `ponderhit` is the engine's business (it calls `on_finish` only then).

use super::output::{format_bestmove, format_currmove, format_info, Output};
use super::ugi::Dialect;
use crate::engine::{SearchInfo, SearchObserver, SearchResult};
use crate::Move;
use std::sync::{Arc, Mutex, MutexGuard};

struct Inner {
    /// Whether `bestmove` was printed.
    done: bool,
    /// The last info line printed, so the final one is not printed twice.
    last_info: Option<SearchInfo>,
}

/// The shared state of one `go`.
pub struct SearchSlot {
    inner: Mutex<Inner>,
    out: Arc<dyn Output>,
    dialect: Dialect,
}

impl SearchSlot {
    /// A slot printing to `out` in `dialect` (UGI's `bestmove` names no ponder move).
    pub fn new(out: Arc<dyn Output>, dialect: Dialect) -> Arc<SearchSlot> {
        Arc::new(SearchSlot {
            inner: Mutex::new(Inner {
                done: false,
                last_info: None,
            }),
            out,
            dialect,
        })
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        self.inner
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Whether `bestmove` was printed.
    pub fn is_done(&self) -> bool {
        self.lock().done
    }

    /// Prints the final info line (unless it repeats the last one) and `bestmove`, once.
    fn finish(&self, result: &SearchResult) {
        let mut inner = self.lock();
        if inner.done {
            log::warn!("a search finished twice; the second result is ignored");
            return;
        }
        inner.done = true;
        if let (Some(best), Some(info)) = (result.best_move, &result.info) {
            let mut info = info.clone();
            if info.pv.first() != Some(&best) {
                info.pv = vec![best];
            }
            if !same_report(&inner, &info) {
                self.out.line(&format_info(&info));
            }
        }
        let ponder = result
            .ponder_move
            .filter(|_| self.dialect.has_ponder_move());
        self.out.line(&format_bestmove(result.best_move, ponder));
    }

    fn print_info(&self, info: &SearchInfo) {
        let mut inner = self.lock();
        self.out.line(&format_info(info));
        inner.last_info = Some(info.clone());
    }
}

/// Whether `info` says the same as the last line printed (time aside).
fn same_report(inner: &Inner, b: &SearchInfo) -> bool {
    inner.last_info.as_ref().is_some_and(|a| {
        (
            a.depth, a.seldepth, a.multipv, a.score, a.bound, a.wdl, a.nodes, &a.pv,
        ) == (
            b.depth, b.seldepth, b.multipv, b.score, b.bound, b.wdl, b.nodes, &b.pv,
        )
    })
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
    /// If the search thread died without finishing, the `go` still gets its one `bestmove`
    /// (none: the engine's own guard answers with a legal move whenever it can), so the
    /// session does not stay busy.
    fn drop(&mut self) {
        if !self.slot.is_done() {
            log::error!("the search ended without a result");
            self.slot.finish(&SearchResult::default());
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

    fn on_string(&mut self, text: &str) {
        super::output::info_string(self.slot.out.as_ref(), text);
    }

    fn on_finish(&mut self, result: &SearchResult) {
        self.slot.finish(result);
    }
}
