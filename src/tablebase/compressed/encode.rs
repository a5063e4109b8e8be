//! Writing compressed sides: don't-care values filled, a pair dictionary per segment (Re-Pair),
//! Huffman codes, blocks of 32 or 64 bytes and the sparse block index (layout in docs/tablebase.md).

use super::huffman::{code_lengths, codes};
use super::{Stored, SEGMENT_HEADER};
use super::{BLOCK_BYTES, MAX_BLOCK_VALUES, MAX_SPAN_LOG2, MAX_SYMBOLS, MIN_SPAN_LOG2};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;

/// A pair is given a symbol only when it occurs at least this often (a dictionary entry costs
/// 5 bytes).
const MIN_PAIR_COUNT: u32 = 12;
/// Blocks a probe walks at most on average from a sparse index entry (the span is chosen per
/// segment so that it covers about twice this many blocks).
const SPAN_BLOCKS: u64 = 4;
/// Most pairs given symbols in one pass over the sequence.
const PAIRS_PER_PASS: usize = 32;

/// Adjacent pairs counted at a time: the sort's buffers hold 8 bytes a pair of one chunk, not of
/// the whole segment (docs/tablebase.md, "Seventh pass").
const COUNT_CHUNK: usize = 1 << 22;

/// Scratch buffers of the pair search, reused from segment to segment.
#[derive(Default)]
struct Scratch {
    /// The adjacent pairs of one chunk of the sequence as `a << 12 | b`, sorted.
    keys: Vec<u32>,
    /// The other buffer of the radix sort.
    sorted: Vec<u32>,
    /// Each distinct pair of the sequence and its count, by key.
    totals: Vec<(u32, u32)>,
    /// The other buffer of the merge into `totals`.
    merged: Vec<(u32, u32)>,
}

/// Bits of a symbol in a pair key.
const SYMBOL_BITS: u32 = 12;

/// Compresses the values of a layer: `code(i)` is value `i` (0..`positions`: a 2-bit code of a
/// placement layer's tigers to move, or a movement layer's value byte, as `stored` says), `None`
/// for a don't-care position (any value may be stored), in segments of
/// `segment_values` values ([`super::SEGMENT_VALUES`] in files), in blocks of `block_bytes` (one
/// of [`super::BLOCK_SIZES`]), coded on `threads` threads (the output does not depend on their
/// number). Returns the payload (segment size, block size and directory, then segments).
/// `progress(done)` is called after each segment.
pub fn encode_side(
    positions: u64,
    stored: Stored,
    segment_values: u32,
    block_bytes: usize,
    threads: usize,
    code: &(dyn Fn(u64) -> Option<u8> + Sync),
    progress: &(dyn Fn(u64) + Sync),
) -> Vec<u8> {
    let segment_values = u64::from(segment_values.max(1));
    let count = positions.div_ceil(segment_values) as usize;
    let next = AtomicUsize::new(0);
    let done = AtomicU64::new(0);
    let coded = Mutex::new(vec![Vec::new(); count]);
    std::thread::scope(|scope| {
        for _ in 0..threads.clamp(1, count.max(1)) {
            scope.spawn(|| {
                let mut scratch = Scratch::default();
                loop {
                    let segment = next.fetch_add(1, Ordering::Relaxed);
                    if segment >= count {
                        break;
                    }
                    let first = segment as u64 * segment_values;
                    let end = (first + segment_values).min(positions);
                    let mut previous = 0u8;
                    let sequence: Vec<u16> = (first..end)
                        .map(|at| {
                            // A don't-care value repeats its predecessor: runs grow, pairs
                            // repeat.
                            previous = code(at).unwrap_or(previous);
                            u16::from(previous)
                        })
                        .collect();
                    let mut out = Vec::new();
                    encode_segment(sequence, stored, block_bytes, &mut scratch, &mut out);
                    coded.lock().unwrap_or_else(|e| e.into_inner())[segment] = out;
                    progress(done.fetch_add(end - first, Ordering::Relaxed) + end - first);
                }
            });
        }
    });
    let coded = coded.into_inner().unwrap_or_else(|e| e.into_inner());
    let mut payload = vec![0u8; 8 + 8 * count];
    payload[0..4].copy_from_slice(&(segment_values as u32).to_le_bytes());
    payload[4..8].copy_from_slice(&(block_bytes as u32).to_le_bytes());
    for (segment, bytes) in coded.iter().enumerate() {
        let offset = payload.len() as u64;
        payload[8 + 8 * segment..16 + 8 * segment].copy_from_slice(&offset.to_le_bytes());
        payload.extend_from_slice(bytes);
    }
    payload
}

