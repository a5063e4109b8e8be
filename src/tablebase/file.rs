//! The layer file format (see docs/tablebase.md): a fixed 88-byte little-endian header, then the
//! values of the goats-to-move positions followed by those of the tigers-to-move positions,
//! protected by CRC-32 checksums. Movement layers (no goats in hand) store one byte per
//! position (value and distance); placement layers store 2-bit values, four per byte.

use super::stamp::{FileIdentity, Stamps};
use super::{Corruption, TableRules, TablebaseError};
use memmap2::Mmap;
use std::fmt;
use std::fs;
use std::io::{Read, Write};
use std::ops::Deref;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Instant, SystemTime};

/// File magic.
pub const MAGIC: [u8; 8] = *b"BAGHTB\r\n";
/// Format version of the uncompressed files (`.bctb`).
pub const VERSION: u32 = 1;
/// Format version of compressed files (`.bctz`, [`super::compressed`]: placement layers, and
/// movement layers since they are compressed too) as written: the same header, a different
/// payload (the block size recorded in it).
pub const COMPRESSED_VERSION: u32 = 3;
/// The earlier format of compressed placement files, still read: as [`COMPRESSED_VERSION`] with
/// 64-byte blocks and 0 where the block size now is.
pub const COMPRESSED_VERSION_2: u32 = 2;
/// Header length in bytes.
pub const HEADER_LEN: usize = 88;

/// The header of a layer file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LayerHeader {
    /// The rules the values were computed for (bytes 12 and 13).
    pub rules: TableRules,
    /// Goats captured in this layer.
    pub captured: u8,
    /// Goats in hand in this layer: 0 for the movement phase (byte 15).
    pub in_hand: u8,
    /// Positions (symmetry classes) per side to move.
    pub positions: u64,
    /// `counts[side][0..3]`: wins, draws, losses for goats (0) and tigers (1) to move.
    pub counts: [[u64; 3]; 2],
}

/// The file name of layer `captured` in a table directory.
pub fn layer_path(dir: &Path, captured: u8) -> PathBuf {
    dir.join(format!("layer-{captured}.bctb"))
}

/// The file name of the placement layer with `in_hand` goats in hand and `captured` captured.
pub fn placement_path(dir: &Path, in_hand: u8, captured: u8) -> PathBuf {
    dir.join(format!("place-{in_hand:02}-{captured}.bctb"))
}

/// Bytes holding the values of one side to move: one per position in the movement phase,
/// four 2-bit values per byte (rounded up) in the placement phase.
pub fn side_bytes(in_hand: u8, positions: u64) -> Option<u64> {
    if in_hand == 0 {
        Some(positions)
    } else {
        positions.checked_add(3).map(|n| n / 4)
    }
}

impl LayerHeader {
    /// Bytes of one side's values.
    pub fn side_bytes(&self) -> u64 {
        side_bytes(self.in_hand, self.positions).expect("checked when read")
    }
}

/// CRC-32 (IEEE 802.3, as in zip and PNG) of `data`.
pub fn crc32(data: &[u8]) -> u32 {
    crc32fast::hash(data)
}

fn encode_header(header: &LayerHeader, payload_crc: u32) -> [u8; HEADER_LEN] {
    encode_header_as(header, VERSION, 2 * header.side_bytes(), payload_crc)
}

