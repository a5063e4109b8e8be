//! `referee [match options]`: checks the whole command line, builds the schedule, resumes,
//! runs the match and prints cutechess-style results.

use super::adjudication::Adjudication;
use super::books::read_book;
use super::cli::MatchArgs;
use super::config::{effective_args, Autosave};
use super::console::Console;
use super::engine_process::Timeouts;
use super::groups::{parse_draw, parse_openings_source, parse_resign, parse_sprt};
use super::knockout::{bracket, bracket_lines};
use super::match_output::{match_header, MatchOutput, RecordFile, ReportSettings};
use super::openings::{builtin_openings, Opening, Order};
use super::outcome::GameResult;
use super::record::keys::RecordOutput;
use super::record::GameRecord;
use super::resume::{check_resumed, drop_partial_tail, read_previous};
use super::runner::{run_match, MatchConfig, RunEnd};
use super::schedule::{check_tournament, schedule, ScheduleConfig, ScheduledGame, Tournament};
use super::shard_end::{self, End, ShardEnd};
use super::spec::{parse_engines, EngineSpec};
use super::tb_adjudication::{TbAdjudicator, TbResults};
use super::timing::engine_timing;
use super::wire_log::MatchLog;
use std::collections::HashMap;
use std::fs::{File, OpenOptions};
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

/// How a match run ended, for the exit code.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Finish {
    /// All games played, or SPRT decided.
    Done,
    /// An engine fault stopped the run (no `--recover`): the message says which.
    Fault(String),
    /// Ctrl-C.
    Interrupted,
}

/// The `baghchal` engine binary next to the running executable.
pub fn sibling_engine() -> Result<PathBuf, String> {
    let exe =
        std::env::current_exe().map_err(|e| format!("cannot find the referee executable: {e}"))?;
    let dir = exe
        .parent()
        .ok_or("the referee executable has no directory")?;
    // Test binaries live one level down (target/debug/deps).
    for candidate in [dir.join("baghchal"), dir.join("../baghchal")] {
        let candidate = candidate.with_extension(std::env::consts::EXE_EXTENSION);
        if candidate.is_file() {
            return Ok(candidate);
        }
    }
    Err(format!(
        "no engine given and no baghchal binary next to the referee in \"{}\": build it (cargo build --release) or pass --engine cmd=...",
        dir.display()
    ))
}

/// Whether a program can be found (a path that exists, or a name on PATH).
fn program_exists(program: &str, dir: Option<&str>) -> bool {
    let path = Path::new(program);
    if path.components().count() > 1 {
        return match dir {
            Some(dir) if path.is_relative() => Path::new(dir).join(path).is_file(),
            _ => path.is_file(),
        };
    }
    std::env::var_os("PATH")
        .is_some_and(|paths| std::env::split_paths(&paths).any(|p| p.join(program).is_file()))
}

/// The built-in demonstration match: the sibling engine at two node budgets.
fn demo_engines() -> Result<Vec<Vec<String>>, String> {
    let engine = sibling_engine()?;
    let cmd = format!("cmd={}", engine.display());
    Ok(vec![
        vec![
            cmd.clone(),
            "name=baghchal-strong".into(),
            "nodes=50000".into(),
        ],
        vec![cmd, "name=baghchal-weak".into(), "nodes=5000".into()],
    ])
}

fn open_append(path: &Option<String>) -> Result<Option<File>, String> {
    path.as_ref()
        .map(|path| {
            OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .map_err(|e| format!("cannot open \"{path}\": {e}"))
        })
        .transpose()
}

/// Game counts of a run, for a shard's end marker.
#[derive(Default)]
struct Counts {
    scheduled: u64,
    recorded: u64,
    match_games: u64,
}

/// Runs `referee [match options]`. A shard with `--jsonout` writes its end marker
/// ([`super::shard_end`]) however the run ends.
///
/// # Errors
/// A message for anything wrong with the command line, files or engines before the match starts.
pub fn play(args: &MatchArgs, stop: &AtomicBool, console: Console) -> Result<Finish, String> {
    let (args, autosave) = effective_args(args, clock_seed)?;
    let args = &args;
    if let Some(autosave) = &autosave {
        log::info!("settings from and saved to \"{}\"", autosave.path());
    }
    let json_path = args.json_output()?.map(|output| output.file);
    let (Some(shard), Some(records)) = (args.shard, &json_path) else {
        return play_match(args, stop, console, &mut Counts::default(), autosave);
    };
    shard_end::clear(records)?;
    let mut counts = Counts::default();
    let result = play_match(args, stop, console, &mut counts, autosave);
    let (end, message) = match &result {
        Ok(Finish::Done) => (End::Complete, None),
        Ok(Finish::Fault(message)) => (End::Fault, Some(message.clone())),
        Ok(Finish::Interrupted) => (End::Interrupted, None),
        Err(message) => (End::Error, Some(message.clone())),
    };
    let marker = ShardEnd {
        shard: shard.to_string(),
        end,
        scheduled: counts.scheduled,
        recorded: counts.recorded,
        match_games: counts.match_games,
        message,
    };
    match (shard_end::write(records, &marker), result) {
        (Err(error), Ok(_)) => Err(error),
        (Err(error), Err(first)) => Err(format!("{first}; {error}")),
        (Ok(()), result) => result,
    }
}

