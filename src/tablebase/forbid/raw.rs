//! Raw movement-phase states of one layer (every board, not one per symmetry class), the table
//! draws among them, and their moves.
//!
//! The repetition rule compares whole states, so the forbid analysis works on raw states. A raw
//! state of a layer is indexed `tiger_rank * C(21, e) + empty_rank`: the colex rank of the tiger
//! set among the 25 points, and the colex rank of the `e` empty points counted among the 21
//! points without a tiger.

use crate::tablebase::graph::{GOATS, TIGERS};
use crate::tablebase::index::{
    colex_rank, colex_unrank, transform, LayerIndex, BINOMIALS, NON_TIGER_POINTS, SYMMETRIES,
    TIGER_SETS,
};
use crate::tables::{JUMPS, NEIGHBOURS};

/// A raw board: tiger set and empty set (goats are the rest of the 25 points).
#[derive(Copy, Clone, PartialEq, Eq, Debug, Hash)]
pub struct RawBoard {
    /// Points holding tigers.
    pub tigers: u32,
    /// Points holding nothing.
    pub empties: u32,
}

impl RawBoard {
    /// Points holding goats.
    #[inline]
    pub fn goats(self) -> u32 {
        !(self.tigers | self.empties) & ((1 << 25) - 1)
    }

    /// The image of the board under symmetry `g` (0..8).
    #[inline]
    pub fn transformed(self, g: usize) -> RawBoard {
        RawBoard {
            tigers: transform(self.tigers, g),
            empties: transform(self.empties, g),
        }
    }
}

/// A legal move of the side to move on a raw board.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum RawMove {
    /// A step: the same layer, the other side to move.
    Step(RawBoard),
    /// A capture: the board in the next layer (one more goat captured), goats to move.
    Capture(RawBoard),
}

/// Calls `visit` for every legal move of `side` ([`GOATS`] or [`TIGERS`]) on `board`; with
/// `forced_capture`, tigers that can capture only capture.
#[inline]
pub fn for_each_move(
    board: RawBoard,
    side: usize,
    forced_capture: bool,
    mut visit: impl FnMut(RawMove),
) {
    let RawBoard { tigers, empties } = board;
    let goats = board.goats();
    if side == GOATS {
        for_each_step(goats, empties, |moved| {
            visit(RawMove::Step(RawBoard {
                tigers,
                empties: empties ^ moved,
            }))
        });
        return;
    }
    let mut captured = false;
    let mut rest = tigers;
    while rest != 0 {
        let from = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        let jumps = &JUMPS[from];
        for i in 0..jumps.len as usize {
            let (over, land) = (jumps.over[i].index(), jumps.land[i].index());
            if goats & (1 << over) != 0 && empties & (1 << land) != 0 {
                captured = true;
                visit(RawMove::Capture(RawBoard {
                    tigers: tigers ^ (1 << from) ^ (1 << land),
                    empties: empties ^ (1 << land) ^ (1 << from) ^ (1 << over),
                }));
            }
        }
    }
    if forced_capture && captured {
        return;
    }
    for_each_step(tigers, empties, |moved| {
        visit(RawMove::Step(RawBoard {
            tigers: tigers ^ moved,
            empties: empties ^ moved,
        }))
    });
}

/// Calls `visit(from | to)` for every step of a piece of `pieces` onto an adjacent empty point.
#[inline]
fn for_each_step(pieces: u32, empties: u32, mut visit: impl FnMut(u32)) {
    let mut rest = empties;
    while rest != 0 {
        let to = rest.trailing_zeros();
        rest &= rest - 1;
        let mut sources = NEIGHBOURS[to as usize].0 & pieces;
        while sources != 0 {
            let from = sources.trailing_zeros();
            sources &= sources - 1;
            visit((1 << from) | (1 << to));
        }
    }
}

/// The class index, in the layer after `captured` (goats to move), of the board a capture
/// leads to.
#[inline]
pub fn next_class(captured: u8, board: RawBoard) -> usize {
    let index = LayerIndex::get(usize::from(captured) + 2);
    index.encode(board.tigers, board.empties).0 as usize
}

/// Raw indexing of the boards of one layer (`empties` empty points).
#[derive(Debug)]
pub struct RawIndex {
    /// Empty points per board (goats captured + 1).
    pub empties: usize,
    /// C(21, empties): empty sets per tiger set.
    slots: u32,
    /// Tiger sets by colex rank.
    tiger_sets: Vec<u32>,
}

