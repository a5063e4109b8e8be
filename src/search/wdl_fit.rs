//! Fitted win/draw/loss model constants.
//!
//! Written by `tools/wdl_fit.py`, run by `GAMES=240 NODES=4000 SEED=1 tools/wdl.sh wdl-data`
//! (32076 positions fitted, 8436 held back; docs/wdl.md). Do not edit.

use super::wdl::{Logit, CAPTURE_BUCKETS, HAND_BUCKETS};

const fn l(loss_below: f64, win_above: f64, scale: f64) -> Logit {
    Logit {
        loss_below,
        win_above,
        scale,
    }
}

/// `[repetition forbid, draw][goats, tigers to move][hand bucket][captures bucket]`
/// (hand: 0, 1..=7, 8..=14, 15..=20 goats; captures still needed: 5+, 4, 3, 2 or fewer).
#[rustfmt::skip]
pub const FIT: [[[[Logit; CAPTURE_BUCKETS]; HAND_BUCKETS]; 2]; 2] = [
    // Repetition forbid
    [
        // goats to move
        [
            [l(-60.4, -60.4, 67.3), l(-60.4, -60.4, 67.3), l(-40.8, -40.8, 41.8), l(-102.0, -102.0, 60.8)], // own, pooled over captures
            [l(24.9, 24.9, 68.0), l(13.7, 13.7, 52.9), l(53.0, 53.0, 80.4), l(24.9, 24.9, 68.0)], // own, pooled over captures
            [l(-62.2, -62.2, 82.8), l(143.8, 143.8, 260.6), l(722.7, 722.7, 353.8), l(-62.2, -62.2, 82.8)], // own, pooled over captures
            [l(-152.8, -152.8, 56.9), l(-154.9, -154.9, 60.7), l(-154.9, -154.9, 60.7), l(-154.9, -154.9, 60.7)], // own, pooled over captures
        ],
        // tigers to move
        [
            [l(50.6, 50.6, 68.8), l(-4.0, -4.0, 40.2), l(42.8, 42.8, 38.7), l(95.2, 95.2, 63.6)], // own, pooled over captures
            [l(-32.3, -32.3, 73.9), l(-25.0, -25.0, 66.0), l(-172.0, -172.0, 126.0), l(-32.3, -32.3, 73.9)], // own, pooled over captures
            [l(60.9, 60.9, 86.2), l(-94.9, -94.9, 215.2), l(-542.9, -542.9, 290.5), l(60.9, 60.9, 86.2)], // own, pooled over captures
            [l(163.9, 163.9, 63.7), l(163.5, 163.5, 60.0), l(163.5, 163.5, 60.0), l(163.5, 163.5, 60.0)], // own, pooled over captures
        ],
    ],
    // Repetition draw
    [
        // goats to move
        [
            [l(-320.5, 344.2, 135.0), l(-320.5, 344.2, 135.0), l(-185.7, 114.4, 51.9), l(-324.4, 384.4, 146.0)], // own, pooled over captures
            [l(-177.1, 248.5, 105.5), l(-158.4, 232.8, 105.1), l(-182.6, 296.4, 85.7), l(-177.1, 248.5, 105.5)], // own, pooled over captures
            [l(-272.1, 145.4, 115.0), l(-316.5, 297.2, 188.9), l(-294.5, 847.7, 190.0), l(-272.1, 145.4, 115.0)], // own, pooled over captures
            [l(-257.0, -41.8, 54.1), l(-309.5, 26.8, 95.3), l(-309.5, 26.8, 95.3), l(-309.5, 26.8, 95.3)], // own, pooled over captures
        ],
        // tigers to move
        [
            [l(-348.2, 316.7, 134.2), l(-348.2, 316.7, 134.2), l(-131.4, 192.7, 55.5), l(-375.0, 322.2, 143.1)], // own, pooled over captures
            [l(-257.4, 172.0, 107.8), l(-217.6, 150.7, 103.5), l(-332.7, 177.3, 82.0), l(-257.4, 172.0, 107.8)], // own, pooled over captures
            [l(-146.7, 274.1, 116.0), l(-252.3, 300.0, 170.4), l(-828.7, 297.8, 214.4), l(-146.7, 274.1, 116.0)], // own, pooled over captures
            [l(21.3, 294.8, 72.6), l(-22.4, 323.3, 96.8), l(-22.4, 323.3, 96.8), l(-22.4, 323.3, 96.8)], // own, pooled over captures
        ],
    ],
];
