//! Bagh Chal under `Repetition forbid`: the table draws of the movement phase, analysed with
//! the history the rule needs (see docs/forbid.md).
//!
//! A placement or a capture can never be undone, so the history that can forbid a move is the
//! movement-phase states played since the last placement or capture, all in one layer. From an
//! empty history a table win is a forbid win and a table loss a forbid loss; a table draw is
//! decided by a game of geography on the layer's table-draw states: a move out of them loses for
//! the mover, a capture leads to the next layer's value from an empty history, no state may be
//! visited twice. [`census`] measures the strongly connected components of that graph over raw
//! states ([`raw`], [`scc`]); [`solve`] solves the components up to a size exactly and stores
//! the values ([`mod@file`]) per symmetry class, as values from an empty history.

pub mod census;
pub mod cli;
pub mod entries;
pub mod file;
pub mod history;
pub mod pack;
pub mod probe;
pub mod prove;
pub mod proved;
pub mod raw;
pub mod scc;
pub mod solve;
pub mod start;
pub mod tables;

use super::value::decode_value;
use super::{TableRules, Tablebase, Wdl};
use raw::{for_each_move, RawBoard, RawMove};
use std::fmt;

/// The value of a state under `Repetition forbid`, from an empty history, for the side to move.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Hash)]
pub enum ForbidValue {
    /// The side to move wins.
    Win,
    /// The side to move loses.
    Loss,
    /// Not solved.
    Unknown,
}

impl ForbidValue {
    /// The 2-bit code stored in forbid files (0 is kept for "not a table draw").
    pub fn code(self) -> u8 {
        match self {
            ForbidValue::Win => 1,
            ForbidValue::Loss => 2,
            ForbidValue::Unknown => 3,
        }
    }

    /// The value of a code; `None` for 0 (not a table draw, or not solved yet).
    pub fn from_code(code: u8) -> Option<ForbidValue> {
        match code {
            1 => Some(ForbidValue::Win),
            2 => Some(ForbidValue::Loss),
            3 => Some(ForbidValue::Unknown),
            _ => None,
        }
    }

    /// Whether the value is a win or a loss (not unknown).
    pub fn is_proven(self) -> bool {
        self != ForbidValue::Unknown
    }

    /// The same state seen from the other side.
    pub fn negate(self) -> ForbidValue {
        match self {
            ForbidValue::Win => ForbidValue::Loss,
            ForbidValue::Loss => ForbidValue::Win,
            ForbidValue::Unknown => ForbidValue::Unknown,
        }
    }
}

impl fmt::Display for ForbidValue {
    /// `win`, `loss` or `unknown`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ForbidValue::Win => "win",
            ForbidValue::Loss => "loss",
            ForbidValue::Unknown => "unknown",
        })
    }
}

/// Where a movement position's code is in a forbid or proof file: its layer (goats captured),
/// the side to move's index (goats first) and its symmetry class; `None` with goats in hand.
pub fn file_slot(position: &crate::Position) -> Option<(u8, usize, usize)> {
    if position.goats_in_hand() != 0 {
        return None;
    }
    let captured = position.goats_captured();
    let index = super::index::LayerIndex::get(usize::from(captured) + 1);
    let (class, _) = index.encode(position.tigers().0, position.empty().0);
    Some((captured, position.side_to_move().index(), class as usize))
}

/// The forbid value of a table value that is not a draw (from an empty history it holds).
pub fn of_table(byte: u8) -> Option<ForbidValue> {
    match decode_value(byte).wdl {
        Wdl::Win => Some(ForbidValue::Win),
        Wdl::Loss => Some(ForbidValue::Loss),
        Wdl::Draw => None,
    }
}

/// What one move from a table-draw state leads to, seen by the mover.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Successor {
    /// A table draw of the same layer (the other side to move): part of the geography.
    Draw {
        /// Its vertex in [`raw::DrawStates`].
        vertex: u32,
        /// Its board.
        board: RawBoard,
    },
    /// A move whose value for the mover is known whatever the history: a step to a table
    /// win or loss, or a capture (the next layer starts with an empty history).
    Exit {
        /// The mover's value (unknown: a capture into an unsolved draw).
        value: ForbidValue,
        /// Whether the move is a capture.
        capture: bool,
    },
}

/// The layer being analysed and what its captures lead to.
pub struct LayerContext<'a> {
    /// The rules of the tables.
    pub rules: TableRules,
    /// Goats captured in this layer.
    pub captured: u8,
    /// The draw states of this layer.
    pub draws: &'a raw::DrawStates,
    /// This layer's table values (goats to move, then tigers to move, by class).
    pub values: &'a [u8],
    /// The next layer's table values and its forbid codes ([`ForbidValue::code`], one byte per
    /// class, goats to move first), when a capture does not end the game; `None` codes: the
    /// next layer is not solved.
    pub next: Option<(&'a [u8], Option<&'a [u8]>)>,
}

impl<'a> LayerContext<'a> {
    /// The layer `captured` of `tables` with its `draws`, and the next layer's forbid codes
    /// `next_codes` when it is solved.
    ///
    /// # Errors
    /// A compressed movement layer whose data is inconsistent.
    pub fn new(
        tables: &'a Tablebase,
        captured: u8,
        draws: &'a raw::DrawStates,
        next_codes: Option<&'a [u8]>,
    ) -> Result<Self, crate::tablebase::TablebaseError> {
        let rules = tables.rules();
        let next = if captured + 1 < rules.captures_to_win {
            Some((tables.layer(captured + 1)?, next_codes))
        } else {
            None
        };
        Ok(LayerContext {
            rules,
            captured,
            draws,
            values: tables.layer(captured)?,
            next,
        })
    }

    /// Calls `visit` with every move of `side` on the draw state `board`.
    #[inline]
    pub fn for_each_successor(
        &self,
        board: RawBoard,
        side: usize,
        mut visit: impl FnMut(Successor),
    ) {
        for_each_move(board, side, self.rules.forced_capture, |mv| match mv {
            RawMove::Step(child) => match self.draws.vertex(child, 1 - side) {
                Some(vertex) => visit(Successor::Draw {
                    vertex,
                    board: child,
                }),
                None => {
                    let slot = self.draws.class_slot(child, 1 - side);
                    let value = of_table(self.values[slot]).expect("not a draw");
                    visit(Successor::Exit {
                        value: value.negate(),
                        capture: false,
                    })
                }
            },
            RawMove::Capture(child) => visit(Successor::Exit {
                value: self.capture_value(child),
                capture: true,
            }),
        });
    }

    /// The mover's value of a capture leading to `child` (goats to move in the next layer).
    #[inline]
    pub fn capture_value(&self, child: RawBoard) -> ForbidValue {
        let Some((values, codes)) = self.next else {
            // The capture reaches captures_to_win: the tigers win at once.
            return ForbidValue::Win;
        };
        let index = raw::next_class(self.captured, child);
        match of_table(values[index]) {
            Some(value) => value.negate(),
            None => codes
                .and_then(|codes| ForbidValue::from_code(codes[index]))
                .map_or(ForbidValue::Unknown, ForbidValue::negate),
        }
    }
}
