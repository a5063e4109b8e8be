//! The explorer's values under `Repetition forbid`: where the tables directory holds forbid
//! values (`baghchal tb forbid solve`, and `start` for the placement phase), the winner proven
//! for the game shown, its history included, and for the game after each legal move; the same
//! judge as the engine's and the referee's (docs/forbid.md).

use crate::tablebase::forbid::history::ForbidJudge;
use crate::tablebase::forbid::tables::ForbidTables;
use crate::tablebase::stamp::FileIdentity;
use crate::tablebase::{TableRules, Tablebase};
use crate::{Game, Move, Repetition};
use std::collections::HashMap;
use std::ffi::OsString;
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::SystemTime;

/// States searched to find a table-draw component (the referee's budget).
const BUDGET: usize = 200_000;

/// Forbid values per rule variant, opened when first needed and again whenever the forbid
/// files beside the tables or the tables' own files change (`tb forbid solve` or `start` run
/// while the server serves, or tables generated afresh). Absent, damaged or stale files are
/// not used until they change.
#[derive(Default)]
pub struct ForbidValues {
    opened: Mutex<HashMap<TableRules, Opened>>,
}

/// Forbid values and what they were opened from.
struct Opened {
    files: Vec<FileVersion>,
    tables: Vec<FileIdentity>,
    values: Option<Arc<ForbidTables>>,
}

/// A forbid file of the tables' directory (name, length, modification time), or a folder of
/// placement values under forbid (name, layer files, no time: its checksum stamps change as the
/// background check goes on, and must not make the values open again).
type FileVersion = (OsString, u64, Option<SystemTime>);

/// The forbid files and folders (`forbid-*`) in `dir`, in name order.
fn forbid_files(dir: &Path) -> Vec<FileVersion> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut files: Vec<FileVersion> = entries
        .flatten()
        .filter(|entry| entry.file_name().to_string_lossy().starts_with("forbid-"))
        .map(|entry| {
            let path = entry.path();
            if path.is_dir() {
                let layers = std::fs::read_dir(&path).map_or(0, |layers| {
                    let layers = layers
                        .flatten()
                        .filter(|layer| layer.path().extension().is_some_and(|ext| ext == "bctb"));
                    layers.count() as u64
                });
                return (entry.file_name(), layers, None);
            }
            let metadata = entry.metadata().ok();
            (
                entry.file_name(),
                metadata.as_ref().map_or(0, std::fs::Metadata::len),
                metadata.and_then(|metadata| metadata.modified().ok()),
            )
        })
        .collect();
    files.sort();
    files
}

impl ForbidValues {
    /// The forbid values in `dir` that go with `tables`, opened again when the files changed.
    /// Damaged or stale files are logged; the placement values' checksums are checked in the
    /// background (a layer answers `unknown` until its check is done, as the tables' own
    /// placement layers answer nothing until then).
    fn get(&self, dir: &Path, tables: &Tablebase) -> Option<Arc<ForbidTables>> {
        let files = forbid_files(dir);
        let table_files = tables.layer_identities();
        let mut opened = self.opened.lock().expect("forbid values lock");
        let current = opened
            .get(&tables.rules())
            .filter(|opened| opened.files == files && opened.tables == table_files);
        if let Some(current) = current {
            return current.values.clone();
        }
        let (values, errors) = ForbidTables::open(dir, tables);
        for error in errors {
            log::error!("forbid values: {error}; not used");
        }
        let values = values.map(Arc::new);
        opened.insert(
            tables.rules(),
            Opened {
                files,
                tables: table_files.to_vec(),
                values: values.clone(),
            },
        );
        values
    }

    /// The forbid values for `game`'s tables, under `Repetition forbid` only.
    pub fn for_game(
        &self,
        dir: &Path,
        tables: &Tablebase,
        game: &Game,
    ) -> Option<Arc<ForbidTables>> {
        (game.rules().repetition == Repetition::Forbid)
            .then(|| self.get(dir, tables))
            .flatten()
    }
}

/// The winner of `game` in words: a finished game's, or the one `judge` proves for its history
/// (`goats win`, `tigers win`), else `unknown`.
pub fn winner(judge: &ForbidJudge, game: &Game) -> String {
    judge
        .winner(game, BUDGET)
        .map_or("unknown".to_string(), |side| format!("{side} win"))
}

/// [`winner`] of the game after the legal move `mv`.
pub fn winner_after(judge: &ForbidJudge, game: &Game, mv: Move) -> String {
    let mut after = game.clone();
    match after.play(mv) {
        Ok(()) => winner(judge, &after),
        Err(_) => "unknown".to_string(),
    }
}
