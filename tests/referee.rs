//! Black-box tests of the referee binary against the mock engine: faults give the right
//! terminations and exit codes, only engines left unusable stop the run (or are restarted with
//! `--recover`), stale output is never taken as a move, no process (nor a child of one) is left
//! behind, records round-trip, resume and shards + merge reproduce one run, concurrency does not
//! change results.

mod referee_support;

use baghchal::referee::outcome::Termination;
use baghchal::referee::record::{read_records, GameRecord};
use referee_support::{
    mock, pids_in, referee, stderr, stdout, temp_dir, without_times, MOCK, REFEREE,
};
use std::path::Path;
use std::process::{Command, Output};

/// A two-engine match of mock engines (stall and handshake timeouts 300 ms unless `extra` sets
/// them); returns the output and the JSON records.
fn play(dir: &Path, tag: &str, b_flags: &[&str], extra: &[&str]) -> (Output, Vec<GameRecord>) {
    let json = dir.join(format!("{tag}.jsonl"));
    let mut args = mock("A", 1, &[]);
    args.extend(mock("B", 2, b_flags));
    args.extend(
        ["-each", "depth=1", "-seed", "5", "-jsonout"]
            .iter()
            .map(|s| s.to_string()),
    );
    args.push(json.to_str().unwrap().to_string());
    for timeout in ["-stall-timeout", "-handshake-timeout"] {
        if !extra.contains(&timeout) {
            args.extend([timeout.to_string(), "300".to_string()]);
        }
    }
    args.extend(extra.iter().map(|s| s.to_string()));
    let arg_refs: Vec<&str> = args.iter().map(String::as_str).collect();
    let output = referee(&arg_refs);
    let records = if json.exists() {
        read_records(json.to_str().unwrap()).unwrap()
    } else {
        Vec::new()
    };
    (output, records)
}

#[cfg(target_os = "linux")]
fn processes_with(tag: &str) -> usize {
    std::fs::read_dir("/proc")
        .unwrap()
        .filter_map(|entry| std::fs::read(entry.ok()?.path().join("cmdline")).ok())
        .filter(|cmdline| String::from_utf8_lossy(cmdline).contains(tag))
        .count()
}

/// Whether process `pid` is alive and is one of ours (its command line has `tag`): a zombie, or
/// a pid now used by another program, is not.
#[cfg(target_os = "linux")]
fn is_alive(pid: u32, tag: &str) -> bool {
    let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
        return false;
    };
    // The state follows the command name in parentheses, which may itself hold ") ".
    let state = stat
        .rsplit_once(") ")
        .and_then(|(_, rest)| rest.chars().next());
    let cmdline = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
    state != Some('Z') && String::from_utf8_lossy(&cmdline).contains(tag)
}

