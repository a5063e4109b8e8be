//! The engine core: options, limits, and searches on background threads. Protocol-free: the
//! protocol layer turns commands into calls here and callbacks into text.

use std::fmt;
use std::str::FromStr;
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

use crate::{Game, Move, Rules};

use crate::search::eval::{terms, TERM_NAMES};
use crate::search::params::Params;
use crate::search::thread::{run, SearchContext};
use crate::search::time::Control;
use crate::search::tt::TranspositionTable;
pub use crate::search::{Bound, Score};

/// Search limits, UCI-style; `None` = no limit of that kind. The search stops at the first limit
/// reached. With no limit at all (plain `go`) the engine searches to
/// [`crate::search::thread::DEFAULT_DEPTH`].
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Maximum depth in plies.
    pub depth: Option<u32>,
    /// Maximum nodes (of the main thread; the first iteration always completes).
    pub nodes: Option<u64>,
    /// Time for this move.
    pub movetime: Option<Duration>,
    /// Search until `stop` (the result is held back until then).
    pub infinite: bool,
    /// Pondering: search without a time limit until [`Engine::ponderhit`] (then the clock applies)
    /// or [`Engine::stop`].
    pub ponder: bool,
    /// Remaining clock time per side, indexed by `Side::index()` (goats = wtime, tigers = btime).
    pub time_left: [Option<Duration>; 2],
    /// Increment per move per side, indexed like `time_left`.
    pub increment: [Option<Duration>; 2],
    /// Moves to the next time control.
    pub moves_to_go: Option<u32>,
    /// Restrict the root to these moves (empty = all legal moves; illegal ones are ignored, and
    /// if none is legal all legal moves are searched).
    pub search_moves: Vec<Move>,
}

/// How the engine picks moves: a full search, or the weak reference players used to measure
/// strength.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum Strategy {
    /// Iterative-deepening alpha-beta search.
    #[default]
    Search,
    /// A uniformly random legal move (seeded).
    Random,
    /// The move with the best static evaluation after one ply.
    Greedy,
}

impl fmt::Display for Strategy {
    /// `search`, `random` or `greedy`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Strategy::Search => "search",
            Strategy::Random => "random",
            Strategy::Greedy => "greedy",
        })
    }
}

/// A strategy name other than `search`, `random` or `greedy`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseStrategyError(pub String);

impl fmt::Display for ParseStrategyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "invalid strategy \"{}\": expected search, random or greedy",
            self.0
        )
    }
}

impl std::error::Error for ParseStrategyError {}

impl FromStr for Strategy {
    type Err = ParseStrategyError;

    /// Case-insensitive `search`, `random` or `greedy`.
    fn from_str(text: &str) -> Result<Strategy, ParseStrategyError> {
        match text.to_ascii_lowercase().as_str() {
            "search" => Ok(Strategy::Search),
            "random" => Ok(Strategy::Random),
            "greedy" => Ok(Strategy::Greedy),
            _ => Err(ParseStrategyError(text.to_string())),
        }
    }
}

/// Engine settings (the protocol maps UCI options onto these).
#[derive(Clone, Debug)]
pub struct EngineOptions {
    /// Transposition table size in MB, 1..=4096.
    pub hash_mb: usize,
    /// Search threads, 1..=64 (Lazy SMP when > 1).
    pub threads: usize,
    /// Lines to report, 1..=64 (capped by the number of legal moves).
    pub multi_pv: usize,
    /// Time kept back per move for communication, 0..=5000 ms.
    pub move_overhead: Duration,
    /// Whether infos carry win/draw/loss estimates.
    pub show_wdl: bool,
    /// How moves are chosen.
    pub strategy: Strategy,
    /// Seed for [`Strategy::Random`].
    pub seed: u64,
    /// The rule variant of new games.
    pub rules: Rules,
}

impl Default for EngineOptions {
    fn default() -> EngineOptions {
        EngineOptions {
            hash_mb: 16,
            threads: 1,
            multi_pv: 1,
            move_overhead: Duration::from_millis(30),
            show_wdl: false,
            strategy: Strategy::Search,
            seed: 0,
            rules: Rules::default(),
        }
    }
}

