//! `tb forbid prove`: a proof-number search from one position under `Repetition forbid`, with
//! the game's history in every node, where the component solver cannot go (docs/forbid.md,
//! "Proof search").
//!
//! The search is Nagai's depth-first proof-number search (df-pn) in negamax form: each node has
//! a proof number (how many leaves must still be settled to show that its mover wins) and a
//! disproof number (to show that the mover loses), kept in a transposition table. Leaves are
//! settled by what is proven whatever the history: a table win or loss (claim 2: the path
//! inside a layer holds table draws only), a stored forbid value, an earlier proof search's
//! value from an empty history when given ([`ProvedEntries`]), or a placement value under
//! forbid; a table draw with a history is settled by [`ForbidJudge`] when its component is
//! small, and searched otherwise.
//!
//! The graph-history interaction (Kishimoto and Müller) cannot arise: a node's value depends on
//! its position and on the *set* of its layer's states played before it (claim 1: they are the
//! moves it may not make), and the table's key is exactly that pair (the set by a 64-bit key,
//! 0 for the history-free nodes: placement positions, and movement states right after the last
//! placement or a capture, whose entries every path shares). A move never recreates a state of
//! its layer, so no path meets a node twice: the searched graph has no cycle. A history-free
//! node is keyed by the least of its 8 images under the board's symmetries (its value is its
//! position's, and the rules do not change under them), so symmetric ones share an entry.

use super::history::ForbidJudge;
use super::proved::ProvedEntries;
use super::tables::ForbidTables;
use super::ForbidValue;
use crate::tablebase::generate::Progress;
use crate::tablebase::symmetry::{transform, SYMMETRIES};
use crate::tablebase::{Tablebase, Wdl};
use crate::zobrist::{history_key, mix};
use crate::{Bitboard, Move, Position, Repetition, Rules, Side};
use std::collections::HashMap;
use std::hash::{BuildHasher, BuildHasherDefault, Hash, Hasher};
use std::sync::Arc;
use std::time::Instant;

/// A proof or disproof number that cannot be reached (the node is settled the other way).
const INFINITE: u32 = u32::MAX;

/// Nodes deeper than this (plies from the root) are left open (numbers infinite both ways:
/// they settle nothing), so that the recursion (a few hundred bytes a frame) stays within a
/// test thread's 2 MB stack.
pub const MAX_DEPTH: usize = 2_000;

/// Transposition entries a prover keeps by default (in 2^25 slots of 49 bytes: 1.6 GB).
pub const DEFAULT_TABLE_ENTRIES: u64 = 1 << 24;

/// Stack for a thread that runs a search ([`MAX_DEPTH`] frames, and room to spare).
pub const SEARCH_STACK: usize = 64 << 20;

/// States a [`ForbidJudge`] may search to find a small component.
const COMPONENT_BUDGET: usize = 4096;

/// What the search may use and spend.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ProveOptions {
    /// Nodes expanded allowed per root; the search stops unsettled when it needs more.
    pub max_nodes: u64,
    /// Transposition entries kept (when full, the half with the least work under them goes).
    pub table_entries: u64,
    /// Whether stored forbid values (movement files and placement values) settle leaves; without
    /// them only table wins and losses and the end of the game do (for cross-checks).
    pub use_stored: bool,
}

/// One move of the root and what the search knows of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RootMove {
    /// The move.
    pub mv: Move,
    /// The move's value for the mover at the root (unknown: not settled).
    pub value: ForbidValue,
    /// Proof and disproof numbers of the child, from the child's mover's view.
    pub numbers: (u32, u32),
}

/// What a search found.
#[derive(Clone, Debug, PartialEq)]
pub struct ProveResult {
    /// The root's value for its side to move (unknown: not settled within the budget).
    pub value: ForbidValue,
    /// Nodes expanded (a node searched again counts again).
    pub nodes: u64,
    /// Transposition entries when the search stopped (a prover keeps them from root to root).
    pub table_entries: u64,
    /// The root's proof and disproof numbers when the search stopped.
    pub numbers: (u32, u32),
    /// The root's moves (fresh ones, for the root's history), with their state.
    pub root_moves: Vec<RootMove>,
    /// Wall time, seconds.
    pub seconds: f64,
}

