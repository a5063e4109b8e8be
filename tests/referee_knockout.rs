//! Tournaments beyond the round robin: a gauntlet with `-seeds N` and a knockout (bracket,
//! byes, tie-breaks, the bracket report, resume), checked from the records alone.

mod referee_support;

use baghchal::referee::record::GameRecord;
use baghchal::Side;
use referee_support::*;
use std::collections::{BTreeMap, BTreeSet};

/// The encounters of some records (engine names, sorted within each).
fn encounters(records: &[GameRecord]) -> BTreeSet<(String, String)> {
    records
        .iter()
        .map(|r| {
            let (a, b) = (r.goat.clone(), r.tiger.clone());
            if a < b {
                (a, b)
            } else {
                (b, a)
            }
        })
        .collect()
}

#[test]
fn gauntlet_seeds_play_everybody_else_only() {
    let dir = temp_dir("gauntlet");
    let mut args = mocks(&["A", "B", "C", "D", "E"]);
    args.extend(strings(&[
        "-tournament",
        "gauntlet",
        "-seeds",
        "2",
        "-maxplies",
        "6",
    ]));
    let (output, records) = run(&dir, "seeds", &args);
    assert_ok(&output);
    let pairs = |list: &[(&str, &str)]| -> BTreeSet<(String, String)> {
        list.iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect()
    };
    assert_eq!(
        encounters(&records),
        pairs(&[
            ("A", "C"),
            ("A", "D"),
            ("A", "E"),
            ("B", "C"),
            ("B", "D"),
            ("B", "E")
        ])
    );
    assert_eq!(records.len(), 12);
    // One seed is the plain gauntlet.
    let mut args = mocks(&["A", "B", "C"]);
    args.extend(strings(&["-tournament", "gauntlet", "-maxplies", "6"]));
    let (output, records) = run(&dir, "one", &args);
    assert_ok(&output);
    assert_eq!(encounters(&records), pairs(&[("A", "B"), ("A", "C")]));
    for (extra, needle) in [
        (vec!["-tournament", "gauntlet", "-seeds", "3"], "--seeds 3"),
        (vec!["-seeds", "2"], "--seeds is for --tournament gauntlet"),
        (vec!["-tournament", "knockout", "-rounds", "2"], "--games"),
        (vec!["-tournament", "knockout", "-shard", "1/2"], "knockout"),
    ] {
        let mut args = mocks(&["A", "B", "C"]);
        args.extend(strings(&extra));
        let (output, records) = run(&dir, "bad", &args);
        assert_eq!(output.status.code(), Some(2), "{extra:?}");
        assert!(
            text(&output.stderr).contains(needle),
            "{}",
            text(&output.stderr)
        );
        assert!(records.is_empty());
    }
}

/// Points of each engine in each (round, encounter), from the records.
fn match_scores(records: &[GameRecord]) -> BTreeMap<(u32, String, String), (f64, f64, usize)> {
    let mut scores = BTreeMap::new();
    for record in records {
        let (goat, tiger) = (
            record.result.points_for(Side::Goats),
            record.result.points_for(Side::Tigers),
        );
        let (a, b, pa, pb) = if record.goat < record.tiger {
            (&record.goat, &record.tiger, goat, tiger)
        } else {
            (&record.tiger, &record.goat, tiger, goat)
        };
        let entry = scores
            .entry((record.round, a.clone(), b.clone()))
            .or_insert((0.0, 0.0, 0));
        entry.0 += pa;
        entry.1 += pb;
        entry.2 += 1;
    }
    scores
}

#[test]
fn a_knockout_of_five_has_byes_a_consistent_bracket_and_resumes() {
    let dir = temp_dir("knockout");
    // Random movers tie every match (the tigers win every game); C and E lose every game by an
    // illegal move, so their matches are decided in two games.
    let illegal: &[&str] = &["--behaviour=illegal"];
    let engines = [
        ("A", &[][..]),
        ("B", &[]),
        ("C", illegal),
        ("D", &[]),
        ("E", illegal),
    ];
    let mut args = mocks_with(&engines);
    args.extend(strings(&[
        "-tournament",
        "knockout",
        "-maxplies",
        "30",
        "-seed",
        "2",
        "-concurrency",
        "2",
    ]));
    let (output, records) = run(&dir, "full", &args);
    assert_ok(&output);
    let out = text(&output.stdout);
    let scores = match_scores(&records);
    // Round 1: only seeds 4 and 5 play (8 places, three byes for A, B and C).
    let round1: Vec<_> = scores.keys().filter(|k| k.0 == 1).collect();
    assert_eq!(round1.len(), 1);
    assert_eq!((round1[0].1.as_str(), round1[0].2.as_str()), ("D", "E"));
    for bye in ["A", "B", "C"] {
        assert!(
            out.contains(&format!("Knockout round 1: {bye} has a bye")),
            "{out}"
        );
    }
    // Each round's players are the previous round's winners; a match's winner has more
    // points, or, still tied after 10 tie-break games (12 games), is the higher seed.
    let winner = |key: &(u32, String, String)| -> String {
        let (a, b, games) = scores[key];
        assert!(
            games >= 2 && (a != b || games == 12),
            "{key:?}: {a}-{b} in {games}"
        );
        assert!(
            games == 2 || games % 2 == 0,
            "tie-breaks come two at a time"
        );
        if a > b || (a == b && key.1 < key.2) {
            key.1.clone()
        } else {
            key.2.clone()
        }
    };
    let mut field: BTreeSet<String> = ["A", "B", "C"].iter().map(|s| s.to_string()).collect();
    field.insert(winner(round1[0]));
    for round in 2..=3 {
        let keys: Vec<_> = scores.keys().filter(|k| k.0 == round).cloned().collect();
        let players: BTreeSet<String> = keys
            .iter()
            .flat_map(|k| [k.1.clone(), k.2.clone()])
            .collect();
        assert_eq!(players, field, "round {round}");
        field = keys.iter().map(winner).collect();
    }
    assert_eq!(field.len(), 1);
    // D beat E and B beat C in two games; A - D and A - B went to the end of the tie-breaks.
    assert_eq!(
        scores[&(1, "D".to_string(), "E".to_string())],
        (2.0, 0.0, 2)
    );
    assert_eq!(
        scores[&(2, "B".to_string(), "C".to_string())],
        (2.0, 0.0, 2)
    );
    assert_eq!(scores[&(3, "A".to_string(), "B".to_string())].2, 12);
    assert!(out.contains("A goes through as the higher seed"), "{out}");
    let champion = field.into_iter().next().unwrap();
    assert!(
        out.contains(&format!("Knockout winner: {champion}")),
        "{out}"
    );
    // Seeds 1 and 2 can only meet in the final: A and B never meet before round 3.
    assert!(scores
        .keys()
        .all(|k| k.0 == 3 || !(k.1 == "A" && k.2 == "B")));
    // Resume after the first three games: the same tournament.
    let json = path(&dir, "full.jsonl");
    let lines: Vec<String> = std::fs::read_to_string(&json)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect();
    let partial = path(&dir, "partial.jsonl");
    std::fs::write(&partial, lines[..3].join("\n") + "\n").unwrap();
    let mut args = mocks_with(&engines);
    args.extend(strings(&[
        "-tournament",
        "knockout",
        "-maxplies",
        "30",
        "-seed",
        "2",
        "-resume",
    ]));
    let (output, resumed) = run(&dir, "partial", &args);
    assert_ok(&output);
    assert_eq!(without_times(&resumed), without_times(&records));
    assert!(text(&output.stdout).contains(&format!("Knockout winner: {champion}")));
}