/// Appends one coded segment of `sequence` (values of `stored`) to `out`.
fn encode_segment(
    mut sequence: Vec<u16>,
    stored: Stored,
    block_bytes: usize,
    scratch: &mut Scratch,
    out: &mut Vec<u8>,
) {
    assert!(
        super::BLOCK_SIZES.contains(&block_bytes),
        "block size {block_bytes}"
    );
    let values = sequence.len() as u32;
    let alphabet = stored.alphabet();
    let (pairs, lens) = pair_dictionary(&mut sequence, alphabet, scratch);
    let symbols = alphabet + pairs.len();
    let mut frequencies = vec![0u64; symbols];
    for &symbol in &sequence {
        frequencies[usize::from(symbol)] += 1;
    }
    let lengths = code_lengths(&frequencies);
    let codes = codes(&lengths);
    // Blocks: whole symbols, at most 8 * block_bytes bits and MAX_BLOCK_VALUES values each.
    let mut blocks: Vec<u8> = Vec::new();
    let mut block_counts: Vec<u16> = Vec::new();
    let mut writer = BlockWriter::default();
    let close = |writer: &mut BlockWriter, blocks: &mut Vec<u8>, counts: &mut Vec<u16>| {
        counts.push((writer.values - 1) as u16);
        blocks.extend_from_slice(&writer.bytes[..block_bytes]);
        *writer = BlockWriter::default();
    };
    for &symbol in &sequence {
        let (len, code) = (lengths[usize::from(symbol)], codes[usize::from(symbol)]);
        let values = lens[usize::from(symbol)];
        if writer.bits + usize::from(len) > 8 * block_bytes
            || writer.values + values > MAX_BLOCK_VALUES
        {
            close(&mut writer, &mut blocks, &mut block_counts);
        }
        writer.push(code, len, values);
    }
    if writer.values > 0 {
        close(&mut writer, &mut blocks, &mut block_counts);
    }
    // The sparse index: a span of about 2 * SPAN_BLOCKS blocks' values (a probe walks half a
    // span's block counts on average, all in a cache line or two).
    let per_block = u64::from(values) / block_counts.len().max(1) as u64;
    let span_log2 = (2 * SPAN_BLOCKS * per_block)
        .max(1)
        .ilog2()
        .clamp(MIN_SPAN_LOG2, MAX_SPAN_LOG2);
    let span = 1u64 << span_log2;
    let mut sparse: Vec<(u32, u32)> = Vec::new();
    let mut before = 0u64;
    for (block, &count) in block_counts.iter().enumerate() {
        let count = u64::from(count) + 1;
        while sparse.len() as u64 * span < before + count {
            let offset = sparse.len() as u64 * span - before;
            sparse.push((block as u32, offset as u32));
        }
        before += count;
    }
    debug_assert_eq!(before, u64::from(values));
    out.extend_from_slice(&values.to_le_bytes());
    out.extend_from_slice(&(symbols as u16).to_le_bytes());
    out.extend_from_slice(&(span_log2 as u16).to_le_bytes());
    out.extend_from_slice(&(block_counts.len() as u32).to_le_bytes());
    out.extend_from_slice(&stored.alphabet_field().to_le_bytes());
    const { assert!(SEGMENT_HEADER == 16) };
    for (left, right) in &pairs {
        out.extend_from_slice(&left.to_le_bytes());
        out.extend_from_slice(&right.to_le_bytes());
    }
    out.extend_from_slice(&lengths);
    for (block, offset) in sparse {
        out.extend_from_slice(&block.to_le_bytes());
        out.extend_from_slice(&offset.to_le_bytes());
    }
    for count in block_counts {
        out.extend_from_slice(&count.to_le_bytes());
    }
    out.extend_from_slice(&blocks);
}

/// One block being filled.
struct BlockWriter {
    bytes: [u8; BLOCK_BYTES],
    bits: usize,
    values: u32,
}

impl Default for BlockWriter {
    fn default() -> BlockWriter {
        BlockWriter {
            bytes: [0; BLOCK_BYTES],
            bits: 0,
            values: 0,
        }
    }
}

