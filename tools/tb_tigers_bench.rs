//! Time of the placement solver's tigers-to-move step on one layer (release build):
//! `cargo run --release --example tb_tigers_bench -- DIR IN_HAND CAPTURED [threads=T]`.
//!
//! Reads the goats-to-move values the step needs from the layer files in DIR (the layer itself
//! and, when a capture does not win, the layer with one more captured), solves tigers to move
//! with T threads (default 1), checks the result byte for byte against the tigers-to-move values
//! stored in the layer's file, and prints the wall and CPU (user + system) seconds of the
//! solve. Compare two builds by running them alternately on the same layer (e.g. under `taskset
//! -c 1` on a shared machine, where the CPU seconds are the steadier figure).

use baghchal::tablebase::file::{placement_path, read_layer};
use baghchal::tablebase::placement::index::{Layer, PlacementIndex};
use baghchal::tablebase::placement::solve::{solve_tigers, GoatChildren};
use std::path::PathBuf;
use std::time::Instant;

/// CPU seconds (user + system) this process has used.
fn cpu_seconds() -> f64 {
    // SAFETY: getrusage only writes the struct it is given.
    let usage = unsafe {
        let mut usage = std::mem::zeroed::<libc::rusage>();
        libc::getrusage(libc::RUSAGE_SELF, &mut usage);
        usage
    };
    let seconds = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 * 1e-6;
    seconds(usage.ru_utime) + seconds(usage.ru_stime)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(dir), Some(Ok(in_hand)), Some(Ok(captured))) = (
        args.first().map(PathBuf::from),
        args.get(1).map(|a| a.parse::<u8>()),
        args.get(2).map(|a| a.parse::<u8>()),
    ) else {
        eprintln!("usage: tb_tigers_bench DIR IN_HAND CAPTURED [threads=T]");
        std::process::exit(2);
    };
    let threads = args
        .iter()
        .find_map(|a| a.strip_prefix("threads=")?.parse().ok())
        .unwrap_or(1);
    let read = |layer: Layer| {
        let path = placement_path(&dir, layer.in_hand, layer.captured);
        let (header, mut goats) = read_layer(&path).unwrap_or_else(|e| panic!("{e}"));
        let tigers = goats.split_off(header.side_bytes() as usize);
        (header, goats, tigers)
    };
    let layer = Layer { in_hand, captured };
    let (header, goats, stored) = read(layer);
    let rules = header.rules;
    let index = PlacementIndex::new(layer);
    let next = Layer {
        in_hand,
        captured: captured + 1,
    };
    let next_goats = (captured + 1 < rules.captures_to_win && in_hand + next.captured <= 20)
        .then(|| (read(next).1, PlacementIndex::new(next)));
    let children = GoatChildren {
        step: (&goats, &index),
        capture: next_goats
            .as_ref()
            .map(|(values, index)| (values.as_slice(), index)),
    };
    let (wall, cpu) = (Instant::now(), cpu_seconds());
    let solved = solve_tigers(&index, &children, rules, threads, &|_, _| {});
    let (wall, cpu) = (wall.elapsed().as_secs_f64(), cpu_seconds() - cpu);
    let identical = solved == stored;
    println!(
        "layer {in_hand} in hand, {captured} captured: {} positions, threads {threads}, \
         wall {wall:.2} s, cpu {cpu:.2} s, identical to the file: {identical}",
        index.len()
    );
    if !identical {
        std::process::exit(1);
    }
}
