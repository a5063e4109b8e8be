//! Static evaluation designed for Bagh Chal, in goat units (100 = one goat).
//!
//! A weighted sum of features computed from the goats' point of view and negated for the
//! tigers: goats captured, how freely the tigers move (a tiger with no move is out of the game,
//! four trapped tigers lose), goats the tigers can capture next move, goats the tigers can never
//! jump (corners, and goats shielded by other goats), and compact goat formations. Each feature
//! has a placement and a movement weight, fitted to tablebase values (docs/eval.md).

use crate::position::TOTAL_GOATS;
use crate::tables::{shift, JUMPS, JUMP_FROM, NEIGHBOURS, STEP_FROM};
use crate::{Bitboard, Position, Rules, Side, Square};

use super::network;
use super::params::Params;
use super::score::Value;

/// Opposite of each direction of [`crate::tables::DIRECTIONS`].
const OPPOSITE: [usize; 8] = [1, 0, 3, 2, 7, 6, 5, 4];

/// The four corners: goats there can never be captured.
const CORNERS: Bitboard = Bitboard((1 << 0) | (1 << 4) | (1 << 20) | (1 << 24));
/// The edge points other than corners.
const EDGES: Bitboard = Bitboard(0b11111_10001_10001_10001_11111 & !CORNERS.0);

/// Number of evaluation features.
pub const FEATURE_COUNT: usize = 17;

/// Names of the features, in the order [`features`] returns them.
pub const FEATURE_NAMES: [&str; FEATURE_COUNT] = [
    "captured",
    "last_capture",
    "tiger_mobility",
    "trapped",
    "trapped_pairs",
    "nearly_trapped",
    "threat",
    "threat_extra",
    "threatened",
    "exposed",
    "corner_goats",
    "edge_goats",
    "goat_links",
    "tiger_space",
    "tiger_region",
    "tempo",
    "strong_goats",
];

/// Number of terms of [`terms`]: one per feature, then the total.
pub const TERM_COUNT: usize = FEATURE_COUNT + 1;

/// Names of the evaluation terms, in the order [`terms`] returns them.
pub const TERM_NAMES: [&str; TERM_COUNT] = {
    let mut names = ["total"; TERM_COUNT];
    let mut i = 0;
    while i < FEATURE_COUNT {
        names[i] = FEATURE_NAMES[i];
        i += 1;
    }
    names
};

/// Feature values of a position, from the goats' view (see [`features`]).
pub type Features = [Value; FEATURE_COUNT];

/// Weights per feature at the start of the placement phase (20 goats in hand) and in the
/// movement phase (none in hand); in between they are interpolated by the goats in hand.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Weights {
    /// With all 20 goats in hand.
    pub placement: Features,
    /// With no goat in hand.
    pub movement: Features,
}

impl Default for Weights {
    /// The fitted weights of [`super::eval_weights`].
    fn default() -> Weights {
        Weights {
            placement: super::eval_weights::PLACEMENT,
            movement: super::eval_weights::MOVEMENT,
        }
    }
}

/// The points with diagonal lines (eight neighbours in the middle of the board).
const STRONG_POINTS: Bitboard = Bitboard(0b10101_01010_10101_01010_10101);

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

/// The features of `position` from the goats' view: counts (or 0/1 flags) that the weights turn
/// into goat units. `rules` gives the captures the tigers need.
pub fn features(position: &Position, rules: &Rules) -> Features {
    let goats = position.goats();
    let tigers = position.tigers();
    let empty = position.empty();
    let goats_to_move = position.side_to_move() == Side::Goats;

    let captured = Value::from(position.goats_captured());
    let last_capture = Value::from(captured + 1 >= Value::from(rules.captures_to_win));

    let (mut mobility, mut trapped, mut nearly_trapped) = (0, 0, 0);
    for square in tigers {
        let moves = tiger_moves(position, square, empty) as Value;
        mobility += moves;
        trapped += Value::from(moves == 0);
        nearly_trapped += Value::from(moves == 1);
    }

    // Goats to move block every capture landing on one point with one move (or move the goat
    // away): the first landing point is one threat, each further one costs a goat. Tigers to
    // move: the goats they can capture now.
    let (mut threat, mut threat_extra, mut threatened) = (0, 0, 0);
    if goats_to_move {
        let landings = capture_landings(position).count() as Value;
        threat = Value::from(landings > 0);
        threat_extra = (landings - 1).max(0);
    } else {
        threatened = capturable_goats(position).count() as Value;
    }

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
        captured,
        last_capture,
        mobility,
        trapped,
        trapped * (trapped - 1),
        nearly_trapped,
        threat,
        threat_extra,
        threatened,
        exposed.count() as Value,
        (goats & CORNERS).count() as Value,
        (goats & EDGES).count() as Value,
        links,
        tiger_space.count() as Value,
        tiger_region(position).count() as Value,
        if goats_to_move { 1 } else { -1 },
        (goats & STRONG_POINTS).count() as Value,
    ]
}

