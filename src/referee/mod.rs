//! The referee: engine-vs-engine matches over pipes, with its own rules check, clocks,
//! adjudication, statistics (Elo estimates and SPRT) and game records.

pub mod engine_process;
pub mod game;
pub mod openings;
pub mod outcome;
pub mod record;
pub mod spec;
pub mod stats;
pub mod time_control;
