//! What a match writes as it goes: the record files (`-pgnout`, `-jsonout` with their keys,
//! `-epdout`), the console lines in the chosen layout (`-output format=`), the score line
//! every `-scoreinterval` games, the score block every `-ratinginterval` games, latencies
//! (`-show-latency`), the `-config` file's run state after every game, and the end of the run.

use super::cli_reports::OutputFormat;
use super::config::{Autosave, RunState};
use super::console::Console;
use super::faults::engine_faults;
use super::latency::{game_latency_lines, latency_lines};
use super::layouts::{cutechess_block, fastchess_block, MatchHeader};
use super::record::keys::RecordKeys;
use super::record::{epd, json, pgn, GameRecord};
use super::report::{finished_line, ranking_lines, score_lines_with_llr, wld, Standings};
use super::runner::Sink;
use super::schedule::ScheduledGame;
use super::spec::EngineSpec;
use super::stats::Sprt;
use super::timing::timing_lines;
use crate::Side;
use std::fs::File;
use std::io::Write;

/// An open record file and what it keeps.
pub struct RecordFile {
    /// The file, opened for appending.
    pub file: File,
    /// Its per-move keys.
    pub keys: RecordKeys,
}

/// How the console reports (the match settings that shape them).
#[derive(Clone, Debug, PartialEq)]
pub struct ReportSettings {
    /// The layout.
    pub format: OutputFormat,
    /// The SPRT, for two-engine matches.
    pub sprt: Option<Sprt>,
    /// Score block every N games (0: at the end only).
    pub rating_interval: u64,
    /// Score line every N games (0: never).
    pub score_interval: u64,
    /// Latency lines per game and at the end.
    pub show_latency: bool,
    /// Restart unusable engines rather than stop.
    pub recover: bool,
    /// The fastchess result header.
    pub header: MatchHeader,
}

/// The sink of a match run: writes records, prints results, keeps the statistics.
pub struct MatchOutput {
    /// The console.
    pub console: Console,
    /// `-pgnout`.
    pub pgn: Option<RecordFile>,
    /// `-jsonout`.
    pub json: Option<RecordFile>,
    /// `-epdout`.
    pub epd: Option<File>,
    /// Statistics of every game so far (resumed ones included).
    pub standings: Standings,
    /// Every game so far.
    pub records: Vec<GameRecord>,
    /// Games in the whole schedule.
    pub total_games: u64,
    /// Engine names by index.
    pub names: Vec<String>,
    /// The report settings.
    pub settings: ReportSettings,
    /// Why the run stopped on an engine fault.
    pub fault: Option<String>,
    /// A record file that could not be written.
    pub io_error: Option<String>,
    /// Per encounter (referee layout) or overall (index 0, other layouts): the game count
    /// when the score block was last printed.
    printed_at: Vec<u64>,
    /// The `-config` file, rewritten after every game.
    pub autosave: Option<Autosave>,
}

/// The `fastchess` header of a match: time controls, Threads and Hash as set, the book.
pub fn match_header(specs: &[EngineSpec], book: Option<&str>) -> MatchHeader {
    let both = |values: Vec<String>| -> String {
        let mut distinct = values.clone();
        distinct.dedup();
        if distinct.len() == 1 {
            distinct.remove(0)
        } else {
            values.join(" - ")
        }
    };
    let option = |name: &str, unit: &str| -> Vec<String> {
        specs
            .iter()
            .map(|spec| {
                spec.options
                    .iter()
                    .find(|(n, _)| n.eq_ignore_ascii_case(name))
                    .map_or("NULL".to_string(), |(_, v)| format!("{v}{unit}"))
            })
            .collect()
    };
    MatchHeader {
        time_control: both(specs.iter().map(|s| s.limits.to_string()).collect()),
        threads: both(option("Threads", "t")),
        hash: both(option("Hash", "MB")),
        book: book.map(|path| {
            std::path::Path::new(path)
                .file_name()
                .map_or(path.to_string(), |n| n.to_string_lossy().into_owned())
        }),
    }
}

