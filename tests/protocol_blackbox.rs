//! Black-box protocol tests: the `baghchal` binary over pipes.

mod protocol_support;

use baghchal::{Game, Move, Rules};
use protocol_support::{check_search_output, parse_bestmove, EngineProcess, PROMPT};
use std::time::{Duration, Instant};

fn game_after(moves: &str) -> Game {
    let mut game = Game::startpos(Rules::default());
    for mv in moves.split_whitespace() {
        game.play(mv.parse::<Move>().unwrap()).unwrap();
    }
    game
}

#[test]
fn handshake_is_silent_until_asked_and_lists_options() {
    let mut engine = EngineProcess::start();
    assert!(
        engine.drain(Duration::from_millis(200)).is_empty(),
        "nothing printed unprompted"
    );
    engine.send("uci");
    let lines = engine.read_until(PROMPT, |l| l == "uciok");
    assert!(lines[0].starts_with("id name "));
    assert!(lines[1].starts_with("id author "));
    assert_eq!(
        lines
            .iter()
            .filter(|l| l.starts_with("option name "))
            .count(),
        19
    );
    assert_eq!(lines.len(), 22);
    assert!(engine.sync().is_empty());
}

#[test]
fn options_are_checked_and_applied() {
    let mut engine = EngineProcess::start();
    engine.send("setoption name hash value 8");
    engine.send("setoption name Move Overhead value 10");
    engine.send("setoption name MultiPV value 2");
    assert!(engine.sync().is_empty());
    engine.send("setoption name Hash value 0");
    engine.send("setoption name Bogus value 1");
    engine.send("setoption name UCI_ShowWDL value maybe");
    let lines = engine.sync();
    assert_eq!(lines.len(), 3, "{lines:?}");
    assert!(lines.iter().all(|l| l.starts_with("info string error: ")));
    assert!(lines[1].contains("\"Bogus\""));
    engine.send("setoption name UCI_ShowWDL value true");
    engine.send("position startpos");
    engine.send("go depth 3");
    let lines = engine.read_bestmove(PROMPT);
    let infos: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .collect();
    assert!(infos.iter().all(|l| l.contains(" wdl ")), "{lines:?}");
    assert!(
        infos.iter().any(|l| l.contains(" multipv 2 ")),
        "MultiPV 2 reports two lines: {lines:?}"
    );
    check_search_output(&game_after(""), &lines);
}

#[test]
fn every_limit_kind_returns_a_legal_move_in_time() {
    let mut engine = EngineProcess::start();
    let moves = "c3 a1b1";
    let game = game_after(moves);
    for (go, limit) in [
        ("go depth 3", PROMPT),
        ("go nodes 5000", PROMPT),
        ("go movetime 200", Duration::from_millis(200 + 400)),
        (
            "go wtime 2000 btime 2000 winc 20 binc 20",
            Duration::from_millis(2000),
        ),
        (
            "go wtime 3000 btime 3000 movestogo 20",
            Duration::from_millis(3000),
        ),
        (
            "go gtime 1000 ttime 9000 ginc 0 tinc 0",
            Duration::from_millis(1000),
        ),
        ("go depth 50 movetime 150", Duration::from_millis(150 + 400)),
        ("go mate 2", PROMPT),
        ("go wtime 300 btime 300", Duration::from_millis(300)),
    ] {
        engine.send(&format!("position startpos moves {moves}"));
        let started = Instant::now();
        engine.send(go);
        let lines = engine.read_bestmove(PROMPT);
        let elapsed = started.elapsed();
        assert!(elapsed <= limit, "{go}: took {elapsed:?}");
        check_search_output(&game, &lines);
    }
    engine.send("position startpos moves c3");
    engine.send("go depth 4");
    let lines = engine.read_bestmove(PROMPT);
    let depths: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth 4 "))
        .collect();
    assert!(!depths.is_empty(), "{lines:?}");
    assert!(!lines.iter().any(|l| l.starts_with("info depth 5 ")));
}

