//! One engine process spoken to over pipes: spawn, handshake, `go`/`bestmove` with deadlines,
//! clean shutdown (stop, quit, grace period, kill of the whole process group).
//!
//! A reader thread turns the engine's stdout into lines sent over a channel, so every read can
//! have a deadline (`recv_timeout`) and an interrupt flag is checked while waiting. While
//! waiting, the referee also watches the process itself: an engine that dies is reported with
//! its exit status or signal even when a child of it still holds the output pipe open.
//!
//! Output that arrives while no `go` is pending (a second `bestmove`, a late one) is stale:
//! every `go` starts with an `isready`/`readyok` barrier, and what comes before `readyok` is
//! logged and dropped, never taken as an answer.

use super::process::{kill_group_and_reap, peek_exit, ExitReason};
use super::search_info::InfoFields;
use super::wire_log::{Direction, MatchLog};
pub use ponder::PONDER_STOP;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How to start an engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineCommand {
    /// Program to run.
    pub program: String,
    /// Its arguments.
    pub args: Vec<String>,
    /// Working directory, if not the referee's.
    pub dir: Option<String>,
    /// File that the engine's stderr is appended to (default: the referee's stderr).
    pub stderr: Option<String>,
}

/// How long engines get for things other than thinking.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Timeouts {
    /// From start to `uciok`; for `readyok` (also the barrier before every `go`); for `bestmove`
    /// after `stop` once an engine has overrun its time.
    pub handshake: Duration,
    /// For `bestmove` when the engine has no time limit (depth or nodes only).
    pub stall: Duration,
    /// Between `quit` and the kill.
    pub grace: Duration,
}

impl Default for Timeouts {
    fn default() -> Timeouts {
        Timeouts {
            handshake: Duration::from_secs(10),
            stall: Duration::from_secs(60),
            grace: Duration::from_secs(1),
        }
    }
}

/// What went wrong talking to an engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineError {
    /// The process could not be started.
    Spawn(String),
    /// The process closed its output or its input but did not exit (within half a second).
    Disconnected,
    /// The process ended: its exit status or the signal that killed it.
    Exited(ExitReason),
    /// No expected answer before the deadline.
    Timeout {
        /// What the referee waited for (`uciok`, `readyok`, `bestmove`).
        waiting_for: &'static str,
        /// How long it waited.
        waited: Duration,
    },
    /// The referee was interrupted while waiting.
    Interrupted,
}

impl std::fmt::Display for EngineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EngineError::Spawn(message) => write!(f, "cannot start the engine: {message}"),
            EngineError::Disconnected => f.write_str("the engine closed its pipes"),
            EngineError::Exited(reason) => write!(f, "the engine {}", reason.describe()),
            EngineError::Timeout {
                waiting_for,
                waited,
            } => {
                write!(f, "no {waiting_for} within {} ms", waited.as_millis())
            }
            EngineError::Interrupted => f.write_str("interrupted"),
        }
    }
}

impl std::error::Error for EngineError {}

/// What [`EngineError::Timeout`] names when the engine gave no `bestmove` even after `stop`
/// ([`EngineProcess::stop_search`]).
pub const BESTMOVE_AFTER_STOP: &str = "bestmove after stop";

mod ponder;

/// How long a process that closed its pipes gets to exit before it counts as disconnected.
const EXIT_WAIT: Duration = Duration::from_millis(500);

/// How long output written by an engine just before it exited may take to reach the referee.
const EXIT_DRAIN: Duration = Duration::from_millis(50);

/// Longest wait on the output channel between checks of the interrupt flag and of the process.
const POLL: Duration = Duration::from_millis(20);

/// Longest stale line quoted in the log.
const LOGGED_CHARS: usize = 120;

/// A line read from the engine, or the end of its output.
enum Output {
    Line(String),
    End,
}