impl MatchOutput {
    /// A sink that starts from the `previous` games (resumed).
    pub fn new(
        console: Console,
        previous: Vec<GameRecord>,
        total_games: u64,
        names: Vec<String>,
        settings: ReportSettings,
    ) -> MatchOutput {
        let standings = Standings::of(&previous);
        let printed_at = vec![u64::MAX; standings.tallies.len().max(1)];
        MatchOutput {
            console,
            pgn: None,
            json: None,
            epd: None,
            standings,
            records: previous,
            total_games,
            names,
            settings,
            fault: None,
            io_error: None,
            printed_at,
            autosave: None,
        }
    }

    /// Rewrites the `-config` file with the run's state.
    ///
    /// # Errors
    /// The file cannot be written.
    pub fn save_state(&self, status: &str) -> Result<(), String> {
        let Some(autosave) = &self.autosave else {
            return Ok(());
        };
        autosave.write(&RunState {
            games_in_schedule: self.total_games,
            games_recorded: self.records.len() as u64,
            status: status.to_string(),
        })
    }

    /// [`MatchOutput::save_state`] once games are under way: a failure is only a warning,
    /// since the games themselves are in the records.
    pub fn update_state(&self, status: &str) {
        if let Err(error) = self.save_state(status) {
            log::warn!("{error}");
        }
    }

    /// One live progress line on stderr when it is a terminal (rewritten in place).
    fn progress(&mut self, index: usize) {
        let tally = &self.standings.tallies[index];
        let points = tally.total.wins as f64 + tally.total.draws as f64 / 2.0;
        let games = tally.total.games();
        let text = format!(
            "[{}/{}] {} vs {}: {points:.1} - {:.1}",
            self.records.len(),
            self.total_games,
            tally.first,
            tally.second,
            games as f64 - points
        );
        self.console.progress(&text);
    }

    /// The SPRT and its LLR for encounter `index`, in a two-engine match.
    fn sprt_for(&self, index: usize) -> Option<(&Sprt, f64)> {
        let tally = &self.standings.tallies[index];
        match (&self.settings.sprt, self.standings.tallies.len()) {
            (Some(sprt), 1) => Some((sprt, tally.llr(sprt))),
            _ => None,
        }
    }

    /// The score block of encounter `index` in the chosen layout.
    fn print_block(&mut self, index: usize) {
        let tally = &self.standings.tallies[index];
        let sprt = self.sprt_for(index);
        let lines = match self.settings.format {
            OutputFormat::Referee => score_lines_with_llr(tally, sprt),
            OutputFormat::Cutechess if self.standings.tallies.len() == 1 => {
                cutechess_block(tally, sprt)
            }
            OutputFormat::Cutechess => ranking_lines(&self.records),
            OutputFormat::Fastchess => fastchess_block(tally, &self.settings.header, sprt),
        };
        for line in lines {
            self.console.line(&line);
        }
    }

    /// The counter that the rating interval counts: the encounter's games in the referee
    /// layout, all games in the others (as cutechess-cli and fastchess count).
    fn interval_count(&self, index: usize) -> (usize, u64) {
        match self.settings.format {
            OutputFormat::Referee => (index, self.standings.tallies[index].total.games()),
            _ => (0, self.records.len() as u64),
        }
    }

    fn print_block_once(&mut self, index: usize) {
        let (slot, count) = self.interval_count(index);
        self.printed_at
            .resize(self.standings.tallies.len().max(1), u64::MAX);
        if self.printed_at[slot] != count {
            self.print_block(index);
            self.printed_at[slot] = count;
        }
    }

