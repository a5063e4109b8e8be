//! The explorer's values under `Repetition forbid`: where the tables directory holds forbid
//! values (`baghchal tb forbid solve`, and `start` for the placement phase), the winner proven
//! for the game shown, its history included, and for the game after each legal move; the same
//! judge as the engine's and the referee's (docs/forbid.md).

use crate::tablebase::forbid::history::ForbidJudge;
use crate::tablebase::forbid::tables::ForbidTables;
use crate::tablebase::{TableRules, Tablebase};
use crate::{Game, Move, Repetition};
use std::collections::HashMap;
use std::path::Path;
use std::sync::{Arc, Mutex};

/// States searched to find a table-draw component (the referee's budget).
const BUDGET: usize = 200_000;

/// Forbid values opened once per rule variant (or found absent, damaged or stale: then never
/// used, and looked for again only when the server restarts).
#[derive(Default)]
pub struct ForbidValues {
    opened: Mutex<HashMap<TableRules, Option<Arc<ForbidTables>>>>,
}

impl ForbidValues {
    /// The forbid values in `dir` that go with `tables`, opened when first needed. Damaged or
    /// stale files are logged; the placement values' checksums are checked in the background
    /// (a layer answers `unknown` until its check is done, as the tables' own placement layers
    /// answer nothing until then).
    fn get(&self, dir: &Path, tables: &Tablebase) -> Option<Arc<ForbidTables>> {
        let mut opened = self.opened.lock().expect("forbid values lock");
        opened
            .entry(tables.rules())
            .or_insert_with(|| {
                let (forbid, errors) = ForbidTables::open(dir, tables);
                for error in errors {
                    log::error!("forbid values: {error}; not used");
                }
                forbid.map(Arc::new)
            })
            .clone()
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
