//! Books: the openings of a match read from a file in one of three formats.
//!
//! - `epd`: position-string lines ([`super::openings`]: `moves c3 a1b2`, `<position> [moves
//!   ...]`), fastchess's EPD counterpart;
//! - `pgn`: our PGN-like game records (what `-pgnout` writes);
//! - `json`: our JSON-lines game records (what `-jsonout` writes).
//!
//! A record gives its start position and every move it played; `plies=N` keeps the first N
//! plies of each line or game (all of them without it). Every opening is replayed under the
//! match rules when the file is read, and the first bad one is reported with the file, its line
//! and the reason before any game starts.

use super::openings::{read_opening_line, Opening};
use super::record::{json, pgn, GameRecord};
use crate::Rules;
use std::path::Path;

/// The format of a book file.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum BookFormat {
    /// Position-string lines.
    Epd,
    /// PGN-like game records.
    Pgn,
    /// JSON-lines game records.
    Json,
}

impl BookFormat {
    /// The format named by `format=`.
    ///
    /// # Errors
    /// A message quoting an unknown name.
    pub fn parse(name: &str) -> Result<BookFormat, String> {
        match name.to_ascii_lowercase().as_str() {
            "epd" => Ok(BookFormat::Epd),
            "pgn" => Ok(BookFormat::Pgn),
            "json" | "jsonl" => Ok(BookFormat::Json),
            _ => Err(format!(
                "invalid --openings format \"{name}\": expected epd, pgn or json"
            )),
        }
    }

    /// The format a file name suggests: `.pgn`, `.json` or `.jsonl`; anything else is read as
    /// position strings.
    pub fn of_path(path: &str) -> BookFormat {
        let extension = Path::new(path)
            .extension()
            .map(|e| e.to_string_lossy().to_ascii_lowercase());
        match extension.as_deref() {
            Some("pgn") => BookFormat::Pgn,
            Some("json" | "jsonl") => BookFormat::Json,
            _ => BookFormat::Epd,
        }
    }
}

/// Reads a book file: `format` (else from the extension), each opening cut to `plies`.
///
/// # Errors
/// `openings file "PATH": line N: reason` for the first bad line or game (or that the file
/// cannot be read or holds no opening).
pub fn read_book(
    path: &str,
    format: Option<BookFormat>,
    plies: Option<usize>,
    rules: Rules,
) -> Result<Vec<Opening>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read openings file \"{path}\": {e}"))?;
    parse_book(
        &text,
        format.unwrap_or_else(|| BookFormat::of_path(path)),
        plies,
        rules,
    )
    .map_err(|e| format!("openings file \"{path}\": {e}"))
}

/// Reads a book's text (see [`read_book`]).
///
/// # Errors
/// `line N: reason` for the first bad line or game.
pub fn parse_book(
    text: &str,
    format: BookFormat,
    plies: Option<usize>,
    rules: Rules,
) -> Result<Vec<Opening>, String> {
    let lines: Vec<(usize, Opening)> = match format {
        BookFormat::Epd => epd_lines(text)?,
        BookFormat::Pgn => from_records(pgn::parse_games(text)?, pgn_game_lines(text)),
        BookFormat::Json => from_records(json::parse_lines(text)?, json_lines(text)),
    };
    let mut openings = Vec::with_capacity(lines.len());
    for (line, mut opening) in lines {
        if let Some(plies) = plies {
            opening.moves.truncate(plies);
        }
        if let Err(reason) = opening.game(rules) {
            let hint = if plies.is_none() && format != BookFormat::Epd {
                " (a whole game was used: cut the games with plies=N)"
            } else {
                ""
            };
            return Err(format!(
                "line {line}: {reason} under the match rules ({rules}){hint}"
            ));
        }
        openings.push(opening);
    }
    if openings.is_empty() {
        return Err("no opening in the file".to_string());
    }
    Ok(openings)
}

/// The position-string lines with their 1-based line numbers (comments and blanks skipped).
fn epd_lines(text: &str) -> Result<Vec<(usize, Opening)>, String> {
    let mut openings = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let opening = read_opening_line(trimmed)
            .map_err(|e| format!("line {}: {e}: \"{trimmed}\"", index + 1))?;
        openings.push((index + 1, opening));
    }
    Ok(openings)
}

