//! One search thread: principal variation search with quiescence, on a board-key stack that
//! implements the repetition rules.

use std::sync::atomic::{AtomicU64, Ordering};

use crate::zobrist::{history_key, mix};
use crate::{Move, MoveList, Position, Repetition, Rules};

use super::eval::{evaluate, last_layer_shift};
use super::history::{is_reversible, GameKeys};
use super::ordering::{pick_next, Heuristics};
use super::params::Params;
use super::score::{
    from_tt, is_mate, mate_in, mated_in, to_tt, Bound, Value, DRAW, INFINITE, MAX_PLY,
};
use super::time::{Control, TimePlan};
use super::tt::{TranspositionTable, TtEntry};

mod narrow;
mod quiescence;
mod singular;

use singular::Singular;

/// Stored in the table when no static evaluation was computed.
const NO_EVAL: Value = -INFINITE;

/// Nodes between two looks at the clock and the stop flag.
const POLL_INTERVAL: u64 = 256;
/// Table probes between two looks at the clock and the stop flag: a probe of a page not yet
/// in memory waits for the disk (a fraction of a millisecond each), so a few hundred nodes that
/// each probe could overrun a short clock between two looks counted in nodes.
const PROBE_POLL_INTERVAL: u64 = 8;

/// What may end a search before it is finished.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Abort {
    /// Nothing: the first iteration, until its first root move has a value.
    Never,
    /// `stop` and the clock, not the node limit: the rest of the first iteration, which then
    /// plays the best root move valued so far rather than lose on time (a `go nodes` search
    /// still completes it, node for node).
    StopOrTime,
    /// Anything, the node limit included: every later iteration.
    Any,
}

/// Late move reductions, by depth and move number.
/// Late move reductions by depth (rows, up to 63) and move number (columns, up to 95), with
/// `divisor` in hundredths (larger = smaller reductions).
fn reduction_table(divisor: i32) -> Vec<i32> {
    let divisor = f64::from(divisor.max(1)) / 100.0;
    let mut table = vec![0; 64 * 96];
    for depth in 1..64 {
        for number in 1..96 {
            let value = 0.4 + (depth as f64).ln() * (number as f64).ln() / divisor;
            table[depth * 96 + number] = value as i32;
        }
    }
    table
}

/// The depth given to a table entry whose value may not be used (no search asks for it).
const UNUSABLE_DEPTH: i32 = i32::MIN;

/// Xored into every key of a search with the goats' last-layer malus.
pub(crate) const LAST_LAYER_MALUS_KEY: u64 = 0x9e37_79b9_7f4a_7c15;

/// The transposition table's key of a position whose own key is `own`, with the key of the set
/// of `earlier` states ([`GameKeys::since_irreversible`]) that the forbid rule makes part of
/// its value, in a search with the goats' last-layer `malus` (0: none).
fn table_key_of(own: u64, earlier: Option<u64>, malus: Value) -> u64 {
    let key = match earlier {
        Some(earlier) => own ^ mix(earlier),
        None => own,
    };
    if malus == 0 {
        key
    } else {
        key ^ LAST_LAYER_MALUS_KEY
    }
}