/// A seed from the clock, for a run without `-seed`.
fn clock_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64)
}

fn play_match(
    args: &MatchArgs,
    stop: &AtomicBool,
    mut console: Console,
    counts: &mut Counts,
    autosave: Option<Autosave>,
) -> Result<Finish, String> {
    let rules = args.rules.rules();
    let demo = args.engines.is_empty();
    let engine_tokens = if demo {
        demo_engines()?
    } else {
        args.engines.clone()
    };
    if engine_tokens.len() < 2 {
        return Err("a match needs at least two engines (--engine ... --engine ...)".into());
    }
    let specs: Vec<EngineSpec> =
        parse_engines(&engine_tokens, &args.each).map_err(|e| e.to_string())?;
    for spec in &specs {
        if let Some(path) = &spec.command.stderr {
            open_append(&Some(path.clone()))
                .map_err(|e| format!("engine \"{}\": {e}", spec.name))?;
        }
        if !program_exists(&spec.command.program, spec.command.dir.as_deref()) {
            return Err(format!(
                "engine \"{}\": program \"{}\" not found",
                spec.name, spec.command.program
            ));
        }
    }
    let sprt = parse_sprt(&args.sprt)?;
    if sprt.is_some() && specs.len() != 2 {
        return Err("--sprt needs exactly two engines".into());
    }
    check_tournament(
        args.tournament,
        args.seeds,
        args.rounds,
        specs.len(),
        args.shard.is_some() || sprt.is_some(),
    )?;
    if sprt.is_some() && args.shard.is_some() {
        return Err(
            "--sprt with --shard would stop one shard on its own games: give --sprt to `referee merge --watch` over all the shards instead (docs/cluster.md)"
                .into(),
        );
    }
    let adjudication = Adjudication {
        max_plies: args
            .maxmoves
            .map_or(args.maxplies, |moves| moves.saturating_mul(2)),
        draw: parse_draw(&args.draw)?,
        resign: parse_resign(&args.resign)?,
    };
    let source = parse_openings_source(&args.openings)?;
    let openings: Vec<Opening> = match &source.file {
        Some(path) => read_book(path, source.format, source.plies, rules)?,
        None if demo => builtin_openings(rules),
        None => vec![Opening::startpos()],
    };
    let tablebase = args
        .tb
        .as_deref()
        .map(|dir| TbAdjudicator::open(dir, &rules, args.tbadjudicate))
        .transpose()?
        .map(Arc::new);
    let pgn_output = args.pgn_output()?;
    let json_output = args.json_output()?;
    let pgn_path = pgn_output.as_ref().map(|o| o.file.clone());
    let json_path = json_output.as_ref().map(|o| o.file.clone());
    let reports = &args.reports;
    let format = reports.format()?;
    let score_interval = reports.score_interval()?;
    let epd_path = reports.epd_file()?;
    let match_log = match reports.log_settings()? {
        Some(settings) => Some(MatchLog::open(&settings.file, settings.level)?),
        None => None,
    };
    let seed = args.seed.unwrap_or_else(clock_seed);
    let schedule_config = ScheduleConfig {
        engines: specs.len(),
        tournament: args.tournament,
        rounds: if demo { 8 } else { args.rounds },
        games: args.games,
        repeat: args.repeat,
        noswap: args.noswap,
        reverse: args.reverse,
        seeds: args.seeds as usize,
        order: if demo {
            Order::Sequential
        } else {
            source.order
        },
        start: source.start,
        openings: openings.len(),
        seed,
    };
    let knockout = args.tournament == Tournament::Knockout;
    let previous = if args.resume {
        for (path, terminator) in [(&json_path, "\n"), (&pgn_path, "\n\n")] {
            if let Some(path) = path {
                drop_partial_tail(path, terminator)?;
            }
        }
        read_previous(args, &pgn_path)?
    } else {
        Vec::new()
    };
    let full = if knockout {
        bracket(&schedule_config, &results_of(&previous)).games
    } else {
        schedule(&schedule_config)
    };
    let names: Vec<String> = specs.iter().map(|s| s.name.clone()).collect();
    let mut games: Vec<ScheduledGame> = full
        .iter()
        .filter(|g| args.shard.is_none_or(|shard| shard.contains(g.pair)))
        .copied()
        .collect();
    if args.resume {
        check_resumed(&previous, args, &pgn_path, &full, &names, &openings)?;
    }
    counts.match_games = full.len() as u64;
    counts.scheduled = games.len() as u64;
    counts.recorded = previous.len() as u64;
    let recorded: std::collections::HashSet<u64> = previous.iter().map(|r| r.number).collect();
    games.retain(|g| !recorded.contains(&g.number));
    let concurrency = if demo && args.concurrency == 1 {
        std::thread::available_parallelism()
            .map_or(1, |n| n.get())
            .min(4)
    } else {
        args.concurrency as usize
    };
    console.note(&format!(
        "referee: seed {seed}; {} engines, {} games in the schedule{}, {} to play{}; concurrency {concurrency}; rules {rules}",
        specs.len(),
        full.len(),
        if knockout { " so far (knockout)" } else { "" },
        games.len(),
        args.shard.map_or(String::new(), |s| format!(" (shard {s})")),
    ));
    if let Some(tb) = &tablebase {
        console.note(&format!(
            "referee: tablebase adjudication from \"{}\" ({})",
            tb.dir().display(),
            match tb.results() {
                TbResults::Both => "wins, losses and draws",
                TbResults::WinLoss => "wins and losses",
                TbResults::Draw => "draws",
            }
        ));
        if tb.results().draws() && rules.repetition == crate::Repetition::Forbid {
            console.note(
                "referee: under repetition=forbid a table draw is guidance, not an exact result (docs/referee.md)",
            );
        }
    }
    if !previous.is_empty() {
        console.note(&format!(
            "referee: resuming: {} games already recorded",
            previous.len()
        ));
    }
    let settings = ReportSettings {
        format,
        sprt,
        rating_interval: args.ratinginterval,
        score_interval,
        show_latency: reports.show_latency,
        recover: args.recover,
        header: match_header(&specs, source.file.as_deref()),
    };
    let total_games = full.len() as u64;
    let mut output = MatchOutput::new(console, previous, total_games, names, settings);
    output.autosave = autosave;
    let record_file = |output: &Option<RecordOutput>| -> Result<Option<RecordFile>, String> {
        output
            .as_ref()
            .map(|o| {
                Ok(RecordFile {
                    file: open_append(&Some(o.file.clone()))?.expect("a path was given"),
                    keys: o.keys,
                })
            })
            .transpose()
    };
    output.pgn = record_file(&pgn_output)?;
    output.json = record_file(&json_output)?;
    output.epd = open_append(&epd_path)?;
    output.save_state("starting")?;
    if let Some(log) = &match_log {
        log.activate();
    }
    let mut config = MatchConfig {
        specs,
        openings,
        games,
        rules,
        adjudication,
        tablebase,
        timeouts: Timeouts {
            handshake: Duration::from_millis(args.handshake_timeout),
            stall: Duration::from_millis(args.stall_timeout),
            grace: Duration::from_secs(1),
        },
        pondering: args.pondering,
        concurrency,
        wait: Duration::from_millis(args.wait),
        event: args.event.clone(),
        site: args.site.clone(),
        engine_log: match_log.clone(),
    };
    let end = if knockout {
        run_knockout(&mut config, &schedule_config, &mut output, stop)
    } else {
        run_match(&config, &mut output, stop)
    };
    if match_log.is_some() {
        MatchLog::deactivate();
    }
    output.update_state(match (&end, &output.fault, &output.io_error) {
        (_, _, Some(_)) => "error",
        (_, Some(_), _) => "stopped",
        (RunEnd::Interrupted, ..) => "interrupted",
        _ => "complete",
    });
    counts.recorded = output.records.len() as u64;
    let summary = if knockout {
        let games = bracket(&schedule_config, &results_of(&output.records));
        bracket_lines(&games, &output.names)
    } else {
        Vec::new()
    };
    output.finish(&summary);
    let forfeits: u64 = engine_timing(&output.records)
        .iter()
        .map(|t| t.time_forfeits)
        .sum();
    if forfeits > 0 {
        output.console.note(&format!(
            "referee: {forfeits} time forfeits; engines overrun their time on a machine busy with other work: check the Time lines before trusting the results"
        ));
    }
    if let Some(error) = output.io_error {
        return Err(error);
    }
    Ok(match (end, output.fault) {
        (_, Some(fault)) => Finish::Fault(fault),
        (RunEnd::Interrupted, None) => Finish::Interrupted,
        _ => Finish::Done,
    })
}

/// Each recorded game's result, by game number.
fn results_of(records: &[GameRecord]) -> HashMap<u64, GameResult> {
    records.iter().map(|r| (r.number, r.result)).collect()
}

/// Plays a knockout: the games the results so far call for, again and again until the bracket
/// is decided (or the run stops).
fn run_knockout(
    config: &mut MatchConfig,
    schedule: &ScheduleConfig,
    output: &mut MatchOutput,
    stop: &AtomicBool,
) -> RunEnd {
    loop {
        let results = results_of(&output.records);
        let known = bracket(schedule, &results).games;
        output.total_games = known.len() as u64;
        config.games = known
            .into_iter()
            .filter(|g| !results.contains_key(&g.number))
            .collect();
        if config.games.is_empty() {
            return RunEnd::Completed;
        }
        let end = run_match(config, output, stop);
        if end != RunEnd::Completed || output.fault.is_some() || output.io_error.is_some() {
            return end;
        }
    }
}
