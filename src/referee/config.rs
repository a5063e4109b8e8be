//! `-config file=PATH`: every match setting in one JSON file, read at the start and rewritten
//! (atomically) during the run, so that `referee -config file=PATH` alone resumes the run.
//!
//! The file is the match options struct [`MatchArgs`] as JSON (its field names are the keys,
//! the rule flags under `rules`), plus a `state` object the referee writes (games in the
//! schedule, games recorded, how the run stands), which is informational: the games played are
//! in the record files, which resuming reads. Options given on the command line beside
//! `-config` override the file's; keys the file leaves out take their defaults. The file
//! written holds the effective settings with the seed actually used and, when a record file is
//! named, `resume: true`, so running it again goes on where the run stopped (and, once the run
//! is complete, plays nothing more and prints the results again).

use super::match_args::MatchArgs;
use clap::{Args, Command};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::path::Path;

/// The key of the run's state in the file (not a setting).
const STATE_KEY: &str = "state";

/// Where a run stands, written beside the settings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunState {
    /// Games in the whole schedule (a knockout: known so far).
    pub games_in_schedule: u64,
    /// Games recorded, this run and earlier ones.
    pub games_recorded: u64,
    /// `starting`, `running`, `complete` (every game played or the SPRT decided),
    /// `interrupted`, `stopped` (an engine fault without `-recover`) or `error`.
    pub status: String,
}

/// Writes the effective settings and the run's state to the config file.
#[derive(Clone, Debug)]
pub struct Autosave {
    path: String,
    settings: MatchArgs,
}

impl Autosave {
    /// The file written.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// Writes the file atomically (a temporary file beside it, then renamed over it).
    ///
    /// # Errors
    /// The file name and the reason.
    pub fn write(&self, state: &RunState) -> Result<(), String> {
        let error =
            |e: &dyn std::fmt::Display| format!("cannot write config file \"{}\": {e}", self.path);
        let mut value = serde_json::to_value(&self.settings).map_err(|e| error(&e))?;
        let state = serde_json::to_value(state).map_err(|e| error(&e))?;
        value
            .as_object_mut()
            .expect("the settings are an object")
            .insert(STATE_KEY.to_string(), state);
        let text = serde_json::to_string_pretty(&value).map_err(|e| error(&e))? + "\n";
        let temporary = format!("{}.tmp", self.path);
        std::fs::write(&temporary, text).map_err(|e| error(&e))?;
        std::fs::rename(&temporary, &self.path).map_err(|e| error(&e))
    }
}

/// The path of `-config file=PATH` (a bare PATH works too).
///
/// # Errors
/// An unknown key or no file.
fn config_path(tokens: &[String]) -> Result<String, String> {
    let mut path = None;
    for token in tokens {
        match token.split_once('=') {
            Some(("file", value)) => path = Some(value.to_string()),
            Some((key, _)) => {
                return Err(format!(
                    "unknown --config key \"{key}\": expected file=PATH"
                ))
            }
            None => path = Some(token.clone()),
        }
    }
    path.ok_or_else(|| "--config needs file=PATH".to_string())
}

/// The settings of the run: the command line's, or with `-config` the file's overridden by the
/// options given on the command line, the seed from `clock_seed` when none is set; with the
/// writer of the config file.
///
/// # Errors
/// A file that cannot be read or does not parse, an unknown key or a value of the wrong type
/// or range: the file, the key and the reason.
pub fn effective_args(
    cli: &MatchArgs,
    clock_seed: impl FnOnce() -> u64,
) -> Result<(MatchArgs, Option<Autosave>), String> {
    if cli.config.is_empty() {
        let mut settings = cli.clone();
        settings.seed = settings.seed.or_else(|| Some(clock_seed()));
        return Ok((settings, None));
    }
    let path = config_path(&cli.config)?;
    let mut settings = if Path::new(&path).exists() {
        let text = std::fs::read_to_string(&path)
            .map_err(|e| format!("cannot read config file \"{path}\": {e}"))?;
        merge(&text, cli).map_err(|e| format!("config file \"{path}\": {e}"))?
    } else {
        log::info!("config file \"{path}\" does not exist yet: it will be written");
        cli.clone()
    };
    settings.config = cli.config.clone();
    settings.given = cli.given.clone();
    // The seed actually used goes into the file, so that a resumed run has the same schedule.
    settings.seed = settings.seed.or_else(|| Some(clock_seed()));
    let mut saved = settings.clone();
    saved.resume = !settings.jsonout.is_empty() || !settings.pgnout.is_empty();
    Ok((
        settings,
        Some(Autosave {
            path,
            settings: saved,
        }),
    ))
}

