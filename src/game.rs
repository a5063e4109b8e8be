//! A game: the start position, the moves played, and the repetition rules that need them.

use std::fmt;

use crate::movelist::MoveList;
use crate::mv::Move;
use crate::position::{IllegalMoveError, Position};
use crate::rules::{Repetition, Rules};
use crate::side::Outcome;

/// A position together with the history that led to it, under one rule variant.
///
/// The history starts with the position the game was set up from. Both repetition rules compare
/// the whole game state: board, side to move, goats in hand and goats captured
/// ([`Position::hash`]). So no state recurs while goats are in hand (every goat move places one),
/// and a capture never recreates an earlier state (captures only grow): repetition can only act
/// in the movement phase, between captures.
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

    /// Whether the current state occurred before (board, side to move, goats in hand and
    /// captured).
    pub fn is_repeated(&self) -> bool {
        let key = self.position().hash();
        self.positions
            .iter()
            .rev()
            .skip(2)
            .step_by(2)
            .any(|p| p.hash() == key)
    }

    /// Whether `child`, reached from the current position, recreates a state of the game.
    fn recreates_earlier(&self, child: &Position) -> bool {
        let key = child.hash();
        self.positions
            .iter()
            .rev()
            .skip(1)
            .step_by(2)
            .any(|p| p.hash() == key)
    }

    /// Whether the forbid rule applies to moves from the current position. With goats in hand
    /// no move can recreate a state, so looking is skipped.
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

    /// Plays `mv` if the board allows it ([`Position::check_board_move`]), even where this
    /// game's rules would not: the way to follow a game that an arbiter (a GUI, a referee) owns
    /// and may play under other settings. Says which of our settings the move breaks, if any.
    ///
    /// # Errors
    /// [`IllegalMoveError`] when the board does not allow the move; the game is unchanged.
    pub fn follow(&mut self, mv: Move) -> Result<Option<RuleConflict>, IllegalMoveError> {
        let position = *self.position();
        position.check_board_move(mv)?;
        let conflict = if self.check_move(mv).is_ok() {
            None
        } else if position.is_captures_reached(&self.rules) {
            Some(RuleConflict::GameOver(Outcome::CapturesReached))
        } else if self.is_repetition_draw() {
            Some(RuleConflict::GameOver(Outcome::Repetition))
        } else if position.check_move(mv, &self.rules).is_err() {
            Some(RuleConflict::ForcedCapture)
        } else {
            Some(RuleConflict::RepetitionForbidden)
        };
        self.play_unchecked(mv);
        Ok(conflict)
    }

    /// Follows `moves` in turn ([`Game::follow`]) up to the first one the board does not allow,
    /// which is not played: the one replay policy for a game an arbiter sends.
    pub fn follow_all(&mut self, moves: &[Move]) -> Followed {
        let mut followed = Followed::default();
        for (index, &mv) in moves.iter().enumerate() {
            match self.follow(mv) {
                Ok(None) => {}
                Ok(Some(conflict)) => followed.conflicts.push((index, mv, conflict)),
                Err(error) => {
                    followed.illegal = Some((index, error));
                    break;
                }
            }
        }
        followed
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

    /// Replaces the rule variant; the positions and moves stay as they are (a game that an
    /// arbiter owns keeps its moves whatever our settings say of them).
    pub fn set_rules(&mut self, rules: Rules) {
        self.rules = rules;
    }

    /// When our rules call the game over although the board still has a move (an arbiter
    /// playing other settings goes on): the current position as a new game, its history
    /// starting here, under our rules stretched just enough that play can go on (one capture
    /// more to win when the captures are reached). `None` when the game is not over under our
    /// rules, or the board has no move either.
    pub fn played_on(&self) -> Option<Game> {
        self.outcome()?;
        let position = *self.position();
        let mut rules = self.rules;
        if position.is_captures_reached(&rules) {
            rules.captures_to_win = (position.goats_captured() + 1).min(Rules::MAX_CAPTURES_TO_WIN);
        }
        let game = Game::new(position, rules);
        game.outcome().is_none().then_some(game)
    }

    /// Takes back the last move, if any.
    pub fn undo(&mut self) -> Option<Move> {
        let mv = self.moves.pop()?;
        self.positions.pop();
        Some(mv)
    }
}

/// One of our settings that a move the board allows breaks (see [`Game::follow`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum RuleConflict {
    /// The game was already over under our rules.
    GameOver(Outcome),
    /// A tiger stepped while it could capture, and `ForcedCapture` is on.
    ForcedCapture,
    /// The move recreates an earlier state, and `Repetition` is `forbid`.
    RepetitionForbidden,
}

impl fmt::Display for RuleConflict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RuleConflict::GameOver(Outcome::CapturesReached) => f.write_str(
                "the game was already over: the tigers had captured the goats CapturesToWin asks for",
            ),
            RuleConflict::GameOver(Outcome::Repetition) => {
                f.write_str("the game was already over: drawn by repetition under Repetition draw")
            }
            RuleConflict::GameOver(outcome) => write!(f, "the game was already over: {outcome}"),
            RuleConflict::ForcedCapture => {
                f.write_str("a tiger could capture and ForcedCapture is true")
            }
            RuleConflict::RepetitionForbidden => {
                f.write_str("it recreates an earlier position and Repetition is forbid")
            }
        }
    }
}

/// What [`Game::follow_all`] met: the moves that break our settings (index, move, setting) and
/// the first move the board does not allow (index and why), which ends the replay.
#[derive(Clone, Debug, Default)]
pub struct Followed {
    /// Moves played although our settings forbid them, with their index in the list.
    pub conflicts: Vec<(usize, Move, RuleConflict)>,
    /// The first move the board does not allow, with its index; it and those after it were
    /// not played.
    pub illegal: Option<(usize, IllegalMoveError)>,
}
