//! The proof search at a drawn root under `Repetition forbid` (`ForbidProof`), checked against
//! the full-history search of the game itself, on the tables of CapturesToWin 2.

mod forbid_common;
mod tb_common;

use baghchal::engine::{EngineOptions, SearchObserver, SearchResult};
use baghchal::search::report::SearchInfo;
use baghchal::tablebase::Wdl;
use baghchal::{Game, Move, Repetition, Side};
use forbid_common::full_history_winner;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use tb_common::{nodes, rules, sample, table_dir, tables};

/// What one search printed and chose.
#[derive(Default)]
struct Heard {
    strings: Vec<String>,
    last: Option<SearchInfo>,
}

impl SearchObserver for Heard {
    fn on_info(&mut self, info: &SearchInfo) {
        self.last = Some(info.clone());
    }
    fn on_string(&mut self, text: &str) {
        self.strings.push(text.to_string());
    }
    fn on_finish(&mut self, _result: &SearchResult) {}
}

fn search(game: &Game, forbid_proof: bool) -> (Move, Heard) {
    let mut engine = baghchal::engine::Engine::new(EngineOptions {
        rules: *game.rules(),
        tablebase_path: Some(table_dir().to_path_buf()),
        forbid_proof,
        ..EngineOptions::default()
    });
    engine.set_game(game.clone());
    let mut heard = Heard::default();
    let result = engine.search_blocking_with(nodes(40_000), &mut heard);
    (result.best_move.expect("a move"), heard)
}

fn is_table_draw(game: &Game) -> bool {
    tables()
        .probe(game.position())
        .is_some_and(|value| value.wdl == Wdl::Draw)
}

/// The winner after `mv` by the full-history search (`None`: over its budget).
fn winner_after(game: &Game, mv: Move) -> Option<Side> {
    let mut after = game.clone();
    after.play(mv).unwrap();
    full_history_winner(&mut after, tables(), &mut 200_000)
}

/// Drawn roots of the last layer (one goat captured) with a history of table-draw steps: a move
/// the proof search reports won wins, it never plays a move that loses while one that does not
/// remains, and a root it reports lost is lost.
#[test]
fn the_root_proof_search_plays_proven_wins_and_leaves_out_proven_losses() {
    let mut rng = StdRng::seed_from_u64(77);
    let (mut roots, mut wins, mut avoidable) = (0, 0, 0);
    let starts = sample(77, 200, |p, v| {
        v.wdl == Wdl::Draw && p.goats_captured() == 1
    });
    for start in starts {
        let mut game = Game::new(start, rules(Repetition::Forbid));
        for _ in 0..rng.random_range(0..6) {
            let draws: Vec<Move> = game
                .legal_moves()
                .iter()
                .copied()
                .filter(|&mv| {
                    let mut after = game.clone();
                    after.play(mv).is_ok() && !mv.is_capture() && is_table_draw(&after)
                })
                .collect();
            if draws.is_empty() {
                break;
            }
            game.play(draws[rng.random_range(0..draws.len())]).unwrap();
        }
        if !is_table_draw(&game) || game.legal_moves().len() < 2 {
            continue;
        }
        let mover = game.position().side_to_move();
        let values: Vec<(Move, Option<Side>)> = game
            .legal_moves()
            .iter()
            .filter(|&&mv| {
                let mut after = game.clone();
                after.play(mv).is_ok() && is_table_draw(&after)
            })
            .map(|&mv| (mv, winner_after(&game, mv)))
            .collect();
        if values.iter().any(|(_, w)| w.is_none()) {
            continue;
        }
        roots += 1;
        let loses = |mv: Move| values.iter().any(|&(m, w)| m == mv && w != Some(mover));
        let (played, heard) = search(&game, true);
        let said = heard.strings.join(" | ");
        if said.contains("win, proven by a proof search") {
            wins += 1;
            assert!(!loses(played), "{played} reported won in {game:?}");
            let score = heard.last.expect("an info").score;
            assert_eq!(score, baghchal::search::score::Score::Cp(20_000));
        }
        if said.contains("loses, proven by a proof search") {
            assert!(values.iter().all(|&(mv, _)| loses(mv)), "{game:?}");
        }
        if values.iter().any(|&(mv, _)| !loses(mv)) && values.iter().any(|&(mv, _)| loses(mv)) {
            avoidable += 1;
            assert!(!loses(played), "{played} loses in {game:?}: {said}");
        }
    }
    assert!(roots >= 50, "only {roots} roots");
    assert!(wins >= 5, "only {wins} proven wins");
    assert!(
        avoidable >= 5,
        "only {avoidable} roots with a losing move to avoid"
    );
}
