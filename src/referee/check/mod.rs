//! `referee check`: a protocol compliance checker for any engine, in the UCI or the UGI
//! dialect (after fastchess's `--compliance`). It runs a suite of checks, prints one line per
//! check (`pass <name>`, or `fail <name>: <reason>` followed by the lines exchanged, indented),
//! the stop latency and the worst time overrun measured, and a summary. Every move is judged by
//! our rules core under the rules the engine was told, never by the engine under test.
//!
//! [`judge`] holds the judging, [`wire`] the engine line with its transcript, [`suite`] the
//! protocol checks and [`searches`] the `go` checks.

pub mod judge;
pub mod searches;
pub mod suite;
pub mod wire;

use crate::referee::cli::CheckArgs;
use crate::referee::spec::{parse_check_engine, EngineSpec};
use crate::{Repetition, Rules};
use judge::{judge_bestmove, judge_info, OptionDecl, Probe};
use std::io::Write;
use std::time::{Duration, Instant};
use wire::Wire;

/// The protocol dialect checked.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum CheckDialect {
    /// `uci`/`uciok`, `ucinewgame`, `wtime`/`btime` (goats = white).
    Uci,
    /// `ugi`/`ugiok`, `uginewgame`, `p1time`/`p2time` (player 1 = goats), `query`.
    Ugi,
}

impl CheckDialect {
    /// The handshake command and its answer.
    pub fn handshake(self) -> (&'static str, &'static str) {
        match self {
            CheckDialect::Uci => ("uci", "uciok"),
            CheckDialect::Ugi => ("ugi", "ugiok"),
        }
    }

    /// The new-game command.
    pub fn new_game(self) -> &'static str {
        match self {
            CheckDialect::Uci => "ucinewgame",
            CheckDialect::Ugi => "uginewgame",
        }
    }

    /// The clock words: goats' time, tigers' time, goats' increment, tigers' increment.
    pub fn clock_words(self) -> [&'static str; 4] {
        match self {
            CheckDialect::Uci => ["wtime", "btime", "winc", "binc"],
            CheckDialect::Ugi => ["p1time", "p2time", "p1inc", "p2inc"],
        }
    }
}

/// Limits of the checks that measure time.
#[derive(Copy, Clone, Debug)]
pub struct CheckLimits {
    /// For `uciok`, `readyok` when idle, and a `bestmove` with no time limit.
    pub timeout: Duration,
    /// Time allowed past a move time or clock (the engine spec's `timemargin=`).
    pub margin: Duration,
    /// For `readyok` during a search, and `bestmove` after `stop`.
    pub at_once: Duration,
    /// From `quit` to the end of the process.
    pub quit: Duration,
}

/// The result of one check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckResult {
    /// The check's name.
    pub name: String,
    /// Why it failed, `None` when it passed.
    pub failure: Option<String>,
}

/// The checker: the engine, what it declared, the rules it was told, and the results so far.
pub struct Checker<'a> {
    spec: EngineSpec,
    dialect: CheckDialect,
    limits: CheckLimits,
    wire: Option<Wire>,
    /// Options the engine declared in its handshake.
    declared: Vec<OptionDecl>,
    /// The first malformed option declaration, if any.
    option_error: Option<String>,
    /// The rules the engine was last told (they judge its moves).
    rules: Rules,
    results: Vec<CheckResult>,
    /// `stop` latencies measured (check, time from `stop` to `bestmove`).
    stop_latencies: Vec<(String, Duration)>,
    /// Time overruns measured (check, answer time less the time allowed, in ms; negative:
    /// time to spare).
    overruns: Vec<(String, f64)>,
    out: &'a mut dyn Write,
}

/// The rules set by an engine's `option.X=` settings on top of the default rules.
fn spec_rules(spec: &EngineSpec) -> Rules {
    let mut rules = Rules::default();
    for (name, value) in &spec.options {
        match name.to_ascii_lowercase().as_str() {
            "forcedcapture" => rules.forced_capture = value.eq_ignore_ascii_case("true"),
            "capturestowin" => {
                rules.captures_to_win = value.parse().unwrap_or(rules.captures_to_win)
            }
            "repetition" => {
                rules.repetition = if value.eq_ignore_ascii_case("draw") {
                    Repetition::Draw
                } else {
                    Repetition::Forbid
                }
            }
            _ => {}
        }
    }
    rules
}

