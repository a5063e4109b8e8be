//! Elo estimates from trinomial (per game) and pentanomial (per game pair) match results.

use super::{elo_from_score, normal_cdf, NELO_PER_STANDARD_DEVIATION, Z_95};

/// Win/loss/draw counts of a match, from the first engine's point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Trinomial {
    /// Games the first engine won.
    pub wins: u64,
    /// Games the first engine lost.
    pub losses: u64,
    /// Drawn games.
    pub draws: u64,
}

impl Trinomial {
    /// Number of games played.
    pub fn games(&self) -> u64 {
        self.wins
            .saturating_add(self.losses)
            .saturating_add(self.draws)
    }

    /// The (score per game, count) of each outcome: win 1, draw 1/2, loss 0.
    pub(super) fn outcomes(&self) -> [(f64, u64); 3] {
        [(1.0, self.wins), (0.5, self.draws), (0.0, self.losses)]
    }
}

/// Game-pair counts of a match played in pairs (same opening, colours swapped): index `i` counts
/// the pairs in which the first engine scored `i / 2` points out of 2, i.e. 0, 1/2, 1, 3/2 and 2.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Pentanomial(pub [u64; 5]);

impl Pentanomial {
    /// Number of game pairs played.
    pub fn pairs(&self) -> u64 {
        self.0
            .iter()
            .fold(0, |total, &count| total.saturating_add(count))
    }

    /// The (score per game, count) of each pair outcome: the pair's points divided by 2, i.e.
    /// 0, 1/4, 1/2, 3/4 and 1.
    pub(super) fn outcomes(&self) -> [(f64, u64); 5] {
        let mut outcomes = [(0.0, 0); 5];
        for (index, (outcome, &count)) in outcomes.iter_mut().zip(&self.0).enumerate() {
            *outcome = (index as f64 / 4.0, count);
        }
        outcomes
    }
}

/// An Elo estimate with its uncertainty, from the first engine's point of view.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    /// Logistic Elo difference of the mean score: `elo_from_score(score)`.
    pub elo: f64,
    /// Half-width of the 95% confidence interval in Elo: `(elo(score + 1.96 s) - elo(score -
    /// 1.96 s)) / 2`, where `s` is the standard error of the mean score. Infinite when that
    /// score interval reaches 0 or 1 (too few games for a finite error bar).
    pub error_95: f64,
    /// Likelihood of superiority, in `[0, 1]`: the probability that the first engine is the
    /// stronger, `Phi((score - 1/2) / s)`; when `s` is 0 (every sample alike), its limit: 1/2
    /// for a score of 1/2, else 0 or 1.
    pub los: f64,
    /// Fraction of drawn games (trinomial), or of game pairs scoring exactly 1 point out of 2
    /// (pentanomial).
    pub draw_ratio: f64,
    /// Mean score per game, in `[0, 1]`.
    pub score: f64,
    /// Normalized Elo (fastchess's nElo): the score's distance from 1/2 in per-game standard
    /// deviations, scaled as logistic Elo is near 0, `nelo = (score - 1/2) / sigma_game * 800
    /// / ln 10`, where `sigma_game` is the per-game standard deviation (`sqrt(2 v)` from the
    /// per-pair variance `v` of a pentanomial). 0 when
    /// every sample is a draw-like 1/2, infinite when every sample is alike otherwise.
    pub nelo: f64,
    /// Half-width of its 95% interval, `(nelo(score + 1.96 s) - nelo(score - 1.96 s)) / 2`
    /// as fastchess computes it, i.e. `1.96 * 800 / ln 10 / sqrt(games)` (0 with no spread).
    pub nelo_error_95: f64,
}

