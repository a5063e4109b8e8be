//! The values the entry pass's proof search settled (`tb forbid prove --entries --write`, the
//! files of [`proof_path`]), for the prover to read: a state with no goat in hand and an empty
//! history (right after the last placement, or right after a capture) whose proof file holds a
//! win or a loss is settled without search.
//!
//! Each value is itself a proof by the search (with its transposition table's 64-bit history
//! keys), not a value of the component solver: the engine and the referee do not read them.

use super::file::{proof_path, read_forbid};
use super::{file_slot, ForbidValue};
use crate::tablebase::{TableRules, TablebaseError};
use crate::Position;
use std::path::Path;

/// Per layer (goats captured), one code per class, goats to move first; `None` for a layer
/// without values.
#[derive(Clone, Debug, Default)]
pub struct ProvedEntries {
    layers: Vec<Option<Vec<u8>>>,
}

impl ProvedEntries {
    /// No values.
    pub fn new(layers: u8) -> ProvedEntries {
        ProvedEntries {
            layers: vec![None; usize::from(layers)],
        }
    }

    /// The values in the proof files in `dir` (a missing file is a layer without values).
    /// `positions[c]` is the number of classes a side of layer `c`.
    ///
    /// # Errors
    /// A proof file that is damaged, unreadable, or made for other rules.
    pub fn read(
        dir: &Path,
        rules: TableRules,
        positions: &[u64],
    ) -> Result<ProvedEntries, TablebaseError> {
        let mut proved = ProvedEntries::new(positions.len() as u8);
        for (captured, &count) in positions.iter().enumerate() {
            let captured = captured as u8;
            match read_forbid(&proof_path(dir, captured), rules, captured, count) {
                Ok((_, codes)) => proved.set_layer(captured, codes),
                Err(TablebaseError::NotFound { .. }) => {}
                Err(error) => return Err(error),
            }
        }
        Ok(proved)
    }

    /// Sets the codes of layer `captured` (one per class, goats to move first).
    pub fn set_layer(&mut self, captured: u8, codes: Vec<u8>) {
        self.layers[usize::from(captured)] = Some(codes);
    }

    /// The settled value of `position` for its mover, from an empty history: `None` when it
    /// has goats in hand, or its layer has no values, or its value was not settled.
    pub fn value(&self, position: &Position) -> Option<ForbidValue> {
        let (captured, side, class) = file_slot(position)?;
        let codes = self.layers.get(usize::from(captured))?.as_ref()?;
        let code = codes[side * codes.len() / 2 + class];
        ForbidValue::from_code(code).filter(|value| value.is_proven())
    }
}
