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
use super::index::{ClassPoints, Frames, Layer, PlacementIndex, FULL};
use super::packed::{get, DRAW, LOSS, WIN};
use crate::tables::{JUMPS, NEIGHBOURS};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::{Mutex, OnceLock};

/// Positions per unit of work (a multiple of 4, so that units own whole bytes).
const CHUNK: usize = 1 << 14;

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

/// A tiger move from a class representative: where it goes and the frame of the child.
#[derive(Copy, Clone, Debug)]
struct TigerMove {
    to: u8,
    /// The jumped point, or 25 for a step.
    over: u8,
    /// The child's tiger class and the symmetry onto its representative.
    class: u16,
    symmetry: u8,
}

/// Per tiger class, its possible tiger moves (captures first).
struct ClassMoves {
    moves: Vec<Vec<TigerMove>>,
    captures: Vec<usize>,
}

impl ClassMoves {
    fn get() -> &'static ClassMoves {
        static MOVES: OnceLock<ClassMoves> = OnceLock::new();
        MOVES.get_or_init(|| {
            let frames = Frames::get();
            let mut moves = Vec::new();
            let mut captures = Vec::new();
            for points in &frames.classes {
                let tigers = points.tigers;
                let mut list = Vec::new();
                let child = |from: u32, to: u32, over: u8| {
                    let (class, g) = frames.class_of(tigers ^ (1 << from) ^ (1 << to));
                    TigerMove {
                        to: to as u8,
                        over,
                        class: class as u16,
                        symmetry: g as u8,
                    }
                };
                for &from in &points.ascending {
                    let jumps = &JUMPS[usize::from(from)];
                    for i in 0..usize::from(jumps.len) {
                        let land = jumps.land[i].index() as u32;
                        if tigers & (1 << land) == 0 {
                            let over = jumps.over[i].index() as u8;
                            list.push(child(u32::from(from), land, over));
                        }
                    }
                }
                captures.push(list.len());
                for &from in &points.ascending {
                    let mut targets = NEIGHBOURS[usize::from(from)].0 & !tigers;
                    while targets != 0 {
                        let to = targets.trailing_zeros();
                        targets &= targets - 1;
                        list.push(child(u32::from(from), to, 25));
                    }
                }
                moves.push(list);
            }
            ClassMoves { moves, captures }
        })
    }
}

/// Runs `solve(position_index, class, goats) -> code` over every position of a layer on
/// `threads` threads, writing packed codes.
fn solve_all(
    index: &PlacementIndex,
    threads: usize,
    progress: Progress,
    solve: impl Fn(usize, u32) -> u8 + Sync,
) -> Vec<u8> {
    let len = index.len();
    let mut out = vec![0u8; len.div_ceil(4) as usize];
    let done = AtomicU64::new(0);
    let work = Mutex::new(out.chunks_mut(CHUNK / 4).enumerate());
    let worker = || loop {
        let next = work.lock().map(|mut chunks| chunks.next());
        let Ok(Some((chunk, bytes))) = next else {
            return;
        };
        let first = (chunk * CHUNK) as u64;
        let end = (first + CHUNK as u64).min(len);
        for position in first..end {
            let (class, goats) = index.decode(position);
            let code = solve(class, goats);
            let offset = position - first;
            bytes[(offset >> 2) as usize] |= code << ((offset & 3) * 2);
        }
        let total = done.fetch_add(end - first, Relaxed) + (end - first);
        progress(total, len);
    };
    std::thread::scope(|scope| {
        for _ in 1..threads.max(1) {
            scope.spawn(worker);
        }
        worker();
    });
    out
}

/// Solves goats to move in layer `index.layer` (h >= 1): every empty point is a placement.
pub fn solve_goats(
    index: &PlacementIndex,
    children: &TigerChildren,
    threads: usize,
    progress: Progress,
) -> Vec<u8> {
    let frames = Frames::get();
    solve_all(index, threads, progress, |class, goats| {
        let points = &frames.classes[class];
        let tigers = points.tigers;
        let empties = FULL & !(tigers | goats);
        let mut best = LOSS;
        let mut rest = empties;
        while rest != 0 {
            let point = rest.trailing_zeros();
            rest &= rest - 1;
            let child_goats = goats | (1 << point);
            // The child's value for the tigers.
            let child = match children {
                TigerChildren::Movement { values, index } => {
                    let (class, _) = index.encode(tigers, empties ^ (1 << point));
                    let byte = values[index.len() as usize + class as usize];
                    match decode_value(byte).wdl {
                        Wdl::Win => WIN,
                        Wdl::Draw => DRAW,
                        Wdl::Loss => LOSS,
                    }
                }
                TigerChildren::Placement { values, index } => {
                    get(values, index.encode_in_class(class, points, child_goats))
                }
            };
            match child {
                LOSS => return WIN,
                DRAW => best = DRAW,
                _ => {}
            }
        }
        best
    })
}

/// Solves tigers to move in layer `index.layer` under `rules`.
pub fn solve_tigers(
    index: &PlacementIndex,
    children: &GoatChildren,
    rules: TableRules,
    threads: usize,
    progress: Progress,
) -> Vec<u8> {
    let frames = Frames::get();
    let class_moves = ClassMoves::get();
    let classes: &[ClassPoints] = &frames.classes;
    solve_all(index, threads, progress, |class, goats| {
        let tigers = classes[class].tigers;
        let empties = FULL & !(tigers | goats);
        let moves = &class_moves.moves[class];
        let capture_count = class_moves.captures[class];
        let mut best = LOSS;
        let mut any = false;
        for (i, mv) in moves.iter().enumerate() {
            if i == capture_count && any && rules.forced_capture {
                break;
            }
            if empties & (1 << mv.to) == 0 {
                continue;
            }
            let (values, child_index, child_goats) = if i < capture_count {
                if goats & (1 << mv.over) == 0 {
                    continue;
                }
                match children.capture {
                    None => return WIN,
                    Some((values, child_index)) => (values, child_index, goats ^ (1 << mv.over)),
                }
            } else {
                (children.step.0, children.step.1, goats)
            };
            any = true;
            let child_class = usize::from(mv.class);
            let turned = frames.transform(child_goats, usize::from(mv.symmetry));
            let at = child_index.encode_in_class(child_class, &classes[child_class], turned);
            match get(values, at) {
                LOSS => return WIN,
                DRAW => best = DRAW,
                _ => {}
            }
        }
        best
    })
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
