//! The tuple indices of a position read row by row from its bitboards, the network's fast path.
//!
//! A point set's index is `sum 3^i * cell(point i)` with cell 1 for a goat and 2 for a tiger, so
//! it is the index the goats alone would give plus twice the index the tigers alone would give.
//! Each board row is five bits of a bitboard, so for each row and each of its 32 patterns one
//! table row holds every point set's index digits for those squares: an evaluation adds ten such
//! rows (five of goats, five of tigers) lane by lane, which the compiler does with vector
//! instructions, instead of reading 216 squares one at a time.

/// Point sets the network reads (the folded instances of [`super::shape::instances`]).
pub const POINT_SETS: usize = 40;

/// Board rows, and points per row.
const ROWS: usize = 5;

/// One value per point set, aligned for vector loads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(16))]
pub struct Lanes(pub [u16; POINT_SETS]);

impl Lanes {
    const ZERO: Lanes = Lanes([0; POINT_SETS]);

    #[inline(always)]
    fn add(&mut self, other: &Lanes) {
        for (lane, &more) in self.0.iter_mut().zip(&other.0) {
            *lane += more;
        }
    }
}

/// The tables that turn two bitboards into every point set's entry in a bucket's tables.
#[derive(Clone, Debug)]
pub struct RowDigits {
    /// Where each point set's table starts in a bucket's tables.
    offsets: Lanes,
    /// `[row][pattern]`: for the squares of `row` in the 5-bit `pattern` (bit `f` is file `f`),
    /// each point set's index digits were those squares goats.
    rows: Box<[[Lanes; 32]; ROWS]>,
}

impl RowDigits {
    /// The tables for point sets given as (squares in index digit order, table offset).
    ///
    /// # Panics
    /// When there are not [`POINT_SETS`] sets, or an offset does not fit 16 bits.
    pub fn new(sets: &[(&[u8], usize)]) -> RowDigits {
        assert_eq!(sets.len(), POINT_SETS, "point sets");
        let mut offsets = Lanes::ZERO;
        let mut rows = Box::new([[Lanes::ZERO; 32]; ROWS]);
        for (set, (squares, offset)) in sets.iter().enumerate() {
            let last = offset + 3usize.pow(squares.len() as u32) - 1;
            assert!(last <= usize::from(u16::MAX), "tables too large");
            offsets.0[set] = *offset as u16;
            for (digit, &square) in squares.iter().enumerate() {
                let (row, file) = (usize::from(square) / ROWS, usize::from(square) % ROWS);
                for (pattern, lanes) in rows[row].iter_mut().enumerate() {
                    if pattern & (1 << file) != 0 {
                        lanes.0[set] += 3u16.pow(digit as u32);
                    }
                }
            }
        }
        RowDigits { offsets, rows }
    }

    /// Every point set's entry (its table's offset plus its index) for `goats` and `tigers`
    /// (bit `i` is square `i`; the two sets disjoint).
    #[inline]
    pub fn entries(&self, goats: u32, tigers: u32) -> Lanes {
        let mut goat_index = self.offsets;
        let mut tiger_index = Lanes::ZERO;
        for (row, patterns) in self.rows.iter().enumerate() {
            let shift = ROWS * row;
            goat_index.add(&patterns[(goats >> shift) as usize & 31]);
            tiger_index.add(&patterns[(tigers >> shift) as usize & 31]);
        }
        goat_index.add(&tiger_index);
        goat_index.add(&tiger_index);
        goat_index
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Against the plain sum of digits, square by square, for every cell of two point sets.
    #[test]
    fn entries_are_offset_plus_base_three_index() {
        let mut squares: Vec<Vec<u8>> = (0..POINT_SETS as u8)
            .map(|i| vec![i % 25, (i + 7) % 25, (i + 13) % 25])
            .collect();
        squares[0] = vec![24, 0, 12, 5, 6, 19];
        let mut sets = Vec::new();
        let mut offset = 0;
        for s in &squares {
            sets.push((s.as_slice(), offset));
            offset += 3usize.pow(s.len() as u32);
        }
        let digits = RowDigits::new(&sets);
        for code in 0..3u32.pow(6) {
            // Cells of squares 24, 0, 12, 5, 6, 19 from `code`, the other squares empty.
            let (mut goats, mut tigers) = (0u32, 0u32);
            let mut rest = code;
            for &square in &squares[0] {
                match rest % 3 {
                    1 => goats |= 1 << square,
                    2 => tigers |= 1 << square,
                    _ => {}
                }
                rest /= 3;
            }
            let entries = digits.entries(goats, tigers);
            assert_eq!(u32::from(entries.0[0]), code);
            for (set, (s, offset)) in sets.iter().enumerate().skip(1) {
                let index: usize = s.iter().rev().fold(0, |index, &square| {
                    let cell = (goats >> square & 1) + 2 * (tigers >> square & 1);
                    index * 3 + cell as usize
                });
                assert_eq!(usize::from(entries.0[set]), offset + index, "set {set}");
            }
        }
    }
}
