//! Compressed layers (format version 3, and version 2 read; docs/tablebase.md, "Compressed
//! placement layers"). Placement layers (`place-HH-C.bctz`): only the tigers-to-move values are
//! stored (a goats-to-move value is the best of its placements, each a tigers-to-move position
//! one goat in hand lower). Movement layers (`layer-C.bctz`, [`movement`]): the value bytes of
//! both sides. The values are cut into segments of [`SEGMENT_VALUES`] values. A segment is coded
//! with its own pair dictionary (Re-Pair: each symbol past the values, 3 codes or 256 bytes
//! ([`Stored`]), stands for a pair of earlier symbols, so for a run of values) and a canonical
//! Huffman code, in blocks of 32 or 64 bytes (the file says which) that each hold whole symbols;
//! a sparse index every 2^k values (k chosen per segment) finds the block of a value, so a
//! probe decodes at most one block.
//!
//! Reading never panics on a bad file: the directory is checked at open, each segment's tables
//! on first use, and every block read is bounds-checked (a bad one answers nothing). The CRC-32
//! of the payload (checked at open or vouched for by a verified stamp) is what reports a damaged
//! file as corrupt.
//!
//! - [`huffman`]: the codes; [`encode`]: the writer; [`convert`]: `tb compress` and the checks
//!   against the uncompressed files.

pub mod convert;
pub mod encode;
pub mod huffman;
pub mod movement;

use super::file::COMPRESSED_VERSION_2;
use super::file::{map_file, u32_at, u64_at, MappedLayer, COMPRESSED_VERSION};
use super::{Corruption, TablebaseError};
use huffman::CodeTable;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering::Relaxed};
use std::sync::OnceLock;

/// Values per segment written by `tb compress` (the last one may be shorter; the file says; any
/// size is read). 2^26 rather than 2^24: a quarter of the per-segment tables, which a random
/// probe reads, so more of them stay cached (docs/tablebase.md, "Seventh pass").
pub const SEGMENT_VALUES: u32 = 1 << 26;
/// Fewest values between two entries of a segment's sparse block index, as a power of two (the
/// span of every segment written before spans were chosen per segment).
pub const MIN_SPAN_LOG2: u32 = 12;
/// Most values between two entries of a sparse block index, as a power of two.
pub const MAX_SPAN_LOG2: u32 = 24;
/// Bytes per block in files of format version 2 (and the most in any file).
pub const BLOCK_BYTES: usize = 64;
/// Bytes per block written by `tb compress` (recorded in the payload header): 64, the size
/// that meets the 0.45-bit target (32-byte blocks cost about 4% more; with the midpoints a
/// probe records, probes of either are about as fast: docs/tablebase.md, "Fifth pass").
pub const WRITTEN_BLOCK_BYTES: usize = 64;
/// The block sizes a file may have.
pub const BLOCK_SIZES: [usize; 2] = [32, 64];
/// Most values in one block (its count is stored as a `u16`, minus one).
pub const MAX_BLOCK_VALUES: u32 = 1 << 16;
/// Most symbols of a segment's dictionary (the values and the pairs).
pub const MAX_SYMBOLS: usize = 4096;
/// Bytes of a segment's fixed header.
pub const SEGMENT_HEADER: usize = 16;

/// The file name of a compressed placement layer.
pub fn compressed_path(dir: &Path, in_hand: u8, captured: u8) -> PathBuf {
    dir.join(format!("place-{in_hand:02}-{captured}.bctz"))
}

/// The file name of a compressed movement layer.
pub fn compressed_movement_path(dir: &Path, captured: u8) -> PathBuf {
    dir.join(format!("layer-{captured}.bctz"))
}

/// What a compressed file holds, told by its header (goats in hand 0: a movement layer).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stored {
    /// A placement layer's tigers-to-move codes (0 draw, 1 win, 2 loss), one per position.
    PlacementCodes,
    /// A movement layer's value bytes (0 draw, else plies to the end plus one), goats to move
    /// then tigers to move, as in its uncompressed file.
    MovementBytes,
}

impl Stored {
    /// What a file of a layer with `in_hand` goats in hand holds.
    pub fn of_layer(in_hand: u8) -> Stored {
        if in_hand == 0 {
            Stored::MovementBytes
        } else {
            Stored::PlacementCodes
        }
    }

    /// The values a segment's dictionary starts from (its first symbols).
    pub fn alphabet(self) -> usize {
        match self {
            Stored::PlacementCodes => 3,
            Stored::MovementBytes => 256,
        }
    }

