//! Position strings: `T3T/5/5/5/T3T g 20 0` (board from rank 5 down, side, in hand, captured).

use crate::bitboard::Bitboard;
use crate::position::{Position, PositionError};
use crate::side::Side;
use crate::square::Square;
use std::fmt;
use std::str::FromStr;

/// The position string of the start position.
pub const START_POSITION: &str = "T3T/5/5/5/T3T g 20 0";

/// Why a position string is not a position.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum ParsePositionError {
    /// Not 4 or 5 space-separated fields.
    FieldCount(usize),
    /// The board field does not have 5 ranks.
    RankCount(usize),
    /// A rank does not describe exactly 5 points.
    RankLength {
        /// The rank's text.
        rank: String,
        /// Points it describes.
        points: usize,
    },
    /// A character other than `T`, `G` or a digit 1-5 in the board.
    BadPiece(char),
    /// Side to move is not `g` or `t`.
    BadSide(String),
    /// A count is not a number in range.
    BadNumber {
        /// Which field.
        field: &'static str,
        /// Its text.
        text: String,
    },
    /// The fields parse, but do not make a position.
    Invalid(PositionError),
}

impl fmt::Display for ParsePositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("invalid position: ")?;
        match self {
            ParsePositionError::FieldCount(n) => write!(
                f,
                "{n} fields: expected board, side, goats in hand, goats captured and an optional move number"
            ),
            ParsePositionError::RankCount(n) => write!(f, "{n} ranks: expected 5 separated by /"),
            ParsePositionError::RankLength { rank, points } => {
                write!(f, "rank \"{rank}\" has {points} points: expected 5")
            }
            ParsePositionError::BadPiece(c) => {
                write!(f, "bad character \"{c}\" in board: expected T, G or a digit 1-5")
            }
            ParsePositionError::BadSide(text) => write!(f, "bad side to move \"{text}\": expected g or t"),
            ParsePositionError::BadNumber { field, text } => write!(f, "bad {field} \"{text}\""),
            ParsePositionError::Invalid(error) => write!(f, "{error}"),
        }
    }
}

impl std::error::Error for ParsePositionError {}

impl From<PositionError> for ParsePositionError {
    fn from(error: PositionError) -> ParsePositionError {
        ParsePositionError::Invalid(error)
    }
}

fn parse_board(text: &str) -> Result<(Bitboard, Bitboard), ParsePositionError> {
    let ranks: Vec<&str> = text.split('/').collect();
    if ranks.len() != 5 {
        return Err(ParsePositionError::RankCount(ranks.len()));
    }
    let (mut tigers, mut goats) = (Bitboard::EMPTY, Bitboard::EMPTY);
    for (row, rank_text) in ranks.iter().enumerate() {
        let rank = 4 - row as i8;
        let mut file = 0usize;
        for c in rank_text.chars() {
            let point = |file: usize| Square::from_coords(file as i8, rank);
            match c.to_ascii_uppercase() {
                'T' | 'G' => {
                    if let Some(square) = point(file) {
                        if c.eq_ignore_ascii_case(&'T') {
                            tigers = tigers.with(square);
                        } else {
                            goats = goats.with(square);
                        }
                    }
                    file += 1;
                }
                '1'..='5' => file += c as usize - '0' as usize,
                _ => return Err(ParsePositionError::BadPiece(c)),
            }
        }
        if file != 5 {
            return Err(ParsePositionError::RankLength {
                rank: rank_text.to_string(),
                points: file,
            });
        }
    }
    Ok((tigers, goats))
}

fn parse_count(field: &'static str, text: &str, max: u32) -> Result<u32, ParsePositionError> {
    match text.parse::<u32>() {
        Ok(n) if n <= max && text.bytes().all(|b| b.is_ascii_digit()) => Ok(n),
        _ => Err(ParsePositionError::BadNumber {
            field,
            text: text.to_string(),
        }),
    }
}

