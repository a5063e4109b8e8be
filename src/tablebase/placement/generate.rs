//! Generation of the placement layers, from one goat in hand up: each layer (goats in hand,
//! captured) is one file with both sides to move, written atomically; layers already present
//! and valid are loaded, not recomputed, so an interrupted run resumes where it stopped.

use super::super::file::{placement_path, read_to_resume, write_layer, LayerHeader};
use super::super::generate::Progress;
use super::super::index::LayerIndex;
use super::super::solve::{check_header, generate_tables_stamped};
use super::super::stamp::RunStamps;
use super::super::{TableRules, Tablebase, TablebaseError, Wdl};
use super::index::{Layer, PlacementIndex};
use super::packed::{count_codes, get, wdl_of};
use super::solve::{layers, solve_goats, solve_tigers, GoatChildren, TigerChildren};
use crate::Position;
use std::collections::BTreeMap;
use std::path::Path;
use std::time::Instant;

/// Largest number of goats in hand.
pub const MAX_IN_HAND: u8 = 20;

/// What generation did for one placement layer.
#[derive(Clone, Debug)]
pub struct PlacementReport {
    /// The file's header (layer, positions, win/draw/loss counts per side).
    pub header: LayerHeader,
    /// Whether the layer was already present and valid.
    pub resumed: bool,
    /// Wall time spent solving both sides and writing (or loading), seconds.
    pub seconds: f64,
    /// Of which solving goats to move, tigers to move, and counting and writing the file
    /// (all zero for a layer loaded from its file).
    pub phase_seconds: PhaseSeconds,
    /// File size in bytes.
    pub file_bytes: u64,
}

/// Wall time of the phases of one placement layer, seconds.
#[derive(Clone, Copy, Debug, Default)]
pub struct PhaseSeconds {
    /// Solving goats to move.
    pub goats: f64,
    /// Solving tigers to move.
    pub tigers: f64,
    /// Counting the values and writing the file.
    pub write: f64,
}

/// What a placement run did.
#[derive(Clone, Debug)]
pub struct PlacementRun {
    /// One report per layer, in the order solved.
    pub reports: Vec<PlacementReport>,
    /// The value of the start position for the goats, when the run reached 20 goats in hand.
    pub start: Option<Wdl>,
}

/// Positions per side in all the layers up to `max_in_hand` goats in hand.
pub fn total_positions(rules: TableRules, max_in_hand: u8) -> u64 {
    layers(rules, max_in_hand)
        .into_iter()
        .map(|layer| PlacementIndex::new(layer).len())
        .sum()
}

/// The header a placement layer file must have.
pub fn expected_header(rules: TableRules, layer: Layer) -> LayerHeader {
    LayerHeader {
        rules,
        captured: layer.captured,
        in_hand: layer.in_hand,
        positions: PlacementIndex::new(layer).len(),
        counts: [[0; 3]; 2],
    }
}

/// Checks that a header belongs to placement layer `layer` for `rules`.
///
/// # Errors
/// As [`check_header`].
pub fn check_placement_header(
    path: &Path,
    header: &LayerHeader,
    rules: TableRules,
    layer: Layer,
) -> Result<(), TablebaseError> {
    let positions = PlacementIndex::new(layer).len();
    check_header(
        path,
        header,
        rules,
        layer.in_hand,
        layer.captured,
        positions,
    )
}

/// A layer read back from its file.
struct StoredLayer {
    header: LayerHeader,
    goats: Vec<u8>,
    tigers: Vec<u8>,
}

/// A layer file's two sides, if it is present, intact and for these rules; `None` when absent
/// or damaged (it is regenerated). A file for other rules is an error: never overwrite it. The
/// file, read whole and checked, is stamped as verified in `stamps` when given.
fn load_existing(
    dir: &Path,
    rules: TableRules,
    layer: Layer,
    stamps: Option<&RunStamps>,
) -> Result<Option<StoredLayer>, TablebaseError> {
    let path = placement_path(dir, layer.in_hand, layer.captured);
    let Some(read) = read_to_resume(&path)? else {
        return Ok(None);
    };
    check_placement_header(&path, &read.header, rules, layer)?;
    if let Some(stamps) = stamps {
        stamps.resumed(&path, &read.identity, read.read_at);
    }
    let mut goats = read.payload;
    let tigers = goats.split_off(read.header.side_bytes() as usize);
    // The file's bytes were read into `goats`: give back the half now held by `tigers`.
    goats.shrink_to_fit();
    Ok(Some(StoredLayer {
        header: read.header,
        goats,
        tigers,
    }))
}

