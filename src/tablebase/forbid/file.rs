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

use crate::tablebase::file::{
    crc32, is_stamped, open_with_head, u32_at, u64_at, write_atomic, PayloadCheck, PayloadStatus,
};
use crate::tablebase::stamp::{FileIdentity, Stamps};
use crate::tablebase::{Corruption, TableRules, TablebaseError};
use memmap2::Mmap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

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

/// The proof-search file of layer `captured` in a table directory (`tb forbid prove --entries
/// --write`): values from an empty history that the proof search settled where `solve` left
/// them unknown, in the forbid file format (header `max_states` 0, `node_budget` the expansions
/// allowed per entry). The engine and the referee do not read it; `tb forbid start
/// --with-proofs` does.
pub fn proof_path(dir: &Path, captured: u8) -> PathBuf {
    dir.join(format!("forbid-proof-{captured}.bcfb"))
}

/// The classes of one side (0 goats to move, 1 tigers) that a layer's forbid codes (goats to
/// move first, `positions` a side) leave unknown, in class order: the entries the proof search
/// works on, and the classes a proof pack keeps.
pub fn unknown_classes(codes: &[u8], side: usize, positions: usize) -> Vec<usize> {
    let unknown = super::ForbidValue::Unknown.code();
    let side_codes = &codes[side * positions..(side + 1) * positions];
    (0..positions)
        .filter(|&class| side_codes[class] == unknown)
        .collect()
}

/// The header's counts of one code per class (goats to move first, `positions` a side): per
/// side, the wins, losses and unknowns.
pub fn code_counts(codes: &[u8], positions: usize) -> [[u64; 3]; 2] {
    let mut counts = [[0u64; 3]; 2];
    for (side, side_codes) in codes.chunks(positions).take(2).enumerate() {
        for &code in side_codes {
            if code != 0 {
                counts[side][usize::from(code) - 1] += 1;
            }
        }
    }
    counts
}

/// Packs one code per class (both sides, `2 * positions` bytes) into the payload.
pub fn pack(codes: &[u8], positions: usize) -> Vec<u8> {
    let mut out = pack_codes(&codes[..positions]);
    out.extend(pack_codes(&codes[positions..2 * positions]));
    out
}

/// Unpacks a payload into one code per class (both sides).
pub fn unpack(payload: &[u8], positions: usize) -> Vec<u8> {
    let side_bytes = positions.div_ceil(4);
    let mut codes = unpack_codes(&payload[..side_bytes], positions);
    codes.extend(unpack_codes(&payload[side_bytes..], positions));
    codes
}

/// Packs codes two bits each, four to a byte, lowest bits first.
pub fn pack_codes(codes: &[u8]) -> Vec<u8> {
    let mut out = vec![0u8; codes.len().div_ceil(4)];
    for (i, &code) in codes.iter().enumerate() {
        out[i / 4] |= (code & 3) << (2 * (i % 4));
    }
    out
}

/// The first `count` codes of [`pack_codes`]'s output.
pub fn unpack_codes(packed: &[u8], count: usize) -> Vec<u8> {
    (0..count)
        .map(|i| (packed[i / 4] >> (2 * (i % 4))) & 3)
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
/// be for `rules`, layer `captured`, with `positions` classes per side. Every byte is checked
/// (no verified stamp is consulted: [`open_forbid`] is the reader that trusts them).
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
    let read = read_forbid_identified(path, rules, captured, positions)?;
    Ok((read.header, read.codes))
}

/// A forbid file read whole and checked ([`read_forbid_identified`]), with what its verified
/// stamp needs.
#[derive(Debug)]
pub struct ReadForbid {
    /// The checked header.
    pub header: ForbidHeader,
    /// One code per class, goats to move first.
    pub codes: Vec<u8>,
    /// The file's identity when it was opened.
    pub identity: FileIdentity,
    /// When reading it started.
    pub read_at: SystemTime,
}

/// As [`read_forbid`], with the file's identity and the time the reading started (for the
/// verified stamp of a file a solve resumes from).
///
/// # Errors
/// As [`read_forbid`].
pub fn read_forbid_identified(
    path: &Path,
    rules: TableRules,
    captured: u8,
    positions: u64,
) -> Result<ReadForbid, TablebaseError> {
    let (header, payload, identity, read_at) =
        read_checked(path, Some((rules, captured, positions)))?;
    let codes = unpack(&payload, positions as usize);
    Ok(ReadForbid {
        header,
        codes,
        identity,
        read_at,
    })
}

