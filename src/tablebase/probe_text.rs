//! The text of `tb probe`: one position's answer as three lines, or, in batch mode
//! (`tb probe DIR -`), one tab-separated line per input line (format in docs/tablebase.md).

use super::forbid::probe::forbid_value;
use super::forbid::tables::ForbidTables;
use super::forbid::ForbidValue;
use super::{output_error, Tablebase, TbValue, Wdl};
use crate::{Move, Position, Side};
use std::io::{BufRead, Write};

/// A position's value and the moves that keep it (best first, with the value each leaves).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProbeAnswer {
    /// The value for the side to move.
    pub value: TbValue,
    /// The value-preserving moves, best first.
    pub moves: Vec<(Move, TbValue)>,
}

/// Probes `position`.
///
/// # Errors
/// A message when the position is not covered by the tables.
pub fn answer(tables: &Tablebase, position: &Position) -> Result<ProbeAnswer, String> {
    let value = tables.probe(position).ok_or_else(|| {
        format!(
            "position not covered: {} goats in hand, {} captured (no valid placement layer for \
             it; generate it with `tb gen --placement`)",
            position.goats_in_hand(),
            position.goats_captured()
        )
    })?;
    Ok(ProbeAnswer {
        value,
        moves: tables.best_moves_with_values(position),
    })
}

impl ProbeAnswer {
    /// The distance field: plies to the end, or `none` (draws, placement positions).
    fn distance(&self) -> String {
        self.value
            .plies_to_end
            .map_or("none".to_string(), |plies| plies.to_string())
    }

    /// The moves, space-separated, each with the distance it leaves when there is one.
    fn moves(&self) -> String {
        let moves: Vec<String> = self
            .moves
            .iter()
            .map(|(mv, after)| match (after.wdl, after.plies_to_end) {
                (Wdl::Draw, _) | (_, None) => mv.to_string(),
                (_, Some(plies)) => format!("{mv}({plies})"),
            })
            .collect();
        moves.join(" ")
    }

    /// The three lines of a single probe: `value: ...`, `distance: ...`, `moves: ...`.
    pub fn to_lines(&self) -> String {
        format!(
            "value: {}\ndistance: {}\nmoves: {}\n",
            self.value.wdl,
            self.distance(),
            self.moves()
        )
    }

    /// The batch line of `position`: position, value, distance, moves and the value under
    /// forbid ([`forbid_words`], `none` without one), separated by tabs.
    pub fn to_batch_line(&self, position: &Position, forbid: Option<ForbidValue>) -> String {
        let side = position.side_to_move();
        format!(
            "{position}\t{}\t{}\t{}\t{}",
            self.value.wdl,
            self.distance(),
            self.moves(),
            forbid.map_or("none".to_string(), |value| forbid_words(side, value))
        )
    }
}

/// A value under forbid in words, as `tb probe` prints it: `goats win`, `tigers win` or
/// `unknown` (`side` is the side to move, whom `value` is for).
pub fn forbid_words(side: Side, value: ForbidValue) -> String {
    match value {
        ForbidValue::Win => format!("{side} win"),
        ForbidValue::Loss => format!("{} win", side.opposite()),
        ForbidValue::Unknown => "unknown".to_string(),
    }
}

/// The batch line answering one input line: the answer, or the input, `error` and why.
fn batch_line(
    tables: &Tablebase,
    forbid: Option<&ForbidTables>,
    line: &str,
) -> Result<String, String> {
    let text = line.trim();
    let error = |message: String| format!("{}\terror\t{message}", text.replace('\t', " "));
    let position: Position = text.parse().map_err(|e| error(format!("{e}")))?;
    let answer = answer(tables, &position).map_err(error)?;
    let forbid = forbid.and_then(|forbid| forbid_value(tables, forbid, &position));
    Ok(answer.to_batch_line(&position, forbid))
}

/// How a batch went: lines answered, and lines that were errors.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BatchSummary {
    /// Positions answered.
    pub answered: u64,
    /// Lines answered with an error line.
    pub errors: u64,
}

/// Answers every line of `input` (a position each; blank lines are skipped) with one line on
/// `out`, flushed at once, until the input ends, with the values under forbid of `forbid` (the
/// forbid files of `tables`, when there are any). A bad line gets an error line and the loop
/// goes on.
///
/// # Errors
/// Reading the input or writing the output failed.
pub fn probe_batch(
    tables: &Tablebase,
    forbid: Option<&ForbidTables>,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> Result<BatchSummary, String> {
    let mut summary = BatchSummary::default();
    let mut bytes = Vec::new();
    loop {
        bytes.clear();
        let read = input
            .read_until(b'\n', &mut bytes)
            .map_err(|e| format!("cannot read the input: {e}"))?;
        if read == 0 {
            return Ok(summary);
        }
        let line = String::from_utf8_lossy(&bytes);
        if line.trim().is_empty() {
            continue;
        }
        let text = match batch_line(tables, forbid, &line) {
            Ok(text) => {
                summary.answered += 1;
                text
            }
            Err(text) => {
                summary.errors += 1;
                text
            }
        };
        writeln!(out, "{text}")
            .and_then(|()| out.flush())
            .map_err(output_error)?;
    }
}
