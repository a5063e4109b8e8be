//! The rules the stored values depend on: [`TableRules`], its text form and its coverage check.

use super::{TablebaseError, MAX_CAPTURES_TO_WIN};
use crate::{Repetition, Rules};
use std::fmt;
use std::str::FromStr;

/// The rules the stored values depend on (the repetition rule does not change them: cycles are
/// draws). Recorded in every layer file's header and compared whenever tables are opened.
///
/// Its text form is `ForcedCapture=false CapturesToWin=5`, as [`Rules`]' without the
/// repetition rule.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct TableRules {
    /// If a tiger can capture, the tigers must capture.
    pub forced_capture: bool,
    /// Goats the tigers must capture to win.
    pub captures_to_win: u8,
}

impl TableRules {
    /// The table rules of the default variant (`ForcedCapture=false CapturesToWin=5`).
    pub const DEFAULT: TableRules = TableRules::of(&Rules::DEFAULT);

    /// The part of `rules` the tables depend on.
    pub const fn of(rules: &Rules) -> TableRules {
        TableRules {
            forced_capture: rules.forced_capture,
            captures_to_win: rules.captures_to_win,
        }
    }

    /// The full rule variant with these table rules and `repetition`.
    pub const fn with_repetition(self, repetition: Repetition) -> Rules {
        Rules {
            forced_capture: self.forced_capture,
            captures_to_win: self.captures_to_win,
            repetition,
        }
    }

    /// Whether the tables cover these rules (captures to win 1..=[`MAX_CAPTURES_TO_WIN`]).
    pub const fn is_covered(self) -> bool {
        self.captures_to_win >= 1 && self.captures_to_win <= MAX_CAPTURES_TO_WIN
    }

    /// Checks that the tables cover these rules (see [`TableRules::is_covered`]).
    ///
    /// # Errors
    /// [`TablebaseError::UnsupportedRules`] with these rules.
    pub fn check_covered(self) -> Result<(), TablebaseError> {
        if self.is_covered() {
            Ok(())
        } else {
            Err(TablebaseError::UnsupportedRules(self))
        }
    }
}

impl Default for TableRules {
    fn default() -> TableRules {
        TableRules::DEFAULT
    }
}

impl From<&Rules> for TableRules {
    fn from(rules: &Rules) -> TableRules {
        TableRules::of(rules)
    }
}

impl fmt::Display for TableRules {
    /// `ForcedCapture=false CapturesToWin=5`
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "ForcedCapture={} CapturesToWin={}",
            self.forced_capture, self.captures_to_win
        )
    }
}

/// A table-rules string that is not of the form [`TableRules`]' `Display` writes.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ParseTableRulesError(String);

impl fmt::Display for ParseTableRulesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ParseTableRulesError {}

impl FromStr for TableRules {
    type Err = ParseTableRulesError;

