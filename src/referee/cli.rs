//! The referee's command line (clap derive). cutechess-cli habits work: single-dash long
//! options (`-engine cmd=... -each tc=10+0.1 -games 2 -rounds 50 -concurrency 4`) are read as
//! their double-dash forms, and key=value groups follow `-engine`, `-each`, `-openings`,
//! `-sprt`, `-draw`, `-resign`.

use super::check::CheckDialect;
#[cfg(test)]
use super::groups::parse_sprt;
pub use super::match_args::MatchArgs;
#[cfg(test)]
use super::tb_adjudication::TbResults;
use crate::cli::RulesArgs;
use clap::parser::ValueSource;
use clap::{Args, CommandFactory, FromArgMatches, Parser, Subcommand};
use std::path::PathBuf;

/// The referee command line.
#[derive(Parser, Debug)]
#[command(
    name = "referee",
    version,
    about = "Engine-vs-engine matches for Bagh Chal engines speaking the UCI-style protocol",
    args_conflicts_with_subcommands = true
)]
pub struct Cli {
    /// A subcommand; without one, a match is played.
    #[command(subcommand)]
    pub command: Option<Command>,
    /// Match options.
    #[command(flatten)]
    pub play: MatchArgs,
}

/// Subcommands other than playing a match.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Generate an openings file of varied, playable starts.
    Openings(OpeningsArgs),
    /// Combine record files (PGN-like or JSON lines, e.g. from shards) into one set of statistics.
    Merge(MergeArgs),
    /// Check an engine's protocol compliance: one line per check, a summary, exit status 1 on
    /// any failure.
    Check(CheckArgs),
    /// Score an engine on a test-position suite: the share of moves that keep the position's
    /// value (exact, from the tables).
    Positions(PositionsArgs),
}

/// Options of `referee positions`.
#[derive(Args, Debug, Clone)]
pub struct PositionsArgs {
    /// The engine: cmd=PATH [name=NAME] [arg=ARG]... [option.NAME=VALUE]... (the suite's rules
    /// are sent unless given here).
    #[arg(long, required = true, num_args = 1.., value_name = "KEY=VALUE")]
    pub engine: Vec<String>,
    /// The suite file.
    #[arg(long, default_value = "tests/data/critical-positions.txt")]
    pub file: PathBuf,
    /// Time per move, ms (`go movetime`).
    #[arg(long, default_value_t = 100, conflicts_with_all = ["depth", "nodes"])]
    pub movetime: u64,
    /// Depth per move instead (`go depth`).
    #[arg(long, conflicts_with = "nodes")]
    pub depth: Option<u32>,
    /// Nodes per move instead (`go nodes`).
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Only positions of this phase.
    #[arg(long, value_enum, default_value = "all")]
    pub phase: SuitePhase,
    /// Time allowed for the handshake, and for a bestmove past the move time (or at all with
    /// depth or nodes), ms.
    #[arg(long, default_value_t = 10_000)]
    pub timeout: u64,
}

/// The phases of `referee positions --phase`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum SuitePhase {
    /// No goat in hand.
    Movement,
    /// Goats in hand.
    Placement,
    /// Both.
    All,
}

/// Options of `referee check`.
#[derive(Args, Debug, Clone)]
pub struct CheckArgs {
    /// The engine: cmd=PATH [name=NAME] [arg=ARG]... [dir=DIR] [option.NAME=VALUE]...
    /// [timemargin=MS] (the match's engine spec keys; thinking limits are the checker's own).
    #[arg(long, required = true, num_args = 1.., value_name = "KEY=VALUE")]
    pub engine: Vec<String>,
    /// The dialect checked: uci (uci/uciok, wtime = goats) or ugi (ugi/ugiok, p1time = goats,
    /// query).
    #[arg(long, value_enum, ignore_case = true, default_value = "uci")]
    pub dialect: CheckDialect,
    /// Time allowed for uciok/ugiok, for readyok when idle, and for a bestmove without a time
    /// limit, ms.
    #[arg(long, default_value_t = 10_000)]
    pub timeout: u64,
    /// Time allowed for readyok during a search and for bestmove after stop, ms.
    #[arg(long, default_value_t = 1_000)]
    pub at_once: u64,
}

/// Options of `referee openings`.
#[derive(Args, Debug, Clone)]
pub struct OpeningsArgs {
    /// Output file.
    #[arg(long)]
    pub out: String,
    /// Number of openings.
    #[arg(long, default_value_t = 100)]
    pub count: usize,
    /// Random plies from the start position.
    #[arg(long, default_value_t = 6)]
    pub plies: usize,
    /// Seed (default: from the clock; printed and written in the file header).
    #[arg(long)]
    pub seed: Option<u64>,
    /// The engine that checks each candidate: cmd=PATH [option.NAME=VALUE]... (default: the
    /// `baghchal` binary next to the referee).
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    pub engine: Vec<String>,
    /// Search depth of the check.
    #[arg(long, default_value_t = 4)]
    pub depth: u32,
    /// Keep a candidate only if the engine's score is within +/- this many centi-goats.
    #[arg(long, default_value_t = 150)]
    pub max_score: i32,
    /// Keep candidates without asking an engine.
    #[arg(long)]
    pub no_search: bool,
    /// Rule variant.
    #[command(flatten)]
    pub rules: RulesArgs,
}

