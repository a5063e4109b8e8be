//! Typed errors for protocol lines. Every message is lowercase and quotes the bad token; the
//! session prints them as `info string error: <message>`.

use crate::search::tt::AllocationError;
use crate::{IllegalMoveError, ParseMoveError, ParsePositionError};
use std::fmt;

/// Why a protocol line was rejected. Nothing changes when a line is rejected, except after a
/// `position` line: the engine then keeps the legal prefix and searches nothing until the next
/// good one.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum CommandError {
    /// The first token is not a command.
    UnknownCommand(String),
    /// A token the command does not take.
    UnexpectedToken {
        /// The command.
        command: &'static str,
        /// The token.
        token: String,
    },
    /// A keyword that needs a value was the last token.
    MissingValue {
        /// The keyword, e.g. `wtime`.
        keyword: String,
    },
    /// A value that is not an integer.
    NotANumber {
        /// The keyword the value belongs to.
        keyword: String,
        /// The value's text.
        text: String,
    },
    /// An integer outside the allowed range.
    OutOfRange {
        /// The keyword the value belongs to.
        keyword: String,
        /// The value's text.
        text: String,
        /// Smallest allowed value.
        min: i64,
        /// Largest allowed value.
        max: i64,
    },
    /// A keyword given twice in one command.
    Repeated {
        /// The keyword.
        keyword: String,
    },
    /// Something required is missing, e.g. `position` without `startpos` or `fen`.
    Missing {
        /// The command.
        command: &'static str,
        /// What it needs.
        what: &'static str,
    },
    /// A bad position string.
    BadPosition(ParsePositionError),
    /// A token that is not a move (index counts from 0 within its list).
    BadMove {
        /// The list it appeared in: `moves` or `searchmoves`.
        list: &'static str,
        /// Index in that list.
        index: usize,
        /// Why it is not a move.
        error: ParseMoveError,
    },
    /// A move that is not legal where it is played.
    IllegalMove {
        /// The list it appeared in: `moves` or `searchmoves`.
        list: &'static str,
        /// Index in that list.
        index: usize,
        /// Why it is illegal.
        error: IllegalMoveError,
    },
    /// More moves in `position` than the engine keeps.
    TooManyMoves {
        /// How many were given.
        count: usize,
        /// The limit.
        max: usize,
    },
    /// `setoption` naming no option.
    UnknownOption(String),
    /// A bad option value.
    BadOptionValue {
        /// The option's name as printed by `uci`.
        option: &'static str,
        /// The value's text (empty when missing).
        value: String,
        /// What is expected.
        expected: String,
    },
    /// The command needs an idle engine but a search, perft or bench is running.
    Busy {
        /// The command.
        command: &'static str,
    },
    /// `go` after a `position` command that could not be followed (why): the engine has no
    /// game of the arbiter's to search, and answers `bestmove 0000`.
    NoPosition(String),
    /// A bad `bench` argument or position file (the message names it).
    Bench(String),
    /// `query` with a question other than `gameover`, `p1turn` or `result`.
    UnknownQuery(String),
    /// `setoption name Hash`: the table of that size could not be allocated; the previous one
    /// (and the previous `Hash` value) stays.
    HashAllocation {
        /// Why.
        error: AllocationError,
        /// The size in MB kept.
        kept_mb: usize,
    },
    /// `query` after a `position` command that could not be followed (why): the engine has no
    /// game to answer for; the answer says the game is over with no result.
    NoGameToQuery(String),
    /// A line longer than the reader accepts.
    LineTooLong {
        /// Length of the line in bytes.
        length: usize,
        /// The limit.
        max: usize,
    },
}

impl fmt::Display for CommandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use CommandError::*;
        match self {
            UnknownCommand(token) => write!(f, "unknown command \"{token}\""),
            UnexpectedToken { command, token } => {
                write!(f, "unexpected token \"{token}\" in {command}")
            }
            MissingValue { keyword } => write!(f, "missing value after \"{keyword}\""),
            NotANumber { keyword, text } => {
                write!(f, "bad {keyword} \"{text}\": expected an integer")
            }
            OutOfRange {
                keyword,
                text,
                min,
                max,
            } => write!(f, "{keyword} \"{text}\" out of range {min}..{max}"),
            Repeated { keyword } => write!(f, "\"{keyword}\" given twice"),
            Missing { command, what } => write!(f, "{command} needs {what}"),
            BadPosition(error) => write!(f, "{error}"),
            BadMove { list, index, error } => write!(f, "{list} index {index}: {error}"),
            IllegalMove { list, index, error } => write!(f, "{list} index {index}: {error}"),
            TooManyMoves { count, max } => write!(f, "{count} moves: at most {max} are accepted"),
            UnknownOption(name) => write!(f, "unknown option \"{name}\""),
            BadOptionValue {
                option,
                value,
                expected,
            } => write!(
                f,
                "bad value \"{value}\" for option {option}: expected {expected}"
            ),
            Busy { command } => write!(
                f,
                "{command} is not allowed while a search, perft or bench runs: send stop first"
            ),
            NoPosition(reason) => {
                write!(f, "no position to search until a good position: {reason}")
            }
            Bench(message) => f.write_str(message),
            UnknownQuery(token) => write!(
                f,
                "unknown query \"{token}\": expected gameover, p1turn or result"
            ),
            HashAllocation { error, kept_mb } => {
                write!(f, "{error}; keeping the {kept_mb} MB table")
            }
            NoGameToQuery(reason) => {
                write!(f, "no game to answer for until a good position: {reason}")
            }
            LineTooLong { length, max } => write!(
                f,
                "line of {length} bytes ignored: at most {max} are accepted"
            ),
        }
    }
}

impl std::error::Error for CommandError {}

impl From<ParsePositionError> for CommandError {
    fn from(error: ParsePositionError) -> CommandError {
        CommandError::BadPosition(error)
    }
}