/// The header of a file of format `version` with a payload of `payload_len` bytes.
pub(crate) fn encode_header_as(
    header: &LayerHeader,
    version: u32,
    payload_len: u64,
    payload_crc: u32,
) -> [u8; HEADER_LEN] {
    let mut out = [0u8; HEADER_LEN];
    out[0..8].copy_from_slice(&MAGIC);
    out[8..12].copy_from_slice(&version.to_le_bytes());
    out[12] = u8::from(header.rules.forced_capture);
    out[13] = header.rules.captures_to_win;
    out[14] = header.captured;
    out[15] = header.in_hand;
    out[16..24].copy_from_slice(&header.positions.to_le_bytes());
    out[24..32].copy_from_slice(&payload_len.to_le_bytes());
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

/// The little-endian `u64` at byte `at` (the caller checked the length).
pub(crate) fn u64_at(bytes: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(bytes[at..at + 8].try_into().expect("8 bytes"))
}

/// The little-endian `u32` at byte `at` (the caller checked the length).
pub(crate) fn u32_at(bytes: &[u8], at: usize) -> u32 {
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
    let mut payload_crc = crc32fast::Hasher::new();
    payload_crc.update(goats);
    payload_crc.update(tigers);
    let encoded = encode_header(header, payload_crc.finalize());
    write_atomic(path, &[&encoded, goats, tigers])
}

/// Writes `parts` one after the other to a temporary file beside `path`, syncs it and renames
/// it over `path`, so a reader (or a map of the old file) never sees a half-written file.
///
/// # Errors
/// [`TablebaseError::Io`] when writing fails.
pub(crate) fn write_atomic(path: &Path, parts: &[&[u8]]) -> Result<(), TablebaseError> {
    let io = |source| TablebaseError::Io {
        path: path.to_path_buf(),
        source,
    };
    let extension = path.extension().and_then(|e| e.to_str()).unwrap_or("");
    let temporary = path.with_extension(format!("{extension}.tmp"));
    let mut file = fs::File::create(&temporary).map_err(io)?;
    for part in parts {
        file.write_all(part).map_err(io)?;
    }
    file.sync_all().map_err(io)?;
    drop(file);
    fs::rename(&temporary, path).map_err(io)
}

/// A layer file read whole and checked ([`read_layer`]), with what its verified stamp needs.
#[derive(Debug)]
pub struct ReadLayer {
    /// The checked header.
    pub header: LayerHeader,
    /// The values: goats to move, then tigers to move.
    pub payload: Vec<u8>,
    /// The file's identity when it was opened.
    pub identity: FileIdentity,
    /// When reading it started.
    pub read_at: SystemTime,
}

/// Reads a layer file for a generator that resumes: `None` when the file is absent or damaged
/// (logged: it will be regenerated); other failures are errors.
///
/// # Errors
/// [`TablebaseError::Io`] when the file exists but cannot be read.
pub fn read_to_resume(path: &Path) -> Result<Option<ReadLayer>, TablebaseError> {
    match read_layer_identified(path) {
        Ok(layer) => Ok(Some(layer)),
        Err(TablebaseError::NotFound { .. }) => Ok(None),
        Err(TablebaseError::Corrupt { reason, .. }) => {
            log::warn!("\"{}\": {reason}; regenerating", path.display());
            Ok(None)
        }
        Err(error) => Err(error),
    }
}

/// A failure to open or read `path`: [`TablebaseError::NotFound`] when it is absent, else
/// [`TablebaseError::Io`].
pub(crate) fn open_error(path: &Path, source: std::io::Error) -> TablebaseError {
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
}

/// Checks everything but the payload checksum: `head` is the file's first bytes (all of them
/// when shorter than a header), `file_len` its length, `version` the format the file must have
/// ([`VERSION`], or [`COMPRESSED_VERSION`]: a payload of any length, a placement layer of that
/// version or [`COMPRESSED_VERSION_2`] or a movement layer of that version).
/// Returns the header and payload checksum.
fn parse_header(
    head: &[u8],
    file_len: u64,
    version: u32,
) -> Result<(LayerHeader, u32), Corruption> {
    if head.len() < HEADER_LEN {
        if head.len() >= 8 && head[..8] != MAGIC {
            return Err(Corruption::BadMagic);
        }
        return Err(Corruption::Truncated {
            expected: HEADER_LEN as u64,
            found: file_len,
        });
    }
    if head[..8] != MAGIC {
        return Err(Corruption::BadMagic);
    }
    let found = u32_at(head, 8);
    let older = version == COMPRESSED_VERSION && found == COMPRESSED_VERSION_2;
    if found != version && !older {
        return Err(Corruption::BadVersion(found));
    }
    if crc32(&head[..84]) != u32_at(head, 84) {
        return Err(Corruption::HeaderChecksum);
    }
    let positions = u64_at(head, 16);
    let payload_len = u64_at(head, 24);
    let side_len = side_bytes(head[15], positions);
    let length_fits = if version == COMPRESSED_VERSION {
        // Compressed movement layers (0 in hand) came with version 3.
        (head[15] > 0 || found == COMPRESSED_VERSION) && side_len.is_some()
    } else {
        side_len.and_then(|n| n.checked_mul(2)) == Some(payload_len)
    };
    if !length_fits || head[12] > 1 {
        return Err(Corruption::BadHeader);
    }
    let expected = payload_len
        .checked_add(HEADER_LEN as u64)
        .ok_or(Corruption::BadHeader)?;
    if file_len != expected {
        return Err(Corruption::Truncated {
            expected,
            found: file_len,
        });
    }
    let mut counts = [[0u64; 3]; 2];
    for (side, side_counts) in counts.iter_mut().enumerate() {
        for (kind, count) in side_counts.iter_mut().enumerate() {
            *count = u64_at(head, 32 + 8 * (3 * side + kind));
        }
    }
    let header = LayerHeader {
        rules: TableRules {
            forced_capture: head[12] == 1,
            captures_to_win: head[13],
        },
        captured: head[14],
        in_hand: head[15],
        positions,
        counts,
    };
    Ok((header, u32_at(head, 80)))
}

/// Reads and checks a layer file: magic, version, header checksum, length, payload checksum.
/// Returns the header and the payload (goats-to-move values, then tigers-to-move values).
///
/// # Errors
/// [`TablebaseError::NotFound`], [`TablebaseError::Io`] or [`TablebaseError::Corrupt`].
pub fn read_layer(path: &Path) -> Result<(LayerHeader, Vec<u8>), TablebaseError> {
    read_layer_identified(path).map(|layer| (layer.header, layer.payload))
}

/// As [`read_layer`], with the file's identity and the time the reading started.
///
/// # Errors
/// As [`read_layer`].
pub fn read_layer_identified(path: &Path) -> Result<ReadLayer, TablebaseError> {
    let read_at = SystemTime::now();
    let io = |source| TablebaseError::Io {
        path: path.to_path_buf(),
        source,
    };
    let mut file = fs::File::open(path).map_err(|source| open_error(path, source))?;
    let metadata = file.metadata().map_err(io)?;
    let mut bytes = Vec::with_capacity(usize::try_from(metadata.len()).unwrap_or(0));
    file.read_to_end(&mut bytes).map_err(io)?;
    let corrupt = |reason| TablebaseError::Corrupt {
        path: path.to_path_buf(),
        reason,
    };
    let head = &bytes[..bytes.len().min(HEADER_LEN)];
    let (header, payload_crc) = parse_header(head, bytes.len() as u64, VERSION).map_err(corrupt)?;
    if crc32(&bytes[HEADER_LEN..]) != payload_crc {
        return Err(corrupt(Corruption::PayloadChecksum));
    }
    let identity = FileIdentity::new(&metadata, u32_at(&bytes, 84));
    bytes.drain(..HEADER_LEN);
    Ok(ReadLayer {
        header,
        payload: bytes,
        identity,
        read_at,
    })
}

/// Opens the file at `path` and reads its first `len` bytes (fewer when the file is shorter):
/// the file, positioned after them, its metadata, and those bytes.
///
/// # Errors
/// [`TablebaseError::NotFound`] or [`TablebaseError::Io`].
pub(crate) fn open_with_head(
    path: &Path,
    len: usize,
) -> Result<(fs::File, fs::Metadata, Vec<u8>), TablebaseError> {
    let io = |source| TablebaseError::Io {
        path: path.to_path_buf(),
        source,
    };
    let mut file = fs::File::open(path).map_err(|source| open_error(path, source))?;
    let metadata = file.metadata().map_err(io)?;
    let mut head = Vec::with_capacity(len);
    (&mut file)
        .take(len as u64)
        .read_to_end(&mut head)
        .map_err(io)?;
    Ok((file, metadata, head))
}

/// Reads a table file through, uncompressed ([`VERSION`]) or compressed
/// ([`COMPRESSED_VERSION`]), a block at a time (neither mapped nor kept, so the caller's memory
/// does not grow), and checks its header, length and payload checksum: for the verified stamp
/// of a file a generator wrote. Returns the file's identity when it was opened and the time the
/// reading started.
///
/// # Errors
/// [`TablebaseError::NotFound`], [`TablebaseError::Io`] or [`TablebaseError::Corrupt`].
pub fn check_file(path: &Path) -> Result<(FileIdentity, SystemTime), TablebaseError> {
    let read_at = SystemTime::now();
    let io = |source| TablebaseError::Io {
        path: path.to_path_buf(),
        source,
    };
    let corrupt = |reason| TablebaseError::Corrupt {
        path: path.to_path_buf(),
        reason,
    };
    let (mut file, metadata, head) = open_with_head(path, HEADER_LEN)?;
    let version = match head.get(8..12).map(|_| u32_at(&head, 8)) {
        Some(COMPRESSED_VERSION | COMPRESSED_VERSION_2) => COMPRESSED_VERSION,
        _ => VERSION,
    };
    let (_, payload_crc) = parse_header(&head, metadata.len(), version).map_err(corrupt)?;
    let mut hasher = crc32fast::Hasher::new();
    let mut buffer = vec![0u8; 1 << 20];
    let mut payload_len = 0u64;
    loop {
        let read = match file.read(&mut buffer) {
            Err(error) if error.kind() == std::io::ErrorKind::Interrupted => continue,
            read => read.map_err(io)?,
        };
        if read == 0 {
            break;
        }
        hasher.update(&buffer[..read]);
        payload_len += read as u64;
    }
    let found = HEADER_LEN as u64 + payload_len;
    if found != metadata.len() {
        return Err(corrupt(Corruption::Truncated {
            expected: metadata.len(),
            found,
        }));
    }
    if hasher.finalize() != payload_crc {
        return Err(corrupt(Corruption::PayloadChecksum));
    }
    Ok((FileIdentity::new(&metadata, u32_at(&head, 84)), read_at))
}

/// The checked values of a layer file (goats to move, then tigers to move): memory-mapped, or
/// read into memory where mapping is not possible. Dereferences to the values.
pub struct LayerValues {
    storage: Storage,
}

enum Storage {
    /// The whole file, mapped read-only; the values start after the header.
    Mapped(Mmap),
    /// The values alone, read into memory.
    Owned(Vec<u8>),
}

impl Deref for LayerValues {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        match &self.storage {
            Storage::Mapped(map) => &map[HEADER_LEN..],
            Storage::Owned(values) => values,
        }
    }
}

