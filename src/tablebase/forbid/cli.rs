//! The `baghchal tb forbid ...` subcommands: census, solve, start, prove, export and import.

use super::census::{census, print_census};
use super::entries::{prove_entries, EntryOptions};
use super::pack::{export_proofs, import_proofs, PackedLayer};
use super::prove::{
    EachMove, MoveProof, ProveOptions, ProveResult, Prover, DEFAULT_TABLE_ENTRIES, SEARCH_STACK,
};
use super::proved::ProvedEntries;
use super::solve::{solve_tables, SolveOptions, DEFAULT_NODE_BUDGET, MAX_STATES_LIMIT};
use super::start::{proved_placement_dir, start_bounds_with};
use super::tables::ForbidTables;
use super::ForbidValue;
use crate::tablebase::generate::Progress;
use crate::tablebase::placement::generate::MAX_IN_HAND;
use crate::tablebase::Wdl;
use crate::tablebase::{output_error, Tablebase};
use crate::{Position, Side};
use clap::Subcommand;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

/// `tb forbid` subcommands (see docs/forbid.md).
#[derive(Subcommand, Debug)]
pub enum ForbidCommand {
    /// Per layer and side to move: the table-draw raw states, the strongly connected components
    /// of their move graph (sizes), the capture exits, time and memory.
    Census {
        /// Directory of the movement tables.
        dir: PathBuf,
    },
    /// Solve the table draws whose component has at most --max-states raw states, exactly,
    /// from an empty history; write `forbid-<captured>.bcfb` beside the tables (resumes: valid
    /// files for the same options are kept).
    Solve {
        /// Directory of the movement tables.
        dir: PathBuf,
        /// Largest component solved (raw states of both sides, 1..64).
        #[arg(long, default_value_t = 24, value_parser = clap::value_parser!(u64).range(1..=MAX_STATES_LIMIT))]
        max_states: u64,
        /// Search nodes allowed per component; a component needing more stays unknown.
        #[arg(long, default_value_t = DEFAULT_NODE_BUDGET, value_parser = clap::value_parser!(u64).range(1..))]
        node_budget: u64,
    },
    /// The placement phase under forbid, from the forbid files (after `solve`): the start
    /// position's value, or that it depends on the unknown values.
    Start {
        /// Directory of the movement tables and forbid files.
        dir: PathBuf,
        /// Stop after the layers with this many goats in hand (1..20; 20 reaches the start).
        #[arg(long, default_value_t = MAX_IN_HAND, value_parser = clap::value_parser!(u8).range(1..=20))]
        max_in_hand: u8,
        /// Worker threads (default: all cores).
        #[arg(long)]
        threads: Option<usize>,
        /// Count the values of `prove --entries --write` too (into
        /// `forbid-proved-placement-<checksum>`, which the engine does not read).
        #[arg(long)]
        with_proofs: bool,
    },
    /// A proof-number search from one position (default: the start) under forbid, with the
    /// history in every node, down to the values `solve` and `start` proved: the winner where
    /// the bounds of `start` disagree.
    Prove {
        /// Directory of the tables, forbid files and placement values under forbid.
        dir: PathBuf,
        /// Position string (default: the start position); its history is empty.
        #[arg(long)]
        position: Option<String>,
        /// Nodes expanded allowed; with --entries, per entry.
        #[arg(long, default_value_t = 20_000_000, value_parser = clap::value_parser!(u64).range(1..))]
        nodes: u64,
        /// Transposition entries kept, per thread with --entries (the table has 49-byte slots,
        /// a power of two of them above 8/7 of this: 40 million entries take 3.3 GB).
        #[arg(long, default_value_t = DEFAULT_TABLE_ENTRIES, value_parser = clap::value_parser!(u64).range(1024..))]
        table_entries: u64,
        /// Instead of one position: every table draw with tigers to move whose value is
        /// unknown (the entries `start` depends on), layer by layer from the last.
        #[arg(long, conflicts_with = "position")]
        entries: bool,
        /// Search each move of the position as a root of its own, --nodes each, so that a
        /// hard move does not take the others' budget (a move to an image of an earlier move's
        /// position under a symmetry shares its result).
        #[arg(long, conflicts_with = "entries")]
        each_move: bool,
        /// With --entries: only this many per layer, evenly spread.
        #[arg(long, requires = "entries")]
        sample: Option<u64>,
        /// With --entries: worker threads (default: all cores).
        #[arg(long, requires = "entries")]
        threads: Option<usize>,
        /// With --entries: keep the values in `forbid-proof-<captured>.bcfb` (read first:
        /// entries settled by an earlier run are not searched again, nor those it left unknown
        /// with at least this --nodes; written as the search goes), for `start --with-proofs`.
        #[arg(long, requires = "entries")]
        write: bool,
        /// With --entries: also every unknown table draw with goats to move (the states right
        /// after a capture), each layer before the one below, whose searches then stop at
        /// those it settles.
        #[arg(long, requires = "entries")]
        after_captures: bool,
        /// With --entries: only part K of N of each layer's unknown entries (`K/N`, K from 0),
        /// so that N machines share the pass; join their work with `export` and `import`.
        #[arg(long, requires = "entries", value_parser = parse_part)]
        part: Option<(u64, u64)>,
        /// With --entries: only these layers (goats captured, e.g. `0,1`), so that a rerun with
        /// a larger --nodes goes to the layers that matter; with --write the others' values
        /// are still read, and the searches below them stop there.
        #[arg(long, requires = "entries", value_delimiter = ',', num_args = 1..)]
        layers: Vec<u8>,
        /// Read the placement values of `start --with-proofs` (which count the values
        /// `--entries --write` settled) instead of those of `start`, and the proof files: a
        /// search then stops at every position they decide (with `--after-captures`, also at
        /// the states right after a capture that the entry pass settled).
        #[arg(long, conflicts_with = "entries")]
        with_proofs: bool,
    },
    /// Write the proof files of `prove --entries --write` into one small file (a proof pack),
    /// to go on with the entry pass on another machine or join the work of several.
    Export {
        /// Directory of the tables, forbid files and proof files.
        dir: PathBuf,
        /// The pack to write.
        #[arg(long)]
        out: PathBuf,
    },
    /// Write the proof files of a directory from a proof pack (`export`), merged into those
    /// already there; refuses a pack made for other rules or forbid files, or one whose values
    /// contradict them (nothing is written then).
    Import {
        /// Directory of the tables and forbid files (after `tb gen` and `tb forbid solve`).
        dir: PathBuf,
        /// The pack to read.
        pack: PathBuf,
    },
}

