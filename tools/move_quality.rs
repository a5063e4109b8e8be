//! Move quality against the tablebases: the engine, without tables, on critical positions.
//!
//! `cargo run --release --example move_quality -- --tables DIR --positions FILE --movetime 100 --repetition draw`
//!
//! FILE holds labelled positions as `eval_data` writes them (`baghchal::tuning::data`). The positions kept are the critical ones (won or drawn for the side to move,
//! with a legal move that throws that away) reached in games (`--near` adds the other lines:
//! their neighbours, and the positions of `eval_focus`'s walks),
//! of the phase asked for, the first `--limit` of them in file order. Each is searched from a
//! fresh game (no history, a cleared hash table) with one thread, and the move is judged by the
//! tables: it keeps the value or not. The summary (stdout) gives the share of value-keeping
//! moves, split into wins and draws; `--lost FILE` lists the positions where the value was
//! lost, with the move played and the moves that keep the value.
//!
//! `--suite FILE` takes the positions from a test-position suite instead (the format of
//! `referee positions`, e.g. a development set written by `holdout_sets`): its rules, values and
//! value-keeping moves, no tables needed; `--phase` still selects. Used to screen search changes
//! in process with `--param` (docs/eval.md, "Search changes"); never on the held-out sets.

use std::fs::File;
use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

use baghchal::cli::RulesArgs;
use baghchal::engine::{Engine, EngineOptions, Limits};
use baghchal::referee::positions::read_suite;
use baghchal::search::params::Params;
use baghchal::tablebase::Wdl;
use baghchal::tuning::data::{open_checked, read_labelled, Source};
use baghchal::{Game, Move, Position, Rules};
use clap::{Parser, ValueEnum};

#[derive(Copy, Clone, PartialEq, Eq, ValueEnum)]
enum Phase {
    Movement,
    Placement,
    All,
}

#[derive(Parser)]
#[command(about = "Share of value-keeping moves on critical positions, judged by the tables")]
struct Args {
    /// Directory of the tables that judge the moves (with `--positions`).
    #[arg(long, required_unless_present = "suite")]
    tables: Option<PathBuf>,
    /// Labelled positions (the output of eval_data).
    #[arg(long, required_unless_present = "suite", conflicts_with = "suite")]
    positions: Option<PathBuf>,
    /// A test-position suite (positions, values and the moves that keep them) instead of
    /// `--tables` and `--positions`; its rules replace the rule flags.
    #[arg(long)]
    suite: Option<PathBuf>,
    /// Time per move in milliseconds (as `go movetime`, less the default Move Overhead).
    #[arg(long, default_value_t = 100)]
    movetime: u64,
    /// Nodes per move instead of a move time (reproducible).
    #[arg(long)]
    nodes: Option<u64>,
    /// Positions to test, at most.
    #[arg(long, default_value_t = 1000)]
    limit: usize,
    /// Phase of the positions.
    #[arg(long, value_enum, default_value_t = Phase::Movement)]
    phase: Phase,
    /// Also positions one move from those reached in games (and those met on walks).
    #[arg(long)]
    near: bool,
    /// A search parameter or evaluation weight, `NAME=VALUE` (see
    /// `baghchal::search::params::Params::set`); may be repeated.
    #[arg(long = "param")]
    params: Vec<String>,
    /// Where to list the positions whose value was lost.
    #[arg(long)]
    lost: Option<PathBuf>,
    #[command(flatten)]
    rules: RulesArgs,
}

/// A test position: whether it is drawn (else won), and the moves that keep its value.
struct Judged {
    position: Position,
    draw: bool,
    keeping: Vec<Move>,
}

impl Phase {
    fn wants(self, position: &Position) -> bool {
        let placing = position.goats_in_hand() > 0;
        match self {
            Phase::Movement => !placing,
            Phase::Placement => placing,
            Phase::All => true,
        }
    }
}

