//! The one game the server holds, run as an actor task: it owns the [`Game`] and reads one
//! queue of inputs (the page's messages, engine worker and watched-game events), so there is one
//! owner of the game and no locking. The page connected to it (at most one at a time) gets the
//! state after every change.

use super::config::GuiConfig;
use super::info::InfoView;
use super::messages::{ClientMessage, MAX_MESSAGE};
use super::records::Ending;
use super::registry::Registry;
use super::store::{PlaySettings, Store};
use super::tables::Review;
use super::tables::Tables;
use super::view::{prefix, EndView, GameView, MoveView};
use super::watch::{WatchEvent, WatchHandle};
use super::worker::{spawn_worker, Job, WorkerEvent, WorkerHandle};
use crate::referee::record::RecordedMove;
use crate::referee::time_control::{Clock, Limits};
use crate::{Game, Rules, Side};
use serde_json::{json, Value};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::mpsc::{unbounded_channel, UnboundedReceiver, UnboundedSender};

/// What the server shares between the routes and the session.
pub struct Shared {
    /// The command line's configuration.
    pub config: GuiConfig,
    /// Tablebases, when configured.
    pub tables: Tables,
    /// Every engine-owning thread.
    pub registry: Registry,
}

/// An input of the session actor.
#[derive(Debug)]
pub enum Input {
    /// A page connected (connection id, where to send its messages).
    Connect(u64, UnboundedSender<String>),
    /// That page went away.
    Disconnect(u64),
    /// A message from that page (raw text).
    Client(u64, String),
    /// An event of engine worker generation `u64`.
    Worker(u64, WorkerEvent),
    /// An event of watched game generation `u64`.
    Watch(u64, WatchEvent),
    /// The tables' generation made progress or ended.
    Tables,
}

/// What the session is doing.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Mode {
    /// The user against an engine.
    Play,
    /// Free analysis (also loaded records).
    Analyse,
    /// Two engines playing each other.
    Watch,
}

/// What the engine worker is working on for the session.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Pending {
    /// A move for the engine's side (job serial).
    Move(u64),
    /// A hint for the user.
    Hint(u64),
    /// Continuous analysis.
    Analysis(u64),
}

/// The session state; see the module documentation.
pub struct Session {
    pub(crate) shared: Arc<Shared>,
    pub(crate) inputs: UnboundedSender<Input>,
    pub(crate) out: Option<(u64, UnboundedSender<String>)>,
    pub(crate) mode: Mode,
    pub(crate) game: Game,
    pub(crate) cursor: usize,
    pub(crate) recorded: Vec<RecordedMove>,
    pub(crate) players: [String; 2],
    pub(crate) human: Option<Side>,
    /// Two people play at the board (no engine).
    pub(crate) people: bool,
    /// How the game in play was set up (kept with it on disk).
    pub(crate) play: Option<PlaySettings>,
    pub(crate) limits: Limits,
    pub(crate) clocks: [Option<Clock>; 2],
    /// In play, both clocks after each ply (index = ply), for takeback.
    pub(crate) clock_history: Vec<[Option<Clock>; 2]>,
    /// The review of a finished game, when asked for.
    pub(crate) review: Option<Review>,
    /// The game on disk.
    pub(crate) store: Store,
    /// A problem to tell the page about (a corrupt store file set aside).
    pub(crate) notice: Option<String>,
    pub(crate) turn_started: Instant,
    pub(crate) ending: Ending,
    pub(crate) worker: Option<(usize, Arc<WorkerHandle>, u64)>,
    /// The options the worker's engine was started with beyond its spec's (the level).
    pub(crate) worker_profile: Vec<(String, String)>,
    pub(crate) generation: u64,
    pub(crate) serial: u64,
    pub(crate) pending: Option<Pending>,
    pub(crate) hint: Option<MoveView>,
    pub(crate) analysis_on: bool,
    pub(crate) multipv: u32,
    pub(crate) lines: Vec<InfoView>,
    pub(crate) fault: Option<String>,
    pub(crate) watch: Option<(Arc<WatchHandle>, u64)>,
    pub(crate) watch_turn: Option<(Side, [Option<u64>; 2], Instant)>,
}

