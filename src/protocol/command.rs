//! Protocol lines parsed into typed commands.

use super::error::CommandError;
use super::go::parse_go;
use super::ugi::{Dialect, Query};
use crate::bench::BenchSpec;
use crate::search::Limits;
use crate::{Move, Position};

/// Most moves a `position` command may list (the game history the engine keeps).
pub const MAX_POSITION_MOVES: usize = 10_000;
/// Largest depth of `go perft`.
pub const MAX_PERFT_DEPTH: u32 = 10;

/// One command line, parsed. Whether it is legal in the current game is the session's business.
#[derive(Clone, PartialEq, Debug)]
pub enum Command {
    /// `uci` or `ugi`: identify, list the options, `uciok` or `ugiok`. The first one fixes
    /// the session's dialect.
    Handshake(Dialect),
    /// `debug on|off`: extra `info string` lines.
    Debug(bool),
    /// `isready`: `readyok`, at once.
    IsReady,
    /// `setoption name <name> [value <value>]`; name and value with single spaces, as given.
    SetOption {
        /// The option's name.
        name: String,
        /// Its value, `None` for a button.
        value: Option<String>,
    },
    /// `register ...`: accepted and ignored (no registration needed).
    Register,
    /// `ucinewgame` or `uginewgame` (the command's word, for messages).
    NewGame(&'static str),
    /// `query <question>`, or why the question could not be read (a `response` is still owed).
    Query(Result<Query, CommandError>),
    /// `position startpos|fen <position string> [moves ...]`, as far as it could be read.
    Position {
        /// The start position.
        start: Position,
        /// The moves played from it, up to the first token that is not a move (syntax checked
        /// only).
        moves: Vec<Move>,
        /// The first move token that is not a move, if any (the tokens after it are ignored).
        bad_move: Option<CommandError>,
    },
    /// A `position` command that could not be read at all (no start position, too many moves):
    /// the engine must not go on searching its old game as if it were this one.
    BadPosition(CommandError),
    /// `go ...` (a search).
    Go(Limits),
    /// `go perft N`.
    Perft(u32),
    /// `stop`.
    Stop,
    /// `ponderhit`.
    PonderHit,
    /// `quit`.
    Quit,
    /// `d`: board diagram and position details.
    Display,
    /// `eval`: static evaluation by terms.
    Eval,
    /// `bench [hash] [threads] [limit] [positions] [limittype]` (Stockfish's arguments).
    Bench(BenchSpec),
    /// `help`: a short list of the commands.
    Help,
    /// `flip`: the current position mirrored top to bottom, as a new game.
    Flip,
}

/// Parses an integer token for `keyword` within `min..=max`, telling a non-number from an
/// out-of-range number.
///
/// # Errors
/// [`CommandError::NotANumber`] or [`CommandError::OutOfRange`].
pub fn parse_int(keyword: &str, text: &str, min: i64, max: i64) -> Result<i64, CommandError> {
    let digits = text.strip_prefix(['-', '+']).unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(CommandError::NotANumber {
            keyword: keyword.to_string(),
            text: text.to_string(),
        });
    }
    match text.parse::<i64>() {
        Ok(value) if (min..=max).contains(&value) => Ok(value),
        _ => Err(CommandError::OutOfRange {
            keyword: keyword.to_string(),
            text: text.to_string(),
            min,
            max,
        }),
    }
}

/// Parses one line. `Ok(None)` for an empty or blank line.
///
/// The first token must be a command (case-sensitive, as in UCI); a line starting with anything
/// else is rejected whole, so garbage can never trigger `quit` or `go` by accident.
///
/// # Errors
/// [`CommandError`] naming the bad token.
pub fn parse_line(line: &str) -> Result<Option<Command>, CommandError> {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    let Some((&first, rest)) = tokens.split_first() else {
        return Ok(None);
    };
    let no_arguments = |command: &'static str, value: Command| match rest.first() {
        None => Ok(value),
        Some(token) => Err(CommandError::UnexpectedToken {
            command,
            token: (*token).to_string(),
        }),
    };
    let command = match first {
        "uci" => no_arguments("uci", Command::Handshake(Dialect::Uci))?,
        "ugi" => no_arguments("ugi", Command::Handshake(Dialect::Ugi))?,
        "isready" => no_arguments("isready", Command::IsReady)?,
        "ucinewgame" => no_arguments("ucinewgame", Command::NewGame("ucinewgame"))?,
        "uginewgame" => no_arguments("uginewgame", Command::NewGame("uginewgame"))?,
        "query" => Command::Query(parse_query(rest)),
        "stop" => no_arguments("stop", Command::Stop)?,
        "ponderhit" => no_arguments("ponderhit", Command::PonderHit)?,
        "quit" => no_arguments("quit", Command::Quit)?,
        "d" => no_arguments("d", Command::Display)?,
        "eval" => no_arguments("eval", Command::Eval)?,
        "help" => no_arguments("help", Command::Help)?,
        "flip" => no_arguments("flip", Command::Flip)?,
        "register" => Command::Register,
        "debug" => parse_debug(rest)?,
        "setoption" => parse_setoption(rest)?,
        "position" => parse_position(rest).unwrap_or_else(Command::BadPosition),
        "go" => parse_go_command(rest)?,
        "bench" => Command::Bench(BenchSpec::parse(rest).map_err(CommandError::Bench)?),
        other => return Err(CommandError::UnknownCommand(other.to_string())),
    };
    Ok(Some(command))
}

