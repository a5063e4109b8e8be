//! Helpers for the in-process session tests.
#![allow(dead_code)]

use baghchal::protocol::{Flow, Memory, Session};
use std::sync::Arc;
use std::time::Duration;

/// Generous wait for a search's bestmove (CI machines are slow and shared).
pub const WAIT: Duration = Duration::from_secs(20);

/// A session writing to memory.
pub fn session() -> (Session, Arc<Memory>) {
    let out = Arc::new(Memory::new());
    (Session::new(out.clone()), out)
}

/// Sends `line` and returns what it printed at once (searches may print more later).
pub fn send(session: &mut Session, out: &Memory, line: &str) -> Vec<String> {
    out.take();
    assert_eq!(session.handle_line(line), Flow::Continue, "{line}");
    out.take()
}

/// Waits for a `bestmove` line.
pub fn wait_bestmove(out: &Memory) -> String {
    out.wait_for(WAIT, |l| l.starts_with("bestmove"))
        .expect("a bestmove")
}

/// Number of `bestmove` lines kept.
pub fn bestmove_count(out: &Memory) -> usize {
    out.lines()
        .iter()
        .filter(|l| l.starts_with("bestmove"))
        .count()
}

/// Whether `lines` is exactly one error line.
pub fn is_error(lines: &[String]) -> bool {
    lines.len() == 1 && lines[0].starts_with("info string error: ")
}
