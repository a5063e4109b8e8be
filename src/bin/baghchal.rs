//! The engine: the protocol loop without arguments, or a subcommand.

use baghchal::bench::{
    bench_games, read_positions, run_bench_on, BenchLimit, BenchPositions, BenchSpec,
    MAX_BENCH_DEPTH,
};
use baghchal::cli::RulesArgs;
use baghchal::engine::Evaluation;
use baghchal::protocol::{self, report::bench_lines};
use baghchal::{divide, Game, Move, Position};
use clap::builder::PossibleValuesParser;
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
    /// Search a fixed set of positions at a fixed depth; prints `<N> nodes` and `<N> nps` (the node
    /// count is the same on every run). Takes Stockfish's arguments: `bench [hash] [threads]
    /// [limit] [default|<position file>] [depth|nodes|movetime]`, and `--eval classic` for the
    /// hand-made features instead of the default pattern network.
    Bench {
        /// Search depth (default: the bench's own depth); the same as the third argument.
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..=i64::from(MAX_BENCH_DEPTH)))]
        depth: Option<u32>,
        /// The static evaluation, as the protocol's `Eval` option.
        #[arg(long, default_value = Evaluation::default().name(),
              value_parser = PossibleValuesParser::new(Evaluation::ALL.map(Evaluation::name)))]
        eval: String,
        /// hash (MB), threads, limit, positions (`default` or a file), limit type.
        #[arg(num_args = 0..=5)]
        args: Vec<String>,
    },
    /// Movement-phase tablebases: generate, verify, probe.
    Tb {
        #[command(subcommand)]
        command: baghchal::tablebase::cli::TbCommand,
    },
}

fn run_bench_command(depth: Option<u32>, eval: &str, args: &[String]) -> Result<(), String> {
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let mut spec = BenchSpec::parse(&args)?;
    spec.evaluation =
        Evaluation::from_name(eval).ok_or_else(|| format!("unknown evaluation \"{eval}\""))?;
    if let Some(depth) = depth {
        if args.len() > 2 {
            return Err("give the depth either as --depth or as the third argument".into());
        }
        spec.limit = BenchLimit::Depth(depth);
    }
    let games = match &spec.positions {
        BenchPositions::Default => bench_games(),
        BenchPositions::Current => {
            return Err(
                "bench positions \"current\" needs the protocol's game: use default or a file"
                    .into(),
            )
        }
        BenchPositions::File(path) => read_positions(path)?,
    };
    let report = run_bench_on(&spec, &games);
    log::info!(
        "bench: {} positions, {} nodes in {:.3} s",
        report.positions,
        report.nodes,
        report.elapsed.as_secs_f64()
    );
    for line in bench_lines(report.nodes, report.nps()) {
        println!("{line}");
    }
    Ok(())
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
    // Warnings, the placement generator's one timing line per layer (`tb gen --placement`),
    // and the `tb` subcommands' progress lines when stderr is not a terminal.
    let default_filter =
        "warn,baghchal::tablebase::placement::generate=info,baghchal::tablebase::progress=info";
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or(default_filter))
        .init();
    let cli = Cli::parse();
    let result = match cli.command {
        Some(Command::Perft {
            depth,
            position,
            moves,
            rules,
        }) => run_perft(depth, position, &moves, &rules),
        Some(Command::Tb { command }) => {
            baghchal::tablebase::cli::run(command, &mut std::io::stdout().lock())
        }
        Some(Command::Bench { depth, eval, args }) => run_bench_command(depth, &eval, &args),
        None => {
            protocol::run();
            Ok(())
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        // The reader stopped reading (`tb probe ... | head`): nothing to report.
        Err(message) if message == baghchal::tablebase::OUTPUT_CLOSED => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}
