//! The search with and without tablebases: loading time, then depth, nodes/s and table hits at a
//! fixed time per position (median of three runs), for positions of a fixed self-play game from
//! late placement into the movement phase (where the root itself is in the tables).
//!
//! `cargo bench --bench tb_search -- DIR [MILLISECONDS] [draw]` with DIR holding the default
//! tables (`baghchal tb gen --out DIR`); 1000 ms per search by default; `draw` searches under
//! the draw repetition rule (the game is played under the default forbid rule either way).

use std::path::PathBuf;
use std::time::{Duration, Instant};

use baghchal::engine::{Engine, EngineOptions, Limits, SearchInfo};
use baghchal::{Game, Repetition, Rules, Side};

/// Goats in hand of the positions taken from the game (the first one with each count, goats to
/// move), then the movement phase.
const IN_HAND: [u8; 4] = [4, 2, 1, 0];

/// A fixed game from the start: goats searched to depth 3, tigers to depth 7 (so that the
/// tigers capture and the positions stay open).
fn game_positions() -> Vec<Game> {
    let mut engine = Engine::new(EngineOptions::default());
    let mut game = Game::startpos(Rules::default());
    let mut out: Vec<Game> = Vec::new();
    while out.len() < IN_HAND.len() && game.outcome().is_none() {
        let position = game.position();
        let wanted = IN_HAND[out.len()];
        if position.goats_in_hand() == wanted && position.side_to_move() == Side::Goats {
            out.push(game.clone());
        }
        engine.set_game(game.clone());
        let depth = if position.side_to_move() == Side::Goats {
            3
        } else {
            7
        };
        let limits = Limits {
            depth: Some(depth),
            ..Limits::default()
        };
        let mv = engine.search_blocking(limits).best_move.expect("a move");
        game.play(mv).expect("a legal move");
    }
    out
}

fn search(engine: &mut Engine, game: &Game, time: Duration) -> SearchInfo {
    engine.new_game();
    let mut under_rules = Game::new(*game.start_position(), engine.options().rules);
    for &mv in game.moves() {
        under_rules.play(mv).expect("a legal move");
    }
    engine.set_game(under_rules);
    let limits = Limits {
        movetime: Some(time),
        ..Limits::default()
    };
    let result = engine.search_blocking(limits);
    result.info.expect("a search happened")
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|arg| !arg.starts_with('-'))
        .collect();
    let Some(dir) = args.first().map(PathBuf::from) else {
        // A plain `cargo bench` runs every bench: skip this one rather than fail the others.
        eprintln!("tb_search skipped: no tables given (cargo bench --bench tb_search -- DIR [MILLISECONDS] [draw])");
        return;
    };
    let time = Duration::from_millis(args.get(1).and_then(|a| a.parse().ok()).unwrap_or(1000));
    let repetition = if args.iter().any(|arg| arg == "draw") {
        Repetition::Draw
    } else {
        Repetition::Forbid
    };
    let options = EngineOptions {
        move_overhead: Duration::ZERO,
        rules: Rules {
            repetition,
            ..Rules::default()
        },
        ..EngineOptions::default()
    };
    let started = Instant::now();
    let mut with = Engine::new(EngineOptions {
        tablebase_path: Some(dir),
        ..options.clone()
    });
    println!("repetition rule: {repetition:?}");
    println!(
        "{} in {} ms",
        with.tablebase_status(),
        started.elapsed().as_millis()
    );
    assert!(with.tablebase_status().is_loaded(), "tables needed");
    let mut without = Engine::new(options);
    for game in game_positions() {
        println!("position {} (ply {})", game.position(), game.ply());
        for (name, engine) in [("without", &mut without), ("with", &mut with)] {
            let mut runs: Vec<SearchInfo> = (0..3).map(|_| search(engine, &game, time)).collect();
            runs.sort_by_key(|info| info.nps());
            let depths: Vec<u32> = runs.iter().map(|info| info.depth).collect();
            let median = &runs[1];
            println!(
                "  {name:<7} tables: depths {depths:?}, median {} nodes/s, {} nodes, {} tbhits, \
                 score {}, {} ms, pv {}",
                median.nps(),
                median.nodes,
                median.tbhits,
                median.score,
                median.time.as_millis(),
                median.pv.first().map_or("-".into(), |mv| mv.to_string())
            );
        }
    }
}
