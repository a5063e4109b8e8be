//! Tallies of finished games and the cutechess-style lines printed on stdout.

use super::faults::FaultCounts;
use super::record::GameRecord;
use super::stats::{elo_pentanomial, elo_trinomial, Pentanomial, Sprt, SprtResult, Trinomial};
use crate::Side;
use std::collections::BTreeMap;

/// Results of one encounter (two engines), from the first engine's view.
#[derive(Clone, Debug, PartialEq)]
pub struct Tally {
    /// The first engine: goats in the encounter's first game.
    pub first: String,
    /// The second engine.
    pub second: String,
    /// All games.
    pub total: Trinomial,
    /// Games with the first engine as goats.
    pub as_goats: Trinomial,
    /// Games with the first engine as tigers.
    pub as_tigers: Trinomial,
    /// Goats' wins, tigers' wins (as losses) and draws.
    pub sides: Trinomial,
    /// The first engine's points in game pairs with one game so far, by pair number.
    open: BTreeMap<u64, f64>,
    /// Complete pairs by the first engine's pair score (0, 1/2, 1, 3/2, 2).
    complete: [u64; 5],
    /// Complete pairs of one point made of a win and a loss (the rest of `complete[2]` are two
    /// draws).
    win_loss_pairs: u64,
    /// Faults of the first and of the second engine.
    pub faults: [FaultCounts; 2],
}

fn add(trinomial: &mut Trinomial, points: f64) {
    if points == 1.0 {
        trinomial.wins += 1;
    } else if points == 0.0 {
        trinomial.losses += 1;
    } else {
        trinomial.draws += 1;
    }
}

fn empty() -> Trinomial {
    Trinomial {
        wins: 0,
        losses: 0,
        draws: 0,
    }
}

impl Tally {
    fn new(first: &str, second: &str) -> Tally {
        Tally {
            first: first.to_string(),
            second: second.to_string(),
            total: empty(),
            as_goats: empty(),
            as_tigers: empty(),
            sides: empty(),
            open: BTreeMap::new(),
            complete: [0; 5],
            win_loss_pairs: 0,
            faults: [FaultCounts::default(); 2],
        }
    }

    fn add(&mut self, record: &GameRecord) {
        let points = record
            .points_of(&self.first)
            .expect("the record belongs to this encounter");
        add(&mut self.total, points);
        if record.goat == self.first {
            add(&mut self.as_goats, points);
        } else {
            add(&mut self.as_tigers, points);
        }
        add(&mut self.sides, record.result.points_for(Side::Goats));
        let first_side = if record.goat == self.first {
            Side::Goats
        } else {
            Side::Tigers
        };
        self.faults[0].add(record, first_side);
        self.faults[1].add(record, first_side.opposite());
        match self.open.remove(&record.pair) {
            Some(first_game) => {
                self.complete[((first_game + points) * 2.0).round() as usize] += 1;
                if first_game + points == 1.0 && first_game != 0.5 {
                    self.win_loss_pairs += 1;
                }
            }
            None => {
                self.open.insert(record.pair, points);
            }
        }
    }

    /// Complete game pairs counted by the first engine's pair score (0, 1/2, 1, 3/2, 2).
    pub fn pentanomial(&self) -> Pentanomial {
        Pentanomial(self.complete)
    }

    /// Complete one-point pairs split into (a win and a loss, two draws): fastchess's WL and DD.
    pub fn win_loss_and_draw_pairs(&self) -> (u64, u64) {
        (self.win_loss_pairs, self.complete[2] - self.win_loss_pairs)
    }

    /// Game pairs with only one game recorded so far.
    pub fn open_pairs(&self) -> usize {
        self.open.len()
    }

    /// The SPRT log-likelihood ratio: pentanomial when every pair is complete, trinomial
    /// otherwise.
    /// The BayesElo model reads games only.
    pub fn llr(&self, sprt: &Sprt) -> f64 {
        if sprt.uses_pairs() && self.open.is_empty() && self.complete.iter().sum::<u64>() > 0 {
            sprt.llr_pentanomial(&self.pentanomial())
        } else {
            sprt.llr_trinomial(&self.total)
        }
    }

    /// The SPRT log-likelihood ratio of the complete game pairs alone (pentanomial), leaving
    /// out pairs with one game so far: what a watch of running shards uses, since some shard
    /// nearly always has a pair half played. Equal to [`Tally::llr`] once every pair is
    /// complete. (The BayesElo model reads games: all of them.)
    pub fn llr_complete_pairs(&self, sprt: &Sprt) -> f64 {
        if sprt.uses_pairs() {
            sprt.llr_pentanomial(&self.pentanomial())
        } else {
            sprt.llr_trinomial(&self.total)
        }
    }
}

/// All encounters of a match, order-independent: feed records in any order, sorted by game
/// number first for stable naming.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Standings {
    /// One tally per encounter, in order of first appearance.
    pub tallies: Vec<Tally>,
}

