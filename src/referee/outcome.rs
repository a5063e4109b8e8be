//! Game results and terminations, and the one function that decides what an engine's answer
//! means when several things went wrong at once.

use super::engine_process::{EngineError, SearchReply, BESTMOVE_AFTER_STOP};
use crate::{Game, Move, Side};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::time::Duration;

/// The result of a finished game.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum GameResult {
    /// `1-0`.
    #[serde(rename = "1-0")]
    GoatsWin,
    /// `0-1`.
    #[serde(rename = "0-1")]
    TigersWin,
    /// `1/2-1/2`.
    #[serde(rename = "1/2-1/2")]
    Draw,
}

impl GameResult {
    /// The result when `side` wins.
    pub const fn win_for(side: Side) -> GameResult {
        match side {
            Side::Goats => GameResult::GoatsWin,
            Side::Tigers => GameResult::TigersWin,
        }
    }

    /// Points scored by `side` (0, 0.5 or 1).
    pub fn points_for(self, side: Side) -> f64 {
        match (self, side) {
            (GameResult::Draw, _) => 0.5,
            (GameResult::GoatsWin, Side::Goats) | (GameResult::TigersWin, Side::Tigers) => 1.0,
            _ => 0.0,
        }
    }

    /// The PGN result token.
    pub const fn as_str(self) -> &'static str {
        match self {
            GameResult::GoatsWin => "1-0",
            GameResult::TigersWin => "0-1",
            GameResult::Draw => "1/2-1/2",
        }
    }

    /// Reads a PGN result token.
    pub fn parse(text: &str) -> Option<GameResult> {
        match text {
            "1-0" => Some(GameResult::GoatsWin),
            "0-1" => Some(GameResult::TigersWin),
            "1/2-1/2" => Some(GameResult::Draw),
            _ => None,
        }
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// How a game ended (fastchess naming).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Termination {
    /// By the rules: captures, a blocked side, repetition draw.
    #[serde(rename = "normal")]
    Normal,
    /// By the referee: maximum plies, draw or resign rule.
    #[serde(rename = "adjudication")]
    Adjudication,
    /// An engine overran its clock or move time.
    #[serde(rename = "time forfeit")]
    TimeForfeit,
    /// An engine crashed, exited or closed its pipes.
    #[serde(rename = "disconnect")]
    Disconnect,
    /// An engine gave no answer within its deadline (no time limit in force).
    #[serde(rename = "stall")]
    Stall,
    /// An engine played an illegal or malformed move.
    #[serde(rename = "illegal move")]
    IllegalMove,
    /// The referee was interrupted (such games are not recorded).
    #[serde(rename = "interrupt")]
    Interrupt,
}

impl Termination {
    /// The PGN tag value: `normal`, `adjudication`, `time forfeit`, ...
    pub const fn as_str(self) -> &'static str {
        match self {
            Termination::Normal => "normal",
            Termination::Adjudication => "adjudication",
            Termination::TimeForfeit => "time forfeit",
            Termination::Disconnect => "disconnect",
            Termination::Stall => "stall",
            Termination::IllegalMove => "illegal move",
            Termination::Interrupt => "interrupt",
        }
    }

    /// Reads a PGN tag value.
    pub fn parse(text: &str) -> Option<Termination> {
        [
            Termination::Normal,
            Termination::Adjudication,
            Termination::TimeForfeit,
            Termination::Disconnect,
            Termination::Stall,
            Termination::IllegalMove,
            Termination::Interrupt,
        ]
        .into_iter()
        .find(|t| t.as_str() == text)
    }

    /// Whether an engine misbehaved. Not every fault stops the run: only an engine left
    /// unusable is restarted (or stops the run without `--recover`), see
    /// [`leaves_engine_usable`].
    pub const fn is_fault(self) -> bool {
        matches!(
            self,
            Termination::TimeForfeit
                | Termination::Disconnect
                | Termination::Stall
                | Termination::IllegalMove
        )
    }
}

impl fmt::Display for Termination {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What the referee makes of an engine's answer to `go`.
#[derive(Clone, Debug, PartialEq)]
pub enum Verdict {
    /// A legal move, in time.
    Play(Move),
    /// The engine loses: why, and a comment naming the move or the deadline.
    Fault(Termination, String),
    /// The referee was interrupted.
    Interrupted,
}

/// The limit the engine played against, for judging its answer.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Deadline {
    /// Clock or move time: overrunning `allowed` (margin included) is a time forfeit.
    Timed {
        /// Time the engine had, margin included.
        allowed: Duration,
    },
    /// Depth or nodes only: no answer within this long is a stall.
    Untimed,
}

