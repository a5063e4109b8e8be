//! The option table: what `uci` lists and what `setoption` changes.

use super::error::CommandError;
use crate::engine::{EngineOptions, Evaluation, Strategy};
use crate::search::options::{
    Range, HASH_MB, MOVE_OVERHEAD_MS, MULTI_PV, NODES_TIME, SEED, SKILL_LEVEL, THREADS, UCI_ELO,
};
use crate::{Repetition, Rules};
use std::path::PathBuf;
use std::time::Duration;

/// The type of an option, as UCI names it, with its default and range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionKind {
    /// `check`: true or false.
    Check {
        /// Default value.
        default: bool,
    },
    /// `spin`: an integer in `min..=max`.
    Spin {
        /// Default value.
        default: i64,
        /// Smallest value.
        min: i64,
        /// Largest value.
        max: i64,
    },
    /// `combo`: one of a fixed list of words.
    Combo {
        /// Default value.
        default: &'static str,
        /// Allowed values.
        vars: &'static [&'static str],
    },
    /// `button`: an action, no value.
    Button,
    /// `string`: any text (`<empty>` for none).
    Text {
        /// Default value.
        default: &'static str,
    },
}

/// One option: its name as `uci` prints it, its type, and what it does.
#[derive(Clone, Copy, Debug)]
pub struct OptionSpec {
    /// Name (matched case-insensitively by `setoption`).
    pub name: &'static str,
    /// Type, default and range.
    pub kind: OptionKind,
    /// One-line meaning, for protocol.md.
    pub meaning: &'static str,
}

/// Every option, in the order `uci` lists them.
pub const OPTIONS: [OptionSpec; 19] = [
    OptionSpec {
        name: "Hash",
        kind: OptionKind::spin(HASH_MB),
        meaning: "transposition table size in MB",
    },
    OptionSpec {
        name: "Threads",
        kind: OptionKind::spin(THREADS),
        meaning: "search threads (Lazy SMP when more than 1)",
    },
    OptionSpec {
        name: "MultiPV",
        kind: OptionKind::spin(MULTI_PV),
        meaning: "principal variations reported (capped by the number of legal moves)",
    },
    OptionSpec {
        name: "Move Overhead",
        kind: OptionKind::spin(MOVE_OVERHEAD_MS),
        meaning: "milliseconds kept back per move for communication delays",
    },
    OptionSpec {
        name: "Ponder",
        kind: OptionKind::Check { default: false },
        meaning: "the GUI may send go ponder (the engine needs no preparation)",
    },
    OptionSpec {
        name: "UCI_ShowWDL",
        kind: OptionKind::Check { default: false },
        meaning: "add wdl <win> <draw> <loss> (per mille, side to move) to scores",
    },
    OptionSpec {
        name: "ForcedCapture",
        kind: OptionKind::Check { default: false },
        meaning: "rule variant: tigers must capture when they can",
    },
    OptionSpec {
        name: "CapturesToWin",
        kind: OptionKind::spin(CAPTURES_TO_WIN),
        meaning: "rule variant: goats the tigers must capture to win",
    },
    OptionSpec {
        name: "Repetition",
        kind: OptionKind::Combo { default: "forbid", vars: &["forbid", "draw"] },
        meaning: "rule variant: forbid (recreating a game state is illegal once all goats are placed) or draw (a recurring state draws)",
    },
    OptionSpec {
        name: "TablebasePath",
        kind: OptionKind::Text { default: "<empty>" },
        meaning: "directory of tables made by `baghchal tb gen` for the current rules (<empty>: none)",
    },
    OptionSpec {
        name: "ForbidProof",
        kind: OptionKind::Check { default: false },
        meaning: "under Repetition forbid with tables, a proof search at a drawn root (a quarter of the move's nodes or time)",
    },
    OptionSpec {
        name: "Strategy",
        kind: OptionKind::Combo { default: "search", vars: &["search", "random", "greedy"] },
        meaning: "search (full strength), random or greedy (weak reference players)",
    },
    OptionSpec {
        name: "Seed",
        kind: OptionKind::spin(SEED),
        meaning: "seed of the random choices (Strategy random, skill levels); 0: a new seed each game",
    },
    OptionSpec {
        name: "Skill Level",
        kind: OptionKind::spin(SKILL_LEVEL),
        meaning: "playing strength, 0 (weakest) to 20 (full strength); ignored when UCI_LimitStrength is on",
    },
    OptionSpec {
        name: "UCI_LimitStrength",
        kind: OptionKind::Check { default: false },
        meaning: "play at the strength UCI_Elo asks for instead of at Skill Level",
    },
    OptionSpec {
        name: "UCI_Elo",
        kind: OptionKind::spin(UCI_ELO),
        meaning: "strength with UCI_LimitStrength, on the measured scale where a uniformly random mover is 0 (docs/strength.md)",
    },
    OptionSpec {
        name: "nodestime",
        kind: OptionKind::spin(NODES_TIME),
        meaning: "count thinking time in nodes, this many to the millisecond, on the engine's own clock over a game (0: real time), as Stockfish's nodestime",
    },
    OptionSpec {
        name: "Eval",
        kind: OptionKind::Combo {
            default: Evaluation::DEFAULT.name(),
            vars: &Evaluation::NAMES,
        },
        meaning: "static evaluation: classic (weighted features) or network (the pattern network learned from the tablebases, docs/eval.md)",
    },
    OptionSpec {
        name: "Clear Hash",
        kind: OptionKind::Button,
        meaning: "clear the transposition table and history tables",
    },
];

