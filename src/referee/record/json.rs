//! One JSON object per line and game, for scripts (schema in docs/referee.md):
//!
//! ```text
//! {"game":1,"pair":1,"round":1,"goat":"A","tiger":"B","result":"1-0","termination":"normal",
//!  "reason":"Goats win: tigers blocked","plies":41,"start":"T3T/5/5/5/T3T g 20 0",
//!  "rules":"ForcedCapture=false CapturesToWin=5 Repetition=forbid","goat_tc":"10+0.1",
//!  "tiger_tc":"10+0.1","book_plies":2,"moves":["c3","a1b2",...],"event":"...","site":"?",
//!  "date":"2026.11.29"}
//! ```
//! (one line per game). Per-move scores and times are in the PGN-like record only.

use super::{GameRecord, RecordedMove};
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
    event: String,
    site: String,
    date: String,
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
        event: record.event.clone(),
        site: record.site.clone(),
        date: record.date.clone(),
    };
    serde_json::to_string(&json).expect("records serialize")
}

fn parse_line(line: &str) -> Result<GameRecord, String> {
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
                    time_ms: None,
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
        let back = parse_lines(&format!("{line}\n\n{line}\n")).unwrap();
        assert_eq!(back.len(), 2);
        let mut expected = record;
        for played in &mut expected.moves[2..] {
            *played = RecordedMove {
                mv: played.mv,
                book: false,
                score: None,
                depth: None,
                time_ms: None,
            };
        }
        assert_eq!(back[0], expected);
        let error = parse_lines(&format!("{line}\n{}", &line[..20])).unwrap_err();
        assert!(error.starts_with("line 2:"), "{error}");
    }
}
