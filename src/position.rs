//! A position: pieces, side to move, goats in hand and captured. Legal moves without history.

use crate::bitboard::Bitboard;
use crate::movelist::MoveList;
use crate::mv::Move;
use crate::rules::Rules;
use crate::side::{Outcome, Side};
use crate::square::Square;
use crate::tables::{shift, JUMPS, JUMP_FROM, NEIGHBOURS, STEP_FROM};
use crate::zobrist;
use std::fmt;

/// Number of goats in a game.
pub const TOTAL_GOATS: u8 = 20;
/// Number of tigers in a game.
pub const TOTAL_TIGERS: u32 = 4;

/// A position. Small and `Copy`: search copies it rather than undoing moves.
///
/// The repetition rules need the game history, which lives in [`crate::Game`]; everything here
/// ignores repetition.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Position {
    tigers: Bitboard,
    goats: Bitboard,
    side_to_move: Side,
    goats_in_hand: u8,
    goats_captured: u8,
    hash: u64,
}

/// Why pieces, side and counts do not make a position.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum PositionError {
    /// Not exactly 4 tigers.
    TigerCount(u32),
    /// Goats on board + in hand + captured is not 20.
    GoatCount {
        /// Goats on the board.
        on_board: u32,
        /// Goats in hand.
        in_hand: u8,
        /// Goats captured.
        captured: u8,
    },
    /// A point holds a tiger and a goat.
    Overlap(Square),
    /// Tigers to move before the first goat was placed.
    TigersBeforeFirstGoat,
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::TigerCount(n) => write!(f, "{n} tigers on the board: expected 4"),
            PositionError::GoatCount {
                on_board,
                in_hand,
                captured,
            } => write!(
                f,
                "goats on board ({on_board}) + in hand ({in_hand}) + captured ({captured}) is {}: expected 20",
                *on_board + u32::from(*in_hand) + u32::from(*captured)
            ),
            PositionError::Overlap(square) => write!(f, "{square} holds a tiger and a goat"),
            PositionError::TigersBeforeFirstGoat => {
                f.write_str("tigers to move with 20 goats in hand: goats move first")
            }
        }
    }
}

impl std::error::Error for PositionError {}

/// Why a move cannot be played in a position.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct IllegalMoveError {
    /// The move.
    pub mv: Move,
    /// Why it is illegal, lowercase.
    pub reason: String,
}

impl fmt::Display for IllegalMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "illegal move \"{}\": {}", self.mv, self.reason)
    }
}

impl std::error::Error for IllegalMoveError {}

impl Default for Position {
    fn default() -> Position {
        Position::startpos()
    }
}

impl Position {
    /// Tigers on the four corners, 20 goats in hand, goats to move.
    pub fn startpos() -> Position {
        let corners = Bitboard((1 << 0) | (1 << 4) | (1 << 20) | (1 << 24));
        Position::from_parts(corners, Bitboard::EMPTY, Side::Goats, TOTAL_GOATS, 0)
            .expect("start position is valid")
    }

    /// Builds a position, checking that it could occur in a game.
    ///
    /// # Errors
    /// [`PositionError`] when the pieces or counts are impossible.
    pub fn from_parts(
        tigers: Bitboard,
        goats: Bitboard,
        side_to_move: Side,
        goats_in_hand: u8,
        goats_captured: u8,
    ) -> Result<Position, PositionError> {
        if let Some(square) = (tigers & goats).first() {
            return Err(PositionError::Overlap(square));
        }
        if tigers.count() != TOTAL_TIGERS {
            return Err(PositionError::TigerCount(tigers.count()));
        }
        let on_board = goats.count();
        if on_board + u32::from(goats_in_hand) + u32::from(goats_captured) != u32::from(TOTAL_GOATS)
        {
            return Err(PositionError::GoatCount {
                on_board,
                in_hand: goats_in_hand,
                captured: goats_captured,
            });
        }
        if side_to_move == Side::Tigers && goats_in_hand == TOTAL_GOATS {
            return Err(PositionError::TigersBeforeFirstGoat);
        }
        let mut position = Position {
            tigers,
            goats,
            side_to_move,
            goats_in_hand,
            goats_captured,
            hash: 0,
        };
        position.hash = position.hash_from_scratch();
        Ok(position)
    }

    /// The Zobrist key computed from the pieces (equals [`Position::hash`], which is kept
    /// incrementally).
    pub fn hash_from_scratch(&self) -> u64 {
        let mut hash = zobrist::IN_HAND[self.goats_in_hand as usize]
            ^ zobrist::CAPTURED[self.goats_captured as usize];
        for square in self.tigers {
            hash ^= zobrist::TIGER[square.index()];
        }
        for square in self.goats {
            hash ^= zobrist::GOAT[square.index()];
        }
        if self.side_to_move == Side::Tigers {
            hash ^= zobrist::TIGERS_TO_MOVE;
        }
        hash
    }

