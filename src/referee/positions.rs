//! `referee positions`: scores any engine, over pipes, on a test-position suite (by default
//! tests/data/critical-positions.txt): each position is sent as a new game, the engine's move is
//! judged by the moves the file lists as keeping the position's value (exact, from the tables).
//!
//! The file: `#` lines are comments, one of them `# rules: <rules>` (as `d` prints them, e.g.
//! `ForcedCapture=false CapturesToWin=5 Repetition=forbid`); every other line is
//! `<position string> | <value> | <move> ...`, the value for the side to move (`win <plies>`,
//! `win` in the placement phase, where the tables store no distance, or `draw`), then every
//! legal move that keeps it, and optionally a fourth field `unknown <move> ...`: moves whose
//! value is not known under the suite's rules (under `Repetition forbid`, the moves into table
//! draws); an engine that plays one is counted apart, neither kept nor lost.

use crate::referee::engine_process::EngineProcess;
use crate::referee::spec::parse_check_engine;
use crate::{Move, Position, Rules};
use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// One test position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SuiteEntry {
    /// The position (a new game: no history).
    pub position: Position,
    /// Its value for the side to move, as written (`win 7`, `win`, `draw`).
    pub value: String,
    /// The legal moves that keep the value.
    pub keeping: Vec<Move>,
    /// The legal moves whose value is not known under the suite's rules (scored apart).
    pub unknown: Vec<Move>,
}

impl SuiteEntry {
    /// The entry's line in a suite file.
    pub fn line(&self) -> String {
        let words = |moves: &[Move]| {
            let words: Vec<String> = moves.iter().map(ToString::to_string).collect();
            words.join(" ")
        };
        let mut line = format!(
            "{} | {} | {}",
            self.position,
            self.value,
            words(&self.keeping)
        );
        if !self.unknown.is_empty() {
            line += &format!(" | unknown {}", words(&self.unknown));
        }
        line
    }
}

fn parse_entry(line: &str) -> Result<SuiteEntry, String> {
    let fields: Vec<&str> = line.split('|').map(str::trim).collect();
    let (position, value, moves, unknown) = match fields[..] {
        [position, value, moves] => (position, value, moves, ""),
        [position, value, moves, unknown] => {
            let Some(unknown) = unknown.strip_prefix("unknown") else {
                return Err(format!(
                    "bad fourth field \"{unknown}\": expected unknown <move> ..."
                ));
            };
            (position, value, moves, unknown)
        }
        _ => {
            return Err(format!(
                "{} fields, expected 3 (or 4 with unknown moves) separated by |",
                fields.len()
            ))
        }
    };
    let position: Position = position.parse().map_err(|e| format!("{e}"))?;
    let words: Vec<&str> = value.split_whitespace().collect();
    let good_value = match words[..] {
        ["draw"] | ["win"] => true,
        ["win", plies] => plies.parse::<u16>().is_ok(),
        _ => false,
    };
    if !good_value {
        return Err(format!(
            "bad value \"{value}\": expected win <plies>, win or draw"
        ));
    }
    let parse_moves = |text: &str| {
        text.split_whitespace()
            .map(|m| m.parse::<Move>().map_err(|e| format!("{e}")))
            .collect::<Result<Vec<_>, _>>()
    };
    let keeping = parse_moves(moves)?;
    let unknown = parse_moves(unknown)?;
    if keeping.is_empty() {
        return Err("no move keeps the value".into());
    }
    Ok(SuiteEntry {
        position,
        value: value.to_string(),
        keeping,
        unknown,
    })
}

/// Reads a suite file: its rules and entries.
///
/// # Errors
/// The file, the line and what is wrong with it.
pub fn read_suite(path: &Path) -> Result<(Rules, Vec<SuiteEntry>), String> {
    let name = path.display();
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read \"{name}\": {e}"))?;
    let mut rules = None;
    let mut entries = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let at = |reason: String| format!("\"{name}\" line {}: {reason}", number + 1);
        if let Some(comment) = line.strip_prefix('#') {
            if let Some(text) = comment.trim().strip_prefix("rules:") {
                rules = Some(
                    text.trim()
                        .parse::<Rules>()
                        .map_err(|e| at(e.to_string()))?,
                );
            }
            continue;
        }
        if line.trim().is_empty() {
            continue;
        }
        entries.push(parse_entry(line).map_err(at)?);
    }
    let rules = rules.ok_or_else(|| format!("\"{name}\": no \"# rules: ...\" line"))?;
    Ok((rules, entries))
}

