//! `-pondering`: engines think on their opponent's time; a ponder search is turned into the move
//! by `ponderhit` when the expected reply is played, and stopped (its answer dropped) when not.

mod referee_support;

use baghchal::referee::outcome::Termination;
use referee_support::*;

/// The engine lines of a match log, without their timestamps.
fn log_bodies(file: &str) -> Vec<String> {
    let text = std::fs::read_to_string(file).unwrap();
    text.lines()
        .filter_map(|line| line.split_once(' ').map(|(_, body)| body.to_string()))
        .collect()
}

fn count(bodies: &[String], prefix: &str) -> usize {
    bodies.iter().filter(|b| b.starts_with(prefix)).count()
}

/// Two mocks that name ponder moves (seeds `a` and `b`: the same seed plays the reply the other
/// expects), four games at depth 1, with or without `-pondering`; the records and the log.
fn ponder_match(
    dir: &std::path::Path,
    tag: &str,
    seeds: (u64, u64),
    pondering: bool,
) -> (Vec<baghchal::referee::record::GameRecord>, Vec<String>) {
    let log = path(dir, &format!("{tag}.log"));
    let mut args = mock("A", seeds.0, &["--ponder"]);
    args.extend(mock("B", seeds.1, &["--ponder"]));
    args.extend(words(&format!(
        "-each depth=1 -seed 3 -rounds 2 -games 2 -ratinginterval 0 -log file={log}"
    )));
    if pondering {
        args.push("-pondering".to_string());
    }
    let (output, records) = run(dir, tag, &args);
    assert_ok(&output);
    assert_eq!(records.len(), 4, "{}", stderr(&output));
    (records, log_bodies(&log))
}

#[test]
fn a_ponder_hit_plays_the_ponder_search_and_a_miss_never_plays_its_answer() {
    let dir = temp_dir("ponder");
    for (name, seeds) in [("hits", (1, 1)), ("misses", (1, 2))] {
        let (plain, plain_log) = ponder_match(&dir, &format!("{name}-plain"), seeds, false);
        let (pondered, log) = ponder_match(&dir, name, seeds, true);
        // The same games move for move: a hit answers the position it was asked about, and a
        // stopped search's answer (for another position) is never taken for a move.
        assert_eq!(without_times(&pondered), without_times(&plain), "{name}");
        assert!(pondered.iter().all(|r| r.termination != Termination::Stall));
        assert_eq!(
            count(&plain_log, "A < go ponder"),
            0,
            "{name}: not asked for"
        );
        assert!(
            plain_log
                .iter()
                .all(|b| !b.contains("setoption name Ponder")),
            "{name}"
        );
        for engine in ["A", "B"] {
            let asked = count(&log, &format!("{engine} < go ponder"));
            let hits = count(&log, &format!("{engine} < ponderhit"));
            // (The shutdown at the end sends stop and quit.)
            let stops =
                count(&log, &format!("{engine} < stop")) - count(&log, &format!("{engine} < quit"));
            assert!(asked > 0, "{name}: {engine} never pondered");
            assert!(
                count(
                    &log,
                    &format!("{engine} < setoption name Ponder value true")
                ) > 0
            );
            // Every ponder search ends by ponderhit or stop (games end with the other side's
            // move, so the last one of a game is stopped).
            assert_eq!(hits + stops, asked, "{name}: {engine}");
            if name == "hits" {
                assert!(hits > stops, "{name}: {engine}: {hits} hits, {stops} stops");
            } else {
                assert!(stops > hits, "{name}: {engine}: {hits} hits, {stops} stops");
            }
        }
        // A move after a hit comes without a new go: fewer plain goes than moves.
        let moves: usize = pondered
            .iter()
            .map(|r| r.moves.iter().filter(|m| !m.book).count())
            .sum();
        let goes = count(&log, "A < go ") + count(&log, "B < go ")
            - count(&log, "A < go ponder")
            - count(&log, "B < go ponder");
        let hits = count(&log, "A < ponderhit") + count(&log, "B < ponderhit");
        assert_eq!(goes + hits, moves, "{name}");
    }
}

/// Mock A (seed 1) against mock B (seed `b_seed`), which answers `stop` only after 3 s.
fn against_a_slow_stopper(b_seed: u64) -> Vec<String> {
    let mut args = mock("A", 1, &["--ponder"]);
    let slow = ["--ponder", "--behaviour=slow-stop", "--delay-ms=3000"];
    args.extend(mock("B", b_seed, &slow));
    args
}

