//! Stateless HTTP JSON routes: the configuration, positions checked with the library's parser
//! and rules, and record files listed. Errors are `{"error": "..."}` with status 400 or 404.

use super::levels::Level;
use super::messages::RulesMessage;
use super::play::parse_position;
use super::records::{read, summaries};
use super::server::AppState;
use super::view::GameView;
use crate::{Game, Move};
use axum::body::Bytes;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::{json, Value};

/// An error answer.
pub struct ApiError(StatusCode, String);

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.0, Json(json!({"error": self.1}))).into_response()
    }
}

fn bad(message: impl Into<String>) -> ApiError {
    ApiError(StatusCode::BAD_REQUEST, message.into())
}

/// Reads a JSON body, with a clear message when it is not.
fn body<T: DeserializeOwned>(bytes: &Bytes) -> Result<T, ApiError> {
    serde_json::from_slice(bytes).map_err(|e| bad(format!("invalid JSON request: {e}")))
}

/// `GET /api/config`: the engines (by index and name), the levels, whether tables for the
/// default rules are there.
pub async fn config(State(app): State<AppState>) -> Json<Value> {
    let engines: Vec<Value> = app
        .shared
        .config
        .engines
        .iter()
        .enumerate()
        .map(|(index, spec)| json!({"index": index, "name": spec.name, "limits": spec.limits.to_string()}))
        .collect();
    let levels: Vec<Value> = (1..=8)
        .map(Level::Level)
        .chain([Level::Full, Level::Perfect])
        .map(|level| json!({"level": level, "label": level.label(), "skill": level.skill(), "elo": level.elo()}))
        .collect();
    Json(json!({
        "engines": engines,
        "levels": levels,
        "tablebase": app.shared.tables.available(&crate::Rules::default()),
        "max_multipv": super::analysis::MAX_MULTIPV,
        "version": env!("CARGO_PKG_VERSION"),
    }))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PositionRequest {
    #[serde(default)]
    position: Option<String>,
    #[serde(default)]
    moves: Vec<String>,
    #[serde(default)]
    rules: RulesMessage,
}

/// `POST /api/position` `{"position": "...", "moves": [...], "rules": {...}}`: the game after
/// the moves, with its legal moves and outcome; or the parser's or rules' error.
pub async fn position(bytes: Bytes) -> Result<Json<Value>, ApiError> {
    let request: PositionRequest = body(&bytes)?;
    let rules = request.rules.rules().map_err(bad)?;
    let start = match request.position.as_deref().filter(|s| !s.trim().is_empty()) {
        Some(text) => parse_position(text).map_err(bad)?,
        None => crate::Position::startpos(),
    };
    let mut game = Game::new(start, rules);
    for (index, text) in request.moves.iter().enumerate() {
        let mv: Move = text
            .parse()
            .map_err(|e| bad(format!("moves index {index}: {e}")))?;
        game.play(mv)
            .map_err(|e| bad(format!("moves index {index}: {e}")))?;
    }
    Ok(Json(json!({"game": GameView::of(&game, game.ply(), true)})))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RecordsRequest {
    text: String,
}

/// `POST /api/records` `{"text": "..."}`: the games of a record (PGN-like or JSON lines).
pub async fn records(bytes: Bytes) -> Result<Json<Value>, ApiError> {
    let request: RecordsRequest = body(&bytes)?;
    let records = read(&request.text).map_err(bad)?;
    Ok(Json(json!({"games": summaries(&records)})))
}

/// Any other path under `/api`.
pub async fn not_found() -> ApiError {
    ApiError(StatusCode::NOT_FOUND, "no such route".into())
}