/// What `referee positions` sends for each position.
#[derive(Clone, Debug)]
pub struct ScoreLimit {
    /// The `go` command.
    pub go: String,
    /// Time allowed for its `bestmove`.
    pub allowed: Duration,
}

/// Per phase and value: (kept, tested).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Score {
    /// Movement phase (no goat in hand), won positions.
    pub movement_wins: (u32, u32),
    /// Movement phase, drawn positions.
    pub movement_draws: (u32, u32),
    /// Placement phase, won positions.
    pub placement_wins: (u32, u32),
    /// Placement phase, drawn positions.
    pub placement_draws: (u32, u32),
    /// Positions where the engine played a move of unknown value (not in the counts above).
    pub unknown: u32,
}

impl Score {
    fn slot(&mut self, entry: &SuiteEntry) -> &mut (u32, u32) {
        let draw = entry.value == "draw";
        match (entry.position.goats_in_hand() > 0, draw) {
            (false, false) => &mut self.movement_wins,
            (false, true) => &mut self.movement_draws,
            (true, false) => &mut self.placement_wins,
            (true, true) => &mut self.placement_draws,
        }
    }

    /// Every position: (kept, tested).
    pub fn total(&self) -> (u32, u32) {
        [
            self.movement_wins,
            self.movement_draws,
            self.placement_wins,
            self.placement_draws,
        ]
        .iter()
        .fold((0, 0), |(k, t), (a, b)| (k + a, t + b))
    }
}

impl std::fmt::Display for Score {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let share = |(kept, tested): (u32, u32)| {
            let percent = if tested == 0 {
                0.0
            } else {
                100.0 * f64::from(kept) / f64::from(tested)
            };
            format!("{kept} of {tested} ({percent:.1}%)")
        };
        write!(
            f,
            "value kept: {}; movement wins {}, movement draws {}, placement wins {}, placement draws {}",
            share(self.total()),
            share(self.movement_wins),
            share(self.movement_draws),
            share(self.placement_wins),
            share(self.placement_draws)
        )?;
        if self.unknown > 0 {
            write!(f, "; {} moves of unknown value not counted", self.unknown)?;
        }
        Ok(())
    }
}

/// Scores the engine of `engine` (engine spec tokens) on `entries` under `rules`: a line per
/// position whose value was lost (`lost <position> | played <move> | keeps <moves>`) through
/// `report`, and the score. An engine fault (crash, no answer) ends the run with an error.
///
/// # Errors
/// A bad spec, or the engine failing to answer.
pub fn score_engine(
    engine: &[String],
    rules: Rules,
    entries: &[SuiteEntry],
    limit: &ScoreLimit,
    timeout: Duration,
    report: &mut dyn FnMut(&str),
) -> Result<Score, String> {
    let spec = parse_check_engine(engine).map_err(|e| e.to_string())?;
    let never = AtomicBool::new(false);
    let mut process = EngineProcess::spawn(&spec.name, &spec.command).map_err(|e| e.to_string())?;
    let mut options = spec.options.clone();
    for (name, value) in [
        ("ForcedCapture", rules.forced_capture.to_string()),
        ("CapturesToWin", rules.captures_to_win.to_string()),
        ("Repetition", rules.repetition.to_string()),
    ] {
        if !options.iter().any(|(n, _)| n.eq_ignore_ascii_case(name)) {
            options.push((name.to_string(), value));
        }
    }
    process
        .handshake(&options, timeout, &never)
        .map_err(|e| format!("handshake: {e}"))?;
    let mut score = Score::default();
    for (number, entry) in entries.iter().enumerate() {
        process.send("ucinewgame").map_err(|e| e.to_string())?;
        let reply = process
            .go(
                &format!("position fen {}", entry.position),
                &limit.go,
                limit.allowed,
                &never,
            )
            .map_err(|e| format!("position {} ({}): {e}", number + 1, entry.position))?;
        let played = reply.best_move.parse::<Move>().ok();
        if played.is_some_and(|mv| entry.unknown.contains(&mv)) {
            score.unknown += 1;
            report(&format!(
                "unknown {} | played {}",
                entry.position, reply.best_move
            ));
            continue;
        }
        let kept = played.is_some_and(|mv| entry.keeping.contains(&mv));
        let slot = score.slot(entry);
        slot.1 += 1;
        if kept {
            slot.0 += 1;
        } else {
            let keeps: Vec<String> = entry.keeping.iter().map(ToString::to_string).collect();
            report(&format!(
                "lost {} | played {} | keeps {}",
                entry.position,
                reply.best_move,
                keeps.join(" ")
            ));
        }
        if (number + 1) % 50 == 0 {
            log::info!("positions: {} of {}", number + 1, entries.len());
        }
    }
    process.shutdown(Duration::from_secs(1));
    Ok(score)
}

