//! The WebSocket of the page that controls the game: text frames carry JSON messages both ways
//! (see docs/gui.md). One page controls the game at a time; a second gets an error and is
//! closed.

use super::messages::MAX_MESSAGE;
use super::server::AppState;
use super::session::{error_text, Input};
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::State;
use axum::response::Response;
use std::sync::atomic::Ordering;
use tokio::sync::mpsc::unbounded_channel;

/// Frames above this size close the connection; messages between [`MAX_MESSAGE`] and this get
/// an error message and the connection stays.
const MAX_FRAME: usize = 4 * MAX_MESSAGE;

/// `GET /ws`: upgrades to the game's WebSocket.
pub async fn websocket(upgrade: WebSocketUpgrade, State(app): State<AppState>) -> Response {
    upgrade
        .max_message_size(MAX_FRAME)
        .max_frame_size(MAX_FRAME)
        .on_upgrade(move |socket| connection(socket, app))
}

async fn connection(mut socket: WebSocket, app: AppState) {
    let id = app.next_connection.fetch_add(1, Ordering::Relaxed);
    let (sender, mut outgoing) = unbounded_channel::<String>();
    if app.session.send(Input::Connect(id, sender)).is_err() {
        return;
    }
    loop {
        tokio::select! {
            incoming = socket.recv() => match incoming {
                Some(Ok(Message::Text(text))) => {
                    let _ = app.session.send(Input::Client(id, text.to_string()));
                }
                Some(Ok(Message::Binary(_))) => {
                    let text = error_text("binary messages are not accepted: send JSON text");
                    if socket.send(Message::Text(text.into())).await.is_err() {
                        break;
                    }
                }
                Some(Ok(Message::Ping(_) | Message::Pong(_))) => {}
                Some(Ok(Message::Close(_)) | Err(_)) | None => break,
            },
            out = outgoing.recv() => match out {
                Some(text) => {
                    if socket.send(Message::Text(text.into())).await.is_err() {
                        break;
                    }
                }
                None => {
                    let _ = socket.send(Message::Close(None)).await;
                    break;
                }
            },
        }
    }
    let _ = app.session.send(Input::Disconnect(id));
}
