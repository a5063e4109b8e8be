//! `tb forbid prove`: a proof-number search from one position under `Repetition forbid`, with
//! the game's history in every node, where the component solver cannot go (docs/forbid.md,
//! "Proof search").
//!
//! The tree is Allis's proof-number search in negamax form: each node has a proof number (how
//! many leaves must still be settled to show that its mover wins) and a disproof number (to
//! show that the mover loses). Leaves are settled by what is proven whatever the history:
//! a table win or loss (claim 2: the path inside a layer holds table draws only), a stored
//! forbid value, or a placement value under forbid; a table draw with a history is settled by
//! [`ForbidJudge`] when its component is small, and searched otherwise.
//!
//! The graph-history interaction is avoided, not patched: a node's moves are filtered by the
//! states of its own path since the last placement or capture (claim 1), and nodes are never
//! merged across paths. The only results shared between paths are those of history-free nodes
//! (a placement position, or a movement state right after the last placement or a capture),
//! whose value cannot depend on the path that reached them.

use super::history::ForbidJudge;
use super::tables::ForbidTables;
use super::ForbidValue;
use crate::tablebase::generate::Progress;
use crate::tablebase::{Tablebase, Wdl};
use crate::{Move, Position, Repetition, Rules};
use std::collections::HashMap;
use std::time::Instant;

/// A proof or disproof number that cannot be reached (the node is settled the other way).
const INFINITE: u32 = u32::MAX;

/// Settled history-free nodes remembered (about 40 bytes each), kept from one root to the next.
const MAX_SHARED: usize = 1 << 25;

/// States a [`ForbidJudge`] may search to find a small component.
const COMPONENT_BUDGET: usize = 4096;

/// What the search may use and spend.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ProveOptions {
    /// Tree nodes allowed; the search stops unsettled when it needs more.
    pub max_nodes: u64,
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
    /// Nodes in the tree when the search stopped.
    pub nodes: u64,
    /// Nodes expanded.
    pub expansions: u64,
    /// History-free nodes settled and shared between paths (and roots: a prover remembers them).
    pub shared: u64,
    /// The root's proof and disproof numbers when the search stopped.
    pub numbers: (u32, u32),
    /// The root's moves (fresh ones, for the root's history), with their state.
    pub root_moves: Vec<RootMove>,
    /// Wall time, seconds.
    pub seconds: f64,
}

/// A node of the search tree.
#[derive(Clone, Debug)]
struct Node {
    position: Position,
    /// Index of the parent (the root is its own parent).
    parent: u32,
    /// Index of the first child; the children are consecutive.
    first_child: u32,
    children: u8,
    /// Whether the node's value cannot depend on the path that reached it.
    history_free: bool,
    /// Proof number: leaves to settle to show that the mover wins.
    proof: u32,
    /// Disproof number: leaves to settle to show that the mover loses.
    disproof: u32,
}

impl Node {
    fn settled(&self) -> bool {
        self.proof == 0 || self.disproof == 0
    }

    fn value(&self) -> ForbidValue {
        match (self.proof, self.disproof) {
            (0, _) => ForbidValue::Win,
            (_, 0) => ForbidValue::Loss,
            _ => ForbidValue::Unknown,
        }
    }
}

/// Proof and disproof numbers of a settled value, or of an open leaf with `moves` moves.
fn numbers(value: Option<ForbidValue>, moves: u32) -> (u32, u32) {
    match value {
        Some(ForbidValue::Win) => (0, INFINITE),
        Some(ForbidValue::Loss) => (INFINITE, 0),
        // Disproving an open node means refuting every move: more moves, more work.
        _ => (1, moves.max(1)),
    }
}

