//! The sequential probability ratio test, with the Elo models of fastchess and cutechess:
//! normalized Elo (fastchess's and fishtest's default), logistic Elo (fastchess's `logistic`)
//! and BayesElo (cutechess-cli's SPRT, fastchess's `bayesian`).

use super::elo::{mean_and_variance, variance_around, Pentanomial, Trinomial};
use super::{score_from_elo, NELO_PER_STANDARD_DEVIATION};

/// The Elo unit of an SPRT's bounds, and the test that goes with it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum SprtModel {
    /// Normalized Elo: see [`Sprt`].
    #[default]
    Normalized,
    /// Logistic Elo: each bound is the expected score `1 / (1 + 10^(-elo / 400))`, and the
    /// LLR compares the maximum-likelihood result distributions with those means (Van den
    /// Bergh's generalized SPRT, exact maximization, as fastchess's `logistic`).
    Logistic,
    /// BayesElo, as cutechess-cli's SPRT: the draw Elo is estimated from the games so far,
    /// each bound gives win, draw and loss probabilities, and the LLR is the trinomial
    /// log-likelihood ratio of the games under the two (game pairs are not used). 0 until
    /// there is at least one win, one draw and one loss.
    Bayesian,
}

impl SprtModel {
    /// Reads `normalized`, `logistic` or `bayesian`.
    ///
    /// # Errors
    /// The bad name.
    pub fn parse(text: &str) -> Result<SprtModel, String> {
        match text {
            "normalized" => Ok(SprtModel::Normalized),
            "logistic" => Ok(SprtModel::Logistic),
            "bayesian" => Ok(SprtModel::Bayesian),
            _ => Err(format!(
                "invalid sprt model \"{text}\": expected normalized, logistic or bayesian"
            )),
        }
    }

    /// The name.
    pub fn name(self) -> &'static str {
        match self {
            SprtModel::Normalized => "normalized",
            SprtModel::Logistic => "logistic",
            SprtModel::Bayesian => "bayesian",
        }
    }
}

/// SPRT parameters: H0 "the first engine is `elo0` stronger" against H1 "it is `elo1` stronger",
/// in the Elo of `model` (normalized unless set), with false-positive rate `alpha` and
/// false-negative rate `beta`.
///
/// Normalized Elo measures strength in standard deviations of the per-game score:
/// `nelo = (mu - 1/2) / sigma * 800 / ln 10`, so it does not depend on the draw rate. The test
/// turns each bound into an expected score `mu_i = 1/2 + nelo_i * sigma / (800 / ln 10)` using
/// the observed per-game standard deviation `sigma`, then compares the likelihoods of the best
/// result distributions with means `mu_1` and `mu_0`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// Normalized Elo difference under the null hypothesis H0.
    pub elo0: f64,
    /// Normalized Elo difference under the alternative hypothesis H1 (above `elo0`).
    pub elo1: f64,
    /// Probability of accepting H1 when H0 holds (type I error), in `(0, 1)`.
    pub alpha: f64,
    /// Probability of accepting H0 when H1 holds (type II error), in `(0, 1)`.
    pub beta: f64,
    /// The Elo model of the bounds.
    pub model: SprtModel,
}

/// The decision of a finished SPRT.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SprtResult {
    /// The log-likelihood ratio reached the lower bound: H0 (`elo0`) is accepted.
    AcceptH0,
    /// The log-likelihood ratio reached the upper bound: H1 (`elo1`) is accepted.
    AcceptH1,
}

