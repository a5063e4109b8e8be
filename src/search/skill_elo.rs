//! Measured Elo of each `Skill Level` (index = level), the uniformly random mover = 0.
//!
//! Written by `tools/calibrate_fit.py`, run by `PAIRS=30 PAIRS_FULL=15 FULL_NODES=64000 SEED=1 tools/calibrate.sh calibration`
//! (42 matches, 2460 games; level 20 at 64000 nodes per move; docs/strength.md). Do not edit.

/// Elo of levels 0..=20 on the scale where the uniformly random mover is 0.
#[rustfmt::skip]
pub const LEVEL_ELO: [i32; 21] = [149, 186, 262, 346, 390, 632, 681, 764, 911, 984, 1049, 1161, 1228, 1252, 1307, 1359, 1438, 1494, 1518, 1534, 1770];
