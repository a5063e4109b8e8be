//! Pressing inside a table draw: which drawing moves a drawn root searches, and the bonus each
//! earns for the chances it leaves the opponent to go wrong.
//!
//! The tables say the root is a draw, so every move searched keeps it (the draw is never given
//! away), and the search below the root goes on through table draws with the evaluation (only
//! table wins and losses are exact there, see [`super::TbProbe::cuts_at_draws`]). What is added
//! here, per root move, is a small bonus (at most [`MAX_PRESS`], far below a table win) on top
//! of its searched value:
//!
//! - **Repetition `draw`**: a move that ends the game by repetition is left out while another
//!   drawing move remains (it would end the game at once, giving the opponent no chance to
//!   err), and so is a move that lets the opponent end it by repetition (a reply that repeats,
//!   or a drawing reply after which our only drawing moves repeat) while a drawing move that
//!   does not remains: an opponent that cannot win takes such a draw. A move that leaves the
//!   opponent few replies keeping the draw among replies that lose earns [`PRESS_DRAW`]
//!   divided by the number of drawing replies: the fewer ways out, the likelier a fallible
//!   opponent misses them.
//! - **Repetition `forbid`** (movement phase): table draws are not results there: the side that
//!   first runs out of fresh (unplayed) positions loses. A move earns [`PRESS_FORBID`] for each
//!   fresh drawing continuation it keeps for the mover, two plies on (the fewest the opponent
//!   can leave it), and loses as much for each fresh drawing reply it leaves the opponent (both
//!   counted up to [`FRESH_CAP`], where a squeeze starts to matter). The defender thus keeps the
//!   most continuations, the attacker shrinks the opponent's.

use crate::search::score::Value;
use crate::tablebase::{Tablebase, Wdl};
use crate::{Game, Move, Repetition};

use super::root::root_move_value;

/// Bonus for leaving the opponent a single drawing reply among losing ones (divided by the
/// number of drawing replies when there are more).
pub const PRESS_DRAW: Value = 30;
/// Bonus per fresh drawing continuation kept, and malus per fresh drawing reply left to the
/// opponent, under `Repetition forbid`.
pub const PRESS_FORBID: Value = 12;
/// Fresh drawing moves are counted up to this number.
pub const FRESH_CAP: usize = 4;
/// The largest bonus or malus a move can get.
pub const MAX_PRESS: Value = {
    let forbid = PRESS_FORBID * FRESH_CAP as Value;
    if forbid > PRESS_DRAW {
        forbid
    } else {
        PRESS_DRAW
    }
};

/// The drawing moves `draws` of `game` to search, each with its bonus (see the module
/// documentation). Never empty when `draws` is not. Once `time_is_up` says so (it is asked
/// before each move), the moves left get no bonus and are not looked at further: the bonuses
/// probe the tables a few dozen times a move, which waits for the disk when they are cold.
pub fn pressing_moves(
    tables: &Tablebase,
    game: &Game,
    draws: &[Move],
    time_is_up: &dyn Fn() -> bool,
) -> Vec<(Move, Value)> {
    let placing = game.position().is_placement_phase();
    let forbid = game.rules().repetition == Repetition::Forbid && !placing;
    // From a placement root no state can recur within the three plies `can_repeat` looks at
    // (each placement lowers the goats in hand, and a step cannot undo the other side's).
    let repetition_ends = game.rules().repetition == Repetition::Draw && !placing;
    let mut pressing = Vec::with_capacity(draws.len());
    let mut opening_a_repetition = Vec::new();
    let mut repeating = Vec::new();
    for &mv in draws {
        let mut after = game.clone();
        if after.play(mv).is_err() {
            continue;
        }
        if after.is_repetition_draw() {
            repeating.push((mv, 0));
            continue;
        }
        if time_is_up() {
            pressing.push((mv, 0));
            continue;
        }
        let bias = if forbid {
            forbid_press(tables, &after)
        } else {
            draw_press(tables, &after)
        };
        if repetition_ends && can_repeat(tables, &after) {
            opening_a_repetition.push((mv, bias));
        } else {
            pressing.push((mv, bias));
        }
    }
    [pressing, opening_a_repetition, repeating]
        .into_iter()
        .find(|moves| !moves.is_empty())
        .unwrap_or_default()
}