    /// Points holding tigers.
    pub const fn tigers(&self) -> Bitboard {
        self.tigers
    }

    /// Points holding goats.
    pub const fn goats(&self) -> Bitboard {
        self.goats
    }

    /// Points holding nothing.
    pub fn empty(&self) -> Bitboard {
        !(self.tigers | self.goats)
    }

    /// The side to move.
    pub const fn side_to_move(&self) -> Side {
        self.side_to_move
    }

    /// Goats not yet placed.
    pub const fn goats_in_hand(&self) -> u8 {
        self.goats_in_hand
    }

    /// Goats captured so far.
    pub const fn goats_captured(&self) -> u8 {
        self.goats_captured
    }

    /// Whether goats are still to be placed.
    pub const fn is_placement_phase(&self) -> bool {
        self.goats_in_hand > 0
    }

    /// Zobrist key of the whole game state (pieces, side to move, goats in hand and captured):
    /// the key the transposition table and both repetition rules compare.
    pub const fn hash(&self) -> u64 {
        self.hash
    }

    /// Whether the tigers have captured enough goats to win.
    pub const fn is_captures_reached(&self, rules: &Rules) -> bool {
        self.goats_captured >= rules.captures_to_win
    }

    /// Whether the game is over in this position, ignoring repetition: the tigers have won by
    /// captures, or the side to move has no move.
    pub fn outcome(&self, rules: &Rules) -> Option<Outcome> {
        if self.is_captures_reached(rules) {
            Some(Outcome::CapturesReached)
        } else if self.count_moves(rules) == 0 {
            Some(Outcome::blocked(self.side_to_move))
        } else {
            None
        }
    }

    /// Steps all tigers could make, and captures, as counts.
    #[inline]
    fn tiger_move_counts(&self) -> (u32, u32) {
        let empty = self.empty();
        let mut steps = 0;
        let mut captures = 0;
        for dir in 0..8 {
            steps += (shift(self.tigers & STEP_FROM[dir], dir) & empty).count();
            let over = shift(self.tigers & JUMP_FROM[dir], dir) & self.goats;
            captures += (shift(over, dir) & empty).count();
        }
        (steps, captures)
    }

    /// Whether some tiger can capture.
    pub fn has_capture(&self) -> bool {
        let empty = self.empty();
        (0..8).any(|dir| {
            let over = shift(self.tigers & JUMP_FROM[dir], dir) & self.goats;
            (shift(over, dir) & empty).is_any()
        })
    }

    /// Whether one step of the side to move (to an adjacent empty point along a line, not a
    /// capture nor a placement) turns this position into `other`, forced capture aside: the
    /// test of a repetition without playing every move.
    #[inline]
    pub fn is_step_to(&self, other: &Position) -> bool {
        if other.side_to_move == self.side_to_move
            || other.goats_in_hand != self.goats_in_hand
            || other.goats_captured != self.goats_captured
        {
            return false;
        }
        // The mover's pieces before and after, and the other side's, which must not change.
        let (mine, after, theirs, unmoved) = match self.side_to_move {
            Side::Goats => (self.goats, other.goats, self.tigers, other.tigers),
            Side::Tigers => (self.tigers, other.tigers, self.goats, other.goats),
        };
        let moved = mine ^ after;
        if unmoved != theirs || moved.count() != 2 {
            return false;
        }
        match ((mine & moved).first(), (after & moved).first()) {
            (Some(from), Some(to)) => {
                // Goats step once none is in hand; tigers step at any time.
                (self.side_to_move == Side::Tigers || self.goats_in_hand == 0)
                    && !theirs.contains(to)
                    && NEIGHBOURS[from.index()].contains(to)
            }
            _ => false,
        }
    }

    /// The number of legal moves (ignoring repetition), without generating them.
    #[inline]
    pub fn count_moves(&self, rules: &Rules) -> u32 {
        if self.is_captures_reached(rules) {
            return 0;
        }
        let empty = self.empty();
        match self.side_to_move {
            Side::Goats if self.goats_in_hand > 0 => empty.count(),
            Side::Goats => (0..8)
                .map(|dir| (shift(self.goats & STEP_FROM[dir], dir) & empty).count())
                .sum(),
            Side::Tigers => {
                let (steps, captures) = self.tiger_move_counts();
                if rules.forced_capture && captures > 0 {
                    captures
                } else {
                    steps + captures
                }
            }
        }
    }

