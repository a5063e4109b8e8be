//! The search's use of the movement-phase tablebases.
//!
//! - [`load`]: the tables named by the `tablebase_path` option, opened again when the rules
//!   change; failures are kept for the caller to report and the tables are then not used.
//! - [`root`]: when every root move leads into the tables, the engine plays a move that keeps
//!   the value (fastest win, slowest loss; among drawing moves the search chooses), reporting
//!   `mate N` or a draw, and respecting the game's repetition history.
//! - [`proof`]: under `Repetition forbid` with `ForbidProof`, a proof search at a drawn
//!   movement-phase root plays a move it proves won and leaves out the moves it proves lost.
//! - [`press`]: inside a table draw the engine plays to win. A drawn root searches only its
//!   drawing moves (never a table loss), leaves out a move that would end the game by
//!   repetition while another remains, and adds to each move's searched value a small bonus
//!   for pressing: under the draw rule for leaving the opponent few drawing replies among
//!   losing ones, under the forbid rule for keeping fresh drawing continuations and taking them
//!   from the opponent. Below a drawn root table draws do not cut the search: they are scored
//!   by the evaluation (always far inside the table win/loss scores), while table wins and
//!   losses stay exact, so the search never trades the draw for a loss.
//! - [`node`]: inside the search, movement-phase nodes return their exact table value, and a
//!   goats' last placement takes its value from the tables' values of its children.
//!   Placement-phase nodes return their layer's value when the placement layers are present:
//!   a win or loss without a distance, [`TB_WIN`] less the ply.
//! - At a placement root the engine keeps the value: it searches only the moves that keep a
//!   win or a draw (in a draw pressing, as above), and below a won or lost root, placement values do not cut the search, so that it
//!   can tell the faster win or the longer resistance apart.
//!
//! Table draws are cycles. Under the draw rule they are draws in the game too and cut the search
//! like wins and losses. Under the forbid rule no movement-phase position repeats, so every game
//! ends in a win for someone (whoever runs out of new positions first loses): table draws are
//! not results there, and the search goes on below them with the evaluation.

pub mod builtin;
pub mod forbid;
pub mod load;
pub mod node;
pub mod press;
pub mod proof;
pub mod root;

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicU8, Ordering};

use crate::search::report::SearchInfo;
use crate::search::score::Score;
use crate::tablebase::forbid::tables::ForbidTables;
use crate::tablebase::{TableRules, Tablebase, TbValue, Wdl};
use crate::{Game, Position, Repetition, Rules};

use super::score::{mate_in, mated_in, Value, DRAW, MAX_PLY};

pub use forbid::ForbidProbe;
pub use load::{TablebaseSlot, TablebaseStatus};

const NO_ROOT_VALUE: u8 = 0;
const WIN_ROOT: u8 = 1;
const DRAW_ROOT: u8 = 2;
const LOSS_ROOT: u8 = 3;

/// Whether `child`, reached from `game`'s position, ends the game by repetition (the draw rule,
/// a position already in the game).
pub fn repeats_in(game: &Game, child: &Position) -> bool {
    game.rules().repetition == Repetition::Draw
        && game
            .positions()
            .iter()
            .any(|position| position.hash() == child.hash())
}

/// Win/draw/loss per mille of a drawn table position.
pub const DRAW_WDL: [u32; 3] = [0, 1000, 0];

/// The tables one search uses, its tablebase hit counter, and whether the root is a table draw.
#[derive(Debug, Default)]
pub struct TbProbe<'a> {
    tables: Option<&'a Tablebase>,
    /// Whether table draws are draws in the game (the draw repetition rule).
    draws_are_results: bool,
    /// The root's table value, once the root was looked up (see [`TbProbe::set_root_value`]).
    root_value: AtomicU8,
    hits: AtomicU64,
    /// Proven values under `Repetition forbid` (see [`forbid`]).
    forbid: Option<ForbidProbe<'a>>,
    /// Whether the root was proven lost under `Repetition forbid` (by the forbid values or a
    /// proof search: [`proof`]), and reported so.
    lost_under_forbid: AtomicBool,
}