/// The engine's answer to `go`.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchReply {
    /// The text after `bestmove` (first token), possibly malformed; empty if missing.
    pub best_move: String,
    /// The text after `ponder` in the `bestmove` line (the reply the engine expects), if any.
    pub ponder: Option<String>,
    /// The last score seen in an `info` line (engine's view), if any.
    pub score: Option<Score>,
    /// The last depth seen in an `info` line.
    pub depth: Option<u32>,
    /// The other figures of the `info` lines (nodes, pv, the engine's own time, ...).
    pub info: InfoFields,
    /// Time from sending `go` to reading `bestmove` (for an answer to `stop` after the deadline:
    /// still from `go`).
    pub elapsed: Duration,
}

/// An engine score.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centi-goats (100 = one goat), from the side to move's view.
    Centi(i32),
    /// Mate in this many moves (negative: being mated).
    Mate(i32),
}

impl Score {
    /// The score as centi-goats, mates mapped to ±100000.
    pub fn as_centi(self) -> i32 {
        match self {
            Score::Centi(value) => value,
            Score::Mate(moves) if moves >= 0 => 100_000,
            Score::Mate(_) => -100_000,
        }
    }
}

/// Reads `score cp N` / `score mate N` and `depth N` from an `info` line.
pub fn parse_info(line: &str) -> (Option<Score>, Option<u32>) {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    let mut score = None;
    let mut depth = None;
    for (i, token) in tokens.iter().enumerate() {
        let next = tokens.get(i + 1);
        match *token {
            "depth" => depth = next.and_then(|t| t.parse().ok()).or(depth),
            "cp" if i > 0 && tokens[i - 1] == "score" => {
                score = next
                    .and_then(|t| t.parse().ok())
                    .map(Score::Centi)
                    .or(score)
            }
            "mate" if i > 0 && tokens[i - 1] == "score" => {
                score = next.and_then(|t| t.parse().ok()).map(Score::Mate).or(score)
            }
            _ => {}
        }
    }
    (score, depth)
}

/// Longest line kept from an engine; the rest of a longer line is read and dropped.
pub const MAX_LINE: usize = 1 << 20;

/// Reads one line (without its end), at most [`MAX_LINE`] bytes of it, invalid UTF-8 replaced;
/// None at end of input.
pub fn read_bounded_line(reader: &mut impl BufRead) -> Option<String> {
    let mut buffer = Vec::new();
    let read = Read::take(&mut *reader, MAX_LINE as u64)
        .read_until(b'\n', &mut buffer)
        .ok()?;
    if read == 0 {
        return None;
    }
    if buffer.len() == MAX_LINE && buffer.last() != Some(&b'\n') {
        // Skip the rest of an over-long line.
        let mut rest = Vec::new();
        loop {
            rest.clear();
            let n = reader
                .by_ref()
                .take(MAX_LINE as u64)
                .read_until(b'\n', &mut rest)
                .ok()?;
            if n == 0 || rest.last() == Some(&b'\n') {
                break;
            }
        }
    }
    Some(String::from_utf8_lossy(&buffer).trim_end().to_string())
}

/// Whether a handshake line declares the `Ponder` option (option names are case-insensitive).
fn is_ponder_option(line: &str) -> bool {
    let mut tokens = line.split_whitespace();
    tokens.next() == Some("option")
        && tokens.next() == Some("name")
        && tokens
            .next()
            .is_some_and(|name| name.eq_ignore_ascii_case("ponder"))
        && tokens.next() == Some("type")
}

