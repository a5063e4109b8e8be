//! The forbid files of a table directory, loaded for lookups (the engine and the referee).
//!
//! [`ForbidTables::open`] maps every `forbid-<captured>.bcfb` beside the movement tables and
//! keeps each layer that is whole and made for the same rules, two bits a class as on disk. A
//! missing layer is simply absent; a corrupt one, or one for other rules, is reported and never
//! used. Their payloads are checked once and then vouched for by verified stamps in the
//! directory's stamp file, as the table files are ([`crate::tablebase::stamp`]), and so is the
//! checksum of the values that names the placement directory below. What a stored value means
//! for a state with a history is [`super::history`]'s concern.
//!
//! With every layer present, it also opens the placement values under forbid that `tb forbid
//! start` solved from them: the directory named by the checksum of these movement values
//! ([`super::start::placement_dir`]), so that placement values made from other forbid files
//! are never used (a directory with another checksum is reported as stale). Its layers are
//! placement layers ([`PlacementTables`]: header and rules checked at open, payload checksums
//! in the background, a corrupt layer reported and never used); a placement value is exact
//! whatever the game's history (no state of the placement phase can recur), a draw there means
//! unknown.

use super::file::{forbid_path, open_forbid, ForbidCodes};
use super::start::{forbid_byte, placement_dir, PLACEMENT_DIR_PREFIX};
use super::{file_slot, ForbidValue};
use crate::tablebase::file::{PayloadCheck, PayloadStatus};
use crate::tablebase::placement::PlacementTables;
use crate::tablebase::stamp::{FileIdentity, Stamps};
use crate::tablebase::{Tablebase, TablebaseError, Wdl};
use crate::Position;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// One layer's codes, packed as in the file.
#[derive(Debug)]
struct ForbidLayer {
    /// Classes per side to move.
    positions: usize,
    /// Two bits a class, goats to move then tigers to move, each side `ceil(positions / 4)`
    /// (mapped from the file).
    packed: ForbidCodes,
    /// The largest component the solver took (a proven value lies in a component this small).
    max_states: u64,
    /// The identity of the file as opened.
    identity: FileIdentity,
    /// Checked at this open, or vouched for by a verified stamp.
    status: PayloadStatus,
}

impl ForbidLayer {
    /// The layer `captured` from its file in `dir` (its payload checked, or vouched for by a
    /// verified stamp in `stamps`); `Ok(None)` when there is no file.
    fn read(
        dir: &Path,
        tables: &Tablebase,
        captured: u8,
        stamps: &Stamps,
    ) -> Result<Option<ForbidLayer>, TablebaseError> {
        let positions = tables.headers()[usize::from(captured)].positions;
        let path = forbid_path(dir, captured);
        let check = PayloadCheck::TrustStamps;
        match open_forbid(&path, tables.rules(), captured, positions, stamps, check) {
            Ok(opened) => Ok(Some(ForbidLayer {
                positions: positions as usize,
                packed: opened.codes,
                max_states: opened.header.max_states,
                identity: opened.identity,
                status: opened.status,
            })),
            Err(TablebaseError::NotFound { .. }) => Ok(None),
            Err(error) => Err(error),
        }
    }
}

/// The forbid values (from an empty history) of the layers present in a table directory, and
/// the placement values under forbid made from them, when present.
#[derive(Debug, Default)]
pub struct ForbidTables {
    layers: Vec<Option<ForbidLayer>>,
    /// The placement values under forbid and their directory.
    placement: Option<(PathBuf, PlacementTables)>,
}

/// The CRC-32 of the movement values under forbid made from `tables` and every one of
/// `layers` ([`forbid_byte`] of every class, layer by layer): what names the directory of the
/// placement values solved from them.
fn values_crc(tables: &Tablebase, layers: &[&ForbidLayer]) -> Result<u32, TablebaseError> {
    let mut hasher = crc32fast::Hasher::new();
    let mut chunk = Vec::with_capacity(1 << 16);
    for (captured, layer) in layers.iter().enumerate() {
        let values = tables.layer(captured as u8)?;
        let side_bytes = layer.positions.div_ceil(4);
        for side in 0..2 {
            let side_values = &values[side * layer.positions..(side + 1) * layer.positions];
            let codes = &layer.packed[side * side_bytes..(side + 1) * side_bytes];
            for (four, &packed) in side_values.chunks(4).zip(codes) {
                for (k, &byte) in four.iter().enumerate() {
                    chunk.push(forbid_byte(byte, (packed >> (2 * k)) & 3));
                }
                if chunk.len() >= chunk.capacity() - 4 {
                    hasher.update(&chunk);
                    chunk.clear();
                }
            }
        }
    }
    hasher.update(&chunk);
    Ok(hasher.finalize())
}

/// Name in the stamp file of [`values_crc`], remembered with the identities of the files it was
/// computed from.
const VALUES_CRC_STAMP: &str = "forbid-values-crc32";