/// The file's settings (`text`) with the options given on the command line put over them.
fn merge(text: &str, cli: &MatchArgs) -> Result<MatchArgs, String> {
    let mut file: Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
    let Some(object) = file.as_object_mut() else {
        return Err("expected a JSON object of settings".to_string());
    };
    object.remove(STATE_KEY);
    let command = MatchArgs::augment_args(Command::new("referee"));
    check_values(object, &command, "")?;
    let given = serde_json::to_value(cli).map_err(|e| e.to_string())?;
    for id in &cli.given {
        let key = if id == "engine" {
            "engines"
        } else {
            id.as_str()
        };
        if let Some(value) = given.get(key) {
            object.insert(key.to_string(), value.clone());
        } else if let Some(value) = given.get("rules").and_then(|rules| rules.get(key)) {
            let rules = object
                .entry("rules")
                .or_insert_with(|| Value::Object(Map::new()));
            if let Some(rules) = rules.as_object_mut() {
                rules.insert(key.to_string(), value.clone());
            }
        }
    }
    serde_path_to_error::deserialize(file).map_err(|e| {
        let path = e.path().to_string();
        // An unknown key is reported at the top level (".") because of the flattened report
        // options; serde's message names the key.
        match path.as_str() {
            "." | "" => e.into_inner().to_string(),
            _ => format!("key \"{path}\": {}", e.into_inner()),
        }
    })
}

/// Checks each scalar value with its command-line option's own parser (ranges, choices), so a
/// file is held to the same limits as the command line. Booleans, lists and nested objects
/// other than `rules` are left to the type check.
fn check_values(
    object: &Map<String, Value>,
    command: &Command,
    prefix: &str,
) -> Result<(), String> {
    for (key, value) in object {
        if key == "rules" {
            if let Some(rules) = value.as_object() {
                check_values(rules, command, "rules.")?;
            }
            continue;
        }
        let text = match value {
            Value::Number(number) => number.to_string(),
            Value::String(text) => text.clone(),
            _ => continue,
        };
        let Some(arg) = command.get_arguments().find(|a| a.get_id() == key.as_str()) else {
            continue;
        };
        if !arg.get_action().takes_values() {
            continue;
        }
        let Some(long) = arg.get_long() else {
            continue;
        };
        let line = ["referee".to_string(), format!("--{long}={text}")];
        if let Err(error) = command.clone().try_get_matches_from(line) {
            let message = error.to_string();
            let first = message.lines().next().unwrap_or_default();
            return Err(format!(
                "key \"{prefix}{key}\": {}",
                first.strip_prefix("error: ").unwrap_or(first)
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::referee::cli::parse_cli;

    fn cli(text: &str) -> MatchArgs {
        parse_cli(text.split_whitespace().map(str::to_string).collect())
            .unwrap()
            .play
    }

    #[test]
    fn the_command_line_overrides_the_file() {
        let file = r#"{"rounds": 7, "games": 4, "engines": [["cmd=a", "depth=1"], ["cmd=b", "depth=1"]],
                       "rules": {"captures_to_win": 3}, "state": {"anything": 1}}"#;
        let merged = merge(file, &cli("referee -games 6 -captures-to-win 2 -config x")).unwrap();
        assert_eq!((merged.rounds, merged.games), (7, 6));
        assert_eq!(merged.rules.captures_to_win, 2);
        assert_eq!(merged.engines.len(), 2);
        let merged = merge(file, &cli("referee -engine cmd=c depth=2 -engine cmd=d depth=2 -engine cmd=e depth=1 -config x")).unwrap();
        assert_eq!(merged.engines.len(), 3);
        assert_eq!(merged.rules.captures_to_win, 3);
        // Keys left out take the command line's defaults.
        let defaults = merge("{}", &cli("referee -config x")).unwrap();
        assert_eq!(defaults.maxplies, MatchArgs::default().maxplies);
    }

    #[test]
    fn bad_files_name_the_key() {
        let bare = cli("referee -config x");
        for (text, needle) in [
            (r#"{"rounds": "x"}"#, "key \"rounds\""),
            (r#"{"rounds": 0}"#, "key \"rounds\""),
            (
                r#"{"rules": {"captures_to_win": 30}}"#,
                "key \"rules.captures_to_win\"",
            ),
            (r#"{"roundz": 3}"#, "roundz"),
            (r#"{"tournament": "swiss"}"#, "key \"tournament\""),
            (r#"{"rounds": 3,"#, "line 1"),
            ("[1, 2]", "JSON object"),
            (r#"{"engines": [["cmd=a"], 5]}"#, "engines[1]"),
        ] {
            let error = merge(text, &bare).unwrap_err();
            assert!(error.contains(needle), "{text}: {error}");
        }
    }
}