fn parse_query(rest: &[&str]) -> Result<Query, CommandError> {
    match rest {
        [] => Err(CommandError::Missing {
            command: "query",
            what: "gameover, p1turn or result",
        }),
        [question] => question.parse(),
        [_, extra, ..] => Err(CommandError::UnexpectedToken {
            command: "query",
            token: (*extra).to_string(),
        }),
    }
}

fn parse_debug(rest: &[&str]) -> Result<Command, CommandError> {
    match rest {
        [] => Err(CommandError::Missing {
            command: "debug",
            what: "on or off",
        }),
        ["on"] => Ok(Command::Debug(true)),
        ["off"] => Ok(Command::Debug(false)),
        ["on" | "off", extra, ..] | [extra, ..] => Err(CommandError::UnexpectedToken {
            command: "debug",
            token: (*extra).to_string(),
        }),
    }
}

fn parse_setoption(rest: &[&str]) -> Result<Command, CommandError> {
    let missing_name = CommandError::Missing {
        command: "setoption",
        what: "name <name>",
    };
    match rest.first() {
        Some(&"name") => {}
        Some(token) => {
            return Err(CommandError::UnexpectedToken {
                command: "setoption",
                token: (*token).to_string(),
            })
        }
        None => return Err(missing_name),
    }
    let rest = &rest[1..];
    let (name, value) = match rest.iter().position(|t| *t == "value") {
        Some(at) => (&rest[..at], Some(rest[at + 1..].join(" "))),
        None => (rest, None),
    };
    if name.is_empty() {
        return Err(missing_name);
    }
    Ok(Command::SetOption {
        name: name.join(" "),
        value,
    })
}

fn parse_position(rest: &[&str]) -> Result<Command, CommandError> {
    let moves_at = rest.iter().position(|t| *t == "moves");
    let (setup, move_tokens) = match moves_at {
        Some(at) => (&rest[..at], &rest[at + 1..]),
        None => (rest, &rest[rest.len()..]),
    };
    let start = match setup.split_first() {
        Some((&"startpos", [])) => Position::startpos(),
        Some((&"startpos", [extra, ..])) => {
            return Err(CommandError::UnexpectedToken {
                command: "position",
                token: (*extra).to_string(),
            })
        }
        Some((&"fen", fields)) => Position::parse_with_move_number(&fields.join(" "))?.0,
        Some((token, _)) => {
            return Err(CommandError::UnexpectedToken {
                command: "position",
                token: (*token).to_string(),
            })
        }
        None => {
            return Err(CommandError::Missing {
                command: "position",
                what: "startpos or fen <position string>",
            })
        }
    };
    if move_tokens.len() > MAX_POSITION_MOVES {
        return Err(CommandError::TooManyMoves {
            count: move_tokens.len(),
            max: MAX_POSITION_MOVES,
        });
    }
    let mut moves = Vec::with_capacity(move_tokens.len());
    let mut bad_move = None;
    for (index, token) in move_tokens.iter().enumerate() {
        match token.parse::<Move>() {
            Ok(mv) => moves.push(mv),
            Err(error) => {
                bad_move = Some(CommandError::BadMove {
                    list: "moves",
                    index,
                    error,
                });
                break;
            }
        }
    }
    Ok(Command::Position {
        start,
        moves,
        bad_move,
    })
}

/// Parses move tokens of the list named `list`.
///
/// # Errors
/// [`CommandError::BadMove`] for the first token that is not a move.
pub fn parse_moves(list: &'static str, tokens: &[&str]) -> Result<Vec<Move>, CommandError> {
    tokens
        .iter()
        .enumerate()
        .map(|(index, token)| {
            token
                .parse::<Move>()
                .map_err(|error| CommandError::BadMove { list, index, error })
        })
        .collect()
}

