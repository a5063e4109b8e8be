//! Messages from the page over the WebSocket (JSON objects tagged by `type`), and the settings
//! they carry. Engines are named by their index in the server's configuration only.

use super::levels::Level;
use crate::referee::time_control::{Limits, TimeControl};
use crate::{Repetition, Rules, Side};
use serde::{Deserialize, Serialize};
use std::time::Duration;

/// Largest message the server reads from the page; longer ones get an error.
pub const MAX_MESSAGE: usize = 1 << 20;

/// A rule variant as the page sends it.
#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct RulesMessage {
    /// ForcedCapture.
    pub forced_capture: bool,
    /// CapturesToWin, 1..20.
    pub captures_to_win: u8,
    /// `forbid` or `draw`.
    pub repetition: RepetitionMessage,
}

/// Repetition rule names.
#[derive(Clone, Copy, Debug, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum RepetitionMessage {
    /// Repeating a position is illegal.
    #[default]
    Forbid,
    /// A repeated position draws.
    Draw,
}

impl Default for RulesMessage {
    fn default() -> RulesMessage {
        RulesMessage {
            forced_capture: false,
            captures_to_win: 5,
            repetition: RepetitionMessage::Forbid,
        }
    }
}

impl RulesMessage {
    /// The library's rules.
    ///
    /// # Errors
    /// Captures to win out of range.
    pub fn rules(self) -> Result<Rules, String> {
        let rules = Rules {
            forced_capture: self.forced_capture,
            captures_to_win: self.captures_to_win,
            repetition: match self.repetition {
                RepetitionMessage::Forbid => Repetition::Forbid,
                RepetitionMessage::Draw => Repetition::Draw,
            },
        };
        rules.validate()?;
        Ok(rules)
    }
}

/// Engine limits chosen on the page: any of move time, depth, nodes, and a clock.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct LimitsMessage {
    /// `go movetime`, ms.
    pub movetime_ms: Option<u64>,
    /// `go depth`.
    pub depth: Option<u32>,
    /// `go nodes`.
    pub nodes: Option<u64>,
    /// Clock for both sides: base time, ms.
    pub clock_ms: Option<u64>,
    /// Clock increment per move, ms.
    pub increment_ms: Option<u64>,
}

impl LimitsMessage {
    /// The referee's limits (a small time margin allowed past clocks, as in matches).
    ///
    /// # Errors
    /// No limit at all, or values out of range.
    pub fn limits(self) -> Result<Limits, String> {
        let limits = self.parse()?;
        if limits.is_unlimited() {
            return Err("choose a limit for the engine: move time, depth, nodes or a clock".into());
        }
        Ok(limits)
    }

    /// The referee's limits, possibly none at all (two people, or a level's own limits).
    ///
    /// # Errors
    /// Values out of range.
    pub fn parse(self) -> Result<Limits, String> {
        let limits = Limits {
            clock: match self.clock_ms {
                Some(0) | None => None,
                Some(base) if base <= 24 * 3_600_000 => Some(TimeControl {
                    moves: None,
                    base: Duration::from_millis(base),
                    increment: Duration::from_millis(self.increment_ms.unwrap_or(0).min(3_600_000)),
                }),
                Some(base) => return Err(format!("clock of {base} ms: at most one day")),
            },
            move_time: self
                .movetime_ms
                .filter(|&t| t > 0)
                .map(Duration::from_millis),
            depth: self.depth.filter(|&d| d > 0).map(|d| d.min(100)),
            nodes: self.nodes.filter(|&n| n > 0),
            margin: Duration::from_millis(100),
        };
        Ok(limits)
    }
}

/// `goats` or `tigers`.
#[derive(Clone, Copy, Debug, Default, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SideMessage {
    /// Goats.
    #[default]
    Goats,
    /// Tigers.
    Tigers,
}

impl From<SideMessage> for Side {
    fn from(side: SideMessage) -> Side {
        match side {
            SideMessage::Goats => Side::Goats,
            SideMessage::Tigers => Side::Tigers,
        }
    }
}

/// A new game against engine `engine` at `level` (or between two people at the board when
/// `engine` is absent), the user playing `human`, from `start` (a position string), the game
/// shown (`from_shown`) or the start position.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayRequest {
    /// Engine index; absent or null: two people play.
    #[serde(default)]
    pub engine: Option<usize>,
    /// Strength: 1..8, `full` (with `limits`) or `perfect`; absent = `full`.
    #[serde(default)]
    pub level: Option<Level>,
    /// The user's side against the engine (default goats).
    #[serde(default)]
    pub human: SideMessage,
    /// Rule variant.
    #[serde(default)]
    pub rules: RulesMessage,
    /// The engine's limits and the clock.
    #[serde(default)]
    pub limits: LimitsMessage,
    /// Start position string.
    #[serde(default)]
    pub start: Option<String>,
    /// Continue the game shown (its moves up to the ply shown, and its rules).
    #[serde(default)]
    pub from_shown: bool,
}

/// A message from the page.
#[derive(Clone, Debug, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum ClientMessage {
    /// A new game (see [`PlayRequest`]).
    Play(PlayRequest),
    /// The user's move (`c3`, `e1d2`).
    Move {
        /// Move text.
        #[serde(rename = "move")]
        text: String,
    },
    /// Take back the user's last move (and the engine's reply).
    Takeback,
    /// The user resigns.
    Resign,
    /// The engine's best move for the user, shown as an arrow.
    Hint,
    /// Show the position after `ply` moves.
    Goto {
        /// Ply, 0 = start.
        ply: usize,
    },
    /// An analysis board on `position` (a position string; the start position when absent).
    Setup {
        /// Position string.
        #[serde(default)]
        position: Option<String>,
        /// Rule variant.
        #[serde(default)]
        rules: RulesMessage,
    },
    /// Turn continuous analysis on (with engine `engine` and `multipv` lines) or off.
    Analyse {
        /// On or off.
        on: bool,
        /// Engine index.
        #[serde(default)]
        engine: usize,
        /// Lines, 1..5.
        #[serde(default = "one")]
        multipv: u32,
    },
    /// Load game `index` of a record (the referee's PGN-like text or JSON lines).
    LoadRecord {
        /// Record text.
        text: String,
        /// Game index in it.
        #[serde(default)]
        index: usize,
    },
    /// Engine `goats` against engine `tigers` from the start position (or the position shown,
    /// with `from_current`), under `limits` (the engines' own when absent).
    Watch {
        /// Goats' engine index.
        goats: usize,
        /// Tigers' engine index.
        tigers: usize,
        /// Rule variant.
        #[serde(default)]
        rules: RulesMessage,
        /// Limits for both engines.
        #[serde(default)]
        limits: Option<LimitsMessage>,
        /// Start from the game shown instead of the start position.
        #[serde(default)]
        from_current: bool,
    },
    /// Stop the watched game.
    StopWatch,
    /// Restart the engine after a fault.
    RestartEngine,
    /// The game as a record: `pgn` or `json`.
    Export {
        /// Format name.
        format: String,
    },
    /// Ask for the current state again.
    State,
    /// After a game: mark the moves that changed its value (tablebases).
    Review,
    /// Generate the movement tables for the rules of the game shown, in the background.
    GenerateTables,
}

fn one() -> u32 {
    1
}
