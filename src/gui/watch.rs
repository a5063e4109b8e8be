//! Watch: two configured engines play each other in the referee's own game loop
//! ([`play_game_observed`]) on a thread, with every turn, move and engine line reported live.

use crate::referee::adjudication::Adjudication;
use crate::referee::engine_process::Timeouts;
use crate::referee::game::{play_game_observed, GameEnd, GameObserver, GameSetup};
use crate::referee::openings::Opening;
use crate::referee::record::RecordedMove;
use crate::referee::runner::start_engine;
use crate::referee::spec::EngineSpec;
use crate::referee::time_control::Clock;
use crate::{Game, Side};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

/// What a watched game reports.
#[derive(Clone, Debug)]
pub enum WatchEvent {
    /// `side` is thinking; both clocks' remaining milliseconds (goats first), when timed.
    Turn(Side, [Option<u64>; 2]),
    /// A move was played.
    Moved(RecordedMove),
    /// A line from `side`'s engine.
    Line(Side, String),
    /// The game is over (or was stopped: [`GameEnd::Interrupted`]).
    Ended(GameEnd),
}

/// A watched game running on its own thread.
pub struct WatchHandle {
    interrupt: Arc<AtomicBool>,
    thread: Mutex<Option<JoinHandle<()>>>,
}

impl WatchHandle {
    /// Stops the game (not recorded) and waits until both engines are shut down.
    pub fn stop(&self) {
        self.interrupt.store(true, Ordering::SeqCst);
        let thread = self.thread.lock().expect("watch lock").take();
        if let Some(thread) = thread {
            let _ = thread.join();
        }
    }

    /// Whether the thread has ended.
    pub fn is_finished(&self) -> bool {
        self.thread
            .lock()
            .expect("watch lock")
            .as_ref()
            .is_none_or(JoinHandle::is_finished)
    }
}

struct Reporter(Arc<dyn Fn(WatchEvent) + Send + Sync>);

impl GameObserver for Reporter {
    fn turn(&mut self, side: Side, clocks: &[Option<Clock>; 2]) {
        let ms = |clock: &Option<Clock>| {
            clock.map(|c| u64::try_from(c.remaining().as_millis()).unwrap_or(u64::MAX))
        };
        (self.0)(WatchEvent::Turn(side, [ms(&clocks[0]), ms(&clocks[1])]));
    }

    fn moved(&mut self, _game: &Game, mv: &RecordedMove) {
        (self.0)(WatchEvent::Moved(mv.clone()));
    }
}

/// Most plies of a watched game before it is drawn (the referee's default).
const MAX_PLIES: u32 = 400;

/// Starts `goat` against `tiger` from `game` (its moves are played as book moves), reporting to
/// `report`.
pub fn spawn_watch(
    goat: EngineSpec,
    tiger: EngineSpec,
    game: &Game,
    report: impl Fn(WatchEvent) + Send + Sync + 'static,
) -> Arc<WatchHandle> {
    let interrupt = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&interrupt);
    let opening = Opening {
        start: *game.start_position(),
        moves: game.moves().to_vec(),
    };
    let rules = *game.rules();
    let report: Arc<dyn Fn(WatchEvent) + Send + Sync> = Arc::new(report);
    let thread = std::thread::Builder::new()
        .name("gui-watch".into())
        .spawn(move || {
            let setup = GameSetup {
                number: 1,
                pair: 1,
                round: 1,
                event: "baghchal gui",
                site: "baghchal gui",
                opening: &opening,
                rules,
                goat: &goat,
                tiger: &tiger,
                adjudication: Adjudication {
                    max_plies: MAX_PLIES,
                    draw: None,
                    resign: None,
                },
                tablebase: None,
                timeouts: Timeouts::default(),
                pondering: false,
            };
            let mut engines = Vec::new();
            for side in [Side::Goats, Side::Tigers] {
                match start_engine(setup.spec(side), &rules, &setup.timeouts, &flag) {
                    Ok(mut engine) => {
                        let sink = Arc::clone(&report);
                        engine.set_line_observer(Some(Box::new(move |line: &str| {
                            sink(WatchEvent::Line(side, line.to_string()));
                        })));
                        engines.push(engine);
                    }
                    Err(error) => {
                        report(WatchEvent::Ended(setup.setup_failure(side, &error)));
                        return;
                    }
                }
            }
            let mut tiger_engine = engines.pop().expect("two engines");
            let mut goat_engine = engines.pop().expect("two engines");
            let end = play_game_observed(
                &setup,
                [&mut goat_engine, &mut tiger_engine],
                &flag,
                &mut Reporter(Arc::clone(&report)),
            );
            for engine in [goat_engine, tiger_engine] {
                engine.shutdown(setup.timeouts.grace);
            }
            report(WatchEvent::Ended(end));
        })
        .expect("cannot start the watch thread");
    Arc::new(WatchHandle {
        interrupt,
        thread: Mutex::new(Some(thread)),
    })
}

