//! The solved game in the page: the tables directory (`--tb`, or `tb` in the data folder) opened
//! read-only, memory mapped, once per rule variant; the explorer (every legal move with its
//! exact value, best first); the post-game review; and the generation of the movement tables
//! in the background, written only into that directory.

use super::forbid_view::{winner, winner_after, ForbidValues};
use super::view::MoveView;
use crate::tablebase::file::HEADER_LEN;
use crate::tablebase::forbid::history::ForbidJudge;
use crate::tablebase::index::LayerIndex;
use crate::tablebase::solve::generate_tables;
use crate::tablebase::{TableRules, Tablebase, TablebaseError, TbValue, Wdl};
use crate::{Game, Position, Rules, Side};
use serde::Serialize;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// Tables opened for one variant, or why they could not be (missing tables are not kept, so
/// tables generated later are found).
type Opened = Result<Arc<Tablebase>, String>;

/// A value for the side to move, as the page shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ValueView {
    /// `win`, `draw` or `loss` for the side to move.
    pub wdl: String,
    /// Plies to the end with best play, where the tables store one (movement phase).
    pub plies: Option<u16>,
    /// In words from the winner's side: `goats win in 13 plies`, `draw`, `tigers win`.
    pub text: String,
}

impl ValueView {
    /// The view of `value` for `mover`.
    pub fn of(value: TbValue, mover: Side) -> ValueView {
        let winner = match value.wdl {
            Wdl::Win => Some(mover),
            Wdl::Loss => Some(mover.opposite()),
            Wdl::Draw => None,
        };
        let text = match (winner, value.plies_to_end) {
            (None, _) => "draw".to_string(),
            (Some(side), None) => format!("{side} win"),
            (Some(side), Some(plies)) => format!("{side} win in {plies} plies"),
        };
        ValueView {
            wdl: value.wdl.to_string(),
            plies: value.plies_to_end,
            text,
        }
    }
}

/// One legal move in the explorer.
#[derive(Clone, Debug, Serialize)]
pub struct ExploredMove {
    /// The move.
    #[serde(rename = "move")]
    pub mv: MoveView,
    /// Its value for the side to move (the position after it, seen from before it); `None`
    /// where the tables have no value.
    pub value: Option<ValueView>,
    /// Under `Repetition forbid` with forbid values: the winner of the game after it, proven
    /// for its history (`goats win`, `tigers win` or `unknown`).
    pub forbid: Option<String>,
}

/// The explorer of one position.
#[derive(Clone, Debug, Serialize)]
pub struct Explorer {
    /// The position's value for the side to move, where covered.
    pub value: Option<ValueView>,
    /// Under `Repetition forbid` with forbid values beside the tables: the winner of the game
    /// shown, proven for its history (`goats win`, `tigers win` or `unknown`).
    pub forbid: Option<String>,
    /// Every legal move, best first.
    pub moves: Vec<ExploredMove>,
}

/// A move of the review that changed the value of the game for its player.
#[derive(Clone, Debug, Serialize)]
pub struct ReviewMark {
    /// The ply the move made (1 = the first move).
    pub ply: usize,
    /// The move played.
    #[serde(rename = "move")]
    pub mv: String,
    /// The value before it, for its player.
    pub before: ValueView,
    /// The value after it, for its player.
    pub after: ValueView,
    /// A move that kept the value (the tables' best).
    pub best: Option<String>,
}

/// The review of a game: the value-losing moves of the players reviewed.
#[derive(Clone, Debug, Serialize)]
pub struct Review {
    /// Value-losing moves, in order.
    pub marks: Vec<ReviewMark>,
    /// How many of the reviewed moves the tables covered.
    pub covered: usize,
    /// How many moves were reviewed.
    pub reviewed: usize,
}

/// Progress of a generation, as the page shows it.
#[derive(Clone, Debug, Default, Serialize)]
pub struct GenerationView {
    /// The rules generated for (`ForcedCapture=false CapturesToWin=5`).
    pub rules: String,
    /// The phase (`layer 3 retrograde`).
    pub phase: String,
    /// Work done in the phase.
    pub done: u64,
    /// Work of the phase.
    pub total: u64,
    /// Layers done, of `layers`.
    pub layers_done: u8,
    /// Layers to generate.
    pub layers: u8,
    /// Whether it has ended (successfully unless `error`).
    pub finished: bool,
    /// Why it failed.
    pub error: Option<String>,
}

