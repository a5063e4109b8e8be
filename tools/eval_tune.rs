//! Fits the evaluation weights to positions labelled by the tablebases (texel-style) and writes
//! `src/search/eval_weights.rs` (`tools/eval.sh` runs it after `eval_data`).
//!
//! `cargo run --release --example eval_tune -- --data FILE [--data FILE ...] --write src/search/eval_weights.rs`
//!
//! Each position's target is its value for the side to move (win 1, draw 1/2, loss 0); see
//! `baghchal::tuning::texel` for the model. `K` is fixed (`--k`), which sets the goat unit;
//! the weights (placement and movement phase of every feature) minimise the mean squared error
//! by full-batch Adam from zero, so the result depends on the data and the settings only, not
//! on the weights built in. Those are only compared with.
//! One position in ten (by its place in the data) is held back and its error reported before
//! and after. The fitted weights are also printed as `--param` settings for `move_quality`.

use std::path::PathBuf;

use baghchal::cli::RulesArgs;
use baghchal::search::eval::{Weights, FEATURE_COUNT, FEATURE_NAMES};
use baghchal::tuning::data::read_labelled;
use baghchal::tuning::texel::{
    error, fit_k, fit_weights, to_vector, to_weights, weights_source, Sample,
};
use clap::Parser;

#[derive(Parser)]
#[command(about = "Fit the evaluation weights to tablebase-labelled positions")]
struct Args {
    /// Labelled positions (the output of eval_data); may be repeated.
    #[arg(long, required = true)]
    data: Vec<PathBuf>,
    /// Adam steps over the whole data.
    #[arg(long, default_value_t = 2000)]
    steps: u32,
    /// Adam step size (in weight units).
    #[arg(long, default_value_t = 1.0)]
    rate: f64,
    /// The logistic scale K: 0.003 makes a one-goat lead (100) a 57% expectation, about what
    /// the hand-set weights' data gave.
    #[arg(long, default_value_t = 0.003)]
    k: f64,
    /// Write the fitted weights to this Rust source file.
    #[arg(long)]
    write: Option<PathBuf>,
    /// The command line recorded in the written file.
    #[arg(long, default_value = "")]
    command: String,
    #[command(flatten)]
    rules: RulesArgs,
}

fn read(args: &Args) -> Result<Vec<Sample>, String> {
    let rules = args.rules.rules();
    let mut samples = Vec::new();
    for path in &args.data {
        read_labelled(path, |labelled| {
            samples.push(Sample::new(&labelled.position, &rules, labelled.target()));
            true
        })?;
    }
    Ok(samples)
}

fn run(args: &Args) -> Result<(), String> {
    let samples = read(args)?;
    let (mut train, mut held) = (Vec::new(), Vec::new());
    for (i, sample) in samples.into_iter().enumerate() {
        if i % 10 == 0 {
            held.push(sample);
        } else {
            train.push(sample);
        }
    }
    let current = Weights::default();
    let k = args.k;
    let before = (
        error(&train, k, &to_vector(&current)),
        error(&held, k, &to_vector(&current)),
    );
    eprintln!(
        "eval_tune: {} positions ({} held back), K {k}; error of the built-in weights {:.6} \
         (held back {:.6}; their best K would be {:.5})",
        train.len() + held.len(),
        held.len(),
        before.0,
        before.1,
        fit_k(&train, &to_vector(&current))
    );
    let start = [0.0; 2 * FEATURE_COUNT];
    let fitted = fit_weights(&train, k, start, args.steps, args.rate, &mut |step, e| {
        eprintln!("eval_tune: step {step}: error {e:.6}");
    });
    let weights = to_weights(&fitted);
    let rounded = to_vector(&weights);
    let after = (error(&train, k, &rounded), error(&held, k, &rounded));
    let summary = format!(
        "{} positions, K {k}: mean squared error {:.5} (held back {:.5}).",
        train.len() + held.len(),
        after.0,
        after.1
    );
    eprintln!(
        "eval_tune: the built-in weights' error: {:.5} (held back {:.5})",
        before.0, before.1
    );
    println!("{summary}");
    println!("{:<16} {:>12} {:>12}", "feature", "placement", "movement");
    for (i, name) in FEATURE_NAMES.iter().enumerate() {
        println!(
            "{:<16} {:>5} -> {:>4} {:>5} -> {:>4}",
            name,
            current.placement[i],
            weights.placement[i],
            current.movement[i],
            weights.movement[i]
        );
    }
    let settings: Vec<String> = (0..FEATURE_COUNT)
        .flat_map(|i| {
            [
                format!(
                    "--param placement.{}={}",
                    FEATURE_NAMES[i], weights.placement[i]
                ),
                format!(
                    "--param movement.{}={}",
                    FEATURE_NAMES[i], weights.movement[i]
                ),
            ]
        })
        .collect();
    eprintln!("eval_tune: as settings: {}", settings.join(" "));
    if let Some(path) = &args.write {
        std::fs::write(path, weights_source(&weights, &args.command, &summary))
            .map_err(|e| format!("{}: {e}", path.display()))?;
        eprintln!("eval_tune: wrote {}", path.display());
    }
    Ok(())
}

fn main() {
    let args = Args::parse();
    if let Err(error) = run(&args) {
        eprintln!("eval_tune: {error}");
        std::process::exit(2);
    }
}