/// `referee positions`: prints a `lost ...` line per position whose value the engine lost,
/// then the score; `Ok(())` also when moves were lost (the score is the result).
///
/// # Errors
/// A bad suite file, a bad spec, or an engine fault.
pub fn run_positions(args: &crate::referee::cli::PositionsArgs) -> Result<(), String> {
    use crate::referee::cli::SuitePhase;
    let (rules, entries) = read_suite(&args.file)?;
    let entries: Vec<SuiteEntry> = entries
        .into_iter()
        .filter(|e| match args.phase {
            SuitePhase::All => true,
            SuitePhase::Movement => e.position.goats_in_hand() == 0,
            SuitePhase::Placement => e.position.goats_in_hand() > 0,
        })
        .collect();
    let timeout = Duration::from_millis(args.timeout);
    let (go, allowed) = match (args.depth, args.nodes) {
        (Some(depth), _) => (format!("go depth {depth}"), timeout),
        (None, Some(nodes)) => (format!("go nodes {nodes}"), timeout),
        (None, None) => (
            format!("go movetime {}", args.movetime),
            Duration::from_millis(args.movetime) + timeout,
        ),
    };
    let limit = ScoreLimit { go, allowed };
    let mut print = |line: &str| println!("{line}");
    let score = score_engine(&args.engine, rules, &entries, &limit, timeout, &mut print)?;
    println!("{score}; {}, rules {rules}", limit.go);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suite_lines_round_trip_and_bad_lines_are_named() {
        let entry = parse_entry("T3T/5/5/1G3/T3T t 19 0 | win | a1c3").unwrap();
        assert_eq!(entry.line(), "T3T/5/5/1G3/T3T t 19 0 | win | a1c3");
        assert_eq!(parse_entry(&entry.line()), Ok(entry));
        let open = parse_entry("T3T/5/5/1G3/T3T t 19 0 | win | a1c3 | unknown a1a2 e1e2").unwrap();
        assert_eq!(open.unknown.len(), 2);
        assert_eq!(parse_entry(&open.line()), Ok(open));
        assert!(parse_entry("T3T/5/5/1G3/T3T t 19 0 | win | a1c3 | a1a2")
            .unwrap_err()
            .contains("bad fourth field"));
        assert!(parse_entry("T3T/5/5/5/T3T g 20 0 | draw")
            .unwrap_err()
            .contains("2 fields"));
        assert!(parse_entry("T3T/5/5/5/T3T g 20 0 | lose 3 | c3")
            .unwrap_err()
            .contains("bad value"));
        assert!(parse_entry("T3T/5/5/5/T3T g 20 0 | draw | ")
            .unwrap_err()
            .contains("no move"));
        let dir = std::env::temp_dir().join(format!("suite-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("suite.txt");
        std::fs::write(&file, "# a suite\n# rules: ForcedCapture=false CapturesToWin=5 Repetition=forbid\nT3T/5/5/1G3/T3T t 19 0 | win | a1c3\nT3T/5/5/1G3/T3T t 19 0 | win | zz\n").unwrap();
        let error = read_suite(&file).unwrap_err();
        assert!(error.contains("line 4: "), "{error}");
        std::fs::write(&file, "T3T/5/5/1G3/T3T t 19 0 | win | a1c3\n").unwrap();
        assert!(read_suite(&file).unwrap_err().contains("no \"# rules"));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
