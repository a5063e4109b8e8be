//! Books (`-openings file= format= plies= order= start=`): our own PGN-like and JSON game
//! records and position-string files as openings, bad books reported before any game, and the
//! way games use them: `-repeat`, `-noswap`, `-reverse`.

mod referee_support;

use referee_support::*;

/// A first match whose records serve as books: 4 games of at most 12 plies.
fn source_records(
    dir: &std::path::Path,
) -> (String, String, Vec<baghchal::referee::record::GameRecord>) {
    let pgn = path(dir, "source.pgn");
    let mut args = mocks(&["A", "B"]);
    args.extend(strings(&[
        "-rounds",
        "2",
        "-maxplies",
        "12",
        "-seed",
        "4",
        "-pgnout",
        &pgn,
    ]));
    let (output, records) = run(dir, "source", &args);
    assert_ok(&output);
    assert_eq!(records.len(), 4);
    (pgn, path(dir, "source.jsonl"), records)
}

#[test]
fn game_records_play_as_books_cut_to_plies() {
    let dir = temp_dir("records");
    let (pgn, json, source) = source_records(&dir);
    // The PGN copy under a name without the extension needs format=pgn.
    let renamed = path(&dir, "source-pgn.dat");
    std::fs::copy(&pgn, &renamed).unwrap();
    for (tag, book) in [
        ("from-json", vec![format!("file={json}")]),
        ("from-pgn", vec![format!("file={pgn}")]),
        (
            "from-dat",
            vec![format!("file={renamed}"), "format=pgn".to_string()],
        ),
    ] {
        let mut args = mocks(&["C", "D"]);
        args.extend(strings(&[
            "-rounds",
            "4",
            "-repeat",
            "1",
            "-maxplies",
            "20",
            "-seed",
            "1",
        ]));
        args.push("-openings".to_string());
        args.extend(book);
        args.extend(strings(&["plies=5", "order=sequential", "start=2"]));
        let (output, records) = run(&dir, tag, &args);
        assert_ok(&output);
        assert_eq!(records.len(), 8, "{tag}");
        // A new opening every game (-repeat 1), in file order from the second game record.
        for (index, record) in records.iter().enumerate() {
            let from = &source[(index + 1) % source.len()];
            let expected: Vec<String> = from
                .moves
                .iter()
                .take(5)
                .map(|m| m.mv.to_string())
                .collect();
            assert_eq!(book_moves(record), expected, "{tag} game {}", record.number);
            assert_eq!(record.start, from.start);
        }
    }
    // Without plies= a whole game is used: records that end by the rules are refused, others
    // (ended at -maxplies) are played on.
    let mut args = mocks(&["C", "D"]);
    args.extend(strings(&[
        "-maxplies",
        "30",
        "-openings",
        &format!("file={json}"),
    ]));
    let (output, records) = run(&dir, "whole", &args);
    let over = source
        .iter()
        .any(|r| r.termination != baghchal::referee::outcome::Termination::Adjudication);
    assert_eq!(output.status.success(), !over, "{}", text(&output.stderr));
    if !over {
        assert!(records.iter().all(|r| book_moves(r).len() == 12));
    }
}

#[test]
fn bad_books_name_the_file_the_line_and_the_reason_before_any_game() {
    let dir = temp_dir("bad");
    let cases = [
        // An illegal move on line 3 (a tiger moving in the goats' turn).
        (
            "bad.epd",
            "moves c3 a1b2\n# fine so far\nmoves a1b2\n",
            vec![],
            "line 3: ply 1 \"a1b2\"",
        ),
        // A capture that ends the game when one capture wins.
        (
            "over.epd",
            "moves b2 a1c3 c4\n",
            vec!["-captures-to-win", "1"],
            "line 1: ply 3 \"c4\"",
        ),
        ("torn.jsonl", "{\"game\": 1\n", vec![], "line 1"),
        ("empty.pgn", "\n\n", vec![], "no opening"),
    ];
    for (name, content, extra, needle) in cases {
        let file = path(&dir, name);
        std::fs::write(&file, content).unwrap();
        let mut args = mocks(&["A", "B"]);
        args.extend(strings(&extra));
        args.extend(strings(&["-openings", &format!("file={file}")]));
        let (output, records) = run(&dir, name, &args);
        let error = text(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{name}: {error}");
        assert!(
            error.contains(&file) && error.contains(needle),
            "{name}: {error}"
        );
        assert!(records.is_empty() && !text(&output.stdout).contains("Started game"));
    }
    // The same position-string line is fine under the default rules.
    let file = path(&dir, "over.epd");
    let mut args = mocks(&["A", "B"]);
    args.extend(strings(&[
        "-maxplies",
        "6",
        "-openings",
        &format!("file={file}"),
    ]));
    let (output, records) = run(&dir, "fine", &args);
    assert_ok(&output);
    assert!(records
        .iter()
        .all(|r| book_moves(r) == ["b2", "a1c3", "c4"]));
    // Unknown formats and keys are refused.
    for bad in ["format=fen", "plies=x", "depth=3"] {
        let mut args = mocks(&["A", "B"]);
        args.extend(strings(&["-openings", &format!("file={file}"), bad]));
        let (output, _) = run(&dir, "key", &args);
        assert_eq!(output.status.code(), Some(2), "{bad}");
    }
}

/// A book of distinct one-move openings: `moves a1`, `moves a2`, ...
fn distinct_book(dir: &std::path::Path) -> String {
    let file = path(dir, "distinct.epd");
    let lines: Vec<String> = ["b1", "c1", "d1", "a2", "b2", "c2", "d2", "e2"]
        .iter()
        .map(|square| format!("moves {square}"))
        .collect();
    std::fs::write(&file, lines.join("\n") + "\n").unwrap();
    file
}

fn sides_and_openings(records: &[baghchal::referee::record::GameRecord]) -> Vec<(String, String)> {
    records
        .iter()
        .map(|r| (r.goat.clone(), book_moves(r).join(" ")))
        .collect()
}

fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect()
}

