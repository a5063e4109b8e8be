//! Compressed placement layers (format version 3, 32- and 64-byte blocks, and version 2 files):
//! every value of a small variant against the uncompressed files, both sides to move; damaged
//! files refused and never a panic; a directory mixing both formats; the engine and `tb probe`
//! answering alike on both.

mod tb_common;
use baghchal::tablebase::compressed::convert::{compare_with, compress_dir};
use baghchal::tablebase::compressed::{compressed_path, CompressedLayer, WRITTEN_BLOCK_BYTES};
use baghchal::tablebase::file::{layer_path, placement_path, PayloadCheck, HEADER_LEN};
use baghchal::tablebase::placement::generate::generate_placement;
use baghchal::tablebase::placement::index::{Frames, Layer, PlacementIndex};
use baghchal::tablebase::placement::verify::verify_placement;
use baghchal::tablebase::{TableRules, Tablebase, TablebaseError};
use baghchal::{Bitboard, Position, Repetition, Side};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

const NO_PROGRESS: &(dyn Fn(&str, u64, u64) + Sync) = &|_: &str, _: u64, _: u64| {};

/// Captures to win 2 (so the layers with 1 captured have don't-care values), up to 2 in hand.
const RULES: TableRules = TableRules {
    forced_capture: false,
    captures_to_win: 2,
};
const MAX_IN_HAND: u8 = 2;

fn temp(name: &str) -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join(name)
}

/// The uncompressed tables (generated once).
fn plain_dir() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = temp("tb-compressed-source");
        generate_placement(&dir, RULES, MAX_IN_HAND, 2, NO_PROGRESS).expect("generation");
        dir
    })
}

/// The same tables with compressed placement layers only (compressed once).
fn compressed_dir() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = temp("tb-compressed-target");
        let _ = std::fs::remove_dir_all(&dir);
        let reports = compress_dir(
            plain_dir(),
            &dir,
            2,
            WRITTEN_BLOCK_BYTES,
            false,
            NO_PROGRESS,
        )
        .expect("compress");
        assert_eq!(reports.len(), 4);
        dir
    })
}

fn open(dir: &Path) -> Tablebase {
    let tables = Tablebase::open(dir, RULES).expect("open");
    let corrupt = tables.placement().expect("placement layers").wait_checked();
    assert!(corrupt.is_empty(), "{corrupt:?}");
    tables
}

fn layers() -> Vec<Layer> {
    let mut out = Vec::new();
    for in_hand in 1..=MAX_IN_HAND {
        for captured in 0..RULES.captures_to_win {
            out.push(Layer { in_hand, captured });
        }
    }
    out
}

/// The position at `at` of `layer`, `side` to move (`None` where no game reaches it).
fn position_at(layer: Layer, at: u64, side: Side) -> Option<Position> {
    let (class, goats) = PlacementIndex::new(layer).decode(at);
    let tigers = Frames::get().classes[class].tigers;
    Position::from_parts(
        Bitboard(tigers),
        Bitboard(goats),
        side,
        layer.in_hand,
        layer.captured,
    )
    .ok()
}

#[test]
fn every_value_decodes_to_the_uncompressed_one_on_both_sides() {
    let comparisons = compare_with(compressed_dir(), plain_dir(), 2, NO_PROGRESS).expect("compare");
    assert_eq!(comparisons.len(), 4);
    for comparison in &comparisons {
        assert!(comparison.ok(), "{comparison:?}");
        assert_eq!(
            comparison.positions,
            PlacementIndex::new(comparison.layer).len()
        );
    }
    // Through `Tablebase::probe`, as the engine, referee, GUI and Python oracle read it:
    // every 61st position of each side, and the values must not be all the same.
    let (plain, compressed) = (open(plain_dir()), open(compressed_dir()));
    for layer in layers() {
        assert!(compressed.placement().unwrap().is_compressed(layer));
        assert!(!plain.placement().unwrap().is_compressed(layer));
        let mut seen = std::collections::BTreeSet::new();
        for side in [Side::Goats, Side::Tigers] {
            for at in (0..PlacementIndex::new(layer).len()).step_by(61) {
                let Some(position) = position_at(layer, at, side) else {
                    continue;
                };
                let expected = plain.probe(&position).expect("covered");
                assert_eq!(compressed.probe(&position), Some(expected), "{position}");
                seen.insert(expected.wdl.to_string());
            }
        }
        assert!(seen.len() >= 2, "{layer:?}: {seen:?}");
    }
}