use super::info::read_info;
use super::messages::{LimitsMessage, RulesMessage};
use super::session::{Input, Mode, Session};
use crate::referee::game::GameEnd as End;
use serde_json::json;
use std::time::Instant;

impl Session {
    /// Starts engine `goats` against engine `tigers`.
    pub(crate) fn start_watch(
        &mut self,
        goats: usize,
        tigers: usize,
        rules: RulesMessage,
        limits: Option<LimitsMessage>,
        from_current: bool,
    ) -> Result<(), String> {
        let rules = rules.rules()?;
        let engines = &self.shared.config.engines;
        let spec = |index: usize| {
            engines
                .get(index)
                .cloned()
                .ok_or_else(|| format!("unknown engine {index}: {} configured", engines.len()))
        };
        let (mut goat, mut tiger) = (spec(goats)?, spec(tigers)?);
        if let Some(limits) = limits {
            let limits = limits.limits()?;
            goat.limits = limits.clone();
            tiger.limits = limits;
        }
        if goat.name == tiger.name {
            goat.name = format!("{} (goats)", goat.name);
            tiger.name = format!("{} (tigers)", tiger.name);
        }
        let start = if from_current {
            let shown = self.shown();
            let mut game = Game::new(*shown.start_position(), rules);
            for &mv in shown.moves() {
                game.play(mv)
                    .map_err(|e| format!("the game shown under these rules: {e}"))?;
            }
            game
        } else {
            Game::startpos(rules)
        };
        if let Some(outcome) = start.outcome() {
            return Err(format!("that position is already over: {outcome}"));
        }
        self.stop_watch_quietly();
        self.idle_engine();
        self.analysis_on = false;
        self.mode = Mode::Watch;
        self.human = None;
        self.people = false;
        self.play = None;
        self.review = None;
        self.clocks = [None, None];
        self.ending = None;
        self.fault = None;
        self.recorded = self.recorded.iter().take(start.ply()).cloned().collect();
        self.players = [goat.name.clone(), tiger.name.clone()];
        self.limits = goat.limits.clone();
        self.game = start.clone();
        self.cursor = self.game.ply();
        self.watch_turn = None;
        self.generation += 1;
        let generation = self.generation;
        let inputs = self.inputs.clone();
        let handle = spawn_watch(goat, tiger, &start, move |event| {
            let _ = inputs.send(Input::Watch(generation, event));
        });
        self.shared.registry.add_watch(&handle);
        self.watch = Some((handle, generation));
        Ok(())
    }

    /// Stops the watched game (it is not recorded).
    pub(crate) fn stop_watch(&mut self) -> Result<(), String> {
        if self.watch.is_none() || self.ending.is_some() {
            return Err("no game between engines is running".into());
        }
        self.stop_watch_quietly();
        Ok(())
    }

    /// Stops the watched game, if any, in the background.
    pub(crate) fn stop_watch_quietly(&mut self) {
        if let Some((handle, _)) = self.watch.take() {
            std::thread::spawn(move || handle.stop());
        }
        self.watch_turn = None;
    }

    /// An event of the watched game.
    pub(crate) fn watch_event(&mut self, event: WatchEvent) {
        match event {
            WatchEvent::Turn(side, clocks) => {
                self.watch_turn = Some((side, clocks, Instant::now()));
                self.lines.clear();
                self.send_state();
            }
            WatchEvent::Line(side, line) => {
                if side != self.game.position().side_to_move() {
                    return;
                }
                if let Some(info) = read_info(&line, &self.game) {
                    self.send(&json!({"type": "engine_info", "side": side.to_string(), "ply": self.game.ply(), "line": info}));
                }
            }
            WatchEvent::Moved(played) => {
                let follow = self.at_end();
                self.game.play_unchecked(played.mv);
                self.recorded.push(played);
                if follow {
                    self.cursor = self.game.ply();
                }
                self.send_state();
            }
            WatchEvent::Ended(End::Finished(record, _)) => {
                self.ending = Some((record.result, record.termination, record.reason.clone()));
                if let Some((side, clocks, at)) = self.watch_turn.take() {
                    let mut clocks = clocks;
                    if let Some(ms) = &mut clocks[side.index()] {
                        *ms =
                            ms.saturating_sub(u64::try_from(at.elapsed().as_millis()).unwrap_or(0));
                    }
                    self.watch_turn = Some((side, clocks, Instant::now()));
                }
                self.send_state();
            }
            WatchEvent::Ended(End::Interrupted) => {}
        }
    }
}
