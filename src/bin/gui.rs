//! The browser GUI: serves the page on http://127.0.0.1:8080 (see docs/gui.md). A separate
//! binary so that the engine binary stays free of the web stack.

use baghchal::gui::config::{default_data_dir, engine_specs};
use baghchal::gui::server::Server;
use baghchal::gui::GuiConfig;
use clap::{ArgAction, CommandFactory, FromArgMatches, Parser};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;

/// Play, analyse and watch Bagh Chal engines in the browser.
#[derive(Parser, Debug)]
#[command(name = "gui", version)]
struct Cli {
    /// Address and port to serve on. Anything but loopback lets anyone on that network use
    /// the engines.
    #[arg(long, default_value = "127.0.0.1:8080", value_name = "ADDR:PORT")]
    bind: SocketAddr,
    /// Start the desktop browser on the page.
    #[arg(long)]
    open: bool,
    /// An engine, in the referee's syntax (repeatable): cmd=PATH name=NAME option.Hash=64
    /// st=1 ... (default: the baghchal binary next to this one).
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE", action = ArgAction::Append)]
    engine: Vec<String>,
    /// Directory of tablebases (`baghchal tb gen`), for the explorer, the review and the
    /// "Perfect" level; the page can generate the movement tables into it (default: `tb` in
    /// the data folder).
    #[arg(long, value_name = "DIR")]
    tb: Option<PathBuf>,
    /// Data folder: the game in progress is kept there (`game.json`) and survives restarts
    /// (default: $XDG_DATA_HOME/baghchal-gui or ~/.local/share/baghchal-gui).
    #[arg(long, value_name = "DIR")]
    data: Option<PathBuf>,
}

/// Starts the desktop browser on `url`, if one can be found.
fn open_browser(url: &str) {
    let candidates: &[&str] = if cfg!(target_os = "macos") {
        &["open"]
    } else {
        &["xdg-open", "sensible-browser", "x-www-browser"]
    };
    for program in candidates {
        if std::process::Command::new(program)
            .arg(url)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .is_ok()
        {
            return;
        }
    }
    eprintln!("gui: no desktop browser found; open {url} yourself");
}

/// Ctrl-C or SIGTERM.
async fn shutdown_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        let mut terminate = signal(SignalKind::terminate()).expect("SIGTERM handler");
        tokio::select! {
            _ = tokio::signal::ctrl_c() => {}
            _ = terminate.recv() => {}
        }
    }
    #[cfg(not(unix))]
    let _ = tokio::signal::ctrl_c().await;
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn")).init();
    let matches = Cli::command().get_matches();
    let cli = Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
    let groups: Vec<Vec<String>> = matches
        .get_occurrences::<String>("engine")
        .map(|groups| groups.map(|group| group.cloned().collect()).collect())
        .unwrap_or_default();
    let _ = &cli.engine;
    let engines = match engine_specs(&groups) {
        Ok(engines) => engines,
        Err(message) => {
            eprintln!("error: {message}");
            return ExitCode::from(2);
        }
    };
    if let Some(dir) = &cli.tb {
        if !dir.is_dir() {
            eprintln!("error: tablebase directory \"{}\" not found", dir.display());
            return ExitCode::from(2);
        }
    }
    let data = cli.data.clone().unwrap_or_else(default_data_dir);
    if let Err(error) = std::fs::create_dir_all(&data) {
        eprintln!(
            "error: cannot create the data folder \"{}\": {error}",
            data.display()
        );
        return ExitCode::from(2);
    }
    let config = GuiConfig {
        bind: cli.bind,
        engines,
        tablebase: cli.tb.clone().unwrap_or_else(|| data.join("tb")),
        data,
    };
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(error) => {
            eprintln!("error: cannot start the runtime: {error}");
            return ExitCode::FAILURE;
        }
    };
    runtime.block_on(async {
        let server = match Server::bind(config).await {
            Ok(server) => server,
            Err(error) => {
                eprintln!("error: cannot listen on {}: {error}", cli.bind);
                return ExitCode::from(2);
            }
        };
        let address = server.local_addr().unwrap_or(cli.bind);
        let url = format!("http://{address}");
        println!("gui: serving on {url} (Ctrl-C stops it and its engines)");
        if !address.ip().is_loopback() {
            eprintln!(
                "gui: warning: listening on {address}, not loopback: anyone on that network can use this page and its engines"
            );
        }
        if cli.open {
            open_browser(&url);
        }
        server.run(shutdown_signal()).await;
        eprintln!("gui: stopped; every engine process was shut down");
        ExitCode::SUCCESS
    })
}
