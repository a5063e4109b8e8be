//! `referee merge FILES...`: combines record files (e.g. one per shard) into one set of
//! statistics, and optionally one record file. `--watch` ([`super::watch`]) does the same
//! repeatedly while the shards play.

use super::cli::MergeArgs;
use super::console::Console;
use super::groups::parse_sprt;
use super::record::keys::RecordKeys;
use super::record::{json, pgn, read_records, GameRecord};
use super::report::{ranking_lines, score_lines, score_lines_with_llr, Standings};
use super::stats::{Sprt, SprtResult};
use super::tail::RecordTail;
use std::collections::BTreeMap;

/// How `referee merge` ended (the binary turns it into the exit status, docs/referee.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MergeEnd {
    /// The records are merged (plain merge), or every watched shard finished complete.
    Complete,
    /// Watching: every shard finished, but games are missing (a shard ended by a fault, an
    /// interruption or an error) or records were corrupt or conflicting.
    Incomplete,
    /// Watching: the SPRT is decided; the shards still playing can be stopped.
    Sprt(SprtResult),
    /// Watching: Ctrl-C.
    Interrupted,
}

/// What adding a record to [`MergedGames`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Added {
    /// A game not seen before.
    New,
    /// The same game again (same players and result): counted once. The message says where.
    Duplicate(String),
    /// Another game with the same number: the first is kept. The message says where.
    Conflict(String),
}

/// Games from several record files, by game number, each with where it was read.
#[derive(Clone, Debug, Default)]
pub struct MergedGames {
    games: BTreeMap<u64, (GameRecord, String, String)>,
}

impl MergedGames {
    /// Adds a game read from `file` (`place` is e.g. `line 4`).
    pub fn add(&mut self, record: GameRecord, file: &str, place: &str) -> Added {
        let Some((seen, seen_file, seen_place)) = self.games.get(&record.number) else {
            self.games
                .insert(record.number, (record, file.into(), place.into()));
            return Added::New;
        };
        let places = format!("\"{seen_file}\" {seen_place} and \"{file}\" {place}");
        if (&seen.goat, &seen.tiger, seen.result) == (&record.goat, &record.tiger, record.result) {
            Added::Duplicate(format!(
                "game {} is recorded twice ({places}); counted once",
                record.number
            ))
        } else {
            Added::Conflict(format!(
                "game {} appears twice with different players or results ({places})",
                record.number
            ))
        }
    }

    /// Forgets the games read from `file` (it is being read again from the start).
    pub fn drop_file(&mut self, file: &str) {
        self.games.retain(|_, (_, from, _)| from != file);
    }

    /// Number of games.
    pub fn len(&self) -> usize {
        self.games.len()
    }

    /// Whether there are no games.
    pub fn is_empty(&self) -> bool {
        self.games.is_empty()
    }

    /// The games sorted by game number.
    pub fn records(&self) -> Vec<GameRecord> {
        self.games.values().map(|(r, _, _)| r.clone()).collect()
    }
}

/// Reads the files and returns the games sorted by game number. The same game number twice
/// is allowed only for identical results (a file given twice, a resumed run). In JSON lines, a
/// last line without its newline that is not a record (a shard killed mid-write) is left out
/// with a warning.
///
/// # Errors
/// A file that cannot be read, a corrupt record, or two different games with the same number.
pub fn merge_records(files: &[String]) -> Result<Vec<GameRecord>, String> {
    let mut games = MergedGames::default();
    for file in files {
        let records: Vec<(String, GameRecord)> = if is_json_lines(file)? {
            let chunk = RecordTail::new(file).read(true)?;
            if let Some(bad) = chunk.bad.first() {
                return Err(format!("records file \"{file}\": {bad}"));
            }
            if let Some(truncated) = chunk.truncated {
                log::warn!("records file \"{file}\": {truncated}; left out");
            }
            let records = chunk.records.into_iter();
            records.map(|(l, r)| (format!("line {l}"), r)).collect()
        } else {
            let records = read_records(file)?.into_iter();
            records.map(|r| (format!("game {}", r.number), r)).collect()
        };
        for (place, record) in records {
            match games.add(record, file, &place) {
                Added::New => {}
                Added::Duplicate(message) => log::warn!("{message}"),
                Added::Conflict(message) => return Err(message),
            }
        }
    }
    Ok(games.records())
}

