//! Compressed placement layers (format version 2, `place-HH-C.bctz`; docs/tablebase.md,
//! "Compressed placement layers"): only the tigers-to-move values are stored (a goats-to-move
//! value is the best of its placements, each a tigers-to-move position one goat in hand lower),
//! cut into segments of [`SEGMENT_VALUES`] values. A segment is coded with its own pair
//! dictionary (Re-Pair: each symbol above 2 stands for a pair of earlier symbols, so for a run
//! of values) and a canonical Huffman code, in 64-byte blocks that each hold whole symbols;
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

use super::file::{map_file, u32_at, u64_at, MappedLayer, COMPRESSED_VERSION};
use super::{Corruption, TablebaseError};
use huffman::CodeTable;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// Values per segment written by `tb compress` (the last one may be shorter; the file says).
pub const SEGMENT_VALUES: u32 = 1 << 24;
/// Fewest values between two entries of a segment's sparse block index, as a power of two (the
/// span of every segment written before spans were chosen per segment).
pub const MIN_SPAN_LOG2: u32 = 12;
/// Most values between two entries of a sparse block index, as a power of two.
pub const MAX_SPAN_LOG2: u32 = 24;
/// Bytes per block.
pub const BLOCK_BYTES: usize = 64;
/// Most values in one block (its count is stored as a `u16`, minus one).
pub const MAX_BLOCK_VALUES: u32 = 1 << 16;
/// Most symbols of a segment's dictionary (3 values and the pairs).
pub const MAX_SYMBOLS: usize = 4096;
/// Bytes of a segment's fixed header.
pub const SEGMENT_HEADER: usize = 16;

/// The file name of a compressed placement layer.
pub fn compressed_path(dir: &Path, in_hand: u8, captured: u8) -> PathBuf {
    dir.join(format!("place-{in_hand:02}-{captured}.bctz"))
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
    /// Per symbol: its halves and lengths, so a probe reads one entry per level of the pair
    /// tree.
    nodes: Vec<Node>,
    code: CodeTable,
}

/// One symbol of a segment's dictionary, as a probe needs it.
#[derive(Clone, Copy, Debug, Default)]
struct Node {
    /// Values the symbol stands for.
    len: u32,
    /// Values its left half stands for (0 for the three value symbols).
    left_len: u32,
    /// Its left and right halves (both 0 for the three value symbols).
    left: u16,
    right: u16,
}

#[derive(Debug)]
struct Segment {
    start: usize,
    end: usize,
    /// `None` inside when the tables are inconsistent.
    tables: OnceLock<Option<Tables>>,
}

