//! The 8 symmetries of the square board, colex ranking of small point sets (combinatorial
//! number system), and the classes of tiger sets under the symmetries.

use std::sync::OnceLock;

/// Number of symmetries of the square board.
pub const SYMMETRIES: usize = 8;
/// Points not holding a tiger.
pub const NON_TIGER_POINTS: usize = 21;
/// Largest number of empty points a stored layer has (4 goats captured).
pub const MAX_EMPTIES: usize = 5;
/// Number of tiger sets: C(25, 4).
pub const TIGER_SETS: usize = 12_650;

const fn build_square_maps() -> [[u8; 25]; SYMMETRIES] {
    let mut maps = [[0u8; 25]; SYMMETRIES];
    let mut g = 0;
    while g < SYMMETRIES {
        let mut square = 0;
        while square < 25 {
            let (mut file, mut rank) = (square % 5, square / 5);
            if g & 1 != 0 {
                file = 4 - file;
            }
            if g & 2 != 0 {
                rank = 4 - rank;
            }
            if g & 4 != 0 {
                let swap = file;
                file = rank;
                rank = swap;
            }
            maps[g][square] = (rank * 5 + file) as u8;
            square += 1;
        }
        g += 1;
    }
    maps
}

/// `SQUARE_MAPS[g][square]`: the image of a point under symmetry `g` (bit 0 mirrors files,
/// bit 1 mirrors ranks, bit 2 swaps files and ranks; 0 is the identity).
pub const SQUARE_MAPS: [[u8; 25]; SYMMETRIES] = build_square_maps();

/// `table[n][k]` = C(n, k) for every n < N and k < K (Pascal's triangle).
pub const fn binomial_table<const N: usize, const K: usize>() -> [[u32; K]; N] {
    let mut table = [[0u32; K]; N];
    let mut n = 0;
    while n < N {
        table[n][0] = 1;
        let mut k = 1;
        while k < K {
            table[n][k] = if n == 0 {
                0
            } else {
                table[n - 1][k - 1] + table[n - 1][k]
            };
            k += 1;
        }
        n += 1;
    }
    table
}

/// `BINOMIALS[n][k]` = C(n, k) for n <= 25, k <= 5.
pub const BINOMIALS: [[u32; 6]; 26] = binomial_table();

/// `BYTE_IMAGES[g][i][byte]`: the image under symmetry `g` of the points of byte `i` (points
/// 8i to 8i + 7, those below 25) set in `byte`, so that a set's image is the union of its four
/// bytes' (32 KB, built at compile time).
static BYTE_IMAGES: ByteImages = ByteImages(build_byte_images());

/// The tables, aligned to cache lines.
#[repr(align(64))]
struct ByteImages([[[u32; 256]; 4]; SYMMETRIES]);

const fn build_byte_images() -> [[[u32; 256]; 4]; SYMMETRIES] {
    let mut images = [[[0u32; 256]; 4]; SYMMETRIES];
    let mut g = 0;
    while g < SYMMETRIES {
        let mut i = 0;
        while i < 4 {
            let mut byte = 0;
            while byte < 256 {
                let mut image = 0u32;
                let mut bit = 0;
                while bit < 8 {
                    let point = i * 8 + bit;
                    if byte & (1 << bit) != 0 && point < 25 {
                        image |= 1 << SQUARE_MAPS[g][point];
                    }
                    bit += 1;
                }
                images[g][i][byte] = image;
                byte += 1;
            }
            i += 1;
        }
        g += 1;
    }
    images
}

/// The image of a set of points (bit i = point i, i < 25) under symmetry `g`.
#[inline(always)]
pub fn transform(set: u32, g: usize) -> u32 {
    let bytes = &BYTE_IMAGES.0[g];
    bytes[0][(set & 0xff) as usize]
        | bytes[1][((set >> 8) & 0xff) as usize]
        | bytes[2][((set >> 16) & 0xff) as usize]
        | bytes[3][((set >> 24) & 0xff) as usize]
}

/// Colex rank of a set of at most 5 bit positions: sum of C(p_i, i + 1) over its members in
/// increasing order.
#[inline]
pub fn colex_rank(mut bits: u32) -> u32 {
    let mut rank = 0;
    let mut i = 1;
    while bits != 0 {
        rank += BINOMIALS[bits.trailing_zeros() as usize][i];
        bits &= bits - 1;
        i += 1;
    }
    rank
}

/// The set of `k` bit positions below `n` with colex rank `rank` (inverse of [`colex_rank`]).
pub fn colex_unrank(rank: u32, k: usize, n: usize) -> u32 {
    colex_unrank_in(&BINOMIALS, rank, k, n)
}

/// [`colex_unrank`] with the binomial table `binomials` (`binomials[p][i]` = C(p, i)), for sets
/// of more than 5 positions.
#[inline]
pub fn colex_unrank_in<const K: usize>(
    binomials: &[[u32; K]],
    mut rank: u32,
    k: usize,
    n: usize,
) -> u32 {
    let mut bits = 0;
    let mut top = n;
    for i in (1..=k).rev() {
        let mut p = top - 1;
        while binomials[p][i] > rank {
            p -= 1;
        }
        rank -= binomials[p][i];
        bits |= 1 << p;
        top = p;
    }
    bits
}

