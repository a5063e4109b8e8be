//! The transposition table: lock-free, shared by all search threads (Lazy SMP).
//!
//! Each slot is two atomic words, `key ^ data` and `data`; a torn write from two threads makes
//! the check fail, so a probe never returns another position's data. Moves read from the table
//! are still verified for legality before use.

use std::fmt;
use std::ptr::NonNull;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

use memmap2::MmapMut;

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
    memory: SlotMemory,
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

/// A hash table that could not be allocated: the system refused the memory (or the size does
/// not fit the address space).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct AllocationError {
    /// The size asked for, in MB.
    pub megabytes: usize,
}

impl fmt::Display for AllocationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "cannot allocate a {} MB hash table: not enough memory",
            self.megabytes
        )
    }
}

impl std::error::Error for AllocationError {}

/// Tables at least this large are cleared by allocating fresh zeroed memory (which the system
/// maps lazily) rather than by writing every slot.
const REALLOCATE_TO_CLEAR_BYTES: usize = 64 << 20;

/// Slots each clearing thread takes at least.
const CLEAR_CHUNK_SLOTS: usize = 1 << 20;

#[cfg(test)]
thread_local! {
    /// Tests: allocations above this many MB fail on this thread, as if the memory were not there.
    static ALLOCATION_LIMIT_MB: std::cell::Cell<Option<usize>> = const { std::cell::Cell::new(None) };
}

/// Tests: makes every table allocation above `megabytes` fail on the calling thread (`None`
/// lifts the limit), to exercise the failure path without exhausting memory.
#[cfg(test)]
pub(crate) fn limit_allocations_for_tests(megabytes: Option<usize>) {
    ALLOCATION_LIMIT_MB.with(|limit| limit.set(megabytes));
}

/// The table's memory: `count` slots on fresh anonymous pages, which the system maps lazily and
/// zeroed (so even a 4 GB table is ready at once, with no clearing pass). On Linux the pages are
/// asked to be huge pages where the system allows it: random probes then miss the TLB far less
/// (`bench`: 1.17 times the nodes per second on the default 16 MB table).
struct SlotMemory {
    /// Owns the mapping; the slots are reached through `slots`.
    _map: MmapMut,
    /// The start of the mapping, taken from a mutable borrow so that the atomics may write.
    slots: NonNull<Slot>,
    count: usize,
}

// SAFETY: the mapping is plain memory owned by `SlotMemory`, and every access goes through
// the `AtomicU64`s of the slots, which may be shared and written from any thread.
unsafe impl Send for SlotMemory {}
// SAFETY: as for `Send`.
unsafe impl Sync for SlotMemory {}

impl SlotMemory {
    /// `None` when the memory is not there.
    fn zeroed(count: usize) -> Option<SlotMemory> {
        let bytes = count.checked_mul(SLOT_BYTES)?.max(1);
        let mut map = MmapMut::map_anon(bytes).ok()?;
        #[cfg(target_os = "linux")]
        if let Err(error) = map.advise(memmap2::Advice::HugePage) {
            log::debug!("no huge pages for the hash table: {error}");
        }
        let slots = NonNull::new(map.as_mut_ptr().cast::<Slot>())?;
        Some(SlotMemory {
            _map: map,
            slots,
            count,
        })
    }

    fn slots(&self) -> &[Slot] {
        // SAFETY: the mapping is page-aligned (more than a `Slot` needs), at least `count`
        // slots long, never moves and lives as long as `self`. It starts all zero, which is a
        // valid `Slot` (two `AtomicU64` zeros), and is only ever accessed through these atomics.
        unsafe { std::slice::from_raw_parts(self.slots.as_ptr(), self.count) }
    }
}

