//! The `baghchal tb ...` subcommands: gen, verify, probe.

use super::solve::{generate_tables, LayerReport};
use super::verify::verify_tables;
use super::{Tablebase, Wdl};
use crate::Position;
use clap::Subcommand;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Writes a line to stdout; a closed stdout (e.g. a pipe into `head`) is an error, not a panic.
macro_rules! out {
    ($($arg:tt)*) => {
        writeln!(std::io::stdout(), $($arg)*).map_err(|e| format!("cannot write to stdout: {e}"))?
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

/// A progress bar on stderr (redrawn at most 10 times a second; only on a terminal).
struct ProgressBar {
    last: Mutex<(Instant, String)>,
    terminal: bool,
}

impl ProgressBar {
    fn new() -> ProgressBar {
        ProgressBar {
            last: Mutex::new((Instant::now(), String::new())),
            terminal: std::io::stderr().is_terminal(),
        }
    }

    fn update(&self, phase: &str, done: u64, total: u64) {
        let Ok(mut last) = self.last.lock() else {
            return;
        };
        let finished = done >= total;
        if !finished && last.1 == phase && last.0.elapsed() < Duration::from_millis(100) {
            return;
        }
        if last.1 != phase {
            log::info!("{phase}");
        }
        *last = (Instant::now(), phase.to_string());
        if self.terminal {
            let fraction = if total == 0 {
                1.0
            } else {
                done as f64 / total as f64
            };
            let filled = (fraction * 30.0).round() as usize;
            let bar = format!(
                "{}{}",
                "#".repeat(filled.min(30)),
                ".".repeat(30 - filled.min(30))
            );
            let mut stderr = std::io::stderr().lock();
            let _ = write!(stderr, "\r{phase:<28} [{bar}] {:5.1}%", fraction * 100.0);
            if finished {
                let _ = writeln!(stderr);
            }
        }
    }
}

fn threads_or_default(threads: Option<usize>) -> usize {
    threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(2, |n| n.get()))
        .max(1)
}

fn print_reports(reports: &[LayerReport]) -> Result<(), String> {
    let mut classes = 0;
    let mut bytes = 0;
    out!("layer side   positions        wins       draws      losses maxdist  seconds      bytes");
    for report in reports {
        let header = &report.header;
        for (side, name) in ["goats", "tigers"].iter().enumerate() {
            let [wins, draws, losses] = header.counts[side];
            out!(
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
    out!("positions (symmetry classes, both sides to move): {classes}");
    out!("total file bytes: {bytes}");
    Ok(())
}

/// Runs a `tb` subcommand; results go to stdout, progress to stderr.
///
/// # Errors
/// A message saying what went wrong.
pub fn run(command: TbCommand) -> Result<(), String> {
    let bar = ProgressBar::new();
    let progress = |phase: &str, done: u64, total: u64| bar.update(phase, done, total);
    match command {
        TbCommand::Gen {
            out,
            captures_to_win,
            forced_capture,
            threads,
        } => {
            let started = Instant::now();
            let reports = generate_tables(
                &out,
                forced_capture,
                captures_to_win,
                threads_or_default(threads),
                &progress,
            )
            .map_err(|e| e.to_string())?;
            print_reports(&reports)?;
            out!("wall seconds: {:.2}", started.elapsed().as_secs_f64());
            Ok(())
        }
        TbCommand::Verify { dir, threads } => {
            let (tables, checks) = verify_tables(&dir, threads_or_default(threads), &progress)
                .map_err(|e| e.to_string())?;
            out!(
                "rules: {}",
                super::table_rules_text(
                    tables.rules().forced_capture,
                    tables.rules().captures_to_win
                )
            );
            out!("checksums: ok");
            let mut failed = false;
            for check in &checks {
                out!(
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
                    out!("  first mismatch: {example}");
                }
                failed |= !check.ok();
            }
            if failed {
                Err("verification failed".to_string())
            } else {
                out!("verify: ok");
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
            out!("value: {}", value.wdl);
            match value.plies_to_end {
                Some(plies) => out!("distance: {plies}"),
                None => out!("distance: none"),
            }
            let moves: Vec<String> = tables
                .best_moves_with_values(&position)
                .iter()
                .map(|(mv, after)| match (after.wdl, after.plies_to_end) {
                    (Wdl::Draw, _) | (_, None) => mv.to_string(),
                    (_, Some(plies)) => format!("{mv}({plies})"),
                })
                .collect();
            out!("moves: {}", moves.join(" "));
            Ok(())
        }
    }
}