    /// The segment header's alphabet field: 0 for codes (as in the files written before
    /// movement layers were compressed), the alphabet for bytes.
    fn alphabet_field(self) -> u32 {
        match self {
            Stored::PlacementCodes => 0,
            Stored::MovementBytes => 256,
        }
    }

    /// Bits of a value in a [`Node`] holding its values.
    fn value_bits(self) -> u32 {
        match self {
            Stored::PlacementCodes => 2,
            Stored::MovementBytes => 8,
        }
    }

    /// Most values of a symbol whose node holds them all (64 bits of values).
    fn expanded_values(self) -> u32 {
        64 / self.value_bits()
    }

    /// The values stored for a layer of `positions` positions a side.
    pub fn values(self, positions: u64) -> u64 {
        match self {
            Stored::PlacementCodes => positions,
            Stored::MovementBytes => positions.saturating_mul(2),
        }
    }
}

/// The tables of one segment, read from the file on first use.
#[derive(Debug)]
struct Tables {
    /// Values in the segment.
    values: u32,
    /// Byte offsets (in the segment) of the sparse index, block counts and blocks.
    sparse: usize,
    counts: usize,
    blocks: usize,
    /// Blocks in the segment.
    block_count: u32,
    /// Values between two sparse index entries, as a power of two.
    span_log2: u32,
    /// What the values are (bits a value in a node, most values a node holds).
    stored: Stored,
    /// Per symbol: its values (short symbols) or its halves and lengths, so a probe reads one
    /// entry per level of the pair tree, and only one for a symbol of up to
    /// [`EXPANDED_VALUES`] values.
    nodes: Vec<Node>,
    code: CodeTable,
    /// Per code, by its place in [`CodeTable::sorted`] ([`CodeTable::rank`]): `values << 12 |
    /// symbol` (values at most [`MAX_BLOCK_VALUES`], 17 bits), and in a placement layer, for a
    /// symbol whose values are all one code, [`UNIFORM`] with that code above them (so the
    /// probe of a value in a run needs no node of the pair tree). A probe walking a block needs
    /// each code's length, which [`CodeTable::rank`] computes from the window without reading
    /// memory, and how many values its symbol stands for: one read a code, off the chain that
    /// finds the next code, so the reads of a walk are in flight together (the tables of the
    /// many segments a random probe of the whole game touches do not stay in the caches).
    ranked: Box<[u32]>,
    /// Per block, once a probe has walked past its middle: the first code boundary in its
    /// second half (bit) and the values before it, as `bit << MIDPOINT_BIT_SHIFT | values`;
    /// 0 until then. A probe of a value beyond it starts there, so walks half as many codes on
    /// average (kept in memory, 4 bytes a block, for the segments probed; not in the file).
    midpoints: Box<[AtomicU32]>,
}

/// Set in a [`Tables::ranked`] entry whose symbol stands for one code repeated (placement
/// layers); the code is in the two bits below it.
const UNIFORM: u32 = 1 << 31;
/// Where the code of a [`UNIFORM`] entry starts.
const UNIFORM_SHIFT: u32 = 29;

/// Where the bit of a [`Tables::midpoints`] entry starts (below: the values, at most
/// [`MAX_BLOCK_VALUES`]).
const MIDPOINT_BIT_SHIFT: u32 = 17;
/// The values of a [`Tables::midpoints`] entry.
const MIDPOINT_VALUES: u32 = (1 << MIDPOINT_BIT_SHIFT) - 1;

/// One symbol of a segment's dictionary, as a probe needs it: a symbol of at most
/// [`Stored::expanded_values`] values (32 codes or 8 bytes) holds them all (so a probe reads one
/// node, not one a level of the pair tree), a longer one its halves.
#[derive(Clone, Copy, Debug, Default)]
struct Node {
    /// Values the symbol stands for.
    len: u32,
    /// Values held: the low 32 bits of the values (2 or 8 bits each, the first lowest).
    /// Longer: the values its left half stands for.
    low: u32,
    /// Values held: the high 32 bits of the values. Longer: the left half in the low 16 bits,
    /// the right half in the high 16.
    high: u32,
}

impl Node {
    /// A node holding `values` (the first in the lowest bits) of `len` values.
    fn expanded(len: u32, values: u64) -> Node {
        Node {
            len,
            low: values as u32,
            high: (values >> 32) as u32,
        }
    }

    /// The values held (when the node holds them).
    #[inline(always)]
    fn values(self) -> u64 {
        u64::from(self.low) | u64::from(self.high) << 32
    }

