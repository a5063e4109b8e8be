//! Generation of a full set of tables: layers from the most captured goats down, each written
//! atomically; layers already present and valid for the same rules are loaded, not recomputed.

use super::file::{layer_path, read_to_resume, write_layer, LayerHeader, ReadLayer};
use super::generate::{generate_layer, Progress};
use super::graph::LayerGraph;
use super::stamp::RunStamps;
use super::value::{decode_value, Wdl};
use super::{Corruption, TableRules, TablebaseError};
use std::path::Path;
use std::time::Instant;

/// What generation did for one layer.
#[derive(Clone, Debug)]
pub struct LayerReport {
    /// Goats captured.
    pub captured: u8,
    /// The file's header (positions and win/draw/loss counts).
    pub header: LayerHeader,
    /// Whether the layer was already present and valid.
    pub resumed: bool,
    /// Wall time spent (solving and writing, or loading), seconds.
    pub seconds: f64,
    /// File size in bytes.
    pub file_bytes: u64,
    /// Longest distance to the end stored in the layer, plies.
    pub max_distance: u16,
}

/// Wins, draws and losses in a side's values.
pub fn count_values(values: &[u8]) -> [u64; 3] {
    let mut histogram = [0u64; 256];
    for &byte in values {
        histogram[byte as usize] += 1;
    }
    let mut counts = [0u64; 3];
    for (byte, &count) in histogram.iter().enumerate() {
        let slot = match decode_value(byte as u8).wdl {
            Wdl::Win => 0,
            Wdl::Draw => 1,
            Wdl::Loss => 2,
        };
        counts[slot] += count;
    }
    counts
}

fn max_distance(values: &[u8]) -> u16 {
    values
        .iter()
        .map(|&byte| u16::from(byte.saturating_sub(1)))
        .max()
        .unwrap_or(0)
}

/// Generates (or resumes) the tables for `rules` in `dir`, using `threads` threads. Returns one
/// report per layer, most captures first. Every layer file is stamped as verified
/// ([`RunStamps`]), so the first open does not check it again.
///
/// # Errors
/// Unsupported rules, I/O failures, or a distance overflow.
pub fn generate_tables(
    dir: &Path,
    rules: TableRules,
    threads: usize,
    progress: Progress,
) -> Result<Vec<LayerReport>, TablebaseError> {
    let stamps = RunStamps::new(dir);
    let reports = generate_tables_stamped(dir, rules, threads, progress, &stamps);
    // Also after a failure: the layers finished before it keep their stamps.
    stamps.finish();
    reports
}

/// As [`generate_tables`], the files' stamps noted in `stamps` (the caller settles them).
///
/// # Errors
/// As [`generate_tables`].
pub(crate) fn generate_tables_stamped(
    dir: &Path,
    rules: TableRules,
    threads: usize,
    progress: Progress,
    stamps: &RunStamps,
) -> Result<Vec<LayerReport>, TablebaseError> {
    rules.check_covered()?;
    std::fs::create_dir_all(dir).map_err(|source| TablebaseError::Io {
        path: dir.to_path_buf(),
        source,
    })?;
    let mut reports = Vec::new();
    let mut next_goats: Option<Vec<u8>> = None;
    for captured in (0..rules.captures_to_win).rev() {
        let started = Instant::now();
        let path = layer_path(dir, captured);
        let graph = LayerGraph::new(captured, rules);
        let positions = u64::from(graph.index.len());
        let (header, payload, resumed) = match load_existing(&path, rules, captured, positions)? {
            Some(layer) => {
                log::info!(
                    "layer {captured}: \"{}\" is present and valid, skipped",
                    path.display()
                );
                stamps.resumed(&path, &layer.identity, layer.read_at);
                (layer.header, layer.payload, true)
            }
            None => {
                let layer_progress = |phase: &str, done: u64, total: u64| {
                    progress(&format!("layer {captured} {phase}"), done, total);
                };
                let solved = generate_layer(
                    &graph,
                    captured,
                    next_goats.as_deref(),
                    threads,
                    &layer_progress,
                )?;
                let [goats, tigers] = solved.values;
                let header = LayerHeader {
                    rules,
                    captured,
                    in_hand: 0,
                    positions,
                    counts: [count_values(&goats), count_values(&tigers)],
                };
                write_layer(&path, &header, &goats, &tigers)?;
                stamps.written(&path);
                let mut payload = goats;
                payload.extend_from_slice(&tigers);
                (header, payload, false)
            }
        };
        let file_bytes = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
        reports.push(LayerReport {
            captured,
            header,
            resumed,
            seconds: started.elapsed().as_secs_f64(),
            file_bytes,
            max_distance: max_distance(&payload),
        });
        let mut goats = payload;
        goats.truncate(positions as usize);
        goats.shrink_to_fit();
        next_goats = Some(goats);
        stamps.settle();
    }
    Ok(reports)
}

/// Loads a layer file if it exists, is intact and matches the rules; `None` if it is absent or
/// damaged (it will be regenerated). A file for other rules is an error: never overwrite it.
fn load_existing(
    path: &Path,
    rules: TableRules,
    captured: u8,
    positions: u64,
) -> Result<Option<ReadLayer>, TablebaseError> {
    let layer = read_to_resume(path)?;
    if let Some(layer) = &layer {
        check_header(path, &layer.header, rules, 0, captured, positions)?;
    }
    Ok(layer)
}

/// Checks that a header belongs to the layer with `in_hand` goats in hand (0: the movement
/// phase) and `captured` captured, of `positions` positions per side, for these rules.
///
/// # Errors
/// [`TablebaseError::MismatchedRules`] or [`TablebaseError::Corrupt`] (wrong layer or size).
pub fn check_header(
    path: &Path,
    header: &LayerHeader,
    rules: TableRules,
    in_hand: u8,
    captured: u8,
    positions: u64,
) -> Result<(), TablebaseError> {
    if header.rules != rules {
        return Err(TablebaseError::MismatchedRules {
            path: path.to_path_buf(),
            expected: rules,
            found: header.rules,
        });
    }
    if (header.in_hand, header.captured, header.positions) != (in_hand, captured, positions) {
        return Err(TablebaseError::Corrupt {
            path: path.to_path_buf(),
            reason: Corruption::BadHeader,
        });
    }
    Ok(())
}