/// One opened compressed placement layer: its mapped file and the segments' tables.
#[derive(Debug)]
pub struct CompressedLayer {
    /// The file as mapped (header, payload, identity).
    pub mapped: MappedLayer,
    /// Values per segment.
    segment_values: u64,
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
        let (segment_values, segments) = directory(&mapped.values, mapped.header.positions)?;
        Some(CompressedLayer {
            mapped,
            segment_values,
            segments,
        })
    }

    /// A layer of `positions` values from a payload in memory, with a blank header (tests).
    #[cfg(test)]
    pub(crate) fn from_payload(payload: Vec<u8>, positions: u64) -> Option<CompressedLayer> {
        use super::file::{LayerHeader, LayerValues};
        use super::stamp::FileIdentity;
        CompressedLayer::new(MappedLayer {
            header: LayerHeader {
                rules: super::TableRules::DEFAULT,
                captured: 0,
                in_hand: 1,
                positions,
                counts: [[0; 3]; 2],
            },
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
        let expected = (self.mapped.header.positions - first).min(self.segment_values);
        segment
            .tables
            .get_or_init(|| {
                let bytes = self.mapped.values.get(segment.start..segment.end)?;
                read_tables(bytes, expected)
            })
            .as_ref()
    }

    /// The 2-bit code (0 draw, 1 win, 2 loss) of tigers-to-move position `at`; `None` when
    /// out of range or the data is inconsistent.
    #[inline]
    pub fn code(&self, at: u64) -> Option<u8> {
        let index = usize::try_from(at / self.segment_values).ok()?;
        let tables = self.tables(index)?;
        let segment = &self.segments[index];
        let bytes = self.mapped.values.get(segment.start..segment.end)?;
        let local = (at % self.segment_values) as u32;
        if local >= tables.values {
            return None;
        }
        let entry = tables.sparse + 8 * (local >> tables.span_log2) as usize;
        let mut block = le_u32(bytes, entry)?;
        let mut offset = le_u32(bytes, entry + 4)? + (local & ((1 << tables.span_log2) - 1));
        loop {
            if block >= tables.block_count {
                return None;
            }
            let count = u32::from(le_u16(bytes, tables.counts + 2 * block as usize)?) + 1;
            if offset < count {
                break;
            }
            offset -= count;
            block += 1;
        }
        let at = tables.blocks + BLOCK_BYTES * block as usize;
        let block_bytes = bytes.get(at..at + BLOCK_BYTES)?;
        let mut reader = BlockReader::new(block_bytes);
        loop {
            let symbol = reader.next(&tables.code)?;
            let len = tables.nodes.get(usize::from(symbol))?.len;
            if offset < len {
                return descend(&tables.nodes, symbol, offset);
            }
            offset -= len;
        }
    }

    /// Every tigers-to-move code, packed four to a byte as in the uncompressed files; `None`
    /// when the data is inconsistent.
    pub fn decode_all(&self) -> Option<Vec<u8>> {
        let positions = self.mapped.header.positions;
        let mut out = vec![0u8; usize::try_from(positions.div_ceil(4)).ok()?];
        let mut at = 0u64;
        let mut stack = Vec::new();
        for index in 0..self.segments.len() {
            let tables = self.tables(index)?;
            let segment = &self.segments[index];
            let bytes = self.mapped.values.get(segment.start..segment.end)?;
            for block in 0..tables.block_count as usize {
                let count = u32::from(le_u16(bytes, tables.counts + 2 * block)?) + 1;
                let start = tables.blocks + BLOCK_BYTES * block;
                let mut reader = BlockReader::new(bytes.get(start..start + BLOCK_BYTES)?);
                let mut left = count;
                while left > 0 {
                    let symbol = reader.next(&tables.code)?;
                    let len = tables.nodes.get(usize::from(symbol))?.len;
                    left = left.checked_sub(len)?;
                    stack.push(symbol);
                    while let Some(symbol) = stack.pop() {
                        if symbol < 3 {
                            let byte = out.get_mut((at >> 2) as usize)?;
                            *byte |= (symbol as u8) << ((at & 3) * 2);
                            at += 1;
                        } else {
                            let node = tables.nodes.get(usize::from(symbol))?;
                            stack.push(node.right);
                            stack.push(node.left);
                        }
                    }
                }
            }
        }
        (at == positions).then_some(out)
    }
}

/// The values per segment and the segments of a payload: its directory (values per segment,
/// then one `u64` offset per segment) checked.
fn directory(payload: &[u8], positions: u64) -> Option<(u64, Vec<Segment>)> {
    let segment_values = u64::from(le_u32(payload, 0)?);
    if segment_values == 0 || le_u32(payload, 4)? != 0 {
        return None;
    }
    let count = usize::try_from(positions.div_ceil(segment_values)).ok()?;
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
    Some((segment_values, segments))
}

/// Reads and checks one segment's tables: the counts fit the lengths, every pair refers to
/// earlier symbols, the code is a prefix code, the block counts add up to the values and every
/// sparse index entry points where its values really are.
fn read_tables(bytes: &[u8], expected_values: u64) -> Option<Tables> {
    let values = le_u32(bytes, 0)?;
    let symbols = usize::from(le_u16(bytes, 4)?);
    let span_log2 = match u32::from(le_u16(bytes, 6)?) {
        0 => MIN_SPAN_LOG2,
        log2 => log2,
    };
    let block_count = le_u32(bytes, 8)?;
    if u64::from(values) != expected_values
        || !(3..=MAX_SYMBOLS).contains(&symbols)
        || !(MIN_SPAN_LOG2..=MAX_SPAN_LOG2).contains(&span_log2)
    {
        return None;
    }
    let span = 1u32 << span_log2;
    let pairs = SEGMENT_HEADER;
    let lengths = pairs + 4 * (symbols - 3);
    let sparse = lengths + symbols;
    let counts = sparse + 8 * values.div_ceil(span) as usize;
    let blocks = counts + 2 * block_count as usize;
    if bytes.len() != blocks + BLOCK_BYTES * block_count as usize {
        return None;
    }
    let leaf = Node {
        len: 1,
        ..Node::default()
    };
    let mut nodes = vec![leaf; symbols];
    for symbol in 3..symbols {
        let left = le_u16(bytes, pairs + 4 * (symbol - 3))?;
        let right = le_u16(bytes, pairs + 4 * (symbol - 3) + 2)?;
        if usize::from(left) >= symbol || usize::from(right) >= symbol {
            return None;
        }
        let left_len = nodes[usize::from(left)].len;
        let len = left_len + nodes[usize::from(right)].len;
        if len > MAX_BLOCK_VALUES {
            return None;
        }
        nodes[symbol] = Node {
            len,
            left_len,
            left,
            right,
        };
    }
    let code = CodeTable::new(bytes.get(lengths..sparse)?)?;
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
        nodes,
        code,
    })
}

/// The value at `offset` (below the symbol's length) in the expansion of `symbol`.
#[inline]
fn descend(nodes: &[Node], mut symbol: u16, mut offset: u32) -> Option<u8> {
    // Halves are earlier symbols (checked when the tables are read), so this ends.
    while symbol >= 3 {
        let node = nodes.get(usize::from(symbol))?;
        if offset < node.left_len {
            symbol = node.left;
        } else {
            offset -= node.left_len;
            symbol = node.right;
        }
    }
    Some(symbol as u8)
}

/// Reads Huffman codes from one 64-byte block, most significant bit first.
struct BlockReader {
    /// The block and 8 zero bytes, so a window can be read at any bit.
    bytes: [u8; BLOCK_BYTES + 8],
    bit: usize,
}

impl BlockReader {
    fn new(block: &[u8]) -> BlockReader {
        let mut bytes = [0u8; BLOCK_BYTES + 8];
        let len = block.len().min(BLOCK_BYTES);
        bytes[..len].copy_from_slice(&block[..len]);
        BlockReader { bytes, bit: 0 }
    }

    /// The next symbol; `None` past the block's end or on a bad code.
    #[inline]
    fn next(&mut self, code: &CodeTable) -> Option<u16> {
        let byte = self.bit / 8;
        if byte >= BLOCK_BYTES {
            return None;
        }
        let word = u64::from_be_bytes(self.bytes[byte..byte + 8].try_into().ok()?);
        let window = ((word << (self.bit % 8)) >> 32) as u32;
        let (symbol, len) = code.decode(window)?;
        self.bit += usize::from(len);
        (self.bit <= 8 * BLOCK_BYTES).then_some(symbol)
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