    /// The left half's length and the two halves (when the node does not hold its values).
    #[inline(always)]
    fn halves(self) -> (u32, u16, u16) {
        (self.low, self.high as u16, (self.high >> 16) as u16)
    }
}

#[derive(Debug)]
struct Segment {
    start: usize,
    end: usize,
    /// `None` inside when the tables are inconsistent.
    tables: OnceLock<Option<Tables>>,
}

/// One opened compressed layer (placement or movement): its mapped file and the segments'
/// tables.
#[derive(Debug)]
pub struct CompressedLayer {
    /// The file as mapped (header, payload, identity).
    pub mapped: MappedLayer,
    /// What the values are.
    stored: Stored,
    /// Values stored.
    values: u64,
    /// Values per segment.
    segment_values: u64,
    /// Bytes per block (one of [`BLOCK_SIZES`]).
    block_bytes: usize,
    segments: Vec<Segment>,
}

impl CompressedLayer {
    /// Maps a compressed layer file and checks its header and segment directory (not the
    /// payload checksum: see [`super::file::check_and_stamp`]).
    ///
    /// # Errors
    /// [`TablebaseError::NotFound`], [`TablebaseError::Io`] or [`TablebaseError::Corrupt`].
    pub fn open(path: &Path) -> Result<CompressedLayer, TablebaseError> {
        let mapped = map_file(path, COMPRESSED_VERSION)?;
        CompressedLayer::new(mapped).ok_or_else(|| TablebaseError::Corrupt {
            path: path.to_path_buf(),
            reason: Corruption::BadData,
        })
    }

    /// The layer of a mapped file; `None` when its directory is inconsistent.
    pub(crate) fn new(mapped: MappedLayer) -> Option<CompressedLayer> {
        let stored = Stored::of_layer(mapped.header.in_hand);
        let values = stored.values(mapped.header.positions);
        let (segment_values, block_bytes, segments) =
            directory(&mapped.values, values, mapped.version)?;
        Some(CompressedLayer {
            mapped,
            stored,
            values,
            segment_values,
            block_bytes,
            segments,
        })
    }

    /// A layer of `positions` positions a side holding `stored` from a payload in memory, with
    /// a blank header (the built-in values, [`super::builtin`], and tests).
    pub(crate) fn from_payload(
        payload: Vec<u8>,
        positions: u64,
        stored: Stored,
    ) -> Option<CompressedLayer> {
        use super::file::{LayerHeader, LayerValues};
        use super::stamp::FileIdentity;
        CompressedLayer::new(MappedLayer {
            header: LayerHeader {
                rules: super::TableRules::DEFAULT,
                captured: 0,
                in_hand: match stored {
                    Stored::PlacementCodes => 1,
                    Stored::MovementBytes => 0,
                },
                positions,
                counts: [[0; 3]; 2],
            },
            version: COMPRESSED_VERSION,
            values: LayerValues::owned(payload),
            payload_crc: 0,
            identity: FileIdentity {
                len: 0,
                modified: (0, 0),
                changed: (0, 0),
                device: 0,
                inode: 0,
                header_crc: 0,
            },
        })
    }

    /// Bytes per block (one of [`BLOCK_SIZES`]).
    pub fn block_bytes(&self) -> usize {
        self.block_bytes
    }

    /// Blocks whose midpoint a probe has recorded (tests).
    #[cfg(test)]
    pub(crate) fn recorded_midpoints(&self) -> usize {
        let tables = self
            .segments
            .iter()
            .filter_map(|s| s.tables.get()?.as_ref());
        tables
            .flat_map(|t| t.midpoints.iter())
            .filter(|m| m.load(Relaxed) != 0)
            .count()
    }

    /// Checks every segment's tables (a full structural check; `tb verify` and tests).
    ///
    /// # Errors
    /// [`TablebaseError::Corrupt`] with [`Corruption::BadData`] naming `path`.
    pub fn check_tables(&self, path: &Path) -> Result<(), TablebaseError> {
        for index in 0..self.segments.len() {
            if self.tables(index).is_none() {
                return Err(TablebaseError::Corrupt {
                    path: path.to_path_buf(),
                    reason: Corruption::BadData,
                });
            }
        }
        Ok(())
    }

    fn tables(&self, index: usize) -> Option<&Tables> {
        let segment = self.segments.get(index)?;
        let first = index as u64 * self.segment_values;
        let expected = (self.values - first).min(self.segment_values);
        segment
            .tables
            .get_or_init(|| {
                let bytes = self.mapped.values.get(segment.start..segment.end)?;
                read_tables(bytes, expected, self.block_bytes, self.stored)
            })
            .as_ref()
    }

