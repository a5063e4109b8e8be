//! Looking up a position's value under `Repetition forbid` from an empty history.

use super::tables::ForbidTables;
use super::{of_table, ForbidValue};
use crate::tablebase::placement::index::Layer;
use crate::tablebase::{Corruption, Tablebase, TablebaseError, TbValue};
use crate::Position;
use std::path::Path;

/// The value for the side to move of `position` under `Repetition forbid` when no earlier
/// state of its layer was played (right after the last placement or a capture; in the
/// placement phase, whatever was played): in the movement phase a table win or loss as it is, a
/// table draw from the forbid file of its layer in `dir`; with goats in hand, from the
/// placement values under forbid made from the forbid files (`tb forbid start`). `Ok(None)`
/// when the files for it are missing (no forbid file for its layer, no placement values, or
/// not its placement layer).
///
/// # Errors
/// A corrupt forbid file or placement layer, one for other rules, or placement values made
/// from other forbid files.
pub fn probe_forbid(
    dir: &Path,
    tables: &Tablebase,
    position: &Position,
) -> Result<Option<ForbidValue>, TablebaseError> {
    if position.goats_in_hand() != 0 {
        return probe_placement(dir, tables, position);
    }
    let Some(value) = tables.probe(position) else {
        return Ok(None);
    };
    if let Some(known) = table_win_or_loss(value) {
        return Ok(Some(known));
    }
    let forbid = ForbidTables::open_layer(dir, tables, position.goats_captured())?;
    Ok(forbid.and_then(|forbid| forbid_value(tables, &forbid, position)))
}

/// [`probe_forbid`] from forbid values already open (`tb probe DIR -` opens them once).
pub fn forbid_value(
    tables: &Tablebase,
    forbid: &ForbidTables,
    position: &Position,
) -> Option<ForbidValue> {
    if position.goats_in_hand() != 0 {
        // A finished game (distance 0: the tigers have their captures, or a side cannot move)
        // ends the same under either rule; the placement values under forbid do not hold it.
        let finished = tables.probe(position).filter(|v| v.plies_to_end == Some(0));
        return finished
            .and_then(table_win_or_loss)
            .or_else(|| forbid.placement_value(position));
    }
    if let Some(known) = table_win_or_loss(tables.probe(position)?) {
        return Some(known);
    }
    // A table draw: from its layer's forbid file.
    forbid.max_states(position.goats_captured())?;
    Some(forbid.stored(position).unwrap_or(ForbidValue::Unknown))
}

/// A movement-phase table win or loss, which is the same win or loss under forbid from an
/// empty history (claim 2 of docs/forbid.md).
fn table_win_or_loss(value: TbValue) -> Option<ForbidValue> {
    let byte = match value.plies_to_end {
        Some(plies) => crate::tablebase::value::encode_value(plies),
        None => 0,
    };
    of_table(byte)
}

/// [`probe_forbid`] for a position with goats in hand: every forbid file is read (they name the
/// placement values), and the placement layers' checksums are checked first.
fn probe_placement(
    dir: &Path,
    tables: &Tablebase,
    position: &Position,
) -> Result<Option<ForbidValue>, TablebaseError> {
    let (forbid, mut errors) = ForbidTables::open(dir, tables);
    let Some((_, placement)) = forbid.as_ref().and_then(ForbidTables::placement) else {
        return match errors.is_empty() {
            true => Ok(None),
            false => Err(errors.swap_remove(0)),
        };
    };
    let layer = Layer {
        in_hand: position.goats_in_hand(),
        captured: position.goats_captured(),
    };
    let corrupt = placement.wait_checked();
    if let Some(path) = placement
        .path(layer)
        .filter(|path| corrupt.iter().any(|c| c == path))
    {
        return Err(TablebaseError::Corrupt {
            path: path.to_path_buf(),
            reason: Corruption::PayloadChecksum,
        });
    }
    Ok(forbid
        .as_ref()
        .and_then(|forbid| forbid_value(tables, forbid, position)))
}
