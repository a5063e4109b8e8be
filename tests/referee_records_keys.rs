//! The referee's record keys (`-pgnout`/`-jsonout file=F nodes=true ... min=true`) and final
//! positions (`-epdout`), end to end: a match of our engine writes them, and every reader of
//! records (reading back, `referee merge`, `-resume`) reads every variant.

mod referee_support;

use baghchal::referee::outcome::GameResult;
use baghchal::referee::record::epd::{final_position, parse_line};
use baghchal::referee::record::read_records;
use baghchal::{Game, Rules};
use referee_support::*;

const KEYS: &str = "nodes=true seldepth=true nps=true hashfull=true tbhits=true pv=true timeleft=true latency=true";

/// A two-game match of our engine at depth 2 under a clock, with these output options.
fn match_args(outputs: &[String]) -> Vec<String> {
    let mut args = engine("deep", "depth=2 tc=60+1");
    args.extend(engine("shallow", "depth=1 tc=60+1"));
    args.extend(words("-games 2 -rounds 1 -seed 3 -maxplies 40"));
    args.extend(outputs.iter().cloned());
    args
}

#[test]
fn every_key_is_written_and_read_back_from_both_formats() {
    let dir = temp_dir("keys");
    let (pgn, json, epd) = (
        path(&dir, "g.pgn"),
        path(&dir, "g.jsonl"),
        path(&dir, "end.epd"),
    );
    let mut outputs = vec!["-pgnout".to_string(), format!("file={pgn}")];
    outputs.extend(words(KEYS));
    outputs.extend(["-jsonout".to_string(), format!("file={json}")]);
    outputs.extend(words(KEYS));
    outputs.extend(["-epdout".to_string(), format!("file={epd}")]);
    let output = referee(&match_args(&outputs));
    assert!(output.status.success(), "{}", stderr(&output));
    let text = std::fs::read_to_string(&pgn).unwrap();
    for key in [
        ", tl=",
        ", latency=",
        ", n=",
        ", sd=",
        ", nps=",
        ", hashfull=",
        ", tbhits=",
        ", pv=\"",
    ] {
        assert!(text.contains(key), "{key} missing in {text}");
    }
    let from_pgn = read_records(&pgn).unwrap();
    let from_json = read_records(&json).unwrap();
    assert_eq!(from_pgn.len(), 2);
    for (a, b) in from_pgn.iter().zip(&from_json) {
        assert_eq!(a.moves.len(), b.moves.len());
        for (x, y) in a.moves.iter().zip(&b.moves) {
            assert_eq!(x.details, y.details, "game {}", a.number);
            if x.book {
                continue;
            }
            let details = &x.details;
            assert!(details.figures.nodes.is_some_and(|n| n > 0), "{details:?}");
            assert!(details.figures.seldepth.is_some() && details.figures.nps.is_some());
            assert!(details.figures.hashfull.is_some() && details.figures.tbhits.is_some());
            // Our engine's pv starts with the move it played.
            let pv = details.figures.pv.as_deref().unwrap();
            assert_eq!(pv.split(' ').next(), Some(x.mv.to_string().as_str()));
            // The clock: 60 s and 1 s a move, less the time used; never more than 60 s + moves.
            let left = details.time_left_ms.unwrap();
            assert!(left > 50_000 && left <= 100_000, "{left}");
            // Latency: measured minus reported, at most the measured time.
            let latency = details.latency_ms.unwrap();
            assert!(
                latency <= x.time_ms.unwrap() as i64,
                "{latency} {:?}",
                x.time_ms
            );
        }
    }
    // Final positions: one line per game, the record's last position, its result.
    let lines: Vec<String> = std::fs::read_to_string(&epd)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect();
    assert_eq!(lines.len(), 2);
    for (line, record) in lines.iter().zip(&from_json) {
        let end = parse_line(line).unwrap();
        assert_eq!(end.position, final_position(record));
        let mut game = Game::new(record.start, Rules::default());
        for played in &record.moves {
            game.play(played.mv).unwrap();
        }
        assert_eq!(end.position, *game.position());
        assert_eq!((end.result, end.game), (record.result, record.number));
        assert!(matches!(
            end.result,
            GameResult::GoatsWin | GameResult::TigersWin | GameResult::Draw
        ));
    }
    // merge keeps every key.
    let merged = path(&dir, "merged.pgn");
    let output = referee(&[
        "merge".to_string(),
        json.clone(),
        "-pgnout".to_string(),
        merged.clone(),
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let again = read_records(&merged).unwrap();
    for (a, b) in again.iter().zip(&from_json) {
        let details = |r: &baghchal::referee::record::GameRecord| {
            r.moves
                .iter()
                .map(|m| m.details.clone())
                .collect::<Vec<_>>()
        };
        assert_eq!(details(a), details(b));
    }
}

#[test]
fn minimal_records_are_read_by_merge_and_resume() {
    let dir = temp_dir("min");
    let (pgn, json) = (path(&dir, "min.pgn"), path(&dir, "min.jsonl"));
    let outputs = words(&format!(
        "-pgnout {pgn} min=true -jsonout file={json} min=true"
    ));
    let output = referee(&match_args(&outputs));
    assert!(output.status.success(), "{}", stderr(&output));
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert!(
        !text.contains("TimeControl") && !text.contains("s}"),
        "{text}"
    );
    let json_text = std::fs::read_to_string(&json).unwrap();
    assert!(!json_text.contains("time_ms") && !json_text.contains("\"reason\""));
    let from_pgn = read_records(&pgn).unwrap();
    let from_json = read_records(&json).unwrap();
    assert_eq!(from_pgn.len(), 2);
    for (a, b) in from_pgn.iter().zip(&from_json) {
        assert_eq!(
            a.moves.iter().map(|m| (m.mv, m.book)).collect::<Vec<_>>(),
            b.moves.iter().map(|m| (m.mv, m.book)).collect::<Vec<_>>()
        );
        assert_eq!((a.result, a.termination), (b.result, b.termination));
    }
    for file in [&pgn, &json] {
        let merged = referee(&["merge".to_string(), file.clone()]);
        assert!(merged.status.success(), "{}", stderr(&merged));
        assert!(stdout(&merged).contains("Score of deep vs shallow: "));
    }
    // Resuming from minimal records: every game is there, nothing is played again.
    let mut resume = outputs.clone();
    resume.push("-resume".to_string());
    let output = referee(&match_args(&resume));
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(
        stderr(&output).contains("resuming: 2 games already recorded"),
        "{}",
        stderr(&output)
    );
    assert!(
        !stdout(&output).contains("Started game"),
        "{}",
        stdout(&output)
    );
    assert_eq!(read_records(&json).unwrap().len(), 2);
}

#[test]
fn bad_record_keys_are_clear_errors() {
    let dir = temp_dir("badkeys");
    for (outputs, needle) in [
        (
            format!("-pgnout file={} nodez=true", path(&dir, "a.pgn")),
            "unknown -pgnout key \"nodez\"",
        ),
        (
            format!("-jsonout file={} pv=maybe", path(&dir, "a.jsonl")),
            "invalid -jsonout pv \"maybe\"",
        ),
        (
            format!("-epdout file={} size=3", path(&dir, "e.epd")),
            "unknown -epdout key \"size\"",
        ),
    ] {
        let output = referee(&match_args(&words(&outputs)));
        assert_eq!(output.status.code(), Some(2), "{outputs}");
        assert!(stderr(&output).contains(needle), "{}", stderr(&output));
    }
}
