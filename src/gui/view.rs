//! The game as the page sees it: plain data computed from [`Game`] on the server, serialized
//! to JSON. The page draws it and never computes anything about the rules itself.

use crate::referee::outcome::{GameResult, Termination};
use crate::{Game, Move, Position, Side};
use serde::Serialize;

/// One point's content in [`BoardView::board`]: `T`, `G` or `.`.
fn point_char(position: &Position, index: u8) -> char {
    match position.piece_at(crate::Square::new(index)) {
        Some(Side::Tigers) => 'T',
        Some(Side::Goats) => 'G',
        None => '.',
    }
}

/// A position for drawing.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BoardView {
    /// 25 characters `T`, `G` or `.`, in point index order `a1, b1, .., e1, a2, .., e5`.
    pub board: String,
    /// `goats` or `tigers`.
    pub side: String,
    /// Goats still to be placed.
    pub in_hand: u8,
    /// Goats captured so far.
    pub captured: u8,
    /// The position string (notation.rs).
    pub fen: String,
}

impl BoardView {
    /// The view of `position`.
    pub fn of(position: &Position) -> BoardView {
        BoardView {
            board: (0..25).map(|i| point_char(position, i)).collect(),
            side: position.side_to_move().to_string(),
            in_hand: position.goats_in_hand(),
            captured: position.goats_captured(),
            fen: position.to_string(),
        }
    }
}

/// A move for drawing: its text and points (`from` and `over` absent for placements and steps).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MoveView {
    /// Move text: `c3`, `e1d2`, `e1c3`.
    pub text: String,
    /// Origin point, if not a placement.
    pub from: Option<String>,
    /// Target point.
    pub to: String,
    /// The captured goat's point, for jumps.
    pub over: Option<String>,
}

impl MoveView {
    /// The view of `mv`.
    pub fn of(mv: Move) -> MoveView {
        MoveView {
            text: mv.to_string(),
            from: mv.from().map(|s| s.to_string()),
            to: mv.to().to_string(),
            over: match mv {
                Move::Jump { over, .. } => Some(over.to_string()),
                _ => None,
            },
        }
    }
}

/// How a game ended, for the banner.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct EndView {
    /// `1-0` (goats win), `0-1` (tigers win), `1/2-1/2`; `*` when unfinished.
    pub result: String,
    /// The referee's termination: `normal`, `time forfeit`, `illegal move`, ...
    pub termination: String,
    /// The reason in words: `Goats win: tigers blocked`.
    pub reason: String,
}

impl EndView {
    /// From a result, termination and reason.
    pub fn new(result: GameResult, termination: Termination, reason: &str) -> EndView {
        EndView {
            result: result.to_string(),
            termination: termination.to_string(),
            reason: reason.to_string(),
        }
    }
}

/// The current view of a game at ply `cursor` (the position shown), with what may be played.
#[derive(Clone, Debug, Serialize)]
pub struct GameView {
    /// The position shown.
    pub position: BoardView,
    /// The position the game was set up from.
    pub start: String,
    /// Every move of the game, as text.
    pub moves: Vec<String>,
    /// The ply shown (0 = the start position).
    pub ply: usize,
    /// The move that led to the position shown.
    pub last: Option<MoveView>,
    /// The moves the user may play in the position shown (empty when it is not their turn).
    pub legal: Vec<MoveView>,
    /// Why the game in the position shown is over by the rules, if it is.
    pub outcome: Option<String>,
}

impl GameView {
    /// The view of `game` at ply `cursor` (clamped to the game), offering `legal` moves to the
    /// user only when `user_may_move`.
    pub fn of(game: &Game, cursor: usize, user_may_move: bool) -> GameView {
        let at = prefix(game, cursor);
        GameView {
            position: BoardView::of(at.position()),
            start: game.start_position().to_string(),
            moves: game.moves().iter().map(Move::to_string).collect(),
            ply: at.ply(),
            last: at.moves().last().map(|&mv| MoveView::of(mv)),
            legal: if user_may_move {
                at.legal_moves()
                    .iter()
                    .map(|&mv| MoveView::of(mv))
                    .collect()
            } else {
                Vec::new()
            },
            outcome: at.outcome().map(|o| o.to_string()),
        }
    }
}

/// The game up to ply `cursor` (the whole game when `cursor` is past its end).
pub fn prefix(game: &Game, cursor: usize) -> Game {
    let mut at = game.clone();
    while at.ply() > cursor {
        at.undo();
    }
    at
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Rules;

    #[test]
    fn views_show_points_in_index_order_and_the_jumped_point() {
        let view = BoardView::of(&Position::startpos());
        assert_eq!(view.board, "T...T...............T...T");
        assert_eq!((view.side.as_str(), view.in_hand), ("goats", 20));
        let jump = MoveView::of("e1c3".parse().unwrap());
        assert_eq!(jump.over.as_deref(), Some("d2"));
        let mut game = Game::startpos(Rules::default());
        game.play("c3".parse().unwrap()).unwrap();
        let view = GameView::of(&game, 0, true);
        assert_eq!((view.ply, view.legal.len(), view.moves.len()), (0, 21, 1));
        assert!(GameView::of(&game, 5, false).legal.is_empty());
    }
}
