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

use super::keys::RecordKeys;
use super::{GameRecord, MoveDetails, RecordedMove, TimeUse};
use crate::referee::outcome::{GameResult, Termination};
use crate::referee::search_info::SearchFigures;
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
    #[serde(default, skip_serializing_if = "Option::is_none")]
    reason: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    plies: Option<usize>,
    start: String,
    rules: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    goat_tc: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    tiger_tc: Option<String>,
    book_plies: usize,
    moves: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    time_ms: Vec<Option<u64>>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    allowed_ms: Vec<Option<u64>>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    nodes: Vec<Option<u64>>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    seldepth: Vec<Option<u32>>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    nps: Vec<Option<u64>>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    hashfull: Vec<Option<u32>>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    tbhits: Vec<Option<u64>>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pv: Vec<Option<String>>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    time_left_ms: Vec<Option<u64>>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    latency_ms: Vec<Option<i64>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    time_forfeit: Option<JsonTimeUse>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    event: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    site: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    date: Option<String>,
}

#[derive(Serialize, Deserialize)]
struct JsonTimeUse {
    time_ms: u64,
    allowed_ms: u64,
}

/// One game as a JSON line (no trailing newline), without the optional per-move keys.
pub fn write_line(record: &GameRecord) -> String {
    write_line_with(record, &RecordKeys::default())
}

