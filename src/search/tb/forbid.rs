//! Proven values under `Repetition forbid` (docs/forbid.md): where the forbid files beside the
//! tables prove a table draw won or lost for the game's history, the value replaces the draw,
//! at the root and in the search. Whether a stored value holds for a history is
//! [`ForbidJudge`]'s question; here the search gathers the history (the game's states of the
//! root's layer and the search path) and uses the answer.

use crate::search::report::{SearchInfo, SearchObserver, SearchResult};
use crate::search::score::{Bound, Score, Value};
use crate::tablebase::forbid::history::{layer_history, ForbidJudge};
use crate::tablebase::forbid::tables::ForbidTables;
use crate::tablebase::forbid::ForbidValue;
use crate::tablebase::{Tablebase, Wdl};
use crate::{Game, Move, Position};

use super::super::thread::SearchContext;
use super::super::worker::Worker;
use super::{TbProbe, TB_WIN};

/// States searched to find a component at the root (once a move).
const ROOT_BUDGET: usize = 200_000;
/// States searched to find a component inside the search (each component is found once a
/// search and remembered).
const NODE_BUDGET: usize = 4_000;

/// The forbid values a search uses, and what it knows of the game's history.
pub struct ForbidProbe<'a> {
    judge: ForbidJudge<'a>,
    /// Goats captured at the root, when it is in the movement phase.
    root_captured: Option<u8>,
    /// Keys of the root's layer history, the root included, when all are table draws (`None`:
    /// no value of the root's layer is used in the search).
    root_history: Option<Vec<u64>>,
    /// The forbid values themselves (for a proof search at the root).
    files: &'a ForbidTables,
}

impl std::fmt::Debug for ForbidProbe<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ForbidProbe")
            .field("root_captured", &self.root_captured)
            .finish()
    }
}

impl<'a> ForbidProbe<'a> {
    /// The forbid values of `forbid` (made from `tables`) for a search of `game`.
    pub fn new(tables: &'a Tablebase, forbid: &'a ForbidTables, game: &Game) -> ForbidProbe<'a> {
        let positions = game.positions();
        let root = game.position();
        let movement = root.goats_in_hand() == 0;
        let mut states: Vec<&Position> = layer_history(positions).iter().collect();
        states.push(root);
        let all_draws = states
            .iter()
            .all(|p| tables.probe(p).is_some_and(|v| v.wdl == Wdl::Draw));
        ForbidProbe {
            judge: ForbidJudge::new(tables, forbid),
            root_captured: movement.then_some(root.goats_captured()),
            root_history: (movement && all_draws)
                .then(|| states.iter().map(|p| p.hash()).collect()),
            files: forbid,
        }
    }

    /// The forbid values this probe reads.
    pub fn files(&self) -> &'a ForbidTables {
        self.files
    }
}

/// What the forbid values make of a drawn root.
pub enum ForbidRoot {
    /// A proven win: the move is played and reported.
    Won(SearchResult),
    /// Search among these moves (those not proven to lose, or all when the root is lost).
    Keep(Vec<Move>),
}

/// The drawn root under forbid: `moves` are the legal root moves, `keeping` those that keep the
/// table draw (or, at a placement root the tables do not cover, all of them). A move to a
/// proven loss for the opponent is played (`score cp 20000`, `info string forbid: ...`); a
/// root proven lost is reported (`cp -20000`) and searched as usual; otherwise moves proven to
/// lose are left out.
pub fn drawn_root(
    context: &SearchContext<'_>,
    moves: &[Move],
    keeping: Vec<Move>,
    observer: &mut dyn SearchObserver,
) -> ForbidRoot {
    let Some(forbid) = context.tablebase.forbid() else {
        return ForbidRoot::Keep(keeping);
    };
    let game = context.game;
    let mut after = game.positions().to_vec();
    let values: Vec<(Move, ForbidValue)> = moves
        .iter()
        .map(|&mv| {
            after.push(game.position().played(mv));
            let theirs = forbid.judge.value_in_game(&after, ROOT_BUDGET);
            after.pop();
            (mv, theirs.negate())
        })
        .collect();
    if let Some(&(mv, _)) = values.iter().find(|(_, v)| *v == ForbidValue::Win) {
        let nodes = moves.len() as u64;
        return ForbidRoot::Won(proven_win(context, mv, nodes, "", observer));
    }
    let lost = values.iter().all(|(_, v)| *v == ForbidValue::Loss)
        || forbid.judge.value_in_game(game.positions(), ROOT_BUDGET) == ForbidValue::Loss;
    if lost {
        proven_loss(context, "", observer);
        return ForbidRoot::Keep(keeping);
    }
    let open = not_proven_lost(&keeping, &values);
    ForbidRoot::Keep(if open.is_empty() { keeping } else { open })
}

