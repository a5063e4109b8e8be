//! Full tablebase generation benchmark (release build): `cargo bench --bench tablebase`.
//!
//! Arguments after `--`: `[captures_to_win] [forced]` (default 5, not forced). Generates into a
//! fresh temporary directory, prints per-layer wall times, sizes and counts, then the total, and
//! probes a sample of positions to time lookups. Peak memory: run the built bench binary under
//! `/usr/bin/time -v`, or use `baghchal tb gen` (see docs/tablebase.md).

use baghchal::tablebase::index::LayerIndex;
use baghchal::tablebase::solve::generate_tables;
use baghchal::tablebase::verify::board_position;
use baghchal::tablebase::{TableRules, Tablebase};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let captures_to_win: u8 = args.first().and_then(|a| a.parse().ok()).unwrap_or(5);
    let forced_capture = args.iter().any(|a| a == "forced");
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    let dir = std::env::temp_dir().join(format!("baghchal-tb-bench-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let rules = TableRules {
        forced_capture,
        captures_to_win,
    };
    let started = Instant::now();
    let reports =
        generate_tables(&dir, rules, threads, &|_: &str, _: u64, _: u64| {}).expect("generation");
    let seconds = started.elapsed().as_secs_f64();
    for report in &reports {
        println!(
            "layer {}: {:.2} s, {} bytes, goats w/d/l {:?}, tigers w/d/l {:?}",
            report.captured,
            report.seconds,
            report.file_bytes,
            report.header.counts[0],
            report.header.counts[1]
        );
    }
    let classes: u64 = reports.iter().map(|r| 2 * r.header.positions).sum();
    println!("generate {rules}: {classes} positions in {seconds:.2} s on {threads} threads");

    let tables = Tablebase::open(&dir, rules).expect("open");
    let index = LayerIndex::get(usize::from(captures_to_win));
    let samples: Vec<_> = (0..index.len())
        .step_by(97)
        .map(|i| board_position(index.decode(i), (i % 2) as usize, captures_to_win - 1))
        .collect();
    let started = Instant::now();
    let found = samples.iter().filter(|p| tables.probe(p).is_some()).count();
    let per_probe = started.elapsed().as_secs_f64() / samples.len() as f64;
    println!("probe: {found} positions, {:.0} ns each", per_probe * 1e9);
    let _ = std::fs::remove_dir_all(&dir);
}