    /// Stored value `at`: the 2-bit code (0 draw, 1 win, 2 loss) of tigers-to-move position
    /// `at` of a placement layer, the value byte at `at` of a movement layer (goats to move,
    /// then tigers to move); `None` when out of range or the data is inconsistent.
    #[inline]
    pub fn code(&self, at: u64) -> Option<u8> {
        let spot = self.locate(at, 0)?;
        let tables = self.tables(spot.segment as usize)?;
        let mut scan = self.block_scan(tables, spot)?;
        scan.value(spot.offset)
    }

    /// The codes of several tigers-to-move positions (`ats`, in any order, repeats allowed),
    /// handed to `visit(i, code)` (`i` the position's place in `ats`) block by block, so that
    /// a block holding several of them is decoded once, up to the last of them (the
    /// placements of one goats-to-move board share its tiger class: they lie in one class's
    /// span of the index). Stops as soon as `visit` returns `false`. `None` when a position is
    /// out of range or the data is inconsistent (some may have been visited by then).
    pub fn codes_of(&self, ats: &[u64], visit: &mut dyn FnMut(usize, u8) -> bool) -> Option<()> {
        const BATCH: usize = 32;
        for (chunk, ats) in ats.chunks(BATCH).enumerate() {
            // In stages, each reading one place per position, so that the memory reads of
            // one stage (sparse index entries, block counts, blocks) are all in flight at
            // once rather than one after another: a probe of a position costs about three
            // reads from memory, and the placements of a board are read with as many.
            let mut spots = [Spot::default(); BATCH];
            for (i, &at) in ats.iter().enumerate() {
                spots[i] = self.sparse_entry(at, (chunk * BATCH + i) as u32)?;
            }
            let spots = &mut spots[..ats.len()];
            let mut touched = 0u8;
            for spot in spots.iter() {
                touched ^= self.count_byte(spot.segment, spot.block);
            }
            for spot in spots.iter_mut() {
                *spot = self.walk(*spot)?;
            }
            spots.sort_unstable();
            for spot in spots.iter() {
                touched ^= self.block_byte(spot.segment, spot.block);
            }
            std::hint::black_box(touched);
            // The blocks, those whose first wanted value comes earliest first: when `visit`
            // stops early, fewer codes were decoded.
            let mut groups = [(0u32, 0u8, 0u8); BATCH];
            let mut group_count = 0;
            let mut start = 0;
            while start < spots.len() {
                let first = spots[start];
                let same = spots[start..]
                    .iter()
                    .take_while(|s| (s.segment, s.block) == (first.segment, first.block))
                    .count();
                groups[group_count] = (first.offset, start as u8, (start + same) as u8);
                group_count += 1;
                start += same;
            }
            let groups = &mut groups[..group_count];
            groups.sort_unstable();
            for &(_, start, end) in groups.iter() {
                let group = &spots[usize::from(start)..usize::from(end)];
                let first = group[0];
                let tables = self.tables(first.segment as usize)?;
                let mut scan = self.block_scan(tables, first)?;
                for spot in group {
                    let code = scan.value(spot.offset)?;
                    if !visit(spot.slot as usize, code) {
                        return Some(());
                    }
                }
            }
        }
        Some(())
    }

    /// Where tigers-to-move position `at` is: its segment, block and offset in the block
    /// (`slot` carried along); `None` when out of range or the data is inconsistent.
    #[inline]
    fn locate(&self, at: u64, slot: u32) -> Option<Spot> {
        self.walk(self.sparse_entry(at, slot)?)
    }

    /// The sparse index entry before tigers-to-move position `at`: a block and an offset from
    /// its start that may lie beyond it (see [`CompressedLayer::walk`]).
    #[inline]
    fn sparse_entry(&self, at: u64, slot: u32) -> Option<Spot> {
        let index = usize::try_from(at / self.segment_values).ok()?;
        let (tables, bytes) = self.segment_base(index)?;
        let local = (at % self.segment_values) as u32;
        if local >= tables.values {
            return None;
        }
        let entry = tables.sparse + 8 * (local >> tables.span_log2) as usize;
        let block = le_u32(bytes, entry)?;
        let offset =
            le_u32(bytes, entry + 4)?.checked_add(local & ((1 << tables.span_log2) - 1))?;
        Some(Spot {
            segment: u32::try_from(index).ok()?,
            block,
            offset,
            slot,
        })
    }

