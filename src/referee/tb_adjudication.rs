//! Tablebase adjudication (`-tb DIR`): a game that reaches a movement-phase position the tables
//! cover ends with the tables' value, like cutechess-cli's and fastchess's `-tb`.
//!
//! The tables know nothing of the game's history (cycles are draws). The winner's table line
//! visits positions of strictly decreasing distance, so it can only run into an earlier
//! position that the tables value as a win for the same winner at a shorter distance; a win or
//! loss is not adjudicated while an earlier movement-phase position is one (the game goes on
//! and is checked again after each move). Placement-phase positions need no check: the
//! repetition rules compare the whole game state (goats in hand included), so none can recur
//! once all goats are placed. A table draw is
//! exact under `Repetition=draw`; under `Repetition=forbid` every game is finite and
//! decisive, so a table draw is guidance only and draws are adjudicated there only on request
//! (`-tbadjudicate both|draw`).
//!
//! Under `Repetition=forbid`, with the forbid files of `baghchal tb forbid solve` beside the
//! tables, a table draw whose forbid value is proven for the game's history (the referee knows
//! all of it; docs/forbid.md, claims 5 and 7) is adjudicated as that win, with wins and losses
//! (`Forbid tablebase: goats win`); so is a placement-phase position (a table draw, or one
//! without its placement layer) proven by the placement values of `tb forbid start` beside
//! them. A corrupt forbid file or placement layer, one for other rules, or placement values
//! made from other forbid files, is reported once and not used.

use super::outcome::GameResult;
use crate::tablebase::forbid::history::ForbidJudge;
use crate::tablebase::forbid::tables::ForbidTables;
use crate::tablebase::{TableRules, Tablebase, TbValue, Wdl};
use crate::{Game, Repetition, Rules, Side};
use std::fmt;
use std::path::{Path, PathBuf};

/// Which table values end a game (fastchess's `-tbadjudicate WIN_LOSS|DRAW|BOTH`).
#[derive(
    Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "kebab-case")]
pub enum TbResults {
    /// Wins, losses and draws.
    Both,
    /// Wins and losses only.
    #[value(name = "win-loss", alias = "win_loss")]
    WinLoss,
    /// Draws only.
    Draw,
}

impl TbResults {
    /// The default for a rule variant: everything under `Repetition=draw`, where the tables are
    /// exact; wins and losses only under `Repetition=forbid`, where a table draw is guidance.
    pub fn default_for(rules: &Rules) -> TbResults {
        match rules.repetition {
            Repetition::Draw => TbResults::Both,
            Repetition::Forbid => TbResults::WinLoss,
        }
    }

    /// Whether table wins and losses end games.
    pub const fn decisive(self) -> bool {
        matches!(self, TbResults::Both | TbResults::WinLoss)
    }

    /// Whether table draws end games.
    pub const fn draws(self) -> bool {
        matches!(self, TbResults::Both | TbResults::Draw)
    }
}

impl fmt::Display for TbResults {
    /// `both`, `win-loss` or `draw`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            TbResults::Both => "both",
            TbResults::WinLoss => "win-loss",
            TbResults::Draw => "draw",
        })
    }
}

/// Opened tables and which of their values end games.
pub struct TbAdjudicator {
    dir: PathBuf,
    tables: Tablebase,
    results: TbResults,
    /// The forbid values beside the tables, under `Repetition=forbid`.
    forbid: Option<ForbidTables>,
}

/// States searched to find a table draw's component when judging a forbid value.
const FORBID_BUDGET: usize = 200_000;

impl fmt::Debug for TbAdjudicator {
    /// The directory, rules and results (not the tables' contents).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TbAdjudicator")
            .field("dir", &self.dir)
            .field("rules", &self.tables.rules())
            .field("results", &self.results)
            .field("forbid", &self.forbid.as_ref().map(ForbidTables::layers))
            .finish()
    }
}

impl TbAdjudicator {
    /// Opens and checks the tables in `dir` for the match `rules`; `results` defaults to
    /// [`TbResults::default_for`].
    ///
    /// # Errors
    /// A message quoting the directory: a missing, unreadable, corrupt or mismatched table, or
    /// rules the tables do not cover.
    pub fn open(
        dir: &Path,
        rules: &Rules,
        results: Option<TbResults>,
    ) -> Result<TbAdjudicator, String> {
        let tables = Tablebase::open(dir, TableRules::of(rules))
            .map_err(|e| format!("tablebase \"{}\": {e}", dir.display()))?;
        let mut adjudicator = TbAdjudicator::new(
            dir,
            tables,
            results.unwrap_or_else(|| TbResults::default_for(rules)),
        );
        if rules.repetition == Repetition::Forbid {
            let (forbid, errors) = ForbidTables::open(dir, &adjudicator.tables);
            for error in errors {
                log::warn!("forbid values not used: {error}");
            }
            if let Some(forbid) = &forbid {
                log::info!(
                    "forbid values of layers {:?} adjudicate proven table draws",
                    forbid.layers()
                );
                if let Some((dir, _)) = forbid.placement() {
                    log::info!(
                        "placement values under forbid in \"{}\" adjudicate proven placement positions",
                        dir.display()
                    );
                }
            }
            adjudicator.forbid = forbid;
        }
        adjudicator.wait_for_placement_checks();
        Ok(adjudicator)
    }

