//! Shared by the tablebase engine tests: tables for captures to win 2 (generated once into the
//! target's temporary directory), engines with and without them, sampled table positions.
#![allow(dead_code)]

use baghchal::engine::{Engine, EngineOptions, Limits, SearchInfo, SearchObserver, SearchResult};
use baghchal::tablebase::index::LayerIndex;
use baghchal::tablebase::solve::generate_tables;
use baghchal::tablebase::verify::board_position;
use baghchal::tablebase::{TableRules, Tablebase, TbValue};
use baghchal::{Game, Position, Repetition, Rules};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// The variant of the test tables.
pub const CAPTURES_TO_WIN: u8 = 2;

/// Their rules, with `repetition`.
pub fn rules(repetition: Repetition) -> Rules {
    Rules {
        forced_capture: false,
        captures_to_win: CAPTURES_TO_WIN,
        repetition,
    }
}

/// The tables' directory (generated on first use; kept between runs, as generation resumes).
pub fn table_dir() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("tb-engine-ctw2");
        generate_tables(
            &dir,
            TableRules::of(&rules(Repetition::Forbid)),
            2,
            &|_: &str, _: u64, _: u64| {},
        )
        .expect("generation");
        dir
    })
}

/// The tables, opened once.
pub fn tables() -> &'static Tablebase {
    static TABLES: OnceLock<Tablebase> = OnceLock::new();
    TABLES.get_or_init(|| {
        Tablebase::open(table_dir(), TableRules::of(&rules(Repetition::Forbid))).expect("open")
    })
}

/// An engine at `game`, with or without the tables.
pub fn engine(game: &Game, with_tables: bool) -> Engine {
    let mut engine = Engine::new(EngineOptions {
        rules: *game.rules(),
        tablebase_path: with_tables.then(|| table_dir().to_path_buf()),
        ..EngineOptions::default()
    });
    assert_eq!(engine.tablebase_status().is_loaded(), with_tables);
    engine.set_game(game.clone());
    engine
}

/// A node limit.
pub fn nodes(nodes: u64) -> Limits {
    Limits {
        nodes: Some(nodes),
        ..Limits::default()
    }
}

/// Collects the infos of a search.
#[derive(Default)]
pub struct Recorder {
    /// Every info received.
    pub infos: Vec<SearchInfo>,
}

impl SearchObserver for Recorder {
    fn on_info(&mut self, info: &SearchInfo) {
        self.infos.push(info.clone());
    }
    fn on_finish(&mut self, _result: &SearchResult) {}
}

/// `count` distinct movement-phase positions, with moves, whose value satisfies `wanted`.
pub fn sample(
    seed: u64,
    count: usize,
    wanted: impl Fn(&Position, TbValue) -> bool,
) -> Vec<Position> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut found: Vec<Position> = Vec::new();
    while found.len() < count {
        let captured = rng.random_range(0..CAPTURES_TO_WIN);
        let index = LayerIndex::get(usize::from(captured) + 1);
        let board = index.decode(rng.random_range(0..index.len()));
        let position = board_position(board, rng.random_range(0..2), captured);
        let value = tables().probe(&position).expect("covered");
        let has_moves = position.count_moves(&rules(Repetition::Forbid)) > 0;
        if has_moves && wanted(&position, value) && !found.contains(&position) {
            found.push(position);
        }
    }
    found
}

/// Searches `game` with tables for 3,000 nodes and returns the result and the infos.
pub fn search_with_tables(game: &Game, options: EngineOptions) -> (SearchResult, Vec<SearchInfo>) {
    search_with_tables_to(game, options, nodes(3000))
}

/// Searches `game` with tables within `limits` and returns the result and the infos.
pub fn search_with_tables_to(
    game: &Game,
    options: EngineOptions,
    limits: Limits,
) -> (SearchResult, Vec<SearchInfo>) {
    let mut engine = Engine::new(EngineOptions {
        rules: *game.rules(),
        tablebase_path: Some(table_dir().to_path_buf()),
        ..options
    });
    engine.set_game(game.clone());
    let mut recorder = Recorder::default();
    let result = engine.search_blocking_with(limits, &mut recorder);
    (result, recorder.infos)
}

/// The table value for the mover after `mv`, in plies from before it.
pub fn after_move(position: &Position, mv: baghchal::Move) -> TbValue {
    let value = tables().probe(&position.played(mv)).unwrap().negate();
    TbValue {
        plies_to_end: value.plies_to_end.map(|plies| plies + 1),
        ..value
    }
}

/// Whether the side to move in `game` wins within `plies` plies against every defence, found by
/// trying every line of the game itself (repetition rule included, no hash table): the judge of
/// a search's `mate` claims that the tables cannot check.
pub fn mover_wins_within(game: &mut Game, plies: u32) -> bool {
    let mover = game.position().side_to_move();
    plies > 0
        && game.legal_moves().iter().any(|&mv| {
            game.play(mv).expect("a legal move");
            let won = match game.outcome() {
                Some(outcome) => outcome.winner() == Some(mover),
                None => mover_loses_within(game, plies - 1),
            };
            game.undo();
            won
        })
}

/// Whether the side to move in `game` (not over) loses within `plies` plies, whatever it plays.
pub fn mover_loses_within(game: &mut Game, plies: u32) -> bool {
    let mover = game.position().side_to_move();
    plies > 0
        && game.legal_moves().iter().all(|&mv| {
            game.play(mv).expect("a legal move");
            let lost = match game.outcome() {
                Some(outcome) => outcome.winner().is_some_and(|side| side != mover),
                None => mover_wins_within(game, plies - 1),
            };
            game.undo();
            lost
        })
}

/// Rewrites both checksums of a table file (payload at bytes 80..84, header at 84..88), so that
/// damage to its payload reaches the decoder.
pub fn fix_checksums(bytes: &mut [u8]) {
    use baghchal::tablebase::file::{crc32, HEADER_LEN};
    let payload_crc = crc32(&bytes[HEADER_LEN..]);
    bytes[80..84].copy_from_slice(&payload_crc.to_le_bytes());
    let header_crc = crc32(&bytes[..84]);
    bytes[84..88].copy_from_slice(&header_crc.to_le_bytes());
}

/// The engine's move and reported score on `position` under `rules` with the tables of `dir`,
/// at 2,000 nodes (deterministic: the same tables must give the same answer in any format).
pub fn move_and_score(
    dir: &Path,
    position: Position,
    rules: Rules,
) -> (Option<baghchal::Move>, Option<String>) {
    let mut engine = Engine::new(EngineOptions {
        rules,
        tablebase_path: Some(dir.to_path_buf()),
        ..EngineOptions::default()
    });
    assert_eq!(engine.wait_for_tablebase(None), Some(Vec::new()));
    engine.set_game(Game::new(position, rules));
    let result = engine.search_blocking(nodes(2000));
    (
        result.best_move,
        result.info.map(|info| info.score.to_string()),
    )
}
