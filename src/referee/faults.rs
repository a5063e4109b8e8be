//! Engine faults counted per engine for the reports' fault lines: time forfeits, crashes,
//! illegal moves, disconnects and stalls, each from the game's termination (a crash is a
//! disconnect whose engine process died other than by exiting with status 0).

use super::outcome::Termination;
use super::record::GameRecord;
use crate::Side;

/// One engine's faults.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct FaultCounts {
    /// Games lost on time (`time forfeit`).
    pub timeouts: u64,
    /// Games lost because the engine's process crashed (killed by a signal, or a non-zero exit
    /// status).
    pub crashes: u64,
    /// Games lost by an illegal or malformed move.
    pub illegal_moves: u64,
    /// Games lost because the engine could not be started, closed its pipes or exited.
    pub disconnects: u64,
    /// Games lost by giving no answer without a time limit in force (`stall`).
    pub stalls: u64,
}

impl FaultCounts {
    /// Counts `record`'s fault if it was `side`'s.
    pub fn add(&mut self, record: &GameRecord, side: Side) {
        let Some((faulty, fault)) = fault_of(record) else {
            return;
        };
        if faulty != side {
            return;
        }
        match fault {
            Fault::Timeout => self.timeouts += 1,
            Fault::Crash => self.crashes += 1,
            Fault::IllegalMove => self.illegal_moves += 1,
            Fault::Disconnect => self.disconnects += 1,
            Fault::Stall => self.stalls += 1,
        }
    }

    /// All faults.
    pub fn total(&self) -> u64 {
        self.timeouts + self.crashes + self.illegal_moves + self.disconnects + self.stalls
    }

    /// `Faults of A: timeouts 0, crashes 1, illegal moves 0, disconnects 0, stalls 0`.
    pub fn line(&self, name: &str) -> String {
        format!(
            "Faults of {name}: timeouts {}, crashes {}, illegal moves {}, disconnects {}, stalls {}",
            self.timeouts, self.crashes, self.illegal_moves, self.disconnects, self.stalls
        )
    }
}

/// The kinds of fault.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Fault {
    /// Time forfeit.
    Timeout,
    /// The process crashed.
    Crash,
    /// Illegal or malformed move.
    IllegalMove,
    /// Could not start, closed its pipes, or exited.
    Disconnect,
    /// No answer without a time limit.
    Stall,
}

/// The side at fault in a game and its fault, if the game ended by one: the loser of a game
/// that ended by time forfeit, disconnect, stall or illegal move.
pub fn fault_of(record: &GameRecord) -> Option<(Side, Fault)> {
    let fault = match record.termination {
        Termination::TimeForfeit => Fault::Timeout,
        Termination::IllegalMove => Fault::IllegalMove,
        Termination::Stall => Fault::Stall,
        // The reason says "crashed: killed by signal 11 (SIGSEGV)" or "crashed: exit status 1"
        // (see ExitReason::describe).
        Termination::Disconnect if record.reason.contains("crashed: ") => Fault::Crash,
        Termination::Disconnect => Fault::Disconnect,
        _ => return None,
    };
    let loser = if record.result.points_for(Side::Goats) == 0.0 {
        Side::Goats
    } else {
        Side::Tigers
    };
    Some((loser, fault))
}

/// Fault counts per engine over `records`, engines in order of first appearance.
pub fn engine_faults(records: &[GameRecord]) -> Vec<(String, FaultCounts)> {
    let mut faults: Vec<(String, FaultCounts)> = Vec::new();
    for record in records {
        for side in [Side::Goats, Side::Tigers] {
            let name = record.engine(side);
            let index = match faults.iter().position(|(n, _)| n == name) {
                Some(index) => index,
                None => {
                    faults.push((name.to_string(), FaultCounts::default()));
                    faults.len() - 1
                }
            };
            faults[index].1.add(record, side);
        }
    }
    faults
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::referee::outcome::GameResult;
    use crate::referee::record::tests::sample;

    fn game(termination: Termination, result: GameResult, reason: &str) -> GameRecord {
        GameRecord {
            termination,
            result,
            reason: reason.to_string(),
            ..sample()
        }
    }

    #[test]
    fn faults_are_counted_for_the_loser() {
        // sample(): goat "A", tiger "B b".
        let records = [
            game(
                Termination::TimeForfeit,
                GameResult::TigersWin,
                "Goats lose: time forfeit",
            ),
            game(
                Termination::Disconnect,
                GameResult::GoatsWin,
                "Tigers lose: crashed: killed by signal 11 (SIGSEGV)",
            ),
            game(
                Termination::Disconnect,
                GameResult::GoatsWin,
                "Tigers lose: disconnect: the engine closed its pipes",
            ),
            game(
                Termination::IllegalMove,
                GameResult::TigersWin,
                "Goats lose: illegal move",
            ),
            game(
                Termination::Stall,
                GameResult::GoatsWin,
                "Tigers lose: stall",
            ),
            game(
                Termination::Normal,
                GameResult::GoatsWin,
                "Goats win: tigers blocked",
            ),
            game(
                Termination::Adjudication,
                GameResult::Draw,
                "Draw by adjudication",
            ),
        ];
        let faults = engine_faults(&records);
        let goat = FaultCounts {
            timeouts: 1,
            illegal_moves: 1,
            ..FaultCounts::default()
        };
        let tiger = FaultCounts {
            crashes: 1,
            disconnects: 1,
            stalls: 1,
            ..FaultCounts::default()
        };
        assert_eq!(
            faults,
            vec![("A".to_string(), goat), ("B b".to_string(), tiger)]
        );
        assert_eq!(tiger.total(), 3);
        assert_eq!(
            goat.line("A"),
            "Faults of A: timeouts 1, crashes 0, illegal moves 1, disconnects 0, stalls 0"
        );
    }
}
