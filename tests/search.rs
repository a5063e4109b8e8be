//! Search behaviour through the public engine API: tactics, legality over random positions in
//! every rule variant, determinism, repetition rules, MultiPV and the reference players.

mod common;

use baghchal::bench::run_bench;
use baghchal::engine::{
    Bound, Engine, EngineOptions, Limits, Score, SearchInfo, SearchObserver, SearchResult, Strategy,
};
use baghchal::{Game, Move, Position, Repetition, Rules};
use common::random_game;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

fn engine_for(game: &Game, options: EngineOptions) -> Engine {
    let mut engine = Engine::new(EngineOptions {
        rules: *game.rules(),
        ..options
    });
    engine.set_game(game.clone());
    engine
}

fn game_at(position: &str, rules: Rules) -> Game {
    Game::new(position.parse::<Position>().unwrap(), rules)
}

fn depth(depth: u32) -> Limits {
    Limits {
        depth: Some(depth),
        ..Limits::default()
    }
}

fn assert_line_legal(game: &Game, line: &[Move]) {
    let mut game = game.clone();
    for &mv in line {
        game.play(mv)
            .unwrap_or_else(|e| panic!("{e} in line {line:?}"));
    }
}

#[derive(Default)]
struct Recorder {
    infos: Vec<SearchInfo>,
}

impl SearchObserver for Recorder {
    fn on_info(&mut self, info: &SearchInfo) {
        self.infos.push(info.clone());
    }
    fn on_finish(&mut self, _result: &SearchResult) {}
}

#[test]
fn trapping_the_last_tiger_moves_is_a_mate_in_one() {
    let game = game_at("TGGGT/GGGGG/GG1GG/GGGGG/TGGGT g 0 0", Rules::default());
    let mut engine = engine_for(&game, EngineOptions::default());
    let result = engine.search_blocking(depth(4));
    assert_eq!(result.info.unwrap().score, Score::Mate(1));
    let mut after = game.clone();
    after.play(result.best_move.unwrap()).unwrap();
    assert!(
        after.legal_moves().is_empty(),
        "tigers still move after {:?}",
        result.best_move
    );
}

#[test]
fn the_losing_side_sees_the_mate_against_it() {
    // Tigers to move; every tiger move lets the goats trap them (or the tigers are lost anyway).
    let game = game_at("TGGGT/GGGGG/GG1GG/GGGGG/TGGGT g 0 0", Rules::default());
    let mut engine = engine_for(&game, EngineOptions::default());
    let best = engine.search_blocking(depth(2)).best_move.unwrap();
    let mut after = game.clone();
    after.play(best).unwrap();
    assert!(after.outcome().is_some());
}

#[test]
fn a_capture_that_wins_is_found_in_every_variant() {
    for forced_capture in [false, true] {
        for repetition in [Repetition::Forbid, Repetition::Draw] {
            let rules = Rules {
                forced_capture,
                captures_to_win: 1,
                repetition,
            };
            let game = game_at("T3T/5/5/1G3/T3T t 19 0", rules);
            let result = engine_for(&game, EngineOptions::default()).search_blocking(depth(4));
            assert_eq!(result.best_move.unwrap().to_string(), "a1c3");
            assert_eq!(result.info.unwrap().score, Score::Mate(1));
        }
    }
}

#[test]
fn moves_and_lines_are_legal_in_random_positions_of_every_variant() {
    let mut rng = StdRng::seed_from_u64(7);
    for round in 0..48 {
        let rules = Rules {
            forced_capture: round % 2 == 1,
            captures_to_win: [1, 3, 5, 20][round / 2 % 4],
            repetition: if round / 8 % 2 == 0 {
                Repetition::Forbid
            } else {
                Repetition::Draw
            },
        };
        let plies = rng.random_range(0..90);
        let game = random_game(rules, plies, &mut rng);
        let options = EngineOptions {
            multi_pv: 1 + round % 3,
            ..EngineOptions::default()
        };
        let mut engine = engine_for(&game, options);
        let mut recorder = Recorder::default();
        let result = engine.search_blocking_with(
            Limits {
                depth: Some(5),
                nodes: Some(20_000),
                ..Limits::default()
            },
            &mut recorder,
        );
        let legal = game.legal_moves();
        match result.best_move {
            None => assert!(legal.is_empty(), "no move in a live position"),
            Some(mv) => {
                game.check_move(mv).unwrap();
                let info = result.info.unwrap();
                assert_eq!(info.pv.first(), Some(&mv));
                assert_line_legal(&game, &info.pv);
                if let Some(ponder) = result.ponder_move {
                    assert_line_legal(&game, &[mv, ponder]);
                }
            }
        }
        for info in &recorder.infos {
            assert!(!info.pv.is_empty());
            assert_line_legal(&game, &info.pv);
        }
    }
}

