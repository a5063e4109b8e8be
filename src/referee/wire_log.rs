//! The match log (`-log file=F level=L`): every line sent to and read from every engine, with
//! a UTC timestamp, the engine's name and the direction, plus the referee's own log messages
//! at `level` and above. One file per run, appended to, one line per write.
//!
//! ```text
//! 2026-12-01T18:40:01.123Z A < go wtime 10000 winc 100 btime 10000 binc 100
//! 2026-12-01T18:40:01.131Z A > info depth 1 score cp 12 nodes 1 pv c3
//! 2026-12-01T18:40:01.132Z A > bestmove c3
//! 2026-12-01T18:40:02.001Z WARN referee: B: unusable after game 4; killed, restarted ...
//! ```
//!
//! `<` is a line the referee sent to the engine, `>` a line the engine wrote.

use super::record::civil_date;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::sync::{Arc, Mutex, RwLock};
use std::time::SystemTime;

/// Which way an engine line went.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Direction {
    /// Sent by the referee (`<`).
    ToEngine,
    /// Written by the engine (`>`).
    FromEngine,
}

/// An open match log.
pub struct MatchLog {
    file: Mutex<File>,
    level: log::LevelFilter,
}

impl std::fmt::Debug for MatchLog {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MatchLog")
            .field("level", &self.level)
            .finish()
    }
}

/// The match log of the running match, which [`TeeLogger`] copies log messages to.
static CURRENT: RwLock<Option<Arc<MatchLog>>> = RwLock::new(None);

/// Reads a `-log` level name.
///
/// # Errors
/// The bad name and the accepted ones.
pub fn parse_level(text: &str) -> Result<log::LevelFilter, String> {
    match text.to_ascii_lowercase().as_str() {
        "trace" => Ok(log::LevelFilter::Trace),
        "debug" => Ok(log::LevelFilter::Debug),
        "info" => Ok(log::LevelFilter::Info),
        "warn" | "warning" => Ok(log::LevelFilter::Warn),
        "error" | "err" | "fatal" => Ok(log::LevelFilter::Error),
        _ => Err(format!(
            "invalid -log level \"{text}\": expected trace, debug, info, warn or error"
        )),
    }
}

/// `YYYY-MM-DDTHH:MM:SS.mmmZ` for `time`.
pub fn timestamp(time: SystemTime) -> String {
    let since_epoch = time
        .duration_since(SystemTime::UNIX_EPOCH)
        .unwrap_or_default();
    let (year, month, day) = civil_date(time);
    let seconds = since_epoch.as_secs() % 86_400;
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{:03}Z",
        seconds / 3600,
        seconds / 60 % 60,
        seconds % 60,
        since_epoch.subsec_millis()
    )
}

impl MatchLog {
    /// Opens (appends to) the log file.
    ///
    /// # Errors
    /// The file name and the reason.
    pub fn open(path: &str, level: log::LevelFilter) -> Result<Arc<MatchLog>, String> {
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|e| format!("cannot open the log file \"{path}\": {e}"))?;
        Ok(Arc::new(MatchLog {
            file: Mutex::new(file),
            level,
        }))
    }

    /// Writes one line with its timestamp (a full disk loses log lines, never the match).
    fn write(&self, text: &str) {
        let line = format!("{} {text}\n", timestamp(SystemTime::now()));
        if let Ok(mut file) = self.file.lock() {
            let _ = file.write_all(line.as_bytes());
        }
    }

    /// Writes a line sent to or read from engine `engine`.
    pub fn engine_line(&self, engine: &str, direction: Direction, line: &str) {
        let arrow = match direction {
            Direction::ToEngine => '<',
            Direction::FromEngine => '>',
        };
        self.write(&format!("{engine} {arrow} {line}"));
    }

    /// Makes this the log that [`TeeLogger`] copies the referee's messages to (until
    /// [`MatchLog::deactivate`]) and lets messages of its level through.
    pub fn activate(self: &Arc<MatchLog>) {
        if let Ok(mut current) = CURRENT.write() {
            *current = Some(Arc::clone(self));
        }
        if self.level > log::max_level() {
            log::set_max_level(self.level);
        }
    }

    /// Stops copying log messages to any match log.
    pub fn deactivate() {
        if let Ok(mut current) = CURRENT.write() {
            *current = None;
        }
    }
}

/// The referee's logger: stderr through env_logger (`RUST_LOG`), and a copy of every message
/// at the match log's level to the active match log. The engine lines the referee traces
/// itself are left out of the copy: the match log has them already.
pub struct TeeLogger {
    stderr: env_logger::Logger,
}

impl TeeLogger {
    /// Installs the logger (once, from `main`).
    ///
    /// # Errors
    /// A logger was installed already.
    pub fn install(stderr: env_logger::Logger) -> Result<(), log::SetLoggerError> {
        let level = stderr.filter();
        log::set_boxed_logger(Box::new(TeeLogger { stderr }))?;
        log::set_max_level(level);
        Ok(())
    }
}

impl log::Log for TeeLogger {
    fn enabled(&self, metadata: &log::Metadata) -> bool {
        self.stderr.enabled(metadata)
            || CURRENT
                .read()
                .is_ok_and(|c| c.as_ref().is_some_and(|l| metadata.level() <= l.level))
    }

    fn log(&self, record: &log::Record) {
        self.stderr.log(record);
        let Ok(current) = CURRENT.read() else {
            return;
        };
        if let Some(match_log) = current.as_ref() {
            let engine_trace =
                record.level() == log::Level::Trace && record.target().ends_with("engine_process");
            if record.level() <= match_log.level && !engine_trace {
                match_log.write(&format!("{} referee: {}", record.level(), record.args()));
            }
        }
    }

    fn flush(&self) {
        self.stderr.flush();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn timestamps_are_utc_with_milliseconds() {
        // 2026-12-01 18:40:01.123 UTC.
        let time = SystemTime::UNIX_EPOCH + Duration::from_millis(1_796_150_401_123);
        assert_eq!(timestamp(time), "2026-12-01T18:40:01.123Z");
        assert_eq!(
            timestamp(SystemTime::UNIX_EPOCH),
            "1970-01-01T00:00:00.000Z"
        );
    }

    #[test]
    fn levels_parse() {
        assert_eq!(parse_level("TRACE"), Ok(log::LevelFilter::Trace));
        assert_eq!(parse_level("warn"), Ok(log::LevelFilter::Warn));
        assert!(parse_level("loud").unwrap_err().contains("\"loud\""));
    }
}
