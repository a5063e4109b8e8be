//! Engine specs in cutechess-cli style: `cmd=./engine name=A option.Hash=64 tc=10+0.1 st=1
//! depth=4 nodes=1000 timemargin=50 arg=--flag dir=/path proto=uci`, with `-each` settings
//! applied to every engine first.

use super::engine_process::EngineCommand;
use super::time_control::{parse_seconds, Limits, TimeControl};
use std::fmt;
use std::time::Duration;

/// Everything the referee knows about one engine of the match.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineSpec {
    /// Display name (unique within the match).
    pub name: String,
    /// How to start it.
    pub command: EngineCommand,
    /// `setoption` pairs sent after the handshake, in the order given.
    pub options: Vec<(String, String)>,
    /// Thinking limits.
    pub limits: Limits,
    /// A fresh process for every game (`restart=on`); off: one process for as long as it
    /// stays usable.
    pub restart: bool,
}

/// A bad engine spec token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpecError(pub String);

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SpecError {}

/// The settings read from `key=value` tokens, before defaults are filled in.
#[derive(Clone, Debug, Default)]
struct Settings {
    cmd: Option<String>,
    name: Option<String>,
    args: Vec<String>,
    dir: Option<String>,
    stderr: Option<String>,
    options: Vec<(String, String)>,
    limits: Limits,
    restart: bool,
}

impl Settings {
    fn apply(&mut self, token: &str) -> Result<(), SpecError> {
        let (key, value) = token.split_once('=').ok_or_else(|| {
            SpecError(format!(
                "invalid engine setting \"{token}\": expected key=value"
            ))
        })?;
        let bad = |what: &str| SpecError(format!("invalid {what} \"{value}\" in \"{token}\""));
        match key {
            "cmd" => self.cmd = Some(value.to_string()),
            "name" => self.name = Some(value.to_string()),
            "arg" => self.args.push(value.to_string()),
            // fastchess: all the arguments in one value, split at whitespace.
            "args" => self.args.extend(value.split_whitespace().map(str::to_string)),
            "dir" => self.dir = Some(value.to_string()),
            "stderr" => self.stderr = Some(value.to_string()),
            // cutechess's auto (the engine decides) is off here: engines keep running.
            "restart" => {
                self.restart = match value {
                    "on" => true,
                    "off" | "auto" => false,
                    _ => return Err(bad("restart mode (on or off)")),
                }
            }
            "proto" if value == "uci" => {}
            "proto" => return Err(bad("protocol (only uci is spoken)")),
            "tc" if value == "inf" => self.limits.clock = None,
            "tc" => {
                let clock: TimeControl = value.parse().map_err(|e: super::time_control::ParseTimeControlError| SpecError(e.to_string()))?;
                self.limits.clock = Some(clock);
            }
            "st" => {
                self.limits.move_time = Some(parse_seconds(value).filter(|d| !d.is_zero()).ok_or_else(|| bad("move time"))?)
            }
            "depth" => self.limits.depth = Some(value.parse().ok().filter(|&d| d > 0).ok_or_else(|| bad("depth"))?),
            "nodes" => self.limits.nodes = Some(value.parse().ok().filter(|&n| n > 0).ok_or_else(|| bad("node count"))?),
            "timemargin" => {
                self.limits.margin = Duration::from_millis(value.parse().map_err(|_| bad("time margin (ms)"))?)
            }
            _ => match key.strip_prefix("option.") {
                Some(option) if !option.is_empty() => {
                    self.options.retain(|(name, _)| !name.eq_ignore_ascii_case(option));
                    self.options.push((option.to_string(), value.to_string()));
                }
                _ => {
                    return Err(SpecError(format!(
                        "unknown engine setting \"{key}\" in \"{token}\": expected cmd, name, arg, args, dir, stderr, proto, \
                         option.NAME, tc, st, depth, nodes, timemargin or restart"
                    )))
                }
            },
        }
        Ok(())
    }
}

/// Splits a `cmd=` value into program and arguments: a path that exists is taken whole,
/// otherwise the value is split at spaces (`cmd="./engine --uci"`).
fn split_command(cmd: &str) -> (String, Vec<String>) {
    if std::path::Path::new(cmd).exists() || !cmd.contains(' ') {
        return (cmd.to_string(), Vec::new());
    }
    let mut parts = cmd.split_whitespace().map(str::to_string);
    let program = parts.next().unwrap_or_default();
    (program, parts.collect())
}

/// Builds the engine specs from each `-engine` token list, `-each` tokens applied first.
///
/// # Errors
/// [`SpecError`] quoting the bad token, a missing `cmd`, duplicate names, or an engine with no
/// limit at all.
pub fn parse_engines(
    engines: &[Vec<String>],
    each: &[String],
) -> Result<Vec<EngineSpec>, SpecError> {
    parse_specs(engines, each, true)
}

/// One engine spec for `referee check`, which needs no thinking limit (the checker sends its
/// own): the keys of [`parse_engines`].
///
/// # Errors
/// [`SpecError`] quoting the bad token, or a missing `cmd`.
pub fn parse_check_engine(tokens: &[String]) -> Result<EngineSpec, SpecError> {
    let mut specs = parse_specs(&[tokens.to_vec()], &[], false)?;
    Ok(specs.remove(0))
}