impl<'a> TbProbe<'a> {
    /// Probing `tables` for a search under `rules`; the tables are left unused when they were
    /// made for another forced-capture rule or captures-to-win count.
    pub fn new(tables: Option<&'a Tablebase>, rules: &Rules) -> TbProbe<'a> {
        let tables = tables.filter(|tables| {
            let fits = tables.rules() == TableRules::of(rules);
            if !fits {
                log::debug!("tablebases not used: made for other rules than the game's");
            }
            fits
        });
        TbProbe {
            tables,
            draws_are_results: rules.repetition == Repetition::Draw,
            root_value: AtomicU8::new(NO_ROOT_VALUE),
            hits: AtomicU64::new(0),
            forbid: None,
            lost_under_forbid: AtomicBool::new(false),
        }
    }

    /// Adds the forbid values `forbid` (made from the same tables) for a search of `game`:
    /// used only under `Repetition forbid` with tables that fit the game.
    pub fn with_forbid(mut self, forbid: Option<&'a ForbidTables>, game: &Game) -> TbProbe<'a> {
        if let (Some(tables), Some(forbid), false) = (self.tables, forbid, self.draws_are_results) {
            self.forbid = Some(ForbidProbe::new(tables, forbid, game));
        }
        self
    }

    /// The forbid values, when used.
    pub fn forbid(&self) -> Option<&ForbidProbe<'a>> {
        self.forbid.as_ref()
    }

    /// The tables, if they fit the game's rules.
    pub fn tables(&self) -> Option<&'a Tablebase> {
        self.tables
    }

    /// Positions found in the tables so far (all threads).
    pub fn hits(&self) -> u64 {
        self.hits.load(Ordering::Relaxed)
    }

    #[inline]
    pub(crate) fn add_hits(&self, count: u64) {
        self.hits.fetch_add(count, Ordering::Relaxed);
    }

    /// The root's table value, if the root was found in the tables.
    #[inline]
    pub fn root_value(&self) -> Option<Wdl> {
        match self.root_value.load(Ordering::Relaxed) {
            WIN_ROOT => Some(Wdl::Win),
            DRAW_ROOT => Some(Wdl::Draw),
            LOSS_ROOT => Some(Wdl::Loss),
            _ => None,
        }
    }

    /// Whether the root was found to be a table draw.
    #[inline]
    pub fn drawn_root(&self) -> bool {
        self.root_value() == Some(Wdl::Draw)
    }

    /// Records the root's table value. Below a drawn root, draws do not cut the search (it
    /// chooses among drawing moves by evaluation); below a won or lost root, placement values
    /// do not (they have no distance). Reported scores that are not mates then read as the
    /// root's value.
    pub(crate) fn set_root_value(&self, wdl: Wdl) {
        let code = match wdl {
            Wdl::Win => WIN_ROOT,
            Wdl::Draw => DRAW_ROOT,
            Wdl::Loss => LOSS_ROOT,
        };
        self.root_value.store(code, Ordering::Relaxed);
    }

    /// Marks the root proven lost under `Repetition forbid` (see [`TbProbe::adjust_info`]).
    pub(crate) fn set_lost_under_forbid(&self) {
        self.lost_under_forbid.store(true, Ordering::Relaxed);
    }

    /// Whether the root was proven lost under `Repetition forbid`.
    pub fn lost_under_forbid(&self) -> bool {
        self.lost_under_forbid.load(Ordering::Relaxed)
    }

    /// Whether placement-phase values cut the search (not below a won or lost root).
    #[inline]
    pub fn cuts_at_placement(&self) -> bool {
        !matches!(self.root_value(), Some(Wdl::Win | Wdl::Loss))
    }

    /// Whether a table draw ends the search at its node (see the module documentation; never
    /// below a drawn root, where the search chooses between drawing moves).
    #[inline]
    pub fn cuts_at_draws(&self) -> bool {
        self.draws_are_results && !self.drawn_root()
    }

    /// Makes a report from a search of a root in the tables read as the value it has: a score
    /// that is not a mate the search proved (only the repetition history, which the tables do
    /// not see, can make a proved result differ from theirs) becomes `cp 0` for a draw,
    /// `cp 20000` or `cp -20000` for a placement win or loss ([`TB_WIN`] at the root), exact,
    /// with the matching win/draw/loss.
    ///
    /// Under `Repetition forbid` with forbid values, a drawn root whose search proved a win or
    /// loss from those values below it (a score in the [`TB_WIN`] band) keeps that score; a
    /// root proven lost (by the forbid values or the root's proof search: a drawn root, or a
    /// placement root the tables do not cover) is reported as `cp -20000` unless the search
    /// found a mate.
    pub fn adjust_info(&self, info: &mut SearchInfo) {
        let lost = self.lost_under_forbid();
        let (score, wdl) = match (self.root_value(), info.score) {
            // A drawn root, or a placement root the tables do not cover.
            (Some(Wdl::Draw) | None, Score::Cp(_)) if lost => (Score::Cp(-TB_WIN), [0, 0, 1000]),
            (Some(Wdl::Draw), Score::Cp(cp)) => {
                if let Some(wdl) = proven_below_a_drawn_root(cp, self.forbid.is_some()) {
                    // The search's own score and bound stand.
                    info.wdl = info.wdl.map(|_| wdl);
                    return;
                }
                (Score::Cp(0), DRAW_WDL)
            }
            (Some(Wdl::Win), Score::Cp(_)) => (Score::Cp(TB_WIN), [1000, 0, 0]),
            (Some(Wdl::Loss), Score::Cp(_)) => (Score::Cp(-TB_WIN), [0, 0, 1000]),
            _ => return,
        };
        info.score = score;
        info.bound = super::Bound::Exact;
        if info.wdl.is_some() {
            info.wdl = Some(wdl);
        }
    }
}

