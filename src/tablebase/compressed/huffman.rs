//! Length-limited canonical Huffman codes: code lengths from symbol counts, codes from lengths,
//! and a decoder that reads a left-justified 32-bit window and never panics on a bad code.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Longest code, in bits (a symbol is read from a 32-bit window).
pub const MAX_CODE_LEN: u8 = 24;
/// Bits of the window looked up at once: a code of at most this length is decoded by one
/// table read, a longer one by a search over the lengths above.
const FAST_BITS: u32 = 10;

/// Code lengths for symbol counts (0 for unused symbols): an optimal prefix code limited to
/// [`MAX_CODE_LEN`] bits (counts are halved until it fits). A lone used symbol gets 1 bit.
pub fn code_lengths(counts: &[u64]) -> Vec<u8> {
    let mut scaled: Vec<u64> = counts.to_vec();
    loop {
        let lengths = unlimited_lengths(&scaled);
        if lengths.iter().all(|&len| len <= MAX_CODE_LEN) {
            return lengths;
        }
        for count in scaled.iter_mut().filter(|count| **count > 0) {
            *count = (*count).div_ceil(2);
        }
    }
}

/// Huffman code lengths without a limit.
fn unlimited_lengths(counts: &[u64]) -> Vec<u8> {
    let mut lengths = vec![0u8; counts.len()];
    let used: Vec<usize> = (0..counts.len()).filter(|&s| counts[s] > 0).collect();
    if used.len() == 1 {
        lengths[used[0]] = 1;
    }
    if used.len() <= 1 {
        return lengths;
    }
    // Nodes: leaves first, then merged nodes; parent links give each leaf's depth.
    let mut parent: Vec<usize> = vec![usize::MAX; used.len()];
    let mut heap: BinaryHeap<Reverse<(u64, usize)>> = used
        .iter()
        .enumerate()
        .map(|(node, &symbol)| Reverse((counts[symbol], node)))
        .collect();
    while heap.len() > 1 {
        let Reverse((a_count, a)) = heap.pop().expect("two nodes");
        let Reverse((b_count, b)) = heap.pop().expect("two nodes");
        let node = parent.len();
        parent.push(usize::MAX);
        parent[a] = node;
        parent[b] = node;
        heap.push(Reverse((a_count + b_count, node)));
    }
    let mut depth = vec![0u8; parent.len()];
    for node in (0..parent.len()).rev() {
        if parent[node] != usize::MAX {
            depth[node] = depth[parent[node]].saturating_add(1);
        }
    }
    for (leaf, &symbol) in used.iter().enumerate() {
        lengths[symbol] = depth[leaf];
    }
    lengths
}

/// Canonical codes for `lengths` (code of symbol `s` in the low `lengths[s]` bits).
pub fn codes(lengths: &[u8]) -> Vec<u32> {
    let table = CodeTable::new(lengths).expect("lengths from code_lengths form a prefix code");
    let mut next = table.first;
    let mut out = vec![0u32; lengths.len()];
    for (symbol, &len) in lengths.iter().enumerate() {
        if len > 0 {
            out[symbol] = next[usize::from(len)] as u32;
            next[usize::from(len)] += 1;
        }
    }
    out
}

/// Decoding tables of a canonical code.
#[derive(Clone, Debug)]
pub struct CodeTable {
    /// Per length: the first code of that length.
    first: [u64; MAX_CODE_LEN as usize + 1],
    /// Per length: exclusive upper bound of the codes up to that length, left-justified in 32
    /// bits.
    limit: [u64; MAX_CODE_LEN as usize + 1],
    /// Per length: where its symbols start in `sorted`.
    start: [u16; MAX_CODE_LEN as usize + 1],
    /// Longest length in use.
    max_len: u8,
    /// Shortest length in use.
    min_len: u8,
    /// `limit[min_len + i] - 1` (never negative: codes of `min_len` exist), `u32::MAX` past
    /// length 24: a window is at least `limit[min_len + i]` when it is above entry `i`, a
    /// comparison of 32-bit numbers that is done four at a time ([`CodeTable::rank`]).
    above: [u32; MAX_CODE_LEN as usize],
    /// Symbols ordered by code length, then symbol.
    sorted: Vec<u16>,
    /// By the first `FAST_BITS` bits of a window: `symbol << 8 | length` of the code they
    /// start with, or 0 when that code is longer (or no code starts so).
    fast: Box<[u32]>,
}

