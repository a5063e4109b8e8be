//! Singular extensions: a hash move that beats every other move by a margin, in a shallower
//! search without it, is searched one ply deeper; when even the other moves hold beta, the node
//! is cut (multi-cut).

use super::Worker;
use crate::search::score::{from_tt, is_mate, Bound, Value};
use crate::search::tt::TtEntry;
use crate::{Move, MoveList, Position};

/// What the singular test found at a node.
pub(super) enum Singular {
    /// No test, or the hash move is not singular.
    No,
    /// The hash move is singular: search it one ply deeper.
    Extend(Move),
    /// The other moves hold this value, which is at least beta: return it.
    Cut(Value),
}

impl Worker<'_> {
    /// Tests whether the hash move of `entry` is singular at a node with `depth` plies left
    /// and legal `moves`: the other moves, searched to half the depth, all fail below the
    /// hash value less [`Params::singular_margin`](crate::search::params::Params) per ply.
    pub(super) fn singular(
        &mut self,
        position: &Position,
        entry: &TtEntry,
        moves: &MoveList,
        depth: i32,
        beta: Value,
        ply: usize,
    ) -> Singular {
        let Some(mv) = entry.mv else {
            return Singular::No;
        };
        let min_depth = self.params.singular_depth;
        if min_depth <= 0
            || depth < min_depth
            || entry.bound == Bound::Upper
            || entry.depth < depth - 3
            || !self.within_extension_reach(ply)
            // The hash move is unverified (another position may share the slot).
            || !moves.contains(&mv)
        {
            return Singular::No;
        }
        let hash_value = from_tt(entry.value, ply);
        if is_mate(hash_value) {
            return Singular::No;
        }
        let singular_beta = hash_value - self.params.singular_margin * depth;
        self.excluded[ply] = Some(mv);
        let value = self.search(
            position,
            (depth - 1) / 2,
            singular_beta - 1,
            singular_beta,
            ply,
            false,
        );
        self.excluded[ply] = None;
        if self.aborted {
            Singular::No
        } else if value < singular_beta {
            Singular::Extend(mv)
        } else if singular_beta >= beta {
            Singular::Cut(singular_beta)
        } else {
            Singular::No
        }
    }
}
