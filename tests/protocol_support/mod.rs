//! Drives the `baghchal` binary over pipes for the black-box protocol tests.
#![allow(dead_code)]

pub mod session;

use baghchal::{Game, Move};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// Generous timeout for answers that should come at once (CI machines are slow and shared).
pub const PROMPT: Duration = Duration::from_secs(10);

/// A running engine process.
pub struct EngineProcess {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// Every line read so far.
    pub seen: Vec<String>,
}

impl EngineProcess {
    /// Starts `baghchal` with `args`.
    pub fn spawn(args: &[&str]) -> EngineProcess {
        let mut child = Command::new(env!("CARGO_BIN_EXE_baghchal"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the engine binary starts");
        let stdout = child.stdout.take().expect("piped stdout");
        let (sender, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take();
        EngineProcess {
            child,
            stdin,
            lines,
            seen: Vec::new(),
        }
    }

    /// The protocol loop.
    pub fn start() -> EngineProcess {
        EngineProcess::spawn(&[])
    }

    /// Writes raw bytes.
    pub fn write_raw(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).expect("the engine reads its input");
        stdin.flush().expect("flush");
    }

    /// Writes one line.
    pub fn send(&mut self, line: &str) {
        self.write_raw(format!("{line}\n").as_bytes());
    }

    /// The next line, if one comes within `timeout`.
    pub fn next_line(&mut self, timeout: Duration) -> Option<String> {
        match self.lines.recv_timeout(timeout) {
            Ok(line) => {
                self.seen.push(line.clone());
                Some(line)
            }
            Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => None,
        }
    }

    /// Lines up to and including the first one matching `wanted`; panics after `timeout`.
    pub fn read_until(&mut self, timeout: Duration, wanted: impl Fn(&str) -> bool) -> Vec<String> {
        let deadline = Instant::now() + timeout;
        let mut lines = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let Some(line) = self.next_line(left) else {
                panic!("timed out after {timeout:?}; read {lines:?}");
            };
            let done = wanted(&line);
            lines.push(line);
            if done {
                return lines;
            }
        }
    }

    /// Lines up to and including the next `bestmove`.
    pub fn read_bestmove(&mut self, timeout: Duration) -> Vec<String> {
        self.read_until(timeout, |l| l.starts_with("bestmove"))
    }

    /// Sends `isready` and waits for `readyok`; returns the lines before it.
    pub fn sync(&mut self) -> Vec<String> {
        self.sync_with_timeout(PROMPT)
    }

    /// [`EngineProcess::sync`] with a given timeout.
    pub fn sync_with_timeout(&mut self, timeout: Duration) -> Vec<String> {
        self.send("isready");
        let mut lines = self.read_until(timeout, |l| l == "readyok");
        lines.pop();
        lines
    }

    /// Lines arriving within `wait`.
    pub fn drain(&mut self, wait: Duration) -> Vec<String> {
        let deadline = Instant::now() + wait;
        let mut lines = Vec::new();
        while let Some(line) = self.next_line(deadline.saturating_duration_since(Instant::now())) {
            lines.push(line);
        }
        lines
    }

    /// Closes the engine's stdin (end of input).
    pub fn close_stdin(&mut self) {
        self.stdin = None;
    }

    /// Waits for the process to exit within `timeout`.
    pub fn wait_exit(&mut self, timeout: Duration) -> Option<ExitStatus> {
        let deadline = Instant::now() + timeout;
        while Instant::now() < deadline {
            if let Some(status) = self.child.try_wait().expect("try_wait") {
                return Some(status);
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        None
    }

    /// Whether the process still runs.
    pub fn is_running(&mut self) -> bool {
        self.child.try_wait().expect("try_wait").is_none()
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        if self.is_running() {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}

/// The move of a `bestmove` line (`None` for `0000`) and its ponder move.
pub fn parse_bestmove(line: &str) -> (Option<Move>, Option<Move>) {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(tokens[0], "bestmove", "{line}");
    let best = (tokens[1] != "0000").then(|| tokens[1].parse().expect("bestmove is a move"));
    let ponder = match tokens.get(2) {
        Some(&"ponder") => Some(tokens[3].parse().expect("ponder move is a move")),
        None => None,
        Some(other) => panic!("unexpected {other} in {line}"),
    };
    (best, ponder)
}

/// The pv of an `info ... pv ...` line.
pub fn pv_of(line: &str) -> Option<Vec<Move>> {
    let at = line.find(" pv ")?;
    Some(
        line[at + 4..]
            .split_whitespace()
            .map(|t| t.parse().expect("pv move"))
            .collect(),
    )
}

/// Checks a search's output against `game`: every pv legal, the last info line's pv starting with
/// the best move, the best move (and ponder move) legal. Returns the best move.
pub fn check_search_output(game: &Game, lines: &[String]) -> Move {
    for line in lines
        .iter()
        .filter(|l| l.starts_with("info depth") && l.contains(" pv "))
    {
        let mut replay = game.clone();
        for mv in pv_of(line).unwrap() {
            replay
                .play(mv)
                .unwrap_or_else(|e| panic!("{e} in pv of {line}"));
        }
    }
    let best_line = lines.last().expect("a bestmove line");
    let (best, ponder) = parse_bestmove(best_line);
    let best = best.expect("a best move");
    let mut replay = game.clone();
    replay.play(best).expect("the best move is legal");
    if let Some(ponder) = ponder {
        replay.play(ponder).expect("the ponder move is legal");
    }
    let final_info = &lines[lines.len() - 2];
    assert!(
        final_info.starts_with("info depth"),
        "no final info before {best_line}: {lines:?}"
    );
    assert_eq!(pv_of(final_info).unwrap()[0], best, "{final_info}");
    best
}
