//! `go`'s parameters, parsed straight into the search's [`Limits`]. Clocks are indexed by
//! `Side::index()`: goats 0 (`wtime`, `winc`; aliases `gtime`, `ginc` and UGI's `p1time`,
//! `p1inc`), tigers 1 (`btime`, `binc`; aliases `ttime`, `tinc`, `p2time`, `p2inc`); negative
//! clock values count as zero.

use super::command::{parse_int, parse_moves};
use super::error::CommandError;
use crate::search::Limits;
use std::time::Duration;

/// Largest clock or move time accepted, in milliseconds (about 31 years).
pub const MAX_TIME_MS: i64 = 1_000_000_000_000;
/// Largest `go depth`.
pub const MAX_GO_DEPTH: u32 = crate::search::thread::MAX_DEPTH;

/// Keywords `go` knows, so `searchmoves` knows where its list ends.
const KEYWORDS: [&str; 21] = [
    "wtime",
    "btime",
    "winc",
    "binc",
    "gtime",
    "ttime",
    "ginc",
    "tinc",
    "p1time",
    "p2time",
    "p1inc",
    "p2inc",
    "movestogo",
    "movetime",
    "depth",
    "nodes",
    "mate",
    "infinite",
    "ponder",
    "searchmoves",
    "perft",
];

fn set_once<T>(slot: &mut Option<T>, keyword: &str, value: T) -> Result<(), CommandError> {
    if slot.is_some() {
        return Err(CommandError::Repeated {
            keyword: keyword.to_string(),
        });
    }
    *slot = Some(value);
    Ok(())
}

fn millis(keyword: &str, text: &str, min: i64) -> Result<Duration, CommandError> {
    let value = parse_int(keyword, text, min, MAX_TIME_MS)?;
    Ok(Duration::from_millis(value.max(0) as u64))
}

/// Parses the tokens after `go` (not `go perft`).
///
/// # Errors
/// [`CommandError`] for an unknown keyword, a missing or bad value, or a keyword given twice.
pub fn parse_go(tokens: &[&str]) -> Result<Limits, CommandError> {
    let mut limits = Limits::default();
    let mut seen_flags: Vec<&str> = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        let keyword = tokens[i];
        i += 1;
        match keyword {
            "infinite" | "ponder" | "searchmoves" => {
                if seen_flags.contains(&keyword) {
                    return Err(CommandError::Repeated {
                        keyword: keyword.to_string(),
                    });
                }
                seen_flags.push(keyword);
                match keyword {
                    "infinite" => limits.infinite = true,
                    "ponder" => limits.ponder = true,
                    _ => {
                        let end = tokens[i..]
                            .iter()
                            .position(|t| KEYWORDS.contains(t))
                            .map_or(tokens.len(), |n| i + n);
                        if end == i {
                            return Err(CommandError::MissingValue {
                                keyword: keyword.to_string(),
                            });
                        }
                        limits.search_moves = parse_moves("searchmoves", &tokens[i..end])?;
                        i = end;
                    }
                }
                continue;
            }
            _ => {}
        }
        if !KEYWORDS.contains(&keyword) {
            return Err(CommandError::UnexpectedToken {
                command: "go",
                token: keyword.to_string(),
            });
        }
        let Some(&value) = tokens.get(i) else {
            return Err(CommandError::MissingValue {
                keyword: keyword.to_string(),
            });
        };
        i += 1;
        set_value(&mut limits, keyword, value)?;
    }
    Ok(limits)
}