#[test]
fn stop_ends_an_infinite_search_at_once_and_isready_is_answered_during_it() {
    let mut engine = EngineProcess::start();
    engine.send("position startpos moves c3");
    engine.send("go infinite");
    std::thread::sleep(Duration::from_millis(300));
    engine.send("isready");
    let lines = engine.read_until(PROMPT, |l| l == "readyok" || l.starts_with("bestmove"));
    assert_eq!(
        lines.last().unwrap(),
        "readyok",
        "isready during search: {lines:?}"
    );
    engine.send("go depth 1");
    let lines = engine.read_until(PROMPT, |l| {
        l.starts_with("info string error") || l.starts_with("bestmove")
    });
    assert!(
        lines.last().unwrap().contains("send stop first"),
        "{lines:?}"
    );
    let started = Instant::now();
    engine.send("stop");
    let lines = engine.read_bestmove(PROMPT);
    let elapsed = started.elapsed();
    assert!(
        elapsed < Duration::from_millis(500),
        "stop took {elapsed:?}"
    );
    check_search_output(&game_after("c3"), &lines);
    engine.send("stop");
    assert!(engine.sync().is_empty(), "stop when idle is silent");
}

#[test]
fn infinite_search_that_finishes_waits_for_stop() {
    let mut engine = EngineProcess::start();
    engine.send("go infinite depth 2");
    let early = engine.drain(Duration::from_millis(400));
    assert!(
        !early.iter().any(|l| l.starts_with("bestmove")),
        "{early:?}"
    );
    engine.send("stop");
    engine.read_bestmove(PROMPT);
}

#[test]
fn ponder_then_ponderhit_plays_on_the_clock() {
    let mut engine = EngineProcess::start();
    engine.send("setoption name Ponder value true");
    engine.send("position startpos moves c3 a1b1");
    engine.send("go ponder wtime 1000 btime 1000");
    let early = engine.drain(Duration::from_millis(400));
    assert!(
        !early.iter().any(|l| l.starts_with("bestmove")),
        "{early:?}"
    );
    let started = Instant::now();
    engine.send("ponderhit");
    let lines = engine.read_bestmove(PROMPT);
    assert!(
        started.elapsed() < Duration::from_millis(1000),
        "{:?}",
        started.elapsed()
    );
    check_search_output(&game_after("c3 a1b1"), &lines);
    // Ponder miss: stop, then a new search.
    engine.send("go ponder wtime 1000 btime 1000");
    std::thread::sleep(Duration::from_millis(100));
    engine.send("stop");
    engine.read_bestmove(PROMPT);
    engine.send("position startpos moves c3 a1b1 d3");
    engine.send("go movetime 100");
    check_search_output(&game_after("c3 a1b1 d3"), &engine.read_bestmove(PROMPT));
}

#[test]
fn garbage_is_answered_with_errors_and_the_engine_keeps_working() {
    let mut engine = EngineProcess::start();
    for line in [
        "hello",
        "go depth -3",
        "go nodes 99999999999999999999999",
        "position startpos moves c3 c3",
        "position fen nonsense",
        "setoption name",
        "go searchmoves a9",
        "ponderhit",
        "stop",
        "",
        "\u{0}\u{7f}",
    ] {
        engine.send(line);
    }
    let lines = engine.sync();
    assert_eq!(lines.len(), 8, "{lines:?}");
    assert!(
        lines.iter().all(|l| l.starts_with("info string error: ")),
        "{lines:?}"
    );
    engine.write_raw(b"position startpos moves c3\r\ngo depth 2\r\n");
    check_search_output(&game_after("c3"), &engine.read_bestmove(PROMPT));
}

#[test]
fn a_megabyte_line_is_handled() {
    let mut engine = EngineProcess::start();
    let mut line = String::from("position startpos moves");
    while line.len() < 1 << 20 {
        line.push_str(" c3");
    }
    engine.send(&line);
    let lines = engine.sync();
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(lines[0].starts_with("info string error: "), "{lines:?}");
    engine.send(&"x".repeat(1 << 20));
    let lines = engine.sync();
    assert_eq!(lines.len(), 1);
    assert!(
        lines[0].starts_with("info string error: unknown command \"xxx")
            && lines[0].ends_with("...")
    );
    assert!(
        lines[0].len() < 300,
        "error messages are cut: {} bytes",
        lines[0].len()
    );
    engine.send("position startpos moves c3\u{1b}[2J");
    let lines = engine.sync();
    assert!(
        lines[0].contains("\\u{1b}") && !lines[0].contains('\u{1b}'),
        "{lines:?}"
    );
}

