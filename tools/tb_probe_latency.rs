//! Probe latency on existing tables (release build):
//! `cargo run --release --example tb_probe_latency -- DIR [cold] [random] [samples=N] [side=S]`.
//!
//! Opens the tables in DIR (timing the open), then probes seeded random positions one at a time,
//! movement and placement separately, timing each probe: the first pass over the samples touches
//! pages never touched by this process (with `cold`, the table files are first dropped from the
//! page cache with `posix_fadvise(DONTNEED)`, so these are reads from disk), the second pass
//! probes the same positions again (warm). Prints median, 90th and 99th percentiles and the
//! worst probe, and the time of `best_moves_with_values` (what `tb probe` prints) warm.
//! `side=tigers` or `side=goats` draws the placement positions with that side to move only
//! (default: either, at random); a cold figure per side needs one run per side, since pages this
//! process has mapped cannot be dropped. `random` reads the tables as the engine does, without
//! read-ahead (`Tablebase::expect_random_reads`).

use baghchal::tablebase::file::PayloadStatus;
use baghchal::tablebase::index::LayerIndex;
use baghchal::tablebase::placement::index::{Frames, PlacementIndex};
use baghchal::tablebase::verify::board_position;
use baghchal::tablebase::Tablebase;
use baghchal::{Bitboard, Position, Side};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let Some(dir) = args.first().map(PathBuf::from) else {
        eprintln!(
            "usage: cargo run --release --example tb_probe_latency -- DIR [cold] [random] \
             [samples=N] [side=tigers|goats]"
        );
        return;
    };
    let cold = args.iter().any(|a| a == "cold");
    let random = args.iter().any(|a| a == "random");
    let samples: usize = args
        .iter()
        .find_map(|a| a.strip_prefix("samples=")?.parse().ok())
        .unwrap_or(2000);
    let side = match args.iter().find_map(|a| a.strip_prefix("side=")) {
        None => None,
        Some("tigers") => Some(Side::Tigers),
        Some("goats") => Some(Side::Goats),
        Some(other) => {
            eprintln!("side={other}: expected tigers or goats");
            std::process::exit(2);
        }
    };
    if cold {
        drop_from_page_cache(&dir);
    }
    let started = Instant::now();
    let tables = Tablebase::open_recorded(&dir).expect("tables open");
    let opened = started.elapsed();
    if let Some(placement) = tables.placement() {
        placement.wait_checked();
    }
    if random {
        tables.expect_random_reads();
    }
    let usable = started.elapsed();
    let statuses = tables.payload_statuses();
    let stamped = statuses
        .iter()
        .filter(|(_, s)| *s == PayloadStatus::Stamped)
        .count();
    println!(
        "open: {:.1} ms ({} files, {stamped} by stamp), every layer usable after {:.1} ms{}",
        ms(opened),
        statuses.len(),
        ms(usable),
        if cold { " (cold page cache)" } else { "" }
    );

    let mut rng = StdRng::seed_from_u64(28);
    let movement = movement_samples(&tables, &mut rng, samples);
    let placement = placement_samples(&tables, &mut rng, samples, side);
    for (name, positions) in [("movement", &movement), ("placement", &placement)] {
        if positions.is_empty() {
            continue;
        }
        let first = time_each(positions, |p| tables.probe(p).is_some());
        let again = time_each(positions, |p| tables.probe(p).is_some());
        let moves = time_each(positions, |p| !tables.best_moves_with_values(p).is_empty());
        let touch = if cold { "cold" } else { "first touch" };
        println!("{name} probe, {touch}: {}", summary(&first));
        println!("{name} probe, warm:  {}", summary(&again));
        println!("{name} best moves, warm: {}", summary(&moves));
    }
}

fn ms(duration: Duration) -> f64 {
    duration.as_secs_f64() * 1e3
}

