//! The engine in-process: options by their protocol names (checked by the protocol's own
//! option table), limits checked by the protocol's `go` parser, searches without the GIL.

use crate::board::{Board, Move};
use crate::shield::{released, shielded, value_error};
use baghchal::engine::{Engine as Core, SearchInfo, SearchObserver, SearchResult, SearchStatus};
use baghchal::protocol::options::Settings;
use baghchal::protocol::parse_go;
use baghchal::search::wdl::wdl;
use baghchal::search::Score;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict};

/// Keeps the last report of every line.
#[derive(Default)]
struct Lines {
    infos: Vec<SearchInfo>,
}

impl SearchObserver for Lines {
    fn on_info(&mut self, info: &SearchInfo) {
        let index = info.multipv.max(1) as usize - 1;
        if self.infos.len() <= index {
            self.infos.resize(index + 1, info.clone());
        }
        self.infos[index] = info.clone();
    }

    fn on_finish(&mut self, _result: &SearchResult) {}
}

/// The engine as an opponent and analyst.
#[pyclass(module = "baghchal_engine")]
pub struct Engine {
    core: Core,
    settings: Settings,
}

/// An option value as the protocol would send it.
fn option_text(value: &Bound<'_, PyAny>) -> PyResult<Option<String>> {
    if value.is_none() {
        return Ok(None);
    }
    if value.is_instance_of::<PyBool>() {
        return Ok(Some(
            if value.extract::<bool>()? {
                "true"
            } else {
                "false"
            }
            .to_string(),
        ));
    }
    Ok(Some(value.str()?.to_string()))
}

impl Engine {
    /// Sends the board's game to the engine under the board's rules.
    fn set_board(&mut self, board: &Board) -> PyResult<()> {
        let rules = *board.game.rules();
        if self.settings.engine.rules != rules {
            self.settings.engine.rules = rules;
            self.core
                .set_options(self.settings.engine.clone())
                .map_err(value_error)?;
        }
        self.core.set_game(board.game.clone());
        if let SearchStatus::Over(outcome) = self.core.search_status() {
            return Err(value_error(format!("the game is over: {outcome}")));
        }
        Ok(())
    }

    fn search(
        &mut self,
        py: Python<'_>,
        board: &Board,
        limits: Vec<String>,
        multipv: Option<usize>,
    ) -> PyResult<(SearchResult, Vec<SearchInfo>)> {
        let tokens: Vec<&str> = limits.iter().map(String::as_str).collect();
        let limits = parse_go(&tokens).map_err(value_error)?;
        self.set_board(board)?;
        let base = self.settings.engine.clone();
        if let Some(lines) = multipv {
            let text = lines.to_string();
            let (next, _) = self
                .settings
                .with_option("MultiPV", Some(&text))
                .map_err(value_error)?;
            self.core.set_options(next.engine).map_err(value_error)?;
        }
        let core = &mut self.core;
        let searched = released(py, move || {
            let mut lines = Lines::default();
            let result = core.search_blocking_with(limits, &mut lines);
            Ok((result, lines.infos))
        });
        if multipv.is_some() {
            self.core.set_options(base).map_err(value_error)?;
        }
        searched
    }
}

fn limit_tokens(
    depth: Option<i64>,
    nodes: Option<i64>,
    time: Option<f64>,
    mate: Option<i64>,
) -> PyResult<Vec<String>> {
    let mut tokens = Vec::new();
    for (keyword, value) in [("depth", depth), ("nodes", nodes), ("mate", mate)] {
        if let Some(value) = value {
            tokens.push(keyword.to_string());
            tokens.push(value.to_string());
        }
    }
    if let Some(seconds) = time {
        // The range is the protocol's (movetime in ms); only a non-number is refused here.
        if !seconds.is_finite() {
            return Err(value_error(format!(
                "invalid time {seconds}: expected seconds"
            )));
        }
        tokens.push("movetime".to_string());
        tokens.push(format!("{}", (seconds * 1000.0).round() as i64));
    }
    Ok(tokens)
}

