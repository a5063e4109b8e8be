//! Tablebase values for the analysis panel: the `--tb` directory opened (read-only, memory
//! mapped) once per rule variant that needs it.

use crate::tablebase::{TableRules, Tablebase, Wdl};
use crate::{Position, Rules};
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

/// Tables opened for one variant, or why they could not be.
type Opened = Result<Arc<Tablebase>, String>;

/// The tables of one directory, opened per (forced capture, captures to win).
pub struct Tables {
    dir: Option<PathBuf>,
    opened: Mutex<HashMap<TableRules, Opened>>,
}

impl Tables {
    /// Tables in `dir` (none when `None`).
    pub fn new(dir: Option<PathBuf>) -> Tables {
        Tables {
            dir,
            opened: Mutex::new(HashMap::new()),
        }
    }

    /// Whether a directory was configured.
    pub fn is_configured(&self) -> bool {
        self.dir.is_some()
    }

    /// The value of `position` for the side to move in words (`goats win in 13 plies`,
    /// `draw`, in the placement phase `tigers win`), or why there is none; `None` without
    /// tables or where they have no value (goats in hand without placement layers).
    pub fn describe(&self, position: &Position, rules: &Rules) -> Option<String> {
        let dir = self.dir.as_ref()?;
        let tables = {
            let mut opened = self.opened.lock().expect("tables lock");
            opened
                .entry(TableRules::of(rules))
                .or_insert_with(|| {
                    Tablebase::open(dir, TableRules::of(rules))
                        .map(Arc::new)
                        .map_err(|e| format!("no tables: {e}"))
                })
                .clone()
        };
        let tables = match tables {
            Ok(tables) => tables,
            Err(message) => return Some(message),
        };
        let value = tables.probe(position)?;
        let mover = position.side_to_move();
        Some(match (value.wdl, value.plies_to_end) {
            (Wdl::Draw, _) => "draw".to_string(),
            (Wdl::Win, None) => format!("{mover} win"),
            (Wdl::Loss, None) => format!("{} win", mover.opposite()),
            (Wdl::Win, Some(plies)) => format!("{mover} win in {plies} plies"),
            (Wdl::Loss, Some(plies)) => format!("{} win in {plies} plies", mover.opposite()),
        })
    }
}
