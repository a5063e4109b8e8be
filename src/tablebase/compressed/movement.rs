//! Compressed movement layers (`layer-C.bctz`, docs/tablebase.md "Compressed movement
//! layers"): the value bytes of both sides, coded like the placement layers with the 256 byte
//! values as the dictionary's first symbols. The engine, the referee, the GUI and the Python
//! oracle read them through [`MovementValues`]; the batch tools that walk a whole layer
//! (generation, `tb verify`, the forbid solver) decode it into memory once.

use super::super::file::{
    check_payload, layer_path, open_layer, open_layer_stamped, LayerHeader, LayerValues,
    PayloadCheck, PayloadStatus, HEADER_LEN,
};
use super::super::generate::Progress;
use super::super::index::CLASSES_PER_LAYER;
use super::super::placement::index::Layer;
use super::super::solve::check_header;
use super::super::stamp::{FileIdentity, RunStamps, Stamps};
use super::super::{Corruption, TableRules, TablebaseError};
use super::convert::{Comparison, CompressReport};
use super::encode::encode_side;
use super::{compressed_movement_path, CompressedLayer, Stored, SEGMENT_VALUES};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::Instant;

/// The values of one movement layer (goats to move, then tigers to move, one byte a position),
/// from either format.
#[derive(Debug)]
pub enum MovementValues {
    /// The uncompressed file, mapped.
    Plain(LayerValues),
    /// The compressed file.
    Compressed(Box<CompressedMovement>),
}

/// A compressed movement layer, and its values decoded whole once a caller asked for all of
/// them.
#[derive(Debug)]
pub struct CompressedMovement {
    /// The file.
    layer: CompressedLayer,
    /// Every value, decoded on the first call of [`MovementValues::bytes`] (`None` when the
    /// data was inconsistent).
    decoded: OnceLock<Option<Vec<u8>>>,
}

impl MovementValues {
    /// The file's mapped values.
    fn mapped(&self) -> &LayerValues {
        match self {
            MovementValues::Plain(values) => values,
            MovementValues::Compressed(compressed) => &compressed.layer.mapped.values,
        }
    }

    /// See [`LayerValues::expect_random_reads`].
    pub fn expect_random_reads(&self) {
        self.mapped().expect_random_reads();
    }

    /// See [`LayerValues::mapped_len`].
    pub fn mapped_len(&self) -> u64 {
        self.mapped().mapped_len()
    }

    /// See [`LayerValues::prefetch`].
    pub fn prefetch(&self, stop: &std::sync::atomic::AtomicBool) {
        self.mapped().prefetch(stop);
    }

    /// The value byte at `at` (goats to move `0..n`, tigers to move `n..2n`); `None` out of
    /// range or when the compressed data is inconsistent.
    #[inline]
    pub fn value(&self, at: usize) -> Option<u8> {
        match self {
            MovementValues::Plain(values) => values.get(at).copied(),
            MovementValues::Compressed(compressed) => compressed.layer.code(at as u64),
        }
    }

    /// Every value byte, as in the uncompressed file's payload (a compressed layer is decoded
    /// into memory on the first call).
    ///
    /// # Errors
    /// [`Corruption::BadData`] naming `path` when the compressed data is inconsistent.
    pub fn bytes(&self, path: &Path) -> Result<&[u8], TablebaseError> {
        match self {
            MovementValues::Plain(values) => Ok(values),
            MovementValues::Compressed(compressed) => compressed
                .decoded
                .get_or_init(|| compressed.layer.decode_bytes())
                .as_deref()
                .ok_or_else(|| TablebaseError::Corrupt {
                    path: path.to_path_buf(),
                    reason: Corruption::BadData,
                }),
        }
    }
}

/// A movement layer as opened by [`open_movement`].
pub struct OpenMovement {
    /// The file opened.
    pub path: PathBuf,
    /// Its checked header.
    pub header: LayerHeader,
    /// Its values.
    pub values: MovementValues,
    /// How its payload was found intact.
    pub status: PayloadStatus,
    /// Its identity as opened.
    pub identity: FileIdentity,
}

/// Opens movement layer `captured` of `dir`: its uncompressed file when present (a probe reads
/// one byte there, 2.4 times faster than decoding a block), else its compressed one, whose
/// segment tables are all checked. The payload checksum is checked, or vouched for by a stamp
/// when `check` allows (and recorded in `stamps` when computed).
///
/// # Errors
/// Neither file present ([`TablebaseError::NotFound`] naming the uncompressed one), or the one
/// found unreadable or corrupt.
pub fn open_movement(
    dir: &Path,
    captured: u8,
    stamps: &Stamps,
    check: PayloadCheck,
) -> Result<OpenMovement, TablebaseError> {
    let plain = layer_path(dir, captured);
    match open_layer_stamped(&plain, stamps, check) {
        Err(TablebaseError::NotFound { .. }) => {}
        opened => {
            let (header, values, status, identity) = opened?;
            return Ok(OpenMovement {
                path: plain,
                header,
                values: MovementValues::Plain(values),
                status,
                identity,
            });
        }
    }
    let path = compressed_movement_path(dir, captured);
    let layer = match CompressedLayer::open(&path) {
        Err(TablebaseError::NotFound { .. }) => {
            return Err(TablebaseError::NotFound { path: plain })
        }
        opened => opened?,
    };
    let mapped = &layer.mapped;
    let status = if super::super::file::is_stamped(&path, &mapped.identity, stamps, check) {
        PayloadStatus::Stamped
    } else {
        super::super::file::check_and_stamp(&path, mapped, stamps)?;
        PayloadStatus::Checked
    };
    if mapped.header.in_hand != 0 {
        return Err(TablebaseError::Corrupt {
            path,
            reason: Corruption::BadHeader,
        });
    }
    layer.check_tables(&path)?;
    Ok(OpenMovement {
        path,
        header: mapped.header.clone(),
        identity: mapped.identity,
        status,
        values: MovementValues::Compressed(Box::new(CompressedMovement {
            layer,
            decoded: OnceLock::new(),
        })),
    })
}