    /// `spot` with its offset brought inside its block, walking the block counts forward.
    #[inline]
    fn walk(&self, mut spot: Spot) -> Option<Spot> {
        let (tables, bytes) = self.segment_base(spot.segment as usize)?;
        loop {
            if spot.block >= tables.block_count {
                return None;
            }
            let count = u32::from(le_u16(bytes, tables.counts + 2 * spot.block as usize)?) + 1;
            if spot.offset < count {
                return Some(spot);
            }
            spot.offset -= count;
            spot.block += 1;
        }
    }

    /// The tables of segment `index` and its bytes; `None` when out of range or inconsistent.
    #[inline]
    fn segment_base(&self, index: usize) -> Option<(&Tables, &[u8])> {
        let tables = self.tables(index)?;
        let segment = self.segments.get(index)?;
        Some((tables, self.mapped.values.get(segment.start..segment.end)?))
    }

    /// A byte of the count of `block` (0 when out of bounds): read only to have it fetched.
    #[inline]
    fn count_byte(&self, segment: u32, block: u32) -> u8 {
        self.segment_base(segment as usize)
            .and_then(|(tables, bytes)| bytes.get(tables.counts + 2 * block as usize).copied())
            .unwrap_or(0)
    }

    /// The first and last bytes of `block` (0 when out of bounds): read only to have the
    /// block fetched (it may straddle two cache lines).
    #[inline]
    fn block_byte(&self, segment: u32, block: u32) -> u8 {
        let Some((tables, bytes)) = self.segment_base(segment as usize) else {
            return 0;
        };
        let at = tables.blocks + self.block_bytes * block as usize;
        bytes.get(at).copied().unwrap_or(0)
            ^ bytes.get(at + self.block_bytes - 1).copied().unwrap_or(0)
    }

    /// A reader of the symbols of the block of `spot`, from its midpoint when that is known
    /// and `spot` lies beyond it.
    #[inline]
    fn block_scan<'a>(&self, tables: &'a Tables, spot: Spot) -> Option<BlockScan<'a>> {
        let segment = self.segments.get(spot.segment as usize)?;
        let at = segment.start + tables.blocks + self.block_bytes * spot.block as usize;
        let block = self.mapped.values.get(at..at + self.block_bytes)?;
        let midpoint = tables.midpoints.get(spot.block as usize)?;
        let mut scan = BlockScan {
            reader: BlockReader::new(block),
            tables,
            symbol: 0,
            uniform: 0,
            len: 0,
            before: 0,
            midpoint: Some(midpoint),
            half: 4 * self.block_bytes as u32,
        };
        let known = midpoint.load(Relaxed);
        if known != 0 {
            scan.midpoint = None;
            let values = known & MIDPOINT_VALUES;
            if spot.offset >= values {
                scan.reader.seek(known >> MIDPOINT_BIT_SHIFT)?;
                scan.before = values;
            }
        }
        Some(scan)
    }

    /// Every tigers-to-move code of a placement layer, packed four to a byte as in the
    /// uncompressed files; `None` when the data is inconsistent.
    pub fn decode_all(&self) -> Option<Vec<u8>> {
        let mut out = vec![0u8; usize::try_from(self.values.div_ceil(4)).ok()?];
        let mut at = 0u64;
        self.decode_each(&mut |value| {
            let byte = out.get_mut((at >> 2) as usize)?;
            *byte |= (value & 3) << ((at & 3) * 2);
            at += 1;
            Some(())
        })?;
        Some(out)
    }

    /// Every value byte of a movement layer, goats to move then tigers to move, as in the
    /// uncompressed file's payload; `None` when the data is inconsistent.
    pub fn decode_bytes(&self) -> Option<Vec<u8>> {
        // (Grown as decoded, at most 2^26 reserved: a damaged header cannot ask for more.)
        let mut out = Vec::with_capacity(usize::try_from(self.values.min(1 << 26)).ok()?);
        self.decode_each(&mut |value| {
            out.push(value);
            Some(())
        })?;
        Some(out)
    }

    /// Hands every stored value to `put`, in order; `None` when the data is inconsistent (or
    /// `put` answered `None`).
    fn decode_each(&self, put: &mut dyn FnMut(u8) -> Option<()>) -> Option<()> {
        let bits = self.stored.value_bits();
        let mask = (1u64 << bits) - 1;
        let expanded = self.stored.expanded_values();
        let mut decoded = 0u64;
        let mut stack = Vec::new();
        for index in 0..self.segments.len() {
            let (tables, bytes) = self.segment_base(index)?;
            for block in 0..tables.block_count as usize {
                let count = u32::from(le_u16(bytes, tables.counts + 2 * block)?) + 1;
                let start = tables.blocks + self.block_bytes * block;
                let mut reader = BlockReader::new(bytes.get(start..start + self.block_bytes)?);
                let mut left = count;
                while left > 0 {
                    let symbol = reader.next(&tables.code)?;
                    let len = tables.nodes.get(usize::from(symbol))?.len;
                    left = left.checked_sub(len)?;
                    stack.push(symbol);
                    while let Some(symbol) = stack.pop() {
                        let node = *tables.nodes.get(usize::from(symbol))?;
                        if node.len <= expanded {
                            for i in 0..node.len {
                                put((node.values() >> (bits * i) & mask) as u8)?;
                            }
                            decoded += u64::from(node.len);
                        } else {
                            let (_, left, right) = node.halves();
                            stack.push(right);
                            stack.push(left);
                        }
                    }
                }
            }
        }
        (decoded == self.values).then_some(())
    }
}