/// The tables directory and what is known about it.
pub struct Tables {
    dir: PathBuf,
    opened: Arc<Mutex<HashMap<TableRules, Opened>>>,
    forbid: Arc<ForbidValues>,
    generation: Arc<Mutex<Option<GenerationView>>>,
}

/// Status of the tables for one variant, for the page.
#[derive(Clone, Debug, Serialize)]
pub struct TablesView {
    /// `ok`, `missing` (not generated), `error` (damaged or other rules), `uncovered` (rules
    /// the tables do not cover).
    pub status: &'static str,
    /// The problem, in words.
    pub message: Option<String>,
    /// The directory (configured by the operator).
    pub dir: String,
    /// The command that generates them.
    pub command: String,
    /// Disk space they take, bytes.
    pub bytes: u64,
    /// The generation in the background, if one ran.
    pub generation: Option<GenerationView>,
}

/// Whether the tables cover a game under `rules` at all.
fn covered(rules: &Rules) -> bool {
    TableRules::of(rules).is_covered()
}

/// Bytes of the movement tables for `rules`: every layer's header and one byte per symmetry
/// class and side to move.
pub fn movement_bytes(rules: TableRules) -> u64 {
    (0..rules.captures_to_win)
        .map(|captured| {
            let positions = u64::from(LayerIndex::get(usize::from(captured) + 1).len());
            HEADER_LEN as u64 + 2 * positions
        })
        .sum()
}

/// The command line that generates the movement tables for `rules` into `dir`.
pub fn command(dir: &Path, rules: TableRules) -> String {
    let mut command = format!("baghchal tb gen --out {}", dir.display());
    if rules.captures_to_win != 5 {
        command += &format!(" --captures-to-win {}", rules.captures_to_win);
    }
    if rules.forced_capture {
        command += " --forced-capture";
    }
    command
}

impl Tables {
    /// The tables in `dir` (which may not exist yet).
    pub fn new(dir: PathBuf) -> Tables {
        Tables {
            dir,
            opened: Arc::default(),
            forbid: Arc::default(),
            generation: Arc::default(),
        }
    }

    /// The directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The tables for `rules`, opened when first needed.
    ///
    /// # Errors
    /// `Ok(None)` when they are not there; `Err` when they are damaged or for other rules.
    pub fn get(&self, rules: &Rules) -> Result<Option<Arc<Tablebase>>, String> {
        let key = TableRules::of(rules);
        let mut opened = self.opened.lock().expect("tables lock");
        if let Some(found) = opened.get(&key) {
            return found.clone().map(Some);
        }
        match Tablebase::open(&self.dir, key) {
            Ok(tables) => {
                let tables = Arc::new(tables);
                opened.insert(key, Ok(Arc::clone(&tables)));
                Ok(Some(tables))
            }
            Err(TablebaseError::NotFound { .. }) => Ok(None),
            Err(error) => {
                let message = format!("tables in \"{}\": {error}", self.dir.display());
                opened.insert(key, Err(message.clone()));
                Err(message)
            }
        }
    }

    /// Whether tables for `rules` are present and sound.
    pub fn available(&self, rules: &Rules) -> bool {
        covered(rules) && matches!(self.get(rules), Ok(Some(_)))
    }

    /// The status of the tables for `rules`, for the page.
    pub fn view(&self, rules: &Rules) -> TablesView {
        let table_rules = TableRules::of(rules);
        let (status, message) = if !covered(rules) {
            let text = format!(
                "the tables cover 1 to 5 captures to win, not {}",
                rules.captures_to_win
            );
            ("uncovered", Some(text))
        } else {
            match self.get(rules) {
                Ok(Some(_)) => ("ok", None),
                Ok(None) => ("missing", None),
                Err(message) => ("error", Some(message)),
            }
        };
        TablesView {
            status,
            message,
            dir: self.dir.display().to_string(),
            command: command(&self.dir, table_rules),
            bytes: if covered(rules) {
                movement_bytes(table_rules)
            } else {
                0
            },
            generation: self.generation.lock().expect("generation lock").clone(),
        }
    }