/// Runs a `tb forbid` subcommand: results on `out`, progress through `progress`.
///
/// # Errors
/// A message saying what went wrong.
pub fn run(command: ForbidCommand, out: &mut dyn Write, progress: Progress) -> Result<(), String> {
    let started = Instant::now();
    let write_error = output_error;
    match command {
        ForbidCommand::Census { dir } => {
            let layers = census(&dir, progress).map_err(|e| e.to_string())?;
            let rules = Tablebase::recorded_rules(&dir).map_err(|e| e.to_string())?;
            print_census(rules, &layers, out).map_err(write_error)?;
        }
        ForbidCommand::Solve {
            dir,
            max_states,
            node_budget,
        } => {
            let options = SolveOptions {
                max_states,
                node_budget,
            };
            let reports = solve_tables(&dir, options, progress).map_err(|e| e.to_string())?;
            writeln!(
                out,
                "layer side        wins      losses    unknowns  components: solved partly-unknown too-large over-budget images  seconds"
            )
            .map_err(write_error)?;
            for report in &reports {
                let header = report.header.as_ref().expect("every layer has a header");
                for (side, name) in ["goats", "tigers"].iter().enumerate() {
                    let [wins, losses, unknowns] = header.counts[side];
                    let components = if side == 0 && !report.resumed {
                        format!(
                            "{:>6} {:>14} {:>9} {:>11} {:>6} {:>8.2}",
                            report.solved_components,
                            report.partly_unknown_components,
                            report.too_large_components,
                            report.over_budget_components,
                            report.symmetric_images,
                            report.seconds
                        )
                    } else if report.resumed {
                        "(present)".to_string()
                    } else {
                        String::new()
                    };
                    writeln!(
                        out,
                        "{:>5} {name:<6} {wins:>11} {losses:>11} {unknowns:>11}              {components}",
                        header.captured
                    )
                    .map_err(write_error)?;
                }
            }
        }
        ForbidCommand::Start {
            dir,
            max_in_hand,
            threads,
            with_proofs,
        } => {
            let threads = threads.unwrap_or_else(default_threads).max(1);
            let start = start_bounds_with(&dir, max_in_hand, threads, with_proofs, progress)
                .map_err(|e| e.to_string())?;
            for (captured, unknown) in start.unknown_entries.iter().enumerate() {
                writeln!(
                    out,
                    "layer {captured}: {unknown} unknown table-draw classes with tigers to move"
                )
                .map_err(write_error)?;
            }
            let [mut known, mut depends] = [0u64; 2];
            for report in &start.run.reports {
                for side in 0..2 {
                    let [wins, draws, losses] = report.header.counts[side];
                    known += wins + losses;
                    depends += draws;
                }
            }
            writeln!(
                out,
                "placement positions: {known} decided, {depends} depending on unknown values (in \"{}\")",
                start.dir.display()
            )
            .map_err(write_error)?;
            let verdict = match start.run.start {
                Some(Wdl::Win) => "goats win".to_string(),
                Some(Wdl::Loss) => "tigers win".to_string(),
                Some(Wdl::Draw) => "depends on unknown values (goats win if all are goats' wins, tigers win if all are tigers' wins)".to_string(),
                None => "not reached".to_string(),
            };
            writeln!(out, "start position under forbid: {verdict}").map_err(write_error)?;
        }
        ForbidCommand::Export { dir, out: pack } => {
            let layers = export_proofs(&dir, &pack).map_err(|e| e.to_string())?;
            print_packed(&layers, out).map_err(write_error)?;
        }
        ForbidCommand::Import { dir, pack } => {
            let layers = import_proofs(&dir, &pack).map_err(|e| e.to_string())?;
            print_packed(&layers, out).map_err(write_error)?;
        }
        ForbidCommand::Prove {
            dir,
            nodes,
            table_entries,
            entries: true,
            sample,
            threads,
            write,
            after_captures,
            part,
            layers,
            ..
        } => {
            let layers = layer_mask(&dir, &layers)?;
            let options = EntryOptions {
                nodes_per_entry: nodes,
                table_entries,
                sample,
                threads: threads.unwrap_or_else(default_threads),
                write,
                after_captures,
                part,
                layers,
            };
            let layers = prove_entries(&dir, options, progress).map_err(|e| e.to_string())?;
            writeln!(
                out,
                "layer side     unknown  searched  tigers-win  goats-win  unsettled       nodes  most-nodes-settled  seconds  settled-before  unsettled-before"
            )
            .map_err(write_error)?;
            for l in &layers {
                writeln!(
                    out,
                    "{:>5} {:<6} {:>9} {:>9} {:>11} {:>10} {:>10} {:>11} {:>19} {:>8.1} {:>15} {:>17}",
                    l.captured,
                    l.side.to_string(),
                    l.unknown,
                    l.searched,
                    l.tigers_win,
                    l.goats_win,
                    l.searched - l.tigers_win - l.goats_win,
                    l.nodes,
                    l.most_nodes_settled,
                    l.seconds,
                    l.settled_before,
                    l.unsettled_before
                )
                .map_err(write_error)?;
            }
        }
        ForbidCommand::Prove {
            dir,
            position,
            nodes,
            table_entries,
            each_move,
            with_proofs,
            ..
        } => {
            let position: Position = match position {
                Some(text) => text.trim().parse().map_err(|e| format!("{e}"))?,
                None => Position::startpos(),
            };
            let options = ProveOptions {
                max_nodes: nodes,
                table_entries,
                use_stored: true,
            };
            let run = ProofRun {
                options,
                each_move,
                with_proofs,
            };
            print_proof(&dir, &position, run, out, progress)?;
        }
    }
    writeln!(out, "wall seconds: {:.2}", started.elapsed().as_secs_f64()).map_err(write_error)?;
    Ok(())
}

