//! Protocol fuzz test: thousands of random and mutated command lines sent to the binary; it must
//! stay alive, answer `isready` after every batch, and print nothing but protocol lines.
//! Deterministic: seeded (set `PROTOCOL_FUZZ_SEED` to try another seed; the seed is printed).

mod protocol_support;

use baghchal::bench::BenchSpec;
use protocol_support::EngineProcess;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::time::Duration;

const BATCHES: usize = 100;
const LINES_PER_BATCH: usize = 100;

/// Valid commands to mutate. Resource-heavy settings (4 GB hash, 64 threads, deep perft) are left
/// out on purpose: they are valid, and the fuzz test is about robustness, not capacity.
const VALID: &[&str] = &[
    "uci",
    "isready",
    "ucinewgame",
    "debug on",
    "debug off",
    "register later",
    "position startpos",
    "position startpos moves c3 a1b1 b3",
    "position fen T3T/5/5/G4/T3T t 19 0 moves a1a3",
    "position fen T3T/5/5/5/T3T g 20 0 1 moves c3",
    "go depth 2",
    "go nodes 500",
    "go movetime 20",
    "go wtime 100 btime 100 winc 5 binc 5",
    "go gtime 100 ttime 100 movestogo 3",
    "go infinite",
    "go ponder wtime 200 btime 200",
    "go depth 3 searchmoves c3 d3",
    "go perft 2",
    "stop",
    "stop",
    "ponderhit",
    "d",
    "eval",
    "bench 1 1 1",
    "setoption name MultiPV value 2",
    "setoption name Hash value 2",
    "setoption name Threads value 2",
    "setoption name Move Overhead value 10",
    "setoption name Repetition value draw",
    "setoption name ForcedCapture value true",
    "setoption name CapturesToWin value 3",
    "setoption name Strategy value random",
    "setoption name Strategy value search",
    "setoption name Seed value 7",
    "setoption name Clear Hash",
    "setoption name UCI_ShowWDL value true",
    "setoption name Ponder value false",
];

/// Tokens spliced into lines: keywords, numbers at and beyond every limit, junk.
const TOKENS: &[&str] = &[
    "go",
    "position",
    "setoption",
    "name",
    "value",
    "moves",
    "startpos",
    "fen",
    "depth",
    "nodes",
    "movetime",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "infinite",
    "ponder",
    "searchmoves",
    "perft",
    "stop",
    "isready",
    "uci",
    "d",
    "eval",
    "bench",
    "debug",
    "on",
    "off",
    "Hash",
    "c3",
    "a1b1",
    "e1c3",
    "z9",
    "a1a1",
    "T3T/5/5/5/T3T",
    "g",
    "t",
    "0",
    "1",
    "-1",
    "-0",
    "+5",
    "-9223372036854775808",
    "9223372036854775807",
    "18446744073709551616",
    "99999999999999999999999999",
    "1e9",
    "0x10",
    "NaN",
    "true",
    "FALSE",
    "тигр",
    "🐅",
    "\u{0}",
    "\u{7f}",
    "\u{feff}",
    "\\",
    "\"",
    "''",
    ";",
    "===",
];

fn mutate(rng: &mut StdRng, line: &str) -> String {
    let mut tokens: Vec<String> = line.split_whitespace().map(str::to_string).collect();
    for _ in 0..rng.random_range(1..=3) {
        let at = rng.random_range(0..=tokens.len());
        match rng.random_range(0..7) {
            0 if !tokens.is_empty() => {
                tokens.remove(at.min(tokens.len() - 1));
            }
            1 => tokens.insert(at, TOKENS[rng.random_range(0..TOKENS.len())].to_string()),
            2 if at < tokens.len() => {
                tokens[at] = TOKENS[rng.random_range(0..TOKENS.len())].to_string()
            }
            3 if tokens.len() > 1 => {
                let (first, other) = (at.min(tokens.len() - 1), rng.random_range(0..tokens.len()));
                tokens.swap(first, other);
            }
            4 if at < tokens.len() => tokens[at] = tokens[at].to_uppercase(),
            5 if at < tokens.len() => {
                let token = tokens[at].clone();
                tokens.insert(at, token);
            }
            _ => tokens.push(
                rng.random_range(-1_000_000_000_000i64..1_000_000_000_000)
                    .to_string(),
            ),
        }
    }
    let separator = if rng.random_bool(0.1) { "  \t " } else { " " };
    tokens.join(separator)
}

