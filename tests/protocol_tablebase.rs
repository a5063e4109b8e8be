//! The TablebasePath option through the protocol: loading, errors, rule mismatches, scores.

mod protocol_support;
mod tb_common;

use baghchal::tablebase::Wdl;
use baghchal::{Game, Move, Repetition};
use protocol_support::session::{is_error, send, session, wait_bestmove};

#[test]
fn tablebase_path_loads_reports_errors_and_follows_the_rules() {
    let dir = tb_common::table_dir().display().to_string();
    let (mut session, out) = session();

    // A missing directory: an error, and the engine keeps working without tables.
    let lines = send(
        &mut session,
        &out,
        "setoption name TablebasePath value /nonexistent/tables",
    );
    assert!(is_error(&lines), "{lines:?}");
    assert!(lines[0].contains("cannot use tablebases"), "{lines:?}");
    assert_eq!(send(&mut session, &out, "isready"), ["readyok"]);

    // The tables exist for CapturesToWin 2: refused under the default rules, loaded under theirs.
    let lines = send(
        &mut session,
        &out,
        &format!("setoption name TablebasePath value {dir}"),
    );
    assert!(is_error(&lines), "{lines:?}");
    let lines = send(&mut session, &out, "setoption name CapturesToWin value 2");
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(
        lines[0].starts_with("info string tablebases loaded from"),
        "{lines:?}"
    );

    // A won movement-phase position: the engine reports a mate score and table hits.
    let won = tb_common::sample(7, 1, |_, value| value.wdl == Wdl::Win)[0];
    send(&mut session, &out, &format!("position fen {won}"));
    session.handle_line("go depth 4");
    let best = wait_bestmove(&out);
    let lines = out.lines();
    let last_info = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .expect("a final info line");
    assert!(last_info.contains(" score mate "), "{last_info}");
    assert!(!last_info.contains(" score mate -"), "{last_info}");
    assert!(!last_info.contains(" tbhits 0 "), "{last_info}");
    let mv: Move = best.split_whitespace().nth(1).unwrap().parse().unwrap();
    let game = Game::new(won, tb_common::rules(Repetition::Forbid));
    assert!(game.check_move(mv).is_ok(), "{best}");

    // Back to rules the tables do not cover: an error again; then no tables at all: silence.
    let lines = send(&mut session, &out, "setoption name CapturesToWin value 3");
    assert!(is_error(&lines), "{lines:?}");
    let lines = send(
        &mut session,
        &out,
        "setoption name TablebasePath value <empty>",
    );
    assert!(lines.is_empty(), "{lines:?}");
    assert_eq!(session.settings().engine.tablebase_path, None);
    assert_eq!(send(&mut session, &out, "isready"), ["readyok"]);
}
