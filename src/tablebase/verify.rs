//! Verification of a set of tables: every stored value must equal the value computed from its
//! successors' stored values (fastest win, else draw, else slowest loss), and the header counts
//! must match. Together with the checksums this proves the tables exact: by induction on the
//! distance, stored wins and losses are true ones, and every true win or loss is stored as such,
//! so the remaining draws are draws.

use super::file::PayloadCheck;
use super::generate::Progress;
use super::graph::{Child, LayerGraph, GOATS};
use super::index::Board;
use super::solve::count_values;
use super::value::{decode_value, encode_value, TbValue, Wdl};
use super::{Tablebase, TablebaseError};
use crate::{Bitboard, Position, Side};
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// The outcome of checking one layer.
#[derive(Clone, Debug)]
pub struct LayerCheck {
    /// Goats captured.
    pub captured: u8,
    /// Positions per side.
    pub positions: u64,
    /// Positions whose stored value differs from the one its successors give.
    pub mismatches: u64,
    /// The first mismatching position found, with stored and computed values.
    pub example: Option<String>,
    /// Whether the header's win/draw/loss counts match the values.
    pub counts_match: bool,
}

impl LayerCheck {
    /// Whether the layer passed.
    pub fn ok(&self) -> bool {
        self.mismatches == 0 && self.counts_match
    }
}

/// The value of a board computed from the stored values of its successors.
pub fn value_from_successors(
    graph: &LayerGraph,
    layer: &[u8],
    next_layer: Option<&[u8]>,
    board: Board,
    class_id: usize,
    side: usize,
) -> u8 {
    let len = graph.index.len() as usize;
    let other = 1 - side;
    let mut fastest_win: Option<u16> = None;
    let mut draws = false;
    let mut slowest_loss = 0u16;
    let moves = graph.for_each_child(board, class_id, side, |child| {
        let byte = match child {
            Child::InLayer { index, .. } => layer[other * len + index as usize],
            Child::NextLayer { index } => next_layer.map_or(0, |values| values[index as usize]),
            Child::CapturesReached => encode_value(0),
            Child::OpponentWinsAtOnce => encode_value(1),
        };
        match decode_value(byte) {
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
    });
    if moves == 0 {
        encode_value(0)
    } else if let Some(d) = fastest_win {
        encode_value(d)
    } else if draws {
        0
    } else {
        encode_value(slowest_loss)
    }
}

/// Checks every layer of the tables in `dir` (rules read from the files). Every payload
/// checksum is computed, whatever the verified stamps say (and the files are stamped).
///
/// # Errors
/// Missing, unreadable, corrupt or inconsistent files.
pub fn verify_tables(
    dir: &Path,
    threads: usize,
    progress: Progress,
) -> Result<(Tablebase, Vec<LayerCheck>), TablebaseError> {
    let tables = Tablebase::open_recorded_with(dir, PayloadCheck::Always)?;
    let rules = tables.rules();
    let mut checks = Vec::new();
    for captured in 0..rules.captures_to_win {
        let graph = LayerGraph::new(captured, rules);
        let len = graph.index.len() as usize;
        let layer = tables.layer(captured)?;
        let next = match graph.next {
            Some(_) => Some(&tables.layer(captured + 1)?[..len_of(captured + 1)]),
            None => None,
        };
        let mismatches = AtomicU64::new(0);
        let done = AtomicU64::new(0);
        let examples = std::sync::Mutex::new(None);
        let chunk = len.div_ceil(64).max(1);
        let work = std::sync::atomic::AtomicUsize::new(0);
        std::thread::scope(|scope| {
            for _ in 0..threads.max(1) {
                scope.spawn(|| loop {
                    let start = work.fetch_add(chunk, Relaxed);
                    if start >= 2 * len {
                        break;
                    }
                    for slot in start..(start + chunk).min(2 * len) {
                        let (side, index) = (slot / len, (slot % len) as u32);
                        let (board, class_id) = graph.index.decode_with_class(index);
                        let computed =
                            value_from_successors(&graph, layer, next, board, class_id, side);
                        let stored = layer[slot];
                        if computed != stored {
                            mismatches.fetch_add(1, Relaxed);
                            let mut example = examples.lock().expect("no panics while held");
                            if example.is_none() {
                                *example = Some(format!(
                                    "\"{}\": stored {}, successors give {}",
                                    board_position(board, side, captured),
                                    decode_value(stored),
                                    decode_value(computed)
                                ));
                            }
                        }
                    }
                    let count = ((start + chunk).min(2 * len) - start) as u64;
                    progress(
                        &format!("verify layer {captured}"),
                        done.fetch_add(count, Relaxed) + count,
                        2 * len as u64,
                    );
                });
            }
        });
        let header = &tables.headers()[usize::from(captured)];
        let counts_match =
            header.counts == [count_values(&layer[..len]), count_values(&layer[len..])];
        checks.push(LayerCheck {
            captured,
            positions: len as u64,
            mismatches: mismatches.into_inner(),
            example: examples.into_inner().expect("no panics while held"),
            counts_match,
        });
    }
    Ok((tables, checks))
}

fn len_of(captured: u8) -> usize {
    super::index::LayerIndex::get(usize::from(captured) + 1).len() as usize
}

/// The position of a canonical board (all goats placed).
pub fn board_position(board: Board, side: usize, captured: u8) -> Position {
    let side = if side == GOATS {
        Side::Goats
    } else {
        Side::Tigers
    };
    Position::from_parts(
        Bitboard(board.tigers),
        Bitboard(board.goats()),
        side,
        0,
        captured,
    )
    .expect("a decoded board is a valid position")
}