/// Worker threads when none are asked for: all cores.
fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(2, |n| n.get())
}

/// How `tb forbid prove` searches one position.
struct ProofRun {
    options: ProveOptions,
    /// Each move of the position searched as a root of its own.
    each_move: bool,
    /// The placement values of `start --with-proofs` instead of those of `start`.
    with_proofs: bool,
}

/// `tb forbid prove`: opens the tables and forbid values of `dir` (waiting for their checks),
/// searches `position` and prints the winner, the search's size and each root move's state.
fn print_proof(
    dir: &Path,
    position: &Position,
    run: ProofRun,
    out: &mut dyn Write,
    progress: Progress,
) -> Result<(), String> {
    let ProofRun {
        options,
        each_move,
        with_proofs,
    } = run;
    let rules = Tablebase::recorded_rules(dir).map_err(|e| e.to_string())?;
    let tables = Tablebase::open(dir, rules).map_err(|e| e.to_string())?;
    let (forbid, errors) = ForbidTables::open(dir, &tables);
    if let Some(error) = errors.into_iter().next() {
        return Err(error.to_string());
    }
    let Some(mut forbid) = forbid else {
        return Err(format!(
            "no forbid files in \"{}\": run `tb forbid solve` first",
            dir.display()
        ));
    };
    let mut proved = None;
    if with_proofs {
        let placement = proved_placement_dir(dir).map_err(|e| e.to_string())?;
        forbid
            .use_placement_values(&placement, &tables)
            .map_err(|e| {
                format!("{e}: run `tb forbid start --with-proofs` after `prove --entries --write`")
            })?;
        let positions: Vec<u64> = tables.headers().iter().map(|h| h.positions).collect();
        let read = ProvedEntries::read(dir, rules, &positions).map_err(|e| e.to_string())?;
        proved = Some(Arc::new(read));
    }
    let mut corrupt = tables
        .placement()
        .map(|p| p.wait_checked())
        .unwrap_or_default();
    if let Some((_, placement)) = forbid.placement() {
        corrupt.extend(placement.wait_checked());
    }
    if let Some(path) = corrupt.first() {
        return Err(format!("\"{}\" is corrupt: not used", path.display()));
    }
    let in_hand = position.goats_in_hand();
    if in_hand != 0 && forbid.placement_value(position).is_none() {
        // Without them the search would have the whole placement phase to go through.
        return Err(format!(
            "no placement values under forbid for {in_hand} goats in hand in \"{}\": run `tb forbid start --max-in-hand {in_hand}` first",
            dir.display()
        ));
    }
    // One search from the position, or one from each of its moves, each move printed as soon
    // as it is done (a long run reports as it goes).
    enum Found {
        Position(ProveResult),
        EachMove(EachMove),
    }
    let mover = position.side_to_move();
    let (lines, printed) = std::sync::mpsc::channel::<String>();
    let search = move |prover: &mut Prover<'_>| {
        if each_move {
            let mut searched = |proof: &MoveProof| {
                // The receiver only goes when the output failed: nothing to tell then.
                let _ = lines.send(move_line(proof, mover));
            };
            Found::EachMove(prover.prove_each_move(&[*position], progress, &mut searched))
        } else {
            Found::Position(prover.prove(&[*position], progress))
        }
    };
    let (tables, forbid) = (&tables, &forbid);
    let found = std::thread::scope(|scope| {
        let thread = std::thread::Builder::new().stack_size(SEARCH_STACK);
        let spawned = thread
            // The search (and the sender it holds) moves into the thread, so that the lines
            // end when it does.
            .spawn_scoped(scope, move || {
                let mut prover = Prover::new(tables, Some(forbid), options);
                prover.set_proved(proved);
                search(&mut prover)
            })
            .map_err(|e| format!("cannot start the search: {e}"))?;
        for line in printed.iter() {
            writeln!(out, "{line}").map_err(output_error)?;
            out.flush().map_err(output_error)?;
        }
        spawned.join().map_err(|_| "the search failed".to_string())
    })?;
    match found {
        Found::Position(result) => print_result(&result, mover, out),
        Found::EachMove(each) => print_each_move(&each, mover, out),
    }
}

