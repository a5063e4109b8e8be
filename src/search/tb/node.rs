//! Probing inside the search: exact values for movement-phase nodes and for the goats' last
//! placement.

use crate::{Position, Repetition, Side};

use super::super::eval::last_layer_malus;
use super::super::score::{Value, DRAW, INFINITE};
use super::super::worker::Worker;
use super::{value_at, TbProbe};

impl<'a> Worker<'a> {
    /// Lets this worker probe the tables of `probe`.
    pub fn with_tablebase(mut self, probe: &'a TbProbe<'a>) -> Worker<'a> {
        self.tb = probe.tables().is_some().then_some(probe);
        let root_side = self.root.side_to_move();
        self.last_layer_malus = last_layer_malus(&self.rules, self.tb.is_some(), root_side);
        self
    }

    /// The exact value of `position` at `ply` from the tables, or `None` when they do not
    /// cover it, or it is a draw that does not end the search ([`TbProbe::cuts_at_draws`]).
    /// Covered are the movement phase, the placement layers present (unless
    /// [`TbProbe::cuts_at_placement`] says no) and, by its children, a goats' turn with one goat
    /// left to place. Under `Repetition forbid` a table draw, or a placement position the
    /// tables do not cover, has its proven value under forbid when the forbid files give one
    /// ([`Worker::forbid_value`]). Call it after the repetition checks.
    #[inline]
    pub(crate) fn probe_tablebase(&mut self, position: &Position, ply: usize) -> Option<Value> {
        let probe = self.tb?;
        let tables = probe.tables()?;
        self.count_probe();
        let in_hand = position.goats_in_hand();
        let value = match tables.probe(position) {
            Some(value) if in_hand == 0 || probe.cuts_at_placement() => {
                probe.add_hits(1);
                value_at(value, ply)
            }
            _ if in_hand == 1 && position.side_to_move() == Side::Goats => {
                self.last_placement(probe, position, ply)?
            }
            // Goats in hand without their placement layer: a proven value under forbid, if any.
            None if in_hand != 0 && probe.cuts_at_placement() => {
                return self.forbid_value(probe, position, ply)
            }
            _ => return None,
        };
        if value == DRAW && !probe.cuts_at_draws() {
            return self.forbid_value(probe, position, ply);
        }
        Some(value)
    }

    /// The value of the goats' last placement: the best of its children's table values (a
    /// child that repeats a position is a draw under the draw rule; placing is never a
    /// forbidden repetition).
    fn last_placement(
        &self,
        probe: &TbProbe<'_>,
        position: &Position,
        ply: usize,
    ) -> Option<Value> {
        let tables = probe.tables()?;
        let moves = position.legal_moves(&self.rules);
        if moves.is_empty() {
            return None;
        }
        let mut best = -INFINITE;
        let mut probed = 0;
        for &mv in moves.iter() {
            let child = position.played(mv);
            let value = if self.rules.repetition == Repetition::Draw
                && self.occurred_before(child.hash(), ply + 1)
            {
                DRAW
            } else {
                probed += 1;
                -value_at(tables.probe(&child)?, ply + 1)
            };
            best = best.max(value);
        }
        probe.add_hits(probed);
        Some(best)
    }
}
