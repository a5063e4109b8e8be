//! Where the referee's commands write: result lines (stdout in the binary), notes and live
//! progress (stderr). The library never touches the process's stdout itself.

use std::io::Write;

/// The output streams of a referee command.
pub struct Console {
    out: Box<dyn Write>,
    err: Box<dyn Write>,
    live: bool,
}

impl Console {
    /// Results to `out`, notes to `err`; `live` enables the in-place progress line on `err`.
    pub fn new(out: Box<dyn Write>, err: Box<dyn Write>, live: bool) -> Console {
        Console { out, err, live }
    }

    /// The process's stdout and stderr (live progress when stderr is a terminal).
    pub fn standard() -> Console {
        use std::io::IsTerminal;
        let live = std::io::stderr().is_terminal();
        Console::new(
            Box::new(std::io::stdout()),
            Box::new(std::io::stderr()),
            live,
        )
    }

    /// One result line, flushed. A closed output is ignored (the match goes on).
    pub fn line(&mut self, text: &str) {
        let _ = writeln!(self.out, "{text}").and_then(|()| self.out.flush());
    }

    /// One note line on the error stream.
    pub fn note(&mut self, text: &str) {
        if self.live {
            let _ = write!(self.err, "\r\x1b[K");
        }
        let _ = writeln!(self.err, "{text}").and_then(|()| self.err.flush());
    }

    /// Rewrites the live progress line (only when live).
    pub fn progress(&mut self, text: &str) {
        if self.live {
            let _ = write!(self.err, "\r\x1b[K{text}").and_then(|()| self.err.flush());
        }
    }

    /// Ends the live progress line.
    pub fn end_progress(&mut self) {
        if self.live {
            let _ = writeln!(self.err);
        }
    }
}