    fn write_records(&mut self, record: &GameRecord) {
        let mut texts: Vec<(&mut File, String)> = Vec::new();
        if let Some(out) = &mut self.pgn {
            texts.push((&mut out.file, pgn::write_game_with(record, &out.keys)));
        }
        if let Some(out) = &mut self.json {
            texts.push((
                &mut out.file,
                json::write_line_with(record, &out.keys) + "\n",
            ));
        }
        if let Some(file) = &mut self.epd {
            texts.push((file, epd::write_line(record) + "\n"));
        }
        for (file, text) in texts {
            if let Err(e) = file.write_all(text.as_bytes()).and_then(|()| file.flush()) {
                self.io_error = Some(format!("cannot write records: {e}"));
            }
        }
    }

    /// The end of the run: the score blocks not yet printed at their final count, the
    /// ranking and fault lines, the `summary` (a knockout's bracket), time and latency lines,
    /// and the layout's closing line.
    pub fn finish(&mut self, summary: &[String]) {
        self.console.end_progress();
        let encounters = self.standings.tallies.len();
        match self.settings.format {
            OutputFormat::Referee => {
                for index in 0..encounters {
                    self.print_block_once(index);
                }
                if encounters > 1 {
                    for line in ranking_lines(&self.records) {
                        self.console.line(&line);
                    }
                    for (name, faults) in engine_faults(&self.records) {
                        self.console.line(&faults.line(&name));
                    }
                }
            }
            _ if encounters > 0 => {
                let count = self.records.len() as u64;
                if self.printed_at[0] != count {
                    let every = self.settings.format == OutputFormat::Fastchess;
                    let first = if every { 0 } else { encounters - 1 };
                    for index in first..encounters {
                        self.print_block(index);
                    }
                    self.printed_at[0] = count;
                }
                for (name, faults) in engine_faults(&self.records) {
                    self.console.line(&faults.line(&name));
                }
            }
            _ => {}
        }
        let mut lines = summary.to_vec();
        lines.extend(timing_lines(&self.records));
        if self.settings.show_latency {
            lines.extend(latency_lines(&self.records));
        }
        match self.settings.format {
            OutputFormat::Referee => {}
            OutputFormat::Cutechess => lines.push("Finished match".to_string()),
            OutputFormat::Fastchess => lines.push("Tournament finished".to_string()),
        }
        for line in lines {
            self.console.line(&line);
        }
    }
}

impl Sink for MatchOutput {
    fn started(&mut self, game: &ScheduledGame) {
        let line = format!(
            "Started game {} of {} ({} vs {})",
            game.number, self.total_games, self.names[game.goat], self.names[game.tiger]
        );
        self.console.line(&line);
    }

    fn finished(&mut self, record: &GameRecord, unusable: Option<Side>) -> bool {
        self.console.line(&finished_line(record));
        self.write_records(record);
        let index = self.standings.add(record);
        self.records.push(record.clone());
        self.update_state("running");
        self.progress(index);
        if self.settings.show_latency {
            for line in game_latency_lines(record) {
                self.console.line(&line);
            }
        }
        let played = self.records.len() as u64;
        let interval = self.settings.score_interval;
        if interval > 0 && played.is_multiple_of(interval) {
            let tally = &self.standings.tallies[index];
            let line = format!(
                "Score of {} vs {}: {}",
                tally.first,
                tally.second,
                wld(&tally.total)
            );
            self.console.line(&line);
        }
        let (_, count) = self.interval_count(index);
        let rating = self.settings.rating_interval;
        if rating > 0 && count.is_multiple_of(rating) {
            self.print_block_once(index);
        }
        if self.io_error.is_some() {
            return false;
        }
        if let (Some(side), false) = (unusable, self.settings.recover) {
            self.fault = Some(format!(
                "engine \"{}\" ({side}) lost game {} by {} and is unusable: {}; stopping (use --recover to restart such engines and go on)",
                record.engine(side),
                record.number,
                record.termination,
                record.reason
            ));
            return false;
        }
        if let (Some(sprt), 1) = (self.settings.sprt, self.standings.tallies.len()) {
            let tally = &self.standings.tallies[0];
            if tally.open_pairs() == 0 && sprt.decide(tally.llr(&sprt)).is_some() {
                self.print_block_once(0);
                return false;
            }
        }
        true
    }
}
