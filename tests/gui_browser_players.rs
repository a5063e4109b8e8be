//! The page for players in a real browser (headless Chromium over WebDriver): a level chosen in
//! the Play panel reaches the engine as options, a reload mid-game restores the game, two
//! people play to the end with typed moves, the tablebase explorer lists every legal move with
//! the value `baghchal tb probe` gives (small tables built here), the review after a game,
//! continuing from Analyse, and an axe-core audit with no serious violation, also at phone
//! width. With GUI_SCREENSHOTS=DIR: explorer.png, review.png, phone.png (tools/screenshots.sh).

#[path = "gui_support/browser.rs"]
mod browser;
mod gui_support;

use baghchal::gui::levels::Level;
use browser::{audit, browser_available, js, screenshot, wait_for, with_browser};
use fantoccini::{Client, Locator};
use gui_support::{temp_dir, Gui};
use serde_json::{json, Value};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

const LONG: Duration = Duration::from_secs(30);

/// Tables for captures to win 1 with the placement layers of one goat in hand.
fn small_tables() -> std::path::PathBuf {
    let dir = temp_dir("gui-browser-tables");
    let status = Command::new(env!("CARGO_BIN_EXE_baghchal"))
        .args([
            "tb",
            "gen",
            "--captures-to-win",
            "1",
            "--placement",
            "--max-in-hand",
            "1",
            "--out",
        ])
        .arg(&dir)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .unwrap();
    assert!(status.success());
    dir
}

