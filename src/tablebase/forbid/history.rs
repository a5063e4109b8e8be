//! Whether a stored forbid value holds for a state with a history, and the exact value when it
//! can be had (docs/forbid.md, claims 5 and 7).
//!
//! A forbid file gives a table draw's value from an empty history. With a history `H` (the
//! states of its layer played before it since the last placement or capture), all of them
//! table draws, the value of `s` depends only on `H ∩ C(s)`, `C(s)` its strongly connected
//! component in the layer's table-draw graph: every state of `H` reaches `s`, so one that `s`
//! can reach again lies in `C(s)`. A proven state lies in a component of at most the solver's
//! `max_states` raw states, so [`ForbidJudge`] finds `C(s)` by a bounded search (every state of
//! `C(s)` is within `max_states - 1` moves of `s`), then: `H ∩ C(s)` empty, the stored value
//! holds; otherwise it solves the geography of `C(s)` with `H ∩ C(s)` already visited, which is
//! exact too. When the search exceeds its budget, or a history state is not a table draw, the
//! value is unknown: a value is never claimed where it might not hold.

use super::solve::{better, value_from, Node};
use super::tables::ForbidTables;
use super::ForbidValue;
use crate::tablebase::{Tablebase, Wdl};
use crate::{Game, Position, Repetition, Rules, Side};
use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};

/// Transposition entries allowed to the geography of one component.
const GEOGRAPHY_BUDGET: u64 = 1_000_000;

/// The states of `positions` (a game's, oldest first, the current one last) played before the
/// current one since the last placement or capture: the history that can forbid its moves
/// (claim 1). Empty in the placement phase.
pub fn layer_history(positions: &[Position]) -> &[Position] {
    let Some((current, earlier)) = positions.split_last() else {
        return &[];
    };
    if current.goats_in_hand() != 0 {
        return &[];
    }
    // Goats in hand never rise and goats captured never fall: the states of the layer are a
    // suffix of the game.
    let same =
        |p: &Position| p.goats_in_hand() == 0 && p.goats_captured() == current.goats_captured();
    let start = earlier.iter().rposition(|p| !same(p)).map_or(0, |i| i + 1);
    &earlier[start..]
}

/// A table-draw component found around a state.
struct Component {
    /// Its states; the first is the state it was found from.
    members: Vec<Position>,
    /// Successors inside the component, by member number.
    successors: Vec<Vec<u8>>,
}

/// Answers "what is this state's value under forbid, given what was played before it" from
/// the movement tables and the forbid files; the one owner of that question for the engine and
/// the referee.
pub struct ForbidJudge<'a> {
    tables: &'a Tablebase,
    forbid: &'a ForbidTables,
    rules: Rules,
    /// Components found so far, by the key of the state they were searched from (or the
    /// budget that was not enough).
    components: Mutex<HashMap<u64, Result<Arc<Component>, usize>>>,
}

