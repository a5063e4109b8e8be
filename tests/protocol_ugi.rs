//! The UGI dialect end to end (the `baghchal` binary over pipes), scripted the way a generic
//! match runner such as cutegames drives it: `ugi`, `uginewgame`, `query` around every move,
//! `go p1time ...`, and replies of exactly two words.

mod common;
mod protocol_support;

use baghchal::{Game, Move, Repetition, Rules, Side};
use common::rule_variants;
use protocol_support::{EngineProcess, PROMPT};

/// Sends `query <question>` and returns the lines up to its `response` (errors first).
fn query(engine: &mut EngineProcess, question: &str) -> Vec<String> {
    engine.send(&format!("query {question}"));
    engine.read_until(PROMPT, |l| l.starts_with("response"))
}

/// The answers to `gameover`, `p1turn` and `result`, checking that each came alone.
fn answers(engine: &mut EngineProcess) -> [String; 3] {
    ["gameover", "p1turn", "result"].map(|question| {
        let lines = query(engine, question);
        assert_eq!(lines.len(), 1, "query {question}: {lines:?}");
        lines[0].clone()
    })
}

fn expect(answers: [&str; 3]) -> [String; 3] {
    answers.map(|answer| format!("response {answer}"))
}

/// Sends `go ...` and returns the `bestmove` line's move, checking the line is exactly two words.
fn bestmove(engine: &mut EngineProcess, go: &str) -> String {
    engine.send(go);
    let line = engine.read_bestmove(PROMPT).pop().unwrap();
    let words: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(words.len(), 2, "UGI runners read exactly two words: {line}");
    words[1].to_string()
}

fn ugi_engine() -> EngineProcess {
    let mut engine = EngineProcess::start();
    engine.send("ugi");
    let lines = engine.read_until(PROMPT, |l| l == "ugiok");
    assert!(lines[0].starts_with("id name baghchal "), "{lines:?}");
    assert!(lines.iter().any(|l| l.starts_with("option name Hash ")));
    assert!(!lines.contains(&"uciok".to_string()));
    assert!(engine.sync().is_empty());
    engine
}

#[test]
fn a_scripted_ugi_game_answers_queries_and_moves_in_two_words() {
    let mut engine = ugi_engine();
    engine.send("setoption name Hash value 8");
    engine.send("uginewgame");
    engine.send("position startpos");
    assert!(engine.sync().is_empty());
    assert_eq!(answers(&mut engine), expect(["false", "true", "none"]));
    // A game the way cutegames plays it: position, queries, go, until the engine says it is over.
    let mut game = Game::startpos(Rules::default());
    let mut moves: Vec<String> = Vec::new();
    for ply in 0..60 {
        let position = if moves.is_empty() {
            "position startpos".to_string()
        } else {
            format!("position startpos moves {}", moves.join(" "))
        };
        engine.send(&position);
        let [gameover, p1turn, result] = answers(&mut engine);
        let goats = game.position().side_to_move() == Side::Goats;
        assert_eq!(p1turn, format!("response {goats}"), "ply {ply}");
        if gameover == "response true" {
            assert_ne!(result, "response none");
            break;
        }
        assert_eq!(gameover, "response false");
        assert_eq!(result, "response none");
        let go = if ply % 2 == 0 {
            "go p1time 20000 p2time 20000 p1inc 100 p2inc 100"
        } else {
            "go depth 3"
        };
        let mv = bestmove(&mut engine, go);
        game.play(mv.parse::<Move>().unwrap())
            .unwrap_or_else(|e| panic!("{e} at ply {ply}"));
        moves.push(mv);
    }
    // A second uci does not change the dialect: still no ponder move.
    engine.send("uci");
    engine.read_until(PROMPT, |l| l == "uciok");
    engine.send("position startpos moves c3");
    bestmove(&mut engine, "go depth 4");
    engine.send("quit");
}

