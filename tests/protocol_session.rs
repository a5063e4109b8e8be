//! In-process tests of the protocol session: lines in, lines out, no process or pipes.

use baghchal::protocol::{Flow, Memory, Session};
use baghchal::{Game, Move, Rules};
use std::sync::Arc;
use std::time::Duration;

const WAIT: Duration = Duration::from_secs(20);

fn session() -> (Session, Arc<Memory>) {
    let out = Arc::new(Memory::new());
    (Session::new(out.clone()), out)
}

/// Sends `line` and returns what it printed at once (searches may print more later).
fn send(session: &mut Session, out: &Memory, line: &str) -> Vec<String> {
    out.take();
    assert_eq!(session.handle_line(line), Flow::Continue, "{line}");
    out.take()
}

fn wait_bestmove(out: &Memory) -> String {
    out.wait_for(WAIT, |l| l.starts_with("bestmove"))
        .expect("a bestmove")
}

fn bestmove_count(out: &Memory) -> usize {
    out.lines()
        .iter()
        .filter(|l| l.starts_with("bestmove"))
        .count()
}

fn is_error(lines: &[String]) -> bool {
    lines.len() == 1 && lines[0].starts_with("info string error: ")
}

#[test]
fn handshake_lists_every_option_in_order_then_uciok() {
    let (mut session, out) = session();
    let lines = send(&mut session, &out, "uci");
    assert!(lines[0].starts_with("id name baghchal "));
    assert!(lines[1].starts_with("id author "));
    assert_eq!(lines.last().unwrap(), "uciok");
    let names: Vec<&str> = lines
        .iter()
        .filter_map(|l| l.strip_prefix("option name "))
        .map(|l| &l[..l.find(" type ").unwrap()])
        .collect();
    let expected = [
        "Hash",
        "Threads",
        "MultiPV",
        "Move Overhead",
        "Ponder",
        "UCI_ShowWDL",
        "ForcedCapture",
        "CapturesToWin",
        "Repetition",
        "Strategy",
        "Seed",
        "Clear Hash",
    ];
    assert_eq!(names, expected);
    assert_eq!(send(&mut session, &out, "isready"), ["readyok"]);
}

#[test]
fn setoption_applies_good_values_and_rejects_bad_ones_unchanged() {
    let (mut session, out) = session();
    assert!(send(&mut session, &out, "setoption name move overhead value 250").is_empty());
    assert_eq!(
        session.settings().engine.move_overhead,
        Duration::from_millis(250)
    );
    assert!(send(&mut session, &out, "setoption  name  MultiPV  value 3").is_empty());
    assert_eq!(session.settings().engine.multi_pv, 3);
    assert!(send(
        &mut session,
        &out,
        "setoption name ForcedCapture value TRUE"
    )
    .is_empty());
    assert!(session.game().rules().forced_capture);
    for bad in [
        "setoption name Hash value 0",
        "setoption name Hash value 4097",
        "setoption name Hash value lots",
        "setoption name Hash",
        "setoption name Threads value -1",
        "setoption name UCI_ShowWDL value yes",
        "setoption name Repetition value sometimes",
        "setoption name CapturesToWin value 21",
        "setoption name Clear Hash value 3",
        "setoption name Nonsense value 1",
        "setoption value 3",
        "setoption",
    ] {
        let before = format!("{:?}", session.settings());
        assert!(is_error(&send(&mut session, &out, bad)), "{bad}");
        assert_eq!(format!("{:?}", session.settings()), before, "{bad}");
    }
    let lines = send(&mut session, &out, "setoption name Hashes value 1");
    assert_eq!(lines, ["info string error: unknown option \"Hashes\""]);
    assert!(send(&mut session, &out, "setoption name clear hash").is_empty());
}