impl Standings {
    /// Counts a game; returns the index of its encounter's tally.
    pub fn add(&mut self, record: &GameRecord) -> usize {
        let index = match self.tallies.iter().position(|t| {
            (t.first == record.goat && t.second == record.tiger)
                || (t.first == record.tiger && t.second == record.goat)
        }) {
            Some(index) => index,
            None => {
                self.tallies.push(Tally::new(&record.goat, &record.tiger));
                self.tallies.len() - 1
            }
        };
        self.tallies[index].add(record);
        index
    }

    /// Standings of a set of records (sorted by game number first).
    pub fn of(records: &[GameRecord]) -> Standings {
        let mut sorted: Vec<&GameRecord> = records.iter().collect();
        sorted.sort_by_key(|r| r.number);
        let mut standings = Standings::default();
        for record in sorted {
            standings.add(record);
        }
        standings
    }
}

/// `value` with `decimals` decimals, without a minus sign when it rounds to zero.
pub fn fixed(value: f64, decimals: usize) -> String {
    let text = format!("{value:.decimals$}");
    if text.starts_with('-') && text[1..].chars().all(|c| c == '0' || c == '.') {
        text[1..].to_string()
    } else {
        text
    }
}

/// Points per game of a tally (0 without games).
pub fn score_of(t: &Trinomial) -> f64 {
    let games = t.wins + t.losses + t.draws;
    if games == 0 {
        0.0
    } else {
        (t.wins as f64 + 0.5 * t.draws as f64) / games as f64
    }
}

/// `W - L - D  [score] games`, as cutechess prints it.
pub fn wld(t: &Trinomial) -> String {
    let games = t.wins + t.losses + t.draws;
    format!(
        "{} - {} - {}  [{:.3}] {games}",
        t.wins,
        t.losses,
        t.draws,
        score_of(t)
    )
}

/// `Finished game N (A vs B): 1-0 {reason}`.
pub fn finished_line(record: &GameRecord) -> String {
    format!(
        "Finished game {} ({} vs {}): {} {{{}}}",
        record.number, record.goat, record.tiger, record.result, record.reason
    )
}

/// The score block of one encounter: scores, split by side, Elo, pentanomial and SPRT lines.
pub fn score_lines(tally: &Tally, sprt: Option<&Sprt>) -> Vec<String> {
    score_lines_with_llr(tally, sprt.map(|sprt| (sprt, tally.llr(sprt))))
}

/// [`score_lines`] with the SPRT line for a given log-likelihood ratio.
pub fn score_lines_with_llr(tally: &Tally, sprt: Option<(&Sprt, f64)>) -> Vec<String> {
    let mut lines = vec![
        format!(
            "Score of {} vs {}: {}",
            tally.first,
            tally.second,
            wld(&tally.total)
        ),
        format!(
            "...      {} playing Goats: {}",
            tally.first,
            wld(&tally.as_goats)
        ),
        format!(
            "...      {} playing Tigers: {}",
            tally.first,
            wld(&tally.as_tigers)
        ),
        format!("...      Goats vs Tigers: {}", wld(&tally.sides)),
    ];
    match elo_trinomial(&tally.total) {
        Some(elo) => lines.push(format!(
            "Elo difference: {} +/- {:.1}, nElo: {} +/- {:.1}, LOS: {:.1} %, DrawRatio: {:.1} %",
            fixed(elo.elo, 1),
            elo.error_95,
            fixed(elo.nelo, 1),
            elo.nelo_error_95,
            elo.los * 100.0,
            elo.draw_ratio * 100.0
        )),
        None => lines
            .push("Elo difference: undefined (no games, or only wins or only losses)".to_string()),
    }
    let pentanomial = tally.pentanomial();
    let counts = pentanomial.0.map(|c| c.to_string()).join(", ");
    match elo_pentanomial(&pentanomial) {
        Some(elo) => lines.push(format!(
            "Ptnml(0-2): [{counts}], Elo (pairs): {} +/- {:.1}, nElo (pairs): {} +/- {:.1}, LOS: {:.1} %",
            fixed(elo.elo, 1),
            elo.error_95,
            fixed(elo.nelo, 1),
            elo.nelo_error_95,
            elo.los * 100.0
        )),
        None => lines.push(format!("Ptnml(0-2): [{counts}]")),
    }
    lines.push(tally.faults[0].line(&tally.first));
    lines.push(tally.faults[1].line(&tally.second));
    if let Some((sprt, llr)) = sprt {
        lines.push(sprt_line(llr, sprt));
    }
    lines
}

/// `SPRT: llr 1.2 (40.8%), lbound -2.94, ubound 2.94` (+ the decision once made).
pub fn sprt_line(llr: f64, sprt: &Sprt) -> String {
    let (lower, upper) = sprt.bounds();
    let percent = if llr >= 0.0 {
        llr / upper
    } else {
        llr / -lower
    } * 100.0;
    let mut line =
        format!("SPRT: llr {llr:.2} ({percent:.1}%), lbound {lower:.2}, ubound {upper:.2}");
    match sprt.decide(llr) {
        Some(SprtResult::AcceptH0) => line.push_str(" - H0 was accepted"),
        Some(SprtResult::AcceptH1) => line.push_str(" - H1 was accepted"),
        None => {}
    }
    line
}

