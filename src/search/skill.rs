//! Strength levels that play like weaker players (the scheme of Stockfish's `Skill Level`).
//!
//! A level below full strength searches with a node budget that shrinks as the level falls
//! (single threaded, so the same seed gives the same moves), with at least [`Skill::lines`]
//! principal variations, and then picks among those lines: each line's score is raised by a
//! share of its distance to the best line and by seeded noise, both growing as the level falls,
//! and the highest raised score is played. At and above [`GUARD_FROM`] the goats never play a
//! move that a one-ply look shows leaves more goats open to capture than the search's own best
//! move does (a goat dropped for nothing).
//!
//! Levels are continuous: `Skill Level` gives the whole numbers 0..=20, `UCI_Elo` any level in
//! between, read off the measured table in [`super::skill_elo`]. Level 20 is full strength and
//! takes no part here at all.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use super::options::{EngineOptions, SKILL_LEVEL};
use super::score::{Value, INFINITE};
use super::skill_elo::LEVEL_ELO;
use crate::{Bitboard, Move, Position, Rules, Side};

/// Lowest level at which the goats choose among their lines those leaving the fewest goats open
/// to capture.
pub const GUARD_FROM: f64 = 5.0;

/// A strength below full: a level in `0.0..20.0`.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Skill {
    level: f64,
}

/// One candidate line for [`Skill::pick`]: its first move and its score.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Candidate {
    /// The line's first move.
    pub mv: Move,
    /// The line's score (side to move's view).
    pub score: Value,
}

impl Skill {
    /// The skill the options ask for, or `None` for full strength: `UCI_Elo` when
    /// `limit_strength` is on, else `Skill Level`.
    pub fn from_options(options: &EngineOptions) -> Option<Skill> {
        let level = if options.limit_strength {
            level_for_elo(options.elo)
        } else {
            SKILL_LEVEL.clamp(options.skill_level) as f64
        };
        Skill::at(level)
    }

    /// The skill at `level` (`None` from the top level, 20, up: full strength).
    pub fn at(level: f64) -> Option<Skill> {
        let top = SKILL_LEVEL.max as f64;
        (level < top).then(|| Skill {
            level: level.max(0.0),
        })
    }

    /// The level, `0.0..20.0`.
    pub fn level(self) -> f64 {
        self.level
    }

    /// Main-thread nodes per move: 32 at level 0, doubling every two levels (about 23,000 at
    /// level 19). The first iteration always completes, whatever the budget.
    pub fn nodes(self) -> u64 {
        (32.0 * (self.level * 0.5).exp2()).round() as u64
    }

    /// Lines searched and chosen from: 4 from level 8 up, more below (20 at level 0), so that
    /// the weakest levels pick from nearly every move.
    pub fn lines(self) -> usize {
        4 + (2.0 * (8.0 - self.level).max(0.0)).round() as usize
    }

    /// Share of a line's distance to the best line that is forgiven: 0.9 at level 0, 0.37 at
    /// level 10, 0.02 at level 19.
    fn weakness(self) -> f64 {
        0.9 * ((20.0 - self.level) / 20.0).powf(1.3)
    }

    /// Cap on the noise's spread in centi-goats: one goat from level 10 up, four at level 0.
    fn spread_cap(self) -> f64 {
        100.0 + 30.0 * (10.0 - self.level).max(0.0)
    }

    /// Whether the goats' one-ply guard is on.
    pub fn guards_goats(self) -> bool {
        self.level >= GUARD_FROM
    }

    /// Chooses among `candidates` (best first, as the search ranked them) of the game at
    /// `position`: the index of the move to play. `seed` and the position decide the noise, so
    /// the choice repeats for the same seed.
    pub fn pick(
        self,
        position: &Position,
        rules: &Rules,
        candidates: &[Candidate],
        seed: u64,
    ) -> usize {
        let allowed: Vec<usize> = if self.guards_goats() && position.side_to_move() == Side::Goats {
            let open: Vec<u32> = candidates
                .iter()
                .map(|candidate| open_goats(position, rules, candidate.mv))
                .collect();
            let safest = open.iter().copied().min().unwrap_or(0);
            (0..candidates.len())
                .filter(|&i| open[i] <= safest)
                .collect()
        } else {
            (0..candidates.len()).collect()
        };
        let top = f64::from(candidates[0].score);
        let clamp = |value: Value| f64::from(value.clamp(-INFINITE, INFINITE));
        let worst = allowed
            .iter()
            .map(|&i| clamp(candidates[i].score))
            .fold(top, f64::min);
        let spread = (top - worst).min(self.spread_cap());
        let weakness = self.weakness();
        let mut rng = StdRng::seed_from_u64(seed ^ position.hash() ^ 0x0073_6b69_6c6c);
        let mut chosen = 0;
        let mut chosen_value = f64::NEG_INFINITY;
        for i in allowed {
            let score = clamp(candidates[i].score);
            let noise: f64 = rng.random();
            let raised = score + weakness * (top - score) + spread * weakness * noise;
            if raised > chosen_value {
                chosen = i;
                chosen_value = raised;
            }
        }
        chosen
    }
}

/// Goats the tigers could capture at once after the goats play `mv` (a one-ply look; the
/// repetition rule is ignored).
pub fn open_goats(position: &Position, rules: &Rules, mv: Move) -> u32 {
    let after = position.played(mv);
    if after.outcome(rules).is_some() {
        return 0;
    }
    let mut open = Bitboard::default();
    for reply in after.legal_moves(rules).iter() {
        if let Move::Jump { over, .. } = *reply {
            open = open.with(over);
        }
    }
    open.count()
}

