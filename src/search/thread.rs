//! Running a search: iterative deepening with aspiration windows and MultiPV on the main
//! thread, Lazy SMP helpers sharing the transposition table, and progress reports.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use crate::{Game, Move, Position};

use super::history::GameKeys;
use super::limits::Limits;
use super::options::{EngineOptions, Strategy, THREADS};
use super::params::Params;
use super::report::{SearchInfo, SearchObserver, SearchResult};
use super::root::aspiration;
use super::score::{is_mate, Bound, Score, Value, INFINITE, MATE};
use super::simple::{greedy_move, guess_reply, random_move};
use super::skill::{Candidate, Skill};
use super::tb::builtin::builtin_root;
use super::tb::root::{root as tablebase_root, TbRoot};
use super::tb::TbProbe;
use super::time::{Control, TimePlan};
use super::tt::TranspositionTable;
use super::wdl::wdl;
use super::worker::{Abort, Worker, LAST_LAYER_MALUS_KEY};

/// Deepest iteration.
pub const MAX_DEPTH: u32 = 100;
/// Root moves are announced (currmove) only after this much time.
pub(crate) const CURRMOVE_AFTER: Duration = Duration::from_secs(3);

/// A root move with its latest score and line.
#[derive(Clone, Debug)]
pub(crate) struct RootMove {
    pub(crate) mv: Move,
    pub(crate) child: Position,
    pub(crate) score: Value,
    pub(crate) previous_score: Value,
    pub(crate) pv: Vec<Move>,
    /// Added to the move's searched value (not to a mate): its bonus for pressing inside a
    /// table draw ([`super::tb::press`]), 0 otherwise.
    pub(crate) bias: Value,
}

/// Everything a search reads.
pub struct SearchContext<'a> {
    /// The game to search from.
    pub game: &'a Game,
    /// Engine settings.
    pub options: &'a EngineOptions,
    /// Evaluation weights and search settings.
    pub params: &'a Params,
    /// Limits of this search.
    pub limits: &'a Limits,
    /// The shared table.
    pub tt: &'a TranspositionTable,
    /// Stop and ponder flags.
    pub control: &'a Control,
    /// The tablebases and their hit counter.
    pub tablebase: TbProbe<'a>,
}

impl SearchContext<'_> {
    fn root_moves(&self) -> Vec<RootMove> {
        let legal = self.game.legal_moves();
        let position = *self.game.position();
        let restricted: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|mv| self.limits.search_moves.contains(mv))
            .collect();
        let chosen = if restricted.is_empty() {
            legal.to_vec()
        } else {
            restricted
        };
        chosen
            .into_iter()
            .map(|mv| RootMove {
                mv,
                child: position.played(mv),
                score: -INFINITE,
                previous_score: -INFINITE,
                pv: vec![mv],
                bias: 0,
            })
            .collect()
    }

    /// The time planned for this move (see [`TimePlan`]).
    fn plan(&self) -> TimePlan {
        TimePlan::new(
            self.limits,
            self.game.position().side_to_move().index(),
            self.options.move_overhead,
        )
    }

    /// Whether the optional work before the search (bonuses of pressing moves, a table line
    /// beyond its first move) must end: the time after which no iteration starts has passed
    /// (with a move time, half of it). Never while pondering or without a time limit (so `go
    /// nodes` stays deterministic). Cold tables make this work wait for the disk, a probe at a
    /// time.
    pub(crate) fn root_time_is_up(&self) -> bool {
        let plan = self.plan();
        let elapsed = self.control.budget_elapsed(0);
        !self.control.is_pondering()
            && (plan.should_stop_iterating(elapsed)
                || plan.hard.is_some_and(|hard| elapsed >= hard / 2))
    }

    fn max_depth(&self) -> u32 {
        // A `go` with no limit searches until `stop` (or to the deepest iteration), as
        // Stockfish does.
        self.limits
            .depth_limit()
            .map_or(MAX_DEPTH, |depth| depth.clamp(1, MAX_DEPTH))
    }

    /// The longest legal prefix of `pv` from the root.
    fn legal_prefix(&self, pv: &[Move]) -> Vec<Move> {
        let mut game = self.game.clone();
        let mut out = Vec::with_capacity(pv.len());
        for &mv in pv {
            if game.play(mv).is_err() {
                break;
            }
            out.push(mv);
        }
        out
    }

    #[allow(clippy::too_many_arguments)]
    pub(crate) fn info(
        &self,
        depth: u32,
        seldepth: usize,
        line: usize,
        value: Value,
        bound: Bound,
        nodes: u64,
        pv: &[Move],
    ) -> SearchInfo {
        let score = Score::from_value(value);
        let mut info = SearchInfo {
            depth,
            seldepth: (seldepth as u32).max(depth),
            multipv: line as u32 + 1,
            score,
            bound,
            wdl: self
                .options
                .show_wdl
                .then(|| wdl(score, self.game.position(), self.game.rules())),
            nodes,
            time: self.control.elapsed(),
            hashfull: self.tt.hashfull(),
            tbhits: self.tablebase.hits(),
            pv: self.legal_prefix(pv),
        };
        self.tablebase.adjust_info(&mut info);
        info
    }
}

