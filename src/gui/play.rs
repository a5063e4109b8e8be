//! Play: the user against an engine. The user's moves are checked with [`Game::check_move`];
//! the engine's answers are judged by the referee's judge in the worker; clocks are the
//! referee's [`Clock`]s.

use super::levels::Level;
use super::messages::PlayRequest;
use super::records::{record_of, write};
use super::session::{Mode, Pending, Session, HUMAN_MARGIN};
use super::store::PlaySettings;
use super::view::MoveView;
use super::worker::Job;
use crate::referee::engine_process::SearchReply;
use crate::referee::game::outcome_reason;
use crate::referee::outcome::{GameResult, Termination, Verdict};
use crate::referee::record::{GameRecord, MoveDetails, RecordedMove};
use crate::referee::time_control::{Clock, Limits};
use crate::{Game, Move, Position, Side};
use serde_json::json;
use std::time::{Duration, Instant};

/// `Goats` or `Tigers`.
pub fn capitalized(side: Side) -> &'static str {
    match side {
        Side::Goats => "Goats",
        Side::Tigers => "Tigers",
    }
}

/// Reads a position string from the page.
///
/// # Errors
/// The library parser's message.
pub fn parse_position(text: &str) -> Result<Position, String> {
    text.trim()
        .parse()
        .map_err(|e: crate::ParsePositionError| e.to_string())
}

impl Session {
    /// Starts a game: the user against an engine at a level, or two people at the board.
    pub(crate) fn new_play(&mut self, request: PlayRequest) -> Result<(), String> {
        // Continuing keeps the game shown and its rules; otherwise the rules chosen.
        let game = if request.from_shown {
            if self.mode != Mode::Analyse {
                return Err("continue from a position shown in Analyse".into());
            }
            self.shown()
        } else {
            let start = match request.start.as_deref().filter(|s| !s.trim().is_empty()) {
                Some(text) => parse_position(text)?,
                None => Position::startpos(),
            };
            Game::new(start, request.rules.rules()?)
        };
        let rules = *game.rules();
        let level = request.level.map(Level::check).transpose()?;
        let chosen = request.limits.parse()?;
        let human: Side = request.human.into();
        let (limits, name) = match request.engine {
            Some(index) => {
                let spec = self
                    .shared
                    .config
                    .engines
                    .get(index)
                    .ok_or_else(|| format!("unknown engine {index}"))?;
                let level = level.unwrap_or(Level::Full);
                if level == Level::Perfect && !self.shared.tables.available(&rules) {
                    return Err(
                        "\"Perfect\" needs the tables for these rules: generate them in Analyse"
                            .into(),
                    );
                }
                let limits = level.limits(chosen);
                if limits.is_unlimited() {
                    return Err(
                        "choose a limit for the engine: move time, depth, nodes or a clock".into(),
                    );
                }
                (limits, Some(format!("{} ({})", spec.name, level.label())))
            }
            None => (chosen, None),
        };
        if let Some(outcome) = game.outcome() {
            return Err(format!("that position is already over: {outcome}"));
        }
        let recorded = if request.from_shown {
            let mut recorded = self.recorded.clone();
            recorded.truncate(game.ply());
            recorded
        } else {
            Vec::new()
        };
        self.stop_watch_quietly();
        self.idle_engine();
        self.analysis_on = false;
        self.game = game;
        self.cursor = self.game.ply();
        self.recorded = recorded;
        self.mode = Mode::Play;
        self.people = name.is_none();
        self.human = name.as_ref().map(|_| human);
        self.players = match (&name, human) {
            (None, _) => ["Goats player".to_string(), "Tigers player".to_string()],
            (Some(name), Side::Goats) => ["You".to_string(), name.clone()],
            (Some(name), Side::Tigers) => [name.clone(), "You".to_string()],
        };
        self.clocks = [limits.clock.map(Clock::new), limits.clock.map(Clock::new)];
        self.clock_history = vec![self.clocks; self.game.ply()];
        self.limits = limits;
        self.ending = None;
        self.review = None;
        self.notice = None;
        self.play = Some(PlaySettings {
            engine: request.engine,
            human: name.as_ref().map(|_| human.to_string()),
            level: request.engine.map(|_| level.unwrap_or(Level::Full)),
            limits: request.limits,
        });
        if let Some(index) = request.engine {
            self.worker_for(index, self.profile())?;
        } else {
            self.drop_worker();
        }
        self.after_change();
        Ok(())
    }

    /// The options of the game's level for the engine (none outside play).
    pub(crate) fn profile(&self) -> Vec<(String, String)> {
        let level = self.play.as_ref().and_then(|p| p.level);
        level.map_or_else(Vec::new, |level| {
            level.options(Some(self.shared.tables.dir()))
        })
    }

    /// Whether a person plays `side` (in play).
    pub(crate) fn is_human(&self, side: Side) -> bool {
        self.mode == Mode::Play && (self.people || self.human == Some(side))
    }