/// What [`Prover::prove_each_move`] found.
#[derive(Clone, Debug, PartialEq)]
pub struct EachMove {
    /// The root's value for its side to move, from its moves' values.
    pub value: ForbidValue,
    /// The fresh moves, in the order of the legal moves.
    pub moves: Vec<MoveProof>,
}

/// One root move searched as a root of its own.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveProof {
    /// The move.
    pub mv: Move,
    /// The earlier move whose result this one shares (its child has the same node key: an
    /// image of that one's under a symmetry), or `None` when it was searched.
    pub same_as: Option<Move>,
    /// The search of the move's child (its value for the child's side to move).
    pub result: ProveResult,
}

/// Proof and disproof numbers of a settled value, or of an open node with `moves` moves.
fn numbers(value: Option<ForbidValue>, moves: u32) -> (u32, u32) {
    match value {
        Some(ForbidValue::Win) => (0, INFINITE),
        Some(ForbidValue::Loss) => (INFINITE, 0),
        // Disproving an open node means refuting every move: more moves, more work.
        _ => (1, moves.max(1)),
    }
}

/// The value of proof and disproof numbers.
fn value_of(numbers: (u32, u32)) -> ForbidValue {
    match numbers {
        (0, _) => ForbidValue::Win,
        (_, 0) => ForbidValue::Loss,
        _ => ForbidValue::Unknown,
    }
}

/// A node's key: the position and the set of its layer's states played before it (a node's
/// value depends on nothing else: claim 1), the set as the XOR of a mix of their keys (0 for
/// none).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
struct Key {
    position: Position,
    set: u64,
}

impl Hash for Key {
    /// One word: the position's Zobrist key and the history set's key, both already random.
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_u64(self.position.hash() ^ self.set);
    }
}

/// The transposition table's hasher: [`Key`]'s one word, mixed once (the default SipHash of
/// the whole key took a fifth of a proof search's time).
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write_u64(&mut self, word: u64) {
        self.0 = mix(self.0 ^ word);
    }

    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.write_u64(u64::from(byte));
        }
    }
}

/// Node keys to their entries.
type Table = HashMap<Key, Entry, BuildHasherDefault<KeyHasher>>;

/// The key of a history set from its states' Zobrist keys (0 for none).
fn history_set(hashes: impl IntoIterator<Item = u64>) -> u64 {
    hashes.into_iter().fold(0, |set, h| set ^ history_key(h))
}

/// The key of the node `position` with history key `set`. A history-free node (`set` 0) is
/// keyed by the least image of its position under the 8 symmetries: its value depends on the
/// position alone, and the rules are the same under them, so images share one entry (the
/// placements of the start position that are images of one another are searched once).
fn node_key(position: &Position, set: u64) -> Key {
    if set != 0 {
        return Key {
            position: *position,
            set,
        };
    }
    let (tigers, goats) = (0..SYMMETRIES)
        .map(|g| {
            let tigers = transform(position.tigers().0, g);
            (tigers, transform(position.goats().0, g))
        })
        .min()
        .expect("the identity is one of the symmetries");
    let image = Position::from_parts(
        Bitboard(tigers),
        Bitboard(goats),
        position.side_to_move(),
        position.goats_in_hand(),
        position.goats_captured(),
    )
    .expect("an image of a position is a position");
    Key {
        position: image,
        set: 0,
    }
}

/// The history key of a child of `parent` (whose own history key is `set`): the parent joins
/// the history when the child is in its layer; a new layer starts with none.
fn child_history(same_layer: bool, parent: &Position, set: u64) -> u64 {
    if same_layer {
        set ^ history_key(parent.hash())
    } else {
        0
    }
}

/// The moves of `position` that do not recreate a state of its layer's history `earlier` (a
/// capture leaves the layer, so it is always fresh). Counted without playing them: the moves
/// less the states of `earlier` one step away (each is one move's, the history has no state
/// twice).
fn fresh_moves(rules: &Rules, position: &Position, earlier: &[Position]) -> u32 {
    let moves = position.count_moves(rules);
    let steps_forced_out =
        position.side_to_move() == Side::Tigers && rules.forced_capture && position.has_capture();
    if moves == 0 || steps_forced_out {
        return moves;
    }
    let repeated = earlier.iter().filter(|state| position.is_step_to(state));
    moves - repeated.count() as u32
}