    /// Waits for the background checksums of the placement layers (the tables', and the
    /// placement values under forbid): until then a layer answers nothing, so a position of the
    /// first games would be adjudicated or not depending on timing. A corrupt layer is logged
    /// (by the check) and never used.
    fn wait_for_placement_checks(&self) {
        let tables = self.tables.placement();
        let forbid = self.forbid.as_ref().and_then(ForbidTables::placement);
        for placement in tables.into_iter().chain(forbid.map(|(_, p)| p)) {
            if !placement.is_checked() {
                log::info!("waiting for the placement layers' checksums");
            }
            placement.wait_checked();
        }
    }

    /// Whether forbid values are used.
    pub fn has_forbid_values(&self) -> bool {
        self.forbid.is_some()
    }

    /// Wraps tables already opened (for the match rules).
    pub fn new(dir: &Path, tables: Tablebase, results: TbResults) -> TbAdjudicator {
        TbAdjudicator {
            dir: dir.to_path_buf(),
            tables,
            results,
            forbid: None,
        }
    }

    /// Which values end games.
    pub fn results(&self) -> TbResults {
        self.results
    }

    /// The tables' directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The result and final comment when the tables settle the game's current position
    /// (`Tablebase: tigers win in 7 plies`, `Tablebase: draw`, in the placement phase
    /// `Tablebase: goats win`, proven under forbid `Forbid tablebase: goats win`); `None` when
    /// the position is not covered (goats in hand without their placement layer or a proven
    /// placement value under forbid), its kind of value is not adjudicated, or an earlier
    /// movement-phase position of the game might stand in the winner's way. Call it only for
    /// games not already over.
    pub fn adjudicate(&self, game: &Game) -> Option<(GameResult, String)> {
        let position = game.position();
        let Some(value) = self.tables.probe(position) else {
            // Goats in hand without their placement layer: a proven value under forbid.
            return self.adjudicate_forbid(game);
        };
        let mover = position.side_to_move();
        let winner = match value.wdl {
            // A proven forbid value comes before a draw adjudication.
            Wdl::Draw => {
                let forbid = self.adjudicate_forbid(game);
                if forbid.is_none() && self.results.draws() {
                    return Some((GameResult::Draw, "Tablebase: draw".to_string()));
                }
                return forbid;
            }
            _ if !self.results.decisive() => return None,
            Wdl::Win => mover,
            Wdl::Loss => mover.opposite(),
        };
        // A placement-phase value has no distance; no earlier position can recur from there
        // (every earlier one had more goats in hand), so the history cannot interfere.
        let Some(plies) = value.plies_to_end else {
            return Some((
                GameResult::win_for(winner),
                format!("Tablebase: {winner} win"),
            ));
        };
        if self.history_may_interfere(game, winner, plies) {
            log::debug!(
                "tablebase: {winner} win in {plies} plies not adjudicated: an earlier position may interfere"
            );
            return None;
        }
        let unit = if plies == 1 { "ply" } else { "plies" };
        Some((
            GameResult::win_for(winner),
            format!("Tablebase: {winner} win in {plies} {unit}"),
        ))
    }

    /// A table draw that the forbid values prove won or lost for this game's history
    /// (`Forbid tablebase: tigers win`), when wins and losses are adjudicated.
    fn adjudicate_forbid(&self, game: &Game) -> Option<(GameResult, String)> {
        let forbid = self.forbid.as_ref().filter(|_| self.results.decisive())?;
        let winner = ForbidJudge::new(&self.tables, forbid).winner(game, FORBID_BUDGET)?;
        Some((
            GameResult::win_for(winner),
            format!("Forbid tablebase: {winner} win"),
        ))
    }

    /// Whether an earlier movement-phase position of the game is a table win for `winner` in
    /// fewer than `plies` plies: the winner's line could then be forbidden from entering it
    /// (forbid rule) or the loser could repeat it (draw rule). Placement-phase positions cannot
    /// recur (see the module documentation) and are not in the tables.
    fn history_may_interfere(&self, game: &Game, winner: Side, plies: u16) -> bool {
        let positions = game.positions();
        positions[..positions.len() - 1]
            .iter()
            .filter_map(|earlier| Some((earlier, self.tables.probe(earlier)?)))
            .any(|(earlier, value)| {
                let value = for_side(value, earlier.side_to_move(), winner);
                value.wdl == Wdl::Win && value.plies_to_end.is_some_and(|d| d < plies)
            })
    }
}

/// A value for `mover` seen from `side`.
fn for_side(value: TbValue, mover: Side, side: Side) -> TbValue {
    if mover == side {
        value
    } else {
        value.negate()
    }
}