#[test]
fn position_is_replaced_only_by_a_valid_command() {
    let (mut session, out) = session();
    assert!(send(&mut session, &out, "position startpos moves c3 a1b1 b3").is_empty());
    assert_eq!(session.game().ply(), 3);
    let before = session.game().position().to_string();
    let lines = send(&mut session, &out, "position startpos moves c3 a1b1 c3");
    assert!(is_error(&lines));
    assert!(
        lines[0].contains("moves index 2") && lines[0].contains("\"c3\""),
        "{lines:?}"
    );
    assert_eq!(session.game().position().to_string(), before);
    let lines = send(&mut session, &out, "position startpos moves c3 zz9");
    assert!(lines[0].contains("\"zz9\""), "{lines:?}");
    assert!(is_error(&send(
        &mut session,
        &out,
        "position fen T3T/5/5/5/T3T x 20 0"
    )));
    assert!(is_error(&send(
        &mut session,
        &out,
        "position fen T3T/5/5/5/T3T g 20"
    )));
    assert!(is_error(&send(&mut session, &out, "position")));
    assert!(is_error(&send(&mut session, &out, "position startpos c3")));
    assert_eq!(session.game().position().to_string(), before);
    assert!(send(
        &mut session,
        &out,
        "position   fen  T3T/5/5/5/T3T g 20 0 7   moves  c3 \r"
    )
    .is_empty());
    assert_eq!(session.game().ply(), 1);
    assert!(send(&mut session, &out, "position fen T3T/5/5/5/T3T g 20 0").is_empty());
    assert_eq!(session.game().ply(), 0);
}

#[test]
fn rule_changes_replay_the_game_or_are_refused() {
    let (mut session, out) = session();
    // Tigers to move can capture a1a3; they played the quiet e1d1, illegal under ForcedCapture.
    let fen = "T3T/5/5/G4/T3T t 19 0";
    assert!(send(
        &mut session,
        &out,
        &format!("position fen {fen} moves e1d1")
    )
    .is_empty());
    let lines = send(
        &mut session,
        &out,
        "setoption name ForcedCapture value true",
    );
    assert!(
        is_error(&lines) && lines[0].contains("\"e1d1\""),
        "{lines:?}"
    );
    assert!(!session.settings().engine.rules.forced_capture);
    assert!(!session.game().rules().forced_capture);
    assert_eq!(session.game().ply(), 1);
    send(&mut session, &out, &format!("position fen {fen}"));
    assert!(send(
        &mut session,
        &out,
        "setoption name ForcedCapture value true"
    )
    .is_empty());
    assert!(session.game().rules().forced_capture);
    let lines = send(
        &mut session,
        &out,
        "position fen T3T/5/5/G4/T3T t 19 0 moves e1d1",
    );
    assert!(is_error(&lines), "{lines:?}");
    assert!(send(
        &mut session,
        &out,
        "position fen T3T/5/5/G4/T3T t 19 0 moves a1a3"
    )
    .is_empty());
}

#[test]
fn go_depth_returns_one_legal_bestmove_after_a_final_info() {
    let (mut session, out) = session();
    send(&mut session, &out, "position startpos moves c3");
    out.take();
    assert_eq!(session.handle_line("go depth 2"), Flow::Continue);
    let best = wait_bestmove(&out);
    let lines = out.lines();
    let at = lines.iter().position(|l| *l == best).unwrap();
    assert!(lines[at - 1].starts_with("info depth "), "{lines:?}");
    assert!(lines[at - 1].contains(&format!(" pv {}", &best[9..].split(' ').next().unwrap())));
    let mv: Move = best.split(' ').nth(1).unwrap().parse().unwrap();
    assert!(session.game().check_move(mv).is_ok());
    std::thread::sleep(Duration::from_millis(50));
    assert_eq!(bestmove_count(&out), 1);
    send(&mut session, &out, "stop");
    assert_eq!(
        bestmove_count(&out),
        0,
        "stop after the search printed another bestmove"
    );
}

