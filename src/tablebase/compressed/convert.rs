//! `tb compress` (uncompressed placement layers, and movement layers when asked, to compressed
//! ones, resumable per layer) and the checks of compressed layers: every value against the
//! uncompressed files ([`compare_with`]), and both sides' values for `tb verify`
//! ([`SideReader`]).

use super::super::file::{
    check_payload, encode_header_as, layer_path, open_layer, placement_path, write_atomic,
    LayerHeader, COMPRESSED_VERSION, HEADER_LEN,
};
use super::super::generate::Progress;
use super::super::index::LayerIndex;
use super::super::output_error;
use super::super::placement::generate::check_placement_header;
use super::super::placement::has_capture;
use super::super::placement::index::{Frames, Layer, PlacementIndex};
use super::super::placement::packed::{count_codes, get, WIN};
use super::super::placement::solve::{layers, solve_goats, TigerChildren};
use super::super::stamp::RunStamps;
use super::super::{TableRules, TablebaseError};
use super::encode::encode_side;
use super::movement::{compare_movement, compress_movement, read_movement};
use super::{
    compressed_movement_path, compressed_path, CompressedLayer, Stored, BLOCK_SIZES, SEGMENT_VALUES,
};
use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;
use std::time::Instant;

/// What `tb compress` did for one layer.
#[derive(Clone, Debug)]
pub struct CompressReport {
    /// The layer.
    pub layer: Layer,
    /// Positions stored: tigers to move of a placement layer, both sides of a movement layer
    /// (`layer.in_hand` 0).
    pub positions: u64,
    /// Size of the uncompressed file.
    pub source_bytes: u64,
    /// Size of the compressed file.
    pub bytes: u64,
    /// Seconds spent (0 when the layer was already compressed).
    pub seconds: f64,
    /// Whether a valid compressed file was already present.
    pub resumed: bool,
}

impl CompressReport {
    /// Bits of the compressed file per stored (tigers-to-move) position.
    pub fn bits_per_position(&self) -> f64 {
        8.0 * self.bytes as f64 / self.positions.max(1) as f64
    }
}

/// Whether tigers to move in `layer` with these tigers and goats win by a capture that reaches
/// captures to win: such values are not needed from the table ("don't care").
pub fn capture_wins(rules: TableRules, layer: Layer, tigers: u32, goats: u32) -> bool {
    layer.captured + 1 == rules.captures_to_win && has_capture(tigers, goats)
}

/// Compresses the placement layers of `source` into `target` (the same directory or another),
/// and its movement layers when `movement` is set (else they are copied there when absent), so
/// `target` is a complete table set.
/// Layers already compressed in `target` with a good checksum are kept (resumable per layer);
/// each file is written atomically. Each layer's segments are coded on `threads` threads, in
/// blocks of `block_bytes` (one of [`BLOCK_SIZES`]; a layer compressed with another size is
/// written again).
/// Progress: one phase per layer. Every file of `target` this run writes or checks whole is
/// stamped as verified ([`RunStamps`]), so the first open after it checks nothing.
///
/// # Errors
/// Unreadable, corrupt or mismatched source files, or a failure to write.
pub fn compress_dir(
    source: &Path,
    target: &Path,
    threads: usize,
    block_bytes: usize,
    movement: bool,
    progress: Progress,
) -> Result<Vec<CompressReport>, TablebaseError> {
    assert!(
        BLOCK_SIZES.contains(&block_bytes),
        "block size {block_bytes}"
    );
    let (rules_header, _) = open_layer(&layer_path(source, 0))?;
    let rules = rules_header.rules;
    std::fs::create_dir_all(target).map_err(|source_error| TablebaseError::Io {
        path: target.to_path_buf(),
        source: source_error,
    })?;
    let stamps = RunStamps::new(target);
    let mut reports = Vec::new();
    for captured in 0..rules.captures_to_win {
        if movement {
            reports.push(compress_movement(
                source,
                target,
                captured,
                rules,
                threads,
                block_bytes,
                &stamps,
                progress,
            )?);
            continue;
        }
        let to = layer_path(target, captured);
        if copy_if_absent(&layer_path(source, captured), &to)? {
            stamps.written(&to);
        }
    }
    for layer in layers(rules, 20) {
        let from = placement_path(source, layer.in_hand, layer.captured);
        if !from.exists() {
            continue;
        }
        let to = compressed_path(target, layer.in_hand, layer.captured);
        let started = Instant::now();
        let (header, values) = open_layer(&from)?;
        check_placement_header(&from, &header, rules, layer)?;
        let source_bytes = (HEADER_LEN + values.len()) as u64;
        if let Some(bytes) = already_compressed(&to, &header, block_bytes, &stamps) {
            log::info!("\"{}\": present, kept", to.display());
            reports.push(CompressReport {
                layer,
                positions: header.positions,
                source_bytes,
                bytes,
                seconds: 0.0,
                resumed: true,
            });
            continue;
        }
        let tigers = &values[header.side_bytes() as usize..];
        let index = PlacementIndex::new(layer);
        let frames = Frames::get();
        let code = |at: u64| -> Option<u8> {
            if layer.captured + 1 == rules.captures_to_win {
                let (class, goats) = index.decode(at);
                if capture_wins(rules, layer, frames.classes[class].tigers, goats) {
                    return None;
                }
            }
            Some(get(tigers, at))
        };
        let phase = format!(
            "compress {} in hand {} captured",
            layer.in_hand, layer.captured
        );
        let positions = header.positions;
        let report = |done: u64| progress(&phase, done, positions);
        let payload = encode_side(
            positions,
            Stored::PlacementCodes,
            SEGMENT_VALUES,
            block_bytes,
            threads,
            &code,
            &report,
        );
        let bytes = write_compressed(&to, &header, &payload, &stamps)?;
        reports.push(CompressReport {
            layer,
            positions,
            source_bytes,
            bytes,
            seconds: started.elapsed().as_secs_f64(),
            resumed: false,
        });
    }
    stamps.finish();
    Ok(reports)
}

