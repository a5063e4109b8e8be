//! `tb forbid export` and `tb forbid import`: the entry pass's proof files carried to another
//! table directory in a proof pack, and merged there with the work already done.

use baghchal::tablebase::forbid::entries::{prove_entries, EntryOptions};
use baghchal::tablebase::forbid::file::{code_counts, proof_path, read_forbid, write_forbid};
use baghchal::tablebase::forbid::pack::read_pack;
use baghchal::tablebase::forbid::ForbidValue;
use baghchal::tablebase::index::LayerIndex;
use baghchal::tablebase::{TableRules, Tablebase};
use forbid_common::{private_ctw2, run_tb, solved_dir, table_rules, QUIET};
use std::path::{Path, PathBuf};

mod forbid_common;

/// An entry pass over a sample of CapturesToWin 2's unknown entries (`part` of them).
fn options(sample: u64, nodes_per_entry: u64, part: Option<(u64, u64)>) -> EntryOptions {
    EntryOptions {
        nodes_per_entry,
        table_entries: 1 << 20,
        sample: Some(sample),
        threads: 2,
        write: true,
        after_captures: part.is_none(),
        part,
        layers: None,
    }
}

/// A private copy of CapturesToWin 2's tables (`tag`) after an entry pass over both sides to
/// move, and the pack it exported.
fn exported(tag: &str, sample: u64, nodes_per_entry: u64) -> (PathBuf, PathBuf) {
    let dir = private_ctw2(tag);
    let run = prove_entries(&dir, options(sample, nodes_per_entry, None), QUIET).expect("entries");
    let settled: u64 = run.iter().map(|l| l.tigers_win + l.goats_win).sum();
    assert!(settled >= 10, "{run:?}");
    let pack = dir.join("proofs.bcfp");
    let (ok, _, err) = run_tb(&["forbid", "export", text(&dir), "--out", text(&pack)]);
    assert!(ok, "{err}");
    (dir, pack)
}

/// Classes a side, per layer.
fn positions() -> Vec<u64> {
    let tables = Tablebase::open(solved_dir(2), table_rules(2)).expect("open");
    tables.headers().iter().map(|h| h.positions).collect()
}

/// The proof files of `dir`: per layer, the header's node budget and the codes.
fn proof_files(dir: &Path) -> Vec<(u64, Vec<u8>)> {
    positions()
        .iter()
        .enumerate()
        .map(|(captured, &count)| {
            let path = proof_path(dir, captured as u8);
            let (header, codes) =
                read_forbid(&path, table_rules(2), captured as u8, count).expect("proof file");
            (header.node_budget, codes)
        })
        .collect()
}

fn text(path: &Path) -> &str {
    path.to_str().expect("a UTF-8 path")
}

#[test]
fn a_proof_pack_carries_the_entry_pass_to_another_directory() {
    let (from, pack) = exported("pack-from", 40, 20_000);
    // Exporting again prints each layer's counts.
    let (ok, out, err) = run_tb(&["forbid", "export", text(&from), "--out", text(&pack)]);
    assert!(ok, "{err}");
    assert!(
        out.contains("tigers-win") && out.contains("    1 tigers"),
        "{out}"
    );
    // Much smaller than the proof files: only the classes the forbid files leave unknown.
    let proof_bytes: u64 = (0..2)
        .map(|c| std::fs::metadata(proof_path(&from, c)).unwrap().len())
        .sum();
    let pack_bytes = std::fs::metadata(&pack).unwrap().len();
    assert!(
        pack_bytes * 4 < proof_bytes,
        "{pack_bytes} >= {proof_bytes} / 4"
    );
    // Into a directory without proof files: the same files, byte for byte.
    let to = private_ctw2("pack-to");
    let (ok, out, err) = run_tb(&["forbid", "import", text(&to), text(&pack)]);
    assert!(ok, "{err}");
    assert!(out.contains(" no\n") && !out.contains("yes"), "{out}");
    for captured in 0..2 {
        let (a, b) = (proof_path(&from, captured), proof_path(&to, captured));
        assert_eq!(std::fs::read(a).unwrap(), std::fs::read(b).unwrap());
    }
    // An entry pass there takes the imported work as its own: it does not search again what
    // the first directory's pass searched.
    let again = prove_entries(&to, options(40, 20_000, None), QUIET).expect("entries");
    let files = proof_files(&from);
    for layer in &again {
        let count = positions()[usize::from(layer.captured)] as usize;
        let side = layer.side.index();
        let codes = &files[usize::from(layer.captured)].1[side * count..(side + 1) * count];
        let with = |value: ForbidValue| codes.iter().filter(|&&c| c == value.code()).count() as u64;
        let proven = with(ForbidValue::Win) + with(ForbidValue::Loss);
        assert!(proven > 0 || layer.captured == 0, "{layer:?}");
        assert_eq!(layer.settled_before, proven, "{layer:?}");
        assert_eq!(
            layer.unsettled_before,
            with(ForbidValue::Unknown),
            "{layer:?}"
        );
    }
}

