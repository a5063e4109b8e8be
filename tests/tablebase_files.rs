//! Tablebase files: resumable generation, verification, corrupt and mismatched files, the CLI.

use baghchal::tablebase::file::{layer_path, read_layer, write_layer};
use baghchal::tablebase::solve::generate_tables;
use baghchal::tablebase::verify::verify_tables;
use baghchal::tablebase::{Corruption, Tablebase, TablebaseError};
use baghchal::Rules;
use std::path::{Path, PathBuf};
use std::process::Command;

fn quiet(_: &str, _: u64, _: u64) {}

/// A fresh directory holding tables for captures_to_win = 2 (layers 0 and 1).
fn fresh_tables(name: &str, forced_capture: bool) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("baghchal-tb-files-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let reports = generate_tables(&dir, forced_capture, 2, 2, &quiet).expect("generation");
    assert!(reports.iter().all(|report| !report.resumed));
    dir
}

fn rules(forced_capture: bool, captures_to_win: u8) -> Rules {
    Rules {
        forced_capture,
        captures_to_win,
        ..Rules::default()
    }
}

fn open_error(dir: &Path, rules: &Rules) -> TablebaseError {
    Tablebase::open(dir, rules).expect_err("must be refused")
}

#[test]
fn generation_resumes_and_verifies() {
    let dir = fresh_tables("resume", false);
    let again = generate_tables(&dir, false, 2, 2, &quiet).expect("second run");
    assert!(again.iter().all(|report| report.resumed));
    let (tables, checks) = verify_tables(&dir, 2, &quiet).expect("verify");
    assert_eq!(tables.rules().captures_to_win, 2);
    assert!(checks.iter().all(|check| check.ok()), "{checks:?}");
    // A deleted layer is regenerated, identical.
    let path = layer_path(&dir, 0);
    let before = std::fs::read(&path).unwrap();
    std::fs::remove_file(&path).unwrap();
    let third = generate_tables(&dir, false, 2, 2, &quiet).expect("third run");
    assert_eq!(
        third.iter().map(|r| r.resumed).collect::<Vec<_>>(),
        [true, false]
    );
    assert_eq!(std::fs::read(&path).unwrap(), before);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn verify_finds_a_wrong_value_with_a_valid_checksum() {
    let dir = fresh_tables("tamper", true);
    let path = layer_path(&dir, 0);
    let (header, mut payload) = read_layer(&path).unwrap();
    let len = header.positions as usize;
    // Turn the first draw into a win in 1.
    let at = payload.iter().position(|&byte| byte == 0).expect("a draw");
    payload[at] = 2;
    write_layer(&path, &header, &payload[..len], &payload[len..]).unwrap();
    let (_, checks) = verify_tables(&dir, 2, &quiet).expect("checksums are valid");
    let layer0 = &checks[0];
    assert!(layer0.mismatches >= 1 && !layer0.counts_match, "{layer0:?}");
    assert!(layer0.example.is_some());
    assert!(checks[1].ok());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn damaged_or_mismatched_files_are_refused() {
    let dir = fresh_tables("corrupt", false);
    let rules = rules(false, 2);
    assert!(Tablebase::open(&dir, &rules).is_ok());
    let path = layer_path(&dir, 1);
    let original = std::fs::read(&path).unwrap();
    let corruption = |dir: &Path| match open_error(dir, &rules) {
        TablebaseError::Corrupt { reason, .. } => reason,
        other => panic!("expected corrupt, got {other}"),
    };

    let mut flipped = original.clone();
    let last = flipped.len() - 1;
    flipped[last] ^= 0x40;
    std::fs::write(&path, &flipped).unwrap();
    assert_eq!(corruption(&dir), Corruption::PayloadChecksum);

    std::fs::write(&path, &original[..original.len() - 10]).unwrap();
    assert!(matches!(corruption(&dir), Corruption::Truncated { .. }));
    std::fs::write(&path, &original[..40]).unwrap();
    assert!(matches!(corruption(&dir), Corruption::Truncated { .. }));

    let mut magic = original.clone();
    magic[0] = b'X';
    std::fs::write(&path, &magic).unwrap();
    assert_eq!(corruption(&dir), Corruption::BadMagic);

    let mut version = original.clone();
    version[8] = 9;
    std::fs::write(&path, &version).unwrap();
    assert_eq!(corruption(&dir), Corruption::BadVersion(9));

    let mut header = original.clone();
    header[20] ^= 1;
    std::fs::write(&path, &header).unwrap();
    assert_eq!(corruption(&dir), Corruption::HeaderChecksum);

    std::fs::write(&path, &original).unwrap();
    assert!(matches!(
        open_error(&dir, &self::rules(true, 2)),
        TablebaseError::MismatchedRules { .. }
    ));
    assert!(matches!(
        open_error(&dir, &self::rules(false, 3)),
        TablebaseError::MismatchedRules { .. }
    ));
    assert!(matches!(
        open_error(&dir.join("absent"), &rules),
        TablebaseError::NotFound { .. }
    ));
    assert!(matches!(
        open_error(&dir, &self::rules(false, 6)),
        TablebaseError::UnsupportedRules(_)
    ));
    // A file of another variant in place of layer 1 is a mismatch.
    let other = fresh_tables("corrupt-other", true);
    std::fs::copy(layer_path(&other, 1), &path).unwrap();
    let error = open_error(&dir, &rules);
    assert!(
        matches!(error, TablebaseError::MismatchedRules { .. }),
        "{error}"
    );
    assert!(error.to_string().contains("ForcedCapture=true"), "{error}");
    // Generation refuses to overwrite another variant's file.
    assert!(generate_tables(&dir, false, 2, 2, &quiet).is_err());
    std::fs::remove_dir_all(&dir).unwrap();
    std::fs::remove_dir_all(&other).unwrap();
}

#[test]
fn cli_generates_verifies_and_probes() {
    let dir = std::env::temp_dir().join(format!("baghchal-tb-cli-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let run = |args: &[&str]| {
        let output = Command::new(env!("CARGO_BIN_EXE_baghchal"))
            .args(args)
            .output()
            .expect("runs");
        (
            output.status.success(),
            String::from_utf8_lossy(&output.stdout).into_owned(),
            String::from_utf8_lossy(&output.stderr).into_owned(),
        )
    };
    let dir_text = dir.to_str().unwrap();
    let (ok, stdout, _) = run(&["tb", "gen", "--out", dir_text, "--captures-to-win", "1"]);
    assert!(
        ok && stdout.contains("positions (symmetry classes, both sides to move): 66962"),
        "{stdout}"
    );
    let (ok, stdout, _) = run(&["tb", "verify", dir_text]);
    assert!(ok && stdout.contains("verify: ok"), "{stdout}");
    // Tigers to move next to a goat with the empty point behind it: capture wins at once.
    let (ok, stdout, _) = run(&[
        "tb",
        "probe",
        dir_text,
        "TGGGG/GGGGG/GGGGG/GGGGG/T1GTT t 0 0",
    ]);
    assert!(ok, "{stdout}");
    assert!(
        stdout.contains("value: win\ndistance: 1\nmoves: "),
        "{stdout}"
    );
    let (ok, _, stderr) = run(&["tb", "probe", dir_text, "T3T/5/5/5/T3T g 20 0"]);
    assert!(!ok && stderr.contains("not covered"), "{stderr}");
    let (ok, _, stderr) = run(&["tb", "probe", dir_text, "nonsense"]);
    assert!(!ok && stderr.contains("error"), "{stderr}");
    std::fs::remove_dir_all(&dir).unwrap();
}