/// Writes a compressed file to `to` atomically: `header` as format version 3, then `payload`;
/// to be stamped by `stamps` once settled. Returns its size in bytes.
///
/// # Errors
/// A failure to write.
pub(crate) fn write_compressed(
    to: &Path,
    header: &LayerHeader,
    payload: &[u8],
    stamps: &RunStamps,
) -> Result<u64, TablebaseError> {
    let crc = super::super::file::crc32(payload);
    let head = encode_header_as(header, COMPRESSED_VERSION, payload.len() as u64, crc);
    write_atomic(to, &[&head, payload])?;
    stamps.written(to);
    stamps.settle();
    Ok((HEADER_LEN + payload.len()) as u64)
}

/// The size of a compressed file already at `path` for the layer of `header`, when it is intact
/// (header, checksum, tables) and made from the same values (same header counts) in blocks of
/// `block_bytes`; such a file, read whole and checked, is stamped in `stamps`.
pub(crate) fn already_compressed(
    path: &Path,
    header: &LayerHeader,
    block_bytes: usize,
    stamps: &RunStamps,
) -> Option<u64> {
    let read_at = std::time::SystemTime::now();
    let layer = CompressedLayer::open(path).ok()?;
    let mapped = &layer.mapped;
    check_payload(path, &mapped.values, mapped.payload_crc).ok()?;
    layer.check_tables(path).ok()?;
    if mapped.header != *header || layer.block_bytes() != block_bytes {
        return None;
    }
    stamps.resumed(path, &mapped.identity, read_at);
    Some(mapped.identity.len)
}

/// Copies `from` to `to` (through a temporary file renamed into place) unless `to` exists;
/// whether it copied.
fn copy_if_absent(from: &Path, to: &Path) -> Result<bool, TablebaseError> {
    if to.exists() {
        return Ok(false);
    }
    let bytes =
        std::fs::read(from).map_err(|source| super::super::file::open_error(from, source))?;
    write_atomic(to, &[&bytes])?;
    Ok(true)
}

/// Reads both sides' packed values of placement layers, uncompressed or compressed (goats to
/// move then derived from the tigers-to-move values one goat in hand lower, or from the
/// movement tables), keeping the last tigers-to-move values read so that layers read in order
/// of goats in hand decode each layer once.
pub struct SideReader<'a> {
    dir: &'a Path,
    rules: TableRules,
    threads: usize,
    tigers: BTreeMap<Layer, Vec<u8>>,
}

