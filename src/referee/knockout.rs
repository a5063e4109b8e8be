//! Knockout tournaments (cutechess-cli's `-tournament knockout`): single elimination.
//!
//! The engines are seeded in the order given (the first is seed 1) and placed in the standard
//! bracket of the next power of two, so that seed 1 meets seed 2 only in the final; the missing
//! places are byes, which go to the top seeds. Each match plays `-games` games (colours and
//! openings as in any encounter: `-repeat`, `-noswap`, `-reverse`). A match still tied plays
//! two more games at a time, up to [`MAX_TIEBREAK_GAMES`]; still tied after those, the higher
//! seed goes through.
//!
//! Which games exist depends on results, so the bracket is rebuilt from the results so far
//! ([`bracket`]), a pure function: the same results give the same games, numbers and
//! openings, which is what `-resume` needs.

use super::outcome::GameResult;
use super::schedule::{GameNumbering, ScheduleConfig, ScheduledGame};
use crate::Side;
use std::collections::HashMap;

/// Extra games a tied match may play, two at a time, before the higher seed goes through.
pub const MAX_TIEBREAK_GAMES: u32 = 10;

/// One match of the bracket.
#[derive(Clone, Debug, PartialEq)]
pub struct KnockoutMatch {
    /// Bracket round, 1-based.
    pub round: u32,
    /// The higher seed (engine index).
    pub first: usize,
    /// The lower seed; None for a bye.
    pub second: Option<usize>,
    /// The match's game numbers.
    pub games: Vec<u64>,
    /// Points of the first and the second engine in the games finished so far.
    pub score: (f64, f64),
    /// Tie-break games played (included in `games`).
    pub tiebreak_games: u32,
    /// The engine going through, once decided.
    pub winner: Option<usize>,
    /// Whether the match was still tied after every tie-break game (the higher seed went
    /// through).
    pub by_seed: bool,
}

/// The bracket as far as the results so far decide it.
#[derive(Clone, Debug, PartialEq)]
pub struct Bracket {
    /// Every game known so far, in game-number order (played or to play).
    pub games: Vec<ScheduledGame>,
    /// The matches of each round reached so far.
    pub rounds: Vec<Vec<KnockoutMatch>>,
    /// The winner of the tournament, once decided.
    pub champion: Option<usize>,
}

/// Bracket positions of the seeds (0-based) in a bracket of `size` (a power of two):
/// `[0, 3, 1, 2]` for 4, so that 0 meets 3 and 1 meets 2 first and 0 meets 1 last.
pub fn seeding_order(size: usize) -> Vec<usize> {
    let mut order = vec![0];
    while order.len() < size {
        let places = order.len() * 2;
        order = order.iter().flat_map(|&s| [s, places - 1 - s]).collect();
    }
    order
}