impl RawIndex {
    /// The raw index of the layer with `empties` empty points (1..=5).
    pub fn new(empties: usize) -> RawIndex {
        RawIndex {
            empties,
            slots: BINOMIALS[NON_TIGER_POINTS][empties],
            tiger_sets: (0..TIGER_SETS as u32)
                .map(|rank| colex_unrank(rank, 4, 25))
                .collect(),
        }
    }

    /// Number of raw boards (per side to move).
    pub fn len(&self) -> u64 {
        TIGER_SETS as u64 * u64::from(self.slots)
    }

    /// Whether there are no boards (never).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The raw index of `board` (which must belong to this layer).
    #[inline]
    pub fn encode(&self, board: RawBoard) -> u32 {
        let mut rank = 0;
        let mut rest = board.empties;
        let mut i = 1;
        while rest != 0 {
            let point = rest.trailing_zeros();
            rest &= rest - 1;
            let below = board.tigers & ((1 << point) - 1);
            rank += BINOMIALS[(point - below.count_ones()) as usize][i];
            i += 1;
        }
        colex_rank(board.tigers) * self.slots + rank
    }

    /// The board with raw index `index` (< [`RawIndex::len`]).
    #[inline]
    pub fn decode(&self, index: u32) -> RawBoard {
        let tigers = self.tiger_sets[(index / self.slots) as usize];
        let mut compressed = colex_unrank(index % self.slots, self.empties, NON_TIGER_POINTS);
        // The k-th set bit of `compressed` is the k-th point without a tiger.
        let mut empties = 0;
        let mut free = !tigers & ((1 << 25) - 1);
        let mut position = 0;
        while compressed != 0 {
            let next = compressed.trailing_zeros();
            while position < next {
                free &= free - 1;
                position += 1;
            }
            empties |= 1 << free.trailing_zeros();
            compressed &= compressed - 1;
        }
        RawBoard { tigers, empties }
    }
}

/// A set of raw indexes with constant-time rank: the table draws of one side.
#[derive(Debug)]
pub struct RankedSet {
    words: Vec<u64>,
    /// Members before each word.
    before: Vec<u32>,
    /// Members, in increasing order (rank -> raw index).
    members: Vec<u32>,
}

impl RankedSet {
    /// The set of `members` (any order, duplicates allowed) among `0..len`.
    pub fn new(len: u64, members: impl IntoIterator<Item = u32>) -> RankedSet {
        let mut words = vec![0u64; len.div_ceil(64) as usize];
        for member in members {
            words[(member / 64) as usize] |= 1 << (member % 64);
        }
        let mut before = Vec::with_capacity(words.len());
        let mut count = 0u32;
        let mut list = Vec::new();
        for (w, &word) in words.iter().enumerate() {
            before.push(count);
            count += word.count_ones();
            let mut rest = word;
            while rest != 0 {
                list.push(w as u32 * 64 + rest.trailing_zeros());
                rest &= rest - 1;
            }
        }
        RankedSet {
            words,
            before,
            members: list,
        }
    }

    /// Number of members.
    pub fn len(&self) -> u32 {
        self.members.len() as u32
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.members.is_empty()
    }

    /// The rank of `raw` among the members, if it is one.
    #[inline]
    pub fn rank(&self, raw: u32) -> Option<u32> {
        let word = self.words[(raw / 64) as usize];
        let bit = 1u64 << (raw % 64);
        (word & bit != 0)
            .then(|| self.before[(raw / 64) as usize] + (word & (bit - 1)).count_ones())
    }

    /// The member of rank `rank`.
    #[inline]
    pub fn member(&self, rank: u32) -> u32 {
        self.members[rank as usize]
    }

    /// Bytes of memory held.
    pub fn bytes(&self) -> u64 {
        8 * self.words.len() as u64 + 4 * (self.before.len() + self.members.len()) as u64
    }
}

/// The table-draw raw states of one layer, both sides to move, numbered as vertices: goats to
/// move first (`0..goats`), then tigers to move.
#[derive(Debug)]
pub struct DrawStates {
    /// The raw index of the layer.
    pub raw: RawIndex,
    /// The class index of the layer.
    pub classes: &'static LayerIndex,
    /// Per side to move, the raw draw states.
    pub sides: [RankedSet; 2],
}

impl DrawStates {
    /// The draw states of the layer with `captured` goats captured, from its stored values
    /// (goats to move, then tigers to move, one byte per class; 0 is a draw).
    pub fn new(captured: u8, values: &[u8]) -> DrawStates {
        let classes = LayerIndex::get(usize::from(captured) + 1);
        let raw = RawIndex::new(usize::from(captured) + 1);
        let len = classes.len() as usize;
        let sides = [GOATS, TIGERS].map(|side| {
            let draws = values[side * len..(side + 1) * len]
                .iter()
                .enumerate()
                .filter(|&(_, &byte)| byte == 0)
                .flat_map(|(class, _)| {
                    let board = classes.decode(class as u32);
                    let board = RawBoard {
                        tigers: board.tigers,
                        empties: board.empties,
                    };
                    (0..SYMMETRIES).map(move |g| board.transformed(g))
                })
                .map(|board| raw.encode(board));
            RankedSet::new(raw.len(), draws)
        });
        DrawStates {
            raw,
            classes,
            sides,
        }
    }

