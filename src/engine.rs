//! The engine core: the game it plays (the one copy, following the arbiter's moves), options,
//! and searches on background threads. Protocol-free: the protocol layer turns commands into
//! calls here and callbacks into text.

use std::panic::AssertUnwindSafe;
use std::sync::Arc;
use std::thread::JoinHandle;

use crate::game::Followed;
use crate::{Game, Move, Outcome, Position};

use crate::search::eval::terms;
use crate::search::node_clock::NodeClock;
use crate::search::params::Params;
use crate::search::skill::Skill;
pub use crate::search::tb::TablebaseStatus;
use crate::search::tb::{TablebaseSlot, TbProbe};
use crate::search::thread::{run, SearchContext};
use crate::search::time::Control;
pub use crate::search::tt::AllocationError;
use crate::search::tt::TranspositionTable;
pub use crate::search::{
    Bound, EngineOptions, Evaluation, Limits, ParseStrategyError, Score, SearchInfo,
    SearchObserver, SearchResult, Silent, Strategy,
};
use crate::tablebase::builtin::BuiltinTables;

/// What a `go` now would do with the engine's game (see [`Engine::search_status`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SearchStatus {
    /// The game goes on under our rules: a normal search.
    Ready,
    /// Our rules call the game over, but the board has moves and an arbiter sent the game
    /// ([`Engine::set_position`]), so it goes on: the search starts afresh from the current
    /// position ([`Game::played_on`]).
    PastOurEnd(Outcome),
    /// The game is over and the board has no move: no search, no move.
    Over(Outcome),
    /// The last position the arbiter sent could not be followed (the reason): no search, no
    /// move, until a good one arrives.
    NoGame(String),
}

/// The engine: its game, options, a transposition table and at most one running search.
pub struct Engine {
    options: EngineOptions,
    params: Params,
    game: Game,
    /// Whether an arbiter sent the game ([`Engine::set_position`]): then it goes on past the
    /// end our rules see, as long as the board has moves.
    from_arbiter: bool,
    /// Why the game is not the arbiter's, after a `position` that could not be followed.
    position_error: Option<String>,
    tt: Arc<TranspositionTable>,
    control: Arc<Control>,
    handle: Option<JoinHandle<()>>,
    tablebase: TablebaseSlot,
    /// The seed of this game when the `seed` option is 0 (drawn afresh for each new game).
    game_seed: u64,
    /// The engine's own clock in nodes under `nodestime`.
    node_clock: Arc<NodeClock>,
}

/// Depth of a blocking search given no limit at all (nothing could stop it otherwise).
pub const BLOCKING_DEFAULT_DEPTH: u32 = 12;

impl Engine {
    /// An engine at the start position of `options.rules`.
    pub fn new(options: EngineOptions) -> Engine {
        let options = options.clamped();
        // Read the built-in values now (a few ms), not in the first search's time.
        BuiltinTables::get();
        let mut tablebase = TablebaseSlot::default();
        tablebase.update(options.tablebase_path.as_deref(), &options.rules);
        Engine {
            tt: Arc::new(TranspositionTable::new(options.hash_mb)),
            game: Game::startpos(options.rules),
            from_arbiter: false,
            position_error: None,
            control: Arc::new(Control::new(false)),
            handle: None,
            params: Params::default().with_evaluation(options.evaluation),
            options,
            tablebase,
            game_seed: rand::random(),
            node_clock: Arc::default(),
        }
    }

    /// The current settings.
    pub fn options(&self) -> &EngineOptions {
        &self.options
    }

    /// Applies options; waits for any running search to stop first. Resizes the TT when
    /// `hash_mb` changes (the new table is ready at once: fresh zeroed memory needs no
    /// clearing). New rules apply to the game as it stands (its moves stay: the arbiter played
    /// them). The tablebases are opened when `tablebase_path` or the rules they depend on
    /// change (and again after a failed opening); check [`Engine::tablebase_status`]
    /// afterwards: on an error the engine plays without them.
    ///
    /// # Errors
    /// [`AllocationError`] when the new table cannot be allocated: then nothing changes (the
    /// previous options and table stay).
    pub fn set_options(&mut self, options: EngineOptions) -> Result<(), AllocationError> {
        self.wait();
        let options = options.clamped();
        if options.hash_mb != self.options.hash_mb {
            self.tt = Arc::new(TranspositionTable::try_new(options.hash_mb)?);
        }
        self.tablebase
            .update(options.tablebase_path.as_deref(), &options.rules);
        self.game.set_rules(options.rules);
        self.params = self.params.clone().with_evaluation(options.evaluation);
        self.options = options;
        Ok(())
    }

