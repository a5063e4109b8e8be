//! Runs the scheduled games on worker threads, each owning its engine processes, and hands
//! finished games to a [`Sink`] in game-number order whatever the concurrency.

use super::adjudication::Adjudication;
use super::engine_process::{EngineError, EngineProcess, Timeouts};
use super::game::{play_game, GameEnd, GameSetup};
use super::openings::Opening;
use super::record::GameRecord;
use super::schedule::ScheduledGame;
use super::spec::EngineSpec;
use super::tb_adjudication::TbAdjudicator;
use super::wire_log::MatchLog;
use crate::{Rules, Side};
use std::collections::{BTreeMap, VecDeque};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};

/// Everything a match needs to run.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The engines.
    pub specs: Vec<EngineSpec>,
    /// The openings the schedule refers to.
    pub openings: Vec<Opening>,
    /// The games to play (after shard and resume filtering), in game-number order.
    pub games: Vec<ScheduledGame>,
    /// The rule variant.
    pub rules: Rules,
    /// Adjudication rules.
    pub adjudication: Adjudication,
    /// Tablebase adjudication (`-tb`), shared by all workers.
    pub tablebase: Option<Arc<TbAdjudicator>>,
    /// Handshake, stall and grace timeouts.
    pub timeouts: Timeouts,
    /// Engines that declare `Ponder` think on their opponent's time (`-pondering`).
    pub pondering: bool,
    /// Games played at once.
    pub concurrency: usize,
    /// Pause of a worker between two of its games (`-wait`).
    pub wait: std::time::Duration,
    /// Event tag.
    pub event: String,
    /// Site tag.
    pub site: String,
    /// The match log every engine's lines are written to (`-log`).
    pub engine_log: Option<Arc<MatchLog>>,
}

/// What the runner tells its sink.
pub trait Sink {
    /// A game has started (any order).
    fn started(&mut self, game: &ScheduledGame);
    /// A game has finished (game-number order); `unusable` is the side whose engine it left
    /// unusable (killed; restarted for its next game), if any. Returning false stops the match:
    /// no new game starts and running ones are abandoned.
    fn finished(&mut self, record: &GameRecord, unusable: Option<Side>) -> bool;
}

/// How a run ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RunEnd {
    /// Every scheduled game was played.
    Completed,
    /// The sink asked to stop (SPRT decision, an engine left unusable without `--recover`).
    Stopped,
    /// The stop flag was set from outside (Ctrl-C).
    Interrupted,
}

enum Message {
    Started(ScheduledGame),
    Done(u64, GameEnd),
}

/// Starts an engine and does its handshake with its options and the match rules.
///
/// # Errors
/// The engine error.
pub fn start_engine(
    spec: &EngineSpec,
    rules: &Rules,
    timeouts: &Timeouts,
    stop: &AtomicBool,
) -> Result<EngineProcess, EngineError> {
    start_engine_logged(spec, rules, timeouts, stop, None)
}

/// [`start_engine`], writing every line to and from the engine to `log` from the start.
///
/// # Errors
/// The engine error.
pub fn start_engine_logged(
    spec: &EngineSpec,
    rules: &Rules,
    timeouts: &Timeouts,
    stop: &AtomicBool,
    log: Option<Arc<MatchLog>>,
) -> Result<EngineProcess, EngineError> {
    let mut engine = EngineProcess::spawn(&spec.name, &spec.command)?;
    engine.set_wire_log(log);
    let mut options = spec.options.clone();
    options.push(("ForcedCapture".into(), rules.forced_capture.to_string()));
    options.push(("CapturesToWin".into(), rules.captures_to_win.to_string()));
    options.push(("Repetition".into(), rules.repetition.to_string()));
    engine.handshake(&options, timeouts.handshake, stop)?;
    Ok(engine)
}

