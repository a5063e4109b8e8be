//! The `baghchal tb ...` subcommands: gen, verify, probe.

use super::compressed::convert::{compare, compress};
use super::compressed::{BLOCK_SIZES, WRITTEN_BLOCK_BYTES};
use super::forbid::cli::ForbidCommand;
use super::forbid::probe::probe_forbid;
use super::forbid::tables::ForbidTables;
use super::generate::Progress;
use super::placement::generate::{generate_placement, PlacementReport, MAX_IN_HAND};
use super::placement::verify::verify_placement;
use super::probe_text::{answer, forbid_words, probe_batch};
use super::progress::PhaseProgress;
use super::solve::{generate_tables, LayerReport};
use super::verify::verify_tables;
use super::{output_error, TableRules, Tablebase};
use crate::Position;
use clap::Subcommand;
use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

/// Writes a line to the output; a closed output (e.g. stdout piped into `head`) is an error,
/// not a panic.
macro_rules! out {
    ($out:expr, $($arg:tt)*) => {
        writeln!($out, $($arg)*).map_err(output_error)?
    };
}

/// Tablebase subcommands.
#[derive(Subcommand, Debug)]
pub enum TbCommand {
    /// Generate the movement-phase tables, and with --placement the placement layers after
    /// them (resumes: valid layers already present are kept).
    Gen {
        /// Directory for the layer files.
        #[arg(long)]
        out: PathBuf,
        /// Goats the tigers must capture to win (1..5).
        #[arg(long, default_value_t = 5)]
        captures_to_win: u8,
        /// Tigers must capture when they can.
        #[arg(long)]
        forced_capture: bool,
        /// Also solve the placement phase (positions with goats in hand), layer by layer.
        #[arg(long)]
        placement: bool,
        /// With --placement: stop after the layers with this many goats in hand (1..20).
        #[arg(long, default_value_t = MAX_IN_HAND, value_parser = clap::value_parser!(u8).range(1..=20))]
        max_in_hand: u8,
        /// With --placement: then write each placement layer compressed too (`.bctz`, as `tb
        /// compress DIR` does; resumes likewise). The uncompressed layers stay: a later run
        /// resumes from them.
        #[arg(long, requires = "placement")]
        compress: bool,
        /// With --compress: compress the movement layers too (`layer-C.bctz`, as `tb compress
        /// --movement`).
        #[arg(long, requires = "compress")]
        movement: bool,
        /// Worker threads (default: all cores).
        #[arg(long)]
        threads: Option<usize>,
    },
    /// Check checksums (all of them, whatever the verified stamps say) and that every stored
    /// value agrees with its successors (placement layers present too, from 1 goat in hand up
    /// to the first missing count).
    Verify {
        /// Directory of the layer files.
        dir: PathBuf,
        /// Check every N-th placement position of each layer and side (1: all; the full
        /// placement phase has about 3.5e10 positions).
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..))]
        placement_stride: u64,
        /// Instead: compare every value of the compressed layers in DIR (placement, and
        /// movement where compressed) with the uncompressed files in this directory.
        #[arg(long)]
        against: Option<PathBuf>,
        /// Worker threads (default: all cores).
        #[arg(long)]
        threads: Option<usize>,
    },
    /// Compress the placement layers of DIR (format version 3: tigers to move only, about 0.4
    /// bit a position; docs/tablebase.md), and with --movement the movement layers. Resumes:
    /// layers already compressed are kept.
    Compress {
        /// Directory of the uncompressed tables.
        dir: PathBuf,
        /// Directory for the compressed layers (default: DIR); the movement tables are copied
        /// there when absent (or compressed, with --movement), so it is a complete set of
        /// tables.
        #[arg(long)]
        out: Option<PathBuf>,
        /// Compress the movement layers too (`layer-C.bctz`: 88 MB to about 21 MB for the
        /// default rules; a probe decodes instead of reading one byte, so where both files
        /// are present the uncompressed one is read).
        #[arg(long)]
        movement: bool,
        /// Worker threads, each coding one segment at a time (default: all cores).
        #[arg(long)]
        threads: Option<usize>,
        /// Bytes per block: 64 (the smaller files, meeting 0.45 bit a position) or 32 (about
        /// 4% larger; no faster with the decoder's recorded midpoints).
        #[arg(long, default_value_t = WRITTEN_BLOCK_BYTES)]
        block_bytes: usize,
    },
    /// Bagh Chal under `Repetition forbid`: census and exact values of the table draws (see
    /// docs/forbid.md).
    Forbid {
        /// What to do.
        #[command(subcommand)]
        command: ForbidCommand,
    },
    /// Print the value of a position and the moves that keep it; with "-" for the position,
    /// answer each line of stdin with one tab-separated line (docs/tablebase.md).
    Probe {
        /// Directory of the layer files.
        dir: PathBuf,
        /// Position string, e.g. "GGGGG/GGGGG/GGTGG/GGTGT/T2GG t 0 1", or "-" for a batch
        /// from stdin.
        position: String,
    },
}

