//! The move graph of a layer on canonical boards: successors (moves) and predecessors (un-moves).

use super::index::{Board, LayerIndex};
use super::TableRules;
use crate::bitboard::Bitboard;
use crate::tables::{shift, JUMPS, JUMP_FROM, NEIGHBOURS};

/// Side to move: goats.
pub const GOATS: usize = 0;
/// Side to move: tigers.
pub const TIGERS: usize = 1;

/// Where a move leads.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Child {
    /// A step: the same layer, the other side to move; `fixing` symmetries fix the child.
    InLayer {
        /// Index of the child's class.
        index: u32,
        /// Number of symmetries fixing the canonical child.
        fixing: u8,
    },
    /// A capture into the next layer (goats to move there).
    NextLayer {
        /// Index of the child's class in the next layer.
        index: u32,
    },
    /// A capture that reaches `captures_to_win`: the tigers win at once.
    CapturesReached,
    /// Only from [`LayerGraph::count_children`], in the last layer: a goat move after which the
    /// tigers can capture, so the child is a tigers' win in 1. It is left out of the weight.
    OpponentWinsAtOnce,
}

#[inline]
fn neighbours(square: u32) -> u32 {
    NEIGHBOURS[square as usize].0
}

/// For each direction, the points a tiger would jump over in that direction (whatever is on
/// them): precomputed per tiger set, so that many goat arrangements can be tested cheaply.
#[derive(Copy, Clone)]
pub struct JumpLines {
    over: [u32; 8],
}

impl JumpLines {
    /// The jump lines of the tigers on `tigers`.
    #[inline]
    pub fn new(tigers: u32) -> JumpLines {
        let mut over = [0u32; 8];
        for (dir, slot) in over.iter_mut().enumerate() {
            *slot = shift(Bitboard(tigers) & JUMP_FROM[dir], dir).0;
        }
        JumpLines { over }
    }

    /// Whether a tiger can capture with these goats and empty points.
    #[inline]
    pub fn any_capture(&self, goats: u32, empties: u32) -> bool {
        let mut landing = 0;
        for (dir, &over) in self.over.iter().enumerate() {
            landing |= shift(Bitboard(over & goats), dir).0 & empties;
        }
        landing != 0
    }
}

/// Whether the tigers can capture on this board.
#[inline]
pub fn tigers_can_capture(tigers: u32, goats: u32, empties: u32) -> bool {
    JumpLines::new(tigers).any_capture(goats, empties)
}

/// The move graph of one layer under one rule variant.
#[derive(Copy, Clone, Debug)]
pub struct LayerGraph {
    /// This layer's index.
    pub index: &'static LayerIndex,
    /// The next layer's index, when a capture does not end the game.
    pub next: Option<&'static LayerIndex>,
    /// Captures are compulsory for the tigers.
    pub forced_capture: bool,
}

impl LayerGraph {
    /// The graph of the layer with `captured` goats captured under `rules`.
    pub fn new(captured: u8, rules: TableRules) -> LayerGraph {
        let empties = usize::from(captured) + 1;
        LayerGraph {
            index: LayerIndex::get(empties),
            next: (captured + 1 < rules.captures_to_win).then(|| LayerIndex::get(empties + 1)),
            forced_capture: rules.forced_capture,
        }
    }

    /// Calls `visit` for every legal move of `side` on the canonical `board` of tiger class
    /// `class_id` (as decoded); returns the number of moves.
    #[inline]
    pub fn for_each_child(
        &self,
        board: Board,
        class_id: usize,
        side: usize,
        mut visit: impl FnMut(Child),
    ) -> u32 {
        let Board { tigers, empties } = board;
        let goats = board.goats();
        let mut moves = 0;
        if side == GOATS {
            let mut rest = empties;
            while rest != 0 {
                let to = rest.trailing_zeros();
                rest &= rest - 1;
                let mut sources = neighbours(to) & goats;
                while sources != 0 {
                    let from = sources.trailing_zeros();
                    sources &= sources - 1;
                    let (index, fixing) = self
                        .index
                        .encode_in_class(class_id, empties ^ (1 << to) ^ (1 << from));
                    visit(Child::InLayer { index, fixing });
                    moves += 1;
                }
            }
            return moves;
        }
        moves += self.for_each_capture(board, &mut visit);
        if self.forced_capture && moves > 0 {
            return moves;
        }
        let mut rest = tigers;
        while rest != 0 {
            let from = rest.trailing_zeros();
            rest &= rest - 1;
            let mut targets = neighbours(from) & empties;
            while targets != 0 {
                let to = targets.trailing_zeros();
                targets &= targets - 1;
                let moved = (1 << from) | (1 << to);
                let (index, fixing) = self.index.encode(tigers ^ moved, empties ^ moved);
                visit(Child::InLayer { index, fixing });
                moves += 1;
            }
        }
        moves
    }

