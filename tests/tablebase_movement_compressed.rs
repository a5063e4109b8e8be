//! Compressed movement layers (`tb compress --movement`, `layer-C.bctz`): every value of a
//! small variant against the uncompressed files through `Tablebase::probe`, both sides; the
//! uncompressed file read where both are present; `tb verify` with and without a reference, the
//! forbid census;
//! damaged files refused, never a panic; the engine answering alike on both formats.

mod tb_common;
use baghchal::tablebase::compressed::convert::{compare_with, compress_dir};
use baghchal::tablebase::compressed::{compressed_movement_path, WRITTEN_BLOCK_BYTES};
use baghchal::tablebase::file::{layer_path, HEADER_LEN};
use baghchal::tablebase::forbid::census::census;
use baghchal::tablebase::index::LayerIndex;
use baghchal::tablebase::placement::generate::generate_placement;
use baghchal::tablebase::placement::index::{Frames, Layer, PlacementIndex};
use baghchal::tablebase::verify::verify_tables;
use baghchal::tablebase::{TableRules, Tablebase, TablebaseError};
use baghchal::{Bitboard, Position, Repetition, Side};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

const NO_PROGRESS: &(dyn Fn(&str, u64, u64) + Sync) = &|_: &str, _: u64, _: u64| {};

/// Captures to win 2: two movement layers (33,481 and 333,175 classes a side), and the
/// placement layers with 1 goat in hand, whose goats-to-move values come from the movement
/// tables.
const RULES: TableRules = TableRules {
    forced_capture: false,
    captures_to_win: 2,
};

fn temp(name: &str) -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join(name)
}

/// The uncompressed tables (generated once).
fn plain_dir() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = temp("tb-movement-source");
        generate_placement(&dir, RULES, 1, 2, NO_PROGRESS).expect("generation");
        dir
    })
}

/// The same tables with every layer compressed, movement layers included (compressed once).
fn packed_dir() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = temp("tb-movement-packed");
        let _ = std::fs::remove_dir_all(&dir);
        let reports = compress_dir(plain_dir(), &dir, 2, WRITTEN_BLOCK_BYTES, true, NO_PROGRESS)
            .expect("compress");
        // Two movement layers and two placement layers.
        assert_eq!(reports.len(), 4, "{reports:?}");
        dir
    })
}

fn open(dir: &Path) -> Tablebase {
    let tables = Tablebase::open(dir, RULES).expect("open");
    if let Some(placement) = tables.placement() {
        let corrupt = placement.wait_checked();
        assert!(corrupt.is_empty(), "{corrupt:?}");
    }
    tables
}

/// Every position of movement layer `captured`, one per class, `side` to move.
fn movement_positions(captured: u8, side: Side) -> impl Iterator<Item = Position> {
    let index = LayerIndex::get(usize::from(captured) + 1);
    (0..index.len()).filter_map(move |at| {
        let board = index.decode(at);
        Position::from_parts(
            Bitboard(board.tigers),
            Bitboard(board.goats()),
            side,
            0,
            captured,
        )
        .ok()
    })
}

#[test]
fn every_movement_value_reads_the_same_from_the_compressed_files() {
    let packed = packed_dir();
    for captured in 0..RULES.captures_to_win {
        assert!(compressed_movement_path(packed, captured).exists());
        assert!(!layer_path(packed, captured).exists(), "not copied");
    }
    let (plain, compressed) = (open(plain_dir()), open(packed));
    assert!(compressed
        .layer_paths()
        .iter()
        .all(|path| path.extension().is_some_and(|e| e == "bctz")));
    for captured in 0..RULES.captures_to_win {
        let mut distances = std::collections::BTreeSet::new();
        for side in [Side::Goats, Side::Tigers] {
            for position in movement_positions(captured, side) {
                let expected = plain.probe(&position).expect("covered");
                assert_eq!(compressed.probe(&position), Some(expected), "{position}");
                distances.insert(expected.plies_to_end);
            }
        }
        // Draws and many distances: the byte values are not all alike.
        assert!(distances.len() > 10, "layer {captured}: {distances:?}");
    }
    // The placement layers with 1 in hand derive goats to move from the movement values.
    for captured in 0..RULES.captures_to_win {
        let layer = Layer {
            in_hand: 1,
            captured,
        };
        let index = PlacementIndex::new(layer);
        let mut compared = 0;
        for at in (0..index.len()).step_by(37) {
            let (class, goats) = index.decode(at);
            let tigers = Frames::get().classes[class].tigers;
            let Ok(position) =
                Position::from_parts(Bitboard(tigers), Bitboard(goats), Side::Goats, 1, captured)
            else {
                continue;
            };
            assert_eq!(
                compressed.probe(&position),
                plain.probe(&position),
                "{position}"
            );
            compared += 1;
        }
        assert!(compared > 100, "{compared}");
    }
    // And the value-preserving moves of a sample, as `tb probe` and the GUI list them.
    for position in movement_positions(1, Side::Tigers).step_by(997) {
        assert_eq!(
            compressed.best_moves_with_values(&position),
            plain.best_moves_with_values(&position),
            "{position}"
        );
    }
}

