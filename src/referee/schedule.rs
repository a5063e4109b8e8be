//! The match schedule: which engines meet, with which colours and openings, in which game
//! number. It is a pure function of the command line and the seed, so every run, shard and
//! resumed run agrees on it.

use super::openings::{opening_sequence, Order};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::fmt;
use std::str::FromStr;

/// Who plays whom.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Tournament {
    /// Every engine against every other.
    RoundRobin,
    /// The seeds (`-seeds N`, the first N engines) against each of the others.
    Gauntlet,
    /// Single elimination: a bracket seeded in the order given, byes for the top seeds, a tie
    /// broken by up to 10 more games, then by seed.
    Knockout,
}

/// One game of the schedule.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ScheduledGame {
    /// Game number, 1-based.
    pub number: u64,
    /// Game pair number, 1-based: two consecutive games of an encounter (sides swapped unless
    /// `-noswap`), the unit of the pentanomial statistics and of shards.
    pub pair: u64,
    /// Round, 1-based (a knockout: the bracket round).
    pub round: u32,
    /// Engine index playing goats.
    pub goat: usize,
    /// Engine index playing tigers.
    pub tiger: usize,
    /// Opening index.
    pub opening: usize,
}

/// What the schedule depends on.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ScheduleConfig {
    /// Number of engines (at least 2).
    pub engines: usize,
    /// Round robin, gauntlet or knockout.
    pub tournament: Tournament,
    /// Rounds.
    pub rounds: u32,
    /// Games per encounter and round.
    pub games: u32,
    /// Consecutive games of an encounter on one opening (`-repeat`).
    pub repeat: u32,
    /// Sides not swapped between the games of an encounter (`-noswap`).
    pub noswap: bool,
    /// Each encounter starts with its second engine as goats (`-reverse`).
    pub reverse: bool,
    /// Gauntlet seeds (`-seeds`).
    pub seeds: usize,
    /// Opening order.
    pub order: Order,
    /// Opening start offset, 0-based.
    pub start: usize,
    /// Number of openings available.
    pub openings: usize,
    /// Match seed.
    pub seed: u64,
}

/// The encounters (pairs of engine indices) of a round robin or gauntlet, in schedule order;
/// none for a knockout, whose encounters depend on results ([`super::knockout`]).
pub fn encounters(engines: usize, tournament: Tournament, seeds: usize) -> Vec<(usize, usize)> {
    match tournament {
        Tournament::RoundRobin => (0..engines)
            .flat_map(|a| (a + 1..engines).map(move |b| (a, b)))
            .collect(),
        Tournament::Gauntlet => (0..seeds.min(engines))
            .flat_map(|seed| (seeds..engines).map(move |b| (seed, b)))
            .collect(),
        Tournament::Knockout => Vec::new(),
    }
}

/// Numbers the games of encounters as they are scheduled: game pairs, opening groups and
/// sides, shared by every tournament kind.
#[derive(Debug, Default)]
pub struct GameNumbering {
    /// Games so far.
    games: u64,
    /// Game pairs so far.
    pairs: u64,
    /// Opening groups so far.
    groups: u64,
    /// Per encounter: games so far, its current pair and opening group.
    encounters: HashMap<(usize, usize), (u64, u64, u64)>,
    /// The opening of each group so far (a prefix of the whole sequence, grown on demand).
    sequence: Vec<usize>,
}

impl GameNumbering {
    /// The next game of encounter `(a, b)`: consecutive games form pairs, `repeat` consecutive
    /// games share an opening, and sides alternate from `a` as goats (`b` with `reverse`)
    /// unless `noswap`.
    pub fn next(
        &mut self,
        config: &ScheduleConfig,
        round: u32,
        a: usize,
        b: usize,
    ) -> ScheduledGame {
        let (count, pair, group) = self.encounters.entry((a, b)).or_insert((0, 0, 0));
        if *count % 2 == 0 {
            self.pairs += 1;
            *pair = self.pairs;
        }
        if *count % u64::from(config.repeat.max(1)) == 0 {
            self.groups += 1;
            *group = self.groups;
        }
        let (first, second) = if config.reverse { (b, a) } else { (a, b) };
        let (goat, tiger) = if config.noswap || *count % 2 == 0 {
            (first, second)
        } else {
            (second, first)
        };
        *count += 1;
        let (pair, group) = (*pair, *group);
        self.games += 1;
        ScheduledGame {
            number: self.games,
            pair,
            round,
            goat,
            tiger,
            opening: self.opening(config, group - 1),
        }
    }