#[test]
fn goats_to_move_read_their_placements_together_and_agree() {
    // Every third goats-to-move position of the layers with 2 in hand, whose placements are
    // read together from the compressed layers with 1 in hand, against the uncompressed
    // tables; and the joint read of a goats-to-move board's placements against one by one.
    let (plain, compressed) = (open(plain_dir()), open(compressed_dir()));
    let mut values = std::collections::BTreeMap::new();
    for captured in 0..RULES.captures_to_win {
        let layer = Layer {
            in_hand: 2,
            captured,
        };
        let index = PlacementIndex::new(layer);
        let tigers_of = |class: usize| Frames::get().classes[class].tigers;
        for at in (0..index.len()).step_by(3) {
            let (class, goats) = index.decode(at);
            let Ok(position) = Position::from_parts(
                Bitboard(tigers_of(class)),
                Bitboard(goats),
                Side::Goats,
                layer.in_hand,
                layer.captured,
            ) else {
                continue;
            };
            let expected = plain.probe(&position).expect("covered");
            assert_eq!(compressed.probe(&position), Some(expected), "{position}");
            *values.entry(expected.wdl.to_string()).or_insert(0) += 1;
        }
    }
    assert_eq!(values.len(), 3, "{values:?}");

    let below = Layer {
        in_hand: 1,
        captured: 0,
    };
    let file = CompressedLayer::open(&compressed_path(compressed_dir(), 1, 0)).unwrap();
    let index = PlacementIndex::new(below);
    let frames = Frames::get();
    let mut rng = StdRng::seed_from_u64(5);
    for _ in 0..2_000 {
        // A board with one goat fewer than the layer holds, and its placements.
        let (class, goats) = index.decode(rng.random_range(0..index.len()));
        let tigers = frames.classes[class].tigers;
        let removed = goats & goats.wrapping_neg();
        let parent = goats ^ removed;
        let empty = ((1u32 << 25) - 1) & !(tigers | parent);
        let children: Vec<u64> = (0..25)
            .filter(|p| empty & 1 << p != 0)
            .map(|p| index.encode(tigers, parent | 1 << p))
            .collect();
        let mut handed = vec![None; children.len()];
        file.codes_of(&children, &mut |i, code| {
            assert!(handed[i].replace(code).is_none());
            true
        })
        .expect("good data");
        for (i, &at) in children.iter().enumerate() {
            assert_eq!(handed[i], file.code(at), "child {at}");
        }
    }
}

#[test]
fn compressed_tables_verify_and_compress_resumes() {
    let dir = compressed_dir();
    let tables = open(dir);
    let checks = verify_placement(dir, &tables, MAX_IN_HAND, 1, 2, NO_PROGRESS).expect("verify");
    assert_eq!(checks.len(), 4);
    assert!(
        checks.iter().all(|check| check.ok() && check.checked > 0),
        "{checks:?}"
    );
    // Compressing again keeps every layer.
    let again = compress_dir(plain_dir(), dir, 1, WRITTEN_BLOCK_BYTES, false, NO_PROGRESS)
        .expect("compress");
    assert!(again.iter().all(|report| report.resumed), "{again:?}");
    // Fewer bytes than the uncompressed tigers-to-move values alone (2 bits a value).
    for report in &again {
        assert!(report.bytes < report.source_bytes / 2, "{report:?}");
    }
}

/// A copy of the compressed tables with `edit` applied to the bytes of layer (2, 0).
fn damaged_copy(name: &str, edit: impl FnOnce(&mut Vec<u8>)) -> (PathBuf, PathBuf) {
    let dir = temp(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for entry in std::fs::read_dir(compressed_dir()).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "bctb" || e == "bctz") {
            std::fs::copy(&path, dir.join(path.file_name().unwrap())).unwrap();
        }
    }
    let damaged = compressed_path(&dir, 2, 0);
    let mut bytes = std::fs::read(&damaged).unwrap();
    edit(&mut bytes);
    std::fs::write(&damaged, bytes).unwrap();
    (dir, damaged)
}

