//! The session kept on disk ([`Store`](super::store::Store)): saved after every change, read
//! back when the server starts. A game in play goes on where it stood: the engine is started
//! with the game's level and takes its turn; the clocks stand as after the last move.

use super::session::{Mode, Session};
use super::store::{record_line, Saved};
use crate::referee::time_control::Clock;
use crate::Side;
use std::time::Duration;

impl Session {
    /// Writes the session's game to the store (when it changed).
    pub(crate) fn save(&mut self) {
        let play = (self.mode == Mode::Play)
            .then(|| self.play.clone())
            .flatten();
        let ms = |clock: &Option<Clock>| {
            clock.map(|c| u64::try_from(c.remaining().as_millis()).unwrap_or(u64::MAX))
        };
        let clocks = if play.is_some() {
            self.clock_history
                .iter()
                .map(|[g, t]| ms(g).zip(ms(t)).map(|(g, t)| [g, t]))
                .collect::<Option<Vec<_>>>()
                .unwrap_or_default()
        } else {
            Vec::new()
        };
        let saved = Saved {
            version: 1,
            mode: if play.is_some() { "play" } else { "analyse" }.to_string(),
            record: record_line(&self.record()),
            finished: self.ending.is_some(),
            cursor: self.cursor,
            play,
            clocks,
        };
        self.store.save(&saved);
    }

    /// Reads the stored game back (at start); a damaged store becomes a notice for the page.
    pub(crate) fn restore(&mut self) {
        let saved = match self.store.load() {
            Ok(Some(saved)) => saved,
            Ok(None) => return,
            Err(notice) => {
                self.notice = Some(notice);
                return;
            }
        };
        let Ok((game, record)) = saved.game() else {
            return; // checked by the store already
        };
        self.game = game;
        self.recorded = record.moves;
        self.players = [record.goat, record.tiger];
        self.ending = saved
            .finished
            .then_some((record.result, record.termination, record.reason));
        self.cursor = saved.cursor;
        self.mode = Mode::Analyse;
        let Some(play) = saved.play.filter(|_| saved.mode == "play") else {
            return;
        };
        let Ok(chosen) = play.limits.parse() else {
            return;
        };
        self.mode = Mode::Play;
        self.people = play.engine.is_none();
        self.human = match play.human.as_deref() {
            Some("goats") => Some(Side::Goats),
            Some("tigers") => Some(Side::Tigers),
            _ => None,
        };
        self.limits = play
            .level
            .map_or(chosen.clone(), |level| level.limits(chosen));
        let control = self.limits.clock;
        self.clock_history = match control {
            Some(control) => saved
                .clocks
                .iter()
                .map(|ms| {
                    ms.map(|ms| Some(Clock::with_remaining(control, Duration::from_millis(ms))))
                })
                .collect(),
            None => Vec::new(),
        };
        self.clocks = self
            .clock_history
            .last()
            .copied()
            .unwrap_or([control.map(Clock::new), control.map(Clock::new)]);
        let engine = play.engine;
        self.play = Some(play);
        if let Some(index) = engine {
            if let Err(message) = self.worker_for(index, self.profile()) {
                self.notice = Some(format!("the saved game's engine: {message}"));
            }
        }
        let cursor = self.cursor;
        self.after_change();
        self.cursor = cursor;
    }
}
