//! `tb forbid start`: the placement phase under `Repetition forbid`, from the values of the
//! first movement-phase states (after the last placement the history is empty, so those values
//! are the tables' wins and losses and the forbid files' values of the table draws).
//!
//! The placement phase itself has no repetition (every goat move lowers the goats in hand), so
//! the placement solver applies as it is, on movement values where a solved table draw is a
//! win or a loss and an unknown one is stored as a draw. Its minimax then tells both bounds at
//! once: a placement value of win or loss holds whatever the unknowns are (the winning side
//! can force the game into known wins only), and a draw means that the result depends on them
//! (goats win if every unknown is a goats' win, tigers win if every unknown is theirs).

use super::file::{forbid_path, proof_path, read_forbid};
use super::ForbidValue;
use crate::tablebase::generate::Progress;
use crate::tablebase::graph::TIGERS;
use crate::tablebase::placement::generate::{placement_from, PlacementRun, MAX_IN_HAND};
use crate::tablebase::value::encode_value;
use crate::tablebase::{Tablebase, TablebaseError};
use std::path::{Path, PathBuf};

/// What the placement pass under forbid found.
#[derive(Clone, Debug)]
pub struct StartRun {
    /// The placement layers (values: win, loss, or draw for "depends on unknowns").
    pub run: PlacementRun,
    /// Per layer (goats captured), the table-draw classes with tigers to move whose forbid value
    /// is unknown: the first movement states the placement can end in with an unknown value.
    pub unknown_entries: Vec<u64>,
    /// Where the placement layers were written.
    pub dir: PathBuf,
}

/// Name of a directory of placement values under forbid, before the checksum.
pub const PLACEMENT_DIR_PREFIX: &str = "forbid-placement-";

/// The movement value under forbid from an empty history of a class whose table value is
/// `byte` and forbid code `code`, in the tables' byte format: a win as a win in 1, a loss as a
/// loss in 0, unknown as a draw. Table wins and losses are kept. The placement pass is solved
/// from these bytes, and the CRC-32 of all of them, layer by layer, names its directory
/// ([`placement_dir`]).
#[inline]
pub fn forbid_byte(byte: u8, code: u8) -> u8 {
    match ForbidValue::from_code(code) {
        _ if byte != 0 => byte,
        Some(ForbidValue::Win) => encode_value(1),
        Some(ForbidValue::Loss) => encode_value(0),
        Some(ForbidValue::Unknown) | None => 0,
    }
}

/// The movement values under forbid of a layer ([`forbid_byte`] of each class).
fn forbid_bytes(values: &[u8], codes: &[u8]) -> Vec<u8> {
    values
        .iter()
        .zip(codes)
        .map(|(&byte, &code)| forbid_byte(byte, code))
        .collect()
}

/// The directory in `dir` of the placement values under forbid solved from movement values
/// whose CRC-32 ([`forbid_byte`] of every class, layer by layer from 0 captured) is
/// `values_crc`: `forbid-placement-<crc, 8 hex digits>`.
pub fn placement_dir(dir: &Path, values_crc: u32) -> PathBuf {
    dir.join(format!("{PLACEMENT_DIR_PREFIX}{values_crc:08x}"))
}

/// Solves the placement phase under forbid, up to `max_in_hand` goats in hand (20: the start
/// position), from the tables and forbid files in `dir`, into
/// `dir/forbid-placement-<checksum of the values used>` (resumable like `tb gen --placement`;
/// new forbid values give a new directory, so stale layers are never reused).
///
/// # Errors
/// Missing or damaged tables or forbid files (run `tb forbid solve` first), or I/O failures.
pub fn start_bounds(
    dir: &Path,
    max_in_hand: u8,
    threads: usize,
    progress: Progress,
) -> Result<StartRun, TablebaseError> {
    start_bounds_with(dir, max_in_hand, threads, false, progress)
}

/// Name of a directory of placement values under forbid made with the proof files too, before
/// the checksum (a name the engine's [`PLACEMENT_DIR_PREFIX`] never matches: it does not read
/// proof files).
pub const PROVED_PLACEMENT_DIR_PREFIX: &str = "forbid-proved-placement-";