#[test]
fn a_flipped_byte_or_a_truncation_is_reported_and_the_layer_never_used() {
    let (dir, damaged) = damaged_copy("tb-compressed-flipped", |bytes| {
        let at = bytes.len() / 2;
        bytes[at] ^= 0x04;
    });
    let tables = Tablebase::open(&dir, RULES).expect("headers are fine");
    assert_eq!(
        tables.placement().unwrap().wait_checked(),
        vec![damaged.clone()]
    );
    let mut rng = StdRng::seed_from_u64(5);
    let layer = Layer {
        in_hand: 2,
        captured: 0,
    };
    for _ in 0..50 {
        let at = rng.random_range(0..PlacementIndex::new(layer).len());
        for side in [Side::Goats, Side::Tigers] {
            if let Some(position) = position_at(layer, at, side) {
                assert_eq!(tables.probe(&position), None, "{position}");
            }
        }
    }
    assert!(verify_placement(&dir, &tables, MAX_IN_HAND, 1, 1, NO_PROGRESS).is_err());
    let error = compare_with(&dir, plain_dir(), 1, NO_PROGRESS).unwrap_err();
    assert!(
        error.to_string().contains(damaged.to_str().unwrap()),
        "{error}"
    );
    // Truncated anywhere: refused at open, naming the file.
    let length = std::fs::metadata(compressed_path(compressed_dir(), 2, 0))
        .unwrap()
        .len() as usize;
    for cut in [
        0,
        7,
        50,
        HEADER_LEN - 1,
        HEADER_LEN,
        HEADER_LEN + 8,
        length / 2,
        length - 1,
    ] {
        let (dir, damaged) = damaged_copy("tb-compressed-cut", |bytes| bytes.truncate(cut));
        match Tablebase::open(&dir, RULES) {
            Err(TablebaseError::Corrupt { path, .. }) => assert_eq!(path, damaged),
            other => panic!("cut at {cut}: {other:?}"),
        }
    }
}

/// The same tables compressed in 32-byte blocks (format version 3).
fn compressed_32_dir() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = temp("tb-compressed-32");
        let _ = std::fs::remove_dir_all(&dir);
        compress_dir(plain_dir(), &dir, 2, 32, false, NO_PROGRESS).expect("compress");
        dir
    })
}

/// The bytes of a compressed file of `dir` rewritten as format version 2 (64-byte blocks, 0 in
/// the payload's block size field), checksums recomputed.
fn as_version_2(dir: &Path, in_hand: u8, captured: u8) -> Vec<u8> {
    let mut bytes = std::fs::read(compressed_path(dir, in_hand, captured)).unwrap();
    assert_eq!(bytes[8..12], 3u32.to_le_bytes());
    assert_eq!(bytes[HEADER_LEN + 4..HEADER_LEN + 8], 64u32.to_le_bytes());
    bytes[8..12].copy_from_slice(&2u32.to_le_bytes());
    bytes[HEADER_LEN + 4..HEADER_LEN + 8].fill(0);
    tb_common::fix_checksums(&mut bytes);
    bytes
}

#[test]
fn blocks_of_either_size_and_version_2_files_decode_to_the_uncompressed_values() {
    // Version 3 in 64-byte blocks (as written by default) and in 32-byte blocks, and version 2
    // (64-byte blocks, written before the block size was recorded): every value, both sides.
    assert_eq!(WRITTEN_BLOCK_BYTES, 64);
    let version_2 = temp("tb-compressed-v2");
    let _ = std::fs::remove_dir_all(&version_2);
    std::fs::create_dir_all(&version_2).unwrap();
    for entry in std::fs::read_dir(compressed_dir()).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "bctb") {
            std::fs::copy(&path, version_2.join(path.file_name().unwrap())).unwrap();
        }
    }
    for layer in layers() {
        let bytes = as_version_2(compressed_dir(), layer.in_hand, layer.captured);
        std::fs::write(
            compressed_path(&version_2, layer.in_hand, layer.captured),
            bytes,
        )
        .unwrap();
    }
    for (dir, block_bytes) in [
        (compressed_dir(), WRITTEN_BLOCK_BYTES),
        (compressed_32_dir(), 32),
        (version_2.as_path(), 64),
    ] {
        for layer in layers() {
            let path = compressed_path(dir, layer.in_hand, layer.captured);
            let opened = CompressedLayer::open(&path).expect("open");
            assert_eq!(opened.block_bytes(), block_bytes, "{}", path.display());
        }
        let comparisons = compare_with(dir, plain_dir(), 2, NO_PROGRESS).expect("compare");
        assert_eq!(comparisons.len(), 4);
        assert!(comparisons.iter().all(|c| c.ok()), "{comparisons:?}");
        let tables = open(dir);
        assert!(tables.placement().unwrap().wait_checked().is_empty());
    }
    // Smaller blocks cost bytes (more block counts, more unused bits at block ends).
    let size = |dir: &Path| std::fs::metadata(compressed_path(dir, 2, 1)).unwrap().len();
    assert!(size(compressed_dir()) < size(compressed_32_dir()));
}

