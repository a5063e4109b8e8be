//! Held-out test sets (issue 27, tests/data/holdout/): critical positions of both phases with
//! exact values from the tables, one file per source, never used for training or for choosing
//! a parameter. `tools/holdout_sets.rs` writes them; `referee positions --file FILE` scores an
//! engine on one (docs/eval.md, "Held-out test sets").
//!
//! A position is critical when it is won or drawn for the side to move and some legal move
//! throws that away. Under `Repetition draw` every critical position qualifies. Under `forbid`
//! a table draw is not the game's value (docs/forbid.md), so a set keeps only table wins with a
//! move into a table loss: from an empty history a table win or loss is a win or loss under
//! forbid too (the winner's line strictly lowers its distance, so it never meets the position it
//! started from), hence the win, the moves that keep it and the moves that lose it are exact
//! there; the moves into table draws are listed as `unknown` (scored apart).

use std::collections::HashSet;
use std::path::Path;
use std::time::Duration;

use rand::rngs::StdRng;
use rand::seq::index::sample;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};

use super::data::{Labelled, Source as Reached};
use super::selfplay::random_opening;
use crate::engine::{Engine, EngineOptions, Evaluation, Limits};
use crate::referee::positions::SuiteEntry;
use crate::tablebase::{Tablebase, Wdl};
use crate::{Bitboard, Position, Repetition, Rules, Side};

/// Every position of the held-out sets in `dir` (`*-draw.txt`, `*-forbid.txt`): what a
/// training tool must leave out.
///
/// # Errors
/// A message when the directory or a set cannot be read, or holds no set.
pub fn held_out_positions(dir: &Path) -> Result<HashSet<Position>, String> {
    let entries = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut positions = HashSet::new();
    for entry in entries {
        let path = entry.map_err(|e| e.to_string())?.path();
        let name = path.file_name().unwrap_or_default().to_string_lossy();
        if name.ends_with("-draw.txt") || name.ends_with("-forbid.txt") {
            let (_, suite) = crate::referee::positions::read_suite(&path)?;
            positions.extend(suite.into_iter().map(|entry| entry.position));
        }
    }
    if positions.is_empty() {
        return Err(format!("no held-out sets in {}", dir.display()));
    }
    Ok(positions)
}

/// Where the positions of a set come from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// The engine without tables plays both sides at this many nodes a move.
    Nodes(u64),
    /// The same at this many milliseconds a move (not reproducible node for node).
    Movetime(u64),
    /// The same at `UCI_LimitStrength` and this `UCI_Elo`.
    Elo(i64),
    /// Games played elsewhere: `# game` lines separate games, other lines are positions.
    Games(std::path::PathBuf),
    /// Positions drawn uniformly from every layer of the tables in turn.
    Uniform,
}

impl std::str::FromStr for Source {
    type Err = String;

    fn from_str(text: &str) -> Result<Source, String> {
        let number = |value: &str| {
            value
                .parse::<u64>()
                .map_err(|_| format!("bad number \"{value}\" in source \"{text}\""))
        };
        match text.split_once(':') {
            Some(("nodes", n)) => Ok(Source::Nodes(number(n)?)),
            Some(("movetime", ms)) => Ok(Source::Movetime(number(ms)?)),
            Some(("elo", elo)) => Ok(Source::Elo(i64::try_from(number(elo)?).map_err(|e| e.to_string())?)),
            Some(("games", file)) if !file.is_empty() => Ok(Source::Games(file.into())),
            None if text == "uniform" => Ok(Source::Uniform),
            _ => Err(format!(
                "unknown source \"{text}\": expected nodes:N, movetime:MS, elo:E, games:FILE or uniform"
            )),
        }
    }
}

