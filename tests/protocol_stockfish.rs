//! The protocol's Stockfish habits: `go` with no limit searches until `stop`, a position
//! without a move answers `info depth 0 score mate 0`, `nodestime`, `help` and `flip`.

mod protocol_support;

use protocol_support::session::{bestmove_count, send, session, wait_bestmove};
use std::time::Duration;

#[test]
fn go_without_limits_searches_until_stop() {
    let (mut session, out) = session();
    send(&mut session, &out, "position startpos moves c3");
    send(&mut session, &out, "go");
    // Depth 100 of the placement phase is far out of reach: only stop ends this search.
    std::thread::sleep(Duration::from_millis(1500));
    assert_eq!(bestmove_count(&out), 0, "{:?}", out.lines());
    let deepest = out
        .lines()
        .iter()
        .filter_map(|l| l.strip_prefix("info depth "))
        .filter_map(|l| l.split_whitespace().next()?.parse::<u32>().ok())
        .max()
        .unwrap_or(0);
    assert!(deepest >= 2, "the search runs: {:?}", out.lines());
    let lines = send(&mut session, &out, "stop");
    assert!(lines.last().is_some_and(|l| l.starts_with("bestmove ")));
    // Only the other side's clock (tigers to move, goats' wtime): no limit either.
    send(&mut session, &out, "go wtime 10");
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(bestmove_count(&out), 0);
    let lines = send(&mut session, &out, "stop");
    assert!(lines.last().is_some_and(|l| l.starts_with("bestmove ")));
}

#[test]
fn a_position_without_moves_answers_mate_0_then_0000() {
    let (mut session, out) = session();
    // The tigers are blocked: the side to move has lost.
    send(
        &mut session,
        &out,
        "position fen TGGGT/GGGGG/GG1GG/GGGGG/TGGGT g 0 0 moves c2c3",
    );
    out.take();
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
    // go infinite: the score line at once, the bestmove after stop.
    let lines = send(&mut session, &out, "go infinite");
    assert_eq!(lines.last().unwrap(), "info depth 0 score mate 0");
    std::thread::sleep(Duration::from_millis(100));
    assert_eq!(bestmove_count(&out), 0);
    let lines = send(&mut session, &out, "stop");
    assert_eq!(lines, ["bestmove 0000"]);
}

/// The final `info` line's node count and the move of a `go movetime 230` under `nodestime`.
fn timed_search(nodestime: u32) -> (String, String) {
    let (mut session, out) = session();
    send(&mut session, &out, "ucinewgame");
    send(
        &mut session,
        &out,
        &format!("setoption name nodestime value {nodestime}"),
    );
    send(&mut session, &out, "position startpos moves c3 a1b2");
    out.take();
    session.handle_line("go movetime 230");
    let best = wait_bestmove(&out);
    let lines = out.lines();
    let last_info = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .expect("an info line");
    let nodes = last_info
        .split(" nodes ")
        .nth(1)
        .and_then(|r| r.split_whitespace().next())
        .expect("nodes")
        .to_string();
    (nodes, best)
}

#[test]
fn nodestime_makes_timed_searches_repeat_node_for_node() {
    let first = timed_search(100);
    assert_eq!(timed_search(100), first);
    // Twice the nodes per millisecond: more nodes for the same move time (200 ms after the
    // Move Overhead: 20,000 nodes against 40,000).
    let more = timed_search(200);
    let count = |n: &str| n.parse::<u64>().unwrap();
    assert!(count(&more.0) > count(&first.0), "{first:?} {more:?}");
}

#[test]
fn help_lists_the_commands_and_flip_mirrors_the_board() {
    let (mut session, out) = session();
    let help = send(&mut session, &out, "help");
    assert!(help[0].contains("protocol.md"));
    for command in ["uci", "position", "go perft", "bench", "flip", "query"] {
        assert!(help.iter().any(|l| l.contains(command)), "{command}");
    }
    send(
        &mut session,
        &out,
        "position fen T3T/5/5/1G3/T3T t 19 0 moves a1c3",
    );
    let eval_before = send(&mut session, &out, "eval");
    assert!(send(&mut session, &out, "flip").is_empty());
    let shown = send(&mut session, &out, "d");
    assert!(
        shown.contains(&"Position: 4T/5/2T2/5/T3T g 19 1".to_string()),
        "{shown:?}"
    );
    assert!(shown.contains(&"Moves played: 0".to_string()), "{shown:?}");
    assert_eq!(send(&mut session, &out, "eval"), eval_before);
    send(&mut session, &out, "flip");
    let back = send(&mut session, &out, "d");
    assert!(
        back.contains(&"Position: T3T/5/2T2/5/4T g 19 1".to_string()),
        "{back:?}"
    );
}