impl<'a> Checker<'a> {
    /// A checker for `spec`, printing to `out`.
    pub fn new(
        spec: EngineSpec,
        dialect: CheckDialect,
        limits: CheckLimits,
        out: &'a mut dyn Write,
    ) -> Checker<'a> {
        Checker {
            rules: spec_rules(&spec),
            spec,
            dialect,
            limits,
            wire: None,
            declared: Vec::new(),
            option_error: None,
            results: Vec::new(),
            stop_latencies: Vec::new(),
            overruns: Vec::new(),
            out,
        }
    }

    /// Runs the whole suite; returns the results (also printed, with the summary).
    pub fn run(mut self) -> Vec<CheckResult> {
        suite::run_all(&mut self);
        if let Some(wire) = &mut self.wire {
            wire.kill();
        }
        self.print_summary();
        self.results
    }

    fn say(&mut self, line: &str) {
        let _ = writeln!(self.out, "{line}");
        let _ = self.out.flush();
    }

    /// Runs one check: the engine is (re)started first if it is not running; the result is
    /// printed with the lines exchanged when it failed.
    pub fn check(&mut self, name: &str, body: impl FnOnce(&mut Checker<'a>) -> Result<(), String>) {
        let result = match self.ensure_running() {
            Ok(()) => body(self),
            Err(error) => Err(format!("the engine could not be (re)started: {error}")),
        };
        let transcript = self
            .wire
            .as_mut()
            .map(Wire::take_transcript)
            .unwrap_or_default();
        match &result {
            Ok(()) => self.say(&format!("pass {name}")),
            Err(reason) => {
                self.say(&format!("fail {name}: {reason}"));
                for line in transcript {
                    self.say(&format!("    {line}"));
                }
            }
        }
        self.results.push(CheckResult {
            name: name.to_string(),
            failure: result.err(),
        });
    }

    /// Starts the engine if it is not running (after a crash, or for the first check, which
    /// then sees the handshake's lines itself).
    fn ensure_running(&mut self) -> Result<(), String> {
        let dead = match &mut self.wire {
            None => true,
            Some(wire) => wire.exit_reason().is_some(),
        };
        if !dead {
            return Ok(());
        }
        if let Some(mut old) = self.wire.take() {
            old.kill();
        }
        let restart = !self.results.is_empty();
        self.wire = Some(Wire::start(&self.spec)?);
        self.rules = spec_rules(&self.spec);
        if restart {
            self.say("note: the engine is not running; restarting it for the next check");
            self.handshake().map(|_| ())?;
            self.wire().take_transcript();
        }
        Ok(())
    }

    /// The engine line (started by [`Checker::check`]).
    pub fn wire(&mut self) -> &mut Wire {
        self.wire.as_mut().expect("the engine runs during a check")
    }

    /// The handshake, the spec's options and `isready`; returns the lines before the `ok`
    /// word.
    pub fn handshake(&mut self) -> Result<Vec<String>, String> {
        let (hello, ok) = self.dialect.handshake();
        let timeout = self.limits.timeout;
        self.wire().send(hello)?;
        let (lines, _, _) = self.wire().expect(ok, timeout)?;
        for (name, value) in self.spec.options.clone() {
            self.wire()
                .send(&format!("setoption name {name} value {value}"))?;
        }
        self.sync()?;
        Ok(lines)
    }

    /// `isready` until `readyok` (the idle timeout); a `bestmove` before it is a fault (nobody
    /// asked for it).
    pub fn sync(&mut self) -> Result<Duration, String> {
        let timeout = self.limits.timeout;
        self.wire().send("isready")?;
        let (before, _, took) = self.wire().expect("readyok", timeout)?;
        if let Some(extra) = before.iter().find(|l| l.starts_with("bestmove")) {
            return Err(format!("unsolicited \"{extra}\" (no search was running)"));
        }
        Ok(took)
    }

    /// Tells the engine the rules (only the options it declared) and uses them to judge.
    pub fn set_rules(&mut self, rules: Rules) -> Result<(), String> {
        let repetition = match rules.repetition {
            Repetition::Forbid => "forbid",
            Repetition::Draw => "draw",
        };
        let wanted = [
            ("ForcedCapture", rules.forced_capture.to_string()),
            ("CapturesToWin", rules.captures_to_win.to_string()),
            ("Repetition", repetition.to_string()),
        ];
        for (name, value) in wanted {
            if self.declares(name) {
                self.wire()
                    .send(&format!("setoption name {name} value {value}"))?;
            }
        }
        self.rules = rules;
        self.sync().map(|_| ())
    }

    /// Whether the engine declared an option of this name (case-insensitively).
    pub fn declares(&self, name: &str) -> bool {
        self.declared
            .iter()
            .any(|o| o.name.eq_ignore_ascii_case(name))
    }

    /// The option the engine declared under this name.
    pub fn declared(&self, name: &str) -> Option<&OptionDecl> {
        self.declared
            .iter()
            .find(|o| o.name.eq_ignore_ascii_case(name))
    }

    /// Sends `probe` (under the current rules) and `go`, and reads until `bestmove`, at most
    /// `allowed`; then judges every `info` line and the `bestmove`, and checks with `isready`
    /// that no second `bestmove` follows. Returns the time from `go` to `bestmove`.
    pub fn search(
        &mut self,
        probe: &Probe,
        go: &str,
        allowed: Duration,
    ) -> Result<Duration, String> {
        let probe = Probe {
            rules: self.rules,
            ..probe.clone()
        };
        let game = probe.game();
        self.wire().send(&probe.command())?;
        self.wire().send(go)?;
        let started = Instant::now();
        let reply = self.wire().expect("bestmove", allowed);
        let took = started.elapsed();
        let (infos, best, _) = match reply {
            Ok(reply) => reply,
            Err(error) => {
                // Get the search out of the way for the next check.
                let _ = self.wire().send("stop");
                let at_once = self.limits.at_once;
                let late = self.wire().expect("bestmove", at_once);
                return Err(match late {
                    Ok(_) => format!(
                        "{error}: bestmove only after stop, {} ms after go",
                        started.elapsed().as_millis()
                    ),
                    Err(_) => error,
                });
            }
        };
        self.judge_reply(&game, &infos, &best)?;
        self.sync()?;
        Ok(took)
    }

    /// Judges the `bestmove` line and the `info` lines of a search of `game`.
    pub fn judge_reply(
        &self,
        game: &crate::Game,
        infos: &[String],
        best: &str,
    ) -> Result<(), String> {
        // Where our rules end the game but the board has moves, an engine may search on (as
        // the arbiter plays on): its lines are judged from the position as a new game.
        judge_bestmove(best, game, self.dialect == CheckDialect::Ugi)?;
        let searched = game.played_on().unwrap_or_else(|| game.clone());
        for line in infos.iter().filter(|l| l.starts_with("info")) {
            judge_info(line, &searched).map_err(|reason| format!("{reason}: \"{line}\""))?;
        }
        Ok(())
    }

    /// Records a time measurement: `took` against `allowed`.
    pub fn record_overrun(&mut self, name: &str, took: Duration, allowed: Duration) {
        let overrun = (took.as_secs_f64() - allowed.as_secs_f64()) * 1000.0;
        self.overruns.push((name.to_string(), overrun));
    }

    fn print_summary(&mut self) {
        let latency = self
            .stop_latencies
            .iter()
            .max_by_key(|(_, took)| *took)
            .map(|(name, took)| format!("{:.1} ms ({name})", took.as_secs_f64() * 1000.0));
        let overrun = self
            .overruns
            .iter()
            .max_by(|a, b| a.1.total_cmp(&b.1))
            .map(|(name, ms)| format!("{ms:.1} ms ({name})"));
        let none = || "not measured".to_string();
        self.say(&format!(
            "stop latency: worst {}",
            latency.unwrap_or_else(none)
        ));
        self.say(&format!(
            "time overrun: worst {} (answer time less the time allowed; negative: time to spare)",
            overrun.unwrap_or_else(none)
        ));
        let failed = self.results.iter().filter(|r| r.failure.is_some()).count();
        let passed = self.results.len() - failed;
        self.say(&format!(
            "summary: {passed} passed, {failed} failed of {} checks ({})",
            self.results.len(),
            self.spec.name
        ));
    }
}

/// `referee check`: runs the suite on the engine of `args`, printing to stdout; `Ok(true)` when
/// every check passed.
///
/// # Errors
/// A bad engine spec.
pub fn run_check(args: &CheckArgs) -> Result<bool, String> {
    let spec = parse_check_engine(&args.engine).map_err(|e| e.to_string())?;
    let limits = CheckLimits {
        timeout: Duration::from_millis(args.timeout),
        margin: spec.limits.margin,
        at_once: Duration::from_millis(args.at_once),
        quit: Duration::from_millis(args.at_once),
    };
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let results = Checker::new(spec, args.dialect, limits, &mut out).run();
    Ok(results.iter().all(|r| r.failure.is_none()))
}
