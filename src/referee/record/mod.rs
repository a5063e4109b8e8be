//! Game records: the PGN-like text format ([`pgn`]) and one JSON line per game ([`json`]),
//! both written and read back (to resume a match and to merge shards).

pub mod epd;
pub mod json;
pub mod keys;
pub mod pgn;

use super::engine_process::Score;
use super::outcome::{GameResult, Termination};
use super::search_info::{InfoFields, SearchFigures};
use crate::{Move, Position, Rules, Side};

/// One move of a record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordedMove {
    /// The move.
    pub mv: Move,
    /// Whether it came from the opening rather than an engine.
    pub book: bool,
    /// The engine's last reported score, from the mover's view.
    pub score: Option<Score>,
    /// The engine's last reported depth.
    pub depth: Option<u32>,
    /// Thinking time in milliseconds (engine moves only).
    pub time_ms: Option<u64>,
    /// The time the engine was allowed for this move in milliseconds: the time left on its
    /// clock or its move time, whichever is less, `timemargin` not included (engine moves with
    /// a time limit only; not in the PGN-like format).
    pub allowed_ms: Option<u64>,
    /// The other figures of the engine's `info` lines, its clock and its latency (written as
    /// the record file's keys ask, see [`keys::RecordKeys`]).
    pub details: MoveDetails,
}

/// Figures of one engine move beyond score, depth and time: fastchess's `-pgnout` keys.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MoveDetails {
    /// The engine's last reported figures (nodes, seldepth, nps, hashfull, tbhits, pv).
    pub figures: SearchFigures,
    /// Time left on the mover's clock once the move was charged, ms (engines with a clock).
    pub time_left_ms: Option<u64>,
    /// The time measured from `go` to `bestmove` minus the engine's own last `time`, ms
    /// (fastchess's latency; negative when the engine reports more than was measured).
    pub latency_ms: Option<i64>,
}

impl MoveDetails {
    /// The details of a move from the engine's `info` figures, the measured time and the
    /// clock after the move.
    pub fn of(info: &InfoFields, elapsed_ms: u64, time_left_ms: Option<u64>) -> MoveDetails {
        MoveDetails {
            figures: info.figures.clone(),
            time_left_ms,
            latency_ms: info.time_ms.map(|reported| {
                i64::try_from(elapsed_ms).unwrap_or(i64::MAX)
                    - i64::try_from(reported).unwrap_or(i64::MAX)
            }),
        }
    }
}

/// Time an engine used for one answer and the time it was allowed, in milliseconds
/// (`timemargin` not included in the allowance).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct TimeUse {
    /// Time from `go` to `bestmove`; when no `bestmove` came at all, how long the referee waited
    /// (a lower bound).
    pub time_ms: u64,
    /// Time allowed.
    pub allowed_ms: u64,
}

impl RecordedMove {
    /// An opening move.
    pub fn book(mv: Move) -> RecordedMove {
        RecordedMove {
            mv,
            book: true,
            score: None,
            depth: None,
            time_ms: None,
            allowed_ms: None,
            details: MoveDetails::default(),
        }
    }
}

/// Everything recorded about one finished game.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    /// Event name.
    pub event: String,
    /// Site.
    pub site: String,
    /// `YYYY.MM.DD` (UTC) when the game finished.
    pub date: String,
    /// Round, 1-based.
    pub round: u32,
    /// Game number in the whole match schedule, 1-based.
    pub number: u64,
    /// Game pair number in the whole match schedule, 1-based.
    pub pair: u64,
    /// The goats' engine name.
    pub goat: String,
    /// The tigers' engine name.
    pub tiger: String,
    /// The position the game was set up from (before the opening moves).
    pub start: Position,
    /// The rule variant.
    pub rules: Rules,
    /// The goats' time control text.
    pub goat_time_control: String,
    /// The tigers' time control text.
    pub tiger_time_control: String,
    /// The moves, opening moves first.
    pub moves: Vec<RecordedMove>,
    /// The result.
    pub result: GameResult,
    /// How it ended.
    pub termination: Termination,
    /// The final comment: `Goats win: tigers blocked`, `Tigers lose: illegal move "a1a3" ...`.
    pub reason: String,
    /// For a time forfeit: the losing answer's time and allowance (not in the PGN-like format).
    pub time_forfeit: Option<TimeUse>,
}

