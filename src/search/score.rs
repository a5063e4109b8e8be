//! Scores: the internal value scale, mate distances, and the reported [`Score`].

use std::fmt;

/// Internal search value, side to move's view; 100 = one goat.
pub type Value = i32;

/// Deepest ply the search reaches (main line plus quiescence).
pub const MAX_PLY: usize = 128;
/// Value of winning right now (the opponent has lost at this node).
pub const MATE: Value = 32_000;
/// Larger than any value.
pub const INFINITE: Value = 32_500;
/// Values at or beyond this magnitude are wins or losses at a known distance (with room for
/// tablebase distances, up to 255 plies, found at the deepest ply).
pub const MATE_BOUND: Value = MATE - MAX_PLY as Value - 256;
/// A draw.
pub const DRAW: Value = 0;

/// The value of winning `ply` plies from the root.
pub const fn mate_in(ply: usize) -> Value {
    MATE - ply as Value
}

/// The value of losing `ply` plies from the root.
pub const fn mated_in(ply: usize) -> Value {
    -MATE + ply as Value
}

/// Whether `value` is a win or loss at a known distance.
pub const fn is_mate(value: Value) -> bool {
    value.abs() >= MATE_BOUND
}

/// Converts a value relative to the root into one relative to the node at `ply` (for the TT).
pub const fn to_tt(value: Value, ply: usize) -> Value {
    if value >= MATE_BOUND {
        value + ply as Value
    } else if value <= -MATE_BOUND {
        value - ply as Value
    } else {
        value
    }
}

/// Inverse of [`to_tt`].
pub const fn from_tt(value: Value, ply: usize) -> Value {
    if value >= MATE_BOUND {
        value - ply as Value
    } else if value <= -MATE_BOUND {
        value + ply as Value
    } else {
        value
    }
}

/// A score from the side to move's point of view.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Score {
    /// Centipawn-like units: 100 = the value of one goat.
    Cp(i32),
    /// Forced win (n > 0) or loss (n < 0) in |n| moves of the side to move (UCI convention).
    Mate(i32),
}

impl Score {
    /// The reported score for an internal value.
    pub fn from_value(value: Value) -> Score {
        if value >= MATE_BOUND {
            Score::Mate((MATE - value + 1) / 2)
        } else if value <= -MATE_BOUND {
            Score::Mate(-(MATE + value) / 2)
        } else {
            Score::Cp(value)
        }
    }
}

impl fmt::Display for Score {
    /// `cp 35` or `mate -3`, as UCI writes them.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Score::Cp(cp) => write!(f, "cp {cp}"),
            Score::Mate(n) => write!(f, "mate {n}"),
        }
    }
}

/// How a reported score bounds the true value.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Bound {
    /// The score is exact.
    Exact,
    /// The true value is at least the score (fail high).
    Lower,
    /// The true value is at most the score (fail low).
    Upper,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_scores_count_moves() {
        assert_eq!(Score::from_value(mate_in(1)), Score::Mate(1));
        assert_eq!(Score::from_value(mate_in(3)), Score::Mate(2));
        assert_eq!(Score::from_value(mated_in(0)), Score::Mate(0));
        assert_eq!(Score::from_value(mated_in(2)), Score::Mate(-1));
        assert_eq!(Score::from_value(57), Score::Cp(57));
    }

    #[test]
    fn tt_values_round_trip() {
        for value in [mate_in(5), mated_in(7), 120, -40] {
            assert_eq!(from_tt(to_tt(value, 9), 9), value);
        }
    }
}