/// `CapturesToWin`: the range the rules allow, the default rules' value.
const CAPTURES_TO_WIN: Range = Range {
    min: Rules::MIN_CAPTURES_TO_WIN as i64,
    max: Rules::MAX_CAPTURES_TO_WIN as i64,
    default: Rules::DEFAULT.captures_to_win as i64,
};

impl OptionKind {
    /// A `spin` over `range`.
    const fn spin(range: Range) -> OptionKind {
        OptionKind::Spin {
            default: range.default,
            min: range.min,
            max: range.max,
        }
    }
}

impl OptionSpec {
    /// The `option name ... type ...` line `uci` prints.
    pub fn uci_line(&self) -> String {
        let name = self.name;
        match self.kind {
            OptionKind::Check { default } => {
                format!("option name {name} type check default {default}")
            }
            OptionKind::Spin { default, min, max } => {
                format!("option name {name} type spin default {default} min {min} max {max}")
            }
            OptionKind::Combo { default, vars } => {
                let vars: String = vars.iter().map(|v| format!(" var {v}")).collect();
                format!("option name {name} type combo default {default}{vars}")
            }
            OptionKind::Button => format!("option name {name} type button"),
            OptionKind::Text { default } => {
                format!("option name {name} type string default {default}")
            }
        }
    }

    fn bad_value(&self, value: &str) -> CommandError {
        let expected = match self.kind {
            OptionKind::Check { .. } => "true or false".to_string(),
            OptionKind::Spin { min, max, .. } => format!("an integer in {min}..{max}"),
            OptionKind::Combo { vars, .. } => vars.join(" or "),
            OptionKind::Button => "no value".to_string(),
            OptionKind::Text { .. } => "text".to_string(),
        };
        CommandError::BadOptionValue {
            option: self.name,
            value: value.to_string(),
            expected,
        }
    }
}

/// Every option value the protocol keeps: the engine's settings and the GUI-only `Ponder` flag.
/// The default is what `uci` prints (a test checks the option table against it).
#[derive(Clone, Debug, Default)]
pub struct Settings {
    /// What the engine core gets.
    pub engine: EngineOptions,
    /// The `Ponder` option (informational: the GUI decides whether to send `go ponder`).
    pub ponder: bool,
}

/// What a successful `setoption` asks the session to do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effect {
    /// Hand the new settings to the engine.
    Apply,
    /// The rules changed: rebuild the game under them, then apply.
    Rules,
    /// Clear the hash (the `Clear Hash` button).
    ClearHash,
}