impl GameRecord {
    /// The engine playing `side`.
    pub fn engine(&self, side: Side) -> &str {
        match side {
            Side::Goats => &self.goat,
            Side::Tigers => &self.tiger,
        }
    }

    /// Points scored by engine `name` (None if it did not play this game).
    pub fn points_of(&self, name: &str) -> Option<f64> {
        if self.goat == name {
            Some(self.result.points_for(Side::Goats))
        } else if self.tiger == name {
            Some(self.result.points_for(Side::Tigers))
        } else {
            None
        }
    }
}

/// Today's date (UTC) as `YYYY.MM.DD`.
pub fn today() -> String {
    let (year, month, day) = civil_date(std::time::SystemTime::now());
    format!("{year:04}.{month:02}.{day:02}")
}

/// The UTC calendar date (year, month, day) of a time after 1970.
pub fn civil_date(time: std::time::SystemTime) -> (i64, i64, i64) {
    let days = time
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() / 86_400) as i64;
    // Civil-from-days (proleptic Gregorian), valid for all dates after 1970.
    let z = days + 719_468;
    let era = z / 146_097;
    let day_of_era = z - era * 146_097;
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let mp = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

/// Reads records from text in either format (JSON lines if the first non-blank character is
/// `{`, PGN otherwise).
///
/// # Errors
/// A message naming the bad line or tag.
pub fn parse_records(text: &str) -> Result<Vec<GameRecord>, String> {
    if text.trim_start().starts_with('{') {
        json::parse_lines(text)
    } else {
        pgn::parse_games(text)
    }
}

/// Reads a record file in either format.
///
/// # Errors
/// The file name and the reason.
pub fn read_records(path: &str) -> Result<Vec<GameRecord>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read records file \"{path}\": {e}"))?;
    parse_records(&text).map_err(|e| format!("records file \"{path}\": {e}"))
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A record with every kind of move comment, for round-trip tests.
    pub(crate) fn sample() -> GameRecord {
        let moves = ["c3", "a1b2", "b3", "e1d2", "d3"];
        GameRecord {
            event: "test \"quoted\" event".to_string(),
            site: "here".to_string(),
            date: "2026.11.29".to_string(),
            round: 2,
            number: 7,
            pair: 4,
            goat: "A".to_string(),
            tiger: "B b".to_string(),
            start: Position::startpos(),
            rules: Rules::default(),
            goat_time_control: "10+0.1".to_string(),
            tiger_time_control: "depth=3".to_string(),
            moves: moves
                .iter()
                .enumerate()
                .map(|(i, text)| {
                    let mv = text.parse().unwrap();
                    match i {
                        0 | 1 => RecordedMove::book(mv),
                        2 => RecordedMove {
                            mv,
                            book: false,
                            score: Some(Score::Centi(-35)),
                            depth: Some(4),
                            time_ms: Some(12),
                            allowed_ms: None,
                            details: MoveDetails {
                                figures: SearchFigures {
                                    nodes: Some(1234),
                                    seldepth: Some(9),
                                    nps: Some(98_000),
                                    hashfull: Some(17),
                                    tbhits: Some(0),
                                    pv: Some("b3 e1d2 d3".to_string()),
                                },
                                time_left_ms: Some(9_850),
                                latency_ms: Some(-2),
                            },
                        },
                        3 => RecordedMove {
                            mv,
                            book: false,
                            score: Some(Score::Mate(-3)),
                            depth: None,
                            time_ms: Some(1500),
                            allowed_ms: None,
                            details: MoveDetails {
                                figures: SearchFigures {
                                    nodes: Some(5),
                                    ..SearchFigures::default()
                                },
                                latency_ms: Some(14),
                                ..MoveDetails::default()
                            },
                        },
                        _ => RecordedMove {
                            mv,
                            book: false,
                            score: None,
                            depth: None,
                            time_ms: Some(0),
                            allowed_ms: None,
                            details: MoveDetails::default(),
                        },
                    }
                })
                .collect(),
            result: GameResult::TigersWin,
            termination: Termination::IllegalMove,
            reason: "Goats lose: illegal move \"c3\" (occupied)".to_string(),
            time_forfeit: None,
        }
    }

    #[test]
    fn today_looks_like_a_date() {
        let date = today();
        assert_eq!(date.len(), 10);
        assert!(date.starts_with("20"));
    }
}