/// Whether the opponent, to move in `after`, can end the game by repetition: with a reply
/// that repeats, or with a drawing reply after which the mover's only drawing moves repeat.
fn can_repeat(tables: &Tablebase, after: &Game) -> bool {
    after.legal_moves().iter().any(|&reply| {
        let mut next = after.clone();
        if next.play(reply).is_err() {
            return false;
        }
        if next.is_repetition_draw() {
            return true;
        }
        if next.outcome().is_some() || !keeps_draw(tables, after, reply) {
            return false;
        }
        let mut repeats = false;
        for &ours in next.legal_moves().iter() {
            let mut last = next.clone();
            if last.play(ours).is_err() {
                continue;
            }
            if last.is_repetition_draw() {
                repeats = true;
            } else if keeps_draw(tables, &next, ours) {
                return false;
            }
        }
        repeats
    })
}

/// Whether `reply` keeps the table draw for its mover in `game` (a reply the tables do not
/// cover counts as keeping it, one to a table win as well).
fn keeps_draw(tables: &Tablebase, game: &Game, reply: Move) -> bool {
    root_move_value(tables, game, reply).is_none_or(|value| value.wdl != Wdl::Loss)
}

/// The opponent's replies in `after` that keep the draw, counted up to `cap`, and all its
/// legal replies.
fn drawing_replies(tables: &Tablebase, after: &Game, cap: usize) -> (usize, usize) {
    let replies = after.legal_moves();
    let mut drawing = 0;
    for &reply in replies.iter() {
        if drawing == cap {
            break;
        }
        if keeps_draw(tables, after, reply) {
            drawing += 1;
        }
    }
    (drawing, replies.len())
}

/// The bonus of a move to `after` under the draw rule: [`PRESS_DRAW`] over the opponent's
/// drawing replies, when some of its replies lose.
fn draw_press(tables: &Tablebase, after: &Game) -> Value {
    let (drawing, total) = drawing_replies(tables, after, usize::MAX);
    if drawing == 0 || drawing == total {
        return 0;
    }
    PRESS_DRAW / drawing as Value
}

/// The bonus of a move to `after` under the forbid rule: the mover's fresh drawing
/// continuations two plies on (the fewest any drawing reply leaves) less the opponent's fresh
/// drawing replies, both capped at [`FRESH_CAP`], times [`PRESS_FORBID`].
fn forbid_press(tables: &Tablebase, after: &Game) -> Value {
    let (theirs, _) = drawing_replies(tables, after, FRESH_CAP);
    let ours = fewest_continuations(tables, after);
    PRESS_FORBID * (ours as Value - theirs as Value)
}

/// The fewest fresh drawing moves the opponent's drawing replies in `after` leave the mover
/// (up to [`FRESH_CAP`]; the cap when the opponent has no drawing reply).
pub fn fewest_continuations(tables: &Tablebase, after: &Game) -> usize {
    let mut fewest = FRESH_CAP;
    for &reply in after.legal_moves().iter() {
        if fewest == 0 {
            break;
        }
        if !keeps_draw(tables, after, reply) {
            continue;
        }
        let mut next = after.clone();
        if next.play(reply).is_err() || next.is_repetition_draw() {
            continue;
        }
        let (ours, _) = drawing_replies(tables, &next, fewest);
        fewest = fewest.min(ours);
    }
    fewest
}

/// The fresh drawing replies `after` leaves the opponent, up to [`FRESH_CAP`].
pub fn fresh_drawing_replies(tables: &Tablebase, after: &Game) -> usize {
    drawing_replies(tables, after, FRESH_CAP).0
}
