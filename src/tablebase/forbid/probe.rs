//! Looking up a position's value under `Repetition forbid` from an empty history.

use super::tables::ForbidTables;
use super::{of_table, ForbidValue};
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
    let forbid = ForbidTables::open_layer(dir, tables, position.goats_captured())?;
    Ok(forbid.map(|forbid| forbid.stored(position).unwrap_or(ForbidValue::Unknown)))
}
