//! The engine's settings and the one statement of each numeric setting's range and default
//! (the protocol's option table and the engine's clamping both read these).

use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;
use std::time::Duration;

use super::skill_elo::LEVEL_ELO;
use crate::Rules;

/// An integer setting's range and default.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Range {
    /// Smallest value.
    pub min: i64,
    /// Largest value.
    pub max: i64,
    /// Value when nothing is set.
    pub default: i64,
}

impl Range {
    /// `value` moved into the range.
    pub const fn clamp(self, value: i64) -> i64 {
        if value < self.min {
            self.min
        } else if value > self.max {
            self.max
        } else {
            value
        }
    }

    fn clamp_usize(self, value: usize) -> usize {
        self.clamp(i64::try_from(value).unwrap_or(i64::MAX)) as usize
    }
}

/// Transposition table size in MB.
pub const HASH_MB: Range = Range {
    min: 1,
    max: 4096,
    default: 16,
};
/// Search threads (Lazy SMP when more than 1).
pub const THREADS: Range = Range {
    min: 1,
    max: 64,
    default: 1,
};
/// Principal variations reported.
pub const MULTI_PV: Range = Range {
    min: 1,
    max: 64,
    default: 1,
};
/// Milliseconds kept back per move for communication.
pub const MOVE_OVERHEAD_MS: Range = Range {
    min: 0,
    max: 5000,
    default: 30,
};
/// `nodestime`: nodes that count as one millisecond of thinking time (0: real time), as in
/// Stockfish.
pub const NODES_TIME: Range = Range {
    min: 0,
    max: 10_000,
    default: 0,
};
/// Seed of the random mover, as the protocol offers it (the engine takes any `u64`).
pub const SEED: Range = Range {
    min: 0,
    max: 2_147_483_647,
    default: 0,
};

/// `Skill Level`: 0 (weakest) to 20 (full strength, the default).
pub const SKILL_LEVEL: Range = Range {
    min: 0,
    max: 20,
    default: 20,
};
/// `UCI_Elo`, on the measured scale of [`LEVEL_ELO`] (a uniformly random mover is 0): from level
/// 0's rating to level 20's, level 10's by default.
pub const UCI_ELO: Range = Range {
    min: extreme_elo(false),
    max: extreme_elo(true),
    default: LEVEL_ELO[10] as i64,
};

// A table whose levels all rate alike, or a default outside the range, does not build.
const _: () = assert!(
    UCI_ELO.min < UCI_ELO.max && UCI_ELO.min <= UCI_ELO.default && UCI_ELO.default <= UCI_ELO.max
);

/// The largest (or smallest) rating in [`LEVEL_ELO`].
const fn extreme_elo(largest: bool) -> i64 {
    let mut out = LEVEL_ELO[0];
    let mut i = 1;
    while i < LEVEL_ELO.len() {
        let elo = LEVEL_ELO[i];
        if (largest && elo > out) || (!largest && elo < out) {
            out = elo;
        }
        i += 1;
    }
    out as i64
}

/// How the engine picks moves: a full search, or the weak reference players used to measure
/// strength.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum Strategy {
    /// Iterative-deepening alpha-beta search.
    #[default]
    Search,
    /// A uniformly random legal move (seeded).
    Random,
    /// The move with the best static evaluation after one ply.
    Greedy,
}

impl Strategy {
    /// Every strategy, in the order the protocol lists them.
    pub const ALL: [Strategy; 3] = [Strategy::Search, Strategy::Random, Strategy::Greedy];

    /// `search`, `random` or `greedy`.
    pub const fn name(self) -> &'static str {
        match self {
            Strategy::Search => "search",
            Strategy::Random => "random",
            Strategy::Greedy => "greedy",
        }
    }
}

impl fmt::Display for Strategy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A strategy name other than `search`, `random` or `greedy`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseStrategyError(pub String);

impl fmt::Display for ParseStrategyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "invalid strategy \"{}\": expected search, random or greedy",
            self.0
        )
    }
}

impl std::error::Error for ParseStrategyError {}

impl FromStr for Strategy {
    type Err = ParseStrategyError;

    /// Case-insensitive `search`, `random` or `greedy`.
    fn from_str(text: &str) -> Result<Strategy, ParseStrategyError> {
        Strategy::ALL
            .into_iter()
            .find(|strategy| strategy.name().eq_ignore_ascii_case(text))
            .ok_or_else(|| ParseStrategyError(text.to_string()))
    }
}

/// Which static evaluation the search uses.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Evaluation {
    /// The weighted hand-made features, fitted to the tables (`search::eval`).
    Classic,
    /// The pattern network learned from the tables (`search::network`).
    Network,
}

impl Default for Evaluation {
    fn default() -> Evaluation {
        Evaluation::DEFAULT
    }
}

impl Evaluation {
    /// The default evaluation (the `Eval` option's and `baghchal bench`'s): the network keeps
    /// the value more often than the features on every held-out source (docs/eval.md).
    pub const DEFAULT: Evaluation = Evaluation::Network;

    /// Every evaluation, in the order the protocol lists them.
    pub const ALL: [Evaluation; 2] = [Evaluation::Classic, Evaluation::Network];

    /// The names of [`Evaluation::ALL`], in order.
    pub const NAMES: [&'static str; Evaluation::ALL.len()] = {
        let mut names = [""; Evaluation::ALL.len()];
        let mut i = 0;
        while i < names.len() {
            names[i] = Evaluation::ALL[i].name();
            i += 1;
        }
        names
    };

