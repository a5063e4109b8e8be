//! The board API in the shape of python-chess: `Rules`, `Side`, `Move`, `Outcome`, `Board`.

use crate::encoding::{self, NUM_ACTIONS, OBSERVATION_LEN};
use crate::shield::{shielded, value_error};
use baghchal::protocol::command::{parse_int, MAX_PERFT_DEPTH};
use baghchal::tablebase::symmetry::SYMMETRIES;
use baghchal::{Game, Position, Repetition};
use numpy::{PyArray1, PyArrayMethods};
use pyo3::exceptions::PyIndexError;
use pyo3::prelude::*;
use pyo3::types::PyType;

/// A rule variant: where the rule sources disagree, each choice is an option.
#[pyclass(module = "baghchal_engine", frozen, eq, hash, from_py_object)]
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Rules {
    pub inner: baghchal::Rules,
}

#[pymethods]
impl Rules {
    #[new]
    #[pyo3(signature = (forced_capture=false, captures_to_win=5, repetition="forbid"))]
    fn new(forced_capture: bool, captures_to_win: i64, repetition: &str) -> PyResult<Rules> {
        let repetition: Repetition = repetition.parse().map_err(value_error)?;
        let inner = baghchal::Rules {
            forced_capture,
            captures_to_win: u8::try_from(captures_to_win).unwrap_or(0),
            repetition,
        };
        inner.validate().map_err(|_| {
            value_error(format!(
                "invalid captures to win {captures_to_win}: expected {}..{}",
                baghchal::Rules::MIN_CAPTURES_TO_WIN,
                baghchal::Rules::MAX_CAPTURES_TO_WIN
            ))
        })?;
        Ok(Rules { inner })
    }

    /// Parses `ForcedCapture=false CapturesToWin=5 Repetition=forbid` (missing names keep
    /// their defaults).
    #[classmethod]
    fn from_str(_cls: &Bound<'_, PyType>, text: &str) -> PyResult<Rules> {
        Ok(Rules {
            inner: text.parse().map_err(value_error)?,
        })
    }

    #[getter]
    fn forced_capture(&self) -> bool {
        self.inner.forced_capture
    }

    #[getter]
    fn captures_to_win(&self) -> u8 {
        self.inner.captures_to_win
    }

    #[getter]
    fn repetition(&self) -> String {
        self.inner.repetition.to_string()
    }

    fn __str__(&self) -> String {
        self.inner.to_string()
    }

    fn __repr__(&self) -> String {
        format!(
            "Rules(forced_capture={}, captures_to_win={}, repetition='{}')",
            if self.inner.forced_capture {
                "True"
            } else {
                "False"
            },
            self.inner.captures_to_win,
            self.inner.repetition
        )
    }
}

/// Goats (move first) or tigers (upper case: Python's convention for enum members).
#[allow(clippy::upper_case_acronyms)]
#[pyclass(module = "baghchal_engine", eq, eq_int, frozen, hash, from_py_object)]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub enum Side {
    GOATS = 0,
    TIGERS = 1,
}

impl From<baghchal::Side> for Side {
    fn from(side: baghchal::Side) -> Side {
        match side {
            baghchal::Side::Goats => Side::GOATS,
            baghchal::Side::Tigers => Side::TIGERS,
        }
    }
}

#[pymethods]
impl Side {
    fn __str__(&self) -> &'static str {
        match self {
            Side::GOATS => "goats",
            Side::TIGERS => "tigers",
        }
    }

    /// The other side.
    fn opposite(&self) -> Side {
        match self {
            Side::GOATS => Side::TIGERS,
            Side::TIGERS => Side::GOATS,
        }
    }
}

/// A move: a placement (`c3`), a step (`e1d2`) or a jump (`e1c3`).
#[pyclass(module = "baghchal_engine", frozen, eq, hash, from_py_object)]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move {
    pub inner: baghchal::Move,
}

#[pymethods]
impl Move {
    /// Parses move text (case-insensitive); whether it is legal is the board's business.
    #[new]
    fn new(text: &str) -> PyResult<Move> {
        Ok(Move {
            inner: text.parse().map_err(value_error)?,
        })
    }

    /// The move an action of the encoding names (`ValueError` for an action naming none).
    #[staticmethod]
    fn from_action(action: i64) -> PyResult<Move> {
        usize::try_from(action)
            .ok()
            .and_then(encoding::decode)
            .map(|inner| Move { inner })
            .ok_or_else(|| {
                value_error(format!(
                    "invalid action {action}: not a move of the {NUM_ACTIONS}-action encoding"
                ))
            })
    }

    /// This move's action in the encoding (0..425).
    fn action(&self) -> usize {
        encoding::encode(self.inner)
    }