/// One progress report: one per completed iteration per PV line, and one per aspiration failure.
#[derive(Clone, Debug)]
pub struct SearchInfo {
    /// Iteration depth in plies.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// Line number, 1-based.
    pub multipv: u32,
    /// Score of the line, side to move's view.
    pub score: Score,
    /// Whether the score is exact or a bound.
    pub bound: Bound,
    /// Per mille win/draw/loss for the side to move, when `show_wdl`.
    pub wdl: Option<[u32; 3]>,
    /// Nodes searched (all threads).
    pub nodes: u64,
    /// Time since the search started.
    pub time: Duration,
    /// Transposition table use, per mille.
    pub hashfull: u32,
    /// Tablebase hits.
    pub tbhits: u64,
    /// The line, legal from the root, starting with its first move.
    pub pv: Vec<Move>,
}

impl SearchInfo {
    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        (self.nodes as f64 / self.time.as_secs_f64().max(1e-6)) as u64
    }
}

/// What a finished search returns.
#[derive(Clone, Debug)]
pub struct SearchResult {
    /// The move to play; `None` only when the root has no legal move.
    pub best_move: Option<Move>,
    /// The expected reply.
    pub ponder_move: Option<Move>,
    /// The final complete info for the best line (`None` if no search happened).
    pub info: Option<SearchInfo>,
}

/// Receives progress while a search runs. Called from the search thread(s).
pub trait SearchObserver: Send + 'static {
    /// A progress report.
    fn on_info(&mut self, info: &SearchInfo);
    /// The root move now searched (1-based `number`), sent only on long searches.
    fn on_currmove(&mut self, _depth: u32, _mv: Move, _number: u32) {}
    /// Called exactly once per `go`, after the search has fully stopped.
    fn on_finish(&mut self, result: &SearchResult);
}

/// An observer that ignores everything.
struct Silent;

impl SearchObserver for Silent {
    fn on_info(&mut self, _info: &SearchInfo) {}
    fn on_finish(&mut self, _result: &SearchResult) {}
}

/// The engine: a game, options, a transposition table and at most one running search.
pub struct Engine {
    options: EngineOptions,
    params: Params,
    game: Game,
    tt: Arc<TranspositionTable>,
    control: Arc<Control>,
    handle: Option<JoinHandle<()>>,
}

impl Engine {
    /// An engine at the start position of `options.rules`.
    pub fn new(options: EngineOptions) -> Engine {
        let options = clamp_options(options);
        Engine {
            tt: Arc::new(TranspositionTable::new(options.hash_mb)),
            game: Game::startpos(options.rules),
            control: Arc::new(Control::new(false)),
            handle: None,
            params: Params::default(),
            options,
        }
    }

    /// The current settings.
    pub fn options(&self) -> &EngineOptions {
        &self.options
    }

    /// Applies options; waits for any running search to stop first. Resizes the TT when
    /// `hash_mb` changes. When the rules change, the game restarts from its start position under
    /// the new rules, replaying its moves while they stay legal.
    pub fn set_options(&mut self, options: EngineOptions) {
        self.wait();
        let options = clamp_options(options);
        if options.hash_mb != self.options.hash_mb {
            self.tt = Arc::new(TranspositionTable::new(options.hash_mb));
        }
        if options.rules != self.options.rules {
            let mut game = Game::new(*self.game.start_position(), options.rules);
            for &mv in self.game.moves() {
                if game.play(mv).is_err() {
                    break;
                }
            }
            self.game = game;
        }
        self.options = options;
    }

    /// The evaluation weights and search settings (tuning).
    pub fn params(&self) -> &Params {
        &self.params
    }

    /// Replaces the evaluation weights and search settings (tuning); waits for a running search.
    pub fn set_params(&mut self, params: Params) {
        self.wait();
        self.params = params;
    }

    /// Clears the transposition table (ucinewgame).
    pub fn new_game(&mut self) {
        self.wait();
        self.tt.clear();
    }

    /// The game to search from (its history drives the repetition rule; its rules are the
    /// ones searched under). Waits for a running search to stop.
    pub fn set_game(&mut self, game: Game) {
        self.wait();
        self.game = game;
    }