fn random_line(rng: &mut StdRng) -> String {
    let line = match rng.random_range(0..100) {
        0..=39 => {
            let valid = VALID[rng.random_range(0..VALID.len())];
            mutate(rng, valid)
        }
        40..=59 => VALID[rng.random_range(0..VALID.len())].to_string(),
        60..=84 => {
            let count = rng.random_range(1..=8);
            (0..count)
                .map(|_| TOKENS[rng.random_range(0..TOKENS.len())])
                .collect::<Vec<_>>()
                .join(" ")
        }
        85..=89 => String::new(),
        90..=97 => (0..rng.random_range(1..40))
            .map(|_| char::from_u32(rng.random_range(1..0x2FFF)).unwrap_or('?'))
            .filter(|c| *c != '\n' && *c != '\r')
            .collect(),
        _ => {
            let token = TOKENS[rng.random_range(0..TOKENS.len())];
            format!(
                "go {}",
                vec![token; rng.random_range(1000..30_000)].join(" ")
            )
        }
    };
    // A line that is just `quit` would end the run; everything else must be survived. A valid
    // `bench` may take long (its default depth, a deep limit): keep it to depth 1.
    let tokens: Vec<&str> = line.split_whitespace().collect();
    match tokens[..] {
        ["quit", ..] => "isready".to_string(),
        ["bench", ref args @ ..] if BenchSpec::parse(args).is_ok() => "bench 1 1 1".to_string(),
        _ => line,
    }
}

fn is_move(text: &str) -> bool {
    text.parse::<baghchal::Move>().is_ok()
}

/// Whether `line` is something the protocol may print.
fn is_protocol_line(line: &str) -> bool {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    let Some(&first) = tokens.first() else {
        return false;
    };
    let number = |t: &str| t.parse::<u64>().is_ok();
    match first {
        "id" | "option" | "info" | "eval" => tokens.len() >= 2,
        "uciok" | "readyok" => tokens.len() == 1,
        "bestmove" => matches!(tokens.len(), 2 | 4) && (tokens[1] == "0000" || is_move(tokens[1])),
        "Position:" | "Key:" | "Side" | "Goats" | "Rules:" | "Moves" | "Legal" | "Outcome:"
        | "Warning:" | "Nodes" => true,
        "a" => line == "  a b c d e",
        _ if tokens.len() == 2 && tokens[0].ends_with(':') => {
            is_move(tokens[0].trim_end_matches(':')) && number(tokens[1])
        }
        _ if tokens.len() == 2 && number(tokens[0]) => tokens[1] == "nodes" || tokens[1] == "nps",
        _ if tokens.len() == 6 => {
            ["1", "2", "3", "4", "5"].contains(&first)
                && tokens[1..].iter().all(|t| ["T", "G", "."].contains(t))
        }
        _ => false,
    }
}

/// After `stop`, a `go depth 1` gets its `bestmove` (retried while a perft or bench finishes).
fn search_still_works(engine: &mut EngineProcess, batch: usize) {
    engine.send("stop");
    for _ in 0..600 {
        engine.send("go depth 1");
        let lines = engine.read_until(Duration::from_secs(30), |l| {
            l.starts_with("bestmove")
                || l.contains("not allowed while a search, perft or bench runs")
        });
        if lines.last().is_some_and(|l| l.starts_with("bestmove")) {
            return;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    panic!("batch {batch}: go never ran");
}

#[test]
fn the_engine_survives_random_and_mutated_lines() {
    let seed = std::env::var("PROTOCOL_FUZZ_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(20_261_129u64);
    println!("protocol fuzz seed {seed}");
    let mut rng = StdRng::seed_from_u64(seed);
    let mut engine = EngineProcess::start();
    for batch in 0..BATCHES {
        let mut text = String::new();
        for _ in 0..LINES_PER_BATCH {
            text.push_str(&random_line(&mut rng));
            text.push_str(if rng.random_bool(0.2) { "\r\n" } else { "\n" });
        }
        engine.write_raw(text.as_bytes());
        let lines = engine.sync_with_timeout(Duration::from_secs(30));
        for line in &lines {
            assert!(
                is_protocol_line(line),
                "batch {batch}: not a protocol line: {line:?}"
            );
        }
        assert!(engine.is_running(), "batch {batch}: the engine exited");
        search_still_works(&mut engine, batch);
    }
    engine.send("stop");
    engine.send("quit");
    let status = engine
        .wait_exit(Duration::from_secs(10))
        .expect("exits after quit");
    assert!(status.success());
    let rest = engine.drain(Duration::from_millis(100));
    assert!(rest.iter().all(|l| is_protocol_line(l)), "{rest:?}");
    let count = |prefix: &str| engine.seen.iter().filter(|l| l.starts_with(prefix)).count();
    let (errors, bestmoves, perfts) = (
        count("info string error"),
        count("bestmove"),
        count("Nodes searched"),
    );
    println!(
        "{} lines read: {errors} errors, {bestmoves} bestmoves, {perfts} perfts",
        engine.seen.len()
    );
    assert!(
        errors > 2500 && bestmoves > 50 && perfts > 0,
        "the fuzz lines should exercise the engine"
    );
}
