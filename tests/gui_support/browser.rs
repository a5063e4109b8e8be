//! Headless Chromium over WebDriver for the browser tests: starting chromedriver and a session,
//! scripts, waits, taps on the board, screenshots (GUI_SCREENSHOTS=DIR) and the axe-core audit.
#![allow(dead_code)]

use fantoccini::{Client, ClientBuilder};
use serde_json::{json, Value};
use std::future::Future;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

pub const CHROMIUM: &str = "/usr/bin/chromium";
pub const CHROMEDRIVER: &str = "/usr/bin/chromedriver";

/// axe-core, installed by `npm ci --prefix tests/browser` (.ci/run).
pub const AXE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/browser/node_modules/axe-core/axe.min.js"
);

struct Driver(Child);

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// Whether the browser is there: false (after saying so) where it is not, a failure with
/// CI=true.
pub fn browser_available() -> bool {
    if std::path::Path::new(CHROMIUM).exists() && std::path::Path::new(CHROMEDRIVER).exists() {
        return true;
    }
    if std::env::var("CI").as_deref() == Ok("true") {
        panic!("CI=true but {CHROMIUM} or {CHROMEDRIVER} is missing: install chromium and chromium-driver");
    }
    println!("skipped: no chromium/chromedriver");
    false
}

/// Runs `scenarios` in a fresh headless Chromium with a viewport of `width` x `height` pixels.
pub async fn with_browser<F, Fut>(width: u32, height: u32, scenarios: F)
where
    F: FnOnce(Client) -> Fut,
    Fut: Future<Output = ()>,
{
    let port = free_port();
    let _driver = Driver(
        Command::new(CHROMEDRIVER)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start chromedriver"),
    );
    let profile = std::env::temp_dir().join(format!("gui-browser-{}-{width}", std::process::id()));
    let args = [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        &format!("--window-size={width},{height}"),
        &format!("--user-data-dir={}", profile.display()),
    ];
    let mut capabilities = serde_json::Map::new();
    // Desktop Chromium has a minimum window width (about 500 px): a phone is emulated.
    let options = if width < 500 {
        json!({"binary": CHROMIUM, "args": args, "mobileEmulation":
            {"deviceMetrics": {"width": width, "height": height, "pixelRatio": 1.0, "touch": true}}})
    } else {
        json!({"binary": CHROMIUM, "args": args})
    };
    capabilities.insert("goog:chromeOptions".into(), options);
    let connector = hyper_util::client::legacy::connect::HttpConnector::new();
    let mut client = None;
    for _ in 0..100 {
        match ClientBuilder::new(connector.clone())
            .capabilities(capabilities.clone())
            .connect(&format!("http://127.0.0.1:{port}"))
            .await
        {
            Ok(c) => {
                client = Some(c);
                break;
            }
            Err(_) => tokio::time::sleep(Duration::from_millis(100)).await,
        }
    }
    let client = client.expect("connect to chromedriver");
    scenarios(client.clone()).await;
    let _ = client.close().await;
    let _ = std::fs::remove_dir_all(&profile);
}

pub async fn js(client: &Client, script: &str) -> Value {
    client.execute(script, vec![]).await.expect("script")
}

/// Waits until `script` returns a truthy value.
pub async fn wait_for(client: &Client, script: &str, timeout: Duration) -> Value {
    let deadline = Instant::now() + timeout;
    loop {
        let value = js(client, script).await;
        if !(value.is_null() || value == json!(false) || value == json!("") || value == json!(0)) {
            return value;
        }
        if Instant::now() >= deadline {
            let page = js(client, "return [document.getElementById('status').textContent, document.getElementById('message').textContent, document.getElementById('lines').innerHTML.slice(0, 300), document.getElementById('position-string').textContent, JSON.stringify(window.__errors || []), JSON.stringify(window.baghchal.state.analysis).slice(0, 300), window.baghchal.state.mode, window.baghchal.state.game.ply].join(' | ')").await;
            panic!("timed out waiting for: {script}\npage: {page}");
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

pub async fn screenshot(client: &Client, name: &str) {
    if let Ok(dir) = std::env::var("GUI_SCREENSHOTS") {
        let png = client.screenshot().await.expect("screenshot");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(format!("{dir}/{name}.png"), png).unwrap();
    }
}

/// Clicks an element of the board the way a pointer does (pointerdown + pointerup at its
/// centre); WebDriver clicks on SVG shapes are refused as "not interactable".
pub async fn tap(client: &Client, selector: &str) {
    let script = r#"
        const target = document.querySelector(arguments[0]);
        if (!target) return false;
        const box = target.getBoundingClientRect();
        const at = { clientX: box.left + box.width / 2, clientY: box.top + box.height / 2, bubbles: true, pointerId: 1 };
        const svg = document.querySelector('#board svg');
        svg.dispatchEvent(new PointerEvent('pointerdown', at));
        svg.dispatchEvent(new PointerEvent('pointerup', at));
        return true;"#;
    let done = client
        .execute(script, vec![json!(selector)])
        .await
        .expect("tap");
    assert_eq!(done, json!(true), "nothing to tap at {selector}");
}

/// Runs axe-core (from disk) on the page; returns the serious and critical violations as
/// `rule: target...` lines.
pub async fn audit(client: &Client) -> Vec<String> {
    let axe = std::fs::read_to_string(AXE)
        .unwrap_or_else(|e| panic!("{AXE}: {e}: install it with `npm ci --prefix tests/browser`"));
    client.execute(&axe, vec![]).await.expect("inject axe-core");
    let result = client
        .execute_async(
            r#"const done = arguments[arguments.length - 1];
               axe.run(document, { resultTypes: ["violations"] })
                 .then(r => done(r.violations.filter(v => v.impact === "serious" || v.impact === "critical")
                   .map(v => v.id + ": " + v.nodes.map(n => n.target.join(" ")).join(", ") + " (" + v.help + ")")))
                 .catch(e => done(["axe failed: " + e]));"#,
            vec![],
        )
        .await
        .expect("axe.run");
    result
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect()
}
