//! A sharded match on a real (one-node) Slurm cluster: tools/slurm/submit.sh sends a 2-task
//! job array and the merge job, follows them with `referee merge --watch` and waits by
//! polling squeue; the merged records and statistics must equal the unsharded run's with the
//! same seed.
//!
//! The cluster is the one tools/slurm-local.sh brings up (and tears down again if this test
//! started it). Outside CI the test says plainly that it skipped when no cluster can be
//! started; in CI (CI=true) that is a failure, and the script may install slurm-wlm and munge.

mod referee_support;

use baghchal::referee::record::read_records;
use referee_support::*;
use std::process::{Command, Output};

const LOCAL: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tools/slurm-local.sh");
const SUBMIT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tools/slurm/submit.sh");
const CONF: &str = "/var/tmp/baghchal-slurm/slurm.conf";

fn local(args: &[&str]) -> Output {
    Command::new("bash")
        .arg(LOCAL)
        .args(args)
        .env_remove("SLURM_LOCAL_DIR")
        .output()
        .expect("bash runs")
}

/// Stops the cluster when the test started it, also when the test fails.
struct Cluster {
    started: bool,
}

impl Drop for Cluster {
    fn drop(&mut self) {
        if self.started {
            let output = local(&["down"]);
            eprintln!("{}", text(&output.stderr));
        }
    }
}

/// A running cluster: the one already up, or one started now; None (after saying why) when
/// none can be had outside CI.
fn cluster() -> Option<Cluster> {
    if local(&["status"]).status.success() {
        return Some(Cluster { started: false });
    }
    let install = if in_ci() { "" } else { "--no-install" };
    let output = local(&["up", install]);
    if output.status.success() {
        return Some(Cluster { started: true });
    }
    skip(
        "a_slurm_job_array_reproduces_the_unsharded_run",
        &format!(
            "no one-node Slurm could be started by tools/slurm-local.sh: {}",
            text(&output.stderr).trim()
        ),
    );
    None
}

#[test]
fn a_slurm_job_array_reproduces_the_unsharded_run() {
    let Some(_cluster) = cluster() else { return };
    let dir = temp_dir("slurm");
    let openings = openings(&dir);
    let args = match_args(&openings, 8, &[]);
    let whole = path(&dir, "whole.jsonl");
    let expected = unsharded(&args, &whole);
    let out = path(&dir, "runs");
    let output = Command::new("bash")
        .arg(SUBMIT)
        .args(["--shards", "2", "--out", &out, "--name", "test"])
        .args(["--referee", REFEREE, "--watch", "0.5", "--"])
        .args(&args)
        .env("SLURM_CONF", CONF)
        .output()
        .unwrap();
    let stdout = text(&output.stdout);
    assert!(
        output.status.success(),
        "{stdout}\n{}",
        text(&output.stderr)
    );
    let run = stdout
        .lines()
        .find_map(|l| l.strip_prefix("run directory: "))
        .expect("the submit script says where the run is");
    assert!(run.starts_with(&format!("{out}/test-")), "{run}");
    assert!(stdout.contains("Watch: every shard finished; 16 games, complete\n"));
    let jobs = std::fs::read_to_string(format!("{run}/jobs")).unwrap();
    assert!(jobs.starts_with("array="), "{jobs}");
    for shard in 1..=2 {
        let marker = std::fs::read_to_string(format!("{run}/shard-{shard}.jsonl.done")).unwrap();
        let complete = format!("{{\"shard\":\"{shard}/2\",\"end\":\"complete\",\"scheduled\":8,");
        assert!(marker.starts_with(&complete), "{marker}");
    }
    let result = std::fs::read_to_string(format!("{run}/result.txt")).unwrap();
    assert_eq!(result, merged(&[whole]));
    assert!(
        stdout.ends_with(&result),
        "the submit script prints the result"
    );
    let records = read_records(&format!("{run}/merged.jsonl")).unwrap();
    assert_eq!(without_times(&records), without_times(&expected));
    assert_eq!(records.len(), 16);
}
