//! Forbid files: the values from an empty history of a layer's table draws, two bits a symmetry
//! class, beside the tables (`forbid-<captured>.bcfb`). Little-endian:
//!
//! | offset | size | field |
//! |---:|---:|---|
//! | 0 | 8 | magic `BAGHFB\r\n` |
//! | 8 | 4 | format version (1) |
//! | 12 | 1 | forced capture (0 or 1) |
//! | 13 | 1 | captures to win |
//! | 14 | 1 | goats captured in this layer |
//! | 15 | 1 | 0 |
//! | 16 | 8 | classes per side to move `n` |
//! | 24 | 8 | largest component solved (`--max-states`) |
//! | 32 | 8 | node budget per component |
//! | 40 | 48 | counts: goats to move wins, losses, unknowns; the same for tigers to move |
//! | 88 | 4 | CRC-32 of the payload |
//! | 92 | 4 | CRC-32 of bytes 0..92 |
//! | 96 | | codes, goats to move then tigers to move, each side `ceil(n / 4)` bytes |
//!
//! A code is 0 when the class is not a table draw (its table value holds from an empty
//! history), else [`ForbidValue::code`](super::ForbidValue::code), four to a byte, lowest bits
//! first.

use crate::tablebase::file::{crc32, open_error, u32_at, u64_at, write_atomic};
use crate::tablebase::{Corruption, TableRules, TablebaseError};
use std::fs;
use std::path::{Path, PathBuf};

/// File magic.
pub const MAGIC: [u8; 8] = *b"BAGHFB\r\n";
/// Format version.
pub const VERSION: u32 = 1;
/// Header length in bytes.
pub const HEADER_LEN: usize = 96;

/// The header of a forbid file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ForbidHeader {
    /// The rules of the tables.
    pub rules: TableRules,
    /// Goats captured in the layer.
    pub captured: u8,
    /// Classes per side to move.
    pub positions: u64,
    /// Components up to this many raw states were solved.
    pub max_states: u64,
    /// Search nodes allowed per component.
    pub node_budget: u64,
    /// `counts[side]`: wins, losses, unknowns among the table-draw classes.
    pub counts: [[u64; 3]; 2],
}

/// The forbid file of layer `captured` in a table directory.
pub fn forbid_path(dir: &Path, captured: u8) -> PathBuf {
    dir.join(format!("forbid-{captured}.bcfb"))
}

/// Packs one code per class (both sides, `2 * positions` bytes) into the payload.
pub fn pack(codes: &[u8], positions: usize) -> Vec<u8> {
    let side_bytes = positions.div_ceil(4);
    let mut out = vec![0u8; 2 * side_bytes];
    for side in 0..2 {
        for (i, &code) in codes[side * positions..(side + 1) * positions]
            .iter()
            .enumerate()
        {
            out[side * side_bytes + i / 4] |= (code & 3) << (2 * (i % 4));
        }
    }
    out
}

/// Unpacks a payload into one code per class (both sides).
pub fn unpack(payload: &[u8], positions: usize) -> Vec<u8> {
    let side_bytes = positions.div_ceil(4);
    (0..2)
        .flat_map(|side| {
            (0..positions).map(move |i| (payload[side * side_bytes + i / 4] >> (2 * (i % 4))) & 3)
        })
        .collect()
}

fn encode_header(header: &ForbidHeader, payload_crc: u32) -> [u8; HEADER_LEN] {
    let mut out = [0u8; HEADER_LEN];
    out[0..8].copy_from_slice(&MAGIC);
    out[8..12].copy_from_slice(&VERSION.to_le_bytes());
    out[12] = u8::from(header.rules.forced_capture);
    out[13] = header.rules.captures_to_win;
    out[14] = header.captured;
    out[16..24].copy_from_slice(&header.positions.to_le_bytes());
    out[24..32].copy_from_slice(&header.max_states.to_le_bytes());
    out[32..40].copy_from_slice(&header.node_budget.to_le_bytes());
    for side in 0..2 {
        for kind in 0..3 {
            let at = 40 + 8 * (3 * side + kind);
            out[at..at + 8].copy_from_slice(&header.counts[side][kind].to_le_bytes());
        }
    }
    out[88..92].copy_from_slice(&payload_crc.to_le_bytes());
    let header_crc = crc32(&out[..92]);
    out[92..96].copy_from_slice(&header_crc.to_le_bytes());
    out
}