#[test]
fn an_import_merges_with_the_work_already_there() {
    let (first, pack) = exported("pack-first", 40, 20_000);
    // Another machine's work: another sample, a larger budget.
    let (second, _) = exported("pack-second", 9, 30_000);
    let (a, b) = (proof_files(&first), proof_files(&second));
    let (ok, out, err) = run_tb(&["forbid", "import", text(&second), text(&pack)]);
    assert!(ok, "{err}");
    assert!(out.contains("yes"), "{out}");
    let merged = proof_files(&second);
    let unknown = ForbidValue::Unknown.code();
    let (mut from_first, mut from_second) = (0, 0);
    for captured in 0..2 {
        let ((budget_a, codes_a), (budget_b, codes_b)) = (&a[captured], &b[captured]);
        let (budget, codes) = &merged[captured];
        for ((&x, &y), &z) in codes_a.iter().zip(codes_b).zip(codes) {
            let proven = |code: u8| ForbidValue::from_code(code).is_some_and(|v| v.is_proven());
            let expected = match (proven(x), proven(y)) {
                (true, true) => {
                    assert_eq!(x, y, "two proofs disagree");
                    x
                }
                (true, false) => x,
                (false, true) => y,
                _ if x == unknown || y == unknown => unknown,
                _ => 0,
            };
            assert_eq!(z, expected);
            from_first += u64::from(proven(x) && !proven(y));
            from_second += u64::from(proven(y) && !proven(x));
        }
        // Every unknown in the merged file was searched with at least its budget.
        if codes_a.contains(&unknown) && codes_b.contains(&unknown) {
            assert_eq!(*budget, (*budget_a).min(*budget_b));
        }
    }
    assert!(
        from_first > 0 && from_second > 0,
        "{from_first} {from_second}"
    );
}

#[test]
fn a_damaged_foreign_or_contradicting_pack_or_an_empty_export_writes_nothing() {
    let (from, pack) = exported("pack-source", 40, 20_000);
    // A proof file there that settles one class of layer 0 the other way. The pack holds
    // layer 1 first: it is not written either.
    let to = private_ctw2("pack-target");
    let count = positions()[0];
    let (mut header, mut codes) =
        read_forbid(&proof_path(&from, 0), table_rules(2), 0, count).expect("proof file");
    let settled = codes
        .iter()
        .position(|&code| code == ForbidValue::Win.code())
        .expect("a settled class");
    codes[settled] = ForbidValue::Loss.code();
    header.counts = code_counts(&codes, count as usize);
    write_forbid(&proof_path(&to, 0), &header, &codes).expect("write");
    let before = std::fs::read(proof_path(&to, 0)).unwrap();
    let (ok, _, err) = run_tb(&["forbid", "import", text(&to), text(&pack)]);
    assert!(!ok && err.contains("disagree"), "{err}");
    assert_eq!(std::fs::read(proof_path(&to, 0)).unwrap(), before);
    assert!(!proof_path(&to, 1).exists(), "layer 1 written");
    // A damaged pack.
    let mut bytes = std::fs::read(&pack).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0x04;
    let damaged = to.join("damaged.bcfp");
    std::fs::write(&damaged, &bytes).unwrap();
    let (ok, _, err) = run_tb(&["forbid", "import", text(&to), text(&damaged)]);
    assert!(!ok && err.contains("corrupt proof pack"), "{err}");
    // Cut short.
    std::fs::write(&damaged, &bytes[..bytes.len() / 3]).unwrap();
    let (ok, _, err) = run_tb(&["forbid", "import", text(&to), text(&damaged)]);
    assert!(!ok && err.contains("corrupt proof pack"), "{err}");
    assert!(!proof_path(&to, 1).exists(), "layer 1 written");
    // Made for other rules (CapturesToWin 2 into CapturesToWin 1).
    let (ok, _, err) = run_tb(&["forbid", "import", text(solved_dir(1)), text(&pack)]);
    assert!(!ok && err.contains("made for rules"), "{err}");
    assert!(!proof_path(solved_dir(1), 0).exists());
    // A directory without proof files has nothing to export: no empty pack is written.
    let empty = private_ctw2("pack-empty");
    let out = empty.join("nothing.bcfp");
    let (ok, _, err) = run_tb(&["forbid", "export", text(&empty), "--out", text(&out)]);
    assert!(!ok && err.contains("no proof files"), "{err}");
    assert!(!out.exists(), "an empty pack was written");
}