impl TranspositionTable {
    /// A table of about `megabytes` MB (at least one slot), or an error when the memory is not
    /// there. Nothing is written to the new table: it is ready at once, whatever its size.
    ///
    /// # Errors
    /// [`AllocationError`] when the system refuses the memory or the size does not fit.
    pub fn try_new(megabytes: usize) -> Result<TranspositionTable, AllocationError> {
        let error = AllocationError { megabytes };
        #[cfg(test)]
        if ALLOCATION_LIMIT_MB.with(|limit| limit.get().is_some_and(|limit| megabytes > limit)) {
            return Err(error);
        }
        let bytes = megabytes.max(1).checked_mul(1024 * 1024).ok_or(error)?;
        let count = (bytes / SLOT_BYTES).max(1);
        let memory = SlotMemory::zeroed(count).ok_or(error)?;
        Ok(TranspositionTable {
            memory,
            generation: AtomicU8::new(0),
        })
    }

    /// A table of about `megabytes` MB (at least one slot; halved until the memory is there
    /// rather than abort). See [`TranspositionTable::try_new`] to learn of a failure instead.
    pub fn new(megabytes: usize) -> TranspositionTable {
        let mut size = megabytes.max(1);
        loop {
            match TranspositionTable::try_new(size) {
                Ok(table) => return table,
                Err(error) if size > 1 => {
                    log::warn!("{error}; trying half");
                    size /= 2;
                }
                Err(error) => panic!("{error}"),
            }
        }
    }

    /// Whether the table is large enough that clearing it is better done by allocating a fresh
    /// one ([`TranspositionTable::try_new`]: nothing to write) than by writing every slot.
    pub fn is_large(&self) -> bool {
        self.memory.slots().len() * SLOT_BYTES >= REALLOCATE_TO_CLEAR_BYTES
    }

    /// Empties the table in place, on several threads when it is large.
    pub fn clear(&self) {
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
        let slots = self.memory.slots();
        let chunk = slots.len().div_ceil(threads).max(CLEAR_CHUNK_SLOTS);
        let clear = |slots: &[Slot]| {
            for slot in slots {
                slot.check.store(0, Ordering::Relaxed);
                slot.data.store(0, Ordering::Relaxed);
            }
        };
        if slots.len() <= chunk {
            clear(slots);
        } else {
            std::thread::scope(|scope| {
                for slots in slots.chunks(chunk) {
                    scope.spawn(move || clear(slots));
                }
            });
        }
        self.generation.store(0, Ordering::Relaxed);
    }

    /// Marks the start of a new search (older entries become preferred for replacement).
    pub fn new_search(&self) {
        let next = (self.generation.load(Ordering::Relaxed) + 1) & 63;
        self.generation.store(next, Ordering::Relaxed);
    }

    fn slot(&self, key: u64) -> &Slot {
        let index = ((u128::from(key) * self.memory.slots().len() as u128) >> 64) as usize;
        &self.memory.slots()[index]
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
        let sample = self.memory.slots().len().min(1000);
        let used = self.memory.slots()[..sample]
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

    #[test]
    fn a_size_that_cannot_be_allocated_is_an_error() {
        let error = TranspositionTable::try_new(usize::MAX / 2).err().unwrap();
        assert_eq!(error.megabytes, usize::MAX / 2);
        assert!(error.to_string().starts_with("cannot allocate a "));
        let too_big = usize::MAX / (1 << 20) - 1;
        assert!(TranspositionTable::try_new(too_big).is_err());
    }

    #[test]
    fn a_fresh_table_is_empty_and_a_large_one_clears_on_several_threads() {
        let tt = TranspositionTable::try_new(64).unwrap();
        assert!(tt.is_large());
        assert_eq!(tt.hashfull(), 0);
        let keys: Vec<u64> = (1..2000u64)
            .map(|k| k.wrapping_mul(0x9e37_79b9_7f4a_7c15))
            .collect();
        for &key in &keys {
            tt.store(key, None, 5, 5, 3, Bound::Exact);
        }
        assert!(keys.iter().any(|&key| tt.probe(key).is_some()));
        tt.clear();
        assert!(keys.iter().all(|&key| tt.probe(key).is_none()));
        assert!(!TranspositionTable::new(1).is_large());
    }
}