impl fmt::Debug for LayerValues {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kind = match self.storage {
            Storage::Mapped(_) => "mapped",
            Storage::Owned(_) => "owned",
        };
        write!(f, "LayerValues({kind}, {} bytes)", self.len())
    }
}

impl LayerValues {
    /// Values held in memory (not mapped from a file).
    pub(crate) fn owned(values: Vec<u8>) -> LayerValues {
        LayerValues {
            storage: Storage::Owned(values),
        }
    }

    /// Whether the values are memory-mapped from the file (rather than copied into memory).
    pub fn is_mapped(&self) -> bool {
        matches!(self.storage, Storage::Mapped(_))
    }

    /// Tells the kernel that the mapped values will be read at random, a probe at a time, so
    /// that a page not in memory is read alone rather than with the disk's read-ahead around
    /// it (8 MB a fault on some machines: a cold probe then waited milliseconds). Only once the
    /// payload is checked: a checksum reads the file in order, which read-ahead serves best.
    pub fn expect_random_reads(&self) {
        if let Storage::Mapped(map) = &self.storage {
            if let Err(error) = map.advise(memmap2::Advice::Random) {
                log::debug!("madvise(MADV_RANDOM) refused: {error}");
            }
        }
    }

    /// Bytes mapped from the file (0 for values held in memory).
    pub fn mapped_len(&self) -> u64 {
        match &self.storage {
            Storage::Mapped(map) => map.len() as u64,
            Storage::Owned(_) => 0,
        }
    }

