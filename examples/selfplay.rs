//! In-process match runner for tuning: two players, game pairs from varied openings (each
//! opening played with both colour assignments), results per side.
//!
//! `cargo run --release --example selfplay -- --a search,movetime=100 --b greedy --pairs 20`
//!
//! A player is `search`, `random` or `greedy`, optionally followed by `,depth=N`, `,nodes=N`,
//! `,movetime=MS`, `,threads=N`, `,hash=MB`, a clock `,time=MS,inc=MS` (a flag loses),
//! `,overhead=MS` (move overhead, default 0), and `,p.NAME=VALUE` for a search parameter
//! (see `baghchal::search::params::Params`).

use std::time::Duration;

use baghchal::cli::RulesArgs;
use baghchal::engine::{Engine, EngineOptions, Limits, Strategy};
use baghchal::search::params::Params;
use baghchal::{Game, Side};
use clap::Parser;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

#[derive(Parser)]
#[command(about = "Play engine configurations against each other")]
struct Args {
    /// First player.
    #[arg(long, default_value = "search,movetime=100")]
    a: String,
    /// Second player.
    #[arg(long, default_value = "greedy")]
    b: String,
    /// Game pairs (each opening with A as goats, then as tigers).
    #[arg(long, default_value_t = 20)]
    pairs: u32,
    /// Random plies played from the start position to vary the openings.
    #[arg(long, default_value_t = 2)]
    opening_plies: u32,
    /// Seed for the openings (printed).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Plies after which a game is adjudicated a draw.
    #[arg(long, default_value_t = 300)]
    max_plies: usize,
    #[command(flatten)]
    rules: RulesArgs,
}

struct Player {
    options: EngineOptions,
    params: Params,
    limits: Limits,
    /// Clock: starting time and increment per move.
    clock: Option<(Duration, Duration)>,
}

fn parse_player(text: &str) -> Result<Player, String> {
    let mut parts = text.split(',');
    let strategy: Strategy = parts
        .next()
        .unwrap_or("")
        .parse()
        .map_err(|e| format!("{e}"))?;
    let mut options = EngineOptions {
        strategy,
        ..EngineOptions::default()
    };
    let mut limits = Limits::default();
    let mut params = Params::default();
    let mut clock: Option<(Duration, Duration)> = None;
    let mut overhead = Duration::ZERO;
    for part in parts {
        let (name, value) = part
            .split_once('=')
            .ok_or_else(|| format!("invalid player setting \"{part}\": expected name=value"))?;
        if let Some(param) = name.strip_prefix("p.") {
            let number = value
                .parse()
                .map_err(|_| format!("invalid value \"{value}\" for {name}"))?;
            params.set(param, number)?;
            continue;
        }
        let number: u64 = value
            .parse()
            .map_err(|_| format!("invalid value \"{value}\" for {name}"))?;
        match name {
            "depth" => limits.depth = Some(number as u32),
            "nodes" => limits.nodes = Some(number),
            "movetime" => limits.movetime = Some(Duration::from_millis(number)),
            "threads" => options.threads = number as usize,
            "hash" => options.hash_mb = number as usize,
            "time" => clock = Some((Duration::from_millis(number), clock.unwrap_or_default().1)),
            "inc" => clock = Some((clock.unwrap_or_default().0, Duration::from_millis(number))),
            "overhead" => overhead = Duration::from_millis(number),
            _ => return Err(format!("unknown player setting \"{name}\"")),
        }
    }
    options.move_overhead = overhead;
    Ok(Player {
        options,
        params,
        limits,
        clock,
    })
}

/// Plays one game; returns the winner (None = draw) and the number of plies.
fn play(
    opening: &Game,
    goats: &Player,
    tigers: &Player,
    max_plies: usize,
) -> (Option<Side>, usize) {
    let rules = *opening.rules();
    let mut engines: Vec<Engine> = [goats, tigers]
        .iter()
        .map(|player| {
            let mut engine = Engine::new(EngineOptions {
                rules,
                ..player.options.clone()
            });
            engine.set_params(player.params.clone());
            engine
        })
        .collect();
    let mut game = opening.clone();
    let mut remaining = [goats.clock.map(|c| c.0), tigers.clock.map(|c| c.0)];
    while game.ply() < max_plies {
        if let Some(outcome) = game.outcome() {
            log_game(&game);
            return (outcome.winner(), game.ply());
        }
        let side = game.position().side_to_move();
        let (engine, player) = (&mut engines[side.index()], [goats, tigers][side.index()]);
        engine.set_game(game.clone());
        let mut limits = player.limits.clone();
        if let Some((_, increment)) = player.clock {
            limits.time_left[side.index()] = remaining[side.index()];
            limits.increment[side.index()] = Some(increment);
        }
        let started = std::time::Instant::now();
        let result = engine.search_blocking(limits);
        if let (Some(left), Some((_, increment))) = (remaining[side.index()], player.clock) {
            let used = started.elapsed();
            if used > left {
                log::warn!("{side} lost on time: used {used:?} with {left:?} left");
                log_game(&game);
                return (Some(side.opposite()), game.ply());
            }
            remaining[side.index()] = Some(left - used + increment);
        }
        let mv = result
            .best_move
            .expect("a position that is not over has a move");
        game.play(mv).expect("the engine plays legal moves");
    }
    log_game(&game);
    (None, game.ply())
}

fn log_game(game: &Game) {
    let moves: Vec<String> = game.moves().iter().map(|mv| mv.to_string()).collect();
    log::debug!("{} {}", game.start_position(), moves.join(" "));
    log::debug!("final position {}", game.position());
}

fn main() -> Result<(), String> {
    env_logger::init();
    let args = Args::parse();
    let a = parse_player(&args.a)?;
    let b = parse_player(&args.b)?;
    let rules = args.rules.rules();
    println!(
        "a = {}, b = {}, rules: {rules}, seed {}",
        args.a, args.b, args.seed
    );
    let mut rng = StdRng::seed_from_u64(args.seed);
    // [A as goats, A as tigers] x [wins, losses, draws] for A.
    let mut results = [[0u32; 3]; 2];
    let mut plies = 0;
    for pair in 0..args.pairs {
        let mut opening = Game::startpos(rules);
        for _ in 0..args.opening_plies {
            let moves = opening.legal_moves();
            if moves.is_empty() {
                break;
            }
            opening.play_unchecked(moves[rng.random_range(0..moves.len())]);
        }
        for (a_side, (goats, tigers)) in [(Side::Goats, (&a, &b)), (Side::Tigers, (&b, &a))] {
            let (winner, length) = play(&opening, goats, tigers, args.max_plies);
            plies += length;
            let slot = match winner {
                Some(side) if side == a_side => 0,
                Some(_) => 1,
                None => 2,
            };
            results[a_side.index()][slot] += 1;
            let name = ["win", "loss", "draw"][slot];
            eprintln!("pair {pair}: a as {a_side}: {name} in {length} plies");
        }
    }
    for side in [Side::Goats, Side::Tigers] {
        let [w, l, d] = results[side.index()];
        println!("a as {side}: +{w} -{l} ={d}");
    }
    let games = (args.pairs * 2).max(1);
    println!("average game length: {} plies", plies / games as usize);
    Ok(())
}