impl<'a> ForbidJudge<'a> {
    /// A judge over `tables` and the forbid values made from them.
    pub fn new(tables: &'a Tablebase, forbid: &'a ForbidTables) -> ForbidJudge<'a> {
        let table_rules = tables.rules();
        ForbidJudge {
            tables,
            forbid,
            rules: Rules {
                forced_capture: table_rules.forced_capture,
                captures_to_win: table_rules.captures_to_win,
                repetition: Repetition::Forbid,
            },
            components: Mutex::new(HashMap::new()),
        }
    }

    /// The stored value from an empty history: of a movement-phase table draw
    /// ([`ForbidTables::stored`]), or of a position with goats in hand from the placement values
    /// under forbid ([`ForbidTables::placement_value`]).
    pub fn stored(&self, position: &Position) -> Option<ForbidValue> {
        if position.goats_in_hand() != 0 {
            return self.forbid.placement_value(position);
        }
        self.forbid.stored(position)
    }

    /// The winner of `game` under forbid: a finished game's, else the one proven for its
    /// history ([`Self::value_in_game`]); `None` where none is proven.
    pub fn winner(&self, game: &Game, budget: usize) -> Option<Side> {
        if let Some(outcome) = game.outcome() {
            return outcome.winner();
        }
        let mover = game.position().side_to_move();
        match self.value_in_game(game.positions(), budget) {
            ForbidValue::Win => Some(mover),
            ForbidValue::Loss => Some(mover.opposite()),
            ForbidValue::Unknown => None,
        }
    }

    /// The value for the side to move of the last of `positions` (a game, oldest first) under
    /// forbid, proven for that game's history; [`ForbidValue::Unknown`] when not proven. A state
    /// with goats in hand has its placement value under forbid whatever the history (claim 1;
    /// unknown without one). `budget` bounds the states searched to find a component.
    pub fn value_in_game(&self, positions: &[Position], budget: usize) -> ForbidValue {
        let Some(current) = positions.last() else {
            return ForbidValue::Unknown;
        };
        let earlier = layer_history(positions);
        let all_draws = earlier
            .iter()
            .all(|p| self.tables.probe(p).is_some_and(|v| v.wdl == Wdl::Draw));
        if !all_draws {
            return ForbidValue::Unknown;
        }
        let keys: Vec<u64> = earlier.iter().map(Position::hash).collect();
        self.value_after_draws(current, &keys, budget)
    }

    /// The value for the side to move of `position` under forbid, proven when `earlier` holds
    /// the keys of every state of its layer played before it since the last placement or
    /// capture, **all of them table draws** (keys of other layers may be there too: they never
    /// match). [`ForbidValue::Unknown`] when not proven. A position with goats in hand has its
    /// placement value under forbid, whatever `earlier` holds.
    pub fn value_after_draws(
        &self,
        position: &Position,
        earlier: &[u64],
        budget: usize,
    ) -> ForbidValue {
        if position.goats_in_hand() != 0 {
            // No state of the placement phase can recur: the value is the stored one.
            return self
                .forbid
                .placement_value(position)
                .unwrap_or(ForbidValue::Unknown);
        }
        let Some(table) = self.tables.probe(position) else {
            return ForbidValue::Unknown;
        };
        match table.wdl {
            // Claim 2: after table draws only, a table win or loss holds.
            Wdl::Win => return ForbidValue::Win,
            Wdl::Loss => return ForbidValue::Loss,
            Wdl::Draw => {}
        }
        let stored = self.forbid.stored(position).unwrap_or(ForbidValue::Unknown);
        if stored == ForbidValue::Unknown || earlier.is_empty() {
            return stored;
        }
        let Some(component) = self.cached_component(position, budget) else {
            return ForbidValue::Unknown;
        };
        let visited: u64 = component
            .members
            .iter()
            .enumerate()
            .filter(|(i, member)| *i == 0 || earlier.contains(&member.hash()))
            .fold(0, |mask, (i, _)| mask | 1 << i);
        if visited == 1 {
            return stored;
        }
        let nodes = self.nodes(&component);
        value_from(&nodes, 0, visited, &mut HashMap::new(), GEOGRAPHY_BUDGET)
            .unwrap_or(ForbidValue::Unknown)
    }

    /// [`Self::component`], remembered (a budget failure is tried again with a larger budget).
    fn cached_component(&self, position: &Position, budget: usize) -> Option<Arc<Component>> {
        let key = position.hash();
        let lock = || {
            self.components
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner())
        };
        match lock().get(&key) {
            Some(Ok(component)) => return Some(Arc::clone(component)),
            Some(Err(tried)) if *tried >= budget => return None,
            _ => {}
        }
        let found = self.component(position, budget).map(Arc::new);
        lock().insert(key, found.clone().ok_or(budget));
        found
    }

    /// The table draws reached from `position` by one step (no capture), with the moves' keys.
    fn draw_steps(&self, position: &Position, mut visit: impl FnMut(Position)) {
        for &mv in position.legal_moves(&self.rules).iter() {
            let child = position.played(mv);
            if child.goats_captured() != position.goats_captured() {
                continue;
            }
            if self
                .tables
                .probe(&child)
                .is_some_and(|v| v.wdl == Wdl::Draw)
            {
                visit(child);
            }
        }
    }

    /// The strongly connected component of the table draw `position` (with a proven stored
    /// value, so at most `max_states` states), or `None` when more than `budget` states had to
    /// be searched. The states within `max_states - 1` steps of `position` hold the component;
    /// of these, it is those from which `position` is reached again.
    fn component(&self, position: &Position, budget: usize) -> Option<Component> {
        let max_states = self.forbid.max_states(position.goats_captured())?;
        let limit = max_states.saturating_sub(1) as usize;
        let mut found = vec![*position];
        let mut number: HashMap<u64, u32> = HashMap::from([(position.hash(), 0)]);
        let mut depth = vec![0usize];
        let mut queue = VecDeque::from([0u32]);
        while let Some(at) = queue.pop_front() {
            let at = at as usize;
            if depth[at] == limit {
                continue;
            }
            let mut overflow = false;
            let from = found[at];
            self.draw_steps(&from, |child| {
                if number.contains_key(&child.hash()) {
                    return;
                }
                if found.len() >= budget {
                    overflow = true;
                    return;
                }
                number.insert(child.hash(), found.len() as u32);
                found.push(child);
                depth.push(depth[at] + 1);
                queue.push_back(found.len() as u32 - 1);
            });
            if overflow {
                return None;
            }
        }
        // Reverse edges inside the states found, then everything that reaches the start.
        let mut predecessors: Vec<Vec<u32>> = vec![Vec::new(); found.len()];
        for (from, state) in found.iter().enumerate() {
            self.draw_steps(state, |child| {
                if let Some(&to) = number.get(&child.hash()) {
                    predecessors[to as usize].push(from as u32);
                }
            });
        }
        let mut in_component = vec![false; found.len()];
        in_component[0] = true;
        let mut stack = vec![0u32];
        while let Some(at) = stack.pop() {
            for &from in &predecessors[at as usize] {
                if !std::mem::replace(&mut in_component[from as usize], true) {
                    stack.push(from);
                }
            }
        }
        let members: Vec<Position> = (0..found.len())
            .filter(|&i| in_component[i])
            .map(|i| found[i])
            .collect();
        if members.len() as u64 > max_states.min(64) {
            // Not the small component of a proven state: the files do not fit these tables.
            log::warn!(
                "forbid: a proven state lies in a component of {} states",
                members.len()
            );
            return None;
        }
        let local: HashMap<u64, u8> = members
            .iter()
            .enumerate()
            .map(|(i, m)| (m.hash(), i as u8))
            .collect();
        let successors = members
            .iter()
            .map(|member| {
                let mut next = Vec::new();
                self.draw_steps(member, |child| {
                    if let Some(&i) = local.get(&child.hash()) {
                        next.push(i);
                    }
                });
                next
            })
            .collect();
        Some(Component {
            members,
            successors,
        })
    }

    /// The geography of a component: its inner moves and the best exit of each state (claim 3:
    /// a step out of the draws loses, a capture has the next layer's value from an empty
    /// history, a step to a draw of another component has its stored value).
    fn nodes(&self, component: &Component) -> Vec<Node> {
        let inside: Vec<u64> = component.members.iter().map(Position::hash).collect();
        component
            .members
            .iter()
            .zip(&component.successors)
            .map(|(member, successors)| {
                let mut exit = ForbidValue::Loss;
                for &mv in member.legal_moves(&self.rules).iter() {
                    let child = member.played(mv);
                    if inside.contains(&child.hash()) {
                        continue;
                    }
                    let theirs = if child.is_captures_reached(&self.rules) {
                        ForbidValue::Loss
                    } else {
                        // A capture's child has an empty history; any other child is a draw of
                        // a later component or a table win or loss.
                        self.value_after_draws(&child, &[], 0)
                    };
                    exit = better(exit, theirs.negate());
                }
                Node {
                    successors: successors.clone(),
                    exit,
                }
            })
            .collect()
    }
}
