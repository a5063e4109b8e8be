//! `-resume`: repairing a record file cut off mid-write and reading back the games already
//! played, checked against the schedule.

use super::cli::MatchArgs;
use super::openings::Opening;
use super::record::{read_records, GameRecord};
use super::schedule::ScheduledGame;
use std::fs::OpenOptions;
use std::path::Path;

/// Cuts a record file back to its last complete record (ending with `terminator`): a run
/// killed while writing may have left half a record, which resuming would otherwise extend.
pub fn drop_partial_tail(path: &str, terminator: &str) -> Result<(), String> {
    let Ok(text) = std::fs::read(path) else {
        return Ok(());
    };
    if text.is_empty() || text.ends_with(terminator.as_bytes()) {
        return Ok(());
    }
    let keep = text
        .windows(terminator.len())
        .rposition(|w| w == terminator.as_bytes())
        .map_or(0, |i| i + terminator.len());
    log::warn!(
        "{path}: dropping an incomplete last record ({} bytes)",
        text.len() - keep
    );
    let file = OpenOptions::new()
        .write(true)
        .open(path)
        .map_err(|e| format!("cannot repair \"{path}\": {e}"))?;
    file.set_len(keep as u64)
        .map_err(|e| format!("cannot repair \"{path}\": {e}"))
}

/// Games already recorded (for `--resume`): the records in `--jsonout`, else `--pgnout`
/// (none if the file does not exist yet).
///
/// # Errors
/// No record file named, or an unreadable file.
pub fn read_previous(
    args: &MatchArgs,
    pgn_path: &Option<String>,
) -> Result<Vec<GameRecord>, String> {
    let json_path = args.json_output()?.map(|output| output.file);
    let Some(path) = json_path.as_ref().or(pgn_path.as_ref()) else {
        return Err(
            "--resume needs --jsonout or --pgnout naming the records of the interrupted match"
                .into(),
        );
    };
    if !Path::new(path).exists() {
        return Ok(Vec::new());
    }
    read_records(path)
}

/// Checks the games already recorded against the schedule: each must be the game of its
/// number (same engines, sides, start and opening moves).
///
/// # Errors
/// A game that is not part of this schedule, naming the records file.
pub fn check_resumed(
    records: &[GameRecord],
    args: &MatchArgs,
    pgn_path: &Option<String>,
    games: &[ScheduledGame],
    names: &[String],
    openings: &[Opening],
) -> Result<(), String> {
    let json_path = args.json_output()?.map(|output| output.file);
    let path = json_path
        .as_ref()
        .or(pgn_path.as_ref())
        .map_or("", String::as_str);
    for record in records {
        let expected = usize::try_from(record.number)
            .ok()
            .and_then(|n| n.checked_sub(1))
            .and_then(|index| games.get(index));
        let book: Vec<crate::Move> = record
            .moves
            .iter()
            .take_while(|m| m.book)
            .map(|m| m.mv)
            .collect();
        let matches = expected.is_some_and(|g| {
            let opening = &openings[g.opening];
            names[g.goat] == record.goat
                && names[g.tiger] == record.tiger
                && opening.start == record.start
                && opening.moves == book
        });
        if !matches {
            return Err(format!(
                "records file \"{path}\": game {} ({} vs {}) is not part of this match's schedule; same engines, openings and seed are needed to resume",
                record.number, record.goat, record.tiger
            ));
        }
    }
    Ok(())
}
