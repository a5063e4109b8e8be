//! A benchmark: fixed positions (or a position file, or the current game) searched with a
//! fixed limit, Stockfish's `bench [hash] [threads] [limit] [positions] [limittype]`. With one
//! thread and a depth or node limit the node count is identical on every run and machine.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::search::options::{HASH_MB, THREADS};

use crate::{Game, Move, Position, Rules};

use crate::engine::{Engine, EngineOptions, Evaluation, Limits};

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

/// What limits each bench search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BenchLimit {
    /// Depth in plies (1..[`MAX_BENCH_DEPTH`]).
    Depth(u32),
    /// Nodes.
    Nodes(u64),
    /// Milliseconds per position.
    MoveTime(u64),
}

/// Which positions a bench searches.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BenchPositions {
    /// The built-in positions.
    Default,
    /// The caller's current game (the protocol's `current`).
    Current,
    /// A position file ([`read_positions`]).
    File(PathBuf),
}

/// A bench's settings: `bench [hash] [threads] [limit] [positions] [limittype]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BenchSpec {
    /// Hash table per position, MB.
    pub hash_mb: usize,
    /// Search threads.
    pub threads: usize,
    /// Limit of each search.
    pub limit: BenchLimit,
    /// The positions.
    pub positions: BenchPositions,
    /// The static evaluation (not a bench argument: the protocol's `bench` takes the `Eval`
    /// option's, the command line's `baghchal bench` its `--eval`).
    pub evaluation: Evaluation,
}

/// Largest bench depth.
pub const MAX_BENCH_DEPTH: u32 = 64;

impl Default for BenchSpec {
    fn default() -> BenchSpec {
        BenchSpec {
            hash_mb: HASH_MB.default as usize,
            threads: THREADS.default as usize,
            limit: BenchLimit::Depth(DEFAULT_BENCH_DEPTH),
            positions: BenchPositions::Default,
            evaluation: Evaluation::default(),
        }
    }
}

fn number(what: &str, text: &str, min: u64, max: u64) -> Result<u64, String> {
    match text.parse::<u64>() {
        Ok(n) if (min..=max).contains(&n) => Ok(n),
        _ => Err(format!(
            "bad bench {what} \"{text}\": expected an integer in {min}..{max}"
        )),
    }
}

impl BenchSpec {
    /// Reads Stockfish's positional arguments, each optional from the end: hash (MB), threads,
    /// limit, positions (`default`, `current` or a file), limit type (`depth`, `nodes` or
    /// `movetime`).
    ///
    /// # Errors
    /// A message naming the bad argument.
    pub fn parse(args: &[&str]) -> Result<BenchSpec, String> {
        let mut spec = BenchSpec::default();
        if args.len() > 5 {
            return Err(format!("unexpected token \"{}\" in bench", args[5]));
        }
        if let Some(hash) = args.first() {
            spec.hash_mb = number("hash", hash, HASH_MB.min as u64, HASH_MB.max as u64)? as usize;
        }
        if let Some(threads) = args.get(1) {
            spec.threads =
                number("threads", threads, THREADS.min as u64, THREADS.max as u64)? as usize;
        }
        if let Some(positions) = args.get(3) {
            spec.positions = match *positions {
                "default" => BenchPositions::Default,
                "current" => BenchPositions::Current,
                path => BenchPositions::File(PathBuf::from(path)),
            };
        }
        let limit_type = args.get(4).copied().unwrap_or("depth");
        let limit = args.get(2).copied();
        spec.limit = match limit_type {
            "depth" => BenchLimit::Depth(limit.map_or(Ok(u64::from(DEFAULT_BENCH_DEPTH)), |l| {
                number("depth", l, 1, u64::from(MAX_BENCH_DEPTH))
            })? as u32),
            "nodes" => BenchLimit::Nodes(
                limit.map_or(Ok(1_000_000), |l| number("nodes", l, 1, i64::MAX as u64))?,
            ),
            "movetime" => BenchLimit::MoveTime(
                limit.map_or(Ok(1000), |l| number("movetime", l, 1, 3_600_000))?,
            ),
            other => {
                return Err(format!(
                    "bad bench limit type \"{other}\": expected depth, nodes or movetime"
                ))
            }
        };
        Ok(spec)
    }

    fn limits(&self) -> Limits {
        match self.limit {
            BenchLimit::Depth(depth) => Limits {
                depth: Some(depth),
                ..Limits::default()
            },
            BenchLimit::Nodes(nodes) => Limits {
                nodes: Some(nodes),
                ..Limits::default()
            },
            BenchLimit::MoveTime(ms) => Limits {
                movetime: Some(Duration::from_millis(ms)),
                ..Limits::default()
            },
        }
    }
}

/// Reads a bench position file: one game per line, `startpos` or a position string, optionally
/// followed by `moves <move> ...`, under the default rules; blank lines and lines starting with
/// `#` are skipped.
///
/// # Errors
/// A message naming the file, the line and what is wrong with it.
pub fn read_positions(path: &Path) -> Result<Vec<Game>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|error| format!("cannot read \"{}\": {error}", path.display()))?;
    let mut games = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let game = parse_game_line(line)
            .map_err(|reason| format!("\"{}\" line {}: {reason}", path.display(), number + 1))?;
        games.push(game);
    }
    if games.is_empty() {
        return Err(format!("\"{}\" holds no position", path.display()));
    }
    Ok(games)
}