fn parse_go_command(rest: &[&str]) -> Result<Command, CommandError> {
    match rest {
        ["perft"] => Err(CommandError::MissingValue {
            keyword: "perft".to_string(),
        }),
        ["perft", depth] => {
            Ok(Command::Perft(
                parse_int("perft depth", depth, 1, i64::from(MAX_PERFT_DEPTH))? as u32,
            ))
        }
        ["perft", _, extra, ..] => Err(CommandError::UnexpectedToken {
            command: "go perft",
            token: (*extra).to_string(),
        }),
        _ => Ok(Command::Go(parse_go(rest)?)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(line: &str) -> Result<Option<Command>, CommandError> {
        parse_line(line)
    }

    #[test]
    fn blank_lines_are_no_command() {
        assert_eq!(parse(""), Ok(None));
        assert_eq!(parse(" \t \r"), Ok(None));
    }

    #[test]
    fn setoption_names_and_values_may_hold_spaces() {
        let command = parse("setoption name Move   Overhead value 12")
            .unwrap()
            .unwrap();
        let expected = Command::SetOption {
            name: "Move Overhead".to_string(),
            value: Some("12".to_string()),
        };
        assert_eq!(command, expected);
        let command = parse("setoption name Clear Hash").unwrap().unwrap();
        assert!(matches!(command, Command::SetOption { value: None, .. }));
        assert!(matches!(
            parse("setoption name value 3"),
            Err(CommandError::Missing { .. })
        ));
        assert!(matches!(
            parse("setoption Hash"),
            Err(CommandError::UnexpectedToken { .. })
        ));
    }

    #[test]
    fn position_takes_startpos_or_a_position_string_and_moves() {
        let Some(Command::Position {
            start,
            moves,
            bad_move: None,
        }) = parse("position startpos moves c3 a1b1").unwrap()
        else {
            panic!("a position command");
        };
        assert_eq!(start, Position::startpos());
        assert_eq!(moves.len(), 2);
        let command = parse("position fen T3T/5/2G2/5/T3T t 19 0 9")
            .unwrap()
            .unwrap();
        assert!(matches!(command, Command::Position { ref moves, .. } if moves.is_empty()));
        assert!(matches!(
            parse("position fen T3T/5 g 20 0"),
            Ok(Some(Command::BadPosition(CommandError::BadPosition(_))))
        ));
        assert!(matches!(
            parse("position"),
            Ok(Some(Command::BadPosition(CommandError::Missing { .. })))
        ));
        let Some(Command::Position {
            moves,
            bad_move: Some(CommandError::BadMove { index: 1, .. }),
            ..
        }) = parse("position startpos moves c3 x a1b1").unwrap()
        else {
            panic!("a position command with a bad move");
        };
        assert_eq!(moves.len(), 1, "the moves before the bad token are kept");
        let many = format!(
            "position startpos moves{}",
            " c3".repeat(MAX_POSITION_MOVES + 1)
        );
        assert!(matches!(
            parse(&many),
            Ok(Some(Command::BadPosition(
                CommandError::TooManyMoves { .. }
            )))
        ));
    }

    #[test]
    fn commands_are_case_sensitive_and_first() {
        assert_eq!(
            parse("UCI"),
            Err(CommandError::UnknownCommand("UCI".to_string()))
        );
        assert_eq!(
            parse("joho quit"),
            Err(CommandError::UnknownCommand("joho".to_string()))
        );
        assert_eq!(parse("go perft 3"), Ok(Some(Command::Perft(3))));
        assert!(matches!(
            parse("go perft 11"),
            Err(CommandError::OutOfRange { .. })
        ));
        assert_eq!(
            parse("bench"),
            Ok(Some(Command::Bench(BenchSpec::default())))
        );
        assert!(matches!(parse("bench 16 1 0"), Err(CommandError::Bench(_))));
        assert_eq!(parse("flip"), Ok(Some(Command::Flip)));
        assert!(matches!(
            parse("help me"),
            Err(CommandError::UnexpectedToken { .. })
        ));
    }

    #[test]
    fn ugi_commands_parse_and_a_bad_query_still_is_a_query() {
        assert_eq!(parse("ugi"), Ok(Some(Command::Handshake(Dialect::Ugi))));
        assert_eq!(
            parse("uginewgame"),
            Ok(Some(Command::NewGame("uginewgame")))
        );
        assert_eq!(
            parse("query p1turn"),
            Ok(Some(Command::Query(Ok(Query::P1Turn))))
        );
        assert_eq!(
            parse("query winner"),
            Ok(Some(Command::Query(Err(CommandError::UnknownQuery(
                "winner".to_string()
            )))))
        );
        assert!(matches!(
            parse("query"),
            Ok(Some(Command::Query(Err(CommandError::Missing { .. }))))
        ));
        assert!(matches!(
            parse("query result now"),
            Ok(Some(Command::Query(Err(
                CommandError::UnexpectedToken { .. }
            ))))
        ));
        assert!(matches!(
            parse("ugi now"),
            Err(CommandError::UnexpectedToken { .. })
        ));
    }

    #[test]
    fn parse_int_tells_junk_from_out_of_range() {
        assert_eq!(parse_int("n", "+5", 0, 9), Ok(5));
        assert!(matches!(
            parse_int("n", "-", 0, 9),
            Err(CommandError::NotANumber { .. })
        ));
        assert!(matches!(
            parse_int("n", "1e3", 0, 9),
            Err(CommandError::NotANumber { .. })
        ));
        assert!(matches!(
            parse_int("n", "10", 0, 9),
            Err(CommandError::OutOfRange { .. })
        ));
        let huge = "9".repeat(40);
        assert!(matches!(
            parse_int("n", &huge, 0, 9),
            Err(CommandError::OutOfRange { .. })
        ));
    }
}