/// The values per segment, bytes per block and the segments of a payload of format `version`:
/// its directory (values per segment, bytes per block, then one `u64` offset per segment)
/// checked.
fn directory(payload: &[u8], values: u64, version: u32) -> Option<(u64, usize, Vec<Segment>)> {
    let segment_values = u64::from(le_u32(payload, 0)?);
    let block_bytes = usize::try_from(le_u32(payload, 4)?).ok()?;
    // Version 2 has 0 there (reserved) and 64-byte blocks.
    let block_bytes = match (version, block_bytes) {
        (COMPRESSED_VERSION_2, 0) => BLOCK_BYTES,
        (COMPRESSED_VERSION, bytes) if BLOCK_SIZES.contains(&bytes) => bytes,
        _ => return None,
    };
    if segment_values == 0 {
        return None;
    }
    let count = usize::try_from(values.div_ceil(segment_values)).ok()?;
    let table_end = count.checked_mul(8)?.checked_add(8)?;
    if payload.len() < table_end {
        return None;
    }
    let mut segments = Vec::with_capacity(count);
    for index in 0..count {
        let start = usize::try_from(u64_at(payload, 8 + 8 * index)).ok()?;
        let end = if index + 1 < count {
            usize::try_from(u64_at(payload, 8 + 8 * (index + 1))).ok()?
        } else {
            payload.len()
        };
        if start < table_end || end < start || end > payload.len() {
            return None;
        }
        segments.push(Segment {
            start,
            end,
            tables: OnceLock::new(),
        });
    }
    Some((segment_values, block_bytes, segments))
}

/// Reads and checks one segment's tables: the alphabet is the one of `stored`, the counts fit
/// the lengths, every pair refers to earlier symbols, the code is a prefix code, the block
/// counts add up to the values and every sparse index entry points where its values really are.
fn read_tables(
    bytes: &[u8],
    expected_values: u64,
    block_bytes: usize,
    stored: Stored,
) -> Option<Tables> {
    let values = le_u32(bytes, 0)?;
    let symbols = usize::from(le_u16(bytes, 4)?);
    let span_log2 = match u32::from(le_u16(bytes, 6)?) {
        0 => MIN_SPAN_LOG2,
        log2 => log2,
    };
    let block_count = le_u32(bytes, 8)?;
    let alphabet = stored.alphabet();
    if u64::from(values) != expected_values
        || le_u32(bytes, 12)? != stored.alphabet_field()
        || !(alphabet..=MAX_SYMBOLS).contains(&symbols)
        || !(MIN_SPAN_LOG2..=MAX_SPAN_LOG2).contains(&span_log2)
    {
        return None;
    }
    let span = 1u32 << span_log2;
    let pairs = SEGMENT_HEADER;
    let lengths = pairs + 4 * (symbols - alphabet);
    let sparse = lengths + symbols;
    let counts = sparse + 8 * values.div_ceil(span) as usize;
    let blocks = counts + 2 * block_count as usize;
    if bytes.len() != blocks + block_bytes * block_count as usize {
        return None;
    }
    let (bits, expanded) = (stored.value_bits(), stored.expanded_values());
    let mut nodes: Vec<Node> = (0..alphabet as u64)
        .map(|value| Node::expanded(1, value))
        .collect();
    nodes.resize(symbols, Node::default());
    // Per symbol, the one value it repeats, if it does.
    let mut repeats: Vec<Option<u8>> = (0..alphabet)
        .map(|value| u8::try_from(value).ok())
        .collect();
    repeats.resize(symbols, None);
    for symbol in alphabet..symbols {
        let left = le_u16(bytes, pairs + 4 * (symbol - alphabet))?;
        let right = le_u16(bytes, pairs + 4 * (symbol - alphabet) + 2)?;
        if usize::from(left) >= symbol || usize::from(right) >= symbol {
            return None;
        }
        let (left_node, right_node) = (nodes[usize::from(left)], nodes[usize::from(right)]);
        let left_len = left_node.len;
        let len = left_len + right_node.len;
        let (left_repeats, right_repeats) =
            (repeats[usize::from(left)], repeats[usize::from(right)]);
        if left_repeats == right_repeats {
            repeats[symbol] = left_repeats;
        }
        if len > MAX_BLOCK_VALUES {
            return None;
        }
        nodes[symbol] = if len <= expanded {
            Node::expanded(
                len,
                left_node.values() | right_node.values() << (bits * left_len),
            )
        } else {
            Node {
                len,
                low: left_len,
                high: u32::from(left) | u32::from(right) << 16,
            }
        };
    }
    let code = CodeTable::new(bytes.get(lengths..sparse)?)?;
    let ranked = code
        .sorted()
        .iter()
        .map(|&symbol| {
            let entry = nodes[usize::from(symbol)].len << 12 | u32::from(symbol);
            match repeats[usize::from(symbol)] {
                Some(code) if bits == 2 => entry | UNIFORM | u32::from(code) << UNIFORM_SHIFT,
                _ => entry,
            }
        })
        .collect();
    let mut before = 0u64;
    let mut next_entry = 0u32;
    for block in 0..block_count {
        let count = u64::from(le_u16(bytes, counts + 2 * block as usize)?) + 1;
        while u64::from(next_entry) * u64::from(span) < before + count {
            let entry = sparse + 8 * next_entry as usize;
            let offset = u64::from(next_entry) * u64::from(span) - before;
            if le_u32(bytes, entry)? != block || u64::from(le_u32(bytes, entry + 4)?) != offset {
                return None;
            }
            next_entry += 1;
        }
        before += count;
    }
    if before != u64::from(values) || next_entry != values.div_ceil(span) {
        return None;
    }
    Some(Tables {
        values,
        sparse,
        counts,
        blocks,
        block_count,
        span_log2,
        stored,
        nodes,
        code,
        ranked,
        midpoints: (0..block_count).map(|_| AtomicU32::new(0)).collect(),
    })
}

