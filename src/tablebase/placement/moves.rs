//! The tiger moves of each tiger class, and per class tables that apply them to compressed goat
//! sets (bit `i` = the representative's `i`-th non-tiger point): which moves a position allows
//! and the child's compressed goats in the child's frame, each a few lookups of 7-bit chunks
//! instead of a walk over the board.

use super::super::symmetry::{TigerTable, NON_TIGER_POINTS, SQUARE_MAPS};
use super::index::{Frames, MASK21};
use crate::tables::{JUMPS, NEIGHBOURS};
use std::sync::OnceLock;

/// Bits per chunk of a compressed set.
const CHUNK_BITS: usize = 7;
/// Chunks of a compressed set.
const CHUNKS: usize = NON_TIGER_POINTS / CHUNK_BITS;
/// No tiger set has more moves than this (4 tigers, at most 8 steps and 8 jumps each).
const MAX_MOVES: usize = 64;

/// A tiger move from a class representative: where it goes and the frame of the child.
#[derive(Copy, Clone, Debug)]
struct TigerMove {
    from: u8,
    to: u8,
    /// The jumped point, or `None` for a step.
    over: Option<u8>,
    /// The child's tiger class and the symmetry onto its representative.
    class: u16,
    symmetry: u8,
}

/// Per tiger class, its possible tiger moves (captures first).
struct ClassMoves {
    moves: Vec<Vec<TigerMove>>,
    captures: Vec<usize>,
}

impl ClassMoves {
    fn get() -> &'static ClassMoves {
        static MOVES: OnceLock<ClassMoves> = OnceLock::new();
        MOVES.get_or_init(|| {
            let frames = Frames::get();
            let mut moves = Vec::new();
            let mut captures = Vec::new();
            for points in &frames.classes {
                let tigers = points.tigers;
                let mut list = Vec::new();
                let child = |from: u8, to: u8, over: Option<u8>| {
                    let (class, g) = frames.class_of(tigers ^ (1 << from) ^ (1 << to));
                    TigerMove {
                        from,
                        to,
                        over,
                        class: class as u16,
                        symmetry: g as u8,
                    }
                };
                for &from in &points.ascending {
                    let jumps = &JUMPS[usize::from(from)];
                    for i in 0..usize::from(jumps.len) {
                        let land = jumps.land[i].index() as u8;
                        if tigers & (1 << land) == 0 {
                            list.push(child(from, land, Some(jumps.over[i].index() as u8)));
                        }
                    }
                }
                captures.push(list.len());
                for &from in &points.ascending {
                    let mut targets = NEIGHBOURS[usize::from(from)].0 & !tigers;
                    while targets != 0 {
                        let to = targets.trailing_zeros() as u8;
                        targets &= targets - 1;
                        list.push(child(from, to, None));
                    }
                }
                assert!(list.len() <= MAX_MOVES, "{} moves", list.len());
                moves.push(list);
            }
            ClassMoves { moves, captures }
        })
    }
}

/// A map of compressed sets given by the image of each of the 21 bits, as chunk tables.
type ChunkMap<T> = [[T; 1 << CHUNK_BITS]; CHUNKS];

/// Fills `map` so that [`apply`] gives the union of `images[i]` over the bits `i` of a set.
fn build_map<T: Copy + Default + std::ops::BitOr<Output = T>>(
    map: &mut ChunkMap<T>,
    images: &[T; NON_TIGER_POINTS],
) {
    for (chunk, table) in map.iter_mut().enumerate() {
        table[0] = T::default();
        for v in 1..1 << CHUNK_BITS {
            let low = (v as u32).trailing_zeros() as usize;
            table[v] = table[v & (v - 1)] | images[chunk * CHUNK_BITS + low];
        }
    }
}

/// The image of a compressed set under a chunk map.
#[inline(always)]
fn apply<T: Copy + std::ops::BitOr<Output = T>>(map: &ChunkMap<T>, set: u32) -> T {
    map[0][(set & 0x7f) as usize]
        | map[1][((set >> 7) & 0x7f) as usize]
        | map[2][(set >> 14) as usize]
}

/// The moves of one tiger class as tables on its compressed goat sets. One per worker thread,
/// rebuilt when the class changes ([`ClassTables::prepare`]).
pub struct ClassTables {
    class: usize,
    /// Bits of the moves that are captures (the lowest ones).
    pub captures: u64,
    /// Per move (by bit), the child's tiger class.
    pub child_class: [u32; MAX_MOVES],
    /// The moves whose destination is in a set of empty points.
    to_empty: ChunkMap<u64>,
    /// The captures whose jumped point is in a set of goats.
    over_goat: ChunkMap<u64>,
    /// Per move, the child's goats from the parent's (a captured goat is dropped).
    child_goats: Vec<ChunkMap<u32>>,
}