/// A running engine process.
pub struct EngineProcess {
    name: String,
    child: Child,
    stdin: Option<ChildStdin>,
    output: Receiver<Output>,
    /// The name the engine gave in `id name`.
    pub id_name: Option<String>,
    /// Time allowed for `readyok` (the handshake timeout once [`EngineProcess::handshake`] ran).
    ready_timeout: Duration,
    /// When the last `go` whose `bestmove` has not been read was sent.
    go_sent: Option<Instant>,
    /// A `go ponder` was sent and neither `ponderhit` nor `stop` has ended it.
    pondering: bool,
    /// The engine declared the `Ponder` option in its handshake.
    offers_ponder: bool,
    /// How the process ended, once seen.
    exit: Option<ExitReason>,
    /// Whether the process has been reaped (after its group was killed).
    reaped: bool,
    /// Stale lines dropped so far.
    stale_lines: u64,
    /// Sees every line read from the engine (see [`EngineProcess::set_line_observer`]).
    observer: Option<LineObserver>,
    /// The match log that every line to and from the engine is written to (`-log`).
    wire_log: Option<Arc<MatchLog>>,
}

/// A callback that sees every line read from an engine, e.g. to show its `info` lines live.
pub type LineObserver = Box<dyn FnMut(&str) + Send>;

impl EngineProcess {
    /// Starts `command`; `name` is used in logs.
    ///
    /// # Errors
    /// [`EngineError::Spawn`] when the program cannot be run.
    pub fn spawn(name: &str, command: &EngineCommand) -> Result<EngineProcess, EngineError> {
        let mut builder = Command::new(&command.program);
        builder
            .args(&command.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit());
        if let Some(path) = &command.stderr {
            let file = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .map_err(|e| {
                    EngineError::Spawn(format!("cannot open stderr file \"{path}\": {e}"))
                })?;
            builder.stderr(file);
        }
        if let Some(dir) = &command.dir {
            builder.current_dir(dir);
        }
        #[cfg(unix)]
        {
            // Own process group: a Ctrl-C in the terminal reaches only the referee, which then
            // shuts the engines down itself, and the kill reaches the engine's own children.
            use std::os::unix::process::CommandExt;
            builder.process_group(0);
        }
        let mut child = builder
            .spawn()
            .map_err(|e| EngineError::Spawn(format!("\"{}\": {e}", command.program)))?;
        let stdout = child.stdout.take().expect("stdout is piped");
        let stdin = child.stdin.take();
        let (sender, output) = mpsc::channel();
        let thread_name = format!("engine-reader-{name}");
        std::thread::Builder::new()
            .name(thread_name)
            .spawn(move || {
                let mut reader = BufReader::new(stdout);
                loop {
                    match read_bounded_line(&mut reader) {
                        None => {
                            let _ = sender.send(Output::End);
                            return;
                        }
                        Some(line) => {
                            if sender.send(Output::Line(line)).is_err() {
                                return;
                            }
                        }
                    }
                }
            })
            .map_err(|e| EngineError::Spawn(format!("cannot start a reader thread: {e}")))?;
        log::debug!("{name}: started pid {}", child.id());
        Ok(EngineProcess {
            name: name.to_string(),
            child,
            stdin,
            output,
            id_name: None,
            ready_timeout: Timeouts::default().handshake,
            go_sent: None,
            pondering: false,
            offers_ponder: false,
            exit: None,
            reaped: false,
            stale_lines: 0,
            observer: None,
            wire_log: None,
        })
    }

    /// The process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Lines dropped as stale so far (output while no `go` was pending).
    pub fn stale_lines(&self) -> u64 {
        self.stale_lines
    }

    /// How the process ended, if it has (it is not reaped until [`EngineProcess::kill`]).
    pub fn exit_reason(&mut self) -> Option<ExitReason> {
        if self.exit.is_none() {
            self.exit = peek_exit(&self.child);
        }
        self.exit
    }