/// Whether a record file holds JSON lines (its first non-blank character is `{`).
fn is_json_lines(file: &str) -> Result<bool, String> {
    let text =
        std::fs::read(file).map_err(|e| format!("cannot read records file \"{file}\": {e}"))?;
    Ok(text.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'{'))
}

/// The lines `referee merge` prints: every encounter's score block, and a ranking for three
/// engines or more.
pub fn merged_report(records: &[GameRecord], sprt: Option<&Sprt>) -> Vec<String> {
    report(records, sprt, false)
}

/// Like [`merged_report`]; with `pairs_only`, the SPRT uses the complete game pairs only
/// ([`super::report::Tally::llr_complete_pairs`]), as a watch of running shards must.
pub fn report(records: &[GameRecord], sprt: Option<&Sprt>, pairs_only: bool) -> Vec<String> {
    let standings = Standings::of(records);
    let mut lines = vec![format!("Games: {}", records.len())];
    let with_sprt = if standings.tallies.len() == 1 {
        sprt
    } else {
        None
    };
    for tally in &standings.tallies {
        lines.extend(match (with_sprt, pairs_only) {
            (Some(sprt), true) => {
                score_lines_with_llr(tally, Some((sprt, tally.llr_complete_pairs(sprt))))
            }
            _ => score_lines(tally, with_sprt),
        });
    }
    if standings.tallies.len() > 1 {
        lines.extend(ranking_lines(records));
    }
    lines
}

/// Writes the merged games to `--pgnout` and `--jsonout` when given.
///
/// # Errors
/// A file that cannot be written.
pub fn write_outputs(args: &MergeArgs, records: &[GameRecord]) -> Result<(), String> {
    let write = |path: &Option<String>, text: String| -> Result<(), String> {
        match path {
            Some(path) => {
                std::fs::write(path, text).map_err(|e| format!("cannot write \"{path}\": {e}"))
            }
            None => Ok(()),
        }
    };
    // Every figure the records hold is kept.
    let keys = RecordKeys::all();
    write(
        &args.pgnout,
        records
            .iter()
            .map(|r| pgn::write_game_with(r, &keys))
            .collect(),
    )?;
    write(
        &args.jsonout,
        records
            .iter()
            .map(|r| json::write_line_with(r, &keys) + "\n")
            .collect(),
    )
}

/// Runs `referee merge` (with `--watch`: [`super::watch::watch`]).
///
/// # Errors
/// Bad files or options.
pub fn merge(
    args: &MergeArgs,
    stop: &std::sync::atomic::AtomicBool,
    console: &mut Console,
) -> Result<MergeEnd, String> {
    let sprt = parse_sprt(&args.sprt)?;
    if args.watch {
        return super::watch::watch(args, sprt.as_ref(), stop, console);
    }
    let records = merge_records(&args.files)?;
    for line in merged_report(&records, sprt.as_ref()) {
        console.line(&line);
    }
    write_outputs(args, &records)?;
    Ok(MergeEnd::Complete)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::referee::outcome::GameResult;
    use crate::referee::record::tests::sample;

    #[test]
    fn duplicates_count_once_and_conflicts_are_named() {
        let game = |number, result| GameRecord {
            number,
            result,
            ..sample()
        };
        let mut games = MergedGames::default();
        assert_eq!(
            games.add(game(1, GameResult::Draw), "a", "line 1"),
            Added::New
        );
        assert_eq!(
            games.add(game(2, GameResult::Draw), "b", "line 1"),
            Added::New
        );
        let Added::Duplicate(message) = games.add(game(1, GameResult::Draw), "b", "line 2") else {
            panic!("a duplicate")
        };
        assert_eq!(
            message,
            "game 1 is recorded twice (\"a\" line 1 and \"b\" line 2); counted once"
        );
        let added = games.add(game(2, GameResult::GoatsWin), "a", "line 2");
        assert!(matches!(added, Added::Conflict(ref m) if m.starts_with("game 2 appears twice")));
        assert_eq!(games.len(), 2);
        assert_eq!(
            games.records()[1].result,
            GameResult::Draw,
            "the first kept"
        );
        games.drop_file("b");
        assert_eq!(games.records().len(), 1);
        games.drop_file("a");
        assert!(games.is_empty());
    }
}