#[test]
fn depth_limited_search_is_deterministic() {
    let mut rng = StdRng::seed_from_u64(3);
    let game = random_game(Rules::default(), 30, &mut rng);
    let run = || {
        let mut engine = engine_for(&game, EngineOptions::default());
        let mut recorder = Recorder::default();
        // Two searches in a row: the table carried over must not break determinism either.
        let first = engine.search_blocking_with(depth(7), &mut recorder);
        let second = engine.search_blocking_with(depth(8), &mut recorder);
        let lines: Vec<_> = recorder
            .infos
            .iter()
            .map(|i| {
                (
                    i.depth,
                    i.seldepth,
                    i.score,
                    i.bound,
                    i.nodes,
                    i.hashfull,
                    i.pv.clone(),
                )
            })
            .collect();
        (first.best_move, second.best_move, second.ponder_move, lines)
    };
    assert_eq!(run(), run());
}

#[test]
fn node_limited_search_is_deterministic() {
    let run = || {
        let mut engine = Engine::new(EngineOptions::default());
        let result = engine.search_blocking(Limits {
            nodes: Some(30_000),
            ..Limits::default()
        });
        let info = result.info.unwrap();
        (result.best_move, info.nodes, info.pv)
    };
    assert_eq!(run(), run());
}

#[test]
fn the_forbid_rule_is_respected_with_history() {
    // Shuffle pieces back and forth in movement phases so that returning moves are forbidden.
    let mut rng = StdRng::seed_from_u64(11);
    let mut checked = 0;
    while checked < 12 {
        let mut game = random_game(Rules::default(), 60, &mut rng);
        if game.outcome().is_some() || game.position().is_placement_phase() {
            continue;
        }
        for _ in 0..6 {
            let moves = game.legal_moves();
            if moves.is_empty() {
                break;
            }
            game.play(moves[rng.random_range(0..moves.len())]).unwrap();
        }
        if game.outcome().is_some() {
            continue;
        }
        let result = engine_for(&game, EngineOptions::default()).search_blocking(depth(6));
        let mv = result.best_move.unwrap();
        let key = game.position().played(mv).hash();
        assert!(
            game.positions().iter().all(|p| p.hash() != key),
            "{mv} repeats"
        );
        assert_line_legal(&game, &result.info.unwrap().pv);
        checked += 1;
    }
}

#[test]
fn multipv_reports_distinct_lines() {
    let mut engine = Engine::new(EngineOptions {
        multi_pv: 3,
        ..EngineOptions::default()
    });
    let mut recorder = Recorder::default();
    engine.search_blocking_with(depth(4), &mut recorder);
    let last: Vec<_> = recorder
        .infos
        .iter()
        .filter(|i| i.depth == 4 && i.bound == Bound::Exact)
        .collect();
    let numbers: Vec<u32> = last.iter().map(|i| i.multipv).collect();
    assert_eq!(numbers, [1, 2, 3]);
    let mut firsts: Vec<Move> = last.iter().map(|i| i.pv[0]).collect();
    firsts.dedup();
    assert_eq!(firsts.len(), 3);
}

#[test]
fn reference_players_are_legal_and_seeded() {
    let mut rng = StdRng::seed_from_u64(5);
    for round in 0..20 {
        let game = random_game(Rules::default(), rng.random_range(0..60), &mut rng);
        for strategy in [Strategy::Random, Strategy::Greedy] {
            let pick = |seed| {
                let options = EngineOptions {
                    strategy,
                    seed,
                    ..EngineOptions::default()
                };
                engine_for(&game, options)
                    .search_blocking(Limits::default())
                    .best_move
            };
            // Seed 0 would draw a new seed per game: every other seed repeats.
            let mv = pick(round + 1);
            assert_eq!(mv, pick(round + 1));
            match mv {
                Some(mv) => game.check_move(mv).unwrap(),
                None => assert!(game.legal_moves().is_empty()),
            }
        }
    }
}

