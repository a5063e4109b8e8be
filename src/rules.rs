//! The rule variants on which the source descriptions disagree.

use std::fmt;
use std::str::FromStr;

/// What happens when a position comes back.
#[derive(
    Copy, Clone, PartialEq, Eq, Hash, Debug, Default, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Repetition {
    /// Once all goats are placed, a move that recreates a game state (board, side to move, goats
    /// in hand and captured) that already occurred in the game is illegal.
    #[default]
    Forbid,
    /// The game is drawn as soon as a game state (board, side to move, goats in hand and
    /// captured) occurs for the second time.
    Draw,
}

impl fmt::Display for Repetition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Repetition::Forbid => "forbid",
            Repetition::Draw => "draw",
        })
    }
}

/// A repetition rule name other than `forbid` or `draw`.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ParseRepetitionError(pub String);

impl fmt::Display for ParseRepetitionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "invalid repetition rule \"{}\": expected forbid or draw",
            self.0
        )
    }
}

impl std::error::Error for ParseRepetitionError {}

impl FromStr for Repetition {
    type Err = ParseRepetitionError;

    fn from_str(text: &str) -> Result<Repetition, ParseRepetitionError> {
        match text.to_ascii_lowercase().as_str() {
            "forbid" => Ok(Repetition::Forbid),
            "draw" => Ok(Repetition::Draw),
            _ => Err(ParseRepetitionError(text.to_string())),
        }
    }
}

/// The rule variant in force for a game. The default follows the issue tracker's choices.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Rules {
    /// If a tiger can capture, the tigers must capture.
    pub forced_capture: bool,
    /// Goats the tigers must capture to win, 1..=20.
    pub captures_to_win: u8,
    /// What a repeated position means.
    pub repetition: Repetition,
}

impl Rules {
    /// Smallest allowed `captures_to_win`.
    pub const MIN_CAPTURES_TO_WIN: u8 = 1;
    /// Largest allowed `captures_to_win` (all goats).
    pub const MAX_CAPTURES_TO_WIN: u8 = 20;
    /// The default variant: optional capture, five captures win, repetition forbidden.
    pub const DEFAULT: Rules = Rules {
        forced_capture: false,
        captures_to_win: 5,
        repetition: Repetition::Forbid,
    };

    /// Checks that `captures_to_win` is in 1..=20.
    ///
    /// # Errors
    /// A message naming the bad value.
    pub fn validate(&self) -> Result<(), String> {
        if (Self::MIN_CAPTURES_TO_WIN..=Self::MAX_CAPTURES_TO_WIN).contains(&self.captures_to_win) {
            Ok(())
        } else {
            Err(format!(
                "invalid captures to win {}: expected {}..{}",
                self.captures_to_win,
                Self::MIN_CAPTURES_TO_WIN,
                Self::MAX_CAPTURES_TO_WIN
            ))
        }
    }
}

impl Default for Rules {
    fn default() -> Rules {
        Rules::DEFAULT
    }
}

impl fmt::Display for Rules {
    /// `ForcedCapture=false CapturesToWin=5 Repetition=forbid`
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "ForcedCapture={} CapturesToWin={} Repetition={}",
            self.forced_capture, self.captures_to_win, self.repetition
        )
    }
}

/// A rule-variant string that is not of the form [`Rules`]' `Display` writes.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ParseRulesError(pub String);

impl fmt::Display for ParseRulesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ParseRulesError {}

impl FromStr for Rules {
    type Err = ParseRulesError;

    /// Reads `Name=value` pairs separated by spaces (names case-insensitive); missing names keep
    /// their defaults.
    fn from_str(text: &str) -> Result<Rules, ParseRulesError> {
        let mut rules = Rules::default();
        for pair in text.split_whitespace() {
            let (name, value) = pair.split_once('=').ok_or_else(|| {
                ParseRulesError(format!("invalid rule \"{pair}\": expected Name=value"))
            })?;
            let bad_value = || ParseRulesError(format!("invalid value \"{value}\" for {name}"));
            match name.to_ascii_lowercase().as_str() {
                "forcedcapture" => rules.forced_capture = value.parse().map_err(|_| bad_value())?,
                "capturestowin" => {
                    rules.captures_to_win = value.parse().map_err(|_| bad_value())?
                }
                "repetition" => rules.repetition = value.parse().map_err(|_| bad_value())?,
                _ => return Err(ParseRulesError(format!("unknown rule \"{name}\""))),
            }
        }
        rules.validate().map_err(ParseRulesError)?;
        Ok(rules)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_text_round_trips() {
        let rules = Rules {
            forced_capture: true,
            captures_to_win: 20,
            repetition: Repetition::Draw,
        };
        assert_eq!(rules.to_string().parse::<Rules>(), Ok(rules));
        assert_eq!(
            Rules::default().to_string().parse::<Rules>(),
            Ok(Rules::default())
        );
    }

    #[test]
    fn bad_rules_are_errors() {
        for text in [
            "CapturesToWin=0",
            "CapturesToWin=21",
            "Repetition=maybe",
            "Foo=1",
            "x",
        ] {
            assert!(text.parse::<Rules>().is_err(), "{text}");
        }
    }
}
