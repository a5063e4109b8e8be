//! In-process tests of the protocol session: options, positions, debug commands, bad input.

mod protocol_support;

use baghchal::protocol::Flow;
use baghchal::{Game, Rules};
use protocol_support::session::{is_error, send, session, wait_bestmove, WAIT};
use std::time::Duration;

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
        "TablebasePath",
        "ForbidProof",
        "Strategy",
        "Seed",
        "Skill Level",
        "UCI_LimitStrength",
        "UCI_Elo",
        "nodestime",
        "Eval",
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
        "setoption name Skill Level value 21",
        "setoption name Skill Level value -1",
        "setoption name Skill Level value high",
        "setoption name UCI_LimitStrength value 1",
        "setoption name UCI_Elo value -100000",
        "setoption name UCI_Elo value 99999",
        "setoption name UCI_Elo",
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
fn a_bad_position_keeps_the_legal_prefix_and_no_move_is_given_for_it() {
    let (mut session, out) = session();
    assert!(send(&mut session, &out, "position startpos moves c3 a1b1 b3").is_empty());
    assert_eq!(session.game().ply(), 3);
    // c3 is occupied at index 2: the first two moves are kept, and go gives no move.
    let lines = send(
        &mut session,
        &out,
        "position startpos moves c3 a1b1 c3 b1a1",
    );
    assert!(is_error(&lines));
    assert!(
        lines[0].contains("moves index 2") && lines[0].contains("c3 is not empty"),
        "{lines:?}"
    );
    assert_eq!(session.game().ply(), 2);
    assert_eq!(session.game().moves()[1].to_string(), "a1b1");
    let display = send(&mut session, &out, "d");
    assert!(
        display.iter().any(|l| l.starts_with("Warning: ")),
        "{display:?}"
    );
    session.handle_line("go depth 3");
    assert_eq!(wait_bestmove(&out), "bestmove 0000");
    let lines = out.take();
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string error: no position to search")),
        "{lines:?}"
    );
    // Bad text: the moves before it are kept, the rest ignored.
    let lines = send(&mut session, &out, "position startpos moves c3 zz9 a1b1");
    assert!(
        lines[0].contains("moves index 1") && lines[0].contains("\"zz9\""),
        "{lines:?}"
    );
    assert_eq!(session.game().ply(), 1);
    // A position that cannot be read at all: the old game stays for display, go gives no move.
    for bad in [
        "position fen T3T/5/5/5/T3T x 20 0",
        "position fen T3T/5/5/5/T3T g 20",
        "position",
        "position startpos c3",
    ] {
        assert!(send(&mut session, &out, "position startpos").is_empty());
        assert!(is_error(&send(&mut session, &out, bad)), "{bad}");
        assert_eq!(session.game().ply(), 0, "{bad}");
        session.handle_line("go depth 1");
        assert_eq!(wait_bestmove(&out), "bestmove 0000", "{bad}");
        out.take();
    }
    // The next good position is searched again.
    assert!(send(
        &mut session,
        &out,
        "position   fen  T3T/5/5/5/T3T g 20 0 7   moves  c3 \r"
    )
    .is_empty());
    assert_eq!(session.game().ply(), 1);
    session.handle_line("go depth 1");
    assert_ne!(wait_bestmove(&out), "bestmove 0000");
    out.take();
    assert!(send(&mut session, &out, "position fen T3T/5/5/5/T3T g 20 0").is_empty());
    assert_eq!(session.game().ply(), 0);
}

#[test]
fn moves_our_settings_forbid_are_played_with_a_warning() {
    let (mut session, out) = session();
    assert!(send(
        &mut session,
        &out,
        "setoption name ForcedCapture value true"
    )
    .is_empty());
    // Tigers to move can capture a1a3; the arbiter played the quiet e1d1.
    let fen = "T3T/5/5/G4/T3T t 19 0";
    let lines = send(
        &mut session,
        &out,
        &format!("position fen {fen} moves e1d1 c3"),
    );
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(
        lines[0].starts_with("info string warning: moves index 0: e1d1")
            && lines[0].contains("ForcedCapture"),
        "{lines:?}"
    );
    assert_eq!(session.game().ply(), 2);
    session.handle_line("go depth 2");
    let best = wait_bestmove(&out);
    let mv = best.split_whitespace().nth(1).unwrap().parse().unwrap();
    session.game().check_move(mv).unwrap();
    out.take();
    // A GUI resends the game with each move: the warning is not repeated in this game...
    let resent = format!("position fen {fen} moves e1d1 c3 {mv}");
    assert!(send(&mut session, &out, &resent).is_empty());
    assert_eq!(session.game().ply(), 3);
    // ...but is given again in the next one.
    assert!(send(&mut session, &out, "ucinewgame").is_empty());
    let lines = send(&mut session, &out, &resent);
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(
        lines[0].starts_with("info string warning: moves index 0: e1d1"),
        "{lines:?}"
    );
    // Changing the rules keeps the arbiter's moves.
    assert!(send(
        &mut session,
        &out,
        "setoption name ForcedCapture value false"
    )
    .is_empty());
    assert!(!session.game().rules().forced_capture);
    assert_eq!(session.game().ply(), 3);
    assert!(send(
        &mut session,
        &out,
        "setoption name ForcedCapture value true"
    )
    .is_empty());
    assert!(session.game().rules().forced_capture);
    assert_eq!(session.game().ply(), 3);
}

