//! One engine process spoken to over pipes: spawn, handshake, `go`/`bestmove` with deadlines,
//! clean shutdown (stop, quit, grace period, kill).
//!
//! A reader thread turns the engine's stdout into lines sent over a channel, so every read can
//! have a deadline (`recv_timeout`) and an interrupt flag is checked while waiting.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
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
    /// From start to `uciok`, and for `readyok`.
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
    /// The process closed its output or its input (crashed or exited).
    Disconnected,
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
            EngineError::Disconnected => f.write_str("the engine exited or closed its pipes"),
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
    /// The last score seen in an `info` line (engine's view), if any.
    pub score: Option<Score>,
    /// The last depth seen in an `info` line.
    pub depth: Option<u32>,
    /// Time from sending `go` to reading `bestmove`.
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

/// A running engine process.
pub struct EngineProcess {
    name: String,
    child: Child,
    stdin: Option<ChildStdin>,
    output: Receiver<Output>,
    /// The name the engine gave in `id name`.
    pub id_name: Option<String>,
    /// Sees every line read from the engine (see [`EngineProcess::set_line_observer`]).
    observer: Option<LineObserver>,
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
            observer: None,
        })
    }

    /// The process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Installs (or, with `None`, removes) a callback that sees every line read from the engine,
    /// before it is handled; the GUI uses it to show `info` lines while the referee waits for
    /// `bestmove`.
    pub fn set_line_observer(&mut self, observer: Option<LineObserver>) {
        self.observer = observer;
    }

    /// Sends one line.
    ///
    /// # Errors
    /// [`EngineError::Disconnected`] when the pipe is closed.
    pub fn send(&mut self, line: &str) -> Result<(), EngineError> {
        log::trace!("{} < {line}", self.name);
        let stdin = self.stdin.as_mut().ok_or(EngineError::Disconnected)?;
        writeln!(stdin, "{line}")
            .and_then(|()| stdin.flush())
            .map_err(|_| EngineError::Disconnected)
    }

    /// Reads the next line, waiting until `deadline` at most; checks `interrupt` every 20 ms.
    ///
    /// # Errors
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
                return Err(EngineError::Timeout {
                    waiting_for,
                    waited: now - started,
                });
            }
            let slice = (deadline - now).min(Duration::from_millis(20));
            match self.output.recv_timeout(slice) {
                Ok(Output::Line(line)) => {
                    log::trace!("{} > {line}", self.name);
                    if let Some(observer) = &mut self.observer {
                        observer(&line);
                    }
                    return Ok(line);
                }
                Ok(Output::End) | Err(RecvTimeoutError::Disconnected) => {
                    return Err(EngineError::Disconnected)
                }
                Err(RecvTimeoutError::Timeout) => {}
            }
        }
    }

    /// Waits for a line whose first token is `token`, skipping others.
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
            if line.split_whitespace().next() == Some(token) {
                return Ok(line);
            }
            if let Some(rest) = line.strip_prefix("id name ") {
                self.id_name = Some(rest.trim().to_string());
            }
        }
    }

    /// `uci` → `uciok`, then the options, then `isready` → `readyok`.
    ///
    /// # Errors
    /// Disconnected, Timeout or Interrupted.
    pub fn handshake(
        &mut self,
        options: &[(String, String)],
        timeout: Duration,
        interrupt: &AtomicBool,
    ) -> Result<(), EngineError> {
        self.send("uci")?;
        self.wait_for("uciok", timeout, interrupt)?;
        for (name, value) in options {
            self.send(&format!("setoption name {name} value {value}"))?;
        }
        self.sync(timeout, interrupt)
    }

    /// `isready` → `readyok`.
    ///
    /// # Errors
    /// Disconnected, Timeout or Interrupted.
    pub fn sync(&mut self, timeout: Duration, interrupt: &AtomicBool) -> Result<(), EngineError> {
        self.send("isready")?;
        self.wait_for("readyok", timeout, interrupt).map(|_| ())
    }

    /// Sends `position` and `go` lines, then reads until `bestmove` or `deadline` (measured from
    /// sending `go`).
    ///
    /// # Errors
    /// Disconnected, Timeout (the reply lists what was seen) or Interrupted.
    pub fn go(
        &mut self,
        position: &str,
        go: &str,
        allowed: Duration,
        interrupt: &AtomicBool,
    ) -> Result<SearchReply, EngineError> {
        self.send(position)?;
        let started = Instant::now();
        self.send(go)?;
        let deadline = started + allowed;
        let (mut score, mut depth) = (None, None);
        loop {
            let line = self.read_line(deadline, "bestmove", started, interrupt)?;
            let mut tokens = line.split_whitespace();
            match tokens.next() {
                Some("bestmove") => {
                    return Ok(SearchReply {
                        best_move: tokens.next().unwrap_or("").to_string(),
                        score,
                        depth,
                        elapsed: started.elapsed(),
                    })
                }
                Some("info") => {
                    let (new_score, new_depth) = parse_info(&line);
                    score = new_score.or(score);
                    depth = new_depth.or(depth);
                }
                _ => {}
            }
        }
    }

    /// Stops and quits the engine, waits `grace`, then kills it (and its process group).
    pub fn shutdown(mut self, grace: Duration) {
        let _ = self.send("stop");
        let _ = self.send("quit");
        self.stdin = None;
        let deadline = Instant::now() + grace;
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                log::debug!("{}: exited", self.name);
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        log::debug!("{}: no exit within the grace period, killing it", self.name);
        self.kill();
    }

    /// Kills the process (and its process group) at once and reaps it.
    pub fn kill(&mut self) {
        if let Ok(Some(_)) = self.child.try_wait() {
            return;
        }
        #[cfg(unix)]
        {
            if let Ok(group) = libc::pid_t::try_from(self.child.id()) {
                // SAFETY: killpg only sends a signal; the group is the engine's own (see spawn).
                unsafe {
                    libc::killpg(group, libc::SIGKILL);
                }
            }
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
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