/// `baghchal tb probe`: (`win`/`draw`/`loss`, distance).
fn probe(dir: &Path, position: &str) -> (String, Option<u16>) {
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

async fn click(client: &Client, id: &str) {
    client
        .find(Locator::Id(id))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
}

async fn set_select(client: &Client, selector: &str, value: &str) {
    client
        .execute(
            "const s = document.querySelector(arguments[0]); s.value = arguments[1]; s.dispatchEvent(new Event('change', { bubbles: true })); return s.value;",
            vec![json!(selector), json!(value)],
        )
        .await
        .unwrap();
}

/// Types `text` and Enter into the move field.
async fn type_move(client: &Client, text: &str) {
    let input = client.find(Locator::Id("move-input")).await.unwrap();
    input.send_keys(&format!("{text}\u{E007}")).await.unwrap();
}

async fn assert_accessible(client: &Client, what: &str) {
    let violations = audit(client).await;
    assert!(
        violations.is_empty(),
        "{what}: serious accessibility violations:\n{}",
        violations.join("\n")
    );
}

const MOVES: &str = "return window.baghchal.state && window.baghchal.state.game.moves.length";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn players_choose_a_level_explore_the_tables_and_keep_their_games() {
    if !browser_available() {
        return;
    }
    let tables = small_tables();
    let log_dir = temp_dir("gui-browser-log");
    let log = log_dir.join("input.log");
    let arg = format!(
        "arg=tee -a {} | {}",
        log.display(),
        env!("CARGO_BIN_EXE_baghchal")
    );
    let gui = Gui::start(&[
        "--tb",
        tables.to_str().unwrap(),
        "--engine",
        "cmd=/bin/sh",
        "arg=-c",
        &arg,
        "name=baghchal",
    ]);
    let url = gui.url();
    with_browser(1200, 900, |client| async move {
        scenarios(&client, &url, &tables, &log).await;
    })
    .await;
    with_browser(390, 844, |client| async move {
        client.goto(&gui.url()).await.unwrap();
        wait_for(
            &client,
            "return document.getElementById('connection').textContent === 'connected'",
            LONG,
        )
        .await;
        wait_for(
            &client,
            "return document.querySelectorAll('#board .tiger').length === 4",
            LONG,
        )
        .await;
        let width = js(&client, "return [document.documentElement.scrollWidth, window.innerWidth, [...document.querySelectorAll('body *')].filter(e => e.getBoundingClientRect().right > window.innerWidth + 1).map(e => e.tagName + '#' + e.id + '.' + e.className + ':' + Math.round(e.getBoundingClientRect().right)).slice(0, 12)]").await;
        assert!(
            width[1] == json!(390) && width[0] == json!(390),
            "wider than the phone: {width}"
        );
        screenshot(&client, "phone").await;
        assert_accessible(&client, "phone width").await;
    })
    .await;
    let _ = std::fs::remove_dir_all(&log_dir);
}

async fn scenarios(client: &Client, url: &str, tables: &Path, log: &Path) {
    client.goto(url).await.unwrap();
    wait_for(
        client,
        "return document.getElementById('connection').textContent === 'connected'",
        LONG,
    )
    .await;
    wait_for(
        client,
        "return document.getElementById('level').options.length === 10",
        LONG,
    )
    .await;
    assert_accessible(client, "the page as loaded").await;

    // A level chosen in the Play panel: the engine gets its Skill Level, the name shows it.
    client
        .find(Locator::Css("button[data-tab=play]"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    set_select(client, "#level", "3").await;
    let limits_hidden = js(
        client,
        "return document.getElementById('limits-box').hidden",
    )
    .await;
    assert_eq!(limits_hidden, json!(true), "a level has its own limits");
    set_select(client, "#play-form [name=human]", "tigers").await;
    click(client, "new-game").await;
    wait_for(client, &format!("{MOVES} >= 1"), LONG).await;
    let name = wait_for(client, "return document.getElementById('player-bottom').textContent + document.getElementById('player-top').textContent", LONG).await;
    assert!(
        name.as_str().unwrap().contains("baghchal (level 3)"),
        "{name}"
    );
    let input = std::fs::read_to_string(log).unwrap();
    let skill = Level::Level(3).skill();
    assert!(
        input.contains(&format!("setoption name Skill Level value {skill}")),
        "{input}"
    );

    // A reload mid-game restores it.
    let before: Value = js(client, "return window.baghchal.state.game.moves").await;
    client.refresh().await.unwrap();
    wait_for(client, "return document.getElementById('connection').textContent === 'connected' && window.baghchal.state", LONG).await;
    let after: Value = js(client, "return window.baghchal.state.game.moves").await;
    assert_eq!(after, before);
    assert_eq!(
        js(client, "return window.baghchal.state.mode").await,
        json!("play")
    );
    assert_eq!(
        js(client, "return window.baghchal.state.level").await,
        json!("level 3")
    );

    // Two people, typed moves, to the end (captures to win 1); an illegal typed move gets the
    // server's reason and changes nothing.
    js(
        client,
        "document.getElementById('play-form').captures.value = 1",
    )
    .await;
    set_select(client, "#opponent", "person").await;
    click(client, "new-game").await;
    wait_for(
        client,
        "return window.baghchal.state.people && window.baghchal.state.game.moves.length === 0",
        LONG,
    )
    .await;
    type_move(client, "a1a3").await;
    let reason = wait_for(
        client,
        "return document.getElementById('message').textContent",
        LONG,
    )
    .await;
    assert!(reason.as_str().unwrap().contains("illegal"), "{reason}");
    for (index, mv) in ["b2", "e5d5", "c4", "a1c3"].iter().enumerate() {
        type_move(client, mv).await;
        wait_for(client, &format!("{MOVES} === {}", index + 1), LONG).await;
    }
    let status = js(
        client,
        "return document.getElementById('status').textContent",
    )
    .await;
    assert!(status.as_str().unwrap().contains("a1 takes b2"), "{status}");
    let banner = wait_for(client, "return !document.getElementById('banner').hidden && document.getElementById('banner').textContent", LONG).await;
    assert!(banner.as_str().unwrap().contains("Tigers win"), "{banner}");
    // The review, after the game.
    wait_for(
        client,
        "return !document.getElementById('review-button').hidden",
        LONG,
    )
    .await;
    click(client, "review-button").await;
    // The tables cover no move of it (placement, 19 goats in hand).
    wait_for(client, "return !document.getElementById('review').hidden && document.getElementById('review').textContent.includes('cover none')", LONG).await;
    assert_accessible(client, "after a game, with its review").await;

    // The explorer: every legal move with the value tb probe gives.
    client
        .find(Locator::Css("button[data-tab=analyse]"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    let position = "TGGGT/GGGGG/GG1GG/GGGGG/TGGGT g 0 0";
    js(
        client,
        &format!("document.getElementById('position-input').value = '{position}'"),
    )
    .await;
    click(client, "setup").await;
    wait_for(client, &format!("return document.getElementById('position-string').textContent === '{position}' && document.querySelectorAll('#explorer .tb-move').length > 0"), LONG).await;
    let rows = js(client, "return [...document.querySelectorAll('#explorer .tb-move')].map(li => [li.querySelector('button').dataset.move, li.className, li.querySelector('.tb-result').textContent])").await;
    let legal = js(
        client,
        "return window.baghchal.state.game.legal.map(m => m.text).sort()",
    )
    .await;
    let rows = rows.as_array().unwrap();
    let mut listed: Vec<String> = rows
        .iter()
        .map(|r| r[0].as_str().unwrap().to_string())
        .collect();
    listed.sort();
    assert_eq!(json!(listed), legal);
    for row in rows {
        let mv = row[0].as_str().unwrap();
        let (_, body) = gui_position(url, position, mv);
        let child = body["game"]["position"]["fen"]
            .as_str()
            .unwrap()
            .to_string();
        let (value, distance) = probe(tables, &child);
        let expected = match value.as_str() {
            "win" => "loss",
            "loss" => "win",
            other => other,
        };
        assert!(
            row[1].as_str().unwrap().ends_with(expected),
            "{mv}: {row} vs {value}"
        );
        if let Some(plies) = distance {
            let text = format!("in {} plies", plies + 1);
            assert!(
                row[2].as_str().unwrap().contains(&text),
                "{mv}: {row} vs {text}"
            );
        }
    }
    screenshot(client, "explorer").await;
    assert_accessible(client, "analysis with the explorer").await;
    // Clicking a move of the explorer plays it.
    client
        .find(Locator::Css("#explorer .tb-play"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    wait_for(client, &format!("{MOVES} === 1"), LONG).await;
    // A game the tables cover, continued from Analyse with a person: goats place on e2 (the
    // tiger on a1 may then take b2); the review marks e2 exactly when the explorer said it
    // loses value.
    let covered = "TGGGT/GGGGG/GG1GG/GGGG1/TGGGT g 1 0";
    js(
        client,
        &format!("document.getElementById('position-input').value = '{covered}'"),
    )
    .await;
    click(client, "setup").await;
    wait_for(client, &format!("return window.baghchal.state.game.position.fen === '{covered}' && window.baghchal.state.explorer && window.baghchal.state.explorer.moves.every(m => m.value)"), LONG).await;
    let values = js(client, "return window.baghchal.state.explorer.moves.map(m => [m.move.text, ['win', 'draw', 'loss'].indexOf(m.value.wdl)])").await;
    let ranks: Vec<(String, u64)> = values
        .as_array()
        .unwrap()
        .iter()
        .map(|pair| {
            (
                pair[0].as_str().unwrap().to_string(),
                pair[1].as_u64().unwrap(),
            )
        })
        .collect();
    let best = ranks.iter().map(|(_, rank)| *rank).min().unwrap();
    let lost = ranks.iter().any(|(mv, rank)| mv == "e2" && *rank > best);
    click(client, "continue-person").await;
    wait_for(
        client,
        "return window.baghchal.state.mode === 'play' && window.baghchal.state.people",
        LONG,
    )
    .await;
    type_move(client, "e2").await;
    wait_for(client, "return window.baghchal.state.game.ply === 1", LONG).await;
    type_move(client, "a1c3").await;
    wait_for(client, "return window.baghchal.state.end", LONG).await;
    click(client, "review-button").await;
    let review = wait_for(client, "return !document.getElementById('review').hidden && document.getElementById('review').textContent.includes('checked') && document.getElementById('review').textContent", LONG).await;
    assert_eq!(
        review.as_str().unwrap().contains("e2?"),
        lost,
        "{review} {values}"
    );
    screenshot(client, "review").await;
    client
        .find(Locator::Css("button[data-tab=analyse]"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    js(
        client,
        &format!("document.getElementById('position-input').value = '{position}'"),
    )
    .await;
    click(client, "setup").await;
    wait_for(client, &format!("return window.baghchal.state.game.position.fen === '{position}' && window.baghchal.state.game.moves.length === 0"), LONG).await;
    client
        .find(Locator::Css("#explorer .tb-play"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    wait_for(client, &format!("{MOVES} === 1"), LONG).await;
    // Back one move (that one ended the game), then continue from there with a person.
    click(client, "back").await;
    wait_for(client, "return window.baghchal.state.game.ply === 0", LONG).await;
    click(client, "continue-person").await;
    wait_for(client, &format!("return window.baghchal.state.mode === 'play' && window.baghchal.state.people && window.baghchal.state.game.moves.length === 0 && window.baghchal.state.game.position.fen === '{position}'"), LONG).await;
}

/// `POST /api/position` with one move; (status, body).
fn gui_position(url: &str, position: &str, mv: &str) -> (u16, Value) {
    let addr = url.trim_start_matches("http://");
    let body =
        json!({"position": position, "moves": [mv], "rules": {"captures_to_win": 1}}).to_string();
    let mut stream = std::net::TcpStream::connect(addr).unwrap();
    use std::io::{Read, Write};
    write!(
        stream,
        "POST /api/position HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    let status = response
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let body = response
        .split_once("\r\n\r\n")
        .map(|(_, b)| b)
        .unwrap_or("");
    (status, serde_json::from_str(body).unwrap_or(Value::Null))
}
