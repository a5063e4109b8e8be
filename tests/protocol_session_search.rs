//! In-process tests of the protocol session: go, stop, ponder, held bestmoves, game over.

mod protocol_support;

use baghchal::protocol::Flow;
use baghchal::Move;
use protocol_support::session::{bestmove_count, is_error, send, session, wait_bestmove};
use std::time::Duration;

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
        "bench 1 1 1",
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
    // The four tigers in the corners, walled in: no move on the board at all.
    send(
        &mut session,
        &out,
        "position fen TGGGT/GGGGG/GGGGG/GG1GG/TGGGT t 0 0",
    );
    session.handle_line("go depth 3");
    wait_bestmove(&out);
    assert_eq!(
        out.take(),
        [
            "info string game over: goats win: tigers blocked",
            "info depth 0 score mate 0",
            "bestmove 0000"
        ]
    );
    let lines = send(&mut session, &out, "go infinite");
    assert_eq!(
        lines,
        [
            "info string game over: goats win: tigers blocked",
            "info depth 0 score mate 0"
        ]
    );
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
fn commands_that_work_during_a_search() {
    let (mut session, out) = session();
    send(&mut session, &out, "go infinite");
    assert_eq!(send(&mut session, &out, "uci").last().unwrap(), "uciok");
    let lines = send(&mut session, &out, "position startpos moves c3");
    assert!(
        lines.last().is_some_and(|l| l.starts_with("bestmove ")),
        "position stops the search, whose bestmove goes out first: {lines:?}"
    );
    assert_eq!(session.game().ply(), 1);
    assert!(send(&mut session, &out, "debug on").is_empty());
    assert!(send(&mut session, &out, "register later").is_empty());
    assert!(send(&mut session, &out, "d")
        .iter()
        .any(|l| l.starts_with("Position: ")));
    send(&mut session, &out, "stop");
    // The next go searches the position set during the search.
    session.handle_line("go depth 1");
    let best = wait_bestmove(&out);
    let lines = out.take();
    assert!(
        lines[0].starts_with("info string debug: searching T3T/5/2G2/5/T3T t 19 0"),
        "{lines:?}"
    );
    let mv: Move = best.split(' ').nth(1).unwrap().parse().unwrap();
    assert!(mv.from().is_some(), "a tiger move: {best}");
}

#[test]
fn a_repetition_our_draw_rule_ends_is_played_on_when_the_arbiter_asks() {
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
    assert_eq!(
        session.game().outcome(),
        Some(baghchal::Outcome::Repetition)
    );
    out.take();
    session.handle_line("go depth 2");
    let best = wait_bestmove(&out);
    let lines = out.take();
    assert!(
        lines[0].starts_with("info string warning: the game is over under our settings (draw"),
        "{lines:?}"
    );
    let mv: Move = best.split(' ').nth(1).unwrap().parse().unwrap();
    session.game().position().check_board_move(mv).unwrap();
}

/// The moves a fresh session plays with `options` from a few positions.
fn moves_played(options: &[&str]) -> Vec<String> {
    let (mut session, out) = session();
    for option in options {
        assert!(send(&mut session, &out, option).is_empty(), "{option}");
    }
    let mut moves = Vec::new();
    for position in [
        "startpos",
        "startpos moves c3",
        "startpos moves c3 a1b1 b3",
        "fen T3T/5/5/G4/T3T t 19 0",
    ] {
        send(&mut session, &out, &format!("position {position}"));
        out.take();
        session.handle_line("go depth 2");
        moves.push(wait_bestmove(&out));
    }
    moves
}

#[test]
fn same_options_and_seed_give_the_same_moves() {
    for strategy in ["random", "greedy", "search"] {
        let options = [
            &format!("setoption name Strategy value {strategy}") as &str,
            "setoption name Seed value 12345",
        ];
        let first = moves_played(&options);
        assert_eq!(moves_played(&options), first, "{strategy}");
    }
    let random = |seed: u32| {
        moves_played(&[
            "setoption name Strategy value random",
            &format!("setoption name Seed value {seed}"),
        ])
    };
    let runs: Vec<Vec<String>> = (1..=4).map(random).collect();
    assert!(
        runs.iter().any(|run| *run != runs[0]),
        "the seed changes the random player's moves"
    );
}

#[test]
fn skill_options_repeat_for_a_seed_and_the_lowest_elo_is_level_zero() {
    let level = |skill: u32, seed: u32| {
        moves_played(&[
            &format!("setoption name Skill Level value {skill}") as &str,
            &format!("setoption name Seed value {seed}"),
        ])
    };
    for skill in [0, 6, 15] {
        assert_eq!(level(skill, 21), level(skill, 21), "level {skill}");
    }
    let lowest = moves_played(&[
        "setoption name UCI_LimitStrength value true",
        &format!(
            "setoption name UCI_Elo value {}",
            baghchal::search::options::UCI_ELO.min
        ),
        "setoption name Seed value 21",
    ]);
    assert_eq!(lowest, level(0, 21));
    let runs: Vec<Vec<String>> = (1..=6).map(|seed| level(0, seed)).collect();
    assert!(
        runs.iter().any(|run| *run != runs[0]),
        "the seed moves level 0"
    );
}