/// Times `probe` on each position separately.
fn time_each(positions: &[Position], probe: impl Fn(&Position) -> bool) -> Vec<Duration> {
    let mut covered = 0;
    let times = positions
        .iter()
        .map(|position| {
            let started = Instant::now();
            covered += usize::from(std::hint::black_box(probe(position)));
            started.elapsed()
        })
        .collect();
    assert!(covered > 0, "no sampled position is covered");
    times
}

fn summary(times: &[Duration]) -> String {
    let mut sorted = times.to_vec();
    sorted.sort();
    let at = |q: f64| sorted[((sorted.len() - 1) as f64 * q) as usize];
    let us = |d: Duration| d.as_secs_f64() * 1e6;
    format!(
        "median {:.2} us, p90 {:.2} us, p99 {:.2} us, max {:.2} us ({} probes)",
        us(at(0.5)),
        us(at(0.9)),
        us(at(0.99)),
        us(sorted[sorted.len() - 1]),
        sorted.len()
    )
}

/// Random movement positions, each layer in proportion to its size.
fn movement_samples(tables: &Tablebase, rng: &mut StdRng, count: usize) -> Vec<Position> {
    let layers = tables.rules().captures_to_win;
    let sizes: Vec<u64> = (0..layers)
        .map(|c| u64::from(LayerIndex::get(usize::from(c) + 1).len()))
        .collect();
    let total: u64 = sizes.iter().sum();
    (0..count)
        .map(|_| {
            let mut at = rng.random_range(0..total);
            let mut captured = 0;
            while at >= sizes[captured] {
                at -= sizes[captured];
                captured += 1;
            }
            let index = LayerIndex::get(captured + 1);
            board_position(
                index.decode(at as u32),
                rng.random_range(0..2),
                captured as u8,
            )
        })
        .collect()
}

/// Random placement positions from the layers present, each in proportion to its size, `side`
/// to move (either at random when `None`).
fn placement_samples(
    tables: &Tablebase,
    rng: &mut StdRng,
    count: usize,
    side: Option<Side>,
) -> Vec<Position> {
    let Some(placement) = tables.placement() else {
        return Vec::new();
    };
    let layers: Vec<_> = placement
        .statuses()
        .filter(|(_, s)| s.is_good())
        .map(|(layer, _)| (layer, PlacementIndex::new(layer)))
        .collect();
    let total: u64 = layers.iter().map(|(_, index)| index.len()).sum();
    let mut positions = Vec::with_capacity(count);
    while positions.len() < count && total > 0 {
        let mut at = rng.random_range(0..total);
        let (layer, index) = layers
            .iter()
            .find(|(_, index)| {
                let inside = at < index.len();
                if !inside {
                    at -= index.len();
                }
                inside
            })
            .expect("in range");
        let (class, goats) = index.decode(at);
        let either = if rng.random_bool(0.5) {
            Side::Goats
        } else {
            Side::Tigers
        };
        let side = side.unwrap_or(either);
        if let Ok(position) = Position::from_parts(
            Bitboard(Frames::get().classes[class].tigers),
            Bitboard(goats),
            side,
            layer.in_hand,
            layer.captured,
        ) {
            positions.push(position);
        }
    }
    positions
}

/// Drops the table files of `dir` from the page cache (pages mapped by no process).
fn drop_from_page_cache(dir: &Path) {
    #[cfg(unix)]
    for entry in std::fs::read_dir(dir).expect("table directory") {
        use std::os::fd::AsRawFd;
        let path = entry.expect("entry").path();
        if path
            .extension()
            .is_some_and(|ext| ext == "bctb" || ext == "bctz")
        {
            let file = std::fs::File::open(&path).expect("table file");
            // SAFETY: a valid open descriptor; the call only advises the kernel.
            let result =
                unsafe { libc::posix_fadvise(file.as_raw_fd(), 0, 0, libc::POSIX_FADV_DONTNEED) };
            assert_eq!(result, 0, "posix_fadvise on {}", path.display());
        }
    }
    #[cfg(not(unix))]
    eprintln!("cold page cache: not supported here, {}", dir.display());
}
