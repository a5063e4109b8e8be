//! Tablebase files: resumable generation, verification, corrupt and mismatched files, the CLI
//! (through the binary, and as library code writing to a buffer).

use baghchal::tablebase::cli::{self, TbCommand};
use baghchal::tablebase::file::{layer_path, open_layer, read_layer, write_layer};
use baghchal::tablebase::solve::generate_tables;
use baghchal::tablebase::verify::verify_tables;
use baghchal::tablebase::{Corruption, TableRules, Tablebase, TablebaseError};
use std::path::{Path, PathBuf};
use std::process::Command;

fn quiet(_: &str, _: u64, _: u64) {}

/// A fresh directory holding tables for captures_to_win = 2 (layers 0 and 1).
fn fresh_tables(name: &str, forced_capture: bool) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("baghchal-tb-files-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let reports = generate_tables(&dir, rules(forced_capture, 2), 2, &quiet).expect("generation");
    assert!(reports.iter().all(|report| !report.resumed));
    dir
}

fn rules(forced_capture: bool, captures_to_win: u8) -> TableRules {
    TableRules {
        forced_capture,
        captures_to_win,
    }
}

fn open_error(dir: &Path, rules: TableRules) -> TablebaseError {
    Tablebase::open(dir, rules).expect_err("must be refused")
}