impl CodeTable {
    /// The tables for `lengths`; `None` when a length is too long or the lengths are not a
    /// prefix code (Kraft sum above 1), or no symbol is used.
    pub fn new(lengths: &[u8]) -> Option<CodeTable> {
        let mut count = [0u64; MAX_CODE_LEN as usize + 1];
        for &len in lengths {
            if len > MAX_CODE_LEN {
                return None;
            }
            count[usize::from(len)] += 1;
        }
        count[0] = 0;
        let max_len = (1..=MAX_CODE_LEN).rfind(|&l| count[usize::from(l)] > 0)?;
        let min_len = (1..=MAX_CODE_LEN).find(|&l| count[usize::from(l)] > 0)?;
        let (mut first, mut limit, mut start) = (
            [0u64; MAX_CODE_LEN as usize + 1],
            [0u64; MAX_CODE_LEN as usize + 1],
            [0u16; MAX_CODE_LEN as usize + 1],
        );
        let (mut code, mut placed) = (0u64, 0u64);
        for len in 1..=usize::from(MAX_CODE_LEN) {
            code <<= 1;
            first[len] = code;
            start[len] = u16::try_from(placed).ok()?;
            code += count[len];
            placed += count[len];
            if code > 1 << len {
                return None;
            }
            limit[len] = code << (32 - len);
        }
        let mut sorted = Vec::with_capacity(placed as usize);
        for len in 1..=MAX_CODE_LEN {
            for (symbol, &l) in lengths.iter().enumerate() {
                if l == len {
                    sorted.push(u16::try_from(symbol).ok()?);
                }
            }
        }
        let mut fast = vec![0u32; 1 << FAST_BITS].into_boxed_slice();
        for len in 1..=(FAST_BITS as u8).min(max_len) {
            let l = usize::from(len);
            let span = 1usize << (FAST_BITS - u32::from(len));
            for i in 0..count[l] as usize {
                let symbol = sorted[usize::from(start[l]) + i];
                let entry = u32::from(symbol) << 8 | u32::from(len);
                let code = first[l] as usize + i;
                // In bounds: the Kraft check above keeps every code of length `len` below 2^len.
                fast[code * span..(code + 1) * span].fill(entry);
            }
        }
        let mut above = [u32::MAX; MAX_CODE_LEN as usize];
        for (i, above) in above.iter_mut().enumerate() {
            if let Some(&limit) = limit.get(usize::from(min_len) + i) {
                *above = u32::try_from(limit.checked_sub(1)?).ok()?;
            }
        }
        Some(CodeTable {
            first,
            limit,
            start,
            max_len,
            min_len,
            above,
            sorted,
            fast,
        })
    }

    /// The symbols ordered by code length, then symbol (indexed by [`CodeTable::rank_long`]).
    pub fn sorted(&self) -> &[u16] {
        &self.sorted
    }

    /// For a `window` (left-justified) that starts with a code longer than `FAST_BITS` (10):
    /// the code's place in [`CodeTable::sorted`] and its length, without reading the fast table;
    /// `None` when no code matches. (A shorter code gives a wrong answer or `None`.)
    #[inline(always)]
    pub fn rank_long(&self, window: u32) -> Option<(usize, u8)> {
        // The code's length is the first length whose limit is above the window (the limits
        // grow with the length), counted without a branch.
        let window = u64::from(window);
        let mut len = FAST_BITS as usize + 1;
        for limit in &self.limit[FAST_BITS as usize + 1..] {
            len += usize::from(window >= *limit);
        }
        if len > usize::from(self.max_len) {
            return None;
        }
        let code = window >> (32 - len);
        let at = usize::from(self.start[len]) + code.wrapping_sub(self.first[len]) as usize;
        (at < self.sorted.len()).then_some((at, len as u8))
    }

    /// For any `window` (left-justified): the place in [`CodeTable::sorted`] of the code it
    /// starts with, and the code's length; `None` when no code matches. Arithmetic on the
    /// canonical limits only, no table read: a walk through a block whose next window depends
    /// on this length is then a chain of arithmetic, and the reads of the codes' values (by
    /// rank) are off that chain, in flight together.
    #[inline(always)]
    pub fn rank(&self, window: u32) -> Option<(usize, u8)> {
        // The code's length is the shortest length in use plus the number of limits from
        // there that the window reaches (the limits grow with the length).
        let mut reached = 0u32;
        for &above in &self.above {
            reached += u32::from(window > above);
        }
        let len = usize::from(self.min_len) + reached as usize;
        if len > usize::from(self.max_len) {
            return None;
        }
        let code = u64::from(window) >> (32 - len);
        let at = usize::from(self.start[len]) + code.wrapping_sub(self.first[len]) as usize;
        (at < self.sorted.len()).then_some((at, len as u8))
    }