/// One move of a node being searched.
struct Child {
    position: Position,
    /// Its node key ([`node_key`]).
    key: Key,
    /// Same layer as the parent (the parent joins its history).
    same_layer: bool,
    /// Its value when settled without search.
    settled: Option<ForbidValue>,
    /// Its moves (for the first disproof number).
    moves: u32,
}

/// A transposition entry: a node's numbers and the expansions spent under it (its
/// subtree's size, the measure by which a full table chooses what to keep).
#[derive(Copy, Clone, Debug)]
struct Entry {
    numbers: (u32, u32),
    work: u32,
}

/// Drops every entry whose work is at most the median (at least half of them), as Nagai's
/// SmallTreeGC does: the results of the big subtrees, settled or open, survive a full table;
/// a table whose entries all have the same work empties.
///
/// The survivors are put back into the emptied table: `retain` would leave the dropped slots
/// as tombstones, which the map does not count as room, so a refill doubled it (measured: a
/// search capped at 56 million entries held 2^27 slots, 6.6 GB instead of 3.3).
fn drop_cheapest_half<K: Eq + Hash, S: BuildHasher>(table: &mut HashMap<K, Entry, S>) {
    let mut works: Vec<u32> = table.values().map(|entry| entry.work).collect();
    if works.is_empty() {
        return;
    }
    let middle = works.len() / 2;
    let median = *works.select_nth_unstable(middle).1;
    drop(works);
    // `drain` empties the table and keeps its slots.
    let kept: Vec<(K, Entry)> = table
        .drain()
        .filter(|(_, entry)| entry.work > median)
        .collect();
    table.extend(kept);
}

/// A depth-first proof-number search (Nagai's df-pn, negamax form) from one root at a time.
pub struct Prover<'a> {
    tables: &'a Tablebase,
    forbid: Option<&'a ForbidTables>,
    judge: Option<ForbidJudge<'a>>,
    rules: Rules,
    options: ProveOptions,
    /// Proof and disproof numbers by node key, with the work that found them; entries are kept
    /// from one root to the next (settled ones are facts about the tables), and a full table
    /// drops its cheapest half ([`Prover::store`]).
    table: Table,
    expansions: u64,
    /// Expansions allowed to the current root.
    limit: u64,
    /// Asked every [`STOP_CHECK`] expansions whether to stop now (a caller's clock or flag).
    stop: Option<&'a (dyn Fn() -> bool + Sync)>,
    /// Values of states right after the last placement or a capture that earlier proof
    /// searches settled (with `use_stored`).
    proved: Option<Arc<ProvedEntries>>,
    /// Emptied lists of [`Prover::children`], kept for reuse.
    spare_children: Vec<Vec<Child>>,
}

/// Expansions between two questions to a prover's stop hook.
const STOP_CHECK: u64 = 1 << 10;

