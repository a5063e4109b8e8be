//! Verified stamps: a table file checked once is trusted at the next open while it stays the
//! same file; a changed file is checked again and a corrupt one refused; a damaged or unwritable
//! stamp file is never trusted. And `tb probe DIR -`, the batch mode.

use baghchal::tablebase::compressed::convert::compress_dir;
use baghchal::tablebase::compressed::WRITTEN_BLOCK_BYTES;
use baghchal::tablebase::file::{layer_path, placement_path, PayloadCheck, PayloadStatus};
use baghchal::tablebase::forbid::file::forbid_path;
use baghchal::tablebase::forbid::solve::{solve_tables, SolveOptions};
use baghchal::tablebase::forbid::tables::ForbidTables;
use baghchal::tablebase::placement::generate::generate_placement;
use baghchal::tablebase::probe_text::{probe_batch, BatchSummary};
use baghchal::tablebase::solve::generate_tables;
use baghchal::tablebase::stamp::STAMP_FILE;
use baghchal::tablebase::verify::verify_tables;
use baghchal::tablebase::{Corruption, TableRules, Tablebase, TablebaseError};
use std::fs::{self, File, FileTimes};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, SystemTime};

const RULES: TableRules = TableRules {
    forced_capture: false,
    captures_to_win: 2,
};

fn quiet(_: &str, _: u64, _: u64) {}

/// A fresh, empty directory for test `name`.
fn empty_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("baghchal-stamps-{}-{name}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    dir
}

/// Movement tables and placement layers up to 1 goat in hand for captures to win 2, in a fresh
/// directory, their files dated an hour back (a file modified within the last 2 seconds is
/// checked but not stamped: see `stamp`).
fn fresh_tables(name: &str) -> PathBuf {
    let dir = empty_dir(name);
    generate_placement(&dir, RULES, 1, 2, &quiet).expect("generation");
    for path in table_files(&dir) {
        set_modified(&path, SystemTime::now() - Duration::from_secs(3600));
    }
    dir
}

fn table_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "bctb"))
        .collect();
    files.sort();
    files
}

fn modified(path: &Path) -> SystemTime {
    fs::metadata(path).unwrap().modified().unwrap()
}

fn set_modified(path: &Path, time: SystemTime) {
    let file = File::options().write(true).open(path).unwrap();
    file.set_times(FileTimes::new().set_modified(time)).unwrap();
}

/// Opens the tables, waits for the background check, and returns each file's status.
fn open_statuses(dir: &Path) -> Vec<(PathBuf, PayloadStatus)> {
    let tables = Tablebase::open(dir, RULES).expect("open");
    if let Some(placement) = tables.placement() {
        placement.wait_checked();
    }
    tables.payload_statuses()
}

/// Files counted by status: (checked now, stamped, other).
fn tally(statuses: &[(PathBuf, PayloadStatus)]) -> (usize, usize, usize) {
    let count = |wanted| statuses.iter().filter(|(_, s)| *s == wanted).count();
    let checked = count(PayloadStatus::Checked);
    let stamped = count(PayloadStatus::Stamped);
    (checked, stamped, statuses.len() - checked - stamped)
}

fn status_of(statuses: &[(PathBuf, PayloadStatus)], path: &Path) -> PayloadStatus {
    statuses.iter().find(|(p, _)| p == path).expect("opened").1
}

#[test]
fn a_checked_file_is_stamped_and_trusted_until_it_changes() {
    let dir = fresh_tables("trust");
    let files = table_files(&dir);
    assert_eq!(files.len(), 4, "{files:?}"); // 2 movement layers, 2 placement layers

    // First open: every payload is read and checked, then stamped.
    let first = open_statuses(&dir);
    assert_eq!(first.len(), 4);
    assert_eq!(tally(&first), (4, 0, 0), "{first:?}");
    assert!(dir.join(STAMP_FILE).exists());
    // Second open: nothing is read for its checksum.
    assert_eq!(tally(&open_statuses(&dir)), (0, 4, 0));

    // A touched file (new modification time) is checked again, and stamped again.
    let touched = layer_path(&dir, 1);
    set_modified(&touched, modified(&touched) - Duration::from_secs(60));
    let after_touch = open_statuses(&dir);
    assert_eq!(tally(&after_touch), (1, 3, 0), "{after_touch:?}");
    assert_eq!(status_of(&after_touch, &touched), PayloadStatus::Checked);
    assert_eq!(tally(&open_statuses(&dir)), (0, 4, 0));

    // `tb verify` checks every checksum whatever the stamps say.
    let (tables, checks) = verify_tables(&dir, 2, &quiet).expect("verify");
    assert!(checks.iter().all(|check| check.ok()));
    if let Some(placement) = tables.placement() {
        placement.wait_checked();
    }
    assert_eq!(tally(&tables.payload_statuses()), (4, 0, 0));
    let always = Tablebase::open_with(&dir, RULES, PayloadCheck::Always).unwrap();
    assert!(always
        .payload_statuses()
        .iter()
        .take(2)
        .all(|(_, status)| *status == PayloadStatus::Checked));
    fs::remove_dir_all(&dir).unwrap();
}

