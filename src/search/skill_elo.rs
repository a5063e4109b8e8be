//! Measured Elo of each `Skill Level` (index = level), the uniformly random mover = 0.
//!
//! Written by `tools/calibrate_fit.py`, run by `PAIRS=30 PAIRS_FULL=15 tools/calibrate.sh calibration`
//! (42 matches, 2460 games; level 20 at 64000 nodes per move; docs/strength.md). Do not edit.

/// Elo of levels 0..=20 on the scale where the uniformly random mover is 0.
#[rustfmt::skip]
pub const LEVEL_ELO: [i32; 21] = [72, 108, 176, 177, 242, 464, 549, 795, 889, 986, 1099, 1174, 1179, 1277, 1353, 1453, 1482, 1573, 1701, 1725, 2077];