fn info_dict<'py>(
    py: Python<'py>,
    board: &Board,
    info: &SearchInfo,
) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    let (cp, mate) = match info.score {
        Score::Cp(cp) => (Some(cp), None),
        Score::Mate(n) => (None, Some(n)),
    };
    let [w, d, l] = info
        .wdl
        .unwrap_or_else(|| wdl(info.score, board.game.position(), board.game.rules()));
    dict.set_item("multipv", info.multipv)?;
    dict.set_item("depth", info.depth)?;
    dict.set_item("seldepth", info.seldepth)?;
    dict.set_item("score", info.score.to_string())?;
    dict.set_item("cp", cp)?;
    dict.set_item("mate", mate)?;
    dict.set_item("wdl", (w, d, l))?;
    dict.set_item("nodes", info.nodes)?;
    dict.set_item("time", info.time.as_secs_f64())?;
    dict.set_item("tbhits", info.tbhits)?;
    let pv: Vec<Move> = info.pv.iter().map(|&inner| Move { inner }).collect();
    dict.set_item("pv", pv)?;
    Ok(dict)
}

#[pymethods]
impl Engine {
    /// An engine with `options` by their protocol names (`{"Skill Level": 5, "Seed": 1}`),
    /// each checked as `setoption` checks it (`ValueError` with the engine's message).
    #[new]
    #[pyo3(signature = (options=None))]
    fn new(options: Option<&Bound<'_, PyDict>>) -> PyResult<Engine> {
        let mut settings = Settings::default();
        if let Some(options) = options {
            for (name, value) in options.iter() {
                let name: String = name.extract()?;
                let value = option_text(&value)?;
                settings = settings
                    .with_option(&name, value.as_deref())
                    .map_err(value_error)?
                    .0;
            }
        }
        shielded(|| {
            let core = Core::new(settings.engine.clone());
            if core.tablebase_status().error().is_some() {
                return Err(value_error(core.tablebase_status()));
            }
            Ok(Engine { core, settings })
        })
    }

    /// The move the engine plays on `board` within the limits (depth in plies, nodes, time in
    /// seconds, mate in moves; none: the engine's default depth). `ValueError` for a limit out
    /// of range or a finished game.
    #[pyo3(signature = (board, *, depth=None, nodes=None, time=None, mate=None))]
    fn play(
        &mut self,
        py: Python<'_>,
        board: &Board,
        depth: Option<i64>,
        nodes: Option<i64>,
        time: Option<f64>,
        mate: Option<i64>,
    ) -> PyResult<Move> {
        let tokens = limit_tokens(depth, nodes, time, mate)?;
        let (result, _) = self.search(py, board, tokens, None)?;
        result
            .best_move
            .map(|inner| Move { inner })
            .ok_or_else(|| value_error("the game is over: no legal move"))
    }

    /// The best `multipv` lines on `board`, best first, each a dict: `pv` (moves), `score`
    /// (`"cp 35"` or `"mate -3"`), `cp`, `mate`, `wdl` (per mille for the side to move),
    /// `depth`, `seldepth`, `nodes`, `time`, `tbhits`, `multipv`.
    #[pyo3(signature = (board, *, depth=None, nodes=None, time=None, mate=None, multipv=1))]
    #[allow(clippy::too_many_arguments)]
    fn analyse<'py>(
        &mut self,
        py: Python<'py>,
        board: &Board,
        depth: Option<i64>,
        nodes: Option<i64>,
        time: Option<f64>,
        mate: Option<i64>,
        multipv: i64,
    ) -> PyResult<Vec<Bound<'py, PyDict>>> {
        let tokens = limit_tokens(depth, nodes, time, mate)?;
        let lines = usize::try_from(multipv).unwrap_or(0);
        let multipv_text = multipv.to_string();
        self.settings
            .with_option("MultiPV", Some(&multipv_text))
            .map_err(value_error)?;
        let (result, mut infos) = self.search(py, board, tokens, Some(lines))?;
        if let Some(best) = result.info {
            if infos.is_empty() {
                infos.push(best);
            } else {
                infos[0] = best;
            }
        }
        infos
            .iter()
            .map(|info| info_dict(py, board, info))
            .collect()
    }

    /// Clears the transposition table (a new game).
    fn new_game(&mut self) {
        self.core.new_game();
    }

    /// `tablebases off` or `tablebases loaded from "dir" (rules)`.
    fn tablebase_status(&self) -> String {
        self.core.tablebase_status().to_string()
    }
}
