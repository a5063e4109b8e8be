//! Evaluation weights per feature (goat units, the goats' view), in the order of
//! [`super::eval::FEATURE_NAMES`]. Written by tools/eval_tune.rs; do not edit.
//!
//! Command: `GAMES=400 NODES=4000 STEPS=2000 WRITE=1 tools/eval.sh TABLES`
//!
//! 322588 positions, K 0.003: mean squared error 0.02939 (held back 0.02919).

use super::eval::Features;

/// With all 20 goats in hand.
pub const PLACEMENT: Features = [
    -72,  // captured
    -853, // last_capture
    7,    // tiger_mobility
    22,   // trapped
    16,   // trapped_pairs
    13,   // nearly_trapped
    22,   // threat
    -35,  // threat_extra
    -70,  // threatened
    -12,  // exposed
    74,   // corner_goats
    83,   // edge_goats
    7,    // goat_links
    1,    // tiger_space
    -1,   // tiger_region
    -15,  // tempo
    9,    // strong_goats
];

/// With no goat in hand.
pub const MOVEMENT: Features = [
    -50,  // captured
    -184, // last_capture
    -3,   // tiger_mobility
    56,   // trapped
    14,   // trapped_pairs
    1,    // nearly_trapped
    7,    // threat
    -61,  // threat_extra
    -237, // threatened
    -65,  // exposed
    32,   // corner_goats
    -4,   // edge_goats
    9,    // goat_links
    -12,  // tiger_space
    -59,  // tiger_region
    46,   // tempo
    11,   // strong_goats
];
