//! The referee: engine-vs-engine matches (`referee [match options]`), openings generation
//! (`referee openings`) and merging of record files (`referee merge`). See docs/referee.md.

use baghchal::referee::cli::{parse_cli, Command};
use baghchal::referee::console::Console;
use baghchal::referee::play::{play, Finish};
use baghchal::referee::{generate, merge};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// Exit code for errors found before anything starts (as clap uses for usage errors).
const EXIT_USAGE: u8 = 2;
/// Exit code when an engine fault stopped the match (no --recover).
const EXIT_FAULT: u8 = 3;
/// Exit code after Ctrl-C (128 + SIGINT).
const EXIT_INTERRUPTED: u8 = 130;

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn")).init();
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
        Some(Command::Merge(args)) => {
            merge::merge(args, &mut Console::standard()).map(|()| Finish::Done)
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
