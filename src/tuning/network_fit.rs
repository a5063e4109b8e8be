//! Training the pattern network ([`crate::search::network`]) on positions labelled by the
//! tablebases: logistic regression of the result for the side to move (1 win, 1/2 draw, 0 loss)
//! on the network's sparse inputs, by AdaGrad, one sample at a time in a seeded order.
//!
//! Each bucket's tables are trained as the sum of tables of their own and tables shared by all
//! buckets of the same side to move, so that buckets with few positions lean on the others;
//! the sum is what the file stores.

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;

use crate::search::network::shape::{
    bucket, bucket_len, bucket_side, cells, images, table_offsets, tuple_index, BUCKETS,
};
use crate::search::network::{StoredWeights, QUANTUM, UNITS_PER_LOGIT};
use crate::tablebase::Wdl;
use crate::{Position, Rules};

/// A training position: its cells, bucket and target.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Sample {
    cells: [u8; 25],
    bucket: u8,
    /// 0 loss, 1 draw, 2 win (side to move).
    result: u8,
}

impl Sample {
    /// `position` with its table value `wdl` for the side to move, under `rules`.
    pub fn new(position: &Position, wdl: Wdl, rules: &Rules) -> Sample {
        Sample {
            cells: cells(position),
            bucket: bucket(position, rules) as u8,
            result: match wdl {
                Wdl::Loss => 0,
                Wdl::Draw => 1,
                Wdl::Win => 2,
            },
        }
    }

    /// The target: 0, 1/2 or 1.
    pub fn target(&self) -> f64 {
        f64::from(self.result) / 2.0
    }
}

/// Settings of a fit.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct FitOptions {
    /// Passes over the training samples.
    pub epochs: usize,
    /// AdaGrad step size.
    pub learning_rate: f64,
    /// Seed of the sample order.
    pub seed: u64,
}

/// The weights being fitted, in logits.
#[derive(Clone, Debug)]
pub struct Fit {
    shared: Vec<f64>,
    own: Vec<f64>,
    bias: Vec<f64>,
    /// Every image as (its table's offset, its squares).
    images: Vec<(usize, Vec<usize>)>,
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

impl Default for Fit {
    fn default() -> Fit {
        Fit::new()
    }
}

impl Fit {
    /// All weights zero.
    pub fn new() -> Fit {
        let offsets = table_offsets();
        Fit {
            shared: vec![0.0; 2 * bucket_len()],
            own: vec![0.0; BUCKETS * bucket_len()],
            bias: vec![0.0; BUCKETS],
            images: images()
                .into_iter()
                .map(|image| (offsets[image.shape], image.squares))
                .collect(),
        }
    }

    /// The entries of a bucket's tables that `sample` reads, one per image.
    fn entries(&self, sample: &Sample, out: &mut Vec<usize>) {
        out.clear();
        out.extend(
            self.images
                .iter()
                .map(|(offset, squares)| offset + tuple_index(&sample.cells, squares)),
        );
    }

    fn logit_of(&self, sample: &Sample, entries: &[usize]) -> f64 {
        let b = usize::from(sample.bucket);
        let shared = &self.shared[bucket_side(b) * bucket_len()..];
        let own = &self.own[b * bucket_len()..];
        self.bias[b] + entries.iter().map(|&e| shared[e] + own[e]).sum::<f64>()
    }

    /// The predicted result of `sample` (0 to 1).
    pub fn predict(&self, sample: &Sample) -> f64 {
        let mut entries = Vec::new();
        self.entries(sample, &mut entries);
        sigmoid(self.logit_of(sample, &entries))
    }

    /// Mean squared error of the predictions on `samples` (the classic fit's measure).
    pub fn mean_squared_error(&self, samples: &[Sample]) -> f64 {
        let total: f64 = samples
            .iter()
            .map(|s| (self.predict(s) - s.target()).powi(2))
            .sum();
        total / samples.len().max(1) as f64
    }

