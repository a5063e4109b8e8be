//! `tb forbid prove --entries`: the proof search ([`super::prove`]) from every table draw with
//! tigers to move whose forbid value the component solver left unknown: the first movement
//! states the placement phase can end in, so the inputs of `tb forbid start` that separate its
//! two bounds. With `after_captures`, also from every such table draw with goats to move: the
//! states right after a capture in the movement phase.
//!
//! Layers are taken from the last one down, as the solver does, so that a search in a lower
//! layer finds the higher layers' entry values it captures into already settled: the provers
//! read the values found in the higher layers ([`ProvedEntries`]), and each worker's prover
//! keeps the settled entries of its transposition table from one entry to the next.
//! With `write`, the values found go to the layer's proof file ([`proof_path`]) every few
//! thousand entries, and a later run searches only the entries it does not settle: the work is
//! kept across interruptions and can be split between runs (by `sample`, or by machine). An
//! entry searched and left unknown is kept as unknown too, with the file's budget (header
//! `node_budget`, the smallest any of its unknowns had): a later run at that budget or less
//! skips it, a run with more searches it again.

use super::file::{
    code_counts, forbid_path, proof_path, read_forbid, unknown_classes, write_forbid, ForbidHeader,
};
use super::prove::{ProveOptions, Prover, SEARCH_STACK};
use super::proved::ProvedEntries;
use super::tables::ForbidTables;
use super::ForbidValue;
use crate::tablebase::generate::Progress;
use crate::tablebase::index::LayerIndex;
use crate::tablebase::verify::board_position;
use crate::tablebase::{Tablebase, TablebaseError};
use crate::Side;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// What to search.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct EntryOptions {
    /// Nodes expanded allowed per entry.
    pub nodes_per_entry: u64,
    /// Transposition entries per worker (see [`ProveOptions::table_entries`]).
    pub table_entries: u64,
    /// Search only this many entries per layer, evenly spread over the unknown ones.
    pub sample: Option<u64>,
    /// Worker threads.
    pub threads: usize,
    /// Whether to keep the values in the layer's proof file ([`proof_path`]): read first (its
    /// settled entries, and its unknown ones if searched with at least `nodes_per_entry`, are
    /// not searched again), written as the search goes.
    pub write: bool,
    /// Whether to search the table draws with goats to move too (right after a capture), each
    /// layer before the one below, whose searches then stop at them.
    pub after_captures: bool,
    /// `Some((k, n))`: only the `k`th of `n` parts of each layer's unknown entries (those whose
    /// rank among them is `k` modulo `n`), so that `n` machines share a pass without searching
    /// an entry twice; their proof packs are then joined ([`super::pack`]). Before `sample`.
    pub part: Option<(u64, u64)>,
    /// `Some(mask)`: only the layers whose bit is set (bit `k`: `k` goats captured), so that a
    /// rerun with a larger budget can go to the layers that matter; with `write`, the other
    /// layers' proof files are still read, and the searches below them stop at their values.
    pub layers: Option<u32>,
}

/// One layer's entries with one side to move, after the search.
#[derive(Clone, Debug, PartialEq)]
pub struct EntryLayer {
    /// Goats captured.
    pub captured: u8,
    /// The side to move: the tigers (right after the last placement) or the goats (right
    /// after a capture).
    pub side: Side,
    /// Unknown table-draw classes with that side to move.
    pub unknown: u64,
    /// Of them, settled by an earlier run (in the proof file; with `write` only).
    pub settled_before: u64,
    /// Of them, left unknown by an earlier run with at least this run's budget (not searched
    /// again; with `write` only).
    pub unsettled_before: u64,
    /// Of them, searched.
    pub searched: u64,
    /// Settled as tigers' wins.
    pub tigers_win: u64,
    /// Settled as goats' wins.
    pub goats_win: u64,
    /// Nodes expanded over all searches.
    pub nodes: u64,
    /// The most nodes a settled search expanded.
    pub most_nodes_settled: u64,
    /// Wall time, seconds.
    pub seconds: f64,
}

