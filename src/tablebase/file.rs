//! The layer file format (see docs/tablebase.md): a fixed 88-byte little-endian header, then one
//! byte per position (goats to move, then tigers to move), protected by CRC-32 checksums.

use super::{Corruption, TablebaseError};
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

/// File magic.
pub const MAGIC: [u8; 8] = *b"BAGHTB\r\n";
/// Format version.
pub const VERSION: u32 = 1;
/// Header length in bytes.
pub const HEADER_LEN: usize = 88;

/// The header of a layer file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LayerHeader {
    /// Rule variant: captures compulsory.
    pub forced_capture: bool,
    /// Rule variant: captures the tigers need.
    pub captures_to_win: u8,
    /// Goats captured in this layer.
    pub captured: u8,
    /// Positions (symmetry classes) per side to move.
    pub positions: u64,
    /// `counts[side][0..3]`: wins, draws, losses for goats (0) and tigers (1) to move.
    pub counts: [[u64; 3]; 2],
}

/// The file name of layer `captured` in a table directory.
pub fn layer_path(dir: &Path, captured: u8) -> PathBuf {
    dir.join(format!("layer-{captured}.bctb"))
}

const fn crc_table() -> [[u32; 256]; 8] {
    let mut table = [[0u32; 256]; 8];
    let mut i = 0;
    while i < 256 {
        let mut crc = i as u32;
        let mut bit = 0;
        while bit < 8 {
            crc = if crc & 1 != 0 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
            bit += 1;
        }
        table[0][i] = crc;
        i += 1;
    }
    let mut slice = 1;
    while slice < 8 {
        let mut i = 0;
        while i < 256 {
            let previous = table[slice - 1][i];
            table[slice][i] = (previous >> 8) ^ table[0][(previous & 0xff) as usize];
            i += 1;
        }
        slice += 1;
    }
    table
}

static CRC_TABLE: [[u32; 256]; 8] = crc_table();

/// CRC-32 (IEEE 802.3, as in zip and PNG) of `data`, slice-by-8.
pub fn crc32(data: &[u8]) -> u32 {
    let t = &CRC_TABLE;
    let mut crc = !0u32;
    let mut chunks = data.chunks_exact(8);
    for chunk in &mut chunks {
        let low = u32::from_le_bytes([chunk[0], chunk[1], chunk[2], chunk[3]]) ^ crc;
        let high = u32::from_le_bytes([chunk[4], chunk[5], chunk[6], chunk[7]]);
        crc = t[7][(low & 0xff) as usize]
            ^ t[6][((low >> 8) & 0xff) as usize]
            ^ t[5][((low >> 16) & 0xff) as usize]
            ^ t[4][(low >> 24) as usize]
            ^ t[3][(high & 0xff) as usize]
            ^ t[2][((high >> 8) & 0xff) as usize]
            ^ t[1][((high >> 16) & 0xff) as usize]
            ^ t[0][(high >> 24) as usize];
    }
    for &byte in chunks.remainder() {
        crc = (crc >> 8) ^ t[0][((crc ^ u32::from(byte)) & 0xff) as usize];
    }
    !crc
}

fn encode_header(header: &LayerHeader, payload_crc: u32) -> [u8; HEADER_LEN] {
    let mut out = [0u8; HEADER_LEN];
    out[0..8].copy_from_slice(&MAGIC);
    out[8..12].copy_from_slice(&VERSION.to_le_bytes());
    out[12] = u8::from(header.forced_capture);
    out[13] = header.captures_to_win;
    out[14] = header.captured;
    out[16..24].copy_from_slice(&header.positions.to_le_bytes());
    out[24..32].copy_from_slice(&(2 * header.positions).to_le_bytes());
    for side in 0..2 {
        for kind in 0..3 {
            let at = 32 + 8 * (3 * side + kind);
            out[at..at + 8].copy_from_slice(&header.counts[side][kind].to_le_bytes());
        }
    }
    out[80..84].copy_from_slice(&payload_crc.to_le_bytes());
    let header_crc = crc32(&out[..84]);
    out[84..88].copy_from_slice(&header_crc.to_le_bytes());
    out
}