/// The positions (before every move) of self-play game `index` from `random_opening(rules,
/// seed, index)`: the engine without tables on both sides, one thread, 16 MB, a fresh engine
/// each game. `source` must be `Nodes`, `Movetime` or `Elo`.
pub fn self_play(
    source: &Source,
    rules: Rules,
    seed: u64,
    index: u64,
    max_plies: usize,
) -> Vec<Position> {
    let mut game = random_opening(rules, seed, index);
    let mut options = EngineOptions {
        rules,
        hash_mb: 16,
        // The committed sets were played with the classic evaluation (then the default).
        evaluation: Evaluation::Classic,
        ..EngineOptions::default()
    };
    let mut limits = Limits::default();
    match *source {
        Source::Nodes(nodes) => limits.nodes = Some(nodes),
        Source::Movetime(ms) => limits.movetime = Some(Duration::from_millis(ms)),
        Source::Elo(elo) => {
            options.limit_strength = true;
            options.elo = elo;
            // The level's random choices, seeded per game (0 would draw a fresh seed).
            options.seed = seed.wrapping_mul(1_000_003).wrapping_add(index) | 1;
            limits.nodes = Some(u64::MAX);
        }
        Source::Games(_) | Source::Uniform => return Vec::new(),
    }
    let mut engine = Engine::new(options);
    while game.outcome().is_none() && game.ply() < max_plies {
        engine.set_game(game.clone());
        let Some(mv) = engine.search_blocking(limits.clone()).best_move else {
            break;
        };
        if game.play(mv).is_err() {
            break;
        }
    }
    game.positions().to_vec()
}

/// The games of a `games:FILE` source.
///
/// # Errors
/// The file and line of the first unreadable line.
pub fn read_games(path: &Path) -> Result<Vec<Vec<Position>>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read \"{}\": {e}", path.display()))?;
    let mut games: Vec<Vec<Position>> = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let line = line.trim();
        let at = || format!("{}:{}", path.display(), number + 1);
        if line.starts_with("# game") {
            games.push(Vec::new());
        } else if !line.is_empty() && !line.starts_with('#') {
            let position: Position = line.parse().map_err(|e| format!("{}: {e}", at()))?;
            games
                .last_mut()
                .ok_or_else(|| format!("{}: a position before the first \"# game\" line", at()))?
                .push(position);
        }
    }
    Ok(games)
}

/// One position drawn uniformly in the layer (goats in hand, captured): random squares for the
/// four tigers and the goats on the board, a random side to move; `None` when that is not a
/// position (tigers to move before the first goat).
pub fn uniform_draw(in_hand: u8, captured: u8, rng: &mut StdRng) -> Option<Position> {
    let on_board = 20usize.checked_sub(usize::from(in_hand) + usize::from(captured))?;
    let squares = sample(rng, 25, 4 + on_board);
    let (mut tigers, mut goats) = (Bitboard::EMPTY, Bitboard::EMPTY);
    for (i, square) in squares.iter().enumerate() {
        let bit = Bitboard(1 << square);
        if i < 4 {
            tigers |= bit;
        } else {
            goats |= bit;
        }
    }
    let side = if rng.random_bool(0.5) {
        Side::Goats
    } else {
        Side::Tigers
    };
    Position::from_parts(tigers, goats, side, in_hand, captured).ok()
}

/// The layers of a rule variant, movement first: (goats in hand, captured).
pub fn layers(rules: &Rules) -> Vec<(u8, u8)> {
    let last = rules.captures_to_win.saturating_sub(1);
    let mut out: Vec<(u8, u8)> = (0..=last).map(|c| (0, c)).collect();
    for in_hand in 1..=20u8 {
        out.extend((0..=last.min(20 - in_hand)).map(|c| (in_hand, c)));
    }
    out
}

/// The test entry for `position` when it belongs in a set under `rules` (module docs).
pub fn entry(tables: &Tablebase, position: &Position, rules: &Rules) -> Option<SuiteEntry> {
    let labelled = Labelled::new(tables, position, Reached::Game)?;
    if !labelled.critical {
        return None;
    }
    let mut unknown = Vec::new();
    if rules.repetition == Repetition::Forbid {
        if labelled.value.wdl != Wdl::Win {
            return None;
        }
        // Moves into table draws have no known value under forbid; a move into a table win for
        // the opponent loses. Critical under forbid takes at least one such losing move.
        let mut losing = false;
        for &mv in position.legal_moves(rules).iter() {
            match tables.probe(&position.played(mv)).map(|v| v.wdl) {
                Some(Wdl::Draw) => unknown.push(mv),
                Some(Wdl::Win) => losing = true,
                _ => {}
            }
        }
        if !losing {
            return None;
        }
    }
    let value = match (labelled.value.wdl, labelled.value.plies_to_end) {
        (Wdl::Draw, _) => "draw".to_string(),
        (_, Some(plies)) => format!("win {plies}"),
        (_, None) => "win".to_string(),
    };
    Some(SuiteEntry {
        position: *position,
        value,
        keeping: tables.best_moves(position),
        unknown,
    })
}