    /// The legal moves (ignoring repetition), captures first. Empty when the tigers have won by
    /// captures.
    pub fn legal_moves(&self, rules: &Rules) -> MoveList {
        let mut moves = MoveList::new();
        if self.is_captures_reached(rules) {
            return moves;
        }
        let empty = self.empty();
        match self.side_to_move {
            Side::Goats if self.goats_in_hand > 0 => {
                for to in empty {
                    moves.push(Move::Place { to });
                }
            }
            Side::Goats => {
                for from in self.goats {
                    for to in NEIGHBOURS[from.index()] & empty {
                        moves.push(Move::Step { from, to });
                    }
                }
            }
            Side::Tigers => {
                for from in self.tigers {
                    let jumps = &JUMPS[from.index()];
                    for i in 0..jumps.len as usize {
                        let (over, to) = (jumps.over[i], jumps.land[i]);
                        if self.goats.contains(over) && empty.contains(to) {
                            moves.push(Move::Jump { from, over, to });
                        }
                    }
                }
                if !rules.forced_capture || moves.is_empty() {
                    for from in self.tigers {
                        for to in NEIGHBOURS[from.index()] & empty {
                            moves.push(Move::Step { from, to });
                        }
                    }
                }
            }
        }
        moves
    }

    /// Checks that `mv` is legal here (ignoring repetition).
    ///
    /// # Errors
    /// [`IllegalMoveError`] saying why not.
    pub fn check_move(&self, mv: Move, rules: &Rules) -> Result<(), IllegalMoveError> {
        if self.is_captures_reached(rules) {
            return Err(IllegalMoveError {
                mv,
                reason: "the game is over: the tigers have won".into(),
            });
        }
        self.check_board_move(mv)?;
        if matches!(mv, Move::Step { .. })
            && self.side_to_move == Side::Tigers
            && rules.forced_capture
            && self.has_capture()
        {
            return Err(IllegalMoveError {
                mv,
                reason: "a capture is available and captures are forced".into(),
            });
        }
        Ok(())
    }

    /// Checks that the board allows `mv`, whatever the rule variant: a placement on an empty
    /// point with a goat in hand, a step of the side to move along a line to an adjacent empty
    /// point (goats only once none is in hand), or a tiger's jump over a goat to the empty point
    /// beyond. Forced capture, the number of captures that wins and repetition are not looked
    /// at: [`Position::check_move`] and [`crate::Game::check_move`] add them.
    ///
    /// # Errors
    /// [`IllegalMoveError`] saying why the board does not allow it.
    pub fn check_board_move(&self, mv: Move) -> Result<(), IllegalMoveError> {
        let fail = |reason: String| Err(IllegalMoveError { mv, reason });
        let empty = self.empty();
        let side = self.side_to_move;
        match mv {
            Move::Place { to } => {
                if side != Side::Goats {
                    return fail("tigers to move, and only goats are placed".into());
                }
                if self.goats_in_hand == 0 {
                    return fail("no goats left in hand".into());
                }
                if !empty.contains(to) {
                    return fail(format!("{to} is not empty"));
                }
            }
            Move::Step { from, to } => {
                let own = if side == Side::Goats {
                    self.goats
                } else {
                    self.tigers
                };
                if !own.contains(from) {
                    return fail(format!("no {} on {from}", piece_name(side)));
                }
                if side == Side::Goats && self.goats_in_hand > 0 {
                    return fail("goats cannot move until all 20 are placed".into());
                }
                if !NEIGHBOURS[from.index()].contains(to) {
                    return fail(format!("{from} and {to} are not joined by a line"));
                }
                if !empty.contains(to) {
                    return fail(format!("{to} is not empty"));
                }
            }
            Move::Jump { from, over, to } => {
                if side != Side::Tigers {
                    return fail("only tigers capture".into());
                }
                if !self.tigers.contains(from) {
                    return fail(format!("no tiger on {from}"));
                }
                if Move::between(from, to) != Some(mv) {
                    return fail(format!("{from} to {to} is not a jump over {over}"));
                }
                if !self.goats.contains(over) {
                    return fail(format!("no goat on {over} to capture"));
                }
                if !empty.contains(to) {
                    return fail(format!("{to} is not empty"));
                }
            }
        }
        Ok(())
    }

    /// Whether `mv` is legal here (ignoring repetition).
    pub fn is_legal(&self, mv: Move, rules: &Rules) -> bool {
        self.check_move(mv, rules).is_ok()
    }

