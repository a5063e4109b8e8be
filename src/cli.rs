//! Command-line pieces shared by the binaries.

use crate::rules::{Repetition, Rules};
use clap::{Args, FromArgMatches};
use serde::{Deserialize, Serialize};

/// Rule-variant flags: `--forced-capture`, `--captures-to-win N`, `--repetition forbid|draw`
/// (also read from and written to the referee's `-config` file, with the same names).
#[derive(Args, Clone, Debug, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
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

impl Default for RulesArgs {
    /// The flags' defaults.
    fn default() -> RulesArgs {
        clap_defaults()
    }
}

/// The settings of a group of options when none is given: clap's defaults, so that each
/// default is stated once, on its option.
pub fn clap_defaults<T: Args + FromArgMatches>() -> T {
    let command = T::augment_args(clap::Command::new("defaults"));
    let matches = command
        .try_get_matches_from(["defaults"])
        .expect("options without required arguments parse from nothing");
    T::from_arg_matches(&matches).expect("defaults fit their options")
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