/// A search thread's state.
pub struct Worker<'a> {
    /// Thread index; 0 is the main thread.
    pub id: usize,
    pub(crate) rules: Rules,
    pub(crate) params: &'a Params,
    pub(crate) tt: &'a TranspositionTable,
    pub(crate) control: &'a Control,
    pub(crate) plan: TimePlan,
    pub(crate) node_limit: Option<u64>,
    pub(crate) shared_nodes: &'a AtomicU64,
    /// Nodes searched by this thread.
    pub nodes: u64,
    /// Deepest ply reached in the current iteration.
    pub seldepth: usize,
    /// Whole-state keys of the current search path, the root first.
    path: Vec<u64>,
    /// Per ply of the path, the key of the set of states since the last placement or capture
    /// (the XOR of their [`history_key`]s; the game's before the root included), the state at
    /// that ply among them: under the forbid rule these states decide which moves remain, so
    /// they are part of the transposition table's key (see [`Worker::table_keys`]).
    since_irreversible: Vec<u64>,
    /// The position searched.
    pub(crate) root: Position,
    game_keys: &'a GameKeys,
    pub(crate) heuristics: Heuristics,
    pv: Vec<Vec<Move>>,
    /// Late move reductions, see [`reduction_table`].
    reductions: Vec<i32>,
    /// Whether the move into each ply was a null move.
    null_played: Vec<bool>,
    /// The move left out at each ply by a singular test's search (see [`singular`]).
    excluded: Vec<Option<Move>>,
    /// Depth of the current iteration, which bounds how far extensions reach.
    root_depth: i32,
    /// What may abort the search now (see [`Abort`]).
    pub(crate) abort: Abort,
    /// Table probes made (see [`PROBE_POLL_INTERVAL`]).
    probes: u64,
    /// Set once the search must unwind; results after it are discarded.
    pub aborted: bool,
    /// The tables to probe (see [`super::tb::node`]).
    pub(crate) tb: Option<&'a super::tb::TbProbe<'a>>,
    /// The malus of the goats' last layer ([`super::eval::last_layer_malus`]): set with the
    /// tables.
    pub(crate) last_layer_malus: Value,
}

