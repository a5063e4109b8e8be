//! The checker's line to the engine: an [`EngineProcess`] whose every line, sent and read, is
//! kept in a transcript (`> ` sent, `< ` read), shown under a failed check.

use crate::referee::engine_process::{EngineError, EngineProcess};
use crate::referee::spec::EngineSpec;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// Lines kept in a transcript at most (the first and last halves of a longer one).
const TRANSCRIPT_LINES: usize = 60;

/// A running engine and what was exchanged with it since the last [`Wire::take_transcript`].
pub struct Wire {
    engine: EngineProcess,
    transcript: Vec<String>,
    dropped: usize,
    never: AtomicBool,
}

impl Wire {
    /// Starts the engine of `spec`.
    ///
    /// # Errors
    /// Why it could not be started.
    pub fn start(spec: &EngineSpec) -> Result<Wire, String> {
        let engine = EngineProcess::spawn(&spec.name, &spec.command).map_err(|e| e.to_string())?;
        Ok(Wire {
            engine,
            transcript: Vec::new(),
            dropped: 0,
            never: AtomicBool::new(false),
        })
    }

    fn record(&mut self, line: String) {
        if self.transcript.len() < TRANSCRIPT_LINES {
            self.transcript.push(line);
        } else {
            self.dropped += 1;
            let half = TRANSCRIPT_LINES / 2;
            self.transcript.remove(half);
            self.transcript.push(line);
        }
    }

    /// The lines exchanged since the last call (a long one cut in the middle).
    pub fn take_transcript(&mut self) -> Vec<String> {
        let mut lines = std::mem::take(&mut self.transcript);
        let dropped = std::mem::take(&mut self.dropped);
        if dropped > 0 {
            lines.insert(
                TRANSCRIPT_LINES / 2,
                format!("... {dropped} lines left out ..."),
            );
        }
        lines
    }

    /// Sends one line.
    ///
    /// # Errors
    /// The engine's pipe is closed. The reason is the engine's end, worded as when a read finds
    /// it: whether a dying engine is seen while writing or while reading is a race.
    pub fn send(&mut self, line: &str) -> Result<(), String> {
        self.record(format!("> {line}"));
        self.engine.send(line).map_err(|error| {
            self.record(format!("({error})"));
            error.to_string()
        })
    }

    /// The next line before `deadline`; `Ok(None)` when none came in time.
    ///
    /// # Errors
    /// The engine ended or closed its output.
    pub fn read_until(&mut self, deadline: Instant) -> Result<Option<String>, String> {
        let now = Instant::now();
        match self
            .engine
            .read_line(deadline.max(now), "a line", now, &self.never)
        {
            Ok(line) => {
                self.record(format!("< {line}"));
                Ok(Some(line))
            }
            Err(EngineError::Timeout { .. }) => Ok(None),
            Err(error) => {
                self.record(format!("({error})"));
                Err(error.to_string())
            }
        }
    }

    /// Reads until a line whose first word is `word`, at most `timeout`; returns the lines
    /// before it, the line, and the time it took.
    ///
    /// # Errors
    /// "no `word` within N ms", or the engine ended.
    pub fn expect(
        &mut self,
        word: &str,
        timeout: Duration,
    ) -> Result<(Vec<String>, String, Duration), String> {
        let started = Instant::now();
        let mut before = Vec::new();
        loop {
            match self.read_until(started + timeout)? {
                Some(line) if line.split_whitespace().next() == Some(word) => {
                    return Ok((before, line, started.elapsed()))
                }
                Some(line) => before.push(line),
                None => {
                    return Err(format!("no {word} within {} ms", timeout.as_millis()));
                }
            }
        }
    }

    /// Reads whatever comes for `wait`.
    ///
    /// # Errors
    /// The engine ended.
    pub fn listen(&mut self, wait: Duration) -> Result<Vec<String>, String> {
        let deadline = Instant::now() + wait;
        let mut lines = Vec::new();
        while let Some(line) = self.read_until(deadline)? {
            lines.push(line);
        }
        Ok(lines)
    }

    /// Whether the process has ended (and how).
    pub fn exit_reason(&mut self) -> Option<String> {
        self.engine.exit_reason().map(|reason| reason.describe())
    }

    /// Kills the engine's process group.
    pub fn kill(&mut self) {
        self.engine.kill();
    }
}
