//! Perft speed: from the start position (depths 5..=8, optional capture) and from a
//! movement-phase position where the forbid rule needs the game history.
//!
//! `cargo bench --bench perft` (criterion; release profile).

use baghchal::{perft, Game, Position, Rules};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use std::hint::black_box;
use std::time::Duration;

/// Leaf counts from the start position (tests/data/perft.txt).
const START_COUNTS: [(u32, u64); 4] = [
    (5, 1_304_788),
    (6, 18_592_000),
    (7, 339_123_476),
    (8, 4_933_406_760),
];

fn start_position(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft_start");
    group.sample_size(10).warm_up_time(Duration::from_secs(1));
    for (depth, nodes) in START_COUNTS {
        group.throughput(Throughput::Elements(nodes));
        group.bench_with_input(BenchmarkId::from_parameter(depth), &depth, |b, &depth| {
            let mut game = Game::startpos(Rules::default());
            b.iter(|| assert_eq!(perft(&mut game, black_box(depth)), nodes));
        });
    }
    group.finish();
}

fn movement_phase(c: &mut Criterion) {
    let position: Position = "T3T/1GGG1/1G1G1/1GGG1/T3T g 0 12"
        .parse()
        .expect("valid position");
    let rules = Rules {
        captures_to_win: 20,
        ..Rules::default()
    };
    let (depth, nodes) = (5, 1_735_568);
    let mut group = c.benchmark_group("perft_movement");
    group.sample_size(10).warm_up_time(Duration::from_secs(1));
    group.throughput(Throughput::Elements(nodes));
    group.bench_function(BenchmarkId::from_parameter(depth), |b| {
        let mut game = Game::new(position, rules);
        b.iter(|| assert_eq!(perft(&mut game, black_box(depth)), nodes));
    });
    group.finish();
}

criterion_group!(benches, start_position, movement_phase);
criterion_main!(benches);
