//! Time controls (`moves/time+increment`, fixed time per move, depth, nodes) and the clocks the
//! referee keeps for each side.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

/// A clock time control: `[moves/]time[+increment]`, times in seconds (`time` may be `m:ss`).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct TimeControl {
    /// Moves per period (`None`: the whole game is one period).
    pub moves: Option<u32>,
    /// Time per period.
    pub base: Duration,
    /// Added after every move.
    pub increment: Duration,
}

/// A time control string that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseTimeControlError(pub String);

impl fmt::Display for ParseTimeControlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "invalid time control \"{}\": expected [moves/]seconds[+increment], e.g. 40/60+0.5 or 10+0.1",
            self.0
        )
    }
}

impl std::error::Error for ParseTimeControlError {}

/// Reads seconds written as `12.5` or `1:30` (minutes:seconds); never negative.
pub fn parse_seconds(text: &str) -> Option<Duration> {
    let seconds = match text.split_once(':') {
        Some((minutes, seconds)) => {
            minutes.parse::<u64>().ok()? as f64 * 60.0 + seconds.parse::<f64>().ok()?
        }
        None => text.parse::<f64>().ok()?,
    };
    (seconds.is_finite() && (0.0..1e9).contains(&seconds)).then(|| Duration::from_secs_f64(seconds))
}

/// Seconds as the shortest decimal text (`10`, `0.1`).
pub fn format_seconds(duration: Duration) -> String {
    let text = format!("{:.3}", duration.as_secs_f64());
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

impl FromStr for TimeControl {
    type Err = ParseTimeControlError;

    fn from_str(text: &str) -> Result<TimeControl, ParseTimeControlError> {
        let error = || ParseTimeControlError(text.to_string());
        let (moves, rest) = match text.split_once('/') {
            Some((moves, rest)) => (
                Some(
                    moves
                        .parse::<u32>()
                        .ok()
                        .filter(|&m| m > 0)
                        .ok_or_else(error)?,
                ),
                rest,
            ),
            None => (None, text),
        };
        let (base, increment) = match rest.split_once('+') {
            Some((base, increment)) => (base, Some(increment)),
            None => (rest, None),
        };
        let base = parse_seconds(base)
            .filter(|b| !b.is_zero())
            .ok_or_else(error)?;
        let increment = match increment {
            Some(increment) => parse_seconds(increment).ok_or_else(error)?,
            None => Duration::ZERO,
        };
        Ok(TimeControl {
            moves,
            base,
            increment,
        })
    }
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(moves) = self.moves {
            write!(f, "{moves}/")?;
        }
        write!(f, "{}", format_seconds(self.base))?;
        if !self.increment.is_zero() {
            write!(f, "+{}", format_seconds(self.increment))?;
        }
        Ok(())
    }
}

/// Everything that limits one engine's thinking, as given in its engine spec.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Limits {
    /// Clock time control (`tc=`).
    pub clock: Option<TimeControl>,
    /// Fixed time per move (`st=`).
    pub move_time: Option<Duration>,
    /// Depth limit (`depth=`).
    pub depth: Option<u32>,
    /// Node limit (`nodes=`).
    pub nodes: Option<u64>,
    /// Extra time allowed past the clock or the move time before a time forfeit (`timemargin=`, ms).
    pub margin: Duration,
}

impl Limits {
    /// Whether no limit at all is set (the engine would think forever).
    pub fn is_unlimited(&self) -> bool {
        self.clock.is_none()
            && self.move_time.is_none()
            && self.depth.is_none()
            && self.nodes.is_none()
    }

    /// Whether the engine plays against a time limit (clock or move time), so that overrunning
    /// it is a time forfeit rather than a stall.
    pub fn is_timed(&self) -> bool {
        self.clock.is_some() || self.move_time.is_some()
    }
}

