//! Measured Elo of each `Skill Level` (index = level), the uniformly random mover = 0.
//!
//! Written by `tools/calibrate_fit.py`, run by `PAIRS=30 PAIRS_FULL=15 FULL_NODES=64000 SEED=1 tools/calibrate.sh calibration`
//! (42 matches, 2460 games; level 20 at 64000 nodes per move; docs/strength.md). Do not edit.

/// Elo of levels 0..=20 on the scale where the uniformly random mover is 0.
#[rustfmt::skip]
pub const LEVEL_ELO: [i32; 21] = [72, 108, 176, 177, 243, 472, 561, 723, 879, 955, 1058, 1112, 1200, 1257, 1343, 1392, 1437, 1570, 1599, 1650, 1990];