#[test]
fn compressed_movement_layers_verify_and_compress_resumes() {
    let packed = packed_dir();
    let comparisons = compare_with(packed, plain_dir(), 2, NO_PROGRESS).expect("compare");
    let movement: Vec<_> = comparisons
        .iter()
        .filter(|comparison| comparison.layer.in_hand == 0)
        .collect();
    assert_eq!(movement.len(), 2);
    assert!(comparisons.iter().all(|c| c.ok()), "{comparisons:?}");
    // Every stored value against its successors, from the compressed files.
    let (_, checks) = verify_tables(packed, 2, NO_PROGRESS).expect("verify");
    assert_eq!(checks.len(), 2);
    assert!(
        checks.iter().all(|check| check.mismatches == 0),
        "{checks:?}"
    );
    // The forbid census reads whole layers: the same from either format.
    let of = |dir: &Path| {
        let layers = census(dir, NO_PROGRESS).expect("census");
        let summary: Vec<_> = layers
            .iter()
            .map(|layer| (layer.captured, layer.sizes.clone(), layer.largest_by_side))
            .collect();
        summary
    };
    let expected = of(plain_dir());
    assert_eq!(expected.len(), 2);
    assert!(expected.iter().any(|(_, sizes, _)| !sizes.is_empty()));
    assert_eq!(of(packed), expected);
    let again = compress_dir(
        plain_dir(),
        packed,
        1,
        WRITTEN_BLOCK_BYTES,
        true,
        NO_PROGRESS,
    )
    .expect("compress");
    assert!(again.iter().all(|report| report.resumed), "{again:?}");
    for report in again.iter().filter(|report| report.layer.in_hand == 0) {
        // Both sides stored, in under 4 bits a value.
        let classes = LayerIndex::get(usize::from(report.layer.captured) + 1).len();
        assert_eq!(report.positions, 2 * u64::from(classes));
        assert!(report.bytes < report.source_bytes / 2, "{report:?}");
    }
}

#[test]
fn where_both_files_are_present_the_uncompressed_one_is_read() {
    let dir = temp("tb-movement-both");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for captured in 0..RULES.captures_to_win {
        let name = compressed_movement_path(packed_dir(), captured);
        std::fs::copy(&name, dir.join(name.file_name().unwrap())).unwrap();
    }
    std::fs::copy(layer_path(plain_dir(), 1), layer_path(&dir, 1)).unwrap();
    let tables = open(&dir);
    let paths = tables.layer_paths();
    assert_eq!(paths[0], compressed_movement_path(&dir, 0));
    assert_eq!(paths[1], layer_path(&dir, 1));
    // Opened by the rules recorded in the first layer's header, compressed or not.
    let recorded = Tablebase::open_recorded(&dir).expect("open");
    assert_eq!(recorded.rules(), RULES);
    let position = movement_positions(1, Side::Goats).nth(1234).unwrap();
    assert_eq!(tables.probe(&position), open(plain_dir()).probe(&position));
}

/// A copy of the packed tables with `edit` applied to the bytes of `layer-1.bctz`.
fn damaged_copy(name: &str, edit: impl FnOnce(&mut Vec<u8>)) -> (PathBuf, PathBuf) {
    let dir = temp(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for entry in std::fs::read_dir(packed_dir()).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "bctz") {
            std::fs::copy(&path, dir.join(path.file_name().unwrap())).unwrap();
        }
    }
    let damaged = compressed_movement_path(&dir, 1);
    let mut bytes = std::fs::read(&damaged).unwrap();
    edit(&mut bytes);
    std::fs::write(&damaged, bytes).unwrap();
    (dir, damaged)
}