    /// Every legal move of `game`'s position with its value, best first: wins (fastest first),
    /// draws, losses (slowest first), moves without a value last. `None` without tables.
    pub fn explore(&self, game: &Game) -> Option<Explorer> {
        let tables = self.get(game.rules()).ok()??;
        let position = game.position();
        let mover = position.side_to_move();
        let forbid_tables = self.forbid.for_game(&self.dir, &tables, game);
        let judge = forbid_tables
            .as_deref()
            .map(|f| ForbidJudge::new(&tables, f));
        let mut moves: Vec<(TbValue, ExploredMove)> = Vec::new();
        let mut unknown = Vec::new();
        for &mv in game.legal_moves().iter() {
            let explored = |value: Option<TbValue>| ExploredMove {
                mv: MoveView::of(mv),
                value: value.map(|value| ValueView::of(value, mover)),
                forbid: judge.as_ref().map(|judge| winner_after(judge, game, mv)),
            };
            match value_after(&tables, position, mv) {
                Some(value) => moves.push((value, explored(Some(value)))),
                None => unknown.push(explored(None)),
            }
        }
        moves.sort_by_key(|(value, _)| rank(*value));
        let mut moves: Vec<ExploredMove> = moves.into_iter().map(|(_, m)| m).collect();
        moves.extend(unknown);
        Some(Explorer {
            value: tables.probe(position).map(|v| ValueView::of(v, mover)),
            forbid: judge.as_ref().map(|judge| winner(judge, game)),
            moves,
        })
    }

    /// The review of `game`: each move of a side in `sides` (goats, tigers) that made the
    /// value worse for its player (a win given up, a draw lost), with a move that kept it.
    ///
    /// # Errors
    /// No tables for the game's rules.
    pub fn review(&self, game: &Game, sides: [bool; 2]) -> Result<Review, String> {
        let tables = match self.get(game.rules())? {
            Some(tables) if covered(game.rules()) => tables,
            _ => return Err("no tables for these rules: generate them to review".into()),
        };
        let positions = game.positions();
        let mut review = Review {
            marks: Vec::new(),
            covered: 0,
            reviewed: 0,
        };
        for (index, &mv) in game.moves().iter().enumerate() {
            let position = &positions[index];
            let mover = position.side_to_move();
            if !sides[mover.index()] {
                continue;
            }
            review.reviewed += 1;
            let (Some(before), Some(after)) =
                (tables.probe(position), value_after(&tables, position, mv))
            else {
                continue;
            };
            review.covered += 1;
            if wdl_rank(after.wdl) > wdl_rank(before.wdl) {
                let best = tables.best_moves(position).first().map(ToString::to_string);
                review.marks.push(ReviewMark {
                    ply: index + 1,
                    mv: mv.to_string(),
                    before: ValueView::of(before, mover),
                    after: ValueView::of(after, mover),
                    best,
                });
            }
        }
        Ok(review)
    }

    /// Whether a generation is running.
    pub fn generating(&self) -> bool {
        self.generation
            .lock()
            .expect("generation lock")
            .as_ref()
            .is_some_and(|g| !g.finished)
    }

