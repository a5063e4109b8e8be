//! Shared by the tests under `Repetition forbid`: small solved variants (tables and forbid
//! files, made once into the target's temporary directory) and the full-history search of the
//! game itself that checks their values.
#![allow(dead_code)]

use baghchal::tablebase::forbid::solve::{solve_tables, SolveOptions};
use baghchal::tablebase::solve::generate_tables;
use baghchal::tablebase::{TableRules, Tablebase, Wdl};
use baghchal::{Bitboard, Game, Position, Repetition, Rules, Side};
use rand::seq::SliceRandom;
use rand::Rng;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

pub const QUIET: &(dyn Fn(&str, u64, u64) + Sync) = &|_: &str, _: u64, _: u64| {};

pub const OPTIONS: SolveOptions = SolveOptions {
    max_states: 24,
    node_budget: 1_000_000,
};

pub fn table_rules(captures_to_win: u8) -> TableRules {
    TableRules {
        forced_capture: false,
        captures_to_win,
    }
}

pub fn forbid_rules(captures_to_win: u8) -> Rules {
    table_rules(captures_to_win).with_repetition(Repetition::Forbid)
}

/// Tables for `captures_to_win`, solved under forbid once (kept between runs: both resume).
pub fn solved_dir(captures_to_win: u8) -> &'static Path {
    static DIRS: [OnceLock<PathBuf>; 2] = [OnceLock::new(), OnceLock::new()];
    DIRS[usize::from(captures_to_win) - 1].get_or_init(|| {
        let dir =
            Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("forbid-ctw{captures_to_win}"));
        generate_tables(&dir, table_rules(captures_to_win), 2, QUIET).expect("generation");
        solve_tables(&dir, OPTIONS, QUIET).expect("solve");
        dir
    })
}

/// The winner of `game` (Repetition forbid) with best play from here, by trying every line of
/// the game itself: the tables are used only at table wins and losses (exact from any history
/// of table draws: `table_wins_hold_under_forbid_after_draws`), never at draws. `None` when
/// more than `budget` nodes would be needed.
pub fn full_history_winner(game: &mut Game, tables: &Tablebase, budget: &mut u64) -> Option<Side> {
    let mover = game.position().side_to_move();
    if let Some(outcome) = game.outcome() {
        return outcome.winner();
    }
    // Table values are used in the movement phase only.
    let value = (game.position().goats_in_hand() == 0)
        .then(|| tables.probe(game.position()).expect("covered"));
    match value.map(|value| value.wdl) {
        Some(Wdl::Win) => return Some(mover),
        Some(Wdl::Loss) => return Some(mover.opposite()),
        _ => {}
    }
    if *budget == 0 {
        return None;
    }
    *budget -= 1;
    let mut unknown = false;
    for mv in game.legal_moves().iter().copied().collect::<Vec<_>>() {
        game.play(mv).expect("legal");
        let winner = full_history_winner(game, tables, budget);
        game.undo();
        match winner {
            Some(side) if side == mover => return Some(mover),
            Some(_) => {}
            None => unknown = true,
        }
    }
    if unknown {
        None
    } else {
        Some(mover.opposite())
    }
}

/// Runs the engine on one position (CapturesToWin 1, Repetition forbid, tables in `dir`) to
/// `go depth 3`; returns every line it printed up to `bestmove`, and the move.
pub fn engine_answer(dir: &Path, position: &str) -> (Vec<String>, String) {
    engine_answer_under(dir, Repetition::Forbid, position)
}

/// As [`engine_answer`], under `repetition`.
pub fn engine_answer_under(
    dir: &Path,
    repetition: Repetition,
    position: &str,
) -> (Vec<String>, String) {
    use std::io::{BufRead, BufReader, Write};
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_baghchal"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the engine starts");
    let mut input = child.stdin.take().unwrap();
    let commands = format!(
        "uci\nsetoption name CapturesToWin value 1\nsetoption name Repetition value {repetition}\n\
         setoption name TablebasePath value {}\nisready\nposition {position}\ngo depth 3\n",
        dir.display()
    );
    input.write_all(commands.as_bytes()).unwrap();
    input.flush().unwrap();
    let mut lines = Vec::new();
    let mut best = String::new();
    for line in BufReader::new(child.stdout.take().unwrap()).lines() {
        let line = line.unwrap();
        if let Some(rest) = line.strip_prefix("bestmove ") {
            best = rest.split_whitespace().next().unwrap_or("").to_string();
            break;
        }
        lines.push(line);
    }
    let _ = input.write_all(b"quit\n");
    drop(input);
    let _ = child.wait();
    (lines, best)
}

/// Runs `baghchal tb ARGS`: success, stdout, stderr.
pub fn run_tb(args: &[&str]) -> (bool, String, String) {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_baghchal"))
        .arg("tb")
        .args(args)
        .output()
        .expect("run baghchal");
    (
        output.status.success(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// A position with `in_hand` goats in hand, none captured, `side` to move: four tigers and the
/// goats on the board on random points.
pub fn random_placement(rng: &mut impl Rng, in_hand: u8, side: Side) -> Position {
    let mut points: Vec<u32> = (0..25).collect();
    points.shuffle(rng);
    let tigers = points[..4].iter().fold(0, |set, &p| set | 1 << p);
    let goats = points[4..4 + usize::from(20 - in_hand)]
        .iter()
        .fold(0, |set, &p| set | 1 << p);
    Position::from_parts(Bitboard(tigers), Bitboard(goats), side, in_hand, 0).expect("valid")
}

/// A private copy of the solved CapturesToWin 2 tables and forbid files, named `tag`.
pub fn private_ctw2(tag: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("prove-{tag}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for entry in std::fs::read_dir(solved_dir(2)).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_str().unwrap();
        let forbid_file = name.starts_with("forbid-") && !name.starts_with("forbid-proof");
        if name.ends_with(".bctb") || forbid_file && name.ends_with(".bcfb") {
            std::fs::copy(&path, dir.join(name)).unwrap();
        }
    }
    dir
}