/// The win/draw/loss to report for a drawn root whose search scored `cp`, when that score is
/// a win or loss proven below the root from the forbid values (used when `forbid_values`):
/// the forbid rule can make a table draw a win for either side.
fn proven_below_a_drawn_root(cp: Value, forbid_values: bool) -> Option<[u32; 3]> {
    (forbid_values && is_proven(cp)).then_some(if cp > 0 { [1000, 0, 0] } else { [0, 0, 1000] })
}

/// Value of a tablebase win without a known distance (a placement-phase win) at the root,
/// reported as `cp 20000`; found `ply` plies into the search it is `TB_WIN - ply`. Larger than
/// any evaluation, smaller than any mate.
pub const TB_WIN: Value = 20_000;

/// Whether `value` is proven: a mate, or a win or loss without a distance ([`TB_WIN`] less
/// the ply at most [`MAX_PLY`] plies down).
pub const fn is_proven(value: Value) -> bool {
    value.abs() >= TB_WIN - MAX_PLY as Value
}

/// The search value of a table value found `ply` plies from the root.
pub fn value_at(value: TbValue, ply: usize) -> Value {
    match (value.wdl, value.plies_to_end) {
        (Wdl::Win, Some(plies)) => mate_in(ply + usize::from(plies)),
        (Wdl::Loss, Some(plies)) => mated_in(ply + usize::from(plies)),
        (Wdl::Win, None) => TB_WIN - ply as Value,
        (Wdl::Loss, None) => -TB_WIN + ply as Value,
        (Wdl::Draw, _) => DRAW,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::score::is_mate;
    use crate::tablebase::value::MAX_DISTANCE;

    #[test]
    fn draws_cut_the_search_only_under_the_draw_rule_below_an_undecided_root() {
        let rules = |repetition| Rules {
            repetition,
            ..Rules::default()
        };
        assert!(!TbProbe::new(None, &rules(Repetition::Forbid)).cuts_at_draws());
        let probe = TbProbe::new(None, &rules(Repetition::Draw));
        assert!(probe.cuts_at_draws());
        probe.set_root_value(Wdl::Draw);
        assert!(!probe.cuts_at_draws());
        assert!(probe.cuts_at_placement());
        probe.set_root_value(Wdl::Win);
        assert!(probe.cuts_at_draws());
        assert!(!probe.cuts_at_placement());
    }

    #[test]
    fn a_drawn_root_keeps_only_a_score_proven_from_the_forbid_values() {
        let win = TB_WIN - 7;
        assert_eq!(proven_below_a_drawn_root(win, true), Some([1000, 0, 0]));
        assert_eq!(proven_below_a_drawn_root(-win, true), Some([0, 0, 1000]));
        assert_eq!(
            proven_below_a_drawn_root(mate_in(9), true),
            Some([1000, 0, 0])
        );
        // Without forbid values, or for an evaluation, the draw is reported.
        assert_eq!(proven_below_a_drawn_root(win, false), None);
        assert_eq!(
            proven_below_a_drawn_root(TB_WIN - MAX_PLY as Value - 1, true),
            None
        );
        assert_eq!(proven_below_a_drawn_root(-350, true), None);
    }

    #[test]
    fn table_values_become_mate_scores() {
        assert_eq!(
            Score::from_value(value_at(TbValue::at_distance(1), 0)),
            Score::Mate(1)
        );
        assert_eq!(
            Score::from_value(value_at(TbValue::at_distance(5), 0)),
            Score::Mate(3)
        );
        assert_eq!(
            Score::from_value(value_at(TbValue::at_distance(4), 0)),
            Score::Mate(-2)
        );
        assert_eq!(value_at(TbValue::DRAW, 7), DRAW);
        // The longest distance found at the deepest ply is still a mate score.
        let deepest = value_at(TbValue::at_distance(MAX_DISTANCE + 1), MAX_PLY);
        assert!(is_mate(deepest) && is_mate(-deepest));
        assert_eq!(
            Score::from_value(value_at(TbValue::at_distance(MAX_DISTANCE), 0)),
            Score::Mate(-127)
        );
    }
}
