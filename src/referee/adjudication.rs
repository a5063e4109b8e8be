//! Adjudication: maximum plies (in [`super::game`]), draw and resign rules on engine scores.

use super::outcome::GameResult;
use crate::Side;

/// Draw adjudication: from ply `move_number` on, when both engines' last `move_count` scores are
/// all within ±`score` centi-goats.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct DrawRule {
    /// First ply at which the rule applies.
    pub move_number: u32,
    /// Consecutive scores needed from each engine.
    pub move_count: u32,
    /// Score bound, centi-goats.
    pub score: i32,
}

/// Resign adjudication: an engine whose last `move_count` scores are all at or below `-score`
/// loses (with `two_sided`, only if its opponent's are all at or above `score`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ResignRule {
    /// Consecutive scores needed.
    pub move_count: u32,
    /// Score bound, centi-goats.
    pub score: i32,
    /// Whether the opponent must agree.
    pub two_sided: bool,
}

/// All adjudication rules of a match.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Adjudication {
    /// Plies after which the game is drawn (0: never).
    pub max_plies: u32,
    /// Draw rule.
    pub draw: Option<DrawRule>,
    /// Resign rule.
    pub resign: Option<ResignRule>,
}

/// `Goats` or `Tigers`.
pub fn capitalized(side: Side) -> &'static str {
    match side {
        Side::Goats => "Goats",
        Side::Tigers => "Tigers",
    }
}

/// Checks draw and resign rules after a move; `scores` holds each side's engine scores so far.
pub fn adjudicate(
    rules: &Adjudication,
    plies: usize,
    mover: Side,
    scores: &[Vec<i32>; 2],
) -> Option<(GameResult, String)> {
    let last = |side: Side, count: u32| -> Option<&[i32]> {
        let list = &scores[side.index()];
        let count = count as usize;
        (count > 0 && list.len() >= count).then(|| &list[list.len() - count..])
    };
    if let Some(resign) = rules.resign {
        let losing =
            last(mover, resign.move_count).is_some_and(|s| s.iter().all(|&v| v <= -resign.score));
        let agreed = !resign.two_sided
            || last(mover.opposite(), resign.move_count)
                .is_some_and(|s| s.iter().all(|&v| v >= resign.score));
        if losing && agreed {
            let reason = format!(
                "{} win: {} resign (score at most -{} cg for {} moves)",
                capitalized(mover.opposite()),
                mover,
                resign.score,
                resign.move_count
            );
            return Some((GameResult::win_for(mover.opposite()), reason));
        }
    }
    if let Some(draw) = rules.draw {
        let quiet = |side: Side| {
            last(side, draw.move_count).is_some_and(|s| s.iter().all(|&v| v.abs() <= draw.score))
        };
        if plies >= draw.move_number as usize && quiet(Side::Goats) && quiet(Side::Tigers) {
            let reason = format!(
                "Draw by adjudication: scores within {} cg for {} moves",
                draw.score, draw.move_count
            );
            return Some((GameResult::Draw, reason));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adjudication_rules() {
        let rules = Adjudication {
            max_plies: 0,
            draw: Some(DrawRule {
                move_number: 10,
                move_count: 2,
                score: 20,
            }),
            resign: Some(ResignRule {
                move_count: 2,
                score: 500,
                two_sided: false,
            }),
        };
        let quiet = [vec![5, -10], vec![0, 20]];
        assert_eq!(adjudicate(&rules, 9, Side::Tigers, &quiet), None);
        assert_eq!(
            adjudicate(&rules, 10, Side::Tigers, &quiet).unwrap().0,
            GameResult::Draw
        );
        let lost = [vec![-600, -700], vec![100]];
        let (result, reason) = adjudicate(&rules, 4, Side::Goats, &lost).unwrap();
        assert_eq!(result, GameResult::TigersWin);
        assert!(reason.contains("goats resign"), "{reason}");
        let two_sided = Adjudication {
            resign: Some(ResignRule {
                two_sided: true,
                ..rules.resign.unwrap()
            }),
            ..rules
        };
        assert_eq!(adjudicate(&two_sided, 4, Side::Goats, &lost), None);
    }
}