/// The moves of `keeping` that `values` (the mover's value of each move) does not prove lost.
pub(super) fn not_proven_lost(keeping: &[Move], values: &[(Move, ForbidValue)]) -> Vec<Move> {
    let lost = |mv: &Move| {
        values
            .iter()
            .any(|(m, v)| m == mv && *v == ForbidValue::Loss)
    };
    keeping.iter().copied().filter(|mv| !lost(mv)).collect()
}

/// Reports the proven win `mv` of the mover at the root (`how`: by what, or empty for the
/// forbid values), after `nodes` positions looked at (`cp 20000`: no distance), and returns it
/// as the search's result.
pub(super) fn proven_win(
    context: &SearchContext<'_>,
    mv: Move,
    nodes: u64,
    how: &str,
    observer: &mut dyn SearchObserver,
) -> SearchResult {
    let mover = context.game.position().side_to_move();
    observer.on_string(&format!(
        "forbid: {mover} win, proven{how} for this game's history (Repetition forbid)"
    ));
    let info = SearchInfo {
        depth: 1,
        seldepth: 1,
        multipv: 1,
        score: Score::Cp(TB_WIN),
        bound: Bound::Exact,
        wdl: context.options.show_wdl.then_some([1000, 0, 0]),
        nodes,
        time: context.control.elapsed(),
        hashfull: context.tt.hashfull(),
        tbhits: context.tablebase.hits(),
        pv: vec![mv],
    };
    observer.on_info(&info);
    SearchResult {
        best_move: Some(mv),
        ponder_move: None,
        info: Some(info),
    }
}

/// Reports the root proven lost for its mover (`how`: by what, or empty for the forbid values);
/// the search that follows is reported as `cp -20000` unless it finds a mate
/// ([`super::TbProbe::adjust_info`]).
pub(super) fn proven_loss(
    context: &SearchContext<'_>,
    how: &str,
    observer: &mut dyn SearchObserver,
) {
    let mover = context.game.position().side_to_move();
    context.tablebase.set_lost_under_forbid();
    observer.on_string(&format!(
        "forbid: {mover} loses, proven{how} for this game's history (Repetition forbid)"
    ));
}

impl Worker<'_> {
    /// The proven forbid value of the table draw `position` at `ply`, when its stored value
    /// holds for the history of this search path (the game's states of the root's layer, then
    /// the path: every state of the layer before it is a table draw, since the search stops at
    /// table wins and losses); of a placement-phase position (a table draw, or one the tables
    /// do not cover), its placement value under forbid. Not below a null move, whose states are
    /// no game's.
    pub(crate) fn forbid_value(
        &self,
        probe: &TbProbe<'_>,
        position: &Position,
        ply: usize,
    ) -> Option<Value> {
        let forbid = probe.forbid()?;
        let stored = forbid.judge.stored(position);
        if !matches!(stored, Some(ForbidValue::Win | ForbidValue::Loss))
            || self.null_move_on_path(ply)
        {
            return None;
        }
        // In the placement phase the stored value holds whatever the history.
        let value = if position.goats_in_hand() != 0 {
            stored?
        } else {
            let mut keys = self.path_keys(ply).to_vec();
            if forbid.root_captured == Some(position.goats_captured()) {
                keys.extend(forbid.root_history.as_ref()?);
            }
            forbid.judge.value_after_draws(position, &keys, NODE_BUDGET)
        };
        match value {
            ForbidValue::Win => Some(TB_WIN - ply as Value),
            ForbidValue::Loss => Some(-TB_WIN + ply as Value),
            ForbidValue::Unknown => None,
        }
    }
}