impl BlockWriter {
    fn push(&mut self, code: u32, len: u8, values: u32) {
        for i in (0..len).rev() {
            if code >> i & 1 != 0 {
                self.bytes[self.bits / 8] |= 0x80 >> (self.bits % 8);
            }
            self.bits += 1;
        }
        self.values += values;
    }
}

/// Replaces frequent adjacent pairs of symbols (the first `alphabet` of them values) by new
/// symbols until the dictionary is full or no pair is frequent: returns the pairs (symbol
/// `alphabet + i` is `pairs[i]`) and the number of values each symbol stands for. Several pairs are chosen per pass, the most frequent first.
/// Pairs are counted by sorting them (sequential memory access: a table of counts indexed by
/// pair would miss the cache at nearly every step).
fn pair_dictionary(
    sequence: &mut Vec<u16>,
    alphabet: usize,
    scratch: &mut Scratch,
) -> (Vec<(u16, u16)>, Vec<u32>) {
    const { assert!(MAX_SYMBOLS <= 1 << SYMBOL_BITS) };
    let mut pairs: Vec<(u16, u16)> = Vec::new();
    let mut lens = vec![1u32; alphabet];
    let mut candidates: Vec<(u32, u16, u16)> = Vec::new();
    // Per left symbol: where its chosen pairs start in `chosen`, and how many there are.
    let mut left_start = vec![0u16; MAX_SYMBOLS];
    let mut left_count = vec![0u8; MAX_SYMBOLS];
    let mut chosen: Vec<(u16, u16, u16)> = Vec::new();
    while alphabet + pairs.len() < MAX_SYMBOLS && sequence.len() >= 2 {
        count_pairs(sequence, COUNT_CHUNK, scratch);
        candidates.clear();
        for &(key, count) in &scratch.totals {
            let (a, b) = (
                (key >> SYMBOL_BITS) as u16,
                (key & ((1 << SYMBOL_BITS) - 1)) as u16,
            );
            if count >= MIN_PAIR_COUNT
                && lens[usize::from(a)] + lens[usize::from(b)] <= MAX_BLOCK_VALUES
            {
                candidates.push((count, a, b));
            }
        }
        candidates.sort_by_key(|&(count, a, b)| (std::cmp::Reverse(count), a, b));
        let room = MAX_SYMBOLS - alphabet - pairs.len();
        candidates.truncate(PAIRS_PER_PASS.min(room));
        if candidates.is_empty() {
            break;
        }
        chosen.clear();
        for &(_, a, b) in &candidates {
            let symbol = (alphabet + pairs.len()) as u16;
            pairs.push((a, b));
            lens.push(lens[usize::from(a)] + lens[usize::from(b)]);
            chosen.push((a, b, symbol));
        }
        chosen.sort_unstable();
        for (at, &(a, _, _)) in chosen.iter().enumerate().rev() {
            left_start[usize::from(a)] = at as u16;
            left_count[usize::from(a)] += 1;
        }
        let replacement = |a: u16, b: u16| -> Option<u16> {
            let start = usize::from(left_start[usize::from(a)]);
            let count = usize::from(left_count[usize::from(a)]);
            chosen[start..start + count]
                .iter()
                .find(|&&(_, right, _)| right == b)
                .map(|&(_, _, symbol)| symbol)
        };
        let (mut read, mut write) = (0, 0);
        let len = sequence.len();
        while read < len {
            let a = sequence[read];
            if read + 1 < len && left_count[usize::from(a)] != 0 {
                if let Some(symbol) = replacement(a, sequence[read + 1]) {
                    sequence[write] = symbol;
                    write += 1;
                    read += 2;
                    continue;
                }
            }
            sequence[write] = a;
            write += 1;
            read += 1;
        }
        sequence.truncate(write);
        for &(a, _, _) in &chosen {
            left_count[usize::from(a)] = 0;
        }
    }
    (pairs, lens)
}

