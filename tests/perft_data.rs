//! Perft counts from `tests/data/perft.txt` (format described at its top): `perft` (with its
//! shortcuts), `perft::perft_plain` and the reference implementation must all reproduce them.
//!
//! The deep entries are too slow for a debug-ish test run; the reference checks every entry with
//! `cargo test --release --test perft_data -- --ignored --nocapture`.

mod common;

use baghchal::perft::perft_plain;
use baghchal::{divide, perft, Game, Move, Position, Rules};
use common::ref_rules;
use common::reference::{perft_stats, RefGame, RefPosition, TreeStats};

/// Entries up to this many leaves run through `perft` in `cargo test`.
const FAST_LIMIT: u64 = 300_000_000;
/// ... through `perft_plain`.
const PLAIN_LIMIT: u64 = 3_000_000;
/// ... through the reference.
const REFERENCE_LIMIT: u64 = 1_000_000;

struct Entry {
    line: usize,
    rules: Rules,
    position: String,
    moves: Vec<String>,
    depth: u32,
    /// `None` for `?`: not yet known (the ignored test prints the reference's count).
    nodes: Option<u64>,
    features: Vec<String>,
}

fn load() -> Vec<Entry> {
    let text = include_str!("data/perft.txt");
    let mut entries = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.split(';').map(str::trim).collect();
        assert_eq!(
            fields.len(),
            7,
            "perft.txt line {}: 7 fields expected",
            index + 1
        );
        let words = |field: &str| -> Vec<String> {
            if field == "-" {
                Vec::new()
            } else {
                field.split_whitespace().map(String::from).collect()
            }
        };
        entries.push(Entry {
            line: index + 1,
            rules: fields[0]
                .parse()
                .unwrap_or_else(|e| panic!("line {}: {e}", index + 1)),
            position: fields[1].to_string(),
            moves: words(fields[2]),
            depth: fields[3].parse().expect("depth"),
            nodes: (fields[4] != "?").then(|| fields[4].replace('_', "").parse().expect("nodes")),
            features: words(fields[5]),
        });
    }
    entries
}

fn game_of(entry: &Entry) -> Game {
    let start: Position = entry
        .position
        .parse()
        .unwrap_or_else(|e| panic!("line {}: {e}", entry.line));
    let mut game = Game::new(start, entry.rules);
    for text in &entry.moves {
        let mv: Move = text
            .parse()
            .unwrap_or_else(|e| panic!("line {}: {e}", entry.line));
        game.play(mv)
            .unwrap_or_else(|e| panic!("line {}: {e}", entry.line));
    }
    game
}

fn reference_of(entry: &Entry) -> RefGame {
    let mut game = RefGame::new(RefPosition::parse(&entry.position), ref_rules(&entry.rules));
    for text in &entry.moves {
        game.play_text(text);
    }
    game
}

fn feature_count(stats: &TreeStats, feature: &str) -> u64 {
    match feature {
        "place" => stats.placements,
        "step" => stats.steps,
        "capture" => stats.captures,
        "forbidden" => stats.forbidden,
        "win" => stats.capture_wins,
        "blocked" => stats.blocked,
        "draw" => stats.draws,
        other => panic!("unknown feature {other}"),
    }
}

/// Checks the entry against the reference; returns the reference's statistics.
fn check_with_reference(entry: &Entry) -> TreeStats {
    let mut stats = TreeStats::default();
    perft_stats(&mut reference_of(entry), entry.depth, &mut stats);
    if let Some(nodes) = entry.nodes {
        assert_eq!(stats.leaves, nodes, "line {}: reference perft", entry.line);
    }
    for feature in &entry.features {
        assert!(
            feature_count(&stats, feature) > 0,
            "line {}: the tree has no {feature}: {stats:?}",
            entry.line
        );
    }
    stats
}

#[test]
fn perft_matches_data() {
    let entries = load();
    assert!(
        entries.len() >= 40,
        "perft.txt has {} entries",
        entries.len()
    );
    for entry in &entries {
        let nodes = entry
            .nodes
            .unwrap_or_else(|| panic!("line {}: count not filled in", entry.line));
        if nodes <= FAST_LIMIT {
            assert_eq!(
                perft(&mut game_of(entry), entry.depth),
                nodes,
                "line {}: perft",
                entry.line
            );
        }
        if nodes <= PLAIN_LIMIT {
            assert_eq!(
                perft_plain(&mut game_of(entry), entry.depth),
                nodes,
                "line {}: perft_plain",
                entry.line
            );
        }
        if nodes <= REFERENCE_LIMIT {
            check_with_reference(entry);
        }
    }
}

#[test]
fn divide_sums_to_perft() {
    for entry in load()
        .iter()
        .filter(|e| e.depth >= 1 && e.nodes.is_some_and(|n| n <= PLAIN_LIMIT))
    {
        let mut game = game_of(entry);
        let parts = divide(&mut game, entry.depth);
        let total: u64 = parts.iter().map(|(_, count)| count).sum();
        assert_eq!(Some(total), entry.nodes, "line {}: divide", entry.line);
        assert_eq!(parts.len(), game.legal_moves().len(), "line {}", entry.line);
        assert_eq!(
            game.ply(),
            entry.moves.len(),
            "line {}: divide left the game changed",
            entry.line
        );
    }
}

/// Every entry through the reference (slow: run in release). Prints each entry's count and tree
/// statistics; entries whose count is `?` are printed for filling in.
#[test]
#[ignore]
fn reference_agrees_with_all_data() {
    for entry in load() {
        let started = std::time::Instant::now();
        let stats = check_with_reference(&entry);
        println!(
            "line {}: depth {} nodes {} ({:.1} s) {stats:?}",
            entry.line,
            entry.depth,
            stats.leaves,
            started.elapsed().as_secs_f64()
        );
    }
}

/// Every entry through `perft` (the deep ones take seconds even in release).
#[test]
#[ignore]
fn perft_matches_all_data() {
    for entry in load() {
        if let Some(nodes) = entry.nodes {
            assert_eq!(
                perft(&mut game_of(&entry), entry.depth),
                nodes,
                "line {}: perft",
                entry.line
            );
        }
    }
}
