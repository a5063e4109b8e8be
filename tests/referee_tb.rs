//! Tablebase adjudication (`referee -tb DIR`): games that reach a movement-phase position end
//! with the tables' value, records say so and read back, bad tables stop the referee before
//! any game starts, and without `-tb` nothing changes.

use baghchal::referee::outcome::{GameResult, Termination};
use baghchal::referee::record::{read_records, GameRecord, RecordedMove};
use baghchal::tablebase::file::layer_path;
use baghchal::tablebase::solve::generate_tables;
use baghchal::tablebase::{TableRules, Tablebase, Wdl};
use baghchal::{Bitboard, Game, Position, Repetition, Rules, Side};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

const REFEREE: &str = env!("CARGO_BIN_EXE_referee");
const MOCK: &str = env!("CARGO_BIN_EXE_mock-engine");

fn quiet(_: &str, _: u64, _: u64) {}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("referee-tb-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Tables for CapturesToWin=1 without forced capture, generated once per test run.
fn tables_dir() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = temp_dir("tables-ctw1");
        generate_tables(&dir, TableRules::of(&rules(Repetition::Forbid)), 2, &quiet)
            .expect("generation");
        dir
    })
}

fn rules(repetition: Repetition) -> Rules {
    Rules {
        forced_capture: false,
        captures_to_win: 1,
        repetition,
    }
}

fn tables(repetition: Repetition) -> Tablebase {
    Tablebase::open(tables_dir(), TableRules::of(&rules(repetition))).expect("tables open")
}

/// Every movement-phase position with 0 goats captured (one empty point), both sides to move,
/// in a fixed order.
fn movement_positions() -> impl Iterator<Item = Position> {
    (0u32..1 << 25)
        .filter(|mask| mask.count_ones() == 4)
        .flat_map(|tigers| {
            (0..25)
                .filter(move |empty| tigers & (1 << empty) == 0)
                .flat_map(move |empty| {
                    let goats = !(tigers | 1 << empty) & ((1 << 25) - 1);
                    [Side::Goats, Side::Tigers].map(|side| {
                        Position::from_parts(Bitboard(tigers), Bitboard(goats), side, 0, 0)
                            .expect("a valid position")
                    })
                })
        })
}

/// The expected result and reason for a table value of a position.
fn expected(tables: &Tablebase, position: &Position) -> (GameResult, String) {
    let value = tables.probe(position).expect("covered");
    let mover = position.side_to_move();
    let winner = match value.wdl {
        Wdl::Draw => return (GameResult::Draw, "Tablebase: draw".into()),
        Wdl::Win => mover,
        Wdl::Loss => mover.opposite(),
    };
    let plies = value.plies_to_end.unwrap();
    let unit = if plies == 1 { "ply" } else { "plies" };
    (
        GameResult::win_for(winner),
        format!("Tablebase: {winner} win in {plies} {unit}"),
    )
}

/// Openings: one live movement-phase position for each side to move and table value, then a
/// placement-phase position one goat short of one (adjudicated after the goats' first move).
fn openings(tables: &Tablebase, rules: Rules) -> Vec<Position> {
    let mut found: Vec<Position> = Vec::new();
    let mut kinds = Vec::new();
    for position in movement_positions() {
        let kind = (
            position.side_to_move(),
            tables.probe(&position).unwrap().wdl,
        );
        let live = Game::new(position, rules).outcome().is_none();
        if live && !kinds.contains(&kind) {
            kinds.push(kind);
            found.push(position);
            if kinds.len() == 6 {
                break;
            }
        }
    }
    assert_eq!(kinds.len(), 6, "every side and value occurs: {kinds:?}");
    let placement = movement_positions()
        .filter(|p| p.side_to_move() == Side::Goats)
        .find_map(|p| {
            // Put one goat back into the hand.
            let goat = p.goats().into_iter().nth(7)?;
            let lifted =
                Position::from_parts(p.tigers(), p.goats().without(goat), Side::Goats, 1, 0)
                    .ok()?;
            let game = Game::new(lifted, rules);
            let children_live = game.legal_moves().iter().all(|&mv| {
                let mut next = game.clone();
                next.play_unchecked(mv);
                next.outcome().is_none()
            });
            children_live.then_some(lifted)
        })
        .expect("a placement position");
    found.push(placement);
    found
}

fn write_openings(dir: &Path, positions: &[Position]) -> PathBuf {
    let path = dir.join("openings.txt");
    let text: String = positions.iter().map(|p| format!("{p}\n")).collect();
    std::fs::write(&path, text).unwrap();
    path
}

