//! How the `tb` subcommands show their progress on stderr: bars on a terminal, plain log lines
//! (one a phase and one each tenth of it) when stderr goes to a file or a pipe, so that a long
//! run started in the background (`nohup ... 2> log`) still says how far it is.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::sync::Mutex;

/// The progress of a run, one phase at a time ("layer 3 retrograde", "forbid proof"), fed
/// through [`super::generate::Progress`].
pub(super) enum PhaseProgress {
    /// On a terminal: one `indicatif` bar per phase with done/total, percentage and ETA, redrawn
    /// at most 10 times a second.
    Bars(Mutex<Option<(String, ProgressBar)>>),
    /// Elsewhere: `log::info!` lines (shown by default, `RUST_LOG` may silence them).
    Lines(Mutex<PhaseLines>),
}

impl PhaseProgress {
    /// Bars if stderr is a terminal, lines otherwise.
    pub(super) fn for_stderr() -> PhaseProgress {
        if std::io::stderr().is_terminal() {
            PhaseProgress::Bars(Mutex::new(None))
        } else {
            PhaseProgress::Lines(Mutex::new(PhaseLines::default()))
        }
    }

    pub(super) fn update(&self, phase: &str, done: u64, total: u64) {
        match self {
            PhaseProgress::Bars(current) => {
                let Ok(mut current) = current.lock() else {
                    return;
                };
                update_bar(&mut current, phase, done, total);
            }
            PhaseProgress::Lines(lines) => {
                let Ok(mut lines) = lines.lock() else {
                    return;
                };
                if let Some(line) = lines.update(phase, done, total) {
                    log::info!("{line}");
                }
            }
        }
    }

    /// Stops an unfinished bar where it stands (e.g. after an error), ending its line.
    pub(super) fn finish(&self) {
        if let PhaseProgress::Bars(current) = self {
            if let Ok(mut current) = current.lock() {
                if let Some((_, bar)) = current.take() {
                    bar.abandon();
                }
            }
        }
    }
}

fn update_bar(current: &mut Option<(String, ProgressBar)>, phase: &str, done: u64, total: u64) {
    if current.as_ref().is_none_or(|(name, _)| name != phase) {
        if let Some((_, previous)) = current.take() {
            previous.finish();
        }
        *current = Some((phase.to_string(), new_bar(phase, total)));
    }
    let Some((_, bar)) = current.as_ref().filter(|(_, bar)| !bar.is_finished()) else {
        return;
    };
    bar.set_length(total);
    bar.set_position(done.max(bar.position()));
    if done >= total {
        bar.finish();
    }
}

fn new_bar(phase: &str, total: u64) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr_with_hz(10));
    let style =
        ProgressStyle::with_template("{msg:<20} [{wide_bar}] {pos}/{len} {percent:>3}% eta {eta}")
            .expect("valid template")
            .progress_chars("#>.");
    bar.set_style(style);
    bar.set_message(phase.to_string());
    bar
}

/// Which line, if any, a progress update is worth when nobody watches a bar: the first update
/// of a phase, then the first one reaching each further tenth of its total (the last at 100%).
#[derive(Default)]
pub(super) struct PhaseLines {
    phase: String,
    /// Tenths of the phase reported so far; `None` before its first line.
    tenths: Option<u64>,
}

impl PhaseLines {
    pub(super) fn update(&mut self, phase: &str, done: u64, total: u64) -> Option<String> {
        if self.tenths.is_none() || self.phase != phase {
            phase.clone_into(&mut self.phase);
            self.tenths = None;
        }
        let percent = if total == 0 {
            100
        } else {
            // u128: `done * 100` must not overflow for any u64 counts.
            (u128::from(done.min(total)) * 100 / u128::from(total)) as u64
        };
        let tenths = percent / 10;
        if self.tenths.is_some_and(|reported| tenths <= reported) {
            return None;
        }
        self.tenths = Some(tenths);
        Some(format!("{phase}: {done}/{total} ({percent}%)"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_come_at_a_phase_start_and_at_each_further_tenth() {
        let mut lines = PhaseLines::default();
        let mut seen = Vec::new();
        for done in 0..=1000 {
            seen.extend(lines.update("layer 4", done, 1000));
        }
        let expected: Vec<String> = (0..=10)
            .map(|t| format!("layer 4: {}/1000 ({}%)", t * 100, t * 10))
            .collect();
        assert_eq!(seen, expected);
        // Repeats and steps back within the same tenth say nothing.
        assert_eq!(lines.update("layer 4", 1000, 1000), None);
        assert_eq!(lines.update("layer 4", 999, 1000), None);
    }

    #[test]
    fn a_new_phase_starts_its_lines_again() {
        let mut lines = PhaseLines::default();
        assert!(lines.update("a", 5, 10).is_some());
        assert_eq!(lines.update("a", 5, 10), None);
        assert_eq!(lines.update("b", 5, 10).as_deref(), Some("b: 5/10 (50%)"));
        // Back to an earlier phase's name: a new phase too.
        assert_eq!(lines.update("a", 5, 10).as_deref(), Some("a: 5/10 (50%)"));
    }

    #[test]
    fn jumps_report_their_percentage_and_odd_totals_stay_in_range() {
        let mut lines = PhaseLines::default();
        assert_eq!(lines.update("p", 0, 0).as_deref(), Some("p: 0/0 (100%)"));
        let mut lines = PhaseLines::default();
        assert_eq!(lines.update("p", 0, 3).as_deref(), Some("p: 0/3 (0%)"));
        assert_eq!(lines.update("p", 2, 3).as_deref(), Some("p: 2/3 (66%)"));
        assert_eq!(lines.update("p", 7, 3).as_deref(), Some("p: 7/3 (100%)"));
        let mut lines = PhaseLines::default();
        let big = u64::MAX;
        assert_eq!(
            lines.update("p", big / 2, big).as_deref(),
            Some(format!("p: {}/{big} (49%)", big / 2).as_str())
        );
    }
}
