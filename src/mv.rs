//! Moves and their text form.

use crate::square::{ParseSquareError, Square};
use crate::tables::{step, DIRECTIONS};
use std::fmt;
use std::str::FromStr;

/// A move of either side.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Move {
    /// A goat from the hand onto an empty point; text `c3`.
    Place {
        /// Target point.
        to: Square,
    },
    /// A piece one step along a line; text `e1d2`.
    Step {
        /// Origin.
        from: Square,
        /// Target.
        to: Square,
    },
    /// A tiger jumping over a goat along a line, capturing it; text `e1c3`.
    Jump {
        /// Origin.
        from: Square,
        /// The captured goat's point.
        over: Square,
        /// Landing point.
        to: Square,
    },
}

impl Move {
    /// The target point.
    pub const fn to(self) -> Square {
        match self {
            Move::Place { to } | Move::Step { to, .. } | Move::Jump { to, .. } => to,
        }
    }

    /// The origin, if the move is not a placement.
    pub const fn from(self) -> Option<Square> {
        match self {
            Move::Place { .. } => None,
            Move::Step { from, .. } | Move::Jump { from, .. } => Some(from),
        }
    }

    /// Whether the move captures a goat.
    pub const fn is_capture(self) -> bool {
        matches!(self, Move::Jump { .. })
    }

    /// A move from `from` to `to`: a step when they are joined by a line, a jump when `to` is two
    /// steps beyond `from` along one line, `None` otherwise.
    pub fn between(from: Square, to: Square) -> Option<Move> {
        for dir in 0..DIRECTIONS.len() {
            if let Some(next) = step(from, dir) {
                if next == to {
                    return Some(Move::Step { from, to });
                }
                if step(next, dir) == Some(to) {
                    return Some(Move::Jump {
                        from,
                        over: next,
                        to,
                    });
                }
            }
        }
        None
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Move::Place { to } => write!(f, "{to}"),
            Move::Step { from, to } | Move::Jump { from, to, .. } => write!(f, "{from}{to}"),
        }
    }
}

/// Move text that names no move on this board, whatever the position.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum ParseMoveError {
    /// Not 2 or 4 characters of point names.
    Syntax(String),
    /// A point name is bad.
    Square(String, ParseSquareError),
    /// The two points are not one or two steps apart along one line.
    NotAlongLine(String),
}

impl fmt::Display for ParseMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseMoveError::Syntax(text) => {
                write!(
                    f,
                    "invalid move \"{text}\": expected a point (c3) or two points (e1d2)"
                )
            }
            ParseMoveError::Square(text, error) => write!(f, "invalid move \"{text}\": {error}"),
            ParseMoveError::NotAlongLine(text) => write!(
                f,
                "invalid move \"{text}\": the points are not one or two steps apart along a line"
            ),
        }
    }
}

impl std::error::Error for ParseMoveError {}

impl FromStr for Move {
    type Err = ParseMoveError;

    /// Parses `c3` (placement), `e1d2` (step) or `e1c3` (jump), case-insensitively. Whether the
    /// move is legal is the position's business.
    fn from_str(text: &str) -> Result<Move, ParseMoveError> {
        let square = |part: &str| {
            part.parse::<Square>()
                .map_err(|e| ParseMoveError::Square(text.to_string(), e))
        };
        if !text.is_ascii() {
            return Err(ParseMoveError::Syntax(text.to_string()));
        }
        match text.len() {
            2 => Ok(Move::Place { to: square(text)? }),
            4 => {
                let (from, to) = (square(&text[..2])?, square(&text[2..])?);
                Move::between(from, to)
                    .ok_or_else(|| ParseMoveError::NotAlongLine(text.to_string()))
            }
            _ => Err(ParseMoveError::Syntax(text.to_string())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_text_round_trips() {
        for text in ["c3", "e1d2", "e1c3", "a1a3", "b2c2", "c5a3"] {
            let mv: Move = text.parse().unwrap();
            assert_eq!(mv.to_string(), text);
        }
        assert_eq!("E1C3".parse::<Move>().unwrap().to_string(), "e1c3");
    }

    #[test]
    fn jumps_know_the_point_jumped() {
        let mv: Move = "e1c3".parse().unwrap();
        assert_eq!(
            mv,
            Move::Jump {
                from: "e1".parse().unwrap(),
                over: "d2".parse().unwrap(),
                to: "c3".parse().unwrap()
            }
        );
        assert!(matches!("a1b1".parse::<Move>(), Ok(Move::Step { .. })));
    }

    #[test]
    fn bad_move_text_is_an_error() {
        // b1c2 and b1d3 are not on a diagonal line: b1 has no diagonals.
        for text in [
            "", "c", "c3d", "f1", "a1a4", "b1c2", "b1d3", "a1a1", "é1", "a1b1c1",
        ] {
            assert!(text.parse::<Move>().is_err(), "{text}");
        }
    }
}
