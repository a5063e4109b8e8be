//! `tb forbid prove --entries`: the proof search ([`super::prove`]) from every table draw with
//! tigers to move whose forbid value the component solver left unknown: the first movement
//! states the placement phase can end in, so the inputs of `tb forbid start` that separate its
//! two bounds.
//!
//! Layers are taken from the last one down, as the solver does, so that a search in a lower
//! layer finds the higher layers' entry values it captures into already settled (each worker's
//! prover keeps the settled entries of its transposition table from one entry to the next).

use super::file::{forbid_path, read_forbid};
use super::prove::{ProveOptions, Prover, SEARCH_STACK};
use super::tables::ForbidTables;
use super::ForbidValue;
use crate::tablebase::generate::Progress;
use crate::tablebase::graph::TIGERS;
use crate::tablebase::index::LayerIndex;
use crate::tablebase::verify::board_position;
use crate::tablebase::{Tablebase, TablebaseError};
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
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
}

/// One layer's entries after the search.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EntryLayer {
    /// Goats captured.
    pub captured: u8,
    /// Unknown table-draw classes with tigers to move.
    pub unknown: u64,
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

/// Searches the unknown entries of every layer of the tables in `dir` (with their forbid files
/// and placement values), from the last layer down.
///
/// # Errors
/// Missing, corrupt or mismatched tables or forbid files.
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
    let mut layers = Vec::new();
    for captured in (0..rules.captures_to_win).rev() {
        let started = Instant::now();
        let positions = tables.headers()[usize::from(captured)].positions;
        let (_, codes) = read_forbid(&forbid_path(dir, captured), rules, captured, positions)?;
        let unknown: Vec<u64> = (0..positions)
            .filter(|&class| {
                let code = codes[TIGERS * positions as usize + class as usize];
                ForbidValue::from_code(code) == Some(ForbidValue::Unknown)
            })
            .collect();
        let step = match options.sample {
            Some(sample) if sample > 0 => (unknown.len() as u64).div_ceil(sample).max(1),
            _ => 1,
        };
        let chosen: Vec<u64> = unknown.iter().step_by(step as usize).copied().collect();
        let done = AtomicU64::new(0);
        let phase = format!("forbid proof of layer {captured} entries");
        let index = LayerIndex::get(usize::from(captured) + 1);
        let parts: Vec<EntryLayer> = std::thread::scope(|scope| {
            let workers: Vec<_> = provers
                .iter_mut()
                .enumerate()
                .map(|(worker, prover)| {
                    let (chosen, done, phase) = (&chosen, &done, &phase);
                    let worker_thread = std::thread::Builder::new().stack_size(SEARCH_STACK);
                    let spawned = worker_thread.spawn_scoped(scope, move || {
                        let mut part = EntryLayer::default();
                        for &class in chosen.iter().skip(worker).step_by(threads) {
                            let position =
                                board_position(index.decode(class as u32), TIGERS, captured);
                            let found = prover.prove(&[position], &|_, _, _| {});
                            part.searched += 1;
                            part.nodes += found.nodes;
                            let finished = done.fetch_add(1, Ordering::Relaxed) + 1;
                            if worker == 0 && finished % 256 < threads as u64 {
                                progress(phase, finished, chosen.len() as u64);
                            }
                            match found.value {
                                ForbidValue::Win => part.tigers_win += 1,
                                ForbidValue::Loss => part.goats_win += 1,
                                ForbidValue::Unknown => continue,
                            }
                            part.most_nodes_settled = part.most_nodes_settled.max(found.nodes);
                        }
                        part
                    });
                    spawned.expect("a search thread starts")
                })
                .collect();
            workers
                .into_iter()
                .map(|worker| worker.join().expect("an entry worker panicked"))
                .collect()
        });
        let mut layer = EntryLayer {
            captured,
            unknown: unknown.len() as u64,
            seconds: started.elapsed().as_secs_f64(),
            ..EntryLayer::default()
        };
        for part in parts {
            layer.searched += part.searched;
            layer.tigers_win += part.tigers_win;
            layer.goats_win += part.goats_win;
            layer.nodes += part.nodes;
            layer.most_nodes_settled = layer.most_nodes_settled.max(part.most_nodes_settled);
        }
        progress(&phase, chosen.len() as u64, chosen.len() as u64);
        layers.push(layer);
    }
    Ok(layers)
}
