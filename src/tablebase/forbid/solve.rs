//! `tb forbid solve`: exact values from an empty history for the table draws whose component
//! is small enough, layer by layer from the last one down, stored in forbid files.
//!
//! Components come out of [`strongly_connected`] in reverse topological order, so every move
//! that leaves a component leads to a state already solved (or to an exit of known value). A
//! component is then a game of geography: from a start state, the players move along the
//! component's edges to states not yet visited, or leave it by an exit; a side with no winning
//! move and no unknown one loses. [`geography`] solves it with a transposition table on
//! (state, visited set), which is exact because nothing else of the history can matter: states
//! visited before the component was entered cannot be reached from it.

use super::file::{
    check_forbid_file, code_counts, forbid_path, read_forbid_identified, write_forbid, ForbidHeader,
};
use super::raw::DrawStates;
use super::scc::strongly_connected;
use super::{ForbidValue, LayerContext, Successor};
use crate::tablebase::generate::Progress;
use crate::tablebase::stamp::RunStamps;
use crate::tablebase::{TableRules, Tablebase, TablebaseError};
use std::collections::HashMap;
use std::path::Path;
use std::time::Instant;

/// Largest component the exact solver takes (visited sets are 64-bit masks).
pub const MAX_STATES_LIMIT: u64 = 64;

/// Search nodes (transposition entries) allowed per component by default.
pub const DEFAULT_NODE_BUDGET: u64 = 4_000_000;

/// What to solve.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct SolveOptions {
    /// Largest component (raw states of both sides) solved exactly; larger ones are unknown.
    pub max_states: u64,
    /// Transposition entries allowed per component; a component that needs more is unknown.
    pub node_budget: u64,
}

/// One state of a component for [`geography`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Node {
    /// Successors inside the component (local numbers).
    pub successors: Vec<u8>,
    /// The best exit for the mover: `Win` if a move out of the component wins, `Unknown` if one
    /// has an unknown value (and none wins), `Loss` if every exit loses or there is none.
    pub exit: ForbidValue,
}

/// The values from an empty history (the start state counts as visited) of every state of a
/// component of at most 64 states; `None` when more than `budget` (state, visited set) pairs
/// are needed.
pub fn geography(nodes: &[Node], budget: u64) -> Option<Vec<ForbidValue>> {
    assert!(nodes.len() <= 64, "component of {} states", nodes.len());
    let mut memo: HashMap<(u8, u64), ForbidValue> = HashMap::new();
    (0..nodes.len() as u8)
        .map(|start| value_from(nodes, start, 1 << start, &mut memo, budget))
        .collect()
}

/// The value for the mover at `at` with `visited` (which includes `at`) already played;
/// `None` when `memo` would need more than `budget` entries.
pub fn value_from(
    nodes: &[Node],
    at: u8,
    visited: u64,
    memo: &mut HashMap<(u8, u64), ForbidValue>,
    budget: u64,
) -> Option<ForbidValue> {
    let node = &nodes[usize::from(at)];
    if node.exit == ForbidValue::Win {
        return Some(ForbidValue::Win);
    }
    if let Some(&known) = memo.get(&(at, visited)) {
        return Some(known);
    }
    if memo.len() as u64 >= budget {
        return None;
    }
    let mut result = node.exit;
    for &next in &node.successors {
        if visited & (1 << next) != 0 {
            continue;
        }
        match value_from(nodes, next, visited | 1 << next, memo, budget)? {
            ForbidValue::Loss => {
                result = ForbidValue::Win;
                break;
            }
            ForbidValue::Unknown => result = ForbidValue::Unknown,
            ForbidValue::Win => {}
        }
    }
    memo.insert((at, visited), result);
    Some(result)
}

/// The best of two exits for the mover (win over unknown over loss).
pub(super) fn better(a: ForbidValue, b: ForbidValue) -> ForbidValue {
    use ForbidValue::{Loss, Unknown, Win};
    match (a, b) {
        (Win, _) | (_, Win) => Win,
        (Unknown, _) | (_, Unknown) => Unknown,
        _ => Loss,
    }
}

/// The result of solving one layer.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LayerSolve {
    /// The header written (counts of wins, losses, unknowns among the draw classes).
    pub header: Option<ForbidHeader>,
    /// Components solved (every state with a known value) / with some unknown value, among the
    /// components small enough; components larger than `max_states`; over the node budget.
    pub solved_components: u64,
    /// Components in range with some unknown value (an unknown exit).
    pub partly_unknown_components: u64,
    /// Components over `max_states` (all their states unknown).
    pub too_large_components: u64,
    /// Components that needed more than the node budget (all their states unknown).
    pub over_budget_components: u64,
    /// Components skipped because their image under a symmetry was solved.
    pub symmetric_images: u64,
    /// Wall time, seconds.
    pub seconds: f64,
    /// Whether the file was already present and valid (nothing solved).
    pub resumed: bool,
}

