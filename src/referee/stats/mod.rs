//! Match statistics: Elo and normalized Elo (nElo) estimates with 95% error bars and likelihood
//! of superiority from trinomial (win/loss/draw) or pentanomial (game-pair) results, and the
//! sequential probability ratio test (SPRT) in normalized, logistic or Bayes Elo, as fastchess,
//! fishtest and cutechess-cli compute them.
//!
//! Everything here is pure arithmetic on counts: no formatting, no I/O. Scores are in points per
//! game (win 1, draw 1/2, loss 0) from the first engine's point of view.

mod elo;
mod sprt;

pub use elo::{elo_pentanomial, elo_trinomial, EloEstimate, Pentanomial, Trinomial};
pub use sprt::{bayes_elo, bayes_probabilities, Sprt, SprtModel, SprtResult};

/// `800 / ln 10`: converts a score shift in per-game standard deviations into normalized Elo
/// (the slope of logistic Elo at a score of 1/2 is `1600 / ln 10` per unit of score, and a
/// per-game standard deviation of 1/2 is taken as the reference).
pub const NELO_PER_STANDARD_DEVIATION: f64 = 800.0 / std::f64::consts::LN_10;

/// The two-sided 95% quantile of the standard normal distribution, `Phi^-1(0.975)`.
pub const Z_95: f64 = 1.959_963_984_540_054;

/// Logistic Elo difference for an expected score: `-400 * log10(1 / score - 1)`.
///
/// Gives `-inf` at score 0, `+inf` at score 1 and NaN outside `[0, 1]`.
pub fn elo_from_score(score: f64) -> f64 {
    -400.0 * (1.0 / score - 1.0).log10()
}

/// Expected score for a logistic Elo difference: `1 / (1 + 10^(-elo / 400))`; the inverse of
/// [`elo_from_score`].
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Cumulative distribution function of the standard normal distribution,
/// `Phi(z) = (1 + erf(z / sqrt 2)) / 2`. NaN in, NaN out.
pub fn normal_cdf(z: f64) -> f64 {
    0.5 * (1.0 + erf(z / std::f64::consts::SQRT_2))
}

/// The error function, to about 1e-15 absolute accuracy.
///
/// Uses the everywhere-convergent series with positive terms (no cancellation)
/// `erf(x) = 2/sqrt(pi) * exp(-x^2) * sum_n x (2x^2)^n / (1 * 3 * ... * (2n + 1))`;
/// beyond |x| = 6, `1 - |erf(x)|` is below 2.2e-17, so the result is +-1.
fn erf(x: f64) -> f64 {
    if x.is_nan() {
        return f64::NAN;
    }
    if x.abs() > 6.0 {
        return x.signum();
    }
    let two_x_squared = 2.0 * x * x;
    let mut term = x;
    let mut sum = x;
    for n in 1..1000 {
        term *= two_x_squared / f64::from(2 * n + 1);
        sum += term;
        if term.abs() <= 1e-17 * sum.abs() {
            break;
        }
    }
    2.0 / std::f64::consts::PI.sqrt() * (-x * x).exp() * sum
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn erf_matches_reference_values() {
        let cases = [
            (0.0, 0.0),
            (0.1, 0.112_462_916_018_284_9),
            (0.5, 0.520_499_877_813_046_5),
            (1.0, 0.842_700_792_949_714_9),
            (2.0, 0.995_322_265_018_952_7),
            (3.0, 0.999_977_909_503_001_4),
            (-1.5, -0.966_105_146_475_310_7),
            (5.9, 0.999_999_999_999_999_9),
            (40.0, 1.0),
            (-40.0, -1.0),
        ];
        for (x, expected) in cases {
            assert!((erf(x) - expected).abs() < 1e-15, "erf({x}) = {}", erf(x));
        }
        assert!(erf(f64::NAN).is_nan());
    }

    #[test]
    fn normal_cdf_quantiles() {
        assert!((normal_cdf(Z_95) - 0.975).abs() < 1e-15);
        assert!((normal_cdf(-Z_95) - 0.025).abs() < 1e-15);
        assert_eq!(normal_cdf(0.0), 0.5);
        assert_eq!(normal_cdf(f64::INFINITY), 1.0);
        assert_eq!(normal_cdf(f64::NEG_INFINITY), 0.0);
    }

    #[test]
    fn elo_and_score_are_inverse() {
        assert_eq!(elo_from_score(0.5), 0.0);
        assert_eq!(score_from_elo(0.0), 0.5);
        assert!((score_from_elo(400.0) - 10.0 / 11.0).abs() < 1e-15);
        for elo in [-800.0, -191.3, -1.0, 0.5, 40.0, 700.0] {
            assert!(
                (elo_from_score(score_from_elo(elo)) - elo).abs() < 1e-9,
                "{elo}"
            );
        }
        assert_eq!(elo_from_score(1.0), f64::INFINITY);
        assert_eq!(elo_from_score(0.0), f64::NEG_INFINITY);
        assert!(elo_from_score(1.5).is_nan());
    }
}