/// Decides what an answer means. Precedence, highest first: interrupt; disconnect (the engine
/// exited, crashed or closed its pipes); no `readyok` before the move (stall); no answer within
/// the deadline (time forfeit if timed, else stall); an answer after the time allowed (time
/// forfeit); a malformed move; an illegal move. Otherwise the move is played.
///
/// `reply` is what [`EngineProcess::go`](super::engine_process::EngineProcess::go) gave, or for
/// a timed engine that overran its deadline, what
/// [`EngineProcess::stop_search`](super::engine_process::EngineProcess::stop_search) gave
/// after it: the late `bestmove`, or none even then.
pub fn judge(reply: &Result<SearchReply, EngineError>, deadline: Deadline, game: &Game) -> Verdict {
    let reply = match reply {
        Err(EngineError::Interrupted) => return Verdict::Interrupted,
        Err(EngineError::Exited(reason)) => {
            return Verdict::Fault(Termination::Disconnect, reason.describe())
        }
        Err(EngineError::Disconnected) => {
            return Verdict::Fault(
                Termination::Disconnect,
                "the engine closed its pipes".into(),
            )
        }
        Err(EngineError::Spawn(message)) => {
            return Verdict::Fault(Termination::Disconnect, message.clone())
        }
        Err(EngineError::Timeout {
            waiting_for,
            waited,
        }) => {
            return match *waiting_for {
                "bestmove" | BESTMOVE_AFTER_STOP => no_answer(deadline, *waited, waiting_for),
                _ => Verdict::Fault(
                    Termination::Stall,
                    format!("no {waiting_for} within {} ms", waited.as_millis()),
                ),
            }
        }
        Ok(reply) => reply,
    };
    if let Deadline::Timed { allowed } = deadline {
        if reply.elapsed > allowed {
            return Verdict::Fault(
                Termination::TimeForfeit,
                format!(
                    "bestmove after {} ms, {} ms allowed",
                    reply.elapsed.as_millis(),
                    allowed.as_millis()
                ),
            );
        }
    }
    let text = reply.best_move.as_str();
    let mv: Move = match text.parse() {
        Ok(mv) => mv,
        Err(_) => {
            return Verdict::Fault(
                Termination::IllegalMove,
                format!(
                    "malformed move \"{}\"",
                    text.chars().take(40).collect::<String>()
                ),
            )
        }
    };
    match game.check_move(mv) {
        Ok(()) => Verdict::Play(mv),
        Err(error) => Verdict::Fault(Termination::IllegalMove, error.to_string()),
    }
}

/// The verdict for an engine that did not answer: time forfeit when it had a time limit, stall
/// otherwise. `waiting_for` is `bestmove`, or [`BESTMOVE_AFTER_STOP`] when not even `stop`
/// brought one (`waited` is then the wait after `stop`).
pub fn no_answer(deadline: Deadline, waited: Duration, waiting_for: &str) -> Verdict {
    match deadline {
        Deadline::Timed { allowed } if waiting_for == BESTMOVE_AFTER_STOP => Verdict::Fault(
            Termination::TimeForfeit,
            format!(
                "no bestmove within {} ms allowed, nor within {} ms after stop",
                allowed.as_millis(),
                waited.as_millis()
            ),
        ),
        Deadline::Timed { allowed } => Verdict::Fault(
            Termination::TimeForfeit,
            format!("no bestmove within {} ms allowed", allowed.as_millis()),
        ),
        Deadline::Untimed => Verdict::Fault(
            Termination::Stall,
            format!("no bestmove within {} ms", waited.as_millis()),
        ),
    }
}

