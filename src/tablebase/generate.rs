//! Retrograde analysis of one layer (a number of captured goats), both sides to move.
//!
//! Values are found in order of increasing distance. Every position gets a counter: the sum,
//! over its in-layer moves, of the number of symmetries fixing the (canonical) child. When a
//! child is found won for its mover, each of its in-layer parents, found by un-moves, loses the
//! parent's own number of fixing symmetries; with these weights a parent's counter reaches zero
//! exactly when all of its in-layer children are known wins, whatever the symmetries (each
//! move edge between two classes is seen |G|/|Stab| times from either end). Captures lead to the
//! next layer, already solved, and give fixed exits: a won exit makes the position a win at
//! that distance unless a faster one turns up; a drawn or won exit means it can never lose.
//! In the last layer a tiger position with a capture wins in 1; goat moves into such positions
//! are counted as losing moves up front and those positions are never propagated (see
//! [`LayerGraph::count_children`]).

use super::graph::{Child, LayerGraph, GOATS, TIGERS};
use super::value::{decode_value, encode_value, TbValue, Wdl, MAX_DISTANCE};
use super::TablebaseError;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU32, AtomicU64, AtomicUsize, Ordering::Relaxed};

/// Counter flag: the position has a capture that does not lose, so it never loses.
const NEVER_LOSES: u16 = 0x8000;
/// Side bit in list entries.
const SIDE_BIT: u32 = 1 << 31;
const CHUNK: usize = 4096;

/// Progress report: phase name, work done, work total.
pub type Progress<'a> = &'a (dyn Fn(&str, u64, u64) + Sync);

/// Values of one layer, by side to move ([`GOATS`], [`TIGERS`]), one byte per class.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LayerValues {
    /// Goats captured in this layer.
    pub captured: u8,
    /// `values[side][index]`, encoded as in [`super::value`].
    pub values: [Vec<u8>; 2],
}

/// Runs `body(state, range)` over `0..len` in chunks on `threads` threads; returns the states.
fn parallel_chunks<T: Send>(
    len: usize,
    threads: usize,
    make: impl Fn() -> T + Sync,
    body: impl Fn(&mut T, std::ops::Range<usize>) + Sync,
) -> Vec<T> {
    let cursor = AtomicUsize::new(0);
    let worker = || {
        let mut state = make();
        loop {
            let start = cursor.fetch_add(CHUNK, Relaxed);
            if start >= len {
                break;
            }
            body(&mut state, start..(start + CHUNK).min(len));
        }
        state
    };
    if threads <= 1 || len <= CHUNK {
        return vec![worker()];
    }
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads).map(|_| scope.spawn(worker)).collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("generator thread panicked"))
            .collect()
    })
}

/// Number of distance levels kept: 0..=MAX_DISTANCE, plus one to detect overflow.
const LEVELS: usize = MAX_DISTANCE as usize + 2;

/// Positions found in the first pass, by distance: entry = side bit | index.
struct Found {
    wins: Vec<Vec<u32>>,
    losses: Vec<Vec<u32>>,
    seeds: Vec<Vec<u32>>,
    exit_losses: Vec<(u32, u16)>,
}

impl Default for Found {
    fn default() -> Found {
        Found {
            wins: vec![Vec::new(); LEVELS],
            losses: vec![Vec::new(); LEVELS],
            seeds: vec![Vec::new(); LEVELS],
            exit_losses: Vec::new(),
        }
    }
}

impl Found {
    fn append(&mut self, mut other: Found) {
        for level in 0..LEVELS {
            self.wins[level].append(&mut other.wins[level]);
            self.losses[level].append(&mut other.losses[level]);
            self.seeds[level].append(&mut other.seeds[level]);
        }
        self.exit_losses.append(&mut other.exit_losses);
    }
}