    /// The opening of opening group `group` (0-based): a pure function of the order, start,
    /// number of openings and seed (the sequence is computed in ever longer prefixes, each one
    /// the start of the next).
    fn opening(&mut self, config: &ScheduleConfig, group: u64) -> usize {
        let index = usize::try_from(group).expect("fewer groups than memory");
        if index >= self.sequence.len() {
            let count = (index + 1).max(self.sequence.len() * 2).max(64);
            self.sequence = opening_sequence(
                config.order,
                config.start,
                config.openings.max(1),
                count,
                config.seed,
            );
        }
        self.sequence[index]
    }
}

/// The whole schedule of a round robin or gauntlet (a knockout's is built as results come in,
/// by [`super::knockout`]). Each round plays every encounter's games in turn.
pub fn schedule(config: &ScheduleConfig) -> Vec<ScheduledGame> {
    let encounters = encounters(config.engines, config.tournament, config.seeds);
    let mut numbering = GameNumbering::default();
    let mut games = Vec::new();
    for round in 1..=config.rounds {
        for &(a, b) in &encounters {
            for _ in 0..config.games {
                games.push(numbering.next(config, round, a, b));
            }
        }
    }
    games
}

/// Checks the tournament options against each other and the number of engines; `split` is a
/// run sharded or stopped by an SPRT, which a knockout cannot be.
///
/// # Errors
/// A message naming the options that do not fit.
pub fn check_tournament(
    tournament: Tournament,
    seeds: u32,
    rounds: u32,
    engines: usize,
    split: bool,
) -> Result<(), String> {
    match tournament {
        Tournament::Gauntlet if seeds as usize >= engines => Err(format!(
            "--seeds {seeds} leaves no engine for the seeds to play: a gauntlet of {engines} engines has at most {} seeds",
            engines - 1
        )),
        Tournament::Gauntlet => Ok(()),
        _ if seeds != 1 => Err(
            "--seeds is for --tournament gauntlet (a knockout seeds the engines in the order given)"
                .into(),
        ),
        Tournament::Knockout if rounds != 1 => Err(
            "--tournament knockout plays each match once: use --games for more games per match, not --rounds"
                .into(),
        ),
        Tournament::Knockout if split => Err(
            "--tournament knockout cannot be sharded or stopped by an SPRT (its next games depend on results)"
                .into(),
        ),
        _ => Ok(()),
    }
}

/// A part of the match: shard `index` of `count` (1-based) plays the game pairs whose number
/// is `index` modulo `count`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Shard {
    /// 1..=count.
    pub index: u64,
    /// Number of shards.
    pub count: u64,
}

impl Shard {
    /// Whether game pair `pair` belongs to this shard.
    pub fn contains(&self, pair: u64) -> bool {
        (pair - 1) % self.count == self.index - 1
    }
}

impl FromStr for Shard {
    type Err = String;

    fn from_str(text: &str) -> Result<Shard, String> {
        let error = || format!("invalid shard \"{text}\": expected i/n with 1 <= i <= n");
        let (index, count) = text.split_once('/').ok_or_else(error)?;
        let index: u64 = index.parse().map_err(|_| error())?;
        let count: u64 = count.parse().map_err(|_| error())?;
        if index == 0 || index > count {
            return Err(error());
        }
        Ok(Shard { index, count })
    }
}

impl TryFrom<String> for Shard {
    type Error = String;

    fn try_from(text: String) -> Result<Shard, String> {
        text.parse()
    }
}