impl Position {
    /// Parses a position string that may carry a fifth field, the move number (default 1).
    ///
    /// # Errors
    /// [`ParsePositionError`] naming the bad field.
    pub fn parse_with_move_number(text: &str) -> Result<(Position, u32), ParsePositionError> {
        let fields: Vec<&str> = text.split_whitespace().collect();
        if !(4..=5).contains(&fields.len()) {
            return Err(ParsePositionError::FieldCount(fields.len()));
        }
        let (tigers, goats) = parse_board(fields[0])?;
        let side = match fields[1] {
            "g" | "G" => Side::Goats,
            "t" | "T" => Side::Tigers,
            other => return Err(ParsePositionError::BadSide(other.to_string())),
        };
        let in_hand = parse_count("goats in hand", fields[2], 20)? as u8;
        let captured = parse_count("goats captured", fields[3], 20)? as u8;
        let move_number = match fields.get(4) {
            Some(text) => match parse_count("move number", text, u32::MAX)? {
                0 => {
                    return Err(ParsePositionError::BadNumber {
                        field: "move number",
                        text: text.to_string(),
                    })
                }
                n => n,
            },
            None => 1,
        };
        let position = Position::from_parts(tigers, goats, side, in_hand, captured)?;
        Ok((position, move_number))
    }
}

impl FromStr for Position {
    type Err = ParsePositionError;

    /// Parses `T3T/5/5/5/T3T g 20 0`, with an optional move number that is ignored.
    fn from_str(text: &str) -> Result<Position, ParsePositionError> {
        Position::parse_with_move_number(text).map(|(position, _)| position)
    }
}

impl fmt::Display for Position {
    /// Writes the four-field position string.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in (0..5).rev() {
            let mut empty_run = 0;
            for file in 0..5 {
                let square = Square::from_coords(file, rank).expect("on board");
                match self.piece_at(square) {
                    None => empty_run += 1,
                    Some(side) => {
                        if empty_run > 0 {
                            write!(f, "{empty_run}")?;
                            empty_run = 0;
                        }
                        f.write_str(if side == Side::Tigers { "T" } else { "G" })?;
                    }
                }
            }
            if empty_run > 0 {
                write!(f, "{empty_run}")?;
            }
            if rank > 0 {
                f.write_str("/")?;
            }
        }
        write!(
            f,
            " {} {} {}",
            self.side_to_move().letter(),
            self.goats_in_hand(),
            self.goats_captured()
        )
    }
}

impl Position {
    /// A 5x5 diagram with coordinates, rank 5 on top; `T` tiger, `G` goat, `.` empty.
    pub fn diagram(&self) -> String {
        let mut out = String::new();
        for rank in (0..5).rev() {
            out.push_str(&format!("{} ", rank + 1));
            for file in 0..5 {
                let square = Square::from_coords(file, rank).expect("on board");
                out.push(match self.piece_at(square) {
                    Some(Side::Tigers) => 'T',
                    Some(Side::Goats) => 'G',
                    None => '.',
                });
                if file < 4 {
                    out.push(' ');
                }
            }
            out.push('\n');
        }
        out.push_str("  a b c d e\n");
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_round_trips() {
        let position: Position = START_POSITION.parse().unwrap();
        assert_eq!(position, Position::startpos());
        assert_eq!(position.to_string(), START_POSITION);
    }

    #[test]
    fn move_number_is_optional() {
        let (position, number) =
            Position::parse_with_move_number("T3T/5/5/5/T3T g 20 0 7").unwrap();
        assert_eq!(number, 7);
        assert_eq!(position, Position::startpos());
    }

    #[test]
    fn bad_strings_name_the_problem() {
        let cases = [
            ("T3T/5/5/5/T3T g 20", "3 fields"),
            ("T3T/5/5/5 g 20 0", "4 ranks"),
            ("T4T/5/5/5/T3T g 20 0", "6 points"),
            ("T3T/5/5/5/T3X g 20 0", "\"X\""),
            ("T3T/5/5/5/T3T x 20 0", "\"x\""),
            ("T3T/5/5/5/T3T g 21 0", "goats in hand \"21\""),
            ("T3T/5/5/5/T3T g 19 0", "is 19: expected 20"),
            ("T3T/5/1T3/5/T3T g 20 0", "5 tigers"),
            ("T3T/5/5/5/T3T t 20 0", "goats move first"),
            ("T3T/5/5/5/T3T g 20 0 0", "move number \"0\""),
            ("T3T/5/5/5/T3T g +20 0", "\"+20\""),
        ];
        for (text, expected) in cases {
            let error = text.parse::<Position>().unwrap_err().to_string();
            assert!(error.contains(expected), "{text}: {error}");
        }
    }
}