    /// Generates the movement tables for `rules` into the directory on a low-priority thread
    /// (one core, so play goes on); `notify` is called on progress (at most about every
    /// percent) and at the end. Resumable: layers already complete are kept.
    ///
    /// # Errors
    /// A generation already running, rules not covered, or the tables already there.
    pub fn start_generation(
        &self,
        rules: &Rules,
        notify: impl Fn() + Send + Sync + 'static,
    ) -> Result<(), String> {
        if !covered(rules) {
            return Err(format!(
                "the tables cover 1 to 5 captures to win, not {}",
                rules.captures_to_win
            ));
        }
        if self.generating() {
            return Err("the tables are already being generated".into());
        }
        if self.available(rules) {
            return Err("the tables for these rules are already there".into());
        }
        let key = TableRules::of(rules);
        let layers = key.captures_to_win;
        *self.generation.lock().expect("generation lock") = Some(GenerationView {
            rules: key.to_string(),
            layers,
            ..GenerationView::default()
        });
        let (dir, opened, generation) = (
            self.dir.clone(),
            Arc::clone(&self.opened),
            Arc::clone(&self.generation),
        );
        std::thread::Builder::new()
            .name("gui-tables".into())
            .spawn(move || {
                lower_priority();
                let progress = |phase: &str, done: u64, total: u64| {
                    let mut slot = generation.lock().expect("generation lock");
                    let Some(view) = slot.as_mut() else { return };
                    let percent = |d: u64| d * 100 / total.max(1);
                    if view.phase != phase || percent(done) != percent(view.done) {
                        if view.phase != phase && !view.phase.is_empty() {
                            view.layers_done = layers_done(&view.phase, phase, view.layers_done);
                        }
                        view.phase = phase.to_string();
                        (view.done, view.total) = (done, total);
                        drop(slot);
                        notify();
                    }
                };
                let result = generate_tables(&dir, key, 1, &progress);
                opened.lock().expect("tables lock").remove(&key);
                if let Some(view) = generation.lock().expect("generation lock").as_mut() {
                    view.finished = true;
                    match result {
                        Ok(_) => view.layers_done = view.layers,
                        Err(error) => view.error = Some(error.to_string()),
                    }
                }
                log::info!("tables for {key}: generation ended");
                notify();
            })
            .map_err(|e| format!("cannot start the generation: {e}"))?;
        Ok(())
    }
}

/// Layers completed when the phase changes from `previous` to `next` (`layer N ...`).
fn layers_done(previous: &str, next: &str, done: u8) -> u8 {
    let layer = |phase: &str| phase.split_whitespace().nth(1).map(str::to_string);
    if layer(previous) == layer(next) {
        done
    } else {
        done + 1
    }
}

/// Runs the calling thread at the lowest priority (Linux: nice 19 for this thread only).
fn lower_priority() {
    #[cfg(target_os = "linux")]
    // SAFETY: plain system calls on the calling thread's id; no memory is shared.
    unsafe {
        let thread = libc::gettid();
        libc::setpriority(libc::PRIO_PROCESS, thread as libc::id_t, 19);
    };
}

/// The value of `mv` for the player making it (the position after it, seen from before it).
fn value_after(tables: &Tablebase, position: &Position, mv: crate::Move) -> Option<TbValue> {
    let after = tables.probe(&position.played(mv))?.negate();
    Some(TbValue {
        wdl: after.wdl,
        plies_to_end: after.plies_to_end.map(|plies| plies + 1),
    })
}

/// Win < draw < loss.
fn wdl_rank(wdl: Wdl) -> u8 {
    match wdl {
        Wdl::Win => 0,
        Wdl::Draw => 1,
        Wdl::Loss => 2,
    }
}

/// Best first: fastest wins, draws, slowest losses (a distance unknown: after known ones).
fn rank(value: TbValue) -> (u8, i32) {
    let plies = value.plies_to_end.map_or(i32::MAX, i32::from);
    match value.wdl {
        Wdl::Win => (0, plies),
        Wdl::Draw => (1, 0),
        Wdl::Loss => (
            2,
            if value.plies_to_end.is_some() {
                -plies
            } else {
                0
            },
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_sort_wins_fastest_draws_losses_slowest() {
        let win = |p| TbValue::at_distance(p);
        let mut values = [win(2), win(7), TbValue::DRAW, win(3), win(10)];
        values.sort_by_key(|v| rank(*v));
        assert_eq!(values, [win(3), win(7), TbValue::DRAW, win(10), win(2)]);
        assert!(command(Path::new("/d"), TableRules::DEFAULT).ends_with("--out /d"));
        assert_eq!(layers_done("layer 4 solve", "layer 3 solve", 0), 1);
        assert_eq!(layers_done("layer 4 a", "layer 4 b", 1), 1);
    }
}