/// The search of one root.
pub struct Prover<'a> {
    tables: &'a Tablebase,
    forbid: Option<&'a ForbidTables>,
    judge: Option<ForbidJudge<'a>>,
    rules: Rules,
    options: ProveOptions,
    tree: Vec<Node>,
    /// Settled history-free nodes: whether the mover wins (whole positions as keys: no collision).
    shared: HashMap<Position, bool>,
    expansions: u64,
}

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
            tree: Vec::new(),
            shared: HashMap::new(),
            expansions: 0,
        }
    }

    /// Searches the last of `game` (positions oldest first; the earlier ones are its history)
    /// until the root is settled or the tree holds `max_nodes` nodes. The history must hold table
    /// draws only since the last placement or capture (as in any game that has not left the
    /// draws; otherwise a table win or loss is not claimed to hold and the root is unknown).
    pub fn prove(&mut self, game: &[Position], progress: Progress) -> ProveResult {
        let started = Instant::now();
        let Some(root) = game.last() else {
            return self.result(started);
        };
        let earlier: Vec<u64> = super::history::layer_history(game)
            .iter()
            .map(Position::hash)
            .collect();
        let draws_only = super::history::layer_history(game)
            .iter()
            .all(|p| self.tables.probe(p).is_some_and(|v| v.wdl == Wdl::Draw));
        self.tree.clear();
        // Reserved whole (untouched pages cost nothing): a doubling vector would need twice
        // the memory at its last growth.
        self.tree
            .reserve(self.options.max_nodes.min(1 << 32) as usize + 64);
        self.expansions = 0;
        let value = self.settle(root, &earlier);
        let (proof, disproof) = numbers(value, root.count_moves(&self.rules));
        self.tree.push(Node {
            position: *root,
            parent: 0,
            first_child: 0,
            children: 0,
            history_free: earlier.is_empty(),
            proof,
            disproof,
        });
        if !draws_only {
            // A history that left the draws: nothing is claimed.
            self.tree[0].proof = INFINITE;
            self.tree[0].disproof = INFINITE;
            return self.result(started);
        }
        let mut next_report = 0u64;
        while !self.tree[0].settled()
            && self.tree[0].proof != INFINITE
            && (self.tree.len() as u64) < self.options.max_nodes
        {
            let leaf = self.most_proving();
            self.expand(leaf, &earlier);
            self.update_from(leaf);
            if self.tree.len() as u64 >= next_report {
                progress(
                    "forbid proof",
                    self.tree.len() as u64,
                    self.options.max_nodes,
                );
                next_report = self.tree.len() as u64 + (1 << 20);
            }
        }
        progress(
            "forbid proof",
            self.tree.len() as u64,
            self.options.max_nodes,
        );
        self.result(started)
    }

    fn result(&self, started: Instant) -> ProveResult {
        let Some(root) = self.tree.first() else {
            return ProveResult {
                value: ForbidValue::Unknown,
                nodes: 0,
                expansions: 0,
                shared: 0,
                numbers: (INFINITE, INFINITE),
                root_moves: Vec::new(),
                seconds: started.elapsed().as_secs_f64(),
            };
        };
        let children =
            root.first_child as usize..(root.first_child as usize + usize::from(root.children));
        let root_moves = if root.children == 0 {
            Vec::new()
        } else {
            self.tree[children]
                .iter()
                .map(|child| RootMove {
                    mv: root
                        .position
                        .legal_moves(&self.rules)
                        .iter()
                        .copied()
                        .find(|&mv| root.position.played(mv).hash() == child.position.hash())
                        .expect("a child comes from a move"),
                    value: child.value().negate(),
                    numbers: (child.proof, child.disproof),
                })
                .collect()
        };
        ProveResult {
            value: root.value(),
            nodes: self.tree.len() as u64,
            expansions: self.expansions,
            shared: self.shared.len() as u64,
            numbers: (root.proof, root.disproof),
            root_moves,
            seconds: started.elapsed().as_secs_f64(),
        }
    }

    /// The value of `position` for its mover when it is settled whatever comes after, given
    /// `earlier` (the keys of its layer's states before it on the path, all table draws);
    /// `None` when it must be searched.
    fn settle(&self, position: &Position, earlier: &[u64]) -> Option<ForbidValue> {
        if position.is_captures_reached(&self.rules) {
            return Some(ForbidValue::Loss);
        }
        if earlier.is_empty() {
            if let Some(&wins) = self.shared.get(position) {
                return Some(if wins {
                    ForbidValue::Win
                } else {
                    ForbidValue::Loss
                });
            }
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
            (_, Some(judge)) => Some(judge.value_after_draws(position, earlier, COMPONENT_BUDGET)),
            _ => None,
        };
        stored.filter(|&value| value != ForbidValue::Unknown)
    }

    /// The leaf reached from the root by always following the child that is cheapest to refute
    /// (its disproof number is the parent's proof number).
    fn most_proving(&self) -> usize {
        let mut at = 0usize;
        while self.tree[at].children != 0 {
            let first = self.tree[at].first_child as usize;
            let end = first + usize::from(self.tree[at].children);
            at = (first..end)
                .min_by_key(|&c| self.tree[c].disproof)
                .expect("an expanded node has children");
        }
        at
    }

    /// The keys of the states on the path to `at` played in its layer before it (claim 1).
    fn path_history(&self, at: usize) -> Vec<u64> {
        let position = self.tree[at].position;
        let mut keys = Vec::new();
        if position.goats_in_hand() != 0 || self.tree[at].history_free && at != 0 {
            return keys;
        }
        let same = |p: &Position| {
            p.goats_in_hand() == 0 && p.goats_captured() == position.goats_captured()
        };
        let mut node = at;
        while node != 0 && !self.tree[node].history_free {
            node = self.tree[node].parent as usize;
            if !same(&self.tree[node].position) {
                break;
            }
            keys.push(self.tree[node].position.hash());
        }
        keys
    }

    /// Adds the children of the open leaf `at` (its fresh moves), each settled where it can be.
    fn expand(&mut self, at: usize, root_history: &[u64]) {
        self.expansions += 1;
        let position = self.tree[at].position;
        let mut earlier = self.path_history(at);
        if at == 0 || self.reaches_root_layer(at) {
            earlier.extend_from_slice(root_history);
        }
        let first = self.tree.len() as u32;
        let mut children = 0u8;
        for &mv in position.legal_moves(&self.rules).iter() {
            let child = position.played(mv);
            let same_layer = position.goats_in_hand() == 0
                && child.goats_captured() == position.goats_captured();
            let child_earlier: Vec<u64> = if same_layer {
                if earlier.contains(&child.hash()) {
                    // Forbidden: it recreates a state of this layer.
                    continue;
                }
                let mut keys = earlier.clone();
                keys.push(position.hash());
                keys
            } else {
                Vec::new()
            };
            let value = self.settle(&child, &child_earlier);
            let (proof, disproof) = numbers(value, child.count_moves(&self.rules));
            self.tree.push(Node {
                position: child,
                parent: at as u32,
                first_child: 0,
                children: 0,
                history_free: child_earlier.is_empty(),
                proof,
                disproof,
            });
            children += 1;
        }
        let node = &mut self.tree[at];
        node.first_child = first;
        node.children = children;
        if children == 0 {
            // No fresh move: the mover loses.
            node.proof = INFINITE;
            node.disproof = 0;
        }
    }

    /// Whether the node `at` is in the root's layer with no placement or capture in between
    /// (so the root's own history also forbids its moves).
    fn reaches_root_layer(&self, at: usize) -> bool {
        let mut node = at;
        while node != 0 {
            if self.tree[node].history_free {
                return false;
            }
            node = self.tree[node].parent as usize;
        }
        true
    }

    /// Recomputes the numbers from `at` up to the root, stopping where nothing changes.
    fn update_from(&mut self, mut at: usize) {
        loop {
            let node = &self.tree[at];
            if node.children != 0 {
                let first = node.first_child as usize;
                let end = first + usize::from(node.children);
                let mut proof = INFINITE;
                let mut disproof = 0u32;
                for child in &self.tree[first..end] {
                    proof = proof.min(child.disproof);
                    disproof = disproof.saturating_add(child.proof);
                }
                let changed = (proof, disproof) != (node.proof, node.disproof);
                let node = &mut self.tree[at];
                node.proof = proof;
                node.disproof = disproof;
                if !changed {
                    // The ancestors see this node only through its numbers.
                    return;
                }
            }
            let node = &self.tree[at];
            if node.settled() && node.history_free && self.shared.len() < MAX_SHARED {
                self.shared.insert(node.position, node.proof == 0);
            }
            if at == 0 {
                return;
            }
            at = node.parent as usize;
        }
    }
}
