//! The `baghchal_engine._native` extension module: thin wrappers around the baghchal crate.
//! The Python package (`python/python/baghchal_engine`) re-exports it and adds the pure-Python
//! parts (protocol driver, environments).

mod board;
mod encoding;
mod engine;
mod shield;
mod tablebase;
mod vecgame;

use numpy::PyArray1;
use pyo3::prelude::*;

/// `permutation[a]`: the action of action `a`'s move on the board under symmetry `g`.
#[pyfunction]
fn action_permutation(py: Python<'_>, g: i64) -> PyResult<Bound<'_, PyArray1<i64>>> {
    let g = board::symmetry_index(g)?;
    let permutation = encoding::action_permutation(g)
        .into_iter()
        .map(|a| a as i64)
        .collect();
    Ok(PyArray1::from_vec(py, permutation))
}

/// `permutation[s]`: the point that point `s` (index `rank * 5 + file`) maps to under
/// symmetry `g`.
#[pyfunction]
fn square_permutation(py: Python<'_>, g: i64) -> PyResult<Bound<'_, PyArray1<i64>>> {
    let g = board::symmetry_index(g)?;
    let map = baghchal::tablebase::symmetry::SQUARE_MAPS[g];
    Ok(PyArray1::from_vec(
        py,
        map.iter().map(|&s| i64::from(s)).collect(),
    ))
}

/// Panics inside the shield: lets the tests check that a Rust panic arrives as RuntimeError.
#[pyfunction]
fn _panic_for_test() -> PyResult<()> {
    shield::shielded(|| panic!("a test panic"))
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<board::Rules>()?;
    m.add_class::<board::Side>()?;
    m.add_class::<board::Move>()?;
    m.add_class::<board::Outcome>()?;
    m.add_class::<board::Board>()?;
    m.add_class::<vecgame::VecGame>()?;
    m.add_class::<tablebase::Tablebase>()?;
    m.add_class::<tablebase::Value>()?;
    m.add_class::<engine::Engine>()?;
    m.add_function(wrap_pyfunction!(tablebase::_generate_tablebase, m)?)?;
    m.add_function(wrap_pyfunction!(action_permutation, m)?)?;
    m.add_function(wrap_pyfunction!(square_permutation, m)?)?;
    m.add_function(wrap_pyfunction!(_panic_for_test, m)?)?;
    m.add("NUM_ACTIONS", encoding::NUM_ACTIONS)?;
    m.add("NUM_PLANES", encoding::NUM_PLANES)?;
    m.add("START_POSITION", baghchal::START_POSITION)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
