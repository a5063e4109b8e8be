//! The protocol session: one command line in, protocol lines out. No I/O of its own, so it can
//! be driven in-process; see [`crate::protocol::run`] for the stdin/stdout wiring.

use super::command::{parse_line, Command};
use super::error::CommandError;
use super::options::{Effect, Settings, OPTIONS};
use super::output::{info_string, printable, Output, MAX_MESSAGE_CHARS};
use super::report::{self, Job};
use super::slot::{Observer, SearchSlot};
use super::ugi::{format_response, Dialect, Query, UNREADABLE_QUERY_ANSWER};
use crate::bench::{bench_games, read_positions, BenchPositions};
use crate::engine::{Engine, Limits, SearchStatus, TablebaseStatus};
use crate::{Game, Move, Position};
use std::collections::HashSet;
use std::sync::Arc;

/// Whether the session goes on after a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Keep reading.
    Continue,
    /// `quit`: the caller should call [`Session::shutdown`] and exit.
    Quit,
}

/// Rule-conflict warnings remembered at most (then forgotten, and given again).
const MAX_WARNED: usize = 10_000;

/// Longest wait of an `isready` for the tablebases' checksums.
const TABLE_CHECK_WAIT: std::time::Duration = std::time::Duration::from_secs(5);

/// The engine (which owns the game), the option values, and what runs in the background. The
/// session only translates text into engine calls and results into text.
pub struct Session {
    out: Arc<dyn Output>,
    engine: Engine,
    settings: Settings,
    search: Option<Arc<SearchSlot>>,
    job: Option<Job>,
    debug: bool,
    /// Fixed by the first `uci` or `ugi`.
    dialect: Option<Dialect>,
    /// Tables were loaded since the last `isready`, which waits for their checksums.
    tables_to_check: bool,
    /// Rule conflicts already warned about in this game (start position, move index, move), so
    /// that a GUI resending the game every move sees each warning once.
    warned: HashSet<(Position, usize, Move)>,
}

impl Session {
    /// A session at the start position with default options, writing to `out`.
    pub fn new(out: Arc<dyn Output>) -> Session {
        let settings = Settings::default();
        Session {
            out,
            engine: Engine::new(settings.engine.clone()),
            settings,
            search: None,
            job: None,
            debug: false,
            dialect: None,
            tables_to_check: false,
            warned: HashSet::new(),
        }
    }

    /// The engine's game: the one the next `go` searches (unless the last `position` failed;
    /// see [`Engine::position_error`]).
    pub fn game(&self) -> &Game {
        self.engine.game()
    }

    /// The engine.
    pub fn engine(&self) -> &Engine {
        &self.engine
    }

