//! Self-play data for the win/draw/loss model (`tools/wdl.sh` runs it, then `tools/wdl_fit.py`).
//!
//! `cargo run --release --example wdl_data -- --games 300 --nodes 10000 --seed 1 --repetition draw`
//!
//! Game `i` starts with 2 to 8 uniformly random plies drawn from a generator seeded with the seed
//! and `i`, then the engine plays both sides at full strength with a node limit (one thread, a
//! fresh 16 MB table each game), so every game is the same on every run and machine. Each
//! position the engine searched is one CSV line: game, ply, repetition rule, side to move, goats
//! in hand, goats captured, the search's score (`cp N` or `mate N`, side to move's view) and the
//! game's result for the side to move (`W`, `D` or `L`). Games still running after
//! `--max-plies` are left out.

use std::io::Write;

use baghchal::cli::RulesArgs;
use baghchal::engine::{Engine, EngineOptions, Evaluation, Limits};
use baghchal::tuning::selfplay::{play_all, random_opening};
use baghchal::Side;
use clap::Parser;

#[derive(Parser)]
#[command(about = "Self-play positions with scores and results, as CSV on stdout")]
struct Args {
    /// Games to play.
    #[arg(long, default_value_t = 300)]
    games: u64,
    /// Main-thread nodes per move.
    #[arg(long, default_value_t = 10_000)]
    nodes: u64,
    /// Seed of the openings.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Plies after which a game is left out.
    #[arg(long, default_value_t = 400)]
    max_plies: usize,
    /// Games played at once (the output does not depend on it).
    #[arg(long, default_value_t = 1)]
    threads: u64,
    #[command(flatten)]
    rules: RulesArgs,
}

/// The CSV lines of game `index`, or `None` when it was still running at `max_plies`.
fn play(index: u64, args: &Args) -> Option<Vec<String>> {
    let rules = args.rules.rules();
    let mut game = random_opening(rules, args.seed, index);
    let mut engine = Engine::new(EngineOptions {
        rules,
        // The classic evaluation, whose self-play the committed fit (wdl_fit.rs) was made from.
        evaluation: Evaluation::Classic,
        ..EngineOptions::default()
    });
    let mut searched = Vec::new();
    while game.outcome().is_none() {
        if game.ply() >= args.max_plies {
            return None;
        }
        engine.set_game(game.clone());
        let result = engine.search_blocking(Limits {
            nodes: Some(args.nodes),
            ..Limits::default()
        });
        let mv = result.best_move?;
        if let Some(info) = result.info {
            let position = game.position();
            searched.push((
                game.ply(),
                position.side_to_move(),
                position.goats_in_hand(),
                position.goats_captured(),
                info.score,
            ));
        }
        game.play(mv).ok()?;
    }
    let winner = game.outcome().and_then(|outcome| outcome.winner());
    let repetition = rules.repetition;
    let lines = searched
        .into_iter()
        .map(|(ply, side, hand, captured, score)| {
            let result = match winner {
                None => 'D',
                Some(w) if w == side => 'W',
                Some(_) => 'L',
            };
            let side = if side == Side::Goats { "g" } else { "t" };
            format!("{index},{ply},{repetition},{side},{hand},{captured},{score},{result}")
        })
        .collect();
    Some(lines)
}

fn main() {
    let args = Args::parse();
    let games = play_all(args.games, args.threads, |index| play(index, &args));
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    writeln!(out, "game,ply,repetition,side,hand,captured,score,result").expect("writing");
    let mut left_out = 0;
    for lines in games {
        match lines {
            Some(lines) => {
                for line in lines {
                    writeln!(out, "{line}").expect("writing");
                }
            }
            None => left_out += 1,
        }
    }
    eprintln!(
        "wdl_data: {} games ({left_out} left out at {} plies), {} nodes per move, seed {}, rules {}",
        args.games,
        args.max_plies,
        args.nodes,
        args.seed,
        args.rules.rules()
    );
}
