//! `-show-latency`: an engine's latency on a move is, as fastchess defines it, the time the
//! referee measured from sending `go` to reading `bestmove` minus the thinking time the engine
//! reported itself (the `time` of its last `info` line). It shows the time lost in pipes,
//! process scheduling and the engine's own output; many engines round their reported time,
//! and some add a millisecond, so small negative values are normal.

use super::record::GameRecord;
use crate::Side;

/// Latencies of one engine's moves, in ms.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Latencies {
    /// (game number, latency) per move with a reported time, in game and move order.
    pub moves: Vec<(u64, i64)>,
    /// Engine moves without a reported time.
    pub unreported: u64,
}

impl Latencies {
    fn add(&mut self, record: &GameRecord, side: Side) {
        let mut mover = record.start.side_to_move();
        for played in &record.moves {
            if mover == side && !played.book {
                match played.details.latency_ms {
                    Some(latency) => self.moves.push((record.number, latency)),
                    None => self.unreported += 1,
                }
            }
            mover = mover.opposite();
        }
    }

    /// `N moves, mean M ms, median D ms, max X ms (game G)`, or why there is none.
    fn summary(&self) -> String {
        if self.moves.is_empty() {
            return format!("no reported think times ({} moves)", self.unreported);
        }
        let mut sorted: Vec<i64> = self.moves.iter().map(|&(_, l)| l).collect();
        sorted.sort_unstable();
        let median = sorted[sorted.len() / 2];
        let mean = sorted.iter().map(|&l| l as f64).sum::<f64>() / sorted.len() as f64;
        let (game, max) = self
            .moves
            .iter()
            .copied()
            .max_by_key(|&(_, l)| l)
            .expect("not empty");
        let mut text = format!(
            "{} moves, mean {mean:.1} ms, median {median} ms, max {max} ms (game {game})",
            self.moves.len()
        );
        if self.unreported > 0 {
            text.push_str(&format!(
                ", {} moves without a reported time",
                self.unreported
            ));
        }
        text
    }
}

/// The latencies of each engine over `records`, engines in order of first appearance.
pub fn engine_latencies(records: &[GameRecord]) -> Vec<(String, Latencies)> {
    let mut all: Vec<(String, Latencies)> = Vec::new();
    for record in records {
        for side in [Side::Goats, Side::Tigers] {
            let name = record.engine(side);
            let index = match all.iter().position(|(n, _)| n == name) {
                Some(index) => index,
                None => {
                    all.push((name.to_string(), Latencies::default()));
                    all.len() - 1
                }
            };
            all[index].1.add(record, side);
        }
    }
    all
}

/// `Latency of A in game 3: ...`, one line per engine of the game.
pub fn game_latency_lines(record: &GameRecord) -> Vec<String> {
    engine_latencies(std::slice::from_ref(record))
        .into_iter()
        .map(|(name, latencies)| {
            format!(
                "Latency of {name} in game {}: {}",
                record.number,
                latencies.summary()
            )
        })
        .collect()
}

/// `Latency of A: ...`, one line per engine over all `records`.
pub fn latency_lines(records: &[GameRecord]) -> Vec<String> {
    engine_latencies(records)
        .into_iter()
        .map(|(name, latencies)| format!("Latency of {name}: {}", latencies.summary()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::referee::record::tests::sample;

    #[test]
    fn latencies_belong_to_the_mover() {
        // sample(): moves 0-1 book, 2 (goats, A) latency -2, 3 (tigers, "B b") latency 14,
        // 4 (goats) none.
        let record = sample();
        let lines = game_latency_lines(&record);
        assert_eq!(
            lines,
            vec![
                "Latency of A in game 7: 1 moves, mean -2.0 ms, median -2 ms, max -2 ms (game 7), 1 moves without a reported time",
                "Latency of B b in game 7: 1 moves, mean 14.0 ms, median 14 ms, max 14 ms (game 7)",
            ]
        );
        let mut second = sample();
        second.number = 8;
        second.moves[2].details.latency_ms = Some(6);
        second.moves[4].details.latency_ms = Some(1);
        let all = engine_latencies(&[record, second]);
        assert_eq!(all[0].1.moves, vec![(7, -2), (8, 6), (8, 1)]);
        assert_eq!(all[0].1.unreported, 1);
        let lines = latency_lines(&[sample()]);
        assert_eq!(lines.len(), 2);
        let none = Latencies {
            moves: Vec::new(),
            unreported: 3,
        };
        assert_eq!(none.summary(), "no reported think times (3 moves)");
    }
}