/// The layers of `--layers` as a mask (bit `k`: `k` goats captured), `None` when none is
/// named; each must be a layer of the tables in `dir`.
fn layer_mask(dir: &Path, layers: &[u8]) -> Result<Option<u32>, String> {
    if layers.is_empty() {
        return Ok(None);
    }
    let captures_to_win = Tablebase::recorded_rules(dir)
        .map_err(|e| e.to_string())?
        .captures_to_win;
    match layers.iter().find(|&&layer| layer >= captures_to_win) {
        Some(layer) => Err(format!(
            "--layers: no layer {layer} (the tables have layers 0 to {})",
            captures_to_win - 1
        )),
        None => Ok(Some(
            layers.iter().fold(0, |mask, &layer| mask | 1 << layer),
        )),
    }
}

/// `K/N` with `K < N`: part `K` of `N`.
fn parse_part(text: &str) -> Result<(u64, u64), String> {
    let parsed = text
        .split_once('/')
        .and_then(|(k, n)| Some((k.trim().parse().ok()?, n.trim().parse().ok()?)));
    match parsed {
        Some((k, n)) if k < n => Ok((k, n)),
        _ => Err(format!(
            "\"{text}\": expected K/N with 0 <= K < N, e.g. 0/4"
        )),
    }
}

/// One line per layer of a proof pack: its proof file's counts (by winner) and budget.
fn print_packed(layers: &[PackedLayer], out: &mut dyn Write) -> std::io::Result<()> {
    writeln!(
        out,
        "layer side     tigers-win  goats-win  unsettled  node-budget  merged"
    )?;
    for layer in layers {
        for (side, name) in [(Side::Goats, "goats"), (Side::Tigers, "tigers")] {
            let [wins, losses, unknown] = layer.counts[side.index()];
            let (tigers, goats) = match side {
                Side::Tigers => (wins, losses),
                Side::Goats => (losses, wins),
            };
            writeln!(
                out,
                "{:>5} {name:<6} {tigers:>12} {goats:>10} {unknown:>10} {:>12}  {}",
                layer.captured,
                layer.node_budget,
                if layer.merged { "yes" } else { "no" }
            )?;
        }
    }
    Ok(())
}