/// Runs the referee with two mock engines; returns the output and the JSON records.
fn referee(dir: &Path, tag: &str, extra: &[String]) -> (Output, Vec<GameRecord>) {
    let json = dir.join(format!("{tag}.jsonl"));
    let mut args: Vec<String> = [
        "-engine",
        &format!("cmd={MOCK}"),
        "name=A",
        "arg=--seed=1",
        "-engine",
        &format!("cmd={MOCK}"),
        "name=B",
        "arg=--seed=2",
        "-each",
        "depth=1",
        "-seed",
        "3",
        "-jsonout",
        json.to_str().unwrap(),
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    args.extend(extra.iter().cloned());
    if !extra.iter().any(|arg| arg == "-captures-to-win") {
        args.extend(strings(&["-captures-to-win", "1"]));
    }
    let output = Command::new(REFEREE)
        .args(&args)
        .output()
        .expect("the referee runs");
    let records = if json.exists() {
        read_records(json.to_str().unwrap()).unwrap()
    } else {
        Vec::new()
    };
    (output, records)
}

fn strings(args: &[&str]) -> Vec<String> {
    args.iter().map(|s| s.to_string()).collect()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).to_string()
}

#[test]
fn games_reaching_the_tables_end_with_their_value() {
    let dir = temp_dir("adjudicate");
    let rules = rules(Repetition::Draw);
    let tables = tables(Repetition::Draw);
    let starts = openings(&tables, rules);
    let book = write_openings(&dir, &starts);
    let pgn = dir.join("games.pgn");
    let games = (2 * starts.len()).to_string();
    let tb = tables_dir().to_str().unwrap();
    let (output, records) = referee(
        &dir,
        "tb",
        &strings(&[
            "-tb",
            tb,
            "-repetition",
            "draw",
            "-openings",
            &format!("file={}", book.display()),
            "-games",
            &games,
            "-pgnout",
            pgn.to_str().unwrap(),
        ]),
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(stderr(&output).contains("tablebase adjudication"));
    assert_eq!(records.len(), 2 * starts.len());
    let mut draws = 0;
    for record in &records {
        let mut game = Game::new(record.start, rules);
        for recorded in &record.moves {
            game.play(recorded.mv).expect("recorded moves are legal");
        }
        let (result, reason) = expected(&tables, game.position());
        assert_eq!(record.termination, Termination::Adjudication);
        assert_eq!((record.result, &record.reason), (result, &reason));
        draws += usize::from(result == GameResult::Draw);
        // Movement positions end before any move; the placement start after the goats' move.
        let plies = usize::from(record.start.goats_in_hand());
        assert_eq!(record.moves.len(), plies, "{}", record.start);
    }
    assert!(draws >= 4, "two drawn openings at least, two games each");
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(text.contains("{Tablebase: draw}"), "{text}");
    assert!(text.contains("{Tablebase: tigers win in "), "{text}");
    assert!(text.contains("{Tablebase: goats win in "), "{text}");
    // The PGN-like records hold the same games and read back alike.
    let pgn_text = std::fs::read_to_string(&pgn).unwrap();
    assert!(pgn_text.contains("[Termination \"adjudication\"]"));
    assert!(pgn_text.contains("{Tablebase: draw} 1/2-1/2"), "{pgn_text}");
    // (JSON lines keep the moves only, not the engines' scores and times.)
    let moves_only = |records: Vec<GameRecord>| -> Vec<GameRecord> {
        records
            .into_iter()
            .map(|mut record| {
                for recorded in &mut record.moves {
                    *recorded = RecordedMove {
                        book: recorded.book,
                        ..RecordedMove::book(recorded.mv)
                    };
                }
                record
            })
            .collect()
    };
    let from_pgn = read_records(pgn.to_str().unwrap()).unwrap();
    assert_eq!(moves_only(from_pgn), moves_only(records.clone()));
    // Resuming finds every game recorded; merging reads them.
    let json = dir.join("tb.jsonl");
    let mut again = strings(&[
        "-tb",
        tb,
        "-repetition",
        "draw",
        "-openings",
        &format!("file={}", book.display()),
        "-games",
        &games,
        "-resume",
    ]);
    again.push("-pgnout".into());
    again.push(pgn.to_str().unwrap().into());
    let (output, resumed) = referee(&dir, "tb", &again);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(
        stderr(&output).contains(", 0 to play"),
        "{}",
        stderr(&output)
    );
    assert_eq!(resumed, records);
    let merged = Command::new(REFEREE)
        .args(["merge", pgn.to_str().unwrap(), json.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(merged.status.code(), Some(0), "{}", stderr(&merged));
    let wins = records
        .iter()
        .filter(|r| r.points_of("A") == Some(1.0))
        .count();
    let losses = records
        .iter()
        .filter(|r| r.points_of("A") == Some(0.0))
        .count();
    let score = format!("Score of A vs B: {wins} - {losses} - {draws}");
    assert!(
        String::from_utf8_lossy(&merged.stdout).contains(&score),
        "{score}: {}",
        String::from_utf8_lossy(&merged.stdout)
    );
}

#[test]
fn without_tb_the_engines_play_on() {
    let dir = temp_dir("plain");
    let tables = tables(Repetition::Draw);
    let starts = openings(&tables, rules(Repetition::Draw));
    let book = write_openings(&dir, &starts[..6]);
    let (output, records) = referee(
        &dir,
        "plain",
        &strings(&[
            "-repetition",
            "draw",
            "-maxplies",
            "40",
            "-openings",
            &format!("file={}", book.display()),
            "-games",
            "12",
        ]),
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(records.len(), 12);
    for record in &records {
        assert!(!record.moves.is_empty(), "{}", record.reason);
        assert!(!record.reason.contains("Tablebase"), "{}", record.reason);
        let by_max = record.reason == "Draw by adjudication: 40 plies";
        assert!(
            record.termination == Termination::Normal || by_max,
            "{}",
            record.reason
        );
    }
}

#[test]
fn table_draws_under_forbid_are_adjudicated_only_on_request() {
    let dir = temp_dir("forbid");
    let tables = tables(Repetition::Forbid);
    let draw = openings(&tables, rules(Repetition::Forbid))
        .into_iter()
        .find(|p| tables.probe(p).is_some_and(|v| v.wdl == Wdl::Draw))
        .unwrap();
    let book = write_openings(&dir, &[draw]);
    let tb = tables_dir().to_str().unwrap();
    let base = [
        "-tb",
        tb,
        "-maxplies",
        "60",
        "-openings",
        book.to_str().unwrap(),
    ];
    let (output, records) = referee(&dir, "default", &strings(&base));
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(records.len(), 2);
    for record in &records {
        assert!(!record.moves.is_empty(), "{}", record.reason);
        assert_ne!(record.reason, "Tablebase: draw");
    }
    let mut both = strings(&base);
    both.extend(strings(&["-tbadjudicate", "BOTH"]));
    let (output, records) = referee(&dir, "both", &both);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(stderr(&output).contains("guidance"), "{}", stderr(&output));
    for record in &records {
        assert_eq!(
            (record.result, record.reason.as_str(), record.moves.len()),
            (GameResult::Draw, "Tablebase: draw", 0)
        );
    }
}

#[test]
fn bad_tables_stop_the_referee_before_any_game() {
    let dir = temp_dir("bad");
    let corrupt = dir.join("corrupt");
    std::fs::create_dir_all(&corrupt).unwrap();
    let mut bytes = std::fs::read(layer_path(tables_dir(), 0)).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 0x55;
    std::fs::write(layer_path(&corrupt, 0), bytes).unwrap();
    let tb = tables_dir().to_str().unwrap();
    let missing = dir.join("missing");
    for (extra, needle) in [
        (
            vec!["-tb", missing.to_str().unwrap()],
            "table file not found",
        ),
        (vec!["-tb", corrupt.to_str().unwrap()], "corrupt table file"),
        (vec!["-tb", tb, "-forced-capture"], "made for rules"),
        (
            vec!["-tb", tb, "-captures-to-win", "2"],
            "CapturesToWin=1\", not",
        ),
        (
            vec!["-tb", tb, "-captures-to-win", "6"],
            "tablebases cover 1..5",
        ),
        (vec!["-tbadjudicate", "draw"], "--tb"),
        (vec!["-tb", tb, "-tbadjudicate", "sometimes"], "sometimes"),
    ] {
        let (output, records) = referee(&dir, "bad", &strings(&extra));
        let message = stderr(&output);
        assert_eq!(output.status.code(), Some(2), "{extra:?}: {message}");
        assert!(message.contains(needle), "{extra:?}: {message}");
        assert!(records.is_empty() && !dir.join("bad.jsonl").exists());
        assert!(!String::from_utf8_lossy(&output.stdout).contains("Started game"));
    }
}
