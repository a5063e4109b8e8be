//! Final positions (`-epdout file=F`): one line per game, the position string of the game's
//! last position followed, EPD style, by `; opcode operand` fields:
//!
//! ```text
//! 2G2/GGTGG/G1G1G/GTGTG/GGGGG t 0 3; result "1-0"; termination "normal"; game 7
//! ```
//!
//! The position string is the one of `position fen` and of openings files; everything from the
//! first `;` on is the game's result, how it ended and its number.

use super::GameRecord;
use crate::referee::outcome::{GameResult, Termination};
use crate::Position;

/// The position a record ends in: its start with every recorded move played.
pub fn final_position(record: &GameRecord) -> Position {
    let mut position = record.start;
    for played in &record.moves {
        position.play_unchecked(played.mv);
    }
    position
}

/// One game's line (no trailing newline).
pub fn write_line(record: &GameRecord) -> String {
    format!(
        "{}; result \"{}\"; termination \"{}\"; game {}",
        final_position(record),
        record.result,
        record.termination,
        record.number
    )
}

/// What a final-position line holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FinalPosition {
    /// The last position.
    pub position: Position,
    /// The game's result.
    pub result: GameResult,
    /// How it ended.
    pub termination: Termination,
    /// The game number.
    pub game: u64,
}

/// Reads one line written by [`write_line`].
///
/// # Errors
/// What is wrong with it.
pub fn parse_line(line: &str) -> Result<FinalPosition, String> {
    let mut fields = line.split(';').map(str::trim);
    let position: Position = fields
        .next()
        .unwrap_or("")
        .parse()
        .map_err(|e| format!("{e}"))?;
    let (mut result, mut termination, mut game) = (None, None, None);
    for field in fields {
        let (opcode, operand) = field
            .split_once(' ')
            .ok_or_else(|| format!("invalid field \"{field}\""))?;
        let unquoted = operand.trim().trim_matches('"');
        match opcode {
            "result" => result = GameResult::parse(unquoted),
            "termination" => termination = Termination::parse(unquoted),
            "game" => game = unquoted.parse().ok(),
            _ => return Err(format!("unknown field \"{opcode}\"")),
        }
    }
    Ok(FinalPosition {
        position,
        result: result.ok_or("missing or invalid result")?,
        termination: termination.ok_or("missing or invalid termination")?,
        game: game.ok_or("missing or invalid game")?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::referee::record::tests::sample;
    use crate::{Game, Rules};

    #[test]
    fn final_positions_round_trip() {
        let record = sample();
        let line = write_line(&record);
        // Replaying the moves on the rules core gives the same position.
        let mut game = Game::new(record.start, Rules::default());
        for played in &record.moves {
            game.play(played.mv).unwrap();
        }
        assert!(
            line.starts_with(&format!("{}; ", game.position())),
            "{line}"
        );
        assert!(line.ends_with("; result \"0-1\"; termination \"illegal move\"; game 7"));
        let back = parse_line(&line).unwrap();
        assert_eq!(
            back,
            FinalPosition {
                position: *game.position(),
                result: GameResult::TigersWin,
                termination: Termination::IllegalMove,
                game: 7,
            }
        );
        assert!(
            parse_line("T3T/5/5/5/T3T g 20 0; result \"2-0\"; termination \"normal\"; game 1")
                .unwrap_err()
                .contains("result")
        );
        assert!(parse_line("T3T/5/5/5/T3T g 20 0; colour \"red\"")
            .unwrap_err()
            .contains("\"colour\""));
    }
}