    /// What follows a change of the game: the end by the rules, the engine's turn, analysis.
    pub(crate) fn after_change(&mut self) {
        self.hint = None;
        self.lines.clear();
        self.cursor = self.cursor.min(self.game.ply());
        match self.mode {
            Mode::Play => {
                self.turn_started = Instant::now();
                self.clock_history.truncate(self.game.ply());
                self.clock_history.push(self.clocks);
                if let Some(outcome) = self.game.outcome() {
                    let result = outcome
                        .winner()
                        .map_or(GameResult::Draw, GameResult::win_for);
                    let reason = outcome_reason(outcome, self.game.rules());
                    self.ending = Some((result, Termination::Normal, reason));
                    self.idle_engine();
                } else {
                    self.resume_engine();
                }
            }
            Mode::Analyse => self.restart_analysis(),
            Mode::Watch => {}
        }
    }

    /// Gives the engine its turn (play) or restarts analysis, when due.
    pub(crate) fn resume_engine(&mut self) {
        match self.mode {
            Mode::Play => {
                let engine_to_move = !self.is_human(self.game.position().side_to_move());
                if engine_to_move && self.ending.is_none() && self.pending.is_none() {
                    if let Some((_, worker, _)) = &self.worker {
                        let worker = std::sync::Arc::clone(worker);
                        let serial = self.next_serial();
                        self.pending = Some(Pending::Move(serial));
                        self.turn_started = Instant::now();
                        worker.submit(Job::Search {
                            game: self.game.clone(),
                            limits: self.limits.clone(),
                            clocks: Box::new(self.clocks),
                            serial,
                        });
                    }
                }
            }
            Mode::Analyse => self.restart_analysis(),
            Mode::Watch => {}
        }
    }

    /// The user's move `text`.
    pub(crate) fn user_move(&mut self, text: &str) -> Result<(), String> {
        let mv: Move = text.trim().parse().map_err(|e| format!("{e}"))?;
        match self.mode {
            Mode::Watch => Err("the engines are playing: stop the game to play moves".into()),
            Mode::Analyse => {
                let mut game = self.shown();
                game.check_move(mv).map_err(|e| e.to_string())?;
                game.play_unchecked(mv);
                self.recorded.truncate(self.cursor);
                self.recorded.push(RecordedMove::book(mv));
                self.game = game;
                self.cursor = self.game.ply();
                self.ending = None;
                self.after_change();
                Ok(())
            }
            Mode::Play => {
                if self.ending.is_some() {
                    return Err("the game is over: start a new one".into());
                }
                if !self.at_end() {
                    return Err("go to the last move to play".into());
                }
                let side = self.game.position().side_to_move();
                if !self.is_human(side) {
                    return Err("it is not your turn".into());
                }
                self.game.check_move(mv).map_err(|e| e.to_string())?;
                let elapsed = self.turn_started.elapsed();
                if let Some(clock) = &mut self.clocks[side.index()] {
                    if !clock.charge(elapsed, HUMAN_MARGIN) {
                        self.flag_fell();
                        return Ok(());
                    }
                }
                self.game.play_unchecked(mv);
                self.recorded.push(RecordedMove {
                    mv,
                    book: false,
                    score: None,
                    depth: None,
                    time_ms: Some(u64::try_from(elapsed.as_millis()).unwrap_or(u64::MAX)),
                    allowed_ms: None,
                    details: MoveDetails::default(),
                });
                self.cursor = self.game.ply();
                self.after_change();
                Ok(())
            }
        }
    }

    /// Takes back the user's last move and the engine's reply (between two people, the last
    /// move); the clocks go back to where they stood.
    pub(crate) fn takeback(&mut self) -> Result<(), String> {
        if self.mode != Mode::Play {
            return Err(
                "takeback is for games in play; in analysis, step back and play another move"
                    .into(),
            );
        }
        let ply = self.game.ply();
        let mover = |p: &Position| p.side_to_move();
        if !self.game.positions()[..ply]
            .iter()
            .any(|p| self.is_human(mover(p)))
        {
            return Err("nothing to take back".into());
        }
        self.idle_engine();
        while self.game.undo().is_some() {
            self.recorded.pop();
            if self.is_human(self.game.position().side_to_move()) {
                break;
            }
        }
        if let Some(clocks) = self.clock_history.get(self.game.ply()) {
            self.clocks = *clocks;
        }
        self.cursor = self.game.ply();
        self.ending = None;
        self.review = None;
        self.after_change();
        Ok(())
    }

    /// The side to move resigns (the user against the engine: the user's side).
    pub(crate) fn resign(&mut self) -> Result<(), String> {
        let side = match (self.mode, self.people) {
            (Mode::Play, true) => Some(self.game.position().side_to_move()),
            (Mode::Play, false) => self.human,
            _ => None,
        };
        let Some(side) = side.filter(|_| self.ending.is_none()) else {
            return Err("no game to resign".into());
        };
        self.idle_engine();
        self.ending = Some((
            GameResult::win_for(side.opposite()),
            Termination::Normal,
            format!("{} resign", capitalized(side)),
        ));
        Ok(())
    }

