//! A fixed benchmark: node counts that are identical on every run and machine.

use std::time::{Duration, Instant};

use crate::{Game, Move, Position, Rules};

use crate::engine::{Engine, EngineOptions, Limits};

/// Default bench depth.
pub const DEFAULT_BENCH_DEPTH: u32 = 9;

/// Positions (position string, moves from it) covering placement, midgame and endgames.
const POSITIONS: [(&str, &str); 8] = [
    ("T3T/5/5/5/T3T g 20 0", ""),
    ("T3T/5/5/5/T3T g 20 0", "c3 a1b1 c1 b1a1 b2 e1d1 d2"),
    ("T3T/5/2G2/5/T3T t 19 0", ""),
    ("TGGGT/G3G/G1G1G/G3G/TGGGT t 7 0", ""),
    ("GGGGT/GT1GG/GGGGG/GGTG1/TGGGG g 0 1", ""),
    ("GGGGT/GT1TG/GG1GG/G1GGG/TGGG1 g 0 3", ""),
    ("TGGGT/GGGGG/GG1GG/GTG1G/TGGG1 t 0 2", ""),
    ("T1G1T/GGGG1/GGGGG/1GGGG/T1GGT g 0 4", ""),
];

/// The bench's positions as games (for tools that want them).
pub fn bench_games() -> Vec<Game> {
    POSITIONS
        .iter()
        .map(|(position, moves)| {
            let start: Position = position.parse().expect("bench position is valid");
            let mut game = Game::new(start, Rules::default());
            for text in moves.split_whitespace() {
                let mv: Move = text.parse().expect("bench move is valid");
                game.play(mv).expect("bench move is legal");
            }
            game
        })
        .collect()
}

/// What a bench run measured.
#[derive(Clone, Debug)]
pub struct BenchReport {
    /// Nodes searched over all positions.
    pub nodes: u64,
    /// Wall time.
    pub elapsed: Duration,
    /// Positions searched.
    pub positions: usize,
}

impl BenchReport {
    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        (self.nodes as f64 / self.elapsed.as_secs_f64().max(1e-6)) as u64
    }
}

/// Searches the fixed positions at a fixed depth (`None` = [`DEFAULT_BENCH_DEPTH`]),
/// single-threaded with a fresh 16 MB table each; the node count is identical on every run.
pub fn run_bench(depth: Option<u32>) -> BenchReport {
    let depth = depth.unwrap_or(DEFAULT_BENCH_DEPTH).max(1);
    let started = Instant::now();
    let mut nodes = 0;
    let games = bench_games();
    for game in &games {
        let mut engine = Engine::new(EngineOptions::default());
        engine.set_game(game.clone());
        let result = engine.search_blocking(Limits {
            depth: Some(depth),
            ..Limits::default()
        });
        nodes += result.info.map_or(0, |info| info.nodes);
    }
    BenchReport {
        nodes,
        elapsed: started.elapsed(),
        positions: games.len(),
    }
}