fn play_one(
    config: &MatchConfig,
    scheduled: &ScheduledGame,
    engines: &mut [Option<EngineProcess>],
    stop: &AtomicBool,
) -> GameEnd {
    let setup = GameSetup {
        number: scheduled.number,
        pair: scheduled.pair,
        round: scheduled.round,
        event: &config.event,
        site: &config.site,
        opening: &config.openings[scheduled.opening],
        rules: config.rules,
        goat: &config.specs[scheduled.goat],
        tiger: &config.specs[scheduled.tiger],
        adjudication: config.adjudication,
        tablebase: config.tablebase.as_deref(),
        timeouts: config.timeouts,
        pondering: config.pondering,
    };
    for (side, index) in [
        (Side::Goats, scheduled.goat),
        (Side::Tigers, scheduled.tiger),
    ] {
        if engines[index].is_none() {
            let log = config.engine_log.clone();
            match start_engine_logged(
                &config.specs[index],
                &config.rules,
                &config.timeouts,
                stop,
                log,
            ) {
                Ok(engine) => engines[index] = Some(engine),
                Err(error) => return setup.setup_failure(side, &error),
            }
        }
    }
    let mut goat = engines[scheduled.goat].take().expect("started above");
    let mut tiger = engines[scheduled.tiger].take().expect("started above");
    let end = play_game(&setup, [&mut goat, &mut tiger], stop);
    engines[scheduled.goat] = Some(goat);
    engines[scheduled.tiger] = Some(tiger);
    if let GameEnd::Finished(_, Some(side)) = &end {
        let index = if *side == Side::Goats {
            scheduled.goat
        } else {
            scheduled.tiger
        };
        if let Some(mut engine) = engines[index].take() {
            log::info!(
                "{}: unusable after game {}; killed, restarted for its next game",
                config.specs[index].name,
                scheduled.number
            );
            engine.kill();
        }
    }
    // A ponder search that did not end at the game's end: the engine cannot start the next.
    // (An interrupted run shuts every engine down anyway.)
    let finished = matches!(end, GameEnd::Finished(..));
    for index in [scheduled.goat, scheduled.tiger] {
        if finished
            && engines[index]
                .as_ref()
                .is_some_and(EngineProcess::is_pondering)
        {
            log::warn!(
                "{}: its ponder search did not stop after game {}; killed, restarted for its next game",
                config.specs[index].name,
                scheduled.number
            );
            if let Some(mut engine) = engines[index].take() {
                engine.kill();
            }
        }
    }
    // restart=on: a fresh process for the engine's next game.
    for index in [scheduled.goat, scheduled.tiger] {
        if config.specs[index].restart {
            if let Some(engine) = engines[index].take() {
                engine.shutdown(config.timeouts.grace);
            }
        }
    }
    end
}

fn worker(
    config: &MatchConfig,
    queue: &Mutex<VecDeque<ScheduledGame>>,
    sender: &mpsc::Sender<Message>,
    stop: &AtomicBool,
) {
    let mut engines: Vec<Option<EngineProcess>> = config.specs.iter().map(|_| None).collect();
    while !stop.load(Ordering::Relaxed) {
        let Some(scheduled) = queue.lock().expect("queue lock").pop_front() else {
            break;
        };
        let _ = sender.send(Message::Started(scheduled));
        let end = play_one(config, &scheduled, &mut engines, stop);
        let _ = sender.send(Message::Done(scheduled.number, end));
        pause(config.wait, stop);
    }
    for engine in engines.into_iter().flatten() {
        engine.shutdown(config.timeouts.grace);
    }
}

/// Sleeps `wait` (cutechess's `-wait`), waking early when `stop` is set.
fn pause(wait: std::time::Duration, stop: &AtomicBool) {
    let until = std::time::Instant::now() + wait;
    while !stop.load(Ordering::Relaxed) && std::time::Instant::now() < until {
        std::thread::sleep(std::time::Duration::from_millis(5).min(wait));
    }
}

/// Plays the match. `stop` may be set from outside (Ctrl-C): running games are abandoned (not
/// recorded), engines are shut down, and games already finished still reach the sink.
pub fn run_match(config: &MatchConfig, sink: &mut dyn Sink, stop: &AtomicBool) -> RunEnd {
    let queue = Mutex::new(config.games.iter().copied().collect::<VecDeque<_>>());
    let order: Vec<u64> = config.games.iter().map(|g| g.number).collect();
    let (sender, receiver) = mpsc::channel();
    let mut stopped_by_sink = false;
    std::thread::scope(|scope| {
        for index in 0..config.concurrency.max(1).min(config.games.len().max(1)) {
            let sender = sender.clone();
            let queue = &queue;
            std::thread::Builder::new()
                .name(format!("game-worker-{index}"))
                .spawn_scoped(scope, move || worker(config, queue, &sender, stop))
                .expect("a worker thread starts");
        }
        drop(sender);
        let mut pending: BTreeMap<u64, GameEnd> = BTreeMap::new();
        let mut next = 0;
        let mut accepting = true;
        for message in receiver {
            match message {
                Message::Started(game) => sink.started(&game),
                Message::Done(number, end) => {
                    pending.insert(number, end);
                }
            }
            while next < order.len() {
                let Some(end) = pending.remove(&order[next]) else {
                    break;
                };
                next += 1;
                if let (GameEnd::Finished(record, unusable), true) = (end, accepting) {
                    if !sink.finished(&record, unusable) {
                        accepting = false;
                        stopped_by_sink = true;
                        stop.store(true, Ordering::Relaxed);
                    }
                }
            }
        }
        // Stopped early: the games that did finish are still reported, in order.
        if accepting {
            for end in pending.into_values() {
                if let GameEnd::Finished(record, unusable) = end {
                    if !sink.finished(&record, unusable) {
                        break;
                    }
                }
            }
        }
    });
    if stopped_by_sink {
        RunEnd::Stopped
    } else if stop.load(Ordering::Relaxed) {
        RunEnd::Interrupted
    } else {
        RunEnd::Completed
    }
}
