//! A game: the start position, the moves played, and the repetition rules that need them.

use crate::movelist::MoveList;
use crate::mv::Move;
use crate::position::{IllegalMoveError, Position};
use crate::rules::{Repetition, Rules};
use crate::side::Outcome;

/// A position together with the history that led to it, under one rule variant.
///
/// The history starts with the position the game was set up from. Positions are compared for
/// repetition by board and side to move ([`Position::board_key`]).
#[derive(Clone, Debug)]
pub struct Game {
    rules: Rules,
    positions: Vec<Position>,
    moves: Vec<Move>,
}

impl Game {
    /// A game set up from `start`.
    pub fn new(start: Position, rules: Rules) -> Game {
        Game {
            rules,
            positions: vec![start],
            moves: Vec::new(),
        }
    }

    /// A game from the start position.
    pub fn startpos(rules: Rules) -> Game {
        Game::new(Position::startpos(), rules)
    }

    /// The rule variant.
    pub const fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        self.positions.last().expect("a game always has a position")
    }

    /// The position the game was set up from.
    pub fn start_position(&self) -> &Position {
        &self.positions[0]
    }

    /// Every position so far, the start first and the current one last.
    pub fn positions(&self) -> &[Position] {
        &self.positions
    }

    /// The moves played so far.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Number of moves played (half-moves, plies).
    pub fn ply(&self) -> usize {
        self.moves.len()
    }

    /// Whether the current position occurred before (board and side to move).
    pub fn is_repeated(&self) -> bool {
        let key = self.position().board_key();
        self.positions
            .iter()
            .rev()
            .skip(2)
            .step_by(2)
            .any(|p| p.board_key() == key)
    }

    /// Whether `child`, reached from the current position, recreates a position of the game.
    fn recreates_earlier(&self, child: &Position) -> bool {
        let key = child.board_key();
        self.positions
            .iter()
            .rev()
            .skip(1)
            .step_by(2)
            .any(|p| p.board_key() == key)
    }

    /// Whether the forbid rule applies to moves from the current position.
    fn is_forbid_active(&self) -> bool {
        self.rules.repetition == Repetition::Forbid && !self.position().is_placement_phase()
    }

    /// Whether the game is drawn by repetition in the current position.
    pub fn is_repetition_draw(&self) -> bool {
        self.rules.repetition == Repetition::Draw && self.is_repeated()
    }

    /// The legal moves, repetition rules included; empty when the game is over.
    pub fn legal_moves(&self) -> MoveList {
        if self.is_repetition_draw() {
            return MoveList::new();
        }
        let position = *self.position();
        let mut moves = position.legal_moves(&self.rules);
        if self.is_forbid_active() {
            moves.retain(|mv| !self.recreates_earlier(&position.played(mv)));
        }
        moves
    }

    /// How the game ended, if it has.
    pub fn outcome(&self) -> Option<Outcome> {
        let position = self.position();
        if position.is_captures_reached(&self.rules) {
            Some(Outcome::CapturesReached)
        } else if self.is_repetition_draw() {
            Some(Outcome::Repetition)
        } else if self.legal_moves().is_empty() {
            Some(Outcome::blocked(position.side_to_move()))
        } else {
            None
        }
    }

    /// Checks that `mv` is legal now, repetition rules included.
    ///
    /// # Errors
    /// [`IllegalMoveError`] saying why not.
    pub fn check_move(&self, mv: Move) -> Result<(), IllegalMoveError> {
        let position = self.position();
        position.check_move(mv, &self.rules)?;
        let fail = |reason: &str| {
            Err(IllegalMoveError {
                mv,
                reason: reason.to_string(),
            })
        };
        if self.is_repetition_draw() {
            return fail("the game is over: drawn by repetition");
        }
        if self.is_forbid_active() && self.recreates_earlier(&position.played(mv)) {
            return fail("it recreates an earlier position, which the repetition rule forbids");
        }
        Ok(())
    }

    /// Plays `mv` if it is legal now.
    ///
    /// # Errors
    /// [`IllegalMoveError`] saying why not; the game is unchanged.
    pub fn play(&mut self, mv: Move) -> Result<(), IllegalMoveError> {
        self.check_move(mv)?;
        self.play_unchecked(mv);
        Ok(())
    }

    /// Plays `mv` without checking it; see [`Game::play`].
    pub fn play_unchecked(&mut self, mv: Move) {
        let child = self.position().played(mv);
        self.positions.push(child);
        self.moves.push(mv);
    }

    /// Takes back the last move, if any.
    pub fn undo(&mut self) -> Option<Move> {
        let mv = self.moves.pop()?;
        self.positions.pop();
        Some(mv)
    }
}