/// The weight of each feature at `in_hand` goats in hand, in twentieths (the placement weight
/// times `in_hand` plus the movement weight times the rest).
#[inline]
fn phase_weight(weights: &Weights, feature: usize, in_hand: Value) -> Value {
    weights.placement[feature] * in_hand
        + weights.movement[feature] * (Value::from(TOTAL_GOATS) - in_hand)
}

/// The weighted sum of `features` at `in_hand` goats in hand (goats' view).
fn weighted(features: &Features, in_hand: Value, weights: &Weights) -> Value {
    let mut sum = 0;
    for (i, &value) in features.iter().enumerate() {
        sum += value * phase_weight(weights, i, in_hand);
    }
    sum / Value::from(TOTAL_GOATS)
}

/// The evaluation terms from the side to move's view, the total last, as the protocol's `eval`
/// prints them: the weighted features ([`TERM_NAMES`]), or with the pattern network on its
/// parts ([`network::Parts`]): `bucket` (the phase bucket read), `tuples` and `bias` (goat
/// units, each rounded on its own), `expected_permille` (the expected result for the side to
/// move, per mille) and `total`.
pub fn terms(position: &Position, rules: &Rules, params: &Params) -> Vec<(&'static str, Value)> {
    if params.network != 0 {
        let parts = network::embedded().parts(position, rules);
        return vec![
            ("bucket", parts.bucket as Value),
            ("tuples", parts.tuples),
            ("bias", parts.bias),
            (
                "expected_permille",
                (parts.expected * 1000.0).round() as Value,
            ),
            ("total", parts.value),
        ];
    }
    let features = features(position, rules);
    let in_hand = Value::from(position.goats_in_hand());
    let sign = if position.side_to_move() == Side::Goats {
        1
    } else {
        -1
    };
    let mut out = [0; TERM_COUNT];
    for (i, &value) in features.iter().enumerate() {
        out[i] =
            sign * value * phase_weight(&params.weights, i, in_hand) / Value::from(TOTAL_GOATS);
    }
    out[FEATURE_COUNT] = sign * weighted(&features, in_hand, &params.weights);
    TERM_NAMES.into_iter().zip(out).collect()
}

/// The static evaluation from the side to move's view: the weighted features, or the pattern
/// network when `params.network` is on.
#[inline]
pub fn evaluate(position: &Position, rules: &Rules, params: &Params) -> Value {
    if params.network != 0 {
        return network::embedded().evaluate(position, rules);
    }
    let goat_view = weighted(
        &features(position, rules),
        Value::from(position.goats_in_hand()),
        &params.weights,
    );
    if position.side_to_move() == Side::Goats {
        goat_view
    } else {
        -goat_view
    }
}

/// Under `Repetition forbid`, with the tables, how much worse the search scores a position of
/// the goats' last layer (goats captured = captures to win - 1) for the goats than the
/// evaluation does, in goat units: there the tables' draw is no safety (every table draw of
/// that layer ends in a squeeze the goats lose unless they keep fresh moves to the end), so the
/// goats with the tables stop letting the tigers take a goat into it (docs/forbid.md, "The
/// goats' last layer under forbid").
pub const FORBID_LAST_LAYER: Value = 150;

/// The malus [`last_layer_shift`] applies for a search under `rules`, `with_tables` or not,
/// for `root_side` (the side to move at the root): [`FORBID_LAST_LAYER`] under `Repetition
/// forbid` with the tables when the goats search, else 0. The tigers' search is unchanged: a
/// bonus for entering the layer made them take the fourth goat at any price (head to head,
/// docs/forbid.md); under `Repetition draw` nothing changes.
pub fn last_layer_malus(rules: &Rules, with_tables: bool, root_side: Side) -> Value {
    if with_tables && rules.repetition == crate::Repetition::Forbid && root_side == Side::Goats {
        FORBID_LAST_LAYER
    } else {
        0
    }
}

