//! The root in the tables: rank the root moves by the value they keep, in the actual game.

use crate::search::report::{SearchInfo, SearchObserver, SearchResult};
use crate::search::score::{Bound, Score, Value};
use crate::tablebase::{Tablebase, TbValue, Wdl};
use crate::{Game, Move, Side};

use super::super::thread::SearchContext;
use super::forbid::ForbidRoot;
use super::press::pressing_moves;
use super::proof::{prove_root, ProofBudget, RootProof};
use super::{repeats_in, value_at, DRAW_WDL};

/// Longest principal variation read from the tables.
const MAX_TABLE_LINE: usize = 64;

/// What the tables say about the root.
#[derive(Debug)]
pub enum TbRoot {
    /// Some root move leaves the tables (or there are none): search as usual.
    NotCovered,
    /// The move is chosen (a win or a loss, or the only drawing move) and reported.
    Decided(SearchResult),
    /// Search among these moves, which keep the root's value: in the placement phase, where
    /// values have no distance, the winning moves or (a lost root) all moves.
    Keep(Vec<Move>),
    /// A drawn root: search among these drawing moves, adding to each move's value its bonus
    /// for pressing (see [`super::press`]).
    Press(Vec<(Move, Value)>),
}

/// The value for the mover of playing `mv` in `game`, in plies from the root: the table value
/// of the position reached, or a draw when the draw rule ends the game there by repetition.
/// `None` when the position reached is not in the tables.
pub fn root_move_value(tables: &Tablebase, game: &Game, mv: Move) -> Option<TbValue> {
    let child = game.position().played(mv);
    if repeats_in(game, &child) {
        return Some(TbValue::DRAW);
    }
    let value = tables.probe(&child)?.negate();
    Some(TbValue {
        wdl: value.wdl,
        plies_to_end: value.plies_to_end.map(|plies| plies + 1),
    })
}

/// Orders values for the mover: faster wins first, then draws, then slower losses.
fn rank(value: TbValue) -> i32 {
    let plies = i32::from(value.plies_to_end.unwrap_or(0));
    match value.wdl {
        Wdl::Win => 1000 - plies,
        Wdl::Draw => 0,
        Wdl::Loss => -1000 + plies,
    }
}

/// Looks the root up: `moves` are the root moves allowed (legal in the game, repetition rule
/// included). A decided root is reported to `observer` (one info per MultiPV line); a drawn
/// root marks `context.tablebase` so that the search that follows treats it as one.
pub fn root(
    context: &SearchContext<'_>,
    moves: &[Move],
    observer: &mut dyn SearchObserver,
) -> TbRoot {
    let probe = &context.tablebase;
    let Some(tables) = probe.tables() else {
        return TbRoot::NotCovered;
    };
    let game = context.game;
    let position = game.position();
    let covered = tables.probe(position).is_some()
        || (position.goats_in_hand() == 1 && position.side_to_move() == Side::Goats);
    if moves.is_empty() {
        return TbRoot::NotCovered;
    }
    if !covered {
        // Goats in hand without their placement layer: the placement values under forbid may
        // still prove a move won, or some moves lost.
        return match super::forbid::drawn_root(context, moves, moves.to_vec(), observer) {
            ForbidRoot::Won(result) => TbRoot::Decided(result),
            ForbidRoot::Keep(keeping) if keeping.len() < moves.len() => TbRoot::Keep(keeping),
            ForbidRoot::Keep(_) => TbRoot::NotCovered,
        };
    }
    let mut ranked = Vec::with_capacity(moves.len());
    for &mv in moves {
        let Some(value) = root_move_value(tables, game, mv) else {
            return TbRoot::NotCovered;
        };
        ranked.push((mv, value));
    }
    probe.add_hits(ranked.len() as u64);
    ranked.sort_by_key(|&(_, value)| std::cmp::Reverse(rank(value)));
    let best = ranked[0].1;
    let keeping: Vec<Move> = ranked
        .iter()
        .filter(|(_, value)| value.wdl == best.wdl)
        .map(|&(mv, _)| mv)
        .collect();
    probe.set_root_value(best.wdl);
    match best.wdl {
        Wdl::Draw => {
            let keeping = match super::forbid::drawn_root(context, moves, keeping, observer) {
                ForbidRoot::Won(result) => return TbRoot::Decided(result),
                ForbidRoot::Keep(keeping) => keeping,
            };
            let keeping = if probe.lost_under_forbid() {
                keeping
            } else {
                match prove_root(context, keeping, ProofBudget::of(context), observer) {
                    RootProof::Won(result) => return TbRoot::Decided(result),
                    RootProof::Keep(keeping) => keeping,
                }
            };
            let pressing = pressing_moves(tables, game, &keeping, &|| context.root_time_is_up());
            if pressing.len() > 1 {
                return TbRoot::Press(pressing);
            }
            if let Some(index) = ranked.iter().position(|&(mv, _)| mv == pressing[0].0) {
                ranked.swap(0, index);
            }
        }
        // Without distances (placement), the search tells the faster win or the longer
        // resistance apart.
        _ if best.plies_to_end.is_none() && keeping.len() > 1 => return TbRoot::Keep(keeping),
        _ => {}
    }
    let lines = context.options.multi_pv.clamp(1, ranked.len());
    let mut infos = Vec::with_capacity(lines);
    for (line, &(mv, value)) in ranked[..lines].iter().enumerate() {
        let pv = table_line(tables, game, mv, value, &|| context.root_time_is_up());
        let info = line_info(context, line, value, ranked.len() as u64, pv);
        observer.on_info(&info);
        infos.push(info);
    }
    let info = infos.swap_remove(0);
    TbRoot::Decided(SearchResult {
        best_move: Some(ranked[0].0),
        ponder_move: info.pv.get(1).copied(),
        info: Some(info),
    })
}

fn line_info(
    context: &SearchContext<'_>,
    line: usize,
    value: TbValue,
    nodes: u64,
    pv: Vec<Move>,
) -> SearchInfo {
    let score = Score::from_value(value_at(value, 0));
    let wdl = match value.wdl {
        Wdl::Win => [1000, 0, 0],
        Wdl::Draw => DRAW_WDL,
        Wdl::Loss => [0, 0, 1000],
    };
    SearchInfo {
        depth: 1,
        seldepth: pv.len() as u32,
        multipv: line as u32 + 1,
        score,
        bound: Bound::Exact,
        wdl: context.options.show_wdl.then_some(wdl),
        nodes,
        time: context.control.elapsed(),
        hashfull: context.tt.hashfull(),
        tbhits: context.tablebase.hits(),
        pv,
    }
}

/// `first` and then the tables' best moves (legal in the game) while the game goes on: to the
/// end for a win or a loss (at most [`MAX_TABLE_LINE`] plies), one reply for a draw; shorter
/// once `time_is_up` (asked before each move after the first: each probes every move).
fn table_line(
    tables: &Tablebase,
    game: &Game,
    first: Move,
    value: TbValue,
    time_is_up: &dyn Fn() -> bool,
) -> Vec<Move> {
    let length = if value.wdl == Wdl::Draw {
        2
    } else {
        MAX_TABLE_LINE
    };
    let mut game = game.clone();
    let mut line = vec![first];
    if game.play(first).is_err() {
        return line;
    }
    while line.len() < length && game.outcome().is_none() && !time_is_up() {
        let legal = game.legal_moves();
        let next = tables
            .best_moves(game.position())
            .into_iter()
            .find(|mv| legal.contains(mv));
        let Some(next) = next else {
            break;
        };
        if game.play(next).is_err() {
            break;
        }
        line.push(next);
    }
    line
}