    /// The current option values.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The protocol dialect: the first `uci` or `ugi` fixed it (UCI before either).
    pub fn dialect(&self) -> Dialect {
        self.dialect.unwrap_or_default()
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
            Command::Handshake(dialect) => self.handshake(dialect),
            Command::Debug(on) => self.debug = on,
            Command::IsReady => {
                self.wait_for_tablebase();
                self.out.line("readyok")
            }
            Command::SetOption { name, value } => self.set_option(&name, value.as_deref())?,
            Command::Register => {}
            Command::NewGame(command) => {
                self.require_idle(command)?;
                self.engine.new_game();
                self.warned.clear();
            }
            Command::Query(query) => self.query(query),
            Command::Position {
                start,
                moves,
                bad_move,
            } => self.position(start, &moves, bad_move)?,
            Command::BadPosition(error) => {
                self.stop_search();
                self.engine.reject_position(error.to_string());
                return Err(error);
            }
            Command::Go(limits) => self.go(limits)?,
            Command::Perft(depth) => {
                self.require_idle("go perft")?;
                self.job = Some(report::spawn_perft(
                    self.out.clone(),
                    self.engine.game().clone(),
                    depth,
                ));
            }
            Command::Bench(mut spec) => {
                self.require_idle("bench")?;
                spec.evaluation = self.engine.options().evaluation;
                let games = match &spec.positions {
                    BenchPositions::Default => bench_games(),
                    BenchPositions::Current => vec![self.engine.game().clone()],
                    BenchPositions::File(path) => {
                        read_positions(path).map_err(CommandError::Bench)?
                    }
                };
                self.job = Some(report::spawn_bench(self.out.clone(), spec, games));
            }
            Command::Help => report::help(self.out.as_ref()),
            Command::Flip => {
                self.stop_search();
                let flipped = report::flipped(self.engine.game().position());
                self.engine.set_position(flipped, &[]);
                self.warned.clear();
            }
            Command::Stop => self.stop_search(),
            Command::PonderHit => self.engine.ponderhit(),
            Command::Quit => {
                self.shutdown();
                return Ok(Flow::Quit);
            }
            Command::Display => {
                report::display(self.out.as_ref(), self.engine.game());
                if let Some(reason) = self.engine.position_error() {
                    self.out.line(&format!(
                        "Warning: the last position command failed at {}; this is its legal \
                         prefix, and go answers bestmove 0000 until a good position",
                        printable(reason, MAX_MESSAGE_CHARS)
                    ));
                }
            }
            Command::Eval => {
                self.require_idle("eval")?;
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

    /// `uci` or `ugi`: the same identification and options, ended by the asked dialect's `ok`
    /// word; the first one fixes the session's dialect.
    fn handshake(&mut self, dialect: Dialect) {
        self.dialect.get_or_insert(dialect);
        self.out
            .line(&format!("id name baghchal {}", env!("CARGO_PKG_VERSION")));
        self.out.line("id author the baghchal developers");
        for spec in &OPTIONS {
            self.out.line(&spec.uci_line());
        }
        self.out.line(dialect.handshake_ok());
    }

    /// `query`: exactly one `response` line, also after an error line (a runner waits for it).
    fn query(&self, query: Result<Query, CommandError>) {
        let answer = match query {
            Err(error) => {
                self.error(&error);
                UNREADABLE_QUERY_ANSWER
            }
            Ok(query) => match self.engine.position_error() {
                Some(reason) => {
                    self.error(&CommandError::NoGameToQuery(reason.to_string()));
                    query.answer_without_game()
                }
                None => query.answer(self.engine.game()),
            },
        };
        self.out.line(&format_response(answer));
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) -> Result<(), CommandError> {
        self.require_idle("setoption")?;
        let (next, effect) = self.settings.with_option(name, value)?;
        if effect == Effect::ClearHash {
            self.engine.clear_hash();
            return Ok(());
        }
        let tables_changed = next.engine.tablebase_path != self.settings.engine.tablebase_path;
        self.engine
            .set_options(next.engine.clone())
            .map_err(|error| CommandError::HashAllocation {
                error,
                kept_mb: self.settings.engine.hash_mb,
            })?;
        self.settings = next;
        if tables_changed || effect == Effect::Rules {
            self.report_tablebase_status();
        }
        Ok(())
    }

    /// Says whether the tables in use could be opened: an error when they could not (the engine
    /// then plays without them), the directory and rules when they were.
    /// `isready` after tables with placement layers were loaded: waits for their checksums, at
    /// most [`TABLE_CHECK_WAIT`] (match runners allow a few seconds for `readyok`), and reports
    /// corrupt layers; a check still running goes on in the background.
    fn wait_for_tablebase(&mut self) {
        if !std::mem::take(&mut self.tables_to_check) {
            return;
        }
        if self.engine.tablebase_checking() {
            info_string(self.out.as_ref(), "tablebases: checking placement layers");
        }
        let Some(corrupt) = self.engine.wait_for_tablebase(Some(TABLE_CHECK_WAIT)) else {
            info_string(
                self.out.as_ref(),
                "tablebases: placement layers still being checked; each is used once checked",
            );
            return;
        };
        for path in corrupt {
            let message = format!(
                "error: \"{}\": corrupt placement layer, not used",
                path.display()
            );
            info_string(self.out.as_ref(), &message);
        }
    }

    fn report_tablebase_status(&mut self) {
        match self.engine.tablebase_status() {
            TablebaseStatus::Off => {}
            status @ TablebaseStatus::Loaded { .. } => {
                info_string(self.out.as_ref(), &status.to_string());
                for message in self.engine.forbid_messages() {
                    info_string(self.out.as_ref(), message);
                }
                self.tables_to_check = true;
            }
            status @ TablebaseStatus::Failed { .. } => {
                info_string(self.out.as_ref(), &format!("error: {status}"))
            }
        }
    }

    /// `position`: the engine follows the arbiter's moves (see [`Engine::set_position`]); a
    /// running search is stopped first (its `bestmove` goes out).
    fn position(
        &mut self,
        start: Position,
        moves: &[Move],
        bad_move: Option<CommandError>,
    ) -> Result<(), CommandError> {
        self.stop_search();
        let followed = self.engine.set_position(start, moves);
        if self.warned.len() > MAX_WARNED {
            self.warned.clear();
        }
        for (index, mv, conflict) in &followed.conflicts {
            if !self.warned.insert((start, *index, *mv)) {
                continue;
            }
            info_string(
                self.out.as_ref(),
                &format!(
                    "warning: moves index {index}: {mv} played as sent, although our settings \
                     forbid it: {conflict}"
                ),
            );
        }
        let error = match followed.illegal {
            Some((index, error)) => Some(CommandError::IllegalMove {
                list: "moves",
                index,
                error,
            }),
            None => bad_move,
        };
        match error {
            Some(error) => {
                self.engine.reject_position(error.to_string());
                Err(error)
            }
            None => Ok(()),
        }
    }

    fn go(&mut self, limits: Limits) -> Result<(), CommandError> {
        self.require_idle("go")?;
        let status = self.engine.search_status();
        if status == SearchStatus::Ready {
            for (index, &mv) in limits.search_moves.iter().enumerate() {
                self.engine
                    .game()
                    .check_move(mv)
                    .map_err(|error| CommandError::IllegalMove {
                        list: "searchmoves",
                        index,
                        error,
                    })?;
            }
        }
        match &status {
            SearchStatus::Ready => {}
            SearchStatus::PastOurEnd(outcome) => info_string(
                self.out.as_ref(),
                &format!(
                    "warning: the game is over under our settings ({outcome}), but the board \
                     has moves: searching on from the position sent"
                ),
            ),
            SearchStatus::Over(outcome) => {
                info_string(self.out.as_ref(), &format!("game over: {outcome}"));
                let side_to_move = self.engine.game().position().side_to_move();
                // As Stockfish at a mate or stalemate: the side to move has lost (mate 0) or
                // drawn (cp 0); a win of the side to move (only from a position string) has no
                // score line.
                match outcome.winner() {
                    None => self.out.line("info depth 0 score cp 0"),
                    Some(winner) if winner != side_to_move => {
                        self.out.line("info depth 0 score mate 0")
                    }
                    Some(_) => {}
                }
            }
            SearchStatus::NoGame(reason) => self.error(&CommandError::NoPosition(reason.clone())),
        }
        if self.debug {
            info_string(
                self.out.as_ref(),
                &format!(
                    "debug: searching {} with {limits:?}",
                    self.engine.game().position()
                ),
            );
        }
        // With no move to find, `bestmove` is out before the next command is read (unless
        // `infinite` or `ponder` holds it until `stop`), so a command sent at once is not busy.
        let answers_at_once = matches!(status, SearchStatus::Over(_) | SearchStatus::NoGame(_))
            && !limits.infinite
            && !limits.ponder;
        let slot = SearchSlot::new(self.out.clone(), self.dialect());
        self.search = Some(slot.clone());
        self.engine.go(limits, Box::new(Observer::new(slot)));
        if answers_at_once {
            self.engine.wait();
        }
        Ok(())
    }

    /// `stop`: stops the engine and waits, so `bestmove` is out when it returns.
    fn stop_search(&mut self) {
        if self.search.take().is_some() {
            self.engine.stop();
            self.engine.wait();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::Memory;
    use crate::search::tt::limit_allocations_for_tests;

    fn send(session: &mut Session, out: &Memory, line: &str) -> Vec<String> {
        out.take();
        session.handle_line(line);
        out.take()
    }

    #[test]
    fn a_hash_that_cannot_be_allocated_is_an_error_and_the_old_table_stays() {
        let out = Arc::new(Memory::new());
        let mut session = Session::new(out.clone());
        assert!(send(&mut session, &out, "setoption name Hash value 32").is_empty());
        limit_allocations_for_tests(Some(64));
        let lines = send(&mut session, &out, "setoption name Hash value 4096");
        limit_allocations_for_tests(None);
        assert_eq!(
            lines,
            [
                "info string error: cannot allocate a 4096 MB hash table: not enough memory; \
              keeping the 32 MB table"
            ]
        );
        assert_eq!(session.settings().engine.hash_mb, 32);
        assert_eq!(session.engine().options().hash_mb, 32);
        // The session goes on with the old table.
        session.handle_line("go depth 2");
        let best = out.wait_for(std::time::Duration::from_secs(20), |l| {
            l.starts_with("bestmove")
        });
        assert!(best.is_some_and(|l| l != "bestmove 0000"));
        assert_eq!(send(&mut session, &out, "isready"), ["readyok"]);
    }

    #[test]
    fn go_with_no_move_to_find_answers_before_the_next_command() {
        let out = Arc::new(Memory::new());
        let mut session = Session::new(out.clone());
        // No position (a bad one was sent), then a game over (the tigers are blocked in).
        for position in [
            "position fen garbage",
            "position fen TGGGT/GGGGG/GGGGG/GG1GG/TGGGT t 0 0",
        ] {
            send(&mut session, &out, position);
            let lines = send(&mut session, &out, "go movetime 1000");
            assert_eq!(
                lines.last().map(String::as_str),
                Some("bestmove 0000"),
                "{lines:?}"
            );
            assert!(send(&mut session, &out, "setoption name Hash value 8").is_empty());
        }
        // `go infinite` holds it until `stop`.
        let lines = send(&mut session, &out, "go infinite");
        assert!(
            !lines.iter().any(|l| l.starts_with("bestmove")),
            "{lines:?}"
        );
        assert_eq!(send(&mut session, &out, "stop"), ["bestmove 0000"]);
    }
}