fn parse_game_line(line: &str) -> Result<Game, String> {
    let (setup, moves) = match line.split_once(" moves") {
        Some((setup, moves)) => (setup.trim(), moves),
        None => (line, ""),
    };
    let start = if setup == "startpos" {
        Position::startpos()
    } else {
        Position::parse_with_move_number(setup)
            .map_err(|error| error.to_string())?
            .0
    };
    let mut game = Game::new(start, Rules::default());
    for (index, text) in moves.split_whitespace().enumerate() {
        let mv: Move = text
            .parse()
            .map_err(|error| format!("moves index {index}: {error}"))?;
        game.play(mv)
            .map_err(|error| format!("moves index {index}: {error}"))?;
    }
    Ok(game)
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

/// Searches the built-in positions at a fixed depth (`None` = [`DEFAULT_BENCH_DEPTH`]),
/// single-threaded with a fresh 16 MB table each; the node count is identical on every run.
pub fn run_bench(depth: Option<u32>) -> BenchReport {
    let spec = BenchSpec {
        limit: BenchLimit::Depth(depth.unwrap_or(DEFAULT_BENCH_DEPTH).max(1)),
        ..BenchSpec::default()
    };
    run_bench_on(&spec, &bench_games())
}

/// Searches `games` as `spec` asks (its `positions` already read into them), each with a
/// fresh engine and table.
pub fn run_bench_on(spec: &BenchSpec, games: &[Game]) -> BenchReport {
    let started = Instant::now();
    let mut nodes = 0;
    let options = EngineOptions {
        hash_mb: spec.hash_mb,
        threads: spec.threads,
        evaluation: spec.evaluation,
        ..EngineOptions::default()
    };
    for game in games {
        let mut engine = Engine::new(EngineOptions {
            rules: *game.rules(),
            ..options.clone()
        });
        engine.set_game(game.clone());
        let result = engine.search_blocking(spec.limits());
        nodes += result.info.map_or(0, |info| info.nodes);
    }
    BenchReport {
        nodes,
        elapsed: started.elapsed(),
        positions: games.len(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arguments_follow_stockfish_order_and_defaults() {
        assert_eq!(BenchSpec::parse(&[]), Ok(BenchSpec::default()));
        let spec = BenchSpec::parse(&["32", "2", "5000", "current", "nodes"]).unwrap();
        assert_eq!(
            spec,
            BenchSpec {
                hash_mb: 32,
                threads: 2,
                limit: BenchLimit::Nodes(5000),
                positions: BenchPositions::Current,
                evaluation: Evaluation::default(),
            }
        );
        let spec = BenchSpec::parse(&["16", "1", "4", "pos.txt"]).unwrap();
        assert_eq!(spec.limit, BenchLimit::Depth(4));
        assert_eq!(spec.positions, BenchPositions::File("pos.txt".into()));
        for (args, message) in [
            (
                &["0"][..],
                "bad bench hash \"0\": expected an integer in 1..4096",
            ),
            (
                &["16", "x"],
                "bad bench threads \"x\": expected an integer in 1..64",
            ),
            (
                &["16", "1", "65"],
                "bad bench depth \"65\": expected an integer in 1..64",
            ),
            (
                &["16", "1", "3", "default", "perft"],
                "bad bench limit type \"perft\": expected depth, nodes or movetime",
            ),
            (
                &["16", "1", "3", "default", "depth", "x"],
                "unexpected token \"x\" in bench",
            ),
        ] {
            assert_eq!(BenchSpec::parse(args), Err(message.to_string()), "{args:?}");
        }
    }

    #[test]
    fn a_position_file_is_read_and_a_bad_line_named() {
        let dir = std::env::temp_dir().join(format!("bench-positions-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let good = dir.join("good.txt");
        std::fs::write(
            &good,
            "# two games\nstartpos moves c3 a1b1\n\nT3T/5/2G2/5/T3T t 19 0\n",
        )
        .unwrap();
        let games = read_positions(&good).unwrap();
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].ply(), 2);
        assert_eq!(games[1].position().to_string(), "T3T/5/2G2/5/T3T t 19 0");
        let bad = dir.join("bad.txt");
        std::fs::write(&bad, "startpos\nstartpos moves c3 c3\n").unwrap();
        let error = read_positions(&bad).unwrap_err();
        assert!(
            error.starts_with(&format!("\"{}\" line 2: moves index 1:", bad.display())),
            "{error}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_depth_bench_on_one_thread_repeats_its_node_count() {
        let spec = BenchSpec::parse(&["8", "1", "3"]).unwrap();
        let games = bench_games();
        let first = run_bench_on(&spec, &games[..3]);
        assert_eq!(first.nodes, run_bench_on(&spec, &games[..3]).nodes);
        assert_eq!(first.positions, 3);
        let nodes = |n: &str| {
            let spec = BenchSpec::parse(&["8", "1", n, "default", "nodes"]).unwrap();
            run_bench_on(&spec, &games[..2]).nodes
        };
        assert!(0 < nodes("500") && nodes("500") < nodes("50000"));
    }
}