/// Starts the session actor; returns where to send its inputs.
pub fn spawn_session(shared: Arc<Shared>) -> UnboundedSender<Input> {
    let (inputs, receiver) = unbounded_channel();
    let store = Store::new(&shared.config.data);
    let mut session = Session {
        shared,
        inputs: inputs.clone(),
        out: None,
        mode: Mode::Analyse,
        game: Game::startpos(Rules::default()),
        cursor: 0,
        recorded: Vec::new(),
        players: [String::new(), String::new()],
        human: None,
        people: false,
        play: None,
        limits: Limits::default(),
        clocks: [None, None],
        clock_history: Vec::new(),
        review: None,
        store,
        notice: None,
        turn_started: Instant::now(),
        ending: None,
        worker: None,
        worker_profile: Vec::new(),
        generation: 0,
        serial: 0,
        pending: None,
        hint: None,
        analysis_on: false,
        multipv: 1,
        lines: Vec::new(),
        fault: None,
        watch: None,
        watch_turn: None,
    };
    tokio::spawn(async move {
        session.restore();
        session.run(receiver).await;
    });
    inputs
}

impl Session {
    async fn run(&mut self, mut receiver: UnboundedReceiver<Input>) {
        loop {
            let flag = self.human_flag_at();
            let input = match flag {
                Some(at) => tokio::select! {
                    input = receiver.recv() => input,
                    () = tokio::time::sleep_until(at.into()) => {
                        self.flag_fell();
                        continue;
                    }
                },
                None => receiver.recv().await,
            };
            let Some(input) = input else { return };
            self.handle(input);
        }
    }

    fn handle(&mut self, input: Input) {
        match input {
            Input::Connect(id, sender) => {
                if self.out.as_ref().is_some_and(|(_, out)| !out.is_closed()) {
                    let _ = sender.send(error_text(
                        "this game is already open in another tab or window: close that one first, then reload",
                    ));
                    return; // dropping the sender closes the new socket
                }
                self.out = Some((id, sender));
                self.send_state();
            }
            Input::Disconnect(id) => {
                if self.out.as_ref().is_some_and(|(current, _)| *current == id) {
                    self.out = None;
                }
            }
            Input::Client(id, text) => {
                if self.out.as_ref().is_some_and(|(current, _)| *current == id) {
                    self.client(&text);
                }
            }
            Input::Worker(generation, event) => {
                if self
                    .worker
                    .as_ref()
                    .is_some_and(|(_, _, g)| *g == generation)
                {
                    self.worker_event(event);
                }
            }
            Input::Watch(generation, event) => {
                if self.watch.as_ref().is_some_and(|(_, g)| *g == generation) {
                    self.watch_event(event);
                }
            }
            Input::Tables => self.send_state(),
        }
    }

    fn client(&mut self, text: &str) {
        if text.len() > MAX_MESSAGE {
            return self.error(&format!(
                "message of {} bytes ignored: at most {MAX_MESSAGE} are accepted",
                text.len()
            ));
        }
        let message: ClientMessage = match serde_json::from_str(text) {
            Ok(message) => message,
            Err(e) => return self.error(&format!("invalid message: {e}")),
        };
        let result = match message {
            ClientMessage::Play(request) => self.new_play(request),
            ClientMessage::Move { text } => self.user_move(&text),
            ClientMessage::Takeback => self.takeback(),
            ClientMessage::Resign => self.resign(),
            ClientMessage::Hint => self.ask_hint(),
            ClientMessage::Goto { ply } => self.goto(ply),
            ClientMessage::Setup { position, rules } => self.setup(position.as_deref(), rules),
            ClientMessage::Analyse {
                on,
                engine,
                multipv,
            } => self.set_analysis(on, engine, multipv),
            ClientMessage::LoadRecord { text, index } => self.load_record(&text, index),
            ClientMessage::Watch {
                goats,
                tigers,
                rules,
                limits,
                from_current,
            } => self.start_watch(goats, tigers, rules, limits, from_current),
            ClientMessage::StopWatch => self.stop_watch(),
            ClientMessage::RestartEngine => self.restart_engine(),
            ClientMessage::Export { format } => self.export(&format),
            ClientMessage::State => Ok(()),
            ClientMessage::Review => self.ask_review(),
            ClientMessage::GenerateTables => self.generate_tables(),
        };
        match result {
            Ok(()) => self.send_state(),
            Err(message) => self.error(&message),
        }
    }