    /// Brings the mapped file into the page cache ahead of the probes, a chunk at a time
    /// (`MADV_WILLNEED`, then waiting for the chunk's last page), resting as long as each chunk
    /// took before the next, so that the disk stays free half the time and a probe meanwhile
    /// waits behind one small chunk at most; returns early once `stop` is set.
    pub fn prefetch(&self, stop: &AtomicBool) {
        const CHUNK: usize = 1 << 20;
        let Storage::Mapped(map) = &self.storage else {
            return;
        };
        let mut at = 0;
        while at < map.len() && !stop.load(Ordering::Relaxed) {
            let started = Instant::now();
            let len = CHUNK.min(map.len() - at);
            if map
                .advise_range(memmap2::Advice::WillNeed, at, len)
                .is_err()
            {
                return;
            }
            std::hint::black_box(map[at + len - 1]);
            at += len;
            std::thread::sleep(started.elapsed());
        }
    }
}

/// How opening establishes that a layer file's payload is intact.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PayloadCheck {
    /// Trust a verified stamp that matches the file ([`Stamps`]); check (and stamp) the others.
    TrustStamps,
    /// Check every payload checksum whatever the stamps say (`tb verify`); stamp those that pass.
    Always,
}

/// Whether a layer file's payload was found intact, and how.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PayloadStatus {
    /// Not checked yet (placement layers are checked in the background); not used meanwhile.
    Pending,
    /// Its checksum was computed over every byte by this process and matched.
    Checked,
    /// A verified stamp matching the file's identity vouches for it; not read.
    Stamped,
    /// Its checksum did not match: never used.
    Corrupt,
}