/// Counts the adjacent pairs of `sequence` into `scratch.totals` as `(a << 12 | b, count)`, by
/// key: `chunk` pairs at a time are sorted and their runs merged into the totals.
fn count_pairs(sequence: &[u16], chunk: usize, scratch: &mut Scratch) {
    let Scratch {
        keys,
        sorted,
        totals,
        merged,
    } = scratch;
    totals.clear();
    let pairs = sequence.len().saturating_sub(1);
    let mut start = 0;
    while start < pairs {
        let end = (start + chunk.max(1)).min(pairs);
        keys.clear();
        keys.extend(
            sequence[start..=end]
                .windows(2)
                .map(|w| u32::from(w[0]) << SYMBOL_BITS | u32::from(w[1])),
        );
        radix_sort(keys, sorted);
        merged.clear();
        let (mut i, mut t) = (0, 0);
        while i < keys.len() {
            let key = keys[i];
            let mut j = i + 1;
            while j < keys.len() && keys[j] == key {
                j += 1;
            }
            while t < totals.len() && totals[t].0 < key {
                merged.push(totals[t]);
                t += 1;
            }
            let mut count = (j - i) as u32;
            if t < totals.len() && totals[t].0 == key {
                count += totals[t].1;
                t += 1;
            }
            merged.push((key, count));
            i = j;
        }
        merged.extend_from_slice(&totals[t..]);
        std::mem::swap(totals, merged);
        start = end;
    }
}

/// Sorts 24-bit keys (two stable passes of 12 bits).
fn radix_sort(keys: &mut Vec<u32>, other: &mut Vec<u32>) {
    const BUCKETS: usize = 1 << SYMBOL_BITS;
    other.clear();
    other.resize(keys.len(), 0);
    for shift in [0, SYMBOL_BITS] {
        let mut starts = vec![0usize; BUCKETS + 1];
        for &key in keys.iter() {
            starts[((key >> shift) as usize & (BUCKETS - 1)) + 1] += 1;
        }
        for bucket in 0..BUCKETS {
            starts[bucket + 1] += starts[bucket];
        }
        for &key in keys.iter() {
            let bucket = (key >> shift) as usize & (BUCKETS - 1);
            other[starts[bucket]] = key;
            starts[bucket] += 1;
        }
        std::mem::swap(keys, other);
    }
}

#[cfg(test)]
mod tests {
    use super::super::CompressedLayer;
    use super::*;

    /// Decodes a payload through the reader's segment code (a header is not needed for that).
    fn round_trip(values: &[u8], segment_values: u32, block_bytes: usize, stored: Stored) {
        let positions = match stored {
            Stored::PlacementCodes => values.len() as u64,
            Stored::MovementBytes => values.len() as u64 / 2,
        };
        assert_eq!(stored.values(positions), values.len() as u64);
        let payload = encode_side(
            values.len() as u64,
            stored,
            segment_values,
            block_bytes,
            3,
            &|i| Some(values[i as usize]),
            &|_| {},
        );
        // Backwards on a fresh layer (the first probe of a block is past its middle, so it
        // records the midpoint), then forwards and backwards again (from the midpoints).
        let fresh = CompressedLayer::from_payload(payload.clone(), positions, stored).unwrap();
        for (i, &value) in values.iter().enumerate().rev() {
            assert_eq!(fresh.code(i as u64), Some(value), "value {i}");
        }
        let layer = CompressedLayer::from_payload(payload.clone(), positions, stored).unwrap();
        for _ in 0..2 {
            for (i, &value) in values.iter().enumerate() {
                assert_eq!(layer.code(i as u64), Some(value), "value {i}");
            }
            for (i, &value) in values.iter().enumerate().rev() {
                assert_eq!(layer.code(i as u64), Some(value), "value {i}");
            }
        }
        if values.len() > 10_000 {
            let recorded = layer.recorded_midpoints();
            assert!(recorded > 0, "midpoints recorded: {recorded}");
        }
        assert_eq!(layer.code(values.len() as u64), None);
        // Read together: sets of up to 40 positions (more than one batch), near each other or
        // anywhere, with repeats, in any order; each handed over once with its own value.
        let mut x = 99u64;
        let mut random = |below: u64| {
            x = x
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (x >> 33) % below
        };
        let n = values.len() as u64;
        for round in 0..300 {
            let count = 1 + random(40) as usize;
            let centre = random(n);
            let ats: Vec<u64> = (0..count)
                .map(|_| match round % 3 {
                    0 => random(n),
                    _ => (centre + random(2000)).min(n - 1),
                })
                .collect();
            let mut seen = vec![0u32; count];
            layer
                .codes_of(&ats, &mut |i, code| {
                    assert_eq!(code, values[ats[i] as usize], "value {}", ats[i]);
                    seen[i] += 1;
                    true
                })
                .unwrap();
            assert!(seen.iter().all(|&times| times == 1), "{seen:?}");
            // Stopped after the first: one handed over.
            let mut handed = 0;
            layer.codes_of(&ats, &mut |_, _| {
                handed += 1;
                false
            });
            assert_eq!(handed, 1);
        }
        assert!(layer.codes_of(&[0, n], &mut |_, _| true).is_none());
        assert!(layer.codes_of(&[], &mut |_, _| true).is_some());
        match stored {
            Stored::PlacementCodes => {
                let packed = layer.decode_all().unwrap();
                for (i, &value) in values.iter().enumerate() {
                    assert_eq!(packed[i / 4] >> (2 * (i % 4)) & 3, value);
                }
            }
            Stored::MovementBytes => assert_eq!(layer.decode_bytes().unwrap(), values),
        }
        // Read as the other kind, the segments' alphabet field is refused.
        let other = match stored {
            Stored::PlacementCodes => Stored::MovementBytes,
            Stored::MovementBytes => Stored::PlacementCodes,
        };
        let misread = CompressedLayer::from_payload(payload, positions, other);
        if let Some(misread) = misread {
            assert_eq!(misread.code(0), None);
        }
    }

