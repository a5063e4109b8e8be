//! Training positions for the evaluation, labelled by the tablebases (`tools/eval.sh` runs it).
//!
//! `cargo run --release --example eval_data -- --tables DIR --games 400 --nodes 4000 --seed 1`
//!
//! Game `i` starts with 2 to 8 uniformly random plies drawn from a generator seeded with the seed
//! and `i`; then the engine, without tables, plays both sides at full strength with a node limit
//! (one thread, a fresh table each game), so the same command gives the same file on every
//! machine. With `--explore P`, P% of the moves are uniformly random instead. Every position of the games is written, and so are its near neighbours, the
//! positions one legal move away, so that the positions the engine meets dominate the data.
//! Each distinct position is one line in the format of `baghchal::tuning::data` (position,
//! value for the side to move, plies to the end, critical flag, source).
//!
//! Positions the tables do not cover (a missing layer) are left out and counted on stderr.

use std::collections::HashSet;
use std::io::Write;
use std::path::PathBuf;

use baghchal::cli::RulesArgs;
use baghchal::engine::{Engine, EngineOptions, Evaluation, Limits};
use baghchal::tuning::data::{open_checked, Labelled, Source};
use baghchal::tuning::selfplay::{play_all, random_opening};
use baghchal::Position;
use clap::Parser;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

#[derive(Parser)]
#[command(about = "Self-play positions labelled by the tablebases, on stdout")]
struct Args {
    /// Directory of the tables (movement and placement layers of the same rules).
    #[arg(long)]
    tables: PathBuf,
    /// Games to play.
    #[arg(long, default_value_t = 400)]
    games: u64,
    /// Main-thread nodes per move.
    #[arg(long, default_value_t = 4_000)]
    nodes: u64,
    /// Seed of the openings.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Plies after which a game stops (its positions are kept).
    #[arg(long, default_value_t = 300)]
    max_plies: usize,
    /// Percent of moves (after the opening) chosen uniformly at random instead of by the
    /// engine, from a generator seeded with the seed and the game, so that the games stray
    /// where weaker or different players go.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=100))]
    explore: u32,
    /// Games played at once (the output does not depend on it).
    #[arg(long, default_value_t = 1)]
    threads: u64,
    #[command(flatten)]
    rules: RulesArgs,
}

/// The positions of game `index`, in order.
fn play(index: u64, args: &Args) -> Vec<Position> {
    let rules = args.rules.rules();
    let mut game = random_opening(rules, args.seed, index);
    let mut explore = StdRng::seed_from_u64(args.seed.wrapping_mul(0x2545_f491_4f6c_dd1d) ^ index);
    let mut engine = Engine::new(EngineOptions {
        rules,
        hash_mb: 16,
        // The games are played with the classic evaluation, as they were when the committed
        // weights (eval_weights.rs, network.bin) were made, so their commands still repeat them.
        evaluation: Evaluation::Classic,
        ..EngineOptions::default()
    });
    while game.outcome().is_none() && game.ply() < args.max_plies {
        if args.explore > 0 && explore.random_range(0..100) < args.explore {
            let moves = game.legal_moves();
            game.play_unchecked(moves[explore.random_range(0..moves.len())]);
            continue;
        }
        engine.set_game(game.clone());
        let result = engine.search_blocking(Limits {
            nodes: Some(args.nodes),
            ..Limits::default()
        });
        let Some(mv) = result.best_move else { break };
        if game.play(mv).is_err() {
            break;
        }
    }
    game.positions().to_vec()
}

fn main() {
    let args = Args::parse();
    let rules = args.rules.rules();
    // Opened (and checked) before the games, so that bad tables stop the run at once.
    let tables = match open_checked(&args.tables, &rules) {
        Ok(tables) => tables,
        Err(error) => {
            eprintln!("eval_data: {error}");
            std::process::exit(2);
        }
    };
    let games = play_all(args.games, args.threads, |index| {
        let positions = play(index, &args);
        if index % 20 == 19 {
            eprintln!("eval_data: game {} of {}", index + 1, args.games);
        }
        positions
    });

    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut seen = HashSet::new();
    let (mut written, mut uncovered) = (0u64, 0u64);
    let mut emit = |position: &Position, source: Source, out: &mut dyn Write| {
        if !seen.insert(position.to_string()) {
            return;
        }
        match Labelled::new(&tables, position, source) {
            Some(labelled) => {
                writeln!(out, "{labelled}").expect("writing");
                written += 1;
            }
            None if position.outcome(&rules).is_none() => uncovered += 1,
            None => {}
        }
    };
    for positions in &games {
        for position in positions {
            emit(position, Source::Game, &mut out);
        }
    }
    for positions in &games {
        for position in positions {
            for mv in position.legal_moves(&rules).iter() {
                emit(&position.played(*mv), Source::Near, &mut out);
            }
        }
    }
    eprintln!(
        "eval_data: {} games, {} nodes per move, seed {}, rules {}: {written} positions, {uncovered} not covered by the tables",
        args.games, args.nodes, args.seed, rules
    );
}