impl fmt::Display for Limits {
    /// The limits as a PGN TimeControl value: `10+0.1`, `st=1`, `depth=4`, `nodes=1000`,
    /// combined with spaces; `-` when unlimited.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts = Vec::new();
        if let Some(clock) = self.clock {
            parts.push(clock.to_string());
        }
        if let Some(move_time) = self.move_time {
            parts.push(format!("st={}", format_seconds(move_time)));
        }
        if let Some(depth) = self.depth {
            parts.push(format!("depth={depth}"));
        }
        if let Some(nodes) = self.nodes {
            parts.push(format!("nodes={nodes}"));
        }
        if parts.is_empty() {
            f.write_str("-")
        } else {
            f.write_str(&parts.join(" "))
        }
    }
}

/// One side's clock during a game.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Clock {
    control: TimeControl,
    remaining: Duration,
    moves_in_period: u32,
}

impl Clock {
    /// A full clock at the start of a game.
    pub fn new(control: TimeControl) -> Clock {
        Clock {
            control,
            remaining: control.base,
            moves_in_period: 0,
        }
    }

    /// A clock of `control` with `remaining` left, at the start of a period (a game kept on
    /// disk and read back).
    pub fn with_remaining(control: TimeControl, remaining: Duration) -> Clock {
        Clock {
            control,
            remaining,
            moves_in_period: 0,
        }
    }

    /// Time left.
    pub fn remaining(&self) -> Duration {
        self.remaining
    }

    /// The increment per move.
    pub fn increment(&self) -> Duration {
        self.control.increment
    }

    /// Moves left until the next time control, if the control has periods.
    pub fn moves_to_go(&self) -> Option<u32> {
        self.control.moves.map(|moves| moves - self.moves_in_period)
    }

    /// Charges a move that took `elapsed`; returns false (and leaves the clock at zero) when
    /// that overran the time left by more than `margin`.
    pub fn charge(&mut self, elapsed: Duration, margin: Duration) -> bool {
        if elapsed > self.remaining + margin {
            self.remaining = Duration::ZERO;
            return false;
        }
        self.remaining = self.remaining.saturating_sub(elapsed) + self.control.increment;
        if let Some(moves) = self.control.moves {
            self.moves_in_period += 1;
            if self.moves_in_period == moves {
                self.moves_in_period = 0;
                self.remaining += self.control.base;
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_prints_time_controls() {
        for (text, printed) in [
            ("10+0.1", "10+0.1"),
            ("40/60+0.5", "40/60+0.5"),
            ("1:30", "90"),
            ("5", "5"),
        ] {
            let control: TimeControl = text.parse().unwrap();
            assert_eq!(control.to_string(), printed);
        }
        let control: TimeControl = "40/1:00+0.25".parse().unwrap();
        assert_eq!(control.moves, Some(40));
        assert_eq!(control.base, Duration::from_secs(60));
        assert_eq!(control.increment, Duration::from_millis(250));
        for bad in ["", "abc", "0", "-1+1", "0/10", "10+x", "x/10", "10+-1"] {
            let error = bad.parse::<TimeControl>().unwrap_err();
            assert!(error.to_string().contains(&format!("\"{bad}\"")));
        }
    }

    #[test]
    fn clock_charges_increments_and_periods() {
        let mut clock = Clock::new("2/10+1".parse().unwrap());
        assert_eq!(clock.moves_to_go(), Some(2));
        assert!(clock.charge(Duration::from_secs(3), Duration::ZERO));
        assert_eq!(clock.remaining(), Duration::from_secs(8));
        assert_eq!(clock.moves_to_go(), Some(1));
        assert!(clock.charge(Duration::from_secs(4), Duration::ZERO));
        assert_eq!(clock.remaining(), Duration::from_secs(15));
        assert_eq!(clock.moves_to_go(), Some(2));
        assert!(clock.charge(Duration::from_millis(15_050), Duration::from_millis(100)));
        assert!(!clock.charge(Duration::from_secs(30), Duration::from_millis(100)));
        assert_eq!(clock.remaining(), Duration::ZERO);
    }

    #[test]
    fn limits_print_as_time_control_tag() {
        let limits = Limits {
            clock: Some("10+0.1".parse().unwrap()),
            depth: Some(4),
            ..Limits::default()
        };
        assert_eq!(limits.to_string(), "10+0.1 depth=4");
        assert_eq!(Limits::default().to_string(), "-");
        assert!(Limits::default().is_unlimited());
    }
}