/// The bracket given the results so far (by game number): every game known (those of rounds
/// reached, and tie-breaks of finished ties), the matches and, once decided, the champion.
/// Games of a round come before the next round's; a round's tie-breaks come after its own games.
pub fn bracket(config: &ScheduleConfig, results: &HashMap<u64, GameResult>) -> Bracket {
    let mut field: Vec<Option<usize>> = seeding_order(config.engines.next_power_of_two())
        .into_iter()
        .map(|seed| (seed < config.engines).then_some(seed))
        .collect();
    let mut numbering = GameNumbering::default();
    let mut out = Bracket {
        games: Vec::new(),
        rounds: Vec::new(),
        champion: None,
    };
    let mut round = 0;
    while field.len() > 1 {
        round += 1;
        let mut matches: Vec<KnockoutMatch> = field
            .chunks(2)
            .filter_map(|pair| {
                let (first, second) = match (pair[0], pair[1]) {
                    (Some(a), Some(b)) => (a.min(b), Some(a.max(b))),
                    (Some(a), None) | (None, Some(a)) => (a, None),
                    (None, None) => return None,
                };
                Some(KnockoutMatch {
                    round,
                    first,
                    second,
                    games: Vec::new(),
                    score: (0.0, 0.0),
                    tiebreak_games: 0,
                    winner: second.is_none().then_some(first),
                    by_seed: false,
                })
            })
            .collect();
        let mut batch = config.games;
        loop {
            for m in matches.iter_mut().filter(|m| m.winner.is_none()) {
                let second = m.second.expect("a bye is decided");
                if !m.games.is_empty() {
                    m.tiebreak_games += batch;
                }
                for _ in 0..batch {
                    let game = numbering.next(config, round, m.first, second);
                    m.games.push(game.number);
                    out.games.push(game);
                }
            }
            let finished = score_matches(&mut matches, &out.games, results);
            if !finished {
                out.rounds.push(matches);
                return out;
            }
            for m in matches.iter_mut().filter(|m| m.winner.is_none()) {
                if m.score.0 != m.score.1 {
                    let second = m.second.expect("a bye is decided");
                    m.winner = Some(if m.score.0 > m.score.1 {
                        m.first
                    } else {
                        second
                    });
                } else if m.tiebreak_games >= MAX_TIEBREAK_GAMES {
                    m.winner = Some(m.first);
                    m.by_seed = true;
                }
            }
            if matches.iter().all(|m| m.winner.is_some()) {
                break;
            }
            batch = 2;
        }
        field = matches.iter().map(|m| m.winner).collect();
        out.rounds.push(matches);
    }
    out.champion = field.first().copied().flatten();
    out
}

/// Adds up the scores of the undecided matches; false while any of their games has no result.
fn score_matches(
    matches: &mut [KnockoutMatch],
    games: &[ScheduledGame],
    results: &HashMap<u64, GameResult>,
) -> bool {
    let mut finished = true;
    for m in matches.iter_mut().filter(|m| m.winner.is_none()) {
        m.score = (0.0, 0.0);
        for number in &m.games {
            let game = &games[(*number - 1) as usize];
            let Some(result) = results.get(number) else {
                finished = false;
                continue;
            };
            let (goat, tiger) = (
                result.points_for(Side::Goats),
                result.points_for(Side::Tigers),
            );
            if game.goat == m.first {
                m.score.0 += goat;
                m.score.1 += tiger;
            } else {
                m.score.0 += tiger;
                m.score.1 += goat;
            }
        }
    }
    finished
}