impl PayloadStatus {
    /// Whether the layer may answer probes.
    pub fn is_good(self) -> bool {
        matches!(self, PayloadStatus::Checked | PayloadStatus::Stamped)
    }
}

/// A layer file mapped (or read) with its header, length and rules-independent fields checked,
/// its payload not yet checked.
#[derive(Debug)]
pub struct MappedLayer {
    /// The checked header.
    pub header: LayerHeader,
    /// The format version in the header.
    pub version: u32,
    /// The values (not yet checked against `payload_crc`).
    pub values: LayerValues,
    /// The payload checksum from the header.
    pub payload_crc: u32,
    /// The identity of the file as opened, for its verified stamp.
    pub identity: FileIdentity,
}

/// Opens and checks a layer file like [`read_layer`], but maps it into memory instead of
/// reading it, so that processes probing the same tables share one copy in the page cache.
/// The header and the file length are checked before mapping, the payload checksum after
/// (reading every page once). Falls back to reading the file when it cannot be mapped.
///
/// The file must not be modified or truncated while the returned values are alive (see
/// docs/tablebase.md): `tb gen` never does, as it replaces files by renaming new ones over them.
///
/// # Errors
/// [`TablebaseError::NotFound`], [`TablebaseError::Io`] or [`TablebaseError::Corrupt`].
pub fn open_layer(path: &Path) -> Result<(LayerHeader, LayerValues), TablebaseError> {
    let layer = map_layer(path)?;
    check_payload(path, &layer.values, layer.payload_crc)?;
    Ok((layer.header, layer.values))
}

/// As [`open_layer`], trusting a verified stamp in `stamps` when `check` allows, and recording
/// one (in memory: [`Stamps::save`] writes them) when the payload checksum is computed and good.
/// Also returns the file's identity as opened.
///
/// # Errors
/// As [`open_layer`].
pub fn open_layer_stamped(
    path: &Path,
    stamps: &Stamps,
    check: PayloadCheck,
) -> Result<(LayerHeader, LayerValues, PayloadStatus, FileIdentity), TablebaseError> {
    let layer = map_layer(path)?;
    let status = if is_stamped(path, &layer.identity, stamps, check) {
        PayloadStatus::Stamped
    } else {
        check_and_stamp(path, &layer, stamps)?;
        PayloadStatus::Checked
    };
    Ok((layer.header, layer.values, status, layer.identity))
}

/// Whether `check` lets a stamp vouch for the file at `path` and `stamps` has a matching one.
pub fn is_stamped(
    path: &Path,
    identity: &FileIdentity,
    stamps: &Stamps,
    check: PayloadCheck,
) -> bool {
    let name = path.file_name().and_then(|name| name.to_str());
    check == PayloadCheck::TrustStamps
        && name.is_some_and(|name| stamps.is_verified(name, identity))
}

/// Checks a mapped layer's payload checksum; records a stamp for it when good (if the file is
/// unchanged since it was opened), forgets any when corrupt.
///
/// # Errors
/// [`TablebaseError::Corrupt`] with [`Corruption::PayloadChecksum`].
pub fn check_and_stamp(
    path: &Path,
    layer: &MappedLayer,
    stamps: &Stamps,
) -> Result<(), TablebaseError> {
    let started = SystemTime::now();
    if let Err(error) = check_payload(path, &layer.values, layer.payload_crc) {
        stamps.forget(path);
        return Err(error);
    }
    stamps.record_checked(path, &layer.identity, started);
    Ok(())
}

/// Checks mapped values against the payload checksum of their header.
///
/// # Errors
/// [`TablebaseError::Corrupt`] with [`Corruption::PayloadChecksum`].
pub fn check_payload(path: &Path, values: &[u8], payload_crc: u32) -> Result<(), TablebaseError> {
    if crc32(values) != payload_crc {
        return Err(TablebaseError::Corrupt {
            path: path.to_path_buf(),
            reason: Corruption::PayloadChecksum,
        });
    }
    Ok(())
}

/// As [`open_layer`] without the payload checksum, which is left to the caller
/// ([`check_and_stamp`]): for large files checked later, away from the caller's thread.
///
/// # Errors
/// [`TablebaseError::NotFound`], [`TablebaseError::Io`] or [`TablebaseError::Corrupt`].
pub fn map_layer(path: &Path) -> Result<MappedLayer, TablebaseError> {
    map_file(path, VERSION)
}