/// Opens tables for `tb probe`, waiting for the placement layers' checksums (those no verified
/// stamp vouches for); corrupt layers are logged and not used.
fn open_for_probe(dir: &std::path::Path) -> Result<Tablebase, String> {
    let tables = Tablebase::open_recorded(dir).map_err(|e| e.to_string())?;
    if let Some(placement) = tables.placement() {
        for path in placement.wait_checked() {
            log::error!("\"{}\": corrupt, not used", path.display());
        }
    }
    let statuses = tables.payload_statuses();
    let stamped = statuses
        .iter()
        .filter(|(_, status)| *status == super::file::PayloadStatus::Stamped)
        .count();
    log::debug!(
        "{} table files, {stamped} vouched for by verified stamps",
        statuses.len()
    );
    Ok(tables)
}

/// The forbid values of `dir` for `tb probe DIR -`, opened once, their placement values'
/// checksums waited for; a corrupt or stale file is logged and not used (its lines answer
/// `none`).
fn open_forbid_for_batch(dir: &std::path::Path, tables: &Tablebase) -> Option<ForbidTables> {
    let (forbid, errors) = ForbidTables::open(dir, tables);
    for error in errors {
        log::error!("{error}; not used");
    }
    if let Some((_, placement)) = forbid.as_ref().and_then(ForbidTables::placement) {
        for path in placement.wait_checked() {
            log::error!("\"{}\": corrupt, not used", path.display());
        }
    }
    forbid
}

fn threads_or_default(threads: Option<usize>) -> usize {
    threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(2, |n| n.get()))
        .max(1)
}

fn print_reports(reports: &[LayerReport], out: &mut dyn Write) -> Result<(), String> {
    let mut classes = 0;
    let mut bytes = 0;
    out!(
        out,
        "layer side   positions        wins       draws      losses maxdist  seconds      bytes"
    );
    for report in reports {
        let header = &report.header;
        for (side, name) in ["goats", "tigers"].iter().enumerate() {
            let [wins, draws, losses] = header.counts[side];
            out!(
                out,
                "{:>5} {name:<6} {:>11} {wins:>11} {draws:>11} {losses:>11} {:>7} {:>8.2} {:>10}{}",
                report.captured,
                header.positions,
                report.max_distance,
                report.seconds,
                report.file_bytes,
                if report.resumed { " (present)" } else { "" }
            );
        }
        classes += 2 * header.positions;
        bytes += report.file_bytes;
    }
    out!(
        out,
        "positions (symmetry classes, both sides to move): {classes}"
    );
    out!(out, "total file bytes: {bytes}");
    Ok(())
}

/// Runs a `tb` subcommand: results are written to `out` (the binary passes its stdout), progress
/// goes to stderr.
///
/// # Errors
/// A message saying what went wrong, including a failure to write to `out`.
pub fn run(command: TbCommand, out: &mut dyn Write) -> Result<(), String> {
    let bars = PhaseProgress::for_stderr();
    let result = run_with_progress(command, out, &|phase: &str, done: u64, total: u64| {
        bars.update(phase, done, total);
    });
    bars.finish();
    // Flushed also after an error, so that what was written before it is not lost.
    let flushed = out.flush().map_err(output_error);
    result.and(flushed)
}

fn print_placement_reports(reports: &[PlacementReport], out: &mut dyn Write) -> Result<(), String> {
    out!(
        out,
        "hand capt side       positions        wins       draws      losses  seconds       bytes"
    );
    let (mut classes, mut bytes) = (0, 0);
    for report in reports {
        let header = &report.header;
        for (side, name) in ["goats", "tigers"].iter().enumerate() {
            let [wins, draws, losses] = header.counts[side];
            out!(
                out,
                "{:>4} {:>4} {name:<6} {:>11} {wins:>11} {draws:>11} {losses:>11} {:>8.2} {:>11}{}",
                header.in_hand,
                header.captured,
                header.positions,
                report.seconds,
                report.file_bytes,
                if report.resumed { " (present)" } else { "" }
            );
        }
        classes += 2 * header.positions;
        bytes += report.file_bytes;
    }
    out!(out, "placement positions (both sides to move): {classes}");
    out!(out, "placement file bytes: {bytes}");
    Ok(())
}