#[test]
fn infinite_search_answers_isready_and_reports_only_after_stop() {
    let (mut session, out) = session();
    send(&mut session, &out, "go infinite depth 1");
    std::thread::sleep(Duration::from_millis(100));
    assert_eq!(bestmove_count(&out), 0, "go infinite must wait for stop");
    assert_eq!(send(&mut session, &out, "isready"), ["readyok"]);
    for busy in [
        "go depth 1",
        "setoption name Hash value 2",
        "ucinewgame",
        "go perft 1",
        "bench 1",
        "eval",
    ] {
        let lines = send(&mut session, &out, busy);
        assert!(
            is_error(&lines) && lines[0].contains("send stop first"),
            "{busy}: {lines:?}"
        );
    }
    out.take();
    session.handle_line("stop");
    assert_eq!(bestmove_count(&out), 1, "bestmove is out when stop returns");
    session.handle_line("stop");
    assert_eq!(bestmove_count(&out), 1);
}

#[test]
fn ponder_waits_for_ponderhit() {
    let (mut session, out) = session();
    send(&mut session, &out, "go ponder depth 1");
    std::thread::sleep(Duration::from_millis(100));
    assert_eq!(bestmove_count(&out), 0);
    session.handle_line("ponderhit");
    wait_bestmove(&out);
    assert_eq!(bestmove_count(&out), 1);
    assert!(
        send(&mut session, &out, "ponderhit").is_empty(),
        "ponderhit when idle is ignored"
    );
    assert!(
        send(&mut session, &out, "stop").is_empty(),
        "stop when idle is ignored"
    );
}

#[test]
fn finished_position_reports_the_reason_and_0000() {
    let (mut session, out) = session();
    send(&mut session, &out, "setoption name CapturesToWin value 1");
    send(&mut session, &out, "position fen T3T/5/5/5/T3T g 19 1");
    let lines = send(&mut session, &out, "go depth 3");
    assert_eq!(
        lines,
        [
            "info string game over: tigers win by captures",
            "bestmove 0000"
        ]
    );
    let lines = send(&mut session, &out, "go infinite");
    assert_eq!(lines, ["info string game over: tigers win by captures"]);
    assert_eq!(send(&mut session, &out, "stop"), ["bestmove 0000"]);
}

#[test]
fn searchmoves_restrict_the_root_and_must_be_legal() {
    let (mut session, out) = session();
    let lines = send(&mut session, &out, "go depth 2 searchmoves c3 a1b1");
    assert!(
        is_error(&lines) && lines[0].contains("searchmoves index 1"),
        "{lines:?}"
    );
    out.take();
    session.handle_line("go depth 2 searchmoves e3");
    assert_eq!(wait_bestmove(&out).split(' ').nth(1), Some("e3"));
}

#[test]
fn go_perft_prints_divide_then_total() {
    let (mut session, out) = session();
    session.handle_line("go perft 3");
    let total = out
        .wait_for(WAIT, |l| l.starts_with("Nodes searched: "))
        .unwrap();
    let mut game = Game::startpos(Rules::default());
    assert_eq!(
        total,
        format!("Nodes searched: {}", baghchal::perft(&mut game, 3))
    );
    let lines = out.lines();
    let moves = game.legal_moves();
    assert_eq!(lines.len(), moves.len() + 1, "{lines:?}");
    for (line, mv) in lines.iter().zip(moves.iter()) {
        let mut child = game.clone();
        child.play(*mv).unwrap();
        assert_eq!(*line, format!("{mv}: {}", baghchal::perft(&mut child, 2)));
    }
}

#[test]
fn display_shows_position_key_and_legal_moves() {
    let (mut session, out) = session();
    send(&mut session, &out, "position startpos moves c3");
    let lines = send(&mut session, &out, "d");
    assert_eq!(lines[0], "5 T . . . T");
    assert!(
        lines.contains(&"Position: T3T/5/2G2/5/T3T t 19 0".to_string()),
        "{lines:?}"
    );
    assert!(lines
        .iter()
        .any(|l| l.starts_with("Key: ") && l.len() == 21));
    assert!(lines.iter().any(|l| l.starts_with("Legal moves (")));
    assert_eq!(lines.last().unwrap(), "Outcome: none");
}

