//! The network's geometry: the tuples of points it reads, their images under the board's eight
//! symmetries (which share one table), and the phase buckets that select a set of tables.
//!
//! A tuple's index is `sum 3^i * cell(point i)`, with cell 0 empty, 1 goat, 2 tiger. The training
//! side (`crate::tuning::network_fit`) sees every ordered image of every shape as one active
//! entry of its shape's table; inference folds the images that read the same points into one
//! table per point set ([`instances`]), so a position costs one look-up per point set.

use crate::search::wdl::{hand_bucket, HAND_BUCKETS};
use crate::{Position, Rules, Side};

/// A board point as (rank, file), both 0..5.
pub type Point = (usize, usize);

/// One shape per class of point sets equal under the board's symmetries: the three kinds of
/// lines of five points (edge, next to the edge, middle), the long diagonal, the short
/// diagonal of three points, and the four kinds of 3x2 blocks (corner, edge-middle, side,
/// centre). Every line a capture can follow lies on one of the lines.
pub const SHAPES: [&[Point]; 9] = [
    &[(0, 0), (0, 1), (0, 2), (0, 3), (0, 4)],
    &[(1, 0), (1, 1), (1, 2), (1, 3), (1, 4)],
    &[(2, 0), (2, 1), (2, 2), (2, 3), (2, 4)],
    &[(0, 0), (1, 1), (2, 2), (3, 3), (4, 4)],
    &[(2, 0), (1, 1), (0, 2)],
    &[(0, 0), (0, 1), (1, 0), (1, 1), (2, 0), (2, 1)],
    &[(0, 1), (0, 2), (1, 1), (1, 2), (2, 1), (2, 2)],
    &[(1, 0), (1, 1), (2, 0), (2, 1), (3, 0), (3, 1)],
    &[(1, 1), (1, 2), (2, 1), (2, 2), (3, 1), (3, 2)],
];

/// Entries of the table of each shape: `3^len`.
pub fn table_len(shape: usize) -> usize {
    3usize.pow(SHAPES[shape].len() as u32)
}

/// Where each shape's table starts in a bucket's weights.
pub fn table_offsets() -> [usize; SHAPES.len()] {
    let mut offsets = [0; SHAPES.len()];
    let mut next = 0;
    for (shape, offset) in offsets.iter_mut().enumerate() {
        *offset = next;
        next += table_len(shape);
    }
    offsets
}

/// Weights of one bucket: every shape's table.
pub fn bucket_len() -> usize {
    (0..SHAPES.len()).map(table_len).sum()
}

/// The eight symmetries of the board.
fn symmetry((rank, file): Point, which: usize) -> Point {
    let (r, f) = if which & 4 != 0 {
        (file, rank)
    } else {
        (rank, file)
    };
    let r = if which & 1 != 0 { 4 - r } else { r };
    let f = if which & 2 != 0 { 4 - f } else { f };
    (r, f)
}

/// Board square index of a point (rank * 5 + file).
pub fn square_index((rank, file): Point) -> usize {
    rank * 5 + file
}

/// An ordered image of a shape: the squares it reads, in the order of its index digits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Image {
    /// The shape whose table it reads.
    pub shape: usize,
    /// Square indices, digit 0 first.
    pub squares: Vec<usize>,
}

/// Every distinct ordered image of every shape (a shape mapped onto itself in the same order
/// counts once).
pub fn images() -> Vec<Image> {
    let mut out: Vec<Image> = Vec::new();
    for (shape, points) in SHAPES.iter().enumerate() {
        for which in 0..8 {
            let squares = points
                .iter()
                .map(|&p| square_index(symmetry(p, which)))
                .collect();
            let image = Image { shape, squares };
            if !out.contains(&image) {
                out.push(image);
            }
        }
    }
    out
}

/// The images that read one set of squares, folded together at inference.
#[derive(Clone, Debug)]
pub struct Instance {
    /// The squares in the order of this instance's index digits (its first image's order).
    pub squares: Vec<usize>,
    /// The images reading these squares.
    pub images: Vec<Image>,
}

/// The images grouped by the set of squares they read.
pub fn instances() -> Vec<Instance> {
    let mut out: Vec<Instance> = Vec::new();
    for image in images() {
        let mut set = image.squares.clone();
        set.sort_unstable();
        match out.iter_mut().find(|instance| {
            let mut other = instance.squares.clone();
            other.sort_unstable();
            other == set
        }) {
            Some(instance) => instance.images.push(image),
            None => out.push(Instance {
                squares: image.squares.clone(),
                images: vec![image],
            }),
        }
    }
    out
}

