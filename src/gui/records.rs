//! Games in and out of the referee's record formats (PGN-like text and JSON lines), so that the
//! GUI and the referee read each other's files.

use crate::referee::outcome::{GameResult, Termination};
use crate::referee::record::{json, parse_records, pgn, today, GameRecord, RecordedMove};
use crate::{Game, Side};
use serde::Serialize;

/// Most games listed from one pasted or uploaded record text.
pub const MAX_GAMES: usize = 1000;

/// One game of a record file, as listed for choosing.
#[derive(Clone, Debug, Serialize)]
pub struct RecordSummary {
    /// Index in the file, from 0.
    pub index: usize,
    /// Game number tag.
    pub number: u64,
    /// The goats' engine.
    pub goat: String,
    /// The tigers' engine.
    pub tiger: String,
    /// Result token.
    pub result: String,
    /// Final comment.
    pub reason: String,
    /// Plies.
    pub plies: usize,
}

/// Reads record text (either format).
///
/// # Errors
/// The referee's parse error, or too many games.
pub fn read(text: &str) -> Result<Vec<GameRecord>, String> {
    let records = parse_records(text).map_err(|e| format!("cannot read the record: {e}"))?;
    if records.is_empty() {
        return Err("cannot read the record: no game in it".into());
    }
    if records.len() > MAX_GAMES {
        return Err(format!(
            "the record has {} games: at most {MAX_GAMES} are listed",
            records.len()
        ));
    }
    Ok(records)
}

/// The list of games in `records`.
pub fn summaries(records: &[GameRecord]) -> Vec<RecordSummary> {
    records
        .iter()
        .enumerate()
        .map(|(index, r)| RecordSummary {
            index,
            number: r.number,
            goat: r.goat.clone(),
            tiger: r.tiger.clone(),
            result: r.result.to_string(),
            reason: r.reason.clone(),
            plies: r.moves.len(),
        })
        .collect()
}

/// The game of a record, every move checked with the library's rules.
///
/// # Errors
/// The first illegal move, with its index.
pub fn game_of(record: &GameRecord) -> Result<Game, String> {
    let mut game = Game::new(record.start, record.rules);
    for (index, played) in record.moves.iter().enumerate() {
        game.play(played.mv)
            .map_err(|e| format!("record move {}: {e}", index + 1))?;
    }
    Ok(game)
}

/// How a game stands for export: finished (result, termination, reason) or not.
pub type Ending = Option<(GameResult, Termination, String)>;

/// The record of a GUI game. An unfinished game gets the `interrupt` termination and a
/// placeholder draw result, with a reason saying it is unfinished.
pub fn record_of(
    game: &Game,
    moves: &[RecordedMove],
    players: [&str; 2],
    time_controls: [String; 2],
    ending: &Ending,
) -> GameRecord {
    let (result, termination, reason) = ending.clone().unwrap_or((
        GameResult::Draw,
        Termination::Interrupt,
        "Unfinished game (exported while in progress)".to_string(),
    ));
    let [goat_time_control, tiger_time_control] = time_controls;
    GameRecord {
        event: "baghchal gui".to_string(),
        site: "baghchal gui".to_string(),
        date: today(),
        round: 1,
        number: 1,
        pair: 1,
        goat: players[Side::Goats.index()].to_string(),
        tiger: players[Side::Tigers.index()].to_string(),
        start: *game.start_position(),
        rules: *game.rules(),
        goat_time_control,
        tiger_time_control,
        moves: moves.to_vec(),
        result,
        termination,
        reason,
        time_forfeit: None,
    }
}

/// A record as text: `pgn` (PGN-like) or `json` (one JSON line).
///
/// # Errors
/// An unknown format name.
pub fn write(record: &GameRecord, format: &str) -> Result<String, String> {
    match format {
        "pgn" => Ok(pgn::write_game(record)),
        "json" => Ok(json::write_line(record) + "\n"),
        other => Err(format!(
            "unknown record format \"{other}\": expected pgn or json"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Rules;

    #[test]
    fn exported_games_read_back_in_both_formats() {
        let mut game = Game::startpos(Rules::default());
        let mut moves = Vec::new();
        for text in ["c3", "a1b2", "b3"] {
            let mv = text.parse().unwrap();
            game.play(mv).unwrap();
            moves.push(RecordedMove::book(mv));
        }
        let record = record_of(
            &game,
            &moves,
            ["You", "baghchal"],
            ["-".into(), "st=1".into()],
            &None,
        );
        for format in ["pgn", "json"] {
            let text = write(&record, format).unwrap();
            let back = read(&text).unwrap();
            assert_eq!(back[0].moves.len(), 3, "{format}");
            assert_eq!(game_of(&back[0]).unwrap().moves(), game.moves());
            assert_eq!(back[0].termination, Termination::Interrupt);
        }
        assert!(read("garbage").is_err());
    }
}