/// Reads a forbid file through and checks it as [`open_forbid`] checks a file it finds no
/// stamp for (header, length, payload checksum, counts), for whatever rules, layer and size
/// its header states (an open compares them with the tables'): the read-back of a file `tb
/// forbid solve` wrote, before it is stamped ([`RunStamps`](crate::tablebase::stamp::RunStamps)).
///
/// # Errors
/// [`TablebaseError::NotFound`], [`TablebaseError::Io`] or [`TablebaseError::Corrupt`].
pub fn check_forbid_file(path: &Path) -> Result<(FileIdentity, SystemTime), TablebaseError> {
    let (_, _, identity, read_at) = read_checked(path, None)?;
    Ok((identity, read_at))
}

/// Reads a whole forbid file and checks it, for `expected` rules, layer and classes per side
/// (or those its header states): header, packed payload, identity when opened, time the
/// reading started.
fn read_checked(
    path: &Path,
    expected: Option<(TableRules, u8, u64)>,
) -> Result<(ForbidHeader, Vec<u8>, FileIdentity, SystemTime), TablebaseError> {
    let read_at = SystemTime::now();
    let (mut file, metadata, mut bytes) = open_with_head(path, HEADER_LEN)?;
    file.read_to_end(&mut bytes)
        .map_err(|source| TablebaseError::Io {
            path: path.to_path_buf(),
            source,
        })?;
    let header = parse_header(path, &bytes, bytes.len() as u64, expected)?;
    check_payload(path, &header, &bytes[HEADER_LEN..], u32_at(&bytes, 88))?;
    let identity = FileIdentity::new(&metadata, u32_at(&bytes, 92));
    bytes.drain(..HEADER_LEN);
    Ok((header, bytes, identity, read_at))
}

/// A forbid file opened for lookups: its header, its codes as on disk (two bits a class,
/// memory-mapped), and how its payload was found intact.
#[derive(Debug)]
pub struct OpenedForbid {
    /// The checked header.
    pub header: ForbidHeader,
    /// The payload: goats to move then tigers to move, each side `ceil(positions / 4)` bytes.
    pub codes: ForbidCodes,
    /// Checked now, or vouched for by a verified stamp.
    pub status: PayloadStatus,
    /// The identity of the file as opened (what its stamp is bound to).
    pub identity: FileIdentity,
}

/// The payload of a forbid file: mapped read-only, or read into memory where mapping is not
/// possible. Dereferences to the packed codes.
pub enum ForbidCodes {
    /// The whole file; the codes start after the header.
    Mapped(Mmap),
    /// The codes alone.
    Owned(Vec<u8>),
}

impl std::ops::Deref for ForbidCodes {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        match self {
            ForbidCodes::Mapped(map) => map.get(HEADER_LEN..).unwrap_or_default(),
            ForbidCodes::Owned(codes) => codes,
        }
    }
}

impl std::fmt::Debug for ForbidCodes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "ForbidCodes({} bytes)", self.len())
    }
}

/// Opens a forbid file as [`read_forbid`] checks it, but maps its codes rather than reading
/// them, and trusts a verified stamp in `stamps` when `check` allows ([`super::super::stamp`]):
/// the header and the length are always checked; the payload (its checksum and its counts
/// against the header) only when no stamp matches the file's identity, and the file is then
/// stamped (in memory: [`Stamps::save`] writes them) when good, its stamp forgotten when
/// corrupt. So a file that changed in any way is checked again, and a damaged one is refused,
/// naming it.
///
/// The file must not be modified while the codes are alive (as for the table files: the
/// solver replaces forbid files by renaming new ones over them).
///
/// # Errors
/// As [`read_forbid`].
pub fn open_forbid(
    path: &Path,
    rules: TableRules,
    captured: u8,
    positions: u64,
    stamps: &Stamps,
    check: PayloadCheck,
) -> Result<OpenedForbid, TablebaseError> {
    let io = |source| TablebaseError::Io {
        path: path.to_path_buf(),
        source,
    };
    let (mut file, metadata, head) = open_with_head(path, HEADER_LEN)?;
    let header = parse_header(
        path,
        &head,
        metadata.len(),
        Some((rules, captured, positions)),
    )?;
    let identity = FileIdentity::new(&metadata, u32_at(&head, 92));
    // SAFETY: the map is read-only and private to this process; its length is checked below,
    // so no access goes past the end of the file as it was mapped. Undefined behaviour would
    // follow only if another process truncated or rewrote the file while it is mapped, which
    // the documented contract forbids (as for the table files).
    let codes = match unsafe { Mmap::map(&file) } {
        Ok(map) => ForbidCodes::Mapped(map),
        Err(error) => {
            log::debug!("\"{}\": cannot map ({error}); reading", path.display());
            let mut codes = Vec::new();
            file.read_to_end(&mut codes).map_err(io)?;
            ForbidCodes::Owned(codes)
        }
    };
    let expected = 2 * positions.div_ceil(4);
    if codes.len() as u64 != expected {
        return Err(TablebaseError::Corrupt {
            path: path.to_path_buf(),
            reason: Corruption::Truncated {
                expected: HEADER_LEN as u64 + expected,
                found: HEADER_LEN as u64 + codes.len() as u64,
            },
        });
    }
    let status = if is_stamped(path, &identity, stamps, check) {
        PayloadStatus::Stamped
    } else {
        let started = SystemTime::now();
        if let Err(error) = check_payload(path, &header, &codes, u32_at(&head, 88)) {
            stamps.forget(path);
            return Err(error);
        }
        stamps.record_checked(path, &identity, started);
        PayloadStatus::Checked
    };
    Ok(OpenedForbid {
        header,
        codes,
        status,
        identity,
    })
}