impl<'a> Prover<'a> {
    /// A search over `tables` and, when given and `options.use_stored`, the forbid values made
    /// from them.
    pub fn new(
        tables: &'a Tablebase,
        forbid: Option<&'a ForbidTables>,
        options: ProveOptions,
    ) -> Prover<'a> {
        let forbid = forbid.filter(|_| options.use_stored);
        let table_rules = tables.rules();
        Prover {
            tables,
            forbid,
            judge: forbid.map(|forbid| ForbidJudge::new(tables, forbid)),
            rules: Rules {
                forced_capture: table_rules.forced_capture,
                captures_to_win: table_rules.captures_to_win,
                repetition: Repetition::Forbid,
            },
            options,
            table: Table::default(),
            expansions: 0,
            limit: 0,
            stop: None,
            proved: None,
            spare_children: Vec::new(),
        }
    }

    /// The same prover, stopping its current root (unsettled) as soon as `stop` says so
    /// (asked every 1,024 expansions): a search under a clock.
    pub fn with_stop(mut self, stop: &'a (dyn Fn() -> bool + Sync)) -> Prover<'a> {
        self.stop = Some(stop);
        self
    }

    /// Settles, from now on, a state with an empty history and no goat in hand by `proved`
    /// where it holds a win or a loss (with `use_stored`; `None`: no more).
    pub fn set_proved(&mut self, proved: Option<Arc<ProvedEntries>>) {
        self.proved = proved.filter(|_| self.options.use_stored);
    }

    /// Sets the expansions allowed to each root from now on (the table is kept: a root
    /// searched again with more goes on from what it found).
    pub fn set_max_nodes(&mut self, max_nodes: u64) {
        self.options.max_nodes = max_nodes;
    }

    /// Searches the last of `game` (positions oldest first; the earlier ones are its history)
    /// until the root is settled or `max_nodes` nodes were expanded. The history must hold table
    /// draws only since the last placement or capture (as in any game that has not left the
    /// draws); otherwise nothing is claimed and the root is unknown.
    pub fn prove(&mut self, game: &[Position], progress: Progress) -> ProveResult {
        let started = Instant::now();
        self.expansions = 0;
        self.limit = self.options.max_nodes;
        let Some(root) = game.last() else {
            return self.result(started, None, Vec::new(), (INFINITE, INFINITE));
        };
        let earlier = super::history::layer_history(game);
        let draws_only = earlier
            .iter()
            .all(|p| self.tables.probe(p).is_some_and(|v| v.wdl == Wdl::Draw));
        if !draws_only {
            return self.result(started, Some(root), Vec::new(), (INFINITE, INFINITE));
        }
        let mut history = earlier.to_vec();
        let set = history_set(history.iter().map(Position::hash));
        let numbers = match self.settle(root, earlier) {
            Some(value) => numbers(Some(value), 0),
            None => {
                let limits = (INFINITE, INFINITE);
                let mut found = self.search(root, &mut history, set, limits, 0, progress);
                while value_of(found) == ForbidValue::Unknown && self.expansions < self.limit {
                    // Stopped unsettled below the infinite limits (a number saturated, or the
                    // expansions ran out): search again while they last.
                    found = self.search(root, &mut history, set, limits, 0, progress);
                }
                found
            }
        };
        progress("forbid proof", self.expansions, self.limit);
        self.result(started, Some(root), history, numbers)
    }

    /// Searches each fresh move of the last of `game` as a root of its own (the search of
    /// [`Prover::prove`], `max_nodes` each), in the order of the legal moves, so that one hard
    /// move does not take the budget of the others. A move whose child has the node key of an
    /// earlier move's child (with an empty history: an image of it under a symmetry) is not
    /// searched again: it gets that move's result, and its `same_as` names that move. The
    /// root's value follows from its moves: a win when one of them wins, a loss when all lose.
    /// `searched` is told of each move as soon as it is done (a long run reports as it goes).
    pub fn prove_each_move(
        &mut self,
        game: &[Position],
        progress: Progress,
        searched: &mut dyn FnMut(&MoveProof),
    ) -> EachMove {
        let Some(root) = game.last() else {
            return EachMove {
                value: ForbidValue::Unknown,
                moves: Vec::new(),
            };
        };
        if root.is_captures_reached(&self.rules) {
            // The game is over: the goats, to move, have lost.
            return EachMove {
                value: ForbidValue::Loss,
                moves: Vec::new(),
            };
        }
        let mut moves: Vec<MoveProof> = Vec::new();
        let mut keys: Vec<Key> = Vec::new();
        for &mv in root.legal_moves(&self.rules).iter() {
            let child = root.played(mv);
            let mut child_game = game.to_vec();
            child_game.push(child);
            let child_earlier = super::history::layer_history(&child_game);
            if child_earlier.iter().any(|p| p.hash() == child.hash()) {
                // Forbidden: it recreates a state of this layer.
                continue;
            }
            let set = history_set(child_earlier.iter().map(Position::hash));
            let key = node_key(&child, set);
            let same_as = keys.iter().position(|k| *k == key);
            keys.push(key);
            let result = match same_as {
                Some(i) => moves[i].result.clone(),
                None => {
                    // Each move is a phase of its own: its count starts again from 0.
                    let per_move = |phase: &str, done: u64, total: u64| {
                        progress(&format!("{phase} after {mv}"), done, total);
                    };
                    self.prove(&child_game, &per_move)
                }
            };
            let proof = MoveProof {
                mv,
                same_as: same_as.map(|i| moves[i].mv),
                result,
            };
            searched(&proof);
            moves.push(proof);
        }
        // The mover's value of each move; no fresh move at all is a loss (the rule itself).
        let mut values = moves.iter().map(|m| m.result.value.negate());
        let value = if values.clone().any(|v| v == ForbidValue::Win) {
            ForbidValue::Win
        } else if values.all(|v| v == ForbidValue::Loss) {
            ForbidValue::Loss
        } else {
            ForbidValue::Unknown
        };
        EachMove { value, moves }
    }

    fn result(
        &mut self,
        started: Instant,
        root: Option<&Position>,
        history: Vec<Position>,
        numbers: (u32, u32),
    ) -> ProveResult {
        let root_moves = match root {
            Some(root) if value_of(numbers) != ForbidValue::Unknown || self.expansions > 0 => {
                self.root_moves(root, &history)
            }
            _ => Vec::new(),
        };
        ProveResult {
            value: value_of(numbers),
            nodes: self.expansions,
            table_entries: self.table.len() as u64,
            numbers,
            root_moves,
            seconds: started.elapsed().as_secs_f64(),
        }
    }

    /// The root's fresh moves with what the table knows of them.
    fn root_moves(&mut self, root: &Position, history: &[Position]) -> Vec<RootMove> {
        let set = history_set(history.iter().map(Position::hash));
        let path: Vec<Position> = history.iter().copied().chain([*root]).collect();
        let children = self.children(root, &path, set);
        let moves = children
            .iter()
            .map(|child| {
                let mv = root
                    .legal_moves(&self.rules)
                    .iter()
                    .copied()
                    .find(|&mv| root.played(mv) == child.position)
                    .expect("a child comes from a move");
                let numbers = self.child_numbers(child);
                RootMove {
                    mv,
                    value: value_of(numbers).negate(),
                    numbers,
                }
            })
            .collect();
        self.give_back(children);
        moves
    }

    /// The fresh moves of `position`, each settled where it can be without search (or already
    /// settled in the table). `path` holds its layer's states before it, then `position` last;
    /// `set` is the history key of those before it. The list comes from the
    /// prover's spare lists: hand it back with [`Prover::give_back`].
    fn children(&mut self, position: &Position, path: &[Position], set: u64) -> Vec<Child> {
        let mut children = self.spare_children.pop().unwrap_or_default();
        let earlier = &path[..path.len() - 1];
        for &mv in position.legal_moves(&self.rules).iter() {
            let child = position.played(mv);
            let same_layer = position.goats_in_hand() == 0
                && child.goats_captured() == position.goats_captured();
            if same_layer && earlier.iter().any(|state| state.hash() == child.hash()) {
                // Forbidden: it recreates a state of this layer.
                continue;
            }
            let key = node_key(&child, child_history(same_layer, position, set));
            let known = self.table.get(&key).map(|entry| value_of(entry.numbers));
            let settled = match known.filter(|value| value.is_proven()) {
                Some(value) => Some(value),
                None => {
                    let settled = self.settle(&child, if same_layer { path } else { &[] });
                    if settled.is_some() && child.goats_in_hand() != 0 {
                        // A placement value is dear to derive: remember it.
                        self.store(key, numbers(settled, 0), 1);
                    }
                    settled
                }
            };
            // The child's fresh moves: under forbid a mover short of them is being squeezed,
            // so its loss is the cheaper thing to show.
            let (moves, settled) = if same_layer && settled.is_none() {
                let fresh = fresh_moves(&self.rules, &child, path);
                // None left: the child's mover loses (the rule itself).
                (fresh, (fresh == 0).then_some(ForbidValue::Loss))
            } else {
                (child.count_moves(&self.rules), settled)
            };
            children.push(Child {
                position: child,
                key,
                same_layer,
                settled,
                moves,
            });
        }
        children
    }

    /// Keeps a list of [`Prover::children`] for the next node (their allocations are a
    /// noticeable part of a search's time).
    fn give_back(&mut self, mut children: Vec<Child>) {
        children.clear();
        self.spare_children.push(children);
    }

    /// A child's numbers: settled, from the table, or those of a new leaf.
    fn child_numbers(&self, child: &Child) -> (u32, u32) {
        if child.settled.is_some() {
            return numbers(child.settled, 0);
        }
        self.table
            .get(&child.key)
            .map_or_else(|| numbers(None, child.moves), |entry| entry.numbers)
    }

    /// Searches `position` (its layer's earlier states in `history`, their key `set`) until its
    /// proof number reaches `proof_limit` or its disproof number `disproof_limit`, or the
    /// expansions run out; returns its numbers.
    fn search(
        &mut self,
        position: &Position,
        history: &mut Vec<Position>,
        set: u64,
        (proof_limit, disproof_limit): (u32, u32),
        depth: usize,
        progress: Progress,
    ) -> (u32, u32) {
        let key = node_key(position, set);
        if depth >= MAX_DEPTH {
            self.store(key, (INFINITE, INFINITE), 1);
            return (INFINITE, INFINITE);
        }
        let expansions_before = self.expansions;
        self.expansions += 1;
        if self.expansions.is_multiple_of(1 << 20) {
            progress("forbid proof", self.expansions, self.limit);
        }
        if self.expansions.is_multiple_of(STOP_CHECK) && self.stop.is_some_and(|stop| stop()) {
            // Out of time: the search unwinds as if its expansions had run out.
            self.limit = self.expansions;
        }
        history.push(*position);
        let children = self.children(position, history, set);
        let mut current;
        loop {
            let mut proof = INFINITE;
            let mut disproof = 0u32;
            let mut best = usize::MAX;
            let mut second = INFINITE;
            let mut best_proof = 0;
            for (i, child) in children.iter().enumerate() {
                let (child_proof, child_disproof) = self.child_numbers(child);
                disproof = disproof.saturating_add(child_proof);
                if child_disproof < proof {
                    second = proof;
                    proof = child_disproof;
                    best = i;
                    best_proof = child_proof;
                } else if child_disproof < second {
                    second = child_disproof;
                }
            }
            current = (proof, disproof);
            if proof >= proof_limit
                || disproof >= disproof_limit
                || proof == 0
                || disproof == 0
                || self.expansions >= self.limit
            {
                break;
            }
            let child = &children[best];
            // The child's proof number counts toward this node's disproof number, its
            // disproof number is this node's proof number.
            let others = current.1.saturating_sub(best_proof);
            let child_proof_limit = disproof_limit.saturating_sub(others);
            // Pawlewicz and Lew's 1 + epsilon: stay with the child until it costs a quarter more
            // than the second best, rather than switching at the first step past it.
            let child_disproof_limit = proof_limit.min(
                second
                    .saturating_add(1)
                    .max(second.saturating_add(second / 4)),
            );
            let child_position = child.position;
            let child_set = child_history(child.same_layer, position, set);
            let limits = (child_proof_limit, child_disproof_limit);
            if child.same_layer {
                self.search(
                    &child_position,
                    history,
                    child_set,
                    limits,
                    depth + 1,
                    progress,
                );
            } else {
                self.search(
                    &child_position,
                    &mut Vec::new(),
                    0,
                    limits,
                    depth + 1,
                    progress,
                );
            }
        }
        history.pop();
        if children.is_empty() {
            // No fresh move: the mover loses.
            current = (INFINITE, 0);
        }
        self.give_back(children);
        // The work under a node adds up over its visits (while its entry lasts).
        let spent = (self.expansions - expansions_before).min(u64::from(u32::MAX)) as u32;
        let work = self.table.get(&key).map_or(0, |entry| entry.work);
        self.store(key, current, work.saturating_add(spent));
        current
    }

    /// Remembers a node's numbers and the work spent under it; a full table first drops its
    /// cheapest half ([`drop_cheapest_half`]).
    fn store(&mut self, key: Key, numbers: (u32, u32), work: u32) {
        if self.table.len() as u64 >= self.options.table_entries && !self.table.contains_key(&key) {
            drop_cheapest_half(&mut self.table);
        }
        self.table.insert(key, Entry { numbers, work });
    }

    /// The value of `position` for its mover when it is settled whatever comes after, given
    /// `earlier` (its layer's states before it on the path, all table draws);
    /// `None` when it must be searched.
    fn settle(&self, position: &Position, earlier: &[Position]) -> Option<ForbidValue> {
        if position.is_captures_reached(&self.rules) {
            return Some(ForbidValue::Loss);
        }
        // Claim 2 (movement) and the placement pass (no state of the placement phase recurs): a
        // table win or loss holds under forbid after table draws only.
        match self.tables.probe(position).map(|value| value.wdl) {
            Some(Wdl::Win) => return Some(ForbidValue::Win),
            Some(Wdl::Loss) => return Some(ForbidValue::Loss),
            _ => {}
        }
        let stored = match (self.forbid, &self.judge) {
            (Some(forbid), _) if position.goats_in_hand() != 0 => forbid.placement_value(position),
            (Some(forbid), _) if earlier.is_empty() => forbid.stored(position),
            // The judge can prove a value after a history only where one is stored (most
            // draws are unknown: asking the file first spares it a probe).
            (Some(forbid), Some(judge)) => forbid
                .stored(position)
                .filter(|value| value.is_proven())
                .map(|_| {
                    let keys: Vec<u64> = earlier.iter().map(Position::hash).collect();
                    judge.value_after_draws(position, &keys, COMPONENT_BUDGET)
                }),
            _ => None,
        };
        let proved = || match &self.proved {
            Some(proved) if earlier.is_empty() => proved.value(position),
            _ => None,
        };
        stored.filter(|value| value.is_proven()).or_else(proved)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::StdRng;
    use rand::seq::SliceRandom;
    use rand::{Rng, SeedableRng};

    #[test]
    fn a_full_table_keeps_the_entries_with_the_most_work() {
        let mut rng = StdRng::seed_from_u64(5);
        let mut table: HashMap<u32, Entry> = (0..1001)
            .map(|i| {
                let work = rng.random_range(0..300);
                (
                    i,
                    Entry {
                        numbers: (1, 1),
                        work,
                    },
                )
            })
            .collect();
        let mut before: Vec<u32> = table.values().map(|e| e.work).collect();
        before.sort_unstable();
        drop_cheapest_half(&mut table);
        assert!(table.len() <= 500, "{} kept", table.len());
        // Whatever was kept did more work than whatever was dropped.
        let least_kept = table.values().map(|e| e.work).min().unwrap();
        assert!(least_kept > before[500]);
        assert_eq!(
            table.len(),
            before.iter().filter(|&&w| w > before[500]).count()
        );
        // Equal works: nothing tells them apart, so all go.
        let mut equal: HashMap<u32, Entry> = (0..10)
            .map(|i| {
                (
                    i,
                    Entry {
                        numbers: (0, INFINITE),
                        work: 7,
                    },
                )
            })
            .collect();
        drop_cheapest_half(&mut equal);
        assert!(equal.is_empty());
        // An empty table stays empty (the median of nothing is not looked for).
        drop_cheapest_half(&mut equal);
        assert!(equal.is_empty());
    }

    #[test]
    fn a_table_held_at_its_cap_keeps_the_room_of_its_cap() {
        // As `Prover::store` fills a table: full at the cap, it drops its cheapest half.
        let cap = 1700;
        let mut sized: HashMap<u32, Entry> = HashMap::new();
        sized.reserve(cap);
        let mut table: HashMap<u32, Entry> = HashMap::new();
        let mut rng = StdRng::seed_from_u64(9);
        for key in 0..200_000 {
            if table.len() >= cap {
                drop_cheapest_half(&mut table);
            }
            let work = rng.random_range(0..10_000);
            let numbers = (1, 1);
            table.insert(key, Entry { numbers, work });
        }
        assert!(table.len() <= cap);
        // A drop must not leave the slots it empties unusable (they made the map double at
        // a refill, twice the memory the cap needs).
        assert!(
            table.capacity() <= sized.capacity(),
            "room for {} entries, {} needed",
            table.capacity(),
            sized.capacity()
        );
    }

    /// What [`check_fresh_moves`] met.
    #[derive(Default)]
    struct FreshCases {
        with_captures: usize,
        without_captures: usize,
        steps_forced_out: usize,
    }

    /// Checks [`fresh_moves`] of `position` (no goat in hand) against histories made of its
    /// children.
    fn check_fresh_moves(rules: &Rules, position: &Position, cases: &mut FreshCases) {
        let moves = position.legal_moves(rules);
        let children: Vec<Position> = moves.iter().map(|&mv| position.played(mv)).collect();
        let captures = children
            .iter()
            .filter(|child| child.goats_captured() != position.goats_captured())
            .count() as u32;
        assert_eq!(fresh_moves(rules, position, &[]), moves.len() as u32);
        // Every child already played: only the captures leave the layer.
        assert_eq!(fresh_moves(rules, position, &children), captures);
        // Every state a step away played, legal or not (a tiger that must capture has no
        // step): only the legal steps are gone.
        let unforced = Rules {
            forced_capture: false,
            ..*rules
        };
        let stepped: Vec<Position> = (position.legal_moves(&unforced).iter())
            .filter(|mv| matches!(mv, Move::Step { .. }))
            .map(|&mv| position.played(mv))
            .collect();
        let legal_steps = moves
            .iter()
            .filter(|mv| matches!(mv, Move::Step { .. }))
            .count();
        assert_eq!(
            fresh_moves(rules, position, &stepped),
            (moves.len() - legal_steps) as u32
        );
        cases.steps_forced_out += usize::from(legal_steps == 0 && !stepped.is_empty());
        if let Some(first) = children.first() {
            // One child played: that one move is gone unless it captures.
            let first_captures = u32::from(first.goats_captured() != position.goats_captured());
            assert_eq!(
                fresh_moves(rules, position, &children[..1]),
                moves.len() as u32 - 1 + first_captures
            );
        }
        if captures > 0 && (captures as usize) < moves.len() {
            cases.with_captures += 1;
        } else if captures == 0 {
            cases.without_captures += 1;
        }
    }

    #[test]
    fn fresh_moves_leave_out_the_layers_history_but_never_a_capture() {
        let mut rng = StdRng::seed_from_u64(3);
        let mut cases = FreshCases::default();
        for game in 0..200 {
            let rules = Rules {
                repetition: Repetition::Forbid,
                forced_capture: game % 2 == 1,
                ..Rules::default()
            };
            // The positions of a random game, then random boards with the tigers to move (in
            // random games the goats rarely last until all are placed).
            let mut position = Position::startpos();
            while position.goats_captured() < rules.captures_to_win {
                let moves = position.legal_moves(&rules);
                if moves.is_empty() {
                    break;
                }
                if position.goats_in_hand() == 0 {
                    check_fresh_moves(&rules, &position, &mut cases);
                }
                position = position.played(moves[rng.random_range(0..moves.len())]);
            }
            for _ in 0..10 {
                let mut squares: Vec<u32> = (0..25).collect();
                squares.shuffle(&mut rng);
                let goats = rng.random_range(16..=20);
                let board = |from: usize, to: usize| {
                    Bitboard(squares[from..to].iter().fold(0, |b, &s| b | 1 << s))
                };
                let (tigers, goats_on_board) = (board(0, 4), board(4, 4 + goats));
                let captured = 20 - goats as u8;
                let position =
                    Position::from_parts(tigers, goats_on_board, Side::Tigers, 0, captured)
                        .expect("a movement position");
                check_fresh_moves(&rules, &position, &mut cases);
            }
        }
        let FreshCases {
            with_captures,
            without_captures,
            steps_forced_out,
        } = cases;
        assert!(
            with_captures > 10 && without_captures > 10 && steps_forced_out > 10,
            "{with_captures} {without_captures} {steps_forced_out}"
        );
    }

    /// The 8 images of `position` under the board's symmetries.
    fn images(position: &Position) -> Vec<Position> {
        (0..SYMMETRIES)
            .map(|g| {
                Position::from_parts(
                    Bitboard(transform(position.tigers().0, g)),
                    Bitboard(transform(position.goats().0, g)),
                    position.side_to_move(),
                    position.goats_in_hand(),
                    position.goats_captured(),
                )
                .unwrap()
            })
            .collect()
    }

    #[test]
    fn history_free_nodes_share_their_key_with_their_images_only() {
        let rules = Rules {
            repetition: Repetition::Forbid,
            ..Rules::default()
        };
        let mut rng = StdRng::seed_from_u64(5);
        let mut keys: HashMap<Key, Position> = HashMap::new();
        let mut symmetric = 0;
        for _ in 0..200 {
            let mut position = Position::startpos();
            while position.outcome(&rules).is_none() {
                let key = node_key(&position, 0);
                let images = images(&position);
                assert!(
                    images.contains(&key.position),
                    "the key is one of the images"
                );
                for image in &images {
                    // An image is the same game: as many moves, the same key when
                    // history-free, its own position otherwise.
                    assert_eq!(image.count_moves(&rules), position.count_moves(&rules));
                    assert_eq!(node_key(image, 0), key);
                    assert_eq!(
                        node_key(image, 7),
                        Key {
                            position: *image,
                            set: 7
                        }
                    );
                }
                symmetric += usize::from(images.iter().filter(|&i| *i == position).count() > 1);
                // A position sharing the key with one met before is an image of it.
                if let Some(earlier) = keys.insert(key, position) {
                    assert!(images.contains(&earlier));
                }
                let moves = position.legal_moves(&rules);
                position = position.played(moves[rng.random_range(0..moves.len())]);
            }
        }
        assert!(
            symmetric > 0 && keys.len() > 5_000,
            "{symmetric} {}",
            keys.len()
        );
    }
}