/// Solves the layer with `captured` goats captured. `next_goats` holds the values of the next
/// layer with goats to move (`None` when a capture reaches `captures_to_win`).
///
/// # Errors
/// [`TablebaseError::DistanceOverflow`] if a distance exceeds what a byte can store.
pub fn generate_layer(
    graph: &LayerGraph,
    captured: u8,
    next_goats: Option<&[u8]>,
    threads: usize,
    progress: Progress,
) -> Result<LayerValues, TablebaseError> {
    let len = graph.index.len() as usize;
    // One word per position: the counter in bits 0..16, the value byte in bits 16..24 (one
    // cache line visit per parent).
    let cells: [Vec<AtomicU32>; 2] = [
        (0..len).map(|_| AtomicU32::new(0)).collect(),
        (0..len).map(|_| AtomicU32::new(0)).collect(),
    ];
    let done = AtomicU64::new(0);
    let total = 2 * len as u64;
    let started = std::time::Instant::now();

    // Initial pass: count in-layer moves, read captures from the next layer.
    let mut found = Found::default();
    for side in [GOATS, TIGERS] {
        let states = parallel_chunks(len, threads, Found::default, |found, range| {
            let count = range.len() as u64;
            for i in range {
                init_position(graph, next_goats, side, i as u32, &cells[side], found);
            }
            let so_far = done.fetch_add(count, Relaxed) + count;
            progress("init", so_far, total);
        });
        for state in states {
            found.append(state);
        }
    }
    let Found {
        mut wins,
        mut losses,
        mut seeds,
        exit_losses,
    } = found;
    if [&wins, &losses, &seeds]
        .iter()
        .any(|lists| !lists[LEVELS - 1].is_empty())
    {
        return Err(TablebaseError::DistanceOverflow { captured });
    }
    let exit_losses: HashMap<u32, u16> = exit_losses.into_iter().collect();
    let mut resolved: u64 = (wins.iter().map(Vec::len).sum::<usize>()
        + losses.iter().map(Vec::len).sum::<usize>()) as u64;
    progress("retrograde", resolved, total);
    log::info!(
        "layer {captured}: first pass {:.2} s",
        started.elapsed().as_secs_f64()
    );
    let started = std::time::Instant::now();

    for level in 0..=usize::from(MAX_DISTANCE) {
        let next_level = level as u16 + 1;
        // Parents of positions lost in `level` plies win in `level + 1`.
        let lost = std::mem::take(&mut losses[level]);
        if !lost.is_empty() && next_level > MAX_DISTANCE {
            return Err(TablebaseError::DistanceOverflow { captured });
        }
        let states = parallel_chunks(
            lost.len(),
            threads,
            <(Vec<u32>, Vec<(u32, u8)>)>::default,
            |(out, buffer), range| {
                for_parents_batched(graph, &lost[range], &cells, buffer, |parent, _, cell| {
                    // Only wins at this one distance are written in this phase, so or-ing the
                    // same bits races harmlessly.
                    if cell.load(Relaxed) >> 16 == 0
                        && cell.fetch_or(value_bits(next_level), Relaxed) >> 16 == 0
                    {
                        out.push(parent);
                    }
                });
            },
        );
        for (state, _) in states {
            wins[usize::from(next_level)].extend(state);
        }
        for entry in std::mem::take(&mut seeds[usize::from(next_level)]) {
            let cell = &cells[TIGERS][(entry & !SIDE_BIT) as usize];
            if cell.load(Relaxed) >> 16 == 0 {
                cell.fetch_or(value_bits(next_level), Relaxed);
                wins[usize::from(next_level)].push(entry);
            }
        }
        // Parents whose last undecided child is won in `level` lose in `level + 1` (or later,
        // if a capture loses more slowly).
        let won = std::mem::take(&mut wins[level]);
        let states = parallel_chunks(
            won.len(),
            threads,
            <(Vec<(u16, u32)>, Vec<(u32, u8)>)>::default,
            |(out, buffer), range| {
                for_parents_batched(
                    graph,
                    &won[range],
                    &cells,
                    buffer,
                    |parent, fixing, cell| {
                        if cell.load(Relaxed) >> 16 != 0 {
                            return;
                        }
                        let before = cell.fetch_sub(u32::from(fixing), Relaxed);
                        if before & 0xffff == u32::from(fixing) {
                            let slowest = if parent & SIDE_BIT != 0 {
                                exit_losses.get(&(parent & !SIDE_BIT)).copied().unwrap_or(0)
                            } else {
                                0
                            };
                            let distance = next_level.max(slowest);
                            cell.fetch_or(value_bits(distance.min(MAX_DISTANCE)), Relaxed);
                            out.push((distance, parent));
                        }
                    },
                );
            },
        );
        for (state, _) in states {
            for (distance, entry) in state {
                if distance > MAX_DISTANCE {
                    return Err(TablebaseError::DistanceOverflow { captured });
                }
                losses[usize::from(distance)].push(entry);
            }
        }
        resolved += (lost.len() + won.len()) as u64;
        progress("retrograde", resolved, total);
        let pending =
            |lists: &Vec<Vec<u32>>| lists[level + 1..].iter().any(|list| !list.is_empty());
        if !pending(&wins) && !pending(&losses) && !pending(&seeds) {
            break;
        }
    }
    progress("retrograde", total, total);
    log::info!(
        "layer {captured}: retrograde {:.2} s",
        started.elapsed().as_secs_f64()
    );
    let unwrap = |cells: &Vec<AtomicU32>| {
        cells
            .iter()
            .map(|cell| (cell.load(Relaxed) >> 16) as u8)
            .collect::<Vec<u8>>()
    };
    Ok(LayerValues {
        captured,
        values: [unwrap(&cells[GOATS]), unwrap(&cells[TIGERS])],
    })
}