#[test]
fn a_block_size_that_is_not_the_files_is_refused_naming_the_file() {
    let dir = temp("tb-compressed-block-size");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("sized.bctz");
    let field = HEADER_LEN + 4..HEADER_LEN + 8;
    let refused = |bytes: &mut Vec<u8>, what: &str| {
        tb_common::fix_checksums(bytes);
        std::fs::write(&path, &bytes).unwrap();
        let checked = CompressedLayer::open(&path).and_then(|layer| layer.check_tables(&path));
        match checked {
            Err(TablebaseError::Corrupt { path: named, .. }) => assert_eq!(named, path, "{what}"),
            other => panic!("{what}: {other:?}"),
        }
    };
    let version_3 = std::fs::read(compressed_path(compressed_dir(), 2, 1)).unwrap();
    assert_eq!(version_3[field.clone()], 64u32.to_le_bytes());
    for size in [0u32, 16, 48, 128, u32::MAX] {
        let mut bytes = version_3.clone();
        bytes[field.clone()].copy_from_slice(&size.to_le_bytes());
        refused(&mut bytes, &format!("version 3, {size}-byte blocks"));
    }
    // The other size: the segment lengths do not add up.
    for (dir, wrong) in [(compressed_dir(), 32u32), (compressed_32_dir(), 64)] {
        let mut bytes = std::fs::read(compressed_path(dir, 2, 1)).unwrap();
        bytes[field.clone()].copy_from_slice(&wrong.to_le_bytes());
        refused(
            &mut bytes,
            &format!("version 3, {wrong} for the other size"),
        );
    }
    // Version 2 knows only 64-byte blocks, with 0 in the field.
    for size in [32u32, 64] {
        let mut bytes = as_version_2(compressed_dir(), 2, 1);
        bytes[field.clone()].copy_from_slice(&size.to_le_bytes());
        refused(&mut bytes, &format!("version 2, {size} in the field"));
    }
    // An unknown version.
    let mut bytes = version_3;
    bytes[8..12].copy_from_slice(&4u32.to_le_bytes());
    tb_common::fix_checksums(&mut bytes);
    std::fs::write(&path, &bytes).unwrap();
    match CompressedLayer::open(&path) {
        Err(TablebaseError::Corrupt { path: named, .. }) => assert_eq!(named, path),
        other => panic!("version 4: {other:?}"),
    }
}

#[test]
fn damage_behind_good_checksums_never_panics() {
    // Bytes changed anywhere in the payload (tables, index, blocks), with the checksums
    // recomputed: opening refuses the file or decoding answers values or nothing, never panics.
    // In 64-byte blocks (version 3, as written by default), in 32-byte blocks (version 3),
    // and in 64-byte blocks (version 2).
    let source = std::fs::read(compressed_path(compressed_dir(), 1, 1)).unwrap();
    fuzz(&source, "tb-compressed-fuzz", 11);
    let source = std::fs::read(compressed_path(compressed_32_dir(), 1, 1)).unwrap();
    fuzz(&source, "tb-compressed-fuzz-32", 13);
    fuzz(
        &as_version_2(compressed_dir(), 1, 1),
        "tb-compressed-fuzz-v2",
        12,
    );
}