/// Where a tigers-to-move value is: segment, block, offset in the block (the order of
/// decoding), and the caller's number for it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
struct Spot {
    segment: u32,
    block: u32,
    offset: u32,
    slot: u32,
}

/// The symbols of one block, each with the number of values it stands for.
struct BlockScan<'a> {
    reader: BlockReader,
    tables: &'a Tables,
    /// The symbol read last, its number of values, and the values before it in the block.
    symbol: u16,
    len: u32,
    before: u32,
    /// The symbol's [`UNIFORM`] bit and code (0 if it does not repeat one code).
    uniform: u32,
    /// The block's entry in [`Tables::midpoints`] while it is still to be recorded.
    midpoint: Option<&'a AtomicU32>,
    /// Half the block's bits.
    half: u32,
}

impl BlockScan<'_> {
    /// The symbol holding the value at `offset` in the block (at or after the last one
    /// found), and the offset in it; `None` past the block's end or on a bad code.
    #[inline(always)]
    fn find(&mut self, offset: u32) -> Option<(u16, u32)> {
        while offset >= self.before + self.len {
            self.before += self.len;
            (self.symbol, self.len, self.uniform) = self.next()?;
            if let Some(midpoint) = self.midpoint {
                if self.reader.read >= self.half {
                    // The first code boundary in the second half, and the values before it.
                    let values = self.before + self.len;
                    midpoint.store(self.reader.read << MIDPOINT_BIT_SHIFT | values, Relaxed);
                    self.midpoint = None;
                }
            }
        }
        Some((self.symbol, offset - self.before))
    }

    /// The next symbol, its number of values and its [`UNIFORM`] bits; `None` past the
    /// block's end or on a bad code.
    #[inline(always)]
    fn next(&mut self) -> Option<(u16, u32, u32)> {
        let window = self.reader.window()?;
        let (rank, code_len) = self.tables.code.rank(window)?;
        self.reader.advance(u32::from(code_len))?;
        let entry = *self.tables.ranked.get(rank)?;
        let uniform = entry & (UNIFORM | 3 << UNIFORM_SHIFT);
        Some(((entry & 0xfff) as u16, (entry & !uniform) >> 12, uniform))
    }

    /// The value at `offset` in the block (at or after the last one found); `None` past the
    /// block's end or on inconsistent data.
    #[inline(always)]
    fn value(&mut self, offset: u32) -> Option<u8> {
        let (symbol, offset) = self.find(offset)?;
        if self.uniform != 0 {
            return Some((self.uniform >> UNIFORM_SHIFT & 3) as u8);
        }
        descend(self.tables, symbol, offset)
    }
}