impl Sprt {
    /// Validated SPRT parameters: finite `elo0 < elo1`, `alpha` and `beta` strictly between 0
    /// and 1 with `alpha + beta < 1` (otherwise the bounds would not enclose 0).
    pub fn new(elo0: f64, elo1: f64, alpha: f64, beta: f64) -> Result<Sprt, String> {
        for (name, value) in [("elo0", elo0), ("elo1", elo1)] {
            if !value.is_finite() {
                return Err(format!(
                    "sprt {name} must be a finite number, got '{value}'"
                ));
            }
        }
        if elo0 >= elo1 {
            return Err(format!(
                "sprt elo0 must be below elo1, got '{elo0}' and '{elo1}'"
            ));
        }
        for (name, value) in [("alpha", alpha), ("beta", beta)] {
            if !(value > 0.0 && value < 1.0) {
                return Err(format!(
                    "sprt {name} must be between 0 and 1 exclusive, got '{value}'"
                ));
            }
        }
        if alpha + beta >= 1.0 {
            return Err(format!(
                "sprt alpha + beta must be below 1, got '{alpha}' and '{beta}'"
            ));
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
            model: SprtModel::Normalized,
        })
    }

    /// The same test in the Elo of `model`.
    pub fn with_model(self, model: SprtModel) -> Sprt {
        Sprt { model, ..self }
    }

    /// Wald's stopping bounds on the log-likelihood ratio: `(ln(beta / (1 - alpha)),
    /// ln((1 - beta) / alpha))`, i.e. about (-2.94, 2.94) for alpha = beta = 0.05.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// Log-likelihood ratio of H1 against H0 for win/loss/draw counts, each game one sample of
    /// score 1, 1/2 or 0; see [`Sprt::llr_pentanomial`] for the formula. 0 without games.
    pub fn llr_trinomial(&self, t: &Trinomial) -> f64 {
        match self.model {
            SprtModel::Normalized => self.llr(&t.outcomes(), 1.0),
            SprtModel::Logistic => self.llr_logistic(&t.outcomes()),
            SprtModel::Bayesian => self.llr_bayesian(t),
        }
    }

    /// Log-likelihood ratio of H1 against H0 for game-pair counts, each pair one sample of
    /// score 0, 1/4, 1/2, 3/4 or 1 per game.
    ///
    /// With `N` samples of mean `m` and variance `v`: the per-game standard deviation is
    /// `sigma = sqrt(v)` for games or `sqrt(2 v)` for pairs (a pair averages two games), each
    /// bound becomes a score `mu_i` (see [`Sprt`]), and
    /// `LLR = N / 2 * ln(v_0 / v_1)` with `v_i = v + (m - mu_i)^2`, the mean squared deviation of
    /// the samples from `mu_i`. This is Michel Van den Bergh's quadratic approximation of the
    /// generalized likelihood ratio (the multinomial maximum likelihood under each mean), the one
    /// fastchess uses; the exact maximization differs by about 1e-5 on typical test sizes.
    /// 0 without samples or when all samples are equal (nothing to compare).
    /// Under [`SprtModel::Logistic`] the bounds' scores are compared as for games; under
    /// [`SprtModel::Bayesian`] (games only) this is 0: use [`Sprt::llr_trinomial`].
    pub fn llr_pentanomial(&self, p: &Pentanomial) -> f64 {
        match self.model {
            SprtModel::Normalized => self.llr(&p.outcomes(), 2.0),
            SprtModel::Logistic => self.llr_logistic(&p.outcomes()),
            SprtModel::Bayesian => 0.0,
        }
    }

    /// Whether the test reads game pairs (the BayesElo model reads games only).
    pub fn uses_pairs(&self) -> bool {
        self.model != SprtModel::Bayesian
    }

    /// Accepts H1 once `llr` reaches the upper bound, H0 once it reaches the lower bound, and
    /// returns `None` while the test must go on (also for NaN).
    pub fn decide(&self, llr: f64) -> Option<SprtResult> {
        let (lower, upper) = self.bounds();
        if llr >= upper {
            Some(SprtResult::AcceptH1)
        } else if llr <= lower {
            Some(SprtResult::AcceptH0)
        } else {
            None
        }
    }

    /// The logistic-Elo LLR: `sum_i n_i ln(p1_i / p0_i)` where `p_k` is the distribution
    /// closest to the observed one (maximum likelihood) whose mean is the bound's expected
    /// score: `p_k,i = phat_i / (1 + theta (a_i - s_k))`, `theta` solving
    /// `sum_i phat_i (a_i - s_k) / (1 + theta (a_i - s_k)) = 0` (found by bisection). Empty
    /// outcomes count 1e-3, as in fastchess, so that every score stays reachable.
    fn llr_logistic(&self, outcomes: &[(f64, u64)]) -> f64 {
        if outcomes.iter().all(|&(_, count)| count == 0) {
            return 0.0;
        }
        let counts: Vec<(f64, f64)> = outcomes
            .iter()
            .map(|&(score, count)| (score, if count == 0 { 1e-3 } else { count as f64 }))
            .collect();
        let total: f64 = counts.iter().map(|&(_, n)| n).sum();
        let log_likelihood = |expected: f64| -> f64 {
            let theta = closest_theta(&counts, total, expected);
            counts
                .iter()
                .map(|&(score, n)| -n * (1.0 + theta * (score - expected)).ln())
                .sum()
        };
        log_likelihood(score_from_elo(self.elo1)) - log_likelihood(score_from_elo(self.elo0))
    }

    /// The BayesElo LLR of cutechess-cli (see [`SprtModel::Bayesian`]).
    fn llr_bayesian(&self, t: &Trinomial) -> f64 {
        if t.wins == 0 || t.losses == 0 || t.draws == 0 {
            return 0.0;
        }
        let games = t.games() as f64;
        let (_, draw_elo) = bayes_elo(t.wins as f64 / games, t.losses as f64 / games);
        let p0 = bayes_probabilities(self.elo0, draw_elo);
        let p1 = bayes_probabilities(self.elo1, draw_elo);
        t.wins as f64 * (p1.0 / p0.0).ln()
            + t.draws as f64 * (p1.1 / p0.1).ln()
            + t.losses as f64 * (p1.2 / p0.2).ln()
    }

    /// The LLR for (score, count) samples whose variance is `games_per_sample` times smaller
    /// than that of a single game.
    fn llr(&self, outcomes: &[(f64, u64)], games_per_sample: f64) -> f64 {
        let Some((samples, _, variance)) = mean_and_variance(outcomes) else {
            return 0.0;
        };
        if variance <= 0.0 {
            return 0.0;
        }
        let sigma_per_game = (games_per_sample * variance).sqrt();
        let score0 = 0.5 + self.elo0 / NELO_PER_STANDARD_DEVIATION * sigma_per_game;
        let score1 = 0.5 + self.elo1 / NELO_PER_STANDARD_DEVIATION * sigma_per_game;
        let variance0 = variance_around(outcomes, score0);
        let variance1 = variance_around(outcomes, score1);
        0.5 * samples * (variance0 / variance1).ln()
    }
}