/// Whether the engine can play on after this answer (its game may still be lost): it answered,
/// even late or with an illegal move. An engine that gave no answer (it ended, closed its
/// pipes, or stayed silent past its allowance, `stop` included) is unusable: it is killed,
/// and restarted (`--recover`) or the run stops.
pub fn leaves_engine_usable(reply: &Result<SearchReply, EngineError>) -> bool {
    reply.is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::referee::process::ExitReason;
    use crate::Rules;

    fn reply(best_move: &str, elapsed_ms: u64) -> Result<SearchReply, EngineError> {
        Ok(SearchReply {
            best_move: best_move.to_string(),
            ponder: None,
            score: None,
            depth: None,
            info: Default::default(),
            elapsed: Duration::from_millis(elapsed_ms),
        })
    }

    const TIMED: Deadline = Deadline::Timed {
        allowed: Duration::from_millis(100),
    };

    #[test]
    fn judge_applies_precedence() {
        let game = Game::startpos(Rules::default());
        assert_eq!(
            judge(&reply("c3", 5), TIMED, &game),
            Verdict::Play("c3".parse().unwrap())
        );
        assert_eq!(
            judge(&Err(EngineError::Interrupted), TIMED, &game),
            Verdict::Interrupted
        );
        let kind = |verdict: Verdict| match verdict {
            Verdict::Fault(termination, comment) => (termination, comment),
            other => panic!("{other:?}"),
        };
        assert_eq!(
            kind(judge(&Err(EngineError::Disconnected), TIMED, &game)).0,
            Termination::Disconnect
        );
        let crashed = Err(EngineError::Exited(ExitReason::Signal(11)));
        assert_eq!(
            kind(judge(&crashed, TIMED, &game)),
            (
                Termination::Disconnect,
                "crashed: killed by signal 11 (SIGSEGV)".to_string()
            )
        );
        // No readyok before the move: a stall even under a clock (the clock had not started).
        let not_ready = Err(EngineError::Timeout {
            waiting_for: "readyok",
            waited: Duration::from_millis(300),
        });
        assert_eq!(
            kind(judge(&not_ready, TIMED, &game)),
            (Termination::Stall, "no readyok within 300 ms".to_string())
        );
        // Not even stop brought a bestmove.
        let silent = Err(EngineError::Timeout {
            waiting_for: BESTMOVE_AFTER_STOP,
            waited: Duration::from_millis(300),
        });
        assert_eq!(
            kind(judge(&silent, TIMED, &game)),
            (
                Termination::TimeForfeit,
                "no bestmove within 100 ms allowed, nor within 300 ms after stop".to_string()
            )
        );
        let timeout = Err(EngineError::Timeout {
            waiting_for: "bestmove",
            waited: Duration::from_millis(100),
        });
        assert_eq!(
            kind(judge(&timeout, TIMED, &game)).0,
            Termination::TimeForfeit
        );
        assert_eq!(
            kind(judge(&timeout, Deadline::Untimed, &game)).0,
            Termination::Stall
        );
        // Late and illegal: the time forfeit wins.
        assert_eq!(
            kind(judge(&reply("a1a3", 150), TIMED, &game)).0,
            Termination::TimeForfeit
        );
        // Late without a time limit is fine.
        assert!(matches!(
            judge(&reply("c3", 150), Deadline::Untimed, &game),
            Verdict::Play(_)
        ));
        let (termination, comment) = kind(judge(&reply("xyz", 5), TIMED, &game));
        assert_eq!(
            (termination, comment.as_str()),
            (Termination::IllegalMove, "malformed move \"xyz\"")
        );
        let (termination, comment) = kind(judge(&reply("a1b2", 5), TIMED, &game));
        assert_eq!(termination, Termination::IllegalMove);
        assert!(comment.contains("\"a1b2\""), "{comment}");
        assert_eq!(
            kind(judge(&reply("", 5), TIMED, &game)).0,
            Termination::IllegalMove
        );
    }

    #[test]
    fn only_engines_that_gave_no_answer_are_unusable() {
        assert!(leaves_engine_usable(&reply("a1a3", 150)));
        assert!(leaves_engine_usable(&reply("xyz", 5)));
        for error in [
            EngineError::Disconnected,
            EngineError::Exited(ExitReason::Status(1)),
            EngineError::Timeout {
                waiting_for: BESTMOVE_AFTER_STOP,
                waited: Duration::from_millis(1),
            },
        ] {
            assert!(!leaves_engine_usable(&Err(error)));
        }
    }

    #[test]
    fn names_round_trip() {
        for name in [
            "normal",
            "adjudication",
            "time forfeit",
            "disconnect",
            "stall",
            "illegal move",
            "interrupt",
        ] {
            assert_eq!(Termination::parse(name).unwrap().as_str(), name);
        }
        for result in [
            GameResult::GoatsWin,
            GameResult::TigersWin,
            GameResult::Draw,
        ] {
            assert_eq!(GameResult::parse(result.as_str()), Some(result));
        }
        assert_eq!(GameResult::Draw.points_for(Side::Goats), 0.5);
        assert_eq!(GameResult::TigersWin.points_for(Side::Tigers), 1.0);
    }
}
