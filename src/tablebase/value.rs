//! Values: win, draw or loss for the side to move, with the distance to the end in plies.
//!
//! Stored as one byte: 0 is a draw; `v` in 1..=255 means the game ends in `v - 1` plies with
//! best play, won for the side to move when that distance is odd and lost when it is even
//! (the winner makes the last move; a side without moves has lost in 0 plies).

use std::fmt;

/// Largest distance a byte can hold.
pub const MAX_DISTANCE: u16 = 254;

/// Game-theoretic result for the side to move.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Wdl {
    /// The side to move wins with best play.
    Win,
    /// Neither side can force a win.
    Draw,
    /// The side to move loses with best play.
    Loss,
}

impl Wdl {
    /// The same result seen from the other side.
    pub fn negate(self) -> Wdl {
        match self {
            Wdl::Win => Wdl::Loss,
            Wdl::Draw => Wdl::Draw,
            Wdl::Loss => Wdl::Win,
        }
    }
}

impl fmt::Display for Wdl {
    /// `win`, `draw` or `loss`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Wdl::Win => "win",
            Wdl::Draw => "draw",
            Wdl::Loss => "loss",
        })
    }
}

/// A tablebase value for the side to move.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct TbValue {
    /// Win, draw or loss.
    pub wdl: Wdl,
    /// Plies to the end of the game with best play (fastest win, slowest loss); `None` for draws
    /// and for placement-phase values, which are stored without a distance.
    pub plies_to_end: Option<u16>,
}

impl TbValue {
    /// A draw.
    pub const DRAW: TbValue = TbValue {
        wdl: Wdl::Draw,
        plies_to_end: None,
    };

    /// The value reached after `plies` plies: a win when odd, a loss when even.
    pub fn at_distance(plies: u16) -> TbValue {
        TbValue {
            wdl: if plies % 2 == 1 { Wdl::Win } else { Wdl::Loss },
            plies_to_end: Some(plies),
        }
    }

    /// The same position seen from the other side.
    pub fn negate(self) -> TbValue {
        TbValue {
            wdl: self.wdl.negate(),
            plies_to_end: self.plies_to_end,
        }
    }
}

impl fmt::Display for TbValue {
    /// `win 7`, `loss 0`, `draw`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.plies_to_end {
            Some(plies) => write!(f, "{} {plies}", self.wdl),
            None => write!(f, "{}", self.wdl),
        }
    }
}

/// The byte for a win or loss at `plies` (<= [`MAX_DISTANCE`]).
#[inline]
pub fn encode_value(plies: u16) -> u8 {
    debug_assert!(plies <= MAX_DISTANCE);
    (plies + 1) as u8
}

/// The value a byte stands for.
#[inline]
pub fn decode_value(byte: u8) -> TbValue {
    if byte == 0 {
        TbValue::DRAW
    } else {
        TbValue::at_distance(u16::from(byte) - 1)
    }
}
