//! More depth where the game is narrow: in crowded movement-phase positions a line of a few
//! shuffles decides, and one wrong step throws the value away (docs/eval.md, "Search changes
//! for the movement-phase misses"). Each rule is a setting of [`Params`], off by default.

use super::Worker;
use crate::search::params::Params;
use crate::{MoveList, Position, Side};

impl Worker<'_> {
    /// Whether an extension at `ply` stays within twice the iteration's depth, the bound that
    /// keeps extensions from growing the tree without end.
    pub(super) fn within_extension_reach(&self, ply: usize) -> bool {
        ply < 2 * self.root_depth.max(1) as usize
    }

    /// Whether `child`, a movement-phase position, leaves its side to move at most
    /// [`Params::narrow_extension`] legal moves.
    pub(super) fn is_narrow(&self, child: &Position) -> bool {
        let limit = self.params.narrow_extension;
        limit > 0
            && !child.is_placement_phase()
            && i64::from(child.count_moves(&self.rules)) <= i64::from(limit)
    }

    /// Whether `position` is crowded in the sense of [`Params::crowded_empty`], for the side
    /// to move: its moves are then neither reduced nor pruned.
    pub(super) fn is_crowded(&self, position: &Position) -> bool {
        let params: &Params = self.params;
        params.crowded_empty > 0
            && !position.is_placement_phase()
            && (params.crowded_sides >= 2 || position.side_to_move() == Side::Goats)
            && i64::from(position.empty().count()) <= i64::from(params.crowded_empty)
    }

    /// Whether the goats to move in `position` face a capture threat that at most
    /// [`Params::parry_extension`] of their `moves` parry (leave the tigers no capture): those
    /// moves are then searched one ply deeper, as a check with few answers is.
    pub(super) fn few_parries(&self, position: &Position, moves: &MoveList) -> bool {
        let limit = self.params.parry_extension;
        if limit <= 0
            || position.side_to_move() != Side::Goats
            || position.is_placement_phase()
            || !position.has_capture()
        {
            return false;
        }
        let parries = moves
            .iter()
            .filter(|&&mv| !position.played(mv).has_capture())
            .count();
        parries > 0 && parries as i64 <= i64::from(limit)
    }
}
