//! Labelled positions: one tab-separated line per position, written by `eval_data` and read by
//! the tuner and by `move_quality`.
//!
//! `position  value  plies  critical  source`
//!
//! - value: `W`, `D` or `L` for the side to move;
//! - plies: plies to the end with best play (`-` for draws and placement positions);
//! - critical: `1` when the side to move wins or draws and some legal move throws that away;
//! - source: `game` (reached in a game), `near` (one move from such a position) or `walk`
//!   (met on a short walk from one, written by `eval_focus`).

use std::fmt;
use std::fs::File;
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::str::FromStr;

use crate::tablebase::{TableRules, Tablebase, TbValue, Wdl};
use crate::{Position, Repetition, Rules};

/// The tables of `rules` in `dir`, once every placement layer's checksum is checked (they
/// answer only then).
///
/// # Errors
/// A message when the tables cannot be opened or a layer is corrupt.
pub fn open_checked(dir: &Path, rules: &Rules) -> Result<Tablebase, String> {
    let tables = Tablebase::open(dir, TableRules::of(rules)).map_err(|e| e.to_string())?;
    if let Some(placement) = tables.placement() {
        let corrupt = placement.wait_checked();
        if !corrupt.is_empty() {
            return Err(format!("corrupt tables: {corrupt:?}"));
        }
    }
    Ok(tables)
}

/// Calls `visit` with every labelled position of the file `path`, in order, until it returns
/// `false`.
///
/// # Errors
/// A message naming the file (and the line) when it cannot be read or a line does not parse.
pub fn read_labelled(path: &Path, mut visit: impl FnMut(Labelled) -> bool) -> Result<(), String> {
    let file = File::open(path).map_err(|e| format!("cannot open {}: {e}", path.display()))?;
    for (number, line) in BufReader::new(file).lines().enumerate() {
        let line = line.map_err(|e| format!("reading {}: {e}", path.display()))?;
        let labelled: Labelled = line
            .parse()
            .map_err(|e| format!("{} line {}: {e}", path.display(), number + 1))?;
        if !visit(labelled) {
            break;
        }
    }
    Ok(())
}

/// Where a labelled position comes from.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Source {
    /// Reached in a self-play game.
    Game,
    /// One legal move from a position reached in a game.
    Near,
    /// Met on a short walk (best and random moves) from a position reached in a game.
    Walk,
}

/// A position with its tablebase value.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Labelled {
    /// The position.
    pub position: Position,
    /// Its value for the side to move.
    pub value: TbValue,
    /// Won or drawn for the side to move, with a legal move that throws that away.
    pub critical: bool,
    /// Where it comes from.
    pub source: Source,
}

impl Labelled {
    /// `position` labelled by `tables`; `None` when it is over or not covered.
    pub fn new(tables: &Tablebase, position: &Position, source: Source) -> Option<Labelled> {
        // Legal moves ignore the repetition rule, as the tables do.
        let rules = tables.rules().with_repetition(Repetition::default());
        if position.outcome(&rules).is_some() {
            return None;
        }
        let value = tables.probe(position)?;
        let critical = value.wdl != Wdl::Loss
            && tables.best_moves(position).len() < position.legal_moves(&rules).len();
        Some(Labelled {
            position: *position,
            value,
            critical,
            source,
        })
    }

    /// The fit's target: 1 for a win, 1/2 for a draw, 0 for a loss (side to move).
    pub fn target(&self) -> f64 {
        match self.value.wdl {
            Wdl::Win => 1.0,
            Wdl::Draw => 0.5,
            Wdl::Loss => 0.0,
        }
    }
}

impl fmt::Display for Labelled {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let value = match self.value.wdl {
            Wdl::Win => 'W',
            Wdl::Draw => 'D',
            Wdl::Loss => 'L',
        };
        write!(f, "{}\t{value}\t", self.position)?;
        match self.value.plies_to_end {
            Some(plies) => write!(f, "{plies}")?,
            None => f.write_str("-")?,
        }
        let source = match self.source {
            Source::Game => "game",
            Source::Near => "near",
            Source::Walk => "walk",
        };
        write!(f, "\t{}\t{source}", u8::from(self.critical))
    }
}

impl FromStr for Labelled {
    type Err = String;

