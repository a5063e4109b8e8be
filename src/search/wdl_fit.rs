//! Fitted win/draw/loss model constants.
//!
//! Written by `tools/wdl_fit.py`, run by `GAMES=240 NODES=4000 SEED=1 tools/wdl.sh wdl-data`
//! (30687 positions fitted, 8112 held back; docs/wdl.md). Do not edit.

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
            [l(147.5, 147.5, 96.2), l(147.5, 147.5, 96.2), l(158.9, 158.9, 59.6), l(121.1, 121.1, 91.6)], // own, pooled over captures
            [l(197.3, 197.3, 116.6), l(206.0, 206.0, 142.0), l(165.5, 165.5, 79.5), l(197.3, 197.3, 116.6)], // own, pooled over captures
            [l(127.2, 127.2, 343.3), l(71.6, 71.6, 59.3), l(127.4, 127.4, 140.0), l(127.4, 127.4, 140.0)], // own, pooled over captures
            [l(109.4, 109.4, 293.8), l(105.8, 105.8, 161.3), l(105.8, 105.8, 161.3), l(105.8, 105.8, 161.3)], // own, pooled over captures
        ],
        // tigers to move
        [
            [l(-151.5, -151.5, 97.0), l(-151.5, -151.5, 97.0), l(-151.2, -151.2, 58.6), l(-125.2, -125.2, 93.9)], // own, pooled over captures
            [l(-198.3, -198.3, 116.8), l(-199.2, -199.2, 127.2), l(-173.3, -173.3, 84.4), l(-198.3, -198.3, 116.8)], // own, pooled over captures
            [l(-128.0, -128.0, 207.2), l(-66.8, -66.8, 51.1), l(-117.4, -117.4, 108.0), l(-117.4, -117.4, 108.0)], // own, pooled over captures
            [l(-104.3, -104.3, 179.9), l(-104.2, -104.2, 129.4), l(-104.2, -104.2, 129.4), l(-104.2, -104.2, 129.4)], // own, pooled over captures
        ],
    ],
    // Repetition draw
    [
        // goats to move
        [
            [l(-313.1, 446.6, 98.9), l(-313.1, 446.6, 98.9), l(-131.3, 381.8, 48.0), l(-317.2, 2663.7, 111.7)], // own, pooled over captures
            [l(-149.9, 376.1, 93.6), l(-139.2, 364.7, 85.6), l(-136.9, 429.3, 94.8), l(-149.9, 376.1, 93.6)], // own, pooled over captures
            [l(-370.1, 330.6, 141.1), l(-346.5, 474.1, 161.8), l(-291.4, 354.3, 134.0), l(-291.4, 354.3, 134.0)], // own, pooled over captures
            [l(-292.1, 270.2, 117.4), l(-304.5, 291.9, 119.2), l(-304.5, 291.9, 119.2), l(-304.5, 291.9, 119.2)], // own, pooled over captures
        ],
        // tigers to move
        [
            [l(-447.3, 310.6, 98.3), l(-447.3, 310.6, 98.3), l(-400.8, 145.1, 53.4), l(-1683.1, 315.4, 107.7)], // own, pooled over captures
            [l(-389.8, 159.3, 99.8), l(-369.1, 143.6, 88.5), l(-538.5, 152.2, 117.5), l(-389.8, 159.3, 99.8)], // own, pooled over captures
            [l(-287.5, 223.8, 105.6), l(-449.7, 286.6, 147.1), l(-307.7, 217.0, 108.1), l(-307.7, 217.0, 108.1)], // own, pooled over captures
            [l(-256.5, 241.5, 100.6), l(-272.2, 255.7, 103.0), l(-272.2, 255.7, 103.0), l(-272.2, 255.7, 103.0)], // own, pooled over captures
        ],
    ],
];