/// Damages `source` 300 times (checksums recomputed) and decodes each.
fn fuzz(source: &[u8], name: &str, seed: u64) {
    let dir = temp(name);
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("fuzz.bctz");
    let mut rng = StdRng::seed_from_u64(seed);
    let (mut refused, mut decoded) = (0, 0);
    for round in 0..300 {
        let mut bytes = source.to_vec();
        let flips = 1 + round % 4;
        for _ in 0..flips {
            // Half of the damage in the first 200 payload bytes (directory and tables).
            let at = if rng.random_bool(0.5) {
                HEADER_LEN + rng.random_range(0..200.min(bytes.len() - HEADER_LEN))
            } else {
                rng.random_range(HEADER_LEN..bytes.len())
            };
            bytes[at] ^= 1 << rng.random_range(0..8);
        }
        tb_common::fix_checksums(&mut bytes);
        std::fs::write(&path, &bytes).unwrap();
        match CompressedLayer::open(&path) {
            Err(TablebaseError::Corrupt { path: named, .. }) => {
                assert_eq!(named, path);
                refused += 1;
            }
            Err(other) => panic!("{other}"),
            Ok(layer) => {
                let tables_ok = layer.check_tables(&path).is_ok();
                let all = layer.decode_all();
                let positions = layer.mapped.header.positions;
                for _ in 0..200 {
                    let _ = layer.code(rng.random_range(0..positions + 10));
                }
                for _ in 0..20 {
                    let ats: Vec<u64> = (0..21)
                        .map(|_| rng.random_range(0..positions + 1))
                        .collect();
                    let _ = layer.codes_of(&ats, &mut |_, _| true);
                }
                if tables_ok && all.is_some() {
                    decoded += 1;
                } else {
                    refused += 1;
                }
            }
        }
    }
    assert!(
        refused > 0 && decoded > 0,
        "{refused} refused, {decoded} decoded"
    );
}

#[test]
fn a_directory_mixing_both_formats_answers_like_the_uncompressed_one() {
    // Layers with 1 goat in hand uncompressed, 2 in hand compressed, and the other way round:
    // derived goats-to-move values read their children from either format.
    let plain = open(plain_dir());
    for compressed_in_hand in [1, 2] {
        let dir = temp(&format!("tb-compressed-mixed-{compressed_in_hand}"));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        for captured in 0..RULES.captures_to_win {
            let name = layer_path(plain_dir(), captured);
            std::fs::copy(&name, layer_path(&dir, captured)).unwrap();
            for in_hand in 1..=MAX_IN_HAND {
                let (from, to) = if in_hand == compressed_in_hand {
                    (
                        compressed_path(compressed_dir(), in_hand, captured),
                        compressed_path(&dir, in_hand, captured),
                    )
                } else {
                    (
                        placement_path(plain_dir(), in_hand, captured),
                        placement_path(&dir, in_hand, captured),
                    )
                };
                std::fs::copy(from, to).unwrap();
            }
        }
        let mixed = open(&dir);
        let mut rng = StdRng::seed_from_u64(u64::from(compressed_in_hand));
        for layer in layers() {
            let compressed = mixed.placement().unwrap().is_compressed(layer);
            assert_eq!(compressed, layer.in_hand == compressed_in_hand);
            for _ in 0..2000 {
                let at = rng.random_range(0..PlacementIndex::new(layer).len());
                for side in [Side::Goats, Side::Tigers] {
                    if let Some(position) = position_at(layer, at, side) {
                        assert_eq!(mixed.probe(&position), plain.probe(&position), "{position}");
                    }
                }
            }
        }
        // The full check recomputes every value of either format from its children.
        let checks =
            verify_placement(&dir, &mixed, MAX_IN_HAND, 3, 2, NO_PROGRESS).expect("verify");
        assert!(checks.iter().all(|check| check.ok()), "{checks:?}");
        // A file whose checksum was never computed is checked (and stamped) at open.
        let again = Tablebase::open_with(&dir, RULES, PayloadCheck::Always).unwrap();
        assert!(again.placement().unwrap().wait_checked().is_empty());
    }
}

#[test]
fn the_engine_and_tb_probe_answer_alike_on_both_formats() {
    let rules = baghchal::Rules {
        forced_capture: false,
        captures_to_win: RULES.captures_to_win,
        repetition: Repetition::Draw,
    };
    let plain = open(plain_dir());
    let mut rng = StdRng::seed_from_u64(21);
    let mut positions = Vec::new();
    while positions.len() < 40 {
        let layer = layers()[rng.random_range(0..4)];
        let at = rng.random_range(0..PlacementIndex::new(layer).len());
        let side = if rng.random_bool(0.5) {
            Side::Goats
        } else {
            Side::Tigers
        };
        if let Some(position) = position_at(layer, at, side) {
            if position.count_moves(&rules) > 0 && plain.probe(&position).is_some() {
                positions.push(position);
            }
        }
    }
    // The engine: the same move and score at a fixed node count.
    let search = |dir: &Path, position: Position| tb_common::move_and_score(dir, position, rules);
    for &position in positions.iter().take(12) {
        assert_eq!(
            search(plain_dir(), position),
            search(compressed_dir(), position),
            "{position}"
        );
    }
    // `tb probe DIR -`: the same lines (values and value-preserving moves).
    let batch = |dir: &Path| {
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_baghchal"))
            .args(["tb", "probe", dir.to_str().unwrap(), "-"])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .expect("runs");
        let input: String = positions.iter().map(|p| format!("{p}\n")).collect();
        use std::io::Write;
        child
            .stdin
            .take()
            .unwrap()
            .write_all(input.as_bytes())
            .unwrap();
        let output = child.wait_with_output().unwrap();
        assert!(output.status.success());
        String::from_utf8(output.stdout).unwrap()
    };
    let (expected, found) = (batch(plain_dir()), batch(compressed_dir()));
    assert_eq!(expected.lines().count(), positions.len());
    assert_eq!(found, expected);
}