    /// The number of legal moves of `side` on the canonical `board` of class `class_id`, and
    /// the sum over its in-layer moves of the child's fixing symmetries; captures are passed to
    /// `visit` (as in [`LayerGraph::for_each_child`]). In the last layer, goat moves that let the
    /// tigers capture are passed as [`Child::OpponentWinsAtOnce`] instead of weighed, and tiger
    /// positions with a capture get weight 0 (they win at once).
    #[inline]
    pub fn count_children(
        &self,
        board: Board,
        class_id: usize,
        side: usize,
        mut visit: impl FnMut(Child),
    ) -> (u32, u16) {
        let Board { tigers, empties } = board;
        let goats = board.goats();
        let (mut moves, mut weight) = (0u32, 0u16);
        if side == GOATS {
            let last_layer = self.next.is_none();
            let asymmetric = self.index.is_asymmetric(class_id);
            let lines = JumpLines::new(tigers);
            let mut rest = empties;
            while rest != 0 {
                let to = rest.trailing_zeros();
                rest &= rest - 1;
                let mut sources = neighbours(to) & goats;
                while sources != 0 {
                    let from = sources.trailing_zeros();
                    sources &= sources - 1;
                    moves += 1;
                    let moved = (1 << from) | (1 << to);
                    if last_layer && lines.any_capture(goats ^ moved, empties ^ moved) {
                        visit(Child::OpponentWinsAtOnce);
                        continue;
                    }
                    weight += if asymmetric {
                        1
                    } else {
                        u16::from(self.index.encode_in_class(class_id, empties ^ moved).1)
                    };
                }
            }
            return (moves, weight);
        }
        moves += self.for_each_capture(board, &mut visit);
        // With forced capture only captures count; in the last layer a capture wins at once and
        // the in-layer moves do not matter.
        if (self.forced_capture || self.next.is_none()) && moves > 0 {
            return (moves, 0);
        }
        let mut rest = tigers;
        while rest != 0 {
            let from = rest.trailing_zeros();
            rest &= rest - 1;
            let mut targets = neighbours(from) & empties;
            while targets != 0 {
                let to = targets.trailing_zeros();
                targets &= targets - 1;
                let moved = (1 << from) | (1 << to);
                weight += u16::from(self.index.fixing(tigers ^ moved, empties ^ moved));
                moves += 1;
            }
        }
        (moves, weight)
    }

    /// Calls `visit` for every capture on `board`; returns their number.
    #[inline]
    fn for_each_capture(&self, board: Board, visit: &mut impl FnMut(Child)) -> u32 {
        let Board { tigers, empties } = board;
        let goats = board.goats();
        let mut moves = 0;
        let mut rest = tigers;
        while rest != 0 {
            let from = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let jumps = &JUMPS[from];
            for i in 0..jumps.len as usize {
                let (over, land) = (jumps.over[i].index(), jumps.land[i].index());
                if goats & (1 << over) == 0 || empties & (1 << land) == 0 {
                    continue;
                }
                moves += 1;
                match self.next {
                    None => visit(Child::CapturesReached),
                    Some(next) => {
                        let child_tigers = tigers ^ (1 << from) ^ (1 << land);
                        let child_empties = empties ^ (1 << land) ^ (1 << from) ^ (1 << over);
                        visit(Child::NextLayer {
                            index: next.encode(child_tigers, child_empties).0,
                        });
                    }
                }
            }
        }
        moves
    }

    /// Calls `visit(parent_index, parent_fixing)` for every in-layer move that leads to `board`
    /// with `side` to move (so the parent has the other side to move), except, in the last
    /// layer (a capture reaches captures_to_win), moves from parents that could capture: those
    /// are wins in 1 from the start.
    #[inline]
    pub fn for_each_parent(
        &self,
        board: Board,
        class_id: usize,
        side: usize,
        mut visit: impl FnMut(u32, u8),
    ) {
        let Board { tigers, empties } = board;
        let goats = board.goats();
        if side == TIGERS {
            // A goat stepped from `from` (empty now) to `to`.
            let mut rest = empties;
            while rest != 0 {
                let from = rest.trailing_zeros();
                rest &= rest - 1;
                let mut targets = neighbours(from) & goats;
                while targets != 0 {
                    let to = targets.trailing_zeros();
                    targets &= targets - 1;
                    let (index, fixing) = self
                        .index
                        .encode_in_class(class_id, empties ^ (1 << from) ^ (1 << to));
                    visit(index, fixing);
                }
            }
            return;
        }
        // A tiger stepped from `from` (empty now) to `to`.
        let mut rest = tigers;
        while rest != 0 {
            let to = rest.trailing_zeros();
            rest &= rest - 1;
            let mut sources = neighbours(to) & empties;
            while sources != 0 {
                let from = sources.trailing_zeros();
                sources &= sources - 1;
                let moved = (1 << from) | (1 << to);
                let (parent_tigers, parent_empties) = (tigers ^ moved, empties ^ moved);
                // With forced capture a parent that can capture cannot step. In the last layer
                // a parent that can capture wins at once: its value is known from the start,
                // so it is left out (it needs no counting and gets no new value).
                if (self.forced_capture || self.next.is_none())
                    && tigers_can_capture(parent_tigers, goats, parent_empties)
                {
                    continue;
                }
                let (index, fixing) = self.index.encode(parent_tigers, parent_empties);
                visit(index, fixing);
            }
        }
    }
}