/// Searches the unknown entries of every layer of the tables in `dir` (with their forbid files),
/// or of those `options.layers` names, from the last layer down, the tigers' side then (with
/// `options.after_captures`) the goats'; with `options.write`, keeps the values in the proof
/// files. One [`EntryLayer`] per layer and side searched, in that order.
///
/// # Errors
/// Missing, corrupt or mismatched tables or forbid files, a proof file made for other rules,
/// or a failure to read or write one (a damaged proof file is reported and searched again).
pub fn prove_entries(
    dir: &Path,
    options: EntryOptions,
    progress: Progress,
) -> Result<Vec<EntryLayer>, TablebaseError> {
    let tables = Tablebase::open_movement(dir, Tablebase::recorded_rules(dir)?)?;
    let rules = tables.rules();
    let (forbid, errors) = ForbidTables::open(dir, &tables);
    if let Some(error) = errors.into_iter().next() {
        return Err(error);
    }
    let Some(forbid) = forbid else {
        return Err(TablebaseError::NotFound {
            path: forbid_path(dir, 0),
        });
    };
    let threads = options.threads.max(1);
    let prove_options = ProveOptions {
        max_nodes: options.nodes_per_entry,
        table_entries: options.table_entries,
        use_stored: true,
    };
    let mut provers: Vec<Prover<'_>> = (0..threads)
        .map(|_| Prover::new(&tables, Some(&forbid), prove_options))
        .collect();
    let sides: &[Side] = match options.after_captures {
        true => &[Side::Tigers, Side::Goats],
        false => &[Side::Tigers],
    };
    let mut found_so_far = ProvedEntries::new(rules.captures_to_win);
    let mut layers = Vec::new();
    for captured in (0..rules.captures_to_win).rev() {
        let positions = tables.headers()[usize::from(captured)].positions;
        let (_, codes) = read_forbid(&forbid_path(dir, captured), rules, captured, positions)?;
        let path = proof_path(dir, captured);
        let mut proofs = match options.write {
            true => read_proofs(&path, rules, captured, positions, options.nodes_per_entry)?,
            false => vec![0; 2 * positions as usize],
        };
        let chosen = options
            .layers
            .is_none_or(|mask| mask & (1 << captured) != 0);
        // A layer not chosen is only read, for the searches of the layers below.
        let searched: &[Side] = if chosen { sides } else { &[] };
        for &side in searched {
            let search = LayerSearch {
                captured,
                side,
                positions,
                codes: &codes,
            };
            let layer = search.run(&mut provers, &mut proofs, options, progress, |proofs| {
                if !options.write {
                    return Ok(());
                }
                // Written after every chunk: an interrupted run keeps what it settled.
                let header = ForbidHeader {
                    rules,
                    captured,
                    positions,
                    max_states: 0,
                    node_budget: options.nodes_per_entry,
                    counts: code_counts(proofs, positions as usize),
                };
                write_forbid(&path, &header, proofs)
            })?;
            layers.push(layer);
        }
        // The layers below capture into this one: their searches stop at its values.
        found_so_far.set_layer(captured, proofs);
        let shared = Arc::new(found_so_far.clone());
        for prover in &mut provers {
            prover.set_proved(Some(Arc::clone(&shared)));
        }
    }
    Ok(layers)
}

/// The entries of one layer with one side to move.
struct LayerSearch<'s> {
    captured: u8,
    side: Side,
    /// Classes a side.
    positions: u64,
    /// The forbid file's codes (goats to move first).
    codes: &'s [u8],
}

impl LayerSearch<'_> {
    /// Searches the unknown entries not in `proofs` (the proof file's codes, or all 0), puts
    /// their values there and calls `save` after each chunk.
    fn run(
        &self,
        provers: &mut [Prover<'_>],
        proofs: &mut [u8],
        options: EntryOptions,
        progress: Progress,
        save: impl Fn(&[u8]) -> Result<(), TablebaseError>,
    ) -> Result<EntryLayer, TablebaseError> {
        let started = Instant::now();
        let (captured, side) = (self.captured, self.side);
        let offset = side.index() * self.positions as usize;
        let unknown: Vec<u64> = unknown_classes(self.codes, side.index(), self.positions as usize)
            .into_iter()
            .map(|class| class as u64)
            .collect();
        let earlier = |class: u64| ForbidValue::from_code(proofs[offset + class as usize]);
        let in_part = |rank: u64| options.part.is_none_or(|(k, n)| rank % n == k);
        let open: Vec<u64> = (0u64..)
            .zip(&unknown)
            .filter(|&(rank, &class)| in_part(rank) && earlier(class).is_none())
            .map(|(_, &class)| class)
            .collect();
        let settled_before = unknown
            .iter()
            .filter(|&&class| earlier(class).is_some_and(ForbidValue::is_proven))
            .count() as u64;
        let step = match options.sample {
            Some(sample) if sample > 0 => (open.len() as u64).div_ceil(sample).max(1),
            _ => 1,
        };
        let chosen: Vec<u64> = open.iter().step_by(step as usize).copied().collect();
        let unsettled_before = unknown
            .iter()
            .filter(|&&class| earlier(class) == Some(ForbidValue::Unknown))
            .count() as u64;
        let mut layer = EntryLayer {
            captured,
            side,
            unknown: unknown.len() as u64,
            settled_before,
            unsettled_before,
            searched: 0,
            tigers_win: 0,
            goats_win: 0,
            nodes: 0,
            most_nodes_settled: 0,
            seconds: 0.0,
        };
        let phase = match side {
            Side::Tigers => format!("forbid proof of layer {captured} entries"),
            Side::Goats => format!("forbid proof of layer {captured} entries after a capture"),
        };
        let done = AtomicU64::new(0);
        for chunk in chosen.chunks(WRITE_EVERY) {
            let search = Chunk {
                classes: chunk,
                captured,
                side,
                done: &done,
                total: chosen.len() as u64,
                phase: &phase,
            };
            for (class, value, nodes) in search.run(provers, progress) {
                layer.searched += 1;
                layer.nodes += nodes;
                // The value is the mover's.
                match (value, side) {
                    (ForbidValue::Win, Side::Tigers) | (ForbidValue::Loss, Side::Goats) => {
                        layer.tigers_win += 1;
                    }
                    (ForbidValue::Win, Side::Goats) | (ForbidValue::Loss, Side::Tigers) => {
                        layer.goats_win += 1;
                    }
                    (ForbidValue::Unknown, _) => {}
                }
                if value.is_proven() {
                    layer.most_nodes_settled = layer.most_nodes_settled.max(nodes);
                }
                proofs[offset + class as usize] = value.code();
            }
            save(proofs)?;
        }
        progress(&phase, chosen.len() as u64, chosen.len() as u64);
        layer.seconds = started.elapsed().as_secs_f64();
        Ok(layer)
    }
}

