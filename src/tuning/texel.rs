//! Texel-style fitting of the evaluation weights: the prediction for a position is
//! `1 / (1 + exp(-K * eval))`, `eval` the static evaluation (side to move's view, 100 = one
//! goat), and the weights minimise the mean squared error against the labels.

use std::fmt::Write as _;

use crate::position::TOTAL_GOATS;
use crate::search::eval::{features, Weights, FEATURE_COUNT, FEATURE_NAMES};
use crate::{Position, Rules, Side};

/// Weights as floats: the placement weights, then the movement weights.
pub type Vector = [f64; 2 * FEATURE_COUNT];

/// One labelled position, reduced to what the fit needs.
#[derive(Clone, Debug)]
pub struct Sample {
    /// Features times the side to move's sign.
    features: [f64; FEATURE_COUNT],
    /// Share of the placement weights (goats in hand / 20).
    placement: f64,
    /// Win 1, draw 1/2, loss 0 for the side to move.
    target: f64,
}

impl Sample {
    /// `position` with its target (1, 1/2 or 0 for the side to move).
    pub fn new(position: &Position, rules: &Rules, target: f64) -> Sample {
        let sign = if position.side_to_move() == Side::Goats {
            1.0
        } else {
            -1.0
        };
        Sample {
            features: features(position, rules).map(|f| sign * f64::from(f)),
            placement: f64::from(position.goats_in_hand()) / f64::from(TOTAL_GOATS),
            target,
        }
    }

    /// The evaluation with weights `w` (side to move's view, unrounded).
    pub fn evaluate(&self, w: &Vector) -> f64 {
        let mut sum = 0.0;
        for i in 0..FEATURE_COUNT {
            let weight = w[i] * self.placement + w[FEATURE_COUNT + i] * (1.0 - self.placement);
            sum += self.features[i] * weight;
        }
        sum
    }
}

fn sigmoid(k: f64, eval: f64) -> f64 {
    1.0 / (1.0 + (-k * eval).exp())
}

/// The weights as a vector.
pub fn to_vector(weights: &Weights) -> Vector {
    let mut w = [0.0; 2 * FEATURE_COUNT];
    for i in 0..FEATURE_COUNT {
        w[i] = f64::from(weights.placement[i]);
        w[FEATURE_COUNT + i] = f64::from(weights.movement[i]);
    }
    w
}

/// The vector rounded to whole weights.
pub fn to_weights(w: &Vector) -> Weights {
    let mut weights = Weights::default();
    for i in 0..FEATURE_COUNT {
        weights.placement[i] = w[i].round() as i32;
        weights.movement[i] = w[FEATURE_COUNT + i].round() as i32;
    }
    weights
}

/// Mean squared error of the predictions with `K` = `k` and weights `w`.
pub fn error(samples: &[Sample], k: f64, w: &Vector) -> f64 {
    let sum: f64 = samples
        .iter()
        .map(|sample| (sigmoid(k, sample.evaluate(w)) - sample.target).powi(2))
        .sum();
    sum / samples.len().max(1) as f64
}

/// The `K` in 1e-5..1 that minimises the error of `w` (golden-section search on a log scale).
pub fn fit_k(samples: &[Sample], w: &Vector) -> f64 {
    let f = |log_k: f64| error(samples, log_k.exp(), w);
    let (mut a, mut b) = ((1e-5f64).ln(), 0.0f64);
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..60 {
        let c = b - ratio * (b - a);
        let d = a + ratio * (b - a);
        if f(c) < f(d) {
            b = d;
        } else {
            a = c;
        }
    }
    ((a + b) / 2.0).exp()
}

