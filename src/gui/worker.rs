//! A thread that owns one engine process (the referee's [`EngineProcess`]) and runs jobs for
//! the session: a move or a hint under limits (answer judged by the referee's
//! [`judge`]), or continuous analysis (`go infinite` until superseded). A new job interrupts
//! the running one: the engine gets `stop` and its `bestmove` is read and dropped.

use crate::referee::engine_process::{EngineError, EngineProcess, SearchReply, Timeouts};
use crate::referee::game::{go_command, position_command};
use crate::referee::outcome::{judge, Verdict};
use crate::referee::runner::start_engine;
use crate::referee::spec::EngineSpec;
use crate::referee::time_control::{Clock, Limits};
use crate::{Game, Rules};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// What the engine is asked to do.
#[derive(Clone, Debug)]
pub enum Job {
    /// Choose a move in `game` under `limits` and `clocks` (a move to play, or a hint).
    Search {
        /// The game (its rules are sent first when they changed).
        game: Game,
        /// Thinking limits.
        limits: Limits,
        /// Both clocks (goats first), when the game is timed.
        clocks: Box<[Option<Clock>; 2]>,
        /// Tag echoed in the answer.
        serial: u64,
    },
    /// Think about `game` until superseded, with `multipv` lines.
    Analyse {
        /// The game.
        game: Game,
        /// Lines wanted (MultiPV).
        multipv: u32,
        /// Tag echoed in the `info` lines.
        serial: u64,
    },
    /// Stop what runs and wait.
    Idle,
    /// Kill the engine (if running) and start it again.
    Restart,
    /// Shut the engine down and end the thread.
    Quit,
}

/// What the worker reports.
#[derive(Clone, Debug)]
pub enum WorkerEvent {
    /// The engine is running (after a start or restart): its `id name`.
    Started(Option<String>),
    /// An engine output line during job `serial`.
    Line(u64, String),
    /// The referee's verdict on the answer to [`Job::Search`] `serial`, with the reply.
    Verdict(u64, Verdict, Option<SearchReply>),
    /// The engine failed outside a judged search, or cannot be used: why.
    Fault(String),
}

/// The session's side of a worker thread.
pub struct WorkerHandle {
    jobs: Sender<(Job, Arc<AtomicBool>)>,
    /// The interrupt flag of the newest job: each job has its own, so that interrupting one
    /// can never reach the next.
    current: Mutex<Arc<AtomicBool>>,
    thread: Mutex<Option<JoinHandle<()>>>,
}

impl WorkerHandle {
    /// Queues `job`, interrupting the running one.
    pub fn submit(&self, job: Job) {
        let flag = Arc::new(AtomicBool::new(false));
        {
            let mut current = self.current.lock().expect("worker lock");
            current.store(true, Ordering::SeqCst);
            *current = Arc::clone(&flag);
        }
        let _ = self.jobs.send((job, flag));
    }

    /// Asks the thread to quit and waits for it (the engine is stopped and killed).
    pub fn quit(&self) {
        self.submit(Job::Quit);
        let thread = self.thread.lock().expect("worker lock").take();
        if let Some(thread) = thread {
            let _ = thread.join();
        }
    }

    /// Whether the thread has ended.
    pub fn is_finished(&self) -> bool {
        self.thread
            .lock()
            .expect("worker lock")
            .as_ref()
            .is_none_or(JoinHandle::is_finished)
    }
}

/// Starts a worker for `spec`; `report` receives its events. The engine starts at once.
pub fn spawn_worker(
    spec: EngineSpec,
    rules: Rules,
    report: impl Fn(WorkerEvent) + Send + Sync + 'static,
) -> Arc<WorkerHandle> {
    let (jobs, receiver) = mpsc::channel();
    let thread = std::thread::Builder::new()
        .name(format!("gui-engine-{}", spec.name))
        .spawn(move || {
            let mut worker = Worker {
                spec,
                rules,
                engine: None,
                multipv: 1,
                interrupt: Arc::new(AtomicBool::new(false)),
                report: Arc::new(report),
            };
            worker.start();
            worker.run(&receiver);
        })
        .expect("cannot start an engine thread");
    Arc::new(WorkerHandle {
        jobs,
        current: Mutex::new(Arc::new(AtomicBool::new(false))),
        thread: Mutex::new(Some(thread)),
    })
}

struct Worker {
    spec: EngineSpec,
    rules: Rules,
    engine: Option<EngineProcess>,
    multipv: u32,
    /// The running job's interrupt flag.
    interrupt: Arc<AtomicBool>,
    report: Arc<dyn Fn(WorkerEvent) + Send + Sync>,
}

/// How long the engine gets to answer `stop` before it is killed.
const STOP_GRACE: Duration = Duration::from_secs(3);

impl Worker {
    fn timeouts() -> Timeouts {
        Timeouts::default()
    }

    fn start(&mut self) {
        let never = AtomicBool::new(false);
        match start_engine(&self.spec, &self.rules, &Self::timeouts(), &never) {
            Ok(engine) => {
                (self.report)(WorkerEvent::Started(engine.id_name.clone()));
                self.engine = Some(engine);
                self.multipv = 1;
            }
            Err(error) => self.fail(&format!("engine \"{}\": {error}", self.spec.name)),
        }
    }

    fn fail(&mut self, message: &str) {
        if let Some(mut engine) = self.engine.take() {
            engine.kill();
        }
        (self.report)(WorkerEvent::Fault(message.to_string()));
    }