/// As [`map_layer`] for a file of format `version`: the values are the whole payload.
///
/// # Errors
/// As [`map_layer`].
pub(crate) fn map_file(path: &Path, version: u32) -> Result<MappedLayer, TablebaseError> {
    let io = |source| TablebaseError::Io {
        path: path.to_path_buf(),
        source,
    };
    let corrupt = |reason| TablebaseError::Corrupt {
        path: path.to_path_buf(),
        reason,
    };
    let (mut file, metadata, head) = open_with_head(path, HEADER_LEN)?;
    let file_len = metadata.len();
    let (header, payload_crc) = parse_header(&head, file_len, version).map_err(corrupt)?;
    let payload_len = file_len - HEADER_LEN as u64;
    let identity = FileIdentity::new(&metadata, u32_at(&head, 84));
    // SAFETY: the map is read-only and private to this process; the length was checked above,
    // and is checked again below, so no access goes past the end of the file as it was mapped.
    // Undefined behaviour would follow only if another process truncated or rewrote the file
    // while it is mapped, which the documented contract forbids.
    let storage = match unsafe { Mmap::map(&file) } {
        Ok(map) if map.len() as u64 == file_len => Storage::Mapped(map),
        Ok(map) => {
            return Err(corrupt(Corruption::Truncated {
                expected: file_len,
                found: map.len() as u64,
            }))
        }
        Err(error) => {
            log::debug!("\"{}\": cannot map ({error}); reading", path.display());
            let mut values = Vec::with_capacity(payload_len as usize);
            file.read_to_end(&mut values).map_err(io)?;
            Storage::Owned(values)
        }
    };
    let values = LayerValues { storage };
    if values.len() as u64 != payload_len {
        return Err(corrupt(Corruption::Truncated {
            expected: file_len,
            found: HEADER_LEN as u64 + values.len() as u64,
        }));
    }
    Ok(MappedLayer {
        header,
        version: u32_at(&head, 8),
        values,
        payload_crc,
        identity,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Bit-at-a-time CRC-32 (reflected polynomial 0xEDB88320), straight from the definition.
    fn reference_crc32(data: &[u8]) -> u32 {
        let mut crc = !0u32;
        for &byte in data {
            crc ^= u32::from(byte);
            for _ in 0..8 {
                crc = if crc & 1 != 0 {
                    (crc >> 1) ^ 0xEDB8_8320
                } else {
                    crc >> 1
                };
            }
        }
        !crc
    }

    #[test]
    fn crc32_known_answer() {
        // The CRC-32/ISO-HDLC check value: the checksum tables written before crc32fast used.
        assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
        assert_eq!(crc32(b""), 0);
        assert_eq!(
            crc32(b"The quick brown fox jumps over the lazy dog"),
            0x414F_A339
        );
    }

    #[test]
    fn crc32_matches_the_definition_at_every_length_and_alignment() {
        let data: Vec<u8> = (0..5000u32)
            .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
            .collect();
        for start in 0..9 {
            for len in [0, 1, 7, 8, 15, 16, 17, 63, 64, 65, 255, 1000, 4096] {
                let slice = &data[start..start + len];
                assert_eq!(crc32(slice), reference_crc32(slice), "{start} {len}");
            }
        }
    }

    #[test]
    fn header_length_fields_cannot_overflow() {
        let header = LayerHeader {
            rules: TableRules::DEFAULT,
            captured: 0,
            in_hand: 0,
            positions: 1,
            counts: [[0; 3]; 2],
        };
        let mut encoded = encode_header(&header, 0);
        // 2 * 2^63 wraps to 0: a wrapping check would accept this header with an empty payload.
        encoded[16..24].copy_from_slice(&(1u64 << 63).to_le_bytes());
        encoded[24..32].copy_from_slice(&0u64.to_le_bytes());
        let header_crc = crc32(&encoded[..84]);
        encoded[84..88].copy_from_slice(&header_crc.to_le_bytes());
        assert_eq!(
            parse_header(&encoded, HEADER_LEN as u64, VERSION),
            Err(Corruption::BadHeader)
        );
        // A payload length that overflows with the header added.
        encoded[16..24].copy_from_slice(&(u64::MAX / 2).to_le_bytes());
        encoded[24..32].copy_from_slice(&(u64::MAX - 1).to_le_bytes());
        let header_crc = crc32(&encoded[..84]);
        encoded[84..88].copy_from_slice(&header_crc.to_le_bytes());
        assert_eq!(
            parse_header(&encoded, HEADER_LEN as u64, VERSION),
            Err(Corruption::BadHeader)
        );
    }
}
