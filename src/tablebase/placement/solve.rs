//! Solving one side of one placement layer from the layers its moves lead to.
//!
//! The placement phase has no cycles: goats to move must place, which lowers the goats in hand,
//! and tigers to move lead to goats to move with as many goats in hand. So each value follows
//! from its children in one pass: goats to move at (h, c) from tigers to move at (h - 1, c)
//! (the movement tables when h = 1), tigers to move at (h, c) from goats to move at (h, c) and,
//! after a capture, (h, c + 1).

use super::super::index::LayerIndex;
use super::super::value::{decode_value, Wdl};
use super::super::TableRules;
use super::index::{expand, rank21, Frames, Layer, PlacementIndex, FULL, MASK21};
use super::moves::ClassTables;
use super::packed::{count_codes, get, DRAW, LOSS, WIN};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::Mutex;

/// Positions per unit of work, at least.
const CHUNK: usize = 1 << 14;
/// Goats to move are solved by pushing the tigers' non-wins ([`push_goats`]) when these make
/// at most this fraction of the children's layer.
const PUSH_BELOW: f64 = 0.5;

/// Progress report: positions done, positions in all.
pub type Progress<'a> = &'a (dyn Fn(u64, u64) + Sync);

/// Where the tigers-to-move children of goats-to-move positions are looked up.
pub enum TigerChildren<'a> {
    /// The movement tables' layer (`captured` goats captured): one byte per class, goats to
    /// move then tigers to move.
    Movement {
        /// The movement layer's values.
        values: &'a [u8],
        /// The movement layer's index.
        index: &'static LayerIndex,
    },
    /// A placement layer's tigers-to-move values.
    Placement {
        /// Packed values.
        values: &'a [u8],
        /// Its index.
        index: &'a PlacementIndex,
    },
}

/// Where the goats-to-move children of a tigers-to-move layer are looked up.
pub struct GoatChildren<'a> {
    /// Goats to move in the same layer (after a step).
    pub step: (&'a [u8], &'a PlacementIndex),
    /// Goats to move in the next layer (after a capture), or `None` when a capture wins (also
    /// given for a layer without goats on the board, where no capture can happen).
    pub capture: Option<(&'a [u8], &'a PlacementIndex)>,
}

/// Runs `solve(state, class, codes)` for every tiger class of a layer on `threads` threads
/// (each with its own `state`): it fills `codes`, one 2-bit code per rank of the class's
/// positions, which are packed into the result. Work is handed out in groups of classes that
/// start on whole bytes (4 classes hold a multiple of 4 positions), so no byte is shared.
fn solve_classes<S>(
    index: &PlacementIndex,
    threads: usize,
    progress: Progress,
    state: impl Fn() -> S + Sync,
    solve: impl Fn(&mut S, usize, &mut [u8]) + Sync,
) -> Vec<u8> {
    let len = index.len();
    let slots = index.slots as usize;
    let group = 4 * CHUNK.div_ceil(4 * slots);
    let mut out = vec![0u8; len.div_ceil(4) as usize];
    let done = AtomicU64::new(0);
    let work = Mutex::new(out.chunks_mut(group * slots / 4).enumerate());
    let worker = || {
        let mut state = state();
        let mut codes = vec![0u8; slots];
        loop {
            let next = work.lock().map(|mut units| units.next());
            let Ok(Some((unit, bytes))) = next else {
                return;
            };
            let classes = group * unit..(group * (unit + 1)).min(len as usize / slots);
            for (k, class) in classes.clone().enumerate() {
                solve(&mut state, class, &mut codes);
                for (rank, &code) in codes.iter().enumerate() {
                    let offset = k * slots + rank;
                    bytes[offset >> 2] |= code << ((offset & 3) * 2);
                }
            }
            let positions = (classes.len() * slots) as u64;
            progress(done.fetch_add(positions, Relaxed) + positions, len);
        }
    };
    std::thread::scope(|scope| {
        for _ in 1..threads.max(1) {
            scope.spawn(worker);
        }
        worker();
    });
    out
}

