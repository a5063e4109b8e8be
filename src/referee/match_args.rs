//! The match options (`referee [match options]`), in their own module as the longest part of
//! the command line. They are also the schema of the `-config` file ([`super::config`]).

use super::cli_reports::ReportArgs;
use super::schedule::{Shard, Tournament};
use super::tb_adjudication::TbResults;
use crate::cli::RulesArgs;
use clap::Args;
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// Options of a match. The same struct is the schema of the `-config` file (serde): a field
/// added here is read from and written to it with no other change. Its JSON keys are the field
/// names; a key the file leaves out takes the command line's default.
#[derive(Args, Debug, Clone, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct MatchArgs {
    /// An engine: cmd=PATH [name=NAME] [arg=ARG]... [dir=DIR] [option.NAME=VALUE]...
    /// [tc=[MOVES/]SECONDS[+INC]] [st=SECONDS] [depth=N] [nodes=N] [timemargin=MS]
    /// [restart=on|off] (repeat for each engine; none: the built-in demonstration match of the
    /// `baghchal` binary next to the referee against itself).
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE", action = clap::ArgAction::Append)]
    #[serde(skip)]
    pub engine: Vec<String>,
    /// The `--engine` groups, one per engine (filled by [`super::cli::parse_cli`]; the engines in a config file).
    #[arg(skip)]
    pub engines: Vec<Vec<String>>,
    /// Settings applied to every engine (same keys as --engine; an engine's own settings win).
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    pub each: Vec<String>,
    // --- Schedule: who meets whom, how often, with which colours and openings ---
    /// Who plays whom: round-robin, gauntlet (the --seeds first engines against each of the
    /// others) or knockout (single elimination, engines seeded in the order given).
    #[arg(long, value_enum, default_value_t = Tournament::RoundRobin)]
    pub tournament: Tournament,
    /// Rounds (each encounter plays --games games per round; knockout: 1).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    pub rounds: u32,
    /// Games per encounter and round (a knockout match: games before any tie-break).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..))]
    pub games: u32,
    /// Consecutive games of an encounter played on one opening (cutechess/fastchess -repeat;
    /// a bare -repeat means 2). 1: a new opening every game.
    #[arg(long, value_name = "N", default_value_t = 2, num_args = 0..=1, default_missing_value = "2",
          value_parser = clap::value_parser!(u32).range(1..))]
    pub repeat: u32,
    /// Do not swap sides between the games of an encounter: its first engine always plays goats.
    #[arg(long)]
    pub noswap: bool,
    /// Reverse the sides of the whole schedule: each encounter starts with its second engine as
    /// goats (with --noswap, the second engine always plays goats).
    #[arg(long)]
    pub reverse: bool,
    /// Gauntlet seeds: the first N engines each play every other engine; the others do not
    /// play each other.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    pub seeds: u32,
    /// Games played at once (results do not depend on it).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub concurrency: u32,
    /// Openings (a book): file=PATH [format=epd|pgn|json] [plies=N] [order=sequential|random]
    /// [start=N] (a bare PATH works too). Position-string lines, or our own PGN-like or JSON
    /// game records; format from the extension (.pgn, .json/.jsonl; else epd) when not given.
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    pub openings: Vec<String>,
    /// Seed for opening order (printed on every run; default: from the clock).
    #[arg(long, alias = "srand")]
    pub seed: Option<u64>,
    /// SPRT: elo0=E0 elo1=E1 [alpha=0.05] [beta=0.05] [model=normalized|logistic|bayesian]
    /// (default normalized Elo); stops when decided.
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    pub sprt: Vec<String>,
    // --- Records and reports (read through `pgn_output`/`json_output` in super::cli_reports) ---
    /// Write the PGN-like game records (appended): FILE or file=FILE, then per-move keys as
    /// fastchess's: nodes=true seldepth=true nps=true hashfull=true tbhits=true pv=true
    /// timeleft=true latency=true, or min=true for minimal records.
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    pub pgnout: Vec<String>,
    /// Write one JSON line per game (appended): FILE or file=FILE, and the same keys as
    /// --pgnout.
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    pub jsonout: Vec<String>,
    /// Final positions, console layout, score interval, match log, latencies (their keys sit
    /// at the top level of a config file, like every other option's).
    #[command(flatten)]
    #[serde(flatten)]
    pub reports: ReportArgs,
    /// Skip the games already in the record files (--jsonout, else --pgnout) and go on.
    #[arg(long)]
    pub resume: bool,
    /// Play only shard I of N (game pairs whose number is I modulo N), e.g. 2/8.
    #[arg(long, value_name = "I/N")]
    pub shard: Option<Shard>,
    /// Restart engines left unusable (crashed, disconnected, stalled, failed handshake) and go
    /// on; without it the run stops after such a game. Time forfeits and illegal moves never
    /// stop the run.
    #[arg(long)]
    pub recover: bool,
    /// Let engines that declare the `Ponder` option think on their opponent's time: after its
    /// move an engine searches the position after the reply it named (`bestmove M ponder R`,
    /// `go ponder`); the reply played turns that search into its move (`ponderhit`, timed from
    /// then), any other reply stops it (`stop`). Sends `setoption name Ponder value true`.
    #[arg(long, alias = "ponder")]
    pub pondering: bool,
    /// Draw a game after this many plies (0: never).
    #[arg(long, default_value_t = 400)]
    pub maxplies: u32,
    /// Draw a game after this many full moves (a goat's and a tiger's move; fastchess's
    /// -maxmoves): the same as --maxplies 2N, which it replaces.
    #[arg(long, value_name = "N", conflicts_with = "maxplies")]
    pub maxmoves: Option<u32>,
    /// Milliseconds each worker waits after a game before its next one (cutechess's -wait).
    #[arg(long, default_value_t = 0, value_name = "MS")]
    pub wait: u64,
    /// Draw adjudication: movenumber=PLY movecount=N score=CG.
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    pub draw: Vec<String>,
    /// Resign adjudication: movecount=N score=CG [twosided=true].
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    pub resign: Vec<String>,
    /// Tablebase adjudication: the directory of tables made for the match rules (`baghchal tb
    /// gen`, with `--placement` for the placement phase too). A game that reaches a position
    /// they cover ends with their value.
    #[arg(long, value_name = "DIR")]
    pub tb: Option<PathBuf>,
    /// Which table values end games: both, win-loss or draw (default: both under --repetition
    /// draw; win-loss under forbid, where a table draw is only guidance).
    #[arg(
        long,
        value_enum,
        ignore_case = true,
        requires = "tb",
        value_name = "RESULTS"
    )]
    pub tbadjudicate: Option<TbResults>,
    /// Print the score block (Elo, nElo, SPRT, faults) every N games (0: at the end only).
    #[arg(long, default_value_t = 10)]
    pub ratinginterval: u64,
    /// Event tag of the records.
    #[arg(long, default_value = "referee match")]
    pub event: String,
    /// Site tag of the records.
    #[arg(long, default_value = "?")]
    pub site: String,
    /// Time allowed for uciok, for readyok (also before every move) and for bestmove after stop
    /// once an engine has overrun its time, ms.
    #[arg(long, default_value_t = 10_000)]
    pub handshake_timeout: u64,
    /// Time allowed for bestmove when an engine has no time limit (depth or nodes only), ms.
    #[arg(long, default_value_t = 60_000)]
    pub stall_timeout: u64,
    /// Rule variant for the whole match (sent to every engine and enforced).
    #[command(flatten)]
    pub rules: RulesArgs,
    // --- Config file (-config) ---
    /// Read every match setting from a JSON file (file=PATH; a bare PATH works too) and keep it
    /// up to date during the run (the effective settings, the seed, and the run's state), so
    /// that `referee -config file=PATH` alone resumes the run. Options given beside it override
    /// the file's. A file that does not exist yet is written.
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    #[serde(skip)]
    pub config: Vec<String>,
    /// The ids of the options given on the command line (filled by [`super::cli::parse_cli`]):
    /// these override a config file's settings.
    #[arg(skip)]
    #[serde(skip)]
    pub given: Vec<String>,
}

impl Default for MatchArgs {
    /// The settings of a command line without options.
    fn default() -> MatchArgs {
        crate::cli::clap_defaults()
    }
}
