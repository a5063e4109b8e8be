//! Fast checks of the search through the public engine API.

mod common;

use baghchal::engine::{Engine, EngineOptions, Limits, Score};
use baghchal::{Game, Position, Rules};
use common::Collect;

fn engine_at(position: &str, rules: Rules) -> Engine {
    let mut engine = Engine::new(EngineOptions {
        rules,
        ..EngineOptions::default()
    });
    engine.set_game(Game::new(position.parse::<Position>().unwrap(), rules));
    engine
}

fn depth(depth: u32) -> Limits {
    Limits {
        depth: Some(depth),
        ..Limits::default()
    }
}

#[test]
fn finds_the_winning_capture() {
    let rules = Rules {
        captures_to_win: 1,
        ..Rules::default()
    };
    let mut engine = engine_at("T3T/5/5/1G3/T3T t 19 0", rules);
    let result = engine.search_blocking(depth(3));
    assert_eq!(result.best_move.unwrap().to_string(), "a1c3");
    assert_eq!(result.info.unwrap().score, Score::Mate(1));
}

#[test]
fn start_position_search_gives_a_legal_line() {
    let mut engine = Engine::new(EngineOptions::default());
    let result = engine.search_blocking(depth(5));
    let info = result.info.unwrap();
    assert_eq!(Some(info.pv[0]), result.best_move);
    let mut game = Game::startpos(Rules::default());
    for mv in &info.pv {
        game.play(*mv).unwrap();
    }
}

#[test]
fn stop_ends_an_infinite_search_quickly() {
    let mut engine = Engine::new(EngineOptions::default());
    let (sender, receiver) = std::sync::mpsc::channel();
    engine.go(
        Limits {
            infinite: true,
            ..Limits::default()
        },
        Box::new(Collect(sender, Vec::new())),
    );
    std::thread::sleep(std::time::Duration::from_millis(100));
    assert!(engine.is_searching());
    let asked = std::time::Instant::now();
    engine.stop();
    let (infos, result) = receiver
        .recv_timeout(std::time::Duration::from_secs(2))
        .unwrap();
    assert!(asked.elapsed() < std::time::Duration::from_millis(200));
    assert!(!infos.is_empty());
    assert!(Game::startpos(Rules::default())
        .check_move(result.best_move.unwrap())
        .is_ok());
}

#[test]
fn ponder_search_waits_for_ponderhit_then_keeps_the_clock() {
    let mut engine = Engine::new(EngineOptions::default());
    let (sender, receiver) = std::sync::mpsc::channel();
    engine.go(
        Limits {
            ponder: true,
            movetime: Some(std::time::Duration::from_millis(100)),
            ..Limits::default()
        },
        Box::new(Collect(sender, Vec::new())),
    );
    // Pondering ignores the clock.
    assert!(receiver
        .recv_timeout(std::time::Duration::from_millis(300))
        .is_err());
    assert!(engine.is_searching());
    let hit = std::time::Instant::now();
    engine.ponderhit();
    let (_, result) = receiver
        .recv_timeout(std::time::Duration::from_secs(2))
        .unwrap();
    assert!(hit.elapsed() < std::time::Duration::from_millis(400));
    assert!(result.best_move.is_some());
    engine.wait();
    assert!(!engine.is_searching());
}

#[test]
fn go_at_a_finished_position_reports_no_move() {
    let rules = Rules {
        captures_to_win: 1,
        ..Rules::default()
    };
    let mut engine = engine_at("T3T/5/5/5/T3T g 19 1", rules);
    let (sender, receiver) = std::sync::mpsc::channel();
    engine.go(depth(5), Box::new(Collect(sender, Vec::new())));
    let (_, result) = receiver
        .recv_timeout(std::time::Duration::from_secs(2))
        .unwrap();
    assert_eq!(result.best_move, None);
    assert!(result.info.is_none());
}

#[test]
fn two_threads_give_a_legal_line() {
    let mut engine = Engine::new(EngineOptions {
        threads: 2,
        ..EngineOptions::default()
    });
    let result = engine.search_blocking(depth(7));
    let info = result.info.unwrap();
    assert_eq!(info.depth, 7);
    assert_eq!(Some(info.pv[0]), result.best_move);
    let mut game = Game::startpos(Rules::default());
    for mv in &info.pv {
        game.play(*mv).unwrap();
    }
}

#[test]
fn with_helper_threads_the_result_is_delivered_once_and_the_engine_then_waits_for_them() {
    let mut engine = Engine::new(EngineOptions {
        threads: 2,
        ..EngineOptions::default()
    });
    let game = Game::new(Position::startpos(), Rules::default());
    for limits in [
        Limits {
            depth: Some(6),
            ..Limits::default()
        },
        Limits {
            nodes: Some(20_000),
            ..Limits::default()
        },
        Limits {
            movetime: Some(std::time::Duration::from_millis(30)),
            ..Limits::default()
        },
    ] {
        let (sender, receiver) = std::sync::mpsc::channel();
        engine.go(limits.clone(), Box::new(Collect(sender, Vec::new())));
        let (_, result) = receiver
            .recv_timeout(std::time::Duration::from_secs(20))
            .expect("a result");
        assert!(game.check_move(result.best_move.unwrap()).is_ok());
        assert!(!engine.is_searching(), "delivered means finished");
        // Waiting for the helpers delivers nothing more.
        engine.wait();
        assert!(receiver.try_recv().is_err(), "{limits:?}: delivered twice");
    }
}
