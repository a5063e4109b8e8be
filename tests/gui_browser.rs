//! End to end in a real browser: headless Chromium driven over WebDriver (chromedriver) plays,
//! analyses and watches through the page. Skipped, saying so, where no browser is installed;
//! with CI=true a missing browser fails the test. With GUI_SCREENSHOTS=DIR the page is
//! photographed into DIR/play.png, analysis.png and watch.png (tools/screenshots.sh).

#[path = "gui_support/browser.rs"]
mod browser;
mod gui_support;

use browser::{browser_available, js, screenshot, tap, wait_for, with_browser};
use fantoccini::{Client, Locator};
use gui_support::{wait_for_children, Gui};
use serde_json::json;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const FEN: &str = "return document.getElementById('position-string').textContent";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_page_plays_analyses_watches_and_reports_faults() {
    if browser_available() {
        with_browser(1200, 860, |client| async move { scenarios(&client).await }).await;
    }
}

async fn scenarios(client: &Client) {
    let gui = Gui::start(&[]);
    let long = Duration::from_secs(30);
    // Load the page: the board is drawn from the server's state.
    client.goto(&gui.url()).await.unwrap();
    wait_for(
        client,
        "return document.getElementById('connection').textContent === 'connected'",
        long,
    )
    .await;
    wait_for(
        client,
        "return document.querySelectorAll('#board .tiger').length === 4",
        long,
    )
    .await;

    // A whole game against the engine at a tiny limit (captures to win 1), until the banner.
    client
        .find(Locator::Css("button[data-tab=play]"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    js(client, "const f = document.getElementById('play-form'); f.movetime.value = 20; f.captures.value = 1;").await;
    client
        .find(Locator::Id("new-game"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(90);
    loop {
        if js(client, "return !document.getElementById('banner').hidden").await == json!(true) {
            break;
        }
        assert!(Instant::now() < deadline, "the game did not end");
        let dests = client
            .find_all(Locator::Css("#board circle.dest"))
            .await
            .unwrap();
        if !dests.is_empty() {
            let before = js(client, FEN).await;
            tap(client, "#board circle.dest").await;
            let script = format!(
                "return document.getElementById('position-string').textContent !== {before}"
            );
            wait_for(client, &script, long).await;
        } else {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
    let banner = js(
        client,
        "return document.getElementById('banner').textContent",
    )
    .await;
    assert!(banner.as_str().unwrap().contains("Tigers win"), "{banner}");
    screenshot(client, "play").await;

    // An illegal click changes nothing but shows a reason: a new game, click a tiger's point.
    client
        .find(Locator::Id("new-game"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    wait_for(client, "return document.getElementById('banner').hidden && document.querySelectorAll('#board circle.dest').length === 21", long).await;
    let before = js(client, FEN).await;
    tap(client, "#board .tiger").await;
    let reason = wait_for(
        client,
        "return document.getElementById('message').textContent",
        long,
    )
    .await;
    assert!(
        reason.as_str().unwrap().contains("illegal move"),
        "{reason}"
    );
    assert_eq!(js(client, FEN).await, before);

    // Kill the engine mid-game: the error is shown and the game stays.
    js(client, "const f = document.getElementById('play-form'); f.human.value = 'tigers'; f.movetime.value = 4000;").await;
    client
        .find(Locator::Id("new-game"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    wait_for(
        client,
        "return document.getElementById('status').textContent.includes('thinking')",
        long,
    )
    .await;
    for pid in wait_for_children(gui.child.id()) {
        unsafe {
            libc::kill(pid as i32, libc::SIGKILL);
        }
    }
    let fault = wait_for(client, "return !document.getElementById('fault').hidden && document.getElementById('fault-text').textContent", long).await;
    assert!(fault.as_str().unwrap().contains("disconnect"), "{fault}");
    assert_eq!(js(client, FEN).await, json!("T3T/5/5/5/T3T g 20 0"));
    client
        .find(Locator::Id("restart"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    wait_for(
        client,
        "return document.getElementById('fault').hidden",
        long,
    )
    .await;
    // The restarted engine takes its turn again.
    wait_for(
        client,
        "return document.getElementById('status').textContent.includes('thinking')",
        long,
    )
    .await;

    // Set up a position from a string and see analysis lines within 2 s.
    client
        .find(Locator::Css("button[data-tab=analyse]"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    js(
        client,
        "document.getElementById('position-input').value = 'T3T/5/2G2/5/T3T t 19 0'",
    )
    .await;
    client
        .find(Locator::Id("setup"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    wait_for(client, "return document.getElementById('position-string').textContent === 'T3T/5/2G2/5/T3T t 19 0'", long).await;
    let started = Instant::now();
    client
        .find(Locator::Id("analysis-on"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    wait_for(
        client,
        "return document.querySelectorAll('#lines li').length >= 2",
        Duration::from_secs(2),
    )
    .await;
    assert!(started.elapsed() < Duration::from_secs(2));
    // A bad position string shows the parser's message.
    js(
        client,
        "document.getElementById('message').textContent = ''; document.getElementById('position-input').value = 'T3T/5/5 g 20 0'",
    )
    .await;
    client
        .find(Locator::Id("setup"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    let message = wait_for(
        client,
        "return document.getElementById('message').textContent",
        long,
    )
    .await;
    assert!(
        message.as_str().unwrap().contains("invalid position"),
        "{message}"
    );
    // Play two moves from the lines, then flip and step back with the keyboard.
    let pv = client.find(Locator::Css("#lines .pv-move")).await.unwrap();
    pv.click().await.unwrap();
    wait_for(
        client,
        "return document.querySelectorAll('#moves .mv').length === 1",
        long,
    )
    .await;
    wait_for(
        client,
        "return document.querySelectorAll('#lines li').length >= 2",
        long,
    )
    .await;
    screenshot(client, "analysis").await;
    let body = client.find(Locator::Css("body")).await.unwrap();
    let before_flip = js(
        client,
        "return document.querySelector('#board text.coord').textContent",
    )
    .await;
    body.send_keys("f").await.unwrap();
    let first_file = js(
        client,
        "return document.querySelector('#board text.coord').textContent",
    )
    .await;
    assert_ne!(first_file, before_flip);
    assert!(first_file == json!("a") || first_file == json!("e"));
    body.send_keys("\u{E012}").await.unwrap(); // left arrow
    wait_for(client, "return document.getElementById('position-string').textContent === 'T3T/5/2G2/5/T3T t 19 0'", long).await;

    // Load a referee record and step to its end.
    let dir = std::env::temp_dir().join(format!("gui-record-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let record = dir.join("games.pgn");
    let engine = format!("cmd={}", env!("CARGO_BIN_EXE_baghchal"));
    let status = Command::new(env!("CARGO_BIN_EXE_referee"))
        .args([
            "--engine",
            &engine,
            "name=a",
            "nodes=300",
            "--engine",
            &engine,
            "name=b",
            "nodes=300",
        ])
        .args([
            "--games",
            "1",
            "--captures-to-win",
            "2",
            "--pgnout",
            record.to_str().unwrap(),
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .unwrap();
    assert!(status.success());
    let text = std::fs::read_to_string(&record).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    client.execute("document.getElementById('record-box').open = true; document.getElementById('record-text').value = arguments[0];", vec![json!(text)]).await.unwrap();
    client
        .find(Locator::Id("record-load"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    wait_for(client, "return document.querySelectorAll('#moves .mv').length > 0 && !document.getElementById('banner').hidden", long).await;
    client
        .find(Locator::Id("last"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    wait_for(client, "const moves = document.querySelectorAll('#moves .mv'); return moves[moves.length - 1].classList.contains('current')", long).await;
    let banner = js(
        client,
        "return document.getElementById('banner').textContent",
    )
    .await;
    assert!(
        banner.as_str().unwrap().contains("Tigers win")
            || banner.as_str().unwrap().contains("Goats win"),
        "{banner}"
    );

    // Watch two engines play, live.
    client
        .find(Locator::Css("button[data-tab=watch]"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    js(client, "const f = document.getElementById('watch-form'); f.movetime.value = 150; f.minutes.value = 1;").await;
    client
        .find(Locator::Id("watch-start"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    wait_for(
        client,
        "return document.querySelectorAll('#moves .mv').length >= 6",
        long,
    )
    .await;
    screenshot(client, "watch").await;
    client
        .find(Locator::Id("watch-stop"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
}