#[test]
fn bench_node_count_is_identical_across_runs() {
    let first = run_bench(Some(4));
    let second = run_bench(Some(4));
    assert_eq!(first.nodes, second.nodes);
    assert!(first.nodes > 0);
    assert_eq!(first.positions, 8);
}

#[test]
fn finished_game_gives_no_move() {
    let game = game_at(
        "T3T/5/5/5/T3T g 19 1",
        Rules {
            captures_to_win: 1,
            ..Rules::default()
        },
    );
    let result = engine_for(&game, EngineOptions::default()).search_blocking(depth(3));
    assert_eq!(result.best_move, None);
}

#[test]
fn under_the_draw_rule_a_repeating_move_scores_zero() {
    let rules = Rules {
        repetition: Repetition::Draw,
        ..Rules::default()
    };
    let mut rng = StdRng::seed_from_u64(21);
    let mut checked = 0;
    'games: while checked < 4 {
        let mut game = random_game(rules, 50, &mut rng);
        if game.outcome().is_some() || game.position().is_placement_phase() {
            continue;
        }
        // Step out and back with both sides: the second return recreates the start.
        let mut steps = Vec::new();
        for _ in 0..2 {
            let step = game
                .legal_moves()
                .iter()
                .copied()
                .find(|mv| matches!(mv, Move::Step { .. }));
            let Some(Move::Step { from, to }) = step else {
                continue 'games;
            };
            game.play(Move::Step { from, to }).unwrap();
            steps.push(Move::Step { from: to, to: from });
        }
        if game.play(steps[0]).is_err() || game.outcome().is_some() {
            continue;
        }
        let repeating = steps[1];
        if game.check_move(repeating).is_err() {
            continue;
        }
        // The repeating move alone (`go searchmoves`): with every root move, the built-in
        // values of the crowded layers may leave it out when another move wins.
        let mut engine = engine_for(&game, EngineOptions::default());
        let mut recorder = Recorder::default();
        let limits = Limits {
            search_moves: vec![repeating],
            ..depth(3)
        };
        engine.search_blocking_with(limits, &mut recorder);
        let line = recorder
            .infos
            .iter()
            .rev()
            .find(|info| info.depth == 3 && info.bound == Bound::Exact && info.pv[0] == repeating)
            .expect("the searched move has a line");
        assert_eq!(line.score, Score::Cp(0), "{repeating} repeats");
        checked += 1;
    }
}

#[test]
fn searchmoves_restricts_the_root() {
    let mut engine = Engine::new(EngineOptions::default());
    let only: Move = "e3".parse().unwrap();
    let result = engine.search_blocking(Limits {
        depth: Some(4),
        search_moves: vec![only, "a1b1".parse().unwrap()],
        ..Limits::default()
    });
    assert_eq!(result.best_move, Some(only));
}

#[test]
fn go_mate_stops_once_a_short_enough_win_is_found() {
    let game = game_at("TGGGT/GGGGG/GG1GG/GGGGG/TGGGT g 0 0", Rules::default());
    let mut engine = engine_for(&game, EngineOptions::default());
    let mut recorder = Recorder { infos: Vec::new() };
    let limits = Limits {
        mate: Some(5),
        ..Limits::default()
    };
    let result = engine.search_blocking_with(limits, &mut recorder);
    let info = result.info.unwrap();
    assert_eq!(info.score, Score::Mate(1));
    // A plain depth limit of 2 x 5 plies would have gone on to depth 10.
    assert!(info.depth < 4, "searched to depth {}", info.depth);
    assert!(recorder.infos.iter().all(|info| info.depth < 4));
    let mut after = game.clone();
    after.play(result.best_move.unwrap()).unwrap();
    assert!(after.outcome().is_some());
}

#[test]
fn go_mate_without_such_a_win_ends_at_twice_its_moves_in_plies() {
    let game = Game::startpos(Rules::default());
    let mut engine = engine_for(&game, EngineOptions::default());
    let mut recorder = Recorder { infos: Vec::new() };
    let limits = Limits {
        mate: Some(2),
        ..Limits::default()
    };
    let result = engine.search_blocking_with(limits, &mut recorder);
    assert!(result.best_move.is_some());
    assert!(!matches!(result.info.unwrap().score, Score::Mate(_)));
    let deepest = recorder.infos.iter().map(|info| info.depth).max();
    assert_eq!(deepest, Some(4));
}