    /// Reads `ForcedCapture=...` and `CapturesToWin=...` pairs separated by spaces (names
    /// case-insensitive); missing names keep their defaults. Captures to win must be a valid rule
    /// (1..=20), not necessarily one the tables cover ([`TableRules::check_covered`]). A
    /// `Repetition=...` pair is an error: the tables do not depend on it.
    fn from_str(text: &str) -> Result<TableRules, ParseTableRulesError> {
        let mut rules = TableRules::DEFAULT;
        for pair in text.split_whitespace() {
            let (name, value) = pair.split_once('=').ok_or_else(|| {
                ParseTableRulesError(format!("invalid rule \"{pair}\": expected Name=value"))
            })?;
            let bad_value =
                || ParseTableRulesError(format!("invalid value \"{value}\" for {name}"));
            match name.to_ascii_lowercase().as_str() {
                "forcedcapture" => rules.forced_capture = value.parse().map_err(|_| bad_value())?,
                "capturestowin" => {
                    rules.captures_to_win = value
                        .parse()
                        .ok()
                        .filter(|n| {
                            (Rules::MIN_CAPTURES_TO_WIN..=Rules::MAX_CAPTURES_TO_WIN).contains(n)
                        })
                        .ok_or_else(bad_value)?;
                }
                "repetition" => {
                    return Err(ParseTableRulesError(format!(
                        "invalid rule \"{pair}\": tables do not depend on the repetition rule"
                    )))
                }
                _ => {
                    return Err(ParseTableRulesError(format!("unknown rule \"{name}\"")));
                }
            }
        }
        Ok(rules)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_is_the_header_text() {
        assert_eq!(
            TableRules::default().to_string(),
            "ForcedCapture=false CapturesToWin=5"
        );
        let rules = TableRules {
            forced_capture: true,
            captures_to_win: 1,
        };
        assert_eq!(rules.to_string(), "ForcedCapture=true CapturesToWin=1");
    }

    #[test]
    fn text_round_trips() {
        for forced_capture in [false, true] {
            for captures_to_win in Rules::MIN_CAPTURES_TO_WIN..=Rules::MAX_CAPTURES_TO_WIN {
                let rules = TableRules {
                    forced_capture,
                    captures_to_win,
                };
                assert_eq!(rules.to_string().parse::<TableRules>(), Ok(rules));
            }
        }
    }

    #[test]
    fn names_are_case_insensitive_and_missing_names_keep_defaults() {
        assert_eq!(
            "forcedcapture=true CAPTURESTOWIN=3".parse::<TableRules>(),
            Ok(TableRules {
                forced_capture: true,
                captures_to_win: 3
            })
        );
        assert_eq!(
            "CapturesToWin=2".parse::<TableRules>(),
            Ok(TableRules {
                forced_capture: false,
                captures_to_win: 2
            })
        );
        assert_eq!("".parse::<TableRules>(), Ok(TableRules::DEFAULT));
    }

    #[test]
    fn bad_text_is_an_error_quoting_the_token() {
        for (text, message) in [
            ("x", "invalid rule \"x\": expected Name=value"),
            ("Foo=1", "unknown rule \"Foo\""),
            (
                "ForcedCapture=yes",
                "invalid value \"yes\" for ForcedCapture",
            ),
            ("CapturesToWin=0", "invalid value \"0\" for CapturesToWin"),
            ("CapturesToWin=21", "invalid value \"21\" for CapturesToWin"),
            ("capturestowin=-1", "invalid value \"-1\" for capturestowin"),
            (
                "ForcedCapture=false Repetition=draw",
                "invalid rule \"Repetition=draw\": tables do not depend on the repetition rule",
            ),
        ] {
            let error = text.parse::<TableRules>().expect_err(text);
            assert_eq!(error.to_string(), message, "{text}");
        }
    }

    #[test]
    fn of_and_with_repetition_are_inverse() {
        let rules = Rules {
            forced_capture: true,
            captures_to_win: 4,
            repetition: Repetition::Draw,
        };
        let table_rules = TableRules::of(&rules);
        assert_eq!(table_rules, TableRules::from(&rules));
        assert_eq!(table_rules.with_repetition(Repetition::Draw), rules);
        assert_eq!(TableRules::of(&Rules::default()), TableRules::default());
    }

    #[test]
    fn coverage_is_captures_to_win_one_to_five() {
        let with = |captures_to_win| TableRules {
            forced_capture: false,
            captures_to_win,
        };
        for captures_to_win in 1..=MAX_CAPTURES_TO_WIN {
            assert!(with(captures_to_win).check_covered().is_ok());
        }
        for captures_to_win in [0, 6, 20] {
            let error = with(captures_to_win)
                .check_covered()
                .expect_err("uncovered");
            assert!(matches!(error, TablebaseError::UnsupportedRules(_)));
            assert_eq!(
                error.to_string(),
                format!("invalid captures to win {captures_to_win}: tablebases cover 1..5")
            );
        }
    }
}
