//! The referee: engine-vs-engine matches (`referee [match options]`), openings generation
//! (`referee openings`) and merging of record files (`referee merge`, `--watch` for running
//! shards), and protocol compliance checks of an engine (`referee check`). See docs/referee.md,
//! docs/engine-authors.md and docs/cluster.md.

use baghchal::referee::cli::{parse_cli, Command};
use baghchal::referee::console::Console;
use baghchal::referee::merge::MergeEnd;
use baghchal::referee::play::{play, Finish};
use baghchal::referee::stats::SprtResult;
use baghchal::referee::{generate, merge};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// Exit code for errors found before anything starts (as clap uses for usage errors).
const EXIT_USAGE: u8 = 2;
/// `check`: at least one check failed.
const EXIT_CHECK_FAILED: u8 = 1;
/// Exit code when an engine fault stopped the match (no --recover).
const EXIT_FAULT: u8 = 3;
/// Exit code after Ctrl-C (128 + SIGINT).
const EXIT_INTERRUPTED: u8 = 130;
/// `merge --watch`: the SPRT accepted H0.
const EXIT_SPRT_H0: u8 = 10;
/// `merge --watch`: the SPRT accepted H1.
const EXIT_SPRT_H1: u8 = 11;
/// `merge --watch`: every shard finished, but games are missing or records were bad.
const EXIT_INCOMPLETE: u8 = 12;

fn main() -> ExitCode {
    let stderr_logger =
        env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn")).build();
    // Messages go to stderr and, while a match with -log runs, to its log file too.
    if let Err(error) = baghchal::referee::wire_log::TeeLogger::install(stderr_logger) {
        eprintln!("referee: cannot install the logger: {error}");
    }
    let cli = parse_cli(std::env::args().collect()).unwrap_or_else(|error| error.exit());
    let stop = Arc::new(AtomicBool::new(false));
    let handler_flag = Arc::clone(&stop);
    if let Err(error) = ctrlc::set_handler(move || {
        eprintln!("referee: interrupted; stopping games and engines");
        handler_flag.store(true, Ordering::SeqCst);
    }) {
        log::warn!("cannot install the Ctrl-C handler: {error}");
    }
    let result = match &cli.command {
        Some(Command::Openings(args)) => {
            generate::generate(args, &stop, &mut Console::standard()).map(|()| Finish::Done)
        }
        Some(Command::Check(args)) => {
            return match baghchal::referee::check::run_check(args) {
                Ok(true) => ExitCode::SUCCESS,
                Ok(false) => ExitCode::from(EXIT_CHECK_FAILED),
                Err(message) => {
                    eprintln!("error: {message}");
                    ExitCode::from(EXIT_USAGE)
                }
            };
        }
        Some(Command::Positions(args)) => {
            return match baghchal::referee::positions::run_positions(args) {
                Ok(()) => ExitCode::SUCCESS,
                Err(message) => {
                    eprintln!("error: {message}");
                    ExitCode::from(EXIT_USAGE)
                }
            };
        }
        Some(Command::Merge(args)) => {
            return match merge::merge(args, &stop, &mut Console::standard()) {
                Ok(MergeEnd::Complete) => ExitCode::SUCCESS,
                Ok(MergeEnd::Sprt(SprtResult::AcceptH0)) => ExitCode::from(EXIT_SPRT_H0),
                Ok(MergeEnd::Sprt(SprtResult::AcceptH1)) => ExitCode::from(EXIT_SPRT_H1),
                Ok(MergeEnd::Incomplete) => ExitCode::from(EXIT_INCOMPLETE),
                Ok(MergeEnd::Interrupted) => ExitCode::from(EXIT_INTERRUPTED),
                Err(message) => {
                    eprintln!("error: {message}");
                    ExitCode::from(EXIT_USAGE)
                }
            };
        }
        None => play(&cli.play, &stop, Console::standard()),
    };
    match result {
        Ok(Finish::Done) => ExitCode::SUCCESS,
        Ok(Finish::Fault(message)) => {
            eprintln!("error: {message}");
            ExitCode::from(EXIT_FAULT)
        }
        Ok(Finish::Interrupted) => {
            eprintln!("referee: interrupted; the records written so far are complete games");
            ExitCode::from(EXIT_INTERRUPTED)
        }
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::from(EXIT_USAGE)
        }
    }
}
