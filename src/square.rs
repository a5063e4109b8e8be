//! Points of the 5x5 board.

use std::fmt;
use std::str::FromStr;

/// One of the 25 points, `a1`..`e5`; index = rank * 5 + file, so `a1` = 0 and `e5` = 24.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// Number of points on the board.
    pub const COUNT: usize = 25;

    /// The point with this index (0..25).
    ///
    /// # Panics
    /// If `index >= 25`.
    pub const fn new(index: u8) -> Square {
        assert!(index < 25, "square index out of range");
        Square(index)
    }

    /// The point with this index, or `None` when it is off the board.
    pub const fn try_new(index: u8) -> Option<Square> {
        if index < 25 {
            Some(Square(index))
        } else {
            None
        }
    }

    /// The point at `file` (0 = a .. 4 = e) and `rank` (0 = 1 .. 4 = 5), if both are on the board.
    pub const fn from_coords(file: i8, rank: i8) -> Option<Square> {
        if file >= 0 && file < 5 && rank >= 0 && rank < 5 {
            Some(Square((rank * 5 + file) as u8))
        } else {
            None
        }
    }

    /// Index 0..25.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// File 0..5 (a..e).
    pub const fn file(self) -> i8 {
        (self.0 % 5) as i8
    }

    /// Rank 0..5 (1..5).
    pub const fn rank(self) -> i8 {
        (self.0 / 5) as i8
    }

    /// Whether diagonal lines pass through this point (file index + rank index is even).
    pub const fn has_diagonals(self) -> bool {
        (self.file() + self.rank()) % 2 == 0
    }

    /// All 25 points in index order.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..25).map(Square)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let file = (b'a' + self.file() as u8) as char;
        let rank = (b'1' + self.rank() as u8) as char;
        write!(f, "{file}{rank}")
    }
}

/// A point name that is not `a1`..`e5`.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ParseSquareError(pub String);

impl fmt::Display for ParseSquareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid square \"{}\": expected a1..e5", self.0)
    }
}

impl std::error::Error for ParseSquareError {}

impl FromStr for Square {
    type Err = ParseSquareError;

    /// Parses `a1`..`e5`, case-insensitively.
    fn from_str(text: &str) -> Result<Square, ParseSquareError> {
        let bytes = text.as_bytes();
        let error = || ParseSquareError(text.to_string());
        if bytes.len() != 2 {
            return Err(error());
        }
        let file = bytes[0].to_ascii_lowercase().wrapping_sub(b'a');
        let rank = bytes[1].wrapping_sub(b'1');
        if file < 5 && rank < 5 {
            Ok(Square(rank * 5 + file))
        } else {
            Err(error())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for square in Square::all() {
            let text = square.to_string();
            assert_eq!(text.parse::<Square>(), Ok(square));
            assert_eq!(text.to_uppercase().parse::<Square>(), Ok(square));
        }
        assert_eq!("a1".parse::<Square>().unwrap().index(), 0);
        assert_eq!("e5".parse::<Square>().unwrap().index(), 24);
        assert_eq!("c3".parse::<Square>().unwrap().index(), 12);
    }

    #[test]
    fn bad_names_are_errors() {
        for text in ["", "a", "f1", "a6", "a0", "a10", "11", "é1"] {
            assert!(text.parse::<Square>().is_err(), "{text}");
        }
    }

    #[test]
    fn diagonal_points() {
        let with: Vec<String> = Square::all()
            .filter(|s| s.has_diagonals())
            .map(|s| s.to_string())
            .collect();
        assert_eq!(
            with,
            ["a1", "c1", "e1", "b2", "d2", "a3", "c3", "e3", "b4", "d4", "a5", "c5", "e5"]
        );
    }
}