    /// `"place"`, `"step"` or `"jump"`.
    #[getter]
    fn kind(&self) -> &'static str {
        match self.inner {
            baghchal::Move::Place { .. } => "place",
            baghchal::Move::Step { .. } => "step",
            baghchal::Move::Jump { .. } => "jump",
        }
    }

    /// The origin point (`None` for a placement).
    #[getter(from_square)]
    fn origin(&self) -> Option<String> {
        self.inner.from().map(|s| s.to_string())
    }

    /// The target point.
    #[getter(to_square)]
    fn target(&self) -> String {
        self.inner.to().to_string()
    }

    /// The captured goat's point, for a jump.
    #[getter]
    fn captured_square(&self) -> Option<String> {
        match self.inner {
            baghchal::Move::Jump { over, .. } => Some(over.to_string()),
            _ => None,
        }
    }

    fn is_capture(&self) -> bool {
        self.inner.is_capture()
    }

    fn __str__(&self) -> String {
        self.inner.to_string()
    }

    fn __repr__(&self) -> String {
        format!("Move('{}')", self.inner)
    }
}

/// How a game ended.
#[pyclass(module = "baghchal_engine", frozen, eq, from_py_object)]
#[derive(Clone, PartialEq, Eq)]
pub struct Outcome {
    inner: baghchal::Outcome,
}

impl From<baghchal::Outcome> for Outcome {
    fn from(inner: baghchal::Outcome) -> Outcome {
        Outcome { inner }
    }
}

#[pymethods]
impl Outcome {
    /// The winner, `None` for a draw.
    #[getter]
    fn winner(&self) -> Option<Side> {
        self.inner.winner().map(Side::from)
    }

    /// `"captures"`, `"tigers_blocked"`, `"goats_blocked"` or `"repetition"`.
    #[getter]
    fn termination(&self) -> &'static str {
        match self.inner {
            baghchal::Outcome::CapturesReached => "captures",
            baghchal::Outcome::TigersBlocked => "tigers_blocked",
            baghchal::Outcome::GoatsBlocked => "goats_blocked",
            baghchal::Outcome::Repetition => "repetition",
        }
    }

    /// `1-0` goats won, `0-1` tigers won, `1/2-1/2` draw.
    fn result(&self) -> &'static str {
        match self.inner.winner() {
            Some(baghchal::Side::Goats) => "1-0",
            Some(baghchal::Side::Tigers) => "0-1",
            None => "1/2-1/2",
        }
    }

    fn __str__(&self) -> String {
        self.inner.to_string()
    }

    fn __repr__(&self) -> String {
        format!("Outcome('{}')", self.inner)
    }
}

/// A game: the position it started from, the moves played and the rules.
#[pyclass(module = "baghchal_engine", from_py_object)]
#[derive(Clone)]
pub struct Board {
    pub game: Game,
}

impl Board {
    pub fn legal(&self) -> Vec<baghchal::Move> {
        self.game.legal_moves().to_vec()
    }

    fn checked_move(&self, mv: baghchal::Move) -> PyResult<baghchal::Move> {
        self.game.check_move(mv).map_err(value_error)?;
        Ok(mv)
    }
}

#[pymethods]
impl Board {
    /// A board set up from a position string (default: the start position) under `rules`
    /// (default: `Rules()`).
    #[new]
    #[pyo3(signature = (position=None, rules=None))]
    fn new(position: Option<&str>, rules: Option<Rules>) -> PyResult<Board> {
        let start = match position {
            Some(text) => text.parse::<Position>().map_err(value_error)?,
            None => Position::startpos(),
        };
        Ok(Board {
            game: Game::new(
                start,
                rules.map_or_else(baghchal::Rules::default, |r| r.inner),
            ),
        })
    }

    #[getter]
    fn rules(&self) -> Rules {
        Rules {
            inner: *self.game.rules(),
        }
    }

    /// The legal moves, repetition rules included; empty when the game is over.
    #[getter]
    fn legal_moves(&self) -> Vec<Move> {
        self.legal()
            .into_iter()
            .map(|inner| Move { inner })
            .collect()
    }

    /// The moves played so far.
    #[getter]
    fn move_stack(&self) -> Vec<Move> {
        self.game
            .moves()
            .iter()
            .map(|&inner| Move { inner })
            .collect()
    }

    /// The position string the board was set up from.
    #[getter]
    fn start_position(&self) -> String {
        self.game.start_position().to_string()
    }

    /// Plays a legal move (`ValueError` saying why when it is not).
    fn push(&mut self, mv: Move) -> PyResult<()> {
        let mv = self.checked_move(mv.inner)?;
        self.game.play_unchecked(mv);
        Ok(())
    }

