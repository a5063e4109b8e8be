//! Quiescence search: captures for the tigers, threat evasions for the goats.

use super::Worker;
use crate::search::eval::{capturable_goats, capture_landings};
use crate::search::score::{mated_in, Value, INFINITE, MAX_PLY};
use crate::tables::JUMPS;
use crate::{Bitboard, Move, MoveList, Position, Side};

impl Worker<'_> {
    /// Quiescence: the tigers try their captures; the goats stand on the evaluation (which
    /// counts the goats they leave en prise) or, for `evasions` more goat turns, also try the
    /// moves that block a capture or move a threatened goat away.
    pub(super) fn quiescence(
        &mut self,
        position: &Position,
        mut alpha: Value,
        beta: Value,
        ply: usize,
        evasions: i32,
    ) -> Value {
        self.pv[ply].clear();
        if let Some(value) = self.enter_node(position, ply) {
            return value;
        }
        if position.count_moves(&self.rules) == 0 {
            return mated_in(ply);
        }
        let goats_to_move = position.side_to_move() == Side::Goats;
        let stand_pat = self.evaluate(position);
        let must_capture = !goats_to_move && self.rules.forced_capture && position.has_capture();
        if ply >= MAX_PLY - 2 || (!must_capture && stand_pat >= beta) {
            return stand_pat;
        }
        let (landings, threatened) = if goats_to_move {
            if evasions <= 0 {
                return stand_pat;
            }
            let landings = capture_landings(position);
            if landings.is_empty() {
                return stand_pat;
            }
            (landings, capturable_goats(position))
        } else {
            (Bitboard::EMPTY, Bitboard::EMPTY)
        };
        let mut best = if must_capture { -INFINITE } else { stand_pat };
        alpha = alpha.max(best);
        let moves = if goats_to_move {
            self.legal_moves(position, ply)
        } else {
            tiger_captures(position)
        };
        for mv in moves.iter().copied() {
            if goats_to_move {
                let blocks = landings.contains(mv.to());
                let escapes = mv.from().is_some_and(|from| threatened.contains(from));
                if !blocks && !escapes {
                    continue;
                }
            } else if !mv.is_capture() {
                break;
            }
            let child = position.played(mv);
            self.push_state(position, &child);
            let next_evasions = evasions - i32::from(goats_to_move);
            let value = -self.quiescence(&child, -beta, -alpha, ply + 1, next_evasions);
            self.pop_state();
            if self.aborted {
                return 0;
            }
            if value > best {
                best = value;
                if value > alpha {
                    alpha = value;
                    if value >= beta {
                        break;
                    }
                }
            }
        }
        best
    }
}

/// The tigers' captures, in the order [`Position::legal_moves`] lists them.
fn tiger_captures(position: &Position) -> MoveList {
    let mut moves = MoveList::new();
    let empty = position.empty();
    for from in position.tigers() {
        let jumps = &JUMPS[from.index()];
        for i in 0..jumps.len as usize {
            let (over, to) = (jumps.over[i], jumps.land[i]);
            if position.goats().contains(over) && empty.contains(to) {
                moves.push(Move::Jump { from, over, to });
            }
        }
    }
    moves
}