/// The value at `offset` (below the symbol's length) in the expansion of `symbol`.
#[inline]
fn descend(tables: &Tables, mut symbol: u16, mut offset: u32) -> Option<u8> {
    let (bits, expanded) = (tables.stored.value_bits(), tables.stored.expanded_values());
    let mask = (1u64 << bits) - 1;
    // Halves are earlier symbols (checked when the tables are read), so this ends.
    loop {
        let node = *tables.nodes.get(usize::from(symbol))?;
        if offset >= node.len {
            return None;
        }
        if node.len <= expanded {
            return Some((node.values() >> (bits * offset) & mask) as u8);
        }
        let (left_len, left, right) = node.halves();
        if offset < left_len {
            symbol = left;
        } else {
            offset -= left_len;
            symbol = right;
        }
    }
}

/// Reads Huffman codes from one block (of up to [`BLOCK_BYTES`] bytes), most significant bit
/// first, through a 64-bit buffer refilled 32 bits at a time (so the next code's bits are one
/// shift away from the last one's: decoding a block is a chain of table reads).
struct BlockReader {
    /// The block as big-endian 32-bit words, and zero words (the bits past the block).
    words: [u32; BLOCK_BYTES / 4 + 1],
    /// Bits in the block.
    bits: u32,
    /// The next word to load into `buffer`.
    next: usize,
    /// Bits not yet read, left-justified.
    buffer: u64,
    /// Bits held in `buffer` (at least 32 after [`BlockReader::window`]).
    held: u32,
    /// Bits read so far.
    read: u32,
}

impl BlockReader {
    fn new(block: &[u8]) -> BlockReader {
        let mut words = [0u32; BLOCK_BYTES / 4 + 1];
        for (word, bytes) in words.iter_mut().zip(block.chunks_exact(4)) {
            *word = u32::from_be_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]);
        }
        BlockReader {
            buffer: u64::from(words[0]) << 32 | u64::from(words[1]),
            words,
            bits: 8 * block.len().min(BLOCK_BYTES) as u32,
            next: 2,
            held: 64,
            read: 0,
        }
    }

    /// The next symbol; `None` past the block's end or on a bad code.
    #[inline]
    fn next(&mut self, code: &CodeTable) -> Option<u16> {
        let (symbol, len) = code.decode(self.window()?)?;
        self.advance(u32::from(len))?;
        Some(symbol)
    }

    /// The next 32 bits, left-justified (zeros past the block); `None` at the block's end.
    #[inline(always)]
    fn window(&mut self) -> Option<u32> {
        if self.read >= self.bits {
            return None;
        }
        if self.held < 32 {
            let word = self.words.get(self.next).copied().unwrap_or(0);
            self.buffer |= u64::from(word) << (32 - self.held);
            self.held += 32;
            self.next += 1;
        }
        Some((self.buffer >> 32) as u32)
    }

    /// Moves to bit `bit` of the block (a code boundary); `None` past its end.
    #[inline]
    fn seek(&mut self, bit: u32) -> Option<()> {
        if bit > self.bits {
            return None;
        }
        let (word, shift) = ((bit / 32) as usize, bit % 32);
        let word_at = |i: usize| u64::from(self.words.get(i).copied().unwrap_or(0));
        self.buffer = (word_at(word) << 32 | word_at(word + 1)) << shift;
        self.held = 64 - shift;
        self.next = word + 2;
        self.read = bit;
        Some(())
    }

    /// Moves past a code of `len` bits (at most 32, after [`BlockReader::window`]); `None`
    /// when it ran past the block's end.
    #[inline(always)]
    fn advance(&mut self, len: u32) -> Option<()> {
        self.held = self.held.checked_sub(len)?;
        self.buffer = self.buffer.checked_shl(len)?;
        self.read += len;
        (self.read <= self.bits).then_some(())
    }
}

/// The little-endian `u32` at `at`, if in bounds.
#[inline]
fn le_u32(bytes: &[u8], at: usize) -> Option<u32> {
    bytes.get(at..at.checked_add(4)?).map(|b| u32_at(b, 0))
}

/// The little-endian `u16` at `at`, if in bounds.
#[inline]
fn le_u16(bytes: &[u8], at: usize) -> Option<u16> {
    let b = bytes.get(at..at.checked_add(2)?)?;
    Some(u16::from_le_bytes([b[0], b[1]]))
}
