//! Index of the movement-phase tablebases: round trips, symmetry, class counts.

use baghchal::tablebase::index::{transform, LayerIndex, SYMMETRIES};

/// Every index of the layers with 1, 2 and 3 empty points decodes to a board that encodes back
/// to it, from every one of its 8 images; the fixing count is the number of symmetries that map
/// the board onto itself.
#[test]
fn every_index_round_trips_from_all_images() {
    for empties in 1..=3 {
        let index = LayerIndex::get(empties);
        for i in 0..index.len() {
            let board = index.decode(i);
            assert_eq!(board.tigers.count_ones(), 4);
            assert_eq!(board.empties.count_ones() as usize, empties);
            assert_eq!(board.tigers & board.empties, 0);
            let fixing = (0..SYMMETRIES)
                .filter(|&g| {
                    transform(board.tigers, g) == board.tigers
                        && transform(board.empties, g) == board.empties
                })
                .count() as u8;
            for g in 0..SYMMETRIES {
                let encoded = index.encode(transform(board.tigers, g), transform(board.empties, g));
                assert_eq!(
                    encoded,
                    (i, fixing),
                    "layer {empties}, index {i}, symmetry {g}"
                );
            }
        }
    }
}

/// The largest layers: a sample of indexes round trips.
#[test]
fn large_layer_samples_round_trip() {
    for empties in 4..=5 {
        let index = LayerIndex::get(empties);
        let step = (index.len() / 20_000).max(1);
        for i in (0..index.len())
            .step_by(step as usize)
            .chain([index.len() - 1])
        {
            let board = index.decode(i);
            for g in 0..SYMMETRIES {
                let (encoded, _) =
                    index.encode(transform(board.tigers, g), transform(board.empties, g));
                assert_eq!(encoded, i, "layer {empties}, index {i}, symmetry {g}");
            }
        }
    }
}

/// The default rules' movement phase has 88,260,972 classes (both sides to move): the
/// 705,743,500 positions (C(25,4) * C(21,20-c) per side, c = 0..4) up to the 8 symmetries.
#[test]
fn default_rules_class_count() {
    let per_side: u64 = (1..=5)
        .map(|empties| u64::from(LayerIndex::get(empties).len()))
        .sum();
    assert_eq!(2 * per_side, 88_260_972);
    let binomial = |n: u64, k: u64| (0..k).fold(1u64, |acc, i| acc * (n - i) / (i + 1));
    let plain: u64 = (0..5).map(|c| binomial(25, 4) * binomial(21, 20 - c)).sum();
    assert_eq!(2 * plain, 705_743_500);
}
