//! The engine: the protocol loop without arguments, or a subcommand.

use baghchal::cli::RulesArgs;
use baghchal::{divide, Game, Move, Position};
use clap::{Parser, Subcommand};
use std::process::ExitCode;
use std::time::Instant;

#[derive(Parser)]
#[command(
    name = "baghchal",
    version,
    about = "Bagh Chal engine (UCI-style protocol on stdin/stdout when run without a subcommand)"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Count leaf nodes of the legal move tree, per root move.
    Perft {
        /// Depth in plies.
        depth: u32,
        /// Position string to start from (default: the start position).
        #[arg(long)]
        position: Option<String>,
        /// Moves to play from the position first (they become the game history).
        #[arg(long, num_args = 1..)]
        moves: Vec<String>,
        #[command(flatten)]
        rules: RulesArgs,
    },
    /// Movement-phase tablebases: generate, verify, probe.
    Tb {
        #[command(subcommand)]
        command: baghchal::tablebase::cli::TbCommand,
    },
}

fn run_perft(
    depth: u32,
    position: Option<String>,
    moves: &[String],
    rules: &RulesArgs,
) -> Result<(), String> {
    let start: Position = match position {
        Some(text) => text.parse().map_err(|e| format!("{e}"))?,
        None => Position::startpos(),
    };
    let mut game = Game::new(start, rules.rules());
    for text in moves {
        let mv: Move = text.parse().map_err(|e| format!("{e}"))?;
        game.play(mv).map_err(|e| format!("{e}"))?;
    }
    let started = Instant::now();
    let total = if depth == 0 {
        1
    } else {
        let mut total = 0;
        for (mv, count) in divide(&mut game, depth) {
            println!("{mv}: {count}");
            total += count;
        }
        total
    };
    let elapsed = started.elapsed();
    log::info!(
        "perft {depth}: {total} nodes in {:.3} s ({:.0} nodes/s)",
        elapsed.as_secs_f64(),
        total as f64 / elapsed.as_secs_f64().max(1e-9)
    );
    println!();
    println!("Nodes searched: {total}");
    Ok(())
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn")).init();
    let cli = Cli::parse();
    let result = match cli.command {
        Some(Command::Perft {
            depth,
            position,
            moves,
            rules,
        }) => run_perft(depth, position, &moves, &rules),
        Some(Command::Tb { command }) => baghchal::tablebase::cli::run(command),
        None => Err("the protocol loop is not built yet".to_string()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}