fn parse_specs(
    engines: &[Vec<String>],
    each: &[String],
    require_limit: bool,
) -> Result<Vec<EngineSpec>, SpecError> {
    let mut specs: Vec<EngineSpec> = Vec::new();
    for (index, tokens) in engines.iter().enumerate() {
        let mut settings = Settings::default();
        for token in each.iter().chain(tokens) {
            settings.apply(token)?;
        }
        let cmd = settings.cmd.ok_or_else(|| {
            SpecError(format!(
                "engine {} has no cmd=: \"{}\"",
                index + 1,
                tokens.join(" ")
            ))
        })?;
        let (program, mut args) = split_command(&cmd);
        args.extend(settings.args);
        let name = settings.name.unwrap_or_else(|| {
            let stem = std::path::Path::new(&program)
                .file_stem()
                .map_or_else(|| program.clone(), |s| s.to_string_lossy().to_string());
            format!("{stem}-{}", index + 1)
        });
        if specs.iter().any(|spec| spec.name == name) {
            return Err(SpecError(format!(
                "duplicate engine name \"{name}\": give each engine a distinct name="
            )));
        }
        if require_limit && settings.limits.is_unlimited() {
            return Err(SpecError(format!(
                "engine \"{name}\" has no limit: give tc=, st=, depth= or nodes= (on -engine or -each)"
            )));
        }
        specs.push(EngineSpec {
            name,
            command: EngineCommand {
                program,
                args,
                dir: settings.dir,
                stderr: settings.stderr,
            },
            options: settings.options,
            limits: settings.limits,
            restart: settings.restart,
        });
    }
    Ok(specs)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(text: &str) -> Vec<String> {
        text.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn parses_cutechess_style_specs_with_each() {
        let engines = vec![
            strings("cmd=./a name=A option.Hash=64 depth=3"),
            strings("cmd=./b option.hash=16 tc=40/10+0.1 timemargin=50 arg=-x stderr=b.log"),
        ];
        let specs =
            parse_engines(&engines, &strings("option.Hash=8 option.Threads=1 st=0.5")).unwrap();
        assert_eq!(specs[0].name, "A");
        assert_eq!(
            specs[0].options,
            vec![("Threads".into(), "1".into()), ("Hash".into(), "64".into())]
        );
        assert_eq!(specs[0].limits.depth, Some(3));
        assert_eq!(specs[0].limits.move_time, Some(Duration::from_millis(500)));
        assert_eq!(specs[1].name, "b-2");
        assert_eq!(specs[1].command.args, vec!["-x".to_string()]);
        // fastchess's args= (one value, split at whitespace) adds to cutechess's arg=.
        let fast = parse_check_engine(&[
            "cmd=./e".to_string(),
            "arg=--a".to_string(),
            "args=--b 2  --c".to_string(),
        ])
        .unwrap();
        assert_eq!(fast.command.args, ["--a", "--b", "2", "--c"]);
        assert_eq!(specs[1].command.stderr.as_deref(), Some("b.log"));
        assert_eq!(specs[0].command.stderr, None);
        assert_eq!(specs[1].limits.clock.unwrap().to_string(), "40/10+0.1");
        assert_eq!(specs[1].limits.margin, Duration::from_millis(50));
        // restart: off by default, on from -each unless the engine says otherwise.
        assert!(!specs[0].restart);
        let restart = parse_engines(
            &[
                strings("cmd=./a depth=1"),
                strings("cmd=./b depth=1 restart=off"),
            ],
            &strings("restart=on"),
        )
        .unwrap();
        assert_eq!((restart[0].restart, restart[1].restart), (true, false));
    }

    #[test]
    fn rejects_bad_specs_quoting_the_token() {
        let each: Vec<String> = Vec::new();
        for (spec, needle) in [
            ("cmd=./a depth=0", "\"0\""),
            ("cmd=./a bogus=1", "\"bogus\""),
            ("cmd=./a depth", "\"depth\""),
            ("name=x depth=1", "no cmd="),
            ("cmd=./a", "no limit"),
            ("cmd=./a tc=1/x", "\"1/x\""),
            ("cmd=./a proto=xboard depth=1", "\"xboard\""),
            ("cmd=./a depth=1 restart=yes", "\"yes\""),
        ] {
            let error = parse_engines(&[strings(spec)], &each).unwrap_err();
            assert!(error.0.contains(needle), "{spec}: {error}");
        }
        let twice = vec![
            strings("cmd=./a name=A depth=1"),
            strings("cmd=./b name=A depth=1"),
        ];
        assert!(parse_engines(&twice, &each)
            .unwrap_err()
            .0
            .contains("duplicate"));
    }

    #[test]
    fn splits_commands_with_arguments() {
        assert_eq!(
            split_command("./nonexistent --uci x"),
            ("./nonexistent".into(), strings("--uci x"))
        );
        assert_eq!(split_command("engine"), ("engine".into(), Vec::new()));
    }
}
