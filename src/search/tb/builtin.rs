//! The root without a tablebase, in the crowded movement layers: the built-in values
//! ([`crate::tablebase::builtin`]) leave out the root moves that throw the value away, and the
//! search chooses among the rest, as it does among the moves a tablebase keeps. There a single
//! wrong step of a narrow line of shuffles loses a draw or a long win that the search sees only
//! at a depth it does not reach in time (docs/eval.md).
//!
//! Applied only under the draw rule (where a table draw is the game's draw; under `forbid` it
//! is not, see [`super`]), at full strength (the skill levels keep their mistakes), for the
//! rules the values were made for, and when no tablebase covers the root.

use crate::search::options::EngineOptions;
use crate::search::skill::Skill;
use crate::tablebase::builtin::{BuiltinTables, BUILTIN_RULES};
use crate::tablebase::{TableRules, Wdl};
use crate::{Game, Move, Repetition};

use super::repeats_in;
use super::root::TbRoot;

/// [`TbRoot::Keep`] with the root moves (`moves`, legal in `game`) worth searching by the
/// built-in values: every move whose value is unknown (a tigers' capture out of the last layer
/// stored) and the known moves of the best known value. [`TbRoot::NotCovered`] when the values
/// do not apply or leave every move in.
pub fn builtin_root(game: &Game, options: &EngineOptions, moves: &[Move]) -> TbRoot {
    let rules = game.rules();
    let applies = rules.repetition == Repetition::Draw
        && TableRules::of(rules) == BUILTIN_RULES
        && Skill::from_options(options).is_none();
    let Some(builtin) = BuiltinTables::get().filter(|_| applies) else {
        return TbRoot::NotCovered;
    };
    let values: Vec<(Move, Option<Wdl>)> = moves
        .iter()
        .map(|&mv| (mv, move_value(builtin, game, mv)))
        .collect();
    let rank = |wdl: Wdl| match wdl {
        Wdl::Win => 2,
        Wdl::Draw => 1,
        Wdl::Loss => 0,
    };
    let Some(best) = values
        .iter()
        .filter_map(|&(_, value)| value)
        .max_by_key(|&v| rank(v))
    else {
        return TbRoot::NotCovered;
    };
    let keeping: Vec<Move> = values
        .iter()
        .filter(|&&(_, value)| value.is_none_or(|value| value == best))
        .map(|&(mv, _)| mv)
        .collect();
    if keeping.len() < moves.len() {
        TbRoot::Keep(keeping)
    } else {
        TbRoot::NotCovered
    }
}

/// The value for the mover of playing `mv` in `game`: a draw when the draw rule ends the game
/// there by repetition, else the built-in value of the position reached; `None` when unknown.
fn move_value(builtin: &BuiltinTables, game: &Game, mv: Move) -> Option<Wdl> {
    let child = game.position().played(mv);
    if repeats_in(game, &child) {
        return Some(Wdl::Draw);
    }
    builtin.wdl(&child).map(Wdl::negate)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Position, Rules};

    fn game(text: &str, repetition: Repetition) -> Game {
        let position: Position = text.parse().expect("position");
        let rules = Rules {
            repetition,
            ..Rules::DEFAULT
        };
        Game::new(position, rules)
    }

    fn kept(game: &Game, options: &EngineOptions) -> Option<Vec<String>> {
        let moves: Vec<Move> = game.legal_moves().to_vec();
        match builtin_root(game, options, &moves) {
            TbRoot::Keep(keeping) => Some(keeping.iter().map(Move::to_string).collect()),
            TbRoot::NotCovered => None,
            other => panic!("{other:?}"),
        }
    }

    /// Game 12 of the 20-opening self-play at 100 ms (docs/eval.md): the goats played a4b4,
    /// where by the complete tables only b3b4 and c5b4 keep the draw.
    const CROWDED_DRAW: &str = "T1GGG/G2TG/GGT1G/GGTGG/GGGGG g 0 3";

    #[test]
    fn a_crowded_draw_keeps_only_its_drawing_moves() {
        let game = game(CROWDED_DRAW, Repetition::Draw);
        let mut keeping = kept(&game, &EngineOptions::default()).expect("covered");
        keeping.sort();
        assert_eq!(keeping, ["b3b4", "c5b4"]);
        assert!(game.legal_moves().iter().any(|mv| mv.to_string() == "a4b4"));
    }

    #[test]
    fn forbid_skill_levels_and_other_rules_are_left_to_the_search() {
        let forbid = game(CROWDED_DRAW, Repetition::Forbid);
        assert_eq!(kept(&forbid, &EngineOptions::default()), None);
        let draw = game(CROWDED_DRAW, Repetition::Draw);
        let weak = EngineOptions {
            skill_level: 10,
            ..EngineOptions::default()
        };
        assert_eq!(kept(&draw, &weak), None);
        let position: Position = CROWDED_DRAW.parse().expect("position");
        let rules = Rules {
            captures_to_win: 4,
            ..Rules::DEFAULT
        };
        assert_eq!(
            kept(&Game::new(position, rules), &EngineOptions::default()),
            None
        );
    }

    #[test]
    fn a_move_back_to_an_earlier_position_is_a_draw_and_the_opening_is_left_alone() {
        let opening = game(crate::START_POSITION, Repetition::Draw);
        assert_eq!(kept(&opening, &EngineOptions::default()), None);
        // b3b4, a tiger step, b4b3: the tiger's step back would repeat the first position.
        let builtin = BuiltinTables::get().expect("values");
        let start = game(CROWDED_DRAW, Repetition::Draw);
        let mut checked = 0;
        let mut after_b3b4 = start.clone();
        after_b3b4
            .play("b3b4".parse().expect("move"))
            .expect("legal");
        for reply in after_b3b4.legal_moves().iter().copied() {
            let mut game = after_b3b4.clone();
            game.play(reply).expect("legal");
            let Ok(()) = game.play("b4b3".parse().expect("move")) else {
                continue;
            };
            let text = reply.to_string();
            let Ok(back) = format!("{}{}", &text[2..], &text[..2]).parse::<Move>() else {
                continue;
            };
            if !game.legal_moves().contains(&back) {
                continue;
            }
            assert_eq!(move_value(builtin, &game, back), Some(Wdl::Draw), "{reply}");
            checked += 1;
        }
        assert!(checked > 0);
    }
}
