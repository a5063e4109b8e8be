//! The engine stays in the arbiter's game: the two games from the issue tracker through the
//! engine binary (the whole-state repetition rules let them go on), and a property test that a
//! `position` line with one bad move leaves the engine holding exactly the legal prefix.

mod common;
mod protocol_support;

use baghchal::{Game, Move, Position, Repetition, Rules};
use common::random_game;
use protocol_support::session::{send, session, wait_bestmove};
use protocol_support::{check_search_output, EngineProcess, PROMPT};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::time::Duration;

/// A game against another engine: after the last placement (c3), the tigers' capture d2b4
/// recreates a board of the placement phase, with more goats captured and none in hand.
const CAPTURE_AFTER_LAST_PLACEMENT: &str = "a3 e1e2 a2 a5b5 e1 b5a5 d1 a5b5 c1 b5a5 c5 a5b5 d5 \
     b5a5 a4 a5b5 a5 a1b2 a1 e5e4 e5 b5b4 b3 e4d4 e4 d4c4 d4 c4c3 e3 c3c4 c2 b2d2 b2 d2c3 c2 \
     c3d3 c3 b4d2 c3 d2b4";
/// Goats place on b4 where a tiger captures them, twice: the board after ply 7 is the one after
/// ply 3, but with a goat captured and fewer in hand.
const GOAT_SACRIFICES: &str = "b4 e5e4 c5 a5c3 b4 c3a5 b4";
/// Tigers capture on b2 twice during placement.
const TIGER_SHUFFLE: &str = "b2 a1c3 b2 c3a1";

fn parse_moves(text: &str) -> Vec<Move> {
    text.split_whitespace()
        .map(|t| t.parse().unwrap())
        .collect()
}

fn game_of(moves: &str, repetition: Repetition) -> Game {
    let mut game = Game::startpos(Rules {
        repetition,
        ..Rules::default()
    });
    for mv in parse_moves(moves) {
        game.play(mv).unwrap_or_else(|e| panic!("{e}"));
    }
    game
}

/// Sends the game to the engine binary, checks `d` shows it, and that the search's move and
/// lines are legal in it.
fn engine_follows(moves: &str, repetition: Repetition) {
    let game = game_of(moves, repetition);
    assert_eq!(game.outcome(), None, "{moves}: the game goes on");
    let mut engine = EngineProcess::start();
    engine.send(&format!("setoption name Repetition value {repetition}"));
    engine.send(&format!("position startpos moves {moves}"));
    engine.send("d");
    let display = engine.sync();
    assert!(
        !display.iter().any(|l| l.starts_with("info string")),
        "{display:?}"
    );
    let shown = format!("Position: {}", game.position());
    assert!(display.contains(&shown), "{shown} not in {display:?}");
    assert!(
        display.contains(&"Outcome: none".to_string()),
        "{display:?}"
    );
    engine.send("go depth 6");
    let lines = engine.read_bestmove(Duration::from_secs(60));
    check_search_output(&game, &lines);
    engine.send("quit");
    assert!(engine.wait_exit(PROMPT).is_some());
}

#[test]
fn a_capture_after_the_last_placement_is_legal_under_forbid() {
    let game = game_of(CAPTURE_AFTER_LAST_PLACEMENT, Repetition::Forbid);
    assert_eq!(game.position().goats_in_hand(), 0);
    engine_follows(CAPTURE_AFTER_LAST_PLACEMENT, Repetition::Forbid);
    engine_follows(CAPTURE_AFTER_LAST_PLACEMENT, Repetition::Draw);
}

#[test]
fn placement_captures_are_no_draw_under_draw() {
    engine_follows(GOAT_SACRIFICES, Repetition::Draw);
    engine_follows(TIGER_SHUFFLE, Repetition::Draw);
}

/// A move text the board does not allow in `position`, or text that is no move at all.
fn corrupted_move(position: &Position, rng: &mut StdRng) -> String {
    const NOT_MOVES: [&str; 6] = ["z9", "c3c3", "a1c5", "e6", "0000", "a1b2c3"];
    if rng.random_bool(0.2) {
        return NOT_MOVES[rng.random_range(0..NOT_MOVES.len())].to_string();
    }
    let squares: Vec<String> = (1..=5)
        .flat_map(|rank| ('a'..='e').map(move |file| format!("{file}{rank}")))
        .collect();
    loop {
        let from = &squares[rng.random_range(0..25)];
        let to = &squares[rng.random_range(0..25)];
        let text = if rng.random_bool(0.3) {
            to.clone()
        } else {
            format!("{from}{to}")
        };
        match text.parse::<Move>() {
            Ok(mv) if position.check_board_move(mv).is_ok() => continue,
            _ => return text,
        }
    }
}