#[test]
fn queries_answer_won_lost_drawn_and_running_games_under_every_rule_variant() {
    let mut engine = ugi_engine();
    for rules in rule_variants() {
        let captures_to_win = rules.captures_to_win;
        engine.send(&format!(
            "setoption name ForcedCapture value {}",
            rules.forced_capture
        ));
        engine.send(&format!(
            "setoption name CapturesToWin value {captures_to_win}"
        ));
        let repetition = match rules.repetition {
            Repetition::Forbid => "forbid",
            Repetition::Draw => "draw",
        };
        engine.send(&format!("setoption name Repetition value {repetition}"));
        engine.send("uginewgame");
        assert!(engine.sync().is_empty(), "{rules}");
        // Running, goats to move, then tigers to move.
        assert_eq!(
            answers(&mut engine),
            expect(["false", "true", "none"]),
            "{rules}"
        );
        engine.send("position startpos moves c3");
        assert_eq!(
            answers(&mut engine),
            expect(["false", "false", "none"]),
            "{rules}"
        );
        // Goats (player 1) win: the tigers are blocked.
        engine.send("position fen TGGGT/GGGGG/GG1GG/GGGGG/TGGGT g 0 0 moves c2c3");
        assert_eq!(
            answers(&mut engine),
            expect(["true", "false", "p1win"]),
            "{rules}"
        );
        // Tigers (player 2) win: their jump makes the captures our CapturesToWin asks for.
        engine.send(&format!(
            "position fen T3T/5/5/1G3/T3T t {} {} moves a1c3",
            20 - captures_to_win,
            captures_to_win - 1
        ));
        assert_eq!(
            answers(&mut engine),
            expect(["true", "true", "p2win"]),
            "{rules}"
        );
        // A state recurring: a draw under draw; under forbid the game goes on.
        engine.send(
            "position fen GGGGG/GTGTG/GG1GG/GTGTG/GGGGG g 0 0 moves c2c3 b2c2 c3b2 c2c3 b2c2 c3b2",
        );
        let expected = match rules.repetition {
            Repetition::Draw => ["true", "true", "draw"],
            Repetition::Forbid => ["false", "true", "none"],
        };
        let lines: Vec<String> = ["gameover", "p1turn", "result"]
            .iter()
            .map(|question| query(&mut engine, question).pop().unwrap())
            .collect();
        assert_eq!(lines, expect(expected), "{rules}");
        engine.sync();
    }
}

#[test]
fn bad_queries_and_a_game_the_engine_cannot_follow_still_get_exactly_one_response() {
    let mut engine = ugi_engine();
    for bad in ["query", "query winner", "query result now", "query P1TURN"] {
        engine.send(bad);
        let lines = engine.read_until(PROMPT, |l| l.starts_with("response"));
        assert_eq!(lines.len(), 2, "{bad}: {lines:?}");
        assert!(lines[0].starts_with("info string error: "), "{bad}");
        assert_eq!(lines[1], "response none", "{bad}");
    }
    engine.send("query winner");
    let lines = engine.read_until(PROMPT, |l| l.starts_with("response"));
    assert_eq!(
        lines[0],
        "info string error: unknown query \"winner\": expected gameover, p1turn or result"
    );
    // A position the engine cannot follow: no game, so it is over for us, with no result, and
    // a runner that trusts the answers stops asking for moves.
    engine.send("position startpos moves c3 c3");
    assert_eq!(engine.sync().len(), 1);
    for (question, answer) in [
        ("gameover", "true"),
        ("p1turn", "false"),
        ("result", "none"),
    ] {
        let lines = query(&mut engine, question);
        assert_eq!(lines.len(), 2, "{lines:?}");
        assert!(
            lines[0].starts_with("info string error: no game to answer for"),
            "{lines:?}"
        );
        assert_eq!(lines[1], format!("response {answer}"));
    }
    assert_eq!(bestmove(&mut engine, "go depth 2"), "0000");
    // A good position again: answers as usual, nothing changed by the errors.
    engine.send("position startpos moves c3 a1b1");
    assert_eq!(answers(&mut engine), expect(["false", "true", "none"]));
}

#[test]
fn the_uci_dialect_also_answers_queries_and_takes_p1_clocks() {
    let mut engine = EngineProcess::start();
    engine.send("uci");
    engine.read_until(PROMPT, |l| l == "uciok");
    engine.send("ugi");
    let lines = engine.read_until(PROMPT, |l| l == "ugiok");
    assert!(lines[0].starts_with("id name "));
    engine.send("position startpos moves c3");
    assert_eq!(answers(&mut engine), expect(["false", "false", "none"]));
    // Still UCI (the first handshake fixed it): the ponder move is named when known.
    engine.send("go p1time 5000 p2time 5000 p1inc 10 p2inc 10 depth 5");
    let line = engine.read_bestmove(PROMPT).pop().unwrap();
    assert!(line.contains(" ponder "), "{line}");
    engine.send("go p1time 5000 wtime 5000");
    let lines = engine.sync();
    assert_eq!(lines, ["info string error: \"wtime\" given twice"]);
}