#[test]
fn a_game_our_rules_call_over_goes_on_when_the_arbiter_plays_on() {
    let (mut session, out) = session();
    assert!(send(&mut session, &out, "setoption name CapturesToWin value 1").is_empty());
    // The tiger captures on a2: our rules end the game, the arbiter's (five to win) do not.
    let lines = send(&mut session, &out, "position startpos moves a2 a1a3 b2");
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(
        lines[0].starts_with("info string warning: moves index 2: b2")
            && lines[0].contains("already over"),
        "{lines:?}"
    );
    session.handle_line("go depth 3");
    let best = wait_bestmove(&out);
    let lines = out.take();
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string warning: the game is over under our")),
        "{lines:?}"
    );
    let mv: baghchal::Move = best.split_whitespace().nth(1).unwrap().parse().unwrap();
    let position = *session.game().position();
    position.check_board_move(mv).unwrap();
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

/// The pattern network is the default evaluation: `eval` prints its parts (bucket, tuples, bias,
/// expected result) with the built-in network's value as the total. `Eval classic` brings the
/// weighted features (named as `search::eval::TERM_NAMES`, a different total) and `Eval
/// network` the network back. A bad value is refused and changes nothing.
#[test]
fn eval_option_chooses_the_network_or_the_features() {
    let (mut session, out) = session();
    let total = |lines: &[String]| -> i32 {
        let last = lines.last().unwrap();
        last.strip_prefix("eval total ").unwrap().parse().unwrap()
    };
    send(&mut session, &out, "position fen T3T/5/5/1G3/T3T t 19 0");
    let default = send(&mut session, &out, "eval");
    let position: baghchal::Position = "T3T/5/5/1G3/T3T t 19 0".parse().unwrap();
    let parts = baghchal::search::network::embedded().parts(&position, &Default::default());
    assert_eq!(
        default,
        [
            format!("eval bucket {}", parts.bucket),
            format!("eval tuples {}", parts.tuples),
            format!("eval bias {}", parts.bias),
            format!(
                "eval expected_permille {}",
                (parts.expected * 1000.0).round()
            ),
            format!("eval total {}", parts.value),
        ]
    );
    let expected = baghchal::search::network::embedded().evaluate(&position, &Default::default());
    assert_eq!(total(&default), expected, "{default:?}");
    assert!(send(&mut session, &out, "setoption name Eval value classic").is_empty());
    let classic = send(&mut session, &out, "eval");
    let names: Vec<&str> = classic
        .iter()
        .map(|l| l.split_whitespace().nth(1).unwrap())
        .collect();
    assert_eq!(names, baghchal::search::eval::TERM_NAMES, "{classic:?}");
    assert_ne!(total(&classic), total(&default));
    let refused = send(&mut session, &out, "setoption name Eval value nnue");
    assert!(refused[0].starts_with("info string error"), "{refused:?}");
    assert_eq!(send(&mut session, &out, "eval"), classic);
    send(&mut session, &out, "setoption name Eval value network");
    assert_eq!(send(&mut session, &out, "eval"), default);
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
fn extra_tokens_and_bad_debug_are_rejected() {
    let (mut session, out) = session();
    for line in [
        "isready now",
        "quit please",
        "stop it",
        "debug",
        "debug maybe",
        "debug on off",
        "bench 16 1 3 default depth 2",
        "bench 16 1 0",
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
fn ugi_handshake_new_game_and_queries_in_process() {
    let (mut session, out) = session();
    let uci = send(&mut session, &out, "uci");
    let (mut other, other_out) = protocol_support::session::session();
    let ugi = send(&mut other, &other_out, "ugi");
    assert_eq!(ugi.last().unwrap(), "ugiok");
    assert_eq!(ugi[..ugi.len() - 1], uci[..uci.len() - 1]);
    assert_eq!(session.dialect(), baghchal::protocol::Dialect::Uci);
    assert_eq!(other.dialect(), baghchal::protocol::Dialect::Ugi);
    // Only the first handshake sets the dialect.
    assert_eq!(send(&mut other, &other_out, "uci").last().unwrap(), "uciok");
    assert_eq!(other.dialect(), baghchal::protocol::Dialect::Ugi);
    // During a search: queries are answered at once, uginewgame is refused.
    send(&mut other, &other_out, "position startpos moves c3");
    send(&mut other, &other_out, "go infinite");
    assert_eq!(
        send(&mut other, &other_out, "query p1turn"),
        ["response false"]
    );
    assert_eq!(
        send(&mut other, &other_out, "uginewgame"),
        [
            "info string error: uginewgame is not allowed while a search, perft or bench runs: \
          send stop first"
        ]
    );
    assert_eq!(other.game().ply(), 1);
    other.handle_line("stop");
    let best = wait_bestmove(&other_out);
    assert_eq!(best.split_whitespace().count(), 2, "{best}");
    assert!(send(&mut other, &other_out, "uginewgame").is_empty());
    assert_eq!(other.game().ply(), 0);
    assert_eq!(
        send(&mut other, &other_out, "query gameover"),
        ["response false"]
    );
}