/// Checks the header of a forbid file of `file_len` bytes (`bytes` holds at least its
/// header, when the file is that long), for the `expected` rules, layer and classes per side
/// when given, else for those the header states; the length must be the one its classes give.
fn parse_header(
    path: &Path,
    bytes: &[u8],
    file_len: u64,
    expected: Option<(TableRules, u8, u64)>,
) -> Result<ForbidHeader, TablebaseError> {
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
    let version = u32_at(bytes, 8);
    if version != VERSION {
        return Err(corrupt(Corruption::BadVersion(version)));
    }
    if crc32(&bytes[..92]) != u32_at(bytes, 92) {
        return Err(corrupt(Corruption::HeaderChecksum));
    }
    if bytes[12] > 1 || bytes[15] != 0 {
        return Err(corrupt(Corruption::BadHeader));
    }
    let mut counts = [[0u64; 3]; 2];
    for (side, side_counts) in counts.iter_mut().enumerate() {
        for (kind, count) in side_counts.iter_mut().enumerate() {
            *count = u64_at(bytes, 40 + 8 * (3 * side + kind));
        }
    }
    let header = ForbidHeader {
        rules: TableRules {
            forced_capture: bytes[12] == 1,
            captures_to_win: bytes[13],
        },
        captured: bytes[14],
        positions: u64_at(bytes, 16),
        max_states: u64_at(bytes, 24),
        node_budget: u64_at(bytes, 32),
        counts,
    };
    if let Some((rules, captured, positions)) = expected {
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
    }
    let expected_len = HEADER_LEN as u64 + 2 * header.positions.div_ceil(4);
    if file_len != expected_len {
        return Err(corrupt(Corruption::Truncated {
            expected: expected_len,
            found: file_len,
        }));
    }
    Ok(header)
}

/// Checks a forbid file's packed codes (of the length its header gives) against the payload
/// checksum and the header's counts.
fn check_payload(
    path: &Path,
    header: &ForbidHeader,
    payload: &[u8],
    payload_crc: u32,
) -> Result<(), TablebaseError> {
    let corrupt = |reason| TablebaseError::Corrupt {
        path: path.to_path_buf(),
        reason,
    };
    if crc32(payload) != payload_crc {
        return Err(corrupt(Corruption::PayloadChecksum));
    }
    let side_bytes = header.positions.div_ceil(4) as usize;
    for side in 0..2 {
        let codes = payload
            .get(side * side_bytes..(side + 1) * side_bytes)
            .ok_or_else(|| corrupt(Corruption::BadHeader))?;
        if count_codes(codes, header.positions) != header.counts[side] {
            return Err(corrupt(Corruption::BadHeader));
        }
    }
    Ok(())
}