impl<'a> SideReader<'a> {
    /// A reader of the layers in `dir` for `rules`, deriving values on `threads` threads.
    pub fn new(dir: &'a Path, rules: TableRules, threads: usize) -> SideReader<'a> {
        SideReader {
            dir,
            rules,
            threads,
            tigers: BTreeMap::new(),
        }
    }

    /// The header and both sides (goats to move, tigers to move) of `layer`: from its
    /// uncompressed file when `compressed` is false and that file exists, else from its
    /// compressed file.
    ///
    /// # Errors
    /// A missing, unreadable, corrupt or mismatched file.
    pub fn sides(
        &mut self,
        layer: Layer,
        compressed: bool,
    ) -> Result<(LayerHeader, Vec<u8>, Vec<u8>), TablebaseError> {
        let (dir, rules) = (self.dir, self.rules);
        let plain = placement_path(dir, layer.in_hand, layer.captured);
        let (header, goats, tigers) = if !compressed
            && (plain.exists() || !compressed_path(dir, layer.in_hand, layer.captured).exists())
        {
            let (header, mut goats) = super::super::file::read_layer(&plain)?;
            check_placement_header(&plain, &header, rules, layer)?;
            let tigers = goats.split_off(header.side_bytes() as usize);
            (header, goats, tigers)
        } else {
            let (header, tigers) = compressed_tigers(dir, rules, layer)?;
            let goats = self.derive_goats(layer)?;
            (header, goats, tigers)
        };
        self.tigers
            .retain(|kept, _| kept.in_hand + 1 >= layer.in_hand);
        self.tigers.insert(layer, tigers.clone());
        Ok((header, goats, tigers))
    }

    /// The goats-to-move values of `layer`, from its children's values.
    fn derive_goats(&mut self, layer: Layer) -> Result<Vec<u8>, TablebaseError> {
        let index = PlacementIndex::new(layer);
        let silent = |_: u64, _: u64| {};
        if layer.in_hand == 1 {
            let (_, values) = read_movement(self.dir, layer.captured, self.rules)?;
            let children = TigerChildren::Movement {
                values: &values,
                index: LayerIndex::get(usize::from(layer.captured) + 1),
            };
            return Ok(solve_goats(&index, &children, self.threads, &silent));
        }
        let below = Layer {
            in_hand: layer.in_hand - 1,
            captured: layer.captured,
        };
        if !self.tigers.contains_key(&below) {
            self.sides(below, false)?;
        }
        let below_index = PlacementIndex::new(below);
        let children = TigerChildren::Placement {
            values: &self.tigers[&below],
            index: &below_index,
        };
        Ok(solve_goats(&index, &children, self.threads, &silent))
    }
}

/// The tigers-to-move values of a compressed layer, checked (checksum, tables) and with the
/// don't-care positions given their value (a win), packed as in the uncompressed files.
fn compressed_tigers(
    dir: &Path,
    rules: TableRules,
    layer: Layer,
) -> Result<(LayerHeader, Vec<u8>), TablebaseError> {
    let path = compressed_path(dir, layer.in_hand, layer.captured);
    let compressed = CompressedLayer::open(&path)?;
    let mapped = &compressed.mapped;
    check_payload(&path, &mapped.values, mapped.payload_crc)?;
    check_placement_header(&path, &mapped.header, rules, layer)?;
    compressed.check_tables(&path)?;
    let corrupt = || TablebaseError::Corrupt {
        path: path.clone(),
        reason: super::super::Corruption::BadData,
    };
    let mut tigers = compressed.decode_all().ok_or_else(corrupt)?;
    if layer.captured + 1 == rules.captures_to_win {
        let index = PlacementIndex::new(layer);
        let frames = Frames::get();
        for at in 0..index.len() {
            let (class, goats) = index.decode(at);
            if capture_wins(rules, layer, frames.classes[class].tigers, goats) {
                let byte = &mut tigers[(at >> 2) as usize];
                let shift = (at & 3) * 2;
                *byte = (*byte & !(3 << shift)) | (WIN << shift);
            }
        }
    }
    Ok((mapped.header.clone(), tigers))
}

/// The outcome of comparing one compressed layer with its uncompressed file.
#[derive(Clone, Debug)]
pub struct Comparison {
    /// The layer.
    pub layer: Layer,
    /// Positions per side compared.
    pub positions: u64,
    /// Tigers-to-move values that differ (after the don't-care positions are given their
    /// value).
    pub tiger_mismatches: u64,
    /// Goats-to-move values (derived from the tigers-to-move values below) that differ.
    pub goat_mismatches: u64,
    /// Whether the derived values' counts match the compressed file's header.
    pub counts_match: bool,
}

impl Comparison {
    /// Whether the layer passed.
    pub fn ok(&self) -> bool {
        self.tiger_mismatches == 0 && self.goat_mismatches == 0 && self.counts_match
    }
}

/// Compares every compressed layer in `dir` with the uncompressed file of the same layer in
/// `reference`: the value bytes of a movement layer; every tigers-to-move value of a placement
/// layer decoded, every goats-to-move value derived.
///
/// # Errors
/// A missing, unreadable, corrupt or mismatched file (in either directory).
pub fn compare_with(
    dir: &Path,
    reference: &Path,
    threads: usize,
    progress: Progress,
) -> Result<Vec<Comparison>, TablebaseError> {
    let (movement, _) = open_layer(&layer_path(reference, 0))?;
    let rules = movement.rules;
    let mut reader = SideReader::new(dir, rules, threads);
    let mut out = Vec::new();
    for captured in 0..rules.captures_to_win {
        if compressed_movement_path(dir, captured).exists() {
            progress(&format!("compare movement {captured} captured"), 0, 1);
            out.push(compare_movement(dir, reference, captured, rules)?);
        }
    }
    for layer in layers(rules, 20) {
        if !compressed_path(dir, layer.in_hand, layer.captured).exists() {
            continue;
        }
        let phase = format!(
            "compare {} in hand {} captured",
            layer.in_hand, layer.captured
        );
        progress(&phase, 0, 2);
        let (header, goats, tigers) = reader.sides(layer, true)?;
        let plain = placement_path(reference, layer.in_hand, layer.captured);
        let (expected_header, expected) = open_layer(&plain)?;
        check_placement_header(&plain, &expected_header, rules, layer)?;
        let side = header.side_bytes() as usize;
        let positions = header.positions;
        let mismatches = |ours: &[u8], theirs: &[u8]| -> u64 {
            (0..positions)
                .filter(|&at| get(ours, at) != get(theirs, at))
                .count() as u64
        };
        progress(&phase, 1, 2);
        let comparison = Comparison {
            layer,
            positions,
            tiger_mismatches: mismatches(&tigers, &expected[side..]),
            goat_mismatches: mismatches(&goats, &expected[..side]),
            counts_match: header.counts
                == [
                    count_codes(&goats, positions),
                    count_codes(&tigers, positions),
                ],
        };
        progress(&phase, 2, 2);
        out.push(comparison);
    }
    Ok(out)
}

/// `tb compress`: compresses and prints one line per layer (sizes, bits per stored position)
/// and the totals.
///
/// # Errors
/// As [`compress_dir`], or a failure to write the output.
pub fn compress(
    dir: &Path,
    target: &Path,
    threads: usize,
    block_bytes: usize,
    movement: bool,
    out: &mut dyn Write,
    progress: Progress,
) -> Result<(), String> {
    let started = Instant::now();
    let reports = compress_dir(dir, target, threads, block_bytes, movement, progress)
        .map_err(|e| e.to_string())?;
    let line = |out: &mut dyn Write, text: String| writeln!(out, "{text}").map_err(output_error);
    line(
        out,
        "hand capt   positions  source bytes       bytes  bits/pos  seconds".to_string(),
    )?;
    let (mut positions, mut source_bytes, mut bytes) = (0u64, 0u64, 0u64);
    for report in &reports {
        line(
            out,
            format!(
                "{:>4} {:>4} {:>11} {:>13} {:>11} {:>9.4} {:>8.1}{}",
                report.layer.in_hand,
                report.layer.captured,
                report.positions,
                report.source_bytes,
                report.bytes,
                report.bits_per_position(),
                report.seconds,
                if report.resumed { " (present)" } else { "" }
            ),
        )?;
        positions += report.positions;
        source_bytes += report.source_bytes;
        bytes += report.bytes;
    }
    line(out, format!("layers: {}", reports.len()))?;
    line(
        out,
        format!(
            "stored positions (placement: tigers to move; movement, 0 in hand: both sides): \
             {positions}"
        ),
    )?;
    line(out, format!("uncompressed bytes: {source_bytes}"))?;
    line(out, format!("compressed bytes: {bytes}"))?;
    let bits = 8.0 * bytes as f64 / positions.max(1) as f64;
    line(out, format!("bits per stored position: {bits:.4}"))?;
    line(
        out,
        format!("wall seconds: {:.1}", started.elapsed().as_secs_f64()),
    )
}

/// `tb verify DIR --against REFERENCE`: compares and prints one line per compressed layer.
///
/// # Errors
/// As [`compare_with`], a mismatch, or a failure to write the output.
pub fn compare(
    dir: &Path,
    reference: &Path,
    threads: usize,
    out: &mut dyn Write,
    progress: Progress,
) -> Result<(), String> {
    let comparisons = compare_with(dir, reference, threads, progress).map_err(|e| e.to_string())?;
    let mut failed = false;
    for check in &comparisons {
        let layer = match check.layer.in_hand {
            0 => format!("compressed movement {} captured", check.layer.captured),
            in_hand => format!(
                "compressed {in_hand} in hand {} captured",
                check.layer.captured
            ),
        };
        writeln!(
            out,
            "{layer}: {} positions per side, {} tigers-to-move and {} goats-to-move mismatches, counts {}",
            check.positions,
            check.tiger_mismatches,
            check.goat_mismatches,
            if check.counts_match { "match" } else { "differ" }
        )
        .map_err(output_error)?;
        failed |= !check.ok();
    }
    if comparisons.is_empty() {
        return Err(format!("\"{}\": no compressed layer", dir.display()));
    }
    if failed {
        return Err("verification failed".to_string());
    }
    writeln!(out, "verify: ok").map_err(output_error)
}
