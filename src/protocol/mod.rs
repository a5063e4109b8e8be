//! The UCI-style text protocol, also spoken in the UGI dialect (see protocol.md): commands parsed into [`Command`]s, a
//! [`Session`] that runs them against the [`crate::engine::Engine`], and [`run`], which wires a
//! session to stdin (read on its own thread) and stdout (whole lines under one lock, flushed).

pub mod command;
pub mod error;
pub mod go;
pub mod io;
pub mod options;
pub mod output;
pub mod report;
pub mod session;
pub mod slot;
pub mod ugi;

pub use command::{parse_line, Command};
pub use error::CommandError;
pub use go::parse_go;
pub use io::run;
pub use output::{Memory, Output, Stdout};
pub use session::{Flow, Session};
pub use ugi::{Dialect, Query};
