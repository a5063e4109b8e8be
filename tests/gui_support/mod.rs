//! Starting the `gui` binary for tests, and talking to it over real sockets.
#![allow(dead_code)]

use futures_util::{SinkExt, StreamExt};
use serde_json::Value;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use tokio_tungstenite::tungstenite::Message;

/// A running `gui` server, stopped with SIGINT when dropped.
pub struct Gui {
    pub child: Child,
    pub addr: SocketAddr,
    /// A data folder made for this server (removed when dropped), unless `--data` was given.
    owned_data: Option<std::path::PathBuf>,
}

/// A fresh, empty folder under the temporary directory.
pub fn temp_dir(name: &str) -> std::path::PathBuf {
    use std::sync::atomic::{AtomicU32, Ordering};
    static NEXT: AtomicU32 = AtomicU32::new(0);
    let dir = std::env::temp_dir().join(format!(
        "{name}-{}-{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

impl Gui {
    /// Starts the server on a free loopback port with `args` (and a data folder of its own
    /// unless `args` name one).
    pub fn start(args: &[&str]) -> Gui {
        let owned_data = (!args.contains(&"--data")).then(|| temp_dir("gui-data"));
        let mut command = Command::new(env!("CARGO_BIN_EXE_gui"));
        if let Some(dir) = &owned_data {
            command.arg("--data").arg(dir);
        }
        let mut child = command
            .args(["--bind", "127.0.0.1:0"])
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start gui");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let url = line
            .split_whitespace()
            .find(|t| t.starts_with("http://"))
            .unwrap_or_else(|| panic!("no address in {line:?}"));
        let addr = url.trim_start_matches("http://").parse().unwrap();
        Gui {
            child,
            addr,
            owned_data,
        }
    }

    /// The page's URL.
    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// Sends SIGINT and waits for the exit (at most 10 s); returns the exit status success.
    pub fn interrupt(&mut self) -> bool {
        unsafe {
            libc::kill(self.child.id() as i32, libc::SIGINT);
        }
        let deadline = Instant::now() + Duration::from_secs(10);
        while Instant::now() < deadline {
            if let Ok(Some(status)) = self.child.try_wait() {
                return status.success();
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        false
    }

    /// Plain HTTP/1.1 request; returns status and body.
    pub fn http(&self, method: &str, path: &str, body: &str) -> (u16, String) {
        let mut stream = TcpStream::connect(self.addr).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(10)))
            .unwrap();
        write!(
            stream,
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
            self.addr,
            body.len()
        )
        .unwrap();
        let _ = stream.write_all(body.as_bytes());
        let mut response = Vec::new();
        let _ = stream.read_to_end(&mut response);
        let response = String::from_utf8_lossy(&response).to_string();
        let status = response
            .split_whitespace()
            .nth(1)
            .and_then(|s| s.parse().ok())
            .unwrap_or(0);
        let body = response
            .split_once("\r\n\r\n")
            .map(|(_, b)| b.to_string())
            .unwrap_or_default();
        (status, body)
    }
}

impl Drop for Gui {
    fn drop(&mut self) {
        if !matches!(self.child.try_wait(), Ok(Some(_))) {
            self.interrupt();
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
        if let Some(dir) = &self.owned_data {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
}

/// Process ids of the children of `pid` (from /proc).
pub fn children(pid: u32) -> Vec<u32> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(child) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        if let Ok(stat) = std::fs::read_to_string(format!("/proc/{child}/stat")) {
            let after = stat.rsplit_once(')').map(|(_, rest)| rest).unwrap_or("");
            let parent: Option<u32> = after.split_whitespace().nth(1).and_then(|p| p.parse().ok());
            if parent == Some(pid) {
                found.push(child);
            }
        }
    }
    found
}

/// The children of `pid`, waiting up to 5 s for there to be one (engines start on a thread),
/// then 300 ms more so that a search has begun.
pub fn wait_for_children(pid: u32) -> Vec<u32> {
    let deadline = Instant::now() + Duration::from_secs(5);
    while children(pid).is_empty() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_millis(300));
    children(pid)
}

/// Whether process `pid` exists (and is not a zombie).
pub fn alive(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .map(|stat| !stat.contains(") Z "))
        .unwrap_or(false)
}

type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// A WebSocket client of the page's protocol.
pub struct Client {
    pub socket: Socket,
}

impl Client {
    pub async fn connect(gui: &Gui) -> Client {
        let (socket, _) = tokio_tungstenite::connect_async(format!("ws://{}/ws", gui.addr))
            .await
            .expect("websocket");
        Client { socket }
    }

    pub async fn send(&mut self, value: Value) {
        self.send_text(value.to_string()).await;
    }

    pub async fn send_text(&mut self, text: String) {
        self.socket.send(Message::Text(text.into())).await.unwrap();
    }

    /// The next JSON message, or None when the socket closes or after `timeout`.
    pub async fn next(&mut self, timeout: Duration) -> Option<Value> {
        loop {
            let message = tokio::time::timeout(timeout, self.socket.next())
                .await
                .ok()??;
            match message.ok()? {
                Message::Text(text) => return serde_json::from_str(&text).ok(),
                Message::Close(_) => return None,
                _ => {}
            }
        }
    }

    /// Reads messages until one satisfies `wanted` (within `timeout`).
    pub async fn until(&mut self, timeout: Duration, wanted: impl Fn(&Value) -> bool) -> Value {
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.next(left).await {
                Some(value) if wanted(&value) => return value,
                Some(_) => {}
                None => panic!("no wanted message within {timeout:?}"),
            }
        }
    }
}