/// A checked option value.
enum Value {
    Check(bool),
    Spin(i64),
    Combo(&'static str),
    Button,
    Text(String),
}

fn check_value(spec: &OptionSpec, value: Option<&str>) -> Result<Value, CommandError> {
    let value = value.unwrap_or("");
    match spec.kind {
        OptionKind::Button if value.is_empty() => Ok(Value::Button),
        OptionKind::Button => Err(spec.bad_value(value)),
        OptionKind::Check { .. } if value.eq_ignore_ascii_case("true") => Ok(Value::Check(true)),
        OptionKind::Check { .. } if value.eq_ignore_ascii_case("false") => Ok(Value::Check(false)),
        OptionKind::Check { .. } => Err(spec.bad_value(value)),
        OptionKind::Spin { min, max, .. } => match value.parse::<i64>() {
            Ok(n) if (min..=max).contains(&n) => Ok(Value::Spin(n)),
            _ => Err(spec.bad_value(value)),
        },
        OptionKind::Text { .. } => Ok(Value::Text(value.to_string())),
        OptionKind::Combo { vars, .. } => vars
            .iter()
            .find(|v| v.eq_ignore_ascii_case(value))
            .map(|v| Value::Combo(v))
            .ok_or_else(|| spec.bad_value(value)),
    }
}

/// Finds an option by name, case-insensitively, ignoring extra whitespace.
pub fn find_option(name: &str) -> Option<&'static OptionSpec> {
    let name = name.split_whitespace().collect::<Vec<_>>().join(" ");
    OPTIONS
        .iter()
        .find(|spec| spec.name.eq_ignore_ascii_case(&name))
}

impl Settings {
    /// The settings after `setoption name <name> [value <value>]`, and what to do with them.
    /// `self` is unchanged: the session commits the result only when everything succeeds.
    ///
    /// # Errors
    /// [`CommandError::UnknownOption`] or [`CommandError::BadOptionValue`].
    pub fn with_option(
        &self,
        name: &str,
        value: Option<&str>,
    ) -> Result<(Settings, Effect), CommandError> {
        let spec =
            find_option(name).ok_or_else(|| CommandError::UnknownOption(name.to_string()))?;
        let value = check_value(spec, value)?;
        let mut next = self.clone();
        let engine = &mut next.engine;
        let effect = match (spec.name, value) {
            ("Hash", Value::Spin(n)) => set(&mut engine.hash_mb, n as usize),
            ("Threads", Value::Spin(n)) => set(&mut engine.threads, n as usize),
            ("MultiPV", Value::Spin(n)) => set(&mut engine.multi_pv, n as usize),
            ("Move Overhead", Value::Spin(n)) => {
                set(&mut engine.move_overhead, Duration::from_millis(n as u64))
            }
            ("Ponder", Value::Check(on)) => set(&mut next.ponder, on),
            ("UCI_ShowWDL", Value::Check(on)) => set(&mut engine.show_wdl, on),
            ("ForbidProof", Value::Check(on)) => set(&mut engine.forbid_proof, on),
            ("ForcedCapture", Value::Check(on)) => {
                engine.rules.forced_capture = on;
                Effect::Rules
            }
            ("CapturesToWin", Value::Spin(n)) => {
                engine.rules.captures_to_win = n as u8;
                Effect::Rules
            }
            ("Repetition", Value::Combo(word)) => {
                engine.rules.repetition = if word == "draw" {
                    Repetition::Draw
                } else {
                    Repetition::Forbid
                };
                Effect::Rules
            }
            ("Strategy", Value::Combo(word)) => {
                let strategy = match word {
                    "random" => Strategy::Random,
                    "greedy" => Strategy::Greedy,
                    _ => Strategy::Search,
                };
                set(&mut engine.strategy, strategy)
            }
            ("Eval", Value::Combo(word)) => set(
                &mut engine.evaluation,
                Evaluation::from_name(word).unwrap_or_default(),
            ),
            ("Seed", Value::Spin(n)) => set(&mut engine.seed, n as u64),
            ("Skill Level", Value::Spin(n)) => set(&mut engine.skill_level, n),
            ("UCI_LimitStrength", Value::Check(on)) => set(&mut engine.limit_strength, on),
            ("UCI_Elo", Value::Spin(n)) => set(&mut engine.elo, n),
            ("TablebasePath", Value::Text(path)) => {
                let path = (!path.is_empty() && path != "<empty>").then(|| PathBuf::from(path));
                set(&mut engine.tablebase_path, path)
            }
            ("nodestime", Value::Spin(n)) => set(&mut engine.nodes_time, n as u64),
            ("Clear Hash", Value::Button) => Effect::ClearHash,
            _ => unreachable!("option {} checked against its own kind", spec.name),
        };
        Ok((next, effect))
    }
}