    /// The evaluation named `name` ([`Evaluation::name`]).
    pub fn from_name(name: &str) -> Option<Evaluation> {
        Evaluation::ALL.into_iter().find(|e| e.name() == name)
    }

    /// `classic` or `network`.
    pub const fn name(self) -> &'static str {
        match self {
            Evaluation::Classic => "classic",
            Evaluation::Network => "network",
        }
    }
}

/// Engine settings (the protocol maps its options onto these). Numeric fields keep to their
/// [`Range`]s: [`EngineOptions::clamped`] moves them in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineOptions {
    /// Transposition table size in MB ([`HASH_MB`]).
    pub hash_mb: usize,
    /// Search threads ([`THREADS`]).
    pub threads: usize,
    /// Lines to report ([`MULTI_PV`]; capped by the number of legal moves).
    pub multi_pv: usize,
    /// Time kept back per move for communication ([`MOVE_OVERHEAD_MS`]).
    pub move_overhead: Duration,
    /// Whether infos carry win/draw/loss estimates.
    pub show_wdl: bool,
    /// How moves are chosen.
    pub strategy: Strategy,
    /// The static evaluation of the search.
    pub evaluation: Evaluation,
    /// Seed for [`Strategy::Random`] and the skill levels' choices (any value; the protocol
    /// offers [`SEED`]). 0: the engine draws a fresh seed for each game.
    pub seed: u64,
    /// `Skill Level` ([`SKILL_LEVEL`]; 20 = full strength), used unless `limit_strength`.
    pub skill_level: i64,
    /// `UCI_LimitStrength`: play at `elo` instead of at `skill_level`.
    pub limit_strength: bool,
    /// `UCI_Elo` ([`UCI_ELO`]), used when `limit_strength`.
    pub elo: i64,
    /// The rule variant of the engine's game.
    pub rules: Rules,
    /// Directory of movement-phase tablebase files (`None`: no tables).
    pub tablebase_path: Option<PathBuf>,
    /// `ForbidProof`: under `Repetition forbid` with tables, a proof search at a drawn root
    /// before the search (docs/forbid.md, "A proof search at the root"); off by default (not
    /// shown to gain).
    pub forbid_proof: bool,
    /// `nodestime` ([`NODES_TIME`]): when above 0, thinking time is counted in nodes, this
    /// many to the millisecond, and the engine keeps its own clock in nodes over a game
    /// (Stockfish's rule), so timed games replay node for node.
    pub nodes_time: u64,
}

impl Default for EngineOptions {
    fn default() -> EngineOptions {
        EngineOptions {
            hash_mb: HASH_MB.default as usize,
            threads: THREADS.default as usize,
            multi_pv: MULTI_PV.default as usize,
            move_overhead: Duration::from_millis(MOVE_OVERHEAD_MS.default as u64),
            show_wdl: false,
            strategy: Strategy::Search,
            evaluation: Evaluation::default(),
            seed: SEED.default as u64,
            skill_level: SKILL_LEVEL.default,
            limit_strength: false,
            elo: UCI_ELO.default,
            rules: Rules::default(),
            tablebase_path: None,
            forbid_proof: false,
            nodes_time: NODES_TIME.default as u64,
        }
    }
}

impl EngineOptions {
    /// The options with every numeric setting moved into its range.
    pub fn clamped(mut self) -> EngineOptions {
        self.hash_mb = HASH_MB.clamp_usize(self.hash_mb);
        self.threads = THREADS.clamp_usize(self.threads);
        self.multi_pv = MULTI_PV.clamp_usize(self.multi_pv);
        let overhead_ms = i64::try_from(self.move_overhead.as_millis()).unwrap_or(i64::MAX);
        self.move_overhead = Duration::from_millis(MOVE_OVERHEAD_MS.clamp(overhead_ms) as u64);
        self.skill_level = SKILL_LEVEL.clamp(self.skill_level);
        self.elo = UCI_ELO.clamp(self.elo);
        let nodes_time = i64::try_from(self.nodes_time).unwrap_or(i64::MAX);
        self.nodes_time = NODES_TIME.clamp(nodes_time) as u64;
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_range_spans_the_table_and_holds_its_default() {
        assert!((UCI_ELO.min..=UCI_ELO.max).contains(&UCI_ELO.default));
        for elo in LEVEL_ELO {
            assert!((UCI_ELO.min..=UCI_ELO.max).contains(&i64::from(elo)));
        }
    }

    #[test]
    fn strategy_text_round_trips() {
        for strategy in Strategy::ALL {
            assert_eq!(strategy.to_string().parse::<Strategy>(), Ok(strategy));
        }
        assert_eq!("GREEDY".parse::<Strategy>(), Ok(Strategy::Greedy));
        let error = "best".parse::<Strategy>().unwrap_err();
        assert_eq!(
            error.to_string(),
            "invalid strategy \"best\": expected search, random or greedy"
        );
    }

    #[test]
    fn clamping_keeps_to_the_ranges() {
        let wild = EngineOptions {
            hash_mb: 0,
            threads: 1000,
            multi_pv: 0,
            move_overhead: Duration::from_secs(3600),
            skill_level: -3,
            elo: 1_000_000,
            ..EngineOptions::default()
        }
        .clamped();
        assert_eq!(wild.hash_mb, 1);
        assert_eq!(wild.threads, 64);
        assert_eq!(wild.multi_pv, 1);
        assert_eq!(wild.move_overhead, Duration::from_millis(5000));
        assert_eq!(wild.skill_level, 0);
        assert_eq!(wild.elo, UCI_ELO.max);
        assert_eq!(EngineOptions::default().clamped(), EngineOptions::default());
    }
}