/// Elo estimate from win/loss/draw counts, treating games as independent.
///
/// With `n` games the score is `mu = (W + D/2) / n`, the per-game variance is
/// `sigma^2 = (W (1 - mu)^2 + D (1/2 - mu)^2 + L mu^2) / n`, and the standard error of the mean is
/// `s = sigma / sqrt(n)`; see [`EloEstimate`] for how Elo, error bar and LOS follow.
///
/// Returns `None` when the Elo is undefined: no games, or a score of exactly 0 or 1 (all games
/// won or all lost).
pub fn elo_trinomial(t: &Trinomial) -> Option<EloEstimate> {
    let games = t.games();
    let draw_ratio = t.draws as f64 / games as f64;
    estimate(&t.outcomes(), draw_ratio, 1.0)
}

/// Elo estimate from game-pair counts. It accounts for the correlation between the two games of a
/// pair (same opening, colours swapped), so its error bar is the honest one for paired matches:
/// usually smaller than the trinomial one, because an opening that favours one colour tends to
/// give one win to each engine.
///
/// Each pair counts as one sample whose value is its mean score per game (0, 1/4, 1/2, 3/4, 1).
/// With `N` pairs, the score `mu` is the mean of these values, the per-pair variance is
/// `sigma^2 = sum_i (p_i / N) (v_i - mu)^2` and the standard error of the mean is
/// `s = sigma / sqrt(N)`; see [`EloEstimate`] for how Elo, error bar and LOS follow.
///
/// Returns `None` when the Elo is undefined: no pairs, or a score of exactly 0 or 1.
pub fn elo_pentanomial(p: &Pentanomial) -> Option<EloEstimate> {
    let draw_ratio = p.0[2] as f64 / p.pairs() as f64;
    estimate(&p.outcomes(), draw_ratio, 2.0)
}

/// Mean and variance of the empirical distribution of (value, count) samples, with the sample
/// count; `None` when there are no samples.
pub(super) fn mean_and_variance(outcomes: &[(f64, u64)]) -> Option<(f64, f64, f64)> {
    let samples = sample_count(outcomes);
    if samples == 0.0 {
        return None;
    }
    let mean = outcomes
        .iter()
        .map(|&(value, count)| value * count as f64)
        .sum::<f64>()
        / samples;
    Some((samples, mean, variance_around(outcomes, mean)))
}

/// Mean squared deviation of the (value, count) samples from `center`; 0 when there are none.
pub(super) fn variance_around(outcomes: &[(f64, u64)], center: f64) -> f64 {
    let samples = sample_count(outcomes);
    if samples == 0.0 {
        return 0.0;
    }
    outcomes
        .iter()
        .map(|&(value, count)| count as f64 * (value - center).powi(2))
        .sum::<f64>()
        / samples
}

/// Total count of the samples, as a float (cannot overflow).
fn sample_count(outcomes: &[(f64, u64)]) -> f64 {
    outcomes.iter().map(|&(_, count)| count as f64).sum()
}