/// Generates (or resumes) the placement layers for `rules` in `dir` up to `max_in_hand` goats
/// in hand, after the movement tables (generated first when absent). Progress is reported as
/// one phase, `placement`, counting positions of both sides. Every file is stamped as verified
/// ([`RunStamps`]), so the first open does not check it again.
///
/// # Errors
/// Unsupported rules, I/O failures, or corrupt or mismatched movement tables.
pub fn generate_placement(
    dir: &Path,
    rules: TableRules,
    max_in_hand: u8,
    threads: usize,
    progress: Progress,
) -> Result<PlacementRun, TablebaseError> {
    let stamps = RunStamps::new(dir);
    let run = (|| {
        generate_tables_stamped(dir, rules, threads, progress, &stamps)?;
        stamps.settle();
        let movement = Tablebase::open_movement(dir, rules)?;
        let values = (0..rules.captures_to_win)
            .map(|captured| movement.layer(captured))
            .collect::<Result<Vec<&[u8]>, _>>()?;
        placement_stamped(
            dir,
            rules,
            &|captured| values[usize::from(captured)],
            max_in_hand,
            threads,
            progress,
            &stamps,
        )
    })();
    // Also after a failure: the layers finished before it keep their stamps.
    stamps.finish();
    run
}

/// As [`generate_placement`], with the movement-phase values (by layer: one byte per class,
/// goats to move then tigers to move, as in the movement tables) given by `movement` rather
/// than read from the tables in `dir`: the placement layers are written to `dir`. The forbid
/// analysis uses it with the values under `Repetition forbid` (docs/forbid.md).
///
/// # Errors
/// I/O failures, or placement files in `dir` for other rules.
pub fn placement_from<'a>(
    dir: &Path,
    rules: TableRules,
    movement: &dyn Fn(u8) -> &'a [u8],
    max_in_hand: u8,
    threads: usize,
    progress: Progress,
) -> Result<PlacementRun, TablebaseError> {
    let stamps = RunStamps::new(dir);
    let run = placement_stamped(
        dir,
        rules,
        movement,
        max_in_hand,
        threads,
        progress,
        &stamps,
    );
    stamps.finish();
    run
}