#[test]
fn repeat_noswap_and_reverse_set_openings_and_sides() {
    let dir = temp_dir("repeat");
    let book = distinct_book(&dir);
    let play = |tag: &str, extra: &[&str]| {
        let mut args = mocks(&["A", "B"]);
        args.extend(strings(&[
            "-maxplies",
            "4",
            "-seed",
            "1",
            "-openings",
            &book,
        ]));
        args.extend(strings(extra));
        let (output, records) = run(&dir, tag, &args);
        assert_ok(&output);
        sides_and_openings(&records)
    };
    // Default: each opening twice, sides swapped (a bare -repeat is the same).
    let default = play("default", &["-games", "4"]);
    assert_eq!(
        default,
        pairs(&[("A", "b1"), ("B", "b1"), ("A", "c1"), ("B", "c1")])
    );
    assert_eq!(play("bare", &["-games", "4", "-repeat"]), default);
    assert_eq!(play("bare-last", &["-games", "4", "-repeat", "2"]), default);
    assert_eq!(
        play("three", &["-games", "4", "-repeat", "3"]),
        pairs(&[("A", "b1"), ("B", "b1"), ("A", "b1"), ("B", "c1")])
    );
    assert_eq!(
        play("one", &["-games", "3", "-repeat", "1"]),
        pairs(&[("A", "b1"), ("B", "c1"), ("A", "d1")])
    );
    assert_eq!(
        play("noswap", &["-games", "3", "-noswap"]),
        pairs(&[("A", "b1"), ("A", "b1"), ("A", "c1")])
    );
    assert_eq!(
        play("reverse", &["-games", "3", "-reverse"]),
        pairs(&[("B", "b1"), ("A", "b1"), ("B", "c1")])
    );
    assert_eq!(
        play("both", &["-games", "2", "-reverse", "-noswap"]),
        pairs(&[("B", "b1"), ("B", "b1")])
    );
    // -games and -rounds multiply: 3 rounds of 2 games.
    assert_eq!(play("rounds", &["-games", "2", "-rounds", "3"]).len(), 6);
    let mut args = mocks(&["A", "B"]);
    args.extend(strings(&["-repeat", "0"]));
    assert_eq!(run(&dir, "zero", &args).0.status.code(), Some(2));
}

#[test]
fn records_with_per_move_keys_and_minimal_records_play_as_books() {
    let dir = temp_dir("keyed");
    let pgn = path(&dir, "keyed.pgn");
    let json = path(&dir, "min.jsonl");
    let mut args = mocks(&["A", "B"]);
    args.extend(strings(&["-rounds", "2", "-maxplies", "12", "-seed", "5"]));
    args.extend(strings(&[
        "-pgnout",
        &format!("file={pgn}"),
        "nodes=true",
        "pv=true",
        "-jsonout",
        &format!("file={json}"),
        "min=true",
    ]));
    assert_ok(&referee(&args));
    let keyed = std::fs::read_to_string(&pgn).unwrap();
    assert!(keyed.contains(", n=1"), "{keyed}");
    let source = baghchal::referee::record::read_records(&pgn).unwrap();
    assert_eq!(source.len(), 4);
    let minimal = baghchal::referee::record::read_records(&json).unwrap();
    assert!(
        minimal
            .iter()
            .all(|r| r.moves.iter().all(|m| m.time_ms.is_none())),
        "min=true records keep no times"
    );
    for (tag, book) in [("keyed-pgn", &pgn), ("min-json", &json)] {
        let mut args = mocks(&["C", "D"]);
        args.extend(strings(&[
            "-rounds",
            "2",
            "-repeat",
            "1",
            "-maxplies",
            "20",
        ]));
        args.extend(strings(&[
            "-openings",
            &format!("file={book}"),
            "plies=5",
            "order=sequential",
        ]));
        let (output, records) = run(&dir, tag, &args);
        assert_ok(&output);
        assert_eq!(records.len(), 4, "{tag}");
        for (record, from) in records.iter().zip(&source) {
            let expected: Vec<String> = from
                .moves
                .iter()
                .take(5)
                .map(|m| m.mv.to_string())
                .collect();
            assert_eq!(book_moves(record), expected, "{tag} game {}", record.number);
            assert_eq!(record.start, from.start, "{tag}");
        }
    }
}
