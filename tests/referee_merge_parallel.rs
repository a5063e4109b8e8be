//! The shard and merge commands under GNU parallel on one machine (the command line given in
//! docs/cluster.md): the merged records and statistics equal the unsharded run's.

mod referee_support;

use baghchal::referee::record::read_records;
use referee_support::*;
use std::process::Command;

#[test]
fn gnu_parallel_shards_merge_to_the_unsharded_run() {
    let has_parallel = Command::new("parallel")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success() && text(&o.stdout).contains("GNU parallel"));
    if !has_parallel {
        skip(
            "gnu_parallel_shards_merge_to_the_unsharded_run",
            "GNU parallel is not installed (apt-get install parallel)",
        );
        return;
    }
    let dir = temp_dir("parallel");
    let openings = openings(&dir);
    let args = match_args(&openings, 6, &[]);
    let whole = path(&dir, "whole.jsonl");
    let expected = unsharded(&args, &whole);
    // parallel -j 3 REFEREE ARGS... -shard {}/3 -jsonout DIR/shard-{}.jsonl ::: 1 2 3
    let shard_file = path(&dir, "shard-{}.jsonl");
    let output = Command::new("parallel")
        .args(["--will-cite", "--halt", "now,fail=1", "-j", "3", REFEREE])
        .args(&args)
        .args([
            "-shard",
            "{}/3",
            "-jsonout",
            &shard_file,
            ":::",
            "1",
            "2",
            "3",
        ])
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", text(&output.stderr));
    let files: Vec<String> = (1..=3)
        .map(|i| path(&dir, &format!("shard-{i}.jsonl")))
        .collect();
    for (i, file) in files.iter().enumerate() {
        let marker = std::fs::read_to_string(format!("{file}.done")).unwrap();
        assert!(
            marker.starts_with(&format!("{{\"shard\":\"{}/3\",\"end\":\"complete\"", i + 1)),
            "{marker}"
        );
    }
    let all = path(&dir, "all.jsonl");
    let mut merge = vec!["merge".to_string()];
    merge.extend(files.iter().cloned());
    merge.extend(["-jsonout".to_string(), all.clone()]);
    let output = referee(&merge);
    assert!(output.status.success(), "{}", text(&output.stderr));
    assert_eq!(text(&output.stdout), merged(&[whole]));
    assert_eq!(
        without_times(&read_records(&all).unwrap()),
        without_times(&expected)
    );
    assert_eq!(expected.len(), 12);
}