    /// Asks the engine for the user's best move.
    pub(crate) fn ask_hint(&mut self) -> Result<(), String> {
        let side = self.game.position().side_to_move();
        if self.people || self.ending.is_some() || !self.is_human(side) {
            return Err("a hint is for your turn in a game against the engine".into());
        }
        let Some((_, worker, _)) = &self.worker else {
            return Err("no engine".into());
        };
        let worker = std::sync::Arc::clone(worker);
        let limits = Limits {
            clock: None,
            ..self.limits.clone()
        };
        let limits = if limits.is_unlimited() {
            Limits {
                move_time: Some(Duration::from_secs(1)),
                ..limits
            }
        } else {
            limits
        };
        let serial = self.next_serial();
        self.pending = Some(Pending::Hint(serial));
        worker.submit(Job::Search {
            game: self.game.clone(),
            limits,
            clocks: Box::new([None, None]),
            serial,
        });
        Ok(())
    }

    /// When the user's flag falls, if it can.
    pub(crate) fn human_flag_at(&self) -> Option<Instant> {
        let side = self.game.position().side_to_move();
        if self.ending.is_some() || !self.is_human(side) {
            return None;
        }
        let clock = self.clocks[side.index()].as_ref()?;
        Some(self.turn_started + clock.remaining() + HUMAN_MARGIN)
    }

    /// The time of the person to move ran out.
    pub(crate) fn flag_fell(&mut self) {
        let human = self.game.position().side_to_move();
        if !self.is_human(human) {
            return;
        }
        self.idle_engine();
        if let Some(clock) = &mut self.clocks[human.index()] {
            clock.charge(Duration::MAX / 4, Duration::ZERO);
        }
        self.ending = Some((
            GameResult::win_for(human.opposite()),
            Termination::TimeForfeit,
            format!("{} lose: time forfeit", capitalized(human)),
        ));
        self.send_state();
    }

    /// The referee's verdict on an engine's answer.
    pub(crate) fn verdict(&mut self, serial: u64, verdict: Verdict, reply: Option<SearchReply>) {
        let side = self.game.position().side_to_move();
        match (self.pending, verdict) {
            (Some(Pending::Move(s)), Verdict::Play(mv)) if s == serial => {
                self.pending = None;
                let reply = reply.expect("a played move comes from a reply");
                if let Some(clock) = &mut self.clocks[side.index()] {
                    clock.charge(reply.elapsed, self.limits.margin);
                }
                self.game.play_unchecked(mv);
                self.recorded.push(RecordedMove {
                    mv,
                    book: false,
                    score: reply.score,
                    depth: reply.depth,
                    time_ms: Some(u64::try_from(reply.elapsed.as_millis()).unwrap_or(u64::MAX)),
                    allowed_ms: None,
                    details: MoveDetails::default(),
                });
                self.cursor = self.game.ply();
                self.after_change();
            }
            (Some(Pending::Hint(s)), Verdict::Play(mv)) if s == serial => {
                self.pending = None;
                self.hint = Some(MoveView::of(mv));
            }
            (Some(Pending::Move(s) | Pending::Hint(s)), Verdict::Fault(termination, comment))
                if s == serial =>
            {
                self.pending = None;
                let name = self.players[side.index()].clone();
                if termination == Termination::TimeForfeit && !self.is_human(side) {
                    self.ending = Some((
                        GameResult::win_for(side.opposite()),
                        termination,
                        format!("{} lose: time forfeit: {comment}", capitalized(side)),
                    ));
                } else {
                    self.fault = Some(format!(
                        "engine \"{name}\": {termination}: {comment}. The engine was stopped; the game stays: restart the engine to go on"
                    ));
                }
            }
            _ => {}
        }
    }

    /// Restarts the engine after a fault (or at will).
    pub(crate) fn restart_engine(&mut self) -> Result<(), String> {
        let Some((_, worker, _)) = &self.worker else {
            return Err("no engine is in use".into());
        };
        worker.submit(super::worker::Job::Restart);
        self.pending = None;
        self.fault = None;
        Ok(())
    }

    /// The game as a record: players named with their level, `-` as a person's time control.
    pub(crate) fn record(&self) -> GameRecord {
        let control = |side: Side| {
            if self.mode != Mode::Play || self.is_human(side) {
                "-".to_string()
            } else {
                self.limits.to_string()
            }
        };
        let name = |side: Side| {
            let name = &self.players[side.index()];
            if name.is_empty() {
                "?".to_string()
            } else {
                name.clone()
            }
        };
        let recorded = if self.recorded.len() == self.game.ply() {
            self.recorded.clone()
        } else {
            self.game
                .moves()
                .iter()
                .map(|&mv| RecordedMove::book(mv))
                .collect()
        };
        record_of(
            &self.game,
            &recorded,
            [&name(Side::Goats), &name(Side::Tigers)],
            [control(Side::Goats), control(Side::Tigers)],
            &self.ending,
        )
    }

    /// Sends the game as a record in `format`.
    pub(crate) fn export(&mut self, format: &str) -> Result<(), String> {
        let text = write(&self.record(), format)?;
        self.send(&json!({"type": "export", "format": format, "text": text}));
        Ok(())
    }
}