/// `games_per_sample` is 1 for games, 2 for game pairs.
fn estimate(
    outcomes: &[(f64, u64)],
    draw_ratio: f64,
    games_per_sample: f64,
) -> Option<EloEstimate> {
    let (samples, score, variance) = mean_and_variance(outcomes)?;
    if score <= 0.0 || score >= 1.0 {
        return None;
    }
    let standard_error = (variance / samples).sqrt();
    let lower = score - Z_95 * standard_error;
    let upper = score + Z_95 * standard_error;
    let error_95 = if lower <= 0.0 || upper >= 1.0 {
        f64::INFINITY
    } else {
        (elo_from_score(upper) - elo_from_score(lower)) / 2.0
    };
    let los = if standard_error > 0.0 {
        normal_cdf((score - 0.5) / standard_error)
    } else if score == 0.5 {
        0.5
    } else {
        normal_cdf((score - 0.5) * f64::INFINITY)
    };
    let sigma_game = (games_per_sample * variance).sqrt();
    let nelo_of = |score: f64| (score - 0.5) / sigma_game * NELO_PER_STANDARD_DEVIATION;
    let (nelo, nelo_error_95) = if sigma_game > 0.0 {
        (
            nelo_of(score),
            (nelo_of(score + Z_95 * standard_error) - nelo_of(score - Z_95 * standard_error)) / 2.0,
        )
    } else if score == 0.5 {
        (0.0, 0.0)
    } else {
        ((score - 0.5).signum() * f64::INFINITY, 0.0)
    };
    Some(EloEstimate {
        elo: elo_from_score(score),
        error_95,
        los,
        draw_ratio,
        score,
        nelo,
        nelo_error_95,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Rounds to `decimals` places, as printed.
    fn rounded(value: f64, decimals: i32) -> f64 {
        let scale = 10f64.powi(decimals);
        (value * scale).round() / scale
    }

    #[test]
    fn trinomial_matches_fastchess() {
        let t = Trinomial {
            wins: 136,
            losses: 96,
            draws: 111,
        };
        let estimate = elo_trinomial(&t).unwrap();
        assert_eq!(rounded(estimate.elo, 2), 40.70);
        assert_eq!(rounded(estimate.error_95, 2), 30.43);
        assert_eq!(rounded(estimate.los * 100.0, 2), 99.60);
        assert_eq!(estimate.score, 191.5 / 343.0);
        assert_eq!(estimate.draw_ratio, 111.0 / 343.0);
    }

    #[test]
    fn pentanomial_matches_fastchess() {
        let p = Pentanomial([34, 54, 63, 64, 75]);
        let estimate = elo_pentanomial(&p).unwrap();
        assert_eq!(rounded(estimate.elo, 2), 55.58);
        assert_eq!(rounded(estimate.error_95, 2), 27.65);
        assert_eq!(estimate.score, 168.0 / 290.0);
        assert_eq!(estimate.draw_ratio, 63.0 / 290.0);
        assert_eq!(rounded(estimate.los * 100.0, 2), 100.00);
        assert!(estimate.los < 1.0);
    }

    #[test]
    fn nelo_follows_its_definition() {
        // W/D/L = 2/1/1, worked by hand: mean 0.625, per-game variance
        // (2 * 0.375^2 + 0.125^2 + 0.625^2) / 4 = 0.171875.
        let scale = 800.0 / std::f64::consts::LN_10;
        let estimate = elo_trinomial(&Trinomial {
            wins: 2,
            losses: 1,
            draws: 1,
        })
        .unwrap();
        let sigma = 0.171_875f64.sqrt();
        assert!((estimate.nelo - 0.125 / sigma * scale).abs() < 1e-9);
        assert!((estimate.nelo - 104.76).abs() < 0.01, "{}", estimate.nelo);
        // The interval half-width is 1.96 / sqrt(games) standard deviations.
        assert!((estimate.nelo_error_95 - 1.959_964 / 2.0 * scale).abs() < 1e-3);
        // Pairs [1, 0, 2, 3, 2] (8 pairs, per-game scores 0, .5, .5, .75 x3, 1 x2): mean
        // 5.25 / 8, per-pair variance from the squares, per-game deviation sqrt(2 v).
        let values = [0.0, 0.5, 0.5, 0.75, 0.75, 0.75, 1.0, 1.0];
        let mean = values.iter().sum::<f64>() / 8.0;
        let variance = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / 8.0;
        let pairs = elo_pentanomial(&Pentanomial([1, 0, 2, 3, 2])).unwrap();
        let expected = (mean - 0.5) / (2.0 * variance).sqrt() * scale;
        assert!(
            (pairs.nelo - expected).abs() < 1e-9,
            "{} {expected}",
            pairs.nelo
        );
        assert!((pairs.nelo_error_95 - 1.959_964 / 16f64.sqrt() * scale).abs() < 1e-3);
    }

    #[test]
    fn mirrored_results_negate_elo() {
        let forward = elo_trinomial(&Trinomial {
            wins: 30,
            losses: 20,
            draws: 50,
        })
        .unwrap();
        let backward = elo_trinomial(&Trinomial {
            wins: 20,
            losses: 30,
            draws: 50,
        })
        .unwrap();
        assert!((forward.elo + backward.elo).abs() < 1e-9);
        assert!((forward.error_95 - backward.error_95).abs() < 1e-9);
        assert!((forward.los + backward.los - 1.0).abs() < 1e-12);
        let forward = elo_pentanomial(&Pentanomial([1, 5, 9, 7, 3])).unwrap();
        let backward = elo_pentanomial(&Pentanomial([3, 7, 9, 5, 1])).unwrap();
        assert!((forward.elo + backward.elo).abs() < 1e-9);
        assert!((forward.los + backward.los - 1.0).abs() < 1e-12);
    }

    #[test]
    fn balanced_pairs_carry_less_variance_than_their_games() {
        // Pairs 1-0 and 0-1 (one point each) vs. both draws: same score, different variance.
        let split = elo_pentanomial(&Pentanomial([0, 0, 10, 0, 0])).unwrap();
        assert_eq!(split.elo, 0.0);
        assert_eq!(split.error_95, 0.0);
        let trinomial = elo_trinomial(&Trinomial {
            wins: 10,
            losses: 10,
            draws: 0,
        })
        .unwrap();
        assert_eq!(trinomial.elo, 0.0);
        assert!(trinomial.error_95 > 100.0);
    }

    #[test]
    fn undefined_results_are_none() {
        assert_eq!(elo_trinomial(&Trinomial::default()), None);
        assert_eq!(
            elo_trinomial(&Trinomial {
                wins: 7,
                losses: 0,
                draws: 0
            }),
            None
        );
        assert_eq!(
            elo_trinomial(&Trinomial {
                wins: 0,
                losses: 7,
                draws: 0
            }),
            None
        );
        assert_eq!(elo_pentanomial(&Pentanomial::default()), None);
        assert_eq!(elo_pentanomial(&Pentanomial([0, 0, 0, 0, 4])), None);
        assert_eq!(elo_pentanomial(&Pentanomial([4, 0, 0, 0, 0])), None);
    }

    #[test]
    fn all_draws_is_zero_elo_with_zero_error() {
        let expected = EloEstimate {
            elo: 0.0,
            error_95: 0.0,
            los: 0.5,
            draw_ratio: 1.0,
            score: 0.5,
            nelo: 0.0,
            nelo_error_95: 0.0,
        };
        assert_eq!(
            elo_trinomial(&Trinomial {
                wins: 0,
                losses: 0,
                draws: 9
            }),
            Some(expected)
        );
        let pairs = elo_pentanomial(&Pentanomial([0, 0, 9, 0, 0])).unwrap();
        assert_eq!(pairs, expected);
    }

    #[test]
    fn tiny_samples_give_finite_elo_and_infinite_error() {
        let estimate = elo_trinomial(&Trinomial {
            wins: 1,
            losses: 0,
            draws: 1,
        })
        .unwrap();
        assert!(estimate.elo.is_finite() && estimate.elo > 0.0);
        assert_eq!(estimate.error_95, f64::INFINITY);
        assert!(estimate.los > 0.5 && estimate.los < 1.0);
        let estimate = elo_pentanomial(&Pentanomial([0, 0, 0, 1, 0])).unwrap();
        assert!(estimate.elo.is_finite() && estimate.elo > 0.0);
        assert_eq!(estimate.error_95, 0.0);
        assert_eq!(estimate.los, 1.0);
    }

    #[test]
    fn huge_counts_stay_finite() {
        let t = Trinomial {
            wins: u64::MAX / 4,
            losses: u64::MAX / 5,
            draws: u64::MAX / 4,
        };
        let estimate = elo_trinomial(&t).unwrap();
        assert!(estimate.elo > 0.0 && estimate.elo.is_finite());
        assert!(estimate.error_95 >= 0.0 && estimate.error_95 < 1e-6);
        assert_eq!(estimate.los, 1.0);
    }
}