/// The header and every value byte of movement layer `captured` of `dir` for `rules`, from
/// either format (checked whole: checksum, header, tables).
///
/// # Errors
/// A missing, unreadable, corrupt or mismatched file.
pub fn read_movement(
    dir: &Path,
    captured: u8,
    rules: TableRules,
) -> Result<(LayerHeader, Vec<u8>), TablebaseError> {
    let stamps = Stamps::load(dir);
    let opened = open_movement(dir, captured, &stamps, PayloadCheck::Always);
    stamps.save();
    let opened = opened?;
    let classes = u64::from(CLASSES_PER_LAYER[usize::from(captured)]);
    check_header(&opened.path, &opened.header, rules, 0, captured, classes)?;
    let bytes = opened.values.bytes(&opened.path)?.to_vec();
    Ok((opened.header, bytes))
}

/// Compresses movement layer `captured` of `source` into `target` (`tb compress --movement`),
/// keeping a compressed file already there when it is intact and made from the same values in
/// blocks of `block_bytes`.
///
/// # Errors
/// An unreadable, corrupt or mismatched source, or a failure to write.
#[allow(clippy::too_many_arguments)]
pub(crate) fn compress_movement(
    source: &Path,
    target: &Path,
    captured: u8,
    rules: TableRules,
    threads: usize,
    block_bytes: usize,
    stamps: &RunStamps,
    progress: Progress,
) -> Result<CompressReport, TablebaseError> {
    let started = Instant::now();
    let from = layer_path(source, captured);
    let to = compressed_movement_path(target, captured);
    let (header, values) = open_layer(&from)?;
    let classes = u64::from(CLASSES_PER_LAYER[usize::from(captured)]);
    check_header(&from, &header, rules, 0, captured, classes)?;
    let layer = Layer {
        in_hand: 0,
        captured,
    };
    let count = Stored::MovementBytes.values(header.positions);
    let source_bytes = (HEADER_LEN + values.len()) as u64;
    if let Some(bytes) = super::convert::already_compressed(&to, &header, block_bytes, stamps) {
        log::info!("\"{}\": present, kept", to.display());
        return Ok(CompressReport {
            layer,
            positions: count,
            source_bytes,
            bytes,
            seconds: 0.0,
            resumed: true,
        });
    }
    let phase = format!("compress movement {captured} captured");
    let report = |done: u64| progress(&phase, done, count);
    let payload = encode_side(
        count,
        Stored::MovementBytes,
        SEGMENT_VALUES,
        block_bytes,
        threads,
        &|at| values.get(at as usize).copied(),
        &report,
    );
    let bytes = super::convert::write_compressed(&to, &header, &payload, stamps)?;
    Ok(CompressReport {
        layer,
        positions: count,
        source_bytes,
        bytes,
        seconds: started.elapsed().as_secs_f64(),
        resumed: false,
    })
}

/// Compares compressed movement layer `captured` of `dir` with the uncompressed one of
/// `reference`: every value byte, both sides, and the headers (counts included).
///
/// # Errors
/// A missing, unreadable, corrupt or mismatched file (in either directory).
pub(crate) fn compare_movement(
    dir: &Path,
    reference: &Path,
    captured: u8,
    rules: TableRules,
) -> Result<Comparison, TablebaseError> {
    let path = compressed_movement_path(dir, captured);
    let layer = CompressedLayer::open(&path)?;
    let mapped = &layer.mapped;
    check_payload(&path, &mapped.values, mapped.payload_crc)?;
    let classes = u64::from(CLASSES_PER_LAYER[usize::from(captured)]);
    check_header(&path, &mapped.header, rules, 0, captured, classes)?;
    layer.check_tables(&path)?;
    let ours = layer
        .decode_bytes()
        .ok_or_else(|| TablebaseError::Corrupt {
            path: path.clone(),
            reason: Corruption::BadData,
        })?;
    let plain = layer_path(reference, captured);
    let (expected_header, expected) = open_layer(&plain)?;
    check_header(&plain, &expected_header, rules, 0, captured, classes)?;
    let n = classes as usize;
    let mismatches = |side: usize| {
        (side * n..(side + 1) * n)
            .filter(|&at| ours.get(at) != expected.get(at))
            .count() as u64
    };
    Ok(Comparison {
        layer: Layer {
            in_hand: 0,
            captured,
        },
        positions: classes,
        tiger_mismatches: mismatches(1),
        goat_mismatches: mismatches(0),
        counts_match: mapped.header == expected_header,
    })
}
