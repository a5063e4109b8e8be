//! Probe throughput on one core from a warm cache (release build):
//! `cargo run --release --example tb_probe_rate -- DIR [samples=N] [rounds=R] [seed=S]
//! [in_hand=H]`.
//!
//! Opens the tables in DIR, draws N seeded random placement positions (uniform over the
//! placement layers present, then over each layer's index), probes each once to warm the page
//! cache, then probes all of them R times in a loop on this thread and prints probes per second,
//! tigers to move and goats to move separately (in a compressed layer, a goats-to-move value is
//! derived from up to 21 tigers-to-move lookups). Run it on an uncompressed and a compressed copy
//! of the same tables for a side-by-side ratio; the seed makes both draw the same positions.
//! The rate per CPU second of the probing thread is printed too: on a machine loaded by other
//! work, wall time counts the time the thread waited for a core, CPU time does not.
//! `in_hand=H` draws only from the layers with H goats in hand (with 1 in hand, goats to move
//! derive from the movement tables; with more, from the placement layer below).

use baghchal::tablebase::placement::index::{Frames, Layer, PlacementIndex};
use baghchal::tablebase::Tablebase;
use baghchal::{Bitboard, Position, Side};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::hint::black_box;
use std::path::PathBuf;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(dir) = args.first().map(PathBuf::from) else {
        eprintln!("usage: tb_probe_rate DIR [samples=N] [rounds=R] [seed=S] [in_hand=H]");
        return;
    };
    let setting = |name: &str, default: u64| {
        args.iter()
            .find_map(|a| a.strip_prefix(name)?.parse().ok())
            .unwrap_or(default)
    };
    let (samples, rounds, seed, in_hand) = (
        setting("samples=", 100_000),
        setting("rounds=", 5),
        setting("seed=", 1),
        setting("in_hand=", 0),
    );
    let tables = Tablebase::open_recorded(&dir).expect("tables open");
    let placement = tables.placement().expect("placement layers");
    placement.wait_checked();
    let layers: Vec<Layer> = placement
        .statuses()
        .filter(|(_, status)| status.is_good())
        .map(|(layer, _)| layer)
        .filter(|layer| in_hand == 0 || u64::from(layer.in_hand) == in_hand)
        .collect();
    assert!(!layers.is_empty(), "no placement layer to draw from");
    let compressed = layers
        .iter()
        .filter(|&&l| placement.is_compressed(l))
        .count();
    println!(
        "{}: {} placement layers ({compressed} compressed)",
        dir.display(),
        layers.len()
    );
    let indexes: Vec<PlacementIndex> = layers.iter().map(|&l| PlacementIndex::new(l)).collect();
    for side in [Side::Tigers, Side::Goats] {
        let mut rng = StdRng::seed_from_u64(seed);
        let mut positions = Vec::new();
        while positions.len() < samples as usize {
            let which = rng.random_range(0..layers.len());
            let (layer, index) = (layers[which], &indexes[which]);
            let (class, goats) = index.decode(rng.random_range(0..index.len()));
            let tigers = Frames::get().classes[class].tigers;
            if let Ok(position) = Position::from_parts(
                Bitboard(tigers),
                Bitboard(goats),
                side,
                layer.in_hand,
                layer.captured,
            ) {
                positions.push(position);
            }
        }
        let warm = positions
            .iter()
            .filter(|p| tables.probe(p).is_some())
            .count();
        let (started, cpu_started) = (Instant::now(), thread_cpu_seconds());
        for _ in 0..rounds {
            for position in &positions {
                black_box(tables.probe(black_box(position)));
            }
        }
        let seconds = started.elapsed().as_secs_f64();
        let cpu = thread_cpu_seconds() - cpu_started;
        let probes = (rounds * samples) as f64;
        println!(
            "{side} to move: {warm} of {samples} covered; {:.0} probes/s ({:.3} us a probe); \
             per CPU second of this thread: {:.0} probes/s ({:.3} us)",
            probes / seconds,
            1e6 * seconds / probes,
            probes / cpu,
            1e6 * cpu / probes
        );
    }
}

/// CPU time consumed by this thread, in seconds (NaN where not available).
#[cfg(not(unix))]
fn thread_cpu_seconds() -> f64 {
    f64::NAN
}

/// CPU time consumed by this thread, in seconds.
#[cfg(unix)]
fn thread_cpu_seconds() -> f64 {
    let mut time = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: a valid pointer to a timespec, which the call fills.
    let result = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut time) };
    assert_eq!(result, 0, "clock_gettime");
    time.tv_sec as f64 + time.tv_nsec as f64 * 1e-9
}