/// What the search adds to [`evaluate`] in the goats' last layer, from the side to move's view:
/// `-malus` with the goats to move, `malus` with the tigers, 0 in every other layer.
#[inline]
pub fn last_layer_shift(position: &Position, rules: &Rules, malus: Value) -> Value {
    if malus == 0 || position.goats_captured() + 1 != rules.captures_to_win {
        0
    } else if position.side_to_move() == Side::Goats {
        -malus
    } else {
        malus
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::options::Evaluation;

    fn position(text: &str) -> Position {
        text.parse().unwrap()
    }

    /// Settings with the weighted features as the evaluation (these tests are about them; the
    /// default is the network).
    fn classic() -> Params {
        Params::default().with_evaluation(Evaluation::Classic)
    }

    #[test]
    fn start_position_is_balanced_enough() {
        let value = evaluate(&Position::startpos(), &Rules::default(), &classic());
        assert!(value.abs() < 150, "{value}");
    }

    #[test]
    fn captures_are_bad_for_goats() {
        let rules = Rules::default();
        let fewer = position("T3T/5/2G2/5/T3T g 17 2");
        let more = position("T3T/5/2G2/5/T3T g 18 1");
        assert!(evaluate(&fewer, &rules, &classic()) < evaluate(&more, &rules, &classic()));
    }

    #[test]
    fn threatened_goats_are_seen() {
        let threatened = position("T3T/5/5/1G3/T3T t 19 0");
        assert_eq!(capturable_goats(&threatened).count(), 1);
        assert_eq!(capture_landings(&threatened).count(), 1);
        assert!(evaluate(&threatened, &Rules::default(), &classic()) > 0);
    }

    fn feature(features: &Features, name: &str) -> Value {
        features[FEATURE_NAMES.iter().position(|&n| n == name).unwrap()]
    }

    /// Tiger mobility, trapped and nearly trapped tigers agree with the move generator, over
    /// random playouts.
    #[test]
    fn tiger_features_agree_with_the_move_generator() {
        use rand::rngs::StdRng;
        use rand::{Rng, SeedableRng};
        let rules = Rules::default();
        let mut rng = StdRng::seed_from_u64(3);
        let mut seen_nearly_trapped = false;
        for _ in 0..200 {
            let mut game = crate::Game::startpos(rules);
            while game.outcome().is_none() && game.ply() < 120 {
                let moves = game.legal_moves();
                game.play_unchecked(moves[rng.random_range(0..moves.len())]);
                let position = game.position();
                if position.side_to_move() != Side::Tigers || game.outcome().is_some() {
                    continue;
                }
                let moves = position.legal_moves(&rules);
                let per_tiger: Vec<usize> = position
                    .tigers()
                    .into_iter()
                    .map(|sq| moves.iter().filter(|mv| mv.from() == Some(sq)).count())
                    .collect();
                let f = features(position, &rules);
                assert_eq!(
                    feature(&f, "tiger_mobility") as usize,
                    moves.len(),
                    "{position}"
                );
                let count = |n: usize| per_tiger.iter().filter(|&&m| m == n).count() as Value;
                assert_eq!(feature(&f, "trapped"), count(0), "{position}");
                assert_eq!(feature(&f, "nearly_trapped"), count(1), "{position}");
                seen_nearly_trapped |= count(1) > 0;
            }
        }
        assert!(seen_nearly_trapped);
    }

    #[test]
    fn tempo_belongs_to_the_side_to_move() {
        let rules = Rules::default();
        let goats = features(&position("T3T/5/2G2/5/T3T g 19 0"), &rules);
        let tigers = features(&position("T3T/5/2G2/5/T3T t 19 0"), &rules);
        assert_eq!(feature(&goats, "tempo"), 1);
        assert_eq!(feature(&tigers, "tempo"), -1);
        assert_eq!(feature(&goats, "strong_goats"), 1);
    }

    /// Placement weights count fully with 20 goats in hand, movement weights with none.
    #[test]
    fn weights_follow_the_goats_in_hand() {
        let rules = Rules::default();
        let mut params = classic();
        params.weights.placement = [0; FEATURE_COUNT];
        params.weights.movement = [0; FEATURE_COUNT];
        params.set("placement.corner_goats", 100).unwrap();
        params.set("movement.corner_goats", 10).unwrap();
        // Goats to move, one goat on a corner.
        let start = position("T3T/5/5/5/T3T g 20 0");
        assert_eq!(evaluate(&start, &rules, &params), 0);
        let placing = position("GT2T/5/5/5/T3T t 19 0");
        let moving = position("GGGGG/GGGGG/GTGGG/GTG1T/1TGGG t 0 1");
        assert_eq!(evaluate(&placing, &rules, &params), -(100 * 19 + 10) / 20);
        let corners = (moving.goats() & CORNERS).count() as Value;
        assert_eq!(evaluate(&moving, &rules, &params), -10 * corners);
    }

    #[test]
    fn terms_sum_to_total() {
        let p = position("T3T/1GGG1/1G1G1/1GGG1/T3T t 12 0");
        let t = terms(&p, &Rules::default(), &classic());
        let names: Vec<&str> = t.iter().map(|&(name, _)| name).collect();
        assert_eq!(names, TERM_NAMES);
        // Each term is rounded on its own, so the sum may differ by the rounding.
        let sum = t[..TERM_COUNT - 1].iter().map(|&(_, v)| v).sum::<Value>();
        assert!(
            (sum - t[TERM_COUNT - 1].1).abs() < FEATURE_COUNT as Value,
            "{t:?}"
        );
        assert_eq!(
            t[TERM_COUNT - 1].1,
            evaluate(&p, &Rules::default(), &classic())
        );
    }

    /// With the network on, the terms are its parts: the bucket it read, tuples and bias that
    /// add up to the total (up to rounding), and the expected result of the total.
    #[test]
    fn network_terms_are_its_parts() {
        let rules = Rules::default();
        let params = Params::default().with_evaluation(Evaluation::Network);
        for text in [
            "T3T/1GGG1/1G1G1/1GGG1/T3T t 12 0",
            "T3T/5/5/5/T3T g 20 0",
            "GGGGT/GT1TG/GG1GG/G1GGG/TGGG1 g 0 3",
        ] {
            let p = position(text);
            let t = terms(&p, &rules, &params);
            let names: Vec<&str> = t.iter().map(|&(name, _)| name).collect();
            assert_eq!(
                names,
                ["bucket", "tuples", "bias", "expected_permille", "total"]
            );
            let total = evaluate(&p, &rules, &params);
            assert_eq!(t[4].1, total);
            assert_eq!(t[0].1 as usize, network::shape::bucket(&p, &rules));
            assert!((t[1].1 + t[2].1 - total).abs() <= 1, "{t:?}");
            let expected = 1000.0 / (1.0 + (-f64::from(total) * 0.003).exp());
            assert!((f64::from(t[3].1) - expected).abs() <= 1.0, "{t:?}");
        }
    }

    #[test]
    fn the_last_layer_malus_applies_to_the_goats_under_forbid_with_tables_only() {
        use crate::Repetition;
        // 16 goats on the board and 4 captured (the last layer for CapturesToWin 5); 17 and 3.
        let last = [
            "GGGGG/GTGTG/GG1GG/GTGTG/G1111 g 0 4",
            "GGGGG/GTGTG/GG1GG/GTGTG/G1111 t 0 4",
        ];
        let before_last = position("GGGGG/GTGTG/GG1GG/GTGTG/GG111 g 0 3");
        for repetition in [Repetition::Draw, Repetition::Forbid] {
            for (with_tables, root_side) in [
                (false, Side::Goats),
                (true, Side::Goats),
                (true, Side::Tigers),
            ] {
                let rules = Rules {
                    repetition,
                    ..Rules::default()
                };
                let malus = last_layer_malus(&rules, with_tables, root_side);
                let applies = repetition == Repetition::Forbid && with_tables;
                let expected = if applies && root_side == Side::Goats {
                    FORBID_LAST_LAYER
                } else {
                    0
                };
                assert_eq!(
                    malus, expected,
                    "{repetition:?} {with_tables} {root_side:?}"
                );
                // From the side to move's view: worse for the goats, better for the tigers.
                let shift = |text: &str| last_layer_shift(&position(text), &rules, malus);
                assert_eq!(shift(last[0]), -expected);
                assert_eq!(shift(last[1]), expected);
                assert_eq!(last_layer_shift(&before_last, &rules, malus), 0);
                // The last layer follows CapturesToWin: with 4 to win it is 3 captured.
                let four = Rules {
                    captures_to_win: 4,
                    ..rules
                };
                assert_eq!(last_layer_shift(&before_last, &four, malus), -expected);
            }
        }
    }
}