fn set_value(limits: &mut Limits, keyword: &str, value: &str) -> Result<(), CommandError> {
    let clock = |keyword| millis(keyword, value, i64::MIN);
    match keyword {
        "wtime" | "gtime" | "p1time" => {
            set_once(&mut limits.time_left[0], "wtime", clock(keyword)?)
        }
        "btime" | "ttime" | "p2time" => {
            set_once(&mut limits.time_left[1], "btime", clock(keyword)?)
        }
        "winc" | "ginc" | "p1inc" => set_once(&mut limits.increment[0], "winc", clock(keyword)?),
        "binc" | "tinc" | "p2inc" => set_once(&mut limits.increment[1], "binc", clock(keyword)?),
        "movetime" => set_once(&mut limits.movetime, keyword, millis(keyword, value, 0)?),
        "movestogo" => {
            let moves = parse_int(keyword, value, 1, 1_000_000)? as u32;
            set_once(&mut limits.moves_to_go, keyword, moves)
        }
        "depth" => {
            let depth = parse_int(keyword, value, 1, i64::from(MAX_GO_DEPTH))? as u32;
            set_once(&mut limits.depth, keyword, depth)
        }
        "nodes" => {
            let nodes = parse_int(keyword, value, 1, i64::MAX)? as u64;
            set_once(&mut limits.nodes, keyword, nodes)
        }
        "mate" => {
            let moves = parse_int(keyword, value, 1, i64::from(MAX_GO_DEPTH / 2))? as u32;
            set_once(&mut limits.mate, keyword, moves)
        }
        // "perft" after other go keywords.
        _ => Err(CommandError::UnexpectedToken {
            command: "go",
            token: keyword.to_string(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Limits, CommandError> {
        parse_go(&text.split_whitespace().collect::<Vec<_>>())
    }

    #[test]
    fn clocks_map_goats_to_white() {
        let params = parse("wtime 1000 btime 2000 winc 10 tinc 20 movestogo 5").unwrap();
        assert_eq!(
            params.time_left,
            [
                Some(Duration::from_millis(1000)),
                Some(Duration::from_millis(2000))
            ]
        );
        assert_eq!(
            params.increment,
            [
                Some(Duration::from_millis(10)),
                Some(Duration::from_millis(20))
            ]
        );
        assert_eq!(params.moves_to_go, Some(5));
        let aliases = parse("gtime 1000 ttime 2000 ginc 10 binc 20 movestogo 5").unwrap();
        assert_eq!(aliases, params);
        let ugi = parse("p1time 1000 p2time 2000 p1inc 10 p2inc 20 movestogo 5").unwrap();
        assert_eq!(ugi, params);
        assert!(matches!(
            parse("p1time 1 wtime 2"),
            Err(CommandError::Repeated { .. })
        ));
        assert!(matches!(
            parse("p2inc x"),
            Err(CommandError::NotANumber { .. })
        ));
        assert!(matches!(
            parse("p1time"),
            Err(CommandError::MissingValue { .. })
        ));
    }

    #[test]
    fn negative_clock_counts_as_zero() {
        let params = parse("wtime -15 btime 100").unwrap();
        assert_eq!(params.time_left[0], Some(Duration::ZERO));
    }

    #[test]
    fn searchmoves_end_at_next_keyword() {
        let params = parse("searchmoves c3 a1b1 depth 3 infinite").unwrap();
        assert_eq!(params.search_moves.len(), 2);
        assert_eq!(params.depth, Some(3));
        assert!(params.infinite);
    }

    #[test]
    fn bad_values_are_typed_errors() {
        assert!(matches!(
            parse("depth"),
            Err(CommandError::MissingValue { .. })
        ));
        assert!(matches!(
            parse("depth x"),
            Err(CommandError::NotANumber { .. })
        ));
        assert!(matches!(
            parse("depth 0"),
            Err(CommandError::OutOfRange { .. })
        ));
        assert!(matches!(
            parse("nodes 99999999999999999999"),
            Err(CommandError::OutOfRange { .. })
        ));
        assert!(matches!(
            parse("movetime -1"),
            Err(CommandError::OutOfRange { .. })
        ));
        assert!(matches!(
            parse("wtime 1 gtime 2"),
            Err(CommandError::Repeated { .. })
        ));
        assert!(matches!(
            parse("infinite infinite"),
            Err(CommandError::Repeated { .. })
        ));
        assert!(matches!(
            parse("mate 0"),
            Err(CommandError::OutOfRange { .. })
        ));
        assert!(matches!(
            parse("matein 3"),
            Err(CommandError::UnexpectedToken { .. })
        ));
        assert!(matches!(
            parse("searchmoves"),
            Err(CommandError::MissingValue { .. })
        ));
        assert!(matches!(
            parse("searchmoves zz"),
            Err(CommandError::BadMove { .. })
        ));
        assert!(matches!(
            parse("depth 3 perft 2"),
            Err(CommandError::UnexpectedToken { .. })
        ));
    }

    #[test]
    fn mate_is_kept_for_the_search() {
        let limits = parse("mate 3 depth 4").unwrap();
        assert_eq!((limits.mate, limits.depth), (Some(3), Some(4)));
        assert_eq!(limits.depth_limit(), Some(4));
    }

    #[test]
    fn error_messages_quote_the_token() {
        let message = parse("depth abc").unwrap_err().to_string();
        assert_eq!(message, "bad depth \"abc\": expected an integer");
    }
}