    /// The legal move that `text` names (`ValueError` when it is malformed or illegal).
    fn parse_move(&self, text: &str) -> PyResult<Move> {
        let mv: baghchal::Move = text.parse().map_err(value_error)?;
        Ok(Move {
            inner: self.checked_move(mv)?,
        })
    }

    /// Parses and plays a move; returns it.
    fn push_str(&mut self, text: &str) -> PyResult<Move> {
        let mv = self.parse_move(text)?;
        self.game.play_unchecked(mv.inner);
        Ok(mv)
    }

    /// Takes back the last move (`IndexError` when none was played).
    fn pop(&mut self) -> PyResult<Move> {
        self.game
            .undo()
            .map(|inner| Move { inner })
            .ok_or_else(|| PyIndexError::new_err("pop from a board with no moves played"))
    }

    /// Whether `move` is legal now.
    fn is_legal(&self, mv: Move) -> bool {
        self.game.check_move(mv.inner).is_ok()
    }

    /// The position string of the current position.
    fn position(&self) -> String {
        self.game.position().to_string()
    }

    /// The side to move.
    #[getter]
    fn turn(&self) -> Side {
        self.game.position().side_to_move().into()
    }

    #[getter]
    fn goats_in_hand(&self) -> u8 {
        self.game.position().goats_in_hand()
    }

    /// Goats captured so far.
    #[getter]
    fn captured(&self) -> u8 {
        self.game.position().goats_captured()
    }

    /// Half-moves played.
    #[getter]
    fn ply(&self) -> usize {
        self.game.ply()
    }

    /// What is on a point (`"a1"`..`"e5"`): a side, or `None` when empty.
    fn piece_at(&self, square: &str) -> PyResult<Option<Side>> {
        let square: baghchal::Square = square.parse().map_err(value_error)?;
        Ok(self.game.position().piece_at(square).map(Side::from))
    }

    /// The tigers and goats as bit sets (bit `rank * 5 + file`).
    fn bitboards(&self) -> (u32, u32) {
        let position = self.game.position();
        (position.tigers().0, position.goats().0)
    }

    fn is_game_over(&self) -> bool {
        self.game.outcome().is_some()
    }

    /// How the game ended, `None` while it goes on.
    fn outcome(&self) -> Option<Outcome> {
        self.game.outcome().map(Outcome::from)
    }

    /// Whether the current state (board, side, in hand, captured) occurred before in the game.
    fn is_repetition(&self) -> bool {
        self.game.is_repeated()
    }

    fn copy(&self) -> Board {
        self.clone()
    }

    fn __copy__(&self) -> Board {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Board {
        self.clone()
    }

    /// The board (start position and every move) under symmetry `g` in 0..8: bit 0 mirrors
    /// the files, bit 1 the ranks, bit 2 swaps files and ranks; 0 is the identity.
    fn transform(&self, g: i64) -> PyResult<Board> {
        let g = symmetry_index(g)?;
        Ok(Board {
            game: encoding::transform_game(&self.game, g),
        })
    }

    /// Leaf nodes of the legal move tree `depth` plies deep (1..10), repetition rules
    /// included, as `baghchal perft` and `go perft` count them.
    fn perft(&self, py: Python<'_>, depth: i64) -> PyResult<u64> {
        let depth = parse_int(
            "perft depth",
            &depth.to_string(),
            1,
            i64::from(MAX_PERFT_DEPTH),
        )
        .map_err(value_error)? as u32;
        let mut game = self.game.clone();
        crate::shield::released(py, move || Ok(baghchal::perft(&mut game, depth)))
    }

    /// The legal-action mask (bool, 425 entries).
    fn action_mask<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
        let mut mask = vec![false; NUM_ACTIONS];
        encoding::write_mask(&self.legal(), &mut mask);
        PyArray1::from_vec(py, mask)
    }

    /// The observation planes (float32, shape (8, 5, 5)).
    fn observation<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        shielded(|| {
            let mut planes = vec![0.0f32; OBSERVATION_LEN];
            encoding::write_observation(&self.game, &self.legal(), &mut planes);
            Ok(PyArray1::from_vec(py, planes)
                .reshape([encoding::NUM_PLANES, 5, 5])?
                .into_any())
        })
    }

    /// The game as a 5x5 diagram.
    fn __str__(&self) -> String {
        self.game.position().diagram()
    }

    fn __repr__(&self) -> String {
        format!("Board('{}')", self.game.position())
    }
}

/// A symmetry index checked to be in 0..8.
pub fn symmetry_index(g: i64) -> PyResult<usize> {
    usize::try_from(g)
        .ok()
        .filter(|&g| g < SYMMETRIES)
        .ok_or_else(|| value_error(format!("invalid symmetry {g}: expected 0..7")))
}