/// Solves layer `captured`: returns one code per class (goats to move, then tigers to move; 0
/// for table wins and losses) and the statistics. `next_codes` are the next layer's codes.
///
/// # Errors
/// A compressed movement layer whose data is inconsistent.
pub fn solve_layer(
    tables: &Tablebase,
    captured: u8,
    next_codes: Option<&[u8]>,
    options: SolveOptions,
    progress: Progress,
) -> Result<(Vec<u8>, LayerSolve), TablebaseError> {
    let started = Instant::now();
    let rules = tables.rules();
    let values = tables.layer(captured)?;
    let draws = DrawStates::new(captured, values);
    let context = LayerContext::new(tables, captured, &draws, next_codes)?;
    let mut codes = vec![0u8; values.len()];
    let mut report = LayerSolve::default();
    let n = draws.len();
    let phase = format!("forbid layer {captured}");
    let mut done = 0u64;
    let mut mismatches = 0u64;
    strongly_connected(
        n,
        |v, out| {
            let (board, side) = draws.state(v);
            context.for_each_successor(board, side, |successor| {
                if let Successor::Draw { vertex, .. } = successor {
                    out.push(vertex);
                }
            });
        },
        |members| {
            done += members.len() as u64;
            if done % 4096 < members.len() as u64 || done == u64::from(n) {
                progress(&phase, done, u64::from(n));
            }
            let slot = |v: u32| {
                let (board, side) = draws.state(v);
                draws.class_slot(board, side)
            };
            if codes[slot(members[0])] != 0 {
                report.symmetric_images += 1;
                return;
            }
            let component_values = if members.len() as u64 > options.max_states {
                report.too_large_components += 1;
                None
            } else {
                let nodes = component_nodes(&context, members, &codes);
                let solved = geography(&nodes, options.node_budget);
                match &solved {
                    None => report.over_budget_components += 1,
                    Some(values) if values.contains(&ForbidValue::Unknown) => {
                        report.partly_unknown_components += 1
                    }
                    Some(_) => report.solved_components += 1,
                }
                solved
            };
            for (i, &v) in members.iter().enumerate() {
                let value = component_values
                    .as_ref()
                    .map_or(ForbidValue::Unknown, |values| values[i]);
                let at = slot(v);
                if codes[at] == 0 {
                    codes[at] = value.code();
                } else if codes[at] != value.code() {
                    mismatches += 1;
                }
            }
        },
    );
    // Symmetric states of one class have the same value (the whole game maps onto the other):
    // a difference would be a bug, never a result.
    assert_eq!(mismatches, 0, "layer {captured}: symmetric states differ");
    let len = values.len() / 2;
    let counts = code_counts(&codes, len);
    report.header = Some(ForbidHeader {
        rules,
        captured,
        positions: len as u64,
        max_states: options.max_states,
        node_budget: options.node_budget,
        counts,
    });
    report.seconds = started.elapsed().as_secs_f64();
    Ok((codes, report))
}

/// The geography graph of a component: local successors and the best exit of each state.
fn component_nodes(context: &LayerContext<'_>, members: &[u32], codes: &[u8]) -> Vec<Node> {
    let draws = context.draws;
    let local: HashMap<u32, u8> = members
        .iter()
        .enumerate()
        .map(|(i, &v)| (v, i as u8))
        .collect();
    members
        .iter()
        .map(|&v| {
            let (board, side) = draws.state(v);
            let mut node = Node {
                successors: Vec::new(),
                exit: ForbidValue::Loss,
            };
            context.for_each_successor(board, side, |successor| match successor {
                Successor::Draw { vertex, board } => {
                    if let Some(&i) = local.get(&vertex) {
                        node.successors.push(i);
                    } else {
                        // Reported earlier (reverse topological order): solved, or unknown.
                        let code = codes[draws.class_slot(board, 1 - side)];
                        let theirs = ForbidValue::from_code(code)
                            .expect("a component's exits are solved before it");
                        node.exit = better(node.exit, theirs.negate());
                    }
                }
                Successor::Exit { value, .. } => node.exit = better(node.exit, value),
            });
            node
        })
        .collect()
}

/// Solves every layer of the tables in `dir` (rules as recorded there), from the last one
/// down, writing `forbid-<captured>.bcfb` beside them as each layer is done. A layer whose
/// file is present and valid for the same rules and options (and whose higher layers were kept)
/// is loaded instead of solved again. Every forbid file kept or written is stamped as verified
/// ([`RunStamps`]: a written one read back once its times have settled), so the first open
/// after a solve checks none of them again.
///
/// # Errors
/// A missing, corrupt or mismatched table file, a forbid file for other rules, or a failure to
/// write.
pub fn solve_tables(
    dir: &Path,
    options: SolveOptions,
    progress: Progress,
) -> Result<Vec<LayerSolve>, TablebaseError> {
    let stamps = RunStamps::new(dir);
    let reports = solve_tables_stamped(dir, options, progress, &stamps);
    // Also after a failure: the layers finished before it keep their stamps.
    stamps.finish();
    reports
}

