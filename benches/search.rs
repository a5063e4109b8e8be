//! Search speed: the fixed bench (node count and nodes/s, median of three runs), and the depth
//! reached in one second from the start position and from a movement-phase position.
//!
//! `cargo bench --bench search` (release profile).

use std::time::Duration;

use baghchal::bench::run_bench;
use baghchal::engine::{Engine, EngineOptions, Limits};
use baghchal::{Game, Position, Rules};

fn one_second(name: &str, position: &str, threads: usize) {
    let mut engine = Engine::new(EngineOptions {
        threads,
        move_overhead: Duration::ZERO,
        ..EngineOptions::default()
    });
    engine.set_game(Game::new(
        position.parse::<Position>().expect("valid position"),
        Rules::default(),
    ));
    let result = engine.search_blocking(Limits {
        movetime: Some(Duration::from_secs(1)),
        ..Limits::default()
    });
    let info = result.info.expect("a search happened");
    println!(
        "{name} ({threads} thread(s)): depth {} seldepth {} nodes {} nps {} in {} ms, best {}",
        info.depth,
        info.seldepth,
        info.nodes,
        info.nps(),
        info.time.as_millis(),
        result.best_move.map_or("none".into(), |mv| mv.to_string())
    );
}

fn main() {
    let depth = std::env::args().skip(1).find_map(|arg| arg.parse().ok());
    let mut runs: Vec<_> = (0..3).map(|_| run_bench(depth)).collect();
    runs.sort_by_key(|report| report.elapsed);
    let median = &runs[1];
    assert!(
        runs.iter().all(|report| report.nodes == median.nodes),
        "bench node count varies"
    );
    println!(
        "bench: {} positions, {} nodes, median {} ms, {} nodes/s",
        median.positions,
        median.nodes,
        median.elapsed.as_millis(),
        median.nps()
    );
    for threads in [1, 2] {
        one_second("start position", baghchal::START_POSITION, threads);
        one_second(
            "movement phase",
            "GGGGT/GT1TG/GG1GG/G1GGG/TGGG1 g 0 3",
            threads,
        );
    }
}
