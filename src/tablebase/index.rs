//! Indexing of movement-phase positions: the 8 symmetries of the square, ranking of tiger and
//! empty-point sets (combinatorial number system), one index per symmetry class.
//!
//! A layer holds the positions with `captured` goats captured: 4 tigers, `20 - captured` goats
//! and `empties = captured + 1` empty points. A position is described by its tiger set and its
//! empty set (goats are the rest). Tiger sets are grouped into classes under the 8 symmetries;
//! each class has a representative (the member of lowest colex rank). A position is canonical
//! when its tigers are the representative and, if the representative is symmetric, its empty
//! set has the lowest rank among the images under the representative's stabilizer. The index of
//! a canonical position is `offset[class] + local`, where `local` is the colex rank of the empty
//! points counted among the 21 non-tiger points (compressed), or for symmetric classes the
//! position of that rank in the sorted list of canonical ranks.

pub use super::symmetry::{
    colex_rank, colex_unrank, inverse_symmetry, transform, TigerClass, TigerTable, BINOMIALS,
    MAX_EMPTIES, NON_TIGER_POINTS, SQUARE_MAPS, SYMMETRIES, TIGER_SETS,
};
use std::sync::OnceLock;

/// Positions (symmetry classes) per side to move of the layers with 1..=5 empty points, by
/// Burnside's lemma (Lim and Nievergelt's counts): what [`LayerIndex::len`] gives, known without
/// building the index (opening tables checks file headers against it; a test checks both agree).
pub const CLASSES_PER_LAYER: [u32; MAX_EMPTIES] =
    [33_481, 333_175, 2_105_695, 9_469_965, 32_188_170];

/// Canonical empty-set ranks of a symmetric tiger class.
#[derive(Debug)]
struct SymmetricClassMap {
    /// For each colex rank: the local index, or `u32::MAX` if the rank is not canonical.
    rank_to_local: Vec<u32>,
    /// For each local index: the colex rank.
    local_to_rank: Vec<u32>,
}

impl SymmetricClassMap {
    /// The canonical ranks of `class` (with a non-empty stabilizer) for `empties` empty points:
    /// the ranks are walked in increasing order (colex order is increasing order of the
    /// compressed sets), so the first of each orbit met is its lowest, the canonical one.
    fn new(class: &TigerClass, empties: usize, slots: u32) -> SymmetricClassMap {
        let mut rank_to_local = vec![u32::MAX; slots as usize];
        let mut seen = vec![false; slots as usize];
        let mut local_to_rank = Vec::new();
        let mut mask: u32 = (1 << empties) - 1;
        for rank in 0..slots {
            if !seen[rank as usize] {
                rank_to_local[rank as usize] = local_to_rank.len() as u32;
                local_to_rank.push(rank);
                let board_empties = expand(class, mask);
                for &h in &class.stabilizer {
                    let image = compressed_rank(class, transform(board_empties, h as usize));
                    seen[image as usize] = true;
                }
            }
            // The next set of as many points in increasing order (Gosper's hack).
            let low = mask & mask.wrapping_neg();
            let ripple = mask + low;
            mask = ripple | (((mask ^ ripple) >> 2) / low);
        }
        SymmetricClassMap {
            rank_to_local,
            local_to_rank,
        }
    }
}

/// The number of orbits of `class`'s stabilizer (with the identity) on sets of `empties` of
/// its non-tiger points, by Burnside's lemma: the mean over the group of the number of sets
/// each symmetry fixes, which are the unions of its cycles with `empties` points in all.
fn orbits(class: &TigerClass, empties: usize) -> u32 {
    let group = std::iter::once(0).chain(class.stabilizer.iter().map(|&h| usize::from(h)));
    let mut fixed_sum = 0;
    for h in group {
        // fixed[k]: sets of k points made of the cycles seen so far.
        let mut fixed = [0u32; NON_TIGER_POINTS + 1];
        fixed[0] = 1;
        let mut done = 0u32;
        for &point in &class.decompress {
            if done & (1 << point) != 0 {
                continue;
            }
            let mut length = 0;
            let mut at = usize::from(point);
            while done & (1 << at) == 0 {
                done |= 1 << at;
                at = usize::from(SQUARE_MAPS[h][at]);
                length += 1;
            }
            for k in (length..=NON_TIGER_POINTS).rev() {
                fixed[k] += fixed[k - length];
            }
        }
        fixed_sum += fixed[empties];
    }
    fixed_sum / (class.stabilizer.len() as u32 + 1)
}