#[test]
fn the_default_rules_pack_in_the_repository_is_whole() {
    // The entry pass of the default rules as far as it went (docs/forbid.md, "Proof packs").
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/forbid-proofs-default.bcfp");
    let pack = read_pack(&path).expect("the pack");
    assert_eq!(pack.rules, TableRules::DEFAULT);
    assert!(!pack.layers.is_empty());
    for layer in &pack.layers {
        let index = LayerIndex::get(usize::from(layer.captured) + 1);
        assert_eq!(
            layer.positions,
            u64::from(index.len()),
            "layer {}",
            layer.captured
        );
        // The pass searched tigers-to-move entries and settled some.
        let codes = layer.codes[1].as_ref().expect("tigers-to-move codes");
        assert_eq!(codes.len() as u64, layer.unknown[1]);
        let settled = codes
            .iter()
            .filter(|&&code| ForbidValue::from_code(code).is_some_and(|v| v.is_proven()))
            .count();
        assert!(settled > 0, "layer {}", layer.captured);
    }
}

#[test]
fn parts_of_a_pass_are_disjoint_and_join_by_import() {
    use baghchal::tablebase::forbid::file::forbid_path;
    let dirs = [private_ctw2("part-0"), private_ctw2("part-1")];
    for (k, dir) in dirs.iter().enumerate() {
        let part = Some((k as u64, 2));
        let run = prove_entries(dir, options(15, 20_000, part), QUIET).expect("entries");
        assert!(run.iter().all(|l| l.searched == 15), "{run:?}");
    }
    // Each part searched only the unknown entries of its rank modulo 2.
    let files = dirs.each_ref().map(|dir| proof_files(dir));
    let mut searched = [0u64; 2];
    for (captured, &count) in positions().iter().enumerate() {
        let path = forbid_path(&dirs[0], captured as u8);
        let (_, forbid) =
            read_forbid(&path, table_rules(2), captured as u8, count).expect("forbid");
        let n = count as usize;
        let unknown = ForbidValue::Unknown.code();
        let ranks = (n..2 * n).filter(|&i| forbid[i] == unknown);
        for (rank, i) in ranks.enumerate() {
            for (k, file) in files.iter().enumerate() {
                if file[captured].1[i] != 0 {
                    assert_eq!(rank % 2, k, "layer {captured}, rank {rank}");
                    searched[k] += 1;
                }
            }
        }
    }
    assert_eq!(searched, [30, 30]);
    // Joined: every entry either part searched, with its value.
    let pack = dirs[1].join("part.bcfp");
    let (ok, _, err) = run_tb(&["forbid", "export", text(&dirs[1]), "--out", text(&pack)]);
    assert!(ok, "{err}");
    let (ok, _, err) = run_tb(&["forbid", "import", text(&dirs[0]), text(&pack)]);
    assert!(ok, "{err}");
    let joined = proof_files(&dirs[0]);
    for captured in 0..2 {
        for (i, &code) in joined[captured].1.iter().enumerate() {
            let (a, b) = (files[0][captured].1[i], files[1][captured].1[i]);
            assert_eq!(code, a.max(b), "layer {captured}, class {i}");
            assert!(a == 0 || b == 0, "searched twice");
        }
    }
    // A part must name one of the parts.
    let dir = text(&dirs[0]);
    for bad in ["2/2", "1", "a/3", "1/0"] {
        let args = [
            "forbid",
            "prove",
            dir,
            "--entries",
            "--nodes",
            "1",
            "--part",
            bad,
        ];
        let (ok, _, err) = run_tb(&args);
        assert!(!ok && err.contains("--part"), "{bad}: {err}");
    }
}

#[test]
fn a_pass_over_chosen_layers_leaves_the_others_alone() {
    // `layers`: a pass over layer 0 alone searches nothing in layer 1 and writes no proof file
    // there; a pass over layer 1 alone then leaves layer 0's file as it was; the command refuses
    // a layer the tables do not have.
    let dir = private_ctw2("pack-layers");
    let only = |mask| EntryOptions {
        layers: Some(mask),
        ..options(20, 20_000, None)
    };
    let layers_of = |run: &[baghchal::tablebase::forbid::entries::EntryLayer]| -> Vec<u8> {
        run.iter().map(|l| l.captured).collect()
    };
    let first = prove_entries(&dir, only(0b01), QUIET).expect("layer 0");
    assert_eq!(layers_of(&first), [0, 0], "{first:?}");
    assert!(
        first.iter().map(|l| l.searched).sum::<u64>() > 0,
        "{first:?}"
    );
    assert!(!proof_path(&dir, 1).exists());
    let layer_0 = std::fs::read(proof_path(&dir, 0)).expect("layer 0's proof file");
    let second = prove_entries(&dir, only(0b10), QUIET).expect("layer 1");
    assert_eq!(layers_of(&second), [1, 1], "{second:?}");
    assert!(
        second.iter().map(|l| l.searched).sum::<u64>() > 0,
        "{second:?}"
    );
    assert!(proof_path(&dir, 1).exists());
    assert_eq!(std::fs::read(proof_path(&dir, 0)).unwrap(), layer_0);
    let (ok, _, err) = run_tb(&[
        "forbid",
        "prove",
        text(&dir),
        "--entries",
        "--layers",
        "0,2",
    ]);
    assert!(!ok && err.contains("no layer 2"), "{err}");
}
