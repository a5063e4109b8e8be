//! The test-position suite for engine authors (tests/data/critical-positions.txt): critical
//! positions of both phases, each with its exact value from the tables and every move that
//! keeps it. `referee positions` scores an engine on the file.
//!
//! `cargo run --release --example test_positions -- --tables DIR --per-phase 200 --per-game 2 --seed 25 --out FILE`
//!
//! Games are random playouts on the rules core (no engine, so no engine's choices shape the
//! set): each ply a uniformly random legal move, except that goats avoid a move that lets a
//! tiger capture at once when they have another (so that games reach the movement phase). Game
//! `i` is seeded with the seed and `i`. A position is critical when it is won or drawn for the
//! side to move and some legal move throws that away. The distinct critical positions are
//! collected in game order, at most `--per-game` per phase from one game, until each phase
//! (movement: no goat in hand; placement) has `--per-phase` of them (positions of a phase whose layers are missing are skipped, and
//! counted). The same command gives the same file. The seed differs from those the evaluation
//! was tuned on (`eval_data`, seed 1), and random playouts are not the self-play games it saw.

use std::collections::HashSet;
use std::io::Write;
use std::path::PathBuf;

use baghchal::cli::RulesArgs;
use baghchal::referee::positions::SuiteEntry;
use baghchal::tablebase::Wdl;
use baghchal::tuning::data::{open_checked, Labelled, Source};
use baghchal::{Game, Move, Side};
use clap::Parser;
use rand::rngs::StdRng;
use rand::seq::IndexedRandom;
use rand::SeedableRng;

#[derive(Parser)]
#[command(about = "Critical positions with exact values, for tests/data/critical-positions.txt")]
struct Args {
    /// Directory of the tables (movement and placement layers of the same rules).
    #[arg(long)]
    tables: PathBuf,
    /// Positions per phase.
    #[arg(long, default_value_t = 200)]
    per_phase: usize,
    /// Seed of the playouts.
    #[arg(long, default_value_t = 25)]
    seed: u64,
    /// Positions taken from one game at most, per phase (so that many games contribute).
    #[arg(long, default_value_t = 2)]
    per_game: usize,
    /// Most games played.
    #[arg(long, default_value_t = 200_000)]
    max_games: u64,
    /// Output file (written whole at the end, through a temporary file).
    #[arg(long)]
    out: PathBuf,
    #[command(flatten)]
    rules: RulesArgs,
}

/// The next move of a playout.
fn playout_move(game: &Game, rng: &mut StdRng) -> Option<Move> {
    let legal = game.legal_moves();
    let position = game.position();
    if position.side_to_move() == Side::Goats {
        let safe: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|&mv| !position.played(mv).has_capture())
            .collect();
        if let Some(&mv) = safe.choose(rng) {
            return Some(mv);
        }
    }
    legal.choose(rng).copied()
}

fn run(args: &Args) -> Result<(), String> {
    let rules = args.rules.rules();
    let tables = open_checked(&args.tables, &rules)?;
    let mut seen = HashSet::new();
    let mut phases: [Vec<SuiteEntry>; 2] = [Vec::new(), Vec::new()];
    let mut uncovered = 0u64;
    let progress = indicatif::ProgressBar::new((2 * args.per_phase) as u64);
    let mut games = 0;
    while games < args.max_games && phases.iter().any(|p| p.len() < args.per_phase) {
        let mut rng = StdRng::seed_from_u64(args.seed.wrapping_mul(1_000_003) ^ games);
        let mut game = Game::startpos(rules);
        let mut taken = [0; 2];
        while game.outcome().is_none() {
            let position = *game.position();
            let phase = usize::from(position.goats_in_hand() > 0);
            let wanted = phases[phase].len() < args.per_phase && taken[phase] < args.per_game;
            if wanted && seen.insert(position) {
                match Labelled::new(&tables, &position, Source::Game) {
                    None => uncovered += 1,
                    Some(labelled) if labelled.critical => {
                        let value = match (labelled.value.wdl, labelled.value.plies_to_end) {
                            (Wdl::Draw, _) => "draw".to_string(),
                            (_, Some(plies)) => format!("win {plies}"),
                            (_, None) => "win".to_string(),
                        };
                        taken[phase] += 1;
                        phases[phase].push(SuiteEntry {
                            position,
                            value,
                            keeping: tables.best_moves(&position),
                            unknown: Vec::new(),
                        });
                        progress.inc(1);
                    }
                    Some(_) => {}
                }
            }
            let Some(mv) = playout_move(&game, &mut rng) else {
                break;
            };
            game.play(mv).map_err(|e| e.to_string())?;
        }
        games += 1;
    }
    progress.finish_and_clear();
    eprintln!(
        "test_positions: {games} games; {} movement and {} placement positions; {uncovered} positions not covered by the tables",
        phases[0].len(),
        phases[1].len()
    );
    let in_hand: Vec<u8> = phases[1]
        .iter()
        .map(|e| e.position.goats_in_hand())
        .collect();
    let (fewest, most) = (
        in_hand.iter().min().copied().unwrap_or(0),
        in_hand.iter().max().copied().unwrap_or(0),
    );
    let temporary = args.out.with_extension("tmp");
    let mut file = std::fs::File::create(&temporary)
        .map_err(|e| format!("cannot create \"{}\": {e}", temporary.display()))?;
    let header = format!(
        "# Bagh Chal test positions: critical positions (won or drawn for the side to move, with a\n\
         # legal move that throws that away), values exact from the tables. Format (docs/engine-authors.md):\n\
         # <position string> | <value for the side to move: win <plies to the end> | win | draw> | <every move that keeps it>\n\
         # rules: {rules}\n\
         # generated by: cargo run --release --example test_positions -- --tables <full tables> --per-phase {} --per-game {} --seed {} --repetition {}\n\
         # ({games} random playouts; {} movement positions first, then {} placement positions\n\
         # with {fewest}..{most} goats in hand, as many as the placement layers present allowed;\n\
         # {uncovered} positions met were not covered by the tables)\n",
        args.per_phase,
        args.per_game,
        args.seed,
        rules.repetition,
        phases[0].len(),
        phases[1].len()
    );
    file.write_all(header.as_bytes())
        .map_err(|e| e.to_string())?;
    for entry in phases.iter().flatten() {
        writeln!(file, "{}", entry.line()).map_err(|e| e.to_string())?;
    }
    drop(file);
    std::fs::rename(&temporary, &args.out).map_err(|e| e.to_string())?;
    Ok(())
}

fn main() {
    let args = Args::parse();
    if let Err(error) = run(&args) {
        eprintln!("test_positions: {error}");
        std::process::exit(2);
    }
}