/// One game as a JSON line with the per-move keys `keys` asks for (one array each, a `null`
/// for a move without the figure); a minimal record keeps only the game's identity, start,
/// rules, moves, result and termination.
pub fn write_line_with(record: &GameRecord, keys: &RecordKeys) -> String {
    let full = !keys.min;
    let moves = &record.moves;
    let column = |wanted: bool, value: &dyn Fn(&RecordedMove) -> bool| {
        wanted && full && moves.iter().any(value)
    };
    fn each<T>(
        moves: &[RecordedMove],
        wanted: bool,
        get: impl Fn(&RecordedMove) -> Option<T>,
    ) -> Vec<Option<T>> {
        if wanted {
            moves.iter().map(get).collect()
        } else {
            Vec::new()
        }
    }
    let json = JsonRecord {
        game: record.number,
        pair: record.pair,
        round: record.round,
        goat: record.goat.clone(),
        tiger: record.tiger.clone(),
        result: record.result,
        termination: record.termination,
        reason: full.then(|| record.reason.clone()),
        plies: full.then_some(moves.len()),
        start: record.start.to_string(),
        rules: record.rules.to_string(),
        goat_tc: full.then(|| record.goat_time_control.clone()),
        tiger_tc: full.then(|| record.tiger_time_control.clone()),
        book_plies: moves.iter().take_while(|m| m.book).count(),
        moves: moves.iter().map(|m| m.mv.to_string()).collect(),
        time_ms: each(moves, full, |m| m.time_ms),
        allowed_ms: each(moves, full, |m| m.allowed_ms),
        nodes: each(
            moves,
            column(keys.nodes, &|m| m.details.figures.nodes.is_some()),
            |m| m.details.figures.nodes,
        ),
        seldepth: each(
            moves,
            column(keys.seldepth, &|m| m.details.figures.seldepth.is_some()),
            |m| m.details.figures.seldepth,
        ),
        nps: each(
            moves,
            column(keys.nps, &|m| m.details.figures.nps.is_some()),
            |m| m.details.figures.nps,
        ),
        hashfull: each(
            moves,
            column(keys.hashfull, &|m| m.details.figures.hashfull.is_some()),
            |m| m.details.figures.hashfull,
        ),
        tbhits: each(
            moves,
            column(keys.tbhits, &|m| m.details.figures.tbhits.is_some()),
            |m| m.details.figures.tbhits,
        ),
        pv: each(
            moves,
            column(keys.pv, &|m| m.details.figures.pv.is_some()),
            |m| m.details.figures.pv.clone(),
        ),
        time_left_ms: each(
            moves,
            column(keys.timeleft, &|m| m.details.time_left_ms.is_some()),
            |m| m.details.time_left_ms,
        ),
        latency_ms: each(
            moves,
            column(keys.latency, &|m| m.details.latency_ms.is_some()),
            |m| m.details.latency_ms,
        ),
        time_forfeit: record.time_forfeit.filter(|_| full).map(|t| JsonTimeUse {
            time_ms: t.time_ms,
            allowed_ms: t.allowed_ms,
        }),
        event: full.then(|| record.event.clone()),
        site: full.then(|| record.site.clone()),
        date: full.then(|| record.date.clone()),
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
                fn at<T: Clone>(column: &[Option<T>], index: usize) -> Option<T> {
                    column.get(index).cloned().flatten()
                }
                RecordedMove {
                    mv,
                    book: false,
                    score: None,
                    depth: None,
                    time_ms: at(&json.time_ms, index),
                    allowed_ms: at(&json.allowed_ms, index),
                    details: MoveDetails {
                        figures: SearchFigures {
                            nodes: at(&json.nodes, index),
                            seldepth: at(&json.seldepth, index),
                            nps: at(&json.nps, index),
                            hashfull: at(&json.hashfull, index),
                            tbhits: at(&json.tbhits, index),
                            pv: at(&json.pv, index),
                        },
                        time_left_ms: at(&json.time_left_ms, index),
                        latency_ms: at(&json.latency_ms, index),
                    },
                }
            })
        })
        .collect::<Result<Vec<_>, String>>()?;
    let unknown = || "?".to_string();
    Ok(GameRecord {
        event: json.event.unwrap_or_else(unknown),
        site: json.site.unwrap_or_else(unknown),
        date: json.date.unwrap_or_else(unknown),
        round: json.round,
        number: json.game,
        pair: json.pair,
        goat: json.goat,
        tiger: json.tiger,
        start: json.start.parse().map_err(|e| format!("{e}"))?,
        rules: json.rules.parse().map_err(|e| format!("{e}"))?,
        goat_time_control: json.goat_tc.unwrap_or_else(unknown),
        tiger_time_control: json.tiger_tc.unwrap_or_else(unknown),
        moves,
        result: json.result,
        termination: json.termination,
        reason: json.reason.unwrap_or_default(),
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
        let mut plain = expected.clone();
        for played in &mut plain.moves {
            played.details = MoveDetails::default();
        }
        assert_eq!(back[0], plain);
        // Every key round-trips (scores and depths are in the PGN-like records only).
        let keyed = write_line_with(&record, &RecordKeys::all());
        assert!(
            keyed.contains(
                "\"nodes\":[null,null,1234,5,null],\"seldepth\":[null,null,9,null,null],"
            ),
            "{keyed}"
        );
        assert!(
            keyed.contains("\"pv\":[null,null,\"b3 e1d2 d3\",null,null],"),
            "{keyed}"
        );
        assert!(
            keyed.contains("\"latency_ms\":[null,null,-2,14,null]"),
            "{keyed}"
        );
        assert_eq!(parse_lines(&keyed).unwrap()[0], expected);
        // A minimal line: identity, start, rules, moves, result, termination.
        let min = write_line_with(
            &record,
            &RecordKeys {
                min: true,
                ..RecordKeys::all()
            },
        );
        assert_eq!(
            min,
            "{\"game\":7,\"pair\":4,\"round\":2,\"goat\":\"A\",\"tiger\":\"B b\",\"result\":\"0-1\",\"termination\":\"illegal move\",\"start\":\"T3T/5/5/5/T3T g 20 0\",\"rules\":\"ForcedCapture=false CapturesToWin=5 Repetition=forbid\",\"book_plies\":2,\"moves\":[\"c3\",\"a1b2\",\"b3\",\"e1d2\",\"d3\"]}"
        );
        let back_min = &parse_lines(&min).unwrap()[0];
        assert_eq!(back_min.moves.len(), 5);
        assert_eq!(back_min.moves.iter().filter(|m| m.book).count(), 2);
        assert_eq!(
            (back_min.event.as_str(), back_min.reason.as_str()),
            ("?", "")
        );
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