/// The `theta` of the maximum-likelihood distribution with mean `expected` (see
/// [`Sprt::llr_logistic`]): the root of a function that decreases from +inf to -inf between the
/// poles `-1 / (max - expected)` and `-1 / (min - expected)`.
fn closest_theta(counts: &[(f64, f64)], total: f64, expected: f64) -> f64 {
    let min = counts.iter().map(|&(a, _)| a).fold(f64::INFINITY, f64::min);
    let max = counts
        .iter()
        .map(|&(a, _)| a)
        .fold(f64::NEG_INFINITY, f64::max);
    if expected <= min || expected >= max {
        return 0.0;
    }
    let slope = |theta: f64| -> f64 {
        counts
            .iter()
            .map(|&(a, n)| n / total * (a - expected) / (1.0 + theta * (a - expected)))
            .sum()
    };
    let (mut low, mut high) = (-1.0 / (max - expected), -1.0 / (min - expected));
    for _ in 0..200 {
        let middle = 0.5 * (low + high);
        if middle <= low || middle >= high {
            break;
        }
        if slope(middle) > 0.0 {
            low = middle;
        } else {
            high = middle;
        }
    }
    0.5 * (low + high)
}

/// BayesElo and draw Elo of win and loss probabilities (cutechess-cli's `BayesElo`):
/// `elo = 200 log10(w / l * (1 - l) / (1 - w))`, `draw_elo = 200 log10((1 - l) / l * (1 - w) / w)`.
pub fn bayes_elo(win: f64, loss: f64) -> (f64, f64) {
    (
        200.0 * (win / loss * (1.0 - loss) / (1.0 - win)).log10(),
        200.0 * ((1.0 - loss) / loss * (1.0 - win) / win).log10(),
    )
}