impl From<Shard> for String {
    fn from(shard: Shard) -> String {
        shard.to_string()
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

#[cfg(test)]
impl ScheduleConfig {
    /// A plain schedule for unit tests: openings in order from the first, pairs of two games
    /// with sides swapped, one seed, seed 1.
    pub(crate) fn plain(
        engines: usize,
        tournament: Tournament,
        rounds: u32,
        games: u32,
        openings: usize,
    ) -> ScheduleConfig {
        ScheduleConfig {
            engines,
            tournament,
            rounds,
            games,
            repeat: 2,
            noswap: false,
            reverse: false,
            seeds: 1,
            order: Order::Sequential,
            start: 0,
            openings,
            seed: 1,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(engines: usize, tournament: Tournament, rounds: u32, games: u32) -> ScheduleConfig {
        ScheduleConfig::plain(engines, tournament, rounds, games, 3)
    }

    #[test]
    fn game_pairs_swap_sides_on_the_same_opening() {
        let games = schedule(&config(2, Tournament::RoundRobin, 3, 2));
        assert_eq!(games.len(), 6);
        for pair in games.chunks(2) {
            assert_eq!(pair[0].pair, pair[1].pair);
            assert_eq!(pair[0].opening, pair[1].opening);
            assert_eq!((pair[0].goat, pair[0].tiger), (pair[1].tiger, pair[1].goat));
        }
        assert_eq!(
            games.iter().map(|g| g.opening).collect::<Vec<_>>(),
            vec![0, 0, 1, 1, 2, 2]
        );
        assert_eq!(games[5].number, 6);
        assert_eq!(games[5].round, 3);
        // One game per round: pairs span rounds, colours still alternate.
        let single = schedule(&config(2, Tournament::RoundRobin, 4, 1));
        assert_eq!(
            single.iter().map(|g| (g.pair, g.goat)).collect::<Vec<_>>(),
            vec![(1, 0), (1, 1), (2, 0), (2, 1)]
        );
    }

    #[test]
    fn round_robin_and_gauntlet_encounters() {
        assert_eq!(encounters(4, Tournament::RoundRobin, 1).len(), 6);
        assert_eq!(
            encounters(4, Tournament::Gauntlet, 1),
            vec![(0, 1), (0, 2), (0, 3)]
        );
        // Two seeds: each meets every non-seed; seeds do not meet, nor do non-seeds.
        assert_eq!(
            encounters(5, Tournament::Gauntlet, 2),
            vec![(0, 2), (0, 3), (0, 4), (1, 2), (1, 3), (1, 4)]
        );
        let games = schedule(&config(3, Tournament::RoundRobin, 1, 2));
        assert_eq!(games.len(), 6);
        assert_eq!(
            games.iter().map(|g| g.pair).collect::<Vec<_>>(),
            vec![1, 1, 2, 2, 3, 3]
        );
    }

    #[test]
    fn repeat_noswap_and_reverse() {
        let sides = |config: &ScheduleConfig| -> Vec<(usize, usize)> {
            schedule(config)
                .iter()
                .map(|g| (g.goat, g.opening))
                .collect()
        };
        let mut three = config(2, Tournament::RoundRobin, 1, 6);
        three.repeat = 3;
        assert_eq!(
            sides(&three),
            vec![(0, 0), (1, 0), (0, 0), (1, 1), (0, 1), (1, 1)]
        );
        // Pairs stay two consecutive games whatever -repeat is.
        assert_eq!(
            schedule(&three).iter().map(|g| g.pair).collect::<Vec<_>>(),
            vec![1, 1, 2, 2, 3, 3]
        );
        let mut one = config(2, Tournament::RoundRobin, 2, 2);
        one.repeat = 1;
        assert_eq!(sides(&one), vec![(0, 0), (1, 1), (0, 2), (1, 0)]);
        one.noswap = true;
        assert!(schedule(&one).iter().all(|g| (g.goat, g.tiger) == (0, 1)));
        one.reverse = true;
        assert!(schedule(&one).iter().all(|g| (g.goat, g.tiger) == (1, 0)));
        one.noswap = false;
        assert_eq!(
            schedule(&one).iter().map(|g| g.goat).collect::<Vec<_>>(),
            vec![1, 0, 1, 0]
        );
    }

    #[test]
    fn shards_partition_the_pairs() {
        let games = schedule(&config(2, Tournament::RoundRobin, 5, 2));
        let shards: Vec<Shard> = ["1/3", "2/3", "3/3"]
            .iter()
            .map(|s| s.parse().unwrap())
            .collect();
        for game in &games {
            assert_eq!(shards.iter().filter(|s| s.contains(game.pair)).count(), 1);
        }
        for bad in ["0/2", "3/2", "x", "1/0", "1-2"] {
            assert!(bad
                .parse::<Shard>()
                .unwrap_err()
                .contains(&format!("\"{bad}\"")));
        }
    }
}