#[test]
fn end_of_input_and_quit_exit_promptly_with_status_zero() {
    let mut engine = EngineProcess::start();
    engine.send("go infinite");
    std::thread::sleep(Duration::from_millis(100));
    engine.close_stdin();
    let status = engine
        .wait_exit(Duration::from_secs(5))
        .expect("exits after end of input");
    assert!(status.success());
    assert_eq!(
        engine
            .drain(Duration::from_millis(100))
            .iter()
            .filter(|l| l.starts_with("bestmove"))
            .count(),
        1
    );

    let mut engine = EngineProcess::start();
    engine.send("go infinite");
    std::thread::sleep(Duration::from_millis(100));
    engine.send("quit");
    let status = engine
        .wait_exit(Duration::from_secs(5))
        .expect("exits after quit");
    assert!(status.success());

    let mut engine = EngineProcess::start();
    engine.close_stdin();
    assert!(engine
        .wait_exit(Duration::from_secs(5))
        .expect("exits at once")
        .success());
}

#[test]
fn each_go_gets_exactly_one_bestmove_even_when_stop_races_the_end() {
    let mut engine = EngineProcess::start();
    for round in 0..30 {
        let go = if round % 2 == 0 {
            "go infinite"
        } else {
            "go depth 1"
        };
        engine.send(go);
        engine.send("stop");
        engine.sync();
    }
    engine.send("isready");
    engine.read_until(PROMPT, |l| l == "readyok");
    let count = engine
        .seen
        .iter()
        .filter(|l| l.starts_with("bestmove"))
        .count();
    assert_eq!(count, 30, "{:?}", engine.seen);
    let (best, _) = parse_bestmove(
        engine
            .seen
            .iter()
            .rfind(|l| l.starts_with("bestmove"))
            .unwrap(),
    );
    assert!(best.is_some());
}

#[test]
fn go_perft_matches_the_library() {
    let mut engine = EngineProcess::start();
    engine.send("position startpos moves c3 a1b2");
    engine.send("go perft 4");
    let lines = engine.read_until(PROMPT, |l| l.starts_with("Nodes searched: "));
    let mut game = game_after("c3 a1b2");
    let expected = baghchal::divide(&mut game, 4);
    assert_eq!(lines.len(), expected.len() + 1);
    for (line, (mv, count)) in lines.iter().zip(&expected) {
        assert_eq!(*line, format!("{mv}: {count}"));
    }
    let total: u64 = expected.iter().map(|(_, n)| n).sum();
    assert_eq!(lines.last().unwrap(), &format!("Nodes searched: {total}"));
}

fn bench_nodes(lines: &[String]) -> u64 {
    let line = lines
        .iter()
        .find(|l| l.ends_with(" nodes"))
        .expect("a nodes line");
    line.trim_end_matches(" nodes")
        .parse()
        .expect("a node count")
}

#[test]
fn bench_is_deterministic_on_the_command_line_and_in_the_protocol() {
    let run = || {
        let mut engine = EngineProcess::spawn(&["bench", "--depth", BENCH_DEPTH]);
        let lines = engine.drain(Duration::from_secs(60));
        assert!(engine.wait_exit(PROMPT).expect("bench exits").success());
        assert_eq!(lines.len(), 2, "{lines:?}");
        assert!(lines[1].ends_with(" nps"));
        bench_nodes(&lines)
    };
    let first = run();
    assert!(first > 0);
    assert_eq!(run(), first);
    let mut engine = EngineProcess::start();
    engine.send(&format!("bench 16 1 {BENCH_DEPTH}"));
    let lines = engine.read_until(Duration::from_secs(60), |l| l.ends_with(" nps"));
    assert_eq!(bench_nodes(&lines), first);
    // Stockfish's arguments on the command line give the same count as --depth.
    let mut engine = EngineProcess::spawn(&["bench", "16", "1", BENCH_DEPTH, "default", "depth"]);
    let lines = engine.drain(Duration::from_secs(60));
    assert!(engine.wait_exit(PROMPT).expect("bench exits").success());
    assert_eq!(bench_nodes(&lines), first);
}

/// `baghchal bench --eval NAME` searches with that evaluation, and without `--eval` with the
/// default, the pattern network; the counts are the protocol's `bench` under the same `Eval`
/// (the network by default), and the two evaluations' counts differ. A name that is no
/// evaluation fails the command.
#[test]
fn bench_on_the_command_line_chooses_the_evaluation() {
    let cli = |args: &[&str]| {
        let mut engine = EngineProcess::spawn(args);
        let lines = engine.drain(Duration::from_secs(60));
        let status = engine.wait_exit(PROMPT).expect("bench exits");
        assert!(status.success(), "{args:?}: {lines:?}");
        bench_nodes(&lines)
    };
    let network = cli(&["bench", "--eval", "network", "--depth", "5"]);
    let classic = cli(&["bench", "--eval", "classic", "--depth", "5"]);
    assert_ne!(classic, network);
    assert_eq!(cli(&["bench", "--depth", "5"]), network, "the default");
    let mut engine = EngineProcess::start();
    engine.send("bench 16 1 5");
    let lines = engine.read_until(Duration::from_secs(60), |l| l.ends_with(" nps"));
    assert_eq!(bench_nodes(&lines), network, "the default");
    engine.send("setoption name Eval value classic");
    engine.send("bench 16 1 5");
    let lines = engine.read_until(Duration::from_secs(60), |l| l.ends_with(" nps"));
    assert_eq!(bench_nodes(&lines), classic);
    let mut engine = EngineProcess::spawn(&["bench", "--eval", "nnue"]);
    let lines = engine.drain(Duration::from_secs(60));
    let status = engine.wait_exit(PROMPT).expect("bench exits");
    assert!(!status.success(), "an unknown evaluation fails: {lines:?}");
}

