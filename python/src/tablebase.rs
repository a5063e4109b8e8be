//! The oracle: the tables opened from Python, probes one by one or over numpy arrays, and
//! generation with progress.

use crate::board::{Board, Move, Rules};
use crate::shield::{released, value_error};
use baghchal::tablebase::forbid::history::ForbidJudge;
use baghchal::tablebase::forbid::tables::ForbidTables;
use baghchal::tablebase::placement::generate::generate_placement;
use baghchal::tablebase::solve::generate_tables;
use baghchal::tablebase::{TableRules, TbValue, Wdl};
use baghchal::{Bitboard, Position, Repetition, Side};
use numpy::{PyArray1, PyReadonlyArray1};
use pyo3::prelude::*;
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// A value for the side to move: `wdl` is `"win"`, `"draw"` or `"loss"`; `distance` the plies
/// to the end with best play (fastest win, slowest loss), `None` for draws and for placement
/// positions (stored without distance).
#[pyclass(module = "baghchal_engine", frozen, eq, hash, from_py_object)]
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Value {
    #[pyo3(get)]
    wdl: String,
    #[pyo3(get)]
    distance: Option<u16>,
}

impl From<TbValue> for Value {
    fn from(value: TbValue) -> Value {
        Value {
            wdl: value.wdl.to_string(),
            distance: value.plies_to_end,
        }
    }
}

#[pymethods]
impl Value {
    fn __str__(&self) -> String {
        match self.distance {
            Some(d) => format!("{} {d}", self.wdl),
            None => self.wdl.clone(),
        }
    }

    fn __repr__(&self) -> String {
        format!(
            "Value(wdl='{}', distance={})",
            self.wdl,
            self.distance.map_or("None".to_string(), |d| d.to_string())
        )
    }
}

/// States searched to find a table-draw component for `probe_forbid` (the referee's budget).
const FORBID_BUDGET: usize = 200_000;

/// Tables made by `baghchal tb gen` (or `generate_tablebase`), memory-mapped, with the values
/// under forbid beside them when `baghchal tb forbid solve` (and `start`) made them.
#[pyclass(module = "baghchal_engine", frozen)]
pub struct Tablebase {
    tables: baghchal::tablebase::Tablebase,
    forbid: Option<ForbidTables>,
    corrupt: Vec<String>,
}

impl Tablebase {
    /// Checks that a board plays under the rules the tables were made for.
    fn check_rules(&self, board: &Board) -> PyResult<()> {
        let ours = self.tables.rules();
        let theirs = TableRules::of(board.game.rules());
        if ours == theirs {
            Ok(())
        } else {
            Err(value_error(format!(
                "the tables are for {ours}, the board plays {theirs}"
            )))
        }
    }
}

#[pymethods]
impl Tablebase {
    /// Opens the tables in `directory` for `rules` (default: the rules recorded in the files).
    /// Damaged placement layers are reported in `corrupt_layers` and never used.
    #[new]
    #[pyo3(signature = (directory, rules=None))]
    fn new(py: Python<'_>, directory: PathBuf, rules: Option<Rules>) -> PyResult<Tablebase> {
        released(py, move || {
            let tables = match rules {
                Some(rules) => {
                    baghchal::tablebase::Tablebase::open(&directory, TableRules::of(&rules.inner))
                }
                None => baghchal::tablebase::Tablebase::open_recorded(&directory),
            }
            .map_err(|e| e.to_string())?;
            let mut corrupt: Vec<String> = tables
                .placement()
                .map(|p| p.wait_checked())
                .unwrap_or_default()
                .into_iter()
                .map(|path| path.display().to_string())
                .collect();
            let (forbid, errors) = ForbidTables::open(&directory, &tables);
            corrupt.extend(errors.iter().map(ToString::to_string));
            if let Some((_, placement)) = forbid.as_ref().and_then(ForbidTables::placement) {
                let damaged = placement.wait_checked().into_iter();
                corrupt.extend(damaged.map(|path| path.display().to_string()));
            }
            Ok(Tablebase {
                tables,
                forbid,
                corrupt,
            })
        })
    }

