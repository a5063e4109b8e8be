//! The boundary: Rust errors and panics become Python exceptions.
//!
//! Every bad input raises `ValueError` with the engine's own message. A Rust panic must never
//! reach Python as PyO3's `PanicException` (a `BaseException` that `except Exception` does not
//! catch): the work that could panic runs through [`shielded`], which turns it into
//! `RuntimeError`.

use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::PyErr;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// `ValueError` carrying a Rust error's message.
pub fn value_error(error: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(error.to_string())
}

/// Runs `work`, turning a panic into `RuntimeError` (with the panic's message).
pub fn shielded<T>(work: impl FnOnce() -> Result<T, PyErr>) -> Result<T, PyErr> {
    match catch_unwind(AssertUnwindSafe(work)) {
        Ok(result) => result,
        Err(payload) => Err(PyRuntimeError::new_err(format!(
            "internal error in baghchal_engine (please report it): {}",
            panic_message(payload.as_ref())
        ))),
    }
}

/// Runs `work` without Python's lock: for long Rust work that touches no Python object.
pub fn released<T: Send>(
    py: pyo3::Python<'_>,
    work: impl FnOnce() -> Result<T, String> + Send,
) -> Result<T, PyErr> {
    let outcome =
        py.detach(|| catch_unwind(AssertUnwindSafe(work)).map_err(|p| panic_message(p.as_ref())));
    match outcome {
        Ok(result) => result.map_err(PyValueError::new_err),
        Err(message) => Err(PyRuntimeError::new_err(format!(
            "internal error in baghchal_engine (please report it): {message}"
        ))),
    }
}

fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(text) = payload.downcast_ref::<&str>() {
        (*text).to_string()
    } else if let Some(text) = payload.downcast_ref::<String>() {
        text.clone()
    } else {
        "a panic".to_string()
    }
}