    /// Fits on `samples`; `progress(epoch, fit)` is called after each pass.
    pub fn train(
        &mut self,
        samples: &[Sample],
        options: &FitOptions,
        mut progress: impl FnMut(usize, &Fit),
    ) {
        let n = bucket_len();
        let mut squares_shared = vec![1e-8; self.shared.len()];
        let mut squares_own = vec![1e-8; self.own.len()];
        let mut squares_bias = vec![1e-8; BUCKETS];
        let mut order: Vec<usize> = (0..samples.len()).collect();
        let mut rng = StdRng::seed_from_u64(options.seed);
        let mut entries = Vec::new();
        let rate = options.learning_rate;
        for epoch in 0..options.epochs {
            order.shuffle(&mut rng);
            for &i in &order {
                let sample = &samples[i];
                self.entries(sample, &mut entries);
                let gradient = sigmoid(self.logit_of(sample, &entries)) - sample.target();
                let g2 = gradient * gradient;
                let b = usize::from(sample.bucket);
                let side = bucket_side(b) * n;
                for &e in &entries {
                    squares_shared[side + e] += g2;
                    self.shared[side + e] -= rate * gradient / squares_shared[side + e].sqrt();
                    squares_own[b * n + e] += g2;
                    self.own[b * n + e] -= rate * gradient / squares_own[b * n + e].sqrt();
                }
                squares_bias[b] += g2;
                self.bias[b] -= rate * gradient / squares_bias[b].sqrt();
            }
            progress(epoch + 1, self);
        }
    }

    /// The weights as the network file stores them (quarter goat units).
    pub fn stored(&self) -> StoredWeights {
        let n = bucket_len();
        let scale = UNITS_PER_LOGIT * f64::from(QUANTUM);
        let quantise = |w: f64| (w * scale).round().clamp(-32_000.0, 32_000.0) as i16;
        let mut weights = Vec::with_capacity(BUCKETS * n);
        for b in 0..BUCKETS {
            let shared = &self.shared[bucket_side(b) * n..][..n];
            let own = &self.own[b * n..][..n];
            weights.extend(shared.iter().zip(own).map(|(s, o)| quantise(s + o)));
        }
        StoredWeights {
            weights,
            bias: self.bias.iter().map(|&b| quantise(b)).collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::network::Network;

    /// A fit on a few labelled positions learns them, and the stored network agrees with the
    /// fit's own prediction (the logit on the evaluation's scale).
    #[test]
    fn a_fit_learns_its_samples_and_stores_what_it_learned() {
        let rules = Rules::default();
        let texts = [
            ("T3T/5/5/5/T3T g 20 0", Wdl::Draw),
            ("T3T/5/5/1G3/T3T t 19 0", Wdl::Win),
            ("GGGGG/GT2T/GG1TG/GG1GG/GGTGG g 0 3", Wdl::Draw),
            ("G1GGG/GT1TG/GG2G/GGT1G/GGGGT t 0 4", Wdl::Win),
            ("GGGGG/GGGGG/GTGGG/GTG1T/1TGGG t 0 1", Wdl::Loss),
        ];
        let samples: Vec<Sample> = texts
            .iter()
            .map(|(text, wdl)| Sample::new(&text.parse().unwrap(), *wdl, &rules))
            .collect();
        let mut fit = Fit::new();
        let before = fit.mean_squared_error(&samples);
        let options = FitOptions {
            epochs: 50,
            learning_rate: 0.05,
            seed: 1,
        };
        let mut passes = 0;
        fit.train(&samples, &options, |_, _| passes += 1);
        assert_eq!(passes, 50);
        let after = fit.mean_squared_error(&samples);
        assert!(after < before / 10.0, "{before} -> {after}");
        let network = Network::from_weights(&fit.stored(), "");
        for ((text, _), sample) in texts.iter().zip(&samples) {
            let position: Position = text.parse().unwrap();
            let logit = (fit.predict(sample) / (1.0 - fit.predict(sample))).ln();
            let value = f64::from(network.evaluate(&position, &rules));
            assert!(
                (value - logit * UNITS_PER_LOGIT).abs() < 5.0,
                "{text}: {value} vs {}",
                logit * UNITS_PER_LOGIT
            );
        }
    }
}