#[test]
fn bench_reads_a_position_file_and_names_a_bad_line() {
    let dir = std::env::temp_dir().join(format!("blackbox-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("positions.txt");
    std::fs::write(&file, "startpos moves c3\nT3T/5/2G2/5/T3T t 19 0\n").unwrap();
    let path = file.to_str().unwrap();
    let run = |args: &[&str]| {
        let mut engine = EngineProcess::spawn(args);
        let lines = engine.drain(Duration::from_secs(60));
        let status = engine.wait_exit(PROMPT).expect("bench exits");
        (status.success(), lines)
    };
    let (ok, lines) = run(&["bench", "16", "1", "4", path]);
    assert!(ok, "{lines:?}");
    let from_file = bench_nodes(&lines);
    // Both lines hold the same position, so the file's count is twice one search's.
    let mut engine = EngineProcess::start();
    engine.send("position startpos moves c3");
    engine.send("bench 16 1 4 current");
    let lines = engine.read_until(Duration::from_secs(60), |l| l.ends_with(" nps"));
    assert_eq!(from_file, 2 * bench_nodes(&lines));
    engine.send(&format!("bench 16 1 4 {path}"));
    let lines = engine.read_until(Duration::from_secs(60), |l| l.ends_with(" nps"));
    assert_eq!(bench_nodes(&lines), from_file);
    std::fs::write(&file, "startpos\nstartpos moves c3 c3\n").unwrap();
    engine.send(&format!("bench 16 1 4 {path}"));
    let lines = engine.read_until(Duration::from_secs(10), |l| {
        l.starts_with("info string error")
    });
    assert!(
        lines
            .last()
            .unwrap()
            .contains(&format!("\"{path}\" line 2: moves index 1")),
        "{lines:?}"
    );
    let (ok, _) = run(&["bench", "16", "1", "4", path]);
    assert!(!ok, "a bad position file fails the command line bench");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A small depth keeps the test quick; the node count is what matters.
const BENCH_DEPTH: &str = "3";

#[test]
fn end_of_input_lets_a_perft_finish() {
    let mut engine = EngineProcess::start();
    engine.send("go perft 5");
    engine.close_stdin();
    let lines = engine.read_until(PROMPT, |l| l.starts_with("Nodes searched: "));
    let mut game = Game::startpos(Rules::default());
    assert_eq!(
        lines.last().unwrap(),
        &format!("Nodes searched: {}", baghchal::perft(&mut game, 5))
    );
    assert!(engine
        .wait_exit(PROMPT)
        .expect("exits after the perft")
        .success());
}

#[test]
fn long_searches_announce_the_root_move() {
    let mut engine = EngineProcess::start();
    engine.send("position startpos moves c3");
    engine.send("go infinite");
    let lines = engine.read_until(Duration::from_secs(30), |l| l.contains(" currmove "));
    engine.send("stop");
    let mut all = lines.clone();
    all.extend(engine.read_bestmove(PROMPT));
    let game = game_after("c3");
    let tokens: Vec<&str> = lines.last().unwrap().split_whitespace().collect();
    assert_eq!(tokens[..2], ["info", "depth"]);
    assert!(tokens[2].parse::<u32>().is_ok());
    assert_eq!(tokens[3], "currmove");
    let mv: Move = tokens[4].parse().unwrap();
    assert!(game.check_move(mv).is_ok(), "{mv}");
    assert_eq!(tokens[5], "currmovenumber");
    let number: usize = tokens[6].parse().unwrap();
    assert!((1..=game.legal_moves().len()).contains(&number));
    let searches: Vec<String> = all
        .into_iter()
        .filter(|l| !l.contains(" currmove "))
        .collect();
    check_search_output(&game, &searches);
}
