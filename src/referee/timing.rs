//! Time used against time allowed, per engine: its time forfeits and its largest overrun of an
//! allowance, printed at the end of a match so that a loaded machine shows before the results
//! are trusted.

use super::outcome::Termination;
use super::record::GameRecord;
use crate::Side;

/// One timed answer: the game, the time used and the time allowed (ms).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// Game number.
    pub game: u64,
    /// Time from `go` to `bestmove`.
    pub time_ms: u64,
    /// Time allowed (`timemargin` not included).
    pub allowed_ms: u64,
}

impl Answer {
    /// Time used beyond the allowance (negative: time to spare).
    pub fn overrun_ms(&self) -> i128 {
        i128::from(self.time_ms) - i128::from(self.allowed_ms)
    }
}

/// One engine's time keeping over a set of games.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineTiming {
    /// Engine name.
    pub name: String,
    /// Answers given against a time limit (moves played, and the answers that lost on time).
    pub timed_answers: u64,
    /// Games lost on time.
    pub time_forfeits: u64,
    /// The answer with the largest overrun (or the least time to spare).
    pub closest: Option<Answer>,
}

impl EngineTiming {
    fn new(name: &str) -> EngineTiming {
        EngineTiming {
            name: name.to_string(),
            timed_answers: 0,
            time_forfeits: 0,
            closest: None,
        }
    }

    fn add(&mut self, answer: Answer) {
        self.timed_answers += 1;
        if self
            .closest
            .is_none_or(|closest| answer.overrun_ms() > closest.overrun_ms())
        {
            self.closest = Some(answer);
        }
    }
}

/// Per-engine timing of `records`, engines in order of first appearance.
pub fn engine_timing(records: &[GameRecord]) -> Vec<EngineTiming> {
    let mut timings: Vec<EngineTiming> = Vec::new();
    let index_of = |timings: &mut Vec<EngineTiming>, name: &str| -> usize {
        match timings.iter().position(|t| t.name == name) {
            Some(index) => index,
            None => {
                timings.push(EngineTiming::new(name));
                timings.len() - 1
            }
        }
    };
    for record in records {
        let goat = index_of(&mut timings, &record.goat);
        let tiger = index_of(&mut timings, &record.tiger);
        let index = |side: Side| if side == Side::Goats { goat } else { tiger };
        let mut side = record.start.side_to_move();
        for played in &record.moves {
            if let (Some(time_ms), Some(allowed_ms)) = (played.time_ms, played.allowed_ms) {
                timings[index(side)].add(Answer {
                    game: record.number,
                    time_ms,
                    allowed_ms,
                });
            }
            side = side.opposite();
        }
        if record.termination == Termination::TimeForfeit {
            let loser = if record.result.points_for(Side::Goats) == 0.0 {
                Side::Goats
            } else {
                Side::Tigers
            };
            let timing = &mut timings[index(loser)];
            timing.time_forfeits += 1;
            if let Some(forfeit) = record.time_forfeit {
                timing.add(Answer {
                    game: record.number,
                    time_ms: forfeit.time_ms,
                    allowed_ms: forfeit.allowed_ms,
                });
            }
        }
    }
    timings
}

/// `Time of A: 398 timed answers, time forfeits 2, largest overrun 41 ms (game 7: 141 ms,
/// 100 ms allowed)`, one line per engine; nothing when no engine played against a time limit.
pub fn timing_lines(records: &[GameRecord]) -> Vec<String> {
    let timings = engine_timing(records);
    if timings
        .iter()
        .all(|t| t.timed_answers == 0 && t.time_forfeits == 0)
    {
        return Vec::new();
    }
    timings
        .iter()
        .map(|t| {
            let closest = match t.closest {
                Some(a) if a.overrun_ms() > 0 => format!(
                    "largest overrun {} ms (game {}: {} ms, {} ms allowed)",
                    a.overrun_ms(),
                    a.game,
                    a.time_ms,
                    a.allowed_ms
                ),
                Some(a) => format!(
                    "no overrun (closest: {} ms to spare, game {})",
                    -a.overrun_ms(),
                    a.game
                ),
                None => "no overrun".to_string(),
            };
            format!(
                "Time of {}: {} timed answers, time forfeits {}, {closest}",
                t.name, t.timed_answers, t.time_forfeits
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::referee::outcome::GameResult;
    use crate::referee::record::tests::sample;
    use crate::referee::record::{RecordedMove, TimeUse};

    fn timed(record: &mut GameRecord, times: &[(u64, u64)]) {
        for (played, &(time_ms, allowed_ms)) in record.moves[2..].iter_mut().zip(times) {
            *played = RecordedMove {
                time_ms: Some(time_ms),
                allowed_ms: Some(allowed_ms),
                ..played.clone()
            };
        }
    }

    #[test]
    fn counts_forfeits_and_finds_the_largest_overrun_per_engine() {
        // Moves 3 and 5 are the goats' (A), move 4 the tigers' (B b); moves 1-2 are book.
        let mut first = sample();
        timed(&mut first, &[(90, 100), (40, 1000), (95, 100)]);
        first.result = GameResult::GoatsWin;
        first.termination = Termination::Normal;
        let mut second = sample();
        second.number = 8;
        timed(&mut second, &[(10, 100), (990, 1000), (20, 100)]);
        second.result = GameResult::GoatsWin;
        second.termination = Termination::TimeForfeit;
        second.time_forfeit = Some(TimeUse {
            time_ms: 1041,
            allowed_ms: 1000,
        });
        let records = vec![first, second];
        let timings = engine_timing(&records);
        assert_eq!(timings.len(), 2);
        assert_eq!(
            (timings[0].name.as_str(), timings[0].timed_answers),
            ("A", 4)
        );
        assert_eq!(timings[0].time_forfeits, 0);
        assert_eq!(
            timings[0].closest,
            Some(Answer {
                game: 7,
                time_ms: 95,
                allowed_ms: 100
            })
        );
        assert_eq!((timings[1].timed_answers, timings[1].time_forfeits), (3, 1));
        assert_eq!(timings[1].closest.unwrap().overrun_ms(), 41);
        assert_eq!(
            timing_lines(&records),
            vec![
                "Time of A: 4 timed answers, time forfeits 0, no overrun (closest: 5 ms to spare, game 7)",
                "Time of B b: 3 timed answers, time forfeits 1, largest overrun 41 ms (game 8: 1041 ms, 1000 ms allowed)",
            ]
        );
        // Untimed games print nothing.
        assert!(timing_lines(&[sample()]).is_empty());
    }
}