/// Runs a search to completion on the calling thread (helpers on their own threads), reporting
/// to `observer` (but not calling `on_finish`), and returns its result. It does not wait for
/// `stop` or `ponderhit`: holding the result is the caller's (see [`Control::hold_result`]).
pub fn run(context: &SearchContext<'_>, observer: &mut dyn SearchObserver) -> SearchResult {
    let game = context.game;
    let root_moves = context.root_moves();
    if root_moves.is_empty() {
        return SearchResult {
            best_move: None,
            ponder_move: None,
            info: None,
        };
    }
    let result = match context.options.strategy {
        Strategy::Search => {
            let moves: Vec<Move> = root_moves.iter().map(|root_move| root_move.mv).collect();
            let tb_root = match tablebase_root(context, &moves, observer) {
                TbRoot::NotCovered => builtin_root(game, context.options, &moves),
                covered => covered,
            };
            match tb_root {
                TbRoot::NotCovered => search(context, root_moves, observer),
                TbRoot::Decided(result) => result,
                TbRoot::Keep(keeping) => {
                    let kept = root_moves
                        .into_iter()
                        .filter(|root_move| keeping.contains(&root_move.mv))
                        .collect();
                    search(context, kept, observer)
                }
                TbRoot::Press(pressing) => {
                    let pressed = root_moves
                        .into_iter()
                        .filter_map(|mut root_move| {
                            let &(_, bias) =
                                pressing.iter().find(|&&(mv, _)| mv == root_move.mv)?;
                            root_move.bias = bias;
                            Some(root_move)
                        })
                        .collect();
                    search(context, pressed, observer)
                }
            }
        }
        Strategy::Random | Strategy::Greedy => {
            let (mv, value) = if context.options.strategy == Strategy::Random {
                let mv = random_move(game, context.options.seed).unwrap_or(root_moves[0].mv);
                (mv, 0)
            } else {
                greedy_move(game, context.params).unwrap_or((root_moves[0].mv, 0))
            };
            let info = context.info(1, 1, 0, value, Bound::Exact, root_moves.len() as u64, &[mv]);
            observer.on_info(&info);
            SearchResult {
                best_move: Some(mv),
                ponder_move: guess_reply(game, mv, context.params),
                info: Some(info),
            }
        }
    };
    result
}

