//! The built-in values (`src/tablebase/builtin.rs`) against tables generated here (the default
//! rules' movement tables and placement layers with one goat in hand, about 30 s): the committed
//! bytes are remade exactly, and the values read back agree with the tables.

use baghchal::tablebase::builtin::{BuiltinTables, BUILTIN_CAPTURED};
use baghchal::tablebase::index::LayerIndex;
use baghchal::tablebase::placement::generate::generate_placement;
use baghchal::tablebase::{TableRules, Tablebase};
use baghchal::{Bitboard, Position, Side};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

const NO_PROGRESS: &(dyn Fn(&str, u64, u64) + Sync) = &|_: &str, _: u64, _: u64| {};
const COMMITTED: &[u8] = include_bytes!("../src/tablebase/builtin.bin");

/// The default rules' movement tables and placement layers with one goat in hand, generated
/// once into the target's temporary directory.
fn table_dir() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("tb-builtin-default");
        generate_placement(&dir, TableRules::DEFAULT, 1, 2, NO_PROGRESS).expect("generation");
        dir
    })
}

fn tables() -> Tablebase {
    let tables = Tablebase::open(table_dir(), TableRules::DEFAULT).expect("open");
    let corrupt = tables.placement().expect("placement layers").wait_checked();
    assert!(corrupt.is_empty(), "{corrupt:?}");
    tables
}

#[test]
fn the_committed_values_are_remade_from_generated_tables() {
    let made = BuiltinTables::encode(table_dir(), 2).expect("encode");
    assert_eq!(made.len(), COMMITTED.len());
    assert!(
        made == COMMITTED,
        "src/tablebase/builtin.bin differs from the tables' values"
    );
}

#[test]
fn stored_and_derived_movement_values_agree_with_the_tables() {
    let tables = tables();
    let builtin = BuiltinTables::get().expect("built-in values");
    let mut goats_checked = 0;
    for captured in 0..=BUILTIN_CAPTURED {
        let index = LayerIndex::get(usize::from(captured) + 1);
        for at in 0..index.len() {
            let board = index.decode(at);
            let goats = Bitboard::FULL.0 & !(board.tigers | board.empties);
            let sides: &[Side] = if at % 5 == 0 {
                &[Side::Tigers, Side::Goats]
            } else {
                &[Side::Tigers]
            };
            for &side in sides {
                let position = Position::from_parts(
                    Bitboard(board.tigers),
                    Bitboard(goats),
                    side,
                    0,
                    captured,
                )
                .expect("position");
                let expected = tables.probe(&position).expect("covered").wdl;
                assert_eq!(builtin.wdl(&position), Some(expected), "{position}");
                goats_checked += usize::from(side == Side::Goats);
            }
        }
    }
    assert!(goats_checked > 2_000_000, "{goats_checked}");
}

#[test]
fn one_goat_in_hand_is_valued_through_the_placements_or_left_alone() {
    let tables = tables();
    let builtin = BuiltinTables::get().expect("built-in values");
    let mut rng = StdRng::seed_from_u64(17);
    let squares: Vec<u32> = (0..25).collect();
    let (mut valued, mut unknown) = (0, 0);
    for sample in 0..20_000 {
        let captured = (sample % 5) as u8;
        let mut shuffled = squares.clone();
        shuffled.shuffle(&mut rng);
        let on_board = 19 - usize::from(captured);
        let bits = |points: &[u32]| Bitboard(points.iter().fold(0, |b, &p| b | 1 << p));
        let tigers = bits(&shuffled[..4]);
        let goats = bits(&shuffled[4..4 + on_board]);
        let side = if sample % 2 == 0 {
            Side::Goats
        } else {
            Side::Tigers
        };
        let position = Position::from_parts(tigers, goats, side, 1, captured).expect("position");
        let expected = tables.probe(&position).expect("covered").wdl;
        match builtin.wdl(&position) {
            Some(wdl) => {
                assert_eq!(wdl, expected, "{position}");
                assert!(captured <= BUILTIN_CAPTURED, "{position}");
                valued += 1;
            }
            None => {
                // Only a layer not stored, or the tigers' captures out of the last one stored.
                let out_of_last = captured == BUILTIN_CAPTURED && side == Side::Tigers;
                assert!(captured > BUILTIN_CAPTURED || out_of_last, "{position}");
                unknown += 1;
            }
        }
    }
    assert!(
        valued > 12_000 && unknown >= 4_000,
        "{valued} valued, {unknown} not"
    );
}

#[test]
fn damaged_data_is_refused() {
    assert!(BuiltinTables::parse(COMMITTED).is_some());
    let mut flipped = COMMITTED.to_vec();
    flipped[COMMITTED.len() / 2] ^= 0x10;
    assert!(BuiltinTables::parse(&flipped).is_none());
    assert!(BuiltinTables::parse(&COMMITTED[..COMMITTED.len() - 1]).is_none());
    assert!(BuiltinTables::parse(&[]).is_none());
    let mut renamed = COMMITTED.to_vec();
    renamed[0] = b'X';
    assert!(BuiltinTables::parse(&renamed).is_none());
}
