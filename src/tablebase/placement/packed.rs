//! 2-bit values, four to a byte: the storage of placement layers.

use super::super::Wdl;

/// Code of a draw (also the value of zeroed storage).
pub const DRAW: u8 = 0;
/// Code of a win for the side to move.
pub const WIN: u8 = 1;
/// Code of a loss for the side to move.
pub const LOSS: u8 = 2;

/// The result a 2-bit code stands for; `None` for the unused code 3.
#[inline]
pub fn wdl_of(code: u8) -> Option<Wdl> {
    match code {
        DRAW => Some(Wdl::Draw),
        WIN => Some(Wdl::Win),
        LOSS => Some(Wdl::Loss),
        _ => None,
    }
}

/// The 2-bit code of a result.
#[inline]
pub fn code_of(wdl: Wdl) -> u8 {
    match wdl {
        Wdl::Draw => DRAW,
        Wdl::Win => WIN,
        Wdl::Loss => LOSS,
    }
}

/// The code at `index` in packed bytes.
#[inline(always)]
pub fn get(bytes: &[u8], index: u64) -> u8 {
    (bytes[(index >> 2) as usize] >> ((index & 3) * 2)) & 3
}

/// Counts of wins, draws and losses among the first `len` packed codes.
pub fn count_codes(bytes: &[u8], len: u64) -> [u64; 3] {
    // Per byte value: how many of its four codes are wins, draws, losses.
    let mut per_byte = [[0u64; 3]; 256];
    for (byte, counts) in per_byte.iter_mut().enumerate() {
        for slot in 0..4 {
            match (byte >> (2 * slot)) & 3 {
                1 => counts[0] += 1,
                0 => counts[1] += 1,
                _ => counts[2] += 1,
            }
        }
    }
    let full = (len / 4) as usize;
    let mut counts = [0u64; 3];
    for &byte in &bytes[..full] {
        for (total, add) in counts.iter_mut().zip(per_byte[byte as usize]) {
            *total += add;
        }
    }
    for index in (full as u64 * 4)..len {
        match get(bytes, index) {
            WIN => counts[0] += 1,
            DRAW => counts[1] += 1,
            _ => counts[2] += 1,
        }
    }
    counts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip_and_count() {
        let codes = [WIN, DRAW, LOSS, LOSS, WIN, DRAW, DRAW];
        let mut bytes = vec![0u8; 2];
        for (i, &code) in codes.iter().enumerate() {
            bytes[i / 4] |= code << (2 * (i % 4));
        }
        for (i, &code) in codes.iter().enumerate() {
            assert_eq!(get(&bytes, i as u64), code);
            assert_eq!(code_of(wdl_of(code).unwrap()), code);
        }
        assert_eq!(count_codes(&bytes, 7), [2, 3, 2]);
        assert_eq!(wdl_of(3), None);
    }
}
