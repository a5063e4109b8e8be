//! The referee against the real engine binary over pipes: every game of a short match ends by
//! the rules or adjudication, never by a fault, and the records name the time controls.

use baghchal::referee::outcome::Termination;
use baghchal::referee::record::read_records;
use std::process::Command;

const REFEREE: &str = env!("CARGO_BIN_EXE_referee");
const ENGINE: &str = env!("CARGO_BIN_EXE_baghchal");

#[test]
fn short_match_against_the_real_engine_has_no_faults() {
    let json =
        std::env::temp_dir().join(format!("referee-engine-test-{}.jsonl", std::process::id()));
    let _ = std::fs::remove_file(&json);
    let output = Command::new(REFEREE)
        .args([
            "-engine",
            &format!("cmd={ENGINE}"),
            "name=depth2",
            "depth=2",
            "option.Hash=1",
            "-engine",
            &format!("cmd={ENGINE}"),
            "name=nodes300",
            "nodes=300",
            "-each",
            "tc=60+1",
            "-rounds",
            "2",
            "-concurrency",
            "2",
            "-seed",
            "1",
            "-maxplies",
            "120",
            "-jsonout",
            json.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    let records = read_records(json.to_str().unwrap()).unwrap();
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
    }
    assert!(records[0].goat_time_control.contains("60+1"));
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains("Score of depth2 vs nodes300: "), "{stdout}");
}
