//! The transposition table: lock-free, shared by all search threads (Lazy SMP).
//!
//! Each slot is two atomic words, `key ^ data` and `data`; a torn write from two threads makes
//! the check fail, so a probe never returns another position's data. Moves read from the table
//! are still verified for legality before use.

use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

use crate::{Move, Square};

use super::score::Value;
use crate::search::score::Bound;

/// One slot: the key xor the data, and the data.
#[derive(Default)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

/// What a probe found.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TtEntry {
    /// Best or refuting move, unverified.
    pub mv: Option<Move>,
    /// Value relative to the node (see [`super::score::to_tt`]).
    pub value: Value,
    /// Static evaluation of the position.
    pub eval: Value,
    /// Remaining depth of the search that stored it.
    pub depth: i32,
    /// How `value` bounds the true value.
    pub bound: Bound,
}

/// A shared hash table of search results.
pub struct TranspositionTable {
    slots: Box<[Slot]>,
    generation: AtomicU8,
}

const SLOT_BYTES: usize = std::mem::size_of::<Slot>();

/// Packs a move into 14 bits (0 = none).
pub fn encode_move(mv: Option<Move>) -> u64 {
    match mv {
        None => 0,
        Some(Move::Place { to }) => (1 << 12) | to.index() as u64,
        Some(Move::Step { from, to }) => {
            (2 << 12) | ((from.index() as u64) << 5) | to.index() as u64
        }
        Some(Move::Jump { from, to, .. }) => {
            (3 << 12) | ((from.index() as u64) << 5) | to.index() as u64
        }
    }
}

/// Unpacks [`encode_move`]; `None` for anything that is not a move on this board.
pub fn decode_move(bits: u64) -> Option<Move> {
    let to = Square::try_new((bits & 31) as u8)?;
    let from = Square::try_new(((bits >> 5) & 31) as u8)?;
    match (bits >> 12) & 3 {
        1 => Some(Move::Place { to }),
        2 | 3 => {
            let mv = Move::between(from, to)?;
            (mv.is_capture() == ((bits >> 12) & 3 == 3)).then_some(mv)
        }
        _ => None,
    }
}

fn bound_bits(bound: Bound) -> u64 {
    match bound {
        Bound::Exact => 1,
        Bound::Lower => 2,
        Bound::Upper => 3,
    }
}

impl TranspositionTable {
    /// A table of about `megabytes` MB (at least one slot; smaller if the memory is not there).
    pub fn new(megabytes: usize) -> TranspositionTable {
        let mut count = (megabytes.max(1) * 1024 * 1024 / SLOT_BYTES).max(1);
        let mut slots: Vec<Slot> = Vec::new();
        // Halve the size until the memory is there rather than abort.
        while slots.try_reserve_exact(count).is_err() && count > 1 {
            log::warn!(
                "cannot allocate a {} MB hash table; trying half",
                (count * SLOT_BYTES) >> 20
            );
            count /= 2;
        }
        slots.extend((0..count).map(|_| Slot::default()));
        TranspositionTable {
            slots: slots.into_boxed_slice(),
            generation: AtomicU8::new(0),
        }
    }

    /// Empties the table.
    pub fn clear(&self) {
        for slot in self.slots.iter() {
            slot.check.store(0, Ordering::Relaxed);
            slot.data.store(0, Ordering::Relaxed);
        }
        self.generation.store(0, Ordering::Relaxed);
    }

    /// Marks the start of a new search (older entries become preferred for replacement).
    pub fn new_search(&self) {
        let next = (self.generation.load(Ordering::Relaxed) + 1) & 63;
        self.generation.store(next, Ordering::Relaxed);
    }

    fn slot(&self, key: u64) -> &Slot {
        let index = ((u128::from(key) * self.slots.len() as u128) >> 64) as usize;
        &self.slots[index]
    }

    /// The entry stored for `key`, if any.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<TtEntry> {
        let slot = self.slot(key);
        let data = slot.data.load(Ordering::Relaxed);
        let check = slot.check.load(Ordering::Relaxed);
        if data == 0 || check ^ data != key {
            return None;
        }
        let bound = match (data >> 56) & 3 {
            1 => Bound::Exact,
            2 => Bound::Lower,
            3 => Bound::Upper,
            _ => return None,
        };
        Some(TtEntry {
            mv: decode_move(data & 0xffff),
            value: Value::from((data >> 16) as u16 as i16),
            eval: Value::from((data >> 32) as u16 as i16),
            depth: ((data >> 48) & 0xff) as i32,
            bound,
        })
    }

    /// Stores a result, keeping a deeper entry of the same position from this search unless the
    /// new one is exact.
    #[inline]
    pub fn store(
        &self,
        key: u64,
        mv: Option<Move>,
        value: Value,
        eval: Value,
        depth: i32,
        bound: Bound,
    ) {
        let slot = self.slot(key);
        let generation = u64::from(self.generation.load(Ordering::Relaxed));
        let old = slot.data.load(Ordering::Relaxed);
        let same = old != 0 && slot.check.load(Ordering::Relaxed) ^ old == key;
        let mut mv_bits = encode_move(mv);
        if same {
            let old_depth = ((old >> 48) & 0xff) as i32;
            let old_generation = old >> 58;
            if bound != Bound::Exact && old_generation == generation && depth + 2 < old_depth {
                return;
            }
            if mv_bits == 0 {
                mv_bits = old & 0xffff;
            }
        }
        let depth = depth.clamp(0, 255) as u64;
        let data = mv_bits
            | (u64::from(value as i16 as u16) << 16)
            | (u64::from(eval as i16 as u16) << 32)
            | (depth << 48)
            | (bound_bits(bound) << 56)
            | (generation << 58);
        slot.data.store(data, Ordering::Relaxed);
        slot.check.store(key ^ data, Ordering::Relaxed);
    }

    /// Per mille of the first thousand slots holding entries from the current search.
    pub fn hashfull(&self) -> u32 {
        let generation = u64::from(self.generation.load(Ordering::Relaxed));
        let sample = self.slots.len().min(1000);
        let used = self.slots[..sample]
            .iter()
            .filter(|slot| {
                let data = slot.data.load(Ordering::Relaxed);
                data != 0 && data >> 58 == generation
            })
            .count();
        (used * 1000 / sample.max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_round_trip() {
        for text in ["c3", "e1d2", "e1c3", "a1a3", "a5a4"] {
            let mv: Move = text.parse().unwrap();
            assert_eq!(decode_move(encode_move(Some(mv))), Some(mv));
        }
        assert_eq!(decode_move(encode_move(None)), None);
    }

    #[test]
    fn stores_and_probes() {
        let tt = TranspositionTable::new(1);
        let mv: Move = "e1c3".parse().unwrap();
        tt.store(12345, Some(mv), -31_000, 17, 9, Bound::Lower);
        let entry = tt.probe(12345).unwrap();
        assert_eq!(entry.mv, Some(mv));
        assert_eq!(
            (entry.value, entry.eval, entry.depth, entry.bound),
            (-31_000, 17, 9, Bound::Lower)
        );
        assert!(tt.probe(54321).is_none());
        tt.clear();
        assert!(tt.probe(12345).is_none());
    }
}
