//! The browser GUI: a web server on top of the library (`gui` binary). It is an ordinary
//! protocol client: engines run as processes spoken to over pipes through the referee's
//! [`EngineProcess`](crate::referee::engine_process::EngineProcess), engine moves are judged by
//! the referee's [`judge`](crate::referee::outcome::judge), and games between two engines are
//! played by the referee's own game loop. The page knows no rules: legal moves, applying moves,
//! parsing positions and game ends all come from [`Game`](crate::Game) on the server.
//!
//! - [`server`]: the router (every route in one place), shared state, start and shutdown;
//! - [`api`]: the stateless HTTP JSON routes; [`socket`]: the one controlling WebSocket;
//! - [`session`]: the one game the server holds and its modes ([`play`], [`analysis`],
//!   [`watch`]); [`worker`]: a thread owning one engine process; [`registry`]: every such thread,
//!   stopped on Ctrl-C;
//! - [`view`], [`info`], [`messages`]: what goes over the wire; [`records`]: import and export in
//!   the referee's record formats; [`tables`]: the tablebases (explorer, review, generation),
//!   [`forbid_view`] the explorer's values under forbid, and [`solved`] their use in the
//!   session; [`levels`]: playing strength; [`store`] and
//!   [`persist`]: the game kept on disk; [`assets`]: the embedded page.
//!
//! See docs/gui.md for the HTTP and WebSocket API.

pub mod analysis;
pub mod api;
pub mod assets;
pub mod config;
pub mod forbid_view;
pub mod info;
pub mod levels;
pub mod messages;
pub mod persist;
pub mod play;
pub mod records;
pub mod registry;
pub mod server;
pub mod session;
pub mod socket;
pub mod solved;
pub mod store;
pub mod tables;
pub mod view;
pub mod watch;
pub mod worker;

pub use config::GuiConfig;
pub use server::serve;
