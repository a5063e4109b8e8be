//! Looking up a position's value under `Repetition forbid` from an empty history.

use super::file::{forbid_path, read_forbid};
use super::{of_table, ForbidValue};
use crate::tablebase::index::LayerIndex;
use crate::tablebase::{Tablebase, TablebaseError};
use crate::Position;
use std::path::Path;

/// The value for the side to move of the movement-phase `position` under `Repetition forbid`
/// when no earlier state of its layer was played (right after the last placement or a
/// capture): a table win or loss as it is, a table draw from the forbid file of its layer in
/// `dir`. `Ok(None)` when the position has goats in hand or its layer has no forbid file.
///
/// # Errors
/// A corrupt forbid file, or one for other rules.
pub fn probe_forbid(
    dir: &Path,
    tables: &Tablebase,
    position: &Position,
) -> Result<Option<ForbidValue>, TablebaseError> {
    if position.goats_in_hand() != 0 {
        return Ok(None);
    }
    let Some(value) = tables.probe(position) else {
        return Ok(None);
    };
    let byte = match value.plies_to_end {
        Some(plies) => crate::tablebase::value::encode_value(plies),
        None => 0,
    };
    if let Some(known) = of_table(byte) {
        return Ok(Some(known));
    }
    let captured = position.goats_captured();
    let index = LayerIndex::get(usize::from(captured) + 1);
    let path = forbid_path(dir, captured);
    let codes = match read_forbid(&path, tables.rules(), captured, u64::from(index.len())) {
        Ok((_, codes)) => codes,
        Err(TablebaseError::NotFound { .. }) => return Ok(None),
        Err(error) => return Err(error),
    };
    let (class, _) = index.encode(position.tigers().0, position.empty().0);
    let slot = position.side_to_move().index() * index.len() as usize + class as usize;
    Ok(Some(
        ForbidValue::from_code(codes[slot]).unwrap_or(ForbidValue::Unknown),
    ))
}