#[test]
fn eval_prints_terms_with_the_total_last() {
    let (mut session, out) = session();
    let lines = send(&mut session, &out, "eval");
    assert!(
        !lines.is_empty() && lines.iter().all(|l| l.starts_with("eval ")),
        "{lines:?}"
    );
}

#[test]
fn garbage_gets_errors_and_the_session_keeps_working() {
    let (mut session, out) = session();
    for garbage in [
        "xyzzy",
        "joho debug on",
        "go depth",
        "go wtime",
        "go movetime -5",
        "uci now",
        "d d",
        "\u{1f40d}",
    ] {
        assert!(is_error(&send(&mut session, &out, garbage)), "{garbage}");
    }
    assert_eq!(
        send(&mut session, &out, "xyz"),
        ["info string error: unknown command \"xyz\""]
    );
    assert!(send(&mut session, &out, "").is_empty());
    assert!(send(&mut session, &out, "   \t ").is_empty());
    assert_eq!(send(&mut session, &out, "isready"), ["readyok"]);
    session.handle_line("go depth 1");
    wait_bestmove(&out);
    assert_eq!(session.handle_line("quit"), Flow::Quit);
}

#[test]
fn commands_that_work_during_a_search() {
    let (mut session, out) = session();
    send(&mut session, &out, "go infinite");
    assert_eq!(send(&mut session, &out, "uci").last().unwrap(), "uciok");
    assert!(
        send(&mut session, &out, "position startpos moves c3").is_empty(),
        "position is allowed"
    );
    assert_eq!(session.game().ply(), 1);
    assert!(send(&mut session, &out, "debug on").is_empty());
    assert!(send(&mut session, &out, "register later").is_empty());
    assert!(send(&mut session, &out, "d")
        .iter()
        .any(|l| l.starts_with("Position: ")));
    send(&mut session, &out, "stop");
    // The next go searches the position set during the search.
    let lines = send(&mut session, &out, "go depth 1");
    assert!(
        lines[0].starts_with("info string debug: searching T3T/5/2G2/5/T3T t 19 0"),
        "{lines:?}"
    );
    let best = wait_bestmove(&out);
    let mv: Move = best.split(' ').nth(1).unwrap().parse().unwrap();
    assert!(mv.from().is_some(), "a tiger move: {best}");
}

#[test]
fn extra_tokens_and_bad_debug_are_rejected() {
    let (mut session, out) = session();
    for line in [
        "isready now",
        "quit please",
        "stop it",
        "debug",
        "debug maybe",
        "debug on off",
        "bench 1 2",
        "go perft",
    ] {
        assert!(is_error(&send(&mut session, &out, line)), "{line}");
    }
    assert_eq!(
        send(&mut session, &out, "isready now"),
        ["info string error: unexpected token \"now\" in isready"]
    );
    assert!(
        send(&mut session, &out, "setoption name Clear Hash value").is_empty(),
        "empty button value"
    );
}

#[test]
fn ucinewgame_returns_to_the_start_position() {
    let (mut session, out) = session();
    send(&mut session, &out, "position startpos moves c3 a1b1");
    assert!(send(&mut session, &out, "ucinewgame").is_empty());
    assert_eq!(session.game().ply(), 0);
    assert_eq!(
        session.game().position().to_string(),
        baghchal::START_POSITION
    );
}

#[test]
fn repetition_draw_is_reported_at_go() {
    let (mut session, out) = session();
    send(&mut session, &out, "setoption name Repetition value draw");
    // All goats placed; tigers and goats shuffle back and forth to repeat the position.
    let fen = "TGGGT/GGGGG/GG1GG/G1GGG/T1GGT t 0 2";
    let lines = send(
        &mut session,
        &out,
        &format!("position fen {fen} moves a1b1 a2b2 b1a1 b2a2"),
    );
    assert!(lines.is_empty(), "{lines:?}");
    let lines = send(&mut session, &out, "go depth 2");
    assert_eq!(
        lines,
        ["info string game over: draw by repetition", "bestmove 0000"]
    );
}