/// Minimises the error from `start` by full-batch Adam with step size `rate`, `K` held;
/// `progress` gets the step and the error every 250 steps.
pub fn fit_weights(
    samples: &[Sample],
    k: f64,
    start: Vector,
    steps: u32,
    rate: f64,
    progress: &mut dyn FnMut(u32, f64),
) -> Vector {
    let mut w = start;
    let (mut m, mut v) = ([0.0; 2 * FEATURE_COUNT], [0.0; 2 * FEATURE_COUNT]);
    let (beta1, beta2, epsilon) = (0.9f64, 0.999f64, 1e-12);
    let n = samples.len().max(1) as f64;
    for step in 1..=steps {
        let mut gradient = [0.0; 2 * FEATURE_COUNT];
        for sample in samples {
            let p = sigmoid(k, sample.evaluate(&w));
            let common = 2.0 * (p - sample.target) * p * (1.0 - p) * k;
            for i in 0..FEATURE_COUNT {
                let g = common * sample.features[i];
                gradient[i] += g * sample.placement;
                gradient[FEATURE_COUNT + i] += g * (1.0 - sample.placement);
            }
        }
        let step_i32 = i32::try_from(step).unwrap_or(i32::MAX);
        for j in 0..2 * FEATURE_COUNT {
            let g = gradient[j] / n;
            m[j] = beta1 * m[j] + (1.0 - beta1) * g;
            v[j] = beta2 * v[j] + (1.0 - beta2) * g * g;
            let m_hat = m[j] / (1.0 - beta1.powi(step_i32));
            let v_hat = v[j] / (1.0 - beta2.powi(step_i32));
            w[j] -= rate * m_hat / (v_hat.sqrt() + epsilon);
        }
        if step % 250 == 0 {
            progress(step, error(samples, k, &w));
        }
    }
    w
}

/// The Rust source of `src/search/eval_weights.rs` holding `weights`, recording the command
/// and a summary of the fit.
pub fn weights_source(weights: &Weights, command: &str, summary: &str) -> String {
    let mut out = format!(
        "//! Evaluation weights per feature (goat units, the goats' view), in the order of\n\
         //! [`super::eval::FEATURE_NAMES`]. Written by tools/eval_tune.rs; do not edit.\n//!\n\
         //! Command: `{command}`\n//!\n//! {summary}\n\nuse super::eval::Features;\n"
    );
    for (name, table, doc) in [
        (
            "PLACEMENT",
            &weights.placement,
            "With all 20 goats in hand.",
        ),
        ("MOVEMENT", &weights.movement, "With no goat in hand."),
    ] {
        let _ = writeln!(out, "\n/// {doc}\npub const {name}: Features = [");
        // Comments aligned as rustfmt aligns them.
        let entries: Vec<String> = table.iter().map(|value| format!("{value},")).collect();
        let width = entries.iter().map(String::len).max().unwrap_or(0);
        for (entry, feature) in entries.iter().zip(FEATURE_NAMES) {
            let _ = writeln!(out, "    {entry:<width$} // {feature}");
        }
        out.push_str("];\n");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    /// Samples whose targets come from known weights: the fit must find them again.
    #[test]
    fn the_fit_recovers_the_weights_that_made_the_targets() {
        let rules = Rules::default();
        let mut truth = Weights::default();
        truth.movement[0] = -150; // captured
        truth.placement[10] = 30; // corner goats
        let (truth_vector, k) = (to_vector(&truth), 0.004);
        let mut rng = StdRng::seed_from_u64(5);
        let mut samples = Vec::new();
        for _ in 0..300 {
            let mut game = crate::Game::startpos(rules);
            for _ in 0..rng.random_range(0..60) {
                let moves = game.legal_moves();
                if moves.is_empty() {
                    break;
                }
                game.play_unchecked(moves[rng.random_range(0..moves.len())]);
            }
            let mut sample = Sample::new(game.position(), &rules, 0.0);
            sample.target = sigmoid(k, sample.evaluate(&truth_vector));
            samples.push(sample);
        }
        let start = to_vector(&Weights::default());
        assert!((fit_k(&samples, &truth_vector) - k).abs() < 1e-4);
        let before = error(&samples, k, &start);
        let fitted = fit_weights(&samples, k, start, 3000, 1.0, &mut |_, _| {});
        let after = error(&samples, k, &fitted);
        assert!(after < before / 20.0, "error {before} -> {after}");
        let fitted = to_weights(&fitted);
        assert!((fitted.movement[0] + 150).abs() <= 15, "{fitted:?}");
    }

    #[test]
    fn the_weights_file_lists_every_feature() {
        let source = weights_source(&Weights::default(), "tune", "a summary");
        assert!(source.contains("//! Command: `tune`"));
        assert_eq!(source.matches("// captured").count(), 2);
        assert_eq!(source.matches("pub const").count(), 2);
    }
}