/// The rules and the test positions that `args` selects, judged by the tables or the suite.
fn read_positions(args: &Args) -> Result<(Rules, Vec<Judged>), String> {
    if let Some(suite) = &args.suite {
        let (rules, entries) = read_suite(suite)?;
        let judged = entries
            .into_iter()
            .filter(|entry| args.phase.wants(&entry.position))
            .take(args.limit)
            .map(|entry| Judged {
                position: entry.position,
                draw: entry.value == "draw",
                keeping: entry.keeping,
            })
            .collect();
        return Ok((rules, judged));
    }
    let (Some(tables), Some(file)) = (&args.tables, &args.positions) else {
        return Err("give --suite, or --tables and --positions".into());
    };
    let rules = args.rules.rules();
    let tables = open_checked(tables, &rules)?;
    let mut positions = Vec::new();
    read_labelled(file, |labelled| {
        if !labelled.critical || (labelled.source != Source::Game && !args.near) {
            return true;
        }
        if args.phase.wants(&labelled.position) {
            positions.push(labelled.position);
        }
        positions.len() != args.limit
    })?;
    let judged = positions
        .into_iter()
        .map(|position| {
            let value = tables
                .probe(&position)
                .ok_or_else(|| format!("the tables do not cover {position}"))?;
            Ok(Judged {
                position,
                draw: value.wdl == Wdl::Draw,
                keeping: tables.best_moves(&position),
            })
        })
        .collect::<Result<_, String>>()?;
    Ok((rules, judged))
}

fn run(args: &Args) -> Result<(), String> {
    let (rules, positions) = read_positions(args)?;
    let mut engine = Engine::new(EngineOptions {
        rules,
        threads: 1,
        ..EngineOptions::default()
    });
    let mut params = Params::default();
    for setting in &args.params {
        let (name, value) = setting
            .split_once('=')
            .ok_or_else(|| format!("--param {setting}: expected NAME=VALUE"))?;
        let value = value
            .parse()
            .map_err(|_| format!("--param {setting}: the value is not an integer"))?;
        params.set(name, value)?;
    }
    engine.set_params(params);
    let limits = match args.nodes {
        Some(nodes) => Limits {
            nodes: Some(nodes),
            ..Limits::default()
        },
        None => Limits {
            movetime: Some(Duration::from_millis(args.movetime)),
            ..Limits::default()
        },
    };
    let mut lost = match &args.lost {
        Some(path) => Some(File::create(path).map_err(|e| format!("{}: {e}", path.display()))?),
        None => None,
    };
    // [wins, draws]: (kept, tested)
    let mut counts = [(0u32, 0u32); 2];
    for (number, judged) in positions.iter().enumerate() {
        let Judged {
            position,
            draw,
            keeping,
        } = judged;
        engine.new_game();
        engine.set_game(Game::new(*position, rules));
        let mv = engine
            .search_blocking(limits.clone())
            .best_move
            .ok_or_else(|| format!("no move in {position}"))?;
        let slot = usize::from(*draw);
        counts[slot].1 += 1;
        if keeping.contains(&mv) {
            counts[slot].0 += 1;
        } else if let Some(file) = lost.as_mut() {
            let keep: Vec<String> = keeping.iter().map(ToString::to_string).collect();
            writeln!(
                file,
                "{position}\t{}\tplayed {mv}\tkeeps {}",
                if *draw { "draw" } else { "win" },
                keep.join(" ")
            )
            .map_err(|e| e.to_string())?;
        }
        if (number + 1) % 100 == 0 {
            eprintln!("move_quality: {} of {}", number + 1, positions.len());
        }
    }
    let share = |(kept, tested): (u32, u32)| {
        if tested == 0 {
            0.0
        } else {
            100.0 * f64::from(kept) / f64::from(tested)
        }
    };
    let total = (counts[0].0 + counts[1].0, counts[0].1 + counts[1].1);
    let limit = match args.nodes {
        Some(nodes) => format!("{nodes} nodes"),
        None => format!("movetime {} ms", args.movetime),
    };
    println!(
        "value kept: {} of {} ({:.1}%); wins {} of {} ({:.1}%), draws {} of {} ({:.1}%); {limit}, rules {}",
        total.0,
        total.1,
        share(total),
        counts[0].0,
        counts[0].1,
        share(counts[0]),
        counts[1].0,
        counts[1].1,
        share(counts[1]),
        rules
    );
    Ok(())
}

fn main() {
    let args = Args::parse();
    if let Err(error) = run(&args) {
        eprintln!("move_quality: {error}");
        std::process::exit(2);
    }
}
