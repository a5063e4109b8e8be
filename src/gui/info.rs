//! Engine `info` lines read into what the page shows: depth, score, speed and the principal
//! variation, each PV move checked against the game (cut at the first illegal one).

use crate::referee::engine_process::{parse_info, Score};
use crate::{Game, Move, Side};
use serde::Serialize;

/// One search report of an engine.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct InfoView {
    /// MultiPV line number, 1 = best.
    pub multipv: u32,
    /// Depth reached.
    pub depth: u32,
    /// Centi-goats from the goats' point of view (mates as ±100000 minus the distance).
    pub goats_cp: Option<i32>,
    /// The score as the engine gave it, from the side to move's view: `+1.25`, `-0.40`,
    /// `#3`, `#-2`.
    pub score: Option<String>,
    /// Nodes searched.
    pub nodes: Option<u64>,
    /// Nodes per second.
    pub nps: Option<u64>,
    /// The principal variation: legal moves from the searched position.
    pub pv: Vec<String>,
}

/// The value after `key` in the tokens, parsed.
fn value<T: std::str::FromStr>(tokens: &[&str], key: &str) -> Option<T> {
    let at = tokens.iter().position(|t| *t == key)?;
    tokens.get(at + 1)?.parse().ok()
}

/// The score text from the side to move's view.
fn score_text(score: Score) -> String {
    match score {
        Score::Centi(cp) => format!("{:+.2}", f64::from(cp) / 100.0),
        Score::Mate(moves) => format!("#{moves}"),
    }
}

/// Reads an `info` line with a score and a `pv` searched in `game`'s current position; `None`
/// for other lines (`info string`, `currmove`, bound-only reports are kept).
pub fn read_info(line: &str, game: &Game) -> Option<InfoView> {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    if tokens.first() != Some(&"info") || tokens.contains(&"string") {
        return None;
    }
    let pv_at = tokens.iter().position(|t| *t == "pv")?;
    let (score, depth) = parse_info(&tokens[..pv_at].join(" "));
    let mut replay = game.clone();
    let mut pv = Vec::new();
    for text in &tokens[pv_at + 1..] {
        let Ok(mv) = text.parse::<Move>() else { break };
        if replay.play(mv).is_err() {
            break;
        }
        pv.push(mv.to_string());
    }
    if pv.is_empty() {
        return None;
    }
    let mover = game.position().side_to_move();
    let goats_cp = score.map(|score| {
        let cp = match score {
            Score::Centi(cp) => cp,
            Score::Mate(moves) if moves >= 0 => 100_000 - moves,
            Score::Mate(moves) => -100_000 - moves,
        };
        if mover == Side::Goats {
            cp
        } else {
            -cp
        }
    });
    Some(InfoView {
        multipv: value(&tokens[..pv_at], "multipv").unwrap_or(1),
        depth: depth.unwrap_or(0),
        goats_cp,
        score: score.map(score_text),
        nodes: value(&tokens[..pv_at], "nodes"),
        nps: value(&tokens[..pv_at], "nps"),
        pv,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Rules;

    #[test]
    fn reads_lines_and_cuts_the_pv_at_an_illegal_move() {
        let game = Game::startpos(Rules::default());
        let line = "info depth 9 seldepth 10 multipv 2 score cp -222 nodes 345572 nps 1614777 pv e3 e1d2 e4 e4e5";
        let info = read_info(line, &game).unwrap();
        assert_eq!(info.multipv, 2);
        assert_eq!(info.depth, 9);
        assert_eq!(info.goats_cp, Some(-222));
        assert_eq!(info.score.as_deref(), Some("-2.22"));
        assert_eq!(info.nps, Some(1_614_777));
        assert_eq!(info.pv, vec!["e3", "e1d2", "e4"]);
        assert!(read_info("info string hello pv c3", &game).is_none());
        assert!(read_info("info depth 3 currmove c3", &game).is_none());
        let mut tigers = game.clone();
        tigers.play("c3".parse().unwrap()).unwrap();
        let mate = read_info("info depth 5 score mate 2 pv a1b2", &tigers).unwrap();
        assert_eq!(
            (mate.goats_cp, mate.score.as_deref()),
            (Some(-99_998), Some("#2"))
        );
    }
}
