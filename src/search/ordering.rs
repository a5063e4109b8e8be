//! Move ordering: hash move, captures, threat blocking, killers and history.

use crate::tables::step;
use crate::{Bitboard, Move, MoveList, Position, Side, Square};

use super::eval::{capturable_goats, capture_landings};
use super::score::MAX_PLY;

const HASH_MOVE: i32 = 10_000_000;
const CAPTURE: i32 = 5_000_000;
const BLOCKS_CAPTURE: i32 = 3_000_000;
const SAVES_GOAT: i32 = 2_000_000;
const KILLER: [i32; 2] = [1_000_000, 900_000];
/// Goat moves that put the goat where a tiger can capture it at once.
const WALKS_INTO_CAPTURE: i32 = 1_500_000;
/// History values stay within this magnitude.
const HISTORY_MAX: i32 = 400_000;

/// For each point, the pairs of points on either side of it along a line (up to four).
struct LinePairs {
    pairs: [(Square, Square); 4],
    len: usize,
}

const fn build_line_pairs() -> [LinePairs; 25] {
    let mut table = [const {
        LinePairs {
            pairs: [(Square::new(0), Square::new(0)); 4],
            len: 0,
        }
    }; 25];
    let mut index = 0;
    while index < 25 {
        let square = Square::new(index as u8);
        // Directions 0, 2, 4, 5 and their opposites 1, 3, 7, 6.
        let dirs = [(0, 1), (2, 3), (4, 7), (5, 6)];
        let mut d = 0;
        while d < 4 {
            if let (Some(a), Some(b)) = (step(square, dirs[d].0), step(square, dirs[d].1)) {
                let n = table[index].len;
                table[index].pairs[n] = (a, b);
                table[index].len += 1;
            }
            d += 1;
        }
        index += 1;
    }
    table
}

static LINE_PAIRS: [LinePairs; 25] = build_line_pairs();

/// Whether a goat on `square` could be captured at once, with `tigers` and `empty` as given.
fn capturable_at(square: Square, tigers: Bitboard, empty: Bitboard) -> bool {
    let line = &LINE_PAIRS[square.index()];
    line.pairs[..line.len].iter().any(|&(a, b)| {
        (tigers.contains(a) && empty.contains(b)) || (tigers.contains(b) && empty.contains(a))
    })
}

/// Whether the goat moved by `mv` could be captured at once on its new point.
fn walks_into_capture(position: &Position, mv: Move) -> bool {
    let mut empty = position.empty().without(mv.to());
    if let Some(from) = mv.from() {
        empty = empty.with(from);
    }
    capturable_at(mv.to(), position.tigers(), empty)
}

/// History index of a move's origin (placements use 25).
fn from_index(mv: Move) -> usize {
    mv.from().map_or(25, |square| square.index())
}

/// Killer moves and butterfly history of one search thread.
pub struct Heuristics {
    killers: Vec<[Option<Move>; 2]>,
    history: Vec<i32>,
    /// Whether goat moves into an immediate capture are tried late.
    goat_safety: bool,
}

impl Heuristics {
    /// Empty tables; `goat_safety` orders goat moves into an immediate capture last.
    pub fn new(goat_safety: bool) -> Heuristics {
        Heuristics {
            killers: vec![[None; 2]; MAX_PLY + 2],
            history: vec![0; 2 * 26 * 25],
            goat_safety,
        }
    }

    fn history_slot(side: Side, mv: Move) -> usize {
        (side.index() * 26 + from_index(mv)) * 25 + mv.to().index()
    }

    /// The history score of `mv` for `side`.
    pub fn history(&self, side: Side, mv: Move) -> i32 {
        self.history[Self::history_slot(side, mv)]
    }

    /// Records a quiet move that caused a cutoff, and penalises the quiet moves tried before it.
    pub fn record_cutoff(&mut self, side: Side, ply: usize, mv: Move, depth: i32, tried: &[Move]) {
        if !mv.is_capture() {
            let killers = &mut self.killers[ply];
            if killers[0] != Some(mv) {
                killers[1] = killers[0];
                killers[0] = Some(mv);
            }
        }
        let bonus = (depth * depth).min(400) * 32;
        self.update(side, mv, bonus);
        for &other in tried {
            if other != mv && !other.is_capture() {
                self.update(side, other, -bonus);
            }
        }
    }

    fn update(&mut self, side: Side, mv: Move, bonus: i32) {
        let slot = &mut self.history[Self::history_slot(side, mv)];
        // Gravity: values saturate smoothly at HISTORY_MAX.
        // In i64: the product reaches 400,000 * 12,800, past i32.
        let decay = i64::from(*slot) * i64::from(bonus.abs()) / i64::from(HISTORY_MAX);
        *slot += bonus - decay as i32;
    }

    /// Forgets the killers of plies beyond `ply` (called at the start of each iteration).
    pub fn clear_killers(&mut self) {
        for killers in &mut self.killers {
            *killers = [None; 2];
        }
    }

    /// Scores every move of `moves` for ordering (higher first).
    pub fn score_moves(
        &self,
        position: &Position,
        moves: &MoveList,
        hash_move: Option<Move>,
        ply: usize,
        scores: &mut [i32],
    ) {
        let side = position.side_to_move();
        let (landings, threatened) = if side == Side::Goats {
            (capture_landings(position), capturable_goats(position))
        } else {
            (Bitboard::EMPTY, Bitboard::EMPTY)
        };
        let killers = self.killers[ply.min(MAX_PLY)];
        for (score, &mv) in scores.iter_mut().zip(moves.iter()) {
            *score = if Some(mv) == hash_move {
                HASH_MOVE
            } else if let Move::Jump { over, .. } = mv {
                // Prefer captures of goats that are hard to defend: central ones.
                CAPTURE + i32::from(over.has_diagonals()) * 100 + self.history(side, mv) / 1000
            } else {
                let mut value = self.history(side, mv);
                if landings.contains(mv.to()) {
                    value += BLOCKS_CAPTURE;
                } else if mv.from().is_some_and(|from| threatened.contains(from)) {
                    value += SAVES_GOAT;
                } else if killers[0] == Some(mv) {
                    value += KILLER[0];
                } else if killers[1] == Some(mv) {
                    value += KILLER[1];
                }
                if self.goat_safety && side == Side::Goats && walks_into_capture(position, mv) {
                    value -= WALKS_INTO_CAPTURE;
                }
                value
            };
        }
    }
}

/// Picks the best-scored move among `moves[index..]`, swaps it to `index` and returns it.
#[inline]
pub fn pick_next(moves: &mut MoveList, scores: &mut [i32], index: usize) -> Move {
    let mut best = index;
    for i in index + 1..moves.len() {
        if scores[i] > scores[best] {
            best = i;
        }
    }
    moves.swap(index, best);
    scores.swap(index, best);
    moves[index]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn history_saturates_without_overflow() {
        let mut heuristics = Heuristics::new(false);
        let good: Move = "c3".parse().unwrap();
        let bad: Move = "b2".parse().unwrap();
        for _ in 0..1000 {
            heuristics.record_cutoff(Side::Goats, 1, good, 60, &[bad, good]);
        }
        let (high, low) = (
            heuristics.history(Side::Goats, good),
            heuristics.history(Side::Goats, bad),
        );
        assert!(
            (HISTORY_MAX / 2 + 1..=HISTORY_MAX).contains(&high),
            "{high}"
        );
        assert!((-HISTORY_MAX..-HISTORY_MAX / 2).contains(&low), "{low}");
    }
}
