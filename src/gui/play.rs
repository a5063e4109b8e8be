//! Play: the user against an engine. The user's moves are checked with [`Game::check_move`];
//! the engine's answers are judged by the referee's judge in the worker; clocks are the
//! referee's [`Clock`]s.

use super::messages::{LimitsMessage, RulesMessage};
use super::records::{record_of, write};
use super::session::{Mode, Pending, Session, HUMAN_MARGIN};
use super::view::MoveView;
use super::worker::Job;
use crate::referee::engine_process::SearchReply;
use crate::referee::game::outcome_reason;
use crate::referee::outcome::{GameResult, Termination, Verdict};
use crate::referee::record::RecordedMove;
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
    /// Starts a game of the user (`human`) against engine `engine`.
    pub(crate) fn new_play(
        &mut self,
        engine: usize,
        human: Side,
        rules: RulesMessage,
        limits: LimitsMessage,
        start: Option<&str>,
    ) -> Result<(), String> {
        let rules = rules.rules()?;
        let limits = limits.limits()?;
        let name = self
            .shared
            .config
            .engines
            .get(engine)
            .map(|s| s.name.clone())
            .ok_or_else(|| format!("unknown engine {engine}"))?;
        let start = match start.filter(|s| !s.trim().is_empty()) {
            Some(text) => parse_position(text)?,
            None => Position::startpos(),
        };
        let game = Game::new(start, rules);
        if let Some(outcome) = game.outcome() {
            return Err(format!("that position is already over: {outcome}"));
        }
        self.stop_watch_quietly();
        self.idle_engine();
        self.analysis_on = false;
        self.game = game;
        self.cursor = 0;
        self.recorded.clear();
        self.mode = Mode::Play;
        self.human = Some(human);
        self.players = match human {
            Side::Goats => ["You".to_string(), name],
            Side::Tigers => [name, "You".to_string()],
        };
        self.clocks = [limits.clock.map(Clock::new), limits.clock.map(Clock::new)];
        self.limits = limits;
        self.ending = None;
        self.worker_for(engine)?;
        self.after_change();
        Ok(())
    }

    /// What follows a change of the game: the end by the rules, the engine's turn, analysis.
    pub(crate) fn after_change(&mut self) {
        self.hint = None;
        self.lines.clear();
        self.cursor = self.cursor.min(self.game.ply());
        match self.mode {
            Mode::Play => {
                self.turn_started = Instant::now();
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
                let engine_to_move = Some(self.game.position().side_to_move()) != self.human;
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
                if Some(side) != self.human {
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
                });
                self.cursor = self.game.ply();
                self.after_change();
                Ok(())
            }
        }
    }

    /// Takes back the user's last move and the engine's reply.
    pub(crate) fn takeback(&mut self) -> Result<(), String> {
        if self.mode != Mode::Play {
            return Err("takeback is for games against the engine; in analysis, step back and play another move".into());
        }
        let human = self.human.expect("play has a human side");
        let ply = self.game.ply();
        if !self.game.positions()[..ply]
            .iter()
            .any(|p| p.side_to_move() == human)
        {
            return Err("nothing to take back".into());
        }
        self.idle_engine();
        while self.game.undo().is_some() {
            self.recorded.pop();
            if self.game.position().side_to_move() == human {
                break;
            }
        }
        self.cursor = self.game.ply();
        self.ending = None;
        self.after_change();
        Ok(())
    }

    /// The user resigns.
    pub(crate) fn resign(&mut self) -> Result<(), String> {
        let human = self.human.filter(|_| self.mode == Mode::Play);
        let Some(human) = human.filter(|_| self.ending.is_none()) else {
            return Err("no game to resign".into());
        };
        self.idle_engine();
        self.ending = Some((
            GameResult::win_for(human.opposite()),
            Termination::Normal,
            format!("{} resign", capitalized(human)),
        ));
        Ok(())
    }

    /// Asks the engine for the user's best move.
    pub(crate) fn ask_hint(&mut self) -> Result<(), String> {
        let side = self.game.position().side_to_move();
        if self.mode != Mode::Play || self.ending.is_some() || Some(side) != self.human {
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
        if self.mode != Mode::Play || self.ending.is_some() || Some(side) != self.human {
            return None;
        }
        let clock = self.clocks[side.index()].as_ref()?;
        Some(self.turn_started + clock.remaining() + HUMAN_MARGIN)
    }

    /// The user's time ran out.
    pub(crate) fn flag_fell(&mut self) {
        let Some(human) = self.human else { return };
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
                if termination == Termination::TimeForfeit && self.human != Some(side) {
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

    /// Sends the game as a record in `format`.
    pub(crate) fn export(&mut self, format: &str) -> Result<(), String> {
        let limits = |name: &str| {
            if name == "You" || name.is_empty() {
                "-".to_string()
            } else {
                self.limits.to_string()
            }
        };
        let names = [
            if self.players[0].is_empty() {
                "?"
            } else {
                &self.players[0]
            },
            if self.players[1].is_empty() {
                "?"
            } else {
                &self.players[1]
            },
        ];
        let record = record_of(
            &self.game,
            &self.recorded,
            names,
            [limits(&self.players[0]), limits(&self.players[1])],
            &self.ending,
        );
        let text = write(&record, format)?;
        self.send(&json!({"type": "export", "format": format, "text": text}));
        Ok(())
    }
}
