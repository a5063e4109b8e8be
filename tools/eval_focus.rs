//! More training positions where the pattern network was weak (issue 27, docs/eval.md "Data for
//! the weak spots"): crowded movement-phase positions and late placement, labelled by the tables.
//!
//! `cargo run --release --example eval_focus -- --tables DIR --from a.tsv --from b.tsv --seed 1`
//!
//! The seeds are the positions reached in games (`game` lines) of the `--from` files (the output
//! of `eval_data`) that are in focus: movement phase with at most `--max-empty` empty points, or
//! placement with 1 to `--max-hand` goats in hand. From each seed, `--walks` walks of up to
//! `--plies` plies: each ply is, with probability `--best`%, a move the tables call best (so the
//! walk stays near the value of real play, draws included), otherwise a uniformly random move.
//! Every position in focus a walk meets that no `--from` file holds is written once, labelled
//! by the tables, in the format of `baghchal::tuning::data` (source `walk`). Walk `w` of seed
//! `i` draws from a generator seeded with the seed, `i` and `w`, so the same files, tables and
//! settings give the same output on every machine and at any `--threads`.

use std::collections::HashSet;
use std::io::Write;
use std::path::PathBuf;

use baghchal::cli::RulesArgs;
use baghchal::tuning::data::{open_checked, read_labelled, Labelled, Source};
use baghchal::tuning::focus::{walk, Focus, Walks};
use baghchal::tuning::selfplay::play_all;
use clap::Parser;

#[derive(Parser)]
#[command(
    about = "Tablebase-labelled positions near crowded and late-placement positions of games"
)]
struct Args {
    /// Directory of the tables (movement and placement layers of the same rules).
    #[arg(long)]
    tables: PathBuf,
    /// Labelled positions (the output of eval_data) whose game positions seed the walks; may be
    /// repeated. Their positions are not written again.
    #[arg(long, required = true)]
    from: Vec<PathBuf>,
    /// Seed of the walks.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Walks from each seed.
    #[arg(long, default_value_t = 1)]
    walks: u32,
    /// Plies of a walk at most (it stops when the game ends).
    #[arg(long, default_value_t = 10)]
    plies: u32,
    /// Percent of plies that play a move the tables call best.
    #[arg(long, default_value_t = 50, value_parser = clap::value_parser!(u32).range(0..=100))]
    best: u32,
    /// Movement-phase positions with at most this many empty points are in focus.
    #[arg(long, default_value_t = 4)]
    max_empty: u32,
    /// Placement positions with 1 to this many goats in hand are in focus.
    #[arg(long, default_value_t = 3)]
    max_hand: u8,
    /// Threads (the output does not depend on it).
    #[arg(long, default_value_t = 1)]
    threads: u64,
    #[command(flatten)]
    rules: RulesArgs,
}

impl Args {
    fn focus(&self) -> Focus {
        Focus {
            max_empty: self.max_empty,
            max_hand: self.max_hand,
        }
    }

    fn walks(&self) -> Walks {
        Walks {
            seed: self.seed,
            walks: self.walks,
            plies: self.plies,
            best_percent: self.best,
        }
    }
}

/// Seeds per unit of work handed to a thread.
const CHUNK: usize = 256;

fn run(args: &Args) -> Result<(), String> {
    let rules = args.rules.rules();
    let tables = open_checked(&args.tables, &rules)?;
    let (focus, walks) = (args.focus(), args.walks());
    let mut known = HashSet::new();
    let mut seeds = Vec::new();
    for path in &args.from {
        read_labelled(path, |labelled| {
            if known.insert(labelled.position)
                && labelled.source == Source::Game
                && focus.contains(&labelled.position)
            {
                seeds.push(labelled.position);
            }
            true
        })?;
    }
    eprintln!(
        "eval_focus: {} seeds in focus among {} positions",
        seeds.len(),
        known.len()
    );
    let chunks = seeds.len().div_ceil(CHUNK) as u64;
    let walked = play_all(chunks, args.threads, |chunk| {
        let mut found = Vec::new();
        let first = chunk as usize * CHUNK;
        for (i, seed) in seeds.iter().enumerate().skip(first).take(CHUNK) {
            found.extend(walk(&tables, seed, i as u64, &focus, &walks));
        }
        if chunk % 20 == 19 {
            eprintln!(
                "eval_focus: {} of {} seeds walked",
                first + CHUNK,
                seeds.len()
            );
        }
        found
    });

    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut written = 0u64;
    for position in walked.into_iter().flatten() {
        if !known.insert(position) {
            continue;
        }
        if let Some(labelled) = Labelled::new(&tables, &position, Source::Walk) {
            writeln!(out, "{labelled}").map_err(|e| format!("writing: {e}"))?;
            written += 1;
        }
    }
    eprintln!(
        "eval_focus: seed {}, {} walks of {} plies, {}% best: {written} positions",
        args.seed, args.walks, args.plies, args.best
    );
    Ok(())
}

fn main() -> std::process::ExitCode {
    let args = Args::parse();
    match run(&args) {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("eval_focus: {error}");
            std::process::ExitCode::FAILURE
        }
    }
}
