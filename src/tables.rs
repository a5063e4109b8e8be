//! Board geometry, computed at compile time: neighbours along lines and jumps.

use crate::bitboard::Bitboard;
use crate::square::Square;

/// The eight line directions as (file step, rank step): four orthogonal, then four diagonal.
pub const DIRECTIONS: [(i8, i8); 8] = [
    (0, 1),
    (0, -1),
    (1, 0),
    (-1, 0),
    (1, 1),
    (-1, 1),
    (1, -1),
    (-1, -1),
];

/// Index shift of one step in each of [`DIRECTIONS`].
pub const DIRECTION_OFFSETS: [i8; 8] = [5, -5, 1, -1, 6, 4, -4, -6];

/// The point one step from `square` along a line in direction `dir`, if the line goes there.
pub const fn step(square: Square, dir: usize) -> Option<Square> {
    let (df, dr) = DIRECTIONS[dir];
    if dir >= 4 && !square.has_diagonals() {
        return None;
    }
    Square::from_coords(square.file() + df, square.rank() + dr)
}

const fn build_neighbours() -> [Bitboard; 25] {
    let mut table = [Bitboard::EMPTY; 25];
    let mut index = 0;
    while index < 25 {
        let square = Square::new(index as u8);
        let mut dir = 0;
        while dir < 8 {
            if let Some(to) = step(square, dir) {
                table[index] = table[index].with(to);
            }
            dir += 1;
        }
        index += 1;
    }
    table
}

/// For each point, the points joined to it by a line.
pub const NEIGHBOURS: [Bitboard; 25] = build_neighbours();

/// The jumps a piece on one point can make: over `over[i]` onto `land[i]`, for `i < len`.
#[derive(Copy, Clone, Debug)]
pub struct Jumps {
    /// Points jumped over.
    pub over: [Square; 8],
    /// Landing points, beyond the matching `over`.
    pub land: [Square; 8],
    /// Number of jumps.
    pub len: u8,
}

const fn build_jumps() -> [Jumps; 25] {
    let placeholder = Square::new(0);
    let mut table = [Jumps {
        over: [placeholder; 8],
        land: [placeholder; 8],
        len: 0,
    }; 25];
    let mut index = 0;
    while index < 25 {
        let square = Square::new(index as u8);
        let mut dir = 0;
        while dir < 8 {
            if let Some(over) = step(square, dir) {
                if let Some(land) = step(over, dir) {
                    let n = table[index].len as usize;
                    table[index].over[n] = over;
                    table[index].land[n] = land;
                    table[index].len += 1;
                }
            }
            dir += 1;
        }
        index += 1;
    }
    table
}

/// For each point, the straight jumps (two steps along one line) that start there.
pub const JUMPS: [Jumps; 25] = build_jumps();

const fn build_from_masks(distance: u8) -> [Bitboard; 8] {
    let mut masks = [Bitboard::EMPTY; 8];
    let mut dir = 0;
    while dir < 8 {
        let mut index = 0;
        while index < 25 {
            let square = Square::new(index as u8);
            let reaches = match step(square, dir) {
                Some(next) => distance == 1 || step(next, dir).is_some(),
                None => false,
            };
            if reaches {
                masks[dir] = masks[dir].with(square);
            }
            index += 1;
        }
        dir += 1;
    }
    masks
}

/// For each direction, the points from which a line goes one step that way.
pub const STEP_FROM: [Bitboard; 8] = build_from_masks(1);
/// For each direction, the points from which a line goes two steps that way.
pub const JUMP_FROM: [Bitboard; 8] = build_from_masks(2);

/// Moves every point of `set` one index step along direction `dir` (no masking).
#[inline(always)]
pub const fn shift(set: Bitboard, dir: usize) -> Bitboard {
    let offset = DIRECTION_OFFSETS[dir];
    if offset > 0 {
        Bitboard(set.0 << offset)
    } else {
        Bitboard(set.0 >> -offset)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(name: &str) -> Square {
        name.parse().unwrap()
    }

    #[test]
    fn neighbour_counts() {
        assert_eq!(NEIGHBOURS[sq("c3").index()].count(), 8);
        assert_eq!(NEIGHBOURS[sq("a1").index()].count(), 3);
        assert_eq!(NEIGHBOURS[sq("b1").index()].count(), 3);
        assert_eq!(NEIGHBOURS[sq("b2").index()].count(), 8);
        assert_eq!(NEIGHBOURS[sq("c2").index()].count(), 4);
        let lines: u32 = NEIGHBOURS.iter().map(|n| n.count()).sum::<u32>() / 2;
        // 40 orthogonal segments + 16 diagonal ones.
        assert_eq!(lines, 56);
    }

    #[test]
    fn jumps_follow_lines() {
        let c3 = JUMPS[sq("c3").index()];
        assert_eq!(c3.len, 8);
        let a1 = JUMPS[sq("a1").index()];
        let mut pairs: Vec<(String, String)> = (0..a1.len as usize)
            .map(|i| (a1.over[i].to_string(), a1.land[i].to_string()))
            .collect();
        pairs.sort();
        assert_eq!(
            pairs,
            [
                ("a2".into(), "a3".into()),
                ("b1".into(), "c1".into()),
                ("b2".into(), "c3".into())
            ]
        );
        assert_eq!(JUMPS[sq("b2").index()].len, 3);
        assert_eq!(JUMPS[sq("c2").index()].len, 3);
    }

    #[test]
    fn masks_agree_with_steps() {
        for (dir, &step_from) in STEP_FROM.iter().enumerate() {
            for square in Square::all() {
                let from = Bitboard::from_square(square);
                let stepped = shift(from & step_from, dir);
                assert_eq!(
                    stepped.first(),
                    step(square, dir).filter(|_| step_from.contains(square))
                );
            }
        }
    }
}
