//! Trains the pattern network (`baghchal::search::network`) on positions labelled by the
//! tablebases (the output of `eval_data`) and writes its weights file (docs/eval.md).
//!
//! `cargo run --release --example network_train -- --data FILE [--data FILE ...] --out src/search/network/network.bin`
//!
//! Positions of the held-out test sets (`--holdout`, default tests/data/holdout) are dropped
//! before anything else, and counted: they are never trained on. One position in ten (by a
//! hash of the position, so the split does not depend on the file order) is held back and its
//! error reported; the file's header records the command, the data and both errors. The same
//! data, settings and seed give the same file, byte for byte. `--last-layer-draws N` counts
//! each training position that is a table draw of the goats' last movement-phase layer `N`
//! times (`baghchal::tuning::focus::is_last_layer_draw`; held-back positions count once).

use std::path::PathBuf;

use baghchal::cli::RulesArgs;
use baghchal::tuning::data::read_labelled;
use baghchal::tuning::focus::is_last_layer_draw;
use baghchal::tuning::holdout::held_out_positions;
use baghchal::tuning::network_fit::{Fit, FitOptions, Sample};
use baghchal::Position;
use clap::Parser;

#[derive(Parser)]
#[command(about = "Train the pattern network on tablebase-labelled positions")]
struct Args {
    /// Labelled positions (the output of eval_data); may be repeated.
    #[arg(long, required = true)]
    data: Vec<PathBuf>,
    /// Directory of the held-out test sets, whose positions are never trained on.
    #[arg(long, default_value = "tests/data/holdout")]
    holdout: PathBuf,
    /// Passes over the data.
    #[arg(long, default_value_t = 6)]
    epochs: usize,
    /// AdaGrad step size.
    #[arg(long, default_value_t = 0.05)]
    rate: f64,
    /// Seed of the sample order.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Times each training position that is a table draw of the goats' last movement-phase
    /// layer (no goats in hand, one capture short of the tigers' win) is trained on.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    last_layer_draws: u32,
    /// The weights file to write.
    #[arg(long)]
    out: PathBuf,
    /// The command line recorded in the file's header.
    #[arg(long, default_value = "")]
    command: String,
    #[command(flatten)]
    rules: RulesArgs,
}

/// Whether a position is held back from training for the error check (one in ten).
fn is_held_back(position: &Position) -> bool {
    position.hash().is_multiple_of(10)
}

fn run(args: &Args) -> Result<(), String> {
    let rules = args.rules.rules();
    let excluded = held_out_positions(&args.holdout)?;
    let (mut train, mut held) = (Vec::new(), Vec::new());
    let (mut dropped, mut weighted) = (0u64, 0u64);
    for path in &args.data {
        read_labelled(path, |labelled| {
            if excluded.contains(&labelled.position) {
                dropped += 1;
                return true;
            }
            let sample = Sample::new(&labelled.position, labelled.value.wdl, &rules);
            if is_held_back(&labelled.position) {
                held.push(sample);
            } else if is_last_layer_draw(&labelled.position, labelled.value.wdl, &rules) {
                weighted += 1;
                train.extend((0..args.last_layer_draws).map(|_| sample));
            } else {
                train.push(sample);
            }
            true
        })?;
    }
    eprintln!(
        "network_train: {} training ({weighted} last-layer draws, each {} times), {} held back, \
         {dropped} held-out test positions dropped",
        train.len(),
        args.last_layer_draws,
        held.len()
    );
    let options = FitOptions {
        epochs: args.epochs,
        learning_rate: args.rate,
        seed: args.seed,
    };
    let mut fit = Fit::new();
    fit.train(&train, &options, |epoch, fit| {
        eprintln!(
            "network_train: epoch {epoch}/{}: mean squared error held back {:.5}",
            args.epochs,
            fit.mean_squared_error(&held)
        );
    });
    let (train_error, held_error) = (
        fit.mean_squared_error(&train),
        fit.mean_squared_error(&held),
    );
    let summary = format!(
        "{} training positions ({dropped} held-out test positions dropped), {} held back; \
         mean squared error {train_error:.5} (held back {held_error:.5})",
        train.len(),
        held.len()
    );
    println!("{summary}");
    let header = format!(
        "Written by tools/network_train.rs; do not edit.\nCommand: {}\n{summary}",
        args.command
    );
    let bytes = fit.stored().to_file(&header);
    let partial = args.out.with_extension("part");
    std::fs::write(&partial, bytes).map_err(|e| format!("{}: {e}", partial.display()))?;
    std::fs::rename(&partial, &args.out).map_err(|e| format!("{}: {e}", args.out.display()))?;
    Ok(())
}

fn main() -> std::process::ExitCode {
    let args = Args::parse();
    match run(&args) {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("network_train: {error}");
            std::process::ExitCode::FAILURE
        }
    }
}