    /// Number of vertices (draw states of both sides).
    pub fn len(&self) -> u32 {
        self.sides[GOATS].len() + self.sides[TIGERS].len()
    }

    /// Whether there are no draw states.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The vertex of `board` with `side` to move, if it is a table draw.
    #[inline]
    pub fn vertex(&self, board: RawBoard, side: usize) -> Option<u32> {
        let rank = self.sides[side].rank(self.raw.encode(board))?;
        Some(if side == GOATS {
            rank
        } else {
            self.sides[GOATS].len() + rank
        })
    }

    /// The board and side to move of `vertex`.
    #[inline]
    pub fn state(&self, vertex: u32) -> (RawBoard, usize) {
        let goats = self.sides[GOATS].len();
        let (side, rank) = if vertex < goats {
            (GOATS, vertex)
        } else {
            (TIGERS, vertex - goats)
        };
        (self.raw.decode(self.sides[side].member(rank)), side)
    }

    /// The class index of a board of this layer with `side` to move, as stored in the tables
    /// (goats to move first).
    #[inline]
    pub fn class_slot(&self, board: RawBoard, side: usize) -> usize {
        let (class, _) = self.classes.encode(board.tigers, board.empties);
        side * self.classes.len() as usize + class as usize
    }

    /// Bytes of memory held by the sets.
    pub fn bytes(&self) -> u64 {
        self.sides.iter().map(RankedSet::bytes).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bitboard::Bitboard;
    use crate::{Position, Repetition, Rules, Side};
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    #[test]
    fn moves_match_the_rules_core() {
        let mut rng = StdRng::seed_from_u64(7);
        for trial in 0..4000 {
            let empties = rng.random_range(1..=5usize);
            let raw = RawIndex::new(empties);
            let board = raw.decode(rng.random_range(0..raw.len() as u32));
            let forced_capture = trial % 2 == 1;
            let side = [GOATS, TIGERS][trial / 2 % 2];
            let captured = empties as u8 - 1;
            let rules = Rules {
                forced_capture,
                captures_to_win: 5,
                repetition: Repetition::Draw,
            };
            let position = Position::from_parts(
                Bitboard(board.tigers),
                Bitboard(board.goats()),
                if side == GOATS {
                    Side::Goats
                } else {
                    Side::Tigers
                },
                0,
                captured,
            )
            .expect("a valid position");
            let mut expected: Vec<(u32, u32, u8)> = position
                .legal_moves(&rules)
                .iter()
                .map(|&mv| {
                    let child = position.played(mv);
                    (child.tigers().0, child.empty().0, child.goats_captured())
                })
                .collect();
            let mut found = Vec::new();
            for_each_move(board, side, forced_capture, |mv| {
                found.push(match mv {
                    RawMove::Step(child) => (child.tigers, child.empties, captured),
                    RawMove::Capture(child) => (child.tigers, child.empties, captured + 1),
                })
            });
            expected.sort_unstable();
            found.sort_unstable();
            assert_eq!(found, expected, "{position}");
        }
    }

    #[test]
    fn raw_index_round_trips_and_is_dense() {
        for empties in 1..=3 {
            let raw = RawIndex::new(empties);
            let mut seen = vec![false; raw.len() as usize];
            for index in (0..raw.len() as u32).step_by(7) {
                let board = raw.decode(index);
                assert_eq!(board.tigers.count_ones(), 4);
                assert_eq!(board.empties.count_ones() as usize, empties);
                assert_eq!(board.tigers & board.empties, 0);
                assert_eq!(raw.encode(board), index);
                seen[index as usize] = true;
            }
            assert!(seen.iter().step_by(7).all(|&s| s));
        }
    }

    #[test]
    fn ranked_set_ranks_members_only() {
        let set = RankedSet::new(300, [5, 64, 299, 5, 130]);
        assert_eq!(set.len(), 4);
        assert_eq!(set.rank(5), Some(0));
        assert_eq!(set.rank(64), Some(1));
        assert_eq!(set.rank(130), Some(2));
        assert_eq!(set.rank(299), Some(3));
        assert_eq!(set.rank(6), None);
        assert_eq!(set.member(2), 130);
    }
}
