//! The forbid files of a table directory, loaded for lookups (the engine and the referee).
//!
//! [`ForbidTables::open`] reads every `forbid-<captured>.bcfb` beside the movement tables and
//! keeps each layer that is whole and made for the same rules, two bits a class as on disk. A
//! missing layer is simply absent; a corrupt one, or one for other rules, is reported and never
//! used. What a stored value means for a state with a history is [`super::history`]'s concern.

use super::file::{forbid_path, pack, read_forbid};
use super::ForbidValue;
use crate::tablebase::index::LayerIndex;
use crate::tablebase::{Tablebase, TablebaseError};
use crate::Position;
use std::path::Path;

/// One layer's codes, packed as in the file.
#[derive(Debug)]
struct ForbidLayer {
    /// Classes per side to move.
    positions: usize,
    /// Two bits a class, goats to move then tigers to move, each side `ceil(positions / 4)`.
    packed: Vec<u8>,
    /// The largest component the solver took (a proven value lies in a component this small).
    max_states: u64,
}

impl ForbidLayer {
    /// The layer `captured` from its file in `dir`; `Ok(None)` when there is no file.
    fn read(
        dir: &Path,
        tables: &Tablebase,
        captured: u8,
    ) -> Result<Option<ForbidLayer>, TablebaseError> {
        let positions = tables.headers()[usize::from(captured)].positions;
        let path = forbid_path(dir, captured);
        match read_forbid(&path, tables.rules(), captured, positions) {
            Ok((header, codes)) => Ok(Some(ForbidLayer {
                positions: positions as usize,
                packed: pack(&codes, positions as usize),
                max_states: header.max_states,
            })),
            Err(TablebaseError::NotFound { .. }) => Ok(None),
            Err(error) => Err(error),
        }
    }
}

/// The forbid values (from an empty history) of the layers present in a table directory.
#[derive(Debug, Default)]
pub struct ForbidTables {
    layers: Vec<Option<ForbidLayer>>,
}

impl ForbidTables {
    /// Reads the forbid files in `dir` that go with `tables` (same rules, same layers). Returns
    /// the layers that could be used and the errors of those that could not (corrupt, made for
    /// other rules, unreadable); a missing file is not an error. `None` when no layer is usable.
    pub fn open(dir: &Path, tables: &Tablebase) -> (Option<ForbidTables>, Vec<TablebaseError>) {
        let mut errors = Vec::new();
        let layers: Vec<_> = (0..tables.rules().captures_to_win)
            .map(|captured| {
                ForbidLayer::read(dir, tables, captured).unwrap_or_else(|error| {
                    errors.push(error);
                    None
                })
            })
            .collect();
        let any = layers.iter().any(Option::is_some);
        (any.then_some(ForbidTables { layers }), errors)
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
        let Some(layer) = ForbidLayer::read(dir, tables, captured)? else {
            return Ok(None);
        };
        let mut layers: Vec<_> = (0..captured).map(|_| None).collect();
        layers.push(Some(layer));
        Ok(Some(ForbidTables { layers }))
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
        if position.goats_in_hand() != 0 {
            return None;
        }
        let captured = position.goats_captured();
        let layer = self.layers.get(usize::from(captured))?.as_ref()?;
        let index = LayerIndex::get(usize::from(captured) + 1);
        let (class, _) = index.encode(position.tigers().0, position.empty().0);
        let side = position.side_to_move().index();
        let at = class as usize;
        let byte = layer.packed[side * layer.positions.div_ceil(4) + at / 4];
        ForbidValue::from_code((byte >> (2 * (at % 4))) & 3)
    }

    /// The largest component solved in layer `captured` (every state with a proven value lies
    /// in a component of at most this many raw states); `None` without a file.
    pub fn max_states(&self, captured: u8) -> Option<u64> {
        Some(self.layers.get(usize::from(captured))?.as_ref()?.max_states)
    }
}