/// As [`solve_tables`], the forbid files' stamps noted in `stamps` (the caller finishes them).
fn solve_tables_stamped(
    dir: &Path,
    options: SolveOptions,
    progress: Progress,
    stamps: &RunStamps,
) -> Result<Vec<LayerSolve>, TablebaseError> {
    let tables = Tablebase::open_movement(dir, Tablebase::recorded_rules(dir)?)?;
    let rules: TableRules = tables.rules();
    let mut reports = Vec::new();
    let mut next_codes: Option<Vec<u8>> = None;
    let mut keep = true;
    for captured in (0..rules.captures_to_win).rev() {
        let path = forbid_path(dir, captured);
        let positions = tables.headers()[usize::from(captured)].positions;
        let present = match read_forbid_identified(&path, rules, captured, positions) {
            Ok(read)
                if keep
                    && read.header.max_states == options.max_states
                    && read.header.node_budget == options.node_budget =>
            {
                stamps.resumed_checked(&path, &read.identity, read.read_at, check_forbid_file);
                Some((read.header, read.codes))
            }
            Ok(_) | Err(TablebaseError::NotFound { .. }) => None,
            Err(error @ TablebaseError::MismatchedRules { .. }) => return Err(error),
            Err(error) => {
                log::warn!("{error}: solving the layer again");
                None
            }
        };
        let codes = match present {
            Some((header, codes)) => {
                reports.push(LayerSolve {
                    header: Some(header),
                    resumed: true,
                    ..LayerSolve::default()
                });
                codes
            }
            None => {
                keep = false;
                let (codes, report) =
                    solve_layer(&tables, captured, next_codes.as_deref(), options, progress)?;
                let header = report.header.as_ref().expect("a solved layer has a header");
                write_forbid(&path, header, &codes)?;
                stamps.written_checked(&path, check_forbid_file);
                log::info!("layer {captured}: written to \"{}\"", path.display());
                reports.push(report);
                codes
            }
        };
        stamps.settle();
        next_codes = Some(codes);
    }
    Ok(reports)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    /// The same game by plain recursion over move sequences, without a transposition table.
    fn plain(nodes: &[Node], at: usize, path: &mut Vec<usize>) -> ForbidValue {
        let node = &nodes[at];
        let mut result = node.exit;
        for &next in &node.successors {
            let next = usize::from(next);
            if path.contains(&next) {
                continue;
            }
            path.push(next);
            let theirs = plain(nodes, next, path);
            path.pop();
            result = better(result, theirs.negate());
        }
        result
    }

    #[test]
    fn geography_matches_plain_recursion() {
        let mut rng = StdRng::seed_from_u64(2023);
        let exits = [ForbidValue::Win, ForbidValue::Loss, ForbidValue::Unknown];
        for _ in 0..400 {
            let n = rng.random_range(1..9usize);
            // Half the graphs without unknown exits, so that most values are decided.
            let kinds = if rng.random_bool(0.5) { 2 } else { 3 };
            let nodes: Vec<Node> = (0..n)
                .map(|_| Node {
                    successors: (0..n as u8).filter(|_| rng.random_bool(0.35)).collect(),
                    exit: exits[rng.random_range(0..kinds)],
                })
                .collect();
            let fast = geography(&nodes, u64::MAX).expect("no budget");
            for (start, &value) in fast.iter().enumerate() {
                assert_eq!(value, plain(&nodes, start, &mut vec![start]), "{nodes:?}");
            }
        }
    }

    #[test]
    fn geography_reports_an_exhausted_budget() {
        let n = 12u8;
        let nodes: Vec<Node> = (0..n)
            .map(|i| Node {
                successors: (0..n).filter(|&j| j != i).collect(),
                exit: ForbidValue::Loss,
            })
            .collect();
        assert_eq!(geography(&nodes, 100), None);
    }

    #[test]
    fn a_cycle_is_won_by_the_side_that_moves_last() {
        // A cycle of 4 (alternating sides, no exits): from any start the path visits all 4 and
        // the mover at the 4th state finds only the start, already visited, so loses; the
        // start's mover wins.
        let nodes: Vec<Node> = (0..4u8)
            .map(|i| Node {
                successors: vec![(i + 1) % 4],
                exit: ForbidValue::Loss,
            })
            .collect();
        assert_eq!(geography(&nodes, 1000), Some(vec![ForbidValue::Win; 4]));
    }
}
