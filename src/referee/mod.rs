//! The referee: engine-vs-engine matches over pipes, with its own rules check, clocks,
//! adjudication, statistics (Elo estimates and SPRT) and game records.

pub mod adjudication;
pub mod check;
pub mod cli;
pub mod cli_reports;
pub mod console;
pub mod engine_process;
pub mod faults;
pub mod game;
pub mod generate;
pub mod groups;
pub mod latency;
pub mod layouts;
pub mod match_output;
pub mod merge;
pub mod openings;
pub mod outcome;
pub mod play;
pub mod positions;
pub mod process;
pub mod record;
pub mod report;
pub mod resume;
pub mod runner;
pub mod schedule;
pub mod search_info;
pub mod shard_end;
pub mod spec;
pub mod stats;
pub mod tail;
pub mod tb_adjudication;
pub mod time_control;
pub mod timing;
pub mod watch;
pub mod wire_log;