/// As [`placement_from`], the files' stamps noted in `stamps` and settled between layers.
fn placement_stamped<'a>(
    dir: &Path,
    rules: TableRules,
    movement: &dyn Fn(u8) -> &'a [u8],
    max_in_hand: u8,
    threads: usize,
    progress: Progress,
    stamps: &RunStamps,
) -> Result<PlacementRun, TablebaseError> {
    let max_in_hand = max_in_hand.min(MAX_IN_HAND);
    let total = 2 * total_positions(rules, max_in_hand);
    let mut done_before = 0u64;
    let mut reports = Vec::new();
    // Tigers-to-move values of the previous count of goats in hand, by captured.
    let mut previous_tigers: BTreeMap<u8, Vec<u8>> = BTreeMap::new();
    for in_hand in 1..=max_in_hand {
        let level: Vec<Layer> = layers(rules, max_in_hand)
            .into_iter()
            .filter(|layer| layer.in_hand == in_hand)
            .collect();
        let indexes: BTreeMap<u8, PlacementIndex> = level
            .iter()
            .map(|&layer| (layer.captured, PlacementIndex::new(layer)))
            .collect();
        // Seconds spent on each layer (solving both sides and writing, or loading).
        let mut seconds: BTreeMap<u8, f64> = BTreeMap::new();
        let mut goat_seconds: BTreeMap<u8, f64> = BTreeMap::new();
        let mut goats: BTreeMap<u8, Vec<u8>> = BTreeMap::new();
        let mut loaded: BTreeMap<u8, (LayerHeader, Vec<u8>)> = BTreeMap::new();
        for layer in &level {
            let captured = layer.captured;
            let started = Instant::now();
            let index = &indexes[&captured];
            if let Some(stored) = load_existing(dir, rules, *layer, Some(stamps))? {
                log::info!("placement {in_hand} in hand, {captured} captured: present, skipped");
                goats.insert(captured, stored.goats);
                loaded.insert(captured, (stored.header, stored.tigers));
                done_before += 2 * index.len();
                progress("placement", done_before, total);
                seconds.insert(captured, started.elapsed().as_secs_f64());
                continue;
            }
            let previous_index;
            let children = if in_hand == 1 {
                TigerChildren::Movement {
                    values: movement(captured),
                    index: LayerIndex::get(usize::from(captured) + 1),
                }
            } else {
                previous_index = PlacementIndex::new(Layer {
                    in_hand: in_hand - 1,
                    captured,
                });
                TigerChildren::Placement {
                    values: &previous_tigers[&captured],
                    index: &previous_index,
                }
            };
            let base = done_before;
            let report = |done: u64, _: u64| progress("placement", base + done, total);
            goats.insert(captured, solve_goats(index, &children, threads, &report));
            done_before += index.len();
            seconds.insert(captured, started.elapsed().as_secs_f64());
            goat_seconds.insert(captured, started.elapsed().as_secs_f64());
        }
        previous_tigers.clear();
        let mut tigers: BTreeMap<u8, Vec<u8>> = BTreeMap::new();
        for layer in &level {
            let captured = layer.captured;
            let started = Instant::now();
            let index = &indexes[&captured];
            let path = placement_path(dir, in_hand, captured);
            let mut phases = PhaseSeconds::default();
            let (header, tiger_values, resumed) = match loaded.remove(&captured) {
                Some((header, values)) => (header, values, true),
                None => {
                    phases.goats = goat_seconds.get(&captured).copied().unwrap_or(0.0);
                    let capture = (captured + 1 < rules.captures_to_win)
                        .then(|| goats.get(&(captured + 1)).zip(indexes.get(&(captured + 1))))
                        .flatten()
                        .map(|(values, index)| (values.as_slice(), index));
                    let children = GoatChildren {
                        step: (&goats[&captured], index),
                        capture,
                    };
                    let base = done_before;
                    let report = |done: u64, _: u64| progress("placement", base + done, total);
                    let values = solve_tigers(index, &children, rules, threads, &report);
                    done_before += index.len();
                    phases.tigers = started.elapsed().as_secs_f64();
                    let writing = Instant::now();
                    let header = LayerHeader {
                        counts: [
                            count_codes(&goats[&captured], index.len()),
                            count_codes(&values, index.len()),
                        ],
                        ..expected_header(rules, *layer)
                    };
                    write_layer(&path, &header, &goats[&captured], &values)?;
                    stamps.written(&path);
                    stamps.settle();
                    phases.write = writing.elapsed().as_secs_f64();
                    log::info!(
                        "placement {in_hand} in hand, {captured} captured: {} positions per side, \
                         goats {:.2} s, tigers {:.2} s, write {:.2} s",
                        index.len(),
                        phases.goats,
                        phases.tigers,
                        phases.write
                    );
                    (header, values, false)
                }
            };
            reports.push(PlacementReport {
                header,
                resumed,
                seconds: seconds[&captured] + started.elapsed().as_secs_f64(),
                phase_seconds: phases,
                file_bytes: std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0),
            });
            tigers.insert(captured, tiger_values);
        }
        previous_tigers = tigers;
    }
    // The start position: 20 goats in hand, none on the board, tigers on the corners.
    let start = (max_in_hand == MAX_IN_HAND).then(|| {
        let start = Layer {
            in_hand: MAX_IN_HAND,
            captured: 0,
        };
        let corners = Position::startpos().tigers().0;
        let at = PlacementIndex::new(start).encode(corners, 0);
        let goats = load_existing(dir, rules, start, None)
            .ok()
            .flatten()
            .map(|stored| stored.goats);
        goats.and_then(|values| wdl_of(get(&values, at)))
    });
    Ok(PlacementRun {
        reports,
        start: start.flatten(),
    })
}