/// A ranking table over all engines (for matches of three or more).
pub fn ranking_lines(records: &[GameRecord]) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for record in records {
        for name in [&record.goat, &record.tiger] {
            if !names.contains(name) {
                names.push(name.clone());
            }
        }
    }
    let mut rows: Vec<(String, Trinomial)> = names
        .into_iter()
        .map(|name| {
            let mut t = empty();
            for record in records {
                if let Some(points) = record.points_of(&name) {
                    add(&mut t, points);
                }
            }
            (name, t)
        })
        .collect();
    rows.sort_by(|a, b| {
        score_of(&b.1)
            .total_cmp(&score_of(&a.1))
            .then_with(|| a.0.cmp(&b.0))
    });
    let mut lines = vec![format!(
        "{:>4} {:<24} {:>7} {:>7} {:>7} {:>7} {:>7}",
        "Rank", "Name", "Elo", "+/-", "Games", "Score", "Draw"
    )];
    for (rank, (name, t)) in rows.iter().enumerate() {
        let games = t.wins + t.losses + t.draws;
        let (elo, error) = elo_trinomial(t).map_or(("-".to_string(), "-".to_string()), |e| {
            (fixed(e.elo, 0), format!("{:.0}", e.error_95))
        });
        let draws = if games == 0 {
            0.0
        } else {
            t.draws as f64 / games as f64
        };
        lines.push(format!(
            "{:>4} {:<24} {:>7} {:>7} {:>7} {:>6.1}% {:>6.1}%",
            rank + 1,
            name,
            elo,
            error,
            games,
            score_of(t) * 100.0,
            draws * 100.0
        ));
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::referee::outcome::GameResult;
    use crate::referee::record::tests::sample;

    fn game(number: u64, pair: u64, goat: &str, tiger: &str, result: GameResult) -> GameRecord {
        GameRecord {
            number,
            pair,
            goat: goat.into(),
            tiger: tiger.into(),
            result,
            ..sample()
        }
    }

    #[test]
    fn tallies_are_order_independent_and_split_by_side() {
        let records = vec![
            game(1, 1, "A", "B", GameResult::GoatsWin),
            game(2, 1, "B", "A", GameResult::GoatsWin),
            game(3, 2, "A", "B", GameResult::Draw),
            game(4, 2, "B", "A", GameResult::TigersWin),
            game(5, 3, "A", "B", GameResult::GoatsWin),
        ];
        let standings = Standings::of(&records);
        let mut reversed = records.clone();
        reversed.reverse();
        assert_eq!(Standings::of(&reversed), standings);
        let tally = &standings.tallies[0];
        assert_eq!((tally.first.as_str(), tally.second.as_str()), ("A", "B"));
        assert_eq!(
            (tally.total.wins, tally.total.losses, tally.total.draws),
            (3, 1, 1)
        );
        assert_eq!((tally.as_goats.wins, tally.as_goats.draws), (2, 1));
        assert_eq!(
            (tally.sides.wins, tally.sides.losses, tally.sides.draws),
            (3, 1, 1)
        );
        assert_eq!(tally.pentanomial(), Pentanomial([0, 0, 1, 1, 0]));
        assert_eq!(tally.open_pairs(), 1);
        let lines = score_lines(tally, None);
        assert_eq!(lines[0], "Score of A vs B: 3 - 1 - 1  [0.700] 5");
        assert_eq!(lines[1], "...      A playing Goats: 2 - 0 - 1  [0.833] 3");
        assert_eq!(lines[2], "...      A playing Tigers: 1 - 1 - 0  [0.500] 2");
        assert_eq!(lines[3], "...      Goats vs Tigers: 3 - 1 - 1  [0.700] 5");
        assert!(lines[4].starts_with("Elo difference: "), "{}", lines[4]);
        assert!(
            lines[5].starts_with("Ptnml(0-2): [0, 0, 1, 1, 0]"),
            "{}",
            lines[5]
        );
        assert_eq!(ranking_lines(&records).len(), 3);
    }

    #[test]
    fn fixed_drops_negative_zero() {
        assert_eq!(fixed(-0.04, 1), "0.0");
        assert_eq!(fixed(-0.3, 0), "0");
        assert_eq!(fixed(-0.06, 1), "-0.1");
        assert_eq!(fixed(70.44, 1), "70.4");
    }

    #[test]
    fn sprt_line_reports_the_decision() {
        let sprt = Sprt::new(0.0, 5.0, 0.05, 0.05).unwrap();
        assert_eq!(
            sprt_line(1.4722, &sprt),
            "SPRT: llr 1.47 (50.0%), lbound -2.94, ubound 2.94"
        );
        assert!(sprt_line(3.0, &sprt).ends_with("H1 was accepted"));
        assert!(sprt_line(-3.0, &sprt).ends_with("H0 was accepted"));
    }
}
