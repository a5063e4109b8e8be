//! Win/draw/loss estimates: an ordered logistic model of the score, fitted to the engine's
//! self-play by rule variant, side to move and phase ([`super::wdl_fit`], written by
//! `tools/wdl.sh`; docs/wdl.md tells how and how well it fits).
//!
//! For a score `x` (side to move's view, centi-goats) the model says
//! `P(loss) = σ((loss_below - x) / scale)` and `P(win) = σ((x - win_above) / scale)`, the rest
//! being a draw (`loss_below <= win_above`). Wins and losses the search has proven are exact.

use super::score::Score;
use super::wdl_fit::FIT;
use crate::{Position, Repetition, Rules, Side};

/// One cell of the fitted model.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Logit {
    /// Score below which a loss is likelier than not (centi-goats).
    pub loss_below: f64,
    /// Score above which a win is likelier than not.
    pub win_above: f64,
    /// Width of the logistic curves.
    pub scale: f64,
}

/// Phase buckets by goats in hand: 0 (movement), 1..=7, 8..=14, 15..=20.
pub const HAND_BUCKETS: usize = 4;

/// The phase bucket of `position` by goats in hand (see [`HAND_BUCKETS`]); the pattern
/// network's buckets use it too.
pub fn hand_bucket(position: &Position) -> usize {
    match position.goats_in_hand() {
        0 => 0,
        1..=7 => 1,
        8..=14 => 2,
        _ => 3,
    }
}
/// Phase buckets by captures still needed to win: 5 or more, 4, 3, 2 or fewer.
pub const CAPTURE_BUCKETS: usize = 4;

/// The model's cell for a position: `[repetition][side to move][hand][captures]`, each an index.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell {
    /// 0 = `Repetition forbid`, 1 = `draw`.
    pub repetition: usize,
    /// 0 = goats to move, 1 = tigers.
    pub side: usize,
    /// Bucket of goats in hand (see [`HAND_BUCKETS`]).
    pub hand: usize,
    /// Bucket of captures still needed (see [`CAPTURE_BUCKETS`]).
    pub captures: usize,
}

impl Cell {
    /// The cell of `position` under `rules`.
    pub fn of(position: &Position, rules: &Rules) -> Cell {
        let hand = hand_bucket(position);
        let needed = rules
            .captures_to_win
            .saturating_sub(position.goats_captured());
        let captures = match needed {
            5.. => 0,
            4 => 1,
            3 => 2,
            _ => 3,
        };
        Cell {
            repetition: usize::from(rules.repetition == Repetition::Draw),
            side: usize::from(position.side_to_move() == Side::Tigers),
            hand,
            captures,
        }
    }

    /// The fitted curves of this cell.
    pub fn logit(self) -> Logit {
        FIT[self.repetition][self.side][self.hand][self.captures]
    }
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

impl Logit {
    /// Win, draw and loss probabilities at score `cp`.
    pub fn probabilities(self, cp: f64) -> [f64; 3] {
        let scale = self.scale.max(1e-3);
        let loss = sigmoid((self.loss_below - cp) / scale);
        let win = sigmoid((cp - self.win_above.max(self.loss_below)) / scale);
        let draw = (1.0 - win - loss).max(0.0);
        let total = win + draw + loss;
        [win / total, draw / total, loss / total]
    }

    /// Win, draw and loss per mille at score `cp`, summing to 1000.
    pub fn per_mille(self, cp: i32) -> [u32; 3] {
        let [win, _, loss] = self.probabilities(f64::from(cp));
        let win = (win * 1000.0).round() as u32;
        let loss = ((loss * 1000.0).round() as u32).min(1000 - win);
        [win, 1000 - win - loss, loss]
    }
}

/// Win/draw/loss per mille for the side to move of `position` at `score`: exact for proven
/// wins and losses, the fitted model otherwise.
pub fn wdl(score: Score, position: &Position, rules: &Rules) -> [u32; 3] {
    match score {
        Score::Mate(n) if n > 0 => [1000, 0, 0],
        Score::Mate(_) => [0, 0, 1000],
        Score::Cp(cp) => Cell::of(position, rules).logit().per_mille(cp),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::wdl_fit::FIT;

    fn every_cell() -> impl Iterator<Item = Logit> {
        FIT.into_iter().flatten().flatten().flatten()
    }

    #[test]
    fn every_cell_sums_to_one_thousand_and_rises_with_the_score() {
        for logit in every_cell() {
            assert!(
                logit.scale > 0.0 && logit.loss_below <= logit.win_above,
                "{logit:?}"
            );
            let mut previous = [0, 1000, 1000];
            for cp in (-3000..=3000).step_by(25) {
                let wdl = logit.per_mille(cp);
                assert_eq!(wdl.iter().sum::<u32>(), 1000, "{logit:?} {cp}");
                assert!(
                    wdl[0] >= previous[0] && wdl[2] <= previous[2],
                    "{logit:?} {cp}"
                );
                previous = wdl;
            }
            assert!(logit.per_mille(3000)[0] > 900 && logit.per_mille(-3000)[2] > 900);
        }
    }

    #[test]
    fn proven_results_are_exact() {
        let position = Position::startpos();
        for rules in [
            Rules::default(),
            Rules {
                repetition: Repetition::Draw,
                ..Rules::default()
            },
        ] {
            assert_eq!(wdl(Score::Mate(3), &position, &rules), [1000, 0, 0]);
            assert_eq!(wdl(Score::Mate(-2), &position, &rules), [0, 0, 1000]);
            assert_eq!(wdl(Score::Mate(0), &position, &rules), [0, 0, 1000]);
        }
    }

    #[test]
    fn cells_follow_rule_side_and_phase() {
        let draw = Rules {
            repetition: Repetition::Draw,
            ..Rules::default()
        };
        let start = Cell::of(&Position::startpos(), &draw);
        assert_eq!(
            start,
            Cell {
                repetition: 1,
                side: 0,
                hand: 3,
                captures: 0
            }
        );
        let late: Position = "TGGGT/GGGGG/GGGGG/GGGG1/T3T t 0 3"
            .parse()
            .expect("a position");
        let cell = Cell::of(&late, &Rules::default());
        assert_eq!((cell.repetition, cell.side, cell.hand), (0, 1, 0));
        assert_eq!(cell.captures, 3);
    }
}
