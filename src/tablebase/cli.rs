//! The `baghchal tb ...` subcommands: gen, verify, probe.

use super::generate::Progress;
use super::solve::{generate_tables, LayerReport};
use super::verify::verify_tables;
use super::{TableRules, Tablebase, Wdl};
use crate::Position;
use clap::Subcommand;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::Write;
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::Instant;

/// Writes a line to the output; a closed output (e.g. stdout piped into `head`) is an error,
/// not a panic.
macro_rules! out {
    ($out:expr, $($arg:tt)*) => {
        writeln!($out, $($arg)*).map_err(|e| format!("cannot write the output: {e}"))?
    };
}

/// Tablebase subcommands.
#[derive(Subcommand, Debug)]
pub enum TbCommand {
    /// Generate the movement-phase tables (resumes: valid layers already present are kept).
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
        /// Worker threads (default: all cores).
        #[arg(long)]
        threads: Option<usize>,
    },
    /// Check checksums and that every stored value agrees with its successors.
    Verify {
        /// Directory of the layer files.
        dir: PathBuf,
        /// Worker threads (default: all cores).
        #[arg(long)]
        threads: Option<usize>,
    },
    /// Print the value of a position (all goats placed) and the moves that keep it.
    Probe {
        /// Directory of the layer files.
        dir: PathBuf,
        /// Position string, e.g. "GGGGG/GGGGG/GGTGG/GGTGT/T2GG t 0 1".
        position: String,
    },
}

/// Progress on stderr through `indicatif`: one bar per phase ("layer 3 retrograde"), with
/// done/total, percentage and ETA, redrawn at most 10 times a second and hidden when stderr
/// is not a terminal. Phase changes are also logged (`RUST_LOG=info`).
struct PhaseProgress {
    current: Mutex<Option<(String, ProgressBar)>>,
}

impl PhaseProgress {
    fn new() -> PhaseProgress {
        PhaseProgress {
            current: Mutex::new(None),
        }
    }

    fn bar(phase: &str, total: u64) -> ProgressBar {
        let bar =
            ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr_with_hz(10));
        let style = ProgressStyle::with_template(
            "{msg:<20} [{wide_bar}] {pos}/{len} {percent:>3}% eta {eta}",
        )
        .expect("valid template")
        .progress_chars("#>.");
        bar.set_style(style);
        bar.set_message(phase.to_string());
        bar
    }

    fn update(&self, phase: &str, done: u64, total: u64) {
        let Ok(mut current) = self.current.lock() else {
            return;
        };
        if current.as_ref().is_none_or(|(name, _)| name != phase) {
            log::info!("{phase}");
            if let Some((_, previous)) = current.take() {
                previous.finish();
            }
            *current = Some((phase.to_string(), PhaseProgress::bar(phase, total)));
        }
        let Some((_, bar)) = current.as_ref().filter(|(_, bar)| !bar.is_finished()) else {
            return;
        };
        bar.set_length(total);
        bar.set_position(done.max(bar.position()));
        if done >= total {
            bar.finish();
        }
    }

    /// Stops an unfinished bar where it stands (e.g. after an error), ending its line.
    fn finish(&self) {
        if let Ok(mut current) = self.current.lock() {
            if let Some((_, bar)) = current.take() {
                bar.abandon();
            }
        }
    }
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
    let bars = PhaseProgress::new();
    let result = run_with_progress(command, out, &|phase: &str, done: u64, total: u64| {
        bars.update(phase, done, total);
    });
    bars.finish();
    // Flushed also after an error, so that what was written before it is not lost.
    let flushed = out
        .flush()
        .map_err(|e| format!("cannot write the output: {e}"));
    result.and(flushed)
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
            threads,
        } => {
            let started = Instant::now();
            let rules = TableRules {
                forced_capture,
                captures_to_win,
            };
            let reports = generate_tables(&dir, rules, threads_or_default(threads), progress)
                .map_err(|e| e.to_string())?;
            print_reports(&reports, out)?;
            out!(out, "wall seconds: {:.2}", started.elapsed().as_secs_f64());
            Ok(())
        }
        TbCommand::Verify { dir, threads } => {
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
            if failed {
                Err("verification failed".to_string())
            } else {
                out!(out, "verify: ok");
                Ok(())
            }
        }
        TbCommand::Probe { dir, position } => {
            let position: Position = position.trim().parse().map_err(|e| format!("{e}"))?;
            let tables = Tablebase::open_recorded(&dir).map_err(|e| e.to_string())?;
            let value = tables.probe(&position).ok_or_else(|| {
                format!(
                    "position not covered: {} goats in hand (tables cover positions with all goats placed)",
                    position.goats_in_hand()
                )
            })?;
            out!(out, "value: {}", value.wdl);
            match value.plies_to_end {
                Some(plies) => out!(out, "distance: {plies}"),
                None => out!(out, "distance: none"),
            }
            let moves: Vec<String> = tables
                .best_moves_with_values(&position)
                .iter()
                .map(|(mv, after)| match (after.wdl, after.plies_to_end) {
                    (Wdl::Draw, _) | (_, None) => mv.to_string(),
                    (_, Some(plies)) => format!("{mv}({plies})"),
                })
                .collect();
            out!(out, "moves: {}", moves.join(" "));
            Ok(())
        }
    }
}