#[test]
fn a_position_line_with_one_bad_move_leaves_exactly_the_legal_prefix() {
    let mut rng = StdRng::seed_from_u64(20_261_130);
    let (mut session, out) = session();
    for round in 0..300 {
        let rules = Rules {
            forced_capture: rng.random_bool(0.3),
            captures_to_win: rng.random_range(1..=6),
            repetition: if rng.random_bool(0.5) {
                Repetition::Draw
            } else {
                Repetition::Forbid
            },
        };
        let game = random_game(rules, rng.random_range(1..80), &mut rng);
        let moves: Vec<String> = game.moves().iter().map(ToString::to_string).collect();
        let index = rng.random_range(0..=moves.len());
        let bad = corrupted_move(&game.positions()[index], &mut rng);
        let mut line: Vec<String> = moves[..index].to_vec();
        line.push(bad.clone());
        line.extend(moves[index..].iter().cloned());
        for (name, value) in [
            ("ForcedCapture", rules.forced_capture.to_string()),
            ("CapturesToWin", rules.captures_to_win.to_string()),
            ("Repetition", rules.repetition.to_string()),
        ] {
            send(
                &mut session,
                &out,
                &format!("setoption name {name} value {value}"),
            );
        }
        let context = format!("round {round}: bad {bad:?} at index {index} of {line:?}");
        let lines = send(
            &mut session,
            &out,
            &format!("position startpos moves {}", line.join(" ")),
        );
        assert_eq!(lines.len(), 1, "{context}: {lines:?}");
        assert!(
            lines[0].starts_with(&format!("info string error: moves index {index}: "))
                && lines[0].contains(&bad),
            "{context}: {lines:?}"
        );
        assert_eq!(session.game().moves(), &game.moves()[..index], "{context}");
        assert_eq!(
            session.game().position(),
            &game.positions()[index],
            "{context}"
        );
        session.handle_line("go depth 1");
        assert_eq!(wait_bestmove(&out), "bestmove 0000", "{context}");
        out.take();
        // The whole game, sent right, is followed and searched again.
        let lines = send(
            &mut session,
            &out,
            &format!("position startpos moves {}", moves.join(" ")),
        );
        assert!(lines.is_empty(), "{context}: {lines:?}");
        assert_eq!(session.game().position(), game.position(), "{context}");
        session.handle_line("go depth 1");
        let best = wait_bestmove(&out);
        // A game our rules call over is played on while the board has a move: the arbiter
        // asked for one.
        match (game.outcome(), game.played_on()) {
            (Some(_), None) => assert_eq!(best, "bestmove 0000", "{context}"),
            (Some(_), Some(_)) => {
                let mv: Move = best.split_whitespace().nth(1).unwrap().parse().unwrap();
                game.position().check_board_move(mv).unwrap();
            }
            (None, _) => {
                let mv: Move = best.split_whitespace().nth(1).unwrap().parse().unwrap();
                game.check_move(mv).unwrap();
            }
        }
        out.take();
    }
}

/// The referee plays the three games as openings under the rule they were a problem for: the
/// openings are accepted, and every game goes on past its opening and ends by the rules, never
/// by an illegal move.
#[test]
fn the_referee_plays_on_from_the_three_games() {
    use baghchal::referee::outcome::Termination;
    use baghchal::referee::record::read_records;
    let dir = std::env::temp_dir().join(format!("arbiter-game-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (repetition, openings) in [
        ("forbid", vec![CAPTURE_AFTER_LAST_PLACEMENT]),
        (
            "draw",
            vec![CAPTURE_AFTER_LAST_PLACEMENT, GOAT_SACRIFICES, TIGER_SHUFFLE],
        ),
    ] {
        let file = dir.join(format!("openings-{repetition}.txt"));
        let text: String = openings.iter().map(|o| format!("moves {o}\n")).collect();
        std::fs::write(&file, text).unwrap();
        let json = dir.join(format!("games-{repetition}.jsonl"));
        let _ = std::fs::remove_file(&json);
        let engine = format!("cmd={}", env!("CARGO_BIN_EXE_baghchal"));
        let output = std::process::Command::new(env!("CARGO_BIN_EXE_referee"))
            .args([
                "-engine", &engine, "name=a", "-engine", &engine, "name=b", "-each", "depth=2",
                "-games", "2", "-rounds",
            ])
            .arg(openings.len().to_string())
            .args(["-maxplies", "160", "--repetition", repetition, "-openings"])
            .arg(&file)
            .arg("-jsonout")
            .arg(&json)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(output.status.success(), "{repetition}: {stderr}");
        let records = read_records(json.to_str().unwrap()).unwrap();
        assert_eq!(records.len(), 2 * openings.len(), "{repetition}");
        for record in &records {
            let book = record.moves.iter().filter(|m| m.book).count();
            assert!(
                record.moves.len() > book,
                "{repetition}: no engine move after the opening: {}",
                record.reason
            );
            assert!(
                matches!(
                    record.termination,
                    Termination::Normal | Termination::Adjudication
                ),
                "{repetition}: {}",
                record.reason
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}
