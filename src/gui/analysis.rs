//! Analysis: any position (from a game, a position string or a record), the engine thinking
//! continuously on the position shown (`go infinite`, restarted on every change) with MultiPV
//! lines; stepping through a game.

use super::info::read_info;
use super::messages::RulesMessage;
use super::play::parse_position;
use super::records::{game_of, read, summaries};
use super::session::{Mode, Pending, Session};
use super::worker::Job;
use crate::Game;
use serde_json::json;

/// Most MultiPV lines offered.
pub const MAX_MULTIPV: u32 = 5;

impl Session {
    /// Shows the position after `ply` moves (analysis follows it).
    pub(crate) fn goto(&mut self, ply: usize) -> Result<(), String> {
        let ply = ply.min(self.game.ply());
        if ply == self.cursor {
            return Ok(());
        }
        self.cursor = ply;
        if self.mode == Mode::Analyse {
            self.restart_analysis();
        }
        Ok(())
    }

    /// An analysis board on a position string (or the start position).
    pub(crate) fn setup(
        &mut self,
        position: Option<&str>,
        rules: RulesMessage,
    ) -> Result<(), String> {
        let rules = rules.rules()?;
        let start = match position.filter(|s| !s.trim().is_empty()) {
            Some(text) => parse_position(text)?,
            None => crate::Position::startpos(),
        };
        self.stop_watch_quietly();
        self.enter_analysis(Game::new(start, rules), Vec::new());
        self.players = [String::new(), String::new()];
        self.after_change();
        Ok(())
    }

    /// Switches to analysis of `game`, with `recorded` moves.
    fn enter_analysis(&mut self, game: Game, recorded: Vec<crate::referee::record::RecordedMove>) {
        self.idle_engine();
        self.mode = Mode::Analyse;
        self.human = None;
        self.people = false;
        self.play = None;
        self.review = None;
        self.clocks = [None, None];
        self.ending = None;
        self.game = game;
        self.recorded = recorded;
        self.cursor = self.game.ply();
    }

    /// Turns continuous analysis on or off; analysis of a game in play or watched turns it into
    /// an analysis board (the game and its moves stay).
    pub(crate) fn set_analysis(
        &mut self,
        on: bool,
        engine: usize,
        multipv: u32,
    ) -> Result<(), String> {
        if !(1..=MAX_MULTIPV).contains(&multipv) {
            return Err(format!("multipv {multipv}: expected 1..{MAX_MULTIPV}"));
        }
        if on {
            self.worker_for(engine, Vec::new())?;
        }
        if self.mode != Mode::Analyse {
            self.stop_watch_quietly();
            let (game, recorded, ending, cursor) = (
                self.game.clone(),
                self.recorded.clone(),
                self.ending.clone(),
                self.cursor,
            );
            self.enter_analysis(game, recorded);
            self.ending = ending;
            self.cursor = cursor;
        }
        self.analysis_on = on;
        self.multipv = multipv;
        if on {
            self.restart_analysis();
        } else {
            self.idle_engine();
        }
        Ok(())
    }

    /// (Re)starts the engine on the position shown, if analysis is on.
    pub(crate) fn restart_analysis(&mut self) {
        self.lines.clear();
        if !self.analysis_on || self.mode != Mode::Analyse {
            return;
        }
        let shown = self.shown();
        let Some((_, worker, _)) = &self.worker else {
            return;
        };
        let worker = std::sync::Arc::clone(worker);
        if shown.outcome().is_some() {
            if self.pending.is_some() {
                worker.submit(Job::Idle);
            }
            self.pending = None;
            return;
        }
        let serial = self.next_serial();
        self.pending = Some(Pending::Analysis(serial));
        worker.submit(Job::Analyse {
            game: shown,
            multipv: self.multipv,
            serial,
        });
    }

    /// An engine output line of job `serial`: analysis lines, or the engine's thinking in play.
    pub(crate) fn engine_line(&mut self, serial: u64, line: &str) {
        let searched = match self.pending {
            Some(Pending::Analysis(s)) if s == serial => self.shown(),
            Some(Pending::Move(s) | Pending::Hint(s)) if s == serial => self.game.clone(),
            _ => return,
        };
        let Some(info) = read_info(line, &searched) else {
            return;
        };
        let slot = info.multipv.saturating_sub(1) as usize;
        if slot >= MAX_MULTIPV as usize {
            return;
        }
        if self.lines.len() <= slot {
            self.lines.resize(slot + 1, info.clone());
        }
        self.lines[slot] = info;
        self.lines.truncate(self.multipv.max(1) as usize);
        self.send(&json!({"type": "analysis", "ply": searched.ply(), "lines": self.lines}));
    }

    /// Loads game `index` of record `text` for stepping through (and analysis).
    pub(crate) fn load_record(&mut self, text: &str, index: usize) -> Result<(), String> {
        let records = read(text)?;
        let record = records
            .get(index)
            .ok_or_else(|| format!("game {index} of the record: it has {} games", records.len()))?;
        let game = game_of(record)?;
        self.stop_watch_quietly();
        self.send(&json!({"type": "records", "games": summaries(&records), "index": index}));
        self.enter_analysis(game, record.moves.clone());
        self.analysis_on = false;
        self.players = [record.goat.clone(), record.tiger.clone()];
        self.ending = Some((record.result, record.termination, record.reason.clone()));
        self.cursor = 0;
        self.after_change();
        Ok(())
    }
}
