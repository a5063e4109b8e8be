//! Command-line pieces shared by the binaries.

use crate::rules::{Repetition, Rules};
use clap::Args;

/// Rule-variant flags: `--forced-capture`, `--captures-to-win N`, `--repetition forbid|draw`.
#[derive(Args, Clone, Debug)]
pub struct RulesArgs {
    /// Tigers must capture when they can.
    #[arg(long)]
    pub forced_capture: bool,
    /// Goats the tigers must capture to win (1..20).
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u8).range(1..=20))]
    pub captures_to_win: u8,
    /// Repetition rule: forbid (recreating a game state, goats in hand and captured included, is
    /// illegal once all goats are placed) or draw (a state occurring twice draws).
    #[arg(long, default_value_t = Repetition::Forbid)]
    pub repetition: Repetition,
}

impl RulesArgs {
    /// The rule variant these flags select.
    pub fn rules(&self) -> Rules {
        Rules {
            forced_capture: self.forced_capture,
            captures_to_win: self.captures_to_win,
            repetition: self.repetition,
        }
    }
}