    fn from_str(line: &str) -> Result<Labelled, String> {
        let fields: Vec<&str> = line.split('\t').collect();
        let [position, value, plies, critical, source] = fields[..] else {
            return Err(format!(
                "expected 5 tab-separated fields, found {}",
                fields.len()
            ));
        };
        let position: Position = position.parse().map_err(|e| format!("{e}"))?;
        let wdl = match value {
            "W" => Wdl::Win,
            "D" => Wdl::Draw,
            "L" => Wdl::Loss,
            other => return Err(format!("bad value \"{other}\": expected W, D or L")),
        };
        let plies_to_end = match plies {
            "-" => None,
            text => Some(
                text.parse()
                    .map_err(|_| format!("bad distance \"{text}\""))?,
            ),
        };
        let critical = match critical {
            "0" => false,
            "1" => true,
            other => return Err(format!("bad critical flag \"{other}\": expected 0 or 1")),
        };
        let source = match source {
            "game" => Source::Game,
            "near" => Source::Near,
            "walk" => Source::Walk,
            other => {
                return Err(format!(
                    "bad source \"{other}\": expected game, near or walk"
                ))
            }
        };
        Ok(Labelled {
            position,
            value: TbValue { wdl, plies_to_end },
            critical,
            source,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_read_back() {
        for line in [
            "GGGGG/GT2T/GG1TG/GG1GG/GGTGG g 0 3\tD\t-\t1\tgame",
            "G1GGG/GT1TG/GG2G/GGT1G/GGGGT t 0 4\tW\t17\t0\tnear",
            "T3T/5/2G2/5/T3T t 19 0\tL\t-\t0\tgame",
            "GGGGG/GTGGG/GG3/GG1TT/GGTGG g 0 3\tD\t-\t1\twalk",
        ] {
            let labelled: Labelled = line.parse().unwrap();
            assert_eq!(labelled.to_string(), line);
        }
    }

    /// The file reader stops when asked, and names the file and the line of a bad line.
    #[test]
    fn files_read_in_order_and_bad_lines_are_named() {
        let dir = std::env::temp_dir().join(format!("baghchal-labelled-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("set.tsv");
        let lines = [
            "GGGGG/GT2T/GG1TG/GG1GG/GGTGG g 0 3\tD\t-\t1\tgame",
            "T3T/5/2G2/5/T3T t 19 0\tL\t-\t0\tgame",
        ];
        std::fs::write(
            &path,
            format!("{}\n{}\nnot a position\n", lines[0], lines[1]),
        )
        .unwrap();
        let mut read = Vec::new();
        read_labelled(&path, |labelled| {
            read.push(labelled.to_string());
            read.len() < 2
        })
        .unwrap();
        assert_eq!(read, lines);
        let error = read_labelled(&path, |_| true).unwrap_err();
        assert!(error.contains("set.tsv line 3"), "{error}");
        assert!(read_labelled(&dir.join("missing.tsv"), |_| true).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// The committed sample of `eval_data` output (tools/eval_sample.tsv) reads back whole.
    #[test]
    fn the_committed_sample_reads_back() {
        let sample = include_str!("../../tools/eval_sample.tsv");
        let rules = crate::Rules::default();
        let mut values = [0; 3];
        for line in sample.lines() {
            let labelled: Labelled = line.parse().unwrap();
            assert_eq!(labelled.to_string(), line);
            assert!(labelled.position.outcome(&rules).is_none(), "{line}");
            assert!(
                !(labelled.critical && labelled.value.wdl == Wdl::Loss),
                "{line}"
            );
            values[labelled.value.wdl as usize] += 1;
        }
        assert!(values.iter().all(|&n| n > 0), "{values:?}");
    }

    #[test]
    fn bad_lines_are_refused() {
        for (line, error) in [
            (
                "T3T/5/5/5/T3T g 20 0\tW\t-\t1",
                "expected 5 tab-separated fields, found 4",
            ),
            (
                "T3T/5/5/5/T3T g 20 0\tX\t-\t1\tgame",
                "bad value \"X\": expected W, D or L",
            ),
            (
                "T3T/5/5/5/T3T g 20 0\tW\tfar\t1\tgame",
                "bad distance \"far\"",
            ),
            (
                "T3T/5/5/5/T3T g 20 0\tW\t-\t2\tgame",
                "bad critical flag \"2\": expected 0 or 1",
            ),
            (
                "T3T/5/5/5/T3T g 20 0\tW\t-\t1\tbook",
                "bad source \"book\": expected game, near or walk",
            ),
        ] {
            assert_eq!(line.parse::<Labelled>().unwrap_err(), error);
        }
        assert!("T3T/5/5/5 g 20 0\tW\t-\t1\tgame"
            .parse::<Labelled>()
            .is_err());
    }
}