    fn worker_event(&mut self, event: WorkerEvent) {
        match event {
            WorkerEvent::Started(_) => {
                self.fault = None;
                self.resume_engine();
                self.send_state();
            }
            WorkerEvent::Line(serial, line) => self.engine_line(serial, &line),
            WorkerEvent::Verdict(serial, verdict, reply) => {
                self.verdict(serial, verdict, reply);
                self.send_state();
            }
            WorkerEvent::Fault(message) => {
                self.pending = None;
                self.fault = Some(message);
                self.send_state();
            }
        }
    }

    /// Sends a JSON value to the page, if one is connected.
    pub(crate) fn send(&self, value: &Value) {
        if let Some((_, out)) = &self.out {
            let _ = out.send(value.to_string());
        }
    }

    /// Sends an error line to the page.
    pub(crate) fn error(&self, message: &str) {
        if let Some((_, out)) = &self.out {
            let _ = out.send(error_text(message));
        }
    }

    /// The engine worker for engine `index`, started with the options of `profile` after its
    /// own (a level), started (or restarted) when needed.
    pub(crate) fn worker_for(
        &mut self,
        index: usize,
        profile: Vec<(String, String)>,
    ) -> Result<Arc<WorkerHandle>, String> {
        let mut spec = self
            .shared
            .config
            .engines
            .get(index)
            .cloned()
            .ok_or_else(|| {
                format!(
                    "unknown engine {index}: {} configured",
                    self.shared.config.engines.len()
                )
            })?;
        if let Some((current, worker, _)) = &self.worker {
            if *current == index && !worker.is_finished() && self.worker_profile == profile {
                return Ok(Arc::clone(worker));
            }
        }
        self.drop_worker();
        spec.options.extend(profile.iter().cloned());
        self.worker_profile = profile;
        self.generation += 1;
        let generation = self.generation;
        let inputs = self.inputs.clone();
        let worker = spawn_worker(spec, *self.game.rules(), move |event| {
            let _ = inputs.send(Input::Worker(generation, event));
        });
        self.shared.registry.add_worker(&worker);
        self.worker = Some((index, Arc::clone(&worker), generation));
        self.fault = None;
        Ok(worker)
    }

    /// Quits the engine worker in the background.
    pub(crate) fn drop_worker(&mut self) {
        if let Some((_, worker, _)) = self.worker.take() {
            std::thread::spawn(move || worker.quit());
        }
        self.pending = None;
    }

    /// Interrupts whatever the engine is doing.
    pub(crate) fn idle_engine(&mut self) {
        if let Some((_, worker, _)) = &self.worker {
            if self.pending.is_some() {
                worker.submit(Job::Idle);
            }
        }
        self.pending = None;
        self.lines.clear();
    }

    /// A new job serial.
    pub(crate) fn next_serial(&mut self) -> u64 {
        self.serial += 1;
        self.serial
    }

    /// The game up to the position shown.
    pub(crate) fn shown(&self) -> Game {
        prefix(&self.game, self.cursor)
    }

    /// Whether the cursor is at the last move.
    pub(crate) fn at_end(&self) -> bool {
        self.cursor >= self.game.ply()
    }