fn set<T>(slot: &mut T, value: T) -> Effect {
    *slot = value;
    Effect::Apply
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_match_the_table() {
        let settings = Settings::default();
        for spec in &OPTIONS {
            let default = match spec.kind {
                OptionKind::Check { default } => Some(default.to_string()),
                OptionKind::Spin { default, .. } => Some(default.to_string()),
                OptionKind::Combo { default, .. } => Some(default.to_string()),
                OptionKind::Text { default } => Some(default.to_string()),
                OptionKind::Button => None,
            };
            if let Some(default) = default {
                let (same, _) = settings.with_option(spec.name, Some(&default)).unwrap();
                assert_eq!(
                    format!("{:?}", same.engine),
                    format!("{:?}", settings.engine),
                    "{}",
                    spec.name
                );
                assert_eq!(same.ponder, settings.ponder);
            }
        }
    }

    #[test]
    fn defaults_match_the_engine_defaults() {
        let ours = format!("{:?}", Settings::default().engine);
        assert_eq!(ours, format!("{:?}", EngineOptions::default()));
    }

    #[test]
    fn names_are_case_insensitive_and_values_checked() {
        let settings = Settings::default();
        let (next, effect) = settings.with_option("move  OVERHEAD", Some("100")).unwrap();
        assert_eq!(next.engine.move_overhead, Duration::from_millis(100));
        assert_eq!(effect, Effect::Apply);
        let (next, effect) = settings.with_option("repetition", Some("DRAW")).unwrap();
        assert_eq!(next.engine.rules.repetition, Repetition::Draw);
        assert_eq!(effect, Effect::Rules);
        let (next, _) = settings.with_option("uci_showwdl", Some("TRUE")).unwrap();
        assert!(next.engine.show_wdl);
        assert!(matches!(
            settings.with_option("Hash", Some("0")),
            Err(CommandError::BadOptionValue { .. })
        ));
        assert!(matches!(
            settings.with_option("Hash", None),
            Err(CommandError::BadOptionValue { .. })
        ));
        assert!(matches!(
            settings.with_option("Ponder", Some("yes")),
            Err(CommandError::BadOptionValue { .. })
        ));
        assert!(matches!(
            settings.with_option("Clear Hash", Some("1")),
            Err(CommandError::BadOptionValue { .. })
        ));
        assert!(matches!(
            settings.with_option("Hashes", Some("1")),
            Err(CommandError::UnknownOption(_))
        ));
        assert_eq!(
            settings.with_option("Clear Hash", None).unwrap().1,
            Effect::ClearHash
        );
    }

    #[test]
    fn uci_lines_name_type_and_range() {
        assert_eq!(
            OPTIONS[0].uci_line(),
            "option name Hash type spin default 16 min 1 max 4096"
        );
        assert_eq!(
            OPTIONS[8].uci_line(),
            "option name Repetition type combo default forbid var forbid var draw"
        );
        assert_eq!(
            OPTIONS[9].uci_line(),
            "option name TablebasePath type string default <empty>"
        );
        assert_eq!(
            OPTIONS[10].uci_line(),
            "option name ForbidProof type check default false"
        );
        assert_eq!(
            OPTIONS[13].uci_line(),
            "option name Skill Level type spin default 20 min 0 max 20"
        );
        assert_eq!(
            OPTIONS[14].uci_line(),
            "option name UCI_LimitStrength type check default false"
        );
        assert_eq!(
            OPTIONS[15].uci_line(),
            format!(
                "option name UCI_Elo type spin default {} min {} max {}",
                UCI_ELO.default, UCI_ELO.min, UCI_ELO.max
            )
        );
        assert_eq!(
            OPTIONS[16].uci_line(),
            "option name nodestime type spin default 0 min 0 max 10000"
        );
        assert_eq!(OPTIONS[18].uci_line(), "option name Clear Hash type button");
    }
}
