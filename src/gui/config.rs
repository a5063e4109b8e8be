//! What the `gui` binary was started with: address, engines (referee engine specs), the data
//! folder (the game kept on disk) and the tables directory.

use crate::referee::play::sibling_engine;
use crate::referee::spec::{parse_engines, EngineSpec};
use std::net::SocketAddr;
use std::path::PathBuf;

/// The server's configuration; nothing in it can be changed from the browser.
#[derive(Clone, Debug)]
pub struct GuiConfig {
    /// Where to listen.
    pub bind: SocketAddr,
    /// The engines the browser may choose from, by index.
    pub engines: Vec<EngineSpec>,
    /// Tablebase directory (`--tb`, default `tb` in the data folder), opened per rule variant
    /// when first needed; the only place the server generates tables into.
    pub tablebase: PathBuf,
    /// Data folder (`--data`): the game in progress (`game.json`).
    pub data: PathBuf,
}

/// The default data folder: `$XDG_DATA_HOME/baghchal-gui`, else
/// `$HOME/.local/share/baghchal-gui`, else `baghchal-gui` in the working directory.
pub fn default_data_dir() -> PathBuf {
    let from = |name: &str| {
        std::env::var_os(name)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    if let Some(dir) = from("XDG_DATA_HOME") {
        return dir.join("baghchal-gui");
    }
    match from("HOME") {
        Some(home) => home.join(".local/share/baghchal-gui"),
        None => PathBuf::from("baghchal-gui"),
    }
}

/// Limit given to engines whose spec names none: one second per move.
const DEFAULT_LIMIT: &str = "st=1";

/// Engine specs from `--engine` token lists (the referee's syntax); with none, the `baghchal`
/// binary next to the running executable. An engine without a limit gets `st=1`, used when
/// it watches games; play and analysis set their own limits.
///
/// # Errors
/// The referee's message for a bad spec, or no engine binary found.
pub fn engine_specs(engines: &[Vec<String>]) -> Result<Vec<EngineSpec>, String> {
    let mut tokens: Vec<Vec<String>> = engines.to_vec();
    if tokens.is_empty() {
        let engine = sibling_engine()?;
        tokens.push(vec![
            format!("cmd={}", engine.display()),
            "name=baghchal".to_string(),
        ]);
    }
    for list in &mut tokens {
        let has_limit = list.iter().any(|token| {
            ["tc=", "st=", "depth=", "nodes="]
                .iter()
                .any(|key| token.starts_with(key))
        });
        if !has_limit {
            list.push(DEFAULT_LIMIT.to_string());
        }
    }
    parse_engines(&tokens, &[]).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn engines_without_limits_get_a_move_time() {
        let specs = engine_specs(&[
            vec!["cmd=/bin/true".into(), "name=a".into()],
            vec!["cmd=/bin/true".into(), "depth=3".into()],
        ])
        .unwrap();
        assert_eq!(specs[0].limits.to_string(), "st=1");
        assert_eq!(specs[1].limits.to_string(), "depth=3");
        assert!(engine_specs(&[vec!["name=x".into()]]).is_err());
    }
}
