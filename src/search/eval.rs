//! Static evaluation designed for Bagh Chal, in goat units (100 = one goat).
//!
//! Terms are computed from the goats' point of view and negated for the tigers. What matters:
//! goats captured, how freely the tigers move (a tiger with no move is out of the game, four
//! trapped tigers lose), goats the tigers can capture next move, goats the tigers can never
//! jump (corners, and goats shielded by other goats), and compact goat formations.

use crate::tables::{shift, JUMPS, JUMP_FROM, NEIGHBOURS, STEP_FROM};
use crate::{Bitboard, Position, Rules, Side, Square};

use super::params::Params;
use super::score::Value;

/// Opposite of each direction of [`crate::tables::DIRECTIONS`].
const OPPOSITE: [usize; 8] = [1, 0, 3, 2, 7, 6, 5, 4];

/// The four corners: goats there can never be captured.
const CORNERS: Bitboard = Bitboard((1 << 0) | (1 << 4) | (1 << 20) | (1 << 24));
/// The edge points other than corners.
const EDGES: Bitboard = Bitboard(0b11111_10001_10001_10001_11111 & !CORNERS.0);

/// Names of the evaluation terms, in the order [`terms`] returns them.
/// Number of terms, the total included.
pub const TERM_COUNT: usize = 10;

/// Names of the evaluation terms, in the order [`terms`] returns them.
pub const TERM_NAMES: [&str; TERM_COUNT] = [
    "captured",
    "tiger_mobility",
    "trapped_tigers",
    "en_prise",
    "exposed_goats",
    "goat_edges",
    "goat_links",
    "tiger_space",
    "tiger_region",
    "total",
];

/// Goats the tigers could capture now: the points jumped over by some legal capture.
pub fn capturable_goats(position: &Position) -> Bitboard {
    let empty = position.empty();
    let mut threatened = Bitboard::EMPTY;
    for (dir, &from) in JUMP_FROM.iter().enumerate() {
        let over = shift(position.tigers() & from, dir) & position.goats();
        let land = shift(over, dir) & empty;
        threatened |= shift(land, OPPOSITE[dir]);
    }
    threatened
}

/// Points where a tiger capture would land (a goat moved there blocks that capture).
pub fn capture_landings(position: &Position) -> Bitboard {
    let empty = position.empty();
    let mut landings = Bitboard::EMPTY;
    for (dir, &from) in JUMP_FROM.iter().enumerate() {
        let over = shift(position.tigers() & from, dir) & position.goats();
        landings |= shift(over, dir) & empty;
    }
    landings
}

/// The points next to some point of `set` along a line.
fn neighbours(set: Bitboard) -> Bitboard {
    let mut out = Bitboard::EMPTY;
    for (dir, &from) in STEP_FROM.iter().enumerate() {
        out |= shift(set & from, dir);
    }
    out
}

/// Empty points the tigers can reach by steps through empty points.
pub fn tiger_region(position: &Position) -> Bitboard {
    let empty = position.empty();
    let mut region = position.tigers();
    loop {
        let grown = region | (neighbours(region) & empty);
        if grown == region {
            return region & empty;
        }
        region = grown;
    }
}

/// Moves available to the tiger on `square` (steps and captures).
fn tiger_moves(position: &Position, square: Square, empty: Bitboard) -> u32 {
    let mut count = (NEIGHBOURS[square.index()] & empty).count();
    let jumps = &JUMPS[square.index()];
    for i in 0..jumps.len as usize {
        if position.goats().contains(jumps.over[i]) && empty.contains(jumps.land[i]) {
            count += 1;
        }
    }
    count
}