    #[test]
    fn pairs_counted_in_chunks_add_up_to_the_pairs_of_the_whole_sequence() {
        let mut x = 7u32;
        let sequence: Vec<u16> = (0..10_000)
            .map(|i| {
                x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
                // Runs and a few symbols above 2, so that pairs repeat across chunks.
                if i % 100 < 60 {
                    1
                } else {
                    (x >> 16) as u16 % 7
                }
            })
            .collect();
        let mut expected = std::collections::BTreeMap::new();
        for w in sequence.windows(2) {
            *expected
                .entry(u32::from(w[0]) << SYMBOL_BITS | u32::from(w[1]))
                .or_insert(0u32) += 1;
        }
        let expected: Vec<(u32, u32)> = expected.into_iter().collect();
        for chunk in [1, 2, 333, 4096, 9_999, 10_000, 1 << 22] {
            let mut scratch = Scratch::default();
            count_pairs(&sequence, chunk, &mut scratch);
            assert_eq!(scratch.totals, expected, "chunk {chunk}");
            // Reused: a shorter sequence starts from nothing.
            count_pairs(&sequence[..2], chunk, &mut scratch);
            assert_eq!(scratch.totals.len(), 1, "chunk {chunk}");
            count_pairs(&sequence[..1], chunk, &mut scratch);
            assert!(scratch.totals.is_empty(), "chunk {chunk}");
        }
    }

    #[test]
    fn runs_patterns_and_noise_round_trip() {
        let mut values = vec![1u8; 200_000];
        // A repeating pattern, noise, and a long run that needs several blocks' worth of
        // MAX_BLOCK_VALUES.
        for i in 0..50_000 {
            values[i] = [0, 1, 1, 2, 0, 0, 1][i % 7];
        }
        let mut x = 12345u32;
        for value in &mut values[60_000..90_000] {
            x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
            *value = (x >> 16) as u8 % 3;
        }
        for block_bytes in super::super::BLOCK_SIZES {
            round_trip(&values, 1 << 24, block_bytes, Stored::PlacementCodes);
            round_trip(&values, 70_001, block_bytes, Stored::PlacementCodes);
            round_trip(&[2], 1 << 24, block_bytes, Stored::PlacementCodes);
            round_trip(&[0, 2, 1], 2, block_bytes, Stored::PlacementCodes);
        }
    }

    #[test]
    fn movement_bytes_round_trip() {
        // Distances as a movement layer has them: draws (0), runs of one distance, every byte
        // value somewhere, noise.
        let mut x = 4321u32;
        let mut random = || {
            x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
            x >> 16
        };
        let mut values: Vec<u8> = (0..150_000u32)
            .map(|i| match i % 1000 {
                0..=399 => 0,
                400..=599 => 7,
                600..=855 => (i % 1000 - 600) as u8,
                _ => [0, 2, 3, 4, 9, 0][(random() % 6) as usize],
            })
            .collect();
        for value in &mut values[100_000..110_000] {
            *value = random() as u8;
        }
        for block_bytes in super::super::BLOCK_SIZES {
            round_trip(&values, 1 << 24, block_bytes, Stored::MovementBytes);
            round_trip(&values, 40_001, block_bytes, Stored::MovementBytes);
            round_trip(&[255, 1], 1 << 24, block_bytes, Stored::MovementBytes);
            round_trip(&[0, 200, 1, 0], 3, block_bytes, Stored::MovementBytes);
        }
    }
}