/// How many of the first `positions` codes packed in `codes` are 1, 2 and 3.
fn count_codes(codes: &[u8], positions: u64) -> [u64; 3] {
    let mut found = [0u64; 3];
    let full = (positions / 4) as usize;
    let mut count = |low: u64, high: u64| {
        found[0] += u64::from((low & !high).count_ones());
        found[1] += u64::from((!low & high).count_ones());
        found[2] += u64::from((low & high).count_ones());
    };
    // Eight bytes (32 codes) at a time: the low and high bit of each code, by mask.
    const LOW: u64 = 0x5555_5555_5555_5555;
    let words = codes.get(..full).unwrap_or_default().chunks_exact(8);
    let rest = words.remainder();
    for word in words {
        let word = u64::from_le_bytes(word.try_into().unwrap_or_default());
        count(word & LOW, (word >> 1) & LOW);
    }
    for &byte in rest {
        count(u64::from(byte) & LOW, u64::from(byte >> 1) & LOW);
    }
    // The last byte's codes past `positions` are not counted.
    let tail = positions % 4;
    if let (true, Some(&byte)) = (tail > 0, codes.get(full)) {
        let byte = u64::from(byte) & ((1 << (2 * tail)) - 1);
        count(byte & LOW, (byte >> 1) & LOW);
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pack_round_trips() {
        let codes: Vec<u8> = (0..2 * 13).map(|i| (i * 7 % 4) as u8).collect();
        assert_eq!(unpack(&pack(&codes, 13), 13), codes);
    }

    #[test]
    fn packed_codes_are_counted_as_unpacked() {
        // Every length around the 32-code words, with codes in the padding bits that must
        // not be counted.
        for positions in [0usize, 1, 3, 4, 5, 31, 32, 33, 64, 67, 100, 129] {
            let codes: Vec<u8> = (0..positions)
                .map(|i| (i * i * 7 + i / 3) as u8 % 4)
                .collect();
            let mut packed = pack(&[codes.clone(), codes.clone()].concat(), positions);
            packed.truncate(positions.div_ceil(4));
            if positions % 4 != 0 {
                *packed.last_mut().unwrap() |= 0xff << (2 * (positions % 4));
            }
            let mut expected = [0u64; 3];
            for &code in &codes {
                if code != 0 {
                    expected[usize::from(code) - 1] += 1;
                }
            }
            assert_eq!(
                count_codes(&packed, positions as u64),
                expected,
                "{positions}"
            );
        }
    }

    #[test]
    fn the_read_back_check_takes_the_header_s_layer_and_a_reader_compares_it() {
        let dir = std::env::temp_dir().join(format!("baghchal-forbid-file-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = forbid_path(&dir, 3);
        let rules = TableRules {
            forced_capture: false,
            captures_to_win: 4,
        };
        let positions = 10u64;
        let codes: Vec<u8> = (0..2 * positions).map(|i| (i % 4) as u8).collect();
        let mut counts = [[0u64; 3]; 2];
        for (side, side_codes) in codes.chunks(positions as usize).enumerate() {
            for &code in side_codes.iter().filter(|&&c| c != 0) {
                counts[side][usize::from(code) - 1] += 1;
            }
        }
        let header = ForbidHeader {
            rules,
            captured: 3,
            positions,
            max_states: 24,
            node_budget: 1000,
            counts,
        };
        write_forbid(&path, &header, &codes).unwrap();
        // The read-back check needs nothing but the file.
        assert!(check_forbid_file(&path).is_ok());
        let (read, read_codes) = read_forbid(&path, rules, 3, positions).unwrap();
        assert_eq!((read, read_codes), (header, codes));
        // A reader that expects another layer, size or rules refuses it.
        let bad_header = |e: Option<TablebaseError>| {
            matches!(
                e,
                Some(TablebaseError::Corrupt {
                    reason: Corruption::BadHeader,
                    ..
                })
            )
        };
        assert!(bad_header(read_forbid(&path, rules, 2, positions).err()));
        assert!(bad_header(
            read_forbid(&path, rules, 3, positions + 1).err()
        ));
        let other = TableRules {
            forced_capture: true,
            ..rules
        };
        assert!(matches!(
            read_forbid(&path, other, 3, positions),
            Err(TablebaseError::MismatchedRules { .. })
        ));
        // A file one byte short is named truncated by both, from its header's own size.
        let bytes = std::fs::read(&path).unwrap();
        std::fs::write(&path, &bytes[..bytes.len() - 1]).unwrap();
        let truncated = |e: Option<TablebaseError>| {
            matches!(
                e,
                Some(TablebaseError::Corrupt {
                    reason: Corruption::Truncated { .. },
                    ..
                })
            )
        };
        assert!(truncated(check_forbid_file(&path).err()));
        assert!(truncated(read_forbid(&path, rules, 3, positions).err()));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
