//! Pondering (`-pondering`): the engine that has just moved searches the position after the
//! reply it expects (`go ponder`) while its opponent thinks. When the opponent plays that reply,
//! `ponderhit` turns the search into the engine's move, timed from `ponderhit` as cutechess and
//! fastchess time it; any other reply, or the game's end, ends it with `stop`, and the
//! `bestmove` it then owes is read and dropped.

use super::{EngineError, EngineProcess, SearchReply};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// What [`EngineError::Timeout`] names when a ponder search gave no `bestmove` after `stop`.
pub const PONDER_STOP: &str = "bestmove after stop of its ponder search";

impl EngineProcess {
    /// Whether the engine declared the `Ponder` option in its handshake.
    pub fn offers_ponder(&self) -> bool {
        self.offers_ponder
    }

    /// Whether a ponder search is running (or did not answer its `stop`).
    pub fn is_pondering(&self) -> bool {
        self.pondering
    }

    /// Starts a ponder search: `isready`/`readyok` (dropping stale output), then `position`
    /// (the game with the expected reply played) and `go` (a `go ponder` line).
    ///
    /// # Errors
    /// Exited, Disconnected, Timeout (`readyok`) or Interrupted.
    pub fn ponder(
        &mut self,
        position: &str,
        go: &str,
        interrupt: &AtomicBool,
    ) -> Result<(), EngineError> {
        self.go_sent = None;
        self.sync(self.ready_timeout, interrupt)?;
        self.send(position)?;
        self.send(go)?;
        self.pondering = true;
        Ok(())
    }

    /// The expected reply was played: sends `ponderhit` and reads until `bestmove` or until
    /// `allowed` has passed since then (the engine's clock runs from `ponderhit`).
    ///
    /// # Errors
    /// As [`EngineProcess::go`]; after a `bestmove` timeout the search is still pending
    /// ([`EngineProcess::stop_search`]).
    pub fn ponderhit(
        &mut self,
        allowed: Duration,
        interrupt: &AtomicBool,
    ) -> Result<SearchReply, EngineError> {
        self.pondering = false;
        self.timed_answer("ponderhit", allowed, interrupt)
    }

    /// Another reply was played, or the game ended: sends `stop` and reads the `bestmove` the
    /// ponder search owes (dropped) within `timeout`. Without it the engine stays pondering,
    /// unusable.
    ///
    /// # Errors
    /// Timeout ([`PONDER_STOP`]), Exited, Disconnected or Interrupted.
    pub fn stop_ponder(
        &mut self,
        timeout: Duration,
        interrupt: &AtomicBool,
    ) -> Result<(), EngineError> {
        self.send("stop")?;
        let now = Instant::now();
        self.read_reply(now + timeout, PONDER_STOP, now, interrupt)?;
        self.pondering = false;
        Ok(())
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::super::tests::scripted;
    use super::*;

    /// A scripted engine that holds its answer to `go ponder` until `ponderhit` or `stop`
    /// (`STOP` is what it does on `stop`).
    const PONDERER: &str = r#"echo "option name Ponder type check default false"
        while read -r line; do case "$line" in
        uci) echo uciok;; isready) echo readyok;;
        "go ponder"*) echo "info depth 3 score cp 12";;
        go*) echo "bestmove c3 ponder a1b1";;
        ponderhit) echo "bestmove c4 ponder b1a1";; stop) STOP;; quit) exit 0;;
        esac; done"#;

    #[test]
    fn ponderhit_answers_with_the_ponder_search_and_stop_drops_it() {
        let never = AtomicBool::new(false);
        let mut engine = scripted(&PONDERER.replace("STOP", "echo bestmove d3"));
        assert!(engine.offers_ponder());
        let go = |engine: &mut EngineProcess| {
            let allowed = Duration::from_secs(5);
            engine.go("position startpos", "go movetime 10", allowed, &never)
        };
        let ponder = |engine: &mut EngineProcess| {
            let position = "position startpos moves c3 a1b1";
            engine.ponder(position, "go ponder movetime 10", &never)
        };
        let reply = go(&mut engine).unwrap();
        let named = (reply.best_move.as_str(), reply.ponder.as_deref());
        assert_eq!(named, ("c3", Some("a1b1")));
        ponder(&mut engine).unwrap();
        assert!(engine.is_pondering());
        let hit = engine.ponderhit(Duration::from_secs(5), &never).unwrap();
        assert_eq!(hit.best_move, "c4");
        assert_eq!(hit.depth, Some(3), "the ponder search's info counts");
        assert!(!engine.is_pondering());
        ponder(&mut engine).unwrap();
        engine.stop_ponder(Duration::from_secs(5), &never).unwrap();
        assert!(!engine.is_pondering());
        // The dropped answer is not taken for the next search's.
        assert_eq!(go(&mut engine).unwrap().best_move, "c3");
    }

    #[test]
    fn a_ponder_search_that_ignores_stop_leaves_the_engine_pondering() {
        let never = AtomicBool::new(false);
        let mut engine = scripted(&PONDERER.replace("STOP", "true"));
        engine
            .ponder("position startpos moves c3 a1b1", "go ponder", &never)
            .unwrap();
        let error = engine
            .stop_ponder(Duration::from_millis(200), &never)
            .unwrap_err();
        assert!(
            matches!(
                error,
                EngineError::Timeout {
                    waiting_for: PONDER_STOP,
                    ..
                }
            ),
            "{error:?}"
        );
        assert!(engine.is_pondering());
    }
}