#[test]
fn the_cli_compresses_verifies_against_the_source_and_probes() {
    // Captures to win 1: every tiger capture wins, so both layers have don't-care values.
    let root = temp("tb-compressed-cli");
    let _ = std::fs::remove_dir_all(&root);
    let (source, target) = (root.join("plain"), root.join("packed"));
    let run = |args: &[&str]| {
        let output = std::process::Command::new(env!("CARGO_BIN_EXE_baghchal"))
            .arg("tb")
            .args(args)
            .output()
            .expect("runs");
        let stdout = String::from_utf8_lossy(&output.stdout).to_string();
        let stderr = String::from_utf8_lossy(&output.stderr).to_string();
        (output.status.success(), stdout, stderr)
    };
    let (source_arg, target_arg) = (source.to_str().unwrap(), target.to_str().unwrap());
    let gen = [
        "gen",
        "--out",
        source_arg,
        "--captures-to-win",
        "1",
        "--placement",
        "--max-in-hand",
        "2",
    ];
    assert!(run(&gen).0);
    let (ok, text, _) = run(&[
        "compress",
        source_arg,
        "--out",
        target_arg,
        "--threads",
        "1",
    ]);
    assert!(ok, "{text}");
    assert!(text.contains("layers: 2\n"), "{text}");
    // `tb gen --compress` writes the same files (on two threads: the output does not depend
    // on the number of threads).
    let generated = root.join("generated");
    let mut gen_compressed = gen.to_vec();
    gen_compressed[2] = generated.to_str().unwrap();
    gen_compressed.extend(["--compress", "--threads", "2"]);
    let (ok, text, _) = run(&gen_compressed);
    assert!(ok && text.contains("bits per stored position: "), "{text}");
    for in_hand in 1..=2 {
        let written = std::fs::read(compressed_path(&generated, in_hand, 0)).unwrap();
        assert_eq!(
            written,
            std::fs::read(compressed_path(&target, in_hand, 0)).unwrap()
        );
        assert!(
            placement_path(&generated, in_hand, 0).exists(),
            "kept to resume from"
        );
    }
    assert!(text.contains("bits per stored position: "), "{text}");
    assert!(!placement_path(&target, 1, 0).exists());
    assert!(compressed_path(&target, 2, 0).exists() && layer_path(&target, 0).exists());
    let (ok, text, _) = run(&["compress", source_arg, "--out", target_arg]);
    assert!(ok && text.matches("(present)").count() == 2, "{text}");
    let (ok, text, _) = run(&["verify", target_arg, "--against", source_arg]);
    assert!(ok, "{text}");
    assert!(
        text.contains("compressed 2 in hand 0 captured: 2215780 positions per side, 0 tigers-to-move and 0 goats-to-move mismatches, counts match"),
        "{text}"
    );
    let (ok, text, _) = run(&["verify", target_arg]);
    assert!(ok && text.ends_with("verify: ok\n"), "{text}");
    for position in [
        "TGGGG/GGGGG/GGGGG/G1GGG/T2TT t 2 0",
        "TGGGG/GGGGG/GGGGG/G1GGG/T2TT g 2 0",
    ] {
        assert_eq!(
            run(&["probe", target_arg, position]).1,
            run(&["probe", source_arg, position]).1
        );
    }
    // Against a directory without the uncompressed files: an error naming the missing one.
    let (ok, _, stderr) = run(&["verify", target_arg, "--against", target_arg]);
    assert!(!ok, "no uncompressed files to compare with: {stderr}");
    assert!(stderr.contains("place-01-0.bctb"), "{stderr}");
}