fn run_with_progress(
    command: TbCommand,
    out: &mut dyn Write,
    progress: Progress,
) -> Result<(), String> {
    match command {
        TbCommand::Gen {
            out: dir,
            captures_to_win,
            forced_capture,
            placement,
            max_in_hand,
            compress: compressed,
            movement,
            threads,
        } => {
            let started = Instant::now();
            let rules = TableRules {
                forced_capture,
                captures_to_win,
            };
            let threads = threads_or_default(threads);
            let reports =
                generate_tables(&dir, rules, threads, progress).map_err(|e| e.to_string())?;
            print_reports(&reports, out)?;
            if placement {
                let run = generate_placement(&dir, rules, max_in_hand, threads, progress)
                    .map_err(|e| e.to_string())?;
                print_placement_reports(&run.reports, out)?;
                if let Some(value) = run.start {
                    let start = Position::startpos();
                    out!(out, "start position \"{start}\": {value} for goats to move");
                }
                if compressed {
                    let bytes = WRITTEN_BLOCK_BYTES;
                    compress(&dir, &dir, threads, bytes, movement, out, progress)?;
                }
            }
            out!(out, "wall seconds: {:.2}", started.elapsed().as_secs_f64());
            Ok(())
        }
        TbCommand::Verify {
            dir,
            against: Some(reference),
            threads,
            ..
        } => compare(&dir, &reference, threads_or_default(threads), out, progress),
        TbCommand::Compress {
            dir,
            out: target,
            threads,
            block_bytes,
            movement,
        } => {
            let threads = threads_or_default(threads);
            if !BLOCK_SIZES.contains(&block_bytes) {
                return Err(format!("--block-bytes {block_bytes}: expected 32 or 64"));
            }
            compress(
                &dir,
                target.as_deref().unwrap_or(&dir),
                threads,
                block_bytes,
                movement,
                out,
                progress,
            )
        }
        TbCommand::Verify {
            dir,
            placement_stride,
            threads,
            against: None,
        } => {
            let (tables, checks) = verify_tables(&dir, threads_or_default(threads), progress)
                .map_err(|e| e.to_string())?;
            out!(out, "rules: {}", tables.rules());
            out!(out, "checksums: ok");
            let mut failed = false;
            for check in &checks {
                out!(
                    out,
                    "layer {}: {} positions per side, {} mismatches, counts {}",
                    check.captured,
                    check.positions,
                    check.mismatches,
                    if check.counts_match {
                        "match"
                    } else {
                        "differ"
                    }
                );
                if let Some(example) = &check.example {
                    out!(out, "  first mismatch: {example}");
                }
                failed |= !check.ok();
            }
            if let Some(placement) = tables.placement() {
                let rules = tables.rules();
                // Layers are checked from 1 goat in hand up to the last complete count.
                let complete = (1..=MAX_IN_HAND)
                    .take_while(|&in_hand| {
                        super::placement::solve::layers(rules, in_hand)
                            .iter()
                            .all(|&layer| placement.contains(layer))
                    })
                    .last()
                    .unwrap_or(0);
                let checks = verify_placement(
                    &dir,
                    &tables,
                    complete,
                    placement_stride,
                    threads_or_default(threads),
                    progress,
                )
                .map_err(|e| e.to_string())?;
                for check in &checks {
                    out!(
                        out,
                        "placement {} in hand {} captured: {} positions checked, {} mismatches, counts {}",
                        check.layer.in_hand,
                        check.layer.captured,
                        check.checked,
                        check.mismatches,
                        if check.counts_match { "match" } else { "differ" }
                    );
                    if let Some(example) = &check.example {
                        out!(out, "  first mismatch: {example}");
                    }
                    failed |= !check.ok();
                }
                if complete < MAX_IN_HAND && placement.len() > checks.len() {
                    out!(
                        out,
                        "placement layers above {complete} in hand not checked: a layer below them is missing"
                    );
                }
            }
            if failed {
                Err("verification failed".to_string())
            } else {
                out!(out, "verify: ok");
                Ok(())
            }
        }
        TbCommand::Forbid { command } => super::forbid::cli::run(command, out, progress),
        TbCommand::Probe { dir, position } if position.trim() == "-" => {
            let tables = open_for_probe(&dir)?;
            let forbid = open_forbid_for_batch(&dir, &tables);
            let summary = probe_batch(&tables, forbid.as_ref(), &mut std::io::stdin().lock(), out)?;
            match summary.errors {
                0 => Ok(()),
                errors => Err(format!(
                    "{errors} of {} lines were errors",
                    errors + summary.answered
                )),
            }
        }
        TbCommand::Probe { dir, position } => {
            let position: Position = position.trim().parse().map_err(|e| format!("{e}"))?;
            let tables = open_for_probe(&dir)?;
            let forbid = match answer(&tables, &position) {
                Ok(answer) => {
                    out.write_all(answer.to_lines().as_bytes())
                        .map_err(output_error)?;
                    probe_forbid(&dir, &tables, &position).map_err(|e| e.to_string())?
                }
                // Goats in hand without their placement layer: the placement value under
                // forbid alone, when there is one.
                Err(error) => match probe_forbid(&dir, &tables, &position) {
                    Ok(Some(value)) => Some(value),
                    Ok(None) => return Err(error),
                    Err(forbid) => return Err(format!("{error}; forbid values: {forbid}")),
                },
            };
            // Under `Repetition forbid`, from an empty history (see docs/forbid.md); in the
            // placement phase from the placement values under forbid, whatever the history.
            match forbid {
                Some(value) => out!(
                    out,
                    "forbid: {}",
                    forbid_words(position.side_to_move(), value)
                ),
                None if position.goats_in_hand() == 0 => out!(
                    out,
                    "forbid: not solved (no forbid file; `tb forbid solve`)"
                ),
                None => out!(
                    out,
                    "forbid: not solved (no placement values under forbid for this layer; \
                     `tb forbid start`)"
                ),
            }
            Ok(())
        }
    }
}