    /// Waits until the placement layers' checksums are checked (the tables', then those of the
    /// placement values under forbid beside them), for at most `limit` in all (at once without
    /// them, or once checked); returns the paths of the layers found corrupt, which are not
    /// used, or `None` when a check still runs (in the background; each layer is used once
    /// found good).
    pub fn wait_for_tablebase(
        &self,
        limit: Option<std::time::Duration>,
    ) -> Option<Vec<std::path::PathBuf>> {
        let deadline = limit.map(|limit| std::time::Instant::now() + limit);
        let left = || deadline.map(|at| at.saturating_duration_since(std::time::Instant::now()));
        let forbid = self
            .tablebase
            .forbid()
            .and_then(|forbid| forbid.placement());
        let mut corrupt = Vec::new();
        let placements = self
            .tablebase()
            .and_then(|tables| tables.placement())
            .into_iter()
            .chain(forbid.map(|(_, placement)| placement));
        for placement in placements {
            corrupt.extend(placement.wait_checked_for(left())?);
        }
        Some(corrupt)
    }

    /// Whether some placement layer (the tables', or of the placement values under forbid) still
    /// has its checksum checked in the background.
    pub fn tablebase_checking(&self) -> bool {
        let tables = self.tablebase().and_then(|tables| tables.placement());
        let forbid = self
            .tablebase
            .forbid()
            .and_then(|forbid| forbid.placement());
        tables.is_some_and(|placement| !placement.is_checked())
            || forbid.is_some_and(|(_, placement)| !placement.is_checked())
    }

    /// The tables in use, when loaded.
    pub fn tablebase(&self) -> Option<&crate::tablebase::Tablebase> {
        self.tablebase.tables().map(|tables| &**tables)
    }

    /// Whether tablebases are loaded, off, or could not be opened (with the error, for the
    /// protocol to report as `info string error: ...`).
    pub fn tablebase_status(&self) -> &TablebaseStatus {
        self.tablebase.status()
    }