fn u64_at(bytes: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(bytes[at..at + 8].try_into().expect("8 bytes"))
}

fn u32_at(bytes: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes"))
}

/// Writes a layer file atomically (a temporary file renamed into place).
///
/// # Errors
/// [`TablebaseError::Io`] when writing fails.
pub fn write_layer(
    path: &Path,
    header: &LayerHeader,
    goats: &[u8],
    tigers: &[u8],
) -> Result<(), TablebaseError> {
    let io = |source| TablebaseError::Io {
        path: path.to_path_buf(),
        source,
    };
    let mut payload_crc_input = Vec::with_capacity(goats.len() + tigers.len());
    payload_crc_input.extend_from_slice(goats);
    payload_crc_input.extend_from_slice(tigers);
    let encoded = encode_header(header, crc32(&payload_crc_input));
    let temporary = path.with_extension("bctb.tmp");
    let mut file = fs::File::create(&temporary).map_err(io)?;
    file.write_all(&encoded).map_err(io)?;
    file.write_all(&payload_crc_input).map_err(io)?;
    file.sync_all().map_err(io)?;
    drop(file);
    fs::rename(&temporary, path).map_err(io)
}

/// Reads and checks a layer file: magic, version, header checksum, length, payload checksum.
/// Returns the header and the payload (goats-to-move values, then tigers-to-move values).
///
/// # Errors
/// [`TablebaseError::NotFound`], [`TablebaseError::Io`] or [`TablebaseError::Corrupt`].
pub fn read_layer(path: &Path) -> Result<(LayerHeader, Vec<u8>), TablebaseError> {
    let bytes = fs::read(path).map_err(|source| {
        if source.kind() == std::io::ErrorKind::NotFound {
            TablebaseError::NotFound {
                path: path.to_path_buf(),
            }
        } else {
            TablebaseError::Io {
                path: path.to_path_buf(),
                source,
            }
        }
    })?;
    let corrupt = |reason| TablebaseError::Corrupt {
        path: path.to_path_buf(),
        reason,
    };
    if bytes.len() < HEADER_LEN {
        if bytes.len() >= 8 && bytes[..8] != MAGIC {
            return Err(corrupt(Corruption::BadMagic));
        }
        return Err(corrupt(Corruption::Truncated {
            expected: HEADER_LEN as u64,
            found: bytes.len() as u64,
        }));
    }
    if bytes[..8] != MAGIC {
        return Err(corrupt(Corruption::BadMagic));
    }
    let version = u32_at(&bytes, 8);
    if version != VERSION {
        return Err(corrupt(Corruption::BadVersion(version)));
    }
    if crc32(&bytes[..84]) != u32_at(&bytes, 84) {
        return Err(corrupt(Corruption::HeaderChecksum));
    }
    let positions = u64_at(&bytes, 16);
    let payload_len = u64_at(&bytes, 24);
    if payload_len != 2 * positions || bytes[12] > 1 {
        return Err(corrupt(Corruption::BadHeader));
    }
    let found = (bytes.len() - HEADER_LEN) as u64;
    if found != payload_len {
        return Err(corrupt(Corruption::Truncated {
            expected: HEADER_LEN as u64 + payload_len,
            found: bytes.len() as u64,
        }));
    }
    if crc32(&bytes[HEADER_LEN..]) != u32_at(&bytes, 80) {
        return Err(corrupt(Corruption::PayloadChecksum));
    }
    let mut counts = [[0u64; 3]; 2];
    for (side, side_counts) in counts.iter_mut().enumerate() {
        for (kind, count) in side_counts.iter_mut().enumerate() {
            *count = u64_at(&bytes, 32 + 8 * (3 * side + kind));
        }
    }
    let header = LayerHeader {
        forced_capture: bytes[12] == 1,
        captures_to_win: bytes[13],
        captured: bytes[14],
        positions,
        counts,
    };
    let mut payload = bytes;
    payload.drain(..HEADER_LEN);
    Ok((header, payload))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crc32_known_answer() {
        assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
        assert_eq!(crc32(b""), 0);
        assert_eq!(
            crc32(b"The quick brown fox jumps over the lazy dog"),
            0x414F_A339
        );
    }
}