    /// Clocks as the page shows them: remaining ms, the running one counted down to now.
    fn clock_view(&self) -> Value {
        if self.mode == Mode::Watch {
            return match &self.watch_turn {
                Some((side, [Some(g), Some(t)], at)) if self.ending.is_none() => {
                    let mut ms = [*g, *t];
                    let spent = u64::try_from(at.elapsed().as_millis()).unwrap_or(u64::MAX);
                    ms[side.index()] = ms[side.index()].saturating_sub(spent);
                    json!({"goats_ms": ms[0], "tigers_ms": ms[1], "running": side.to_string()})
                }
                Some((_, [Some(g), Some(t)], _)) => {
                    json!({"goats_ms": g, "tigers_ms": t, "running": null})
                }
                _ => Value::Null,
            };
        }
        let (Some(goats), Some(tigers)) = (&self.clocks[0], &self.clocks[1]) else {
            return Value::Null;
        };
        let mut ms = [goats, tigers].map(|c| u64::try_from(c.remaining().as_millis()).unwrap_or(0));
        let running = (self.mode == Mode::Play && self.ending.is_none() && self.fault.is_none())
            .then(|| self.game.position().side_to_move());
        if let Some(side) = running {
            let spent = u64::try_from(self.turn_started.elapsed().as_millis()).unwrap_or(0);
            ms[side.index()] = ms[side.index()].saturating_sub(spent);
        }
        json!({"goats_ms": ms[0], "tigers_ms": ms[1], "running": running.map(|s| s.to_string())})
    }

    /// Sends the whole state (and keeps the game on disk).
    pub(crate) fn send_state(&mut self) {
        self.save();
        if self.out.is_none() {
            return;
        }
        let shown = self.shown();
        let user_may_move = self.ending.is_none()
            && match self.mode {
                Mode::Play => self.at_end() && self.is_human(shown.position().side_to_move()),
                Mode::Analyse => true,
                Mode::Watch => false,
            };
        let view = GameView::of(&self.game, self.cursor, user_may_move);
        let end = self
            .ending
            .as_ref()
            .map(|(result, termination, reason)| EndView::new(*result, *termination, reason));
        let thinking = match self.pending {
            Some(Pending::Move(_)) => Some(self.game.position().side_to_move().to_string()),
            _ if self.mode == Mode::Watch && self.ending.is_none() => self
                .watch_turn
                .as_ref()
                .map(|(side, _, _)| side.to_string()),
            _ => None,
        };
        let engines: Vec<&str> = self
            .shared
            .config
            .engines
            .iter()
            .map(|s| s.name.as_str())
            .collect();
        self.send(&json!({
            "type": "state",
            "mode": match self.mode { Mode::Play => "play", Mode::Analyse => "analyse", Mode::Watch => "watch" },
            "game": view,
            "rules": self.game.rules().to_string(),
            "players": {"goats": self.players[0], "tigers": self.players[1]},
            "human": self.human.map(|s| s.to_string()),
            "people": self.people,
            "level": self.play.as_ref().and_then(|p| p.level).map(|l| l.label()),
            "review": self.review,
            "notice": self.notice,
            "tables": self.shared.tables.view(self.game.rules()),
            "explorer": self.explorer(&shown),
            "clocks": self.clock_view(),
            "thinking": thinking,
            "end": end,
            "fault": self.fault,
            "hint": self.hint,
            "analysis": {"on": self.analysis_on, "multipv": self.multipv, "lines": self.lines,
                          "engine": self.worker.as_ref().map(|(i, _, _)| engines.get(*i).copied())},
            "engines": engines,
        }));
    }
}

/// An error message as the page gets it.
pub fn error_text(message: &str) -> String {
    json!({"type": "error", "message": message}).to_string()
}

/// How long past a human's clock the flag falls (network and drawing).
pub const HUMAN_MARGIN: Duration = Duration::from_millis(100);