    /// The game searched from.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// Starts searching on background thread(s) and returns at once. A running search is
    /// stopped and waited for first. At a finished position `on_finish` gets no best move.
    pub fn go(&mut self, limits: Limits, mut observer: Box<dyn SearchObserver>) {
        self.stop();
        self.wait();
        let control = Arc::new(Control::new(limits.ponder));
        self.control = Arc::clone(&control);
        let tt = Arc::clone(&self.tt);
        let game = self.game.clone();
        let options = self.options.clone();
        let params = self.params.clone();
        let handle = std::thread::Builder::new()
            .name("search".into())
            .spawn(move || {
                let context = SearchContext {
                    game: &game,
                    options: &options,
                    params: &params,
                    limits: &limits,
                    tt: &tt,
                    control: &control,
                };
                let result = run(&context, observer.as_mut());
                control.set_finished();
                observer.on_finish(&result);
            })
            .expect("spawning the search thread");
        self.handle = Some(handle);
    }

    /// Asks the running search to stop (returns at once; `on_finish` follows within a few ms).
    pub fn stop(&self) {
        self.control.stop();
    }

    /// Turns a ponder search into a normal one with the clock limits of its `Limits`, timed
    /// from now.
    pub fn ponderhit(&self) {
        self.control.ponderhit();
    }

    /// Whether a search is running (its result not yet delivered).
    pub fn is_searching(&self) -> bool {
        self.handle.is_some() && !self.control.is_finished()
    }

    /// Blocks until the running search (if any) has finished.
    pub fn wait(&mut self) {
        if let Some(handle) = self.handle.take() {
            if handle.join().is_err() {
                log::error!("the search thread panicked");
            }
        }
    }

    /// Runs a search to completion on the calling thread (see [`Engine::search_blocking_with`]).
    pub fn search_blocking(&mut self, limits: Limits) -> SearchResult {
        self.search_blocking_with(limits, &mut Silent)
    }

    /// Runs a search to completion on the calling thread, reporting progress to `observer`
    /// (`on_finish` is called too). Nothing can stop it from outside, so `infinite` and `ponder`
    /// are ignored (with no other limit it searches to the default depth).
    pub fn search_blocking_with(
        &mut self,
        mut limits: Limits,
        observer: &mut dyn SearchObserver,
    ) -> SearchResult {
        self.stop();
        self.wait();
        limits.infinite = false;
        limits.ponder = false;
        let control = Arc::new(Control::new(limits.ponder));
        self.control = Arc::clone(&control);
        let context = SearchContext {
            game: &self.game,
            options: &self.options,
            params: &self.params,
            limits: &limits,
            tt: &self.tt,
            control: &control,
        };
        let result = run(&context, observer);
        control.set_finished();
        observer.on_finish(&result);
        result
    }

    /// The static evaluation of the current position, broken into named terms (side to move's
    /// view, 100 = one goat), the total last.
    pub fn eval_terms(&self) -> Vec<(&'static str, i32)> {
        let values = terms(self.game.position(), self.game.rules(), &self.params);
        TERM_NAMES.iter().copied().zip(values).collect()
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.stop();
        self.wait();
    }
}

fn clamp_options(mut options: EngineOptions) -> EngineOptions {
    options.hash_mb = options.hash_mb.clamp(1, 4096);
    options.threads = options.threads.clamp(1, 64);
    options.multi_pv = options.multi_pv.clamp(1, 64);
    options.move_overhead = options.move_overhead.min(Duration::from_millis(5000));
    options
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strategy_text_round_trips() {
        for strategy in [Strategy::Search, Strategy::Random, Strategy::Greedy] {
            assert_eq!(strategy.to_string().parse::<Strategy>(), Ok(strategy));
        }
        assert_eq!("GREEDY".parse::<Strategy>(), Ok(Strategy::Greedy));
        let error = "best".parse::<Strategy>().unwrap_err();
        assert_eq!(
            error.to_string(),
            "invalid strategy \"best\": expected search, random or greedy"
        );
    }
}
