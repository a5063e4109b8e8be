//! The match schedule: which engines meet, with which colours and openings, in which game
//! number. It is a pure function of the command line and the seed, so every run, shard and
//! resumed run agrees on it.

use super::openings::{opening_sequence, Order};
use std::collections::HashMap;
use std::fmt;
use std::str::FromStr;

/// Who plays whom.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Tournament {
    /// Every engine against every other.
    RoundRobin,
    /// The first engine against each of the others.
    Gauntlet,
}

/// One game of the schedule.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ScheduledGame {
    /// Game number, 1-based.
    pub number: u64,
    /// Game pair number, 1-based: both games of a pair use the same opening with sides swapped.
    pub pair: u64,
    /// Round, 1-based.
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
    /// Round robin or gauntlet.
    pub tournament: Tournament,
    /// Rounds.
    pub rounds: u32,
    /// Games per encounter and round (2 = one game pair).
    pub games: u32,
    /// Opening order.
    pub order: Order,
    /// Opening start offset, 0-based.
    pub start: usize,
    /// Number of openings available.
    pub openings: usize,
    /// Match seed.
    pub seed: u64,
}

/// The encounters (pairs of engine indices) of a tournament, in schedule order.
pub fn encounters(engines: usize, tournament: Tournament) -> Vec<(usize, usize)> {
    match tournament {
        Tournament::RoundRobin => (0..engines)
            .flat_map(|a| (a + 1..engines).map(move |b| (a, b)))
            .collect(),
        Tournament::Gauntlet => (1..engines).map(|b| (0, b)).collect(),
    }
}

/// The whole schedule. Within an encounter, its games alternate colours, game 1, 3, ... with
/// the encounter's first engine as goats; each two consecutive games form a pair sharing one
/// opening.
pub fn schedule(config: &ScheduleConfig) -> Vec<ScheduledGame> {
    let encounters = encounters(config.engines, config.tournament);
    let total = encounters.len() as u64 * u64::from(config.rounds) * u64::from(config.games);
    let sequence = opening_sequence(
        config.order,
        config.start,
        config.openings.max(1),
        usize::try_from(total).unwrap_or(usize::MAX),
        config.seed,
    );
    let mut played: HashMap<usize, (u64, u64)> = HashMap::new();
    let mut games = Vec::new();
    let mut pairs = 0u64;
    for round in 1..=config.rounds {
        for (index, &(a, b)) in encounters.iter().enumerate() {
            for _ in 0..config.games {
                let (count, pair) = played.entry(index).or_insert((0, 0));
                if *count % 2 == 0 {
                    pairs += 1;
                    *pair = pairs;
                }
                let (goat, tiger) = if *count % 2 == 0 { (a, b) } else { (b, a) };
                *count += 1;
                games.push(ScheduledGame {
                    number: games.len() as u64 + 1,
                    pair: *pair,
                    round,
                    goat,
                    tiger,
                    opening: sequence[(*pair - 1) as usize],
                });
            }
        }
    }
    games
}

/// A part of the match: shard `index` of `count` (1-based) plays the game pairs whose number
/// is `index` modulo `count`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
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

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(engines: usize, tournament: Tournament, rounds: u32, games: u32) -> ScheduleConfig {
        ScheduleConfig {
            engines,
            tournament,
            rounds,
            games,
            order: Order::Sequential,
            start: 0,
            openings: 3,
            seed: 1,
        }
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
        assert_eq!(encounters(4, Tournament::RoundRobin).len(), 6);
        assert_eq!(
            encounters(4, Tournament::Gauntlet),
            vec![(0, 1), (0, 2), (0, 3)]
        );
        let games = schedule(&config(3, Tournament::RoundRobin, 1, 2));
        assert_eq!(games.len(), 6);
        assert_eq!(
            games.iter().map(|g| g.pair).collect::<Vec<_>>(),
            vec![1, 1, 2, 2, 3, 3]
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