/// `tb probe` through the binary, with its debug log: the line that counts the files vouched
/// for by stamps.
fn probe_log_line(dir: &Path, position: &str) -> String {
    let output = Command::new(env!("CARGO_BIN_EXE_baghchal"))
        .args(["tb", "probe", dir.to_str().unwrap(), position])
        .env("RUST_LOG", "baghchal=debug")
        .output()
        .expect("runs");
    assert!(output.status.success(), "{output:?}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    let line = stderr
        .lines()
        .find(|line| line.contains("vouched for by verified stamps"));
    line.unwrap_or_else(|| panic!("{stderr}")).to_string()
}

/// The files named in the stamp file.
fn stamped_names(dir: &Path) -> Vec<String> {
    let text = fs::read_to_string(dir.join(STAMP_FILE)).unwrap();
    let mut names: Vec<String> = text
        .lines()
        .skip(1)
        .filter(|line| !line.starts_with("crc32 "))
        .map(|line| line.split(' ').next().unwrap().to_string())
        .collect();
    names.sort();
    names
}

fn file_names(files: &[PathBuf]) -> Vec<String> {
    let names = files.iter().map(|path| path.file_name().unwrap());
    names
        .map(|name| name.to_string_lossy().into_owned())
        .collect()
}

#[test]
fn a_fresh_generation_is_trusted_at_the_first_open() {
    let dir = empty_dir("fresh-generation");
    generate_placement(&dir, RULES, 3, 2, &quiet).expect("generation");
    let files = table_files(&dir);
    assert_eq!(files.len(), 8, "{files:?}"); // 2 movement layers, 3 x 2 placement layers
    assert_eq!(stamped_names(&dir), file_names(&files));

    // The first open after generation reads no payload for its checksum, in the library and
    // in `tb probe`.
    let statuses = open_statuses(&dir);
    assert_eq!(statuses.len(), 8);
    assert_eq!(tally(&statuses), (0, 8, 0), "{statuses:?}");
    let position = "T1GGT/GGGGG/GGGGG/G1GGG/TGGGT g 1 0";
    assert!(
        probe_log_line(&dir, position).ends_with("8 table files, 8 vouched for by verified stamps"),
        "{}",
        probe_log_line(&dir, position)
    );

    // A file changed after generation (same length and modification time) is checked again:
    // named corrupt and never used, the others still trusted.
    let placement = placement_path(&dir, 2, 1);
    flip_keeping_length_and_time(&placement);
    let tables = Tablebase::open(&dir, RULES).expect("placement layers are checked later");
    assert_eq!(
        tables.placement().unwrap().wait_checked(),
        vec![placement.clone()]
    );
    let statuses = tables.payload_statuses();
    assert_eq!(status_of(&statuses, &placement), PayloadStatus::Corrupt);
    assert_eq!(tally(&statuses), (0, 7, 1), "{statuses:?}");
    let movement = layer_path(&dir, 0);
    flip_keeping_length_and_time(&movement);
    assert!(matches!(
        Tablebase::open(&dir, RULES),
        Err(TablebaseError::Corrupt {
            reason: Corruption::PayloadChecksum,
            path,
        }) if path == movement
    ));
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_fresh_compression_is_trusted_at_the_first_open() {
    let source = empty_dir("compress-source");
    generate_placement(&source, RULES, 2, 2, &quiet).expect("generation");
    // Into another directory (`tb compress DIR --out OUT`): the movement tables copied there
    // and the compressed layers written there are all stamped.
    let out = empty_dir("compress-out");
    let reports =
        compress_dir(&source, &out, 2, WRITTEN_BLOCK_BYTES, false, &quiet).expect("compress");
    assert_eq!(reports.len(), 4);
    let mut expected: Vec<String> = file_names(&table_files(&out));
    assert_eq!(expected.len(), 2, "the movement tables");
    for report in &reports {
        let (in_hand, captured) = (report.layer.in_hand, report.layer.captured);
        expected.push(format!("place-{in_hand:02}-{captured}.bctz"));
    }
    expected.sort();
    assert_eq!(stamped_names(&out), expected);
    let statuses = open_statuses(&out);
    assert_eq!(statuses.len(), 6);
    assert_eq!(tally(&statuses), (0, 6, 0), "{statuses:?}");

    // Into the same directory (`tb gen --placement --compress`): the compressed layers, read
    // instead of the uncompressed ones, are trusted too.
    compress_dir(&source, &source, 2, WRITTEN_BLOCK_BYTES, false, &quiet)
        .expect("compress in place");
    let statuses = open_statuses(&source);
    assert!(statuses
        .iter()
        .any(|(path, _)| path.extension().is_some_and(|ext| ext == "bctz")));
    assert_eq!(tally(&statuses), (0, 6, 0), "{statuses:?}");

    // Compressing again keeps the layers (read whole, checked) and they stay trusted, even
    // without the stamp file: the run that kept them stamped them.
    fs::remove_file(out.join(STAMP_FILE)).unwrap();
    for path in fs::read_dir(&out)
        .unwrap()
        .map(|entry| entry.unwrap().path())
    {
        set_modified(&path, SystemTime::now() - Duration::from_secs(60));
    }
    let again =
        compress_dir(&source, &out, 2, WRITTEN_BLOCK_BYTES, false, &quiet).expect("resumed");
    assert!(again.iter().all(|report| report.resumed), "{again:?}");
    let statuses = open_statuses(&out);
    // (The movement tables, neither copied nor read by this run, are checked at this open.)
    assert_eq!(tally(&statuses), (2, 4, 0), "{statuses:?}");
    fs::remove_dir_all(&source).unwrap();
    fs::remove_dir_all(&out).unwrap();
}

#[test]
fn a_resumed_generation_stamps_the_files_it_read_and_wrote() {
    let dir = empty_dir("resumed-generation");
    generate_placement(&dir, RULES, 1, 2, &quiet).expect("first run");
    // No stamps left from the first run: the files are re-dated (so their stamps do not match)
    // and the stamp file is gone; one layer is missing (an interrupted run) and one damaged.
    fs::remove_file(dir.join(STAMP_FILE)).unwrap();
    for path in table_files(&dir) {
        set_modified(&path, SystemTime::now() - Duration::from_secs(3600));
    }
    fs::remove_file(placement_path(&dir, 1, 0)).unwrap();
    flip_keeping_length_and_time(&placement_path(&dir, 1, 1));

    let run = generate_placement(&dir, RULES, 2, 2, &quiet).expect("resumed run");
    let resumed: Vec<bool> = run.reports.iter().map(|report| report.resumed).collect();
    assert_eq!(resumed, [false, false, false, false], "{:?}", run.reports);
    let files = table_files(&dir);
    assert_eq!(files.len(), 6, "{files:?}");
    assert_eq!(stamped_names(&dir), file_names(&files));
    assert_eq!(tally(&open_statuses(&dir)), (0, 6, 0));

    // Again, with every file present: all of them read to resume, re-dated first.
    for path in table_files(&dir) {
        set_modified(&path, SystemTime::now() - Duration::from_secs(60));
    }
    let run = generate_placement(&dir, RULES, 2, 2, &quiet).expect("third run");
    assert!(run.reports.iter().all(|report| report.resumed));
    assert_eq!(tally(&open_statuses(&dir)), (0, 6, 0));

    // The movement tables alone (`tb gen` without `--placement`), resumed and fresh.
    let movement = empty_dir("resumed-movement");
    generate_tables(&movement, RULES, 2, &quiet).expect("movement tables");
    assert_eq!(tally(&open_statuses(&movement)), (0, 2, 0));
    fs::remove_file(layer_path(&movement, 0)).unwrap();
    generate_tables(&movement, RULES, 2, &quiet).expect("resumed");
    assert_eq!(tally(&open_statuses(&movement)), (0, 2, 0));
    fs::remove_dir_all(&dir).unwrap();
    fs::remove_dir_all(&movement).unwrap();
}

/// The forbid files of `dir` (tables for [`RULES`]) opened as the engine opens them: each
/// layer's status, and the errors.
fn forbid_statuses(dir: &Path) -> (Vec<(u8, PayloadStatus)>, Vec<TablebaseError>) {
    let tables = Tablebase::open_movement(dir, RULES).expect("movement tables");
    let (forbid, errors) = ForbidTables::open(dir, &tables);
    (forbid.map(|f| f.statuses()).unwrap_or_default(), errors)
}

#[test]
fn a_fresh_forbid_solve_is_trusted_at_the_first_open() {
    let dir = empty_dir("forbid-solve");
    generate_tables(&dir, RULES, 2, &quiet).expect("movement tables");
    let options = SolveOptions {
        max_states: 24,
        node_budget: 1_000_000,
    };
    let reports = solve_tables(&dir, options, &quiet).expect("solve");
    assert!(reports.iter().all(|report| !report.resumed), "{reports:?}");
    // Both forbid files written are stamped by the solve (beside the movement layers, stamped
    // by the generation).
    let forbid = [forbid_path(&dir, 0), forbid_path(&dir, 1)];
    let mut expected = file_names(&table_files(&dir));
    expected.extend(file_names(&forbid));
    expected.sort();
    assert_eq!(stamped_names(&dir), expected);
    // The first open reads no forbid payload for its checksum.
    let stamped = vec![(0, PayloadStatus::Stamped), (1, PayloadStatus::Stamped)];
    let (statuses, errors) = forbid_statuses(&dir);
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(statuses, stamped);

    // A file changed after the solve (re-dated) is checked again, then trusted again.
    set_modified(&forbid[0], modified(&forbid[0]) - Duration::from_secs(60));
    let checked_then_stamped = vec![(0, PayloadStatus::Checked), (1, PayloadStatus::Stamped)];
    assert_eq!(forbid_statuses(&dir).0, checked_then_stamped);
    assert_eq!(forbid_statuses(&dir).0, stamped);

    // A resumed solve stamps the files it kept (read whole and checked): re-dated, stamp file
    // gone, the first open after it still checks nothing.
    fs::remove_file(dir.join(STAMP_FILE)).unwrap();
    for path in table_files(&dir).iter().chain(&forbid) {
        set_modified(path, SystemTime::now() - Duration::from_secs(3600));
    }
    let reports = solve_tables(&dir, options, &quiet).expect("resumed solve");
    assert!(reports.iter().all(|report| report.resumed), "{reports:?}");
    assert!(stamped_names(&dir).contains(&"forbid-0.bcfb".to_string()));
    assert_eq!(forbid_statuses(&dir).0, stamped);

    // A file damaged after the solve (one byte flipped, same length and modification time) is
    // checked again, named corrupt and never used; the other layer stays trusted.
    flip_keeping_length_and_time(&forbid[1]);
    for _ in 0..2 {
        let (statuses, errors) = forbid_statuses(&dir);
        assert_eq!(statuses, vec![(0, PayloadStatus::Stamped)]);
        assert!(
            matches!(
                errors.as_slice(),
                [TablebaseError::Corrupt { path, reason: Corruption::PayloadChecksum }]
                    if *path == forbid[1]
            ),
            "{errors:?}"
        );
    }
    // Solving again replaces it (and its higher layer first: layer 1 is the last one, so
    // layer 0 is solved again too) and stamps both.
    let reports = solve_tables(&dir, options, &quiet).expect("repairing solve");
    assert!(reports.iter().all(|report| !report.resumed), "{reports:?}");
    let (statuses, errors) = forbid_statuses(&dir);
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(statuses, stamped);
    fs::remove_dir_all(&dir).unwrap();
}

/// Flips one payload byte of `path` in place, keeping its length and modification time.
fn flip_keeping_length_and_time(path: &Path) {
    let time = modified(path);
    let mut bytes = fs::read(path).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 0x04;
    let mut file = File::options().write(true).open(path).unwrap();
    file.write_all(&bytes).unwrap();
    drop(file);
    set_modified(path, time);
    assert_eq!(modified(path), time);
}

#[test]
fn a_changed_file_is_checked_again_and_a_corrupt_one_refused() {
    let dir = fresh_tables("changed");
    assert_eq!(tally(&open_statuses(&dir)), (4, 0, 0));

    // A movement layer with one byte flipped, same length and modification time: the
    // status-change time (which cannot be set back) still differs, so it is checked again and
    // refused with the same error as without stamps.
    let movement = layer_path(&dir, 1);
    let original = fs::read(&movement).unwrap();
    flip_keeping_length_and_time(&movement);
    match Tablebase::open(&dir, RULES) {
        Err(TablebaseError::Corrupt { path, reason }) => {
            assert_eq!(path, movement);
            assert_eq!(reason, Corruption::PayloadChecksum);
        }
        other => panic!("expected a corrupt layer, got {other:?}"),
    }
    // Repaired (same bytes as before, by a new file renamed over it): checked, trusted again.
    let repaired = dir.join("repaired.tmp");
    fs::write(&repaired, &original).unwrap();
    set_modified(&repaired, SystemTime::now() - Duration::from_secs(60));
    fs::rename(&repaired, &movement).unwrap();
    let statuses = open_statuses(&dir);
    assert_eq!(status_of(&statuses, &movement), PayloadStatus::Checked);
    assert_eq!(tally(&statuses), (1, 3, 0));

    // A placement layer damaged the same way: named corrupt, never used; the others answer.
    let placement = placement_path(&dir, 1, 0);
    flip_keeping_length_and_time(&placement);
    let tables = Tablebase::open(&dir, RULES).expect("placement layers are checked later");
    assert_eq!(
        tables.placement().unwrap().wait_checked(),
        vec![placement.clone()]
    );
    let statuses = tables.payload_statuses();
    assert_eq!(status_of(&statuses, &placement), PayloadStatus::Corrupt);
    assert_eq!(tally(&statuses), (0, 3, 1));
    let position = "T1GGT/GGGGG/GGGGG/G1GGG/TGGGT g 1 0".parse().unwrap(); // 1 in hand, 0 captured
    assert_eq!(tables.probe(&position), None);
    // And it stays refused at the next open (its stamp does not match).
    let again = Tablebase::open(&dir, RULES).unwrap();
    assert_eq!(again.placement().unwrap().wait_checked(), vec![placement]);

    // A truncated layer is refused before any stamp is consulted.
    fs::write(&movement, &original[..original.len() - 1]).unwrap();
    assert!(matches!(
        Tablebase::open(&dir, RULES),
        Err(TablebaseError::Corrupt {
            reason: Corruption::Truncated { .. },
            ..
        })
    ));
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_damaged_stamp_file_is_ignored_and_replaced() {
    let dir = fresh_tables("damaged-stamp");
    assert_eq!(tally(&open_statuses(&dir)), (4, 0, 0));
    let stamp = dir.join(STAMP_FILE);
    let good = fs::read(&stamp).unwrap();
    // Every single-bit change anywhere is refused: the files are checked again.
    for at in [0, good.len() / 2, good.len() - 3] {
        let mut damaged = good.clone();
        damaged[at] ^= 0x02;
        fs::write(&stamp, &damaged).unwrap();
        assert_eq!(tally(&open_statuses(&dir)), (4, 0, 0), "byte {at}");
        // ... and the stamp file is written anew, valid.
        assert_eq!(tally(&open_statuses(&dir)), (0, 4, 0), "byte {at}");
    }
    for junk in [
        &b""[..],
        b"\n",
        b"\xff\xfe garbage",
        &good[..good.len() / 2],
    ] {
        fs::write(&stamp, junk).unwrap();
        assert_eq!(tally(&open_statuses(&dir)), (4, 0, 0), "{junk:?}");
    }
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_unwritable_stamp_file_means_checking_at_every_open() {
    let dir = fresh_tables("unwritable");
    // A directory where the stamp file should be: it can be neither read nor replaced (as in a
    // read-only table directory, which root could still write to).
    let _ = fs::remove_file(dir.join(STAMP_FILE));
    fs::create_dir(dir.join(STAMP_FILE)).unwrap();
    for _ in 0..2 {
        assert_eq!(tally(&open_statuses(&dir)), (4, 0, 0));
    }
    let leftovers: Vec<_> = fs::read_dir(&dir)
        .unwrap()
        .map(|entry| entry.unwrap().file_name())
        .filter(|name| name.to_string_lossy().ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn concurrent_opens_leave_a_valid_stamp_file() {
    let dir = fresh_tables("concurrent");
    // Processes and threads opening fresh tables at once, each checking and saving stamps.
    let processes: Vec<_> = (0..3)
        .map(|_| {
            Command::new(env!("CARGO_BIN_EXE_baghchal"))
                .args([
                    "tb",
                    "probe",
                    dir.to_str().unwrap(),
                    "T1GGT/GGGGG/GGGGG/G1GGG/TGGGT g 1 0",
                ])
                .stdout(Stdio::null())
                .spawn()
                .expect("runs")
        })
        .collect();
    std::thread::scope(|scope| {
        for _ in 0..3 {
            scope.spawn(|| open_statuses(&dir));
        }
    });
    for mut process in processes {
        assert!(process.wait().unwrap().success());
    }
    assert_eq!(tally(&open_statuses(&dir)), (0, 4, 0));
    let names: Vec<String> = fs::read_dir(&dir)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(
        !names.iter().any(|name| name.ends_with(".tmp")),
        "{names:?}"
    );
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn batch_probe_answers_every_line_and_goes_on_after_a_bad_one() {
    let dir = fresh_tables("batch");
    let tables = Tablebase::open(&dir, RULES).unwrap();
    tables.placement().unwrap().wait_checked();
    let input = "TGGGG/GGGGG/GGGGG/GGGGG/T1GTT t 0 0\n\
                 nonsense\n\
                 \n\
                 T3T/5/5/5/T3T g 20 0\n\
                 T1GGT/GGGGG/GGGGG/G1GGG/TGGGT g 1 0\r\n";
    let mut out = Vec::new();
    let summary = probe_batch(&tables, None, &mut input.as_bytes(), &mut out).unwrap();
    assert_eq!(
        summary,
        BatchSummary {
            answered: 2,
            errors: 2
        }
    );
    let text = String::from_utf8(out).unwrap();
    let lines: Vec<Vec<&str>> = text
        .lines()
        .map(|line| line.split('\t').collect())
        .collect();
    assert_eq!(lines.len(), 4, "{text}");
    // Each answer agrees with a direct probe.
    let movement: baghchal::Position = "TGGGG/GGGGG/GGGGG/GGGGG/T1GTT t 0 0".parse().unwrap();
    let value = tables.probe(&movement).unwrap();
    let distance = value.plies_to_end.unwrap();
    assert_eq!(
        lines[0][..3],
        [
            movement.to_string(),
            value.wdl.to_string(),
            distance.to_string()
        ]
    );
    let best = tables.best_moves(&movement);
    assert_eq!(lines[0][3].split(' ').count(), best.len());
    assert!(lines[0][3].starts_with(&best[0].to_string()), "{text}");
    // No forbid files here: the value under forbid is `none`.
    assert_eq!(lines[0].len(), 5, "{text}");
    assert_eq!(lines[0][4], "none");
    assert_eq!(lines[1][..2], ["nonsense", "error"]);
    assert_eq!(lines[2][..2], ["T3T/5/5/5/T3T g 20 0", "error"]);
    assert!(lines[2][2].contains("not covered"), "{text}");
    let placement: baghchal::Position = "T1GGT/GGGGG/GGGGG/G1GGG/TGGGT g 1 0".parse().unwrap();
    let value = tables.probe(&placement).unwrap();
    assert_eq!(lines[3][0], placement.to_string());
    assert_eq!(lines[3][1], value.wdl.to_string());
    assert_eq!(lines[3][2], "none");
    assert_eq!(
        lines[3][3].split(' ').count(),
        tables.best_moves(&placement).len()
    );
    assert_eq!(lines[3][4], "none");
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn batch_probe_through_the_binary_answers_each_line_before_the_next_arrives() {
    let dir = fresh_tables("batch-binary");
    let mut child = Command::new(env!("CARGO_BIN_EXE_baghchal"))
        .args(["tb", "probe", dir.to_str().unwrap(), "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("runs");
    let pid = child.id();
    // A watchdog: a probe that never answers fails the test instead of hanging it.
    let watchdog = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_secs(120));
        let _ = Command::new("kill").arg(pid.to_string()).status();
    });
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    for (input, expected) in [
        ("TGGGG/GGGGG/GGGGG/GGGGG/T1GTT t 0 0", "\twin\t"),
        ("T3T/5/5/5/T3T g 2 0", "\terror\t"),
        ("T1GGT/GGGGG/GGGGG/G1GGG/TGGGT g 1 0", "\t"),
    ] {
        writeln!(stdin, "{input}").unwrap();
        stdin.flush().unwrap();
        line.clear();
        stdout.read_line(&mut line).unwrap();
        assert!(
            line.starts_with(input) && line.contains(expected),
            "{line:?}"
        );
    }
    drop(stdin);
    let output = child.wait_with_output().unwrap();
    drop(watchdog);
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("1 of 3 lines were errors"), "{stderr}");
    fs::remove_dir_all(&dir).unwrap();
}