/// Each record's start and moves, with the line it starts on.
fn from_records(records: Vec<GameRecord>, lines: Vec<usize>) -> Vec<(usize, Opening)> {
    records
        .into_iter()
        .zip(lines)
        .map(|(record, line)| {
            let opening = Opening {
                start: record.start,
                moves: record.moves.iter().map(|m| m.mv).collect(),
            };
            (line, opening)
        })
        .collect()
}

/// The 1-based line of each non-blank line (one record per line).
fn json_lines(text: &str) -> Vec<usize> {
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty())
        .map(|(index, _)| index + 1)
        .collect()
}

/// The 1-based line on which each PGN-like game's tags start.
fn pgn_game_lines(text: &str) -> Vec<usize> {
    let mut starts = Vec::new();
    let mut in_tags = false;
    for (index, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let tag = line.starts_with('[');
        if tag && !in_tags {
            starts.push(index + 1);
        }
        in_tags = tag;
    }
    starts
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::referee::record::tests::sample;
    use crate::Repetition;

    #[test]
    fn formats_come_from_names_and_extensions() {
        assert_eq!(BookFormat::of_path("a/games.PGN"), BookFormat::Pgn);
        assert_eq!(BookFormat::of_path("games.jsonl"), BookFormat::Json);
        assert_eq!(BookFormat::of_path("book.epd"), BookFormat::Epd);
        assert_eq!(BookFormat::of_path("book"), BookFormat::Epd);
        assert_eq!(BookFormat::parse("JSON"), Ok(BookFormat::Json));
        assert!(BookFormat::parse("fen").unwrap_err().contains("\"fen\""));
    }

    #[test]
    fn records_read_as_books_cut_to_plies() {
        // The sample's moves (c3 a1b2 b3 e1d2 d3) are legal from the start.
        let record = sample();
        let pgn_text = format!("{}{}", pgn::write_game(&record), pgn::write_game(&record));
        let json_text = format!(
            "\n{}\n{}\n",
            json::write_line(&record),
            json::write_line(&record)
        );
        for (text, format) in [(pgn_text, BookFormat::Pgn), (json_text, BookFormat::Json)] {
            let whole = parse_book(&text, format, None, Rules::default()).unwrap();
            assert_eq!(whole.len(), 2);
            assert_eq!(whole[0].moves.len(), 5);
            let cut = parse_book(&text, format, Some(3), Rules::default()).unwrap();
            assert_eq!(cut[1].moves.len(), 3);
            assert_eq!(cut[1].moves[..], whole[1].moves[..3]);
            assert_eq!(cut[1].start, record.start);
        }
    }

    #[test]
    fn bad_games_name_their_line_and_the_rules() {
        // Under captures-to-win 1 the game is not over after these moves either, so make the
        // second game illegal instead: a tiger move in the goats' turn.
        let mut bad = sample();
        bad.moves[0].mv = "a1b2".parse().unwrap();
        let text = format!(
            "{}\n{}\n",
            json::write_line(&sample()),
            json::write_line(&bad)
        );
        let error = parse_book(&text, BookFormat::Json, None, Rules::default()).unwrap_err();
        assert!(error.starts_with("line 2: ply 1 \"a1b2\""), "{error}");
        let pgn_text = format!("{}{}", pgn::write_game(&sample()), pgn::write_game(&bad));
        let first_lines = pgn::write_game(&sample()).lines().count();
        let error = parse_book(&pgn_text, BookFormat::Pgn, Some(4), Rules::default()).unwrap_err();
        assert!(
            error.starts_with(&format!("line {}: ply 1", first_lines + 1)),
            "{error}"
        );
        // An EPD line cut to no moves at all is the start position.
        let cut = parse_book(
            "moves c3 a1b2\n",
            BookFormat::Epd,
            Some(0),
            Rules::default(),
        )
        .unwrap();
        assert_eq!(cut[0], Opening::startpos());
        // A capture ends the game when one capture wins: legal by default, not in that match.
        let mut capture = sample();
        capture.moves.truncate(2);
        capture.moves[0].mv = "b2".parse().unwrap();
        capture.moves[1].mv = "a1c3".parse().unwrap();
        let text = json::write_line(&capture);
        assert!(parse_book(&text, BookFormat::Json, None, Rules::default()).is_ok());
        let one = Rules {
            captures_to_win: 1,
            repetition: Repetition::Draw,
            ..Rules::default()
        };
        let error = parse_book(&text, BookFormat::Json, None, one).unwrap_err();
        assert!(
            error.contains("already over") && error.contains("plies=N"),
            "{error}"
        );
        assert!(parse_book(&text, BookFormat::Json, Some(1), one).is_ok());
    }
}