impl<'a> Worker<'a> {
    /// A worker for the search of `root`.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        id: usize,
        rules: Rules,
        params: &'a Params,
        tt: &'a TranspositionTable,
        control: &'a Control,
        plan: TimePlan,
        node_limit: Option<u64>,
        shared_nodes: &'a AtomicU64,
        game_keys: &'a GameKeys,
        root: Position,
    ) -> Worker<'a> {
        let mut path = Vec::with_capacity(MAX_PLY + 2);
        path.push(root.hash());
        let mut since_irreversible = Vec::with_capacity(MAX_PLY + 2);
        since_irreversible.push(game_keys.since_irreversible() ^ history_key(root.hash()));
        Worker {
            id,
            rules,
            params,
            tt,
            control,
            plan,
            node_limit,
            shared_nodes,
            nodes: 0,
            seldepth: 0,
            path,
            since_irreversible,
            root,
            game_keys,
            heuristics: Heuristics::new(params.goat_safety != 0),
            pv: (0..MAX_PLY + 2)
                .map(|_| Vec::with_capacity(MAX_PLY))
                .collect(),
            reductions: reduction_table(params.lmr_divisor),
            null_played: vec![false; MAX_PLY + 2],
            excluded: vec![None; MAX_PLY + 2],
            root_depth: 0,
            abort: Abort::Never,
            probes: 0,
            aborted: false,
            tb: None,
            last_layer_malus: 0,
        }
    }

    /// The principal variation found below the root move just searched (from ply 1).
    pub fn child_pv(&self) -> &[Move] {
        &self.pv[1]
    }

    /// What every node (main search and quiescence) does first: count it, and return its value
    /// when it is decided without a search: aborted, tigers already won, drawn by repetition, or
    /// answered by the tablebases.
    #[inline]
    fn enter_node(&mut self, position: &Position, ply: usize) -> Option<Value> {
        self.count_node();
        if self.aborted {
            return Some(0);
        }
        self.seldepth = self.seldepth.max(ply);
        if position.is_captures_reached(&self.rules) {
            return Some(mated_in(ply));
        }
        if self.rules.repetition == Repetition::Draw
            && !position.is_placement_phase()
            && self.occurred_before(self.path[ply], ply)
        {
            return Some(DRAW);
        }
        self.probe_tablebase(position, ply)
    }

    /// Counts a node and decides whether to abort.
    #[inline]
    fn count_node(&mut self) {
        self.nodes += 1;
        if self.nodes.is_multiple_of(POLL_INTERVAL) {
            self.shared_nodes.store(self.nodes, Ordering::Relaxed);
            if self.abort != Abort::Never {
                self.check_abort();
            }
        }
        if self.abort == Abort::Any && self.node_limit.is_some_and(|limit| self.nodes >= limit) {
            self.aborted = true;
        }
    }

    /// Counts a table probe and, every [`PROBE_POLL_INTERVAL`], decides whether to abort.
    #[inline]
    pub(crate) fn count_probe(&mut self) {
        self.probes += 1;
        if self.probes.is_multiple_of(PROBE_POLL_INTERVAL) && self.abort != Abort::Never {
            self.check_abort();
        }
    }

    fn check_abort(&mut self) {
        let stopped = if self.id == 0 {
            self.control.is_stopped()
        } else {
            self.control.helpers_stopped()
        };
        if stopped
            || (!self.control.is_pondering()
                && self
                    .plan
                    .is_out_of_time(self.control.budget_elapsed(self.nodes)))
        {
            self.aborted = true;
        }
    }

    /// Whether a state with key `key` at `ply` occurred before on the path or in the game.
    pub(crate) fn occurred_before(&self, key: u64, ply: usize) -> bool {
        let mut index = ply;
        while index >= 2 {
            index -= 2;
            if self.path[index] == key {
                return true;
            }
        }
        self.game_keys.contains(key)
    }

    /// Enters `child`, reached from `parent` by a move (or a null move), onto the path.
    pub(crate) fn push_state(&mut self, parent: &Position, child: &Position) {
        let key = child.hash();
        let carried = if is_reversible(parent, child) {
            self.since_irreversible[self.path.len() - 1]
        } else {
            0
        };
        self.path.push(key);
        self.since_irreversible.push(carried ^ history_key(key));
    }

    /// Leaves the last state of the path.
    pub(crate) fn pop_state(&mut self) {
        self.path.pop();
        self.since_irreversible.pop();
    }

    /// Keeps the first `len` states of the path.
    fn truncate_path(&mut self, len: usize) {
        self.path.truncate(len);
        self.since_irreversible.truncate(len);
    }

    /// The transposition table's keys of `position` at `ply`: the key its result is stored
    /// under, and under the forbid rule in the movement phase with earlier states since the
    /// last placement or capture, the key it shares with every other history (`None`
    /// otherwise). Under forbid a position's value depends on those earlier states (they may
    /// not be recreated), so its own key holds them: a mate found because a cycle ran out of
    /// fresh states is reused only where the same states were played (the graph-history
    /// interaction). The shared key offers the other histories a move to try first and a
    /// value that is not a mate, as under the draw rule: such a value cannot make a mate
    /// claim (a mate is proven by mates below it), and without it a position reached by
    /// different cycles would be searched afresh each time.
    /// A search that scores the goats' last layer with a malus ([`Worker::last_layer_malus`])
    /// has keys of its own, so that it and a search without the malus (the same engine
    /// searching for the tigers, or analysing) never read each other's values.
    fn table_keys(&self, position: &Position, ply: usize) -> (u64, Option<u64>) {
        let own = position.hash();
        let earlier = self.since_irreversible[ply] ^ history_key(own);
        let shared = table_key_of(own, None, self.last_layer_malus);
        if earlier != 0 && self.forbid_applies(position) {
            let key = table_key_of(own, Some(earlier), self.last_layer_malus);
            (key, Some(shared))
        } else {
            (shared, None)
        }
    }

    /// The table's entry for `position` at `ply` ([`Worker::table_keys`]): its history's own,
    /// or else the one shared by every history with a mate's value made unusable (a depth no
    /// search asks for).
    fn probe_table(&self, keys: (u64, Option<u64>), ply: usize) -> Option<TtEntry> {
        let (key, shared) = keys;
        self.tt.probe(key).or_else(|| {
            let mut entry = self.tt.probe(shared?)?;
            if is_mate(from_tt(entry.value, ply)) {
                entry.depth = UNUSABLE_DEPTH;
            }
            Some(entry)
        })
    }

    /// The keys of the search path before `ply`, the root first.
    pub(crate) fn path_keys(&self, ply: usize) -> &[u64] {
        &self.path[..ply.min(self.path.len())]
    }

    /// Whether a null move was played on the path to `ply`.
    pub(crate) fn null_move_on_path(&self, ply: usize) -> bool {
        self.null_played[1..=ply.min(self.null_played.len() - 1)]
            .iter()
            .any(|&null| null)
    }

    /// Whether the forbid rule removes moves from `position`.
    fn forbid_applies(&self, position: &Position) -> bool {
        self.rules.repetition == Repetition::Forbid && !position.is_placement_phase()
    }

    /// The legal moves at `ply`, repetition rules included.
    pub fn legal_moves(&self, position: &Position, ply: usize) -> MoveList {
        let mut moves = position.legal_moves(&self.rules);
        if self.forbid_applies(position) {
            moves.retain(|mv| !self.occurred_before(position.played(mv).hash(), ply + 1));
        }
        moves
    }

    /// Searches `child` (the root after `mv`) as ply 1 and returns its value for the root.
    pub fn search_root_move(
        &mut self,
        child: &Position,
        depth: i32,
        alpha: Value,
        beta: Value,
        pv_node: bool,
    ) -> Value {
        self.root_depth = depth;
        self.truncate_path(1);
        let root = self.root;
        self.push_state(&root, child);
        let value = -self.search(child, depth - 1, -beta, -alpha, 1, pv_node);
        self.truncate_path(1);
        value
    }

    /// The static evaluation of `position` for the search: [`evaluate`], and under `Repetition
    /// forbid` with the tables the malus of the goats' last layer ([`last_layer_shift`]).
    #[inline]
    pub(crate) fn evaluate(&self, position: &Position) -> Value {
        evaluate(position, &self.rules, self.params)
            + last_layer_shift(position, &self.rules, self.last_layer_malus)
    }

    /// Principal variation search of `position` at `ply` with `depth` plies left.
    fn search(
        &mut self,
        position: &Position,
        depth: i32,
        mut alpha: Value,
        mut beta: Value,
        ply: usize,
        pv_node: bool,
    ) -> Value {
        self.pv[ply].clear();
        if depth <= 0 {
            return self.quiescence(position, alpha, beta, ply, self.params.goat_evasions);
        }
        if let Some(value) = self.enter_node(position, ply) {
            return value;
        }
        if ply >= MAX_PLY - 8 {
            return self.evaluate(position);
        }
        alpha = alpha.max(mated_in(ply));
        beta = beta.min(mate_in(ply + 1));
        if alpha >= beta {
            return alpha;
        }

        // A singular test's search of this node without its hash move: no cutoffs from the
        // table or the evaluation, and nothing stored.
        let excluded = self.excluded[ply];
        let keys = self.table_keys(position, ply);
        let entry = self.probe_table(keys, ply);
        let mut hash_move = None;
        if let Some(entry) = entry {
            hash_move = entry.mv;
            let value = from_tt(entry.value, ply);
            if !pv_node
                && excluded.is_none()
                && entry.depth >= depth
                && match entry.bound {
                    Bound::Exact => true,
                    Bound::Lower => value >= beta,
                    Bound::Upper => value <= alpha,
                }
            {
                return value;
            }
        }

        let mut moves = self.legal_moves(position, ply);
        if moves.is_empty() {
            return mated_in(ply);
        }
        // The static evaluation, computed only where pruning needs it.
        let stored_eval = entry
            .map(|entry| entry.eval)
            .filter(|&eval| eval != NO_EVAL);
        let margin = self.params.futility_margin;
        let needs_eval = !pv_node
            && excluded.is_none()
            && ((margin > 0 && depth <= 3) || (self.params.null_move != 0 && depth >= 3));
        let static_eval = match stored_eval {
            Some(eval) => eval,
            None if needs_eval => self.evaluate(position),
            None => NO_EVAL,
        };

        // Crowded positions (a setting, off by default) are neither pruned nor reduced.
        let crowded = self.is_crowded(position);
        // Reverse futility: far above beta near the leaves, with no capture to fear.
        if static_eval != NO_EVAL
            && !crowded
            && !pv_node
            && excluded.is_none()
            && margin > 0
            && depth <= 3
            && !is_mate(beta)
            && static_eval - margin * depth >= beta
            && !position.has_capture()
        {
            return static_eval;
        }

        // Null move: if passing still holds beta, a real move surely does.
        if self.params.null_move != 0
            && static_eval != NO_EVAL
            && !pv_node
            && excluded.is_none()
            && depth >= 3
            && static_eval >= beta
            && !is_mate(beta)
            && !self.null_played[ply]
        {
            let passed = Position::from_parts(
                position.tigers(),
                position.goats(),
                position.side_to_move().opposite(),
                position.goats_in_hand(),
                position.goats_captured(),
            );
            if let Ok(passed) = passed {
                self.push_state(position, &passed);
                self.null_played[ply + 1] = true;
                let reduction = 2 + depth / 4;
                let value = -self.search(
                    &passed,
                    depth - 1 - reduction,
                    -beta,
                    -beta + 1,
                    ply + 1,
                    false,
                );
                self.null_played[ply + 1] = false;
                self.pop_state();
                if self.aborted {
                    return 0;
                }
                if value >= beta {
                    return if is_mate(value) { beta } else { value };
                }
            }
        }

        // Singular extension of the hash move, or a multi-cut.
        let mut singular_move = None;
        if let (Some(entry), None) = (entry, excluded) {
            match self.singular(position, &entry, &moves, depth, beta, ply) {
                Singular::Extend(mv) => singular_move = Some(mv),
                Singular::Cut(value) => return value,
                Singular::No => {}
            }
        }

        let mut scores = [0i32; crate::movelist::MAX_MOVES];
        self.heuristics
            .score_moves(position, &moves, hash_move, ply, &mut scores[..moves.len()]);
        let side = position.side_to_move();
        // Extensions of narrow lines and of the goats' few parries (settings, off by default).
        let may_extend = self.within_extension_reach(ply);
        let parry_node = may_extend && self.few_parries(position, &moves);
        let original_alpha = alpha;
        let mut best_value = -INFINITE;
        let mut best_move = None;
        for index in 0..moves.len() {
            let mv = pick_next(&mut moves, &mut scores, index);
            if Some(mv) == excluded {
                continue;
            }
            let quiet = !mv.is_capture() && scores[index] < 900_000;
            let child = position.played(mv);
            // Captures are few (each removes a goat), so extending them cannot run away.
            let extension = i32::from(
                (self.params.capture_extension != 0 && mv.is_capture())
                    || Some(mv) == singular_move
                    || (may_extend && self.is_narrow(&child))
                    || (parry_node && !child.has_capture()),
            );
            let new_depth = depth - 1 + extension;
            self.push_state(position, &child);
            let value = if index == 0 {
                -self.search(&child, new_depth, -beta, -alpha, ply + 1, pv_node)
            } else {
                let reducible =
                    self.params.reductions != 0 && !crowded && depth >= 3 && quiet && index >= 3;
                let reduce = if reducible {
                    (self.reductions[depth.min(63) as usize * 96 + index.min(95)]
                        - i32::from(pv_node))
                    .clamp(0, new_depth - 1)
                } else {
                    0
                };
                let mut value = -self.search(
                    &child,
                    new_depth - reduce,
                    -alpha - 1,
                    -alpha,
                    ply + 1,
                    false,
                );
                if value > alpha && reduce > 0 {
                    value = -self.search(&child, new_depth, -alpha - 1, -alpha, ply + 1, false);
                }
                if value > alpha && value < beta && pv_node {
                    value = -self.search(&child, new_depth, -beta, -alpha, ply + 1, true);
                }
                value
            };
            self.pop_state();
            if self.aborted {
                return 0;
            }
            if value > best_value {
                best_value = value;
                if value > alpha {
                    best_move = Some(mv);
                    alpha = value;
                    if pv_node {
                        let (head, tail) = self.pv.split_at_mut(ply + 1);
                        head[ply].clear();
                        head[ply].push(mv);
                        head[ply].extend_from_slice(&tail[0]);
                    }
                    if value >= beta {
                        // The moves tried before are the ones picked into the slots before this one.
                        self.heuristics
                            .record_cutoff(side, ply, mv, depth, &moves[..index]);
                        break;
                    }
                }
            }
        }
        if excluded.is_some() {
            return best_value;
        }
        let bound = if best_value >= beta {
            Bound::Lower
        } else if best_value > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        let value = to_tt(best_value, ply);
        self.tt
            .store(keys.0, best_move, value, static_eval, depth, bound);
        if let Some(shared) = keys.1.filter(|_| !is_mate(best_value)) {
            self.tt
                .store(shared, best_move, value, static_eval, depth, bound);
        }
        best_value
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Game;

    /// Whether a worker aborts with `abort`, the search stopped and a node limit of 1 passed,
    /// after `probes` table probes (and no node poll) or, with `probes` 0, after its first node
    /// poll.
    fn aborts(abort: Abort, stopped: bool, probes: u64) -> bool {
        let game = Game::new(Position::startpos(), Rules::default());
        let (params, tt) = (Params::default(), TranspositionTable::new(1));
        let (control, nodes, keys) = (Control::new(false), AtomicU64::new(0), GameKeys::new(&game));
        if stopped {
            control.stop();
        }
        let plan = TimePlan::default();
        let root = *game.position();
        let mut worker = Worker::new(
            0,
            Rules::default(),
            &params,
            &tt,
            &control,
            plan,
            Some(1),
            &nodes,
            &keys,
            root,
        );
        worker.abort = abort;
        if probes == 0 {
            for _ in 0..POLL_INTERVAL {
                worker.count_node();
            }
        } else {
            for _ in 0..probes {
                worker.count_probe();
            }
        }
        worker.aborted
    }

    #[test]
    fn the_first_iteration_ends_on_stop_or_time_once_allowed_never_on_nodes() {
        // A stop is seen at the node poll, and every few table probes (which may wait for
        // the disk), once aborting is allowed.
        for polls in [0, PROBE_POLL_INTERVAL] {
            assert!(!aborts(Abort::Never, true, polls), "{polls}");
            assert!(aborts(Abort::StopOrTime, true, polls), "{polls}");
            assert!(aborts(Abort::Any, true, polls), "{polls}");
        }
        assert!(!aborts(Abort::StopOrTime, true, PROBE_POLL_INTERVAL - 1));
        // The node limit ends only the later iterations (`go nodes` is deterministic).
        assert!(!aborts(Abort::StopOrTime, false, 0));
        assert!(aborts(Abort::Any, false, 0));
    }

    #[test]
    fn searches_with_and_without_the_last_layer_malus_keep_apart() {
        let (own, earlier) = (0x1234_5678_9abc_def0, 0x0fed_cba9_8765_4321);
        for history in [None, Some(earlier)] {
            let plain = table_key_of(own, history, 0);
            assert_ne!(plain, table_key_of(own, history, 150), "{history:?}");
            assert_eq!(
                table_key_of(own, history, 150),
                table_key_of(own, history, 80),
                "{history:?}"
            );
        }
        assert_eq!(table_key_of(own, None, 0), own);
        assert_ne!(table_key_of(own, Some(earlier), 0), own);
    }
}