/// All terms from the goats' view, without the total.
fn goat_terms(position: &Position, rules: &Rules, params: &Params) -> [Value; TERM_COUNT - 1] {
    let goats = position.goats();
    let tigers = position.tigers();
    let empty = position.empty();

    let captured = Value::from(position.goats_captured());
    let mut captured_term = -params.captured * captured;
    if captured + 1 >= Value::from(rules.captures_to_win) {
        captured_term -= params.last_capture;
    }

    let mut mobility = 0;
    let mut trapped = 0;
    for square in tigers {
        let moves = tiger_moves(position, square, empty) as Value;
        mobility += moves;
        if moves == 0 {
            trapped += 1;
        }
    }
    let trapped_term = if trapped == 0 {
        0
    } else {
        params.trapped * trapped + params.trapped_extra * trapped * (trapped - 1)
    };

    let en_prise = if position.side_to_move() == Side::Goats {
        // One goat move blocks every capture landing on one point (or moves the goat away):
        // each further landing point costs a goat.
        let landings = capture_landings(position).count() as Value;
        if landings == 0 {
            0
        } else {
            -params.single_threat - params.en_prise * (landings - 1)
        }
    } else {
        -params.en_prise * capturable_goats(position).count() as Value
    };

    // Goats with a point on both sides along some line, neither holding a goat.
    let mut exposed = Bitboard::EMPTY;
    let not_goats = !goats;
    for dir in [0usize, 2, 4, 5] {
        let back = OPPOSITE[dir];
        let ahead_open = STEP_FROM[dir] & shift(not_goats, back);
        let behind_open = STEP_FROM[back] & shift(not_goats, dir);
        exposed |= goats & ahead_open & behind_open;
    }

    let mut links = 0;
    for dir in [0usize, 2, 4, 5] {
        links += (shift(goats & STEP_FROM[dir], dir) & goats).count() as Value;
    }

    let mut tiger_space = Bitboard::EMPTY;
    for square in tigers {
        tiger_space |= NEIGHBOURS[square.index()] & empty;
    }

    [
        captured_term,
        -params.tiger_mobility * mobility,
        trapped_term,
        en_prise,
        -params.exposed * exposed.count() as Value,
        params.corner_goat * (goats & CORNERS).count() as Value
            + params.edge_goat * (goats & EDGES).count() as Value,
        params.goat_link * links,
        -params.tiger_space * tiger_space.count() as Value,
        -params.tiger_region * tiger_region(position).count() as Value,
    ]
}

/// The evaluation terms from the side to move's view, the total last (same order as
/// [`TERM_NAMES`]).
pub fn terms(position: &Position, rules: &Rules, params: &Params) -> [Value; TERM_COUNT] {
    let goat_view = goat_terms(position, rules, params);
    let sign = if position.side_to_move() == Side::Goats {
        1
    } else {
        -1
    };
    let mut out = [0; TERM_COUNT];
    for (slot, value) in out.iter_mut().zip(goat_view) {
        *slot = sign * value;
    }
    out[TERM_COUNT - 1] = out[..TERM_COUNT - 1].iter().sum();
    out
}

/// The static evaluation from the side to move's view.
#[inline]
pub fn evaluate(position: &Position, rules: &Rules, params: &Params) -> Value {
    terms(position, rules, params)[TERM_COUNT - 1]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn position(text: &str) -> Position {
        text.parse().unwrap()
    }

    #[test]
    fn start_position_is_balanced_enough() {
        let value = evaluate(&Position::startpos(), &Rules::default(), &Params::default());
        assert!(value.abs() < 150, "{value}");
    }

    #[test]
    fn captures_are_bad_for_goats() {
        let rules = Rules::default();
        let fewer = position("T3T/5/2G2/5/T3T g 17 2");
        let more = position("T3T/5/2G2/5/T3T g 18 1");
        assert!(
            evaluate(&fewer, &rules, &Params::default())
                < evaluate(&more, &rules, &Params::default())
        );
    }

    #[test]
    fn threatened_goats_are_seen() {
        let threatened = position("T3T/5/5/1G3/T3T t 19 0");
        assert_eq!(capturable_goats(&threatened).count(), 1);
        assert_eq!(capture_landings(&threatened).count(), 1);
        assert!(evaluate(&threatened, &Rules::default(), &Params::default()) > 0);
    }

    #[test]
    fn terms_sum_to_total() {
        let p = position("T3T/1GGG1/1G1G1/1GGG1/T3T t 12 0");
        let t = terms(&p, &Rules::default(), &Params::default());
        assert_eq!(t[..TERM_COUNT - 1].iter().sum::<Value>(), t[TERM_COUNT - 1]);
        assert_eq!(t.len(), TERM_NAMES.len());
    }
}
