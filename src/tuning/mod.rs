//! Fitting the evaluation to exact knowledge: positions labelled by the tablebases ([`data`])
//! and a texel-style logistic fit of the evaluation weights ([`texel`]). The tools that drive
//! them are `tools/eval_data.rs`, `tools/eval_tune.rs` and `tools/move_quality.rs`
//! (docs/eval.md).

pub mod data;
pub mod holdout;
pub mod selfplay;
pub mod texel;
