//! Verification of placement layers, independent of the solver: each checked position is built
//! as a [`Position`], its legal moves come from the rules core, and its value is recomputed from
//! its children's stored values (the movement tables after the last placement). The header
//! counts are checked against the values.

use super::super::compressed::convert::SideReader;
use super::super::file::placement_path;
use super::super::generate::Progress;
use super::super::{Tablebase, TablebaseError, Wdl};
use super::index::{Layer, PlacementIndex};
use super::packed::{count_codes, get, wdl_of};
use crate::{Bitboard, Position, Repetition, Side};
use std::path::Path;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering::Relaxed};
use std::sync::Mutex;

/// The outcome of checking one placement layer.
#[derive(Clone, Debug)]
pub struct PlacementCheck {
    /// The layer.
    pub layer: Layer,
    /// Positions checked (both sides).
    pub checked: u64,
    /// Positions whose stored value differs from the one its children give, or whose code is
    /// not a value.
    pub mismatches: u64,
    /// The first mismatching position, with stored and computed values.
    pub example: Option<String>,
    /// Whether the header's win/draw/loss counts match the values.
    pub counts_match: bool,
}

impl PlacementCheck {
    /// Whether the layer passed.
    pub fn ok(&self) -> bool {
        self.mismatches == 0 && self.counts_match
    }
}

/// The value of `position` (goats in hand) for the side to move, from its children's values in
/// `tables` (movement and placement); `None` when a child's layer is absent.
pub fn value_from_children(tables: &Tablebase, position: &Position) -> Option<Wdl> {
    let rules = tables.rules().with_repetition(Repetition::default());
    let moves = position.legal_moves(&rules);
    let mut best = Wdl::Loss;
    for &mv in moves.iter() {
        let child = position.played(mv);
        let child_value = if child.goats_captured() >= rules.captures_to_win {
            Wdl::Loss
        } else {
            tables.probe(&child)?.wdl
        };
        match child_value {
            Wdl::Loss => return Some(Wdl::Win),
            Wdl::Draw => best = Wdl::Draw,
            Wdl::Win => {}
        }
    }
    Some(best)
}

/// Checks the placement layers in `dir` with at most `max_in_hand` goats in hand, every
/// `stride`-th position of each side (1: all of them).
///
/// # Errors
/// Missing, unreadable, corrupt or mismatched files, including a missing child layer.
pub fn verify_placement(
    dir: &Path,
    tables: &Tablebase,
    max_in_hand: u8,
    stride: u64,
    threads: usize,
    progress: Progress,
) -> Result<Vec<PlacementCheck>, TablebaseError> {
    let rules = tables.rules();
    if let Some(placement) = tables.placement() {
        if let Some(path) = placement.wait_checked().into_iter().next() {
            return Err(TablebaseError::Corrupt {
                path,
                reason: super::super::Corruption::PayloadChecksum,
            });
        }
    }
    for layer in super::solve::layers(rules, max_in_hand) {
        if !tables.placement().is_some_and(|p| p.contains(layer)) {
            return Err(TablebaseError::NotFound {
                path: placement_path(dir, layer.in_hand, layer.captured),
            });
        }
    }
    let stride = stride.max(1);
    let mut checks = Vec::new();
    // Each layer from its uncompressed file, or decoded (and goats to move derived) from its
    // compressed one.
    let mut reader = SideReader::new(dir, rules, threads);
    for layer in super::solve::layers(rules, max_in_hand) {
        let (header, goats, tigers) = reader.sides(layer, false)?;
        let index = PlacementIndex::new(layer);
        let len = index.len();
        let sides = [&goats[..], &tigers[..]];
        let counts_match =
            header.counts == [count_codes(sides[0], len), count_codes(sides[1], len)];
        let samples = len.div_ceil(stride);
        let (mismatches, checked) = (AtomicU64::new(0), AtomicU64::new(0));
        let example = Mutex::new(None);
        let next = AtomicUsize::new(0);
        const CHUNK: u64 = 4096;
        std::thread::scope(|scope| {
            for _ in 0..threads.max(1) {
                scope.spawn(|| loop {
                    let start = next.fetch_add(CHUNK as usize, Relaxed) as u64;
                    if start >= 2 * samples {
                        break;
                    }
                    for slot in start..(start + CHUNK).min(2 * samples) {
                        let (side, at) = ((slot / samples) as usize, (slot % samples) * stride);
                        let (class, goats) = index.decode(at);
                        let tigers = super::index::Frames::get().classes[class].tigers;
                        let to_move = if side == 0 { Side::Goats } else { Side::Tigers };
                        let Ok(position) = Position::from_parts(
                            Bitboard(tigers),
                            Bitboard(goats),
                            to_move,
                            layer.in_hand,
                            layer.captured,
                        ) else {
                            // Tigers to move before any goat: unreachable, not checked.
                            continue;
                        };
                        checked.fetch_add(1, Relaxed);
                        let stored = wdl_of(get(sides[side], at));
                        // Every child layer is present and checked: `None` cannot come back.
                        let computed = value_from_children(tables, &position);
                        if stored.is_none() || stored != computed {
                            mismatches.fetch_add(1, Relaxed);
                            let mut example = example.lock().unwrap_or_else(|e| e.into_inner());
                            let name =
                                |v: Option<Wdl>| v.map_or("nothing".to_string(), |w| w.to_string());
                            example.get_or_insert(format!(
                                "\"{position}\": stored {}, children give {}",
                                name(stored),
                                name(computed)
                            ));
                        }
                    }
                    let phase = format!(
                        "verify {} in hand {} captured",
                        layer.in_hand, layer.captured
                    );
                    progress(&phase, (start + CHUNK).min(2 * samples), 2 * samples);
                });
            }
        });
        checks.push(PlacementCheck {
            layer,
            checked: checked.into_inner(),
            mismatches: mismatches.into_inner(),
            example: example.into_inner().unwrap_or_else(|e| e.into_inner()),
            counts_match,
        });
    }
    Ok(checks)
}