/// The index of one layer: positions with a given number of empty points, one side to move.
/// Building it costs microseconds: the canonical ranks of a symmetric tiger class are listed
/// on the first position of that class encoded or decoded.
#[derive(Debug)]
pub struct LayerIndex {
    /// Number of empty points (goats captured + 1).
    pub empties: usize,
    tigers: &'static TigerTable,
    /// First index of each class; the last entry is the number of positions.
    offsets: Vec<u32>,
    /// Per class: for symmetric classes, the canonical ranks (built on first use).
    symmetric: Vec<OnceLock<SymmetricClassMap>>,
    /// Compressed empty sets by colex rank (built on first decode: probes only encode).
    unrank: OnceLock<Vec<u32>>,
    /// Number of empty sets per tiger class: C(21, empties).
    slots: u32,
    /// Number of leading classes without symmetry (each with `slots` positions).
    asymmetric: u32,
}

/// A decoded canonical position: tiger set and empty set (goats are the other points).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct Board {
    /// Points holding tigers.
    pub tigers: u32,
    /// Points holding nothing.
    pub empties: u32,
}

impl Board {
    /// Points holding goats.
    #[inline]
    pub fn goats(&self) -> u32 {
        !(self.tigers | self.empties) & ((1 << 25) - 1)
    }
}

impl LayerIndex {
    /// Builds the index of the layer with `empties` empty points (1..=5).
    ///
    /// # Panics
    /// If `empties` is not in 1..=5 (an internal invariant: callers check captures first).
    pub fn new(empties: usize) -> LayerIndex {
        assert!(
            (1..=MAX_EMPTIES).contains(&empties),
            "layer with {empties} empty points"
        );
        let tigers = TigerTable::get();
        let slots = BINOMIALS[NON_TIGER_POINTS][empties];
        let mut offsets = Vec::with_capacity(tigers.classes.len() + 1);
        let mut next = 0u32;
        for class in &tigers.classes {
            offsets.push(next);
            next += if class.stabilizer.is_empty() {
                slots
            } else {
                orbits(class, empties)
            };
        }
        offsets.push(next);
        let asymmetric = tigers
            .classes
            .iter()
            .take_while(|class| class.stabilizer.is_empty())
            .count() as u32;
        LayerIndex {
            empties,
            tigers,
            offsets,
            symmetric: tigers.classes.iter().map(|_| OnceLock::new()).collect(),
            unrank: OnceLock::new(),
            slots,
            asymmetric,
        }
    }

    /// Compressed empty sets by colex rank.
    #[inline]
    fn unrank(&self) -> &[u32] {
        self.unrank.get_or_init(|| {
            (0..self.slots)
                .map(|rank| colex_unrank(rank, self.empties, NON_TIGER_POINTS))
                .collect()
        })
    }

    /// The canonical ranks of symmetric class `class_id`.
    #[inline]
    fn class_map(&self, class_id: usize) -> &SymmetricClassMap {
        self.symmetric[class_id].get_or_init(|| {
            let class = &self.tigers.classes[class_id];
            let map = SymmetricClassMap::new(class, self.empties, self.slots);
            debug_assert_eq!(
                map.local_to_rank.len() as u32,
                self.offsets[class_id + 1] - self.offsets[class_id]
            );
            map
        })
    }

