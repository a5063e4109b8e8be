//! `referee merge --watch` on shard records that grow while it watches: it ends with the same
//! statistics as a plain merge of the unsharded run, reports half-written, corrupt and
//! duplicate records without stopping, stops once the SPRT is decided, and reads the shards'
//! end markers (written however a shard ends).

mod referee_support;

use referee_support::*;
use std::io::Write;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

fn watch(files: &[String], extra: &[&str]) -> Child {
    let mut args = vec!["merge", "--watch", "--interval", "0.1"];
    args.extend(files.iter().map(String::as_str));
    args.extend(extra);
    Command::new(REFEREE)
        .args(&args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Waits up to a minute for the watch to end; returns (exit code, stdout, stderr).
fn finish(mut child: Child) -> (Option<i32>, String, String) {
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > Duration::from_secs(60) {
            child.kill().unwrap();
            panic!("the watch did not end");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let output = child.wait_with_output().unwrap();
    (
        output.status.code(),
        text(&output.stdout),
        text(&output.stderr),
    )
}

fn append(file: &str, text: &str) {
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(file)
        .unwrap();
    f.write_all(text.as_bytes()).unwrap();
}

fn marker(file: &str, shard: &str, games: usize, total: usize) {
    let text = format!(
        "{{\"shard\":\"{shard}\",\"end\":\"complete\",\"scheduled\":{games},\"recorded\":{games},\"match_games\":{total}}}\n"
    );
    std::fs::write(format!("{file}.done"), text).unwrap();
}

/// The last score block the watch printed (after its last `Watch ... s:` line, without the
/// closing `Watch:` line).
fn last_block(stdout: &str) -> String {
    let lines: Vec<&str> = stdout.lines().collect();
    let start = lines.iter().rposition(|l| l.starts_with("Watch ")).unwrap() + 1;
    let end = lines.iter().rposition(|l| l.starts_with("Watch:")).unwrap();
    lines[start..end].iter().map(|l| format!("{l}\n")).collect()
}

/// The unsharded run's JSON lines split like shards 1/2 and 2/2 (odd and even pairs).
fn split(dir: &Path) -> (Vec<String>, Vec<String>, String) {
    let openings = openings(dir);
    let whole = path(dir, "whole.jsonl");
    unsharded(&match_args(&openings, 8, &[]), &whole);
    let text = std::fs::read_to_string(&whole).unwrap();
    let (odd, even): (Vec<&str>, Vec<&str>) = text.lines().partition(|line| {
        let pair = line.split("\"pair\":").nth(1).unwrap();
        pair.split(',').next().unwrap().parse::<u64>().unwrap() % 2 == 1
    });
    let lines = |v: Vec<&str>| v.iter().map(|l| format!("{l}\n")).collect();
    (lines(odd), lines(even), whole)
}

#[test]
fn watch_follows_growing_shards_to_the_unsharded_result() {
    let dir = temp_dir("watch-grow");
    let (first, second, whole) = split(&dir);
    let files = vec![path(&dir, "shard-1.jsonl"), path(&dir, "shard-2.jsonl")];
    let child = watch(&files, &[]);
    std::thread::sleep(Duration::from_millis(300));
    // Shard 1 writes half its games and half a line; shard 2 has not started.
    for line in &first[..4] {
        append(&files[0], line);
    }
    append(&files[0], &first[4][..50]);
    std::thread::sleep(Duration::from_millis(1000));
    append(&files[0], &first[4][50..]);
    for line in &first[5..] {
        append(&files[0], line);
    }
    marker(&files[0], "1/2", first.len(), 16);
    std::thread::sleep(Duration::from_millis(300));
    // Shard 2 records one game twice (a requeued task that replayed it).
    for line in second.iter().chain(&second[..1]) {
        append(&files[1], line);
    }
    marker(&files[1], "2/2", second.len(), 16);
    let (code, stdout, stderr) = finish(child);
    assert_eq!(code, Some(0), "{stdout}\n{stderr}");
    assert!(
        stdout.contains("0 shards running, 0 finished, 2 not started"),
        "{stdout}"
    );
    assert!(
        stdout.contains("1 shards running, 0 finished, 1 not started\nGames: 4\n"),
        "half a line is left for later: {stdout}"
    );
    assert!(stdout.ends_with("Watch: every shard finished; 16 games, complete\n"));
    assert_eq!(last_block(&stdout), merged(&[whole]));
    assert!(stderr.contains("is recorded twice"), "{stderr}");
    assert!(!stderr.contains("skipped"), "{stderr}");
}

#[test]
fn watch_reports_bad_records_and_missing_games_and_still_ends() {
    let dir = temp_dir("watch-bad");
    let (first, second, _) = split(&dir);
    let files = vec![path(&dir, "shard-1.jsonl"), path(&dir, "shard-2.jsonl")];
    // Shard 1 was killed mid-line; shard 2 has a corrupt line and a conflicting game 1.
    let cut: String = first[..3].concat() + &first[3][..40];
    std::fs::write(&files[0], cut).unwrap();
    marker(&files[0], "1/2", first.len(), 16);
    let conflict = first[0].replace(
        "\"goat\":\"A\",\"tiger\":\"B\"",
        "\"goat\":\"B\",\"tiger\":\"A\"",
    );
    assert_ne!(conflict, first[0]);
    let bad = second[..2].concat() + "{\"game\":\n" + &second[2..].concat() + &conflict;
    std::fs::write(&files[1], bad).unwrap();
    marker(&files[1], "2/2", second.len(), 16);
    let (code, stdout, stderr) = finish(watch(&files, &[]));
    assert_eq!(code, Some(12), "{stdout}\n{stderr}");
    assert!(
        stdout.ends_with("Watch: every shard finished; 11 games, incomplete\n"),
        "{stdout}"
    );
    let shard1 = format!("records file \"{}\": line 4: ", files[0]);
    assert!(stderr.contains(&shard1), "{stderr}");
    assert!(stderr.contains("an incomplete last record"), "{stderr}");
    let shard2 = format!("records file \"{}\": line 3: ", files[1]);
    assert!(stderr.contains(&shard2), "{stderr}");
    assert!(
        stderr.contains("game 1 appears twice with different players or results"),
        "{stderr}"
    );
    assert!(stderr.contains("11 games recorded of the 16"), "{stderr}");
    // A plain merge refuses the corrupt line, naming it.
    let output = referee(&["merge".into(), files[1].clone()]);
    assert_eq!(output.status.code(), Some(2));
    assert!(text(&output.stderr).contains("line 3:"));
    // ... but leaves out a half-written last line with a warning.
    let output = referee(&["merge".into(), files[0].clone()]);
    assert!(output.status.success(), "{}", text(&output.stderr));
    assert!(text(&output.stdout).starts_with("Games: 3\n"));
    assert!(text(&output.stderr).contains("left out"));
}

/// Sends SIGTERM to a running shard (as scancel does) and waits for it.
fn terminate(mut shard: Child) -> Option<i32> {
    // SAFETY: kill(2) on the pid of a child we spawned and have not reaped.
    unsafe { libc::kill(shard.id() as i32, libc::SIGTERM) };
    shard.wait().unwrap().code()
}

#[test]
fn watch_stops_once_the_sprt_is_decided_and_markers_tell_how_shards_ended() {
    let dir = temp_dir("watch-sprt");
    let openings = openings(&dir);
    // B crashes 20 moves into each game (-recover restarts it): A is clearly stronger.
    let args = match_args(&openings, 2000, &["--behaviour=crash", "--after=20"]);
    let files = vec![path(&dir, "shard-1.jsonl"), path(&dir, "shard-2.jsonl")];
    let shards: Vec<Child> = (0..2)
        .map(|i| {
            Command::new(REFEREE)
                .args(&args)
                .args(["-shard", &format!("{}/2", i + 1), "-jsonout", &files[i]])
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .unwrap()
        })
        .collect();
    let (code, stdout, stderr) = finish(watch(&files, &["-sprt", "elo0=0", "elo1=20"]));
    let running = files
        .iter()
        .filter(|f| !Path::new(&format!("{f}.done")).exists())
        .count();
    let codes: Vec<Option<i32>> = shards.into_iter().map(terminate).collect();
    assert_eq!(code, Some(11), "{stdout}\n{stderr}");
    assert!(stdout.contains("- H1 was accepted\nWatch: SPRT decided (H1 was accepted) after "));
    assert_eq!(running, 2, "the shards were still playing");
    assert_eq!(codes, vec![Some(130), Some(130)]);
    for (i, file) in files.iter().enumerate() {
        let marker = std::fs::read_to_string(format!("{file}.done")).unwrap();
        let expected = format!(
            "{{\"shard\":\"{}/2\",\"end\":\"interrupted\",\"scheduled\":2000,\"recorded\":",
            i + 1
        );
        assert!(marker.starts_with(&expected), "{marker}");
        assert!(marker.ends_with(",\"match_games\":4000}\n"), "{marker}");
    }
}

#[test]
fn a_shard_that_cannot_start_says_so_in_its_marker() {
    let dir = temp_dir("watch-error");
    let openings = openings(&dir);
    let mut args = match_args(&openings, 2, &[]);
    let files = vec![path(&dir, "shard-1.jsonl"), path(&dir, "shard-2.jsonl")];
    let good = referee(
        &[
            args.clone(),
            vec![
                "-shard".into(),
                "2/2".into(),
                "-jsonout".into(),
                files[1].clone(),
            ],
        ]
        .concat(),
    );
    assert!(good.status.success(), "{}", text(&good.stderr));
    let marker = std::fs::read_to_string(format!("{}.done", files[1])).unwrap();
    assert_eq!(
        marker,
        "{\"shard\":\"2/2\",\"end\":\"complete\",\"scheduled\":2,\"recorded\":2,\"match_games\":4}\n"
    );
    args[1] = "cmd=/nonexistent/engine".into();
    let bad = referee(
        &[
            args.clone(),
            vec![
                "-shard".into(),
                "1/2".into(),
                "-jsonout".into(),
                files[0].clone(),
            ],
        ]
        .concat(),
    );
    assert_eq!(bad.status.code(), Some(2));
    let marker = std::fs::read_to_string(format!("{}.done", files[0])).unwrap();
    assert!(
        marker.starts_with("{\"shard\":\"1/2\",\"end\":\"error\","),
        "{marker}"
    );
    assert!(marker.contains("not found"), "{marker}");
    let (code, stdout, stderr) = finish(watch(&files, &[]));
    assert_eq!(code, Some(12), "{stdout}\n{stderr}");
    assert!(stderr.contains("shard 1/2 ("), "{stderr}");
    assert!(
        stderr.contains("ended: error (engine \"A\": program"),
        "{stderr}"
    );
    // An SPRT belongs to the watch of all shards, not to one shard.
    let sprt = [
        match_args(&openings, 2, &[]),
        vec![
            "-shard".into(),
            "1/2".into(),
            "-sprt".into(),
            "elo0=0".into(),
            "elo1=5".into(),
        ],
    ]
    .concat();
    let output = referee(&sprt);
    assert_eq!(output.status.code(), Some(2));
    assert!(text(&output.stderr).contains("give --sprt to `referee merge --watch`"));
    let output = referee(&[
        "merge".into(),
        "--watch".into(),
        "--interval".into(),
        "0".into(),
        files[1].clone(),
    ]);
    assert_eq!(output.status.code(), Some(2));
    assert!(text(&output.stderr).contains("--interval must be between"));
}
