//! Fitting the evaluation to exact knowledge: positions labelled by the tablebases ([`data`])
//! a texel-style logistic fit of the evaluation weights ([`texel`]), the training of the
//! pattern network ([`network_fit`]) and more positions where it is weak ([`focus`]). The tools
//! that drive them are `tools/eval_data.rs`, `tools/eval_focus.rs`, `tools/eval_tune.rs`,
//! `tools/network_train.rs` and `tools/move_quality.rs` (docs/eval.md).

pub mod data;
pub mod focus;
pub mod holdout;
pub mod network_fit;
pub mod selfplay;
pub mod texel;