    /// The symbol whose code starts `window` (left-justified), and its length; `None` when no
    /// code matches (bits beyond an incomplete code).
    #[inline(always)]
    pub fn decode(&self, window: u32) -> Option<(u16, u8)> {
        // The table has 2^FAST_BITS entries: the index is in bounds.
        let entry = self.fast[(window >> (32 - FAST_BITS)) as usize];
        if entry != 0 {
            return Some(((entry >> 8) as u16, entry as u8));
        }
        let (at, len) = self.rank_long(window)?;
        Some((self.sorted[at], len))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_decode_to_their_symbols() {
        let counts = [1000u64, 1, 0, 500, 20, 20, 3, 0, 77];
        let lengths = code_lengths(&counts);
        assert_eq!(lengths[2], 0);
        assert!(lengths[0] <= lengths[1]);
        let codes = codes(&lengths);
        let table = CodeTable::new(&lengths).unwrap();
        for (symbol, (&len, &code)) in lengths.iter().zip(&codes).enumerate() {
            if len > 0 {
                let window = (code << (32 - len)) | ((1 << (32 - len)) - 1) >> 1;
                assert_eq!(table.decode(window), Some((symbol as u16, len)));
            }
        }
    }

    #[test]
    fn lengths_are_limited_and_bad_tables_refused() {
        // Fibonacci counts give a maximally deep tree without a limit.
        let mut counts = vec![1u64, 1];
        while counts.len() < 40 {
            let n = counts.len();
            counts.push(counts[n - 1] + counts[n - 2]);
        }
        let lengths = code_lengths(&counts);
        assert!(lengths.iter().all(|&l| (1..=MAX_CODE_LEN).contains(&l)));
        assert!(*lengths.iter().max().unwrap() > FAST_BITS as u8 + 4);
        // Every code, short (one table read) or long (the search), with any bits after it.
        let table = CodeTable::new(&lengths).unwrap();
        for (symbol, (&len, &code)) in lengths.iter().zip(&codes(&lengths)).enumerate() {
            let left = code << (32 - len);
            for tail in [0, u32::MAX >> len, 0x5555_5555 >> len] {
                assert_eq!(table.decode(left | tail), Some((symbol as u16, len)));
                assert_eq!(ranked(&table, left | tail), Some((symbol as u16, len)));
            }
        }
        assert!(CodeTable::new(&[1, 1, 1]).is_none(), "Kraft sum above 1");
        assert!(CodeTable::new(&[0, 0]).is_none(), "no symbol");
        assert!(CodeTable::new(&[25]).is_none(), "too long");
        assert_eq!(code_lengths(&[0, 9, 0]), vec![0, 1, 0]);
        // An incomplete code: windows past its last code decode to nothing.
        let lonely = CodeTable::new(&[1]).unwrap();
        assert_eq!(lonely.decode(0), Some((0, 1)));
        assert_eq!(lonely.decode(u32::MAX), None);
        assert_eq!(ranked(&lonely, 0), Some((0, 1)));
        assert_eq!(ranked(&lonely, u32::MAX), None);
    }

    /// The symbol and length [`CodeTable::rank`] gives.
    fn ranked(table: &CodeTable, window: u32) -> Option<(u16, u8)> {
        table
            .rank(window)
            .map(|(at, len)| (table.sorted()[at], len))
    }

    #[test]
    fn ranks_agree_with_the_decoder() {
        // Complete codes (the last limit is 2^32) and incomplete ones, shortest length 1 or
        // more, every window's first 16 bits.
        let sets: [&[u8]; 5] = [
            &[3; 8],
            &[0, 2, 2, 2],
            &[2, 3, 3, 3, 3],
            &[24, 24, 1],
            &[12; 4096],
        ];
        for lengths in sets {
            let table = CodeTable::new(lengths).unwrap();
            for high in 0..1u32 << 16 {
                let window = high << 16 | high.wrapping_mul(40_503) & 0xffff;
                assert_eq!(ranked(&table, window), table.decode(window), "{window:#x}");
            }
        }
    }
}