    /// The error for a closed pipe: [`EngineError::Exited`] when the process ends within
    /// [`EXIT_WAIT`], else [`EngineError::Disconnected`].
    fn lost(&mut self) -> EngineError {
        let deadline = Instant::now() + EXIT_WAIT;
        loop {
            if let Some(reason) = self.exit_reason() {
                return EngineError::Exited(reason);
            }
            if Instant::now() >= deadline {
                return EngineError::Disconnected;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    /// Installs (or, with `None`, removes) a callback that sees every line read from the engine,
    /// before it is handled; the GUI uses it to show `info` lines while the referee waits for
    /// `bestmove`.
    pub fn set_line_observer(&mut self, observer: Option<LineObserver>) {
        self.observer = observer;
    }

    /// Writes every line sent to and read from the engine from now on to `log` (`-log`).
    pub fn set_wire_log(&mut self, log: Option<Arc<MatchLog>>) {
        self.wire_log = log;
    }

    /// Sends one line.
    ///
    /// # Errors
    /// [`EngineError::Exited`] or [`EngineError::Disconnected`] when the pipe is closed.
    pub fn send(&mut self, line: &str) -> Result<(), EngineError> {
        log::trace!("{} < {line}", self.name);
        if let Some(wire) = &self.wire_log {
            wire.engine_line(&self.name, Direction::ToEngine, line);
        }
        let written = match self.stdin.as_mut() {
            Some(stdin) => writeln!(stdin, "{line}").and_then(|()| stdin.flush()),
            None => return Err(EngineError::Disconnected),
        };
        written.map_err(|_| self.lost())
    }

    /// Reads the next line, waiting until `deadline` at most; checks `interrupt` and whether the
    /// process is still alive every 20 ms.
    ///
    /// # Errors
    /// Exited when the process has ended (even if a child of it keeps the pipe open),
    /// Disconnected at end of output, Timeout past the deadline, Interrupted.
    pub fn read_line(
        &mut self,
        deadline: Instant,
        waiting_for: &'static str,
        started: Instant,
        interrupt: &AtomicBool,
    ) -> Result<String, EngineError> {
        loop {
            if interrupt.load(Ordering::Relaxed) {
                return Err(EngineError::Interrupted);
            }
            let now = Instant::now();
            if now >= deadline {
                if let Some(reason) = self.exit_reason() {
                    return Err(EngineError::Exited(reason));
                }
                return Err(EngineError::Timeout {
                    waiting_for,
                    waited: now - started,
                });
            }
            match self.output.recv_timeout((deadline - now).min(POLL)) {
                Ok(Output::Line(line)) => {
                    log::trace!("{} > {line}", self.name);
                    if let Some(wire) = &self.wire_log {
                        wire.engine_line(&self.name, Direction::FromEngine, &line);
                    }
                    if let Some(observer) = &mut self.observer {
                        observer(&line);
                    }
                    return Ok(line);
                }
                Ok(Output::End) | Err(RecvTimeoutError::Disconnected) => return Err(self.lost()),
                Err(RecvTimeoutError::Timeout) => {
                    if let Some(reason) = self.exit_reason() {
                        // What it wrote before it ended may still be on its way.
                        return match self.output.recv_timeout(EXIT_DRAIN) {
                            Ok(Output::Line(line)) => {
                                if let Some(wire) = &self.wire_log {
                                    wire.engine_line(&self.name, Direction::FromEngine, &line);
                                }
                                Ok(line)
                            }
                            _ => Err(EngineError::Exited(reason)),
                        };
                    }
                }
            }
        }
    }

    /// Logs and counts a line that answers nothing pending: the first stale `bestmove` of a
    /// process as a warning, everything else at debug level.
    fn drop_stale(&mut self, line: &str) {
        self.stale_lines += 1;
        let shown: String = line.chars().take(LOGGED_CHARS).collect();
        let is_bestmove = line.split_whitespace().next() == Some("bestmove");
        if is_bestmove && self.stale_lines == 1 {
            log::warn!(
                "{}: stale line ignored (no go pending): \"{shown}\"; later ones are logged at debug level",
                self.name
            );
        } else {
            log::debug!("{}: stale line ignored: \"{shown}\"", self.name);
        }
    }

    /// Waits for a line whose first token is `token`. Other lines are skipped: `id name` is
    /// kept; a `bestmove`, and anything before `readyok`, is stale.
    fn wait_for(
        &mut self,
        token: &'static str,
        timeout: Duration,
        interrupt: &AtomicBool,
    ) -> Result<String, EngineError> {
        let started = Instant::now();
        let deadline = started + timeout;
        loop {
            let line = self.read_line(deadline, token, started, interrupt)?;
            let first = line.split_whitespace().next();
            if first == Some(token) {
                return Ok(line);
            }
            if let Some(rest) = line.strip_prefix("id name ") {
                self.id_name = Some(rest.trim().to_string());
            } else if is_ponder_option(&line) {
                self.offers_ponder = true;
            } else if token == "readyok" || first == Some("bestmove") {
                self.drop_stale(&line);
            }
        }
    }

    /// `uci` → `uciok`, then the options, then `isready` → `readyok`. `timeout` also becomes
    /// the time allowed for `readyok` from now on.
    ///
    /// # Errors
    /// Exited, Disconnected, Timeout or Interrupted.
    pub fn handshake(
        &mut self,
        options: &[(String, String)],
        timeout: Duration,
        interrupt: &AtomicBool,
    ) -> Result<(), EngineError> {
        self.ready_timeout = timeout;
        self.send("uci")?;
        self.wait_for("uciok", timeout, interrupt)?;
        for (name, value) in options {
            self.send(&format!("setoption name {name} value {value}"))?;
        }
        self.sync(timeout, interrupt)
    }

    /// `isready` → `readyok`; whatever the engine printed before `readyok` is dropped as stale.
    ///
    /// # Errors
    /// Exited, Disconnected, Timeout or Interrupted.
    pub fn sync(&mut self, timeout: Duration, interrupt: &AtomicBool) -> Result<(), EngineError> {
        self.send("isready")?;
        self.wait_for("readyok", timeout, interrupt).map(|_| ())
    }

    /// Sends `isready` and waits for `readyok` (the handshake timeout), dropping stale output,
    /// then sends the `position` and `go` lines and reads until `bestmove` or until `allowed`
    /// has passed since `go` was sent. The `info` lines of this search give the score and depth.
    ///
    /// # Errors
    /// Exited, Disconnected, Timeout (`readyok` or `bestmove`) or Interrupted. After a
    /// `bestmove` timeout the search is still pending: [`EngineProcess::stop_search`].
    pub fn go(
        &mut self,
        position: &str,
        go: &str,
        allowed: Duration,
        interrupt: &AtomicBool,
    ) -> Result<SearchReply, EngineError> {
        self.go_sent = None;
        self.sync(self.ready_timeout, interrupt)?;
        self.send(position)?;
        self.timed_answer(go, allowed, interrupt)
    }

    /// Sends `line` (a `go` or a `ponderhit`), which starts the engine's clock, and reads until
    /// `bestmove` or until `allowed` has passed since it was sent.
    fn timed_answer(
        &mut self,
        line: &str,
        allowed: Duration,
        interrupt: &AtomicBool,
    ) -> Result<SearchReply, EngineError> {
        let started = Instant::now();
        self.send(line)?;
        self.go_sent = Some(started);
        self.read_reply(started + allowed, "bestmove", started, interrupt)
    }

    /// After a `go` whose deadline passed: sends `stop` and waits up to `timeout` for the
    /// search's `bestmove`, returned with the time since `go` was sent.
    ///
    /// # Errors
    /// Timeout ([`BESTMOVE_AFTER_STOP`]; at once when no search is pending), Exited,
    /// Disconnected or Interrupted.
    pub fn stop_search(
        &mut self,
        timeout: Duration,
        interrupt: &AtomicBool,
    ) -> Result<SearchReply, EngineError> {
        self.send("stop")?;
        let now = Instant::now();
        let Some(go_sent) = self.go_sent else {
            return Err(EngineError::Timeout {
                waiting_for: BESTMOVE_AFTER_STOP,
                waited: Duration::ZERO,
            });
        };
        let reply = self.read_reply(now + timeout, BESTMOVE_AFTER_STOP, now, interrupt);
        reply.map(|reply| SearchReply {
            elapsed: go_sent.elapsed(),
            ..reply
        })
    }

    /// Reads until `bestmove` (the pending search is then over) or `deadline`, keeping the last
    /// score and depth of the `info` lines; `elapsed` is measured from `started`.
    fn read_reply(
        &mut self,
        deadline: Instant,
        waiting_for: &'static str,
        started: Instant,
        interrupt: &AtomicBool,
    ) -> Result<SearchReply, EngineError> {
        let (mut score, mut depth) = (None, None);
        let mut info = InfoFields::default();
        loop {
            let line = self.read_line(deadline, waiting_for, started, interrupt)?;
            let mut tokens = line.split_whitespace();
            match tokens.next() {
                Some("bestmove") => {
                    self.go_sent = None;
                    let best_move = tokens.next().unwrap_or("").to_string();
                    let ponder = match (tokens.next(), tokens.next()) {
                        (Some("ponder"), Some(reply)) => Some(reply.to_string()),
                        _ => None,
                    };
                    return Ok(SearchReply {
                        best_move,
                        ponder,
                        score,
                        depth,
                        info,
                        elapsed: started.elapsed(),
                    });
                }
                Some("info") => {
                    let (new_score, new_depth) = parse_info(&line);
                    score = new_score.or(score);
                    depth = new_depth.or(depth);
                    info.update(&line);
                }
                _ => {}
            }
        }
    }

    /// Stops and quits the engine, waits up to `grace` for it to exit, then kills its whole
    /// process group (children it left behind included) and reaps it.
    pub fn shutdown(mut self, grace: Duration) {
        let _ = self.send("stop");
        let _ = self.send("quit");
        self.stdin = None;
        let deadline = Instant::now() + grace;
        while self.exit_reason().is_none() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(5));
        }
        match self.exit {
            Some(reason) => log::debug!("{}: {}", self.name, reason.describe()),
            None => log::debug!("{}: no exit within the grace period, killing it", self.name),
        }
        self.kill();
    }

    /// Kills the whole process group at once, whether the engine itself is still running or
    /// has already exited, and reaps the engine.
    pub fn kill(&mut self) {
        if self.reaped {
            return;
        }
        self.reaped = true;
        let reason = kill_group_and_reap(&mut self.child);
        self.exit = self.exit.or(reason);
        log::debug!("{}: process group killed", self.name);
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        self.kill();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_score_and_depth_from_info_lines() {
        assert_eq!(
            parse_info("info depth 7 seldepth 9 score cp -35 nodes 100 pv c3"),
            (Some(Score::Centi(-35)), Some(7))
        );
        assert_eq!(
            parse_info("info score mate -3 depth 2"),
            (Some(Score::Mate(-3)), Some(2))
        );
        assert_eq!(parse_info("info string depth of cp"), (None, None));
        assert_eq!(parse_info("info depth x score cp"), (None, None));
    }

    #[test]
    fn long_and_invalid_lines_are_bounded() {
        let mut input = vec![b'x'; MAX_LINE + 10];
        input.extend_from_slice(b"\nbestmove c3\r\n\xff\xfe ok\nlast");
        let mut reader = std::io::Cursor::new(input);
        assert_eq!(read_bounded_line(&mut reader).unwrap().len(), MAX_LINE);
        assert_eq!(read_bounded_line(&mut reader).unwrap(), "bestmove c3");
        assert_eq!(
            read_bounded_line(&mut reader).unwrap(),
            "\u{fffd}\u{fffd} ok"
        );
        assert_eq!(read_bounded_line(&mut reader).unwrap(), "last");
        assert_eq!(read_bounded_line(&mut reader), None);
    }

    /// A scripted engine: `sh -c SCRIPT`, its handshake done.
    #[cfg(unix)]
    pub(super) fn scripted(script: &str) -> EngineProcess {
        let command = EngineCommand {
            program: "sh".to_string(),
            args: vec!["-c".to_string(), script.to_string()],
            dir: None,
            stderr: None,
        };
        let mut engine = EngineProcess::spawn("script", &command).unwrap();
        let never = AtomicBool::new(false);
        engine
            .handshake(&[], Duration::from_secs(30), &never)
            .unwrap();
        engine
    }

    /// The loop of a scripted engine; `GO` and `STOP` are what it does on `go` and `stop`.
    #[cfg(unix)]
    const SCRIPT: &str = r#"while read -r line; do case "$line" in
        uci) echo uciok;; isready) echo readyok;; go*) GO;; stop) STOP;; quit) exit 0;;
        esac; done"#;

    #[cfg(unix)]
    #[test]
    fn stale_bestmoves_are_dropped_before_each_go() {
        let never = AtomicBool::new(false);
        let script = SCRIPT
            .replace(
                "GO",
                "echo 'info depth 2 score cp 7'; echo 'bestmove c3'; echo 'bestmove d3'",
            )
            .replace("STOP", ":");
        let mut engine = scripted(&script);
        let long = Duration::from_secs(30);
        for _ in 0..3 {
            let reply = engine
                .go("position startpos", "go depth 1", long, &never)
                .unwrap();
            assert_eq!(reply.best_move, "c3");
            assert_eq!(reply.score, Some(Score::Centi(7)));
        }
        // The second bestmove of the first two searches came before a readyok.
        assert_eq!(engine.stale_lines(), 2);
        engine.shutdown(Duration::from_secs(5));
    }

    #[cfg(unix)]
    #[test]
    fn a_late_bestmove_is_read_after_stop() {
        let never = AtomicBool::new(false);
        let script = SCRIPT
            .replace("GO", ":")
            .replace("STOP", "echo 'bestmove e3'");
        let mut engine = scripted(&script);
        let allowed = Duration::from_millis(50);
        let error = engine
            .go("position startpos", "go movetime 10", allowed, &never)
            .unwrap_err();
        assert!(matches!(
            error,
            EngineError::Timeout {
                waiting_for: "bestmove",
                ..
            }
        ));
        let reply = engine.stop_search(Duration::from_secs(30), &never).unwrap();
        assert_eq!(reply.best_move, "e3");
        assert!(reply.elapsed >= allowed);
        // Nothing pending any more.
        let error = engine
            .stop_search(Duration::from_secs(30), &never)
            .unwrap_err();
        assert!(matches!(
            error,
            EngineError::Timeout {
                waiting_for: BESTMOVE_AFTER_STOP,
                ..
            }
        ));
        engine.shutdown(Duration::from_secs(5));
    }

    #[cfg(unix)]
    #[test]
    fn an_exit_is_reported_with_its_status_even_if_a_child_holds_the_pipe() {
        let never = AtomicBool::new(false);
        let script = SCRIPT
            .replace("GO", "sleep 600 & exit 7")
            .replace("STOP", ":");
        let mut engine = scripted(&script);
        let error = engine
            .go(
                "position startpos",
                "go depth 1",
                Duration::from_secs(60),
                &never,
            )
            .unwrap_err();
        assert_eq!(error, EngineError::Exited(ExitReason::Status(7)));
        assert_eq!(error.to_string(), "the engine crashed: exit status 7");
        engine.kill();
    }

    #[test]
    fn spawn_error_names_the_program() {
        let command = EngineCommand {
            program: "/nonexistent/engine".to_string(),
            args: Vec::new(),
            dir: None,
            stderr: None,
        };
        let error = EngineProcess::spawn("x", &command).err().unwrap();
        assert!(error.to_string().contains("\"/nonexistent/engine\""));
    }
}