fn search(
    context: &SearchContext<'_>,
    root_moves: Vec<RootMove>,
    observer: &mut dyn SearchObserver,
) -> SearchResult {
    let options = context.options;
    let threads = THREADS.clamp(options.threads as i64) as usize;
    let counters: Vec<AtomicU64> = (0..threads).map(|_| AtomicU64::new(0)).collect();
    let game_keys = GameKeys::new(context.game);
    let root = *context.game.position();
    let plan = context.plan();
    context.tt.new_search();
    let max_depth = context.max_depth();
    let new_worker = |id: usize| {
        Worker::new(
            id,
            *context.game.rules(),
            context.params,
            context.tt,
            context.control,
            plan,
            if id == 0 { context.limits.nodes } else { None },
            &counters[id],
            &game_keys,
            root,
        )
        .with_tablebase(&context.tablebase)
    };
    std::thread::scope(|scope| {
        for id in 1..threads {
            let mut moves = root_moves.clone();
            let mut worker = new_worker(id);
            scope.spawn(move || {
                iterate(&mut worker, &mut moves, context, 1, max_depth, None);
            });
        }
        let mut moves = root_moves.clone();
        let mut worker = new_worker(0);
        let mut reporter = Reporter {
            observer,
            counters: &counters,
        };
        let depth = iterate(
            &mut worker,
            &mut moves,
            context,
            options.multi_pv,
            max_depth,
            Some(&mut reporter),
        );
        context.control.stop_helpers();
        let nodes = reporter.total_nodes(&worker);
        let chosen =
            Skill::from_options(options).map_or(0, |skill| skill_pick(skill, context, &moves));
        let best = &moves[chosen];
        let pv = context.legal_prefix(&best.pv);
        let score = if best.score > -INFINITE {
            best.score
        } else {
            best.previous_score
        };
        let info = context.info(depth, worker.seldepth, 0, score, Bound::Exact, nodes, &pv);
        let ponder_move = info
            .pv
            .get(1)
            .copied()
            .or_else(|| ponder_from_tt(context, best.mv));
        let result = SearchResult {
            best_move: Some(best.mv),
            ponder_move,
            info: Some(info),
        };
        // Answer before the scope waits for the helpers.
        reporter.observer.on_decided(&result);
        result
    })
}

/// The line a skill level plays, among the searched lines (best first); a line of an
/// unfinished iteration counts with its previous score.
fn skill_pick(skill: Skill, context: &SearchContext<'_>, moves: &[RootMove]) -> usize {
    let lines = context.options.multi_pv.clamp(1, moves.len());
    let candidates: Vec<Candidate> = moves[..lines]
        .iter()
        .map(|root_move| Candidate {
            mv: root_move.mv,
            score: if root_move.score > -INFINITE {
                root_move.score
            } else {
                root_move.previous_score
            },
        })
        .take_while(|candidate| candidate.score > -INFINITE)
        .collect();
    if candidates.len() < 2 {
        return 0;
    }
    let game = context.game;
    skill.pick(
        game.position(),
        game.rules(),
        &candidates,
        context.options.seed,
    )
}

fn ponder_from_tt(context: &SearchContext<'_>, mv: Move) -> Option<Move> {
    let mut after = context.game.clone();
    after.play(mv).ok()?;
    // The key without the forbid history, in a search with or without the goats' malus.
    let own = after.position().hash();
    let stored = [own, own ^ LAST_LAYER_MALUS_KEY]
        .into_iter()
        .find_map(|key| context.tt.probe(key).and_then(|entry| entry.mv));
    match stored {
        Some(reply) if after.check_move(reply).is_ok() => Some(reply),
        _ => guess_reply(context.game, mv, context.params),
    }
}

/// The main thread's link to the observer.
pub(crate) struct Reporter<'a> {
    pub(crate) observer: &'a mut dyn SearchObserver,
    pub(crate) counters: &'a [AtomicU64],
}

impl Reporter<'_> {
    pub(crate) fn total_nodes(&self, main: &Worker<'_>) -> u64 {
        main.nodes
            + self.counters[1..]
                .iter()
                .map(|c| c.load(Ordering::Relaxed))
                .sum::<u64>()
    }
}