/// Calls `apply(parent entry, fixing, parent cell)` for every in-layer parent of `entries`,
/// in batches: the parents of a batch are found first and their cells read once, so that the
/// cache misses overlap instead of waiting one by one behind the atomic updates.
fn for_parents_batched(
    graph: &LayerGraph,
    entries: &[u32],
    cells: &[Vec<AtomicU32>; 2],
    buffer: &mut Vec<(u32, u8)>,
    mut apply: impl FnMut(u32, u8, &AtomicU32),
) {
    const BATCH: usize = 16;
    let cell = |entry: u32| &cells[(entry >> 31) as usize][(entry & !SIDE_BIT) as usize];
    for block in entries.chunks(BATCH) {
        buffer.clear();
        for &entry in block {
            let (side, index) = ((entry >> 31) as usize, entry & !SIDE_BIT);
            let parent_side = (1 - side) as u32;
            let (board, class_id) = graph.index.decode_with_class(index);
            graph.for_each_parent(board, class_id, side, |parent, fixing| {
                buffer.push((parent | parent_side << 31, fixing));
            });
        }
        let touched = buffer
            .iter()
            .fold(0, |acc, &(parent, _)| acc ^ cell(parent).load(Relaxed));
        std::hint::black_box(touched);
        for &(parent, fixing) in buffer.iter() {
            apply(parent, fixing, cell(parent));
        }
    }
}

/// The value byte for a win or loss at `plies`, in a cell's bits 16..24.
#[inline]
fn value_bits(plies: u16) -> u32 {
    u32::from(encode_value(plies)) << 16
}

/// First look at one position: immediate results, exits through captures, move counter.
fn init_position(
    graph: &LayerGraph,
    next_goats: Option<&[u8]>,
    side: usize,
    index: u32,
    cells: &[AtomicU32],
    found: &mut Found,
) {
    let mut value = 0u8;
    let (board, class_id) = graph.index.decode_with_class(index);
    let mut fastest_win: Option<u16> = None;
    let mut draws = false;
    let mut slowest_loss: u16 = 0;
    let (moves, mut counter) = graph.count_children(board, class_id, side, |child| match child {
        Child::InLayer { .. } => {}
        Child::CapturesReached => fastest_win = Some(1),
        Child::OpponentWinsAtOnce => slowest_loss = slowest_loss.max(2),
        Child::NextLayer { index } => {
            let value = next_goats.map_or(0, |values| values[index as usize]);
            match decode_value(value) {
                TbValue {
                    wdl: Wdl::Loss,
                    plies_to_end: Some(d),
                } => {
                    fastest_win = Some(fastest_win.map_or(d + 1, |best| best.min(d + 1)));
                }
                TbValue {
                    wdl: Wdl::Win,
                    plies_to_end: Some(d),
                } => slowest_loss = slowest_loss.max(d + 1),
                _ => draws = true,
            }
        }
    });
    let entry = index | (side as u32) << 31;
    if moves == 0 {
        value = encode_value(0);
        found.losses[0].push(entry);
    } else if counter == 0 {
        // Only captures (or, for goats in the last layer, only moves allowing one): their values
        // decide.
        if let Some(distance) = fastest_win {
            value = encode_value(distance.min(MAX_DISTANCE));
            // In the last layer a position with a capture wins at once, and its parents leave
            // it out of their counters: it must not be propagated.
            if !(distance == 1 && graph.next.is_none()) {
                found.wins[usize::from(distance.min(MAX_DISTANCE + 1))].push(entry);
            }
        } else if !draws {
            value = encode_value(slowest_loss.min(MAX_DISTANCE));
            found.losses[usize::from(slowest_loss.min(MAX_DISTANCE + 1))].push(entry);
        }
    } else {
        if fastest_win.is_some() || draws {
            counter |= NEVER_LOSES;
        }
        if let Some(distance) = fastest_win {
            if distance == 1 {
                value = encode_value(1);
                found.wins[1].push(entry);
            } else {
                found.seeds[usize::from(distance.min(MAX_DISTANCE + 1))].push(entry);
            }
        } else if slowest_loss > 2 {
            // (A loss found by the retrograde is at least 2 plies long anyway.)
            found.exit_losses.push((index, slowest_loss));
        }
    }
    cells[index as usize].store(u32::from(counter) | u32::from(value) << 16, Relaxed);
}