/// A set being collected: distinct positions, at most `per_game` of a phase from one game (or
/// one layer draw), until each phase (movement, placement) has `per_phase`.
pub struct Collector<'a> {
    tables: &'a Tablebase,
    rules: Rules,
    per_phase: usize,
    per_game: usize,
    seen: HashSet<Position>,
    /// The entries so far: movement, then placement.
    pub phases: [Vec<SuiteEntry>; 2],
    /// Positions met that the tables do not cover.
    pub uncovered: u64,
}

impl<'a> Collector<'a> {
    /// An empty set.
    pub fn new(
        tables: &'a Tablebase,
        rules: Rules,
        per_phase: usize,
        per_game: usize,
    ) -> Collector<'a> {
        Collector {
            tables,
            rules,
            per_phase,
            per_game,
            seen: HashSet::new(),
            phases: [Vec::new(), Vec::new()],
            uncovered: 0,
        }
    }

    /// Both phases have their count.
    pub fn is_full(&self) -> bool {
        self.phases.iter().all(|p| p.len() >= self.per_phase)
    }

    /// Entries so far, both phases.
    pub fn len(&self) -> usize {
        self.phases[0].len() + self.phases[1].len()
    }

    /// No entry yet.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Takes what belongs in the set from the positions of one game, in order; returns how many.
    pub fn take(&mut self, positions: &[Position]) -> usize {
        let mut taken = [0; 2];
        for position in positions {
            let phase = usize::from(position.goats_in_hand() > 0);
            if self.phases[phase].len() >= self.per_phase || taken[phase] >= self.per_game {
                continue;
            }
            if !self.seen.insert(*position) {
                continue;
            }
            if position.outcome(&self.rules).is_none() && self.tables.probe(position).is_none() {
                self.uncovered += 1;
                continue;
            }
            if let Some(entry) = entry(self.tables, position, &self.rules) {
                taken[phase] += 1;
                self.phases[phase].push(entry);
            }
        }
        taken[0] + taken[1]
    }

    /// One round of uniform draws: for each layer, in a random order (so that when a phase
    /// fills up no layer is favoured), up to `tries` draws until one belongs.
    pub fn take_uniform_round(&mut self, rng: &mut StdRng, tries: usize) {
        let mut order = layers(&self.rules);
        order.shuffle(rng);
        for (in_hand, captured) in order {
            for _ in 0..tries {
                let Some(position) = uniform_draw(in_hand, captured, rng) else {
                    continue;
                };
                if self.take(&[position]) > 0 {
                    break;
                }
            }
        }
    }
}

/// The seeded generator of the uniform draws.
pub fn uniform_rng(seed: u64) -> StdRng {
    StdRng::seed_from_u64(seed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sources_parse_and_bad_ones_are_named() {
        assert_eq!("nodes:2000".parse::<Source>(), Ok(Source::Nodes(2000)));
        assert_eq!("elo:900".parse::<Source>(), Ok(Source::Elo(900)));
        assert_eq!("uniform".parse::<Source>(), Ok(Source::Uniform));
        assert!("nodes:x"
            .parse::<Source>()
            .unwrap_err()
            .contains("bad number"));
        assert!("games:".parse::<Source>().is_err());
        assert!("random"
            .parse::<Source>()
            .unwrap_err()
            .contains("unknown source"));
    }

    #[test]
    fn uniform_draws_fill_their_layer() {
        let mut rng = uniform_rng(3);
        let mut drawn = 0;
        for (in_hand, captured) in layers(&Rules::default()) {
            if let Some(p) = uniform_draw(in_hand, captured, &mut rng) {
                assert_eq!((p.goats_in_hand(), p.goats_captured()), (in_hand, captured));
                assert_eq!(p.goats().count() as u8, 20 - in_hand - captured);
                drawn += 1;
            }
        }
        // 5 movement layers and 90 placement layers; only tigers to move at 20 in hand fails.
        assert_eq!(layers(&Rules::default()).len(), 95);
        assert!(drawn >= 94, "{drawn}");
    }
}
