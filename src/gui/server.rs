//! The router (every route in one place), the state shared by the routes, and the server's
//! start and shutdown: on shutdown every engine process started is stopped and reaped.

use super::config::GuiConfig;
use super::registry::Registry;
use super::session::{spawn_session, Input, Shared};
use super::tables::Tables;
use super::{api, assets, socket};
use axum::extract::DefaultBodyLimit;
use axum::routing::{get, post};
use axum::Router;
use std::future::Future;
use std::net::SocketAddr;
use std::sync::atomic::AtomicU64;
use std::sync::Arc;
use tokio::net::TcpListener;
use tokio::sync::mpsc::UnboundedSender;

/// What every route gets.
#[derive(Clone)]
pub struct AppState {
    /// Configuration, tables, registry.
    pub shared: Arc<Shared>,
    /// The game session's inputs.
    pub session: UnboundedSender<Input>,
    /// Ids for WebSocket connections.
    pub next_connection: Arc<AtomicU64>,
}

/// Every route.
pub fn router(state: AppState) -> Router {
    Router::new()
        .route("/", get(assets::index))
        .route("/assets/{name}", get(assets::asset))
        .route("/api/config", get(api::config))
        .route("/api/position", post(api::position))
        .route("/api/records", post(api::records))
        .route("/api/{*rest}", get(api::not_found).post(api::not_found))
        .route("/ws", get(socket::websocket))
        .layer(DefaultBodyLimit::max(super::messages::MAX_MESSAGE))
        .with_state(state)
}

/// A bound server, not yet serving.
pub struct Server {
    listener: TcpListener,
    state: AppState,
}

impl Server {
    /// Binds `config.bind` and starts the game session (must run inside a tokio runtime).
    ///
    /// # Errors
    /// The address cannot be bound.
    pub async fn bind(config: GuiConfig) -> std::io::Result<Server> {
        let listener = TcpListener::bind(config.bind).await?;
        let shared = Arc::new(Shared {
            tables: Tables::new(config.tablebase.clone()),
            config,
            registry: Registry::default(),
        });
        let session = spawn_session(Arc::clone(&shared));
        Ok(Server {
            listener,
            state: AppState {
                shared,
                session,
                next_connection: Arc::new(AtomicU64::new(1)),
            },
        })
    }

    /// The address bound (with the real port when port 0 was asked for).
    ///
    /// # Errors
    /// The socket's error.
    pub fn local_addr(&self) -> std::io::Result<SocketAddr> {
        self.listener.local_addr()
    }

    /// Serves until `shutdown` completes, then stops every engine process started.
    pub async fn run(self, shutdown: impl Future<Output = ()>) {
        let app = router(self.state.clone());
        let server = tokio::spawn(async move {
            if let Err(error) = axum::serve(self.listener, app).await {
                log::error!("server: {error}");
            }
        });
        shutdown.await;
        server.abort();
        let shared = Arc::clone(&self.state.shared);
        let _ = tokio::task::spawn_blocking(move || shared.registry.shutdown()).await;
    }
}

/// Binds and serves `config` until `shutdown` (see [`Server`]).
///
/// # Errors
/// The address cannot be bound.
pub async fn serve(config: GuiConfig, shutdown: impl Future<Output = ()>) -> std::io::Result<()> {
    Server::bind(config).await?.run(shutdown).await;
    Ok(())
}
