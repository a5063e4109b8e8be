//! The protocol session: one command line in, protocol lines out. No I/O of its own, so it can
//! be driven in-process; see [`crate::protocol::run`] for the stdin/stdout wiring.

use super::command::{parse_line, Command};
use super::error::CommandError;
use super::go::GoParams;
use super::options::{Effect, Settings, OPTIONS};
use super::output::{info_string, printable, Output, MAX_MESSAGE_CHARS};
use super::report::{self, Job};
use super::slot::{Observer, SearchSlot};
use crate::engine::{Engine, Limits, SearchResult, TablebaseStatus};
use crate::{Game, Move, Position, Rules};
use std::sync::Arc;

/// Whether the session goes on after a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Keep reading.
    Continue,
    /// `quit`: the caller should call [`Session::shutdown`] and exit.
    Quit,
}

/// The engine, the game to search next, the option values, and what runs in the background.
pub struct Session {
    out: Arc<dyn Output>,
    engine: Engine,
    settings: Settings,
    game: Game,
    search: Option<Arc<SearchSlot>>,
    job: Option<Job>,
    debug: bool,
}

impl Session {
    /// A session at the start position with default options, writing to `out`.
    pub fn new(out: Arc<dyn Output>) -> Session {
        let settings = Settings::default();
        Session {
            out,
            engine: Engine::new(settings.engine.clone()),
            game: Game::startpos(settings.engine.rules),
            settings,
            search: None,
            job: None,
            debug: false,
        }
    }

    /// The game the next `go` searches.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The current option values.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// Whether a search (until its `bestmove`), a perft or a bench is running.
    pub fn is_busy(&self) -> bool {
        self.search.as_ref().is_some_and(|slot| !slot.is_done())
            || self.job.as_ref().is_some_and(|job| !job.is_done())
    }

    /// Handles one input line. Errors are printed as `info string error: ...`; nothing changes.
    pub fn handle_line(&mut self, line: &str) -> Flow {
        let result = parse_line(line).and_then(|command| match command {
            Some(command) => self.execute(command),
            None => Ok(Flow::Continue),
        });
        result.unwrap_or_else(|error| {
            self.error(&error);
            Flow::Continue
        })
    }

    /// Reports an error found outside [`Session::handle_line`] (e.g. by the line reader).
    pub fn error(&self, error: &CommandError) {
        let message = printable(&error.to_string(), MAX_MESSAGE_CHARS);
        self.out.line(&format!("info string error: {message}"));
    }

    /// `quit`: ends a running search (its `bestmove` is printed) and waits for it. A running
    /// perft or bench is abandoned (it dies with the process).
    pub fn shutdown(&mut self) {
        self.stop_search();
    }

    /// End of input: like [`Session::shutdown`], but a running perft or bench is waited for, so
    /// `echo "go perft 6" | baghchal` prints its result.
    pub fn finish_input(&mut self) {
        self.stop_search();
        if let Some(job) = self.job.take() {
            job.join();
        }
    }

    fn execute(&mut self, command: Command) -> Result<Flow, CommandError> {
        match command {
            Command::Uci => self.uci(),
            Command::Debug(on) => self.debug = on,
            Command::IsReady => self.out.line("readyok"),
            Command::SetOption { name, value } => self.set_option(&name, value.as_deref())?,
            Command::Register => {}
            Command::UciNewGame => {
                self.require_idle("ucinewgame")?;
                self.engine.new_game();
                self.game = Game::startpos(self.settings.engine.rules);
            }
            Command::Position { start, moves } => {
                self.game = build_game(start, &moves, self.settings.engine.rules)?;
            }
            Command::Go(params) => self.go(params)?,
            Command::Perft(depth) => {
                self.require_idle("go perft")?;
                self.job = Some(report::spawn_perft(
                    self.out.clone(),
                    self.game.clone(),
                    depth,
                ));
            }
            Command::Bench(depth) => {
                self.require_idle("bench")?;
                self.job = Some(report::spawn_bench(self.out.clone(), depth));
            }
            Command::Stop => self.stop_search(),
            Command::PonderHit => {
                if let Some(slot) = self.search.as_ref().filter(|slot| slot.is_pondering()) {
                    self.engine.ponderhit();
                    slot.release(false);
                }
            }
            Command::Quit => {
                self.shutdown();
                return Ok(Flow::Quit);
            }
            Command::Display => report::display(self.out.as_ref(), &self.game),
            Command::Eval => {
                self.require_idle("eval")?;
                self.engine.set_game(self.game.clone());
                report::eval(self.out.as_ref(), &self.engine.eval_terms());
            }
        }
        Ok(Flow::Continue)
    }

