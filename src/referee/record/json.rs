//! One JSON object per line and game, for scripts (schema in docs/referee.md):
//!
//! ```text
//! {"game":1,"pair":1,"round":1,"goat":"A","tiger":"B","result":"1-0","termination":"normal",
//!  "reason":"Goats win: tigers blocked","plies":41,"start":"T3T/5/5/5/T3T g 20 0",
//!  "rules":"ForcedCapture=false CapturesToWin=5 Repetition=forbid","goat_tc":"10+0.1",
//!  "tiger_tc":"10+0.1","book_plies":2,"moves":["c3","a1b2",...],"time_ms":[null,null,12,...],
//!  "allowed_ms":[null,null,10000,...],"event":"...","site":"?","date":"2026.11.29"}
//! ```
//! (one line per game; `"time_forfeit":{"time_ms":..,"allowed_ms":..}` after `allowed_ms` for a
//! time forfeit). Per-move scores and depths are in the PGN-like record only. Records written
//! before `time_ms` and `allowed_ms` existed still read.

use super::{GameRecord, RecordedMove, TimeUse};
use crate::referee::outcome::{GameResult, Termination};
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize)]
struct JsonRecord {
    game: u64,
    pair: u64,
    round: u32,
    goat: String,
    tiger: String,
    result: GameResult,
    termination: Termination,
    reason: String,
    plies: usize,
    start: String,
    rules: String,
    goat_tc: String,
    tiger_tc: String,
    book_plies: usize,
    moves: Vec<String>,
    #[serde(default)]
    time_ms: Vec<Option<u64>>,
    #[serde(default)]
    allowed_ms: Vec<Option<u64>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    time_forfeit: Option<JsonTimeUse>,
    event: String,
    site: String,
    date: String,
}

#[derive(Serialize, Deserialize)]
struct JsonTimeUse {
    time_ms: u64,
    allowed_ms: u64,
}

/// One game as a JSON line (no trailing newline).
pub fn write_line(record: &GameRecord) -> String {
    let json = JsonRecord {
        game: record.number,
        pair: record.pair,
        round: record.round,
        goat: record.goat.clone(),
        tiger: record.tiger.clone(),
        result: record.result,
        termination: record.termination,
        reason: record.reason.clone(),
        plies: record.moves.len(),
        start: record.start.to_string(),
        rules: record.rules.to_string(),
        goat_tc: record.goat_time_control.clone(),
        tiger_tc: record.tiger_time_control.clone(),
        book_plies: record.moves.iter().take_while(|m| m.book).count(),
        moves: record.moves.iter().map(|m| m.mv.to_string()).collect(),
        time_ms: record.moves.iter().map(|m| m.time_ms).collect(),
        allowed_ms: record.moves.iter().map(|m| m.allowed_ms).collect(),
        time_forfeit: record.time_forfeit.map(|t| JsonTimeUse {
            time_ms: t.time_ms,
            allowed_ms: t.allowed_ms,
        }),
        event: record.event.clone(),
        site: record.site.clone(),
        date: record.date.clone(),
    };
    serde_json::to_string(&json).expect("records serialize")
}

/// Reads one JSON line (without its newline).
///
/// # Errors
/// What is wrong with the line.
pub fn parse_line(line: &str) -> Result<GameRecord, String> {
    let json: JsonRecord = serde_json::from_str(line).map_err(|e| e.to_string())?;
    let moves = json
        .moves
        .iter()
        .enumerate()
        .map(|(index, text)| {
            let mv = text.parse().map_err(|e| format!("{e}"))?;
            Ok(if index < json.book_plies {
                RecordedMove::book(mv)
            } else {
                RecordedMove {
                    mv,
                    book: false,
                    score: None,
                    depth: None,
                    time_ms: json.time_ms.get(index).copied().flatten(),
                    allowed_ms: json.allowed_ms.get(index).copied().flatten(),
                }
            })
        })
        .collect::<Result<Vec<_>, String>>()?;
    Ok(GameRecord {
        event: json.event,
        site: json.site,
        date: json.date,
        round: json.round,
        number: json.game,
        pair: json.pair,
        goat: json.goat,
        tiger: json.tiger,
        start: json.start.parse().map_err(|e| format!("{e}"))?,
        rules: json.rules.parse().map_err(|e| format!("{e}"))?,
        goat_time_control: json.goat_tc,
        tiger_time_control: json.tiger_tc,
        moves,
        result: json.result,
        termination: json.termination,
        reason: json.reason,
        time_forfeit: json.time_forfeit.map(|t| TimeUse {
            time_ms: t.time_ms,
            allowed_ms: t.allowed_ms,
        }),
    })
}

/// Reads JSON lines (blank lines skipped). A last line cut short (a crash while writing) is
/// an error like any other, naming the line.
///
/// # Errors
/// `line N: ...`.
pub fn parse_lines(text: &str) -> Result<Vec<GameRecord>, String> {
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty())
        .map(|(index, line)| parse_line(line).map_err(|e| format!("line {}: {e}", index + 1)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::referee::record::tests::sample;

    #[test]
    fn lines_round_trip_results_and_moves() {
        let record = sample();
        let line = write_line(&record);
        assert!(
            line.starts_with("{\"game\":7,\"pair\":4,\"round\":2,"),
            "{line}"
        );
        assert!(
            line.contains("\"result\":\"0-1\",\"termination\":\"illegal move\""),
            "{line}"
        );
        assert!(
            line.contains("\"time_ms\":[null,null,12,1500,0],\"allowed_ms\":[null,null,null,null,null],\"event\""),
            "{line}"
        );
        let back = parse_lines(&format!("{line}\n\n{line}\n")).unwrap();
        assert_eq!(back.len(), 2);
        let mut expected = record.clone();
        for played in &mut expected.moves[2..] {
            played.score = None;
            played.depth = None;
        }
        assert_eq!(back[0], expected);
        // Allowances and a time forfeit round-trip.
        let mut timed = record;
        timed.moves[4].allowed_ms = Some(100);
        timed.termination = Termination::TimeForfeit;
        timed.time_forfeit = Some(TimeUse {
            time_ms: 152,
            allowed_ms: 90,
        });
        let line = write_line(&timed);
        assert!(
            line.contains("\"allowed_ms\":[null,null,null,null,100],\"time_forfeit\":{\"time_ms\":152,\"allowed_ms\":90},\"event\""),
            "{line}"
        );
        let back = parse_lines(&line).unwrap();
        assert_eq!(back[0].moves[4].allowed_ms, Some(100));
        assert_eq!(back[0].time_forfeit, timed.time_forfeit);
        // Records from before the time fields read as before.
        let old = line
            .replace(",\"time_forfeit\":{\"time_ms\":152,\"allowed_ms\":90}", "")
            .replace("\"time_ms\":[null,null,12,1500,0],", "")
            .replace("\"allowed_ms\":[null,null,null,null,100],", "");
        let back = parse_lines(&old).unwrap();
        assert!(back[0].moves.iter().all(|m| m.time_ms.is_none()));
        assert_eq!(back[0].time_forfeit, None);
        let error = parse_lines(&format!("{line}\n{}", &line[..20])).unwrap_err();
        assert!(error.starts_with("line 2:"), "{error}");
    }
}
