//! Zobrist keys, generated at compile time from a fixed seed.

const fn splitmix(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    (state, mix(state))
}

const fn keys<const N: usize>(seed: u64) -> [u64; N] {
    let mut out = [0; N];
    let mut state = seed;
    let mut i = 0;
    while i < N {
        let (next, key) = splitmix(state);
        state = next;
        out[i] = key;
        i += 1;
    }
    out
}

/// A tiger on each point.
pub const TIGER: [u64; 25] = keys(1);
/// A goat on each point.
pub const GOAT: [u64; 25] = keys(2);
/// Goats in hand, 0..=20.
pub const IN_HAND: [u64; 21] = keys(3);
/// Goats captured, 0..=20.
pub const CAPTURED: [u64; 21] = keys(4);
/// Tigers to move.
pub const TIGERS_TO_MOVE: u64 = keys::<1>(5)[0];

/// A state's contribution to the key of a set of states (a game's history under the forbid
/// rule), the set's key being the XOR of its states' contributions (0 for none). Zobrist keys
/// themselves will not do: they are linear, so the XOR of several positions' keys depends only
/// on how often each piece stood on each point, and two different histories of the same moves
/// back and forth collide. This mix (SplitMix64's finalizer, never 0) is not linear.
pub(crate) fn history_key(hash: u64) -> u64 {
    mix(hash ^ 0x9e37_79b9_7f4a_7c15) | 1
}

/// SplitMix64's finalizer: a bijection of 64-bit words that is not linear, for combining
/// keys that must not cancel one another.
pub(crate) const fn mix(mut x: u64) -> u64 {
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}