/// Options of `referee merge`.
#[derive(Args, Debug, Clone)]
pub struct MergeArgs {
    /// Record files (PGN-like or JSON lines; JSON lines only with --watch, where a file may not
    /// exist yet).
    #[arg(required = true)]
    pub files: Vec<String>,
    /// Follow the records of running shards (one file each): print the merged statistics
    /// whenever games were added, and end when the SPRT is decided (exit status 10 for H0, 11
    /// for H1) or every shard has finished (0 complete, 12 games missing or bad records).
    #[arg(long)]
    pub watch: bool,
    /// Seconds between two looks at the files under --watch.
    #[arg(long, default_value_t = 10.0, value_name = "SECONDS")]
    pub interval: f64,
    /// Also write the merged games as PGN-like records.
    #[arg(long)]
    pub pgnout: Option<String>,
    /// Also write the merged games as JSON lines.
    #[arg(long)]
    pub jsonout: Option<String>,
    /// SPRT: elo0=E0 elo1=E1 [alpha=0.05] [beta=0.05] [model=normalized|logistic|bayesian].
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    pub sprt: Vec<String>,
}

/// Parses the command line (after [`normalize_args`]), keeping each `--engine` group apart.
///
/// # Errors
/// clap's error (print it with `exit()`).
pub fn parse_cli(args: Vec<String>) -> Result<Cli, clap::Error> {
    let matches = Cli::command().try_get_matches_from(normalize_args(args))?;
    let mut cli = Cli::from_arg_matches(&matches)?;
    if cli.command.is_none() {
        if let Some(groups) = matches.get_occurrences::<String>("engine") {
            cli.play.engines = groups.map(|group| group.cloned().collect()).collect();
        }
        cli.play.given = matches
            .ids()
            .filter(|id| matches.value_source(id.as_str()) == Some(ValueSource::CommandLine))
            .map(|id| id.as_str().to_string())
            .collect();
    }
    Ok(cli)
}

/// Rewrites cutechess-style single-dash long options (`-engine`) as `--engine`; only names the
/// command line knows are rewritten, so values such as `-5` pass through.
pub fn normalize_args(args: Vec<String>) -> Vec<String> {
    let command = Cli::command();
    let mut longs: Vec<String> = Vec::new();
    let mut collect = |cmd: &clap::Command| {
        for arg in cmd.get_arguments() {
            longs.extend(arg.get_long().map(str::to_string));
            longs.extend(
                arg.get_all_aliases()
                    .into_iter()
                    .flatten()
                    .map(str::to_string),
            );
        }
    };
    collect(&command);
    for sub in command.get_subcommands() {
        collect(sub);
    }
    args.into_iter()
        .map(|arg| match arg.strip_prefix('-') {
            Some(rest)
                if !rest.starts_with('-')
                    && longs
                        .iter()
                        .any(|l| l == rest.split('=').next().unwrap_or("")) =>
            {
                format!("-{arg}")
            }
            _ => arg,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(text: &str) -> Vec<String> {
        text.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn single_dash_long_options_work() {
        let normalized = normalize_args(args(
            "referee -engine cmd=a depth=1 -each tc=1+0 -games 4 -srand 5 -5",
        ));
        assert_eq!(
            normalized,
            args("referee --engine cmd=a depth=1 --each tc=1+0 --games 4 --srand 5 -5")
        );
        let cli = parse_cli(args(
            "referee -engine cmd=a name=A depth=1 -engine cmd=b depth=2 -rounds 3 -sprt elo0=0 elo1=5",
        ))
        .unwrap();
        assert_eq!(cli.play.engines.len(), 2);
        assert_eq!(cli.play.engines[1], args("cmd=b depth=2"));
        assert_eq!(cli.play.rounds, 3);
        assert!(parse_sprt(&cli.play.sprt).unwrap().is_some());
        let tb = parse_cli(args("referee -tb tables/ctw2 -tbadjudicate WIN_LOSS")).unwrap();
        assert_eq!(tb.play.tb, Some(PathBuf::from("tables/ctw2")));
        assert_eq!(tb.play.tbadjudicate, Some(TbResults::WinLoss));
        assert!(parse_cli(args("referee -tbadjudicate draw")).is_err());
        let merge = parse_cli(args("referee merge a.jsonl b.pgn")).unwrap();
        assert!(
            matches!(merge.command, Some(Command::Merge(ref m)) if m.files.len() == 2 && !m.watch)
        );
        let check = parse_cli(args(
            "referee check -engine cmd=./x option.Hash=4 -dialect UGI",
        ))
        .unwrap();
        assert!(
            matches!(check.command, Some(Command::Check(ref c)) if c.engine.len() == 2 && c.dialect == CheckDialect::Ugi)
        );
        assert!(parse_cli(args("referee check")).is_err());
        let watch = parse_cli(args("referee merge -watch -interval 0.5 a.jsonl")).unwrap();
        assert!(
            matches!(watch.command, Some(Command::Merge(ref m)) if m.watch && m.interval == 0.5)
        );
    }
}
