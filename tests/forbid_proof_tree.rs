//! `tools/forbid_proof_tree.py`, the checker of a tigers' strategy made of `tb forbid prove`
//! searches, on a small tree of CapturesToWin 2: its verdict follows the tree's searches, a
//! missing or wrong branch leaves the root unproven, and a tree it cannot trust is refused.
//! And `tools/forbid_proof_grow.py`, which finds such a tree, depth first or best first: the
//! checker accepts what it finds.

use baghchal::tablebase::forbid::start::start_bounds;
use forbid_common::{private_ctw2, run_tb, QUIET};
use std::ffi::OsStr;
use std::path::Path;

mod forbid_common;

/// Goats to move with 2 in hand: the tigers win, but no move is settled after one expansion.
const ROOT: &str = "GGGGG/T1GGG/TT1GG/GGGGT/GG1GG g 2 0";

/// Runs `python3 tool args...`; (exit code, stdout, stderr).
fn python(tool: &str, args: &[&OsStr]) -> (Option<i32>, String, String) {
    let tool = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tools")
        .join(tool);
    let output = std::process::Command::new("python3")
        .arg(tool)
        .args(args)
        .output()
        .expect("python3 runs the tool");
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// Runs the checker on `tree` (its lines joined) with its outputs in `dir/name`, kept from an
/// earlier run unless `fresh`; (exit code, stdout, stderr).
fn run(dir: &Path, name: &str, tree: &[&str], fresh: bool) -> (Option<i32>, String, String) {
    let work = dir.join(name);
    if fresh {
        let _ = std::fs::remove_dir_all(&work);
    }
    std::fs::create_dir_all(&work).unwrap();
    let file = work.join("tree.txt");
    std::fs::write(&file, tree.join("\n") + "\n").unwrap();
    let (dir, file, out) = (dir.as_os_str(), file.as_os_str(), work.join("out"));
    let mut args = vec![file, dir, OsStr::new("--out"), out.as_os_str()];
    args.extend(common_args().map(OsStr::new));
    python("forbid_proof_tree.py", &args)
}

/// The arguments both tools take here: the engine, the variant, the root, and no proof files.
fn common_args() -> [&'static str; 7] {
    let engine = env!("CARGO_BIN_EXE_baghchal");
    [
        "--baghchal",
        engine,
        "--captures-to-win",
        "2",
        "--from",
        ROOT,
        "--without-proofs",
    ]
}

fn check(dir: &Path, name: &str, tree: &[&str]) -> (Option<i32>, String, String) {
    run(dir, name, tree, true)
}

#[test]
fn the_proof_tree_checker_combines_searches_and_refuses_what_it_cannot_trust() {
    let dir = private_ctw2("tree");
    start_bounds(&dir, 2, 2, QUIET).expect("placement values under forbid");
    // The root's value by one search of the whole position (the full-history search of the
    // game itself needs more than 50 million nodes here; the prover is checked against it in
    // tests/tablebase_forbid_prove.rs).
    let (ok, out, err) = run_tb(&["forbid", "prove", dir.to_str().unwrap(), "--position", ROOT]);
    assert!(ok && out.starts_with("forbid: tigers win"), "{out}{err}");
    // One expansion a move settles nothing: the root alone is not proven.
    let (code, out, err) = check(&dir, "root-alone", &["1 1024 -"]);
    assert_eq!(code, Some(1), "{out}{err}");
    assert!(out.contains("verdict: not proven"), "{out}");
    // Each goats' move followed: c1 by the tigers' a3b4, then every goats' reply searched.
    let proof = [
        "1 1024 -",
        "1 1024 c1",
        "100000 65536 c1 a3b4",
        "100000 65536 c3",
        "100000 65536 b4",
    ];
    let (code, out, err) = check(&dir, "proof", &proof);
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(out.contains("verdict: the tigers win"), "{out}");
    let c1 = out.lines().find(|l| l.contains(" c1 ")).expect("c1's line");
    assert!(
        c1.contains("tigers win") && c1.contains("forbid: unknown"),
        "settled by its child, not by its own search: {c1}"
    );
    // The tigers' line c1 need not be a node: the line c1 a3b4 implies it.
    let implied = [proof[0], proof[2], proof[3], proof[4]];
    let (code, out, err) = check(&dir, "implied", &implied);
    assert_eq!(code, Some(0), "{out}{err}");
    // Its outputs are kept, and a second run reuses them.
    let kept = dir.join("proof/out/002.out");
    let first = std::fs::read_to_string(&kept).unwrap();
    assert!(
        first.starts_with("$ ") && first.contains("--each-move"),
        "{first}"
    );
    let (code, _, err) = run(&dir, "proof", &proof, false);
    assert_eq!(code, Some(0), "{err}");
    assert!(!err.contains("node 2:"), "searched again: {err}");
    // A goats' move without its branch, or a tigers' move that loses, proves nothing.
    let (code, out, _) = check(&dir, "missing", &proof[..4]);
    assert_eq!(code, Some(1), "{out}");
    let mut wrong = proof;
    wrong[2] = "100000 65536 c1 b3b4";
    let (code, out, _) = check(&dir, "wrong", &wrong);
    assert_eq!(code, Some(1), "{out}");
    // An illegal move, and a node a history could touch (goats to move, none in hand).
    let (code, _, err) = check(&dir, "illegal", &["1 1024 -", "1 1024 c1 a3b4 b3"]);
    assert_ne!(code, Some(0));
    assert!(err.contains("refused"), "{err}");
    let (code, _, err) = check(&dir, "history", &["1 1024 -", "1 1024 c1 a3b4 a3 b3c3"]);
    assert_ne!(code, Some(0));
    assert!(err.contains("a history could forbid moves"), "{err}");
}

/// Runs the grower with its work in `dir/name` (kept from an earlier run) and `limits`, and
/// small transposition tables.
fn grow(dir: &Path, name: &str, limits: &[&str]) -> (Option<i32>, String, String) {
    let out = dir.join(name);
    let mut args = vec![dir.as_os_str(), OsStr::new("--out"), out.as_os_str()];
    args.extend(common_args().map(OsStr::new));
    args.extend(["--max-table-entries", "65536"].map(OsStr::new));
    args.extend(limits.iter().map(OsStr::new));
    python("forbid_proof_grow.py", &args)
}

/// The grower, searching in `order`, finds a tree the checker proves, resumes without searching
/// again, and gives up (without claiming a goats' win) where its limits are too small.
fn grower_finds_a_strategy_the_checker_accepts(order: &str) {
    let dir = private_ctw2(&format!("grow-{order}"));
    start_bounds(&dir, 2, 2, QUIET).expect("placement values under forbid");
    let small = [
        "--nodes",
        "100",
        "--max-nodes",
        "100000",
        "--factor",
        "10",
        "--order",
        order,
    ];
    let (code, out, err) = grow(&dir, "grown", &small);
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(out.contains("verdict: the tigers win"), "{out}");
    // The tree it wrote, checked again from nothing (every search run anew), is a proof: a
    // goats' root, a tigers' move after c1 (no search settles c1 at 100 expansions), and
    // every goats' move answered.
    let grown = std::fs::read_to_string(dir.join("grown/tree.txt")).unwrap();
    let lines: Vec<&str> = grown.lines().filter(|l| !l.starts_with('#')).collect();
    assert!(lines[0].ends_with(" -"), "{grown}");
    assert!(
        lines.iter().any(|l| l.split(' ').skip(2).count() == 2),
        "c1 is split, not settled by one search: {grown}"
    );
    let (code, out, err) = check(&dir, "regrown", &lines);
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(out.contains("verdict: the tigers win"), "{out}");
    // A rerun searches nothing again.
    let (code, _, err) = grow(&dir, "grown", &small);
    assert_eq!(code, Some(0), "{err}");
    assert!(!err.contains("expansions)"), "searched again: {err}");
    // Without splitting a tigers' node and with at most 1,000 expansions a search, c1 stays
    // unknown: not proven, and the tree lists what was searched.
    let limited = [
        "--nodes",
        "100",
        "--max-nodes",
        "1000",
        "--factor",
        "10",
        "--depth",
        "0",
        "--order",
        order,
    ];
    let (code, out, err) = grow(&dir, "limited", &limited);
    assert_eq!(code, Some(1), "{out}{err}");
    assert!(out.contains("verdict: not proven"), "{out}");
    assert!(err.contains("search: unknown from"), "{err}");
    let limited = std::fs::read_to_string(dir.join("limited/tree.txt")).unwrap();
    assert!(limited.contains("\n1000 65536 c1\n"), "{limited}");
}

#[test]
fn the_depth_first_proof_tree_grower_finds_a_strategy_the_checker_accepts() {
    grower_finds_a_strategy_the_checker_accepts("depth-first");
}

#[test]
fn the_best_first_proof_tree_grower_finds_a_strategy_the_checker_accepts() {
    grower_finds_a_strategy_the_checker_accepts("best-first");
}

/// Where the grower splits a tigers' node it takes no two moves whose positions are symmetric
/// images: after c1 from the start, `e1d1` mirrors `a1b1`, so `a1a2` comes second.
#[test]
fn the_proof_tree_grower_splits_on_no_two_symmetric_moves() {
    let tools = Path::new(env!("CARGO_MANIFEST_DIR")).join("tools");
    let script = format!(
        "import argparse, sys\n\
         sys.path.insert(0, {tools:?})\n\
         import forbid_proof_grow as grow\n\
         args = argparse.Namespace(baghchal={engine:?}, captures_to_win=None, root=None, width=2)\n\
         ranked = [(1, 'a1b1'), (1, 'e1d1'), (2, 'a1a2'), (3, 'e1e2')]\n\
         print([move for _, move in grow.DepthFirst(args).most_promising(('c1',), ranked)])\n",
        engine = env!("CARGO_BIN_EXE_baghchal"),
    );
    let output = std::process::Command::new("python3")
        .args(["-c", &script])
        .output()
        .expect("python3 runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert_eq!(stdout.trim(), "['a1b1', 'a1a2']");
}