#[test]
fn an_engine_that_does_not_stop_its_ponder_search_is_recorded_and_restarted() {
    let dir = temp_dir("ponder-stall");
    let mut args = against_a_slow_stopper(2);
    args.extend(words(
        "-each depth=1 -seed 3 -rounds 1 -games 2 -ratinginterval 0 -pondering -recover \
         -handshake-timeout 500",
    ));
    let log = path(&dir, "stall.log");
    args.extend(words(&format!("-log file={log} level=info")));
    let (output, records) = run(&dir, "stall", &args);
    assert_ok(&output);
    assert_eq!(records.len(), 2, "{}", stderr(&output));
    // B's first ponder search misses (other seeds), and B does not answer its stop in time.
    for record in &records {
        assert_eq!(record.termination, Termination::Stall, "{record:?}");
        assert!(
            record
                .reason
                .contains("bestmove after stop of its ponder search"),
            "{}",
            record.reason
        );
        let b_side = match record.goat.as_str() {
            "B" => baghchal::Side::Goats,
            _ => baghchal::Side::Tigers,
        };
        assert_eq!(record.result.points_for(b_side), 0.0, "{record:?}");
    }
    // Restarted after each game, and not asked to stop again once it had lost.
    let bodies = log_bodies(&log);
    for game in [1, 2] {
        let restarted = format!("INFO referee: B: unusable after game {game}");
        assert!(
            bodies.iter().any(|b| b.starts_with(&restarted)),
            "{bodies:?}"
        );
    }
    assert!(
        !stderr(&output).contains("after game"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn an_engine_still_pondering_when_the_game_ends_is_restarted_and_its_game_stands() {
    let dir = temp_dir("ponder-end");
    // The same seeds: every ponder search hits, so the only stops come at the games' ends.
    let mut args = against_a_slow_stopper(1);
    let log = path(&dir, "end.log");
    args.extend(words(&format!(
        "-each depth=1 -seed 3 -rounds 2 -games 2 -ratinginterval 0 -pondering \
         -handshake-timeout 500 -log file={log} level=info"
    )));
    let (output, records) = run(&dir, "end", &args);
    assert_ok(&output);
    assert_eq!(records.len(), 4, "{}", stderr(&output));
    assert!(records.iter().all(
        |r| r.termination == Termination::Normal || r.termination == Termination::Adjudication
    ));
    let bodies = log_bodies(&log);
    let killed: Vec<&String> = bodies
        .iter()
        .filter(|b| b.contains("B: its ponder search did not stop after game"))
        .collect();
    assert!(!killed.is_empty(), "{bodies:?}");
    // Started again for its next game (there is none after the fourth).
    let restarts = killed
        .iter()
        .filter(|b| !b.contains("after game 4;"))
        .count();
    let starts = bodies.iter().filter(|b| *b == "B < uci").count();
    assert_eq!(
        starts,
        1 + restarts,
        "one start and a restart each: {killed:?}"
    );
}

#[test]
fn a_move_after_ponderhit_has_no_latency() {
    // Our engine reports its thinking time, counted from go ponder; the referee times such a
    // move from ponderhit, so the difference is no latency.
    let dir = temp_dir("ponder-latency");
    let log = path(&dir, "ours.log");
    let json = path(&dir, "ours.jsonl");
    let mut args = engine("X", "");
    args.extend(engine("Y", ""));
    args.extend(words(&format!(
        "-each depth=2 -seed 5 -rounds 1 -games 2 -maxplies 40 -ratinginterval 0 -pondering \
         -log file={log} -jsonout file={json} latency=true"
    )));
    let output = referee(&args);
    assert_ok(&output);
    let records = baghchal::referee::record::read_records(&json).unwrap();
    let played: Vec<_> = records
        .iter()
        .flat_map(|r| r.moves.iter().filter(|m| !m.book))
        .collect();
    let without = played
        .iter()
        .filter(|m| m.details.latency_ms.is_none())
        .count();
    let hits =
        count(&log_bodies(&log), "X < ponderhit") + count(&log_bodies(&log), "Y < ponderhit");
    assert!(hits > 0, "no ponder hit");
    assert_eq!(without, hits, "{} moves", played.len());
}
