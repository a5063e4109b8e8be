//! `referee merge FILES...`: combines record files (e.g. one per shard) into one set of
//! statistics, and optionally one record file.

use super::cli::MergeArgs;
use super::console::Console;
use super::groups::parse_sprt;
use super::record::{json, pgn, read_records, GameRecord};
use super::report::{ranking_lines, score_lines, Standings};
use std::collections::BTreeMap;

/// Reads the files and returns the games sorted by game number. The same game number twice
/// is allowed only for identical results (a file given twice, a resumed run).
///
/// # Errors
/// A file that cannot be read, or two different games with the same number.
pub fn merge_records(files: &[String]) -> Result<Vec<GameRecord>, String> {
    let mut games: BTreeMap<u64, GameRecord> = BTreeMap::new();
    for file in files {
        for record in read_records(file)? {
            match games.get(&record.number) {
                Some(seen)
                    if (&seen.goat, &seen.tiger, seen.result)
                        != (&record.goat, &record.tiger, record.result) =>
                {
                    return Err(format!(
                        "game {} appears twice with different players or results (second time in \"{file}\")",
                        record.number
                    ));
                }
                Some(_) => log::warn!(
                    "game {} appears more than once; counted once",
                    record.number
                ),
                None => {
                    games.insert(record.number, record);
                }
            }
        }
    }
    Ok(games.into_values().collect())
}

/// The lines `referee merge` prints: every encounter's score block, and a ranking for three
/// engines or more.
pub fn merged_report(records: &[GameRecord], sprt: Option<&super::stats::Sprt>) -> Vec<String> {
    let standings = Standings::of(records);
    let mut lines = vec![format!("Games: {}", records.len())];
    let with_sprt = if standings.tallies.len() == 1 {
        sprt
    } else {
        None
    };
    for tally in &standings.tallies {
        lines.extend(score_lines(tally, with_sprt));
    }
    if standings.tallies.len() > 1 {
        lines.extend(ranking_lines(records));
    }
    lines
}

/// Runs `referee merge`.
///
/// # Errors
/// Bad files or options.
pub fn merge(args: &MergeArgs, console: &mut Console) -> Result<(), String> {
    let sprt = parse_sprt(&args.sprt)?;
    let records = merge_records(&args.files)?;
    for line in merged_report(&records, sprt.as_ref()) {
        console.line(&line);
    }
    let write = |path: &Option<String>, text: String| -> Result<(), String> {
        match path {
            Some(path) => {
                std::fs::write(path, text).map_err(|e| format!("cannot write \"{path}\": {e}"))
            }
            None => Ok(()),
        }
    };
    write(&args.pgnout, records.iter().map(pgn::write_game).collect())?;
    write(
        &args.jsonout,
        records.iter().map(|r| json::write_line(r) + "\n").collect(),
    )?;
    Ok(())
}