    /// Plays `mv`, which must be legal here; see [`Position::try_play`] for checked play.
    /// An illegal move leaves the position in an unspecified (but memory-safe) state.
    #[inline]
    pub fn play_unchecked(&mut self, mv: Move) {
        match mv {
            Move::Place { to } => {
                self.goats = self.goats.with(to);
                self.hash ^= zobrist::GOAT[to.index()]
                    ^ zobrist::IN_HAND[self.goats_in_hand as usize]
                    ^ zobrist::IN_HAND[self.goats_in_hand as usize - 1];
                self.goats_in_hand -= 1;
            }
            Move::Step { from, to } => {
                let moved = Bitboard::from_square(from) | Bitboard::from_square(to);
                if self.side_to_move == Side::Goats {
                    self.goats ^= moved;
                    self.hash ^= zobrist::GOAT[from.index()] ^ zobrist::GOAT[to.index()];
                } else {
                    self.tigers ^= moved;
                    self.hash ^= zobrist::TIGER[from.index()] ^ zobrist::TIGER[to.index()];
                }
            }
            Move::Jump { from, over, to } => {
                self.tigers ^= Bitboard::from_square(from) | Bitboard::from_square(to);
                self.goats = self.goats.without(over);
                self.hash ^= zobrist::TIGER[from.index()]
                    ^ zobrist::TIGER[to.index()]
                    ^ zobrist::GOAT[over.index()]
                    ^ zobrist::CAPTURED[self.goats_captured as usize]
                    ^ zobrist::CAPTURED[self.goats_captured as usize + 1];
                self.goats_captured += 1;
            }
        }
        self.side_to_move = self.side_to_move.opposite();
        self.hash ^= zobrist::TIGERS_TO_MOVE;
    }

    /// The position after `mv` (unchecked; see [`Position::play_unchecked`]).
    #[inline]
    pub fn played(&self, mv: Move) -> Position {
        let mut child = *self;
        child.play_unchecked(mv);
        child
    }

    /// The position after `mv`, if it is legal here (ignoring repetition).
    ///
    /// # Errors
    /// [`IllegalMoveError`] saying why the move is illegal.
    pub fn try_play(&self, mv: Move, rules: &Rules) -> Result<Position, IllegalMoveError> {
        self.check_move(mv, rules)?;
        Ok(self.played(mv))
    }

    /// The piece on `square`: `Some(Side::Tigers)`, `Some(Side::Goats)` or `None`.
    pub fn piece_at(&self, square: Square) -> Option<Side> {
        if self.tigers.contains(square) {
            Some(Side::Tigers)
        } else if self.goats.contains(square) {
            Some(Side::Goats)
        } else {
            None
        }
    }

    /// Sum of placements over all tiger moves when the tigers move and the goats answer by
    /// placing; `None` where this shortcut does not apply. Exact: a step leaves the `E` empty
    /// points empty, a capture frees one more (or wins, leaving no move).
    pub(crate) fn count_tiger_moves_then_placements(&self, rules: &Rules) -> Option<u64> {
        if self.side_to_move != Side::Tigers
            || self.goats_in_hand == 0
            || self.is_captures_reached(rules)
        {
            return None;
        }
        let (mut steps, captures) = self.tiger_move_counts();
        if rules.forced_capture && captures > 0 {
            steps = 0;
        }
        let e = u64::from(self.empty().count());
        let after_capture = if self.goats_captured + 1 >= rules.captures_to_win {
            0
        } else {
            e + 1
        };
        Some(u64::from(steps) * e + u64::from(captures) * after_capture)
    }

    /// Sum of moves over all placements when goats to move can place and the tigers answer;
    /// `None` where this shortcut does not apply. Exact: placing on point `e` removes the tiger
    /// steps onto `e` and the captures landing on `e`, and adds the captures over `e`; summed over
    /// all empty points this is `(E - 1) * (S + C) + P`, with `P` the tiger-empty-empty lines.
    pub(crate) fn count_placements_then_tiger_moves(&self, rules: &Rules) -> Option<u64> {
        if self.side_to_move != Side::Goats
            || self.goats_in_hand == 0
            || rules.forced_capture
            || self.is_captures_reached(rules)
        {
            return None;
        }
        let empty = self.empty();
        let (steps, captures) = self.tiger_move_counts();
        let mut potential = 0;
        for (dir, &jump_from) in JUMP_FROM.iter().enumerate() {
            let next = shift(self.tigers & jump_from, dir) & empty;
            potential += (shift(next, dir) & empty).count();
        }
        let e = u64::from(empty.count());
        Some((e - 1) * u64::from(steps + captures) + u64::from(potential))
    }
}

fn piece_name(side: Side) -> &'static str {
    match side {
        Side::Goats => "goat",
        Side::Tigers => "tiger",
    }
}