/// The level that plays at `elo` on the measured scale: linear between the levels around it
/// (the table is made non-decreasing first, so that the map is monotone).
pub fn level_for_elo(elo: i64) -> f64 {
    let mut table = LEVEL_ELO.map(f64::from);
    let mut running = f64::NEG_INFINITY;
    for entry in table.iter_mut() {
        running = running.max(*entry);
        *entry = running;
    }
    let elo = elo as f64;
    if elo <= table[0] {
        return 0.0;
    }
    for (low_level, pair) in table.windows(2).enumerate() {
        let (low, high) = (pair[0], pair[1]);
        if elo <= high {
            let share = if high > low {
                (elo - low) / (high - low)
            } else {
                1.0
            };
            return low_level as f64 + share;
        }
    }
    (table.len() - 1) as f64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::options::UCI_ELO;
    use crate::Game;

    #[test]
    fn levels_grow_stronger_and_twenty_is_full_strength() {
        assert_eq!(Skill::at(20.0), None);
        let options = EngineOptions::default();
        assert_eq!(Skill::from_options(&options), None);
        for level in 0..20 {
            let (low, high) = (
                Skill::at(level as f64).unwrap(),
                Skill::at(level as f64 + 0.5),
            );
            let high = high.unwrap();
            assert!(low.nodes() < high.nodes());
            assert!(low.lines() >= high.lines());
            assert!(low.weakness() > high.weakness());
        }
        assert_eq!(Skill::at(0.0).unwrap().lines(), 20);
        assert_eq!(Skill::at(19.0).unwrap().lines(), 4);
    }

    #[test]
    fn elo_maps_onto_the_levels_monotonically() {
        assert_eq!(level_for_elo(UCI_ELO.min - 1000), 0.0);
        assert_eq!(level_for_elo(UCI_ELO.max), 20.0);
        let mut previous = -1.0;
        for elo in (UCI_ELO.min..=UCI_ELO.max).step_by(7) {
            let level = level_for_elo(elo);
            assert!(level >= previous, "{elo}");
            previous = level;
        }
        let strongest = EngineOptions {
            limit_strength: true,
            elo: UCI_ELO.max,
            skill_level: 0,
            ..EngineOptions::default()
        };
        assert_eq!(Skill::from_options(&strongest), None);
        let weakest = EngineOptions {
            elo: UCI_ELO.min,
            ..strongest
        };
        assert_eq!(Skill::from_options(&weakest), Skill::at(0.0));
    }

    /// Every goat move of `game`, scored a little lower each (the noise decides among them).
    fn even_candidates(game: &Game) -> Vec<Candidate> {
        game.legal_moves()
            .iter()
            .enumerate()
            .map(|(i, &mv)| Candidate {
                mv,
                score: -3 * i as Value,
            })
            .collect()
    }

    /// Goats to move with the goat on `a4` open to the tiger on `a5`: only a goat on `a3`
    /// keeps it.
    fn goats_to_move() -> Game {
        let position: Position = "T3T/G4/5/5/T3T g 19 0".parse().unwrap();
        Game::new(position, Rules::default())
    }

    #[test]
    fn middle_levels_never_drop_a_goat_for_nothing() {
        let game = goats_to_move();
        let (position, rules) = (game.position(), game.rules());
        let mut candidates = even_candidates(&game);
        let safe = candidates
            .iter()
            .position(|c| open_goats(position, rules, c.mv) == 0)
            .expect("a safe move");
        let first = candidates[0].mv;
        candidates[0].mv = candidates[safe].mv;
        candidates[safe].mv = first;
        assert!(candidates
            .iter()
            .any(|c| open_goats(position, rules, c.mv) > 0));
        let mut weakest_dropped = false;
        for seed in 0..200 {
            for level in [5.0, 8.0, 12.0, 19.0] {
                let skill = Skill::at(level).unwrap();
                let chosen = candidates[skill.pick(position, rules, &candidates, seed)];
                assert_eq!(open_goats(position, rules, chosen.mv), 0, "{level} {seed}");
            }
            let chosen =
                candidates[Skill::at(0.0)
                    .unwrap()
                    .pick(position, rules, &candidates, seed)];
            weakest_dropped |= open_goats(position, rules, chosen.mv) > 0;
        }
        assert!(weakest_dropped, "level 0 has no guard");
    }

    #[test]
    fn the_pick_repeats_for_a_seed_and_varies_with_it() {
        let tigers: Position = "T3T/G4/5/5/T3T t 19 0".parse().unwrap();
        let game = Game::new(tigers, Rules::default());
        let (position, rules) = (game.position(), game.rules());
        let candidates = even_candidates(&game);
        let skill = Skill::at(2.0).unwrap();
        let picks: Vec<usize> = (0..50)
            .map(|seed| skill.pick(position, rules, &candidates, seed))
            .collect();
        let again: Vec<usize> = (0..50)
            .map(|seed| skill.pick(position, rules, &candidates, seed))
            .collect();
        assert_eq!(picks, again);
        assert!(picks.iter().any(|&i| i != picks[0]));
        // A far better best line is always kept at a high level.
        let clear = [
            candidates[0],
            Candidate {
                score: -400,
                ..candidates[1]
            },
        ];
        for seed in 0..50 {
            assert_eq!(
                Skill::at(18.0).unwrap().pick(position, rules, &clear, seed),
                0
            );
        }
    }
}
