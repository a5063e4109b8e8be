//! The end marker of a shard: a sharded run with `--jsonout FILE` writes `FILE.done` when it
//! ends, however it ends (all its games played, an engine fault, Ctrl-C or SIGTERM, an error
//! before the start). `referee merge --watch` takes a shard with a marker as finished and
//! reads its records to the end, including a last line without its newline. A run removes a
//! marker left by an earlier run when it starts (e.g. under `--resume`).
//!
//! The marker is one JSON object, written to a temporary file and renamed, so a reader never
//! sees half of it:
//!
//! ```text
//! {"shard":"1/4","end":"complete","scheduled":50,"recorded":50,"match_games":200}
//! ```
//! `end` is `complete`, `fault`, `interrupted` or `error` (then `message` says why);
//! `scheduled` counts this shard's games, `recorded` the games in its record file,
//! `match_games` the whole match's games (all 0 after an error before the schedule was made).

use serde::{Deserialize, Serialize};
use std::fmt;

/// How a shard's run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum End {
    /// Every game of the shard is recorded.
    Complete,
    /// An engine fault stopped the run (no `--recover`).
    Fault,
    /// Ctrl-C or SIGTERM (e.g. `scancel`).
    Interrupted,
    /// An error: a bad command line or file, or records that could not be written.
    Error,
}

impl fmt::Display for End {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            End::Complete => "complete",
            End::Fault => "fault",
            End::Interrupted => "interrupted",
            End::Error => "error",
        })
    }
}

/// The contents of a shard's end marker.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShardEnd {
    /// `I/N`.
    pub shard: String,
    /// How the run ended.
    pub end: End,
    /// Games of this shard in the schedule.
    pub scheduled: u64,
    /// Games in the shard's record file when it ended (resumed games included).
    pub recorded: u64,
    /// Games of the whole match.
    pub match_games: u64,
    /// What went wrong, for `fault` and `error`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
}

/// The marker of the shard whose records are at `records`.
pub fn marker_path(records: &str) -> String {
    format!("{records}.done")
}

/// Removes a marker left by an earlier run (none is fine).
///
/// # Errors
/// A marker that exists but cannot be removed.
pub fn clear(records: &str) -> Result<(), String> {
    let path = marker_path(records);
    match std::fs::remove_file(&path) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(format!("cannot remove the old end marker \"{path}\": {e}")),
    }
}

/// Writes the marker (temporary file, then rename).
///
/// # Errors
/// The file cannot be written.
pub fn write(records: &str, end: &ShardEnd) -> Result<(), String> {
    let path = marker_path(records);
    let temporary = format!("{path}.tmp");
    let text = serde_json::to_string(end).expect("markers serialize") + "\n";
    std::fs::write(&temporary, text)
        .and_then(|()| std::fs::rename(&temporary, &path))
        .map_err(|e| format!("cannot write the end marker \"{path}\": {e}"))
}

/// Reads the marker of the shard whose records are at `records`: `Ok(None)` while there is
/// none (the shard is still running, or has not started).
///
/// # Errors
/// A marker that cannot be read or is not a marker.
pub fn read(records: &str) -> Result<Option<ShardEnd>, String> {
    let path = marker_path(records);
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(format!("cannot read the end marker \"{path}\": {e}")),
    };
    serde_json::from_str(text.trim())
        .map(Some)
        .map_err(|e| format!("end marker \"{path}\" is not valid: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markers_round_trip_and_bad_ones_are_reported() {
        let dir = std::env::temp_dir().join(format!("shard-end-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let records = dir.join("shard-1.jsonl");
        let records = records.to_str().unwrap();
        clear(records).unwrap();
        assert_eq!(read(records).unwrap(), None);
        let end = ShardEnd {
            shard: "1/4".into(),
            end: End::Fault,
            scheduled: 50,
            recorded: 12,
            match_games: 200,
            message: Some("engine \"A\" crashed".into()),
        };
        write(records, &end).unwrap();
        let text = std::fs::read_to_string(marker_path(records)).unwrap();
        assert!(
            text.starts_with("{\"shard\":\"1/4\",\"end\":\"fault\",\"scheduled\":50,"),
            "{text}"
        );
        assert_eq!(read(records).unwrap(), Some(end));
        std::fs::write(marker_path(records), "{\"shard\":").unwrap();
        assert!(read(records).unwrap_err().contains("is not valid"));
        clear(records).unwrap();
        assert_eq!(read(records).unwrap(), None);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