    fn require_idle(&mut self, command: &'static str) -> Result<(), CommandError> {
        if self.is_busy() {
            return Err(CommandError::Busy { command });
        }
        if let Some(job) = self.job.take() {
            job.join();
        }
        Ok(())
    }

    fn uci(&self) {
        self.out
            .line(&format!("id name baghchal {}", env!("CARGO_PKG_VERSION")));
        self.out.line("id author the baghchal developers");
        for spec in &OPTIONS {
            self.out.line(&spec.uci_line());
        }
        self.out.line("uciok");
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) -> Result<(), CommandError> {
        self.require_idle("setoption")?;
        let (next, effect) = self.settings.with_option(name, value)?;
        match effect {
            Effect::ClearHash => {
                self.engine.new_game();
                return Ok(());
            }
            Effect::Rules => {
                let game = build_game(
                    *self.game.start_position(),
                    self.game.moves(),
                    next.engine.rules,
                )
                .map_err(|error| {
                    CommandError::GameInvalidUnderRules(format!(
                        "the current game is not valid under {}: {error}; send position first",
                        next.engine.rules
                    ))
                })?;
                self.game = game;
            }
            Effect::Apply => {}
        }
        let tables_changed = next.engine.tablebase_path != self.settings.engine.tablebase_path;
        self.engine.set_options(next.engine.clone());
        self.settings = next;
        if tables_changed || effect == Effect::Rules {
            self.report_tablebase_status();
        }
        Ok(())
    }

    /// Says whether the tables in use could be opened: an error when they could not (the engine
    /// then plays without them), the directory and rules when they were.
    fn report_tablebase_status(&self) {
        match self.engine.tablebase_status() {
            TablebaseStatus::Off => {}
            status @ TablebaseStatus::Loaded { .. } => {
                info_string(self.out.as_ref(), &status.to_string())
            }
            status @ TablebaseStatus::Failed { .. } => {
                info_string(self.out.as_ref(), &format!("error: {status}"))
            }
        }
    }

    fn go(&mut self, params: GoParams) -> Result<(), CommandError> {
        self.require_idle("go")?;
        for (index, &mv) in params.search_moves.iter().enumerate() {
            self.game
                .check_move(mv)
                .map_err(|error| CommandError::IllegalMove {
                    list: "searchmoves",
                    index,
                    error,
                })?;
        }
        let slot = SearchSlot::new(
            self.out.clone(),
            self.game.clone(),
            params.infinite,
            params.ponder,
        );
        self.search = Some(slot.clone());
        if let Some(outcome) = self.game.outcome() {
            info_string(self.out.as_ref(), &format!("game over: {outcome}"));
            slot.finish(&SearchResult {
                best_move: None,
                ponder_move: None,
                info: None,
            });
            return Ok(());
        }
        let limits = Limits {
            depth: params.depth_limit(),
            nodes: params.nodes,
            movetime: params.movetime,
            infinite: params.infinite,
            ponder: params.ponder,
            time_left: params.time_left,
            increment: params.increment,
            moves_to_go: params.moves_to_go,
            search_moves: params.search_moves,
        };
        if self.debug {
            info_string(
                self.out.as_ref(),
                &format!("debug: searching {} with {limits:?}", self.game.position()),
            );
        }
        self.engine.set_game(self.game.clone());
        self.engine.go(limits, Box::new(Observer::new(slot)));
        Ok(())
    }

    /// `stop`: lifts the holds, stops the engine and waits, so `bestmove` is out when it returns.
    fn stop_search(&mut self) {
        if let Some(slot) = self.search.take() {
            slot.release(true);
            self.engine.stop();
            self.engine.wait();
        }
    }
}

/// The game from `start` through `moves` under `rules`.
///
/// # Errors
/// [`CommandError::IllegalMove`] for the first illegal move, with its index.
pub fn build_game(start: Position, moves: &[Move], rules: Rules) -> Result<Game, CommandError> {
    let mut game = Game::new(start, rules);
    for (index, &mv) in moves.iter().enumerate() {
        game.play(mv).map_err(|error| CommandError::IllegalMove {
            list: "moves",
            index,
            error,
        })?;
    }
    Ok(game)
}