    /// The shared index for `empties` empty points (built on first use).
    ///
    /// # Panics
    /// If `empties` is not in 1..=5.
    pub fn get(empties: usize) -> &'static LayerIndex {
        static INDEXES: [OnceLock<LayerIndex>; MAX_EMPTIES] = [
            OnceLock::new(),
            OnceLock::new(),
            OnceLock::new(),
            OnceLock::new(),
            OnceLock::new(),
        ];
        assert!(
            (1..=MAX_EMPTIES).contains(&empties),
            "layer with {empties} empty points"
        );
        INDEXES[empties - 1].get_or_init(|| LayerIndex::new(empties))
    }

    /// Number of positions (symmetry classes) per side to move.
    pub fn len(&self) -> u32 {
        *self.offsets.last().expect("offsets end with the total")
    }

    /// Whether the layer is empty (never: every layer has positions).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The index of the class of (`tigers`, `empties`) and the number of symmetries that fix the
    /// canonical member (1 for most positions). `tigers` must have 4 points and `empties`
    /// [`LayerIndex::empties`] points, disjoint.
    #[inline]
    pub fn encode(&self, tigers: u32, empties: u32) -> (u32, u8) {
        let (class_id, g) = self.tigers.by_rank[colex_rank(tigers) as usize];
        let empties = if g == 0 {
            empties
        } else {
            transform(empties, g as usize)
        };
        self.encode_in_class(class_id as usize, empties)
    }

    /// As [`LayerIndex::encode`] for a board whose tigers are exactly the representative of
    /// class `class_id` (as [`LayerIndex::decode`] returns it).
    #[inline(always)]
    pub fn encode_in_class(&self, class_id: usize, empties: u32) -> (u32, u8) {
        let class = &self.tigers.classes[class_id];
        let rank = compressed_rank(class, empties);
        if (class_id as u32) < self.asymmetric {
            return (class_id as u32 * self.slots + rank, 1);
        }
        let map = self.class_map(class_id);
        let (mut best, mut fixing) = (rank, 1u8);
        for &h in &class.stabilizer {
            let image = compressed_rank(class, transform(empties, h as usize));
            if image < best {
                best = image;
                fixing = 1;
            } else if image == best {
                fixing += 1;
            }
        }
        (
            self.offsets[class_id] + map.rank_to_local[best as usize],
            fixing,
        )
    }

    /// The number of symmetries fixing the class of (`tigers`, `empties`): 1 unless the tiger
    /// set is symmetric; cheaper than [`LayerIndex::encode`].
    #[inline]
    pub fn fixing(&self, tigers: u32, empties: u32) -> u8 {
        let (class_id, g) = self.tigers.by_rank[colex_rank(tigers) as usize];
        if u32::from(class_id) < self.asymmetric {
            return 1;
        }
        let empties = if g == 0 {
            empties
        } else {
            transform(empties, g as usize)
        };
        self.encode_in_class(class_id as usize, empties).1
    }

    /// Whether tiger class `class_id` has no symmetry (all its positions are fixed by the
    /// identity only).
    #[inline]
    pub fn is_asymmetric(&self, class_id: usize) -> bool {
        (class_id as u32) < self.asymmetric
    }

    /// The canonical board with index `index` (< [`LayerIndex::len`]).
    #[inline]
    pub fn decode(&self, index: u32) -> Board {
        self.decode_with_class(index).0
    }

    /// The canonical board with index `index` and its tiger class.
    #[inline(always)]
    pub fn decode_with_class(&self, index: u32) -> (Board, usize) {
        let (class_id, rank) = if index < self.asymmetric * self.slots {
            ((index / self.slots) as usize, index % self.slots)
        } else {
            let class_id = self.offsets.partition_point(|&offset| offset <= index) - 1;
            let map = self.class_map(class_id);
            (
                class_id,
                map.local_to_rank[(index - self.offsets[class_id]) as usize],
            )
        };
        let class = &self.tigers.classes[class_id];
        let board = Board {
            tigers: class.tigers,
            empties: expand(class, self.unrank()[rank as usize]),
        };
        (board, class_id)
    }
}

/// Colex rank of an empty set counted among the class representative's non-tiger points.
#[inline(always)]
fn compressed_rank(class: &TigerClass, mut empties: u32) -> u32 {
    let mut rank = 0;
    let mut i = 1;
    while empties != 0 {
        rank += BINOMIALS[class.compress[empties.trailing_zeros() as usize] as usize][i];
        empties &= empties - 1;
        i += 1;
    }
    rank
}

/// The points of a compressed set (positions among the non-tiger points).
#[inline(always)]
fn expand(class: &TigerClass, mut compressed: u32) -> u32 {
    let mut out = 0;
    while compressed != 0 {
        out |= 1 << class.decompress[compressed.trailing_zeros() as usize];
        compressed &= compressed - 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn class_counts_match_burnside() {
        // Per side, layers with 1..=5 empty points (0..=4 goats captured).
        for (empties, &count) in (1..=MAX_EMPTIES).zip(&CLASSES_PER_LAYER) {
            assert_eq!(LayerIndex::get(empties).len(), count, "{empties} empties");
        }
    }

    /// The orbit counts (Burnside) that place the classes agree with the canonical ranks
    /// listed by walking every empty set, for every symmetric class and layer.
    #[test]
    fn orbit_counts_match_canonical_ranks() {
        let table = TigerTable::get();
        let slots_by_empties = &BINOMIALS[NON_TIGER_POINTS];
        for (empties, &slots) in slots_by_empties.iter().enumerate().skip(1) {
            for class in table.classes.iter().filter(|c| !c.stabilizer.is_empty()) {
                let map = SymmetricClassMap::new(class, empties, slots);
                assert_eq!(orbits(class, empties), map.local_to_rank.len() as u32);
                // Canonical means lowest of its orbit under the stabilizer.
                for &rank in map.local_to_rank.iter().step_by(7) {
                    let board = expand(class, colex_unrank(rank, empties, NON_TIGER_POINTS));
                    for &h in &class.stabilizer {
                        assert!(compressed_rank(class, transform(board, h as usize)) >= rank);
                    }
                }
            }
        }
    }
}
