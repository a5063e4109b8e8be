//! The two sides and how a game ends.

use std::fmt;

/// Goats or tigers.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Side {
    /// The side with 20 goats; moves first.
    Goats,
    /// The side with 4 tigers.
    Tigers,
}

impl Side {
    /// The other side.
    pub const fn opposite(self) -> Side {
        match self {
            Side::Goats => Side::Tigers,
            Side::Tigers => Side::Goats,
        }
    }

    /// The letter used in position strings: `g` or `t`.
    pub const fn letter(self) -> char {
        match self {
            Side::Goats => 'g',
            Side::Tigers => 't',
        }
    }

    /// 0 for goats, 1 for tigers (for tables indexed by side).
    pub const fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for Side {
    /// `goats` or `tigers`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Side::Goats => "goats",
            Side::Tigers => "tigers",
        })
    }
}

/// Why a game is over.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Outcome {
    /// The tigers captured `captures_to_win` goats: tigers win.
    CapturesReached,
    /// Tigers to move with no legal move: goats win.
    TigersBlocked,
    /// Goats to move with no legal move: tigers win.
    GoatsBlocked,
    /// A position occurred for the second time under the `draw` repetition rule.
    Repetition,
}

impl Outcome {
    /// The winning side, `None` for a draw.
    pub const fn winner(self) -> Option<Side> {
        match self {
            Outcome::CapturesReached | Outcome::GoatsBlocked => Some(Side::Tigers),
            Outcome::TigersBlocked => Some(Side::Goats),
            Outcome::Repetition => None,
        }
    }

    /// The outcome when `side` is to move and has no legal move.
    pub const fn blocked(side: Side) -> Outcome {
        match side {
            Side::Goats => Outcome::GoatsBlocked,
            Side::Tigers => Outcome::TigersBlocked,
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Outcome::CapturesReached => "tigers win by captures",
            Outcome::TigersBlocked => "goats win: tigers blocked",
            Outcome::GoatsBlocked => "tigers win: goats blocked",
            Outcome::Repetition => "draw by repetition",
        })
    }
}