/// As [`solve_classes`], with `solve(state, class, goats) -> code` for each position: `goats`
/// is its compressed goat set (bit `i` = the class representative's `i`-th non-tiger point).
fn solve_all<S>(
    index: &PlacementIndex,
    threads: usize,
    progress: Progress,
    state: impl Fn() -> S + Sync,
    solve: impl Fn(&mut S, usize, u32) -> u8 + Sync,
) -> Vec<u8> {
    let (ranked_sets, flip) = (index.ranked_sets(), index.ranked_flip());
    solve_classes(index, threads, progress, state, |state, class, codes| {
        for (code, &set) in codes.iter_mut().zip(ranked_sets) {
            *code = solve(state, class, set ^ flip);
        }
    })
}

/// Solves goats to move in layer `index.layer` (h >= 1): every empty point is a placement.
pub fn solve_goats(
    index: &PlacementIndex,
    children: &TigerChildren,
    threads: usize,
    progress: Progress,
) -> Vec<u8> {
    let frames = Frames::get();
    match children {
        TigerChildren::Movement {
            values,
            index: movement,
        } => {
            solve_all(
                index,
                threads,
                progress,
                || (),
                |_, class, goats| {
                    let points = &frames.classes[class];
                    let tigers = points.tigers;
                    let empties = FULL & !(tigers | expand(goats, points.ascending));
                    let mut best = LOSS;
                    let mut rest = empties;
                    while rest != 0 {
                        let point = rest.trailing_zeros();
                        rest &= rest - 1;
                        // The child's value for the tigers.
                        let (child, _) = movement.encode(tigers, empties ^ (1 << point));
                        let byte = values[movement.len() as usize + child as usize];
                        match decode_value(byte).wdl {
                            Wdl::Win => {}
                            Wdl::Draw => best = DRAW,
                            Wdl::Loss => return WIN,
                        }
                    }
                    best
                },
            )
        }
        TigerChildren::Placement {
            values,
            index: child,
        } => {
            let [wins, ..] = count_codes(values, child.len());
            if (child.len() - wins) as f64 <= PUSH_BELOW * child.len() as f64 {
                return push_goats(index, values, child, threads, progress);
            }
            // The children share the position's class and frame: a placement adds one bit.
            let (slots, flip) = (u64::from(child.slots), child.ranked_flip());
            solve_all(
                index,
                threads,
                progress,
                || (),
                |_, class, goats| {
                    let base = class as u64 * slots;
                    let mut draw = false;
                    let mut rest = MASK21 & !goats;
                    while rest != 0 {
                        let placed = goats | 1 << rest.trailing_zeros();
                        rest &= rest - 1;
                        let child = get(values, base + u64::from(rank21(placed ^ flip)));
                        if child == LOSS {
                            return WIN;
                        }
                        draw |= child == DRAW;
                    }
                    if draw {
                        DRAW
                    } else {
                        LOSS
                    }
                },
            )
        }
    }
}

/// Goats to move as [`solve_goats`] from a tigers-to-move layer (`values`, indexed by
/// `child`) that the tigers mostly win: rather than each position looking at all its
/// placements, each child the tigers do not win is pushed to its parents (the child without
/// one of its goats). A child won by the tigers changes nothing, so only the others cost work.
fn push_goats(
    index: &PlacementIndex,
    values: &[u8],
    child: &PlacementIndex,
    threads: usize,
    progress: Progress,
) -> Vec<u8> {
    let (child_sets, child_flip) = (child.ranked_sets(), child.ranked_flip());
    let flip = index.ranked_flip();
    solve_classes(
        index,
        threads,
        progress,
        || (),
        |_, class, codes| {
            // Bit 0: a placement leads to a draw; bit 1: to a tigers' loss.
            codes.fill(0);
            let first = class as u64 * u64::from(child.slots);
            for (rank, &set) in child_sets.iter().enumerate() {
                let flag = match get(values, first + rank as u64) {
                    WIN => continue,
                    LOSS => 2,
                    _ => 1,
                };
                let goats = set ^ child_flip;
                let mut rest = goats;
                while rest != 0 {
                    let placed = rest & rest.wrapping_neg();
                    rest ^= placed;
                    codes[rank21(goats ^ placed ^ flip) as usize] |= flag;
                }
            }
            for code in codes.iter_mut() {
                *code = match *code {
                    0 => LOSS,
                    1 => DRAW,
                    _ => WIN,
                };
            }
        },
    )
}