/// Writes a forbid file atomically (a temporary file renamed into place); `codes` holds one
/// code per class, goats to move first.
///
/// # Errors
/// [`TablebaseError::Io`].
pub fn write_forbid(
    path: &Path,
    header: &ForbidHeader,
    codes: &[u8],
) -> Result<(), TablebaseError> {
    let payload = pack(codes, header.positions as usize);
    let encoded = encode_header(header, crc32(&payload));
    write_atomic(path, &[&encoded, &payload])
}

/// Reads a forbid file: its header and one code per class (goats to move first). The file must
/// be for `rules`, layer `captured`, with `positions` classes per side.
///
/// # Errors
/// [`TablebaseError::NotFound`], [`TablebaseError::Io`], [`TablebaseError::Corrupt`] (any
/// damage: magic, version, checksums, length, a code 3 where the header counts disagree) or
/// [`TablebaseError::MismatchedRules`].
pub fn read_forbid(
    path: &Path,
    rules: TableRules,
    captured: u8,
    positions: u64,
) -> Result<(ForbidHeader, Vec<u8>), TablebaseError> {
    let bytes = fs::read(path).map_err(|source| open_error(path, source))?;
    let corrupt = |reason| TablebaseError::Corrupt {
        path: path.to_path_buf(),
        reason,
    };
    if bytes.len() < HEADER_LEN {
        return Err(corrupt(Corruption::Truncated {
            expected: HEADER_LEN as u64,
            found: bytes.len() as u64,
        }));
    }
    if bytes[0..8] != MAGIC {
        return Err(corrupt(Corruption::BadMagic));
    }
    let version = u32_at(&bytes, 8);
    if version != VERSION {
        return Err(corrupt(Corruption::BadVersion(version)));
    }
    if crc32(&bytes[..92]) != u32_at(&bytes, 92) {
        return Err(corrupt(Corruption::HeaderChecksum));
    }
    if bytes[12] > 1 || bytes[15] != 0 {
        return Err(corrupt(Corruption::BadHeader));
    }
    let mut counts = [[0u64; 3]; 2];
    for (side, side_counts) in counts.iter_mut().enumerate() {
        for (kind, count) in side_counts.iter_mut().enumerate() {
            *count = u64_at(&bytes, 40 + 8 * (3 * side + kind));
        }
    }
    let header = ForbidHeader {
        rules: TableRules {
            forced_capture: bytes[12] == 1,
            captures_to_win: bytes[13],
        },
        captured: bytes[14],
        positions: u64_at(&bytes, 16),
        max_states: u64_at(&bytes, 24),
        node_budget: u64_at(&bytes, 32),
        counts,
    };
    if header.rules != rules {
        return Err(TablebaseError::MismatchedRules {
            path: path.to_path_buf(),
            expected: rules,
            found: header.rules,
        });
    }
    if header.captured != captured || header.positions != positions {
        return Err(corrupt(Corruption::BadHeader));
    }
    let expected = HEADER_LEN as u64 + 2 * positions.div_ceil(4);
    if bytes.len() as u64 != expected {
        return Err(corrupt(Corruption::Truncated {
            expected,
            found: bytes.len() as u64,
        }));
    }
    let payload = &bytes[HEADER_LEN..];
    if crc32(payload) != u32_at(&bytes, 88) {
        return Err(corrupt(Corruption::PayloadChecksum));
    }
    let codes = unpack(payload, positions as usize);
    let n = positions as usize;
    for side in 0..2 {
        let mut found = [0u64; 3];
        for &code in &codes[side * n..(side + 1) * n] {
            if code != 0 {
                found[usize::from(code) - 1] += 1;
            }
        }
        if found != header.counts[side] {
            return Err(corrupt(Corruption::BadHeader));
        }
    }
    Ok((header, codes))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pack_round_trips() {
        let codes: Vec<u8> = (0..2 * 13).map(|i| (i * 7 % 4) as u8).collect();
        assert_eq!(unpack(&pack(&codes, 13), 13), codes);
    }
}