#[test]
fn a_damaged_compressed_movement_layer_is_refused_naming_it() {
    let length = std::fs::metadata(compressed_movement_path(packed_dir(), 1))
        .unwrap()
        .len() as usize;
    // A flipped byte: the payload checksum; a cut anywhere: the length.
    let (dir, damaged) = damaged_copy("tb-movement-flipped", |bytes| {
        let at = bytes.len() / 2;
        bytes[at] ^= 0x10;
    });
    match Tablebase::open(&dir, RULES) {
        Err(TablebaseError::Corrupt { path, .. }) => assert_eq!(path, damaged),
        other => panic!("{other:?}"),
    }
    for cut in [0, 50, HEADER_LEN, HEADER_LEN + 8, length / 2, length - 1] {
        let (dir, damaged) = damaged_copy("tb-movement-cut", |bytes| bytes.truncate(cut));
        match Tablebase::open(&dir, RULES) {
            Err(TablebaseError::Corrupt { path, .. }) => assert_eq!(path, damaged),
            other => panic!("cut at {cut}: {other:?}"),
        }
    }
    // Damage behind good checksums (every 97th byte of the payload flipped in turn, in a few
    // places): refused at open (the tables are all checked there) or, where the structure
    // still holds, answering without a panic.
    let plain = open(plain_dir());
    let sample: Vec<Position> = movement_positions(1, Side::Tigers).step_by(331).collect();
    let mut refused = 0;
    for at in (HEADER_LEN..length).step_by(length / 40) {
        let (dir, damaged) = damaged_copy("tb-movement-fuzz", |bytes| {
            bytes[at] ^= 0x5a;
            tb_common::fix_checksums(bytes);
        });
        match Tablebase::open(&dir, RULES) {
            Err(TablebaseError::Corrupt { path, .. }) => {
                assert_eq!(path, damaged);
                refused += 1;
            }
            Err(other) => panic!("{other:?}"),
            Ok(tables) => {
                for position in &sample {
                    let _ = tables.probe(position);
                }
                let _ = verify_tables(&dir, 1, NO_PROGRESS);
            }
        }
    }
    assert!(refused > 0);
    assert!(plain.probe(&sample[0]).is_some());
}

#[test]
fn the_engine_plays_alike_on_both_formats() {
    let rules = baghchal::Rules {
        forced_capture: false,
        captures_to_win: RULES.captures_to_win,
        repetition: Repetition::Draw,
    };
    let search = |dir: &Path, position: Position| tb_common::move_and_score(dir, position, rules);
    let mut searched = 0;
    for side in [Side::Goats, Side::Tigers] {
        for position in movement_positions(1, side).step_by(20_011) {
            if position.count_moves(&rules) == 0 {
                continue;
            }
            assert_eq!(
                search(plain_dir(), position),
                search(packed_dir(), position),
                "{position}"
            );
            searched += 1;
        }
    }
    assert!(searched >= 20, "{searched}");
}

#[test]
fn the_cli_compresses_the_movement_layers_and_verifies_them() {
    let root = temp("tb-movement-cli");
    let _ = std::fs::remove_dir_all(&root);
    let target = root.join("packed");
    let run = |args: &[&str]| {
        let output = std::process::Command::new(env!("CARGO_BIN_EXE_baghchal"))
            .arg("tb")
            .args(args)
            .output()
            .expect("runs");
        let stdout = String::from_utf8_lossy(&output.stdout).to_string();
        (output.status.success(), stdout)
    };
    let (source_arg, target_arg) = (plain_dir().to_str().unwrap(), target.to_str().unwrap());
    let (ok, text) = run(&["compress", source_arg, "--out", target_arg, "--movement"]);
    assert!(ok, "{text}");
    assert!(text.contains("layers: 4\n"), "{text}");
    let (ok, text) = run(&["verify", target_arg, "--against", source_arg]);
    assert!(ok, "{text}");
    assert!(
        text.contains("compressed movement 1 captured: 333175 positions per side, 0 tigers-to-move and 0 goats-to-move mismatches, counts match"),
        "{text}"
    );
    let (ok, text) = run(&["verify", target_arg]);
    assert!(ok && text.ends_with("verify: ok\n"), "{text}");
    let position = movement_positions(1, Side::Goats).nth(4321).unwrap();
    let fen = position.to_string();
    let (ok, packed) = run(&["probe", target_arg, &fen]);
    let (_, plain) = run(&["probe", source_arg, &fen]);
    assert!(ok && !packed.is_empty());
    assert_eq!(packed, plain);
}