/// [`values_crc`], from the stamps of `dir` when it was computed from these very files (the
/// movement layers and forbid files as opened: each checked or vouched for by its own stamp),
/// else computed (reading every value) and remembered there when every one of those files is
/// stamped in `dir`.
fn stamped_values_crc(
    dir: &Path,
    tables: &Tablebase,
    layers: &[&ForbidLayer],
    stamps: &Stamps,
) -> Result<u32, TablebaseError> {
    let inputs: Vec<FileIdentity> = tables
        .layer_identities()
        .iter()
        .copied()
        .chain(layers.iter().map(|layer| layer.identity))
        .collect();
    if let Some(crc) = stamps.derived(VALUES_CRC_STAMP, &inputs) {
        return Ok(crc);
    }
    let crc = values_crc(tables, layers)?;
    // Remembered only when every input is itself stamped, so settled (a file modified in the
    // last 2 s is not: coarse timestamps could hide a write right after this).
    let stamped = |path: PathBuf, identity: &FileIdentity| {
        let name = path
            .file_name()
            .and_then(|name| name.to_str())
            .map(str::to_string);
        name.is_some_and(|name| stamps.is_verified(&name, identity))
    };
    let settled = tables
        .layer_paths()
        .iter()
        .zip(tables.layer_identities())
        .all(|(path, identity)| stamped(path.clone(), identity))
        && (0..)
            .zip(layers)
            .all(|(captured, layer)| stamped(forbid_path(dir, captured), &layer.identity));
    if settled {
        stamps.record_derived(VALUES_CRC_STAMP, &inputs, crc);
    }
    Ok(crc)
}

/// The placement values under forbid in `dir` made from `layers` (every movement layer):
/// `Ok(None)` when there are none; a directory made from other values is
/// [`TablebaseError::StaleForbidPlacement`].
fn open_placement(
    dir: &Path,
    tables: &Tablebase,
    layers: &[&ForbidLayer],
    stamps: &Stamps,
) -> Result<Option<(PathBuf, PlacementTables)>, Vec<TablebaseError>> {
    let crc = stamped_values_crc(dir, tables, layers, stamps).map_err(|error| vec![error])?;
    let expected = placement_dir(dir, crc);
    if !expected.is_dir() {
        let stale: Vec<TablebaseError> = std::fs::read_dir(dir)
            .into_iter()
            .flatten()
            .flatten()
            .map(|entry| entry.path())
            .filter(|path| {
                path.is_dir()
                    && path
                        .file_name()
                        .and_then(|name| name.to_str())
                        .is_some_and(|name| name.starts_with(PLACEMENT_DIR_PREFIX))
            })
            .map(|path| TablebaseError::StaleForbidPlacement {
                path,
                expected: expected.clone(),
            })
            .collect();
        return if stale.is_empty() {
            Ok(None)
        } else {
            Err(stale)
        };
    }
    match open_placement_values(&expected, tables) {
        Ok(placement) if placement.is_empty() => Ok(None),
        Ok(placement) => Ok(Some((expected, placement))),
        Err(error) => Err(vec![error]),
    }
}

/// The placement values in the directory `placement` (made by `tb forbid start`), checked
/// against their stamps.
fn open_placement_values(
    placement: &Path,
    tables: &Tablebase,
) -> Result<PlacementTables, TablebaseError> {
    let stamps = Arc::new(Stamps::load(placement));
    PlacementTables::open(placement, tables.rules(), stamps, PayloadCheck::TrustStamps)
}

impl ForbidTables {
    /// Reads the forbid files in `dir` that go with `tables` (same rules, same layers). Returns
    /// the layers that could be used and the errors of those that could not (corrupt, made for
    /// other rules, unreadable); a missing file is not an error. `None` when no layer is usable.
    /// With every layer present, the placement values made from them are opened too (a stale
    /// or damaged directory of them is among the errors, and not used).
    pub fn open(dir: &Path, tables: &Tablebase) -> (Option<ForbidTables>, Vec<TablebaseError>) {
        let mut errors = Vec::new();
        let stamps = Stamps::load(dir);
        let layers: Vec<_> = (0..tables.rules().captures_to_win)
            .map(|captured| {
                ForbidLayer::read(dir, tables, captured, &stamps).unwrap_or_else(|error| {
                    errors.push(error);
                    None
                })
            })
            .collect();
        let any = layers.iter().any(Option::is_some);
        let whole: Option<Vec<&ForbidLayer>> = layers.iter().map(Option::as_ref).collect();
        let placement = match whole.map(|whole| open_placement(dir, tables, &whole, &stamps)) {
            Some(Ok(placement)) => placement,
            Some(Err(found)) => {
                errors.extend(found);
                None
            }
            None => None,
        };
        stamps.save();
        (any.then_some(ForbidTables { layers, placement }), errors)
    }