/// Solves tigers to move in layer `index.layer` under `rules`.
pub fn solve_tigers(
    index: &PlacementIndex,
    children: &GoatChildren,
    rules: TableRules,
    threads: usize,
    progress: Progress,
) -> Vec<u8> {
    let (step_values, step_index) = children.step;
    let step = (
        step_values,
        u64::from(step_index.slots),
        step_index.ranked_flip(),
    );
    let capture = children
        .capture
        .map(|(values, index)| (values, u64::from(index.slots), index.ranked_flip()));
    solve_all(
        index,
        threads,
        progress,
        // Per thread: the move tables of the class at hand, and the last move that won there.
        || (ClassTables::default(), 0u64),
        |(tables, killer), class, goats| {
            if tables.prepare(class) {
                *killer = 0;
            }
            let allowed = tables.allowed(goats);
            let captures = allowed & tables.captures;
            if captures != 0 && capture.is_none() {
                return WIN;
            }
            let legal = if rules.forced_capture && captures != 0 {
                captures
            } else {
                allowed
            };
            // A position wins when one move leads to a loss for the goats, and its neighbours
            // in the class (a goat or two apart) often win by the same move: try that first.
            // The value does not depend on the order in which the moves are looked at.
            let mut draw = false;
            let first = legal & *killer;
            if first != 0 {
                let layer = if first & tables.captures != 0 {
                    capture
                } else {
                    Some(step)
                };
                if let Some(layer) = layer {
                    match child_codes(tables, first, goats, layer) {
                        Err(_) => return WIN,
                        Ok(more) => draw |= more,
                    }
                }
            }
            // Then captures (they often decide), then steps.
            let rest = legal & !first;
            for (moves, layer) in [
                (rest & tables.captures, capture),
                (rest & !tables.captures, Some(step)),
            ] {
                let Some(layer) = layer.filter(|_| moves != 0) else {
                    continue;
                };
                match child_codes(tables, moves, goats, layer) {
                    Err(m) => {
                        *killer = 1 << m;
                        return WIN;
                    }
                    Ok(more) => draw |= more,
                }
            }
            if draw {
                DRAW
            } else {
                LOSS
            }
        },
    )
}

/// Looks up the children of moves `moves` (bits) from goats `goats`, all in the goats-to-move
/// layer `(values, slots, flip)`: `Err(move)` as soon as one is a loss for the goats (the
/// tigers win by that move), else whether one is a draw.
#[inline(always)]
fn child_codes(
    tables: &ClassTables,
    mut moves: u64,
    goats: u32,
    (values, slots, flip): (&[u8], u64, u32),
) -> Result<bool, usize> {
    let mut draw = false;
    while moves != 0 {
        let m = moves.trailing_zeros() as usize;
        moves &= moves - 1;
        let child = tables.child_goats(m, goats);
        let at = u64::from(tables.child_class[m]) * slots + u64::from(rank21(child ^ flip));
        let code = get(values, at);
        if code == LOSS {
            return Err(m);
        }
        // (Without a branch: draws and wins of the tigers mix unpredictably.)
        draw |= code == DRAW;
    }
    Ok(draw)
}

/// The layers of a placement solve under `rules`, in the order they are solved: goats in hand
/// rising, and within one count of goats in hand, captured falling.
pub fn layers(rules: TableRules, max_in_hand: u8) -> Vec<Layer> {
    let mut out = Vec::new();
    for in_hand in 1..=max_in_hand {
        for captured in (0..rules.captures_to_win.min(21 - in_hand)).rev() {
            out.push(Layer { in_hand, captured });
        }
    }
    out
}
