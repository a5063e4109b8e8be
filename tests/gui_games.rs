//! The GUI's games for players, through its real sockets: levels reach the engine as options,
//! games survive a server restart (and a corrupt store file is set aside), takeback restores
//! the clocks, two people play to the end, and the tablebase explorer and review agree with
//! `baghchal tb probe` on small tables built here.

mod gui_support;

use baghchal::gui::levels::Level;
use gui_support::{temp_dir, Client, Gui};
use serde_json::{json, Value};
use std::process::Command;
use std::time::Duration;

const WAIT: Duration = Duration::from_secs(30);

fn is_state(v: &Value) -> bool {
    v["type"] == "state"
}

/// An engine spec whose input is copied into `log` before the engine reads it.
fn logged_engine(log: &std::path::Path) -> String {
    format!(
        "arg=tee -a {} | {}",
        log.display(),
        env!("CARGO_BIN_EXE_baghchal")
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_level_sets_the_engine_options_and_names_the_engine() {
    let dir = temp_dir("gui-level");
    let log = dir.join("input.log");
    let arg = logged_engine(&log);
    let gui = Gui::start(&["--engine", "cmd=/bin/sh", "arg=-c", &arg, "name=logged"]);
    let mut page = Client::connect(&gui).await;
    page.until(WAIT, is_state).await;
    page.send(json!({"type": "play", "engine": 0, "human": "tigers", "level": 2}))
        .await;
    let state = page
        .until(WAIT, |v| {
            is_state(v) && v["game"]["moves"].as_array().is_some_and(|m| !m.is_empty())
        })
        .await;
    assert_eq!(state["players"]["goats"], "logged (level 2)", "{state}");
    assert_eq!(state["level"], "level 2");
    let input = std::fs::read_to_string(&log).unwrap();
    let skill = Level::Level(2).skill();
    assert!(
        input.contains(&format!("setoption name Skill Level value {skill}")),
        "{input}"
    );
    assert!(input.contains("setoption name UCI_LimitStrength value false"));
    // The level's move time, not the form's limits.
    assert!(input.contains("go movetime 500"), "{input}");
    page.send(json!({"type": "export", "format": "pgn"})).await;
    let export = page.until(WAIT, |v| v["type"] == "export").await;
    assert!(
        export["text"]
            .as_str()
            .unwrap()
            .contains("logged (level 2)"),
        "{export}"
    );
    // Full strength: Skill Level 20 and the limits chosen.
    std::fs::write(&log, "").unwrap();
    page.send(
        json!({"type": "play", "engine": 0, "human": "tigers", "level": "full",
        "limits": {"movetime_ms": 70}}),
    )
    .await;
    page.until(WAIT, |v| {
        is_state(v)
            && v["players"]["goats"] == "logged (full strength)"
            && v["game"]["moves"].as_array().is_some_and(|m| !m.is_empty())
    })
    .await;
    let input = std::fs::read_to_string(&log).unwrap();
    assert!(
        input.contains("setoption name Skill Level value 20"),
        "{input}"
    );
    assert!(input.contains("go movetime 70"), "{input}");
    // Bad levels and Perfect without tables are refused; the server goes on.
    for (level, needle) in [(json!(9), "level 9"), (json!("perfect"), "Perfect")] {
        page.send(json!({"type": "play", "engine": 0, "level": level}))
            .await;
        let error = page.until(WAIT, |v| v["type"] == "error").await;
        assert!(
            error["message"].as_str().unwrap().contains(needle),
            "{error}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Plays `moves` as the page would after `from` moves, returning the last state.
async fn play(page: &mut Client, from: usize, moves: &[&str]) -> Value {
    let mut state = Value::Null;
    for (index, mv) in moves.iter().enumerate() {
        page.send(json!({"type": "move", "move": mv})).await;
        state = page
            .until(WAIT, |v| {
                v["type"] == "error"
                    || is_state(v)
                        && v["game"]["moves"].as_array().map(Vec::len) == Some(from + index + 1)
            })
            .await;
        assert!(is_state(&state), "{mv}: {state}");
    }
    state
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_people_play_to_the_end_and_takeback_restores_the_clocks() {
    let gui = Gui::start(&[]);
    let mut page = Client::connect(&gui).await;
    page.until(WAIT, is_state).await;
    page.send(json!({"type": "play", "rules": {"captures_to_win": 1},
        "limits": {"clock_ms": 60000}}))
        .await;
    let state = page
        .until(WAIT, |v| is_state(v) && v["mode"] == "play")
        .await;
    assert_eq!(state["people"], true);
    assert_eq!(state["clocks"]["goats_ms"], 60000);
    tokio::time::sleep(Duration::from_millis(300)).await;
    let state = play(&mut page, 0, &["b2"]).await;
    let goats = state["clocks"]["goats_ms"].as_u64().unwrap();
    // No review during a game.
    page.send(json!({"type": "review"})).await;
    let error = page.until(WAIT, |v| v["type"] == "error").await;
    assert!(
        error["message"].as_str().unwrap().contains("finished game"),
        "{error}"
    );
    assert!(goats <= 59_700, "{goats}");
    let state = play(&mut page, 1, &["e5d5"]).await;
    // The goats' clock runs again (the view counts it down to now).
    let running =
        |state: &Value, side: &str| state["clocks"][format!("{side}_ms")].as_u64().unwrap();
    assert!(
        (goats - 2000..=goats).contains(&running(&state, "goats")),
        "{state}"
    );
    let tigers = running(&state, "tigers");
    assert!(tigers < 60_000, "{state}");
    // Between two people takeback takes back one move, clocks as they stood.
    page.send(json!({"type": "takeback"})).await;
    let state = page
        .until(WAIT, |v| is_state(v) && v["game"]["ply"] == 1)
        .await;
    assert_eq!(running(&state, "goats"), goats);
    assert!(
        (58_000..=60_000).contains(&running(&state, "tigers")),
        "{state}"
    );
    page.send(json!({"type": "takeback"})).await;
    let state = page
        .until(WAIT, |v| is_state(v) && v["game"]["ply"] == 0)
        .await;
    assert!(running(&state, "goats") > goats, "{state}");
    assert_eq!(running(&state, "tigers"), 60_000);
    // Both sides by hand, to the end: the tiger takes the goat on b2.
    let state = play(&mut page, 0, &["b2", "e5d5", "c4", "a1c3"]).await;
    assert_eq!(state["end"]["result"], "0-1", "{state}");
    assert!(state["end"]["reason"]
        .as_str()
        .unwrap()
        .contains("Tigers win"));
    assert_eq!(state["players"]["goats"], "Goats player");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_survives_a_restart_and_a_corrupt_store_is_set_aside() {
    let data = temp_dir("gui-store");
    let data_arg = data.to_str().unwrap();
    // The goats' first placement, then candidates for their second (the engine's reply may
    // land on one).
    let moves = ["c3", "d4", "b4"];
    {
        let gui = Gui::start(&["--data", data_arg]);
        let mut page = Client::connect(&gui).await;
        page.until(WAIT, is_state).await;
        page.send(
            json!({"type": "play", "engine": 0, "human": "goats", "level": 3,
            "limits": {"clock_ms": 120000}}),
        )
        .await;
        page.until(WAIT, |v| is_state(v) && v["mode"] == "play")
            .await;
        page.send(json!({"type": "move", "move": moves[0]})).await;
        let state = page
            .until(WAIT, |v| {
                is_state(v) && v["game"]["moves"].as_array().map(Vec::len) == Some(2)
            })
            .await;
        let mut gui = gui;
        assert!(gui.interrupt());
        // Back after a restart: the same game, level and clocks.
        let gui = Gui::start(&["--data", data_arg]);
        let mut page = Client::connect(&gui).await;
        let back = page.until(WAIT, is_state).await;
        assert_eq!(back["mode"], "play");
        assert_eq!(back["game"]["moves"], state["game"]["moves"]);
        assert_eq!(back["players"], state["players"]);
        assert_eq!(back["level"], "level 3");
        assert_eq!(back["clocks"]["tigers_ms"], state["clocks"]["tigers_ms"]);
        assert!(back["notice"].is_null());
        // It goes on, with a placement on a point the engine's reply left empty.
        let replies: Vec<&str> = state["game"]["moves"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|mv| mv.as_str())
            .collect();
        let next = moves[1..]
            .iter()
            .find(|point| !replies.iter().any(|mv| mv.ends_with(*point)))
            .expect("an empty point");
        page.send(json!({"type": "move", "move": next})).await;
        page.until(WAIT, |v| {
            is_state(v) && v["game"]["moves"].as_array().map(Vec::len) == Some(4)
        })
        .await;
    }
    // A damaged store: reported to the page, set aside, not loaded.
    let store = data.join("game.json");
    let text = std::fs::read_to_string(&store).unwrap();
    std::fs::write(&store, &text[..text.len() - 20]).unwrap();
    let gui = Gui::start(&["--data", data_arg]);
    let mut page = Client::connect(&gui).await;
    let state = page.until(WAIT, is_state).await;
    let notice = state["notice"].as_str().unwrap_or_default();
    assert!(notice.contains("corrupt"), "{state}");
    assert_eq!(state["game"]["moves"], json!([]));
    assert_eq!(state["mode"], "analyse");
    let aside = std::fs::read_dir(&data)
        .unwrap()
        .flatten()
        .filter(|e| {
            e.file_name()
                .to_string_lossy()
                .starts_with("game.json.corrupt-")
        })
        .count();
    assert_eq!(aside, 1);
    drop(gui);
    let _ = std::fs::remove_dir_all(&data);
}

/// `baghchal tb probe DIR POSITION`: the value line (`win`, `draw`, `loss`) and the distance.
fn probe(dir: &std::path::Path, position: &str) -> (String, Option<u16>) {
    let output = Command::new(env!("CARGO_BIN_EXE_baghchal"))
        .args(["tb", "probe", dir.to_str().unwrap(), position])
        .output()
        .unwrap();
    let text = String::from_utf8(output.stdout).unwrap();
    let field = |name: &str| {
        text.lines()
            .find_map(|l| l.strip_prefix(name))
            .unwrap_or_else(|| panic!("no {name} in {text:?}"))
            .trim()
            .to_string()
    };
    (field("value:"), field("distance:").parse().ok())
}

/// Builds tables into a fresh folder: `tb gen` with `args`.
fn tables(args: &[&str]) -> std::path::PathBuf {
    let dir = temp_dir("gui-tables");
    let status = Command::new(env!("CARGO_BIN_EXE_baghchal"))
        .args(["tb", "gen", "--out"])
        .arg(&dir)
        .args(args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .unwrap();
    assert!(status.success());
    dir
}

/// The position after `moves` from `start`, under `rules`, by the server's parser and rules.
fn after(gui: &Gui, start: &str, moves: &[&str], rules: &Value) -> String {
    let request = json!({"position": start, "moves": moves, "rules": rules});
    let (status, body) = gui.http("POST", "/api/position", &request.to_string());
    assert_eq!(status, 200, "{body}");
    let body: Value = serde_json::from_str(&body).unwrap();
    body["game"]["position"]["fen"]
        .as_str()
        .unwrap()
        .to_string()
}

/// The mover's value after a move, from `tb probe` of the position after it.
fn flipped(value: &str) -> &str {
    match value {
        "win" => "loss",
        "loss" => "win",
        other => other,
    }
}

/// Sets up `position` in analysis and waits for the explorer to give every move a value
/// (placement layers answer once their checksums are checked, in the background).
async fn explore(page: &mut Client, position: &str, rules: &Value) -> Value {
    page.send(json!({"type": "setup", "position": position, "rules": rules}))
        .await;
    let deadline = std::time::Instant::now() + WAIT;
    loop {
        let state = page
            .until(WAIT, |v| {
                is_state(v) && v["game"]["position"]["fen"] == position
            })
            .await;
        let moves = state["explorer"]["moves"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        if !moves.is_empty() && moves.iter().all(|m| !m["value"].is_null()) {
            return state;
        }
        assert!(std::time::Instant::now() < deadline, "no values: {state}");
        tokio::time::sleep(Duration::from_millis(100)).await;
        page.send(json!({"type": "state"})).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_explorer_agrees_with_tb_probe_in_both_phases() {
    // Captures to win 1 with the placement layers of one goat in hand: small and quick. The
    // server reads a copy with the placement layer compressed only (`tb gen --compress`), and
    // is compared with `tb probe` on the uncompressed tables.
    let tables = tables(&[
        "--captures-to-win",
        "1",
        "--placement",
        "--max-in-hand",
        "1",
        "--compress",
    ]);
    let packed = temp_dir("gui-tables-packed");
    for entry in std::fs::read_dir(&tables).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_str().unwrap().to_string();
        if name.ends_with(".bctz") || name.starts_with("layer-") {
            std::fs::copy(&path, packed.join(&name)).unwrap();
        }
    }
    assert!(packed.join("place-01-0.bctz").exists());
    assert!(!packed.join("place-01-0.bctb").exists());
    let gui = Gui::start(&["--tb", packed.to_str().unwrap()]);
    let mut page = Client::connect(&gui).await;
    page.until(WAIT, is_state).await;
    let rules = json!({"captures_to_win": 1});
    // During a game there is no explorer.
    page.send(
        json!({"type": "play", "engine": 0, "human": "tigers", "level": 1,
        "rules": rules}),
    )
    .await;
    let state = page
        .until(WAIT, |v| is_state(v) && v["mode"] == "play")
        .await;
    assert!(state["explorer"].is_null());
    // A movement position and placement positions (one goat in hand, both sides to move).
    for position in [
        "TGGGT/GGGGG/GG1GG/GGGGG/TGGGT g 0 0",
        "TGGGT/GGGGG/GG1GG/GGGG1/TGGGT g 1 0",
        // No tiger capture here (with captures to win 1 a capture would end the game).
        "TGGGT/G1GGG/GGGGG/GGG1G/TGGGT t 1 0",
    ] {
        let state = explore(&mut page, position, &rules).await;
        let explorer = &state["explorer"];
        let legal = state["game"]["legal"].as_array().unwrap();
        let moves = explorer["moves"].as_array().unwrap();
        assert_eq!(moves.len(), legal.len(), "{explorer}");
        let (value, distance) = probe(&tables, position);
        assert_eq!(explorer["value"]["wdl"], value.as_str(), "{position}");
        assert_eq!(explorer["value"]["plies"], json!(distance));
        for entry in moves {
            let mv = entry["move"]["text"].as_str().unwrap();
            let (child, child_distance) = probe(&tables, &after(&gui, position, &[mv], &rules));
            assert_eq!(
                entry["value"]["wdl"],
                flipped(&child),
                "{mv} from {position}"
            );
            assert_eq!(
                entry["value"]["plies"],
                json!(child_distance.map(|d| d + 1))
            );
        }
    }
    let _ = std::fs::remove_dir_all(&tables);
    let _ = std::fs::remove_dir_all(&packed);
}

/// `baghchal tb probe DIR POSITION`'s value under forbid in the explorer's words (`goats win`,
/// `tigers win`, `unknown`; "not solved" is `unknown` there).
fn probe_forbid(dir: &std::path::Path, position: &str) -> String {
    let output = Command::new(env!("CARGO_BIN_EXE_baghchal"))
        .args(["tb", "probe", dir.to_str().unwrap(), position])
        .output()
        .unwrap();
    let text = String::from_utf8(output.stdout).unwrap();
    let words = text
        .lines()
        .find_map(|l| l.strip_prefix("forbid: "))
        .unwrap_or_else(|| panic!("no forbid line in {text:?}"));
    if words.starts_with("not solved") {
        "unknown".to_string()
    } else {
        words.to_string()
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_explorer_gives_the_values_under_forbid_of_tb_probe() {
    // Captures to win 1: the tables up to 1 goat in hand, every table draw solved under forbid
    // and the placement values under forbid up to 2 goats in hand.
    let tables = tables(&[
        "--captures-to-win",
        "1",
        "--placement",
        "--max-in-hand",
        "1",
    ]);
    let dir = tables.to_str().unwrap();
    // The server starts before the forbid values exist: none yet, then those made while it
    // serves.
    let gui = Gui::start(&["--tb", dir]);
    let mut page = Client::connect(&gui).await;
    page.until(WAIT, is_state).await;
    let rules = json!({"captures_to_win": 1});
    let first = "TGGGT/GGGGG/GG1GG/GGGG1/TGGGT g 1 0";
    let state = explore(&mut page, first, &rules).await;
    assert!(
        state["explorer"]["forbid"].is_null(),
        "{}",
        state["explorer"]
    );
    for args in [
        vec!["tb", "forbid", "solve", dir],
        vec!["tb", "forbid", "start", dir, "--max-in-hand", "2"],
    ] {
        let status = Command::new(env!("CARGO_BIN_EXE_baghchal"))
            .args(&args)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .status()
            .unwrap();
        assert!(status.success(), "{args:?}");
    }
    let mut proven = 0;
    for position in [
        first,
        "TGGGT/G1GGG/GGGGG/GGG1G/TGGGT t 1 0",
        "TGGGT/GGGGG/GG1GG/GGG2/TGGGT g 2 0",
        "TGGGT/GGGGG/GG1GG/GGGGG/TGGGT g 0 0",
    ] {
        // Set up, a position has an empty history: the value `tb probe` gives. Placement
        // values answer once their checksums are checked, in the background: asked again
        // until then.
        let expected = probe_forbid(&tables, position);
        let deadline = std::time::Instant::now() + WAIT;
        let state = loop {
            let state = explore(&mut page, position, &rules).await;
            if state["explorer"]["forbid"] == expected.as_str() {
                break state;
            }
            assert!(
                std::time::Instant::now() < deadline,
                "{position}: {expected} expected, {}",
                state["explorer"]
            );
        };
        proven += usize::from(expected != "unknown");
        // After a move of the placement phase the history is empty again: each move's value
        // is `tb probe`'s of the position after it.
        for entry in state["explorer"]["moves"].as_array().unwrap() {
            let mv = entry["move"]["text"].as_str().unwrap();
            let forbid = entry["forbid"].as_str().unwrap();
            if position.ends_with(" 0 0") {
                assert!(["goats win", "tigers win", "unknown"].contains(&forbid));
                continue;
            }
            let child = after(&gui, position, &[mv], &rules);
            assert_eq!(
                forbid,
                probe_forbid(&tables, &child),
                "{mv} from {position}"
            );
            proven += usize::from(forbid != "unknown");
        }
    }
    assert!(proven >= 10, "{proven} proven values");
    // Under the draw rule there is no value under forbid.
    let draw = json!({"captures_to_win": 1, "repetition": "draw"});
    let state = explore(&mut page, first, &draw).await;
    assert!(
        state["explorer"]["forbid"].is_null(),
        "{}",
        state["explorer"]
    );
    let moves = state["explorer"]["moves"].as_array().unwrap();
    assert!(moves.iter().all(|m| m["forbid"].is_null()));
    let _ = std::fs::remove_dir_all(&tables);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_review_marks_the_moves_tb_probe_says_lost_value() {
    let tables = tables(&["--captures-to-win", "2"]);
    let gui = Gui::start(&["--tb", tables.to_str().unwrap()]);
    let mut page = Client::connect(&gui).await;
    page.until(WAIT, is_state).await;
    let rules = json!({"captures_to_win": 2});
    let start = "TGGGT/GGGGG/GG1GG/GGGG1/TGGGT g 0 1";
    // Two people; each plays the explorer's worst move, so that value is lost where it can be.
    let mut moves: Vec<String> = Vec::new();
    for _ in 0..8 {
        if after_outcome(&gui, start, &moves, &rules) {
            break;
        }
        let played: Vec<&str> = moves.iter().map(String::as_str).collect();
        let state = explore(&mut page, &after(&gui, start, &played, &rules), &rules).await;
        let listed = state["explorer"]["moves"].as_array().unwrap();
        moves.push(
            listed.last().unwrap()["move"]["text"]
                .as_str()
                .unwrap()
                .to_string(),
        );
    }
    let texts: Vec<&str> = moves.iter().map(String::as_str).collect();
    page.send(json!({"type": "play", "start": start, "rules": rules}))
        .await;
    page.until(WAIT, |v| {
        is_state(v) && v["people"] == true && v["game"]["ply"] == 0
    })
    .await;
    let state = play(&mut page, 0, &texts).await;
    if state["end"].is_null() {
        page.send(json!({"type": "resign"})).await;
        page.until(WAIT, |v| is_state(v) && !v["end"].is_null())
            .await;
    }
    page.send(json!({"type": "review"})).await;
    let state = page
        .until(WAIT, |v| is_state(v) && !v["review"].is_null())
        .await;
    let rank = |wdl: &str| {
        ["win", "draw", "loss"]
            .iter()
            .position(|w| *w == wdl)
            .unwrap()
    };
    let mut expected = Vec::new();
    for ply in 0..texts.len() {
        let (before, _) = probe(&tables, &after(&gui, start, &texts[..ply], &rules));
        let (next, _) = probe(&tables, &after(&gui, start, &texts[..=ply], &rules));
        if rank(flipped(&next)) > rank(&before) {
            expected.push(json!(ply + 1));
        }
    }
    let marks: Vec<Value> = state["review"]["marks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["ply"].clone())
        .collect();
    assert!(
        !expected.is_empty(),
        "the worst moves lost no value: {texts:?}"
    );
    assert_eq!(marks, expected, "{} for {texts:?}", state["review"]);
    assert_eq!(state["review"]["reviewed"], json!(texts.len()));
    assert_eq!(state["review"]["covered"], json!(texts.len()));
    let _ = std::fs::remove_dir_all(&tables);
}

/// Whether the game from `start` after `moves` is over by the rules.
fn after_outcome(gui: &Gui, start: &str, moves: &[String], rules: &Value) -> bool {
    let request = json!({"position": start, "moves": moves, "rules": rules});
    let (_, body) = gui.http("POST", "/api/position", &request.to_string());
    let body: Value = serde_json::from_str(&body).unwrap();
    !body["game"]["outcome"].is_null()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_server_generates_the_movement_tables_in_the_background() {
    let dir = temp_dir("gui-generate");
    let gui = Gui::start(&["--tb", dir.to_str().unwrap()]);
    let mut page = Client::connect(&gui).await;
    page.until(WAIT, is_state).await;
    // Rules the tables do not cover: refused, with the reason.
    page.send(json!({"type": "setup", "rules": {"captures_to_win": 9}}))
        .await;
    let state = page.until(WAIT, is_state).await;
    assert_eq!(state["tables"]["status"], "uncovered");
    page.send(json!({"type": "generate_tables"})).await;
    let error = page.until(WAIT, |v| v["type"] == "error").await;
    assert!(
        error["message"].as_str().unwrap().contains("1 to 5"),
        "{error}"
    );
    // Missing: the page gets the command and the size, then the generation's progress.
    let rules = json!({"captures_to_win": 2});
    page.send(json!({"type": "setup", "rules": rules})).await;
    let state = page
        .until(WAIT, |v| is_state(v) && v["tables"]["status"] == "missing")
        .await;
    let command = state["tables"]["command"].as_str().unwrap();
    assert!(command.contains("--captures-to-win 2"), "{command}");
    assert!(state["tables"]["bytes"].as_u64().unwrap() > 0);
    page.send(json!({"type": "generate_tables"})).await;
    let (mut progressed, mut moved) = (false, false);
    let state = loop {
        let state = page.until(WAIT * 4, is_state).await;
        let generation = &state["tables"]["generation"];
        moved |= state["game"]["moves"] == json!(["c3"]);
        if generation["finished"] == true {
            break state;
        }
        // The board goes on meanwhile.
        if generation["total"].as_u64().unwrap_or(0) > 0 && !progressed {
            progressed = true;
            page.send(json!({"type": "move", "move": "c3"})).await;
        }
    };
    assert!(progressed, "no progress was reported");
    if !moved {
        page.until(WAIT, |v| is_state(v) && v["game"]["moves"] == json!(["c3"]))
            .await;
    }
    assert!(state["tables"]["generation"]["error"].is_null(), "{state}");
    assert_eq!(state["tables"]["status"], "ok");
    assert!(dir.join("layer-0.bctb").exists() && dir.join("layer-1.bctb").exists());
    // Only table files were written there (and their verified stamps), of the size the page
    // announced.
    let written: u64 = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .filter(|entry| entry.file_name() != "verified.stamp")
        .map(|entry| {
            let name = entry.file_name().to_string_lossy().to_string();
            assert!(
                name.starts_with("layer-") && name.ends_with(".bctb"),
                "{name}"
            );
            entry.metadata().unwrap().len()
        })
        .sum();
    assert_eq!(json!(written), state["tables"]["bytes"]);
    // The explorer now answers; a second generation is refused.
    page.send(
        json!({"type": "setup", "position": "TGGGT/GGGGG/GG1GG/GGGG1/TGGGT g 0 1",
        "rules": rules}),
    )
    .await;
    let state = page
        .until(WAIT, |v| is_state(v) && v["explorer"].is_object())
        .await;
    assert!(!state["explorer"]["moves"].as_array().unwrap().is_empty());
    page.send(json!({"type": "generate_tables"})).await;
    let error = page.until(WAIT, |v| v["type"] == "error").await;
    assert!(
        error["message"].as_str().unwrap().contains("already"),
        "{error}"
    );
    // Perfect plays with them.
    page.send(
        json!({"type": "play", "engine": 0, "human": "tigers", "level": "perfect",
        "rules": rules, "limits": {"movetime_ms": 100}}),
    )
    .await;
    let state = page
        .until(WAIT, |v| {
            v["type"] == "error" || is_state(v) && v["mode"] == "play"
        })
        .await;
    assert_eq!(state["level"], "perfect", "{state}");
    let _ = std::fs::remove_dir_all(&dir);
}