    fn run(&mut self, jobs: &Receiver<(Job, Arc<AtomicBool>)>) {
        while let Ok((mut job, mut flag)) = jobs.recv() {
            // Only the newest job matters (a Quit anywhere wins).
            while let Ok((newer, newer_flag)) = jobs.try_recv() {
                if matches!(job, Job::Quit) {
                    break;
                }
                (job, flag) = (newer, newer_flag);
            }
            self.interrupt = flag;
            match job {
                Job::Quit => break,
                Job::Idle => {}
                Job::Restart => {
                    if let Some(mut engine) = self.engine.take() {
                        engine.kill();
                    }
                    self.start();
                }
                Job::Search {
                    game,
                    limits,
                    clocks,
                    serial,
                } => self.search(&game, &limits, &clocks, serial),
                Job::Analyse {
                    game,
                    multipv,
                    serial,
                } => self.analyse(&game, multipv, serial),
            }
        }
        if let Some(engine) = self.engine.take() {
            engine.shutdown(Self::timeouts().grace);
        }
    }

    /// The running engine set up for `rules` and `multipv`, or None after reporting why not.
    fn prepare(&mut self, rules: Rules, multipv: u32) -> Option<&mut EngineProcess> {
        let Some(engine) = self.engine.as_mut() else {
            (self.report)(WorkerEvent::Fault(format!(
                "engine \"{}\" is not running: restart it",
                self.spec.name
            )));
            return None;
        };
        let mut lines = Vec::new();
        if rules != self.rules {
            lines.push("ucinewgame".to_string());
            lines.push(format!(
                "setoption name ForcedCapture value {}",
                rules.forced_capture
            ));
            lines.push(format!(
                "setoption name CapturesToWin value {}",
                rules.captures_to_win
            ));
            lines.push(format!(
                "setoption name Repetition value {}",
                rules.repetition
            ));
        }
        if multipv != self.multipv {
            lines.push(format!("setoption name MultiPV value {multipv}"));
        }
        if lines.is_empty() {
            return self.engine.as_mut();
        }
        let never = AtomicBool::new(false);
        let result = lines
            .iter()
            .try_for_each(|line| engine.send(line))
            .and_then(|()| engine.sync(Self::timeouts().handshake, &never));
        match result {
            Ok(()) => {
                self.rules = rules;
                self.multipv = multipv;
                self.engine.as_mut()
            }
            Err(error) => {
                self.fail(&format!("engine \"{}\": {error}", self.spec.name));
                None
            }
        }
    }

    fn search(&mut self, game: &Game, limits: &Limits, clocks: &[Option<Clock>; 2], serial: u64) {
        let report = Arc::clone(&self.report);
        let interrupt = Arc::clone(&self.interrupt);
        let Some(engine) = self.prepare(*game.rules(), 1) else {
            return;
        };
        let side = game.position().side_to_move();
        let (go, deadline, allowed) = go_command(side, limits, clocks, Self::timeouts().stall);
        let position = position_command(game.start_position(), game);
        let observer = Arc::clone(&report);
        engine.set_line_observer(Some(Box::new(move |line: &str| {
            observer(WorkerEvent::Line(serial, line.to_string()));
        })));
        let reply = engine.go(&position, &go, allowed, &interrupt);
        engine.set_line_observer(None);
        if let Err(EngineError::Interrupted) = reply {
            self.stop_search();
            return;
        }
        let verdict = judge(&reply, deadline, game);
        if let Verdict::Fault(..) = verdict {
            if let Some(mut engine) = self.engine.take() {
                engine.kill();
            }
        }
        report(WorkerEvent::Verdict(serial, verdict, reply.ok()));
    }

    fn analyse(&mut self, game: &Game, multipv: u32, serial: u64) {
        let report = Arc::clone(&self.report);
        let interrupt = Arc::clone(&self.interrupt);
        let name = self.spec.name.clone();
        let Some(engine) = self.prepare(*game.rules(), multipv) else {
            return;
        };
        let position = position_command(game.start_position(), game);
        if engine
            .send(&position)
            .and_then(|()| engine.send("go infinite"))
            .is_err()
        {
            self.fail(&format!(
                "engine \"{name}\" disconnected (crashed or exited)"
            ));
            return;
        }
        let started = Instant::now();
        loop {
            let deadline = Instant::now() + Duration::from_millis(200);
            match engine.read_line(deadline, "bestmove", started, &interrupt) {
                Ok(line) if line.starts_with("bestmove") => return,
                Ok(line) => report(WorkerEvent::Line(serial, line)),
                Err(EngineError::Timeout { .. }) => {}
                Err(EngineError::Interrupted) => {
                    self.stop_search();
                    return;
                }
                Err(error) => {
                    self.fail(&format!("engine \"{name}\": {error}"));
                    return;
                }
            }
        }
    }

    /// Sends `stop` and reads up to the `bestmove`; kills the engine if none comes.
    fn stop_search(&mut self) {
        let Some(engine) = self.engine.as_mut() else {
            return;
        };
        let never = AtomicBool::new(false);
        let started = Instant::now();
        let deadline = started + STOP_GRACE;
        let stopped = engine.send("stop").and_then(|()| loop {
            let line = engine.read_line(deadline, "bestmove", started, &never)?;
            if line.starts_with("bestmove") {
                break Ok(());
            }
        });
        if let Err(error) = stopped {
            let message = format!("engine \"{}\" after stop: {error}", self.spec.name);
            self.fail(&message);
        }
    }
}