/// Cell codes of the 25 squares: 0 empty, 1 goat, 2 tiger.
pub fn cells(position: &Position) -> [u8; 25] {
    let mut cells = [0; 25];
    for square in position.goats() {
        cells[square.index()] = 1;
    }
    for square in position.tigers() {
        cells[square.index()] = 2;
    }
    cells
}

/// The index of the tuple reading `squares` (digit 0 first).
pub fn tuple_index(cells: &[u8; 25], squares: &[usize]) -> usize {
    squares
        .iter()
        .rev()
        .fold(0, |index, &square| index * 3 + usize::from(cells[square]))
}

/// Phase buckets by captures the tigers still need: 5 or more, 4, 3, 2, 1.
const NEEDED_BUCKETS: usize = 5;
/// Buckets: side to move x goats in hand x captures still needed.
pub const BUCKETS: usize = 2 * HAND_BUCKETS * NEEDED_BUCKETS;

/// The bucket of `position` under `rules`.
pub fn bucket(position: &Position, rules: &Rules) -> usize {
    let side = usize::from(position.side_to_move() == Side::Tigers);
    let hand = hand_bucket(position);
    let needed = rules
        .captures_to_win
        .saturating_sub(position.goats_captured());
    let needed = NEEDED_BUCKETS - usize::from(needed.clamp(1, NEEDED_BUCKETS as u8));
    (side * HAND_BUCKETS + hand) * NEEDED_BUCKETS + needed
}

/// The side-to-move half of a bucket (0 goats, 1 tigers), whose tables all its buckets share
/// in training.
pub fn bucket_side(bucket: usize) -> usize {
    bucket / (HAND_BUCKETS * NEEDED_BUCKETS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symmetries_are_eight_distinct_maps_of_the_board() {
        let maps: Vec<Vec<Point>> = (0..8)
            .map(|w| {
                (0..25)
                    .map(|s| symmetry((s / 5, s % 5), w))
                    .collect::<Vec<_>>()
            })
            .collect();
        for (i, map) in maps.iter().enumerate() {
            let mut seen = map.clone();
            seen.sort_unstable();
            seen.dedup();
            assert_eq!(seen.len(), 25, "symmetry {i} is not a permutation");
            assert!(maps[..i].iter().all(|m| m != map), "symmetry {i} repeats");
        }
    }

    /// The shapes are in distinct classes: no image of one reads the points of another.
    #[test]
    fn instances_cover_each_point_set_once() {
        let instances = instances();
        // 10 lines of five, 2 long and 4 short diagonals, 24 blocks of 3x2 or 2x3.
        assert_eq!(instances.len(), 40);
        for instance in &instances {
            let shape = instance.images[0].shape;
            assert!(instance.images.iter().all(|image| image.shape == shape));
        }
        let images: usize = instances.iter().map(|i| i.images.len()).sum();
        assert_eq!(images, images_count());
    }

    fn images_count() -> usize {
        images().len()
    }

    #[test]
    fn buckets_are_in_range_and_split_by_side() {
        let rules = Rules::default();
        let goats: Position = "T3T/5/5/5/T3T g 20 0".parse().unwrap();
        let tigers: Position = "T3T/5/2G2/5/T3T t 19 0".parse().unwrap();
        let late: Position = "GGGGG/GT2T/GG1TG/GG1GG/GGTGG g 0 3".parse().unwrap();
        assert_eq!(bucket_side(bucket(&goats, &rules)), 0);
        assert_eq!(bucket_side(bucket(&tigers, &rules)), 1);
        assert_ne!(bucket(&late, &rules), bucket(&goats, &rules));
        assert!(bucket(&late, &rules) < BUCKETS);
    }

    #[test]
    fn tuple_index_reads_digit_zero_first() {
        let mut cells = [0; 25];
        cells[1] = 1;
        cells[3] = 2;
        assert_eq!(tuple_index(&cells, &[0, 1, 2, 3, 4]), 3 + 2 * 27);
        assert_eq!(tuple_index(&cells, &[4, 3, 2, 1, 0]), 2 * 3 + 27);
        let position: Position = "T3T/5/5/5/T3T g 20 0".parse().unwrap();
        let cells = cells_of(&position);
        assert_eq!(cells.iter().filter(|&&c| c == 2).count(), 4);
        assert_eq!(cells.iter().filter(|&&c| c == 1).count(), 0);
    }

    fn cells_of(position: &Position) -> [u8; 25] {
        cells(position)
    }
}