/// One class of tiger sets under the symmetries.
#[derive(Clone, Debug)]
pub struct TigerClass {
    /// The representative tiger set (lowest colex rank in the class).
    pub tigers: u32,
    /// For each point that holds no tiger, its position among the 21 non-tiger points.
    pub compress: [u8; 25],
    /// The point at each of the 21 non-tiger positions.
    pub decompress: [u8; NON_TIGER_POINTS],
    /// The non-identity symmetries that map the representative onto itself.
    pub stabilizer: Vec<u8>,
}

/// All tiger-set classes, and for every tiger set its class and a symmetry onto the
/// representative.
#[derive(Debug)]
pub struct TigerTable {
    /// Classes in increasing order of their representative's rank.
    pub classes: Vec<TigerClass>,
    /// For each tiger-set colex rank: (class, symmetry mapping the set onto the representative).
    pub by_rank: Vec<(u16, u8)>,
}

impl TigerTable {
    fn build() -> TigerTable {
        // Representatives in rank order, asymmetric classes first (so that a layer's index can
        // find their class by a division).
        let mut representatives: Vec<(u32, Vec<u8>)> = Vec::new();
        for rank in 0..TIGER_SETS as u32 {
            let tigers = colex_unrank(rank, 4, 25);
            if (0..SYMMETRIES).all(|g| colex_rank(transform(tigers, g)) >= rank) {
                let stabilizer = (1..SYMMETRIES)
                    .filter(|&g| transform(tigers, g) == tigers)
                    .map(|g| g as u8)
                    .collect();
                representatives.push((tigers, stabilizer));
            }
        }
        representatives.sort_by_key(|(_, stabilizer): &(u32, Vec<u8>)| !stabilizer.is_empty());
        let mut by_rank = vec![(u16::MAX, 0u8); TIGER_SETS];
        let mut classes = Vec::new();
        for (tigers, stabilizer) in representatives {
            let class = classes.len() as u16;
            let mut compress = [u8::MAX; 25];
            let mut decompress = [0u8; NON_TIGER_POINTS];
            let mut next = 0;
            for (square, slot) in compress.iter_mut().enumerate() {
                if tigers & (1 << square) == 0 {
                    *slot = next as u8;
                    decompress[next] = square as u8;
                    next += 1;
                }
            }
            classes.push(TigerClass {
                tigers,
                compress,
                decompress,
                stabilizer,
            });
            for g in 0..SYMMETRIES {
                // Symmetry g maps the representative to its image; its inverse maps it back.
                let slot = &mut by_rank[colex_rank(transform(tigers, g)) as usize];
                if slot.0 == u16::MAX {
                    *slot = (class, inverse_symmetry(g) as u8);
                }
            }
        }
        debug_assert!(by_rank.iter().all(|&(class, _)| class != u16::MAX));
        TigerTable { classes, by_rank }
    }

    /// The shared table (built on first use).
    pub fn get() -> &'static TigerTable {
        static TABLE: OnceLock<TigerTable> = OnceLock::new();
        TABLE.get_or_init(TigerTable::build)
    }
}

/// The symmetry that undoes `g`.
pub fn inverse_symmetry(g: usize) -> usize {
    (0..SYMMETRIES)
        .find(|&h| {
            (0..25).all(|square| SQUARE_MAPS[h][SQUARE_MAPS[g][square] as usize] as usize == square)
        })
        .expect("the symmetries form a group")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symmetries_are_distinct_permutations() {
        for (g, map) in SQUARE_MAPS.iter().enumerate() {
            let seen = map.iter().fold(0u32, |seen, &image| seen | 1 << image);
            assert_eq!(seen, (1 << 25) - 1);
            let inverse = inverse_symmetry(g);
            assert_eq!(transform(transform(0b1011_0001, g), inverse), 0b1011_0001);
        }
    }

    #[test]
    fn a_sets_image_is_the_set_of_its_points_images() {
        // Every single point, 20,000 pseudo-random sets and the whole board: the byte tables
        // agree with mapping point by point.
        let mut sets: Vec<u32> = (0..25).map(|p| 1u32 << p).collect();
        let mut x = 0x2545_f491_u32;
        for _ in 0..20_000 {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            sets.push(x & ((1 << 25) - 1));
        }
        sets.push((1 << 25) - 1);
        for &bits in &sets {
            for (g, map) in SQUARE_MAPS.iter().enumerate() {
                let pointwise = (0..25)
                    .filter(|&p| bits & (1 << p) != 0)
                    .fold(0u32, |image, p| image | 1 << map[p]);
                assert_eq!(transform(bits, g), pointwise, "{bits:#x} under {g}");
            }
        }
    }

    #[test]
    fn colex_round_trip() {
        for (k, &count) in BINOMIALS[21].iter().enumerate().skip(1) {
            for rank in 0..count {
                let bits = colex_unrank(rank, k, 21);
                assert_eq!(bits.count_ones() as usize, k);
                assert_eq!(colex_rank(bits), rank);
            }
        }
    }

    #[test]
    fn tiger_classes() {
        let table = TigerTable::get();
        assert_eq!(table.classes.len(), 1_666);
        assert_eq!(
            table
                .classes
                .iter()
                .filter(|c| !c.stabilizer.is_empty())
                .count(),
            163
        );
        for rank in 0..TIGER_SETS as u32 {
            let (class, g) = table.by_rank[rank as usize];
            let tigers = colex_unrank(rank, 4, 25);
            assert_eq!(
                transform(tigers, g as usize),
                table.classes[class as usize].tigers
            );
        }
    }
}