/// Iterative deepening; returns the last completed depth (at least 1).
fn iterate(
    worker: &mut Worker<'_>,
    moves: &mut [RootMove],
    context: &SearchContext<'_>,
    multi_pv: usize,
    max_depth: u32,
    mut reporter: Option<&mut Reporter<'_>>,
) -> u32 {
    let lines = multi_pv.clamp(1, moves.len());
    let offset = (worker.id % 2) as u32;
    let mut completed = 0;
    for depth in 1..=max_depth {
        let search_depth = (depth + offset).min(MAX_DEPTH);
        worker.abort = if depth > 1 { Abort::Any } else { Abort::Never };
        worker.seldepth = 0;
        worker.heuristics.clear_killers();
        for root_move in moves.iter_mut() {
            root_move.previous_score = root_move.score;
            root_move.score = -INFINITE;
        }
        for line in 0..lines {
            aspiration(
                worker,
                moves,
                line,
                search_depth as i32,
                context,
                reporter.as_deref_mut(),
            );
            if worker.aborted {
                break;
            }
            moves[..=line].sort_by_key(|root_move| std::cmp::Reverse(root_move.score));
        }
        if worker.aborted {
            if moves[0].score == -INFINITE {
                for root_move in moves.iter_mut() {
                    root_move.score = root_move.previous_score;
                }
            }
            moves.sort_by_key(|root_move| std::cmp::Reverse(root_move.score));
            break;
        }
        completed = search_depth;
        if let Some(reporter) = reporter.as_deref_mut() {
            let nodes = reporter.total_nodes(worker);
            for (line, root_move) in moves[..lines].iter().enumerate() {
                let info = context.info(
                    search_depth,
                    worker.seldepth,
                    line,
                    root_move.score,
                    Bound::Exact,
                    nodes,
                    &root_move.pv,
                );
                reporter.observer.on_info(&info);
            }
        }
        if worker.id == 0 && should_stop(worker, moves, context, depth) {
            break;
        }
        if worker.id != 0 && context.control.helpers_stopped() {
            break;
        }
    }
    completed.max(1)
}

fn should_stop(
    worker: &Worker<'_>,
    moves: &[RootMove],
    context: &SearchContext<'_>,
    depth: u32,
) -> bool {
    let control = context.control;
    if control.is_stopped() || worker.node_limit.is_some_and(|limit| worker.nodes >= limit) {
        return true;
    }
    if context.limits.is_mate_found(moves[0].score) {
        return true;
    }
    if control.is_pondering() || worker.plan.hard.is_none() {
        return false;
    }
    let best = moves[0].score;
    let mate_proven = is_mate(best) && depth as i32 > MATE - best.abs() + 4;
    worker
        .plan
        .should_stop_iterating(control.budget_elapsed(worker.nodes))
        || mate_proven
        || (moves.len() == 1 && depth >= 4)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Rules;

    /// Whether the root's time is up, `waited` after the search started.
    fn time_is_up(limits: Limits, pondering: bool, nodes_per_ms: u64, waited: Duration) -> bool {
        let game = Game::new(Position::startpos(), Rules::default());
        let options = EngineOptions {
            move_overhead: Duration::ZERO,
            ..EngineOptions::default()
        };
        let tt = TranspositionTable::new(1);
        let params = Params::default();
        let control = Control::with_nodes_time(pondering, nodes_per_ms);
        let context = SearchContext {
            game: &game,
            options: &options,
            params: &params,
            limits: &limits,
            tt: &tt,
            control: &control,
            tablebase: TbProbe::new(None, game.rules()),
        };
        std::thread::sleep(waited);
        context.root_time_is_up()
    }

    #[test]
    fn the_root_stops_its_extra_work_when_no_iteration_would_start() {
        let clock = |ms| Limits {
            time_left: [Some(Duration::from_millis(ms)), None],
            ..Limits::default()
        };
        // 2.5 s on the clock: 100 ms planned, so no new iteration after 50 ms.
        let waited = Duration::from_millis(120);
        assert!(!time_is_up(clock(2500), false, 0, Duration::ZERO));
        assert!(time_is_up(clock(2500), false, 0, waited));
        assert!(!time_is_up(clock(60_000), false, 0, waited));
        // A move time of 200 ms: half of it.
        let movetime = |ms| Limits {
            movetime: Some(Duration::from_millis(ms)),
            ..Limits::default()
        };
        assert!(time_is_up(movetime(200), false, 0, waited));
        assert!(!time_is_up(movetime(1000), false, 0, waited));
        // Never while pondering, without a clock, or with the time counted in nodes.
        assert!(!time_is_up(clock(2500), true, 0, waited));
        assert!(!time_is_up(Limits::default(), false, 0, waited));
        assert!(!time_is_up(clock(2500), false, 1000, waited));
    }
}