    /// What became of the forbid files beside the tables (`error: ...` for one not used).
    pub fn forbid_messages(&self) -> &[String] {
        self.tablebase.forbid_messages()
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

    /// Clears the transposition table and starts a new game from the start position (the
    /// arbiter's new game: `ucinewgame`).
    pub fn new_game(&mut self) {
        self.clear_hash();
        self.game_seed = rand::random();
        self.node_clock.reset();
        self.set_position(Position::startpos(), &[]);
    }

    /// Clears the transposition table (the game stays); waits for a running search. A large
    /// table is replaced by a fresh zeroed one, which the system maps lazily, so even 4 GB are
    /// cleared at once; if that memory is not there, the table is cleared in place on several
    /// threads.
    pub fn clear_hash(&mut self) {
        self.wait();
        if self.tt.is_large() {
            match TranspositionTable::try_new(self.options.hash_mb) {
                Ok(fresh) => {
                    self.tt = Arc::new(fresh);
                    return;
                }
                Err(error) => log::debug!("{error}; clearing the table in place"),
            }
        }
        self.tt.clear();
    }

    /// The game an arbiter sent: `start`, then `moves` followed as [`Game::follow_all`] does,
    /// under our rules. Every move the board allows is played, even where our settings forbid
    /// it (the returned conflicts say which); the first move the board does not allow ends the
    /// replay, and then the engine keeps the legal prefix for display but searches nothing
    /// ([`SearchStatus::NoGame`]) until the next good position. Waits for a running search.
    pub fn set_position(&mut self, start: Position, moves: &[Move]) -> Followed {
        self.wait();
        let mut game = Game::new(start, self.options.rules);
        let followed = game.follow_all(moves);
        self.game = game;
        self.from_arbiter = true;
        self.position_error = followed
            .illegal
            .as_ref()
            .map(|(index, error)| format!("move {} ({error})", index + 1));
        followed
    }

    /// Marks the game as not the arbiter's: a `position` that could not even be read. The game
    /// stays for display; `go` answers with no move until the next good position.
    pub fn reject_position(&mut self, reason: String) {
        self.wait();
        self.position_error = Some(reason);
    }

    /// Sets the game directly (library use: its rules are the ones searched under, and a game
    /// they call over gets no move). Waits for a running search.
    pub fn set_game(&mut self, game: Game) {
        self.wait();
        self.game = game;
        self.from_arbiter = false;
        self.position_error = None;
    }

    /// The engine's game.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// Why the game is not the arbiter's, after a `position` that could not be followed.
    pub fn position_error(&self) -> Option<&str> {
        self.position_error.as_deref()
    }

    /// What `go` would do now.
    pub fn search_status(&self) -> SearchStatus {
        if let Some(reason) = &self.position_error {
            return SearchStatus::NoGame(reason.clone());
        }
        match self.game.outcome() {
            None => SearchStatus::Ready,
            Some(outcome) if self.from_arbiter && self.game.played_on().is_some() => {
                SearchStatus::PastOurEnd(outcome)
            }
            Some(outcome) => SearchStatus::Over(outcome),
        }
    }

    /// The game a search starts from, or `None` when there is nothing to search.
    fn game_to_search(&self) -> Option<Game> {
        match self.search_status() {
            SearchStatus::Ready => Some(self.game.clone()),
            SearchStatus::PastOurEnd(_) => self.game.played_on(),
            SearchStatus::Over(_) | SearchStatus::NoGame(_) => None,
        }
    }

    /// Starts searching on background thread(s) and returns at once; a running search is
    /// stopped and waited for first. `on_finish` is called exactly once, held back for `stop`
    /// (and `ponderhit`) as `limits` ask, with no move when [`Engine::search_status`] says there
    /// is nothing to search.
    pub fn go(&mut self, limits: Limits, observer: Box<dyn SearchObserver>) {
        self.stop();
        self.wait();
        let game = self.game_to_search();
        let (options, mut limits) = self.search_settings(limits);
        let side = self.game.position().side_to_move().index();
        let node_clock = Arc::clone(&self.node_clock);
        if options.nodes_time > 0 {
            node_clock.apply(&mut limits, side, options.nodes_time);
        }
        let control = Arc::new(Control::with_nodes_time(limits.ponder, options.nodes_time));
        self.control = Arc::clone(&control);
        let tt = Arc::clone(&self.tt);
        let params = self.params.clone();
        let tables = self.tablebase.tables().cloned();
        let forbid = self.tablebase.forbid().cloned();
        let mut delivery = Delivery {
            observer,
            game: game.clone(),
            limits: limits.clone(),
            control: Arc::clone(&control),
            node_clock,
            side,
            nodes_time: options.nodes_time,
            delivered: false,
        };
        let handle = std::thread::Builder::new()
            .name("search".into())
            .spawn(move || {
                let result = match &game {
                    Some(game) => {
                        let context = SearchContext {
                            game,
                            options: &options,
                            params: &params,
                            limits: &limits,
                            tt: &tt,
                            control: &control,
                            tablebase: TbProbe::new(tables.as_deref(), game.rules())
                                .with_forbid(forbid.as_deref(), game),
                        };
                        search_guarded(&context, &mut delivery)
                    }
                    None => SearchResult::default(),
                };
                delivery.deliver(&result);
            })
            .expect("spawning the search thread");
        self.handle = Some(handle);
    }

    /// Asks the running search to stop (returns at once; `on_finish` follows within a few ms).
    pub fn stop(&self) {
        self.control.stop();
    }

    /// Turns a ponder search into a normal one with the clock limits of its `Limits`, its time
    /// plan counted from `go`, pondering included (see [`Control::budget_elapsed`]). Does
    /// nothing if the search is not pondering.
    pub fn ponderhit(&self) {
        self.control.ponderhit();
    }

    /// Whether a search is running (its result not yet delivered).
    pub fn is_searching(&self) -> bool {
        self.handle.is_some() && !self.control.is_finished()
    }

    /// Whether the running search still waits for `ponderhit`.
    pub fn is_pondering(&self) -> bool {
        self.is_searching() && self.control.is_pondering()
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
    /// are ignored (with no other limit it searches to [`BLOCKING_DEFAULT_DEPTH`]).
    pub fn search_blocking_with(
        &mut self,
        mut limits: Limits,
        observer: &mut dyn SearchObserver,
    ) -> SearchResult {
        self.stop();
        self.wait();
        limits.infinite = false;
        limits.ponder = false;
        let unlimited = limits.depth_limit().is_none()
            && limits.nodes.is_none()
            && limits.movetime.is_none()
            && limits.time_left[self.game.position().side_to_move().index()].is_none();
        if unlimited {
            limits.depth = Some(BLOCKING_DEFAULT_DEPTH);
        }
        let (options, limits) = self.search_settings(limits);
        let control = Arc::new(Control::with_nodes_time(false, options.nodes_time));
        self.control = Arc::clone(&control);
        let result = match self.game_to_search() {
            Some(game) => {
                let context = SearchContext {
                    game: &game,
                    options: &options,
                    params: &self.params,
                    limits: &limits,
                    tt: &self.tt,
                    control: &control,
                    tablebase: TbProbe::new(
                        self.tablebase.tables().map(|tables| &**tables),
                        game.rules(),
                    )
                    .with_forbid(self.tablebase.forbid().map(|forbid| &**forbid), &game),
                };
                search_guarded(&context, observer)
            }
            None => SearchResult::default(),
        };
        control.set_finished();
        observer.on_finish(&result);
        result
    }

    /// The settings and limits a search runs with: the game's seed when the `seed` option is
    /// 0, and below full strength the skill level's node budget, line count and one thread.
    fn search_settings(&self, mut limits: Limits) -> (EngineOptions, Limits) {
        let mut options = self.options.clone();
        if options.seed == 0 {
            options.seed = self.game_seed;
        }
        if let Some(skill) = Skill::from_options(&options) {
            options.threads = 1;
            options.multi_pv = options.multi_pv.max(skill.lines());
            limits.nodes = Some(limits.nodes.map_or(skill.nodes(), |n| n.min(skill.nodes())));
        }
        (options, limits)
    }

    /// The static evaluation of the current position, broken into named terms (side to move's
    /// view, 100 = one goat), the total last.
    pub fn eval_terms(&self) -> Vec<(&'static str, i32)> {
        terms(self.game.position(), self.game.rules(), &self.params)
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.stop();
        self.wait();
    }
}

/// Runs the search; its best move is checked legal, and a search that panics or returns an
/// illegal move still yields a legal move (logged as an error), so a `go` always gets one.
fn search_guarded(context: &SearchContext<'_>, observer: &mut dyn SearchObserver) -> SearchResult {
    let searched = std::panic::catch_unwind(AssertUnwindSafe(|| run(context, observer)));
    let result = searched.unwrap_or_else(|_| {
        log::error!("the search panicked; answering with a legal move");
        SearchResult::default()
    });
    answerable(context.game, result)
}

/// `result` with its best move checked legal in `game`: an illegal or missing one is replaced
/// by a legal move (logged as an error).
fn answerable(game: &Game, mut result: SearchResult) -> SearchResult {
    if let Some(mv) = result.best_move.filter(|&mv| game.check_move(mv).is_err()) {
        log::error!("the search chose {mv}, which is illegal here; answering with a legal move");
        result = SearchResult::default();
    }
    if result.best_move.is_none() {
        result.best_move = game.legal_moves().first().copied();
    }
    result
}

/// The background search's link to its observer: forwards the reports, and delivers the
/// result once (checked legal, charged to the node clock, held for `stop` or `ponderhit`) as
/// soon as the main search thread has decided, without waiting for the helper threads, which
/// on a busy machine can take milliseconds to get a core and stop. The engine waits for them
/// (by joining the search thread) before the next search or any change of its settings.
struct Delivery {
    observer: Box<dyn SearchObserver>,
    game: Option<Game>,
    limits: Limits,
    control: Arc<Control>,
    node_clock: Arc<NodeClock>,
    side: usize,
    nodes_time: u64,
    delivered: bool,
}

impl Delivery {
    fn deliver(&mut self, result: &SearchResult) {
        if std::mem::replace(&mut self.delivered, true) {
            return;
        }
        let result = match &self.game {
            Some(game) => answerable(game, result.clone()),
            None => result.clone(),
        };
        if self.nodes_time > 0 {
            let nodes = result.info.as_ref().map_or(0, |info| info.nodes);
            self.node_clock
                .charge(&self.limits, self.side, self.nodes_time, nodes);
        }
        self.control.hold_result(&self.limits);
        self.control.set_finished();
        self.observer.on_finish(&result);
    }
}

impl SearchObserver for Delivery {
    fn on_info(&mut self, info: &SearchInfo) {
        self.observer.on_info(info);
    }

    fn on_currmove(&mut self, depth: u32, mv: Move, number: u32) {
        self.observer.on_currmove(depth, mv, number);
    }

    fn on_string(&mut self, text: &str) {
        self.observer.on_string(text);
    }

    fn on_decided(&mut self, result: &SearchResult) {
        self.deliver(result);
    }

    fn on_finish(&mut self, result: &SearchResult) {
        self.deliver(result);
    }
}