    /// The rules the tables were made for (repetition `forbid`; the stored values do not
    /// depend on it: cycles are draws).
    #[getter]
    fn rules(&self) -> Rules {
        Rules {
            inner: self.tables.rules().with_repetition(Default::default()),
        }
    }

    /// Whether placement layers (positions with goats in hand) are present.
    #[getter]
    fn has_placement(&self) -> bool {
        self.tables.placement().is_some()
    }

    /// Files found damaged or unusable (not used): placement layers by path; forbid files and
    /// placement values under forbid by the error that names them.
    #[getter]
    fn corrupt_layers(&self) -> Vec<String> {
        self.corrupt.clone()
    }

    /// Whether values under forbid (`baghchal tb forbid solve DIR`) are present.
    #[getter]
    fn has_forbid(&self) -> bool {
        self.forbid.is_some()
    }

    /// The winner of the board's game under `Repetition forbid`, proven for its history (the
    /// states since the last placement or capture, see docs/forbid.md): `"goats"` or
    /// `"tigers"` (a finished game's winner), `"unknown"` where no value is proven, `None`
    /// without forbid values.
    /// `ValueError` for a board that plays `Repetition draw`.
    fn probe_forbid(&self, py: Python<'_>, board: &Board) -> PyResult<Option<String>> {
        self.check_rules(board)?;
        if board.game.rules().repetition != Repetition::Forbid {
            return Err(value_error(
                "the board plays Repetition draw: values under forbid are for Repetition forbid",
            ));
        }
        let Some(forbid) = &self.forbid else {
            return Ok(None);
        };
        let (tables, game) = (&self.tables, &board.game);
        released(py, move || {
            let winner = ForbidJudge::new(tables, forbid).winner(game, FORBID_BUDGET);
            Ok(Some(
                winner.map_or("unknown".to_string(), |side| side.to_string()),
            ))
        })
    }

    /// The value of the board's position for the side to move, `None` when not covered. The
    /// tables see the position only: a repetition in the game's history is not considered.
    fn probe(&self, board: &Board) -> PyResult<Option<Value>> {
        self.check_rules(board)?;
        Ok(self.tables.probe(board.game.position()).map(Value::from))
    }

    /// The legal moves that keep the position's value, best first (fastest win, slowest
    /// loss); empty when not covered.
    fn best_moves(&self, board: &Board) -> PyResult<Vec<Move>> {
        self.check_rules(board)?;
        Ok(self
            .tables
            .best_moves(board.game.position())
            .into_iter()
            .map(|inner| Move { inner })
            .collect())
    }

    /// As `best_moves`, each with the value it leaves for the mover.
    fn best_moves_with_values(&self, board: &Board) -> PyResult<Vec<(Move, Value)>> {
        self.check_rules(board)?;
        Ok(self
            .tables
            .best_moves_with_values(board.game.position())
            .into_iter()
            .map(|(inner, value)| (Move { inner }, value.into()))
            .collect())
    }