/// The bracket for the output: one line per match, then the winner.
pub fn bracket_lines(bracket: &Bracket, names: &[String]) -> Vec<String> {
    let mut lines = Vec::new();
    for m in bracket.rounds.iter().flatten() {
        let first = &names[m.first];
        let line = match (m.second, m.winner) {
            (None, _) => format!("Knockout round {}: {first} has a bye", m.round),
            (Some(second), winner) => {
                let second = &names[second];
                let state = match winner {
                    None => "undecided".to_string(),
                    Some(w) if m.by_seed => {
                        format!("{} goes through as the higher seed", names[w])
                    }
                    Some(w) => format!("{} goes through", names[w]),
                };
                let tiebreak = if m.tiebreak_games > 0 {
                    format!(" after {} tie-break games", m.tiebreak_games)
                } else {
                    String::new()
                };
                format!(
                    "Knockout round {}: {first} - {second} {:.1} - {:.1} in {} games{tiebreak}: {state}",
                    m.round,
                    m.score.0,
                    m.score.1,
                    m.games.len()
                )
            }
        };
        lines.push(line);
    }
    if let Some(champion) = bracket.champion {
        lines.push(format!("Knockout winner: {}", names[champion]));
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::referee::schedule::Tournament;

    fn config(engines: usize, games: u32) -> ScheduleConfig {
        ScheduleConfig::plain(engines, Tournament::Knockout, 1, games, 4)
    }

    /// Plays the bracket to the end, every game won by the engine `wins` prefers.
    fn play_out(config: &ScheduleConfig, wins: impl Fn(usize, usize) -> Option<usize>) -> Bracket {
        let mut results = HashMap::new();
        loop {
            let bracket = bracket(config, &results);
            let open: Vec<&ScheduledGame> = bracket
                .games
                .iter()
                .filter(|g| !results.contains_key(&g.number))
                .collect();
            if open.is_empty() {
                return bracket;
            }
            for game in open {
                let result = match wins(game.goat, game.tiger) {
                    Some(w) if w == game.goat => GameResult::GoatsWin,
                    Some(_) => GameResult::TigersWin,
                    None => GameResult::Draw,
                };
                results.insert(game.number, result);
            }
        }
    }

    #[test]
    fn seeds_meet_as_late_as_possible() {
        assert_eq!(seeding_order(1), vec![0]);
        assert_eq!(seeding_order(4), vec![0, 3, 1, 2]);
        assert_eq!(seeding_order(8), vec![0, 7, 3, 4, 1, 6, 2, 5]);
        let mut all = seeding_order(16);
        all.sort_unstable();
        assert_eq!(all, (0..16).collect::<Vec<_>>());
    }

    #[test]
    fn five_engines_with_byes_and_the_lower_index_always_winning() {
        let bracket = play_out(&config(5, 2), |a, b| Some(a.min(b)));
        assert_eq!(bracket.champion, Some(0));
        // 8 places: seeds 0, 1, 2 have byes; 3 meets 4 in round 1.
        let first: Vec<(usize, Option<usize>)> = bracket.rounds[0]
            .iter()
            .map(|m| (m.first, m.second))
            .collect();
        assert_eq!(first, vec![(0, None), (3, Some(4)), (1, None), (2, None)]);
        assert_eq!(bracket.rounds.len(), 3);
        assert_eq!(bracket.rounds[1][0].second, Some(3));
        assert_eq!(bracket.rounds[2][0].first, 0);
        assert_eq!(bracket.rounds[2][0].second, Some(1));
        // Four matches of two games, numbered in order, openings in pairs.
        assert_eq!(bracket.games.len(), 8);
        assert!(bracket
            .games
            .iter()
            .enumerate()
            .all(|(i, g)| g.number == i as u64 + 1));
        let lines = bracket_lines(&bracket, &["A", "B", "C", "D", "E"].map(String::from));
        assert_eq!(lines.last().unwrap(), "Knockout winner: A");
        assert!(lines.contains(&"Knockout round 1: A has a bye".to_string()));
    }

    #[test]
    fn ties_play_two_more_games_then_go_to_the_higher_seed() {
        // Every game drawn: 2 games plus 10 tie-break games, then seed 0 goes through.
        let bracket = play_out(&config(2, 2), |_, _| None);
        let m = &bracket.rounds[0][0];
        assert_eq!((m.games.len(), m.tiebreak_games), (12, 10));
        assert!(m.by_seed);
        assert_eq!(bracket.champion, Some(0));
        // The goats always win: a pair is a tie, so tie-breaks never end it either.
        let goats = play_out(&config(2, 2), |goat, _| Some(goat));
        assert_eq!(goats.rounds[0][0].games.len(), 12);
        // An odd number of games: the goats always win and the first engine has goats twice.
        let odd = play_out(&config(2, 3), |goat, _| Some(goat));
        assert_eq!(odd.rounds[0][0].games.len(), 3);
        assert_eq!(odd.rounds[0][0].score, (2.0, 1.0));
        assert_eq!(odd.champion, Some(0));
    }

    #[test]
    fn the_bracket_waits_for_results() {
        let config = config(4, 2);
        let empty = bracket(&config, &HashMap::new());
        assert_eq!(empty.games.len(), 4);
        assert_eq!(empty.rounds.len(), 1);
        assert_eq!(empty.champion, None);
        let mut results: HashMap<u64, GameResult> =
            (1..=3).map(|n| (n, GameResult::GoatsWin)).collect();
        assert_eq!(bracket(&config, &results).games.len(), 4);
        results.insert(4, GameResult::TigersWin);
        // Match 1 (0 vs 3) tied 1-1 by goats wins: two tie-break games; match 2 decided.
        let next = bracket(&config, &results);
        assert_eq!(next.games.len(), 6);
        assert_eq!(next.games[4].pair, next.games[5].pair);
        assert_eq!(next.rounds[0][1].winner, Some(1));
    }
}