/// Win, draw and loss probabilities of a BayesElo difference under a draw Elo:
/// `w = 1 / (1 + 10^((draw_elo - elo) / 400))`, `l = 1 / (1 + 10^((draw_elo + elo) / 400))`,
/// `d = 1 - w - l`; the inverse of [`bayes_elo`].
pub fn bayes_probabilities(elo: f64, draw_elo: f64) -> (f64, f64, f64) {
    let win = 1.0 / (1.0 + 10f64.powf((draw_elo - elo) / 400.0));
    let loss = 1.0 / (1.0 + 10f64.powf((draw_elo + elo) / 400.0));
    (win, 1.0 - win - loss, loss)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rounded(value: f64, decimals: i32) -> f64 {
        let scale = 10f64.powi(decimals);
        (value * scale).round() / scale
    }

    fn standard() -> Sprt {
        Sprt::new(0.0, 2.0, 0.05, 0.05).unwrap()
    }

    #[test]
    fn llr_matches_fastchess() {
        let t = Trinomial {
            wins: 36433,
            losses: 36027,
            draws: 68692,
        };
        assert_eq!(rounded(standard().llr_trinomial(&t), 2), 0.92);
        let p = Pentanomial([365, 16618, 36229, 16974, 390]);
        assert_eq!(rounded(standard().llr_pentanomial(&p), 2), 2.25);
    }

    #[test]
    fn bounds_for_five_percent_errors() {
        let (lower, upper) = standard().bounds();
        assert_eq!((rounded(lower, 2), rounded(upper, 2)), (-2.94, 2.94));
        assert!((lower - (0.05f64 / 0.95).ln()).abs() < 1e-15);
        assert!((upper + lower).abs() < 1e-15);
        let (lower, upper) = Sprt::new(0.0, 5.0, 0.1, 0.2).unwrap().bounds();
        assert!((lower - (0.2f64 / 0.9).ln()).abs() < 1e-15);
        assert!((upper - 8f64.ln()).abs() < 1e-15);
    }

    #[test]
    fn decide_at_and_between_bounds() {
        let sprt = standard();
        let (lower, upper) = sprt.bounds();
        assert_eq!(sprt.decide(upper), Some(SprtResult::AcceptH1));
        assert_eq!(sprt.decide(upper + 1.0), Some(SprtResult::AcceptH1));
        assert_eq!(sprt.decide(lower), Some(SprtResult::AcceptH0));
        assert_eq!(sprt.decide(lower - 1.0), Some(SprtResult::AcceptH0));
        assert_eq!(sprt.decide(upper - 1e-9), None);
        assert_eq!(sprt.decide(lower + 1e-9), None);
        assert_eq!(sprt.decide(0.0), None);
        assert_eq!(sprt.decide(f64::NAN), None);
        assert_eq!(sprt.decide(f64::INFINITY), Some(SprtResult::AcceptH1));
    }

    #[test]
    fn llr_sign_follows_the_evidence() {
        let sprt = standard();
        let strong = Trinomial {
            wins: 6000,
            losses: 4000,
            draws: 10000,
        };
        let weak = Trinomial {
            wins: 4000,
            losses: 6000,
            draws: 10000,
        };
        assert!(sprt.llr_trinomial(&strong) > sprt.bounds().1);
        assert!(sprt.llr_trinomial(&weak) < sprt.bounds().0);
        assert!(sprt.llr_pentanomial(&Pentanomial([10, 100, 300, 150, 20])) > 0.0);
        assert!(sprt.llr_pentanomial(&Pentanomial([20, 150, 300, 100, 10])) < 0.0);
        // Swapping the hypotheses negates the ratio.
        let swapped = Sprt {
            elo0: 2.0,
            elo1: 0.0,
            ..sprt
        };
        let t = Trinomial {
            wins: 36433,
            losses: 36027,
            draws: 68692,
        };
        assert!((sprt.llr_trinomial(&t) + swapped.llr_trinomial(&t)).abs() < 1e-9);
    }

    #[test]
    fn degenerate_results_give_zero() {
        let sprt = standard();
        assert_eq!(sprt.llr_trinomial(&Trinomial::default()), 0.0);
        assert_eq!(sprt.llr_pentanomial(&Pentanomial::default()), 0.0);
        assert_eq!(
            sprt.llr_trinomial(&Trinomial {
                wins: 0,
                losses: 0,
                draws: 50
            }),
            0.0
        );
        assert_eq!(
            sprt.llr_trinomial(&Trinomial {
                wins: 50,
                losses: 0,
                draws: 0
            }),
            0.0
        );
        assert_eq!(sprt.llr_pentanomial(&Pentanomial([0, 0, 0, 0, 50])), 0.0);
        assert_eq!(sprt.llr_pentanomial(&Pentanomial([0, 0, 50, 0, 0])), 0.0);
        let tiny = sprt.llr_trinomial(&Trinomial {
            wins: 1,
            losses: 0,
            draws: 0,
        });
        assert!(tiny.is_finite());
        let huge = Trinomial {
            wins: u64::MAX / 3,
            losses: u64::MAX / 4,
            draws: u64::MAX / 3,
        };
        assert!(sprt.llr_trinomial(&huge).is_finite());
    }

    #[test]
    fn logistic_model_matches_the_binomial_likelihood() {
        // Without draws the closest distribution with mean s is Bernoulli(s), so the LLR is
        // W ln(s1 / s0) + L ln((1 - s1) / (1 - s0)) (up to fastchess's 1e-3 empty-outcome count).
        let sprt = Sprt::new(0.0, 10.0, 0.05, 0.05)
            .unwrap()
            .with_model(SprtModel::Logistic);
        let (s0, s1) = (score_from_elo(0.0), score_from_elo(10.0));
        let (wins, losses) = (560.0, 440.0);
        let exact = wins * (s1 / s0).ln() + losses * ((1.0 - s1) / (1.0 - s0)).ln();
        let t = Trinomial {
            wins: 560,
            losses: 440,
            draws: 0,
        };
        let llr = sprt.llr_trinomial(&t);
        assert!((llr - exact).abs() < 1e-2, "{llr} vs {exact}");
        // Without draws a normalized Elo is close to a logistic one; with many draws the
        // same bounds mean a smaller score shift in normalized Elo, so less evidence.
        let normalized = Sprt::new(0.0, 10.0, 0.05, 0.05).unwrap();
        assert!((normalized.llr_trinomial(&t) - llr).abs() < 0.1 * llr.abs());
        let drawish = Trinomial {
            wins: 560,
            losses: 440,
            draws: 2000,
        };
        assert!(normalized.llr_trinomial(&drawish) < sprt.llr_trinomial(&drawish));
        // Pairs read too; the sign follows the evidence.
        assert!(sprt.llr_pentanomial(&Pentanomial([10, 100, 300, 150, 20])) > 0.0);
        assert!(sprt.llr_pentanomial(&Pentanomial([20, 150, 300, 100, 10])) < 0.0);
        assert_eq!(sprt.llr_trinomial(&Trinomial::default()), 0.0);
    }

    #[test]
    fn bayesian_model_is_cutechess_trinomial_ratio() {
        // BayesElo and its probabilities are inverse to each other.
        let (elo, draw_elo) = bayes_elo(0.4, 0.25);
        let (win, draw, loss) = bayes_probabilities(elo, draw_elo);
        assert!((win - 0.4).abs() < 1e-12 && (loss - 0.25).abs() < 1e-12);
        assert!((draw - 0.35).abs() < 1e-12);
        // A small case by hand: 30 wins, 20 losses, 50 draws; the draw Elo from the sample,
        // then W ln(w1/w0) + D ln(d1/d0) + L ln(l1/l0) between BayesElo 0 and 20.
        let t = Trinomial {
            wins: 30,
            losses: 20,
            draws: 50,
        };
        let draw_elo: f64 = 200.0 * (0.8f64 / 0.2 * 0.7 / 0.3).log10();
        let probabilities = |elo: f64| {
            let w = 1.0 / (1.0 + 10f64.powf((draw_elo - elo) / 400.0));
            let l = 1.0 / (1.0 + 10f64.powf((draw_elo + elo) / 400.0));
            (w, 1.0 - w - l, l)
        };
        let (p0, p1) = (probabilities(0.0), probabilities(20.0));
        let expected =
            30.0 * (p1.0 / p0.0).ln() + 50.0 * (p1.1 / p0.1).ln() + 20.0 * (p1.2 / p0.2).ln();
        let sprt = Sprt::new(0.0, 20.0, 0.05, 0.05)
            .unwrap()
            .with_model(SprtModel::Bayesian);
        assert!((sprt.llr_trinomial(&t) - expected).abs() < 1e-9);
        assert!(expected > 0.0);
        // Nothing to say without a win, a loss and a draw; pairs are not read.
        let no_draws = Trinomial { draws: 0, ..t };
        assert_eq!(sprt.llr_trinomial(&no_draws), 0.0);
        assert_eq!(sprt.llr_pentanomial(&Pentanomial([1, 2, 3, 4, 5])), 0.0);
        assert!(!sprt.uses_pairs());
        assert_eq!(SprtModel::parse("logistic"), Ok(SprtModel::Logistic));
        assert!(SprtModel::parse("gaussian").is_err());
    }

    #[test]
    fn new_rejects_invalid_parameters() {
        assert_eq!(
            standard(),
            Sprt {
                elo0: 0.0,
                elo1: 2.0,
                alpha: 0.05,
                beta: 0.05,
                model: SprtModel::Normalized,
            }
        );
        assert!(Sprt::new(-1.5, 0.5, 0.01, 0.2).is_ok());
        let error = Sprt::new(2.0, 2.0, 0.05, 0.05).unwrap_err();
        assert_eq!(error, "sprt elo0 must be below elo1, got '2' and '2'");
        assert!(Sprt::new(3.0, 2.0, 0.05, 0.05).is_err());
        assert!(Sprt::new(f64::NAN, 2.0, 0.05, 0.05)
            .unwrap_err()
            .contains("'NaN'"));
        assert!(Sprt::new(0.0, f64::INFINITY, 0.05, 0.05).is_err());
        let error = Sprt::new(0.0, 2.0, 1.5, 0.05).unwrap_err();
        assert_eq!(
            error,
            "sprt alpha must be between 0 and 1 exclusive, got '1.5'"
        );
        for (alpha, beta) in [(0.0, 0.05), (0.05, 0.0), (1.0, 0.05), (0.05, -0.1)] {
            assert!(Sprt::new(0.0, 2.0, alpha, beta).is_err(), "{alpha} {beta}");
        }
        assert!(Sprt::new(0.0, 2.0, f64::NAN, 0.05).is_err());
        assert!(Sprt::new(0.0, 2.0, 0.5, 0.5)
            .unwrap_err()
            .contains("alpha + beta"));
    }
}
