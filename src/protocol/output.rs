//! Where protocol lines go, and how engine data becomes protocol text.

use crate::engine::{Bound, Score, SearchInfo};
use crate::Move;
use std::io::Write;
use std::sync::{Condvar, Mutex};
use std::time::{Duration, Instant};

/// A sink for whole protocol lines. Shared by the session and the search threads: each line is
/// written whole, under one lock, and flushed.
pub trait Output: Send + Sync {
    /// Writes one line (without its newline).
    fn line(&self, text: &str);
}

/// Standard output. Write errors (a closed pipe) are logged and otherwise ignored: the session
/// ends when its input ends.
#[derive(Debug, Default)]
pub struct Stdout;

impl Output for Stdout {
    fn line(&self, text: &str) {
        log::debug!(">> {text}");
        let mut out = std::io::stdout().lock();
        if let Err(error) = writeln!(out, "{text}").and_then(|()| out.flush()) {
            log::debug!("stdout: {error}");
        }
    }
}

/// Lines kept in memory, for in-process tests.
#[derive(Debug, Default)]
pub struct Memory {
    lines: Mutex<Vec<String>>,
    added: Condvar,
}

impl Memory {
    /// An empty sink.
    pub fn new() -> Memory {
        Memory::default()
    }

    /// Every line so far.
    pub fn lines(&self) -> Vec<String> {
        self.lock().clone()
    }

    /// Removes and returns every line so far.
    pub fn take(&self) -> Vec<String> {
        std::mem::take(&mut *self.lock())
    }

    /// Waits until some line satisfies `wanted` (or `timeout` passes); returns that line.
    pub fn wait_for(&self, timeout: Duration, wanted: impl Fn(&str) -> bool) -> Option<String> {
        let deadline = Instant::now() + timeout;
        let mut lines = self.lock();
        loop {
            if let Some(line) = lines.iter().find(|l| wanted(l)) {
                return Some(line.clone());
            }
            let left = deadline.checked_duration_since(Instant::now())?;
            lines = match self.added.wait_timeout(lines, left) {
                Ok((guard, _)) => guard,
                Err(poisoned) => poisoned.into_inner().0,
            };
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<String>> {
        self.lines
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

impl Output for Memory {
    fn line(&self, text: &str) {
        self.lock().push(text.to_string());
        self.added.notify_all();
    }
}

/// `cp <n>` or `mate <n>`, with ` lowerbound`/` upperbound` for bounds.
pub fn format_score(score: Score, bound: Bound) -> String {
    let mut text = match score {
        Score::Cp(cp) => format!("cp {cp}"),
        Score::Mate(moves) => format!("mate {moves}"),
    };
    match bound {
        Bound::Exact => {}
        Bound::Lower => text.push_str(" lowerbound"),
        Bound::Upper => text.push_str(" upperbound"),
    }
    text
}

/// Nodes per second, 0 before any time has passed.
pub fn nps(nodes: u64, time: Duration) -> u64 {
    (u128::from(nodes) * 1_000_000)
        .checked_div(time.as_micros())
        .map_or(0, |nps| u64::try_from(nps).unwrap_or(u64::MAX))
}

/// The `info depth ... pv ...` line of one search report.
pub fn format_info(info: &SearchInfo) -> String {
    let mut text = format!(
        "info depth {} seldepth {} multipv {} score {}",
        info.depth,
        info.seldepth,
        info.multipv,
        format_score(info.score, info.bound)
    );
    if let Some([win, draw, loss]) = info.wdl {
        text.push_str(&format!(" wdl {win} {draw} {loss}"));
    }
    text.push_str(&format!(
        " nodes {} nps {} hashfull {} tbhits {} time {}",
        info.nodes,
        nps(info.nodes, info.time),
        info.hashfull,
        info.tbhits,
        info.time.as_millis()
    ));
    if !info.pv.is_empty() {
        text.push_str(" pv");
        for mv in &info.pv {
            text.push_str(&format!(" {mv}"));
        }
    }
    text
}

/// The `info depth <d> currmove <m> currmovenumber <n>` line.
pub fn format_currmove(depth: u32, mv: Move, number: u32) -> String {
    format!("info depth {depth} currmove {mv} currmovenumber {number}")
}

/// `bestmove <m> [ponder <m>]`, or `bestmove 0000` when there is no move.
pub fn format_bestmove(best: Option<Move>, ponder: Option<Move>) -> String {
    match (best, ponder) {
        (None, _) => "bestmove 0000".to_string(),
        (Some(best), None) => format!("bestmove {best}"),
        (Some(best), Some(ponder)) => format!("bestmove {best} ponder {ponder}"),
    }
}

/// Longest error message printed, in characters; longer ones are cut with `...`.
pub const MAX_MESSAGE_CHARS: usize = 200;

/// `text` made safe for one protocol line: control characters escaped (`\u{1b}`), cut to
/// `max_chars` characters with `...`. Error messages quote user input, which may be anything.
pub fn printable(text: &str, max_chars: usize) -> String {
    let mut out = String::new();
    for (count, c) in text.chars().enumerate() {
        if count == max_chars {
            out.push_str("...");
            break;
        }
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

/// `info string <text>`, one line per line of `text`.
pub fn info_string(out: &dyn Output, text: &str) {
    for line in text.lines() {
        out.line(&format!("info string {line}"));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn printable_escapes_control_characters_and_cuts_long_text() {
        assert_eq!(printable("a\u{0}b\u{1b}[31m", 100), "a\\u{0}b\\u{1b}[31m");
        assert_eq!(printable("tigers 🐅", 100), "tigers 🐅");
        assert_eq!(printable(&"x".repeat(300), 5), "xxxxx...");
    }

    #[test]
    fn nps_handles_zero_time() {
        assert_eq!(nps(1000, Duration::ZERO), 0);
        assert_eq!(nps(1000, Duration::from_millis(500)), 2000);
    }
}