/// Entries searched between two writes of the proof file.
const WRITE_EVERY: usize = 4096;

/// The codes of a layer's proof file (one per class, goats to move first), all 0 when there is
/// none; a damaged one is reported and started again. Unknown codes left by a run with a smaller
/// budget than `nodes_per_entry` become 0 (not searched at this budget), so that the file's
/// budget, written as `nodes_per_entry`, holds for every unknown in it.
///
/// # Errors
/// A proof file made for other rules, or one that cannot be read.
fn read_proofs(
    path: &Path,
    rules: crate::tablebase::TableRules,
    captured: u8,
    positions: u64,
    nodes_per_entry: u64,
) -> Result<Vec<u8>, TablebaseError> {
    match read_forbid(path, rules, captured, positions) {
        Ok((header, mut codes)) => {
            if header.node_budget < nodes_per_entry {
                let unknown = ForbidValue::Unknown.code();
                codes
                    .iter_mut()
                    .filter(|code| **code == unknown)
                    .for_each(|code| *code = 0);
            }
            Ok(codes)
        }
        Err(TablebaseError::NotFound { .. }) => Ok(vec![0; 2 * positions as usize]),
        Err(error @ (TablebaseError::MismatchedRules { .. } | TablebaseError::Io { .. })) => {
            Err(error)
        }
        Err(error) => {
            log::warn!("{error}: its entries are searched again");
            Ok(vec![0; 2 * positions as usize])
        }
    }
}

/// Entries of one layer searched by the workers together.
struct Chunk<'c> {
    classes: &'c [u64],
    captured: u8,
    side: Side,
    /// Entries of the layer searched so far (for progress), and how many there are.
    done: &'c AtomicU64,
    total: u64,
    phase: &'c str,
}

impl Chunk<'_> {
    /// Searches every class with one worker thread per prover; returns each class's value
    /// for its mover and the nodes its search expanded.
    fn run(&self, provers: &mut [Prover<'_>], progress: Progress) -> Vec<(u64, ForbidValue, u64)> {
        let workers = provers.len();
        let index = LayerIndex::get(usize::from(self.captured) + 1);
        std::thread::scope(|scope| {
            let handles: Vec<_> = provers
                .iter_mut()
                .enumerate()
                .map(|(worker, prover)| {
                    let worker_thread = std::thread::Builder::new().stack_size(SEARCH_STACK);
                    let spawned = worker_thread.spawn_scoped(scope, move || {
                        let mut found = Vec::new();
                        for &class in self.classes.iter().skip(worker).step_by(workers) {
                            let board = index.decode(class as u32);
                            let position = board_position(board, self.side.index(), self.captured);
                            let result = prover.prove(&[position], &|_, _, _| {});
                            found.push((class, result.value, result.nodes));
                            let finished = self.done.fetch_add(1, Ordering::Relaxed) + 1;
                            if worker == 0 && finished % 256 < workers as u64 {
                                progress(self.phase, finished, self.total);
                            }
                        }
                        found
                    });
                    spawned.expect("a search thread starts")
                })
                .collect();
            handles
                .into_iter()
                .flat_map(|worker| worker.join().expect("an entry worker panicked"))
                .collect()
        })
    }
}