    /// Reads the placement values under forbid from `placement` instead (for `tb forbid prove
    /// --with-proofs`: the directory `start --with-proofs` made from these tables, forbid files
    /// and the proof search's files, see [`super::start::proved_placement_dir`]). The engine
    /// and the referee never do: they claim only what the component solver proved.
    ///
    /// # Errors
    /// The directory is missing or holds no placement layer, or a layer's header is damaged or
    /// made for other rules.
    pub fn use_placement_values(
        &mut self,
        placement: &Path,
        tables: &Tablebase,
    ) -> Result<(), TablebaseError> {
        if !placement.is_dir() {
            return Err(TablebaseError::NotFound {
                path: placement.to_path_buf(),
            });
        }
        let layers = open_placement_values(placement, tables)?;
        if layers.is_empty() {
            return Err(TablebaseError::NotFound {
                path: placement.to_path_buf(),
            });
        }
        self.placement = Some((placement.to_path_buf(), layers));
        Ok(())
    }

    /// Has the placement values read at random from now on, as the tables' layers (see
    /// [`Tablebase::expect_random_reads`]; the movement layers' files are small).
    pub fn expect_random_reads(&self) {
        if let Some(placement) = &self.placement {
            placement.1.expect_random_reads();
        }
    }

    /// Bytes mapped from the files of the placement values.
    pub fn mapped_len(&self) -> u64 {
        self.placement
            .as_ref()
            .map_or(0, |(_, placement)| placement.mapped_len())
    }

    /// Brings the placement values into the page cache (see [`Tablebase::prefetch`]).
    pub fn prefetch(&self, stop: &std::sync::atomic::AtomicBool) {
        if let Some((_, placement)) = &self.placement {
            placement.prefetch(stop);
        }
    }

    /// Reads only the forbid file of layer `captured` in `dir` (a single lookup needs no more):
    /// `Ok(None)` when it is missing.
    ///
    /// # Errors
    /// The file is corrupt, unreadable, or made for other rules.
    pub fn open_layer(
        dir: &Path,
        tables: &Tablebase,
        captured: u8,
    ) -> Result<Option<ForbidTables>, TablebaseError> {
        let stamps = Stamps::load(dir);
        let read = ForbidLayer::read(dir, tables, captured, &stamps);
        stamps.save();
        let Some(layer) = read? else {
            return Ok(None);
        };
        let mut layers: Vec<_> = (0..captured).map(|_| None).collect();
        layers.push(Some(layer));
        Ok(Some(ForbidTables {
            layers,
            placement: None,
        }))
    }

    /// The layers (goats captured) that have values, each with how its file was found intact
    /// at this open (checked, or vouched for by a verified stamp).
    pub fn statuses(&self) -> Vec<(u8, PayloadStatus)> {
        let layers = self.layers.iter().enumerate();
        layers
            .filter_map(|(captured, layer)| Some((captured as u8, layer.as_ref()?.status)))
            .collect()
    }

    /// The layers (goats captured) that have values.
    pub fn layers(&self) -> Vec<u8> {
        (0..self.layers.len() as u8)
            .filter(|&c| self.layers[usize::from(c)].is_some())
            .collect()
    }

    /// The stored value of a movement-phase table draw from an empty history: `None` when the
    /// position has goats in hand, its layer has no forbid file, or it is not a table draw (code
    /// 0: its table value is the value).
    pub fn stored(&self, position: &Position) -> Option<ForbidValue> {
        let (captured, side, at) = file_slot(position)?;
        let layer = self.layers.get(usize::from(captured))?.as_ref()?;
        let byte = layer.packed[side * layer.positions.div_ceil(4) + at / 4];
        ForbidValue::from_code((byte >> (2 * (at % 4))) & 3)
    }

    /// The placement values under forbid, when present and made from these layers: their
    /// directory and layers (payload checksums checked in the background, see
    /// [`PlacementTables::wait_checked`]).
    pub fn placement(&self) -> Option<(&Path, &PlacementTables)> {
        self.placement
            .as_ref()
            .map(|(dir, placement)| (dir.as_path(), placement))
    }

    /// The value under forbid of a position with goats in hand, for the side to move, from the
    /// placement values (exact whatever the game's history: no placement-phase state can
    /// recur): win, loss, or unknown (a draw in the placement pass: the result depends on
    /// unsolved movement values). `None` when the position has no goats in hand or its
    /// placement layer is absent, not yet checked, or corrupt.
    pub fn placement_value(&self, position: &Position) -> Option<ForbidValue> {
        if position.goats_in_hand() == 0 {
            return None;
        }
        let (_, placement) = self.placement.as_ref()?;
        Some(match placement.probe(position)? {
            Wdl::Win => ForbidValue::Win,
            Wdl::Loss => ForbidValue::Loss,
            Wdl::Draw => ForbidValue::Unknown,
        })
    }

    /// The largest component solved in layer `captured` (every state with a proven value lies
    /// in a component of at most this many raw states); `None` without a file.
    pub fn max_states(&self, captured: u8) -> Option<u64> {
        Some(self.layers.get(usize::from(captured))?.as_ref()?.max_states)
    }
}
