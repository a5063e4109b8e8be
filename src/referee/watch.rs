//! `referee merge --watch FILES...`: follows the JSON-lines records of running shards, prints
//! the merged statistics (the same [`super::report`] code as a match) whenever games were
//! added, and ends when the SPRT is decided or every shard has written its end marker
//! ([`super::shard_end`]). Problems in the files are reported on stderr and never stop it.

use super::cli::MergeArgs;
use super::console::Console;
use super::merge::{report, write_outputs, Added, MergeEnd, MergedGames};
use super::report::Standings;
use super::shard_end::{self, End, ShardEnd};
use super::stats::{Sprt, SprtResult};
use super::tail::RecordTail;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// One watched shard.
struct Watched {
    tail: RecordTail,
    /// Its end marker, once seen (then its records were read to the end).
    end: Option<ShardEnd>,
    /// A read error already reported (reported once, tried again every interval).
    read_error: bool,
}

/// Counts of the shards' states: (running, finished, not started).
fn states(shards: &[Watched]) -> (usize, usize, usize) {
    let finished = shards.iter().filter(|s| s.end.is_some()).count();
    let waiting = shards
        .iter()
        .filter(|s| s.end.is_none() && !Path::new(s.tail.path()).exists())
        .count();
    (shards.len() - finished - waiting, finished, waiting)
}

/// Reads what each unfinished shard added; returns the number of problems found.
fn poll(shards: &mut [Watched], games: &mut MergedGames) -> u64 {
    let mut problems = 0;
    for shard in shards.iter_mut().filter(|s| s.end.is_none()) {
        let path = shard.tail.path().to_string();
        // The marker first: a shard writes it after its last record, so reading the records
        // after seeing it reads them all.
        let end = shard_end::read(&path).unwrap_or_else(|message| {
            log::warn!("{message}; the shard is taken as ended by an error");
            problems += 1;
            Some(ShardEnd {
                shard: "?".into(),
                end: End::Error,
                scheduled: 0,
                recorded: 0,
                match_games: 0,
                message: Some(message),
            })
        });
        let chunk = match shard.tail.read(end.is_some()) {
            Ok(chunk) => chunk,
            Err(message) => {
                if !shard.read_error {
                    log::warn!("{message}; trying again");
                    shard.read_error = true;
                }
                continue;
            }
        };
        if chunk.restarted {
            log::warn!("records file \"{path}\" became shorter: reading it again from the start");
            games.drop_file(&path);
        }
        for bad in chunk.bad.iter().chain(&chunk.truncated) {
            log::warn!("records file \"{path}\": {bad}; skipped");
            problems += 1;
        }
        for (line, record) in chunk.records {
            match games.add(record, &path, &format!("line {line}")) {
                Added::New => {}
                Added::Duplicate(message) => log::warn!("{message}"),
                Added::Conflict(message) => {
                    log::warn!("{message}; the first is kept");
                    problems += 1;
                }
            }
        }
        shard.end = end;
    }
    problems
}

/// Whether the finished shards add up to the whole match; warns about each reason they do not.
fn complete(shards: &[Watched], games: usize) -> bool {
    let mut complete = true;
    for shard in shards {
        let Some(end) = &shard.end else { continue };
        if end.end != End::Complete {
            log::warn!(
                "shard {} (\"{}\") ended: {}{}; {} of its {} games recorded",
                end.shard,
                shard.tail.path(),
                end.end,
                end.message
                    .as_ref()
                    .map_or(String::new(), |m| format!(" ({m})")),
                end.recorded,
                end.scheduled
            );
            complete = false;
        }
        let count = end.shard.split_once('/').and_then(|(_, n)| n.parse().ok());
        if end.end != End::Error && count != Some(shards.len()) {
            log::warn!(
                "shard {} (\"{}\") is one of {} shards, but {} files are watched",
                end.shard,
                shard.tail.path(),
                count.map_or("?".into(), |n: usize| n.to_string()),
                shards.len()
            );
            complete = false;
        }
    }
    let expected = shards
        .iter()
        .filter_map(|s| s.end.as_ref())
        .map(|e| e.match_games)
        .max();
    if expected.is_some_and(|expected| expected != games as u64) {
        log::warn!(
            "{games} games recorded of the {} in the match",
            expected.unwrap_or(0)
        );
        complete = false;
    }
    complete
}

fn decision(records: &[super::record::GameRecord], sprt: Option<&Sprt>) -> Option<SprtResult> {
    let sprt = sprt?;
    match Standings::of(records).tallies.as_slice() {
        [tally] => sprt.decide(tally.llr_complete_pairs(sprt)),
        _ => None,
    }
}

/// Watches the shards until the SPRT is decided, every shard has finished, or `stop`.
///
/// # Errors
/// A bad `--interval`, or merged records that cannot be written.
pub fn watch(
    args: &MergeArgs,
    sprt: Option<&Sprt>,
    stop: &AtomicBool,
    console: &mut Console,
) -> Result<MergeEnd, String> {
    if !(args.interval > 0.0 && args.interval <= 86_400.0) {
        return Err(format!(
            "--interval must be between 0 and 86400 seconds, got '{}'",
            args.interval
        ));
    }
    let mut shards: Vec<Watched> = args
        .files
        .iter()
        .map(|path| Watched {
            tail: RecordTail::new(path),
            end: None,
            read_error: false,
        })
        .collect();
    let mut games = MergedGames::default();
    let mut problems = 0;
    let started = Instant::now();
    let mut printed = None;
    loop {
        problems += poll(&mut shards, &mut games);
        let records = games.records();
        let (running, finished, waiting) = states(&shards);
        let decided = decision(&records, sprt);
        let all_finished = finished == shards.len();
        if printed != Some((records.len(), finished)) || decided.is_some() || all_finished {
            console.line(&format!(
                "Watch {:.1} s: {running} shards running, {finished} finished, {waiting} not started",
                started.elapsed().as_secs_f64()
            ));
            for line in report(&records, sprt, true) {
                console.line(&line);
            }
            printed = Some((records.len(), finished));
        }
        let end = if let Some(result) = decided {
            let verdict = match result {
                SprtResult::AcceptH0 => "H0 was accepted",
                SprtResult::AcceptH1 => "H1 was accepted",
            };
            console.line(&format!(
                "Watch: SPRT decided ({verdict}) after {} games; the shards still running can be stopped",
                records.len()
            ));
            Some(MergeEnd::Sprt(result))
        } else if all_finished {
            let whole = complete(&shards, records.len()) && problems == 0;
            console.line(&format!(
                "Watch: every shard finished; {} games, {}",
                records.len(),
                if whole { "complete" } else { "incomplete" }
            ));
            Some(if whole {
                MergeEnd::Complete
            } else {
                MergeEnd::Incomplete
            })
        } else {
            let deadline = Instant::now() + Duration::from_secs_f64(args.interval);
            while Instant::now() < deadline && !stop.load(Ordering::SeqCst) {
                std::thread::sleep(
                    Duration::from_millis(20)
                        .min(deadline.saturating_duration_since(Instant::now())),
                );
            }
            stop.load(Ordering::SeqCst).then_some(MergeEnd::Interrupted)
        };
        if let Some(end) = end {
            write_outputs(args, &records)?;
            return Ok(end);
        }
    }
}