    /// Probes many positions given as arrays (as `VecGame.positions()` returns them): tigers
    /// and goats bit sets, side to move (0 goats, 1 tigers), goats in hand, captured. Returns
    /// (wdl, distance): wdl int8 1 win, 0 draw, -1 loss, -2 not covered; distance int16, -1
    /// when unknown. `ValueError` naming the first entry that is not a position.
    #[allow(clippy::type_complexity)]
    fn probe_many<'py>(
        &self,
        py: Python<'py>,
        tigers: PyReadonlyArray1<'py, u32>,
        goats: PyReadonlyArray1<'py, u32>,
        side: PyReadonlyArray1<'py, u8>,
        goats_in_hand: PyReadonlyArray1<'py, u8>,
        captured: PyReadonlyArray1<'py, u8>,
    ) -> PyResult<(Bound<'py, PyArray1<i8>>, Bound<'py, PyArray1<i16>>)> {
        let columns = [
            tigers.len()?,
            goats.len()?,
            side.len()?,
            goats_in_hand.len()?,
            captured.len()?,
        ];
        let n = columns[0];
        if columns.iter().any(|&len| len != n) {
            return Err(value_error(format!(
                "arrays of different lengths {columns:?}"
            )));
        }
        let (tigers, goats, side, in_hand, captured) = (
            tigers.as_slice().map_err(value_error)?,
            goats.as_slice().map_err(value_error)?,
            side.as_slice().map_err(value_error)?,
            goats_in_hand.as_slice().map_err(value_error)?,
            captured.as_slice().map_err(value_error)?,
        );
        let tables = &self.tables;
        let (wdl, distance) = released(py, move || {
            let mut wdl = Vec::with_capacity(n);
            let mut distance = Vec::with_capacity(n);
            for i in 0..n {
                let bad = |e: String| format!("entry {i}: {e}");
                if tigers[i] >> 25 != 0 || goats[i] >> 25 != 0 {
                    return Err(bad("bit sets must use bits 0..24 only".to_string()));
                }
                let side = match side[i] {
                    0 => Side::Goats,
                    1 => Side::Tigers,
                    other => {
                        return Err(bad(format!(
                            "side {other}: expected 0 (goats) or 1 (tigers)"
                        )))
                    }
                };
                let position = Position::from_parts(
                    Bitboard(tigers[i]),
                    Bitboard(goats[i]),
                    side,
                    in_hand[i],
                    captured[i],
                )
                .map_err(|e| bad(e.to_string()))?;
                let value = tables.probe(&position);
                wdl.push(match value.map(|v| v.wdl) {
                    Some(Wdl::Win) => 1,
                    Some(Wdl::Draw) => 0,
                    Some(Wdl::Loss) => -1,
                    None => -2,
                });
                distance.push(value.and_then(|v| v.plies_to_end).map_or(-1, |d| d as i16));
            }
            Ok((wdl, distance))
        })?;
        Ok((
            PyArray1::from_vec(py, wdl),
            PyArray1::from_vec(py, distance),
        ))
    }
}

/// Generates (or resumes) tables into `directory`; `baghchal_engine.generate_tablebase` (in
/// `tables.py`) wraps it with a default progress display.
#[pyfunction]
#[pyo3(signature = (directory, rules=None, placement=false, max_in_hand=20, threads=None, progress=None))]
pub fn _generate_tablebase(
    py: Python<'_>,
    directory: PathBuf,
    rules: Option<Rules>,
    placement: bool,
    max_in_hand: i64,
    threads: Option<usize>,
    progress: Option<Py<PyAny>>,
) -> PyResult<()> {
    let rules = TableRules::of(&rules.map_or_else(baghchal::Rules::default, |r| r.inner));
    rules.check_covered().map_err(value_error)?;
    let max_in_hand = u8::try_from(max_in_hand)
        .ok()
        .filter(|m| (1..=20).contains(m))
        .ok_or_else(|| value_error(format!("invalid max_in_hand {max_in_hand}: expected 1..20")))?;
    let threads = threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(2, |n| n.get()))
        .max(1);
    // The callback is called at most 10 times a second (and at every new phase), under the GIL.
    let last: Mutex<(String, Option<Instant>)> = Mutex::new((String::new(), None));
    let report = |phase: &str, done: u64, total: u64| {
        let Some(callback) = &progress else { return };
        let Ok(mut last) = last.lock() else { return };
        let due = last
            .1
            .is_none_or(|t| t.elapsed() >= Duration::from_millis(100));
        if last.0 != phase || due || done >= total {
            last.0 = phase.to_string();
            last.1 = Some(Instant::now());
            Python::attach(|py| {
                if let Err(error) = callback.call1(py, (phase, done, total)) {
                    error.print(py);
                }
            });
        }
    };
    released(py, move || {
        if placement {
            generate_placement(&directory, rules, max_in_hand, threads, &report).map(|_| ())
        } else {
            generate_tables(&directory, rules, threads, &report).map(|_| ())
        }
        .map_err(|e| e.to_string())
    })
}