#[test]
fn generation_resumes_and_verifies() {
    let dir = fresh_tables("resume", false);
    let again = generate_tables(&dir, rules(false, 2), 2, &quiet).expect("second run");
    assert!(again.iter().all(|report| report.resumed));
    let (tables, checks) = verify_tables(&dir, 2, &quiet).expect("verify");
    assert_eq!(tables.rules(), rules(false, 2));
    assert!(checks.iter().all(|check| check.ok()), "{checks:?}");
    // A deleted layer is regenerated, identical.
    let path = layer_path(&dir, 0);
    let before = std::fs::read(&path).unwrap();
    std::fs::remove_file(&path).unwrap();
    let third = generate_tables(&dir, rules(false, 2), 2, &quiet).expect("third run");
    assert_eq!(
        third.iter().map(|r| r.resumed).collect::<Vec<_>>(),
        [true, false]
    );
    assert_eq!(std::fs::read(&path).unwrap(), before);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn mapped_and_read_layers_agree() {
    let dir = fresh_tables("mapped", false);
    for captured in 0..2 {
        let path = layer_path(&dir, captured);
        let (read_header, read_values) = read_layer(&path).unwrap();
        let (mapped_header, mapped_values) = open_layer(&path).unwrap();
        assert!(mapped_values.is_mapped());
        assert_eq!(read_header, mapped_header);
        assert_eq!(read_values.len() as u64, 2 * read_header.positions);
        assert_eq!(&read_values[..], &mapped_values[..]);
    }
    // The tables stay usable after their files are deleted (the maps keep the data alive).
    let tables = Tablebase::open(&dir, rules(false, 2)).unwrap();
    let position = "TGGGG/GGGGG/GGGGG/GGGGG/T1GTT t 0 0".parse().unwrap();
    let before = tables.probe(&position);
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(before.is_some());
    assert_eq!(tables.probe(&position), before);
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
    assert!(Tablebase::open(&dir, rules).is_ok());
    let path = layer_path(&dir, 1);
    let original = std::fs::read(&path).unwrap();
    let corruption = |dir: &Path| match open_error(dir, rules) {
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
        open_error(&dir, self::rules(true, 2)),
        TablebaseError::MismatchedRules { .. }
    ));
    assert!(matches!(
        open_error(&dir, self::rules(false, 3)),
        TablebaseError::MismatchedRules { .. }
    ));
    assert!(matches!(
        open_error(&dir.join("absent"), rules),
        TablebaseError::NotFound { .. }
    ));
    assert!(matches!(
        open_error(&dir, self::rules(false, 6)),
        TablebaseError::UnsupportedRules(_)
    ));
    // A file of another variant in place of layer 1 is a mismatch.
    let other = fresh_tables("corrupt-other", true);
    std::fs::copy(layer_path(&other, 1), &path).unwrap();
    let error = open_error(&dir, rules);
    assert!(
        matches!(
            error,
            TablebaseError::MismatchedRules { expected, found, .. }
                if expected == rules && found == self::rules(true, 2)
        ),
        "{error}"
    );
    assert!(error.to_string().contains("ForcedCapture=true"), "{error}");
    // Generation refuses to overwrite another variant's file.
    assert!(generate_tables(&dir, rules, 2, &quiet).is_err());
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
    let (ok, stdout, stderr) = run(&["tb", "gen", "--out", dir_text, "--captures-to-win", "1"]);
    assert!(
        ok && stdout.contains("positions (symmetry classes, both sides to move): 66962"),
        "{stdout}"
    );
    // stderr is a pipe here, not a terminal: no progress bar.
    assert!(
        !stderr.contains('\r') && !stderr.contains("eta"),
        "{stderr}"
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
    // A reader that stops reading (`tb probe DIR - | head -1`): a quiet stop, not an error.
    let mut child = Command::new(env!("CARGO_BIN_EXE_baghchal"))
        .args(["tb", "probe", dir_text, "-"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("runs");
    drop(child.stdout.take());
    let lines = "TGGGG/GGGGG/GGGGG/GGGGG/T1GTT t 0 0\n".repeat(1000);
    {
        use std::io::Write;
        let mut stdin = child.stdin.take().unwrap();
        let _ = stdin.write_all(lines.as_bytes());
    }
    let output = child.wait_with_output().expect("ends");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success() && stderr.is_empty(), "{stderr}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Runs a `tb` command as library code, its output collected in a buffer.
fn run_into_buffer(command: TbCommand) -> (Result<(), String>, String) {
    let mut buffer: Vec<u8> = Vec::new();
    let result = cli::run(command, &mut buffer);
    (result, String::from_utf8(buffer).expect("utf-8 output"))
}

#[test]
fn tb_commands_write_to_the_writer_they_are_handed() {
    let dir = std::env::temp_dir().join(format!("baghchal-tb-writer-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    generate_tables(&dir, rules(false, 1), 2, &quiet).expect("generation");

    let (result, text) = run_into_buffer(TbCommand::Verify {
        dir: dir.clone(),
        placement_stride: 1,
        against: None,
        threads: Some(2),
    });
    assert_eq!(result, Ok(()));
    assert_eq!(
        text,
        "rules: ForcedCapture=false CapturesToWin=1\n\
         checksums: ok\n\
         layer 0: 33481 positions per side, 0 mismatches, counts match\n\
         verify: ok\n"
    );

    let position = "TGGGG/GGGGG/GGGGG/GGGGG/T1GTT t 0 0";
    let (result, text) = run_into_buffer(TbCommand::Probe {
        dir: dir.clone(),
        position: position.to_string(),
    });
    assert_eq!(result, Ok(()));
    // A table win holds under forbid from an empty history: the `forbid:` line says so.
    assert_eq!(
        text,
        "value: win\ndistance: 1\nmoves: d1b1(1)\nforbid: tigers win\n"
    );
    // The binary writes the same text to its stdout.
    let output = Command::new(env!("CARGO_BIN_EXE_baghchal"))
        .args(["tb", "probe", dir.to_str().unwrap(), position])
        .output()
        .expect("runs");
    assert!(output.status.success());
    assert_eq!(String::from_utf8_lossy(&output.stdout), text);

    // Generation over complete tables only reports them as present.
    let (result, text) = run_into_buffer(TbCommand::Gen {
        out: dir.clone(),
        captures_to_win: 1,
        forced_capture: false,
        placement: false,
        max_in_hand: 20,
        compress: false,
        movement: false,
        threads: Some(2),
    });
    assert_eq!(result, Ok(()));
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 6, "{text}");
    assert!(lines[0].starts_with("layer side   positions"), "{text}");
    assert!(
        lines[1..3].iter().all(|line| line.ends_with(" (present)")),
        "{text}"
    );
    assert_eq!(
        lines[3],
        "positions (symmetry classes, both sides to move): 66962"
    );
    assert!(lines[5].starts_with("wall seconds: "), "{text}");

    // Errors are returned, not written.
    let (result, text) = run_into_buffer(TbCommand::Probe {
        dir: dir.clone(),
        position: "T3T/5/5/5/T3T g 20 0".to_string(),
    });
    assert!(result.is_err_and(|message| message.contains("not covered")));
    assert_eq!(text, "");
    std::fs::remove_dir_all(&dir).unwrap();
}
