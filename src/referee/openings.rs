//! Openings: where games start. A file holds one opening per line:
//!
//! - `moves c3 a1b2 ...`: moves from the start position;
//! - `<position string> [moves ...]`: a position (`T3T/5/5/5/T3T g 20 0`), optionally followed by
//!   moves from it;
//! - `startpos [moves ...]`;
//! - blank lines and lines starting with `#` are ignored.
//!
//! Every opening is checked against the match rules when the file is read ([`super::books`]
//! reads the files, in this format or as game records).

use crate::{Game, Move, Position, Rules};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use std::fmt;

/// A start position and the moves played from it before the engines take over.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// The position the game is set up from.
    pub start: Position,
    /// Moves played from it (recorded with a `{book}` comment).
    pub moves: Vec<Move>,
}

impl Opening {
    /// The plain start position.
    pub fn startpos() -> Opening {
        Opening {
            start: Position::startpos(),
            moves: Vec::new(),
        }
    }

    /// The game after the opening moves, or why they cannot be played (or leave nothing to play).
    ///
    /// # Errors
    /// A message naming the illegal move, or saying the game is already over.
    pub fn game(&self, rules: Rules) -> Result<Game, String> {
        let mut game = Game::new(self.start, rules);
        for (index, &mv) in self.moves.iter().enumerate() {
            game.play(mv)
                .map_err(|e| format!("ply {} \"{mv}\": {e}", index + 1))?;
        }
        match game.outcome() {
            Some(outcome) => Err(format!("the game is already over ({outcome})")),
            None => Ok(game),
        }
    }
}

impl fmt::Display for Opening {
    /// The line format of openings files.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.start != Position::startpos() {
            write!(f, "{}", self.start)?;
            if !self.moves.is_empty() {
                f.write_str(" ")?;
            }
        }
        if !self.moves.is_empty() || self.start == Position::startpos() {
            f.write_str("moves")?;
        }
        for mv in &self.moves {
            write!(f, " {mv}")?;
        }
        Ok(())
    }
}

/// Reads one opening line (see the module docs) and checks it under `rules`.
///
/// # Errors
/// A message quoting the bad token.
pub fn parse_opening(line: &str, rules: Rules) -> Result<Opening, String> {
    let opening = read_opening_line(line)?;
    opening.game(rules)?;
    Ok(opening)
}

/// Reads one opening line without playing its moves.
///
/// # Errors
/// A message quoting the bad token.
pub fn read_opening_line(line: &str) -> Result<Opening, String> {
    let line = line.trim();
    let (head, moves_text) = match line.find("moves") {
        Some(index) => (line[..index].trim(), Some(&line[index + "moves".len()..])),
        None => (line, None),
    };
    let start = match head {
        "" | "startpos" => Position::startpos(),
        text => text.parse().map_err(|e| format!("{e}"))?,
    };
    let moves = moves_text
        .unwrap_or("")
        .split_whitespace()
        .map(|token| token.parse::<Move>().map_err(|e| format!("{e}")))
        .collect::<Result<Vec<Move>, String>>()?;
    Ok(Opening { start, moves })
}

/// In which order openings are used.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Order {
    /// File order, from the start offset, wrapping around.
    Sequential,
    /// Shuffled with the match seed (reshuffled each time the list is used up).
    Random,
}

/// The opening index for each of `count` game pairs: a pure function of the order, the start
/// offset (0-based), the number of openings and the seed.
pub fn opening_sequence(
    order: Order,
    start: usize,
    openings: usize,
    count: usize,
    seed: u64,
) -> Vec<usize> {
    match order {
        Order::Sequential => (0..count).map(|i| (start + i) % openings).collect(),
        Order::Random => {
            let mut rng = StdRng::seed_from_u64(seed ^ 0x6f70_656e_696e_6773);
            let mut sequence = Vec::with_capacity(count + start);
            while sequence.len() < count + start {
                let mut round: Vec<usize> = (0..openings).collect();
                round.shuffle(&mut rng);
                sequence.extend(round);
            }
            sequence.drain(..start);
            sequence.truncate(count);
            sequence
        }
    }
}

/// Varied, playable starts used when the referee runs with no openings file and no engine
/// given (the built-in demonstration match).
pub const BUILTIN_OPENINGS: &[&str] = &[
    "moves c3 a1b2",
    "moves b3 e5d4",
    "moves c2 a5b5",
    "moves a3 e1e2 c1 e2e3",
    "moves e3 a5b4 c4 b4a3",
    "moves c5 e1d2 b1 a1a2",
    "moves d3 a1a2 b4",
    "moves b2 e5e4 d4 a5b5",
];

/// The built-in openings, parsed.
pub fn builtin_openings(rules: Rules) -> Vec<Opening> {
    BUILTIN_OPENINGS
        .iter()
        .filter_map(|line| parse_opening(line, rules).ok())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::referee::books::{parse_book, BookFormat};

    #[test]
    fn builtin_openings_are_all_legal() {
        for line in BUILTIN_OPENINGS {
            parse_opening(line, Rules::default()).unwrap_or_else(|e| panic!("{line}: {e}"));
        }
        assert_eq!(
            builtin_openings(Rules::default()).len(),
            BUILTIN_OPENINGS.len()
        );
    }

    #[test]
    fn reads_all_line_forms_and_round_trips() {
        let text = "# comment\n\nmoves c3 a1b2\nstartpos\nT3T/5/2G2/5/T3T t 19 0 moves a1b2\nstartpos moves b3\n";
        let openings = parse_book(text, BookFormat::Epd, None, Rules::default()).unwrap();
        assert_eq!(openings.len(), 4);
        assert_eq!(openings[1], Opening::startpos());
        assert_eq!(openings[2].moves.len(), 1);
        for opening in &openings {
            assert_eq!(
                &parse_opening(&opening.to_string(), Rules::default()).unwrap(),
                opening
            );
        }
    }

    #[test]
    fn bad_lines_are_reported_with_line_numbers() {
        for (text, needle) in [
            ("moves c3\nmoves c3 c3\n", "line 2"),
            ("moves zz\n", "\"zz\""),
            ("X3T/5/5/5/T3T g 20 0\n", "line 1"),
            ("# only comments\n", "no opening"),
        ] {
            let error = parse_book(text, BookFormat::Epd, None, Rules::default()).unwrap_err();
            assert!(error.contains(needle), "{text:?}: {error}");
        }
    }

    #[test]
    fn sequences_are_deterministic_and_cover_the_openings() {
        assert_eq!(
            opening_sequence(Order::Sequential, 2, 3, 5, 1),
            vec![2, 0, 1, 2, 0]
        );
        let random = opening_sequence(Order::Random, 0, 4, 8, 7);
        assert_eq!(random, opening_sequence(Order::Random, 0, 4, 8, 7));
        let mut first: Vec<usize> = random[..4].to_vec();
        first.sort_unstable();
        assert_eq!(first, vec![0, 1, 2, 3]);
        assert_eq!(
            &opening_sequence(Order::Random, 3, 4, 5, 7)[..],
            &random[3..8]
        );
        // A longer sequence starts with the shorter one (the schedule grows it on demand).
        assert_eq!(
            opening_sequence(Order::Random, 1, 4, 5, 7),
            opening_sequence(Order::Random, 1, 4, 11, 7)[..5]
        );
    }
}