/// Waits (up to a minute: SIGKILL takes effect asynchronously) until none of `pids` is alive;
/// returns those still alive.
#[cfg(target_os = "linux")]
fn survivors(pids: &[u32], tag: &str) -> Vec<u32> {
    for _ in 0..600 {
        if pids.iter().all(|&pid| !is_alive(pid, tag)) {
            return Vec::new();
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    pids.iter()
        .copied()
        .filter(|&pid| is_alive(pid, tag))
        .collect()
}

#[test]
fn engines_left_unusable_give_their_termination_and_stop_the_run_without_recover() {
    let dir = temp_dir("faults");
    let timed = ["-rounds", "2", "-each", "tc=0.2+0"];
    for (flags, extra, termination, needle) in [
        (
            &["--behaviour=crash", "--after=2"][..],
            &["-rounds", "2"][..],
            Termination::Disconnect,
            "disconnect: crashed: exit status 1",
        ),
        (
            &["--behaviour=segfault", "--after=1"][..],
            &["-rounds", "2"][..],
            Termination::Disconnect,
            "disconnect: crashed: killed by signal 11 (SIGSEGV)",
        ),
        (
            &["--behaviour=exit-on-go"][..],
            &["-rounds", "2"][..],
            Termination::Disconnect,
            "crashed: exit status 1",
        ),
        (
            &["--behaviour=stall", "--after=1"][..],
            &["-rounds", "2"][..],
            Termination::Stall,
            "no bestmove within 3",
        ),
        (
            // Timed: lost on time, and unusable because not even `stop` brings an answer.
            &["--behaviour=stall", "--after=1"][..],
            &timed[..],
            Termination::TimeForfeit,
            "ms allowed, nor within 3",
        ),
        (
            &["--behaviour=no-uciok"][..],
            &["-rounds", "2"][..],
            Termination::Stall,
            "no uciok within 3",
        ),
        (
            // The isready barrier before a go.
            &["--behaviour=no-readyok", "--after=2"][..],
            &timed[..],
            Termination::Stall,
            "no readyok within 3",
        ),
    ] {
        let (output, records) = play(&dir, "fault", flags, extra);
        assert_eq!(
            output.status.code(),
            Some(3),
            "{flags:?}: {}",
            stderr(&output)
        );
        assert!(
            stderr(&output).contains("engine \"B\" (tigers) lost game 1"),
            "{}",
            stderr(&output)
        );
        assert_eq!(
            records.len(),
            1,
            "{flags:?}: the run stops after the faulty game"
        );
        let record = &records[0];
        assert_eq!(
            record.termination, termination,
            "{flags:?}: {}",
            record.reason
        );
        assert!(
            record.reason.starts_with("Tigers lose: "),
            "{}",
            record.reason
        );
        assert!(
            record.reason.contains(needle),
            "{flags:?}: {}",
            record.reason
        );
        std::fs::remove_file(dir.join("fault.jsonl")).unwrap();
    }
}

#[test]
fn late_and_illegal_answers_lose_the_game_but_the_run_goes_on_with_the_same_engine() {
    let dir = temp_dir("ordinary");
    for (tag, flags, extra, termination) in [
        (
            "late",
            &["--behaviour=late", "--delay-ms=150"][..],
            // Generous handshake timeout: it bounds the wait for bestmove after stop.
            &["-each", "tc=0.1+0", "-handshake-timeout", "5000"][..],
            Termination::TimeForfeit,
        ),
        (
            "illegal",
            &["--behaviour=illegal", "--after=3"][..],
            &[][..],
            Termination::IllegalMove,
        ),
        (
            "malformed",
            &["--behaviour=malformed", "--after=1"][..],
            &[][..],
            Termination::IllegalMove,
        ),
    ] {
        let pids = dir.join(format!("{tag}.pids"));
        let pid_flag = format!("--pid-file={}", pids.display());
        let mut b_flags = flags.to_vec();
        b_flags.push(&pid_flag);
        let mut args = vec!["-rounds", "2"];
        args.extend(extra);
        let (output, records) = play(&dir, tag, &b_flags, &args);
        assert_eq!(output.status.code(), Some(0), "{tag}: {}", stderr(&output));
        assert_eq!(records.len(), 4, "{tag}");
        for record in &records {
            assert_eq!(record.termination, termination, "{}", record.reason);
            assert_eq!(record.points_of("A"), Some(1.0));
        }
        assert_eq!(pids_in(&pids).len(), 1, "{tag}: B was never restarted");
    }
    // The time forfeits are recorded with the time used and allowed, and summed up per engine.
    let records = read_records(dir.join("late.jsonl").to_str().unwrap()).unwrap();
    for record in &records {
        let forfeit = record
            .time_forfeit
            .expect("a time forfeit records its times");
        assert!(forfeit.time_ms > forfeit.allowed_ms, "{forfeit:?}");
        assert!(forfeit.allowed_ms <= 100, "{forfeit:?}");
        assert!(record.reason.contains("ms allowed"), "{}", record.reason);
    }
    let (output, _) = play(
        &dir,
        "late-again",
        &["--behaviour=late", "--delay-ms=150"],
        &["-each", "tc=0.1+0", "-handshake-timeout", "5000"],
    );
    let text = stdout(&output);
    assert!(
        text.contains("Time of B: 2 timed answers, time forfeits 2, largest overrun "),
        "{text}"
    );
    assert!(text.contains("Time of A: "), "{text}");
    assert!(
        stderr(&output).contains("referee: 2 time forfeits"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn recover_restarts_crashed_engines_and_goes_on() {
    let dir = temp_dir("recover");
    let pids = dir.join("crash.pids");
    let (output, records) = play(
        &dir,
        "crash",
        &[
            "--behaviour=crash",
            "--after=1",
            &format!("--pid-file={}", pids.display()),
        ],
        &["-recover", "-rounds", "3"],
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(records.len(), 6);
    assert!(records
        .iter()
        .all(|r| r.termination == Termination::Disconnect));
    let text = stdout(&output);
    assert!(
        text.contains(
            "Finished game 6 (B vs A): 0-1 {Goats lose: disconnect: crashed: exit status 1}"
        ),
        "{text}"
    );
    assert!(
        text.contains("Score of A vs B: 6 - 0 - 0  [1.000] 6"),
        "{text}"
    );
    assert_eq!(pids_in(&pids).len(), 6, "B is restarted after each crash");
}

#[test]
fn stale_bestmoves_are_drained_and_never_played() {
    let dir = temp_dir("stale");
    let pgn = dir.join("stale.pgn");
    let (output, records) = play(
        &dir,
        "stale",
        &["--behaviour=extra-bestmove"],
        &[
            "-rounds",
            "2",
            "-each",
            "tc=30+0.1",
            "-pgnout",
            pgn.to_str().unwrap(),
        ],
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(records.len(), 4);
    for record in &records {
        assert!(
            matches!(
                record.termination,
                Termination::Normal | Termination::Adjudication
            ),
            "{}",
            record.reason
        );
        // Every engine move has its time and the allowance in force.
        for played in record.moves.iter().filter(|m| !m.book) {
            assert!(played.time_ms.is_some() && played.allowed_ms.is_some());
        }
    }
    // Every move answered its own go: it carries the score of that search's info line.
    for record in read_records(pgn.to_str().unwrap()).unwrap() {
        assert!(
            record.moves.iter().all(|m| m.book || m.depth == Some(1)),
            "{record:?}"
        );
    }
    assert!(
        stderr(&output).contains("stale line ignored"),
        "{}",
        stderr(&output)
    );
}

#[cfg(target_os = "linux")]
#[test]
fn a_crashed_engines_children_are_killed_and_the_reason_names_the_exit() {
    let dir = temp_dir("children");
    let tag = format!("--tag=orphan-{}", std::process::id());
    for (behaviour, needle) in [
        ("crash", "Tigers lose: disconnect: crashed: exit status 1"),
        (
            "segfault",
            "Tigers lose: disconnect: crashed: killed by signal 11",
        ),
    ] {
        for holds_output in [false, true] {
            let name = format!("{behaviour}-{holds_output}");
            let pids = dir.join(format!("{name}.pids"));
            let mut flags = vec![
                format!("--behaviour={behaviour}"),
                "--after=1".to_string(),
                format!("--spawn-child={}", pids.display()),
                tag.clone(),
            ];
            if holds_output {
                // The child keeps the pipe open: the crash shows as the engine's exit, not as
                // the end of its output.
                flags.push("--child-holds-output".to_string());
            }
            let flags: Vec<&str> = flags.iter().map(String::as_str).collect();
            let (output, records) = play(&dir, &name, &flags, &["-rounds", "1", "-recover"]);
            assert_eq!(output.status.code(), Some(0), "{name}: {}", stderr(&output));
            assert_eq!(records.len(), 2, "{name}");
            let tigers_game = &records[0];
            assert_eq!(tigers_game.termination, Termination::Disconnect);
            assert!(
                tigers_game.reason.starts_with(needle),
                "{name}: {}",
                tigers_game.reason
            );
            let children = pids_in(&pids);
            assert_eq!(children.len(), 2, "{name}: one child per start of B");
            assert_eq!(survivors(&children, &tag), Vec::<u32>::new(), "{name}");
        }
    }
}

#[test]
fn garbage_lines_are_ignored_and_games_finish_normally() {
    let dir = temp_dir("garbage");
    let (output, records) = play(
        &dir,
        "garbage",
        &["--behaviour=garbage"],
        &[
            "-rounds",
            "2",
            "-pgnout",
            dir.join("g.pgn").to_str().unwrap(),
        ],
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(records.len(), 4);
    assert!(records.iter().all(|r| r.termination == Termination::Normal));
    let pgn = read_records(dir.join("g.pgn").to_str().unwrap()).unwrap();
    assert_eq!(pgn.len(), 4);
    for (from_pgn, from_json) in pgn.iter().zip(&records) {
        assert_eq!(
            from_pgn.moves.iter().map(|m| m.mv).collect::<Vec<_>>(),
            from_json.moves.iter().map(|m| m.mv).collect::<Vec<_>>()
        );
        assert_eq!(
            (from_pgn.result, &from_pgn.reason),
            (from_json.result, &from_json.reason)
        );
        assert!(from_pgn
            .moves
            .iter()
            .all(|m| m.time_ms.is_some() && m.depth == Some(1)));
    }
}

#[test]
fn results_do_not_depend_on_concurrency() {
    let dir = temp_dir("concurrency");
    let (one, serial) = play(&dir, "one", &[], &["-rounds", "4"]);
    let (three, parallel) = play(&dir, "three", &[], &["-rounds", "4", "-concurrency", "3"]);
    assert_eq!(without_times(&serial), without_times(&parallel));
    assert_eq!(serial.len(), 8);
    let finished = |output: &Output| -> Vec<String> {
        stdout(output)
            .lines()
            .filter(|l| !l.starts_with("Started"))
            .map(str::to_string)
            .collect()
    };
    assert_eq!(finished(&one), finished(&three));
}

#[test]
fn shards_and_merge_equal_one_run_and_resume_completes_a_run() {
    let dir = temp_dir("shards");
    let (_, whole) = play(&dir, "whole", &[], &["-rounds", "5"]);
    let (_, first) = play(&dir, "s1", &[], &["-rounds", "5", "-shard", "1/2"]);
    let (_, second) = play(&dir, "s2", &[], &["-rounds", "5", "-shard", "2/2"]);
    assert_eq!(first.len() + second.len(), whole.len());
    let merge = |files: &[&str]| -> String {
        let paths: Vec<String> = files
            .iter()
            .map(|f| dir.join(f).to_str().unwrap().to_string())
            .collect();
        let mut args = vec!["merge"];
        args.extend(paths.iter().map(String::as_str));
        let output = referee(&args);
        assert!(output.status.success(), "{}", stderr(&output));
        stdout(&output)
    };
    assert_eq!(merge(&["s2.jsonl", "s1.jsonl"]), merge(&["whole.jsonl"]));
    assert!(merge(&["whole.jsonl"]).contains("Ptnml(0-2): ["));
    // Resume: keep the first three games, then finish the match.
    let text = std::fs::read_to_string(dir.join("whole.jsonl")).unwrap();
    let mut head: String = text.lines().take(3).map(|l| format!("{l}\n")).collect();
    // A run killed while writing leaves half a line: resuming drops it.
    head.push_str(&text.lines().nth(3).unwrap()[..30]);
    std::fs::write(dir.join("resumed.jsonl"), head).unwrap();
    let (output, resumed) = play(&dir, "resumed", &[], &["-rounds", "5", "-resume"]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(
        !stdout(&output).contains("Started game 3 of"),
        "{}",
        stdout(&output)
    );
    assert_eq!(without_times(&resumed), without_times(&whole));
    // Records of another schedule (other openings) are refused.
    let openings = dir.join("openings.txt");
    std::fs::write(&openings, "moves c3 a1b2\nmoves b3 e5d4\n").unwrap();
    let (output, _) = play(
        &dir,
        "resumed",
        &[],
        &[
            "-rounds",
            "5",
            "-resume",
            "-openings",
            openings.to_str().unwrap(),
        ],
    );
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("not part of this match's schedule"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn bad_command_lines_fail_before_anything_starts() {
    let dir = temp_dir("bad");
    let openings = dir.join("openings.txt");
    std::fs::write(&openings, "moves c3\nmoves c3 a1a3\n").unwrap();
    for (args, needle) in [
        (
            vec![
                "-engine",
                "cmd=/nonexistent/x",
                "depth=1",
                "-engine",
                "cmd=/nonexistent/y",
                "depth=1",
            ],
            "not found",
        ),
        (
            vec![
                "-engine",
                &format!("cmd={MOCK}"),
                "-engine",
                &format!("cmd={MOCK}"),
                "depth=1",
            ],
            "no limit",
        ),
        (
            vec![
                "-engine",
                &format!("cmd={MOCK}"),
                "depth=1",
                "bogus=2",
                "-engine",
                &format!("cmd={MOCK}"),
            ],
            "\"bogus\"",
        ),
        (
            vec![
                "-engine",
                &format!("cmd={MOCK}"),
                "depth=1",
                "name=X",
                "-engine",
                &format!("cmd={MOCK}"),
                "depth=1",
                "-openings",
                openings.to_str().unwrap(),
            ],
            "line 2",
        ),
        (
            vec![
                "-engine",
                &format!("cmd={MOCK}"),
                "depth=1",
                "name=X",
                "-engine",
                &format!("cmd={MOCK}"),
                "depth=1",
                "-sprt",
                "elo0=1",
            ],
            "elo1",
        ),
        (
            vec![
                "-engine",
                &format!("cmd={MOCK}"),
                "depth=1",
                "name=X",
                "-engine",
                &format!("cmd={MOCK}"),
                "depth=1",
                "-shard",
                "3/2",
            ],
            "\"3/2\"",
        ),
    ] {
        let output = referee(&args);
        assert_eq!(
            output.status.code(),
            Some(2),
            "{args:?}: {}",
            stderr(&output)
        );
        assert!(
            stderr(&output).contains(needle),
            "{args:?}: {}",
            stderr(&output)
        );
        assert!(!stdout(&output).contains("Started"), "{args:?}");
    }
}

#[cfg(target_os = "linux")]
#[test]
fn no_engine_is_left_behind_after_quit_refusal_or_interrupt() {
    let dir = temp_dir("leftovers");
    let tag = format!("--tag=leftover-{}", std::process::id());
    let children = dir.join("children.pids");
    let child_flag = format!("--spawn-child={}", children.display());
    let (output, records) = play(
        &dir,
        "stubborn",
        &["--behaviour=ignore-quit", &tag, &child_flag],
        &["-rounds", "1"],
    );
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(records.len(), 2);
    assert_eq!(pids_in(&children).len(), 1);
    assert_eq!(survivors(&pids_in(&children), &tag), Vec::<u32>::new());
    assert_eq!(processes_with(&tag), 0);
    // Ctrl-C in the middle of a match: exit 130, complete records only, engines gone.
    let json = dir.join("interrupted.jsonl");
    let mut args = mock(
        "A",
        1,
        &[&tag, "--behaviour=late", "--delay-ms=5", &child_flag],
    );
    args.extend(mock("B", 2, &[&tag]));
    args.extend(
        [
            "-each",
            "depth=1",
            "-rounds",
            "12",
            "-concurrency",
            "2",
            "-jsonout",
            json.to_str().unwrap(),
        ]
        .map(String::from),
    );
    let child = Command::new(REFEREE)
        .args(&args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(1000));
    assert!(processes_with(&tag) > 0);
    // SAFETY: sends SIGINT to the referee child we just started.
    unsafe {
        libc::kill(child.id() as libc::pid_t, libc::SIGINT);
    }
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(130));
    let records = read_records(json.to_str().unwrap()).unwrap();
    assert!(
        !records.is_empty() && records.len() < 24,
        "{}",
        records.len()
    );
    assert!(records
        .iter()
        .all(|r| r.termination != Termination::Interrupt));
    assert_eq!(survivors(&pids_in(&children), &tag), Vec::<u32>::new());
    assert_eq!(processes_with(&tag), 0);
    // The records so far are valid: resuming completes the match.
    let output = Command::new(REFEREE)
        .args(&args)
        .arg("-resume")
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", stderr(&output));
    let mut numbers: Vec<u64> = read_records(json.to_str().unwrap())
        .unwrap()
        .iter()
        .map(|r| r.number)
        .collect();
    numbers.sort_unstable();
    assert_eq!(numbers, (1..=24).collect::<Vec<u64>>());
    assert_eq!(survivors(&pids_in(&children), &tag), Vec::<u32>::new());
    assert_eq!(processes_with(&tag), 0);
}