impl Default for ClassTables {
    fn default() -> ClassTables {
        ClassTables {
            class: usize::MAX,
            captures: 0,
            child_class: [0; MAX_MOVES],
            to_empty: [[0; 1 << CHUNK_BITS]; CHUNKS],
            over_goat: [[0; 1 << CHUNK_BITS]; CHUNKS],
            child_goats: vec![[[0; 1 << CHUNK_BITS]; CHUNKS]; MAX_MOVES],
        }
    }
}

impl ClassTables {
    /// Makes the tables those of `class` (a no-op when they already are); returns whether
    /// they were rebuilt.
    #[inline(always)]
    pub fn prepare(&mut self, class: usize) -> bool {
        let rebuild = self.class != class;
        if rebuild {
            self.build(class);
        }
        rebuild
    }

    fn build(&mut self, class: usize) {
        let table = TigerTable::get();
        let all = ClassMoves::get();
        let (moves, captures) = (&all.moves[class], all.captures[class]);
        let points = &table.classes[class].decompress;
        let compress = &table.classes[class].compress;
        self.class = class;
        self.captures = (1u64 << captures) - 1;
        let (mut to_empty, mut over_goat) = ([0u64; NON_TIGER_POINTS], [0u64; NON_TIGER_POINTS]);
        for (m, mv) in moves.iter().enumerate() {
            to_empty[usize::from(compress[usize::from(mv.to)])] |= 1 << m;
            // A jump over another tiger is never a capture: it stays out of `over_goat`.
            if let Some(&over) = mv.over.and_then(|over| compress.get(usize::from(over))) {
                if let Some(bits) = over_goat.get_mut(usize::from(over)) {
                    *bits |= 1 << m;
                }
            }
        }
        build_map(&mut self.to_empty, &to_empty);
        build_map(&mut self.over_goat, &over_goat);
        for (m, mv) in moves.iter().enumerate() {
            let child = &table.classes[usize::from(mv.class)];
            self.child_class[m] = u32::from(mv.class);
            let map = &SQUARE_MAPS[usize::from(mv.symmetry)];
            let images = std::array::from_fn(|i| {
                let point = points[i];
                // The destination is empty in every position that allows the move, and a
                // captured goat leaves the board.
                if point == mv.to || Some(point) == mv.over {
                    0
                } else {
                    1 << child.compress[usize::from(map[usize::from(point)])]
                }
            });
            build_map(&mut self.child_goats[m], &images);
            debug_assert_eq!(
                child.tigers,
                Frames::get().transform(
                    (table.classes[class].tigers ^ 1 << mv.from) | 1 << mv.to,
                    usize::from(mv.symmetry)
                )
            );
        }
    }

    /// The moves (by bit) that the position with compressed goats `goats` allows.
    #[inline(always)]
    pub fn allowed(&self, goats: u32) -> u64 {
        let steps = !self.captures;
        apply(&self.to_empty, MASK21 & !goats) & (apply(&self.over_goat, goats) | steps)
    }

    /// The child's compressed goats, in its own frame, after move `m` from goats `goats`.
    #[inline(always)]
    pub fn child_goats(&self, m: usize, goats: u32) -> u32 {
        apply(&self.child_goats[m], goats)
    }
}

#[cfg(test)]
mod tests {
    use super::super::index::{compress, expand};
    use super::*;

    /// The tables agree with the moves made on the board, for every class and a spread of
    /// goat sets.
    #[test]
    fn tables_match_board_moves() {
        let frames = Frames::get();
        let all = ClassMoves::get();
        let mut tables = ClassTables::default();
        for (class, points) in frames.classes.iter().enumerate() {
            tables.prepare(class);
            for seed in 0..40u32 {
                let goats21 = seed.wrapping_mul(0x9e37_79b1) >> 11 & MASK21;
                let goats = expand(goats21, points.ascending);
                let empties = !(goats | points.tigers) & ((1 << 25) - 1);
                let allowed = tables.allowed(goats21);
                for (m, mv) in all.moves[class].iter().enumerate() {
                    let legal = empties & 1 << mv.to != 0
                        && mv.over.is_none_or(|over| goats & 1 << over != 0);
                    assert_eq!(allowed & 1 << m != 0, legal, "class {class} move {m}");
                    if !legal {
                        continue;
                    }
                    let child_goats = mv.over.map_or(goats, |over| goats ^ 1 << over);
                    let turned = frames.transform(child_goats, usize::from(mv.symmetry));
                    let child = &frames.classes[usize::from(mv.class)];
                    assert_eq!(
                        tables.child_goats(m, goats21),
                        compress(turned, child.descending)
                    );
                }
            }
        }
    }
}