/// As [`start_bounds`]; with `with_proofs`, the values the proof search settled
/// ([`super::file::proof_path`], where present) count too, for the tigers-to-move entries
/// `solve` left unknown, and the layers go to `dir/forbid-proved-placement-<checksum>`.
///
/// # Errors
/// As [`start_bounds`], and a damaged proof file or one made for other rules.
pub fn start_bounds_with(
    dir: &Path,
    max_in_hand: u8,
    threads: usize,
    with_proofs: bool,
    progress: Progress,
) -> Result<StartRun, TablebaseError> {
    let tables = Tablebase::open_movement(dir, Tablebase::recorded_rules(dir)?)?;
    let rules = tables.rules();
    let entries = entry_values(dir, &tables, with_proofs)?;
    let out = match with_proofs {
        true => proved_placement_path(dir, entries.crc),
        false => placement_dir(dir, entries.crc),
    };
    std::fs::create_dir_all(&out).map_err(|source| TablebaseError::Io {
        path: out.clone(),
        source,
    })?;
    let run = placement_from(
        &out,
        rules,
        &|captured| &entries.layers[usize::from(captured)],
        max_in_hand.min(MAX_IN_HAND),
        threads,
        progress,
    )?;
    Ok(StartRun {
        run,
        unknown_entries: entries.unknown,
        dir: out,
    })
}

/// The movement values under forbid the placement pass starts from.
struct EntryValues {
    /// Per layer, [`forbid_byte`] of every class.
    layers: Vec<Vec<u8>>,
    /// Per layer, the tigers-to-move table-draw classes whose value is still unknown.
    unknown: Vec<u64>,
    /// CRC-32 of all the layers' bytes, which names the placement pass's directory.
    crc: u32,
}

/// The movement values under forbid of the tables in `dir`: the forbid files' values, and with
/// `with_proofs` the values the proof search settled ([`super::file::proof_path`], where
/// present) for the tigers-to-move entries `solve` left unknown.
fn entry_values(
    dir: &Path,
    tables: &Tablebase,
    with_proofs: bool,
) -> Result<EntryValues, TablebaseError> {
    let rules = tables.rules();
    let mut layers = Vec::new();
    let mut unknown = Vec::new();
    let mut fingerprint = crc32fast::Hasher::new();
    for captured in 0..rules.captures_to_win {
        let positions = tables.headers()[usize::from(captured)].positions;
        let (_, mut codes) = read_forbid(&forbid_path(dir, captured), rules, captured, positions)?;
        let half = positions as usize;
        let proof = proof_path(dir, captured);
        if with_proofs && proof.exists() {
            let (_, proved) = read_forbid(&proof, rules, captured, positions)?;
            for (code, &proved) in codes[TIGERS * half..]
                .iter_mut()
                .zip(&proved[TIGERS * half..])
            {
                let settled = ForbidValue::from_code(proved).is_some_and(ForbidValue::is_proven);
                if settled && ForbidValue::from_code(*code) == Some(ForbidValue::Unknown) {
                    *code = proved;
                }
            }
        }
        let bytes = forbid_bytes(tables.layer(captured)?, &codes);
        unknown.push(
            codes[TIGERS * half..]
                .iter()
                .filter(|&&code| ForbidValue::from_code(code) == Some(ForbidValue::Unknown))
                .count() as u64,
        );
        fingerprint.update(&bytes);
        layers.push(bytes);
    }
    Ok(EntryValues {
        layers,
        unknown,
        crc: fingerprint.finalize(),
    })
}

/// `dir/forbid-proved-placement-<values_crc>`.
fn proved_placement_path(dir: &Path, values_crc: u32) -> PathBuf {
    dir.join(format!("{PROVED_PLACEMENT_DIR_PREFIX}{values_crc:08x}"))
}

/// The directory that `start --with-proofs` writes for the tables, forbid files and proof
/// files now in `dir` (whether or not it has been made).
///
/// # Errors
/// Missing or damaged tables, forbid files or proof files.
pub fn proved_placement_dir(dir: &Path) -> Result<PathBuf, TablebaseError> {
    let tables = Tablebase::open_movement(dir, Tablebase::recorded_rules(dir)?)?;
    let entries = entry_values(dir, &tables, true)?;
    Ok(proved_placement_path(dir, entries.crc))
}