/// Who wins by `value` for `mover`.
fn winner(value: ForbidValue, mover: Side) -> String {
    match value {
        ForbidValue::Win => format!("{mover} win"),
        ForbidValue::Loss => format!("{} win", mover.opposite()),
        ForbidValue::Unknown => "unknown".to_string(),
    }
}

/// A search's size and root numbers: `(N nodes expanded, ...)`.
fn search_figures(result: &ProveResult) -> String {
    let (proof, disproof) = result.numbers;
    format!(
        "{} nodes expanded, {} transposition entries, root proof {} disproof {}, {:.2} s",
        result.nodes,
        result.table_entries,
        number(proof),
        number(disproof),
        result.seconds
    )
}

/// The winner of one search, its size, and each root move's state.
fn print_result(result: &ProveResult, mover: Side, out: &mut dyn Write) -> Result<(), String> {
    writeln!(
        out,
        "forbid: {} ({})",
        winner(result.value, mover),
        search_figures(result)
    )
    .map_err(output_error)?;
    for root_move in &result.root_moves {
        let (proof, disproof) = root_move.numbers;
        writeln!(
            out,
            "move {}: {} (proof {} disproof {})",
            root_move.mv,
            winner(root_move.value, mover),
            number(proof),
            number(disproof)
        )
        .map_err(output_error)?;
    }
    Ok(())
}

/// One move searched alone: its winner and search (or the move it shares its result with).
fn move_line(proof: &MoveProof, mover: Side) -> String {
    let value = winner(proof.result.value.negate(), mover);
    match proof.same_as {
        Some(earlier) => format!(
            "move {}: {value} (as {earlier}: the same position up to a symmetry)",
            proof.mv
        ),
        None => format!(
            "move {}: {value} ({})",
            proof.mv,
            search_figures(&proof.result)
        ),
    }
}

/// The winner by the searches of each move (whose lines came first, one as each was done).
fn print_each_move(each: &EachMove, mover: Side, out: &mut dyn Write) -> Result<(), String> {
    let settled = each
        .moves
        .iter()
        .filter(|m| m.result.value != ForbidValue::Unknown)
        .count();
    writeln!(
        out,
        "forbid: {} (each move searched alone: {settled} of {} settled)",
        winner(each.value, mover),
        each.moves.len()
    )
    .map_err(output_error)
}

/// A proof or disproof number, `inf` when it cannot be reached.
fn number(n: u32) -> String {
    match n {
        u32::MAX => "inf".to_string(),
        n => n.to_string(),
    }
}
